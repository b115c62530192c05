/* transpose_shared: out = transpose of a height x width float matrix through
 * 32x32 shared-memory tiles with one float of padding per row; blocks of
 * 32x8 threads move 4 elements each; reads and writes are coalesced. */
#include "host_util.h"

extern const char ws_bench_sdk_transpose_shared_ptx[], ws_bench_sdk_transpose_shared_ptxinfo[];

#define TILE 32
#define ROWS 8

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 1024 x 1024 floats (no size in the specs; the same matrix as
       transpose_naive); small: 320 wide x 192 high (multiples of the tile) */
    const int paper = in == WS_INPUT_PAPER;
    const int width = paper ? 1024 : 320, height = paper ? 1024 : 192;
    const size_t n = (size_t)width * height, bytes = n * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "transpose_shared");
    float *A = wl_host_alloc(&c, bytes), *T = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0a04);
        for (size_t i = 0; i < n; i++) A[i] = ws_rng_float(&r);
    }
    ws_devptr dA = wl_upload(&c, A, bytes), dT = wl_alloc(&c, bytes);
    wl_set(&c, dT, 0xff, bytes);
    ws_kernel *k = wl_kernel(&c, "_Z15transposeSharedPfPKfii");
    int w = width, h = height;
    void *args[] = {&dT, &dA, &w, &h};
    wl_launch(&c, k, wl_dim((unsigned)(width / TILE), (unsigned)(height / TILE)), wl_dim(TILE, ROWS), args);
    wl_download(&c, T, dT, bytes);

    /* a copy: exact (compared bit for bit as integers) */
    if (!c.failed)
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                unsigned got, want;
                memcpy(&got, &T[(size_t)x * height + y], 4);
                memcpy(&want, &A[(size_t)y * width + x], 4);
                wl_expect_i64(&c, "out", (long)x * height + y, got, want);
            }

    char summary[64];
    snprintf(summary, sizeof summary, "%dx%d", height, width);
    free(A);
    free(T);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_sdk_transpose_shared = {
    .name = "transpose_shared",
    .suite = "sdk",
    .description = "matrix transpose through 32x32 (+1 padding) shared tiles, coalesced (SDK transpose coalesced)",
    .ptx = ws_bench_sdk_transpose_shared_ptx,
    .ptxinfo = ws_bench_sdk_transpose_shared_ptxinfo,
    .run = run,
};
