/* Suite "micro": small programs that exercise the simulator's features. */
#include "workload.h"

extern const ws_workload ws_workload_micro_vectoradd, ws_workload_micro_matmul, ws_workload_micro_reduce,
    ws_workload_micro_histogram, ws_workload_micro_bfs, ws_workload_micro_funcs, ws_workload_micro_dpsolve,
    ws_workload_micro_texture;

static const ws_workload *const micro[] = {
    &ws_workload_micro_vectoradd,
    &ws_workload_micro_matmul,
    &ws_workload_micro_reduce,
    &ws_workload_micro_histogram,
    &ws_workload_micro_bfs,
    &ws_workload_micro_funcs,
    &ws_workload_micro_dpsolve,
    &ws_workload_micro_texture,
    NULL,
};

const ws_suite ws_suite_micro = {"micro", "feature programs (vectors, tiles, atomics, calls, textures)", micro};
