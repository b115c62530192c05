/* Linear (conventional) indexing: set = block address mod number of sets,
 * i.e. the address bits just above the line offset. */
#include <stdio.h>
#include <stdlib.h>

#include "policy/index/index.h"

typedef struct {
    uint32_t line_log2, nsets;
    uint64_t mask; /* nsets - 1 when nsets is a power of two, else 0 */
} linear_state;

static void *linear_create(const ws_cache_geom *g, ws_params *p, char *err, size_t errlen) {
    int ll = ws_log2_exact(g->line_size);
    if (ll < 0 || g->nsets == 0) {
        snprintf(err, errlen, "linear index: line size %u must be a power of two and sets > 0",
                 g->line_size);
        return NULL;
    }
    linear_state *s = malloc(sizeof *s);
    if (!s) return NULL;
    s->line_log2 = (uint32_t)ll;
    s->nsets = g->nsets;
    s->mask = ws_log2_exact(g->nsets) >= 0 ? g->nsets - 1 : 0;
    return s;
}

static uint32_t linear_set(const void *state, uint64_t addr) {
    const linear_state *s = state;
    uint64_t block = addr >> s->line_log2;
    return (uint32_t)(s->mask ? block & s->mask : block % s->nsets);
}

static bool linear_bit_field(const void *state, uint32_t *shift, uint64_t *mask) {
    const linear_state *s = state;
    if (!s->mask) return false; /* a number of sets that is not a power of two: mod */
    *shift = s->line_log2;
    *mask = s->mask;
    return true;
}

const ws_index_policy ws_index_linear = {
    .name = "linear",
    .code = 'L',
    .doc = "set = block address mod sets (address bits above the line offset)",
    .create = linear_create,
    .destroy = free,
    .set_index = linear_set,
    .bit_field = linear_bit_field,
};
