/* Suite "shoc": SHOC-style kernels (our own implementations). */
#include "workload.h"

static const ws_workload *const table[] = {
    NULL,
};

const ws_suite ws_suite_shoc = {"shoc", "SHOC-style kernels (our own implementations)", table};
