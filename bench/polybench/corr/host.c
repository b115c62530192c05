/* corr (PolyBench/GPU CORR): correlation matrix of n samples of m float
 * variables, 1-based (n+1) x (m+1) arrays as in the original; four launches:
 * column means and standard deviations (256x1 blocks, thread per column),
 * centring and scaling (32x8 blocks, thread per element), and the upper
 * triangle with its mirror (256x1 blocks, thread per row of symmat). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_corr_ptx[], ws_bench_polybench_corr_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: M = N = 512 (specs: seed001's 2 MB input for CORR = data and
       symmat of 513^2 floats; PolyBench/GPU's default would be 2048) */
    const int mv = in == WS_INPUT_PAPER ? 512 : 128, ns = mv;
    const size_t pitch = (size_t)mv + 1, nd = ((size_t)ns + 1) * pitch, nsym = pitch * pitch;
    const float float_n = (float)ns, eps = 0.005f, sqrt_n = sqrtf(float_n);
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "corr");

    float *data = pb_floats(&c, &h, nd), *sym = pb_floats(&c, &h, nsym);
    float *out = pb_floats(&c, &h, nd);
    if (!c.failed) {
        /* Column j: uniform values around an offset of its own; column m/2 is
           constant, so its deviation falls under eps and becomes 1. */
        ws_rng r;
        ws_rng_seed(&r, 0x5eed100c);
        for (int i = 1; i <= ns; i++)
            for (int j = 1; j <= mv; j++)
                data[i * pitch + j] = j == mv / 2 ? 2.5f
                                                  : (float)(j % 7) - 3.0f + ws_rng_float(&r);
    }
    ws_devptr ddata = pb_upload(&c, data, nd), dsym = pb_zeros(&c, nsym);
    ws_devptr dmean = pb_zeros(&c, pitch), dsd = pb_zeros(&c, pitch);
    ws_kernel *kmean = wl_kernel(&c, "_Z9corr_meaniifPKfPf");
    ws_kernel *kstd = wl_kernel(&c, "_Z8corr_stdiiffPKfS0_Pf");
    ws_kernel *kred = wl_kernel(&c, "_Z11corr_reduceiifPKfS0_Pf");
    ws_kernel *kcorr = wl_kernel(&c, "_Z9corr_corriiPKfPf");
    int am = mv, an = ns;
    float afn = float_n, aeps = eps, asq = sqrt_n;
    void *args_mean[] = {&am, &an, &afn, &ddata, &dmean};
    void *args_std[] = {&am, &an, &afn, &aeps, &ddata, &dmean, &dsd};
    void *args_red[] = {&am, &an, &asq, &dmean, &dsd, &ddata};
    void *args_corr[] = {&am, &an, &ddata, &dsym};
    wl_launch(&c, kmean, pb_grid1(mv), pb_block1(), args_mean);
    wl_launch(&c, kstd, pb_grid1(mv), pb_block1(), args_std);
    wl_launch(&c, kred, pb_grid2(ns, mv), pb_block2(), args_red);
    wl_launch(&c, kcorr, pb_grid1(mv), pb_block1(), args_corr);
    /* The last diagonal element is set by the host, as in the original. */
    const float one = 1.0f;
    if (!c.failed)
        wl_check(&c, ws_memcpy_htod(d, dsym + (mv * pitch + mv) * sizeof(float), &one, sizeof one),
                 "memcpy host to device");
    float *gmean = pb_floats(&c, &h, pitch), *gsd = pb_floats(&c, &h, pitch);
    pb_download(&c, gmean, dmean, pitch);
    pb_download(&c, gsd, dsd, pitch);
    pb_download(&c, out, ddata, nd);
    pb_download(&c, sym, dsym, nsym);

    /* Reference in the kernels' operations: mean by add then div; deviation
       by sub and fma, div, sqrt; reduce by sub, then div by sqrt_n*sd;
       correlations by fma chains over i (data transposed for the cache). */
    float *wd = pb_floats(&c, &h, nd), *wsym = pb_floats(&c, &h, nsym);
    float *gsym = pb_floats(&c, &h, nsym), *dt = pb_floats(&c, &h, nd);
    float *wmean = pb_floats(&c, &h, pitch), *wsd = pb_floats(&c, &h, pitch);
    if (!c.failed) {
        memcpy(wd, data, nd * sizeof(float));
        for (int j = 1; j <= mv; j++) {
            float s = 0.0f;
            for (int i = 1; i <= ns; i++) s = s + data[i * pitch + j];
            wmean[j] = s / float_n;
            float v = 0.0f;
            for (int i = 1; i <= ns; i++) {
                const float dv = data[i * pitch + j] - wmean[j];
                v = fmaf(dv, dv, v);
            }
            v = sqrtf(v / float_n);
            wsd[j] = v <= eps ? 1.0f : v;
        }
        for (int i = 1; i <= ns; i++)
            for (int j = 1; j <= mv; j++) {
                const float centred = data[i * pitch + j] - wmean[j];
                const float scale = wsd[j] * sqrt_n;
                wd[i * pitch + j] = centred / scale;
            }
        for (int i = 1; i <= ns; i++)
            for (int j = 1; j <= mv; j++) dt[(size_t)j * (ns + 1) + i] = wd[i * pitch + j];
        for (int j1 = 1; j1 < mv; j1++) {
            wsym[j1 * pitch + j1] = 1.0f;
            gsym[j1 * pitch + j1] = 1.0f;
            const float *c1 = dt + (size_t)j1 * (ns + 1);
            for (int j2 = j1 + 1; j2 <= mv; j2++) {
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
        wsym[mv * pitch + mv] = 1.0f;
        /* mean, deviation and the scaled data come out of a few correctly
           rounded operations each: allow a few ulps of the value. */
        pb_expect(&c, "mean", gmean, wmean, NULL, pitch, 4 * PB_TOL, 0.0);
        pb_expect(&c, "stddev", gsd, wsd, NULL, pitch, 4 * PB_TOL, 0.0);
        pb_expect(&c, "data", out, wd, NULL, nd, 4 * PB_TOL, 0.0);
        pb_expect(&c, "symmat", sym, wsym, gsym, nsym, 4 * PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "m=%d n=%d", mv, ns);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_corr = {
    .name = "corr",
    .suite = "polybench",
    .description = "CORR: correlation matrix, mean/std/reduce/corr kernels (128 / 512)",
    .ptx = ws_bench_polybench_corr_ptx,
    .ptxinfo = ws_bench_polybench_corr_ptxinfo,
    .run = run,
};
