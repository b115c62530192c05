/* Suite "sdk": CUDA-SDK-style programs (our own implementations). */
#include "workload.h"

extern const ws_workload ws_workload_sdk_scan;
extern const ws_workload ws_workload_sdk_mcpi;
extern const ws_workload ws_workload_sdk_montecarlo;
extern const ws_workload ws_workload_sdk_convsep;
extern const ws_workload ws_workload_sdk_fastwalsh;
extern const ws_workload ws_workload_sdk_vectoradd;
extern const ws_workload ws_workload_sdk_scalarprod;
extern const ws_workload ws_workload_sdk_blackscholes;
extern const ws_workload ws_workload_sdk_matmul_naive;
extern const ws_workload ws_workload_sdk_matmul_shared;
extern const ws_workload ws_workload_sdk_transpose_naive;
extern const ws_workload ws_workload_sdk_transpose_shared;

static const ws_workload *const table[] = {
    &ws_workload_sdk_blackscholes,
    &ws_workload_sdk_scalarprod,
    &ws_workload_sdk_vectoradd,
    &ws_workload_sdk_fastwalsh,
    &ws_workload_sdk_convsep,
    &ws_workload_sdk_montecarlo,
    &ws_workload_sdk_mcpi,
    &ws_workload_sdk_scan,
    &ws_workload_sdk_matmul_naive,
    &ws_workload_sdk_matmul_shared,
    &ws_workload_sdk_transpose_naive,
    &ws_workload_sdk_transpose_shared,
    NULL,
};

const ws_suite ws_suite_sdk = {"sdk", "CUDA-SDK-style programs (our own implementations)", table};
