/* Polynomial arithmetic over GF(2) and the polynomial-modulus set index
 * shared by pric.c and pli.c (the same function; the two policies differ
 * in their default address width). A polynomial is a bit vector: bit k is
 * the coefficient of x^k, so 37 = 0b100101 = x^5 + x^2 + 1. */
#ifndef WARPSIM_POLICY_INDEX_GF2_H
#define WARPSIM_POLICY_INDEX_GF2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/index/index.h"

int ws_gf2_degree(uint64_t p);              /* -1 for the zero polynomial */
uint64_t ws_gf2_mod(uint64_t a, uint64_t p);
bool ws_gf2_irreducible(uint64_t p);

/* Set index = (block address of the low abits address bits) mod P(x).
 * poly 0: x^5+x^2+1 for 32 sets, x^6+x+1 for 64, else the smallest
 * irreducible polynomial of the degree. name is used in messages. */
void *ws_polyidx_create(const ws_cache_geom *g, uint64_t poly, unsigned abits, const char *name,
                        char *err, size_t errlen);
/* The parameter table of pric and pli (positional: pric:POLY:ABITS, as before). */
#define WS_POLYIDX_PARAMS(ABITS_DEFAULT)                                                       \
    {                                                                                          \
        WS_INT("poly", "0", 0, 131071,                                                         \
               "P(x) as a bit vector (37 = x^5+x^2+1; 0x43 too); 0: the default for the sets"), \
        WS_INT("abits", ABITS_DEFAULT, 1, 64, "address bits that take part")                   \
    }
uint32_t ws_polyidx_set(const void *state, uint64_t addr);

/* GPGPU-Sim 4's IPOLY hash of one bank (or set) index among nbanks (16, 32
 * or 64; other counts return index unchanged): the bits above the index
 * (high) and the index itself, as one polynomial, mod P(x) (ipoly.c). */
uint32_t ws_ipoly_hash(uint64_t high, uint32_t index, unsigned nbanks);
/* The same hash as a table: rows[i] = the index bits that bit i of `high`
 * flips (x^(m+i) mod P). Returns how many high bits take part (at most 19),
 * or -1 for a bank count the hash does not define. */
int ws_ipoly_rows(unsigned nbanks, uint8_t rows[19]);

#endif
