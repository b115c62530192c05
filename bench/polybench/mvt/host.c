/* mvt (PolyBench/GPU MVT): x1 += A y1 and x2 += A^T y2 for an n x n float
 * matrix, two 1-D launches of 256-thread blocks (one thread per element of
 * x1, then of x2). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_mvt_ptx[], ws_bench_polybench_mvt_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: N = 4096 (specs: seed001's 64 MB input) */
    const int n = in == WS_INPUT_PAPER ? 4096 : 1024;
    const size_t na = (size_t)n * n;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "mvt");

    float *A = pb_floats(&c, &h, na), *y1 = pb_floats(&c, &h, n), *y2 = pb_floats(&c, &h, n);
    float *x1 = pb_floats(&c, &h, n), *x2 = pb_floats(&c, &h, n);
    float *w1 = pb_floats(&c, &h, n), *w2 = pb_floats(&c, &h, n);
    float *g1 = pb_floats(&c, &h, n), *g2 = pb_floats(&c, &h, n);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed100a);
        pb_fill(A, na, &r, -1.0f, 1.0f);
        pb_fill(y1, n, &r, -1.0f, 1.0f);
        pb_fill(y2, n, &r, -1.0f, 1.0f);
        pb_fill(w1, n, &r, -1.0f, 1.0f); /* initial x1, x2 */
        pb_fill(w2, n, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, na), dy1 = pb_upload(&c, y1, n), dy2 = pb_upload(&c, y2, n);
    ws_devptr dx1 = pb_upload(&c, w1, n), dx2 = pb_upload(&c, w2, n);
    ws_kernel *k1 = wl_kernel(&c, "_Z8mvt_rowsiPKfS0_Pf");
    ws_kernel *k2 = wl_kernel(&c, "_Z8mvt_colsiPKfS0_Pf");
    int nn = n;
    void *args1[] = {&nn, &dA, &dy1, &dx1};
    void *args2[] = {&nn, &dA, &dy2, &dx2};
    wl_launch(&c, k1, pb_grid1(n), pb_block1(), args1);
    wl_launch(&c, k2, pb_grid1(n), pb_block1(), args2);
    pb_download(&c, x1, dx1, n);
    pb_download(&c, x2, dx2, n);

    /* x1[i] = fma chain over j of A[i][j] y1[j]; x2[i] = fma chain over j of
       A[j][i] y2[j] (j-outer loop, same order per element). */
    if (!c.failed) {
        pb_abs(w1, g1, n);
        pb_abs(w2, g2, n);
        for (int i = 0; i < n; i++) {
            const float *a = A + (size_t)i * n;
            for (int j = 0; j < n; j++) {
                w1[i] = fmaf(a[j], y1[j], w1[i]);
                g1[i] += fabsf(a[j] * y1[j]);
            }
        }
        for (int j = 0; j < n; j++) {
            const float *a = A + (size_t)j * n;
            for (int i = 0; i < n; i++) {
                w2[i] = fmaf(a[i], y2[j], w2[i]);
                g2[i] += fabsf(a[i] * y2[j]);
            }
        }
        pb_expect(&c, "x1", x1, w1, g1, n, PB_TOL, 0.0);
        pb_expect(&c, "x2", x2, w2, g2, n, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d", n);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_mvt = {
    .name = "mvt",
    .suite = "polybench",
    .description = "MVT: x1 += A y1 (rows), x2 += A^T y2 (columns), thread per element (1024 / 4096)",
    .ptx = ws_bench_polybench_mvt_ptx,
    .ptxinfo = ws_bench_polybench_mvt_ptxinfo,
    .run = run,
};
