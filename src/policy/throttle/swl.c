/* Static warp limiting (SWL, "Best-SWL" when the limit is searched offline):
 * each scheduler lets only its N oldest unfinished warps issue, gating every
 * instruction of the others (the meaning of "active warps" in seed 000's
 * §2.2; GPGPU-Sim 3.2.2's warp_limiting scheduler does the same). Args: N. */
#include <stdio.h>
#include <stdlib.h>

#include "policy/throttle/throttle.h"

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

/* Throttle every valid warp that has at least `limit` older warps able to
 * issue. Warps waiting at a barrier do not hold a slot: they cannot issue,
 * and holding one would deadlock a CTA larger than the limit (its oldest
 * warps would wait at the barrier for throttled younger ones). */
static void swl_filter(void *st, ws_sched_warp *w, unsigned n) {
    const swl_state *s = st;
    for (unsigned i = 0; i < n; i++) {
        if (!w[i].valid) continue;
        unsigned older = 0;
        for (unsigned j = 0; j < n && older < s->limit; j++)
            older += w[j].valid && !w[j].waiting && w[j].age < w[i].age;
        w[i].throttled = older >= s->limit;
    }
}

static void swl_kernel_start(void *st) {}

const ws_throttle_policy ws_throttle_swl = {
    "swl", "static warp limiting: only the N oldest warps of each scheduler issue (swl:N)",
    swl_create, free, swl_filter, swl_kernel_start,
};
