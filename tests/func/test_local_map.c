/* Local memory in the timing model (docs/timing.md, "warpsim against
 * GPGPU-Sim itself"): each thread's local words are interleaved across the
 * threads that can be resident, and a vector access is mapped by its element
 * size, as GPGPU-Sim 4 maps it: st/ld.local.v4.f32 reach the L1D as one line
 * per warp (the first element's word), .v2.f64 as two, a scalar .f64 as two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats_util.h"
#include "test.h"
#include "timing/sm/sm_internal.h"
#include "warpsim/warpsim.h"

TEST(local_words_by_element_size) {
    CHECK_EQ_U64(sm_local_words(4, 0), 1);   /* .f32 */
    CHECK_EQ_U64(sm_local_words(8, 0), 2);   /* .f64 */
    CHECK_EQ_U64(sm_local_words(16, 4), 1);  /* .v4.f32: the first element's word */
    CHECK_EQ_U64(sm_local_words(8, 4), 1);   /* .v2.f32 */
    CHECK_EQ_U64(sm_local_words(16, 8), 2);  /* .v2.f64 */
    CHECK_EQ_U64(sm_local_words(1, 0), 1);   /* .u8: one sub-word access */
    CHECK_EQ_U64(sm_local_words(2, 1), 1);   /* .v2.u8 */
}

static const char *const LOCAL_PTX =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry vlocal(.param .u64 out) {\n"
    "  .local .align 16 .b8 buf[64];\n"
    "  .reg .f32 %f<9>; .reg .f64 %d<3>; .reg .b64 %rd<4>;\n"
    "  mov.f32 %f1, 0f3F800000;\n"
    "  mov.f64 %d1, 0d3FF0000000000000;\n"
    "  st.local.v4.f32 [buf], {%f1, %f1, %f1, %f1};\n"   /* 1 line per warp */
    "  st.local.v2.f64 [buf+16], {%d1, %d1};\n"          /* 2 */
    "  ld.local.v4.f32 {%f2, %f3, %f4, %f5}, [buf];\n"   /* 1 */
    "  ld.local.f64 %d2, [buf+16];\n"                    /* 2 */
    "  ld.local.f32 %f6, [buf+32];\n"                    /* 1 */
    "  add.f32 %f7, %f2, %f5;\n"
    "  cvt.rn.f32.f64 %f8, %d2;\n"
    "  add.f32 %f7, %f7, %f8;\n"
    "  add.f32 %f7, %f7, %f6;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  st.global.f32 [%rd2], %f7;\n"
    "  ret;\n"
    "}\n";

TEST(local_vector_access_counts_by_element) {
    char *rep = NULL;
    size_t len = 0;
    FILE *rf = open_memstream(&rep, &len);
    ws_device *d = ws_test_timing_device(NULL, NULL, rf);
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    ws_devptr out = 0;
    CHECK(d && ws_module_load(d, LOCAL_PTX, strlen(LOCAL_PTX), "local.ptx", NULL, &m) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "vlocal", &k) == WS_OK);
    CHECK(d && ws_malloc(d, 4, &out) == WS_OK);
    void *args[] = {&out};
    /* one warp */
    if (k) CHECK(ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, args) == WS_OK);
    float got = 0;
    CHECK(d && ws_memcpy_dtoh(d, &got, out, 4) == WS_OK);
    CHECK(got == 3.0f); /* 1 + 1 + 0 (buf+32 never written: zero) + 1 */
    ws_device_destroy(d);
    fclose(rf);
    double r = -1, w = -1;
    CHECK(ws_test_stat(rep, 1, "Total_core_cache_stats_breakdown[LOCAL_ACC_R][MISS]", &r, 1) == 1);
    CHECK(ws_test_stat(rep, 1, "Total_core_cache_stats_breakdown[LOCAL_ACC_W][MISS]", &w, 1) == 1);
    double rh = 0, wh = 0;
    ws_test_stat(rep, 1, "Total_core_cache_stats_breakdown[LOCAL_ACC_R][HIT]", &rh, 1);
    ws_test_stat(rep, 1, "Total_core_cache_stats_breakdown[LOCAL_ACC_W][HIT]", &wh, 1);
    CHECK_MSG(r + rh == 1 + 2 + 1, "local reads: %.0f misses + %.0f hits", r, rh);
    CHECK_MSG(w + wh == 1 + 2, "local writes: %.0f misses + %.0f hits", w, wh);
    free(rep);
}
