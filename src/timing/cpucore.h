/* The CPU core of an integrated CPU-GPU chip as a source of traffic to the
 * shared LLC (Huangfu, "Improving the Performance and Time-Predictability
 * of GPUs", Ch. 6: 15 SMs and one CPU core share the data LLC). Its own
 * caches are not modelled: what it sends are the line accesses that leave
 * its L1, taken from a trace file or made by a synthetic generator.
 *
 * Model, in core cycles (the chip's CPU and GPU clocks are equal):
 *  - an access is due at its cycle (trace) or at k / rate (generator); the
 *    core sends at most one per cycle, in order, while it has fewer than
 *    -cpu_llc_mshr accesses outstanding and the GPU has work (between
 *    kernels time does not pass; after the last CTA the core waits);
 *  - a sent access travels -cpu_llc_latency cycles over the core's own
 *    port to its L2 slice (not over the GPU's interconnect), enters the
 *    slice beside the interconnect's requests (one per slice per L2 cycle,
 *    after the GPU's), and its reply takes -cpu_llc_latency cycles back;
 *  - reads are 128 B line reads, writes 128 B line write-backs (full-line
 *    writes: the L2 needs no fill for them); both are answered, and both
 *    count as accesses, hits (the L2 hit every sector at once) or misses,
 *    and in the latency (send to reply).
 * Deterministic: the generator's pseudo-random stream comes from
 * -cpu_llc_seed alone.
 *
 * Trace file (version 1): a first line "warpsim-cpu-llc-trace 1", then one
 * access a line, "CYCLE ADDRESS R|W": the core cycle of the run at which it
 * is due (non-decreasing), its byte address (decimal or 0x hex; the line
 * holding it is accessed), R for a read or W for a write. '#' starts a
 * comment; blank lines are skipped. A malformed line is refused before the
 * run with its file, line number and what was expected. */
#ifndef WARPSIM_TIMING_CPUCORE_H
#define WARPSIM_TIMING_CPUCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "stats/catalog.h"
#include "stats/report.h"
#include "timing/mem/addrdec.h"
#include "timing/mem/mreq.h"

typedef struct ws_cpucore ws_cpucore;

/* One access of a trace. */
typedef struct ws_cpu_access {
    uint64_t cycle, addr;
    bool write;
} ws_cpu_access;

/* Parse a version-1 trace held in text (name: for messages). 0 and *out
   (malloc'ed, *n entries), or -1 and err naming the line. */
int ws_cpu_trace_parse(const char *text, const char *name, ws_cpu_access **out, size_t *n,
                       char *err, size_t errlen);

/* NULL with err[0] == 0 when no CPU source is configured (-cpu_llc_source
   none); NULL and err on a bad trace or setting. id: the core's number in
   requests (r->sm) and in the LLC access trace: the SM count. */
ws_cpucore *ws_cpucore_create(const ws_config *cfg, uint16_t id, ws_mreq_pool *pool,
                              const ws_addrdec *ad, char *err, size_t errlen);
void ws_cpucore_destroy(ws_cpucore *c);
void ws_cpucore_kernel_start(ws_cpucore *c);

/* The access the core would send at cycle now, or NULL (none due, all its
   MSHRs in use, or gpu_working false). It stays the core's until popped. */
ws_mreq *ws_cpucore_peek(ws_cpucore *c, uint64_t now, bool gpu_working);
/* The peeked access leaves for its slice. */
void ws_cpucore_pop(ws_cpucore *c, uint64_t now);
/* A due access that could not be sent this cycle (a quota or its MSHRs). */
void ws_cpucore_stalled(ws_cpucore *c);
/* The access at the slice end of the port by now, or NULL; take it with
   ws_cpucore_port_pop once its slice has room. */
ws_mreq *ws_cpucore_port_top(const ws_cpucore *c, uint64_t now);
void ws_cpucore_port_pop(ws_cpucore *c);
/* The L2 answered r (a reply addressed to the core). */
void ws_cpucore_reply(ws_cpucore *c, ws_mreq *r, uint64_t now);
/* Replies that have crossed the port by now complete (once per core cycle). */
void ws_cpucore_cycle(ws_cpucore *c, uint64_t now);
/* Accesses in flight (port, L2 or reply path). */
bool ws_cpucore_busy(const ws_cpucore *c);
/* Has the core accesses left to send (the Access Interval's "active")? */
bool ws_cpucore_has_work(const ws_cpucore *c);
uint16_t ws_cpucore_id(const ws_cpucore *c);

/* Running totals since the core was created. */
typedef struct ws_cpucore_counts {
    uint64_t acc, rd, wr, hit, miss, lat_sum, stall;
} ws_cpucore_counts;
const ws_cpucore_counts *ws_cpucore_counts_get(const ws_cpucore *c);

extern const ws_stat_table ws_cpucore_stat_table;
/* This kernel's CPU statistics into ks. */
void ws_cpucore_add_stats(ws_cpucore *c, ws_kernel_stats *ks);

#endif
