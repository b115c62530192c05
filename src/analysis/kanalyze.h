/* The static kernel analyzer (Huangfu, "Improving the Performance and
 * Time-Predictability of GPUs", Alg. 1-3 and 4-5): given a kernel's PTX,
 * its parameter values and its launch shape, it walks every warp of every
 * block through the kernel with the values that are known statically
 * (parameters, thread and block indices, the launch shape, constants),
 * following branches and loops with a post-dominator reconvergence stack,
 * and records each warp's global loads and stores: the coalesced 128 B
 * blocks (Alg. 3) and the memory transactions the LD/ST unit makes.
 *
 * A value loaded from memory (or produced by an operation the analyzer does
 * not evaluate) is unknown. An unknown value that reaches a global address,
 * a branch condition or the guard of a global access makes the kernel not
 * analyzable: the result says which construct, at which PTX line, and where
 * the unknown value came from. The analyzer never guesses. Local memory and
 * calls are refused the same way.
 *
 * Each access gets the reordering key of the warp-based load/store
 * reordering (timing/sm/reorder.c): (barriers passed e, access index n
 * since). ws_ka_l1_sequence orders a kernel's accesses per SM as the
 * Reordering Unit does, and ws_ka_estimate_l1 replays them through an L1D
 * of any configuration: the L1D miss-rate estimator. */
#ifndef WARPSIM_ANALYSIS_KANALYZE_H
#define WARPSIM_ANALYSIS_KANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ptx/ir.h"

/* Warp instructions over all warps of a launch the analyzer follows (their
   traces are kept for the WCET model: 4 bytes each). */
#define WS_KA_MAX_TRACE (256u << 20)

typedef struct ws_ka_access {
    uint32_t pc;          /* instruction index (the paper's PC is 8 x this) */
    uint32_t line;        /* PTX source line */
    char kind;            /* 'L' load, 'S' store */
    uint32_t e, n;        /* reordering key within the warp */
    uint32_t nblk;        /* Alg. 3: distinct 128 B blocks (N_coal) */
    uint32_t ntx;         /* transactions of the LD/ST unit's coalescer */
    size_t at;            /* first of nblk block addresses, then ntx line addresses, in addr[] */
} ws_ka_access;

typedef struct ws_ka_warp {
    uint64_t block;       /* linear block ID */
    uint32_t warp;        /* warp index in the block */
    size_t first, count;  /* its accesses in ws_ka_result.acc */
    size_t tfirst, tcount; /* its execution trace (instruction indices) in ws_ka_result.trace */
} ws_ka_warp;

typedef struct ws_ka_result {
    bool ok;              /* analyzable; else why[] says why */
    char why[400];
    uint32_t grid[3], block[3];
    ws_ka_warp *warps;    /* in block-ID order, then warp index */
    size_t nwarps;
    ws_ka_access *acc;
    size_t nacc;
    uint64_t *addr;
    size_t naddr;
    uint32_t *ldst_pcs;   /* static global ld/st instruction indices (Alg. 1's LDSTPCList) */
    size_t nldst;
    uint32_t ncoal_max;   /* N_coal over every global access of every warp */
    double ncoal_avg;     /* unrounded (the paper rounds it up) */
    bool loop_free;       /* every ld/st PC executed at most once per warp */
    uint32_t *trace;      /* every warp's executed instructions, in order (Alg. 4) */
    size_t ntrace;
    uint32_t func;        /* the kernel (index in the module) */
} ws_ka_result;

typedef struct ws_ka_launch {
    const ws_module *mod;
    uint32_t func;
    uint32_t grid[3], block[3];
    const uint8_t *params;    /* the kernel's parameter buffer (func->param_size bytes) */
    uint64_t max_steps;       /* warp instructions per warp before giving up (0: 50 M) */
} ws_ka_launch;

/* Analyze; the result's ok/why say whether it worked. -1 only when out of
   memory (why says so). Free with ws_ka_free. */
int ws_ka_analyze(const ws_ka_launch *l, ws_ka_result *r);
void ws_ka_free(ws_ka_result *r);

/* The paper's reorder-configuration text (Sec. 4.4.4) when every ld/st PC
   runs at most once per warp, then the per-access list (block, warp, e, n,
   pc, kind, blocks) that also covers loops. */
void ws_ka_print(FILE *f, const ws_ka_result *r);

/* Per SM (static mapping: block b on SM b % n_sms, waves of max_cta
   blocks): the accesses in the Reordering Unit's order. order[] gets
   indices into r->acc, sm_first[s]..sm_first[s+1] those of SM s.
   Returns -1 when out of memory. Caller frees *order and *sm_first. */
int ws_ka_l1_sequence(const ws_ka_result *r, unsigned n_sms, unsigned max_cta, size_t **order,
                      size_t **sm_first);

/* The L1D miss-rate estimator: replay the per-SM sequences through an L1D
   of configuration cache_cfg (GPGPU-Sim syntax), each SM starting empty.
   Returns 0 and the accesses and misses (hits on lines whose fill is in
   flight count as hits, as in L1D_total_cache_miss_rate), or -1 and err. */
int ws_ka_estimate_l1(const ws_ka_result *r, unsigned n_sms, unsigned max_cta,
                      const char *cache_cfg, uint64_t *accesses, uint64_t *misses, char *err,
                      size_t errlen);

#endif
