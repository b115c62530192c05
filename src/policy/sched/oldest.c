/* Oldest first: always prefer the warp with the smallest dynamic warp id. */
#include <stdlib.h>

#include "policy/sched/sched.h"

static void *oldest_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    ws_sched_ageord *a = malloc(sizeof *a);
    if (a) ws_sched_ageord_init(a, n);
    return a;
}
static void oldest_destroy(void *st) { free(st); }
static unsigned oldest_order(void *st, const ws_sched_warp *w, unsigned n, uint16_t *out) {
    return ws_sched_ageord_order(st, w, n, out, -1);
}
static void oldest_issued(void *st, const ws_sched_warp *w, unsigned n, unsigned idx) {}

static void oldest_views_same(void *st) { ws_sched_ageord_same(st); }
static int oldest_first(const void *st, unsigned n) { return -1; }

const ws_sched_policy ws_sched_oldest = {
    "oldest", "oldest warp (smallest dynamic warp id) first", NULL, 0, oldest_create,
    oldest_destroy, oldest_order, oldest_issued, 0, 1, oldest_views_same, WS_SCHED_AGE,
    oldest_first,
};
