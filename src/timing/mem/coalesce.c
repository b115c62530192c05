/* Coalescer; the rules are listed in coalesce.h. */
#include "timing/mem/coalesce.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WS_COAL_AVX2 1
#endif

enum { WS_WARP_LANES = 32 };

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
static inline void reduce(ws_mem_txn *t, uint32_t seg_size) {
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

/* Appends line's touched segments (lanes[q]: the lanes in segment q; m: the line's
   bytes, bit b = byte b) as transactions, in address order, from out[n]. */
static inline __attribute__((always_inline)) unsigned put_line(uint64_t line, const uint64_t *m,
                                                                const uint32_t *lanes, uint32_t seg,
                                                                unsigned shift, ws_mem_txn *out,
                                                                unsigned n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (shift == 7) { /* one 128 B segment (lanes[0] is not empty): the loop below, unrolled */
        ws_mem_txn *t = &out[n];
        memset(t, 0, sizeof *t);
        t->addr = line;
        t->lanes = lanes[0];
        memcpy(t->bytes, m, sizeof t->bytes);
        t->sectors = (uint8_t)(((uint32_t)m[0] != 0) | ((m[0] >> 32) != 0) << 1 |
                               ((uint32_t)m[1] != 0) << 2 | ((m[1] >> 32) != 0) << 3);
        reduce(t, seg);
        return n + 1;
    }
#endif
    unsigned per = seg / 8; /* mask bytes per segment */
    for (unsigned q = 0; q < (128u >> shift); q++) {
        if (!lanes[q]) continue;
        ws_mem_txn *t = &out[n++];
        memset(t, 0, sizeof *t);
        t->addr = line + (uint64_t)q * seg;
        t->lanes = lanes[q];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(t->bytes + q * per, (const uint8_t *)m + q * per, per); /* byte i of m is bytes[i] */
#else
        for (unsigned i = q * per; i < (q + 1) * per; i++)
            t->bytes[i] = (uint8_t)(m[i >> 3] >> (8 * (i & 7)));
#endif
        for (unsigned sc = q * per / 4; sc < (q + 1) * per / 4; sc++) /* 32 B sectors */
            if ((uint32_t)(m[sc >> 1] >> (32 * (sc & 1)))) t->sectors |= (uint8_t)(1u << sc);
        reduce(t, seg);
    }
    return n;
}

/* Bits lo..hi-1 (of 0..127) that fall in the 64-bit half from `half` (0 or 64). */
static inline uint64_t range_bits(uint32_t lo, uint32_t hi, uint32_t half) {
    uint32_t a = lo > half ? lo - half : 0, b = hi < half + 64 ? hi - half : 64;
    if (hi <= half || lo >= half + 64) return 0;
    return (b - a == 64 ? ~0ull : ((1ull << (b - a)) - 1)) << a;
}

/* A full warp's two scans (coalesce_warp_line): whether lane l's address is a0 + l * size
   for every l (false: consecutive elements from a0), and the OR and AND of the addresses.
   Four lanes per vector operation with AVX2 (asked at each call: one load and a test);
   without it, two for the first (GCC/Clang vector types; SSE2 on x86-64), a lane loop for
   the other. */
typedef uint64_t v2u64 __attribute__((vector_size(16)));
#ifdef WS_COAL_AVX2
__attribute__((target("avx2"))) static bool steps_avx2(const uint64_t *ad, uint64_t a0, uint64_t size) {
    __m256i e = _mm256_add_epi64(_mm256_set1_epi64x((long long)a0),
                                 _mm256_set_epi64x((long long)(3 * size), (long long)(2 * size),
                                                   (long long)size, 0));
    const __m256i inc = _mm256_set1_epi64x((long long)(4 * size));
    __m256i v = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (unsigned l = 0; l < WS_WARP_LANES; l += 4) {
        v = _mm256_or_si256(v, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(ad + l)), e));
        e = _mm256_add_epi64(e, inc);
    }
    return !_mm256_testz_si256(v, v);
}
__attribute__((target("avx2"))) static void or_and_avx2(const uint64_t *ad, uint64_t *any, uint64_t *all) {
    __m256i o = _mm256_setzero_si256(), a = _mm256_set1_epi64x(-1);
#pragma GCC unroll 8
    for (unsigned l = 0; l < WS_WARP_LANES; l += 4) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(ad + l));
        o = _mm256_or_si256(o, x);
        a = _mm256_and_si256(a, x);
    }
    __m128i o2 = _mm_or_si128(_mm256_castsi256_si128(o), _mm256_extracti128_si256(o, 1));
    __m128i a2 = _mm_and_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    *any = (uint64_t)_mm_cvtsi128_si64(o2) | (uint64_t)_mm_extract_epi64(o2, 1);
    *all = (uint64_t)_mm_cvtsi128_si64(a2) & (uint64_t)_mm_extract_epi64(a2, 1);
}
#endif
static inline bool lanes_step(const uint64_t *ad, uint64_t a0, uint64_t size) {
#ifdef WS_COAL_AVX2
    if (__builtin_cpu_supports("avx2")) return steps_avx2(ad, a0, size);
#endif
    v2u64 vstep = {0, 0}, e = {a0, a0 + size};
    const v2u64 inc = {2 * size, 2 * size};
#pragma GCC unroll 4
    for (unsigned l = 0; l < WS_WARP_LANES; l += 2) {
        v2u64 x;
        memcpy(&x, ad + l, sizeof x);
        vstep |= x ^ e; /* 0: lane l reads the l-th element from a0 */
        e += inc;
    }
    return (vstep[0] | vstep[1]) != 0;
}
static inline void lanes_or_and(const uint64_t *ad, uint64_t *any, uint64_t *all) {
#ifdef WS_COAL_AVX2
    if (__builtin_cpu_supports("avx2")) {
        or_and_avx2(ad, any, all);
        return;
    }
#endif
    uint64_t o = 0, a = ~0ull; /* (hosts without AVX2) */
    for (unsigned l = 0; l < WS_WARP_LANES; l++) {
        o |= ad[l];
        a &= ad[l];
    }
    *any = o;
    *all = a;
}

/* A whole warp of accesses of a power of two (size) in one line: its transactions
   (what the per-line loop of coalesce_spread gives), or 0 when the warp is not so.
   The addresses differ only in the low 7 bits (OR ^ AND); aligned (OR) accesses of a
   power of two cross no segment and no 64-bit half of the mask. */
static inline unsigned coalesce_warp_line(const uint64_t *ad, uint32_t size, uint32_t seg,
                                          unsigned shift, ws_mem_txn *out) {
    uint64_t m[2] = {0, 0}, a0 = ad[0], bits = (1ull << size) - 1;
    uint32_t lanes[4] = {0, 0, 0, 0};
    /* The scan for consecutive elements runs first unless the first and last lanes
       agree (a broadcast, most likely): when every lane reads the l-th element from
       a0, OR and AND follow from a0 and lane 31 (their bits above the line offset
       agree iff a0's and lane 31's do: the addresses ascend, or wrap and differ
       there; the low bits below size are a0's), and the OR/AND scan is not run. */
    uint64_t any, all;
    bool step = ad[31] == a0 || lanes_step(ad, a0, size);
    if (!step) {
        any = a0 | ((a0 ^ ad[31]) & ~(uint64_t)127); /* (only the tests below read them) */
        all = a0 & ~((a0 ^ ad[31]) & ~(uint64_t)127);
    } else {
        lanes_or_and(ad, &any, &all);
    }
    if (((any ^ all) & ~(uint64_t)127) || (any & (size - 1))) return 0;
    if (!step) { /* consecutive elements (the coalesced access): one byte range */
        uint32_t lo = (uint32_t)(a0 & 127), hi = lo + 32 * size; /* hi <= 128 */
        m[0] = range_bits(lo, hi, 0);
        m[1] = range_bits(lo, hi, 64);
        if (shift == 7) {
            lanes[0] = ~0u; /* one segment holds every lane (what the loop below gives) */
        } else {
            unsigned ls = (unsigned)__builtin_ctz(size); /* lane l's bytes: lo + (l << ls) */
            for (unsigned q = lo >> shift; q <= (hi - 1) >> shift; q++) {
                uint32_t b0 = q << shift > lo ? q << shift : lo;
                uint32_t b1 = (q + 1) << shift < hi ? (q + 1) << shift : hi;
                unsigned f = (b0 - lo) >> ls, t = (b1 - 1 - lo) >> ls; /* lanes f..t */
                lanes[q] = (uint32_t)(((2ull << t) - 1) & ~((1ull << f) - 1));
            }
        }
    } else if (any == all) { /* one address (a broadcast) */
        m[all >> 6 & 1] = bits << (all & 63);
        lanes[(all & 127) >> shift] = ~0u;
    } else if (shift == 7) {
        lanes[0] = ~0u;
        for (unsigned l = 0; l < 32; l++) m[ad[l] >> 6 & 1] |= bits << (ad[l] & 63);
    } else {
        for (unsigned l = 0; l < 32; l++) {
            uint32_t off = (uint32_t)(ad[l] & 127);
            m[off >> 6] |= bits << (off & 63);
            lanes[off >> shift] |= 1u << l;
        }
    }
    return put_line(all & ~(uint64_t)127, m, lanes, seg, shift, out, 0);
}

/* The common cases: no lane's access crosses a segment (any access of at most
   16 bytes that is aligned to its size). The transactions are then each touched
   line's segments, line after line in ascending order, with the lanes, bytes and
   sectors the per-lane loop below gives, since each lane only ORs its bytes into
   its line's 128-bit mask and its lane bit into its segment's lanes. Lines are
   gathered in lane order: the previous lane's line, the line after it among those
   seen (a transposed tile: lanes 16-31 revisit lanes 0-15's lines), after the last
   one the first (a tile's next column: gaussian's 4 x 4 blocks), a line above
   every line seen (rows, strides), else a search of the lines seen; they are
   sorted only when they did not come in ascending order. Returns 0 when a lane
   crosses a segment (what it wrote to out is then of no account). Out of line: a
   whole warp in one line (coalesce_warp_line) needs none of its arrays. */
static __attribute__((noinline)) unsigned coalesce_spread(const ws_coalesce_in *in, uint32_t seg,
                                                          unsigned shift, ws_mem_txn *out) {
    uint32_t M = in->active, size = in->access_size;
    const uint64_t *ad = in->addr;
    uint64_t bits = (1ull << size) - 1;
    uint64_t key[WS_WARP_LANES], m[WS_WARP_LANES][2];
    uint32_t lanes[WS_WARP_LANES][4];
    unsigned nl = 0, cur = 0;
    bool sorted = true; /* every line came above the lines before it */
    for (uint32_t r = M; r; r &= r - 1) {
        unsigned l = (unsigned)__builtin_ctz(r);
        uint64_t a = ad[l], ln = a & ~(uint64_t)127;
        if ((a & (seg - 1)) + size > seg) return 0; /* crosses a segment */
        if (!nl || key[cur] != ln) {
            if (cur + 1 < nl && key[cur + 1] == ln) {
                cur++;
            } else if (cur + 1 == nl && key[0] == ln) { /* back to the first line (the keys are
                                                          unique: the search's answer) */
                cur = 0;
            } else {
                unsigned j = nl; /* while sorted, key[nl - 1] is the highest line seen */
                if (nl && (!sorted || ln <= key[nl - 1])) {
                    for (j = 0; j < nl && key[j] != ln; j++) {}
                    if (j == nl) sorted = false; /* a new line below one seen */
                }
                if (j == nl) {
                    key[nl] = ln;
                    m[nl][0] = m[nl][1] = 0;
                    lanes[nl][0] = lanes[nl][1] = lanes[nl][2] = lanes[nl][3] = 0;
                    nl++;
                }
                cur = j;
            }
        }
        uint32_t off = (uint32_t)(a & 127);
        lanes[cur][off >> shift] |= 1u << l;
        if ((off & 63) + size <= 64) {
            m[cur][off >> 6] |= bits << (off & 63);
        } else { /* (only in a 128 B segment) bytes on both halves */
            m[cur][0] |= bits << off;
            m[cur][1] |= bits >> (64 - off);
        }
    }
    unsigned n = 0;
    if (sorted) {
        for (unsigned i = 0; i < nl; i++) n = put_line(key[i], m[i], lanes[i], seg, shift, out, n);
        return n;
    }
    uint8_t ord[WS_WARP_LANES]; /* the lines by address (insertion sort) */
    for (unsigned i = 0; i < nl; i++) {
        unsigned j = i;
        while (j > 0 && key[ord[j - 1]] > key[i]) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = (uint8_t)i;
    }
    for (unsigned i = 0; i < nl; i++)
        n = put_line(key[ord[i]], m[ord[i]], lanes[ord[i]], seg, shift, out, n);
    return n;
}

/* A warp's transactions when no lane crosses a segment, else 0. */
static inline unsigned coalesce_lines(const ws_coalesce_in *in, uint32_t seg, ws_mem_txn *out) {
    uint32_t M = in->active, size = in->access_size;
    if (!M || size > 16) return 0;
    unsigned shift = seg == 32 ? 5 : seg == 64 ? 6 : 7;
    if (M == ~0u && !(size & (size - 1))) {
        unsigned n = coalesce_warp_line(in->addr, size, seg, shift, out);
        if (n) return n;
    }
    return coalesce_spread(in, seg, shift, out);
}

unsigned ws_coalesce(const ws_coalesce_in *in, ws_mem_txn *out) {
    uint32_t size = in->access_size;
    uint32_t seg = size == 1 ? 32 : size == 2 ? (in->sectored ? 32 : 64) : (in->sectored ? 32 : 128);
    if (!(in->local && size > 4)) {
        unsigned n = coalesce_lines(in, seg, out);
        if (n) return n;
    }
    return ws_coalesce_each_lane(in, out);
}

unsigned ws_coalesce_each_lane(const ws_coalesce_in *in, ws_mem_txn *out) {
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
