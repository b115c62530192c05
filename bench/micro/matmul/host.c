/* matmul: C = A * B for n x n floats with 16x16 shared-memory tiles. */
#include "host_util.h"

extern const char ws_bench_micro_matmul_ptx[], ws_bench_micro_matmul_ptxinfo[];

#define TILE 16

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    const int n = in == WS_INPUT_PAPER ? 256 : 128;
    const size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "matmul");

    float *A = wl_host_alloc(&c, bytes), *B = wl_host_alloc(&c, bytes), *C = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0002);
        for (size_t i = 0; i < elems; i++) A[i] = ws_rng_float(&r) * 2.0f - 1.0f;
        for (size_t i = 0; i < elems; i++) B[i] = ws_rng_float(&r) * 2.0f - 1.0f;
    }
    ws_devptr dA = wl_upload(&c, A, bytes), dB = wl_upload(&c, B, bytes), dC = wl_alloc(&c, bytes);
    wl_set(&c, dC, 0xff, bytes);
    ws_kernel *k = wl_kernel(&c, "_Z11matmulTiledPKfS0_Pfi");
    int nn = n;
    void *args[] = {&dA, &dB, &dC, &nn};
    wl_launch(&c, k, wl_dim(n / TILE, n / TILE), wl_dim(TILE, TILE), args);
    wl_download(&c, C, dC, bytes);

    /* Reference in double; the GPU sums in float (in a different order with
       fma), so allow a few float ulps of the sum of |products|. */
    if (!c.failed)
        for (int row = 0; row < n; row++)
            for (int col = 0; col < n; col++) {
                double ref = 0.0, mag = 0.0;
                for (int k2 = 0; k2 < n; k2++) {
                    double p = (double)A[row * n + k2] * (double)B[k2 * n + col];
                    ref += p;
                    mag += fabs(p);
                }
                wl_expect_near(&c, "C", (long)row * n + col, C[row * n + col], ref, 0.0,
                               1e-5 * mag + 1e-6);
            }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d", n);
    free(A);
    free(B);
    free(C);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_micro_matmul = {
    .name = "matmul",
    .suite = "micro",
    .description = "tiled shared-memory float matrix multiply (128x128 / 256x256)",
    .ptx = ws_bench_micro_matmul_ptx,
    .ptxinfo = ws_bench_micro_matmul_ptxinfo,
    .run = run,
};
