/* Static warp limiting (SWL, "Best-SWL" when the limit is searched offline):
 * each scheduler lets only its N oldest unfinished warps issue, gating every
 * instruction of the others (the meaning of "active warps" in seed 000's
 * §2.2; GPGPU-Sim 3.2.2's warp_limiting scheduler does the same). Args: N. */
#include <stdio.h>
#include <stdlib.h>

#include "policy/throttle/limit.h"

typedef struct {
    unsigned limit;
} swl_state;

static void *swl_create(const char *args, unsigned n, char *err, size_t errlen) {
    char *end = NULL;
    long v = args ? strtol(args, &end, 10) : 0;
    if (!args || end == args || *end || v < 1 || v > 1024) {
        snprintf(err, errlen, "-warpsim_throttle swl:N needs a warp limit N >= 1 (got '%s')",
                 args ? args : "");
        return NULL;
    }
    swl_state *s = malloc(sizeof *s);
    if (s) s->limit = (unsigned)v;
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
    .create = swl_create,
    .destroy = free,
    .filter = swl_filter,
    .kernel_start = swl_kernel_start,
    .limit = swl_limit,
};
