/* The texture path end to end: the bundled texture workload functionally
 * and on the timing model (its report shows L1T traffic), and the L1T's
 * access and miss counts on tiny hand-counted patterns. */
#include <stdlib.h>

#include "test.h"
#include "warpsim/warpsim.h"
#include "workload.h"

/* Value of "name = N" summed over the report's kernels (-1: absent). */
static long long stat_sum(const char *rep, const char *name) {
    long long sum = -1;
    size_t n = strlen(name);
    for (const char *p = rep; p && *p;) {
        if (!strncmp(p, name, n) && !strncmp(p + n, " = ", 3)) sum = (sum < 0 ? 0 : sum) + atoll(p + n + 3);
        p = strchr(p, '\n');
        if (p) p++;
    }
    return sum;
}

static ws_device *open_dev(int functional, FILE *report) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = functional;
    o.report = report;
    o.quiet = report == NULL;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    return d;
}

TEST(texture_workload_functional_and_timing) {
    const ws_workload *w = ws_workload_find("micro/texture");
    CHECK(w != NULL);
    if (!w) return;
    for (int functional = 1; functional >= 0; functional--) {
        char *rep = NULL, *log = NULL;
        size_t rl = 0, ll = 0;
        FILE *rf = open_memstream(&rep, &rl), *lf = open_memstream(&log, &ll);
        ws_device *d = open_dev(functional, rf);
        ws_wl_result r = d ? ws_workload_run(w, d, WS_INPUT_SMALL, lf) : WS_WL_ERROR;
        ws_device_destroy(d);
        fclose(rf);
        fclose(lf);
        CHECK_MSG(r == WS_WL_PASS, "texture (%s) returned %d:\n%s", functional ? "functional" : "timing",
                  (int)r, log ? log : "");
        if (!functional) {
            long long acc = stat_sum(rep, "L1T_total_cache_accesses_kernel");
            long long miss = stat_sum(rep, "L1T_total_cache_misses_kernel");
            CHECK_MSG(acc > 0 && miss > 0 && miss < acc, "L1T accesses %lld, misses %lld", acc, miss);
        }
        free(rep);
        free(log);
    }
}

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/* One warp on one SM over a 1024-float linear texture (32 lines of 128 B):
 *  - fetch i = lane: one line, a miss;
 *  - the same again: one access, a hit (or a pending hit), no miss;
 *  - i = 32 * lane: 32 lines, line 0 already there: 31 misses.
 * Then a 32 x 4 float pitch-2D texture, one 128 B row per line, bilinear at
 * unnormalized (lane + 1, 1): taps in rows 0 and 1 -> 2 accesses, 2 misses
 * (the L1T is invalidated at the kernel start). */
static const char *k_lines =
    HEAD ".visible .entry lines(.param .u64 pt, .param .u64 po)\n{\n"
    ".reg .b32 %r<8>;\n.reg .f32 %f<16>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [pt];\nld.param.u64 %rd2, [po];\nmov.u32 %r1, %tid.x;\n"
    "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
    "tex.1d.v4.f32.s32 {%f5, %f6, %f7, %f8}, [%rd1, {%r1}];\n"
    "shl.b32 %r3, %r1, 5;\n"
    "tex.1d.v4.f32.s32 {%f9, %f10, %f11, %f12}, [%rd1, {%r3}];\n"
    "add.f32 %f13, %f1, %f5;\nadd.f32 %f13, %f13, %f9;\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nst.global.f32 [%rd4], %f13;\nret;\n}\n"
    ".visible .entry quad(.param .u64 pt, .param .u64 po)\n{\n"
    ".reg .b32 %r<8>;\n.reg .f32 %f<16>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [pt];\nld.param.u64 %rd2, [po];\nmov.u32 %r1, %tid.x;\n"
    "add.s32 %r2, %r1, 1;\ncvt.rn.f32.u32 %f1, %r2;\nmov.f32 %f2, 0f3F800000;\n"
    "tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f1, %f2}];\n"
    "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nst.global.f32 [%rd4], %f5;\nret;\n}\n";

TEST(texture_cache_hits_and_misses) {
    char *rep = NULL;
    size_t rl = 0;
    FILE *rf = open_memstream(&rep, &rl);
    ws_device *d = open_dev(0, rf);
    if (!d) return;
    ws_module_handle *m = NULL;
    ws_kernel *k1 = NULL, *k2 = NULL;
    CHECK(ws_module_load(d, k_lines, strlen(k_lines), "lines.ptx", NULL, &m) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "lines", &k1) == WS_OK && ws_module_get_kernel(m, "quad", &k2) == WS_OK);
    float *h = calloc(1024, sizeof *h), out[32];
    for (int i = 0; i < 1024; i++) h[i] = (float)i;
    ws_devptr p = 0, o = 0;
    CHECK(ws_malloc(d, 1024 * 4, &p) == WS_OK && ws_malloc(d, 32 * 4, &o) == WS_OK);
    CHECK(ws_memcpy_htod(d, p, h, 1024 * 4) == WS_OK);
    ws_tex_desc td;
    memset(&td, 0, sizeof td);
    td.res = WS_TEX_RES_LINEAR;
    td.addr = p;
    td.channels = 1;
    td.bits = 32;
    td.kind = WS_TEX_FLOAT;
    td.width = 1024;
    td.address[0] = td.address[1] = WS_TEX_CLAMP;
    ws_texobj t1 = 0, t2 = 0;
    CHECK(ws_texture_create(d, &td, &t1) == WS_OK);
    td.res = WS_TEX_RES_PITCH2D;
    td.width = 32;
    td.height = 4;
    td.pitch = 128;
    td.filter = WS_TEX_LINEAR;
    CHECK(ws_texture_create(d, &td, &t2) == WS_OK);
    void *a1[] = {&t1, &o}, *a2[] = {&t2, &o};
    ws_dim3 one = {1, 1, 1}, warp = {32, 1, 1};
    CHECK(ws_launch(d, k1, one, warp, 0, a1) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, out, o, sizeof out) == WS_OK);
    for (int i = 0; i < 32; i++) CHECK_MSG(out[i] == 2.0f * i + 32.0f * i, "out[%d] = %g", i, out[i]);
    fflush(rf);
    CHECK_EQ_I64(stat_sum(rep, "L1T_total_cache_accesses_kernel"), 34);
    CHECK_EQ_I64(stat_sum(rep, "L1T_total_cache_misses_kernel"), 32);
    CHECK(ws_launch(d, k2, one, warp, 0, a2) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, out, o, sizeof out) == WS_OK);
    /* rows 0 and 1 (values 0..31, 32..63 in h), x centre lane + 0.5 */
    for (int i = 0; i < 32; i++) {
        float want = 16.0f + (i < 31 ? i + 0.5f : 31.0f);
        CHECK_MSG(out[i] == want, "quad out[%d] = %g, want %g", i, out[i], want);
    }
    fflush(rf);
    CHECK_EQ_I64(stat_sum(rep, "L1T_total_cache_accesses_kernel"), 36);
    CHECK_EQ_I64(stat_sum(rep, "L1T_total_cache_misses_kernel"), 34);
    ws_device_destroy(d);
    fclose(rf);
    free(rep);
    free(h);
}
