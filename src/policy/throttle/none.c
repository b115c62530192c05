/* No throttling: every warp may issue. */
#include <stdlib.h>

#include "policy/throttle/throttle.h"

static void *none_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    return malloc(1); /* stateless; non-NULL means success */
}
static void none_filter(void *st, ws_sched_warp *w, unsigned n) {}
static void none_kernel_start(void *st) {}

const ws_throttle_policy ws_throttle_none = {
    .name = "none",
    .doc = "every warp may issue",
    .create = none_create,
    .destroy = free,
    .filter = none_filter,
    .kernel_start = none_kernel_start,
};
