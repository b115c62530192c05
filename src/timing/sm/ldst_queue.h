/* The LD/ST unit's latency queues (the L1 latency queue of each bank, the
 * shared-memory pipeline) move up every cycle: visiting the slots from the
 * head, an empty slot takes the entry above it (sm_l1q_shift_loop). That is
 * the same as: find the first empty slot e; every valid entry above e moves
 * down by one; the entries below e stay.
 *
 * The L1 latency queue follows from that rule without moving anything. Entries
 * never pass each other and one enters a bank's tail (slot lat - 1) per cycle
 * at most, so entry k (0: the oldest) lies in slot max(f, k), where f is the
 * slot it would have reached unhindered (lat - 1 at its entry cycle, one less
 * each cycle since): an entry above the first gap is unhindered, and one in the
 * packed run from the head is at its own index. Hence each bank's queue is a
 * FIFO of at most lat entries (a ring from l1q_base[b], l1q_cnt[b] long), and
 * each entry keeps the cycle from which it is at the head (`ready`: its entry
 * cycle + lat); the head accesses the L1D when that cycle has come; the tail
 * slot is taken when lat entries wait or one entered this cycle. No copies, no
 * masks, and a cycle with nothing at the head costs one test. Only valid entries
 * are read (hazard.c scans the ring's valid flags). tests/unit/test_speed_paths.c
 * runs the FIFO against the slot-by-slot loop.
 *
 * The shared-memory pipeline (-gpgpu_smem_latency slots) moves the same way: a
 * load enters its tail, one a cycle at most, and leaves its head when the
 * writeback takes it; it is a FIFO ring as well (smem_pipe from smem_base,
 * smem_n long), each entry with the cycle from which it is at the head. */
#ifndef WS_TIMING_SM_LDST_QUEUE_H
#define WS_TIMING_SM_LDST_QUEUE_H

#include <stdint.h>

#include "timing/sm/sm_internal.h"
#include "util/bits.h"

/* The slot-by-slot rule (the reference the tests run the FIFO against). */
static inline void sm_l1q_shift_loop(sm_l1acc *q, unsigned lat) {
    for (unsigned i = 0; i + 1 < lat; i++)
        if (!q[i].valid && q[i + 1].valid) {
            q[i] = q[i + 1];
            q[i + 1].valid = false;
        }
}

/* Array index of slot i of a ring of lat entries starting at base. */
static inline unsigned sm_lq_at(unsigned base, unsigned i, unsigned lat) {
    unsigned p = base + i;
    return p >= lat ? p - lat : p;
}

/* Entry k (0: the oldest, the next to reach the head) of bank b's L1 latency queue. */
static inline sm_l1acc *sm_l1q_entry(const ws_sm *sm, unsigned b, unsigned k) {
    return &sm->l1q[b * sm->l1_lat + sm_lq_at(sm->l1q_base[b], k, sm->l1_lat)];
}

/* Bank b's oldest entry when it is at the head this cycle (the L1D sees it), else NULL. */
static inline sm_l1acc *sm_l1q_at_head(const ws_sm *sm, unsigned b) {
    if (!sm->l1q_cnt[b]) return NULL;
    sm_l1acc *h = sm_l1q_entry(sm, b, 0);
    return h->ready <= sm->now ? h : NULL;
}

/* The slot bank b's oldest entry is in after this cycle's move-up (the queue not empty). */
static inline unsigned sm_l1q_first_slot(const ws_sm *sm, unsigned b) {
    uint64_t r = sm_l1q_entry(sm, b, 0)->ready;
    return r > sm->now + 1 ? (unsigned)(r - 1 - sm->now) : 0;
}

/* After this cycle's move-up, are bank b's entries packed from the head (the next
   move-up moves none)? Entry k's unhindered slot minus k grows with k, so the
   newest entry tells. */
static inline bool sm_l1q_packed(const ws_sm *sm, unsigned b) {
    unsigned n = sm->l1q_cnt[b];
    return !n || sm_l1q_entry(sm, b, n - 1)->ready <= sm->now + n;
}

/* Bank b's tail slot when it is free this cycle (lat entries wait, or one entered
   this cycle: NULL); sm_l1q_enter then makes the entry written there the newest. */
static inline sm_l1acc *sm_l1q_free_tail(const ws_sm *sm, unsigned b) {
    unsigned n = sm->l1q_cnt[b];
    if (n == sm->l1_lat || (n && sm_l1q_entry(sm, b, n - 1)->ready == sm->now + sm->l1_lat))
        return NULL;
    return sm_l1q_entry(sm, b, n);
}
static inline void sm_l1q_enter(ws_sm *sm, unsigned b, sm_l1acc *t) {
    t->valid = true;
    t->ready = sm->now + sm->l1_lat;
    sm->l1q_cnt[b]++;
    sm->l1q_n++;
}

/* Bank b's head entry leaves. */
static inline void sm_l1q_leave(ws_sm *sm, unsigned b) {
    sm_l1q_entry(sm, b, 0)->valid = false;
    sm->l1q_base[b] = sm->l1q_base[b] + 1 == sm->l1_lat ? 0 : sm->l1q_base[b] + 1;
    sm->l1q_cnt[b]--;
    sm->l1q_n--;
}

/* The shared-memory pipeline's entry k (0: the oldest). */
static inline sm_smem_ent *sm_smem_entry(const ws_sm *sm, unsigned k) {
    return &sm->smem_pipe[sm_lq_at(sm->smem_base, k, sm->smem_lat)];
}

/* Is the head slot full this cycle (before the move-up: the writeback looks)? */
static inline bool sm_smem_head_full(const ws_sm *sm) {
    return sm->smem_n && sm->smem_pipe[sm->smem_base].ready <= sm->now;
}

/* Is the tail slot taken after this cycle's move-up (every slot full, or a load
   entered this cycle)? */
static inline bool sm_smem_tail_taken(const ws_sm *sm) {
    unsigned n = sm->smem_n;
    return n == sm->smem_lat || (n && sm_smem_entry(sm, n - 1)->ready == sm->now + sm->smem_lat);
}

/* in enters the tail slot (the caller saw it free). */
static inline void sm_smem_push(ws_sm *sm, sm_inst *in) {
    sm_smem_ent *e = sm_smem_entry(sm, sm->smem_n);
    e->in = in;
    e->ready = sm->now + sm->smem_lat;
    sm->smem_n++;
}

/* The head slot is taken out (the caller saw it full). */
static inline sm_inst *sm_smem_pop(ws_sm *sm) {
    sm_inst *in = sm->smem_pipe[sm->smem_base].in;
    sm->smem_base = sm->smem_base + 1 == sm->smem_lat ? 0 : sm->smem_base + 1;
    sm->smem_n--;
    return in;
}

#endif
