/* The CPU memory node of a heterogeneous-memory GPU (-hm_enable): a
 * CPU-link port on the interconnect (one more destination beside the L2
 * sub-partitions), the link itself and the CPU's memory channels.
 *
 * Model, in core cycles (bandwidths in bytes per core cycle):
 *  - link: one queue each way; a packet (data + 8 B header, as on the
 *    interconnect) occupies its direction for bytes / link bandwidth, then
 *    takes half the round-trip latency -hm_link_latency;
 *  - channels: pages are interleaved over the channels by 256 B of the CPU
 *    physical address; a channel serves its requests in order, each for
 *    data bytes / channel bandwidth, and the data is ready -hm_cpu_latency
 *    later (a bandwidth-latency model: no banks or rows);
 *  - replies (data for reads and atomics, an acknowledgement for writes)
 *    go back over the link in the order the channels finish them.
 * Nothing here is cached: the selective-caching rule keeps CPU pages out of
 * the L1D and the L2. At most -hm_cpu_queue requests are held at once; the
 * port refuses more (the interconnect backs up). */
#ifndef WARPSIM_TIMING_MEM_CPUMEM_H
#define WARPSIM_TIMING_MEM_CPUMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing/mem/mreq.h"

typedef struct ws_cpumem_cfg {
    uint32_t channels;
    double chan_bpc;          /* one channel's bytes per core cycle */
    double link_bpc;          /* the link's bytes per core cycle, each direction */
    uint64_t mem_latency;     /* core cycles */
    uint64_t link_latency;    /* core cycles per round trip */
    uint32_t queue;           /* requests held at once */
} ws_cpumem_cfg;

/* Running totals. */
typedef struct ws_cpumem_stats {
    uint64_t reads, writes;         /* requests served (atomics count as reads) */
    uint64_t data_bytes;            /* data moved to or from the channels */
    uint64_t link_bytes[2];         /* packet bytes over the link: to the CPU, back */
    uint64_t chan_busy;             /* channel-cycles moving data (summed over channels) */
} ws_cpumem_stats;

typedef struct ws_cpumem ws_cpumem;

ws_cpumem *ws_cpumem_create(const ws_cpumem_cfg *cfg, char *err, size_t errlen);
void ws_cpumem_destroy(ws_cpumem *m);
/* Can the port take another request? */
bool ws_cpumem_full(const ws_cpumem *m);
/* A request arrives at the port at core cycle now. r->part_addr: its CPU
   physical address (channel interleaving). */
void ws_cpumem_push(ws_cpumem *m, ws_mreq *r, uint64_t now);
/* Channels that finished hand their replies to the link (call once per core cycle). */
void ws_cpumem_cycle(ws_cpumem *m, uint64_t now);
/* The reply that has crossed the link by now, if any (pop takes it). */
ws_mreq *ws_cpumem_top(const ws_cpumem *m, uint64_t now);
void ws_cpumem_pop(ws_cpumem *m);
bool ws_cpumem_busy(const ws_cpumem *m);
uint32_t ws_cpumem_held(const ws_cpumem *m);
const ws_cpumem_stats *ws_cpumem_get_stats(const ws_cpumem *m);

#endif
