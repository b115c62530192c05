/* ldmatrix, stmatrix and movmatrix (src/exec/exec_matrix.c) against the PTX
 * ISA's fragment layout computed on the host: four 8x8 b16 matrices in
 * shared memory with padded rows (32 bytes apart, each lane giving one row's
 * address), loaded with .x1 / .x2 / .x4 with and without .trans, transposed
 * in registers with movmatrix, and stored back with stmatrix (.trans). */
#include <string.h>

#include "test_exec_util.h"

#define MHEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static uint16_t v_of(unsigned i, unsigned r, unsigned c) { return (uint16_t)(i * 1000 + r * 10 + c + 1); }

/* Lane t's register of matrix i in the fragment layout (trans: of its transpose). */
static uint32_t frag(unsigned i, unsigned t, int trans) {
    unsigned r = t / 4, c = 2 * (t % 4);
    if (trans) return (uint32_t)v_of(i, c, r) | (uint32_t)v_of(i, c + 1, r) << 16;
    return (uint32_t)v_of(i, r, c) | (uint32_t)v_of(i, r, c + 1) << 16;
}

TEST(matrix_ldmatrix_stmatrix_movmatrix) {
    /* in: 1024 bytes = the shared image; out: 32 lanes x 16 words, then the
       stmatrix image (1024 bytes) */
    const char *ptx = MHEAD
        ".visible .entry k(.param .u64 po, .param .u64 pi)\n{\n"
        ".reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n.shared .align 16 .b8 sm[1024];\n.shared .align 16 .b8 so[1024];\n"
        "ld.param.u64 %rd1, [po];\nld.param.u64 %rd2, [pi];\nmov.u32 %r0, %tid.x;\n"
        /* copy the image: thread t moves bytes 32t .. 32t + 31 */
        "mul.wide.u32 %rd3, %r0, 32;\nadd.s64 %rd4, %rd2, %rd3;\nmov.u32 %r1, sm;\nshl.b32 %r2, %r0, 5;\n"
        "add.u32 %r3, %r1, %r2;\nld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd4];\nst.shared.v4.u32 [%r3], {%r4, %r5, %r6, %r7};\n"
        "ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd4+16];\nst.shared.v4.u32 [%r3+16], {%r4, %r5, %r6, %r7};\n"
        "bar.sync 0;\n"
        /* lane t: row t % 8 of matrix t / 8 */
        "shr.u32 %r8, %r0, 3;\nand.b32 %r9, %r0, 7;\nshl.b32 %r10, %r8, 8;\nshl.b32 %r11, %r9, 5;\n"
        "add.u32 %r12, %r10, %r11;\nadd.u32 %r13, %r1, %r12;\n"
        "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20, %r21, %r22, %r23}, [%r13];\n"
        "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r24, %r25, %r26, %r27}, [%r13];\n"
        "ldmatrix.sync.aligned.m8n8.x1.shared.b16 %r28, [%r13];\n"
        "cvta.shared.u64 %rd5, %r13;\n"
        "ldmatrix.sync.aligned.m8n8.x2.trans.b16 {%r29, %r30}, [%rd5];\n" /* generic address */
        "movmatrix.sync.aligned.m8n8.trans.b16 %r31, %r20;\n"
        "mov.u32 %r14, so;\nadd.u32 %r15, %r14, %r12;\n"
        "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%r15], {%r20, %r21, %r22, %r23};\n"
        "bar.sync 0;\n"
        "mul.wide.u32 %rd6, %r0, 64;\nadd.s64 %rd7, %rd1, %rd6;\n"
        "st.global.v4.u32 [%rd7], {%r20, %r21, %r22, %r23};\nst.global.v4.u32 [%rd7+16], {%r24, %r25, %r26, %r27};\n"
        "st.global.v4.u32 [%rd7+32], {%r28, %r29, %r30, %r31};\n"
        "add.u32 %r16, %r14, %r2;\nld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r16];\n"
        "add.s64 %rd8, %rd1, 2048;\nadd.s64 %rd9, %rd8, %rd3;\nst.global.v4.u32 [%rd9], {%r4, %r5, %r6, %r7};\n"
        "ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r16+16];\nst.global.v4.u32 [%rd9+16], {%r4, %r5, %r6, %r7};\n"
        "ret;\n}\n";
    static uint16_t img[512];
    for (int k = 0; k < 512; k++) img[k] = 0xEEEE;
    for (unsigned i = 0; i < 4; i++)
        for (unsigned r = 0; r < 8; r++)
            for (unsigned c = 0; c < 8; c++) img[(i * 256 + r * 32) / 2 + c] = v_of(i, r, c);
    static uint32_t out[512 + 256];
    memset(out, 0, sizeof out);
    wx_buf b[2] = {{NULL, out, sizeof out}, {img, NULL, sizeof img}};
    wx_cfg cfg = {0};
    cfg.block[0] = 32;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_OK);
    CHECK_MSG(f.code == WS_OK, "%s", f.msg);
    unsigned bad = 0;
    for (unsigned t = 0; t < 32; t++) {
        const uint32_t *o = &out[t * 16];
        uint32_t want[12] = {frag(0, t, 0), frag(1, t, 0), frag(2, t, 0), frag(3, t, 0),
                             frag(0, t, 1), frag(1, t, 1), frag(2, t, 1), frag(3, t, 1),
                             frag(0, t, 0), frag(0, t, 1), frag(1, t, 1), frag(0, t, 1)};
        for (int k = 0; k < 12; k++)
            if (o[k] != want[k] && bad++ < 6) CHECK_MSG(0, "lane %u word %d: 0x%08x, want 0x%08x", t, k, o[k], want[k]);
    }
    /* stmatrix.trans of the plain fragments writes each matrix transposed;
       the row padding is left alone (zero: fresh shared memory) */
    const uint16_t *so = (const uint16_t *)&out[512];
    for (unsigned i = 0; i < 4; i++)
        for (unsigned r = 0; r < 8; r++)
            for (unsigned c = 0; c < 16; c++) {
                uint16_t want = c < 8 ? v_of(i, c, r) : 0;
                if (so[(i * 256 + r * 32) / 2 + c] != want && bad++ < 6)
                    CHECK_MSG(0, "stmatrix %u (%u,%u): 0x%04x, want 0x%04x", i, r, c, so[(i * 256 + r * 32) / 2 + c], want);
            }
    CHECK_EQ_U64(bad, 0);
    /* a partial warp cannot run them */
    const char *part = MHEAD ".visible .entry k(.param .u64 po, .param .u64 pi)\n{\n.reg .b32 %r<4>;\n.reg .pred %p<2>;\n"
                       ".shared .align 16 .b8 sm[256];\nmov.u32 %r0, %tid.x;\nsetp.lt.u32 %p1, %r0, 16;\nmov.u32 %r1, sm;\n"
                       "@%p1 ldmatrix.sync.aligned.m8n8.x1.shared.b16 %r2, [%r1];\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(part, &cfg, b, 2, &f, NULL), WS_ERR_LAUNCH_FAILURE);
    CHECK_STR_CONTAINS(f.msg, "ldmatrix needs all 32 lanes");
}
