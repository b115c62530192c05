/* atax (PolyBench/GPU ATAX): y = A^T (A x) for an nx x ny float matrix, two
 * 1-D launches of 256-thread blocks (one thread per row, then one per
 * column). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_atax_ptx[], ws_bench_polybench_atax_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: NX = NY = 4096 (specs: seed003 §2.1/§4, seed001's 64 MB input) */
    const int nx = in == WS_INPUT_PAPER ? 4096 : 1024, ny = nx;
    const size_t na = (size_t)nx * ny;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "atax");

    float *A = pb_floats(&c, &h, na), *x = pb_floats(&c, &h, ny);
    float *tmp = pb_floats(&c, &h, nx), *y = pb_floats(&c, &h, ny);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed1008);
        pb_fill(A, na, &r, -1.0f, 1.0f);
        pb_fill(x, ny, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, na), dx = pb_upload(&c, x, ny);
    ws_devptr dtmp = pb_zeros(&c, nx), dy = pb_zeros(&c, ny);
    ws_kernel *k1 = wl_kernel(&c, "_Z9atax_rowsiiPKfS0_Pf");
    ws_kernel *k2 = wl_kernel(&c, "_Z9atax_colsiiPKfS0_Pf");
    int a0 = nx, a1 = ny;
    void *args1[] = {&a0, &a1, &dA, &dx, &dtmp};
    void *args2[] = {&a0, &a1, &dA, &dtmp, &dy};
    wl_launch(&c, k1, pb_grid1(nx), pb_block1(), args1);
    wl_launch(&c, k2, pb_grid1(ny), pb_block1(), args2);
    pb_download(&c, tmp, dtmp, nx);
    pb_download(&c, y, dy, ny);

    /* tmp[i] = fma chain over j; y[j] = fma chain over i (i-outer loops keep
       each element's order). Magnitudes |A||x| and |A|^T |A||x|. */
    float *wt = pb_floats(&c, &h, nx), *gt = pb_floats(&c, &h, nx);
    float *wy = pb_floats(&c, &h, ny), *gy = pb_floats(&c, &h, ny);
    if (!c.failed) {
        for (int i = 0; i < nx; i++) {
            const float *a = A + (size_t)i * ny;
            float s = 0.0f, g = 0.0f;
            for (int j = 0; j < ny; j++) {
                s = fmaf(a[j], x[j], s);
                g += fabsf(a[j] * x[j]);
            }
            wt[i] = s;
            gt[i] = g;
        }
        for (int i = 0; i < nx; i++) {
            const float *a = A + (size_t)i * ny;
            for (int j = 0; j < ny; j++) {
                wy[j] = fmaf(a[j], wt[i], wy[j]);
                gy[j] += fabsf(a[j]) * gt[i];
            }
        }
        pb_expect(&c, "tmp", tmp, wt, gt, nx, PB_TOL, 0.0);
        pb_expect(&c, "y", y, wy, gy, ny, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "%dx%d", nx, ny);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_atax = {
    .name = "atax",
    .suite = "polybench",
    .description = "ATAX: y = A^T A x, row-per-thread then column-per-thread (1024^2 / 4096^2)",
    .ptx = ws_bench_polybench_atax_ptx,
    .ptxinfo = ws_bench_polybench_atax_ptxinfo,
    .run = run,
};
