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
 * The shared-memory pipeline (sm_inst pointers) keeps the moving form: with a bit
 * mask of the valid slots (pipelines of at most 64 slots), a cycle whose pipeline
 * is empty or packed from the head touches nothing. It is a ring: slot i (0 = the
 * head) is smem_pipe[(smem_base + i) mod smem_lat]. When the head is empty (e =
 * 0) every entry moves: the base moves by one and nothing is copied; otherwise
 * either the entries above e are copied down, or the base moves and the e entries
 * below the gap are copied back, whichever copies fewer. Pipelines longer than 64
 * slots keep the slot-by-slot loop with the base at 0. */
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

/* The mask's new value after the move-up: bits below the first clear bit
   stay, the bits above it move down by one. */
static inline uint64_t sm_lq_mask_shift(uint64_t v) {
    if (!~v) return v; /* all 64 slots full */
    unsigned e = (unsigned)__builtin_ctzll(~v);
    uint64_t low = (1ull << e) - 1;
    return (v & low) | ((v >> 1) & ~low);
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

/* The shared-memory pipeline: its full slots are counted (smem_n) and, when it
   has at most 64 slots, named by smem_m; it is then a ring as the L1 queue
   (slot i is smem_pipe[(smem_base + i) mod smem_lat], NULL when empty), moved
   the same way. */
static inline sm_inst **sm_smem_at(const ws_sm *sm, unsigned i) {
    return &sm->smem_pipe[sm_lq_at(sm->smem_base, i, sm->smem_lat)];
}

/* Is slot i (0: the head, smem_lat - 1: the tail) full? Read from the mask where
   there is one. */
static inline bool sm_smem_full(const ws_sm *sm, unsigned i) {
    if (!sm->smem_n) return false;
    return sm->smem_lat <= 64 ? (sm->smem_m >> i & 1) != 0 : sm->smem_pipe[i] != NULL;
}

static void sm_smem_shift_move(ws_sm *sm, uint64_t v) {
    sm_inst **p = sm->smem_pipe;
    unsigned lat = sm->smem_lat, e = (unsigned)__builtin_ctzll(~v), b0 = sm->smem_base;
    uint64_t above = v & ~((2ull << e) - 1); /* the entries that move */
    if (!e || e <= ws_popc64(above)) {
        /* everything moves down one; slots 0..e-1 take their entries back */
        unsigned b1 = b0 + 1 == lat ? 0 : b0 + 1;
        for (unsigned j = e; j-- > 0;) p[sm_lq_at(b1, j, lat)] = p[j ? sm_lq_at(b1, j - 1, lat) : b0];
        p[b0] = NULL; /* the old head's place, now the tail slot (empty when e = 0) */
        sm->smem_base = b1;
    } else {
        for (uint64_t mv = above; mv; mv &= mv - 1) {
            unsigned j = (unsigned)__builtin_ctzll(mv);
            p[sm_lq_at(b0, j - 1, lat)] = p[sm_lq_at(b0, j, lat)];
            p[sm_lq_at(b0, j, lat)] = NULL;
        }
    }
    sm->smem_m = sm_lq_mask_shift(v);
}

static inline void sm_smem_shift(ws_sm *sm) {
    if (!sm->smem_n) return;
    if (sm->smem_lat > 64) {
        sm_inst **p = sm->smem_pipe;
        for (unsigned i = 0; i + 1 < sm->smem_lat; i++)
            if (!p[i] && p[i + 1]) {
                p[i] = p[i + 1];
                p[i + 1] = NULL;
            }
        return;
    }
    uint64_t v = sm->smem_m;
    if (v & (v + 1)) sm_smem_shift_move(sm, v); /* not packed from the head */
}

/* in enters the pipeline's last slot (the caller saw it empty). */
static inline void sm_smem_push(ws_sm *sm, sm_inst *in) {
    *sm_smem_at(sm, sm->smem_lat - 1) = in;
    sm->smem_n++;
    if (sm->smem_lat <= 64) sm->smem_m |= 1ull << (sm->smem_lat - 1);
}

/* The head slot is taken out (the caller saw it full). */
static inline sm_inst *sm_smem_pop(ws_sm *sm) {
    sm_inst **h = sm_smem_at(sm, 0);
    sm_inst *in = *h;
    *h = NULL;
    sm->smem_n--;
    sm->smem_m &= ~1ull;
    return in;
}

#endif
