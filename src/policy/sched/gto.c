/* Greedy-then-oldest: keep issuing from the warp that issued last; when it
 * cannot issue, try the others oldest (smallest dynamic warp id) first. */
#include <stdlib.h>

#include "policy/sched/sched.h"

typedef struct {
    int last;
    ws_sched_ageord age;
} gto_state;

static void *gto_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    gto_state *s = calloc(1, sizeof *s);
    if (s) {
        s->last = -1;
        ws_sched_ageord_init(&s->age, n);
    }
    return s;
}
static void gto_destroy(void *st) { free(st); }
static unsigned gto_order(void *st, const ws_sched_warp *w, unsigned n, uint16_t *out) {
    gto_state *s = st;
    unsigned k = 0;
    if (s->last >= 0 && (unsigned)s->last < n) out[k++] = (uint16_t)s->last;
    return k + ws_sched_ageord_order(&s->age, w, n, out + k, s->last);
}
static void gto_issued(void *st, const ws_sched_warp *w, unsigned n, unsigned idx) {
    ((gto_state *)st)->last = (int)idx;
}

static void gto_views_same(void *st) { ws_sched_ageord_same(&((gto_state *)st)->age); }
static int gto_first(const void *st, unsigned n) { return ((const gto_state *)st)->last; }
static int *gto_last(void *st) { return &((gto_state *)st)->last; }

const ws_sched_policy ws_sched_gto = {
    "gto", "greedy on the last issued warp, then oldest first", NULL, 0, gto_create, gto_destroy,
    gto_order, gto_issued, 0, 1, gto_views_same, WS_SCHED_AGE, gto_first, gto_last,
};
