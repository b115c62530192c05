/* Suite "polybench": PolyBench/GPU-style linear algebra and stencil kernels (our own implementations). */
#include "workload.h"

static const ws_workload *const table[] = {
    NULL,
};

const ws_suite ws_suite_polybench = {"polybench", "PolyBench/GPU-style linear algebra and stencil kernels (our own implementations)", table};
