/* gaussian: solve A x = b by Gaussian elimination on the GPU (Rodinia's
 * Fan1/Fan2 pair launched once per pivot) and back substitution on the host.
 * A is a random diagonally dominant matrix, so no pivoting is needed; b is
 * made from a known x. */
#include "host_util.h"

extern const char ws_bench_rodinia_gaussian_ptx[], ws_bench_rodinia_gaussian_ptxinfo[];

#define FAN1_THREADS 512
#define FAN2_XY 4

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 256 (seed002 Table 8 runs 128 and 256; seed001's 339 KB footprint
       is about 208) */
    const int n = in == WS_INPUT_PAPER ? 256 : 64;
    const size_t nn2 = (size_t)n * n;
    wl_ctx c;
    wl_init(&c, d, m, log, "gaussian");
    float *a = wl_host_alloc(&c, nn2 * sizeof(float)), *b = wl_host_alloc(&c, (size_t)n * sizeof(float));
    float *ga = wl_host_alloc(&c, nn2 * sizeof(float)), *gb = wl_host_alloc(&c, (size_t)n * sizeof(float));
    double *ra = wl_host_alloc(&c, nn2 * sizeof(double)), *rb = wl_host_alloc(&c, (size_t)n * sizeof(double));
    double *xt = wl_host_alloc(&c, (size_t)n * sizeof(double)), *x = wl_host_alloc(&c, (size_t)n * sizeof(double));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0103);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) a[(size_t)i * n + j] = ws_rng_float(&r) * 2.0f - 1.0f;
            a[(size_t)i * n + i] = (float)n * (0.6f + 0.4f * ws_rng_float(&r));
        }
        for (int i = 0; i < n; i++) xt[i] = ws_rng_float(&r) * 2.0 - 1.0;
        for (int i = 0; i < n; i++) {
            double s = 0.0;
            for (int j = 0; j < n; j++) s += (double)a[(size_t)i * n + j] * xt[j];
            b[i] = (float)s;
        }
    }
    ws_devptr dm = wl_alloc(&c, nn2 * sizeof(float));
    wl_set(&c, dm, 0, nn2 * sizeof(float));
    ws_devptr da = wl_upload(&c, a, nn2 * sizeof(float));
    ws_devptr db = wl_upload(&c, b, (size_t)n * sizeof(float));
    ws_kernel *k1 = wl_kernel(&c, "_Z4fan1PfPKfii"), *k2 = wl_kernel(&c, "_Z4fan2PKfPfS1_ii");
    unsigned g1 = (unsigned)(n / FAN1_THREADS + (n % FAN1_THREADS ? 1 : 0));
    unsigned g2 = (unsigned)(n / FAN2_XY + (n % FAN2_XY ? 1 : 0));
    int nn = n, t = 0;
    void *a1[] = {&dm, &da, &nn, &t};
    void *a2[] = {&dm, &da, &db, &nn, &t};
    for (t = 0; t < n - 1 && !c.failed; t++) {
        wl_launch(&c, k1, wl_dim(g1, 1), wl_dim(FAN1_THREADS, 1), a1);
        wl_launch(&c, k2, wl_dim(g2, g2), wl_dim(FAN2_XY, FAN2_XY), a2);
    }
    wl_download(&c, ga, da, nn2 * sizeof(float));
    wl_download(&c, gb, db, (size_t)n * sizeof(float));

    if (!c.failed) {
        /* host back substitution on the device's triangle (as the original) */
        for (int i = n - 1; i >= 0; i--) {
            double s = gb[i];
            for (int j = i + 1; j < n; j++) s -= (double)ga[(size_t)i * n + j] * x[j];
            x[i] = s / ga[(size_t)i * n + i];
        }
        /* double-precision elimination as the reference for the triangle */
        for (size_t i = 0; i < nn2; i++) ra[i] = a[i];
        for (int i = 0; i < n; i++) rb[i] = b[i];
        for (int t2 = 0; t2 < n - 1; t2++)
            for (int i = t2 + 1; i < n; i++) {
                double mul = ra[(size_t)i * n + t2] / ra[(size_t)t2 * n + t2];
                for (int j = t2; j < n; j++) ra[(size_t)i * n + j] -= mul * ra[(size_t)t2 * n + j];
                rb[i] -= mul * rb[t2];
            }
        /* the elimination leaves entries of size ~1 next to a diagonal ~n */
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++)
                wl_expect_near(&c, "a", (long)i * n + j, ga[(size_t)i * n + j], ra[(size_t)i * n + j],
                               1e-4, 1e-4);
            wl_expect_near(&c, "b", i, gb[i], rb[i], 1e-4, 1e-3);
            wl_expect_near(&c, "x", i, x[i], xt[i], 0.0, 1e-4);
        }
    }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d launches=%d", n, 2 * (n - 1));
    free(a);
    free(b);
    free(ga);
    free(gb);
    free(ra);
    free(rb);
    free(xt);
    free(x);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_gaussian = {
    .name = "gaussian",
    .suite = "rodinia",
    .description = "Gaussian elimination: Fan1 multipliers and Fan2 4x4-block row updates per pivot",
    .ptx = ws_bench_rodinia_gaussian_ptx,
    .ptxinfo = ws_bench_rodinia_gaussian_ptxinfo,
    .run = run,
};
