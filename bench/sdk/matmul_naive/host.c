/* matmul_naive: C = A * B (SDK matrixMul sizes) with one thread per element
 * of C on 16x16 blocks, every operand read from global memory. */
#include "sdk/matmul_host.h"

extern const char ws_bench_sdk_matmul_naive_ptx[], ws_bench_sdk_matmul_naive_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    return matmul_run(d, m, in, log, "matmul_naive", "_Z14matrixMulNaivePfPKfS1_ii", 0x5eed0a01);
}

const ws_workload ws_workload_sdk_matmul_naive = {
    .name = "matmul_naive",
    .suite = "sdk",
    .description = "matrix multiply, one thread per element of C reading A and B from global memory, 16x16 blocks",
    .ptx = ws_bench_sdk_matmul_naive_ptx,
    .ptxinfo = ws_bench_sdk_matmul_naive_ptxinfo,
    .run = run,
};
