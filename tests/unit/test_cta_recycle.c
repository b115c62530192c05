/* A finished CTA's object made into the next CTA (ws_cta_recycle, as the
 * timing model's SM slots do) runs it as a fresh ws_cta_create'd one does:
 * shared and local memory and registers read before written are zero again,
 * %tid follows the new block shape, and the warp count may grow or shrink. */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "ptx/ptx.h"
#include "test_exec_util.h"

/* "dirty" fills shared memory, its local array and registers with non-zero
   values; "check" (another block shape) writes per thread: its tid and ctaid,
   a shared word, a local word and a register it reads before writing. */
static const char *rc_ptx =
    WX_HEAD
    ".visible .entry dirty(.param .u64 po)\n{\n"
    ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
    ".shared .align 4 .b8 dsh[2048];\n.local .align 4 .b8 dloc[64];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, 0x5A5A5A5A;\nshl.b32 %r3, %r1, 3;\nmov.u32 %r4, dsh;\n"
    "add.u32 %r4, %r4, %r3;\nst.shared.u32 [%r4], %r2;\nst.shared.u32 [%r4+4], %r2;\n"
    "st.local.u32 [dloc], %r2;\nst.local.u32 [dloc+4], %r2;\nst.local.u32 [dloc+60], %r2;\n"
    "mov.u32 %r9, 77;\nmov.u32 %r10, 88;\nmov.u32 %r11, 99;\n"
    "ld.param.u64 %rd1, [po];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "add.u32 %r12, %r9, %r10;\nadd.u32 %r12, %r12, %r11;\nst.global.u32 [%rd3], %r12;\nret;\n}\n"
    ".visible .entry check(.param .u64 po)\n{\n"
    ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
    ".shared .align 4 .b8 csh[2048];\n.local .align 4 .b8 cloc[16];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %tid.y;\nmov.u32 %r3, %tid.z;\nmov.u32 %r4, %ctaid.x;\n"
    "mov.u32 %r5, %ntid.x;\nmul.lo.u32 %r6, %r2, %r5;\nadd.u32 %r6, %r6, %r1;\n"
    "mov.u32 %r7, %ntid.y;\nmul.lo.u32 %r7, %r7, %r5;\nmad.lo.u32 %r6, %r3, %r7, %r6;\n" /* linear tid */
    "shl.b32 %r8, %r6, 2;\nmov.u32 %r13, csh;\nadd.u32 %r13, %r13, %r8;\nld.shared.u32 %r14, [%r13];\n"
    "ld.local.u32 %r15, [cloc+8];\n"
    "add.u32 %r10, %r9, 1;\n" /* %r9 is read before any write: zero */
    "shl.b32 %r11, %r4, 24;\nshl.b32 %r12, %r3, 16;\nor.b32 %r11, %r11, %r12;\nshl.b32 %r12, %r2, 8;\n"
    "or.b32 %r11, %r11, %r12;\nor.b32 %r11, %r11, %r1;\n"
    "ld.param.u64 %rd1, [po];\nmul.wide.u32 %rd2, %r6, 16;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "st.global.v4.u32 [%rd3], {%r11, %r14, %r15, %r10};\n"
    "st.shared.u32 [%r13], %r11;\nst.local.u32 [cloc+8], %r11;\nret;\n}\n";

/* Steps every warp round-robin until the CTA is done. */
static void rc_run(ws_cta *c) {
    ws_step st;
    ws_fault f;
    for (int any = 1; any;) {
        any = 0;
        for (unsigned w = 0; w < ws_cta_num_warps(c); w++) {
            ws_step_result r = ws_warp_step(c, w, &st, &f);
            if (r == WS_STEP_FAULT) {
                ws_test_fail(__FILE__, __LINE__, "warp %u faulted: %s", w, f.msg);
                return;
            }
            if (r == WS_STEP_OK) any = 1;
        }
    }
    CHECK(ws_cta_done(c));
}

TEST(cta_recycle_runs_as_fresh) {
    ws_diag d;
    ws_module *m = ws_ptx_parse(rc_ptx, strlen(rc_ptx), "recycle.ptx", &d);
    CHECK(m != NULL);
    if (!m) return;
    ws_gmem *g = ws_gmem_create(1 << 20);
    ws_image *img;
    char err[128];
    CHECK_EQ_I64(ws_image_create(g, m, &img, err, sizeof err), WS_OK);
    uint64_t buf;
    CHECK_EQ_I64(ws_gmem_alloc(g, 1 << 14, &buf), WS_OK);
    uint8_t params[8];
    memcpy(params, &buf, 8);
    ws_launch_desc ld = {0}, lc = {0};
    ld.img = lc.img = img;
    ld.params = lc.params = params;
    ld.gmem = lc.gmem = g;
    ld.func = 0;
    lc.func = 1;
    ld.grid[0] = ld.grid[1] = ld.grid[2] = lc.grid[1] = lc.grid[2] = 1;
    lc.grid[0] = 4;
    ld.block[0] = 256; ld.block[1] = ld.block[2] = 1; /* 8 warps */
    /* block shapes of the check kernel: fewer warps, a partial warp, more */
    static const uint32_t shapes[][3] = {{8, 4, 2}, {5, 3, 3}, {16, 8, 3}, {8, 4, 2}};
    uint32_t id0[3] = {0, 0, 0};
    ws_cta *r = ws_cta_create(&ld, id0, 0);
    CHECK(r != NULL);
    for (unsigned s = 0; s < 4 && r; s++) {
        memcpy(lc.block, shapes[s], sizeof lc.block);
        uint32_t nt = shapes[s][0] * shapes[s][1] * shapes[s][2], id[3] = {s, 0, 0};
        /* fresh */
        ws_cta *c = ws_cta_create(&lc, id, 1);
        CHECK(c != NULL);
        if (!c) break;
        rc_run(c);
        uint32_t want[4 * 384], got[4 * 384];
        CHECK_EQ_I64(ws_gmem_read(g, buf, want, nt * 16), WS_OK);
        ws_cta_destroy(c);
        memset(got, 0xEE, sizeof got);
        CHECK_EQ_I64(ws_gmem_write(g, buf, got, nt * 16), WS_OK);
        /* the recycled object: dirtied by the other kernel first (a fresh CTA of it) */
        r = ws_cta_recycle(r, &ld, id0, 0);
        CHECK(r != NULL);
        if (!r) break;
        rc_run(r);
        r = ws_cta_recycle(r, &lc, id, 1);
        CHECK(r != NULL);
        if (!r) break;
        CHECK_EQ_U64(ws_cta_num_warps(r), (nt + 31) / 32);
        rc_run(r);
        CHECK_EQ_I64(ws_gmem_read(g, buf, got, nt * 16), WS_OK);
        CHECK(memcmp(want, got, nt * 16) == 0);
        for (uint32_t t = 0; t < nt; t++) {
            uint32_t x = t % shapes[s][0], y = t / shapes[s][0] % shapes[s][1], z = t / (shapes[s][0] * shapes[s][1]);
            CHECK_EQ_U64(got[4 * t], s << 24 | z << 16 | y << 8 | x);
            CHECK_EQ_U64(got[4 * t + 1], 0); /* shared memory starts at zero */
            CHECK_EQ_U64(got[4 * t + 2], 0); /* local memory too */
            CHECK_EQ_U64(got[4 * t + 3], 1); /* and a register read before written */
        }
        /* the same CTA object again for the same kernel (the common case): the shared and
           local words it wrote last are zero again */
        r = ws_cta_recycle(r, &lc, id, 1);
        CHECK(r != NULL);
        if (!r) break;
        rc_run(r);
        CHECK_EQ_I64(ws_gmem_read(g, buf, got, nt * 16), WS_OK);
        CHECK(memcmp(want, got, nt * 16) == 0);
    }
    ws_cta_destroy(r);
    ws_image_destroy(img, g);
    ws_gmem_destroy(g);
    ws_module_free(m);
}

/* An image gets a new stamp from its gmem, so that one made at a destroyed
   image's address is told apart (the SM keeps its decoded tables per image). */
TEST(cta_image_stamps_differ) {
    const char *ptx = WX_HEAD ".visible .entry k()\n{\nret;\n}\n";
    ws_diag d;
    ws_module *m = ws_ptx_parse(ptx, strlen(ptx), "s.ptx", &d);
    CHECK(m != NULL);
    if (!m) return;
    ws_gmem *g = ws_gmem_create(1 << 20);
    ws_image *a, *b;
    char err[128];
    CHECK_EQ_I64(ws_image_create(g, m, &a, err, sizeof err), WS_OK);
    uint64_t sa = a->stamp;
    ws_image_destroy(a, g);
    CHECK_EQ_I64(ws_image_create(g, m, &b, err, sizeof err), WS_OK);
    CHECK(b->stamp != sa);
    ws_image_destroy(b, g);
    ws_gmem_destroy(g);
    ws_module_free(m);
}
