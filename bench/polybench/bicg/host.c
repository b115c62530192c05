/* bicg (PolyBench/GPU BICG): s = A^T r and q = A p for an nx x ny float
 * matrix, two 1-D launches of 256-thread blocks (one thread per column, then
 * one per row). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_bicg_ptx[], ws_bench_polybench_bicg_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: NX = NY = 4096 (specs: seed001's 64 MB input) */
    const int nx = in == WS_INPUT_PAPER ? 4096 : 1024, ny = nx;
    const size_t na = (size_t)nx * ny;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "bicg");

    float *A = pb_floats(&c, &h, na), *r = pb_floats(&c, &h, nx), *p = pb_floats(&c, &h, ny);
    float *s = pb_floats(&c, &h, ny), *q = pb_floats(&c, &h, nx);
    if (!c.failed) {
        ws_rng g;
        ws_rng_seed(&g, 0x5eed1009);
        pb_fill(A, na, &g, -1.0f, 1.0f);
        pb_fill(r, nx, &g, -1.0f, 1.0f);
        pb_fill(p, ny, &g, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, na), dr = pb_upload(&c, r, nx), dp = pb_upload(&c, p, ny);
    ws_devptr ds = pb_zeros(&c, ny), dq = pb_zeros(&c, nx);
    ws_kernel *k1 = wl_kernel(&c, "_Z6bicg_siiPKfS0_Pf");
    ws_kernel *k2 = wl_kernel(&c, "_Z6bicg_qiiPKfS0_Pf");
    int a0 = nx, a1 = ny;
    void *args1[] = {&a0, &a1, &dA, &dr, &ds};
    void *args2[] = {&a0, &a1, &dA, &dp, &dq};
    wl_launch(&c, k1, pb_grid1(ny), pb_block1(), args1);
    wl_launch(&c, k2, pb_grid1(nx), pb_block1(), args2);
    pb_download(&c, s, ds, ny);
    pb_download(&c, q, dq, nx);

    /* s[j] = fma chain over i of r[i] A[i][j]; q[i] = fma chain over j. */
    float *ws = pb_floats(&c, &h, ny), *gs = pb_floats(&c, &h, ny);
    float *wq = pb_floats(&c, &h, nx), *gq = pb_floats(&c, &h, nx);
    if (!c.failed) {
        for (int i = 0; i < nx; i++) {
            const float *a = A + (size_t)i * ny;
            float acc = 0.0f, mag = 0.0f;
            for (int j = 0; j < ny; j++) {
                ws[j] = fmaf(r[i], a[j], ws[j]);
                gs[j] += fabsf(r[i] * a[j]);
                acc = fmaf(a[j], p[j], acc);
                mag += fabsf(a[j] * p[j]);
            }
            wq[i] = acc;
            gq[i] = mag;
        }
        pb_expect(&c, "s", s, ws, gs, ny, PB_TOL, 0.0);
        pb_expect(&c, "q", q, wq, gq, nx, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "%dx%d", nx, ny);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_bicg = {
    .name = "bicg",
    .suite = "polybench",
    .description = "BICG: s = A^T r, q = A p, column-per-thread then row-per-thread (1024^2 / 4096^2)",
    .ptx = ws_bench_polybench_bicg_ptx,
    .ptxinfo = ws_bench_polybench_bicg_ptxinfo,
    .run = run,
};
