/* fdtd2d (PolyBench/GPU FDTD-2D): tmax time steps of a 2-D FDTD update on
 * an nx x ny grid, three 2-D launches per step (32x8 blocks, thread per
 * point); ex has rows of ny+1 floats and ey one extra row, as in the
 * original. */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_fdtd2d_ptx[], ws_bench_polybench_fdtd2d_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: PolyBench/GPU's default NX = NY = 2048, TMAX = 500 (not in the specs) */
    const int paper = in == WS_INPUT_PAPER;
    const int nx = paper ? 2048 : 128, ny = nx, tmax = paper ? 500 : 20;
    const size_t nhz = (size_t)nx * ny, nex = (size_t)nx * (ny + 1), ney = (size_t)(nx + 1) * ny;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "fdtd2d");

    float *fict = pb_floats(&c, &h, tmax);
    float *ex = pb_floats(&c, &h, nex), *ey = pb_floats(&c, &h, ney), *hz = pb_floats(&c, &h, nhz);
    float *gex = pb_floats(&c, &h, nex), *gey = pb_floats(&c, &h, ney);
    float *ghz = pb_floats(&c, &h, nhz);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed100e);
        pb_fill(fict, tmax, &r, -1.0f, 1.0f);
        pb_fill(ex, nex, &r, -1.0f, 1.0f);
        pb_fill(ey, ney, &r, -1.0f, 1.0f);
        pb_fill(hz, nhz, &r, -1.0f, 1.0f);
    }
    ws_devptr dfict = pb_upload(&c, fict, tmax);
    ws_devptr dex = pb_upload(&c, ex, nex), dey = pb_upload(&c, ey, ney), dhz = pb_upload(&c, hz, nhz);
    ws_kernel *key = wl_kernel(&c, "_Z7fdtd_eyiiPKfS0_Pfi");
    ws_kernel *kex = wl_kernel(&c, "_Z7fdtd_exiiPKfPf");
    ws_kernel *khz = wl_kernel(&c, "_Z7fdtd_hziiPKfS0_Pf");
    int anx = nx, any = ny, t = 0;
    void *args_ey[] = {&anx, &any, &dfict, &dhz, &dey, &t};
    void *args_ex[] = {&anx, &any, &dhz, &dex};
    void *args_hz[] = {&anx, &any, &dex, &dey, &dhz};
    for (t = 0; t < tmax && !c.failed; t++) {
        wl_launch(&c, key, pb_grid2(nx, ny), pb_block2(), args_ey);
        wl_launch(&c, kex, pb_grid2(nx, ny), pb_block2(), args_ex);
        wl_launch(&c, khz, pb_grid2(nx, ny), pb_block2(), args_hz);
    }
    pb_download(&c, gex, dex, nex);
    pb_download(&c, gey, dey, ney);
    pb_download(&c, ghz, dhz, nhz);

    /* The same steps on the host (each kernel only reads arrays it does not
       write, so the element order inside a step does not matter):
         ey = fma(hz[i][j] - hz[i-1][j], -0.5, ey)
         ex = fma(hz[i][j] - hz[i][j-1], -0.5, ex)
         hz = fma(((ex[i][j+1] - ex[i][j]) + ey[i+1][j]) - ey[i][j], -0.7, hz)
       The fields stay of order one, so errors are compared with the largest
       magnitude of each field. */
    if (!c.failed) {
        const size_t px = (size_t)ny + 1; /* row pitch of ex */
        for (int s = 0; s < tmax; s++) {
            for (int j = 0; j < ny; j++) ey[j] = fict[s];
            for (int i = 1; i < nx; i++)
                for (int j = 0; j < ny; j++) {
                    const float dv = hz[(size_t)i * ny + j] - hz[(size_t)(i - 1) * ny + j];
                    ey[(size_t)i * ny + j] = fmaf(dv, -0.5f, ey[(size_t)i * ny + j]);
                }
            for (int i = 0; i < nx; i++)
                for (int j = 1; j < ny; j++) {
                    const float dv = hz[(size_t)i * ny + j] - hz[(size_t)i * ny + j - 1];
                    ex[i * px + j] = fmaf(dv, -0.5f, ex[i * px + j]);
                }
            for (int i = 0; i < nx; i++)
                for (int j = 0; j < ny; j++) {
                    const float dx = ex[i * px + j + 1] - ex[i * px + j];
                    const float sx = dx + ey[(size_t)(i + 1) * ny + j];
                    const float curl = sx - ey[(size_t)i * ny + j];
                    hz[(size_t)i * ny + j] = fmaf(curl, -0.7f, hz[(size_t)i * ny + j]);
                }
        }
        float scale = 0.0f;
        for (size_t e = 0; e < nhz; e++) scale = fmaxf(scale, fabsf(hz[e]));
        for (size_t e = 0; e < nex; e++) scale = fmaxf(scale, fabsf(ex[e]));
        for (size_t e = 0; e < ney; e++) scale = fmaxf(scale, fabsf(ey[e]));
        pb_expect(&c, "ey", gey, ey, NULL, ney, 0.0, PB_TOL * scale);
        pb_expect(&c, "ex", gex, ex, NULL, nex, 0.0, PB_TOL * scale);
        pb_expect(&c, "hz", ghz, hz, NULL, nhz, 0.0, PB_TOL * scale);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "%dx%d tmax=%d", nx, ny, tmax);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_fdtd2d = {
    .name = "fdtd2d",
    .suite = "polybench",
    .description = "FDTD-2D: ey/ex/hz updates per time step (128^2 x 20 / 2048^2 x 500)",
    .ptx = ws_bench_polybench_fdtd2d_ptx,
    .ptxinfo = ws_bench_polybench_fdtd2d_ptxinfo,
    .run = run,
};
