/* Loose round robin: start one past the warp that issued last. */
#include <stdlib.h>

#include "policy/sched/sched.h"

typedef struct { int last; } lrr_state; /* (0 <= last < n; an int for ws_sched_policy.last) */

static void *lrr_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    lrr_state *s = calloc(1, sizeof *s);
    if (s) s->last = n ? (int)n - 1 : 0; /* first cycle starts at index 0 */
    return s;
}
static void lrr_destroy(void *st) { free(st); }
static unsigned lrr_order(void *st, const ws_sched_warp *w, unsigned n, uint16_t *out) {
    lrr_state *s = st;
    for (unsigned i = 0; i < n; i++) out[i] = (uint16_t)(((unsigned)s->last + 1 + i) % n);
    return n;
}
static void lrr_issued(void *st, const ws_sched_warp *w, unsigned n, unsigned idx) {
    ((lrr_state *)st)->last = (int)idx;
}

static int lrr_first(const void *st, unsigned n) {
    unsigned f = (unsigned)((const lrr_state *)st)->last + 1;
    return (int)(f < n ? f : 0); /* (last < n) */
}
static int *lrr_last(void *st) { return &((lrr_state *)st)->last; }

const ws_sched_policy ws_sched_lrr = {
    "lrr", "loose round robin over the scheduler's warps", NULL, 0, lrr_create, lrr_destroy,
    lrr_order, lrr_issued, 0, 1, NULL, WS_SCHED_ROTATE, lrr_first, lrr_last,
};
