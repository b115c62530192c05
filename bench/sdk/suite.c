/* Suite "sdk": CUDA-SDK-style programs (our own implementations). */
#include "workload.h"

static const ws_workload *const table[] = {
    NULL,
};

const ws_suite ws_suite_sdk = {"sdk", "CUDA-SDK-style programs (our own implementations)", table};
