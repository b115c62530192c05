/* Warp limiting shared by the throttle policies (see limit.h). */
#include "policy/throttle/limit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Warps waiting at a barrier do not hold a slot: they cannot issue, and
 * holding one would deadlock a CTA larger than the limit (its oldest warps
 * would wait at the barrier for throttled younger ones). */
void ws_throttle_limit_filter(ws_sched_warp *w, unsigned n, unsigned limit) {
    if (limit >= n) { /* nobody has `limit` older warps: skip the quadratic count */
        for (unsigned i = 0; i < n; i++)
            if (w[i].valid) w[i].throttled = 0;
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        if (!w[i].valid) continue;
        unsigned older = 0;
        for (unsigned j = 0; j < n && older < limit; j++)
            older += w[j].valid && !w[j].waiting && w[j].age < w[i].age;
        w[i].throttled = older >= limit;
    }
}

void *ws_limit_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    /* the controller reads the parameters */
    ws_limit_state *s = malloc(sizeof *s);
    if (s) s->limit = s->slots = n;
    return s;
}

void ws_limit_filter(void *st, ws_sched_warp *w, unsigned n) {
    ws_throttle_limit_filter(w, n, ((const ws_limit_state *)st)->limit);
}

void ws_limit_kernel_start(void *st) {
    ws_limit_state *s = st;
    s->limit = s->slots;
}

void ws_limit_set(void *st, unsigned limit) {
    ws_limit_state *s = st;
    s->limit = limit && limit < s->slots ? limit : s->slots;
}

unsigned ws_limit_get(const void *st) { return ((const ws_limit_state *)st)->limit; }
