/* The WCET timing model of GPU kernels (Huangfu, "Improving the Performance
 * and Time-Predictability of GPUs", Ch. 5): pure round-robin warp
 * scheduling, each warp's execution trace cut into code segments, and the
 * issue/execution latencies of Eqs. 5.1-5.7, with N_coal and N_CompetingSM
 * taken as the kernel's average (soft real time) or maximum (hard).
 *
 * Extensions where the text is silent (docs/wcet.md):
 *  - code segments are greedy: a segment ends before an instruction that
 *    reads or rewrites a register written in it, and after a branch, a
 *    barrier or an exit; LI = size + the instructions' stalls, LE = the
 *    largest execution latency in it;
 *  - the round-robin walk skips warps that have no segment left or wait at
 *    a barrier; a warp's first segment after a barrier starts no earlier
 *    than every warp of its block has completed its segment before it;
 *  - blocks go to SMs statically (block b on SM b mod S) in waves of
 *    max_cta blocks run one after another; the kernel's bound is the
 *    largest over SMs. */
#ifndef WARPSIM_ANALYSIS_WCET_H
#define WARPSIM_ANALYSIS_WCET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/kanalyze.h"
#include "config/config.h"

/* ---- Eqs. 5.4-5.7 ---- */
typedef struct ws_wcet_unit {
    uint32_t c_pipeline;   /* instructions its pipeline holds before issue stalls */
    uint32_t length;       /* pipeline depth (memory: before the interconnect) */
} ws_wcet_unit;

/* LI_inst and LE_inst of an arithmetic instruction with N active warps. */
uint64_t ws_wcet_li_arith(const ws_wcet_unit *u, uint32_t n_warps, uint32_t l_init);
uint64_t ws_wcet_le_arith(const ws_wcet_unit *u, uint32_t l_init, uint32_t l_exec);
/* ... of a global memory instruction. */
uint64_t ws_wcet_li_mem(const ws_wcet_unit *u, uint32_t n_warps, uint32_t ncoal, uint32_t ncomp);
uint64_t ws_wcet_le_mem(const ws_wcet_unit *u, uint64_t l_base, uint32_t ncoal, uint32_t ncomp);

/* ---- Eqs. 5.1-5.3 ---- */
typedef struct ws_wcet_seg {
    uint64_t li, le;
    bool bar;              /* the segment ends at a barrier */
} ws_wcet_seg;

typedef struct ws_wcet_warp {
    const ws_wcet_seg *seg;
    size_t nseg;
    uint32_t group;        /* warps of one block share barriers */
} ws_wcet_warp;

/* Pure round robin over warps 0..n-1 from cycle `start`: the cycle the last
   one completes. */
uint64_t ws_wcet_rr(const ws_wcet_warp *w, unsigned n, uint64_t start);

/* ---- N_coal and N_CompetingSM ---- */
/* N_coal over every global access (Table 2): max, and the mean rounded up. */
void ws_wcet_ncoal(const uint32_t *n, size_t count, uint32_t *max, uint32_t *avg_ceil);
/* Alg. 6's distances: of a partition-access vector normalised by its mean
   from [1..1], and between two normalised vectors. */
double ws_wcet_d2center(const double *v, unsigned p);
double ws_wcet_d2vector(const double *a, const double *b, unsigned p);

/* Cache-aware latencies (Ch. 6, Sec. 6.5): a warp's global access whose
   every 128 B block is a sure LLC hit from its SM (hit_lines: sorted
   WS_LLC_HIT_KEY keys of the Access Interval analysis) is charged the
   profiled longest latency of LLC hits, any other memory instruction the
   longest of LLC misses, in place of L_base. */
typedef struct ws_wcet_llc {
    const uint64_t *hit_lines;
    size_t nhit;
    uint64_t l_hit, l_miss;
    /* access-interval throttling: the profiled largest total time an SM's
       requests were held for the next interval, added to the bound (a held
       SM goes on computing, so the hold stretches its timeline by at most
       that); 0: no throttling */
    uint64_t held;
} ws_wcet_llc;

typedef struct ws_wcet_model {
    ws_wcet_unit sp, sfu, mem;
    uint64_t l_base;       /* base latency of a global access (perfect memory: 1) */
    uint32_t smem_lat;     /* shared-memory latency */
    int64_t lat_int[5], ii_int[5], lat_fp[5], ii_fp[5], lat_dp[5], ii_dp[5];
    uint32_t lat_sfu, ii_sfu;
    bool perfect_memory;   /* requests take one cycle, no competing SMs */
    unsigned n_sms, max_cta;
    double t_competing, t_d2center; /* Alg. 6 thresholds (13, 0.5) */
    const ws_wcet_llc *llc;  /* cache-aware latencies, or NULL (L_base for all) */
} ws_wcet_model;

/* The model for a warpsim configuration: latencies, collectors, SMs. 0, or
   -1 and err. l_base: the base global-memory latency to charge. */
int ws_wcet_model_from_config(ws_wcet_model *m, const ws_config *cfg, uint64_t l_base,
                              unsigned max_cta, char *err, size_t errlen);

typedef struct ws_wcet_result {
    uint32_t ncoal_max, ncoal_avg;   /* avg rounded up */
    uint32_t ncomp_max, ncomp_avg;   /* active SMs - 1; Alg. 6 rounded up */
    uint64_t bound[2][2];            /* [N_coal max?][N_CompetingSM max?] */
    uint64_t hit_acc;                /* cache-aware: warps' global accesses charged the LLC-hit
                                        latency (of r->nacc) */
} ws_wcet_result;

/* Bounds of an analyzed kernel (r->ok) with all four parameter choices.
   cfg gives the address mapping for Alg. 6. 0, or -1 and err. */
int ws_wcet_kernel(const ws_ka_result *r, const ws_module *mod, const ws_wcet_model *m,
                   const ws_config *cfg, ws_wcet_result *out, char *err, size_t errlen);

#endif
