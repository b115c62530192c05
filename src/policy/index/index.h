/* Policy family "index": the set a block address maps to in a cache (L1D,
 * L2, and later the partition and DRAM-bank mappings).
 *
 * To add a function: write src/policy/index/<name>.c defining a
 * `const ws_index_policy ws_index_<name>` (with its parameter table,
 * params.h) and add one line to the table in registry.c. The cache calls set_index once per access; keep it cheap.
 * Adaptive functions (adi) also implement observe: the cache reports each
 * access and flushes when the function says it changed. */
#ifndef WARPSIM_POLICY_INDEX_H
#define WARPSIM_POLICY_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/params.h"

typedef struct ws_cache_geom {
    uint32_t nsets;      /* number of sets (any value; power-of-two functions check) */
    uint32_t line_size;  /* bytes, power of two */
    uint32_t assoc;
    /* Owner defaults for adaptive functions, "key=value:key=value" (NULL if
       none); the spec's own arguments override them. Keys a function does
       not declare are ignored, so one owner string can serve every function. */
    const char *hints;
} ws_cache_geom;

/* What an access found, for functions that watch the access stream. */
typedef enum {
    WS_IX_HIT = 0,
    WS_IX_HIT_RESERVED,  /* merged into an outstanding miss */
    WS_IX_MISS,          /* the block was not in its set */
    WS_IX_SECTOR_MISS,   /* the line was there, the sector was not */
} ws_index_probe;

typedef struct ws_index_policy {
    const char *name;    /* config name, e.g. "linear" */
    char code;           /* GPGPU-Sim cache-string letter ('L', 'H', ...), 0 if none */
    const char *doc;     /* one line */
    const ws_param_def *params; /* its parameters (WS_PARAMS(table); NULL, 0: none) */
    unsigned nparams;
    /* Build per-cache state for geometry g and the parsed parameters. Return
       NULL and fill err if the geometry or parameters are not supported. */
    void *(*create)(const ws_cache_geom *g, ws_params *p, char *err, size_t errlen);
    void (*destroy)(void *state);
    /* Set of byte address addr. */
    uint32_t (*set_index)(const void *state, uint64_t addr);

    /* ---- optional hooks (NULL for static functions) ---- */
    /* Every access that was not a reservation failure: its index address,
       what it found, and whether it was a global-memory write. Returns true
       when the function has changed: lines placed by the old function are
       then misplaced, so the cache must flush. */
    bool (*observe)(void *state, uint64_t addr, ws_index_probe probe, bool global_write);
    /* Kernel boundary. Returns true when the function changed (flush). */
    bool (*kernel_start)(void *state);
    /* Functions whose set is one field of the address, set = (addr >> shift) & mask:
       its shift and mask, so that the cache computes the set inline on every access
       (set_index is then never called). false where the geometry gives no such field.
       Static functions only: the cache asks once, when it is created. */
    bool (*bit_field)(const void *state, uint32_t *shift, uint64_t *mask);
    /* For bit-selecting functions: the address bit behind each index bit
       (bits[i] feeds set bit i). Returns how many were written (0 if the
       function is not a bit selection). */
    unsigned (*index_bits)(const void *state, uint8_t *bits, unsigned max);
    /* Adaptive functions: adaptation rounds (selections) completed so far,
       whether or not they changed the function (IACM times its ADI-phase
       IPC samples by them). */
    uint64_t (*selections)(const void *state);
    /* Adaptive functions: if idle after a selection, start the next round
       now (IACM times the idle sub-phase in cycles, seed 003 §2.4). */
    void (*restart)(void *state);
} ws_index_policy;

/* Look up by name ("linear") or by cache-string letter ("L"). NULL if none. */
const ws_index_policy *ws_index_find(const char *name);
/* All policies, NULL-terminated. */
const ws_index_policy *const *ws_index_all(void);
/* The i-th policy's name, doc and parameters (name NULL past the end). */
ws_policy_info ws_index_info(unsigned i);

/* A ready-to-use instance (what a cache holds). */
typedef struct ws_index {
    const ws_index_policy *policy;
    void *state;
} ws_index;

/* Create by name (with optional ":args"). 0, or -1 with err naming the policy
 * and what is allowed. */
int ws_index_create(ws_index *ix, const char *spec, const ws_cache_geom *g, char *err,
                    size_t errlen);
void ws_index_destroy(ws_index *ix);
static inline uint32_t ws_index_set(const ws_index *ix, uint64_t addr) {
    return ix->policy->set_index(ix->state, addr);
}

static inline bool ws_index_observe(ws_index *ix, uint64_t addr, ws_index_probe p, bool gw) {
    return ix->policy->observe ? ix->policy->observe(ix->state, addr, p, gw) : false;
}
static inline bool ws_index_kernel_start(ws_index *ix) {
    return ix->policy->kernel_start ? ix->policy->kernel_start(ix->state) : false;
}

/* Shared helpers. */
/* Shared helper for power-of-two geometries: log2 of x, or -1 if x is not a power of two. */
int ws_log2_exact(uint64_t x);

#endif
