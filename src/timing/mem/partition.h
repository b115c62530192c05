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
#include "timing/mem/mreq.h"

/* Running totals, every field a uint64_t (the GPU subtracts snapshots). */
typedef struct ws_mempart_stats {
    uint64_t l2_access[2][4];     /* [read/write][hit, hit_reserved, miss, reservation_fail] */
    uint64_t l2_fail[4];          /* by ws_fail_kind */
    uint64_t dram_reads, dram_writes, dram_row_hits, dram_row_misses;
    uint64_t dram_cycles, dram_busy_data_cycles, dram_n_cmd, dram_n_nop, dram_n_act, dram_n_pre;
    uint64_t stall_dram_full;     /* L2 could not send to DRAM */
} ws_mempart_stats;

typedef struct ws_mempart ws_mempart;

ws_mempart *ws_mempart_create(const ws_config *cfg, uint32_t chan, ws_mreq_pool *pool, char *err,
                              size_t errlen);
void ws_mempart_destroy(ws_mempart *p);
uint32_t ws_mempart_nsub(const ws_mempart *p);

/* Sub-partition k (0..nsub-1) of this channel: requests from the icnt. */
bool ws_subpart_full(const ws_mempart *p, uint32_t k);
void ws_subpart_push(ws_mempart *p, uint32_t k, ws_mreq *r, uint64_t now);
/* Replies (and write acknowledgements) ready for the icnt, oldest first. */
ws_mreq *ws_subpart_top(ws_mempart *p, uint32_t k);
void ws_subpart_pop(ws_mempart *p, uint32_t k);

/* L2-clock work of every sub-partition (ROP queue, L2 access, fills). */
void ws_mempart_l2_cycle(ws_mempart *p, uint64_t now);
/* DRAM-clock work (scheduler, commands, returns). */
void ws_mempart_dram_cycle(ws_mempart *p, uint64_t now);
/* Kernel boundary: flush/invalidate L2 when -gpgpu_flush_l2_cache. */
void ws_mempart_kernel_done(ws_mempart *p);

bool ws_mempart_busy(const ws_mempart *p);
bool ws_mempart_progressed(const ws_mempart *p);
void ws_mempart_describe(const ws_mempart *p, char *buf, size_t len);
const ws_mempart_stats *ws_mempart_get_stats(const ws_mempart *p);

#endif
