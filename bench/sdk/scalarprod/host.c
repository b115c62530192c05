/* scalarprod: the CUDA SDK scalarProd program: VECTOR_N dot products of
 * ELEMENT_N-element float vectors, one launch <<<128, 256>>>.
 * paper: 256 vectors x 4096 elements (SDK default; no size in the specs).
 * small: 160 vectors x 2048 elements (more vectors than blocks, so some
 *        blocks loop twice over their vectors as in the paper size). */
#include "host_util.h"

extern const char ws_bench_sdk_scalarprod_ptx[], ws_bench_sdk_scalarprod_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int vectorN = in == WS_INPUT_PAPER ? 256 : 160;
    const int elementN = in == WS_INPUT_PAPER ? 4096 : 2048;
    const size_t total = (size_t)vectorN * elementN, bytes = total * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, out, "scalarprod");

    float *A = wl_host_alloc(&c, bytes), *B = wl_host_alloc(&c, bytes);
    float *R = wl_host_alloc(&c, (size_t)vectorN * sizeof(float));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0102);
        for (size_t i = 0; i < total; i++) A[i] = ws_rng_float(&r);
        for (size_t i = 0; i < total; i++) B[i] = ws_rng_float(&r);
    }
    ws_devptr dA = wl_upload(&c, A, bytes), dB = wl_upload(&c, B, bytes);
    ws_devptr dR = wl_alloc(&c, (size_t)vectorN * sizeof(float));
    wl_set(&c, dR, 0xff, (size_t)vectorN * sizeof(float));
    ws_kernel *k = wl_kernel(&c, "_Z16scalarProdKernelPfPKfS1_ii");
    int vn = vectorN, en = elementN;
    void *args[] = {&dR, &dA, &dB, &vn, &en};
    wl_launch(&c, k, wl_dim(128, 1), wl_dim(256, 1), args);
    wl_download(&c, R, dR, (size_t)vectorN * sizeof(float));

    /* Reference in double; all products are positive, so a float sum of
       elementN terms is within ~elementN * 2^-24 relative: allow 1e-5. */
    if (!c.failed)
        for (int v = 0; v < vectorN; v++) {
            double ref = 0.0;
            for (int e = 0; e < elementN; e++)
                ref += (double)A[(size_t)v * elementN + e] * B[(size_t)v * elementN + e];
            wl_expect_near(&c, "result", v, R[v], ref, 1e-5, 1e-6);
        }

    char summary[64];
    snprintf(summary, sizeof summary, "vectors=%d elements=%d", vectorN, elementN);
    free(A);
    free(B);
    free(R);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_sdk_scalarprod = {
    .name = "scalarprod",
    .suite = "sdk",
    .description = "many float dot products, shared-memory accumulators + tree reduction (SDK)",
    .ptx = ws_bench_sdk_scalarprod_ptx,
    .ptxinfo = ws_bench_sdk_scalarprod_ptxinfo,
    .run = run,
};
