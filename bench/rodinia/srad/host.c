/* srad: speckle-reducing anisotropic diffusion of a rows x cols image (the
 * two-kernel SRAD v2). Each iteration the host takes the mean and variance of
 * a region of interest from its copy of the image, uploads the image, runs
 * the two kernels over 16x16 blocks and reads the image back. */
#include "host_util.h"

extern const char ws_bench_rodinia_srad_ptx[], ws_bench_rodinia_srad_ptxinfo[];

#define BLOCK 16

static float q0_of(const float *J, int cols, int r1, int r2, int c1, int c2) {
    float sum = 0.0f, sum2 = 0.0f;
    for (int i = r1; i <= r2; i++)
        for (int j = c1; j <= c2; j++) {
            float v = J[i * cols + j];
            sum += v;
            sum2 += v * v;
        }
    float size = (float)((r2 - r1 + 1) * (c2 - c1 + 1));
    float mean = sum / size, var = sum2 / size - mean * mean;
    return var / (mean * mean);
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 256 x 256 (seed002 Table 8 runs srad at 128 and 256; Rodinia's
       own default run is 2048 x 2048), region of interest rows/cols 0..127,
       lambda 0.5, 2 iterations as in Rodinia's default run */
    const int paper = in == WS_INPUT_PAPER;
    const int rows = paper ? 256 : 64, cols = rows, niter = 2;
    const int r1 = 0, r2 = paper ? 127 : 31, c1 = 0, c2 = r2;
    const float lambda = 0.5f;
    const size_t px = (size_t)rows * cols, bytes = px * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "srad");
    float *J = wl_host_alloc(&c, bytes), *R = wl_host_alloc(&c, bytes);
    float *cN = wl_host_alloc(&c, bytes), *cS = wl_host_alloc(&c, bytes), *cW = wl_host_alloc(&c, bytes),
          *cE = wl_host_alloc(&c, bytes), *cC = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0107);
        for (size_t i = 0; i < px; i++) J[i] = expf(ws_rng_float(&r));
        memcpy(R, J, bytes);
    }
    ws_devptr dJ = wl_alloc(&c, bytes), dC = wl_alloc(&c, bytes);
    ws_devptr dE = wl_alloc(&c, bytes), dW = wl_alloc(&c, bytes), dN = wl_alloc(&c, bytes),
              dS = wl_alloc(&c, bytes);
    ws_kernel *k1 = wl_kernel(&c, "_Z11sradPreparePfS_S_S_PKfS_iif");
    ws_kernel *k2 = wl_kernel(&c, "_Z10sradUpdatePKfS0_S0_S0_PfS0_iiff");
    int C_ = cols, R_ = rows;
    float lam = lambda;
    for (int it = 0; it < niter && !c.failed; it++) {
        float q0sqr = q0_of(J, cols, r1, r2, c1, c2);
        wl_check(&c, ws_memcpy_htod(d, dJ, J, bytes), "memcpy host to device");
        void *a1[] = {&dE, &dW, &dN, &dS, &dJ, &dC, &C_, &R_, &q0sqr};
        void *a2[] = {&dE, &dW, &dN, &dS, &dJ, &dC, &C_, &R_, &lam, &q0sqr};
        wl_launch(&c, k1, wl_dim((unsigned)(cols / BLOCK), (unsigned)(rows / BLOCK)), wl_dim(BLOCK, BLOCK), a1);
        wl_launch(&c, k2, wl_dim((unsigned)(cols / BLOCK), (unsigned)(rows / BLOCK)), wl_dim(BLOCK, BLOCK), a2);
        wl_download(&c, J, dJ, bytes);
    }

    if (!c.failed) {
        for (int it = 0; it < niter; it++) {
            float q0sqr = q0_of(R, cols, r1, r2, c1, c2);
            for (int y = 0; y < rows; y++)
                for (int x = 0; x < cols; x++) {
                    size_t i = (size_t)y * cols + x;
                    float jc = R[i];
                    float n = R[(size_t)(y > 0 ? y - 1 : y) * cols + x] - jc;
                    float s = R[(size_t)(y < rows - 1 ? y + 1 : y) * cols + x] - jc;
                    float w = R[(size_t)y * cols + (x > 0 ? x - 1 : x)] - jc;
                    float e = R[(size_t)y * cols + (x < cols - 1 ? x + 1 : x)] - jc;
                    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
                    float l = (n + s + w + e) / jc;
                    float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
                    float den = 1.0f + 0.25f * l;
                    float qsqr = num / (den * den);
                    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
                    float cv = 1.0f / (1.0f + den);
                    cC[i] = cv < 0.0f ? 0.0f : (cv > 1.0f ? 1.0f : cv);
                    cN[i] = n;
                    cS[i] = s;
                    cW[i] = w;
                    cE[i] = e;
                }
            for (int y = 0; y < rows; y++)
                for (int x = 0; x < cols; x++) {
                    size_t i = (size_t)y * cols + x;
                    float cc = cC[i];
                    float cs = cC[(size_t)(y < rows - 1 ? y + 1 : y) * cols + x];
                    float ce = cC[(size_t)y * cols + (x < cols - 1 ? x + 1 : x)];
                    float div = cc * cN[i] + cs * cS[i] + cc * cW[i] + ce * cE[i];
                    R[i] = R[i] + 0.25f * lambda * div;
                }
        }
        for (size_t i = 0; i < px; i++) wl_expect_near(&c, "J", (long)i, J[i], R[i], 1e-4, 1e-5);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "image=%dx%d iterations=%d", rows, cols, niter);
    free(J);
    free(R);
    free(cN);
    free(cS);
    free(cW);
    free(cE);
    free(cC);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_srad = {
    .name = "srad",
    .suite = "rodinia",
    .description = "SRAD v2 speckle-reducing diffusion: coefficient and update kernels with halo tiles",
    .ptx = ws_bench_rodinia_srad_ptx,
    .ptxinfo = ws_bench_rodinia_srad_ptxinfo,
    .run = run,
};
