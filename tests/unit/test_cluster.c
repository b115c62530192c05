/* Thread-block cluster rules (src/exec/cluster.c): the special registers of
 * every CTA of 3-D clusters against the CPU's numbering, the dispatch order,
 * the split cluster barrier (arrive and wait apart, phases, exited threads),
 * distributed shared memory through mapa and getctarank (ranks, offsets,
 * bounds), and a barrier that can never complete. */
#include <string.h>

#include "test_exec_util.h"

#define CHEAD ".version 8.0\n.target sm_90\n.address_size 64\n"                  \
    ".visible .entry k(.param .u64 po)\n{\n"                                  \
    ".reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n.reg .pred %p<8>;\n"              \
    ".shared .align 16 .b32 sm[64];\n"                                       \
    "ld.param.u64 %rd1, [po];\nmov.u32 %r0, %tid.x;\n"

/* Linear CTA number of ctaid in a grid g (x fastest). */
static uint32_t lin(const uint32_t id[3], const uint32_t g[3]) { return id[0] + g[0] * (id[1] + g[1] * id[2]); }

/* A 4x2x3 grid of 2x1x3 clusters: thread 0 of each CTA writes its cluster
   registers to out[16 * linear ctaid]. */
TEST(cluster_special_registers_and_order) {
    const char *ptx = CHEAD
        "setp.ne.u32 %p1, %r0, 0;\n@%p1 ret;\n"
        "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %ctaid.y;\nmov.u32 %r3, %ctaid.z;\nmov.u32 %r4, %nctaid.x;\n"
        "mov.u32 %r5, %nctaid.y;\nmad.lo.u32 %r6, %r3, %r5, %r2;\nmad.lo.u32 %r6, %r6, %r4, %r1;\n"
        "mul.wide.u32 %rd2, %r6, 64;\nadd.s64 %rd3, %rd1, %rd2;\n"
        "mov.u32 %r10, %clusterid.x;\nmov.u32 %r11, %clusterid.y;\nmov.u32 %r12, %clusterid.z;\n"
        "mov.u32 %r13, %nclusterid.x;\nst.global.v4.u32 [%rd3], {%r10, %r11, %r12, %r13};\n"
        "mov.u32 %r10, %nclusterid.y;\nmov.u32 %r11, %nclusterid.z;\nmov.u32 %r12, %cluster_ctaid.x;\n"
        "mov.u32 %r13, %cluster_ctaid.y;\nst.global.v4.u32 [%rd3+16], {%r10, %r11, %r12, %r13};\n"
        "mov.u32 %r10, %cluster_ctaid.z;\nmov.u32 %r11, %cluster_nctaid.x;\nmov.u32 %r12, %cluster_nctaid.y;\n"
        "mov.u32 %r13, %cluster_nctaid.z;\nst.global.v4.u32 [%rd3+32], {%r10, %r11, %r12, %r13};\n"
        "mov.u32 %r10, %cluster_ctarank;\nmov.u32 %r11, %cluster_nctarank;\n"
        "mov.pred %p2, %is_explicit_cluster;\nselp.u32 %r12, 1, 0, %p2;\n"
        "mov.u32 %r13, %smid;\nst.global.v4.u32 [%rd3+48], {%r10, %r11, %r12, %r13};\nret;\n}\n";
    const uint32_t g[3] = {4, 2, 3}, cd[3] = {2, 1, 3};
    uint32_t out[24 * 16];
    memset(out, 0xff, sizeof out);
    wx_buf b[1] = {{NULL, out, sizeof out}};
    wx_cfg cfg = {0};
    memcpy(cfg.grid, g, sizeof cfg.grid);
    memcpy(cfg.cluster, cd, sizeof cfg.cluster);
    cfg.block[0] = 40;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, NULL), WS_OK);
    unsigned bad = 0;
    for (uint32_t z = 0; z < 3; z++)
        for (uint32_t y = 0; y < 2; y++)
            for (uint32_t x = 0; x < 4; x++) {
                uint32_t id[3] = {x, y, z}, want[16];
                for (int k = 0; k < 3; k++) want[k] = id[k] / cd[k]; /* %clusterid */
                want[3] = g[0] / cd[0];
                want[4] = g[1] / cd[1];
                want[5] = g[2] / cd[2];
                want[6] = x % cd[0];
                want[7] = y % cd[1];
                want[8] = z % cd[2];
                want[9] = cd[0], want[10] = cd[1], want[11] = cd[2];
                want[12] = x % cd[0] + cd[0] * (y % cd[1] + cd[1] * (z % cd[2]));
                want[13] = 6;
                want[14] = 1;
                /* %smid: the cluster's linear number modulo the SMs (15) */
                want[15] = (want[0] + 2 * (want[1] + 2 * want[2])) % 15;
                const uint32_t *o = &out[16 * lin(id, g)];
                for (int k = 0; k < 16; k++)
                    if (o[k] != want[k]) {
                        if (bad++ < 4) CHECK_MSG(0, "CTA (%u,%u,%u) word %d: %u, want %u", x, y, z, k, o[k], want[k]);
                    }
            }
    CHECK_EQ_U64(bad, 0);
    /* dispatch order: cluster by cluster, ranks inside */
    ws_launch_desc l = {0};
    memcpy(l.grid, g, sizeof l.grid);
    memcpy(l.cluster, cd, sizeof l.cluster);
    CHECK_EQ_U64(ws_launch_cluster_size(&l), 6);
    uint32_t seen[24] = {0};
    for (uint64_t s = 0; s < 24; s++) {
        uint32_t id[3];
        ws_launch_cta_of(&l, s, id);
        uint32_t rank = id[0] % 2 + 2 * (id[2] % 3), cl = id[0] / 2 + 2 * id[1];
        CHECK_MSG(s == cl * 6 + rank, "seq %llu -> (%u,%u,%u)", (unsigned long long)s, id[0], id[1], id[2]);
        seen[lin(id, g)]++;
    }
    for (int i = 0; i < 24; i++) CHECK_EQ_U64(seen[i], 1);
    /* without clusters: each CTA its own implicit cluster of one */
    memset(cfg.cluster, 0, sizeof cfg.cluster);
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, NULL), WS_OK);
    const uint32_t *o = &out[16 * 23]; /* CTA (3,1,2) */
    uint32_t want0[16] = {3, 1, 2, 4, 2, 3, 0, 0, 0, 1, 1, 1, 0, 1, 0, 23 % 15};
    for (int k = 0; k < 16; k++) CHECK_MSG(o[k] == want0[k], "implicit word %d: %u, want %u", k, o[k], want0[k]);
    /* a grid that is not a whole number of clusters is refused */
    cfg.cluster[0] = 3;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, NULL), WS_ERR_INVALID_VALUE);
    CHECK_STR_CONTAINS(f.msg, "not a whole number of 3x1x1 clusters");
}

/* Clusters of 4 CTAs of 64 threads: each thread writes sm[tid] = 100 * rank
   + tid, arrives, does unrelated work, waits; then reads sm[tid] of every
   rank through mapa (generic and .shared::cluster forms), getctarank of the
   mapped address, and adds to the next rank's sm[0] with atom and red.
   Warps 1 of ranks 1 and 3 exit before the barrier: they do not count. */
TEST(cluster_barrier_and_distributed_shared_memory) {
    const char *ptx = CHEAD
        "mov.u32 %r1, %cluster_ctarank;\nmov.u32 %r2, sm;\nshl.b32 %r3, %r0, 2;\nadd.u32 %r4, %r2, %r3;\n"
        "and.b32 %r5, %r1, 1;\nsetp.eq.u32 %p1, %r5, 1;\nsetp.ge.u32 %p2, %r0, 32;\nand.pred %p3, %p1, %p2;\n"
        "@%p3 exit;\n"
        "mad.lo.u32 %r6, %r1, 100, %r0;\nst.shared.u32 [%r4], %r6;\n"
        "barrier.cluster.arrive.release.aligned;\n"
        "add.u32 %r7, %r6, 1;\n" /* work between arrive and wait */
        "barrier.cluster.wait.acquire.aligned;\n"
        "mov.u32 %r20, 0;\nmov.u32 %r21, 0;\n"
        "mov.u32 %r8, 0;\nLOOP:\n"
        "mapa.shared::cluster.u32 %r9, %r4, %r8;\nld.shared::cluster.u32 %r10, [%r9];\nadd.u32 %r20, %r20, %r10;\n"
        "cvta.shared.u64 %rd4, %r4;\nmapa.u64 %rd5, %rd4, %r8;\nld.u32 %r11, [%rd5];\nadd.u32 %r21, %r21, %r11;\n"
        "getctarank.shared::cluster.u32 %r12, %r9;\nsetp.ne.u32 %p4, %r12, %r8;\n@%p4 trap;\n"
        "add.u32 %r8, %r8, 1;\nsetp.lt.u32 %p5, %r8, 4;\n@%p5 bra LOOP;\n"
        "getctarank.shared::cluster.u32 %r13, %r4;\n" /* an own address: own rank */
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\n" /* everyone has read before the adds */
        "add.u32 %r14, %r1, 1;\nrem.u32 %r14, %r14, 4;\nmapa.shared::cluster.u32 %r15, %r2, %r14;\n"
        "atom.shared::cluster.add.u32 %r16, [%r15], 1;\nred.shared::cluster.add.u32 [%r15+4], 2;\n"
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\n"
        "ld.shared.u32 %r17, [%r2];\nld.shared.u32 %r18, [%r2+4];\n"
        "mov.u32 %r19, %ctaid.x;\nmad.lo.u32 %r22, %r19, 64, %r0;\nmul.wide.u32 %rd6, %r22, 32;\n"
        "add.s64 %rd7, %rd1, %rd6;\nst.global.v4.u32 [%rd7], {%r20, %r21, %r13, %r17};\n"
        "st.global.v4.u32 [%rd7+16], {%r18, %r7, %r1, %r1};\n"
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\n}\n";
    uint32_t out[8 * 64 * 8];
    memset(out, 0, sizeof out);
    wx_buf b[1] = {{NULL, out, sizeof out}};
    wx_cfg cfg = {0};
    cfg.grid[0] = 8;
    cfg.block[0] = 64;
    cfg.cluster[0] = 4;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, NULL), WS_OK);
    unsigned bad = 0;
    for (uint32_t c = 0; c < 8; c++)
        for (uint32_t t = 0; t < 64; t++) {
            uint32_t r = c % 4;
            const uint32_t *o = &out[(c * 64 + t) * 8];
            if ((r & 1) && t >= 32) {
                bad += o[0] != 0; /* exited */
                continue;
            }
            /* sm[t] of every rank; an exited thread never wrote its word (0) */
            uint32_t sum = 0;
            for (uint32_t q = 0; q < 4; q++) sum += ((q & 1) && t >= 32) ? 0 : 100 * q + t;
            /* sm[0] of this CTA: +1 from each of the previous rank's live threads (64 or 32) */
            uint32_t prev = (r + 3) % 4, adders = (prev & 1) ? 32 : 64;
            uint32_t want[8] = {sum, sum, r, 100 * r + adders, (r * 100 + 1) + 2 * adders, 100 * r + t + 1, r, r};
            for (int k = 0; k < 6; k++)
                if (o[k] != want[k] && bad++ < 4)
                    CHECK_MSG(0, "CTA %u thread %u word %d: %u, want %u", c, t, k, o[k], want[k]);
        }
    CHECK_EQ_U64(bad, 0);
}

/* Wrong uses fail with a message: a rank past the cluster, a wait without an
   arrive, a second arrive in one phase, and a barrier one CTA never reaches
   (reported as a deadlock naming the cluster barrier). */
TEST(cluster_errors) {
    wx_buf b[1] = {{NULL, NULL, 64}};
    wx_cfg cfg = {0};
    cfg.grid[0] = 2;
    cfg.block[0] = 32;
    cfg.cluster[0] = 2;
    ws_fault f;
    const char *far = CHEAD "mov.u32 %r2, sm;\nmapa.shared::cluster.u32 %r3, %r2, 2;\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(far, &cfg, b, 1, &f, NULL), WS_ERR_LAUNCH_FAILURE);
    CHECK_STR_CONTAINS(f.msg, "mapa to CTA rank 2; the cluster has 2");
    const char *past = CHEAD "mov.u32 %r2, 0x3000100;\nld.shared::cluster.u32 %r3, [%r2];\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(past, &cfg, b, 1, &f, NULL), WS_ERR_ILLEGAL_ADDRESS);
    CHECK_STR_CONTAINS(f.msg, "rank 2; the cluster has 2 CTAs");
    const char *off = CHEAD "mov.u32 %r2, 0x2000100;\nld.shared::cluster.u32 %r3, [%r2];\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(off, &cfg, b, 1, &f, NULL), WS_ERR_ILLEGAL_ADDRESS);
    CHECK_STR_CONTAINS(f.msg, "offset 256 of CTA rank 1, which has 256 bytes");
    const char *nowait = CHEAD "barrier.cluster.wait;\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(nowait, &cfg, b, 1, &f, NULL), WS_ERR_LAUNCH_FAILURE);
    CHECK_STR_CONTAINS(f.msg, "barrier.cluster.wait without an arrive");
    const char *twice = CHEAD "barrier.cluster.arrive;\nbarrier.cluster.arrive;\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(twice, &cfg, b, 1, &f, NULL), WS_ERR_LAUNCH_FAILURE);
    CHECK_STR_CONTAINS(f.msg, "arrive twice in one phase");
    /* rank 1 waits in the cluster barrier; rank 0 never arrives, stuck in a
       CTA barrier whose count no one completes */
    const char *dead = CHEAD
        "mov.u32 %r1, %cluster_ctarank;\nsetp.eq.u32 %p1, %r1, 0;\n"
        "@%p1 bar.sync 1, 64;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(dead, &cfg, b, 1, &f, NULL), WS_ERR_DEADLOCK);
    CHECK_STR_CONTAINS(f.msg, "barrier deadlock");
}

/* elect.sync: the lowest lane of the member set leads (full warp, a subset,
   divergent lanes); a remote mbarrier arrive (.shared::cluster through mapa)
   completes the phase another CTA's thread waits on, and it then sees the
   value written into its shared memory before that arrive. */
TEST(cluster_elect_and_remote_mbarrier) {
    const char *ptx = CHEAD
        ".shared .align 8 .b64 mb;\n"
        "elect.sync %r1|%p1, 0xffffffff;\nselp.u32 %r2, 1, 0, %p1;\n"
        "elect.sync _|%p2, 0xffffffff;\nselp.u32 %r3, 1, 0, %p2;\nmov.u32 %r4, 0;\n"
        "mov.u32 %r5, 99;\nmov.u32 %r6, 0;\n"
        "setp.ge.u32 %p3, %r0, 10;\n@!%p3 bra SKIP;\n"
        "elect.sync %r5|%p4, 0xfffffc00;\nselp.u32 %r6, 1, 0, %p4;\nSKIP:\n"
        "mov.u32 %r7, %cluster_ctarank;\nmov.u32 %r8, mb;\nsetp.eq.u32 %p5, %r0, 0;\nsetp.eq.u32 %p6, %r7, 0;\n"
        "and.pred %p7, %p5, %p6;\n@%p7 mbarrier.init.shared.b64 [%r8], 2;\n"
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\n"
        "mov.u32 %r20, 0;\n"
        "setp.eq.u32 %p6, %r7, 1;\nand.pred %p7, %p5, %p6;\n@!%p7 bra NOREMOTE;\n"
        "mov.u32 %r9, sm;\nmapa.shared::cluster.u32 %r10, %r9, 0;\nmov.u32 %r11, 4242;\n"
        "st.shared::cluster.u32 [%r10+8], %r11;\n"
        "mapa.shared::cluster.u32 %r12, %r8, 0;\nmbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r12];\n"
        "NOREMOTE:\n"
        "setp.eq.u32 %p6, %r7, 0;\nand.pred %p7, %p5, %p6;\n@!%p7 bra DONE;\n"
        "mbarrier.arrive.shared.b64 %rd9, [%r8];\n"
        "WAIT:\nmbarrier.try_wait.shared.b64 %p1, [%r8], %rd9;\n@!%p1 bra WAIT;\n"
        "ld.shared.u32 %r20, [sm+8];\n"
        "DONE:\n"
        "mov.u32 %r21, %ctaid.x;\nmad.lo.u32 %r22, %r21, 32, %r0;\nmul.wide.u32 %rd2, %r22, 32;\n"
        "add.s64 %rd3, %rd1, %rd2;\nst.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r5};\n"
        "st.global.v4.u32 [%rd3+16], {%r6, %r20, %r4, %r4};\n"
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\n}\n";
    uint32_t out[2 * 32 * 8];
    memset(out, 0, sizeof out);
    wx_buf b[1] = {{NULL, out, sizeof out}};
    wx_cfg cfg = {0};
    cfg.grid[0] = 2;
    cfg.block[0] = 32;
    cfg.cluster[0] = 2;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, NULL), WS_OK);
    CHECK_MSG(f.code == WS_OK, "%s", f.msg);
    for (uint32_t c = 0; c < 2; c++)
        for (uint32_t t = 0; t < 32; t++) {
            const uint32_t *o = &out[(c * 32 + t) * 8];
            CHECK_MSG(o[0] == 0 && o[1] == (t == 0) && o[2] == (t == 0), "CTA %u lane %u: full elect %u %u %u", c, t,
                      o[0], o[1], o[2]);
            if (t >= 10) CHECK_MSG(o[3] == 10 && o[4] == (t == 10), "lane %u: divergent elect %u %u", t, o[3], o[4]);
            else CHECK_MSG(o[3] == 99 && o[4] == 0, "lane %u: skipped elect %u %u", t, o[3], o[4]);
            CHECK_MSG(o[5] == (c == 0 && t == 0 ? 4242u : 0u), "CTA %u lane %u: after the remote arrive %u", c, t, o[5]);
        }
}
