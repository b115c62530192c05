/* reduce: sum of n ints (exact) and of n floats (tolerance) with one
 * launch each of blockReduce<T>: shared-memory tree, warp shuffles, one
 * atomicAdd per block. */
#include <stdint.h>

#include "host_util.h"

extern const char ws_bench_micro_reduce_ptx[], ws_bench_micro_reduce_ptxinfo[];

#define BLOCK 256     /* must match BLOCK in kernel.cu */
#define MAX_BLOCKS 256

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    const int n = in == WS_INPUT_PAPER ? (1 << 21) : (1 << 16);
    wl_ctx c;
    wl_init(&c, d, m, log, "reduce");

    int32_t *vi = wl_host_alloc(&c, (size_t)n * sizeof *vi);
    float *vf = wl_host_alloc(&c, (size_t)n * sizeof *vf);
    uint32_t want_i = 0;  /* two's-complement wrap, as the device's atomicAdd */
    double want_f = 0.0;
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0003);
        for (int i = 0; i < n; i++) {
            vi[i] = (int32_t)ws_rng_below(&r, 2001) - 1000;
            vf[i] = ws_rng_float(&r);
            want_i += (uint32_t)vi[i];
            want_f += vf[i];
        }
    }
    ws_devptr di = wl_upload(&c, vi, (size_t)n * sizeof *vi);
    ws_devptr df = wl_upload(&c, vf, (size_t)n * sizeof *vf);
    ws_devptr dres = wl_alloc(&c, 2 * sizeof(int32_t));
    wl_set(&c, dres, 0, 2 * sizeof(int32_t));
    ws_devptr dres_i = dres, dres_f = dres + sizeof(int32_t);

    /* Fewer threads than elements, so each thread strides over several. */
    int blocks = (n + BLOCK * 4 - 1) / (BLOCK * 4);
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    int nn = n;
    void *args_i[] = {&di, &dres_i, &nn};
    void *args_f[] = {&df, &dres_f, &nn};
    wl_launch(&c, wl_kernel(&c, "_Z11blockReduceIiEvPKT_PS0_i"), wl_dim((unsigned)blocks, 1),
              wl_dim(BLOCK, 1), args_i);
    wl_launch(&c, wl_kernel(&c, "_Z11blockReduceIfEvPKT_PS0_i"), wl_dim((unsigned)blocks, 1),
              wl_dim(BLOCK, 1), args_f);
    int32_t got_i = 0;
    float got_f = 0.0f;
    wl_download(&c, &got_i, dres_i, sizeof got_i);
    wl_download(&c, &got_f, dres_f, sizeof got_f);

    if (!c.failed) {
        wl_expect_i64(&c, "int sum", 0, got_i, (int32_t)want_i);
        /* float partial sums and 4-byte atomics in block order: relative
           error stays far below 1e-4 for these sizes */
        wl_expect_near(&c, "float sum", 0, got_f, want_f, 1e-4, 0.0);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "n=%d blocks=%d", n, blocks);
    free(vi);
    free(vf);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_micro_reduce = {
    .name = "reduce",
    .suite = "micro",
    .description = "int and float sums: shared-memory tree, warp shuffles, atomicAdd",
    .ptx = ws_bench_micro_reduce_ptx,
    .ptxinfo = ws_bench_micro_reduce_ptxinfo,
    .run = run,
};
