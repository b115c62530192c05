/* Tensor-core instructions: the forms the decoder accepts and refuses, the
 * fragment layouts (every matrix element held, mma.sync's as the PTX ISA's
 * tables place them), mma.sync's arithmetic against a CPU model of the rule
 * in src/exec/exec_mma.c (random f16 values, .satfinite on s32 overflow), the
 * whole-warp requirement, cvt.tf32.f32's rounding and the timing of each
 * shape. The WMMA API end to end is tests/data/cuda/tensor_basic.cu. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "ptx/mma.h"
#include "test_exec_util.h"
#include "test_ptx_util.h"
#include "timing/sm/sm_internal.h"

static const char *decode(const char *op, ws_inst *in) {
    memset(in, 0, sizeof *in);
    bool wmma = strncmp(op, "wmma", 4) == 0;
    in->op = wmma ? WS_OP_WMMA : WS_OP_MMA;
    const char *dot = strchr(op, '.');
    return ws_mma_decode(in, wmma, dot, strlen(dot));
}

/* What nvcc 13 emits for the WMMA API (sm_75 and sm_80), and mma.sync forms. */
static const char *const good[] = {
    "wmma.load.a.sync.aligned.row.m16n16k16.global.f16", "wmma.load.b.sync.aligned.col.m16n16k16.f16",
    "wmma.load.c.sync.aligned.col.m16n16k16.global.f16", "wmma.load.c.sync.aligned.row.m32n8k16.global.s32",
    "wmma.load.a.sync.aligned.row.m32n8k16.global.s8", "wmma.load.b.sync.aligned.row.m32n8k16.global.s8",
    "wmma.load.a.sync.aligned.col.m16n16k16.shared.u8", "wmma.load.a.sync.aligned.col.m8n32k16.bf16",
    "wmma.load.a.sync.aligned.row.m16n16k8.tf32", "wmma.load.a.sync.aligned.row.m8n8k4.f64",
    "wmma.store.d.sync.aligned.row.m16n16k16.global.f32", "wmma.store.d.sync.aligned.col.m8n8k4.f64",
    "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", "wmma.mma.sync.aligned.col.row.m16n16k16.f16.f16",
    "wmma.mma.sync.aligned.col.row.m8n32k16.f32.bf16.bf16.f32",
    "wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32",
    "wmma.mma.sync.aligned.row.row.m32n8k16.s32.s8.s8.s32",
    "wmma.mma.sync.aligned.col.col.m16n16k16.s32.u8.u8.s32.satfinite",
    "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn",
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
    "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
    "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32",
    "mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.u8.s32", "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32",
    "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64",
};

TEST(mma_decode_forms) {
    ws_inst in;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const char *why = decode(good[i], &in);
        CHECK_MSG(!why, "%s refused: %s", good[i], why);
    }
    CHECK(!decode(good[0], &in) && in.sub == WS_MMA_LOAD_A && in.cmp == WS_MMA_M16N16K16 &&
          in.space == WS_SPACE_GLOBAL && in.stype == WS_T_F16 && ws_mma_frag_regs(&in, WS_FRAG_A) == 8);
    CHECK(!decode("wmma.load.b.sync.aligned.row.m32n8k16.global.s8", &in) && ws_mma_nregs(&in) == 1);
    CHECK(!decode("wmma.load.a.sync.aligned.col.m8n32k16.bf16", &in) && ws_mma_nregs(&in) == 2);
    CHECK(!decode("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", &in) && ws_mma_nregs(&in) == 8 + 8 + 8 + 8);
    CHECK(!decode("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", &in) && ws_mma_nregs(&in) == 2 + 4 + 2 + 2);
    CHECK(!decode("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", &in) && ws_mma_nregs(&in) == 2 + 1 + 1 + 2);
    CHECK(!decode("wmma.load.a.sync.aligned.row.m8n8k32.global.s4", &in) && ws_mma_nregs(&in) == 1);
    CHECK(!decode("wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32", &in) && ws_mma_nregs(&in) == 2 + 1 + 1 + 2);
    CHECK(!decode("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32", &in) && ws_mma_nregs(&in) == 4 + 4 + 2 + 4);
    CHECK(!decode("mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.s4.s32", &in) && ws_mma_nregs(&in) == 2 + 1 + 1 + 2);
    /* refused, with the reason */
    static const char *const bad[][2] = {
        {"wmma.load.a.sync.aligned.col.m8n8k32.s4", "sub-byte layouts"},
        {"wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32", ".b1 takes .xor.popc"},
        {"wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32.satfinite.xor.popc", ".b1 takes"},
        {"wmma.load.a.sync.aligned.row.m16n16k16.e4m3", "input type"},
        {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.e4m3.e4m3.f32", "shape for fp8"},
        {"mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16", "accumulator type (f32 for fp8"},
        {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f16", "accumulator type"},
        {"wmma.mma.sync.aligned.row.col.m16n16k8.f32.f16.f16.f32", "shape for 16-bit inputs"},
        {"wmma.load.d.sync.aligned.row.m16n16k16.f32", "load of d"},
        {"wmma.load.a.aligned.row.m16n16k16.f16", "missing .sync"},
        {"mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32", "only .row.col"},
        {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", "shape for 16-bit inputs"},
        {"mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32", ".satfinite"},
        {"mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", "modifier"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why = decode(bad[i][0], &in);
        CHECK_MSG(why && strstr(why, bad[i][1]), "%s: %s", bad[i][0], why ? why : "accepted");
    }
}

/* Every element of every fragment's matrix is held by the same number of
   (lane, element) places: once, or (wmma .f16 A/B) the same number of times. */
TEST(mma_layouts_cover_matrices) {
    for (size_t f = 0; f < sizeof good / sizeof good[0]; f++) {
        ws_inst in;
        if (decode(good[f], &in)) continue;
        ws_mma_dims d = ws_mma_dims_of(in.cmp);
        for (unsigned w = 0; w < 4; w++) {
            if (in.sub != WS_MMA_MMA && w != ws_mma_ldst_frag(&in)) continue;
            unsigned rows = w == WS_FRAG_B ? d.k : d.m, cols = w == WS_FRAG_A ? d.k : d.n;
            unsigned n = ws_mma_frag_elems(&in, w), seen[512] = {0};
            for (unsigned l = 0; l < 32; l++)
                for (unsigned i = 0; i < n; i++) {
                    unsigned r, c;
                    ws_mma_elem_pos(&in, w, l, i, &r, &c);
                    CHECK_MSG(r < rows && c < cols, "%s frag %u lane %u elem %u at (%u,%u)", good[f], w, l, i, r, c);
                    if (r < rows && c < cols) seen[r * cols + c]++;
                }
            unsigned rep = n * 32 / (rows * cols);
            for (unsigned e = 0; e < rows * cols; e++)
                CHECK_MSG(seen[e] == rep, "%s frag %u: element (%u,%u) held %u times, not %u", good[f], w,
                          e / cols, e % cols, seen[e], rep);
        }
    }
}

/* Spot checks against the PTX ISA's fragment figures (groupID = lane/4,
   threadID_in_group = lane%4). */
TEST(mma_sync_layouts_match_the_isa) {
    ws_inst in;
    unsigned r, c;
    CHECK(!decode("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", &in));
    /* lane 5: g 1, t 1. a0 (g, 2t), a2 (g+8, 2t), a4 (g, 2t+8), a7 (g+8, 2t+9) */
    ws_mma_elem_pos(&in, WS_FRAG_A, 5, 0, &r, &c); CHECK(r == 1 && c == 2);
    ws_mma_elem_pos(&in, WS_FRAG_A, 5, 2, &r, &c); CHECK(r == 9 && c == 2);
    ws_mma_elem_pos(&in, WS_FRAG_A, 5, 4, &r, &c); CHECK(r == 1 && c == 10);
    ws_mma_elem_pos(&in, WS_FRAG_A, 5, 7, &r, &c); CHECK(r == 9 && c == 11);
    /* b0 (2t, g), b3 (2t+9, g); c3 (g+8, 2t+1) */
    ws_mma_elem_pos(&in, WS_FRAG_B, 5, 0, &r, &c); CHECK(r == 2 && c == 1);
    ws_mma_elem_pos(&in, WS_FRAG_B, 5, 3, &r, &c); CHECK(r == 11 && c == 1);
    ws_mma_elem_pos(&in, WS_FRAG_C, 5, 3, &r, &c); CHECK(r == 9 && c == 3);
    CHECK(!decode("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", &in));
    /* lane 30: g 7, t 2. a5 (g+8, 4t+1), a9 (g, 4t+17); b6 (4t+18, g) */
    ws_mma_elem_pos(&in, WS_FRAG_A, 30, 5, &r, &c); CHECK(r == 15 && c == 9);
    ws_mma_elem_pos(&in, WS_FRAG_A, 30, 9, &r, &c); CHECK(r == 7 && c == 25);
    ws_mma_elem_pos(&in, WS_FRAG_B, 30, 6, &r, &c); CHECK(r == 26 && c == 7);
    CHECK(!decode("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", &in));
    /* tf32 m16n8k8: a1 (g+8, t), a2 (g, t+4); b1 (t+4, g) */
    ws_mma_elem_pos(&in, WS_FRAG_A, 30, 1, &r, &c); CHECK(r == 15 && c == 2);
    ws_mma_elem_pos(&in, WS_FRAG_A, 30, 2, &r, &c); CHECK(r == 7 && c == 6);
    ws_mma_elem_pos(&in, WS_FRAG_B, 30, 1, &r, &c); CHECK(r == 6 && c == 7);
}

/* ---- mma.sync executed, against the CPU model ------------------------------ */
static uint64_t rng(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A kernel of one warp: lane l loads its A, B, C registers from in[reg][l]
   (u32), runs `op` and stores D to out[reg][l]. */
static char *mma_kernel(const char *op, const ws_inst *in) {
    unsigned n[4] = {ws_mma_frag_regs(in, WS_FRAG_D), ws_mma_frag_regs(in, WS_FRAG_A),
                     ws_mma_frag_regs(in, WS_FRAG_B), ws_mma_frag_regs(in, WS_FRAG_C)};
    static char buf[8192];
    int k = snprintf(buf, sizeof buf,
                     WX_HEAD ".visible .entry k(.param .u64 po, .param .u64 pi)\n{\n.reg .b32 %%r<40>;\n"
                             ".reg .b64 %%rd<8>;\nld.param.u64 %%rd1, [po];\nld.param.u64 %%rd2, [pi];\n"
                             "mov.u32 %%r0, %%tid.x;\nmul.wide.u32 %%rd3, %%r0, 4;\nadd.s64 %%rd4, %%rd2, %%rd3;\n"
                             "add.s64 %%rd5, %%rd1, %%rd3;\n");
    unsigned reg = 1, first[4];
    for (unsigned f = 0; f < 4; f++) first[f] = reg, reg += n[f];
    for (unsigned f = 1; f < 4; f++)
        for (unsigned i = 0; i < n[f]; i++)
            k += snprintf(buf + k, sizeof buf - (size_t)k, "ld.global.b32 %%r%u, [%%rd4+%u];\n", first[f] + i,
                          128 * (first[f] - first[1] + i));
    k += snprintf(buf + k, sizeof buf - (size_t)k, "%s ", op);
    for (unsigned f = 0; f < 4; f++) {
        k += snprintf(buf + k, sizeof buf - (size_t)k, "%s{", f ? ", " : "");
        for (unsigned i = 0; i < n[f]; i++)
            k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%%r%u", i ? ", " : "", first[f] + i);
        k += snprintf(buf + k, sizeof buf - (size_t)k, "}");
    }
    k += snprintf(buf + k, sizeof buf - (size_t)k, ";\n");
    for (unsigned i = 0; i < n[0]; i++)
        k += snprintf(buf + k, sizeof buf - (size_t)k, "st.global.b32 [%%rd5+%u], %%r%u;\n", 128 * i, first[0] + i);
    snprintf(buf + k, sizeof buf - (size_t)k, "ret;\n}\n");
    return buf;
}

/* Pack row-major matrix m (raw element bits) into registers in[reg][lane]. */
static void pack(const ws_inst *in, unsigned which, const uint32_t *m, unsigned cols, uint32_t *regs, unsigned bits) {
    unsigned n = ws_mma_frag_elems(in, which), per = 32 / bits;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < n; i++) {
            unsigned r, c;
            ws_mma_elem_pos(in, which, l, i, &r, &c);
            uint32_t v = m[r * cols + c] & (bits == 32 ? ~0u : (1u << bits) - 1);
            regs[(i / per) * 32 + l] |= v << (bits * (i % per));
        }
}

TEST(mma_sync_f16_against_cpu_model) {
    const char *op = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
    ws_inst in;
    CHECK(!decode(op, &in));
    uint64_t s = 42;
    uint32_t A[256], B[128], C[128], regs[10 * 32] = {0}, out[4 * 32];
    for (int i = 0; i < 256; i++) A[i] = ws_double_to_f16(((double)(rng(&s) % 20001) - 10000) / 1237.0, WS_RND_RN);
    for (int i = 0; i < 128; i++) B[i] = ws_double_to_f16(((double)(rng(&s) % 20001) - 10000) / 991.0, WS_RND_RN);
    for (int i = 0; i < 128; i++) C[i] = (uint32_t)ws_f32b((float)(((double)(rng(&s) % 2001) - 1000) / 7.0));
    pack(&in, WS_FRAG_A, A, 16, regs, 16);
    pack(&in, WS_FRAG_B, B, 8, regs + 4 * 32, 16);
    pack(&in, WS_FRAG_C, C, 8, regs + 6 * 32, 32);
    wx_buf b[2] = {{NULL, out, sizeof out}, {regs, NULL, sizeof regs}};
    wx_cfg cfg = {0};
    cfg.block[0] = 32;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(mma_kernel(op, &in), &cfg, b, 2, &f, NULL), WS_OK);
    unsigned bad = 0;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < 4; i++) {
            unsigned r, c;
            ws_mma_elem_pos(&in, WS_FRAG_D, l, i, &r, &c);
            double acc = 0; /* the rule: exact products summed in double, + C, one rounding */
            for (unsigned k = 0; k < 16; k++)
                acc += ws_f16_to_double((uint16_t)A[r * 16 + k]) * ws_f16_to_double((uint16_t)B[k * 8 + c]);
            acc += (double)ws_f32(C[r * 8 + c]);
            bad += out[i * 32 + l] != (uint32_t)ws_f32b((float)acc);
        }
    CHECK_EQ_U64(bad, 0);
}

TEST(mma_sync_s8_satfinite_and_wrap) {
    for (int sat = 0; sat < 2; sat++) {
        const char *op = sat ? "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32"
                             : "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32";
        ws_inst in;
        CHECK(!decode(op, &in));
        uint64_t s = 7;
        uint32_t A[512], B[256], C[128], regs[10 * 32] = {0}, out[4 * 32];
        for (int i = 0; i < 512; i++) A[i] = (uint32_t)(rng(&s) & 0xFF);                 /* u8 */
        for (int i = 0; i < 256; i++) B[i] = (uint32_t)(int32_t)(int8_t)(rng(&s) & 0xFF); /* s8 */
        for (int i = 0; i < 128; i++) /* near both ends of s32, so that some sums overflow */
            C[i] = (uint32_t)(i & 1 ? INT32_MAX - (int32_t)(rng(&s) % 500000) : INT32_MIN + (int32_t)(rng(&s) % 500000));
        pack(&in, WS_FRAG_A, A, 32, regs, 8);
        pack(&in, WS_FRAG_B, B, 8, regs + 4 * 32, 8);
        pack(&in, WS_FRAG_C, C, 8, regs + 6 * 32, 32);
        wx_buf b[2] = {{NULL, out, sizeof out}, {regs, NULL, sizeof regs}};
        wx_cfg cfg = {0};
        cfg.block[0] = 32;
        ws_fault f;
        CHECK_EQ_I64(wx_launch(mma_kernel(op, &in), &cfg, b, 2, &f, NULL), WS_OK);
        unsigned bad = 0, clamped = 0;
        for (unsigned l = 0; l < 32; l++)
            for (unsigned i = 0; i < 4; i++) {
                unsigned r, c;
                ws_mma_elem_pos(&in, WS_FRAG_D, l, i, &r, &c);
                int64_t acc = (int32_t)C[r * 8 + c];
                for (unsigned k = 0; k < 32; k++) acc += (int64_t)A[r * 32 + k] * (int32_t)B[k * 8 + c];
                int64_t want = acc;
                if (sat && (acc > INT32_MAX || acc < INT32_MIN)) want = acc > 0 ? INT32_MAX : INT32_MIN, clamped++;
                bad += out[i * 32 + l] != (uint32_t)(uint64_t)want;
            }
        CHECK_EQ_U64(bad, 0);
        if (sat) CHECK_MSG(clamped > 3, "only %u sums overflowed", clamped);
    }
}

/* mma needs the whole warp: half a warp faults and names the instruction. */
TEST(mma_needs_the_whole_warp) {
    const char *op = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32";
    ws_inst in;
    CHECK(!decode(op, &in));
    uint32_t regs[10 * 32] = {0}, out[4 * 32];
    wx_buf b[2] = {{NULL, out, sizeof out}, {regs, NULL, sizeof regs}};
    wx_cfg cfg = {0};
    cfg.block[0] = 16;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(mma_kernel(op, &in), &cfg, b, 2, &f, NULL), WS_ERR_LAUNCH_FAILURE);
    CHECK_STR_CONTAINS(f.msg, "mma.sync needs all 32 lanes of the warp (active mask 0x0000ffff)");
}

/* wmma.load, mma and store through shared memory and a generic address, a
   stride operand and an .f16 accumulator: D = A*B + C for integer-valued halves. */
TEST(wmma_shared_generic_and_stride) {
    const char *k =
        WX_HEAD ".visible .entry k(.param .u64 po, .param .u64 pi)\n{\n"
        ".reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n.shared .align 32 .b8 sm[1024];\n"
        "ld.param.u64 %rd1, [po];\nld.param.u64 %rd2, [pi];\nmov.u32 %r0, %tid.x;\n"
        "mul.wide.u32 %rd3, %r0, 16;\nadd.s64 %rd4, %rd2, %rd3;\n"
        "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd4];\n"
        "mov.u32 %r5, sm;\nmul.lo.u32 %r6, %r0, 16;\nadd.u32 %r7, %r5, %r6;\n"
        "st.shared.v4.u32 [%r7], {%r1, %r2, %r3, %r4};\n"
        "bar.sync 0;\n"
        "mov.u32 %r8, 16;\n"
        "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, [%r5], %r8;\n"
        "cvta.shared.u64 %rd6, sm;\n" /* B: the same matrix, read column-major through a generic address */
        "wmma.load.b.sync.aligned.col.m16n16k16.f16 {%r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27}, [%rd6], 16;\n"
        "wmma.load.c.sync.aligned.row.m16n16k16.f16 {%r30, %r31, %r32, %r33}, [%rd2+512];\n"
        "wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 {%r30, %r31, %r32, %r33}, "
        "{%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, {%r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27}, "
        "{%r30, %r31, %r32, %r33};\n"
        "mov.u32 %r9, 24;\n"
        "wmma.store.d.sync.aligned.col.m16n16k16.global.f16 [%rd1], {%r30, %r31, %r32, %r33}, %r9;\n"
        "ret;\n}\n";
    uint16_t inb[512], out[24 * 16];
    double A[256], C[256];
    uint64_t s = 3;
    for (int i = 0; i < 256; i++) {
        A[i] = (double)(int)(rng(&s) % 9) - 4;
        C[i] = (double)(int)(rng(&s) % 9) - 4;
        inb[i] = ws_double_to_f16(A[i], WS_RND_RN);
        inb[256 + i] = ws_double_to_f16(C[i], WS_RND_RN);
    }
    memset(out, 0xFF, sizeof out);
    wx_buf b[2] = {{out, out, sizeof out}, {inb, NULL, sizeof inb}};
    wx_cfg cfg = {0};
    cfg.block[0] = 32;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(k, &cfg, b, 2, &f, NULL), WS_OK);
    unsigned bad = 0;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            double acc = C[r * 16 + c]; /* B = A read column-major: B[k][c] = A[c][k] */
            for (int kk = 0; kk < 16; kk++) acc += A[r * 16 + kk] * A[c * 16 + kk];
            bad += out[c * 24 + r] != ws_double_to_f16(acc, WS_RND_RN);
        }
    CHECK_EQ_U64(bad, 0);
    for (int c = 0; c < 16; c++) /* the stride's padding rows are untouched */
        for (int r = 16; r < 24; r++) bad += out[c * 24 + r] != 0xFFFF;
    CHECK_EQ_U64(bad, 0);
}

TEST(cvt_tf32_rounding) {
    /* 1 + half of tf32's last place (bit 12): a tie */
    CHECK_EQ_U64(ws_f32_to_tf32(0x3F801000u, WS_RND_RNA, false), 0x3F802000u);
    CHECK_EQ_U64(ws_f32_to_tf32(0x3F801000u, WS_RND_RN, false), 0x3F800000u); /* to even */
    CHECK_EQ_U64(ws_f32_to_tf32(0x3F803000u, WS_RND_RN, false), 0x3F804000u);
    CHECK_EQ_U64(ws_f32_to_tf32(0x3F801FFFu, WS_RND_RZ, false), 0x3F800000u);
    CHECK_EQ_U64(ws_f32_to_tf32(0xBF800FFFu, WS_RND_RNA, false), 0xBF800000u);
    CHECK_EQ_U64(ws_f32_to_tf32(0x7FC00001u, WS_RND_RNA, false), 0x7FFFFFFFu); /* NaN */
    CHECK_EQ_U64(ws_f32_to_tf32(0x7F7FF000u, WS_RND_RNA, false), 0x7F800000u); /* overflow */
    CHECK_EQ_U64(ws_f32_to_tf32(0x7F7FF000u, WS_RND_RNA, true), 0x7F7FE000u);  /* .satfinite */
    CHECK_EQ_U64(ws_f32_to_tf32(0xFF800000u, WS_RND_RNA, true), 0xFF800000u);  /* -inf stays */
    /* the instruction as nvcc's headers write it, in an inner scope with a $ name */
    uint64_t r = wx_eval1("{\n.reg .b32 __$1;\ncvt.rna.tf32.f32 __$1, %f1;\nmov.b32 %r7, __$1;\n}\n"
                          "cvt.u64.u32 %rd7, %r7;", 0x3F801000u, 0, 0);
    CHECK_EQ_U64(r, 0x3F802000u);
}

/* Latency and initiation interval per shape with the default options
   (docs/timing.md's table), and the options' ranges. */
TEST(mma_timing_per_shape) {
    ws_config c;
    ws_config_init(&c);
    static const struct { const char *op; int64_t lat, ii; } t[] = {
        {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 32, 8},
        {"mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", 28, 4},
        {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 32, 8},
        {"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 28, 4},
        {"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 32, 8},
        {"mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", 26, 2},
        {"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 40, 16},
        {"wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", 40, 16},
        {"wmma.mma.sync.aligned.row.col.m32n8k16.s32.u8.u8.s32", 32, 8},
        {"wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32", 40, 16},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        ws_inst in;
        CHECK(!decode(t[i].op, &in));
        int64_t lat, ii;
        sm_tensor_timing(&c, &in, &lat, &ii);
        CHECK_MSG(lat == t[i].lat && ii == t[i].ii, "%s: latency %lld ii %lld", t[i].op, (long long)lat,
                  (long long)ii);
    }
    CHECK_EQ_I64(sm_tensor_max_latency(&c), 40);
    char err[256];
    CHECK(ws_config_set(&c, "warpsim_tensor_macs_per_cycle", "8", err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "16");
    CHECK(ws_config_set(&c, "warpsim_tensor_latency", "0", err, sizeof err) != 0);
    CHECK(ws_config_set(&c, "warpsim_tensor_macs_per_cycle", "1024", err, sizeof err) == 0);
    ws_inst in;
    CHECK(!decode(t[0].op, &in));
    int64_t lat, ii;
    sm_tensor_timing(&c, &in, &lat, &ii);
    CHECK(lat == 26 && ii == 2);
    ws_config_free(&c);
}
