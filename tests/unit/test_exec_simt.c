/* SIMT reconvergence, calls, barriers, warp-level ops and atomics. */
#include "test_exec_util.h"

#define KHEAD WX_HEAD ".visible .entry k(.param .u64 po, .param .u64 pa)\n{\n" \
    ".reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n.reg .pred %p<8>;\n" \
    "ld.param.u64 %rd1, [po];\nmov.u32 %r0, %tid.x;\nmul.wide.u32 %rd2, %r0, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"

static ws_status run1(const char *ptx, unsigned nthreads, uint32_t *out, size_t nout, ws_fault *f) {
    wx_buf b[2] = {{NULL, out, nout * 4}, {NULL, NULL, 4096}};
    wx_cfg cfg = {0};
    cfg.block[0] = nthreads;
    return wx_launch(ptx, &cfg, b, 2, f, NULL);
}

TEST(exec_simt_nested_divergence_reconverges) {
    /* out = (tid odd ? (tid%4==1 ? 10 : 20) : 30) + activemask-after-join popc */
    const char *ptx = KHEAD
        "and.b32 %r1, %r0, 1;\nsetp.eq.s32 %p1, %r1, 0;\n@%p1 bra EVEN;\n"
        "and.b32 %r2, %r0, 3;\nsetp.eq.s32 %p2, %r2, 1;\n@%p2 bra ONE;\nmov.u32 %r5, 20;\nbra JOIN1;\n"
        "ONE:\nmov.u32 %r5, 10;\nJOIN1:\nactivemask.b32 %r6;\npopc.b32 %r7, %r6;\nadd.s32 %r5, %r5, %r7;\nbra JOIN;\n"
        "EVEN:\nmov.u32 %r5, 30;\nJOIN:\nactivemask.b32 %r8;\npopc.b32 %r9, %r8;\nmul.lo.s32 %r9, %r9, 1000;\n"
        "add.s32 %r5, %r5, %r9;\nst.global.u32 [%rd3], %r5;\nret;\n}\n";
    uint32_t out[32];
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 32, out, 32, &f), WS_OK);
    for (int t = 0; t < 32; t++) {
        uint32_t inner = (t & 1) ? ((t & 3) == 1 ? 10 + 16 : 20 + 16) : 30;
        CHECK_EQ_U64(out[t], 32000 + inner);
    }
}

TEST(exec_simt_loop_with_break) {
    /* sum = 0; for (i = 0; i < tid; i++) { if (i == 5) break; sum += i; }; out = sum + 100*popc(activemask) */
    const char *ptx = KHEAD
        "mov.u32 %r1, 0;\nmov.u32 %r2, 0;\n"
        "LOOP:\nsetp.ge.u32 %p1, %r1, %r0;\n@%p1 bra DONE;\nsetp.eq.u32 %p2, %r1, 5;\n@%p2 bra DONE;\n"
        "add.s32 %r2, %r2, %r1;\nadd.s32 %r1, %r1, 1;\nbra LOOP;\n"
        "DONE:\nactivemask.b32 %r3;\npopc.b32 %r4, %r3;\nmad.lo.s32 %r2, %r4, 100, %r2;\n"
        "st.global.u32 [%rd3], %r2;\nret;\n}\n";
    uint32_t out[40];
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 40, out, 40, &f), WS_OK);
    for (int t = 0; t < 40; t++) {
        uint32_t s = 0;
        for (int i = 0; i < t && i != 5; i++) s += (uint32_t)i;
        CHECK_EQ_U64(out[t], s + 100u * (t < 32 ? 32 : 8));
    }
}

TEST(exec_simt_early_exit_then_barrier) {
    /* odd threads exit; the rest pass bar.sync (exited threads do not block it) */
    const char *ptx = KHEAD
        "and.b32 %r1, %r0, 1;\nsetp.ne.s32 %p1, %r1, 0;\n@%p1 exit;\n"
        "bar.sync 0;\nactivemask.b32 %r3;\nst.global.u32 [%rd3], %r3;\nbar.sync 0;\nret;\n}\n";
    uint32_t out[64] = {0};
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 64, out, 64, &f), WS_OK);
    for (int t = 0; t < 64; t++) CHECK_EQ_U64(out[t], (t & 1) ? 0 : 0x55555555u);
}

TEST(exec_simt_exit_inside_divergent_loop) {
    const char *ptx = KHEAD
        "mov.u32 %r1, 0;\nLOOP:\nadd.s32 %r1, %r1, 1;\nsetp.eq.u32 %p1, %r1, %r0;\n@%p1 bra OUT;\n"
        "setp.lt.u32 %p2, %r1, 8;\n@%p2 bra LOOP;\nst.global.u32 [%rd3], %r1;\nexit;\n"
        "OUT:\nst.global.u32 [%rd3], 777;\nexit;\n}\n";
    uint32_t out[32];
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 32, out, 32, &f), WS_OK);
    for (int t = 0; t < 32; t++) CHECK_EQ_U64(out[t], (t >= 1 && t <= 8) ? 777 : 8);
}

TEST(exec_simt_divergent_call_and_recursion) {
    const char *ptx = WX_HEAD
        ".func (.param .b32 rv) twice(.param .b32 x)\n{\n.reg .b32 %r<4>;\nld.param.b32 %r1, [x];\n"
        "shl.b32 %r2, %r1, 1;\nst.param.b32 [rv], %r2;\nret;\n}\n"
        ".func (.param .b32 rv) fact(.param .b32 n)\n{\n.reg .b32 %r<6>;\n.reg .pred %p<2>;\n"
        "ld.param.b32 %r1, [n];\nsetp.le.u32 %p1, %r1, 1;\n@%p1 bra BASE;\nsub.s32 %r2, %r1, 1;\n"
        "{\n.param .b32 a0;\n.param .b32 r0;\nst.param.b32 [a0], %r2;\ncall (r0), fact, (a0);\nld.param.b32 %r3, [r0];\n}\n"
        "mul.lo.s32 %r4, %r3, %r1;\nst.param.b32 [rv], %r4;\nret;\n"
        "BASE:\nst.param.b32 [rv], 1;\nret;\n}\n"
        ".visible .entry k(.param .u64 po, .param .u64 pa)\n{\n"
        ".reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n.reg .pred %p<8>;\n"
        "ld.param.u64 %rd1, [po];\nmov.u32 %r0, %tid.x;\nmul.wide.u32 %rd2, %r0, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
        "mov.u32 %r5, %r0;\nand.b32 %r1, %r0, 1;\nsetp.ne.s32 %p1, %r1, 0;\n@%p1 bra SKIP;\n"
        "{\n.param .b32 a;\n.param .b32 r;\nst.param.b32 [a], %r0;\ncall (r), twice, (a);\nld.param.b32 %r5, [r];\n}\n"
        "SKIP:\nand.b32 %r6, %r0, 7;\n"
        "{\n.param .b32 a;\n.param .b32 r;\nst.param.b32 [a], %r6;\ncall (r), fact, (a);\nld.param.b32 %r7, [r];\n}\n"
        "mad.lo.s32 %r5, %r7, 1000, %r5;\nst.global.u32 [%rd3], %r5;\nret;\n}\n";
    uint32_t out[32];
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 32, out, 32, &f), WS_OK);
    static const uint32_t fact[8] = {1, 1, 2, 6, 24, 120, 720, 5040};
    for (int t = 0; t < 32; t++) CHECK_EQ_U64(out[t], fact[t & 7] * 1000u + ((t & 1) ? (uint32_t)t : 2u * t));
}

/* brx.idx over a .branchtargets table (a switch): lanes pick one of 6
 * cases by tid % 7 (C1 twice in the table); with guard, the lanes whose
 * guard is false fall through. Each case group runs alone (C2 counts its
 * own lanes) and all meet after the switch (popc of the mask at JOIN). */
static const char *brx_kernel(bool guarded) {
    static char buf[2048];
    snprintf(buf, sizeof buf, "%s"
        "rem.u32 %%r1, %%r0, 7;\nsetp.lt.u32 %%p1, %%r0, 20;\n"
        "$Ltab: .branchtargets C0, C1, C2, C3, C4, C5, C1;\n"
        "%sbrx.idx %%r1, $Ltab;\n"
        "mov.u32 %%r5, 9;\nbra JOIN;\n"
        "C0:\nmov.u32 %%r5, 100;\nbra JOIN;\n"
        "C1:\nadd.u32 %%r5, %%r0, 200;\nbra JOIN;\n"
        "C2:\nactivemask.b32 %%r6;\npopc.b32 %%r7, %%r6;\nmul.lo.u32 %%r5, %%r0, %%r0;\n"
        "mad.lo.u32 %%r5, %%r7, 100000, %%r5;\nbra JOIN;\n"
        "C3:\nmov.u32 %%r5, 7;\nbra JOIN;\n"
        "C4:\nshl.b32 %%r5, %%r0, 4;\nbra JOIN;\n"
        "C5:\nmov.u32 %%r5, 55;\n"
        "JOIN:\nactivemask.b32 %%r6;\npopc.b32 %%r7, %%r6;\nmad.lo.u32 %%r5, %%r7, 1000, %%r5;\n"
        "st.global.u32 [%%rd3], %%r5;\nret;\n}\n", KHEAD, guarded ? "@%p1 " : "");
    return buf;
}

TEST(exec_simt_brx_idx_divergent_switch) {
    for (int guarded = 0; guarded < 2; guarded++) {
        uint32_t out[40];
        ws_fault f;
        CHECK_EQ_I64(run1(brx_kernel(guarded), 40, out, 40, &f), WS_OK);
        for (uint32_t t = 0; t < 40; t++) {
            uint32_t c = t % 7, v, warp0 = t < 32, c2 = 0;
            for (uint32_t u = warp0 ? 0 : 32; u < (warp0 ? 32u : 40u); u++)
                c2 += u % 7 == 2 && (!guarded || u < 20);
            if (guarded && t >= 20) v = 9;
            else if (c == 0) v = 100;
            else if (c == 1 || c == 6) v = 200 + t;
            else if (c == 2) v = t * t + 100000 * c2;
            else if (c == 3) v = 7;
            else if (c == 4) v = t << 4;
            else v = 55;
            CHECK_MSG(out[t] == v + 1000 * (warp0 ? 32 : 8), "guarded %d: out[%u] = %u, want %u", guarded, t,
                      out[t], v + 1000 * (warp0 ? 32 : 8));
        }
    }
}

TEST(exec_simt_brx_idx_out_of_range_faults) {
    const char *ptx = KHEAD "$T: .branchtargets A, B;\nbrx.idx %r0, $T;\nA:\nB:\nret;\n}\n";
    uint32_t out[4];
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 4, out, 4, &f), WS_ERR_LAUNCH_FAILURE);
    CHECK(strstr(f.msg, "brx.idx index 2") != NULL);
}

TEST(exec_warp_vote_shfl_partial_warp) {
    /* 20 threads: ballot of odd lanes, shfl.down by 1 (clamp 31) with predicate, bfly 1, idx 0 */
    const char *ptx = KHEAD
        "and.b32 %r1, %r0, 1;\nsetp.ne.s32 %p1, %r1, 0;\nvote.sync.ballot.b32 %r2, %p1, 0xfffff;\n"
        "mul.lo.s32 %r3, %r0, 10;\nshfl.sync.down.b32 %r4|%p2, %r3, 1, 31, 0xfffff;\n"
        "shfl.sync.bfly.b32 %r5, %r3, 1, 31, 0xfffff;\nshfl.sync.idx.b32 %r6, %r3, 3, 31, 0xfffff;\n"
        "shfl.sync.up.b32 %r7|%p3, %r3, 2, 0, 0xfffff;\n"
        "vote.sync.all.pred %p4, %p1, 0xfffff;\nvote.sync.any.pred %p5, %p1, 0xfffff;\n"
        "selp.u32 %r8, 1, 0, %p4;\nselp.u32 %r9, 2, 0, %p5;\nselp.u32 %r10, 4, 0, %p2;\nselp.u32 %r11, 8, 0, %p3;\n"
        "or.b32 %r8, %r8, %r9;\nor.b32 %r8, %r8, %r10;\nor.b32 %r8, %r8, %r11;\n"
        "mul.wide.u32 %rd4, %r0, 32;\nadd.s64 %rd5, %rd1, %rd4;\n"
        "st.global.v4.u32 [%rd5], {%r2, %r4, %r5, %r6};\nst.global.v2.u32 [%rd5+16], {%r7, %r8};\nret;\n}\n";
    uint32_t out[20 * 8];
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 20, out, 20 * 8, &f), WS_OK);
    for (uint32_t t = 0; t < 20; t++) {
        const uint32_t *o = &out[t * 8];
        CHECK_EQ_U64(o[0], 0xAAAAAu);
        if (t != 19) CHECK_EQ_U64(o[1], (t + 1) * 10); /* lane 20 does not exist: undefined */
        CHECK_EQ_U64(o[2], (t ^ 1) * 10);
        CHECK_EQ_U64(o[3], 30);
        CHECK_EQ_U64(o[4], t >= 2 ? (t - 2) * 10 : t * 10);
        CHECK_EQ_U64(o[5], 2u | 4u | (t >= 2 ? 8u : 0u));
    }
}

TEST(exec_warp_match_redux) {
    const char *ptx = KHEAD
        "and.b32 %r1, %r0, 3;\nmatch.any.sync.b32 %r2, %r1, 0xffffffff;\n"
        "redux.sync.add.u32 %r3, %r0, 0xffffffff;\nredux.sync.max.s32 %r4, %r0, 0xffffffff;\n"
        "match.all.sync.b32 %r5|%p1, %r1, 0xffffffff;\nselp.u32 %r6, 1, 0, %p1;\n"
        "mul.wide.u32 %rd4, %r0, 16;\nadd.s64 %rd5, %rd1, %rd4;\nst.global.v4.u32 [%rd5], {%r2, %r3, %r4, %r6};\nret;\n}\n";
    uint32_t out[32 * 4];
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 32, out, 32 * 4, &f), WS_OK);
    for (uint32_t t = 0; t < 32; t++) {
        CHECK_EQ_U64(out[t * 4], 0x11111111u << (t & 3));
        CHECK_EQ_U64(out[t * 4 + 1], 496);
        CHECK_EQ_U64(out[t * 4 + 2], 31);
        CHECK_EQ_U64(out[t * 4 + 3], 0);
    }
}

TEST(exec_atomics_histogram_deterministic) {
    /* 256 threads in 2 CTAs: bins[tid % 8] += 1 (global), shared counter, cas, returned old values unique */
    const char *ptx = WX_HEAD
        ".visible .entry k(.param .u64 po, .param .u64 pa)\n{\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
        ".reg .pred %p<4>;\n.shared .u32 cnt;\n.reg .f32 %f<4>;\n"
        "ld.param.u64 %rd1, [po];\nld.param.u64 %rd6, [pa];\nmov.u32 %r0, %tid.x;\n"
        "setp.ne.u32 %p1, %r0, 0;\n@%p1 bra W;\nst.shared.u32 [cnt], 0;\nW:\nbar.sync 0;\n"
        "and.b32 %r1, %r0, 7;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
        "atom.global.add.u32 %r2, [%rd3], 1;\nred.global.add.u32 [%rd1+32], 2;\n"
        "atom.shared.inc.u32 %r3, [cnt], 1000;\n"
        "mul.wide.u32 %rd4, %r0, 4;\nadd.s64 %rd5, %rd6, %rd4;\nst.global.u32 [%rd5], %r3;\n"
        "atom.global.max.s32 %r4, [%rd1+36], %r0;\natom.global.cas.b32 %r5, [%rd1+40], %r0, 1000;\n"
        "mov.f32 %f1, 0f3F000000;\natom.global.add.f32 %f2, [%rd1+44], %f1;\n"
        "atom.global.exch.b32 %r6, [%rd1+48], %r0;\nret;\n}\n";
    uint32_t out[16] = {0}, olds[128] = {0};
    wx_buf b[2] = {{NULL, out, sizeof out}, {NULL, olds, sizeof olds}};
    wx_cfg cfg = {0};
    cfg.block[0] = 128;
    cfg.grid[0] = 2;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_OK);
    for (int i = 0; i < 8; i++) CHECK_EQ_U64(out[i], 32);
    CHECK_EQ_U64(out[8], 512);
    CHECK_EQ_U64(out[9], 127);
    CHECK_EQ_U64(out[10], 1000); /* thread 0 of CTA 0 swapped 0 -> 1000 */
    CHECK(wx_tof32(out[11]) == 128.0f);
    CHECK_EQ_U64(out[12] % 32, 31); /* lanes in order: the warp's last lane exchanges last */
    /* inc ran lane by lane: each warp got 32 consecutive values, all distinct */
    uint32_t seen[4] = {0};
    for (uint32_t w = 0; w < 4; w++) {
        CHECK_EQ_U64(olds[w * 32] % 32, 0);
        for (uint32_t l = 0; l < 32; l++) CHECK_EQ_U64(olds[w * 32 + l], olds[w * 32] + l);
        if (olds[w * 32] < 128) seen[olds[w * 32] / 32]++;
    }
    for (int i = 0; i < 4; i++) CHECK_EQ_U64(seen[i], 1);
}

TEST(exec_barrier_count_arrive_red) {
    /* bar.red.popc over 64 threads; bar.arrive + bar.sync with count */
    const char *ptx = KHEAD
        "and.b32 %r1, %r0, 3;\nsetp.eq.s32 %p1, %r1, 0;\nbar.red.popc.u32 %r2, 0, %p1;\n"
        "bar.red.or.pred %p2, 1, %p1;\nselp.u32 %r3, 100, 0, %p2;\nadd.s32 %r2, %r2, %r3;\n"
        "bar.red.and.pred %p3, 2, %p1;\nselp.u32 %r4, 1000, 0, %p3;\nadd.s32 %r2, %r2, %r4;\n"
        "setp.lt.u32 %p4, %r0, 32;\n@%p4 bar.arrive 3, 64;\n@!%p4 bar.sync 3, 64;\n"
        "st.global.u32 [%rd3], %r2;\nret;\n}\n";
    uint32_t out[64];
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 64, out, 64, &f), WS_OK);
    for (int t = 0; t < 64; t++) CHECK_EQ_U64(out[t], 16 + 100);
}

TEST(exec_barrier_deadlock_detected) {
    const char *ptx = KHEAD
        "setp.lt.u32 %p1, %r0, 32;\n@%p1 bra A;\nbar.sync 1;\nret;\nA:\nbar.sync 0;\nret;\n}\n";
    uint32_t out[64];
    ws_fault f;
    CHECK_EQ_I64(run1(ptx, 64, out, 64, &f), WS_ERR_DEADLOCK);
    CHECK_STR_CONTAINS(f.msg, "deadlock");
    CHECK_STR_CONTAINS(f.msg, "warp 0 waits at barrier 0");
    CHECK_STR_CONTAINS(f.msg, "warp 1 waits at barrier 1");
    CHECK_STR_CONTAINS(f.msg, "line");
    /* a count that can never be reached once warps exited */
    const char *ptx2 = KHEAD "setp.ge.u32 %p1, %r0, 32;\n@%p1 exit;\nbar.sync 0, 64;\nret;\n}\n";
    CHECK_EQ_I64(run1(ptx2, 64, out, 64, &f), WS_ERR_DEADLOCK);
    CHECK_STR_CONTAINS(f.msg, "32 of 64 threads arrived");
}

TEST(exec_max_warp_insts_cap_stops_cleanly) {
    const char *ptx = KHEAD "L:\nadd.s32 %r1, %r1, 1;\nbra L;\n}\n";
    wx_buf b[1] = {{NULL, NULL, 64}};
    wx_cfg cfg = {0};
    cfg.block[0] = 64;
    cfg.max_warp_insts = 1000;
    ws_exec_counts cnt;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, &cnt), WS_OK);
    CHECK_EQ_U64(cnt.warp_insts, 1000);
    CHECK(cnt.thread_insts > 0);
}

TEST(exec_trap_and_unsupported_call) {
    uint32_t out[4];
    ws_fault f;
    CHECK_EQ_I64(run1(KHEAD "trap;\nret;\n}\n", 4, out, 4, &f), WS_ERR_TRAP);
    CHECK_STR_CONTAINS(f.msg, "trap");
    /* an .extern the engine does not implement */
    const char *ptx = WX_HEAD ".extern .func (.param .b32 r) ext_helper(.param .b64 a, .param .b64 b);\n"
        ".visible .entry k(.param .u64 po, .param .u64 pa)\n{\n.reg .b32 %r<4>;\n"
        "{\n.param .b64 a;\n.param .b64 b;\n.param .b32 r;\nst.param.b64 [a], 0;\nst.param.b64 [b], 0;\n"
        "call.uni (r), ext_helper, (a, b);\n}\nret;\n}\n";
    CHECK_EQ_I64(run1(ptx, 4, out, 4, &f), WS_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(f.msg, "ext_helper");
    CHECK_STR_CONTAINS(f.msg, "snippet.ptx:");
    /* vprintf is built in: a null format returns -1, as in CUDA */
    ptx = WX_HEAD ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
        ".visible .entry k(.param .u64 po, .param .u64 pa)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
        "{\n.param .b64 a;\n.param .b64 b;\n.param .b32 r;\nst.param.b64 [a], 0;\nst.param.b64 [b], 0;\n"
        "call.uni (r), vprintf, (a, b);\nld.param.b32 %r1, [r];\n}\nld.param.u64 %rd1, [po];\n"
        "mov.u32 %r2, %tid.x;\nmul.wide.u32 %rd2, %r2, 4;\nadd.u64 %rd1, %rd1, %rd2;\n"
        "st.global.u32 [%rd1], %r1;\nret;\n}\n";
    CHECK_EQ_I64(run1(ptx, 4, out, 4, &f), WS_OK);
    CHECK_EQ_I64((int32_t)out[0], -1);
    CHECK_EQ_I64((int32_t)out[3], -1);
}
