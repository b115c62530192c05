/* transpose_naive: out = transpose of a height x width float matrix, one
 * thread per element on 16x16 blocks (coalesced reads, writes strided by
 * the output row length). */
#include "sdk/transpose_host.h"

extern const char ws_bench_sdk_transpose_naive_ptx[], ws_bench_sdk_transpose_naive_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* small: 200 high, not a multiple of the block in y, so the edge test runs */
    const transpose_shape s = {200, 16, 16, 16, 16};
    return transpose_run(d, m, in, log, "transpose_naive", "_Z14transposeNaivePfPKfii", 0x5eed0a03, s);
}

const ws_workload ws_workload_sdk_transpose_naive = {
    .name = "transpose_naive",
    .suite = "sdk",
    .description = "matrix transpose, one thread per element, uncoalesced writes (SDK transpose naive)",
    .ptx = ws_bench_sdk_transpose_naive_ptx,
    .ptxinfo = ws_bench_sdk_transpose_naive_ptxinfo,
    .run = run,
};
