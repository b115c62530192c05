/* The LD/ST unit's latency queues (the L1 latency queue of each bank, the
 * shared-memory pipeline) move up every cycle: visiting the slots from the
 * head, an empty slot takes the entry above it. That is the same as: find
 * the first empty slot e; every valid entry above e moves down by one, in
 * ascending order (entry j is copied to j - 1, then j is marked empty);
 * the entries below e stay. With a bit mask of the valid slots (queues of
 * at most 64 slots), a cycle whose queue is empty or packed from the head
 * touches nothing, and otherwise only the entries that move: the same
 * copies in the same order, stale fields of empty slots included
 * (tests/unit/test_speed_paths.c checks it against the loop). */
#ifndef WS_TIMING_SM_LDST_QUEUE_H
#define WS_TIMING_SM_LDST_QUEUE_H

#include <stdint.h>

#include "timing/sm/sm_internal.h"

/* The slot-by-slot loop (queues longer than 64 slots). */
static inline void sm_l1q_shift_loop(sm_l1acc *q, unsigned lat) {
    for (unsigned i = 0; i + 1 < lat; i++)
        if (!q[i].valid && q[i + 1].valid) {
            q[i] = q[i + 1];
            q[i + 1].valid = false;
        }
}

/* The mask's new value after the move-up: bits below the first clear bit
   stay, the bits above it move down by one. */
static inline uint64_t sm_lq_mask_shift(uint64_t v) {
    if (!~v) return v; /* all 64 slots full */
    unsigned e = (unsigned)__builtin_ctzll(~v);
    uint64_t low = (1ull << e) - 1;
    return (v & low) | ((v >> 1) & ~low);
}

/* q's valid slots are the bits of *m (lat <= 64). */
static inline void sm_l1q_shift_mask(sm_l1acc *q, uint64_t *m) {
    uint64_t v = *m;
    if (!(v & (v + 1))) return; /* empty, or packed from the head */
    unsigned e = (unsigned)__builtin_ctzll(~v);
    for (uint64_t mv = v & ~((2ull << e) - 1); mv; mv &= mv - 1) {
        unsigned j = (unsigned)__builtin_ctzll(mv);
        q[j - 1] = q[j];
        q[j].valid = false;
    }
    *m = sm_lq_mask_shift(v);
}

/* The shared-memory pipeline: its full slots are counted (smem_n) and, when it
   has at most 64 slots, named by smem_m. */
static inline void sm_smem_shift(ws_sm *sm) {
    if (!sm->smem_n) return;
    sm_inst **p = sm->smem_pipe;
    if (sm->smem_lat > 64) {
        for (unsigned i = 0; i + 1 < sm->smem_lat; i++)
            if (!p[i] && p[i + 1]) {
                p[i] = p[i + 1];
                p[i + 1] = NULL;
            }
        return;
    }
    uint64_t v = sm->smem_m;
    if (!(v & (v + 1))) return;
    unsigned e = (unsigned)__builtin_ctzll(~v);
    for (uint64_t mv = v & ~((2ull << e) - 1); mv; mv &= mv - 1) {
        unsigned j = (unsigned)__builtin_ctzll(mv);
        p[j - 1] = p[j];
        p[j] = NULL;
    }
    sm->smem_m = sm_lq_mask_shift(v);
}

/* in enters the pipeline's last slot (the caller saw it empty). */
static inline void sm_smem_push(ws_sm *sm, sm_inst *in) {
    sm->smem_pipe[sm->smem_lat - 1] = in;
    sm->smem_n++;
    if (sm->smem_lat <= 64) sm->smem_m |= 1ull << (sm->smem_lat - 1);
}

/* The head slot is taken out (the caller saw it full). */
static inline sm_inst *sm_smem_pop(ws_sm *sm) {
    sm_inst *in = sm->smem_pipe[0];
    sm->smem_pipe[0] = NULL;
    sm->smem_n--;
    sm->smem_m &= ~1ull;
    return in;
}

#endif
