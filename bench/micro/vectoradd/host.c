/* vectoradd: c = a + b over n floats, 256 threads per block (the launch the
 * GPGPU-Sim reference program uses). */
#include "host_util.h"

extern const char ws_bench_micro_vectoradd_ptx[], ws_bench_micro_vectoradd_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    const int n = in == WS_INPUT_PAPER ? 1048576 : 65536;
    const size_t bytes = (size_t)n * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "vectoradd");

    float *a = wl_host_alloc(&c, bytes), *b = wl_host_alloc(&c, bytes), *out = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0001);
        for (int i = 0; i < n; i++) {
            a[i] = ws_rng_float(&r) * 200.0f - 100.0f;
            b[i] = ws_rng_float(&r) * 200.0f - 100.0f;
        }
    }
    ws_devptr da = wl_upload(&c, a, bytes), db = wl_upload(&c, b, bytes), dc = wl_alloc(&c, bytes);
    wl_set(&c, dc, 0xff, bytes);  /* NaN pattern: an element never written cannot pass */
    ws_kernel *k = wl_kernel(&c, "_Z9vectorAddPKfS0_Pfi");
    int nn = n;
    void *args[] = {&da, &db, &dc, &nn};
    const unsigned threads = 256;
    wl_launch(&c, k, wl_dim((unsigned)(n + threads - 1) / threads, 1), wl_dim(threads, 1), args);
    wl_download(&c, out, dc, bytes);

    /* One IEEE single-precision add is correctly rounded, so the result must
       be bit-exact; the tolerance form still rejects NaN. */
    if (!c.failed)
        for (int i = 0; i < n; i++)
            wl_expect_near(&c, "c", i, out[i], (double)(a[i] + b[i]), 0.0, 0.0);

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d", n);
    free(a);
    free(b);
    free(out);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_micro_vectoradd = {
    .name = "vectoradd",
    .suite = "micro",
    .description = "c = a + b over float vectors (65536 / 1048576 elements)",
    .ptx = ws_bench_micro_vectoradd_ptx,
    .ptxinfo = ws_bench_micro_vectoradd_ptxinfo,
    .run = run,
};
