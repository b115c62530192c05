/* PRI (seed 003 §2.2): block address mod the largest prime <= sets, over
 * the whole 64-bit block address (seed 003 §7.3). The sets above the prime
 * stay unused (set fragmentation: 1 of 32, 3 of 64). */
#include <stdio.h>
#include <stdlib.h>

#include "policy/index/index.h"

typedef struct {
    uint32_t line_log2, prime;
} prime_state;

static bool is_prime(uint32_t n) {
    if (n < 2) return false;
    for (uint32_t d = 2; d * d <= n; d++)
        if (n % d == 0) return false;
    return true;
}

static void *prime_create(const ws_cache_geom *g, ws_params *p, char *err, size_t errlen) {
    int b = ws_log2_exact(g->line_size);
    if (b < 0 || g->nsets < 2) {
        snprintf(err, errlen, "prime index needs at least 2 sets and a power-of-two line (got %u sets)",
                 g->nsets);
        return NULL;
    }
    prime_state *s = malloc(sizeof *s);
    if (!s) return NULL;
    s->line_log2 = (uint32_t)b;
    s->prime = g->nsets;
    while (!is_prime(s->prime)) s->prime--;
    return s;
}

static uint32_t prime_set(const void *state, uint64_t addr) {
    const prime_state *s = state;
    return (uint32_t)((addr >> s->line_log2) % s->prime);
}

const ws_index_policy ws_index_prime = {
    .name = "prime",
    .code = 0,
    .doc = "PRI: block address mod the largest prime <= sets (31 of 32, 61 of 64 sets used)",
    .create = prime_create,
    .destroy = free,
    .set_index = prime_set,
};
