/* vectoradd: the CUDA SDK vectorAdd program: 256 threads per block,
 * ceil(n / 256) blocks, one launch; the last block is partly idle.
 * paper: 50,000 elements (SDK default; no size in the specs).
 * small: 20,000 elements. */
#include "host_util.h"

extern const char ws_bench_sdk_vectoradd_ptx[], ws_bench_sdk_vectoradd_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int n = in == WS_INPUT_PAPER ? 50000 : 20000;
    const size_t bytes = (size_t)n * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, out, "vectoradd");

    float *A = wl_host_alloc(&c, bytes), *B = wl_host_alloc(&c, bytes), *C = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0103);
        for (int i = 0; i < n; i++) A[i] = ws_rng_float(&r);
        for (int i = 0; i < n; i++) B[i] = ws_rng_float(&r);
    }
    ws_devptr dA = wl_upload(&c, A, bytes), dB = wl_upload(&c, B, bytes), dC = wl_alloc(&c, bytes);
    wl_set(&c, dC, 0xff, bytes);
    ws_kernel *k = wl_kernel(&c, "_Z9vectorAddPKfS0_Pfi");
    int nn = n;
    void *args[] = {&dA, &dB, &dC, &nn};
    const unsigned threads = 256, blocks = (unsigned)(n + 255) / 256;
    wl_launch(&c, k, wl_dim(blocks, 1), wl_dim(threads, 1), args);
    wl_download(&c, C, dC, bytes);

    /* one float addition: exact match */
    if (!c.failed)
        for (int i = 0; i < n; i++) wl_expect_near(&c, "C", i, C[i], (double)(A[i] + B[i]), 0.0, 0.0);

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d", n);
    free(A);
    free(B);
    free(C);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_sdk_vectoradd = {
    .name = "vectoradd",
    .suite = "sdk",
    .description = "SDK vectorAdd: c = a + b, 256 threads/block (50000 elements)",
    .ptx = ws_bench_sdk_vectoradd_ptx,
    .ptxinfo = ws_bench_sdk_vectoradd_ptxinfo,
    .run = run,
};
