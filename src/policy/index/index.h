/* Policy family "index": the set a block address maps to in a cache (L1D,
 * L2, and later the partition and DRAM-bank mappings).
 *
 * To add a function: write src/policy/index/<name>.c defining a
 * `const ws_index_policy ws_index_<name>` and add one line to the table in
 * registry.c. The cache calls set_index once per access; keep it cheap. */
#ifndef WARPSIM_POLICY_INDEX_H
#define WARPSIM_POLICY_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct ws_cache_geom {
    uint32_t nsets;      /* number of sets (any value; power-of-two functions check) */
    uint32_t line_size;  /* bytes, power of two */
    uint32_t assoc;
} ws_cache_geom;

typedef struct ws_index_policy {
    const char *name;    /* config name, e.g. "linear" */
    char code;           /* GPGPU-Sim cache-string letter ('L', 'H', ...), 0 if none */
    const char *doc;     /* one line */
    /* Build per-cache state for geometry g and optional arguments (text after
       "name:" in the config, or NULL). Return NULL and fill err if the
       geometry or arguments are not supported. A policy without state may
       return any non-NULL pointer (e.g. the geometry it copies). */
    void *(*create)(const ws_cache_geom *g, const char *args, char *err, size_t errlen);
    void (*destroy)(void *state);
    /* Set of byte address addr. */
    uint32_t (*set_index)(const void *state, uint64_t addr);
} ws_index_policy;

/* Look up by name ("linear") or by cache-string letter ("L"). NULL if none. */
const ws_index_policy *ws_index_find(const char *name);
/* All policies, NULL-terminated. */
const ws_index_policy *const *ws_index_all(void);

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

/* Shared helper for power-of-two geometries: log2 of x, or -1 if x is not a power of two. */
int ws_log2_exact(uint64_t x);

#endif
