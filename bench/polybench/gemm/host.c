/* gemm (PolyBench/GPU GEMM): C = alpha A.B + beta C, square n x n float
 * matrices, one 2-D launch (32x8 blocks, one thread per element of C). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_gemm_ptx[], ws_bench_polybench_gemm_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: PolyBench/GPU's default 512 (the specs name GEMM, not its size) */
    const int n = in == WS_INPUT_PAPER ? 512 : 128;
    const size_t nn = (size_t)n * n;
    const float alpha = 1.5f, beta = 0.75f;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "gemm");

    float *A = pb_floats(&c, &h, nn), *B = pb_floats(&c, &h, nn), *C0 = pb_floats(&c, &h, nn);
    float *C = pb_floats(&c, &h, nn), *want = pb_floats(&c, &h, nn), *mag = pb_floats(&c, &h, nn);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed1005);
        pb_fill(A, nn, &r, -1.0f, 1.0f);
        pb_fill(B, nn, &r, -1.0f, 1.0f);
        pb_fill(C0, nn, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, nn), dB = pb_upload(&c, B, nn), dC = pb_upload(&c, C0, nn);
    ws_kernel *k = wl_kernel(&c, "_Z4gemmiiiffPKfS0_Pf");
    int sz = n;
    float al = alpha, be = beta;
    void *args[] = {&sz, &sz, &sz, &al, &be, &dA, &dB, &dC};
    wl_launch(&c, k, pb_grid2(n, n), pb_block2(), args);
    pb_download(&c, C, dC, nn);

    /* PTX per step: t = A[i][k] * alpha; c = fma(t, B[k][j], c). */
    if (!c.failed) {
        for (size_t e = 0; e < nn; e++) {
            want[e] = C0[e] * beta;
            mag[e] = fabsf(want[e]);
        }
        for (int i = 0; i < n; i++) {
            float *w = want + (size_t)i * n, *g = mag + (size_t)i * n;
            for (int kk = 0; kk < n; kk++) {
                const float t = A[(size_t)i * n + kk] * alpha;
                const float *b = B + (size_t)kk * n;
                for (int j = 0; j < n; j++) {
                    w[j] = fmaf(t, b[j], w[j]);
                    g[j] += fabsf(t * b[j]);
                }
            }
        }
        pb_expect(&c, "C", C, want, mag, nn, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d", n);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_gemm = {
    .name = "gemm",
    .suite = "polybench",
    .description = "GEMM: C = alpha A.B + beta C, one thread per element (128 / 512)",
    .ptx = ws_bench_polybench_gemm_ptx,
    .ptxinfo = ws_bench_polybench_gemm_ptxinfo,
    .run = run,
};
