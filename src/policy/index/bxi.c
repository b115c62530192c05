/* BXI (seed 003 §2.2): bitwise XOR of the lowest S block-address bits with
 * the next S: I[k] = A[B+k] ^ A[B+S+k] (L1D: A[11:7]^A[16:12]). Row strides
 * that are multiples of the set count then still change the index. */
#include <stdio.h>
#include <stdlib.h>

#include "policy/index/index.h"

typedef struct {
    uint32_t line_log2, sbits;
    uint64_t mask;
} bxi_state;

static void *bxi_create(const ws_cache_geom *g, ws_params *p, char *err, size_t errlen) {
    int s = ws_log2_exact(g->nsets), b = ws_log2_exact(g->line_size);
    if (s < 0 || b < 0) {
        snprintf(err, errlen, "bxi index needs a power-of-two number of sets (got %u)", g->nsets);
        return NULL;
    }
    bxi_state *st = malloc(sizeof *st);
    if (!st) return NULL;
    st->line_log2 = (uint32_t)b;
    st->sbits = (uint32_t)s;
    st->mask = g->nsets - 1;
    return st;
}

static uint32_t bxi_set(const void *state, uint64_t addr) {
    const bxi_state *s = state;
    uint64_t blk = addr >> s->line_log2;
    return (uint32_t)((blk ^ (blk >> s->sbits)) & s->mask);
}

const ws_index_policy ws_index_bxi = {
    .name = "bxi",
    .code = 0,
    .doc = "bitwise XOR of the lowest S block-address bits with the next S",
    .create = bxi_create,
    .destroy = free,
    .set_index = bxi_set,
};
