/* IPOLY: GPGPU-Sim 4's hashed set index (cache-string letter 'P'), after
 * Rau's pseudo-randomly interleaved memory (ISCA 1991) as Khairy et al.
 * use it for GPU caches (SACAT, IEEE TPDS 2017): the block address, read
 * as a polynomial over GF(2), modulo an irreducible P(x) of the index
 * width -- x^4+x+1 for 16 sets, x^5+x^2+1 for 32, x^6+x+1 for 64, the
 * polynomials GPGPU-Sim uses. Unlike pli, only a fixed number of the bits
 * above the index take part (13, 15 and 19 for 16, 32 and 64 sets), as in
 * GPGPU-Sim's H-matrices, so that addresses high in the space hash as
 * they do there. Other set counts are refused, as GPGPU-Sim refuses them. */
#include <stdio.h>
#include <stdlib.h>

#include "policy/index/gf2.h"

/* Bits above the set index that feed the hash, per index width m. */
static int ipoly_high_bits(int m) { return m == 4 ? 13 : m == 5 ? 15 : m == 6 ? 19 : -1; }

static void *ipoly_create(const ws_cache_geom *g, ws_params *p, char *err, size_t errlen) {
    (void)p;
    int m = ws_log2_exact(g->nsets), b = ws_log2_exact(g->line_size);
    if (m < 0 || ipoly_high_bits(m) < 0 || b < 0) {
        snprintf(err, errlen,
                 "ipoly index (GPGPU-Sim 'P') is defined for 16, 32 or 64 sets (got %u sets of "
                 "%u B)",
                 g->nsets, g->line_size);
        return NULL;
    }
    /* poly 0 picks x^4+x+1, x^5+x^2+1, x^6+x+1 (gf2.c's defaults for these widths) */
    return ws_polyidx_create(g, 0, (unsigned)(b + m + ipoly_high_bits(m)), "ipoly", err, errlen);
}

uint32_t ws_ipoly_hash(uint64_t high, uint32_t index, unsigned nbanks) {
    int m = ws_log2_exact(nbanks), k = ipoly_high_bits(m);
    if (k < 0) return index;
    uint64_t poly = m == 4 ? 0x13 : m == 5 ? 0x25 : 0x43;
    uint64_t a = ((high & ((1ull << k) - 1)) << m) | (index & (nbanks - 1));
    return (uint32_t)ws_gf2_mod(a, poly);
}

int ws_ipoly_rows(unsigned nbanks, uint8_t rows[19]) {
    int m = ws_log2_exact(nbanks), k = ipoly_high_bits(m);
    if (k < 0) return -1;
    for (int i = 0; i < k; i++) rows[i] = (uint8_t)ws_ipoly_hash(1ull << i, 0, nbanks);
    return k;
}

const ws_index_policy ws_index_ipoly = {
    .name = "ipoly",
    .code = 'P',
    .doc = "GPGPU-Sim 4's IPOLY hash ('P'): block address mod x^4+x+1 / x^5+x^2+1 / x^6+x+1 "
           "over the 13/15/19 bits above the index; 16, 32 or 64 sets",
    .create = ipoly_create,
    .destroy = free,
    .set_index = ws_polyidx_set,
};
