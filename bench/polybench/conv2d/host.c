/* conv2d (PolyBench/GPU 2DCONV): 3x3 stencil over a ni x nj float image,
 * one 2-D launch (32x8 blocks, one thread per pixel). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_conv2d_ptx[], ws_bench_polybench_conv2d_ptxinfo[];

/* The kernel's weights (kernel.cu), row above, own row, row below. */
static const float W[3][3] = {
    {0.25f, -0.50f, 0.75f},
    {-0.125f, 0.625f, -0.875f},
    {0.375f, 0.0625f, -0.3125f},
};

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: PolyBench/GPU's 4096 x 4096 (specs: seed003 §4, seed001's 64 MB input) */
    const int ni = in == WS_INPUT_PAPER ? 4096 : 512, nj = ni;
    const size_t n = (size_t)ni * nj;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "conv2d");

    float *A = pb_floats(&c, &h, n), *B = pb_floats(&c, &h, n);
    float *want = pb_floats(&c, &h, n), *mag = pb_floats(&c, &h, n);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed1001);
        pb_fill(A, n, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, n), dB = pb_zeros(&c, n);
    ws_kernel *k = wl_kernel(&c, "_Z6conv2diiPKfPf");
    int a0 = ni, a1 = nj;
    void *args[] = {&a0, &a1, &dA, &dB};
    wl_launch(&c, k, pb_grid2(ni, nj), pb_block2(), args);
    pb_download(&c, B, dB, n);

    /* The PTX multiplies the second term, then folds the first and every
       later term in with fma, in source order; the border stays zero. */
    if (!c.failed) {
        for (int i = 1; i < ni - 1; i++)
            for (int j = 1; j < nj - 1; j++) {
                const float *a[9];
                float w[9];
                for (int t = 0; t < 9; t++) {
                    a[t] = &A[(size_t)(i - 1 + t / 3) * nj + (j - 1 + t % 3)];
                    w[t] = W[t / 3][t % 3];
                }
                float second = w[1] * *a[1];
                float s = fmaf(*a[0], w[0], second);
                double g = fabs((double)w[0] * *a[0]) + fabs((double)second);
                for (int t = 2; t < 9; t++) {
                    s = fmaf(*a[t], w[t], s);
                    g += fabs((double)w[t] * *a[t]);
                }
                want[(size_t)i * nj + j] = s;
                mag[(size_t)i * nj + j] = (float)g;
            }
        pb_expect(&c, "B", B, want, mag, n, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "%dx%d", ni, nj);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_conv2d = {
    .name = "conv2d",
    .suite = "polybench",
    .description = "2DCONV: 3x3 stencil, one thread per pixel (512^2 / 4096^2)",
    .ptx = ws_bench_polybench_conv2d_ptx,
    .ptxinfo = ws_bench_polybench_conv2d_ptxinfo,
    .run = run,
};
