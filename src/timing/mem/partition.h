/* A memory partition: one DRAM channel (dram.c) and its L2 sub-partitions.
 * Each sub-partition has an input queue from the interconnect, the ROP
 * delay (-gpgpu_l2_rop_latency), an L2 slice (cache.c; write-back, with
 * the write-allocate policy of its cache string), queues towards and from
 * DRAM (-gpgpu_dram_partition_queues) and a reply queue to the
 * interconnect. The channel's DRAM serves the misses of its sub-partitions.
 * L2 work is ticked at the L2 clock, DRAM at the DRAM clock. */
#ifndef WARPSIM_TIMING_MEM_PARTITION_H
#define WARPSIM_TIMING_MEM_PARTITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "stats/catalog.h"
#include "timing/mem/cache.h"
#include "timing/mem/mreq.h"

/* Running totals of the channel (all its sub-partitions). Every field is a
 * uint64_t (the GPU subtracts snapshots field by field). With a sectored
 * L2 the L2 counts are per 32 B sector access, as GPGPU-Sim's. */
typedef struct ws_mempart_stats {
    uint64_t l2_access[2][WS_CACHE_NSTATUS]; /* [read/write][ws_cache_status] */
    uint64_t l2_by_access[WS_MA_COUNT][WS_CACHE_NSTATUS]; /* the same by ws_mem_access */
    uint64_t l2_fail[WS_FAIL_NKINDS];        /* by ws_fail_kind */
    uint64_t dram_reads, dram_writes, dram_row_hits, dram_row_misses;
    uint64_t dram_cycles, dram_busy_data_cycles, dram_n_cmd, dram_n_nop, dram_n_act, dram_n_pre;
    uint64_t stall_dram_full;     /* L2 could not send to DRAM */
    uint64_t l2_mshr_hits, l2_writebacks, l2_fills;
    uint64_t reqs_in, replies_out;           /* icnt side, packets */
    uint64_t dram_n_activity, dram_reqs;     /* DRAM cycles with work; requests served */
    uint64_t l2_bypass;           /* requests sent straight to DRAM (texture-only L2) */
} ws_mempart_stats;

/* Every ws_mempart_stats counter (per-kernel differences iterate these). */
extern const ws_counter_decl ws_mempart_counters[];
extern const size_t ws_mempart_ncounters;

typedef struct ws_mempart ws_mempart;

ws_mempart *ws_mempart_create(const ws_config *cfg, uint32_t chan, ws_mreq_pool *pool, char *err,
                              size_t errlen);
void ws_mempart_destroy(ws_mempart *p);
uint32_t ws_mempart_nsub(const ws_mempart *p);

/* Sub-partition k (0..nsub-1) of this channel: requests from the icnt
   (ws_subpart_full, below: can it take one now?). */
void ws_subpart_push(ws_mempart *p, uint32_t k, ws_mreq *r, uint64_t now);
/* Replies (and write acknowledgements) ready for the icnt, oldest first:
   ws_subpart_top and ws_subpart_pop, below. */
/* What the GPU's serial steps read for every partition or sub-partition
   every cycle, read without a call: the partition's first member. How many
   sub-partitions are full (ws_subpart_full) and how many replies wait in
   them together (0: every top is NULL), as of the last L2 cycle, texture
   push or pop (nothing else changes them); each one's fullness and reply
   queue; and what the inline steps below test and count. */
typedef struct ws_mempart_scan {
    uint32_t n_replies, n_full;
    /* Every sub-partition was quiet at the last L2 cycle that looked: the
       L2 step is passed by (ws_mempart_l2_cycle, inline) until the first
       ROP head is due, unless a request is given to the partition or enters
       a sub-partition, or a DRAM reply its DRAM->L2 queue first (each sets
       it back to 0). Nothing else changes what the quiet test reads. */
    uint64_t l2_quiet_until;
    uint64_t l2_now;         /* last L2 cycle (kernel-boundary flushes start there) */
    /* requests moved, and their count at the start of the last L2 cycle
       but one (moves_a) and of the last (moves_b): moved in the last L2
       cycle or since (ws_mempart_progressed) is moves != moves_a, as the
       count only grows */
    uint64_t moves, moves_a, moves_b;
    uint32_t n_full_now;     /* sub-partitions whose `full` is set (n_full: as published) */
    ws_mreq_fifo *l2_icnt;   /* per sub-partition: its L2->icnt (reply) queue */
    bool *full;              /* per sub-partition: ws_subpart_full */
    uint64_t replies_out;    /* ws_mempart_stats.replies_out */
    /* The DRAM side has nothing to do before this core cycle (nothing held,
       queued or due, a settled idle channel): ws_mempart_dram_cycles only
       counts its cycles, without a call. 0 when it must look. */
    uint64_t dram_until;
    uint64_t dram_now;       /* DRAM command cycles (a settled channel's owed ones included) */
} ws_mempart_scan;
static inline uint32_t ws_mempart_full_count(const ws_mempart *p) {
    return ((const ws_mempart_scan *)(const void *)p)->n_full;
}
static inline uint32_t ws_mempart_replies(const ws_mempart *p) {
    return ((const ws_mempart_scan *)(const void *)p)->n_replies;
}
static inline bool ws_subpart_full(const ws_mempart *p, uint32_t k) {
    return ((const ws_mempart_scan *)(const void *)p)->full[k];
}
static inline ws_mreq *ws_subpart_top(ws_mempart *p, uint32_t k) {
    return ((ws_mempart_scan *)(void *)p)->l2_icnt[k].head;
}
static inline void ws_subpart_pop(ws_mempart *p, uint32_t k) {
    ws_mempart_scan *s = (ws_mempart_scan *)(void *)p;
    if (ws_mreq_fifo_pop(&s->l2_icnt[k])) {
        s->n_replies--;
        s->replies_out++;
        s->moves++;
    }
}

/* `now` is the core-cycle count for both: GPGPU-Sim times the ROP delay
 * and -dram_latency in core cycles whatever clock ticks the unit (the DRAM
 * model counts its own command cycles). */
/* L2-clock work of every sub-partition (ROP queue, L2 access, fills):
   ws_mempart_l2_cycle, whose quiet cycles are counted inline (the GPU calls
   it for every partition every cycle), and ws_mempart_l2_steps, the rest. */
void ws_mempart_l2_steps(ws_mempart *p, uint64_t now);
static inline void ws_mempart_l2_cycle(ws_mempart *p, uint64_t now) {
    ws_mempart_scan *s = (ws_mempart_scan *)(void *)p;
    if (now < s->l2_quiet_until) { /* what ws_mempart_l2_steps does then, without a call */
        s->l2_now = now;
        if (s->moves != s->moves_a) { /* (else all three are equal: nothing to shift) */
            s->moves_a = s->moves_b;
            s->moves_b = s->moves;
        }
        /* (n_full is n_full_now here: whatever changes the latter publishes
           it at once or sets l2_quiet_until to 0) */
        return;
    }
    ws_mempart_l2_steps(p, now);
}
/* DRAM-clock work (scheduler, commands, returns). */
void ws_mempart_dram_cycle(ws_mempart *p, uint64_t now);
/* n DRAM cycles with the same `now` (n may be 0): ws_mempart_dram_cycle n
   times, the idle ones at once. */
void ws_mempart_dram_steps(ws_mempart *p, uint64_t now, uint32_t n);
static inline void ws_mempart_dram_cycles(ws_mempart *p, uint64_t now, uint32_t n) {
    ws_mempart_scan *s = (ws_mempart_scan *)(void *)p;
    if (now < s->dram_until) { /* (ws_mempart_dram_steps would count them so) */
        s->dram_now += n;
        return;
    }
    ws_mempart_dram_steps(p, now, n);
}
/* Kernel boundary: flush/invalidate L2 when -gpgpu_flush_l2_cache. */
void ws_mempart_kernel_done(ws_mempart *p);

/* -gpgpu_perf_sim_memcpy: a host-to-device copy leaves its data in L2.
 * Marks the 32 B sector (line, if not sectored) of addr valid in the L2 of
 * its sub-partition, without traffic; addr must belong to this channel
 * (ws_addrdec_decode(...).chan). */
void ws_mempart_memcpy_fill(ws_mempart *p, uint64_t addr, uint64_t now);
/* The same for an address that the caller decoded already (with the
 * configuration's address decoder: d->addr, chan, subpart, part_addr). */
void ws_mempart_memcpy_fill_decoded(ws_mempart *p, const ws_mreq *d, uint64_t now);
/* The L2 slice of sub-partition k (per-bank stats: L2_cache_bank[i]). */
const ws_cache *ws_subpart_l2(const ws_mempart *p, uint32_t k);
/* The same slice, for setting its bypass mode between cycles (policy epochs). */
ws_cache *ws_subpart_l2_ctl(ws_mempart *p, uint32_t k);

bool ws_mempart_busy(const ws_mempart *p);
/* Did a request move in the last L2 cycle or since? (Inline: the GPU asks
   every partition every cycle in which no SM moved.) */
static inline bool ws_mempart_progressed(const ws_mempart *p) {
    const ws_mempart_scan *s = (const ws_mempart_scan *)(const void *)p;
    return s->moves != s->moves_a;
}
/* Tests: step without the shortcuts (the L2 step passed by while every
   sub-partition is quiet, a quiet sub-partition passed by until its ROP head
   is due, a settled idle DRAM channel's cycles counted apart), to compare
   with. */
void ws_mempart_set_plain(ws_mempart *p, bool on);
void ws_mempart_describe(const ws_mempart *p, char *buf, size_t len);
const ws_mempart_stats *ws_mempart_get_stats(const ws_mempart *p);

#endif
