/* lps: Jacobi iterations of the 3-D Laplace equation on a pitched
 * nx x ny x nz grid (ISPASS-2009 LPS). One launch per iteration on a grid of
 * 32x4 blocks, swapping the two arrays in between. Random boundary and
 * interior values; the CPU reference repeats the sweeps in float in the same
 * summation order. */
#include "host_util.h"

extern const char ws_bench_ispass_lps_ptx[], ws_bench_ispass_lps_ptxinfo[];

#define BX 32
#define BY 4

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 100^3 with rows pitched to 128 floats (as cudaMallocPitch gives),
       grid (4,25), the ISPASS-2009 LPS launch; 10 iterations (no size in the
       specs). small: 40 x 10 x 12 (partial blocks in x and y), pitch 64,
       3 iterations */
    const int paper = in == WS_INPUT_PAPER;
    const int nx = paper ? 100 : 40, ny = paper ? 100 : 10, nz = paper ? 100 : 12;
    const int pitch = paper ? 128 : 64, iters = paper ? 10 : 3;
    const size_t cells = (size_t)pitch * ny * nz, bytes = cells * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "lps");
    float *u = wl_host_alloc(&c, bytes), *ref = wl_host_alloc(&c, bytes), *nxt = wl_host_alloc(&c, bytes);
    float *out = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0195);
        for (size_t x = 0; x < cells; x++) u[x] = ws_rng_float(&r);
    }
    ws_devptr buf[2];
    buf[0] = wl_upload(&c, u, bytes);
    buf[1] = wl_upload(&c, u, bytes);
    ws_kernel *k = wl_kernel(&c, "_Z9laplace3diiiiPKfPf");
    unsigned gx = (unsigned)((nx + BX - 1) / BX), gy = (unsigned)((ny + BY - 1) / BY);
    int a_nx = nx, a_ny = ny, a_nz = nz, a_p = pitch;
    for (int it = 0; it < iters && !c.failed; it++) {
        void *args[] = {&a_nx, &a_ny, &a_nz, &a_p, &buf[it & 1], &buf[(it + 1) & 1]};
        wl_launch(&c, k, wl_dim(gx, gy), wl_dim(BX, BY), args);
    }
    wl_download(&c, out, buf[iters & 1], bytes);

    if (!c.failed) {
        memcpy(ref, u, bytes);
        memcpy(nxt, u, bytes);
        const float sixth = 1.0f / 6.0f;
        const size_t sj = (size_t)pitch, sk = (size_t)pitch * ny;
        for (int it = 0; it < iters; it++) {
            for (int kk = 0; kk < nz; kk++)
                for (int j = 0; j < ny; j++)
                    for (int i = 0; i < nx; i++) {
                        size_t x = kk * sk + j * sj + i;
                        if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || kk == 0 || kk == nz - 1)
                            nxt[x] = ref[x];
                        else
                            nxt[x] = sixth * (ref[x - 1] + ref[x + 1] + ref[x - sj] + ref[x + sj] +
                                              ref[x - sk] + ref[x + sk]);
                    }
            float *t = ref;
            ref = nxt;
            nxt = t;
        }
        for (int kk = 0; kk < nz; kk++)
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++) {
                    size_t x = kk * sk + j * sj + i;
                    wl_expect_near(&c, "u", (long)x, out[x], ref[x], 1e-6, 1e-7);
                }
    }

    char summary[96];
    snprintf(summary, sizeof summary, "grid=%dx%dx%d pitch=%d iterations=%d", nx, ny, nz, pitch, iters);
    free(u);
    free(ref);
    free(nxt);
    free(out);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_ispass_lps = {
    .name = "lps",
    .suite = "ispass",
    .description = "3-D Laplace Jacobi sweeps, 32x4 blocks marching in z, shared-memory planes",
    .ptx = ws_bench_ispass_lps_ptx,
    .ptxinfo = ws_bench_ispass_lps_ptxinfo,
    .run = run,
};
