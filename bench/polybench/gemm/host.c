/* gemm (PolyBench/GPU GEMM): C = alpha A.B + beta C, float matrices (C is
 * ni x nj, A ni x nk, B nk x nj), one 2-D launch (32x8 blocks, one thread per
 * element of C). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_gemm_ptx[], ws_bench_polybench_gemm_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: PolyBench/GPU's default 512 (the specs name GEMM, not its size);
       long (sampled simulation): a 1536 x 1536 C over k = 64, about the
       paper size's work in 9216 CTAs (154 waves of 60 on the GTX480)
       instead of 1024 */
    const int ni = in == WS_INPUT_LONG ? 1536 : in == WS_INPUT_PAPER ? 512 : 128;
    const int nj = ni, nk = in == WS_INPUT_LONG ? 64 : ni;
    const size_t nn = (size_t)ni * nj, na = (size_t)ni * nk, nb = (size_t)nk * nj;
    const float alpha = 1.5f, beta = 0.75f;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "gemm");

    float *A = pb_floats(&c, &h, na), *B = pb_floats(&c, &h, nb), *C0 = pb_floats(&c, &h, nn);
    float *C = pb_floats(&c, &h, nn), *want = pb_floats(&c, &h, nn), *mag = pb_floats(&c, &h, nn);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed1005);
        pb_fill(A, na, &r, -1.0f, 1.0f);
        pb_fill(B, nb, &r, -1.0f, 1.0f);
        pb_fill(C0, nn, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, na), dB = pb_upload(&c, B, nb), dC = pb_upload(&c, C0, nn);
    ws_kernel *k = wl_kernel(&c, "_Z4gemmiiiffPKfS0_Pf");
    int si = ni, sj = nj, sk = nk;
    float al = alpha, be = beta;
    void *args[] = {&si, &sj, &sk, &al, &be, &dA, &dB, &dC};
    wl_launch(&c, k, pb_grid2(ni, nj), pb_block2(), args);
    pb_download(&c, C, dC, nn);

    /* PTX per step: t = A[i][k] * alpha; c = fma(t, B[k][j], c). */
    if (!c.failed) {
        for (size_t e = 0; e < nn; e++) {
            want[e] = C0[e] * beta;
            mag[e] = fabsf(want[e]);
        }
        for (int i = 0; i < ni; i++) {
            float *w = want + (size_t)i * nj, *g = mag + (size_t)i * nj;
            for (int kk = 0; kk < nk; kk++) {
                const float t = A[(size_t)i * nk + kk] * alpha;
                const float *b = B + (size_t)kk * nj;
                for (int j = 0; j < nj; j++) {
                    w[j] = fmaf(t, b[j], w[j]);
                    g[j] += fabsf(t * b[j]);
                }
            }
        }
        pb_expect(&c, "C", C, want, mag, nn, PB_TOL, 0.0);
    }

    char summary[64];
    if (nk == ni) snprintf(summary, sizeof summary, "n=%d", ni);
    else snprintf(summary, sizeof summary, "ni=%d nj=%d nk=%d", ni, nj, nk);
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
    .long_input = "C 1536 x 1536 over k = 64: 9216 CTAs",
};
