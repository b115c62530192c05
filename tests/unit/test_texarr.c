/* Texture gather (tld4) and layered textures (tex.a1d / tex.a2d) through
 * the embedding API, against the rules computed on the host: tld4 returns
 * one component of the 2 x 2 bilinear footprint counter-clockwise from the
 * lower left, with the address mode (clamp, border) applied per texel and
 * the filter mode ignored; a layered fetch reads one layer (the index
 * clamped to the layers there are) as a texture of its own. */
#include <math.h>
#include <stdlib.h>

#include "ptx/ptx.h"
#include "test.h"
#include "warpsim/warpsim.h"

#define AHEAD ".version 9.0\n.target sm_75\n.address_size 64\n"
/* k(tex, out, in): thread i reads three words at in + 12 i (%r3 layer,
   %f1 x, %f2 y), runs body (four results in %r4..%r7) and stores them at
   out + 16 i. */
#define AKERN(body)                                                                                \
    AHEAD ".visible .entry k(.param .u64 pt, .param .u64 po, .param .u64 pi)\n{\n"                 \
    ".reg .b32 %r<16>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<10>;\n"                                     \
    "ld.param.u64 %rd1, [pt];\nld.param.u64 %rd2, [po];\nld.param.u64 %rd3, [pi];\n"               \
    "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 12;\nadd.s64 %rd5, %rd3, %rd4;\n"                \
    "ld.global.u32 %r3, [%rd5];\nld.global.f32 %f1, [%rd5+4];\nld.global.f32 %f2, [%rd5+8];\n"      \
    body "mul.wide.u32 %rd6, %r1, 16;\nadd.s64 %rd7, %rd2, %rd6;\n"                                 \
    "st.global.v4.u32 [%rd7], {%r4, %r5, %r6, %r7};\nret;\n}\n"

typedef struct { int32_t layer; float x, y; } coord;

static ws_device *open_dev(int functional) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.functional_only = functional;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    return d;
}

static ws_status run_k(ws_device *d, const char *src, ws_texobj t, const coord *in, uint32_t n, uint32_t *out) {
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    ws_status s = ws_module_load(d, src, strlen(src), "a.ptx", NULL, &m);
    CHECK_MSG(s == WS_OK, "load: %s", ws_device_last_error(d));
    if (s != WS_OK) return s;
    CHECK(ws_module_get_kernel(m, "k", &k) == WS_OK);
    ws_devptr po = 0, pi = 0;
    CHECK(ws_malloc(d, (size_t)n * 16, &po) == WS_OK);
    CHECK(ws_malloc(d, (size_t)n * sizeof *in, &pi) == WS_OK);
    CHECK(ws_memcpy_htod(d, pi, in, (size_t)n * sizeof *in) == WS_OK);
    void *args[] = {&t, &po, &pi};
    s = ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){n, 1, 1}, 0, args);
    if (s == WS_OK) ws_memcpy_dtoh(d, out, po, (size_t)n * 16);
    ws_free(d, po);
    ws_free(d, pi);
    ws_module_unload(d, m);
    return s;
}

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

enum { TW = 5, TH = 4 };
static const coord pts[] = {{0, 0.5f, 0.5f}, {0, 1.3f, 2.7f}, {0, 4.9f, 3.6f}, {0, -0.7f, 1.2f},
                            {0, 2.5f, -3.0f}, {0, 7.25f, 9.5f}, {0, 3.99f, 0.01f}, {0, 1.0f, 1.0f}};
enum { NP = sizeof pts / sizeof pts[0] };

/* The host's tld4: texel (i, j) of the footprint through the address mode. */
static int addr(int i, int n, int border) { return border ? (i >= 0 && i < n ? i : -1) : i < 0 ? 0 : i >= n ? n - 1 : i; }

TEST(tex_gather_tld4_against_host) {
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) return;
        /* 4-channel u32 texels: channel c of (i, j) = 1000 c + 10 j + i */
        uint32_t tx[TH][TW][4];
        for (int j = 0; j < TH; j++)
            for (int i = 0; i < TW; i++)
                for (int c = 0; c < 4; c++) tx[j][i][c] = (uint32_t)(1000 * c + 10 * j + i);
        ws_devptr mem = 0;
        CHECK(ws_malloc(d, sizeof tx, &mem) == WS_OK);
        CHECK(ws_memcpy_htod(d, mem, tx, sizeof tx) == WS_OK);
        ws_tex_desc td;
        memset(&td, 0, sizeof td);
        td.res = WS_TEX_RES_ARRAY;
        td.addr = mem;
        td.channels = 4;
        td.bits = 32;
        td.kind = WS_TEX_UNSIGNED;
        td.width = TW;
        td.height = TH;
        td.border[0] = 7.0f, td.border[1] = 8.0f, td.border[2] = 9.0f, td.border[3] = 77.0f;
        for (int border = 0; border < 2; border++) {
            td.address[0] = td.address[1] = border ? WS_TEX_BORDER : WS_TEX_CLAMP;
            ws_texobj t = 0;
            CHECK(ws_texture_create(d, &td, &t) == WS_OK);
            const char *k = AKERN("tld4.a.2d.v4.u32.f32 {%r4, %r5, %r6, %r7}, [%rd1, {%f1, %f2}];\n");
            uint32_t out[NP][4];
            CHECK_EQ_I64(run_k(d, k, t, pts, NP, &out[0][0]), WS_OK);
            for (int p = 0; p < NP; p++) {
                int i0 = (int)floor(pts[p].x - 0.5), j0 = (int)floor(pts[p].y - 0.5);
                const int xs[4] = {i0, i0 + 1, i0 + 1, i0}, ys[4] = {j0 + 1, j0 + 1, j0, j0};
                for (int q = 0; q < 4; q++) {
                    int x = addr(xs[q], TW, border), y = addr(ys[q], TH, border);
                    uint32_t want = x < 0 || y < 0 ? 77 : tx[y][x][3];
                    CHECK_MSG(out[p][q] == want, "border %d point %d texel %d: %u, want %u", border, p, q,
                              out[p][q], want);
                }
            }
        }
        /* float results: one 8-bit normalized channel, component r, linear
           filtering set (ignored by tld4) */
        uint8_t u8[TH][TW];
        for (int j = 0; j < TH; j++)
            for (int i = 0; i < TW; i++) u8[j][i] = (uint8_t)(j * 60 + i * 7);
        CHECK(ws_memcpy_htod(d, mem, u8, sizeof u8) == WS_OK);
        td.channels = 1;
        td.bits = 8;
        td.read_normalized = 1;
        td.filter = WS_TEX_LINEAR;
        td.address[0] = td.address[1] = WS_TEX_CLAMP;
        ws_texobj t = 0;
        CHECK(ws_texture_create(d, &td, &t) == WS_OK);
        const char *kf = AKERN("tld4.r.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
                               "mov.b32 %r4, %f3;\nmov.b32 %r5, %f4;\nmov.b32 %r6, %f5;\nmov.b32 %r7, %f6;\n");
        uint32_t out[NP][4];
        CHECK_EQ_I64(run_k(d, kf, t, pts, NP, &out[0][0]), WS_OK);
        for (int p = 0; p < NP; p++) {
            int i0 = (int)floor(pts[p].x - 0.5), j0 = (int)floor(pts[p].y - 0.5);
            const int xs[4] = {i0, i0 + 1, i0 + 1, i0}, ys[4] = {j0 + 1, j0 + 1, j0, j0};
            for (int q = 0; q < 4; q++)
                CHECK_EQ_U64(out[p][q], fb((float)(u8[addr(ys[q], TH, 0)][addr(xs[q], TW, 0)] / 255.0)));
        }
        /* tld4 needs a 2-D texture */
        td.height = 0;
        ws_texobj t1 = 0;
        CHECK(ws_texture_create(d, &td, &t1) == WS_OK);
        CHECK_EQ_I64(run_k(d, kf, t1, pts, 1, &out[0][0]), WS_ERR_LAUNCH_FAILURE);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "tld4.2d on texture object");
        ws_device_destroy(d);
    }
}

TEST(tex_layered_against_host) {
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) return;
        enum { LW = 4, LH = 3, NL = 3, PITCH = 32 }; /* rows padded to 32 bytes */
        float host[NL][LH][PITCH / 4];
        for (int l = 0; l < NL; l++)
            for (int j = 0; j < LH; j++)
                for (int i = 0; i < PITCH / 4; i++) host[l][j][i] = i < LW ? (float)(l * 100 + j * 10 + i) : -1.0f;
        ws_devptr mem = 0;
        CHECK(ws_malloc(d, sizeof host, &mem) == WS_OK);
        CHECK(ws_memcpy_htod(d, mem, host, sizeof host) == WS_OK);
        ws_tex_desc td;
        memset(&td, 0, sizeof td);
        td.res = WS_TEX_RES_ARRAY;
        td.addr = mem;
        td.channels = 1;
        td.bits = 32;
        td.kind = WS_TEX_FLOAT;
        td.width = LW;
        td.height = LH;
        td.depth = NL;
        td.pitch = PITCH;
        td.layered = 1;
        td.filter = WS_TEX_LINEAR;
        td.address[0] = td.address[1] = WS_TEX_CLAMP;
        ws_texobj t2 = 0;
        CHECK(ws_texture_create(d, &td, &t2) == WS_OK);
        /* layers -1 and 7 clamp to 0 and 2; x = i + 1 averages texels i, i + 1 */
        const coord in[] = {{0, 1.0f, 0.5f}, {1, 2.0f, 1.5f}, {2, 3.0f, 2.5f}, {-1, 1.0f, 1.5f},
                            {7, 2.0f, 0.5f}, {1, 9.0f, 2.0f}};
        enum { NI = sizeof in / sizeof in[0] };
        const char *k2 = AKERN("tex.a2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%r3, %f1, %f2, %f2}];\n"
                               "mov.b32 %r4, %f3;\nmov.b32 %r5, %f4;\nmov.b32 %r6, %f5;\nmov.b32 %r7, %f6;\n");
        uint32_t out[NI][4];
        CHECK_EQ_I64(run_k(d, k2, t2, in, NI, &out[0][0]), WS_OK);
        for (int p = 0; p < NI; p++) {
            int l = in[p].layer < 0 ? 0 : in[p].layer >= NL ? NL - 1 : in[p].layer;
            double xb = in[p].x - 0.5, yb = in[p].y - 0.5, fx = floor(xb), fy = floor(yb);
            double ax = xb - fx, ay = yb - fy, acc = 0;
            for (int dy = 0; dy < 2; dy++)
                for (int dx = 0; dx < 2; dx++) {
                    int x = (int)fx + dx, y = (int)fy + dy;
                    x = x < 0 ? 0 : x >= LW ? LW - 1 : x;
                    y = y < 0 ? 0 : y >= LH ? LH - 1 : y;
                    acc += (dx ? ax : 1 - ax) * (dy ? ay : 1 - ay) * host[l][y][x];
                }
            CHECK_MSG(out[p][0] == fb((float)acc), "a2d point %d: 0x%08x, want %g", p, out[p][0], acc);
            CHECK_EQ_U64(out[p][1], 0); /* channels the format lacks */
        }
        /* a 1-D layered view: the rows of layer 0 are 3 layers of 4 texels, point sampled */
        td.depth = 0;
        td.filter = WS_TEX_POINT;
        ws_texobj t1 = 0;
        CHECK(ws_texture_create(d, &td, &t1) == WS_OK);
        const char *k1 = AKERN("tex.a1d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%r3, %f1}];\n"
                               "mov.b32 %r4, %f3;\nmov.b32 %r5, %f4;\nmov.b32 %r6, %f5;\nmov.b32 %r7, %f6;\n");
        CHECK_EQ_I64(run_k(d, k1, t1, in, NI, &out[0][0]), WS_OK);
        for (int p = 0; p < NI; p++) {
            int l = in[p].layer < 0 ? 0 : in[p].layer >= LH ? LH - 1 : in[p].layer;
            int x = (int)floorf(in[p].x);
            x = x >= LW ? LW - 1 : x;
            CHECK_EQ_U64(out[p][0], fb(host[0][l][x]));
        }
        /* geometry and descriptor checks */
        CHECK_EQ_I64(run_k(d, k2, t1, in, 1, &out[0][0]), WS_ERR_LAUNCH_FAILURE);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "tex.a2d on texture object");
        CHECK_STR_CONTAINS(ws_device_last_error(d), "which is a1d");
        td.res = WS_TEX_RES_PITCH2D;
        CHECK_EQ_I64(ws_texture_create(d, &td, &t1), WS_ERR_INVALID_VALUE);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "only arrays can be layered");
        td.res = WS_TEX_RES_ARRAY;
        td.height = 0;
        CHECK_EQ_I64(ws_texture_create(d, &td, &t1), WS_ERR_INVALID_VALUE);
        CHECK_STR_CONTAINS(ws_device_last_error(d), "layered array needs its layer count");
        ws_device_destroy(d);
    }
}

/* tex.level and tex.grad read the one level every texture has: the same
   as tex; and the gather, layered, level and gradient forms go through the
   dump and parse back to the same text. */
TEST(tex_level_grad_and_dump) {
    ws_device *d = open_dev(1);
    if (!d) return;
    float host[TH][TW];
    for (int j = 0; j < TH; j++)
        for (int i = 0; i < TW; i++) host[j][i] = (float)(j * 16 + i) * 0.5f;
    ws_devptr mem = 0;
    CHECK(ws_malloc(d, sizeof host, &mem) == WS_OK);
    CHECK(ws_memcpy_htod(d, mem, host, sizeof host) == WS_OK);
    ws_tex_desc td;
    memset(&td, 0, sizeof td);
    td.res = WS_TEX_RES_ARRAY;
    td.addr = mem;
    td.channels = 1;
    td.bits = 32;
    td.kind = WS_TEX_FLOAT;
    td.width = TW;
    td.height = TH;
    td.address[0] = td.address[1] = WS_TEX_CLAMP;
    ws_texobj t = 0;
    CHECK(ws_texture_create(d, &td, &t) == WS_OK);
    const char *src = AKERN("tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\nmov.b32 %r4, %f3;\n"
                            "mov.f32 %f7, 0f40200000;\n"
                            "tex.level.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}], %f7;\nmov.b32 %r5, %f3;\n"
                            "tex.grad.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}], {%f7, %f7}, {%f7, %f1};\n"
                            "mov.b32 %r6, %f3;\nmov.u32 %r7, 0;\n");
    uint32_t out[NP][4];
    CHECK_EQ_I64(run_k(d, src, t, pts, NP, &out[0][0]), WS_OK);
    for (int p = 0; p < NP; p++) {
        int x = addr((int)floor(pts[p].x), TW, 0), y = addr((int)floor(pts[p].y), TH, 0);
        CHECK_EQ_U64(out[p][0], fb(host[y][x]));
        CHECK_EQ_U64(out[p][1], out[p][0]);
        CHECK_EQ_U64(out[p][2], out[p][0]);
    }
    ws_device_destroy(d);
    /* dump round trip */
    const char *forms = AKERN("tex.level.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}], %f7;\n"
                              "tex.grad.3d.v4.s32.f32 {%r4, %r5, %r6, %r7}, [%rd1, {%f1, %f2, %f2, %f2}], "
                              "{%f1, %f2, %f2, %f2}, {%f7, %f1, %f1, %f1};\n"
                              "tex.a2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%r3, %f1, %f2, %f2}];\n"
                              "tex.a1d.v4.u32.s32 {%r4, %r5, %r6, %r7}, [%rd1, {%r3, %r3}];\n"
                              "tld4.g.2d.v4.s32.f32 {%r4, %r5, %r6, %r7}, [%rd1, {%f1, %f2}];\n");
    ws_diag dg;
    ws_module *m = ws_ptx_parse(forms, strlen(forms), "f.ptx", &dg);
    CHECK_MSG(m != NULL, "%s", dg.msg);
    if (!m) return;
    char *d1 = NULL, *d2 = NULL;
    size_t l1 = 0, l2 = 0;
    FILE *o = open_memstream(&d1, &l1);
    fputs(AHEAD, o);
    ws_ptx_dump_func(o, m, &m->funcs[0]);
    fclose(o);
    ws_module *m2 = ws_ptx_parse(d1, l1, "dump.ptx", &dg);
    CHECK_MSG(m2 != NULL, "%s\n%s", dg.msg, d1);
    if (m2) {
        o = open_memstream(&d2, &l2);
        fputs(AHEAD, o);
        ws_ptx_dump_func(o, m2, &m2->funcs[0]);
        fclose(o);
        CHECK_MSG(l1 == l2 && !memcmp(d1, d2, l1), "dump differs after round trip:\n%s\n%s", d1, d2);
        CHECK_STR_CONTAINS(d1, "tex.level.2d.v4.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}], %f7;");
        CHECK_STR_CONTAINS(d1, "tld4.g.2d.v4.s32.f32 {%r4, %r5, %r6, %r7}, [%rd1, {%f1, %f2}];");
        CHECK_STR_CONTAINS(d1, "tex.a1d.v4.u32.s32");
        ws_module_free(m2);
    }
    free(d1);
    free(d2);
    ws_module_free(m);
}

/* tex.cube: the face of the largest coordinate (ties: x, then y), read at
   normalized ((s / m + 1) / 2, (t / m + 1) / 2) with the face's edges
   clamped, whatever the texture's address mode. */
TEST(tex_cube_against_host) {
    ws_device *d = open_dev(1);
    if (!d) return;
    enum { CW = 4 };
    float host[6][CW][CW];
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < CW; y++)
            for (int x = 0; x < CW; x++) host[f][y][x] = (float)(100 * f + 10 * y + x);
    ws_devptr mem = 0;
    CHECK(ws_malloc(d, sizeof host, &mem) == WS_OK);
    CHECK(ws_memcpy_htod(d, mem, host, sizeof host) == WS_OK);
    ws_tex_desc td;
    memset(&td, 0, sizeof td);
    td.res = WS_TEX_RES_ARRAY;
    td.addr = mem;
    td.channels = 1;
    td.bits = 32;
    td.kind = WS_TEX_FLOAT;
    td.width = td.height = CW;
    td.depth = 6;
    td.cubemap = 1;
    td.address[0] = td.address[1] = WS_TEX_WRAP;
    ws_texobj t = 0;
    CHECK(ws_texture_create(d, &td, &t) == WS_OK);
    /* (layer, x, y) carry the direction (x, y, z) here */
    static const coord dirs[] = {{0, 1.0f, 0.2f}, {0, -1.0f, -0.6f}, {0, 0.9f, 0.3f}, {0, -0.5f, -0.1f},
                                 {0, 0.1f, 0.2f}, {0, -0.3f, 0.1f}, {0, 0.7f, 0.7f}, {0, 0.0f, 0.0f}};
    static const float zs[] = {0.4f, -0.3f, -0.95f, 0.2f, 0.8f, -0.9f, 0.7f, 0.0f};
    enum { ND = sizeof dirs / sizeof dirs[0] };
    coord in[ND];
    for (int k = 0; k < ND; k++) {
        float z = zs[k];
        memcpy(&in[k].layer, &z, 4); /* the kernel reads the first word as z below */
        in[k].x = dirs[k].x;
        in[k].y = dirs[k].y;
    }
    const char *src = AKERN("mov.b32 %f7, %r3;\n"
                            "tex.cube.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2, %f7, %f7}];\n"
                            "mov.b32 %r4, %f3;\nmov.u32 %r5, 0;\nmov.u32 %r6, 0;\nmov.u32 %r7, 0;\n");
    uint32_t out[ND][4];
    CHECK_EQ_I64(run_k(d, src, t, in, ND, &out[0][0]), WS_OK);
    for (int k = 0; k < ND; k++) {
        float x = in[k].x, y = in[k].y, z = zs[k], ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, tt;
        int f;
        if (ax >= ay && ax >= az) f = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, tt = -y;
        else if (ay >= az) f = y >= 0 ? 2 : 3, m = ay, s = x, tt = y >= 0 ? z : -z;
        else f = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, tt = -y;
        float u = m > 0 ? (s / m + 1.0f) * 0.5f : 0.5f, w = m > 0 ? (tt / m + 1.0f) * 0.5f : 0.5f;
        int i = addr((int)floor((double)u * CW), CW, 0), j = addr((int)floor((double)w * CW), CW, 0);
        CHECK_MSG(out[k][0] == fb(host[f][j][i]), "direction %d: face %d (%d, %d)", k, f, i, j);
    }
    /* direction (1, 0.2, 0.4) is face +x; (0.7, 0.7, 0.7) a three-way tie: +x */
    CHECK_EQ_U64(out[0][0] >> 0, fb(host[0][1][1]));
    CHECK_EQ_U64(out[6][0], fb(host[0][0][0]));
    /* checks: a cube map is width x width x 6, not layered */
    td.height = CW + 1;
    CHECK_EQ_I64(ws_texture_create(d, &td, &t), WS_ERR_INVALID_VALUE);
    CHECK_STR_CONTAINS(ws_device_last_error(d), "a cube map is a width x width array of 6 faces");
    ws_device_destroy(d);
}

/* tld4 on a layered 2-D texture (.a2d: the layer clamped, the footprint
   within it) and on a cube map (.cube: the footprint within the face the
   direction picks, clamped at its edges), against the host. */
TEST(tex_gather_tld4_layered_and_cube) {
    ws_device *d = open_dev(1);
    if (!d) return;
    enum { CW = 4 };
    /* 2 channels u32: channel c of (i, j, layer) = 1000 c + 100 layer + 10 j + i; 6 layers of
       CW x CW serve as the layered texture and as the cube map's faces */
    uint32_t tx[6][CW][CW][2];
    for (int l = 0; l < 6; l++)
        for (int j = 0; j < CW; j++)
            for (int i = 0; i < CW; i++)
                for (int c = 0; c < 2; c++) tx[l][j][i][c] = (uint32_t)(1000 * c + 100 * l + 10 * j + i);
    ws_devptr mem = 0;
    CHECK(ws_malloc(d, sizeof tx, &mem) == WS_OK);
    CHECK(ws_memcpy_htod(d, mem, tx, sizeof tx) == WS_OK);
    ws_tex_desc td;
    memset(&td, 0, sizeof td);
    td.res = WS_TEX_RES_ARRAY;
    td.addr = mem;
    td.channels = 2;
    td.bits = 32;
    td.kind = WS_TEX_UNSIGNED;
    td.width = td.height = CW;
    td.depth = 6;
    td.layered = 1;
    ws_texobj t = 0;
    CHECK(ws_texture_create(d, &td, &t) == WS_OK);
    static const coord lp[] = {{0, 0.5f, 0.5f}, {2, 1.3f, 2.7f}, {5, 3.9f, 3.6f}, {9, -0.7f, 1.2f}, {-3, 2.5f, 0.2f}};
    const char *k = AKERN("tld4.g.a2d.v4.u32.f32 {%r4, %r5, %r6, %r7}, [%rd1, {%r3, %f1, %f2, %f2}];\n");
    uint32_t out[5][4];
    CHECK_EQ_I64(run_k(d, k, t, lp, 5, &out[0][0]), WS_OK);
    for (int p = 0; p < 5; p++) {
        int l = lp[p].layer < 0 ? 0 : lp[p].layer > 5 ? 5 : lp[p].layer;
        int i0 = (int)floor(lp[p].x - 0.5), j0 = (int)floor(lp[p].y - 0.5);
        const int xs[4] = {i0, i0 + 1, i0 + 1, i0}, ys[4] = {j0 + 1, j0 + 1, j0, j0};
        for (int q = 0; q < 4; q++) {
            uint32_t want = tx[l][addr(ys[q], CW, 0)][addr(xs[q], CW, 0)][1];
            CHECK_MSG(out[p][q] == want, "a2d point %d texel %d: %u, want %u", p, q, out[p][q], want);
        }
    }
    /* the cube map: directions (1, y, z) land on face +x (0) at s = -z, t = -y */
    td.layered = 0;
    td.cubemap = 1;
    ws_texobj tc = 0;
    CHECK(ws_texture_create(d, &td, &tc) == WS_OK);
    static const coord cp[] = {{0, 0.1f, -0.3f}, {0, -0.9f, 0.95f}, {0, 0.6f, 0.05f}};
    /* the kernel's y and z: %f1, %f2; x = 1 */
    const char *kc = AKERN("mov.f32 %f3, 0f3F800000;\n"
                           "tld4.r.cube.v4.u32.f32 {%r4, %r5, %r6, %r7}, [%rd1, {%f3, %f1, %f2, %f2}];\n");
    CHECK_EQ_I64(run_k(d, kc, tc, cp, 3, &out[0][0]), WS_OK);
    for (int p = 0; p < 3; p++) {
        float u = (-cp[p].y + 1.0f) * 0.5f * CW, v = (-cp[p].x + 1.0f) * 0.5f * CW;
        int i0 = (int)floor(u - 0.5), j0 = (int)floor(v - 0.5);
        const int xs[4] = {i0, i0 + 1, i0 + 1, i0}, ys[4] = {j0 + 1, j0 + 1, j0, j0};
        for (int q = 0; q < 4; q++) {
            uint32_t want = tx[0][addr(ys[q], CW, 0)][addr(xs[q], CW, 0)][0];
            CHECK_MSG(out[p][q] == want, "cube point %d texel %d: %u, want %u", p, q, out[p][q], want);
        }
    }
    ws_device_destroy(d);
}
