/* matmul_naive: C = A * B (SDK matrixMul sizes) with one thread per element
 * of C on 16x16 blocks, every operand read from global memory. */
#include "host_util.h"

extern const char ws_bench_sdk_matmul_naive_ptx[], ws_bench_sdk_matmul_naive_ptxinfo[];

#define BLOCK 16

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: the SDK matrixMul default, A 320 x 320 and B 320 x 640 (no size in
       the specs); small: the older SDK default, A 80 x 48 and B 48 x 128 */
    const int paper = in == WS_INPUT_PAPER;
    const int hA = paper ? 320 : 80, wA = paper ? 320 : 48, wB = paper ? 640 : 128;
    const size_t nA = (size_t)hA * wA, nB = (size_t)wA * wB, nC = (size_t)hA * wB;
    wl_ctx c;
    wl_init(&c, d, m, log, "matmul_naive");

    float *A = wl_host_alloc(&c, nA * sizeof(float)), *B = wl_host_alloc(&c, nB * sizeof(float));
    float *C = wl_host_alloc(&c, nC * sizeof(float));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0a01);
        for (size_t i = 0; i < nA; i++) A[i] = ws_rng_float(&r);
        for (size_t i = 0; i < nB; i++) B[i] = ws_rng_float(&r) * 2.0f - 1.0f;
    }
    ws_devptr dA = wl_upload(&c, A, nA * sizeof(float)), dB = wl_upload(&c, B, nB * sizeof(float));
    ws_devptr dC = wl_alloc(&c, nC * sizeof(float));
    wl_set(&c, dC, 0xff, nC * sizeof(float));
    ws_kernel *k = wl_kernel(&c, "_Z14matrixMulNaivePfPKfS1_ii");
    int wa = wA, wb = wB;
    void *args[] = {&dC, &dA, &dB, &wa, &wb};
    wl_launch(&c, k, wl_dim((unsigned)(wB / BLOCK), (unsigned)(hA / BLOCK)), wl_dim(BLOCK, BLOCK), args);
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

const ws_workload ws_workload_sdk_matmul_naive = {
    .name = "matmul_naive",
    .suite = "sdk",
    .description = "matrix multiply, one thread per element of C reading A and B from global memory, 16x16 blocks",
    .ptx = ws_bench_sdk_matmul_naive_ptx,
    .ptxinfo = ws_bench_sdk_matmul_naive_ptxinfo,
    .run = run,
};
