/* Suite "mars": Mars-style MapReduce applications (our own implementations). */
#include "workload.h"

static const ws_workload *const table[] = {
    NULL,
};

const ws_suite ws_suite_mars = {"mars", "Mars-style MapReduce applications (our own implementations)", table};
