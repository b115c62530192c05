/* Profile-based L1D bypassing (Huangfu and Zhang, "Profiling-Based L1 Data
 * Cache Bypassing to Improve GPU Performance and Energy Efficiency", and the
 * dissertation "Improving the Performance and Time-Predictability of GPUs",
 * Ch. 3).
 *
 * Pass 1 (-l1d_bypass_profile FILE) records, per SM and per 128 B line of
 * global loads, the L1D accesses acc, the allocating misses (fills) and the
 * bytes the warps used (the coalesced transaction's byte mask, or its 32 B
 * sectors with -l1d_bypass_unit sectors). With
 *     U = used / (line * acc)   and   R = (acc - fills) / fills
 * the paper's rule "bypass iff U * (1 + R) < 1" becomes
 *     used < line * fills
 * (the useful bytes are fewer than what the cache fetched), which is the
 * paper's Eq. 3.1 exactly when the line was filled once. The lines chosen
 * are written, per SM, to a versioned text file (format in docs/bypass.md),
 * with the per-SM reuse histograms beside it (FILE.reuse.csv).
 *
 * Pass 2 (-l1d_bypass_list FILE) reads the file; a global load's
 * transaction to a listed line skips the L1D (no lookup, no allocation) and
 * goes down as 32 B sectors, as an uncached access does. */
#ifndef WARPSIM_TIMING_MEM_L1BYPASS_H
#define WARPSIM_TIMING_MEM_L1BYPASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WS_L1BP_VERSION 1
#define WS_L1BP_HIST 16 /* reuse histogram buckets: 0..14 hits, then 15 or more */

/* Eq. 3.1 on the summed form: bypass iff used < line * fills (a line never
   filled, only hit while pending, is kept). */
bool ws_l1bp_rule(uint64_t used_bytes, uint64_t fills, uint32_t line_size);
/* Eq. 3.1 on U and R as the paper writes them: U * (1 + R) < 1. */
bool ws_l1bp_rule_ur(double u, double r);

/* ---- pass 1: one SM's profile ---- */
typedef struct ws_l1prof ws_l1prof;
ws_l1prof *ws_l1prof_create(void);
void ws_l1prof_destroy(ws_l1prof *p);
/* One L1D access (not a reservation fail) of a global load to `line`
   (line-aligned): `used` bytes of it requested; fill: it allocated. false
   when out of host memory. */
bool ws_l1prof_record(ws_l1prof *p, uint64_t line, uint32_t used, bool fill);
/* Lines recorded; and one line's counters by index (0..n-1, any order). */
size_t ws_l1prof_lines(const ws_l1prof *p);
void ws_l1prof_get(const ws_l1prof *p, size_t i, uint64_t *line, uint64_t *acc, uint64_t *fills,
                   uint64_t *used);
/* hist[k]: lines reused (hit) k times, the last bucket k or more. */
void ws_l1prof_histogram(const ws_l1prof *p, uint64_t hist[WS_L1BP_HIST]);

/* Write the bypass list of n SMs to path (and path + ".reuse.csv"); unit is
   "bytes" or "sectors", for the file's header. 0, or -1 and err. */
int ws_l1prof_write(const char *path, ws_l1prof *const *sms, unsigned n, uint32_t line_size,
                    const char *unit, char *err, size_t errlen);

/* ---- pass 2: the lists of every SM ---- */
typedef struct ws_l1blist ws_l1blist;
/* Read path for a GPU of n_sms SMs and line_size-byte L1D lines. NULL and
   err (file:line: what is wrong) on a bad or mismatched file. */
ws_l1blist *ws_l1blist_load(const char *path, unsigned n_sms, uint32_t line_size, char *err,
                            size_t errlen);
void ws_l1blist_destroy(ws_l1blist *b);
bool ws_l1blist_has(const ws_l1blist *b, unsigned sm, uint64_t line);
size_t ws_l1blist_count(const ws_l1blist *b, unsigned sm);

#endif
