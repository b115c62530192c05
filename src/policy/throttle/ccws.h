/* Cache-Conscious Wavefront Scheduling (throttle policy "ccws", ccws.c):
 * read-only views of its per-SM state, for tests and debugging. `sm` is the
 * state the policy's sm_create returned. */
#ifndef WARPSIM_POLICY_THROTTLE_CCWS_H
#define WARPSIM_POLICY_THROTTLE_CCWS_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/throttle/throttle.h"

/* Lost-locality score of warp slot `slot`. */
uint64_t ws_ccws_score(const void *sm, unsigned slot);
/* VTA hits (lost locality detected) since the kernel started. */
uint64_t ws_ccws_vta_hits(const void *sm);
/* Does slot's victim tag array hold line `block`? */
bool ws_ccws_vta_has(const void *sm, unsigned slot, uint64_t block);

#endif
