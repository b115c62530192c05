/* transpose_naive: out = transpose of a height x width float matrix, one
 * thread per element on 16x16 blocks (coalesced reads, writes strided by
 * the output row length). */
#include "host_util.h"

extern const char ws_bench_sdk_transpose_naive_ptx[], ws_bench_sdk_transpose_naive_ptxinfo[];

#define BLOCK 16

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 1024 x 1024 floats (no size in the specs; the same matrix as
       transpose_shared); small: 320 wide x 200 high, not a multiple of the
       block in y, so the edge test runs */
    const int paper = in == WS_INPUT_PAPER;
    const int width = paper ? 1024 : 320, height = paper ? 1024 : 200;
    const size_t n = (size_t)width * height, bytes = n * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "transpose_naive");
    float *A = wl_host_alloc(&c, bytes), *T = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0a03);
        for (size_t i = 0; i < n; i++) A[i] = ws_rng_float(&r);
    }
    ws_devptr dA = wl_upload(&c, A, bytes), dT = wl_alloc(&c, bytes);
    wl_set(&c, dT, 0xff, bytes);
    ws_kernel *k = wl_kernel(&c, "_Z14transposeNaivePfPKfii");
    int w = width, h = height;
    void *args[] = {&dT, &dA, &w, &h};
    wl_launch(&c, k, wl_dim((unsigned)((width + BLOCK - 1) / BLOCK), (unsigned)((height + BLOCK - 1) / BLOCK)),
              wl_dim(BLOCK, BLOCK), args);
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

const ws_workload ws_workload_sdk_transpose_naive = {
    .name = "transpose_naive",
    .suite = "sdk",
    .description = "matrix transpose, one thread per element, uncoalesced writes (SDK transpose naive)",
    .ptx = ws_bench_sdk_transpose_naive_ptx,
    .ptxinfo = ws_bench_sdk_transpose_naive_ptxinfo,
    .run = run,
};
