/* Texture objects: tex in the PTX front end (forms nvcc 13 emits, refused
 * forms), the fetch semantics on hand-computed values (address modes, point
 * and linear filtering with 1/256 weights, read modes, formats), the handle
 * table's checks, and tex kernels through the embedding API (results and
 * faults). */
#include <stdlib.h>

#include "exec/exec.h"
#include "ptx/ptx.h"
#include "test.h"
#include "warpsim/warpsim.h"

#define THEAD ".version 9.0\n.target sm_75\n.address_size 64\n"
/* Kernel k(texobj, out, n): out[i] = x component of a fetch at i. */
#define TKERN_PRE                                                                              \
    THEAD ".visible .entry k(.param .u64 pt, .param .u64 po, .param .u32 pn)\n{\n"             \
    ".reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .f32 %f<16>;\n.reg .b64 %rd<8>;\n"             \
    "ld.param.u64 %rd1, [pt];\nld.param.u64 %rd2, [po];\nld.param.u32 %r2, [pn];\n"             \
    "mov.u32 %r1, %tid.x;\nsetp.ge.s32 %p1, %r1, %r2;\n@%p1 bra DONE;\n"                        \
    "mul.wide.s32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
#define TKERN_POST "DONE:\nret;\n}\n"
#define TKERN(body) TKERN_PRE body TKERN_POST /* body starts on line 18 */

static ws_module *parse(const char *src, ws_diag *d) { return ws_ptx_parse(src, strlen(src), "t.ptx", d); }

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* ---- PTX front end ---------------------------------------------------------------- */
TEST(tex_parse_nvcc_forms) {
    const char *src = TKERN("tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
                            "tex.1d.v4.s32.s32 {%r4, %r5, %r6, %r7}, [%rd1, {%r1}];\n"
                            "tex.1d.v4.u32.s32 {%r4, %r5, %r6, _}, [%rd1, {%r1}];\n"
                            "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n"
                            "tex.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f7}];\n"
                            "st.global.f32 [%rd4], %f1;\n");
    ws_diag d;
    ws_module *m = parse(src, &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    const ws_inst *t = NULL;
    int seen = 0;
    for (uint32_t i = 0; i < f->ninsts; i++) {
        const ws_inst *in = &f->insts[i];
        if (in->op != WS_OP_TEX) continue;
        if (!t) t = in;
        seen++;
        CHECK_EQ_I64(in->space, WS_SPACE_TEX);
        CHECK_EQ_I64(in->vec, 4);
        CHECK_EQ_I64(in->ndst, 1);
        CHECK_EQ_I64(in->nsrc, 2);
        CHECK_EQ_I64(in->dst[0].kind, WS_OPND_VEC);
        CHECK_EQ_I64(in->dst[0].vecn, 4);
        CHECK_EQ_I64(in->src[0].kind, WS_OPND_REG);
        CHECK_EQ_I64(in->src[1].kind, WS_OPND_VEC);
    }
    CHECK_EQ_I64(seen, 5);
    if (t) {
        CHECK_EQ_I64(t->sub, WS_TEX_1D);
        CHECK_EQ_I64(t->type, WS_T_F32);
        CHECK_EQ_I64(t->stype, WS_T_S32);
        CHECK_EQ_I64(t->src[1].vecn, 1);
        CHECK_EQ_I64(t[3].sub, WS_TEX_2D);
        CHECK_EQ_I64(t[3].stype, WS_T_F32);
        CHECK_EQ_I64(t[3].src[1].vecn, 2);
        CHECK_EQ_I64(t[4].sub, WS_TEX_3D);
        CHECK_EQ_I64(t[4].src[1].vecn, 4);
        CHECK_EQ_I64(t[2].dst[0].vreg[3], WS_NOREG);
    }
    /* the dump prints it back in the same form, and that parses to the same text */
    char *a = NULL, *b = NULL;
    size_t al = 0, bl = 0;
    FILE *o = open_memstream(&a, &al);
    ws_ptx_dump_func(o, m, f);
    fclose(o);
    CHECK_STR_CONTAINS(a, "tex.2d.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];");
    CHECK_STR_CONTAINS(a, "tex.1d.v4.u32.s32 {%r4, %r5, %r6, _}, [%rd1, {%r1}];");
    char *full = malloc(al + 64);
    snprintf(full, al + 64, THEAD "%s", a);
    ws_module *m2 = parse(full, &d);
    CHECK_MSG(m2 != NULL, "reparse: %s", d.msg);
    if (m2) {
        o = open_memstream(&b, &bl);
        ws_ptx_dump_func(o, m2, &m2->funcs[0]);
        fclose(o);
        CHECK(al == bl && memcmp(a, b, al) == 0);
        ws_module_free(m2);
    }
    free(full);
    free(a);
    free(b);
    ws_module_free(m);
}

static void expect_error(const char *body, const char *want, int line) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s%s", TKERN_PRE, body, TKERN_POST);
    ws_diag d;
    ws_module *m = parse(src, &d);
    if (m) {
        ws_test_fail(__FILE__, line, "parse of \"%s\" unexpectedly succeeded", body);
        ws_module_free(m);
        return;
    }
    if (!strstr(d.msg, want)) ws_test_fail(__FILE__, line, "\"%s\" does not contain \"%s\"", d.msg, want);
    /* the instruction sits on line 18 of the kernel */
    if (!strstr(d.msg, "(line 18)") && !strstr(d.msg, "t.ptx:18:"))
        ws_test_fail(__FILE__, line, "\"%s\" does not name line 18", d.msg);
}
#define EXPECT_ERROR(body, want) expect_error(body, want, __LINE__)

TEST(tex_parse_refuses_unsupported_forms) {
    EXPECT_ERROR("tex.2dms.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r2, %r2, %r2}];\n",
                 "unsupported instruction 'tex.2dms.v4.f32.s32' (line 18): modifier '.2dms' is not supported");
    EXPECT_ERROR("tex.acube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %f5, %f6}];\n",
                 "expected 4 coordinate register(s) for .acube");
    EXPECT_ERROR("tex.cube.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r1, %r1, %r1}];\n",
                 "tex.cube takes .f32 coordinates");
    EXPECT_ERROR("tex.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %f5}];\n",
                 "expected 4 coordinate register(s) for .a2d");
    EXPECT_ERROR("tld4.r.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r2}];\n", "tld4 takes .f32 coordinates");
    EXPECT_ERROR("tld4.r.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f6, %f6}];\n", "modifier '.3d'");
    EXPECT_ERROR("tld4.x.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n", "modifier '.x'");
    EXPECT_ERROR("tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n", "expected ','");
    EXPECT_ERROR("tex.grad.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], %f7, %f7;\n",
                 "expected a gradient vector");
    EXPECT_ERROR("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], {%r1, %r2};\n", "extra operands");
    EXPECT_ERROR("tex.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];\n", "expected a geometry");
    EXPECT_ERROR("tex.2d.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n", "expected .v4");
    EXPECT_ERROR("tex.2d.v4.f64.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n",
                 "destination type must be .f32, .s32 or .u32");
    EXPECT_ERROR("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];\n",
                 "expected 2 coordinate register(s) for .2d");
    EXPECT_ERROR("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f5, %f6}];\n",
                 "separate samplers are not supported");
    EXPECT_ERROR("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], %f7;\n",
                 "extra operands (offsets, depth compare)");
    EXPECT_ERROR("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%p1, [%rd1, {%f5, %f6}];\n",
                 "predicate destination");
    EXPECT_ERROR("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [pt, {%f5, %f6}];\n",
                 "not texture references");
    EXPECT_ERROR("txq.width.level.b32 %r3, [%rd1];\n", "expected ','");
    EXPECT_ERROR("txq.memory_layout.b32 %r3, [%rd1];\n", "modifier '.memory_layout'");
}

/* ---- fetch semantics on hand-computed values ------------------------------------------ */
typedef struct {
    ws_gmem *g;
    uint64_t a;
} mem;

static mem mem_with(const void *data, size_t n) {
    mem m;
    m.g = ws_gmem_create(1 << 20);
    m.a = 0;
    CHECK(m.g && ws_gmem_alloc(m.g, n, &m.a) == WS_OK && ws_gmem_write(m.g, m.a, data, n) == WS_OK);
    return m;
}

static ws_tex_desc desc1d(uint64_t addr, size_t width, ws_tex_address mode, ws_tex_filter flt, int norm) {
    ws_tex_desc d;
    memset(&d, 0, sizeof d);
    d.res = WS_TEX_RES_ARRAY;
    d.addr = addr;
    d.channels = 1;
    d.bits = 32;
    d.kind = WS_TEX_FLOAT;
    d.width = width;
    d.pitch = width * 4;
    d.address[0] = d.address[1] = d.address[2] = mode;
    d.filter = flt;
    d.normalized_coords = norm;
    return d;
}

/* x component of a float fetch at (x, y). */
static float fetchf(const ws_tex_desc *d, const ws_gmem *g, unsigned dims, float x, float y,
                    unsigned *ntaps) {
    uint32_t c[3] = {fbits(x), fbits(y), 0}, out[4] = {0};
    uint64_t taps[WS_TEX_MAX_TAPS], badp = 0;
    unsigned nt = 0;
    ws_status s = ws_tex_fetch(d, g, dims, 0, c, out, taps, &nt, &badp);
    CHECK_EQ_I64(s, WS_OK);
    if (ntaps) *ntaps = nt;
    return bitsf(out[0]);
}

#define CHECK_F(got, want)                                                                \
    do {                                                                                  \
        float g_ = (got), w_ = (want);                                                    \
        if (g_ != w_) ws_test_fail(__FILE__, __LINE__, "%s = %.9g, want %.9g", #got, g_, w_); \
    } while (0)

TEST(tex_address_modes) {
    const float t[4] = {10, 20, 30, 40};
    mem m = mem_with(t, sizeof t);
    /* normalized point sampling: x = 1.125 -> texel 4.5 -> index 4; x = -0.125 -> index -1 */
    ws_tex_desc d = desc1d(m.a, 4, WS_TEX_WRAP, WS_TEX_POINT, 1);
    CHECK_F(fetchf(&d, m.g, 1, 1.125f, 0, NULL), 10);   /* 4 mod 4 = 0 */
    CHECK_F(fetchf(&d, m.g, 1, -0.125f, 0, NULL), 40);  /* -1 wraps to 3 */
    CHECK_F(fetchf(&d, m.g, 1, 2.375f, 0, NULL), 20);   /* 9.5 -> 9 mod 4 = 1 */
    d = desc1d(m.a, 4, WS_TEX_MIRROR, WS_TEX_POINT, 1);
    CHECK_F(fetchf(&d, m.g, 1, 1.125f, 0, NULL), 40);   /* 4 mirrors to 3 */
    CHECK_F(fetchf(&d, m.g, 1, 1.625f, 0, NULL), 20);   /* 6 mirrors to 1 */
    CHECK_F(fetchf(&d, m.g, 1, -0.125f, 0, NULL), 10);  /* -1 mirrors to 0 */
    d = desc1d(m.a, 4, WS_TEX_CLAMP, WS_TEX_POINT, 1);
    CHECK_F(fetchf(&d, m.g, 1, 1.125f, 0, NULL), 40);
    CHECK_F(fetchf(&d, m.g, 1, -0.125f, 0, NULL), 10);
    d = desc1d(m.a, 4, WS_TEX_BORDER, WS_TEX_POINT, 1);
    d.border[0] = -7;
    unsigned nt = 9;
    CHECK_F(fetchf(&d, m.g, 1, 1.125f, 0, &nt), -7);
    CHECK_EQ_I64(nt, 0); /* a border texel reads no memory */
    CHECK_F(fetchf(&d, m.g, 1, 0.375f, 0, &nt), 20);
    CHECK_EQ_I64(nt, 1);
    /* wrap and mirror need normalized coordinates: unnormalized they clamp */
    d = desc1d(m.a, 4, WS_TEX_WRAP, WS_TEX_POINT, 0);
    CHECK_F(fetchf(&d, m.g, 1, 5.5f, 0, NULL), 40);
    CHECK_F(fetchf(&d, m.g, 1, -3.0f, 0, NULL), 10);
    CHECK_F(fetchf(&d, m.g, 1, 2.99f, 0, NULL), 30);    /* floor */
    /* NaN and huge coordinates stay defined */
    CHECK_F(fetchf(&d, m.g, 1, NAN, 0, NULL), 10);
    CHECK_F(fetchf(&d, m.g, 1, 3e38f, 0, NULL), 40);
    ws_gmem_destroy(m.g);
}

TEST(tex_linear_filter_weights) {
    const float t[4] = {10, 20, 30, 40};
    mem m = mem_with(t, sizeof t);
    ws_tex_desc d = desc1d(m.a, 4, WS_TEX_CLAMP, WS_TEX_LINEAR, 0);
    unsigned nt = 0;
    /* x = 1.75: x - 0.5 = 1.25 -> texels 1, 2 with a = 0.25 */
    CHECK_F(fetchf(&d, m.g, 1, 1.75f, 0, &nt), 22.5f);
    CHECK_EQ_I64(nt, 2);
    CHECK_F(fetchf(&d, m.g, 1, 1.5f, 0, NULL), 20);     /* texel centre */
    /* the weight has 8 fraction bits: 0.001 rounds to 0, 0.003 to 1/256, 0.5 + 1/1024 to 0.5 */
    CHECK_F(fetchf(&d, m.g, 1, 1.501f, 0, NULL), 20);
    CHECK_F(fetchf(&d, m.g, 1, 1.503f, 0, NULL), 20.0390625f);
    CHECK_F(fetchf(&d, m.g, 1, 2.0f + 1.0f / 1024, 0, NULL), 25);
    /* 255.7/256 rounds up to a weight of exactly 1 (9-bit format) */
    CHECK_F(fetchf(&d, m.g, 1, 1.5f + 255.7f / 256, 0, NULL), 30);
    /* clamp at the edges: both taps on the edge texel */
    CHECK_F(fetchf(&d, m.g, 1, 0.25f, 0, NULL), 10);
    CHECK_F(fetchf(&d, m.g, 1, 3.75f, 0, NULL), 40);
    /* border: x = 0.25 -> taps -1 (border 100, weight 0.25) and 0 (10, weight 0.75) */
    d = desc1d(m.a, 4, WS_TEX_BORDER, WS_TEX_LINEAR, 0);
    d.border[0] = 100;
    CHECK_F(fetchf(&d, m.g, 1, 0.25f, 0, &nt), 32.5f);
    CHECK_EQ_I64(nt, 1);
    /* normalized + wrap: x = 0 -> texel -0.5 -> taps 3 and 0, a = 0.5 */
    d = desc1d(m.a, 4, WS_TEX_WRAP, WS_TEX_LINEAR, 1);
    CHECK_F(fetchf(&d, m.g, 1, 0.0f, 0, NULL), 25);
    ws_gmem_destroy(m.g);
}

TEST(tex_bilinear_2d) {
    /* 2 x 3 texels, rows 16 bytes apart (pitch > row): T[y][x] = 10y + x */
    const float t[12] = {0, 1, -1, -1, 10, 11, -1, -1, 20, 21, -1, -1};
    mem m = mem_with(t, sizeof t);
    ws_tex_desc d = desc1d(m.a, 2, WS_TEX_CLAMP, WS_TEX_LINEAR, 0);
    d.res = WS_TEX_RES_PITCH2D;
    d.height = 3;
    d.pitch = 16;
    unsigned nt = 0;
    CHECK_F(fetchf(&d, m.g, 2, 1.0f, 1.0f, &nt), 5.5f); /* centre of the 4 top-left texels */
    CHECK_EQ_I64(nt, 4);
    /* (0.75, 1.25): a = 0.25, b = 0.75 -> 0.25 * (0.25) + 0.75 * (10.25) = 7.75 */
    CHECK_F(fetchf(&d, m.g, 2, 0.75f, 1.25f, NULL), 7.75f);
    /* (1.5, 2.5): texel centre (1, 2) */
    CHECK_F(fetchf(&d, m.g, 2, 1.5f, 2.5f, NULL), 21);
    /* normalized (0.5, 0.5) -> (1, 1.5): a = 0.5 on x, b = 0 on y (row 1) */
    d.normalized_coords = 1;
    CHECK_F(fetchf(&d, m.g, 2, 0.5f, 0.5f, NULL), 10.5f);
    /* the taps are the four texel addresses */
    uint32_t c[3] = {fbits(1.0f), fbits(2.0f), 0}, out[4];
    uint64_t taps[WS_TEX_MAX_TAPS], badp;
    d.normalized_coords = 0;
    CHECK_EQ_I64(ws_tex_fetch(&d, m.g, 2, 0, c, out, taps, &nt, &badp), WS_OK);
    CHECK_EQ_I64(nt, 4);
    CHECK_EQ_U64(taps[0], m.a + 16);
    CHECK_EQ_U64(taps[1], m.a + 20);
    CHECK_EQ_U64(taps[2], m.a + 32);
    CHECK_EQ_U64(taps[3], m.a + 36);
    ws_gmem_destroy(m.g);
}

TEST(tex_trilinear_3d) {
    /* 2 x 2 x 2 texels, T = x + 2y + 4z; a 3-D array with rows of 8 bytes */
    const float t[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    mem m = mem_with(t, sizeof t);
    ws_tex_desc d = desc1d(m.a, 2, WS_TEX_CLAMP, WS_TEX_LINEAR, 0);
    d.height = 2;
    d.depth = 2;
    d.pitch = 8;
    uint32_t c[3] = {fbits(1.0f), fbits(1.0f), fbits(1.0f)}, out[4];
    uint64_t taps[WS_TEX_MAX_TAPS], badp;
    unsigned nt = 0;
    CHECK_EQ_I64(ws_tex_fetch(&d, m.g, 3, 0, c, out, taps, &nt, &badp), WS_OK);
    CHECK_F(bitsf(out[0]), 3.5f); /* the centre: the mean of all eight */
    CHECK_EQ_I64(nt, 8);
    CHECK_EQ_U64(taps[7], m.a + 28);
    /* (0.75, 1.5, 1.25): a = 0.25 on x, texel row 1 on y, b = 0.75 on z */
    c[0] = fbits(0.75f);
    c[1] = fbits(1.5f);
    c[2] = fbits(1.25f);
    CHECK_EQ_I64(ws_tex_fetch(&d, m.g, 3, 0, c, out, taps, &nt, &badp), WS_OK);
    CHECK_F(bitsf(out[0]), 0.25f + 2 + 4 * 0.75f);
    /* point sampling reads one texel */
    d.filter = WS_TEX_POINT;
    CHECK_EQ_I64(ws_tex_fetch(&d, m.g, 3, 0, c, out, taps, &nt, &badp), WS_OK);
    CHECK_F(bitsf(out[0]), 6);
    CHECK_EQ_I64(nt, 1);
    ws_gmem_destroy(m.g);
}

TEST(tex_formats_and_read_modes) {
    const uint8_t b[8] = {0, 128, 255, 0x80, 0x81, 0x7F, 0xFB, 7};
    mem m = mem_with(b, sizeof b);
    ws_tex_desc d = desc1d(m.a, 8, WS_TEX_CLAMP, WS_TEX_POINT, 0);
    d.bits = 8;
    d.kind = WS_TEX_UNSIGNED;
    d.read_normalized = 1;
    CHECK_F(fetchf(&d, m.g, 1, 0.5f, 0, NULL), 0);
    CHECK_F(fetchf(&d, m.g, 1, 1.5f, 0, NULL), (float)(128.0 / 255.0));
    CHECK_F(fetchf(&d, m.g, 1, 2.5f, 0, NULL), 1);
    d.kind = WS_TEX_SIGNED;
    CHECK_F(fetchf(&d, m.g, 1, 3.5f, 0, NULL), -1);  /* -128 clamps to -1 */
    CHECK_F(fetchf(&d, m.g, 1, 4.5f, 0, NULL), -1);  /* -127 / 127 */
    CHECK_F(fetchf(&d, m.g, 1, 5.5f, 0, NULL), 1);
    /* element type: integers, sign- or zero-extended; s32 coordinates are indices */
    d.read_normalized = 0;
    uint32_t c[3] = {6, 0, 0}, out[4];
    uint64_t taps[WS_TEX_MAX_TAPS], badp;
    unsigned nt;
    CHECK_EQ_I64(ws_tex_fetch(&d, m.g, 1, 1, c, out, taps, &nt, &badp), WS_OK);
    CHECK_EQ_U64(out[0], 0xFFFFFFFBu);
    CHECK_EQ_U64(out[1], 0); /* missing channels read 0 */
    d.kind = WS_TEX_UNSIGNED;
    CHECK_EQ_I64(ws_tex_fetch(&d, m.g, 1, 1, c, out, taps, &nt, &badp), WS_OK);
    CHECK_EQ_U64(out[0], 0xFB);
    /* uchar4 as one texel of four channels */
    d.channels = 4;
    d.width = 2;
    d.pitch = 8;
    c[0] = 1;
    CHECK_EQ_I64(ws_tex_fetch(&d, m.g, 1, 1, c, out, taps, &nt, &badp), WS_OK);
    CHECK_EQ_U64(out[0], 0x81);
    CHECK_EQ_U64(out[3], 7);
    CHECK_EQ_U64(taps[0], m.a + 4);
    /* integer coordinates out of range: clamp, or the border value */
    c[0] = (uint32_t)-5;
    CHECK_EQ_I64(ws_tex_fetch(&d, m.g, 1, 1, c, out, taps, &nt, &badp), WS_OK);
    CHECK_EQ_U64(out[0], 0);
    d.address[0] = WS_TEX_BORDER;
    d.border[0] = 3;
    c[0] = 2;
    CHECK_EQ_I64(ws_tex_fetch(&d, m.g, 1, 1, c, out, taps, &nt, &badp), WS_OK);
    CHECK_EQ_U64(out[0], 3);
    CHECK_EQ_I64(nt, 0);
    ws_gmem_destroy(m.g);
    /* half floats read as f32 */
    const uint16_t h[2] = {0x3C00, 0xC100}; /* 1.0, -2.5 */
    m = mem_with(h, sizeof h);
    d = desc1d(m.a, 2, WS_TEX_CLAMP, WS_TEX_LINEAR, 0);
    d.bits = 16;
    CHECK_F(fetchf(&d, m.g, 1, 0.5f, 0, NULL), 1);
    CHECK_F(fetchf(&d, m.g, 1, 1.0f, 0, NULL), -0.75f);
    ws_gmem_destroy(m.g);
}

TEST(tex_table_checks_descriptors) {
    ws_gmem *g = ws_gmem_create(1 << 20);
    uint64_t a = 0;
    CHECK(ws_gmem_alloc(g, 1024, &a) == WS_OK);
    ws_tex_table *t = ws_tex_table_create();
    char err[256];
    ws_texobj h = 0, h2 = 0;
    ws_tex_desc d = desc1d(a, 256, WS_TEX_CLAMP, WS_TEX_POINT, 0);
    d.res = WS_TEX_RES_LINEAR;
    d.pitch = 0;
    CHECK_EQ_I64(ws_tex_table_add(t, &d, g, &h, err, sizeof err), WS_OK);
    CHECK_EQ_U64(h, 1);
    CHECK(ws_tex_table_get(t, h) != NULL);
    CHECK_EQ_U64(ws_tex_table_get(t, h)->pitch, 1024); /* derived */
#define REFUSE(field_change, want)                                                     \
    do {                                                                               \
        ws_tex_desc e = d;                                                             \
        field_change;                                                                  \
        ws_texobj x = 0;                                                               \
        CHECK_EQ_I64(ws_tex_table_add(t, &e, g, &x, err, sizeof err), WS_ERR_INVALID_VALUE); \
        CHECK_STR_CONTAINS(err, want);                                                 \
    } while (0)
    REFUSE(e.channels = 3, "1, 2 or 4 channels");
    REFUSE(e.bits = 64, "8, 16 or 32 bits");
    REFUSE(e.width = 257, "inside one live device allocation");
    REFUSE(e.addr = a + 2, "aligned to its texel size");
    REFUSE(e.kind = WS_TEX_SIGNED; e.read_normalized = 1, "8- or 16-bit integer");
    REFUSE(e.kind = WS_TEX_SIGNED; e.filter = WS_TEX_LINEAR, "linear filtering needs float results");
    REFUSE(e.res = WS_TEX_RES_PITCH2D; e.width = 16; e.height = 4; e.pitch = 32, "hold a row");
    REFUSE(e.res = WS_TEX_RES_PITCH2D; e.width = 16; e.height = 0, "need a height");
    REFUSE(e.address[1] = (ws_tex_address)9, "unknown address mode");
    REFUSE(e.width = 0, "width must be 1 or more");
#undef REFUSE
    /* a 3-D array whose last slice fits exactly */
    ws_tex_desc e = d;
    e.res = WS_TEX_RES_ARRAY;
    e.width = 4;
    e.height = 4;
    e.depth = 16;
    e.pitch = 16;
    CHECK_EQ_I64(ws_tex_table_add(t, &e, g, &h2, err, sizeof err), WS_OK);
    CHECK_EQ_U64(h2, 2);
    /* destroyed handles are never reused */
    CHECK_EQ_I64(ws_tex_table_remove(t, h), WS_OK);
    CHECK(ws_tex_table_get(t, h) == NULL);
    CHECK_EQ_I64(ws_tex_table_remove(t, h), WS_ERR_INVALID_VALUE);
    CHECK_EQ_I64(ws_tex_table_remove(t, 99), WS_ERR_INVALID_VALUE);
    CHECK_EQ_I64(ws_tex_table_add(t, &d, g, &h, err, sizeof err), WS_OK);
    CHECK_EQ_U64(h, 3);
    /* memory freed under a texture: the fetch reports the texel's address */
    CHECK_EQ_I64(ws_gmem_free(g, a), WS_OK);
    uint32_t c[3] = {5, 0, 0}, out[4];
    uint64_t taps[WS_TEX_MAX_TAPS], badp = 0;
    unsigned nt;
    CHECK_EQ_I64(ws_tex_fetch(ws_tex_table_get(t, h), g, 1, 1, c, out, taps, &nt, &badp),
                 WS_ERR_ILLEGAL_ADDRESS);
    CHECK_EQ_U64(badp, a + 20);
    ws_tex_table_destroy(t);
    ws_gmem_destroy(g);
}

/* ---- kernels through the embedding API ---------------------------------------------------- */
static ws_device *open_dev(int functional) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.functional_only = functional;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    return d;
}

/* Run k(tex, out, n) with n threads; returns the launch status, out[] filled. */
static ws_status run_k(ws_device *d, const char *src, ws_texobj tex, float *out, int n) {
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    ws_status s = ws_module_load(d, src, strlen(src), "t.ptx", NULL, &m);
    CHECK_MSG(s == WS_OK, "load: %s", ws_device_last_error(d));
    if (s != WS_OK) return s;
    CHECK(ws_module_get_kernel(m, "k", &k) == WS_OK);
    ws_devptr o = 0;
    CHECK(ws_malloc(d, (size_t)n * 4, &o) == WS_OK);
    void *args[] = {&tex, &o, &n};
    s = ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){(uint32_t)n, 1, 1}, 0, args);
    if (s == WS_OK) ws_memcpy_dtoh(d, out, o, (size_t)n * 4);
    ws_free(d, o);
    ws_module_unload(d, m);
    return s;
}

TEST(tex_kernels_fetch_and_filter) {
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) return;
        float h[16];
        for (int i = 0; i < 16; i++) h[i] = (float)(i * i);
        ws_devptr p = 0;
        CHECK(ws_malloc(d, sizeof h, &p) == WS_OK);
        CHECK(ws_memcpy_htod(d, p, h, sizeof h) == WS_OK);
        ws_tex_desc td = desc1d(p, 16, WS_TEX_CLAMP, WS_TEX_POINT, 0);
        td.res = WS_TEX_RES_LINEAR;
        ws_texobj t1 = 0, t2 = 0;
        CHECK(ws_texture_create(d, &td, &t1) == WS_OK);
        /* tex1Dfetch: out[i] = T[15 - i] */
        float out[16];
        const char *fetch = TKERN("sub.s32 %r3, 15, %r1;\n"
                                  "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r3}];\n"
                                  "st.global.f32 [%rd4], %f1;\n");
        CHECK_EQ_I64(run_k(d, fetch, t1, out, 16), WS_OK);
        for (int i = 0; i < 16; i++) CHECK_F(out[i], h[15 - i]);
        /* tex2D on a 4 x 4 pitch-2D view of the same memory, bilinear, normalized:
           thread i samples ((i + 1) / 8, 0.5) -> texel x = (i + 1) / 2, y = 2 */
        td.res = WS_TEX_RES_PITCH2D;
        td.width = td.height = 4;
        td.pitch = 16;
        td.filter = WS_TEX_LINEAR;
        td.normalized_coords = 1;
        CHECK(ws_texture_create(d, &td, &t2) == WS_OK);
        const char *filt = TKERN("add.s32 %r3, %r1, 1;\ncvt.rn.f32.s32 %f5, %r3;\n"
                                 "mul.f32 %f5, %f5, 0f3E000000;\nmov.f32 %f6, 0f3F000000;\n"
                                 "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n"
                                 "st.global.f32 [%rd4], %f1;\n");
        CHECK_EQ_I64(run_k(d, filt, t2, out, 7), WS_OK);
        for (int i = 0; i < 7; i++) {
            /* y = 2 - 0.5 = 1.5 -> rows 1, 2 at 0.5; x = (i + 1) / 2 - 0.5 */
            double xb = (i + 1) / 2.0 - 0.5, fl = floor(xb), a = xb - fl;
            int x0 = fl < 0 ? 0 : fl > 3 ? 3 : (int)fl, x1 = fl + 1 > 3 ? 3 : (int)fl + 1;
            double r1 = (1 - a) * h[4 + x0] + a * h[4 + x1], r2 = (1 - a) * h[8 + x0] + a * h[8 + x1];
            CHECK_F(out[i], (float)(0.5 * r1 + 0.5 * r2));
        }
        ws_tex_desc back;
        CHECK(ws_texture_get_desc(d, t2, &back) == WS_OK);
        CHECK_EQ_U64(back.pitch, 16);
        CHECK_EQ_I64(back.filter, WS_TEX_LINEAR);
        ws_device_destroy(d);
    }
}

TEST(tex_kernel_faults) {
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) return;
        ws_devptr p = 0;
        CHECK(ws_malloc(d, 64, &p) == WS_OK);
        ws_tex_desc td = desc1d(p, 16, WS_TEX_CLAMP, WS_TEX_POINT, 0);
        ws_texobj t = 0;
        CHECK(ws_texture_create(d, &td, &t) == WS_OK);
        float out[32];
        const char *fetch = TKERN("tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
                                  "st.global.f32 [%rd4], %f1;\n");
        /* a handle that was never created */
        ws_status s = run_k(d, fetch, 12345, out, 4);
        CHECK_EQ_I64(s, WS_ERR_ILLEGAL_ADDRESS);
        const char *msg = ws_device_last_error(d);
        CHECK_STR_CONTAINS(msg, "invalid texture object handle 0x3039 (tex.1d");
        CHECK_STR_CONTAINS(msg, "kernel k");
        CHECK_STR_CONTAINS(msg, "thread (0,0,0)");
        CHECK_STR_CONTAINS(msg, "t.ptx:18");
        /* a destroyed one */
        CHECK(ws_texture_destroy(d, t) == WS_OK);
        CHECK(ws_texture_destroy(d, t) == WS_ERR_INVALID_VALUE);
        CHECK_EQ_I64(run_k(d, fetch, t, out, 4), WS_ERR_ILLEGAL_ADDRESS);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "invalid texture object handle 0x");
        /* geometry that does not match the texture */
        CHECK(ws_texture_create(d, &td, &t) == WS_OK);
        const char *two = TKERN("mov.f32 %f5, 0f00000000;\n"
                                "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f5}];\n"
                                "st.global.f32 [%rd4], %f1;\n");
        CHECK_EQ_I64(run_k(d, two, t, out, 4), WS_ERR_LAUNCH_FAILURE);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "tex.2d on texture object");
        /* the device still works afterwards */
        CHECK_EQ_I64(run_k(d, fetch, t, out, 4), WS_OK);
        /* memory freed under a live texture */
        CHECK(ws_free(d, p) == WS_OK);
        CHECK_EQ_I64(run_k(d, fetch, t, out, 4), WS_ERR_ILLEGAL_ADDRESS);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "memory was freed");
        /* API misuse */
        CHECK_EQ_I64(ws_texture_create(d, NULL, &t), WS_ERR_INVALID_VALUE);
        CHECK_EQ_I64(ws_texture_create(d, &td, &t), WS_ERR_INVALID_VALUE);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "texture create:");
        ws_device_destroy(d);
    }
}
