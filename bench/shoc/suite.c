/* Suite "shoc": SHOC-style kernels (our own implementations). */
#include "workload.h"

extern const ws_workload ws_workload_shoc_spmv;

static const ws_workload *const table[] = {
    &ws_workload_shoc_spmv,
    NULL,
};

const ws_suite ws_suite_shoc = {"shoc", "SHOC-style kernels (our own implementations)", table};
