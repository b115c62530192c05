/* convsep: the CUDA SDK convolutionSeparable program: a W x H float image
 * filtered with a random 17-tap kernel (in __constant__ memory), first by
 * convolutionRowsKernel <<<(W/128, H/4), (16, 4)>>> into a buffer, then by
 * convolutionColumnsKernel <<<(W/16, H/64), (16, 8)>>> into the output.
 * paper: 3072 x 3072 (SDK default; no size in the specs), one row + column
 *        pass (the SDK repeats the same pair 16 more times for timing).
 * small: 512 x 256. */
#include "host_util.h"

extern const char ws_bench_sdk_convsep_ptx[], ws_bench_sdk_convsep_ptxinfo[];

#define R 8
#define KLEN (2 * R + 1)

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int W = in == WS_INPUT_PAPER ? 3072 : 512, H = in == WS_INPUT_PAPER ? 3072 : 256;
    const size_t elems = (size_t)W * H, bytes = elems * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, out, "convsep");

    float kern[KLEN];
    float *img = wl_host_alloc(&c, bytes), *res = wl_host_alloc(&c, bytes);
    double *tmp = wl_host_alloc(&c, elems * sizeof(double));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0105);
        for (int i = 0; i < KLEN; i++) kern[i] = ws_rng_float(&r);
        for (size_t i = 0; i < elems; i++) img[i] = ws_rng_float(&r);
    }
    ws_devptr dKern = 0;
    size_t ksize = 0;
    if (!c.failed && ws_module_get_global(m, "c_Kernel", &dKern, &ksize) != WS_OK) {
        fprintf(out, "convsep: __constant__ c_Kernel not found\n");
        c.failed = 1;
    }
    if (!c.failed) wl_check(&c, ws_memcpy_htod(d, dKern, kern, sizeof kern), "memcpy to c_Kernel");
    ws_devptr dIn = wl_upload(&c, img, bytes), dBuf = wl_alloc(&c, bytes), dOut = wl_alloc(&c, bytes);
    wl_set(&c, dBuf, 0xff, bytes);
    wl_set(&c, dOut, 0xff, bytes);
    ws_kernel *krow = wl_kernel(&c, "_Z21convolutionRowsKernelPfPKfiii");
    ws_kernel *kcol = wl_kernel(&c, "_Z24convolutionColumnsKernelPfPKfiii");
    int w = W, h = H, pitch = W;
    void *rargs[] = {&dBuf, &dIn, &w, &h, &pitch};
    void *cargs[] = {&dOut, &dBuf, &w, &h, &pitch};
    wl_launch(&c, krow, wl_dim((unsigned)W / (8 * 16), (unsigned)H / 4), wl_dim(16, 4), rargs);
    wl_launch(&c, kcol, wl_dim((unsigned)W / 16, (unsigned)H / (8 * 8)), wl_dim(16, 8), cargs);
    wl_download(&c, res, dOut, bytes);

    /* Reference in double (zero outside the image). Results are sums of 289
       non-negative products (~0..80), so allow 1e-5 relative. */
    if (!c.failed) {
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double s = 0.0;
                for (int j = -R; j <= R; j++)
                    if (x + j >= 0 && x + j < W) s += (double)kern[R - j] * img[(size_t)y * W + (size_t)(x + j)];
                tmp[(size_t)y * W + x] = s;
            }
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double s = 0.0;
                for (int j = -R; j <= R; j++)
                    if (y + j >= 0 && y + j < H) s += (double)kern[R - j] * tmp[(size_t)(y + j) * W + x];
                wl_expect_near(&c, "out", (long)y * W + x, res[(size_t)y * W + x], s, 1e-5, 1e-5);
            }
    }

    char summary[64];
    snprintf(summary, sizeof summary, "image=%dx%d radius=%d", W, H, R);
    free(img);
    free(res);
    free(tmp);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_sdk_convsep = {
    .name = "convsep",
    .suite = "sdk",
    .description = "separable convolution: row + column kernels with shared tiles and apron (SDK)",
    .ptx = ws_bench_sdk_convsep_ptx,
    .ptxinfo = ws_bench_sdk_convsep_ptxinfo,
    .run = run,
};
