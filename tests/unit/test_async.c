/* cp.async and mbarrier rules (src/exec/exec_async.c): zero fill of a short
 * source, sizes refused, phases of an mbarrier across warps (a failed wait
 * in functional mode lets the other warps run), tx-counts that go below zero
 * before expect_tx, arrive_drop, .parity waits, over-arrival and a barrier
 * that can never complete. */
#include <string.h>

#include "test_exec_util.h"

#define AHEAD WX_HEAD ".visible .entry k(.param .u64 po, .param .u64 pi)\n{\n" \
    ".reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n.reg .pred %p<8>;\n"              \
    ".shared .align 16 .b8 sm[1024];\n.shared .align 8 .b64 mb;\n"           \
    "ld.param.u64 %rd1, [po];\nld.param.u64 %rd2, [pi];\nmov.u32 %r0, %tid.x;\n"

/* Thread t copies 16 bytes from in + 16t with src-size t % 17 (0: no read at
   all, even of a bad address), then the shared bytes go to out. */
TEST(cp_async_zero_fill_and_sizes) {
    const char *ptx = AHEAD
        "mul.lo.u32 %r1, %r0, 16;\nmov.u32 %r2, sm;\nadd.u32 %r3, %r2, %r1;\n"
        "cvt.u64.u32 %rd3, %r1;\nadd.s64 %rd4, %rd2, %rd3;\n"
        "rem.u32 %r4, %r0, 17;\nsetp.eq.u32 %p1, %r4, 0;\n@%p1 mov.u64 %rd4, 0;\n" /* null source */
        "cp.async.cg.shared.global [%r3], [%rd4], 16, %r4;\n"
        "cp.async.commit_group;\ncp.async.wait_group 0;\n"
        "add.u32 %r5, %r3, 8;\ncp.async.ca.shared.global [%r5], [%rd4+8], 8, 0;\n" /* zero the upper half */
        "cp.async.wait_all;\nbar.sync 0;\n"
        "add.s64 %rd5, %rd1, %rd3;\nld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r3];\n"
        "st.global.v4.u32 [%rd5], {%r10, %r11, %r12, %r13};\nret;\n}\n";
    uint8_t in[32 * 16], out[32 * 16];
    for (int i = 0; i < 32 * 16; i++) in[i] = (uint8_t)(i * 37 + 1);
    wx_buf b[2] = {{NULL, out, sizeof out}, {in, NULL, sizeof in}};
    wx_cfg cfg = {0};
    cfg.block[0] = 32;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_OK);
    unsigned bad = 0;
    for (int t = 0; t < 32; t++) {
        int n = t % 17;
        for (int i = 0; i < 16; i++) bad += out[t * 16 + i] != (i < n && i < 8 ? in[t * 16 + i] : 0);
    }
    CHECK_EQ_U64(bad, 0);
    /* src-size above cp-size: refused naming both */
    const char *big = AHEAD "mov.u32 %r3, sm;\ncp.async.ca.shared.global [%r3], [%rd2], 4, 8;\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(big, &cfg, b, 2, &f, NULL), WS_ERR_LAUNCH_FAILURE);
    CHECK_STR_CONTAINS(f.msg, "cp.async src-size 8 larger than its cp-size 4");
    const char *cg8 = AHEAD "mov.u32 %r3, sm;\ncp.async.cg.shared.global [%r3], [%rd2], 8;\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(cg8, &cfg, b, 2, &f, NULL), WS_ERR_UNSUPPORTED);
}

/* 4 warps arrive on one mbarrier; every thread records whether its first
   test_wait succeeded (only the last warp's can, in functional mode where a
   warp runs until it waits), spins on try_wait until the phase completes,
   then reads what all the others wrote before arriving. */
TEST(mbarrier_phase_across_warps) {
    const char *ptx = AHEAD
        "mov.u32 %r1, mb;\nsetp.ne.u32 %p1, %r0, 0;\n"
        "@!%p1 mbarrier.init.shared.b64 [%r1], 128;\nbar.sync 0;\n"
        "mul.lo.u32 %r2, %r0, 4;\nmov.u32 %r3, sm;\nadd.u32 %r4, %r3, %r2;\n"
        "mul.lo.u32 %r5, %r0, 3;\nst.shared.u32 [%r4], %r5;\n"
        "mbarrier.arrive.shared.b64 %rd3, [%r1];\n"
        "mbarrier.test_wait.shared.b64 %p2, [%r1], %rd3;\nselp.u32 %r6, 1, 0, %p2;\n"
        "LOOP:\nmbarrier.try_wait.shared.b64 %p3, [%r1], %rd3;\n@!%p3 bra LOOP;\n"
        "xor.b32 %r7, %r0, 127;\nmul.lo.u32 %r8, %r7, 4;\nadd.u32 %r9, %r3, %r8;\nld.shared.u32 %r10, [%r9];\n"
        "mbarrier.pending_count.b64 %r11, %rd3;\n"
        /* the next phase has parity 1: not complete; phase 0 is */
        "mbarrier.test_wait.parity.shared.b64 %p4, [%r1], 1;\nselp.u32 %r12, 1, 0, %p4;\n"
        "mbarrier.test_wait.parity.shared.b64 %p5, [%r1], 0;\nselp.u32 %r13, 1, 0, %p5;\n"
        "mad.lo.u32 %r12, %r12, 2, %r13;\n"
        "mul.wide.u32 %rd4, %r0, 16;\nadd.s64 %rd5, %rd1, %rd4;\n"
        "st.global.v4.u32 [%rd5], {%r6, %r10, %r11, %r12};\nret;\n}\n";
    uint32_t out[128 * 4];
    wx_buf b[2] = {{NULL, out, sizeof out}, {NULL, NULL, 16}};
    wx_cfg cfg = {0};
    cfg.block[0] = 128;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_OK);
    /* the warps arrive in some order, lanes in lane order; the last warp to
       arrive completes the phase, and only its first test_wait succeeds */
    unsigned bad = 0, seen[128] = {0};
    for (uint32_t t = 0; t < 128; t++) {
        uint32_t pend = out[4 * t + 2], last_warp = pend < 32;
        bad += pend > 127 || (t % 32 && pend + 1 != out[4 * (t - 1) + 2]);
        if (pend <= 127) seen[pend]++;
        bad += out[4 * t] != last_warp;         /* first test_wait */
        bad += out[4 * t + 1] != (t ^ 127) * 3; /* the other thread's value */
        bad += out[4 * t + 3] != 1; /* parity 1 (the current phase) not done, parity 0 done */
    }
    for (int i = 0; i < 128; i++) bad += seen[i] != 1;
    CHECK_EQ_U64(bad, 0);
}

/* tx-counts: a bulk copy's complete_tx may run before the expect_tx that
   announces it; the phase completes when both the arrivals and the bytes are
   in. arrive_drop lowers the count of later phases. */
TEST(mbarrier_tx_count_and_drop) {
    const char *ptx = AHEAD
        "mov.u32 %r1, mb;\nmbarrier.init.shared.b64 [%r1], 2;\n"
        "mov.u32 %r2, sm;\n"
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd2], 64, [%r1];\n"
        "mbarrier.arrive.shared.b64 %rd3, [%r1];\n"                     /* 1 of 2, tx -64 */
        "mbarrier.arrive.expect_tx.shared.b64 %rd4, [%r1], 64;\n"       /* 2 of 2, tx 0: done */
        "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd4;\nselp.u32 %r3, 1, 0, %p1;\n"
        /* phase 1: expect 32 bytes first, arrive twice: not complete until complete_tx */
        "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 32;\n"
        "mbarrier.arrive.shared.b64 %rd5, [%r1];\nmbarrier.arrive_drop.shared.b64 %rd6, [%r1];\n"
        "mbarrier.test_wait.shared.b64 %p2, [%r1], %rd6;\nselp.u32 %r4, 1, 0, %p2;\n"
        "mbarrier.complete_tx.shared.b64 [%r1], 32;\n"
        "mbarrier.test_wait.shared.b64 %p3, [%r1], %rd6;\nselp.u32 %r5, 1, 0, %p3;\n"
        /* phase 2 expects 1 arrival (one was dropped) */
        "mbarrier.arrive.shared.b64 %rd7, [%r1];\n"
        "mbarrier.test_wait.shared.b64 %p4, [%r1], %rd7;\nselp.u32 %r6, 1, 0, %p4;\n"
        "ld.shared.u32 %r7, [%r2+60];\n"
        "st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};\nst.global.u32 [%rd1+16], %r7;\nret;\n}\n";
    uint32_t in[16], out[5];
    for (int i = 0; i < 16; i++) in[i] = 1000u + (uint32_t)i;
    wx_buf b[2] = {{NULL, out, sizeof out}, {in, NULL, sizeof in}};
    wx_cfg cfg = {0};
    cfg.block[0] = 1;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_OK);
    CHECK(out[0] == 1 && out[1] == 0 && out[2] == 1 && out[3] == 1);
    CHECK_EQ_U64(out[4], 1015);
}

TEST(mbarrier_misuse_is_reported) {
    wx_buf b[2] = {{NULL, NULL, 16}, {NULL, NULL, 16}};
    wx_cfg cfg = {0};
    cfg.block[0] = 1;
    ws_fault f;
    const char *over = AHEAD "mov.u32 %r1, mb;\nmbarrier.init.shared.b64 [%r1], 1;\n"
                             "mbarrier.arrive.shared.b64 %rd3, [%r1], 2;\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(over, &cfg, b, 2, &f, NULL), WS_ERR_LAUNCH_FAILURE);
    CHECK_STR_CONTAINS(f.msg, "mbarrier arrive of 2 with 1 arrival(s) pending");
    /* two warps wait for 65 arrivals: functional mode reports the deadlock */
    const char *never = AHEAD "mov.u32 %r1, mb;\nsetp.ne.u32 %p1, %r0, 0;\n"
                              "@!%p1 mbarrier.init.shared.b64 [%r1], 65;\nbar.sync 0;\n"
                              "mbarrier.arrive.shared.b64 %rd3, [%r1];\n"
                              "L:\nmbarrier.try_wait.shared.b64 %p2, [%r1], %rd3;\n@!%p2 bra L;\nret;\n}\n";
    cfg.block[0] = 64;
    CHECK_EQ_I64(wx_launch(never, &cfg, b, 2, &f, NULL), WS_ERR_DEADLOCK);
    CHECK_STR_CONTAINS(f.msg, "warp 0 waits on an mbarrier; warp 1 waits on an mbarrier;");
}
