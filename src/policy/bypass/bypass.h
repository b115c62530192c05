/* Policy family "bypass": whether accesses skip a cache level
 * (-l1d_bypass for the L1Ds of all SMs, -l2_bypass for the L2 slices).
 *
 * One instance per level, GPU-wide, so that a policy may decide per cache
 * or for all of them at once. A policy sets each cache's ws_cache_bypass
 * mode (tag-only, protection distance, bypass on line-allocation failure:
 * see timing/mem/cache.h) at kernel start and, if it has a period, at the
 * end of every period from the caches' read counts over the period. The
 * per-access work is done by the cache in the mode it was given.
 *
 * To add a policy: write src/policy/bypass/<name>.c defining a
 * `const ws_bypass_policy ws_bypass_<name>` (with its parameter table,
 * params.h) and add one line to registry.c. */
#ifndef WARPSIM_POLICY_BYPASS_H
#define WARPSIM_POLICY_BYPASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/params.h"
#include "timing/mem/cache.h"

/* One cache's reads over the period just ended (ws_cache_read_counts). */
typedef struct ws_bypass_counts {
    uint64_t reads, misses;
} ws_bypass_counts;

typedef struct ws_bypass_epoch {
    uint64_t now, cycles;        /* core cycle (run-wide); core cycles in the period */
    unsigned n;                  /* caches of the level */
    const ws_bypass_counts *cnt; /* [n] */
    ws_cache_bypass *mode;       /* [n]: the policy's decisions, applied after the call */
    bool throttle_settled;       /* the warp-throttling controller has decided (DWT-PRIC) */
} ws_bypass_epoch;

typedef struct ws_bypass_policy {
    const char *name; /* config name (text before the first ':') */
    const char *doc;  /* one line */
    const ws_param_def *params; /* its parameters (WS_PARAMS(table); NULL, 0: none) */
    unsigned nparams;
    /* State for n caches, from the parsed parameters. NULL and err when
       they do not go together. */
    void *(*create)(ws_params *p, unsigned n, char *err, size_t errlen);
    void (*destroy)(void *st);
    /* Core cycles per period (NULL or 0: no periods, static policies). */
    uint64_t (*period)(const void *st);
    /* A kernel starts: set the modes (mode[0..n), all zero on entry). */
    void (*kernel_start)(void *st, ws_cache_bypass *mode, unsigned n);
    /* A period ended (NULL when period is 0). */
    void (*epoch)(void *st, const ws_bypass_epoch *e);
} ws_bypass_policy;

const ws_bypass_policy *ws_bypass_find(const char *name);
const ws_bypass_policy *const *ws_bypass_all(void);
/* The i-th policy's name, doc and parameters (name NULL past the end). */
ws_policy_info ws_bypass_info(unsigned i);

typedef struct ws_bypass {
    const ws_bypass_policy *policy;
    void *state;
    uint64_t period;  /* core cycles per period (0: none) */
} ws_bypass;
/* Create from "name[:args]" for n caches. 0, or -1 with err naming the
   option (what), the policy and the known ones. */
int ws_bypass_create(ws_bypass *b, const char *what, const char *spec, unsigned n, char *err,
                     size_t errlen);
void ws_bypass_destroy(ws_bypass *b);

#endif
