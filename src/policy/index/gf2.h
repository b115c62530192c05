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
 * args: "[POLY][:ABITS]", POLY decimal or 0x-hex (default: x^5+x^2+1 for
 * 32 sets, x^6+x+1 for 64, else the smallest irreducible polynomial of the
 * degree). name is used in messages. */
void *ws_polyidx_create(const ws_cache_geom *g, const char *args, unsigned default_abits,
                        const char *name, char *err, size_t errlen);
uint32_t ws_polyidx_set(const void *state, uint64_t addr);

#endif
