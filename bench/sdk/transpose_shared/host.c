/* transpose_shared: out = transpose of a height x width float matrix through
 * 32x32 shared-memory tiles with one float of padding per row; blocks of
 * 32x8 threads move 4 elements each; reads and writes are coalesced. */
#include "sdk/transpose_host.h"

extern const char ws_bench_sdk_transpose_shared_ptx[], ws_bench_sdk_transpose_shared_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* small: 192 high, a multiple of the tile; 32x8 threads per 32x32 tile */
    const transpose_shape s = {192, 32, 8, 32, 32};
    return transpose_run(d, m, in, log, "transpose_shared", "_Z15transposeSharedPfPKfii", 0x5eed0a04, s);
}

const ws_workload ws_workload_sdk_transpose_shared = {
    .name = "transpose_shared",
    .suite = "sdk",
    .description = "matrix transpose through 32x32 (+1 padding) shared tiles, coalesced (SDK transpose coalesced)",
    .ptx = ws_bench_sdk_transpose_shared_ptx,
    .ptxinfo = ws_bench_sdk_transpose_shared_ptxinfo,
    .run = run,
};
