/* The Fermi L1D hash reverse-engineered from a GTX470 (Nugteren et al.,
 * HPCA 2014), called RXI in seed 003 and 'H' in GPGPU-Sim 4 cache strings.
 * For 128-byte lines and 32 sets:
 *   I4 = A19^A11  I3 = A17^A10  I2 = A15^A9  I1 = A14^A8  I0 = A13^A7
 * A 64-set (48 KB) L1 prepends A12 as the most significant index bit. */
#include <stdio.h>
#include <stdlib.h>

#include "policy/index/index.h"

typedef struct {
    uint32_t nsets;
} fermi_state;

static void *fermi_create(const ws_cache_geom *g, ws_params *p, char *err, size_t errlen) {
    if (g->line_size != 128 || (g->nsets != 32 && g->nsets != 64)) {
        snprintf(err, errlen,
                 "fermi index is defined for 128-byte lines and 32 or 64 sets (got %u sets of %u B)",
                 g->nsets, g->line_size);
        return NULL;
    }
    fermi_state *s = malloc(sizeof *s);
    if (s) s->nsets = g->nsets;
    return s;
}

static uint32_t fermi_set(const void *state, uint64_t a) {
    const fermi_state *s = state;
    uint32_t low = (uint32_t)(a >> 7) & 0x1f;                 /* A11..A7 */
    uint32_t high = (uint32_t)((a >> 13) & 0x7)               /* A15..A13 -> I2..I0 */
                    | (uint32_t)((a >> 17) & 1) << 3          /* A17 -> I3 */
                    | (uint32_t)((a >> 19) & 1) << 4;         /* A19 -> I4 */
    uint32_t set = low ^ high;
    if (s->nsets == 64) set |= (uint32_t)((a >> 12) & 1) << 5; /* A12 as MSB */
    return set;
}

const ws_index_policy ws_index_fermi = {
    .name = "fermi",
    .code = 'H',
    .doc = "reverse-engineered Fermi L1D XOR hash (RXI; GPGPU-Sim 'H'), 128 B lines, 32/64 sets",
    .create = fermi_create,
    .destroy = free,
    .set_index = fermi_set,
};
