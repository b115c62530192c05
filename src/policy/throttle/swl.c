/* Static warp limiting (SWL, "Best-SWL" when the limit is searched offline):
 * each scheduler lets only its N oldest unfinished warps issue, gating every
 * instruction of the others (the meaning of "active warps" in seed 000's
 * §2.2; GPGPU-Sim 3.2.2's warp_limiting scheduler does the same). */
#include <stdlib.h>

#include "policy/throttle/limit.h"

typedef struct {
    unsigned limit;
} swl_state;

static const ws_param_def swl_params[] = {
    WS_INT("n", NULL, 1, 1024, "warps each scheduler lets issue (its N oldest)"),
};

static void *swl_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    swl_state *s = malloc(sizeof *s);
    if (s) s->limit = (unsigned)ws_param_int(p, "n");
    return s;
}

static void swl_filter(void *st, ws_sched_warp *w, unsigned n) {
    ws_throttle_limit_filter(w, n, ((const swl_state *)st)->limit);
}

static void swl_kernel_start(void *st) {}

static unsigned swl_limit(const void *st) { return ((const swl_state *)st)->limit; }

const ws_throttle_policy ws_throttle_swl = {
    .name = "swl",
    .doc = "static warp limiting: only the N oldest warps of each scheduler issue (swl:N)",
    .params = swl_params,
    .nparams = sizeof swl_params / sizeof swl_params[0],
    .create = swl_create,
    .destroy = free,
    .filter = swl_filter,
    .kernel_start = swl_kernel_start,
    .limit = swl_limit,
};
