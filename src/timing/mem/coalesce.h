/* Coalescer: turns one warp memory instruction (per-lane addresses) into
 * memory transactions, following the rules GPGPU-Sim uses for compute
 * capability 2.x and later (-gpgpu_coalesce_arch >= 20):
 *  - lanes are grouped by aligned segment: 32 B for 1-byte accesses, 64 B
 *    for 2-byte and 128 B for 4/8/16-byte accesses (32 B everywhere when the
 *    access is sectored: L1 skipped, .cg, or arch >= 40);
 *  - a 128 B segment of which only one half (or one 32 B quarter) is used
 *    shrinks to 64 B (32 B), and likewise for 64 B segments;
 *  - local-memory accesses wider than 4 bytes are split into 4-byte
 *    accesses per lane, as the hardware interleaves local memory by word;
 *  - transactions come out in ascending address order.
 * Each transaction carries its lane mask, byte mask and 32 B sector mask. */
#ifndef WARPSIM_TIMING_MEM_COALESCE_H
#define WARPSIM_TIMING_MEM_COALESCE_H

#include <stdbool.h>
#include <stdint.h>

#define WS_MAX_TRANSACTIONS 128 /* 32 lanes x up to 4 local words */

typedef struct ws_mem_txn {
    uint64_t addr;        /* aligned start of the transaction */
    uint32_t size;        /* 32, 64 or 128 */
    uint32_t lanes;       /* lanes served */
    uint8_t sectors;      /* 32 B sectors of the 128 B line touched (bit i = bytes 32i..32i+31) */
    uint8_t bytes[16];    /* byte mask over the 128 B line */
} ws_mem_txn;

typedef struct ws_coalesce_in {
    const uint64_t *addr;   /* 32 per-lane addresses */
    uint32_t active;        /* lanes that access memory */
    uint32_t access_size;   /* bytes per lane (vector width included): 1..16 */
    bool local;             /* local memory (word-split rule) */
    bool sectored;          /* 32 B segments */
} ws_coalesce_in;

/* Fills out[] and returns the number of transactions. */
unsigned ws_coalesce(const ws_coalesce_in *in, ws_mem_txn *out);
/* The same by the per-lane loop alone (ws_coalesce answers lanes in ascending
   lines at once; tests compare the two). */
unsigned ws_coalesce_each_lane(const ws_coalesce_in *in, ws_mem_txn *out);

#endif
