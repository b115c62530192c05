/* syrk (PolyBench/GPU SYRK): C = alpha A.A^T + beta C for an n x n float A
 * and the full n x n C, one 2-D launch (32x8 blocks, one thread per element
 * of C; a warp's lanes read 32 rows of A per step). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_syrk_ptx[], ws_bench_polybench_syrk_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 1024 (specs: seed003 §4 and seed000's 1024-float rows; seed001's
       512 KB footprint would be 256) */
    const int n = in == WS_INPUT_PAPER ? 1024 : 128, mm = n;
    const size_t nn = (size_t)n * n, nm = (size_t)n * mm;
    const float alpha = 1.5f, beta = 0.75f;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "syrk");

    float *A = pb_floats(&c, &h, nm), *C0 = pb_floats(&c, &h, nn), *C = pb_floats(&c, &h, nn);
    float *want = pb_floats(&c, &h, nn), *mag = pb_floats(&c, &h, nn);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed1006);
        pb_fill(A, nm, &r, -1.0f, 1.0f);
        pb_fill(C0, nn, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, nm), dC = pb_upload(&c, C0, nn);
    ws_kernel *k = wl_kernel(&c, "_Z4syrkiiffPKfPf");
    int a0 = n, a1 = mm;
    float al = alpha, be = beta;
    void *args[] = {&a0, &a1, &al, &be, &dA, &dC};
    wl_launch(&c, k, pb_grid2(n, n), pb_block2(), args);
    pb_download(&c, C, dC, nn);

    /* PTX per step: t = A[i][k] * alpha; c = fma(t, A[j][k], c). */
    if (!c.failed) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                const float *ai = A + (size_t)i * mm, *aj = A + (size_t)j * mm;
                float s = C0[(size_t)i * n + j] * beta;
                float g = fabsf(s);
                for (int kk = 0; kk < mm; kk++) {
                    const float t = ai[kk] * alpha;
                    s = fmaf(t, aj[kk], s);
                    g += fabsf(t * aj[kk]);
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

const ws_workload ws_workload_polybench_syrk = {
    .name = "syrk",
    .suite = "polybench",
    .description = "SYRK: C = alpha A.A^T + beta C, one thread per element (128 / 1024)",
    .ptx = ws_bench_polybench_syrk_ptx,
    .ptxinfo = ws_bench_polybench_syrk_ptxinfo,
    .run = run,
};
