/* gesummv (PolyBench/GPU GESUMMV): y = alpha A x + beta B x for n x n float
 * matrices, one 1-D launch of 256-thread blocks (one thread per row, walking
 * the row of both A and B). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_gesummv_ptx[], ws_bench_polybench_gesummv_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: N = 4096 (specs: seed003 §4, seed001's 128 MB input) */
    const int n = in == WS_INPUT_PAPER ? 4096 : 1024;
    const size_t na = (size_t)n * n;
    const float alpha = 1.5f, beta = 0.75f;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "gesummv");

    float *A = pb_floats(&c, &h, na), *B = pb_floats(&c, &h, na), *x = pb_floats(&c, &h, n);
    float *tmp = pb_floats(&c, &h, n), *y = pb_floats(&c, &h, n);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed100b);
        pb_fill(A, na, &r, -1.0f, 1.0f);
        pb_fill(B, na, &r, -1.0f, 1.0f);
        pb_fill(x, n, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, na), dB = pb_upload(&c, B, na), dx = pb_upload(&c, x, n);
    ws_devptr dtmp = pb_zeros(&c, n), dy = pb_zeros(&c, n);
    ws_kernel *k = wl_kernel(&c, "_Z7gesummviffPKfS0_S0_PfS1_");
    int nn = n;
    float al = alpha, be = beta;
    void *args[] = {&nn, &al, &be, &dA, &dB, &dx, &dtmp, &dy};
    wl_launch(&c, k, pb_grid1(n), pb_block1(), args);
    pb_download(&c, tmp, dtmp, n);
    pb_download(&c, y, dy, n);

    /* Two fma chains over j, then y = fma(tmp, alpha, y * beta). */
    float *wt = pb_floats(&c, &h, n), *gt = pb_floats(&c, &h, n);
    float *wy = pb_floats(&c, &h, n), *gy = pb_floats(&c, &h, n);
    if (!c.failed) {
        for (int i = 0; i < n; i++) {
            const float *a = A + (size_t)i * n, *b = B + (size_t)i * n;
            float st = 0.0f, sy = 0.0f, mt = 0.0f, my = 0.0f;
            for (int j = 0; j < n; j++) {
                st = fmaf(a[j], x[j], st);
                sy = fmaf(b[j], x[j], sy);
                mt += fabsf(a[j] * x[j]);
                my += fabsf(b[j] * x[j]);
            }
            const float by = sy * beta;
            wt[i] = st;
            gt[i] = mt;
            wy[i] = fmaf(st, alpha, by);
            gy[i] = alpha * mt + beta * my;
        }
        pb_expect(&c, "tmp", tmp, wt, gt, n, PB_TOL, 0.0);
        pb_expect(&c, "y", y, wy, gy, n, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d", n);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_gesummv = {
    .name = "gesummv",
    .suite = "polybench",
    .description = "GESUMMV: y = alpha A x + beta B x, one thread per row (1024 / 4096)",
    .ptx = ws_bench_polybench_gesummv_ptx,
    .ptxinfo = ws_bench_polybench_gesummv_ptxinfo,
    .run = run,
};
