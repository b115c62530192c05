/* Suite "rodinia": Rodinia-style applications (our own implementations). */
#include "workload.h"

extern const ws_workload ws_workload_rodinia_backprop;
extern const ws_workload ws_workload_rodinia_bfs;

static const ws_workload *const table[] = {
    &ws_workload_rodinia_backprop,
    &ws_workload_rodinia_bfs,
    NULL,
};

const ws_suite ws_suite_rodinia = {"rodinia", "Rodinia-style applications (our own implementations)", table};
