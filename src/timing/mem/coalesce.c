/* Coalescer; the rules are listed in coalesce.h. */
#include "timing/mem/coalesce.h"

#include <string.h>

/* Marks bytes addr..addr+n-1 of the line (n <= 16: one lane's chunk) a mask byte
   at a time, not a bit at a time (segments are at most 128 B and aligned, so the
   range never wraps past the line's end; if it did, the bit loop handles it). */
static inline __attribute__((always_inline)) void add_bytes(ws_mem_txn *t, uint64_t addr, uint32_t n) {
    uint32_t lo = (uint32_t)(addr & 127), hi = lo + n;
    if (n == 0) return;
    if ((lo & 7) + n <= 8) { /* the common case: within one mask byte, so one sector */
        t->bytes[lo >> 3] |= (uint8_t)(((1u << n) - 1) << (lo & 7));
        t->sectors |= (uint8_t)(1u << (lo >> 5));
        return;
    }
    if (hi > 128) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t b = (uint32_t)((addr + i) & 127);
            t->bytes[b >> 3] |= (uint8_t)(1u << (b & 7));
            t->sectors |= (uint8_t)(1u << (b >> 5));
        }
        return;
    }
    for (uint32_t b = lo; b < hi;) {
        uint32_t bit = b & 7, cnt = hi - b < 8 - bit ? hi - b : 8 - bit;
        t->bytes[b >> 3] |= (uint8_t)(((1u << cnt) - 1) << bit);
        b += cnt;
    }
    uint32_t s0 = lo >> 5, s1 = (hi - 1) >> 5; /* sectors s0..s1 */
    t->sectors |= (uint8_t)(((2u << s1) - 1) & ~((1u << s0) - 1));
}

/* The transaction of segment seg, creating it if new. */
static ws_mem_txn *txn_for(ws_mem_txn *out, unsigned *n, uint64_t seg) {
    for (unsigned i = 0; i < *n; i++)
        if (out[i].addr == seg) return &out[i];
    ws_mem_txn *t = &out[(*n)++];
    memset(t, 0, sizeof *t);
    t->addr = seg;
    return t;
}

/* Shrink a segment to the half or quarter actually used. */
static void reduce(ws_mem_txn *t, uint32_t seg_size) {
    uint8_t q = t->sectors;
    t->size = seg_size;
    if (seg_size == 128) {
        bool lo = q & 0x3, hi = q & 0xC;
        if (lo && !hi) {
            t->size = 64;
            if ((q & 0x3) == 0x1) t->size = 32;
            else if ((q & 0x3) == 0x2) { t->size = 32; t->addr += 32; }
        } else if (hi && !lo) {
            t->addr += 64;
            t->size = 64;
            if ((q & 0xC) == 0x4) t->size = 32;
            else if ((q & 0xC) == 0x8) { t->size = 32; t->addr += 32; }
        }
    } else if (seg_size == 64) {
        unsigned base = (t->addr & 64) ? 2 : 0;
        bool a = q & (1u << base), b = q & (1u << (base + 1));
        if (a && !b) t->size = 32;
        else if (b && !a) { t->size = 32; t->addr += 32; }
    }
}

unsigned ws_coalesce(const ws_coalesce_in *in, ws_mem_txn *out) {
    uint32_t size = in->access_size;
    uint32_t seg = size == 1 ? 32 : size == 2 ? (in->sectored ? 32 : 64) : (in->sectored ? 32 : 128);
    uint32_t chunk = size, chunks = 1;
    if (in->local && size > 4) {
        chunk = 4;
        chunks = size / 4;
    }
    unsigned n = 0;
    ws_mem_txn *last = NULL;
    for (unsigned lane = 0; lane < 32; lane++) {
        if (!(in->active >> lane & 1)) continue;
        for (uint32_t k = 0; k < chunks; k++) {
            uint64_t a = in->addr[lane] + (uint64_t)k * chunk;
            uint64_t s0 = a & ~(uint64_t)(seg - 1);
            uint64_t end = a + chunk; /* an unaligned access may cross a segment */
            uint64_t split = s0 + seg < end ? s0 + seg : end;
            /* neighbouring lanes mostly share a segment: try the last one first */
            ws_mem_txn *t = last && last->addr == s0 ? last : txn_for(out, &n, s0);
            last = t;
            t->lanes |= 1u << lane;
            add_bytes(t, a, (uint32_t)(split - a));
            if (split < end) {
                t = txn_for(out, &n, s0 + seg);
                t->lanes |= 1u << lane;
                add_bytes(t, split, (uint32_t)(end - split));
            }
        }
    }
    /* ascending address order (small n: insertion sort) */
    for (unsigned i = 1; i < n; i++) {
        ws_mem_txn t = out[i];
        unsigned j = i;
        while (j > 0 && out[j - 1].addr > t.addr) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = t;
    }
    for (unsigned i = 0; i < n; i++) reduce(&out[i], seg);
    return n;
}
