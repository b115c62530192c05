/* hotspot3d: 3-D transient thermal simulation (Rodinia hotspot3D, its
 * register-blocked kernel): nx x ny layers, nz of them, 64x4 thread blocks
 * over a layer, one launch per time step with the two temperature buffers
 * swapped by the host. */
#include "host_util.h"

extern const char ws_bench_rodinia_hotspot3d_ptx[], ws_bench_rodinia_hotspot3d_ptxinfo[];

#define BX 64
#define BY 4
#define MAX_PD 3.0e6
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100.0
#define FACTOR_CHIP 0.5
#define T_CHIP 0.0005
#define CHIP_HEIGHT 0.016
#define CHIP_WIDTH 0.016
#define AMBIENT 80.0f

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 512 x 512 x 8 with 100 steps, Rodinia's default run (seed000's
       "3D Stencil" gives no size) */
    const int paper = in == WS_INPUT_PAPER;
    const int nx = paper ? 512 : 64, ny = paper ? 512 : 64, nz = 8, iters = paper ? 100 : 4;
    const size_t cells = (size_t)nx * ny * nz, bytes = cells * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "hotspot3d");
    float *temp = wl_host_alloc(&c, bytes), *power = wl_host_alloc(&c, bytes);
    float *out = wl_host_alloc(&c, bytes), *ref = wl_host_alloc(&c, bytes), *nxt = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0106);
        for (size_t i = 0; i < cells; i++) temp[i] = 323.0f + 20.0f * ws_rng_float(&r);
        for (size_t i = 0; i < cells; i++) power[i] = 0.002f * ws_rng_float(&r);
    }
    double dx = CHIP_HEIGHT / nx, dy = CHIP_WIDTH / ny, dz = T_CHIP / nz;
    double cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * dx * dy;
    double rx = dy / (2.0 * K_SI * T_CHIP * dx), ry = dx / (2.0 * K_SI * T_CHIP * dy);
    double rz = dz / (K_SI * dx * dy);
    double max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
    double dt = PRECISION / max_slope;
    float sdc = (float)(dt / cap);
    float ce = (float)(sdc / rx), cw = ce, cn = (float)(sdc / ry), cs = cn;
    float ct = (float)(sdc / rz), cb = ct;
    float cc = 1.0f - (2.0f * ce + 2.0f * cn + 3.0f * ct);

    ws_devptr dpow = wl_upload(&c, power, bytes);
    ws_devptr din = wl_upload(&c, temp, bytes);
    ws_devptr dout = wl_alloc(&c, bytes);
    ws_kernel *k = wl_kernel(&c, "_Z9stencil3dPKfS0_Pffiiifffffff");
    int X = nx, Y = ny, Z = nz;
    for (int t = 0; t < iters && !c.failed; t++) {
        void *args[] = {&dpow, &din, &dout, &sdc, &X, &Y, &Z, &ce, &cw, &cn, &cs, &ct, &cb, &cc};
        wl_launch(&c, k, wl_dim((unsigned)(nx / BX), (unsigned)(ny / BY)), wl_dim(BX, BY), args);
        ws_devptr sw = din;
        din = dout;
        dout = sw;
    }
    wl_download(&c, out, din, bytes); /* the last output */

    if (!c.failed) {
        memcpy(ref, temp, bytes);
        const size_t layer = (size_t)nx * ny;
        for (int t = 0; t < iters; t++) {
            for (int z = 0; z < nz; z++)
                for (int y = 0; y < ny; y++)
                    for (int x = 0; x < nx; x++) {
                        size_t i = z * layer + (size_t)y * nx + x;
                        size_t w = x == 0 ? i : i - 1, e = x == nx - 1 ? i : i + 1;
                        size_t no = y == 0 ? i : i - nx, so = y == ny - 1 ? i : i + nx;
                        size_t b = z == 0 ? i : i - layer, a = z == nz - 1 ? i : i + layer;
                        nxt[i] = cc * ref[i] + cw * ref[w] + ce * ref[e] + cs * ref[so] + cn * ref[no] +
                                 cb * ref[b] + ct * ref[a] + sdc * power[i] + ct * AMBIENT;
                    }
            float *sw = ref;
            ref = nxt;
            nxt = sw;
        }
        for (size_t i = 0; i < cells; i++) wl_expect_near(&c, "temp", (long)i, out[i], ref[i], 1e-5, 1e-4);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "grid=%dx%dx%d steps=%d", nx, ny, nz, iters);
    free(temp);
    free(power);
    free(out);
    free(ref);
    free(nxt);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_hotspot3d = {
    .name = "hotspot3d",
    .suite = "rodinia",
    .description = "3-D thermal 7-point stencil, 64x4 blocks walking z with register reuse",
    .ptx = ws_bench_rodinia_hotspot3d_ptx,
    .ptxinfo = ws_bench_rodinia_hotspot3d_ptxinfo,
    .run = run,
};
