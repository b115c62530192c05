/* covar (PolyBench/GPU COVAR): covariance matrix of n samples of m float
 * variables, 1-based (n+1) x (m+1) arrays as in the original; three launches:
 * column means (256x1 blocks, thread per column), centring (32x8 blocks,
 * thread per element), and the upper triangle with its mirror (256x1 blocks,
 * thread per row of symmat). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_covar_ptx[], ws_bench_polybench_covar_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: PolyBench/GPU's default M = N = 2048 (not in the specs) */
    const int mv = in == WS_INPUT_PAPER ? 2048 : 128, ns = mv;
    const size_t pitch = (size_t)mv + 1, nd = ((size_t)ns + 1) * pitch, nsym = pitch * pitch;
    const float float_n = (float)ns;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "covar");

    float *data = pb_floats(&c, &h, nd), *out = pb_floats(&c, &h, nd);
    float *sym = pb_floats(&c, &h, nsym), *mean = pb_floats(&c, &h, pitch);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed100d);
        for (int i = 1; i <= ns; i++)
            for (int j = 1; j <= mv; j++)
                data[i * pitch + j] = (float)(j % 5) - 2.0f + ws_rng_float(&r);
    }
    ws_devptr ddata = pb_upload(&c, data, nd), dsym = pb_zeros(&c, nsym);
    ws_devptr dmean = pb_zeros(&c, pitch);
    ws_kernel *kmean = wl_kernel(&c, "_Z10covar_meaniifPKfPf");
    ws_kernel *kred = wl_kernel(&c, "_Z12covar_reduceiiPKfPf");
    ws_kernel *kcov = wl_kernel(&c, "_Z11covar_covariiPKfPf");
    int am = mv, an = ns;
    float afn = float_n;
    void *args_mean[] = {&am, &an, &afn, &ddata, &dmean};
    void *args_red[] = {&am, &an, &dmean, &ddata};
    void *args_cov[] = {&am, &an, &ddata, &dsym};
    wl_launch(&c, kmean, pb_grid1(mv), pb_block1(), args_mean);
    wl_launch(&c, kred, pb_grid2(ns, mv), pb_block2(), args_red);
    wl_launch(&c, kcov, pb_grid1(mv), pb_block1(), args_cov);
    pb_download(&c, mean, dmean, pitch);
    pb_download(&c, out, ddata, nd);
    pb_download(&c, sym, dsym, nsym);

    /* Mean by add chain then div, centring by sub, covariances by fma
       chains over i (centred data transposed for the cache). */
    float *wmean = pb_floats(&c, &h, pitch), *wd = pb_floats(&c, &h, nd);
    float *dt = pb_floats(&c, &h, nd), *wsym = pb_floats(&c, &h, nsym);
    float *gsym = pb_floats(&c, &h, nsym);
    if (!c.failed) {
        memcpy(wd, data, nd * sizeof(float));
        for (int j = 1; j <= mv; j++) {
            float s = 0.0f;
            for (int i = 1; i <= ns; i++) s = s + data[i * pitch + j];
            wmean[j] = s / float_n;
        }
        for (int i = 1; i <= ns; i++)
            for (int j = 1; j <= mv; j++) {
                wd[i * pitch + j] = data[i * pitch + j] - wmean[j];
                dt[(size_t)j * (ns + 1) + i] = wd[i * pitch + j];
            }
        for (int j1 = 1; j1 <= mv; j1++) {
            const float *c1 = dt + (size_t)j1 * (ns + 1);
            for (int j2 = j1; j2 <= mv; j2++) {
                const float *c2 = dt + (size_t)j2 * (ns + 1);
                float s = 0.0f, g = 0.0f;
                for (int i = 1; i <= ns; i++) {
                    s = fmaf(c1[i], c2[i], s);
                    g += fabsf(c1[i] * c2[i]);
                }
                wsym[j1 * pitch + j2] = wsym[j2 * pitch + j1] = s;
                gsym[j1 * pitch + j2] = gsym[j2 * pitch + j1] = g;
            }
        }
        /* mean and centred data: a few correctly rounded operations each. */
        pb_expect(&c, "mean", mean, wmean, NULL, pitch, 4 * PB_TOL, 0.0);
        pb_expect(&c, "data", out, wd, NULL, nd, 4 * PB_TOL, 0.0);
        pb_expect(&c, "symmat", sym, wsym, gsym, nsym, 4 * PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "m=%d n=%d", mv, ns);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_covar = {
    .name = "covar",
    .suite = "polybench",
    .description = "COVAR: covariance matrix, mean/reduce/covar kernels (128 / 2048)",
    .ptx = ws_bench_polybench_covar_ptx,
    .ptxinfo = ws_bench_polybench_covar_ptxinfo,
    .run = run,
};
