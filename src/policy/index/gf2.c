/* GF(2) polynomials and the polynomial-modulus index (see gf2.h). */
#include "policy/index/gf2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ws_gf2_degree(uint64_t p) { return p ? 63 - __builtin_clzll(p) : -1; }

uint64_t ws_gf2_mod(uint64_t a, uint64_t p) {
    int dp = ws_gf2_degree(p);
    for (int i = ws_gf2_degree(a); i >= dp; i--)
        if ((a >> i) & 1) a ^= p << (i - dp);
    return a;
}

bool ws_gf2_irreducible(uint64_t p) {
    int d = ws_gf2_degree(p);
    if (d < 1) return false;
    /* no factor of degree 1..d/2 (trial division; d is a set-index width) */
    for (uint64_t q = 2; ws_gf2_degree(q) <= d / 2; q++)
        if (!ws_gf2_mod(p, q)) return false;
    return true;
}

enum { CHUNKS = 8 }; /* 8 bits of the block address per table */

typedef struct {
    uint32_t line_log2;
    uint64_t amask;                /* address bits that take part */
    uint16_t tab[CHUNKS][256];     /* XOR of x^k mod P over each byte's set bits */
} polyidx;

static uint64_t default_poly(int m) {
    if (m == 5) return 37;         /* x^5+x^2+1: PRIC's Poly(37), seed 003's L1D choice */
    if (m == 6) return 0x43;       /* x^6+x+1: seed 003's L2 polynomial */
    if (m == 0) return 1;
    for (uint64_t p = (1ull << m) | 1; p < (2ull << m); p += 2)
        if (ws_gf2_irreducible(p)) return p;
    return 0;
}

void *ws_polyidx_create(const ws_cache_geom *g, uint64_t poly, unsigned abits, const char *name,
                        char *err, size_t errlen) {
    int m = ws_log2_exact(g->nsets), b = ws_log2_exact(g->line_size);
    if (m < 0 || m > 16 || b < 0) {
        snprintf(err, errlen, "%s index needs a power-of-two number of sets (<= 65536), got %u",
                 name, g->nsets);
        return NULL;
    }
    if (!poly) poly = default_poly(m);
    if (abits < (unsigned)b) {
        snprintf(err, errlen, "%s index: abits=%u is below the %d line-offset bits", name, abits,
                 b);
        return NULL;
    }
    if (ws_gf2_degree(poly) != m) {
        snprintf(err, errlen,
                 "%s index: polynomial %#llx has degree %d, but %u sets need degree %d "
                 "(e.g. 37 = x^5+x^2+1 for 32 sets, 0x43 = x^6+x+1 for 64)",
                 name, (unsigned long long)poly, ws_gf2_degree(poly), g->nsets, m);
        return NULL;
    }
    if (m > 0 && !ws_gf2_irreducible(poly)) {
        snprintf(err, errlen,
                 "%s index: polynomial %#llx is reducible over GF(2); use an irreducible one "
                 "(degree 5: 37, 41, 47, 55, 59, 61)",
                 name, (unsigned long long)poly);
        return NULL;
    }
    polyidx *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->line_log2 = (uint32_t)b;
    s->amask = abits >= 64 ? ~0ull : (1ull << abits) - 1;
    /* r_k = x^k mod P for block-address bit k; a byte's entry XORs its bits'
       r_k, built from the entry without its lowest bit (one caches per SM
       and per L2 slice build this table: keep it cheap) */
    for (unsigned c = 0; c < CHUNKS; c++) {
        uint16_t rk[8];
        for (unsigned j = 0; j < 8; j++) rk[j] = (uint16_t)ws_gf2_mod(1ull << (c * 8 + j), poly);
        s->tab[c][0] = 0;
        for (unsigned v = 1; v < 256; v++)
            s->tab[c][v] = s->tab[c][v & (v - 1)] ^ rk[__builtin_ctz(v)];
    }
    return s;
}

uint32_t ws_polyidx_set(const void *state, uint64_t addr) {
    const polyidx *s = state;
    uint64_t a = (addr & s->amask) >> s->line_log2;
    uint32_t r = 0;
    for (unsigned c = 0; a; c++, a >>= 8) r ^= s->tab[c][a & 0xff];
    return r;
}
