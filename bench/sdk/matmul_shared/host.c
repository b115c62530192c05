/* matmul_shared: C = A * B (SDK matrixMul sizes) with 16x16 tiles of A and
 * B staged through shared memory, one thread per element of C. */
#include "sdk/matmul_host.h"

extern const char ws_bench_sdk_matmul_shared_ptx[], ws_bench_sdk_matmul_shared_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    return matmul_run(d, m, in, log, "matmul_shared", "_Z15matrixMulSharedPfPKfS1_ii", 0x5eed0a02);
}

const ws_workload ws_workload_sdk_matmul_shared = {
    .name = "matmul_shared",
    .suite = "sdk",
    .description = "matrix multiply with 16x16 shared-memory tiles (SDK matrixMul)",
    .ptx = ws_bench_sdk_matmul_shared_ptx,
    .ptxinfo = ws_bench_sdk_matmul_shared_ptxinfo,
    .run = run,
};
