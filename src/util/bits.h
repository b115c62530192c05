/* Bit counting for the per-cycle paths. The portable build (no -mpopcnt, no
 * -march) turns __builtin_popcount into a call to libgcc's __popcountdi2,
 * about 2% of a compute-bound run's instructions; these inline SWAR counts
 * are a dozen instructions with no call, and exact for every input. */
#ifndef WARPSIM_UTIL_BITS_H
#define WARPSIM_UTIL_BITS_H

#include <stdint.h>

static inline unsigned ws_popc32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
}

static inline unsigned ws_popc64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

#endif
