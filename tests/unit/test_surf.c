/* Surface objects: suld.b / sust.b / suq in the PTX front end (the forms
 * nvcc 13 emits, refused forms, the dump), and kernels through the
 * embedding API against the same computation on the host: 1-D/2-D/3-D
 * arrays with padded rows, vector and narrow accesses, the .clamp and
 * .zero boundary modes, and the faults (.trap out of range, misaligned
 * offsets, bad handles, the wrong geometry). */
#include <math.h>
#include <stdlib.h>

#include "ptx/ptx.h"
#include "test.h"
#include "warpsim/warpsim.h"

#define SHEAD ".version 9.0\n.target sm_75\n.address_size 64\n"
/* Kernel k(surf, out, n): thread i < n runs body with i in %r1, the output
   word's address in %rd4. */
#define SKERN(body)                                                                           \
    SHEAD ".visible .entry k(.param .u64 ps, .param .u64 po, .param .u32 pn)\n{\n"            \
    ".reg .pred %p<2>;\n.reg .b16 %rs<8>;\n.reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n"            \
    "ld.param.u64 %rd1, [ps];\nld.param.u64 %rd2, [po];\nld.param.u32 %r2, [pn];\n"            \
    "mov.u32 %r1, %tid.x;\nsetp.ge.s32 %p1, %r1, %r2;\n@%p1 bra DONE;\n"                       \
    "mul.wide.s32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n" body "DONE:\nret;\n}\n"

TEST(surf_parse_nvcc_forms) {
    const char *src = SKERN("suld.b.2d.b32.trap {%r6}, [%rd1, {%r5, %r5}];\n"
                            "sust.b.2d.b32.trap \t[%rd1, {%r4, %r2}], {%r3};\n"
                            "suld.b.2d.v4.b8.clamp {%rs1, %rs2, %rs3, %rs4}, [%rd1, {%r1, %r2}];\n"
                            "sust.b.3d.v2.b64.zero [%rd1, {%r1, %r2, %r3, %r3}], {%rd5, %rd6};\n"
                            "suld.b.1d.b16.trap %rs1, [%rd1, {%r1}];\n"
                            "suq.width.b32 %r7, [%rd1];\nsuq.depth.b32 %r8, [%rd1];\n");
    ws_diag d;
    ws_module *m = ws_ptx_parse(src, strlen(src), "s.ptx", &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    const ws_inst *s[7];
    unsigned n = 0;
    for (uint32_t i = 0; i < f->ninsts; i++)
        if (f->insts[i].op == WS_OP_SULD || f->insts[i].op == WS_OP_SUST || f->insts[i].op == WS_OP_SUQ)
            if (n < 7) s[n++] = &f->insts[i];
    CHECK_EQ_U64(n, 7);
    if (n == 7) {
        CHECK_EQ_I64(s[0]->op, WS_OP_SULD);
        CHECK_EQ_I64(s[0]->sub, WS_TEX_2D);
        CHECK_EQ_I64(s[0]->type, WS_T_B32);
        CHECK_EQ_I64(s[0]->boolop, WS_SURF_TRAP);
        CHECK_EQ_I64(s[0]->space, WS_SPACE_GLOBAL);
        CHECK_EQ_I64(s[0]->dst[0].kind, WS_OPND_VEC);
        CHECK_EQ_I64(s[0]->src[1].vecn, 2);
        CHECK_EQ_I64(s[1]->op, WS_OP_SUST);
        CHECK_EQ_I64(s[1]->nsrc, 3);
        CHECK_EQ_I64(s[1]->src[2].vecn, 1);
        CHECK_EQ_I64(s[2]->vec, 4);
        CHECK_EQ_I64(s[2]->type, WS_T_B8);
        CHECK_EQ_I64(s[2]->boolop, WS_SURF_CLAMP);
        CHECK_EQ_I64(s[3]->sub, WS_TEX_3D);
        CHECK_EQ_I64(s[3]->vec, 2);
        CHECK_EQ_I64(s[3]->type, WS_T_B64);
        CHECK_EQ_I64(s[3]->boolop, WS_SURF_ZERO);
        CHECK_EQ_I64(s[4]->dst[0].vecn, 1); /* a bare register becomes a 1-vector */
        CHECK_EQ_I64(s[5]->sub, WS_SUQ_WIDTH);
        CHECK_EQ_I64(s[6]->sub, WS_SUQ_DEPTH);
    }
    /* the dump parses back to the same dump */
    char *d1 = NULL, *d2 = NULL;
    size_t l1 = 0, l2 = 0;
    FILE *o = open_memstream(&d1, &l1);
    fputs(SHEAD, o);
    ws_ptx_dump_func(o, m, f);
    fclose(o);
    ws_module *m2 = ws_ptx_parse(d1, l1, "dump.ptx", &d);
    CHECK_MSG(m2 != NULL, "%s\n%s", d.msg, d1);
    if (m2) {
        o = open_memstream(&d2, &l2);
        fputs(SHEAD, o);
        ws_ptx_dump_func(o, m2, &m2->funcs[0]);
        fclose(o);
        CHECK_MSG(l1 == l2 && !memcmp(d1, d2, l1), "dump differs after round trip:\n%s\n%s", d1, d2);
        CHECK_STR_CONTAINS(d1, "sust.b.3d.v2.b64.zero [%rd1, {%r1, %r2, %r3, %r3}], {%rd5, %rd6};");
        ws_module_free(m2);
    }
    free(d1);
    free(d2);
    ws_module_free(m);
}

TEST(surf_parse_refuses_unsupported_forms) {
    static const char *const bad[][2] = {
        {"suld.p.2d.b32.trap {%r3}, [%rd1, {%r1, %r2}];", "modifier '.p'"},
        {"sust.p.2d.b16.trap [%rd1, {%r1, %r2}], {%rs1};", "sust.p stores .b32 values"},
        {"suld.b.a2d.b32.trap {%r3}, [%rd1, {%r1, %r2}];", "expected 4 coordinate"},
        {"suld.b.a1d.b32.trap {%r3}, [%rd1, {%r1}];", "expected 2 coordinate"},
        {"suq.num_samples.b32 %r3, [%rd1];", "modifier '.num_samples'"},
        {"txq.level.channel_order.b32 %r3, [%rd1, %r1];", "txq.level queries .width"},
        {"suld.b.2d.b32.trap {%r3}, [%rd1, {%r1}];", "expected 2 coordinate"},
        {"suld.b.2d.v2.b32.trap {%r3}, [%rd1, {%r1, %r2}];", "expected 2 value"},
        {"sured.p.add.2d.b32.trap [%rd1, {%r1, %r2}], %r3;", "modifier '.p'"},
        {"sured.b.and.2d.u32.trap [%rd1, {%r1, %r2}], %r3;", "the type does not fit the reduction"},
        {"sured.b.2d.u32.trap [%rd1, {%r1, %r2}], %r3;", "expected a reduction"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        static const char pre[] = SKERN("@@"), *cut = NULL;
        cut = strstr(pre, "@@");
        char src[1024];
        snprintf(src, sizeof src, "%.*s%s\n%s", (int)(cut - pre), pre, bad[i][0], cut + 2);
        ws_diag d;
        ws_module *m = ws_ptx_parse(src, strlen(src), "s.ptx", &d);
        CHECK_MSG(m == NULL, "accepted %s", bad[i][0]);
        ws_module_free(m);
        CHECK_STR_CONTAINS(d.msg, bad[i][1]);
    }
}

/* ---- kernels -------------------------------------------------------------------- */
static ws_device *open_dev(int functional) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.functional_only = functional;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    return d;
}

/* Run k(surf, out, n) with n threads (one CTA); out[] gets n words. */
static ws_status run_k(ws_device *d, const char *src, ws_texobj s, uint32_t *out, uint32_t n) {
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    ws_status st = ws_module_load(d, src, strlen(src), "s.ptx", NULL, &m);
    CHECK_MSG(st == WS_OK, "load: %s", ws_device_last_error(d));
    if (st != WS_OK) return st;
    CHECK(ws_module_get_kernel(m, "k", &k) == WS_OK);
    ws_devptr o = 0;
    CHECK(ws_malloc(d, (size_t)n * 4, &o) == WS_OK);
    CHECK(ws_memset(d, o, 0xEE, (size_t)n * 4) == WS_OK);
    void *args[] = {&s, &o, &n};
    st = ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){n, 1, 1}, 0, args);
    if (st == WS_OK) ws_memcpy_dtoh(d, out, o, (size_t)n * 4);
    ws_free(d, o);
    ws_module_unload(d, m);
    return st;
}

/* An array of W x H x D 32-bit texels with rows padded to PITCH bytes. */
enum { W = 8, H = 5, D = 3, PITCH = 48, N = W * H * D };

static ws_texobj make_surf(ws_device *d, ws_devptr *mem, uint32_t *host, unsigned h, unsigned dp) {
    size_t words = (size_t)PITCH / 4 * H * D;
    for (size_t i = 0; i < words; i++) host[i] = (uint32_t)(i * 2654435761u);
    CHECK(ws_malloc(d, words * 4, mem) == WS_OK);
    CHECK(ws_memcpy_htod(d, *mem, host, words * 4) == WS_OK);
    ws_tex_desc td;
    memset(&td, 0, sizeof td);
    td.res = WS_TEX_RES_ARRAY;
    td.addr = *mem;
    td.channels = 1;
    td.bits = 32;
    td.kind = WS_TEX_UNSIGNED;
    td.width = W;
    td.height = h;
    td.depth = dp;
    td.pitch = PITCH;
    ws_texobj t = 0;
    CHECK(ws_texture_create(d, &td, &t) == WS_OK);
    return t;
}

static uint32_t at(const uint32_t *host, int x, int y, int z) { return host[(z * H + y) * (PITCH / 4) + x]; }

TEST(surf_kernels_against_host) {
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) return;
        static uint32_t host[PITCH / 4 * H * D], back[PITCH / 4 * H * D];
        uint32_t out[N];
        ws_devptr mem = 0;
        ws_texobj s3 = make_surf(d, &mem, host, H, D);
        /* 3-D: thread i reads texel (x, y, z), returns it and stores 3v + 1 there */
        const char *k3 = SKERN("rem.u32 %r3, %r1, 8;\nshl.b32 %r3, %r3, 2;\ndiv.u32 %r4, %r1, 8;\n"
                               "rem.u32 %r4, %r4, 5;\ndiv.u32 %r5, %r1, 40;\n"
                               "suld.b.3d.b32.trap {%r6}, [%rd1, {%r3, %r4, %r5, %r5}];\n"
                               "st.global.u32 [%rd4], %r6;\nmad.lo.u32 %r7, %r6, 3, 1;\n"
                               "sust.b.3d.b32.trap [%rd1, {%r3, %r4, %r5, %r5}], {%r7};\n");
        CHECK_EQ_I64(run_k(d, k3, s3, out, N), WS_OK);
        CHECK(ws_memcpy_dtoh(d, back, mem, sizeof back) == WS_OK);
        for (int i = 0; i < N; i++) {
            int x = i % W, y = i / W % H, z = i / (W * H);
            CHECK_EQ_U64(out[i], at(host, x, y, z));
            CHECK_EQ_U64(at(back, x, y, z), at(host, x, y, z) * 3 + 1);
        }
        for (int y = 0; y < H * D; y++) /* the row padding is untouched */
            for (int x = W; x < PITCH / 4; x++) CHECK_EQ_U64(back[y * (PITCH / 4) + x], host[y * (PITCH / 4) + x]);
        /* suq */
        const char *q = SKERN("suq.width.b32 %r3, [%rd1];\nsuq.height.b32 %r4, [%rd1];\nsuq.depth.b32 %r5, [%rd1];\n"
                              "mad.lo.u32 %r6, %r4, 100, %r3;\nmad.lo.u32 %r6, %r5, 10000, %r6;\n"
                              "st.global.u32 [%rd4], %r6;\n");
        CHECK_EQ_I64(run_k(d, q, s3, out, 1), WS_OK);
        CHECK_EQ_U64(out[0], W + 100 * H + 10000 * D);
        ws_devptr mem2 = 0;
        ws_texobj s2 = make_surf(d, &mem2, host, H, 0);
        /* 2-D clamp: thread i at texel (i - 4, i - 2) clamps to the edges */
        const char *kc = SKERN("sub.s32 %r3, %r1, 4;\nshl.b32 %r3, %r3, 2;\nsub.s32 %r4, %r1, 2;\n"
                               "suld.b.2d.b32.clamp {%r6}, [%rd1, {%r3, %r4}];\nst.global.u32 [%rd4], %r6;\n");
        CHECK_EQ_I64(run_k(d, kc, s2, out, 16), WS_OK);
        for (int i = 0; i < 16; i++) {
            int x = i - 4 < 0 ? 0 : i - 4 >= W ? W - 1 : i - 4, y = i - 2 < 0 ? 0 : i - 2 >= H ? H - 1 : i - 2;
            CHECK_EQ_U64(out[i], at(host, x, y, 0));
        }
        /* 2-D zero: outside reads 0, outside stores are dropped */
        const char *kz = SKERN("sub.s32 %r3, %r1, 4;\nshl.b32 %r3, %r3, 2;\nsub.s32 %r4, %r1, 2;\n"
                               "suld.b.2d.b32.zero {%r6}, [%rd1, {%r3, %r4}];\nst.global.u32 [%rd4], %r6;\n"
                               "sust.b.2d.b32.zero [%rd1, {%r3, %r4}], {%r1};\n");
        CHECK_EQ_I64(run_k(d, kz, s2, out, 16), WS_OK);
        CHECK(ws_memcpy_dtoh(d, back, mem2, sizeof back) == WS_OK);
        uint32_t want[PITCH / 4 * H * D];
        memcpy(want, host, sizeof want);
        for (int i = 0; i < 16; i++) {
            int x = i - 4, y = i - 2;
            bool in = x >= 0 && x < W && y >= 0 && y < H;
            CHECK_EQ_U64(out[i], in ? at(host, x, y, 0) : 0);
            if (in) want[y * (PITCH / 4) + x] = (uint32_t)i;
        }
        CHECK(!memcmp(back, want, sizeof want));
        /* narrow and wide 1-D-style accesses on row 1 of the 2-D surface:
           v4.b8 reads a texel's bytes, b16 half of one, v2.b64 four texels */
        const char *kn = SKERN("shl.b32 %r3, %r1, 2;\nmov.u32 %r4, 1;\n"
                               "suld.b.2d.v4.b8.trap {%rs1, %rs2, %rs3, %rs4}, [%rd1, {%r3, %r4}];\n"
                               "cvt.u32.u16 %r5, %rs4;\nshl.b32 %r5, %r5, 24;\ncvt.u32.u16 %r6, %rs1;\n"
                               "or.b32 %r5, %r5, %r6;\nshl.b32 %r7, %r1, 1;\n"
                               "suld.b.2d.b16.trap {%rs5}, [%rd1, {%r7, %r4}];\ncvt.u32.u16 %r8, %rs5;\n"
                               "shl.b32 %r8, %r8, 8;\nxor.b32 %r5, %r5, %r8;\n"
                               "and.b32 %r9, %r1, 1;\nshl.b32 %r9, %r9, 4;\n"
                               "suld.b.2d.v2.b64.trap {%rd5, %rd6}, [%rd1, {%r9, %r4}];\n"
                               "xor.b64 %rd5, %rd5, %rd6;\ncvt.u32.u64 %r10, %rd5;\nxor.b32 %r5, %r5, %r10;\n"
                               "st.global.u32 [%rd4], %r5;\n");
        CHECK_EQ_I64(run_k(d, kn, s2, out, W), WS_OK);
        for (int i = 0; i < W; i++) {
            const uint8_t *row = (const uint8_t *)(back + PITCH / 4);
            uint32_t v = (uint32_t)row[4 * i + 3] << 24 | row[4 * i];
            uint16_t h16;
            memcpy(&h16, row + 2 * i, 2);
            v ^= (uint32_t)h16 << 8;
            uint64_t a, b;
            memcpy(&a, row + 16 * (i & 1), 8);
            memcpy(&b, row + 16 * (i & 1) + 8, 8);
            v ^= (uint32_t)(a ^ b);
            CHECK_EQ_U64(out[i], v);
        }
        ws_device_destroy(d);
    }
}

TEST(surf_kernel_faults) {
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) return;
        static uint32_t host[PITCH / 4 * H * D];
        uint32_t out[32];
        ws_devptr mem = 0;
        ws_texobj s2 = make_surf(d, &mem, host, H, 0);
        /* .trap: one texel past the row */
        const char *kt = SKERN("shl.b32 %r3, %r1, 2;\nmov.u32 %r4, 0;\n"
                               "suld.b.2d.b32.trap {%r6}, [%rd1, {%r3, %r4}];\nst.global.u32 [%rd4], %r6;\n");
        CHECK_EQ_I64(run_k(d, kt, s2, out, W), WS_OK);
        CHECK_EQ_I64(run_k(d, kt, s2, out, W + 1), WS_ERR_ILLEGAL_ADDRESS);
        const char *msg = ws_device_last_error(d);
        CHECK_STR_CONTAINS(msg, "surface access out of range (suld.b.2d.trap): byte offset 32, row 0");
        CHECK_STR_CONTAINS(msg, "thread (8,0,0)");
        /* misaligned byte offset */
        const char *km = SKERN("mov.u32 %r3, 2;\nmov.u32 %r4, 0;\n"
                               "sust.b.2d.b32.clamp [%rd1, {%r3, %r4}], {%r1};\n");
        CHECK_EQ_I64(run_k(d, km, s2, out, 1), WS_ERR_MISALIGNED);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "byte offset 2 is not a multiple of the access size 4");
        /* wrong geometry, bad handle, destroyed handle */
        const char *k1 = SKERN("shl.b32 %r3, %r1, 2;\nsuld.b.1d.b32.trap {%r6}, [%rd1, {%r3}];\n"
                               "st.global.u32 [%rd4], %r6;\n");
        CHECK_EQ_I64(run_k(d, k1, s2, out, 1), WS_ERR_LAUNCH_FAILURE);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "which has 2 dimension(s)");
        CHECK_EQ_I64(run_k(d, kt, 777, out, 1), WS_ERR_ILLEGAL_ADDRESS);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "invalid surface object handle 0x309");
        CHECK(ws_texture_destroy(d, s2) == WS_OK);
        CHECK_EQ_I64(run_k(d, kt, s2, out, 1), WS_ERR_ILLEGAL_ADDRESS);
        /* freed memory under a live surface */
        s2 = make_surf(d, &mem, host, H, 0);
        CHECK(ws_free(d, mem) == WS_OK);
        CHECK_EQ_I64(run_k(d, kt, s2, out, 1), WS_ERR_ILLEGAL_ADDRESS);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "memory was freed");
        ws_device_destroy(d);
    }
}

/* sust.p: thread i stores the four words at in + 16 i to element i of a
   1-D surface, converted to its format; compared with the host's
   conversion (round to nearest even, clamped normalized values, NaN 0,
   truncated integers, channels the vector lacks untouched). */
static uint16_t half_bits(float f) { /* f32 -> f16, round to nearest even */
    if (f != f) return 0x7FFF;
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t sign = (uint16_t)(u >> 16 & 0x8000);
    float a = fabsf(f);
    if (a >= 65520.0f) return sign | 0x7C00;
    if (a < 6.103515625e-05f) return sign | (uint16_t)nearbyintf(a * 16777216.0f); /* subnormal: units of 2^-24 */
    int e;
    float m = frexpf(a, &e);
    uint32_t mant = (uint32_t)nearbyintf((m * 2.0f - 1.0f) * 1024.0f); /* 1024 carries into the exponent */
    return sign | (uint16_t)(((uint32_t)(e - 1 + 15) << 10) + mant);
}

TEST(surf_formatted_store_against_host) {
    static const char *const k =
        SHEAD ".visible .entry k(.param .u64 ps, .param .u64 pi)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n"
        "ld.param.u64 %rd1, [ps];\nld.param.u64 %rd2, [pi];\nmov.u32 %r1, %tid.x;\n"
        "mul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd4, %rd2, %rd3;\n"
        "ld.global.v4.u32 {%r3, %r4, %r5, %r6}, [%rd4];\n"
        "sust.p.1d.v4.b32.trap [%rd1, {%r1}], {%r3, %r4, %r5, %r6};\nret;\n}\n"
        ".visible .entry k2(.param .u64 ps, .param .u64 pi)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n"
        "ld.param.u64 %rd1, [ps];\nmov.u32 %r1, %tid.x;\nmov.u32 %r3, 0f3F000000;\n"
        "sust.p.1d.b32.zero [%rd1, {%r1}], {%r3};\nret;\n}\n";
    enum { NT = 6 };
    const float fv[NT][4] = {{0.0f, 1.0f, 0.5f, -1.0f}, {2.0f, -0.25f, 0.2f, 0.75f}, {NAN, 1e9f, -1e9f, 0.001f},
                             {0.1f, 0.9f, 0.3f, 0.6f}, {-0.5f, 0.25f, 0.125f, 1.5f}, {0.998f, 0.002f, 0.502f, 0.498f}};
    uint32_t in[NT][4];
    memcpy(in, fv, sizeof in);
    /* formats: f32 x1, unorm8 x4, snorm8 x2, f16 x2, s16 x1 (integers: the words as integers) */
    struct { unsigned ch, bits; ws_tex_kind kind; int norm; int ints; } fm[] = {
        {1, 32, WS_TEX_FLOAT, 0, 0}, {4, 8, WS_TEX_UNSIGNED, 1, 0}, {2, 8, WS_TEX_SIGNED, 1, 0},
        {2, 16, WS_TEX_FLOAT, 0, 0}, {1, 16, WS_TEX_SIGNED, 0, 1}};
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) return;
        ws_module_handle *m = NULL;
        ws_kernel *kk = NULL, *k2 = NULL;
        CHECK(ws_module_load(d, k, strlen(k), "p.ptx", NULL, &m) == WS_OK);
        CHECK(ws_module_get_kernel(m, "k", &kk) == WS_OK);
        CHECK(ws_module_get_kernel(m, "k2", &k2) == WS_OK);
        for (size_t f = 0; f < sizeof fm / sizeof fm[0]; f++) {
            uint32_t src[NT][4];
            memcpy(src, in, sizeof src);
            if (fm[f].ints)
                for (int i = 0; i < NT; i++) src[i][0] = (uint32_t)(i * 40000 - 70000);
            unsigned tb = fm[f].ch * fm[f].bits / 8;
            ws_devptr mem = 0, pi = 0;
            CHECK(ws_malloc(d, NT * tb, &mem) == WS_OK);
            CHECK(ws_memset(d, mem, 0x5A, NT * tb) == WS_OK);
            CHECK(ws_malloc(d, sizeof src, &pi) == WS_OK);
            CHECK(ws_memcpy_htod(d, pi, src, sizeof src) == WS_OK);
            ws_tex_desc td;
            memset(&td, 0, sizeof td);
            td.res = WS_TEX_RES_ARRAY;
            td.addr = mem;
            td.channels = fm[f].ch;
            td.bits = fm[f].bits;
            td.kind = fm[f].kind;
            td.read_normalized = fm[f].norm;
            td.width = NT;
            ws_texobj s = 0;
            CHECK(ws_texture_create(d, &td, &s) == WS_OK);
            void *args[] = {&s, &pi};
            CHECK_EQ_I64(ws_launch(d, kk, (ws_dim3){1, 1, 1}, (ws_dim3){NT, 1, 1}, 0, args), WS_OK);
            uint8_t got[NT * 16];
            CHECK(ws_memcpy_dtoh(d, got, mem, NT * tb) == WS_OK);
            for (int i = 0; i < NT; i++)
                for (unsigned c = 0; c < fm[f].ch; c++) {
                    float v;
                    memcpy(&v, &src[i][c], 4);
                    uint64_t want;
                    if (fm[f].kind == WS_TEX_FLOAT) want = fm[f].bits == 32 ? src[i][c] : half_bits(v);
                    else if (fm[f].ints) want = src[i][c] & 0xFFFF;
                    else if (fm[f].kind == WS_TEX_SIGNED)
                        want = (uint8_t)(int8_t)nearbyint((v != v ? 0 : v < -1 ? -1 : v > 1 ? 1 : v) * 127.0);
                    else want = (uint8_t)nearbyint((v != v ? 0 : v < 0 ? 0 : v > 1 ? 1 : v) * 255.0);
                    uint64_t g = 0;
                    memcpy(&g, got + i * tb + c * (fm[f].bits / 8), fm[f].bits / 8);
                    CHECK_MSG(g == want, "format %zu element %d channel %u: 0x%llx, want 0x%llx", f, i, c,
                              (unsigned long long)g, (unsigned long long)want);
                }
            if (f == 1) { /* a scalar store writes R only; .zero drops elements past the end */
                CHECK_EQ_I64(ws_launch(d, k2, (ws_dim3){1, 1, 1}, (ws_dim3){NT + 2, 1, 1}, 0, args), WS_OK);
                uint8_t again[NT * 4];
                CHECK(ws_memcpy_dtoh(d, again, mem, sizeof again) == WS_OK);
                for (int i = 0; i < NT; i++) {
                    CHECK_EQ_U64(again[4 * i], 128); /* 0.5 * 255 = 127.5: to even */
                    CHECK(!memcmp(again + 4 * i + 1, got + 4 * i + 1, 3));
                }
            }
            ws_free(d, mem);
            ws_free(d, pi);
        }
        ws_module_unload(d, m);
        ws_device_destroy(d);
    }
}

/* Layered surfaces (.a1d {layer, x}, .a2d {layer, x, y, _}: the layer is the
   last extent, as in ws_tex_desc) and sured against the host, in both modes:
   each thread reads its texel of a 2-D layered array and stores 3v + 1; every
   thread adds 1 << (i % 8) to one word with sured.add and folds signed
   values into others with min / max / and / or; a .clamp reduction past the
   row lands on its last word, a .zero one is dropped; .a1d on a 2-D layered
   surface and .2d on a layered one fail naming the geometry. */
TEST(surf_layered_and_reductions_against_host) {
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) return;
        static uint32_t host[PITCH / 4 * H * D], back[PITCH / 4 * H * D];
        uint32_t out[N];
        ws_devptr mem = 0;
        ws_texobj s = make_surf(d, &mem, host, H, D); /* replaced below by a layered view */
        ws_tex_desc td;
        CHECK(ws_texture_get_desc(d, s, &td) == WS_OK);
        td.layered = 1; /* W x H, D layers */
        ws_texobj sl = 0;
        CHECK(ws_texture_create(d, &td, &sl) == WS_OK);
        const char *ka = SKERN("rem.u32 %r3, %r1, 8;\nshl.b32 %r3, %r3, 2;\ndiv.u32 %r4, %r1, 8;\n"
                               "rem.u32 %r4, %r4, 5;\ndiv.u32 %r5, %r1, 40;\n"
                               "suld.b.a2d.b32.trap {%r6}, [%rd1, {%r5, %r3, %r4, %r4}];\n"
                               "st.global.u32 [%rd4], %r6;\nmad.lo.u32 %r7, %r6, 3, 1;\n"
                               "sust.b.a2d.b32.trap [%rd1, {%r5, %r3, %r4, %r4}], {%r7};\n");
        CHECK_EQ_I64(run_k(d, ka, sl, out, N), WS_OK);
        CHECK(ws_memcpy_dtoh(d, back, mem, sizeof back) == WS_OK);
        unsigned bad = 0;
        for (int i = 0; i < N; i++) {
            int x = i % W, y = i / W % H, z = i / (W * H);
            bad += out[i] != at(host, x, y, z) || at(back, x, y, z) != at(host, x, y, z) * 3 + 1;
        }
        CHECK_EQ_U64(bad, 0);
        const char *k1 = SKERN("suld.b.a1d.b32.trap {%r6}, [%rd1, {%r1, %r1}];\n");
        CHECK_EQ_I64(run_k(d, k1, sl, out, 1), WS_ERR_LAUNCH_FAILURE);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "which has 2 dimension(s)");
        const char *k2 = SKERN("suld.b.3d.b32.trap {%r6}, [%rd1, {%r1, %r1, %r1, %r1}];\n");
        CHECK_EQ_I64(run_k(d, k2, sl, out, 1), WS_ERR_LAUNCH_FAILURE);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "a layered 2-D array (.a2d)");
        /* reductions on the plain 2-D view (rows of W words) */
        ws_devptr m2 = 0;
        ws_texobj s2 = make_surf(d, &m2, host, H, 0);
        uint32_t init[PITCH / 4 * H];
        for (int i = 0; i < PITCH / 4 * H; i++) init[i] = host[i];
        const char *kr = SKERN("and.b32 %r3, %r1, 7;\nshl.b32 %r4, 1, %r3;\nmov.u32 %r5, 0;\n"
                               "sured.b.add.2d.u32.trap [%rd1, {%r5, %r5}], %r4;\n"
                               "sub.s32 %r6, 20, %r1;\nmov.u32 %r7, 1;\nmov.u32 %r8, 4;\n"
                               "sured.b.min.2d.s32.trap [%rd1, {%r8, %r7}], %r6;\n"
                               "sured.b.max.2d.s32.trap [%rd1, {%r8, %r5}], %r6;\n"
                               "sured.b.min.2d.u32.trap [%rd1, {%r5, %r7}], %r6;\n"
                               "mov.u32 %r9, 8;\nsured.b.and.2d.b32.trap [%rd1, {%r9, %r5}], %r6;\n"
                               "sured.b.or.2d.b32.trap [%rd1, {%r9, %r7}], %r6;\n"
                               "mov.u32 %r10, 1000;\nsured.b.add.2d.u32.clamp [%rd1, {%r10, %r7}], %r7;\n"
                               "sured.b.add.2d.u32.zero [%rd1, {%r10, %r5}], %r7;\n");
        CHECK_EQ_I64(run_k(d, kr, s2, out, 32), WS_OK);
        CHECK(ws_memcpy_dtoh(d, back, m2, PITCH / 4 * H * 4) == WS_OK);
        uint32_t w[PITCH / 4 * H];
        memcpy(w, init, sizeof w);
        const int R = PITCH / 4; /* words per row */
        for (int i = 0; i < 32; i++) {
            int32_t v = 20 - i;
            w[0] += 1u << (i % 8);
            w[R + 1] = (uint32_t)((int32_t)w[R + 1] < v ? (int32_t)w[R + 1] : v);
            w[1] = (uint32_t)((int32_t)w[1] > v ? (int32_t)w[1] : v);
            w[R] = w[R] < (uint32_t)v ? w[R] : (uint32_t)v;
            w[2] &= (uint32_t)v;
            w[R + 2] |= (uint32_t)v;
            w[R + W - 1] += 1; /* clamped to the row's last word */
        }
        for (int i = 0; i < R * H; i++)
            CHECK_MSG(back[i] == w[i], "sured word %d: 0x%x, want 0x%x", i, back[i], w[i]);
        ws_device_destroy(d);
    }
}

/* suq / txq queries on a layered 2-D array of ushort2 read as normalized
   floats (linear filter, normalized coordinates, clamp / wrap / border) and
   on a 2-cube layered cube map of floats: extents without the layers,
   .array_size, OpenCL's channel enumerations, the sampling state, one
   mipmap level (txq.level of level 1: 0). */
TEST(surf_and_tex_queries) {
    ws_device *d = open_dev(1);
    if (!d) return;
    ws_devptr mem = 0;
    CHECK(ws_malloc(d, 64 * 1024, &mem) == WS_OK);
    ws_tex_desc a;
    memset(&a, 0, sizeof a);
    a.res = WS_TEX_RES_ARRAY;
    a.addr = mem;
    a.channels = 2;
    a.bits = 16;
    a.kind = WS_TEX_UNSIGNED;
    a.read_normalized = 1;
    a.filter = WS_TEX_LINEAR;
    a.normalized_coords = 1;
    a.address[0] = WS_TEX_CLAMP;
    a.address[1] = WS_TEX_WRAP;
    a.address[2] = WS_TEX_BORDER;
    a.width = 7;
    a.height = 5;
    a.depth = 3;
    a.layered = 1;
    ws_tex_desc c;
    memset(&c, 0, sizeof c);
    c.res = WS_TEX_RES_ARRAY;
    c.addr = mem;
    c.channels = 1;
    c.bits = 32;
    c.kind = WS_TEX_FLOAT;
    c.width = c.height = 4;
    c.depth = 12;
    c.cubemap = c.layered = 1;
    ws_texobj ta = 0, tc = 0;
    CHECK(ws_texture_create(d, &a, &ta) == WS_OK);
    CHECK(ws_texture_create(d, &c, &tc) == WS_OK);
    const char *k = SKERN("suq.width.b32 %r3, [%rd1];\nsuq.height.b32 %r4, [%rd1];\nsuq.depth.b32 %r5, [%rd1];\n"
                          "suq.array_size.b32 %r6, [%rd1];\nsuq.channel_data_type.b32 %r7, [%rd1];\n"
                          "suq.channel_order.b32 %r8, [%rd1];\nsuq.memory_layout.b32 %r9, [%rd1];\n"
                          "txq.normalized_coords.b32 %r10, [%rd1];\ntxq.filter_mode.b32 %r11, [%rd1];\n"
                          "txq.addr_mode_0.b32 %r12, [%rd1];\ntxq.addr_mode_1.b32 %r13, [%rd1];\n"
                          "txq.addr_mode_2.b32 %r14, [%rd1];\ntxq.num_mipmap_levels.b32 %r15, [%rd1];\n"
                          "txq.width.b32 %r16, [%rd1];\nmov.u32 %r20, 1;\ntxq.level.width.b32 %r17, [%rd1, %r20];\n"
                          "txq.num_samples.b32 %r18, [%rd1];\n"
                          "st.global.v4.u32 [%rd2], {%r3, %r4, %r5, %r6};\n"
                          "st.global.v4.u32 [%rd2+16], {%r7, %r8, %r9, %r10};\n"
                          "st.global.v4.u32 [%rd2+32], {%r11, %r12, %r13, %r14};\n"
                          "st.global.v4.u32 [%rd2+48], {%r15, %r16, %r17, %r18};\n");
    uint32_t out[16];
    CHECK_EQ_I64(run_k(d, k, ta, out, 16), WS_OK);
    uint32_t want_a[16] = {7, 5, 0, 3, 0x10D3, 0x10B2, 0, 1, 1, 3, 0, 4, 1, 7, 0, 0};
    for (int i = 0; i < 16; i++) CHECK_MSG(out[i] == want_a[i], "layered query %d: 0x%x, want 0x%x", i, out[i], want_a[i]);
    CHECK_EQ_I64(run_k(d, k, tc, out, 16), WS_OK);
    uint32_t want_c[16] = {4, 4, 0, 2, 0x10DE, 0x10B0, 0, 0, 0, 0, 0, 0, 1, 4, 0, 0};
    for (int i = 0; i < 16; i++) CHECK_MSG(out[i] == want_c[i], "cube query %d: 0x%x, want 0x%x", i, out[i], want_c[i]);
    ws_device_destroy(d);
}
