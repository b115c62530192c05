/* syr2k (PolyBench/GPU SYR2K): C = alpha (A.B^T + B.A^T) + beta C for n x n
 * float A, B and the full n x n C, one 2-D launch (32x8 blocks, one thread
 * per element of C; a warp's lanes read 32 rows of A and of B per step). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_syr2k_ptx[], ws_bench_polybench_syr2k_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 2048 (specs: seed001's 48 MB input, three 2048^2 float arrays) */
    const int n = in == WS_INPUT_PAPER ? 2048 : 128, mm = n;
    const size_t nn = (size_t)n * n, nm = (size_t)n * mm;
    const float alpha = 1.5f, beta = 0.75f;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "syr2k");

    float *A = pb_floats(&c, &h, nm), *B = pb_floats(&c, &h, nm), *C0 = pb_floats(&c, &h, nn);
    float *C = pb_floats(&c, &h, nn), *want = pb_floats(&c, &h, nn), *mag = pb_floats(&c, &h, nn);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed1007);
        pb_fill(A, nm, &r, -1.0f, 1.0f);
        pb_fill(B, nm, &r, -1.0f, 1.0f);
        pb_fill(C0, nn, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, nm), dB = pb_upload(&c, B, nm), dC = pb_upload(&c, C0, nn);
    ws_kernel *k = wl_kernel(&c, "_Z5syr2kiiffPKfS0_Pf");
    int a0 = n, a1 = mm;
    float al = alpha, be = beta;
    void *args[] = {&a0, &a1, &al, &be, &dA, &dB, &dC};
    wl_launch(&c, k, pb_grid2(n, n), pb_block2(), args);
    pb_download(&c, C, dC, nn);

    /* PTX per step: t1 = A[i][k] * alpha; t2 = B[i][k] * alpha;
       p = t2 * A[j][k]; s = fma(t1, B[j][k], p); c = c + s. */
    if (!c.failed) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                const float *ai = A + (size_t)i * mm, *aj = A + (size_t)j * mm;
                const float *bi = B + (size_t)i * mm, *bj = B + (size_t)j * mm;
                float s = C0[(size_t)i * n + j] * beta;
                float g = fabsf(s);
                for (int kk = 0; kk < mm; kk++) {
                    const float t1 = ai[kk] * alpha;
                    const float t2 = bi[kk] * alpha;
                    const float p = t2 * aj[kk];
                    const float term = fmaf(t1, bj[kk], p);
                    s = s + term;
                    g += fabsf(t1 * bj[kk]) + fabsf(p);
                }
                want[(size_t)i * n + j] = s;
                mag[(size_t)i * n + j] = g;
            }
        pb_expect(&c, "C", C, want, mag, nn, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d m=%d", n, mm);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_syr2k = {
    .name = "syr2k",
    .suite = "polybench",
    .description = "SYR2K: C = alpha (A.B^T + B.A^T) + beta C, one thread per element (128 / 2048)",
    .ptx = ws_bench_polybench_syr2k_ptx,
    .ptxinfo = ws_bench_polybench_syr2k_ptxinfo,
    .run = run,
};
