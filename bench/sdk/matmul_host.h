/* The host side shared by sdk/matmul_naive and sdk/matmul_shared: the same
 * inputs, launch shape and check; only the kernel differs. */
#ifndef WARPSIM_BENCH_SDK_MATMUL_HOST_H
#define WARPSIM_BENCH_SDK_MATMUL_HOST_H

#include <math.h>

#include "host_util.h"

#define MATMUL_BLOCK 16

static inline ws_wl_result matmul_run(ws_device *d, ws_module_handle *m, ws_input_size in,
                                      FILE *log, const char *name, const char *kernel,
                                      unsigned long long seed) {
    /* paper: the SDK matrixMul default, A 320 x 320 and B 320 x 640 (no size in
       the specs); small: the older SDK default, A 80 x 48 and B 48 x 128 */
    const int paper = in == WS_INPUT_PAPER;
    const int hA = paper ? 320 : 80, wA = paper ? 320 : 48, wB = paper ? 640 : 128;
    const size_t nA = (size_t)hA * wA, nB = (size_t)wA * wB, nC = (size_t)hA * wB;
    wl_ctx c;
    wl_init(&c, d, m, log, name);

    float *A = wl_host_alloc(&c, nA * sizeof(float)), *B = wl_host_alloc(&c, nB * sizeof(float));
    float *C = wl_host_alloc(&c, nC * sizeof(float));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, seed);
        for (size_t i = 0; i < nA; i++) A[i] = ws_rng_float(&r);
        for (size_t i = 0; i < nB; i++) B[i] = ws_rng_float(&r) * 2.0f - 1.0f;
    }
    ws_devptr dA = wl_upload(&c, A, nA * sizeof(float)), dB = wl_upload(&c, B, nB * sizeof(float));
    ws_devptr dC = wl_alloc(&c, nC * sizeof(float));
    wl_set(&c, dC, 0xff, nC * sizeof(float));
    ws_kernel *k = wl_kernel(&c, kernel);
    int wa = wA, wb = wB;
    void *args[] = {&dC, &dA, &dB, &wa, &wb};
    wl_launch(&c, k, wl_dim((unsigned)(wB / MATMUL_BLOCK), (unsigned)(hA / MATMUL_BLOCK)),
              wl_dim(MATMUL_BLOCK, MATMUL_BLOCK), args);
    wl_download(&c, C, dC, nC * sizeof(float));

    /* reference in double; the GPU sums in float with fma, so allow a few
       float ulps of the sum of |products| */
    if (!c.failed)
        for (int row = 0; row < hA; row++)
            for (int col = 0; col < wB; col++) {
                double ref = 0.0, mag = 0.0;
                for (int k2 = 0; k2 < wA; k2++) {
                    double p = (double)A[(size_t)row * wA + k2] * (double)B[(size_t)k2 * wB + col];
                    ref += p;
                    mag += fabs(p);
                }
                wl_expect_near(&c, "C", (long)row * wB + col, C[(size_t)row * wB + col], ref, 0.0,
                               1e-5 * mag + 1e-6);
            }

    char summary[64];
    snprintf(summary, sizeof summary, "A=%dx%d B=%dx%d", hA, wA, wA, wB);
    free(A);
    free(B);
    free(C);
    return wl_finish(&c, summary);
}

#endif
