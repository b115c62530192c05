/* Memory-stage hazards of the SM pipeline (hazard.c), after the taxonomy
 * of T. Turner, "On Replay and Hazards in Graphics Processing Units" (UBC
 * MASc thesis, 2012), section 1.1.7: an instruction in the memory stage
 * cannot finish this cycle because
 *   DIV  its global/local/constant/texture accesses did not coalesce into
 *        one, so the remaining threads need further passes;
 *   BANK its shared-memory accesses conflict in a bank (further passes);
 *   MSHR it missed and no MSHR entry was free (or the block's entry was at
 *        its merge limit);
 *   COMQ it missed and the queue towards the interconnect was full;
 *   RSV  it missed and no line of its set could be reserved.
 * The cache reports which resource failed first in its own order (line,
 * miss queue, MSHR: GPGPU-Sim's); the hazard takes that kind. */
#ifndef WARPSIM_TIMING_SM_HAZARD_H
#define WARPSIM_TIMING_SM_HAZARD_H

#include "timing/mem/cache.h"
#include "timing/sm/sm_internal.h"

enum { SM_HZ_DIV = 0, SM_HZ_BANK, SM_HZ_MSHR, SM_HZ_COMQ, SM_HZ_RSV, SM_HZ_N };

/* The hazard a reservation failure is (SM_HZ_N: none of them, e.g. an
   adaptive-index flush). */
static inline unsigned sm_hazard_of_fail(ws_fail_kind k) {
    switch (k) {
    case WS_FAIL_LINE_ALLOC: return SM_HZ_RSV;
    case WS_FAIL_MSHR_ENTRY: case WS_FAIL_MSHR_MERGE: return SM_HZ_MSHR;
    case WS_FAIL_MISS_QUEUE: return SM_HZ_COMQ;
    default: return SM_HZ_N;
    }
}

static inline void sm_hazard(ws_sm *sm, unsigned kind) {
    if (kind < SM_HZ_N) sm->st.hazard[kind]++;
}

const char *sm_hazard_name(unsigned kind);

#endif
