/* Heterogeneous memory (-hm_enable): what the GPU adds to its memory system
 * for a second memory node. It owns the page table (mem/pages.h, which the
 * SMs consult for every global access) and the CPU memory node
 * (mem/cpumem.h) behind its CPU-link ports on the interconnect, moves
 * requests and replies between those ports and the node, and keeps the
 * per-node statistics: accesses, bytes, bandwidth and a latency histogram
 * (creation to reply at the SM) for each node, and pages per node. */
#ifndef WARPSIM_TIMING_HMEM_H
#define WARPSIM_TIMING_HMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "policy/page/page.h"
#include "stats/catalog.h"
#include "stats/report.h"
#include "timing/mem/icnt.h"
#include "timing/mem/pages.h"

typedef struct ws_hmem ws_hmem;

/* The GPU memory's peak bandwidth from the DRAM configuration, GB/s. */
double ws_hmem_gpu_peak_bw(const ws_config *c, double dram_mhz);

/* port0: the interconnect node of the first CPU-link port (the ports follow it). */
ws_hmem *ws_hmem_create(const ws_config *c, double core_mhz, double dram_mhz, uint32_t port0,
                        char *err, size_t errlen);
void ws_hmem_destroy(ws_hmem *h);
ws_pages *ws_hmem_pages(ws_hmem *h);
uint32_t ws_hmem_ports(const ws_hmem *h);

/* Requests at the ports into the CPU node (L2 clock), the node's cycle and
   its replies into the interconnect (core / interconnect clocks). */
void ws_hmem_from_icnt(ws_hmem *h, ws_icnt *n, uint64_t now);
void ws_hmem_cycle(ws_hmem *h, uint64_t now);
void ws_hmem_to_icnt(ws_hmem *h, ws_icnt *n, uint32_t flit, uint64_t now);
bool ws_hmem_busy(const ws_hmem *h);
/* A data reply reaches its SM at now: count it for its node. */
void ws_hmem_reply(ws_hmem *h, const ws_mreq *r, uint64_t now);

/* Mean read latencies so far (the model's L2 hit, GPU memory beyond the L2 and CPU
   memory latencies; 0 where nothing was measured) into c. */
void ws_hmem_latencies(const ws_hmem *h, ws_page_counters *c);

/* Kernel boundaries; the kernel's stats into ks. */
void ws_hmem_kernel_start(ws_hmem *h);
void ws_hmem_add_stats(ws_hmem *h, ws_kernel_stats *ks, uint64_t cycles, double core_mhz);

/* The placement policy's sampling period in core cycles (0: none) and a
   sample of the counters; its current GPU page fraction. */
uint64_t ws_hmem_period(const ws_hmem *h);
void ws_hmem_sample(ws_hmem *h, const ws_page_counters *c);
double ws_hmem_gpu_ratio(const ws_hmem *h);

extern const ws_stat_table ws_hmem_stat_table;

#endif
