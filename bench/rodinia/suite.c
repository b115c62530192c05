/* Suite "rodinia": Rodinia-style applications (our own implementations). */
#include "workload.h"

static const ws_workload *const table[] = {
    NULL,
};

const ws_suite ws_suite_rodinia = {"rodinia", "Rodinia-style applications (our own implementations)", table};
