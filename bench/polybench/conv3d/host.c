/* conv3d (PolyBench/GPU 3DCONV): 11-point stencil over a ni x nj x nk float
 * volume, one 2-D launch (32x8 blocks over (k, j)) per interior plane i. */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_conv3d_ptx[], ws_bench_polybench_conv3d_ptxinfo[];

/* The kernel's terms in source order (kernel.cu): plane offset (-1, 0, +1),
 * row offset, column offset, weight. */
static const struct { int di, dj, dk; float w; } T[11] = {
    {-1, -1, -1, 0.5f},  {+1, -1, -1, -0.25f}, {0, -1, 0, 0.75f},    {0, 0, 0, 1.5f},
    {0, +1, 0, -0.625f}, {-1, -1, +1, -0.375f}, {+1, -1, +1, 0.125f}, {-1, 0, +1, 0.875f},
    {+1, 0, +1, -1.25f}, {-1, +1, +1, 0.3125f}, {+1, +1, +1, -0.0625f},
};

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: PolyBench/GPU's default 256^3 (not in the specs) */
    const int ni = in == WS_INPUT_PAPER ? 256 : 64, nj = ni, nk = ni;
    const size_t n = (size_t)ni * nj * nk, plane = (size_t)nj * nk;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "conv3d");

    float *A = pb_floats(&c, &h, n), *B = pb_floats(&c, &h, n);
    float *want = pb_floats(&c, &h, n), *mag = pb_floats(&c, &h, n);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed1002);
        pb_fill(A, n, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, n), dB = pb_zeros(&c, n);
    ws_kernel *k = wl_kernel(&c, "_Z12conv3d_planeiiiPKfPfi");
    int a0 = ni, a1 = nj, a2 = nk, plane_i = 0;
    void *args[] = {&a0, &a1, &a2, &dA, &dB, &plane_i};
    for (plane_i = 1; plane_i < ni - 1 && !c.failed; plane_i++)
        wl_launch(&c, k, pb_grid2(nj, nk), pb_block2(), args);
    pb_download(&c, B, dB, n);

    /* PTX: the second term multiplied, the first folded in with fma, then
       every later term with fma in source order. The borders stay zero. */
    if (!c.failed) {
        for (int i = 1; i < ni - 1; i++)
            for (int j = 1; j < nj - 1; j++)
                for (int kk = 1; kk < nk - 1; kk++) {
                    float a[11];
                    for (int t = 0; t < 11; t++)
                        a[t] = A[(size_t)(i + T[t].di) * plane + (size_t)(j + T[t].dj) * nk +
                                 (size_t)(kk + T[t].dk)];
                    float second = T[1].w * a[1];
                    float s = fmaf(a[0], T[0].w, second);
                    double g = fabs((double)T[0].w * a[0]) + fabs((double)second);
                    for (int t = 2; t < 11; t++) {
                        s = fmaf(a[t], T[t].w, s);
                        g += fabs((double)T[t].w * a[t]);
                    }
                    size_t o = (size_t)i * plane + (size_t)j * nk + (size_t)kk;
                    want[o] = s;
                    mag[o] = (float)g;
                }
        pb_expect(&c, "B", B, want, mag, n, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "%dx%dx%d", ni, nj, nk);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_conv3d = {
    .name = "conv3d",
    .suite = "polybench",
    .description = "3DCONV: 11-point stencil, one launch per plane (64^3 / 256^3)",
    .ptx = ws_bench_polybench_conv3d_ptx,
    .ptxinfo = ws_bench_polybench_conv3d_ptxinfo,
    .run = run,
};
