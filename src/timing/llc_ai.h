/* The shared LLC as a time-predictable resource (Huangfu, "Improving the
 * Performance and Time-Predictability of GPUs", Ch. 6): the access-interval
 * throttling hardware and the recording of every core's LLC accesses.
 *
 * -llc_access_interval Q: each core (every SM, and the CPU core of
 * -cpu_llc_source) may send at most Q LLC accesses (reads, writes,
 * write-backs, instruction fetches) per interval; a per-core counter holds
 * its path to the LLC at Q. The coordinator starts the next interval when
 * every active core (an SM with resident work, the CPU core with accesses
 * left to send) has sent Q and every counted access has been accepted by its L2 slice,
 * so all accesses of interval k reach the LLC before any of k + 1 and the
 * n-th access of an SM is in interval n / Q: what the Access Interval
 * analysis (analysis/llc.h) assumes.
 * -llc_access_trace FILE: after every kernel, each core's LLC accesses in
 * the order it sent them: lines "KERNEL CORE LINE-ADDRESS SET" (the CPU
 * core is core number = the SM count), SET being
 * the global set (slice x sets per slice + set in the slice), for
 * `warpsim llc-analyze`. */
#ifndef WARPSIM_TIMING_LLC_AI_H
#define WARPSIM_TIMING_LLC_AI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "timing/mem/mreq.h"
#include "timing/sm/sm.h"

typedef struct ws_llc_ai ws_llc_ai;

/* NULL with err[0] == 0 when neither option is on; NULL and err on a bad
   path. Cores 0..n_sms-1 are the SMs; n_cpu more (the CPU core, numbered
   n_sms) follow them, in the quota and in the trace. */
ws_llc_ai *ws_llc_ai_create(const ws_config *cfg, unsigned n_sms, unsigned n_cpu, char *err,
                            size_t errlen);
void ws_llc_ai_destroy(ws_llc_ai *a);
void ws_llc_ai_kernel_start(ws_llc_ai *a);
/* May core sm (an SM, or the CPU core) send r now? */
bool ws_llc_ai_may_send(const ws_llc_ai *a, unsigned sm, const ws_mreq *r);
/* Core sm sent r (to global LLC set `set`). */
void ws_llc_ai_sent(ws_llc_ai *a, unsigned sm, const ws_mreq *r, uint64_t set);
/* An L2 slice accepted r. */
void ws_llc_ai_accepted(ws_llc_ai *a, const ws_mreq *r);
/* The coordinator, once per core cycle. cpu_active: the CPU core has
   accesses left to send (it is waited for like an SM with work). */
void ws_llc_ai_cycle(ws_llc_ai *a, ws_sm *const *sms, bool cpu_active);
/* At a kernel's end: append its trace (-llc_access_trace); with
   -warpsim_analyze, first predict its sure LLC hits (ws_llc_ai_hit_lines).
   0, or -1 and err. */
int ws_llc_ai_write(ws_llc_ai *a, uint64_t kernel, char *err, size_t errlen);
/* The last kernel's (line, SM) pairs, as sorted WS_LLC_HIT_KEY keys, whose
   every access from that SM surely hit in the LLC by the Access Interval
   analysis of the recorded accesses of every core (the Simple analysis
   without throttling); false when not predicted (a NULL a, no
   -warpsim_analyze, more than 256 SMs, out of memory). */
bool ws_llc_ai_hit_lines(const ws_llc_ai *a, const uint64_t **lines, size_t *n);
uint64_t ws_llc_ai_intervals(const ws_llc_ai *a);
/* Core sm has an access to send but its quota is used. */
void ws_llc_ai_held(ws_llc_ai *a, unsigned sm);
/* The current kernel's largest total, over SMs, of the cycles an SM's
   accesses were held for the next interval (0: no throttling), and the
   quota. */
uint64_t ws_llc_ai_most_held(const ws_llc_ai *a);
unsigned ws_llc_ai_quota(const ws_llc_ai *a);

#endif
