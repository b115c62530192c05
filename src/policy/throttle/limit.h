/* Shared by the warp-limiting throttle policies (swl, dwtcs, dwtpric, awl,
 * iacm): the "only the N oldest warps issue" rule, the per-scheduler state
 * that a GPU-wide controller steers. */
#ifndef WARPSIM_POLICY_THROTTLE_LIMIT_H
#define WARPSIM_POLICY_THROTTLE_LIMIT_H

#include <stddef.h>

#include "policy/throttle/throttle.h"

/* Throttle every valid warp that has at least `limit` older valid warps
 * not waiting (static warp limiting's rule; see swl.c). */
void ws_throttle_limit_filter(ws_sched_warp *w, unsigned n, unsigned limit);

/* Per-scheduler state of a controller-driven policy: its warp limit, which
 * starts every kernel at the scheduler's slot count (no throttling). */
typedef struct ws_limit_state {
    unsigned limit, slots;
} ws_limit_state;
void *ws_limit_create(ws_params *p, unsigned n, char *err, size_t errlen);
void ws_limit_filter(void *st, ws_sched_warp *w, unsigned n);
void ws_limit_kernel_start(void *st);
/* limit 0: no throttling (the slot count). */
void ws_limit_set(void *st, unsigned limit);
unsigned ws_limit_get(const void *st);

#endif
