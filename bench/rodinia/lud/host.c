/* lud: blocked LU decomposition (Rodinia lud_cuda): for every 16-column
 * step the host launches the diagonal, perimeter and internal kernels on the
 * trailing matrix, then one more diagonal launch for the last block. The
 * matrix is random and diagonally dominant (no pivoting needed). */
#include "host_util.h"

extern const char ws_bench_rodinia_lud_ptx[], ws_bench_rodinia_lud_ptxinfo[];

#define BS 16

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 256 x 256 (seed002 Table 8 runs lud at 128 and 256; seed001's
       25 KB footprint would be about 80 x 80) */
    const int n = in == WS_INPUT_PAPER ? 256 : 64;
    const size_t nn2 = (size_t)n * n, bytes = nn2 * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "lud");
    float *a = wl_host_alloc(&c, bytes), *out = wl_host_alloc(&c, bytes);
    double *ref = wl_host_alloc(&c, nn2 * sizeof(double));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0108);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                a[(size_t)i * n + j] = ws_rng_float(&r) + (i == j ? (float)n : 0.0f);
    }
    ws_devptr da = wl_upload(&c, a, bytes);
    ws_kernel *kd = wl_kernel(&c, "_Z11ludDiagonalPfii");
    ws_kernel *kp = wl_kernel(&c, "_Z12ludPerimeterPfii");
    ws_kernel *ki = wl_kernel(&c, "_Z11ludInternalPfii");
    int nn = n, off = 0, launches = 0;
    void *args[] = {&da, &nn, &off};
    for (off = 0; off < n - BS && !c.failed; off += BS) {
        unsigned rest = (unsigned)((n - off) / BS - 1);
        wl_launch(&c, kd, wl_dim(1, 1), wl_dim(BS, 1), args);
        wl_launch(&c, kp, wl_dim(rest, 1), wl_dim(2 * BS, 1), args);
        wl_launch(&c, ki, wl_dim(rest, rest), wl_dim(BS, BS), args);
        launches += 3;
    }
    wl_launch(&c, kd, wl_dim(1, 1), wl_dim(BS, 1), args);
    launches++;
    wl_download(&c, out, da, bytes);

    if (!c.failed) {
        /* Doolittle LU in double: L unit-lower below the diagonal, U on and above */
        for (size_t i = 0; i < nn2; i++) ref[i] = a[i];
        for (int k = 0; k < n; k++)
            for (int i = k + 1; i < n; i++) {
                double l = ref[(size_t)i * n + k] /= ref[(size_t)k * n + k];
                for (int j = k + 1; j < n; j++) ref[(size_t)i * n + j] -= l * ref[(size_t)k * n + j];
            }
        for (size_t i = 0; i < nn2; i++) wl_expect_near(&c, "lu", (long)i, out[i], ref[i], 1e-4, 1e-5);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d launches=%d", n, launches);
    free(a);
    free(out);
    free(ref);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_lud = {
    .name = "lud",
    .suite = "rodinia",
    .description = "blocked LU decomposition: diagonal, perimeter and internal 16x16 block kernels",
    .ptx = ws_bench_rodinia_lud_ptx,
    .ptxinfo = ws_bench_rodinia_lud_ptxinfo,
    .run = run,
};
