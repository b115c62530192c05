/* The functional step's whole-warp kernels (src/exec/exec_simd.c) against the
 * lane loops they stand in for: random bit patterns and the special values
 * (NaNs of both signs, infinities, zeros, denormals, the largest finite), every
 * operation, the destination one of the sources. On a host without AVX2+FMA
 * the kernels decline (false) and nothing is compared. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "test.h"

static uint64_t simd_rng(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static const uint32_t simd_special[] = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u,
                                        0xFFC00001u, 0x7F800001u, 0x00000001u, 0x807FFFFFu, 0x7F7FFFFFu,
                                        0x3F800000u, 0xBF800000u, 0x00800000u, 0x33800000u};

static uint64_t simd_scalar(ws_simd_op op, uint64_t a, uint64_t b, uint64_t c) {
    float x = ws_f32(a), y = ws_f32(b), z = ws_f32(c), r = 0;
    switch (op) {
    case WS_SIMD_ADD: r = x + y; break;
    case WS_SIMD_SUB: r = x - y; break;
    case WS_SIMD_MUL: r = x * y; break;
    case WS_SIMD_DIV: r = x / y; break;
    case WS_SIMD_FMA: r = fmaf(x, y, z); break;
    }
    return r == r ? ws_f32b(r) : 0x7FFFFFFFull;
}

TEST(exec_simd_f32_matches_lane_loop) {
    uint64_t s = 0x9E3779B97F4A7C15ull;
    int ran = 0;
    for (int round = 0; round < 400; round++) {
        uint64_t A[32], B[32], C[32], D[32], R[32];
        for (int l = 0; l < 32; l++) {
            uint64_t v[3];
            for (int k = 0; k < 3; k++) {
                uint64_t r = simd_rng(&s);
                /* upper words are garbage the kernels must ignore; a third of the lanes special */
                v[k] = r % 3 == 0 ? (r & ~0xFFFFFFFFull) | simd_special[(r >> 8) % (sizeof simd_special / 4)] : r;
                /* small exponents so that sums and products of normal numbers also occur */
                if (round % 2 && r % 3 == 1) v[k] = (v[k] & 0xFFFFFFFF807FFFFFull) | ((r >> 40) % 60 + 97) << 23;
            }
            A[l] = v[0], B[l] = v[1], C[l] = v[2];
        }
        for (int op = WS_SIMD_ADD; op <= WS_SIMD_FMA; op++) {
            for (int l = 0; l < 32; l++) R[l] = simd_scalar((ws_simd_op)op, A[l], B[l], C[l]);
            memset(D, 0xA5, sizeof D);
            if (!ws_simd_f32_full((ws_simd_op)op, D, A, B, C)) continue;
            ran++;
            for (int l = 0; l < 32; l++) CHECK_EQ_U64(D[l], R[l]);
            /* the destination is a source */
            uint64_t A2[32];
            memcpy(A2, A, sizeof A2);
            CHECK(ws_simd_f32_full((ws_simd_op)op, A2, A2, B, C));
            for (int l = 0; l < 32; l++) CHECK_EQ_U64(A2[l], R[l]);
            memcpy(A2, C, sizeof A2);
            CHECK(ws_simd_f32_full((ws_simd_op)op, A2, A, B, A2));
            for (int l = 0; l < 32; l++) CHECK_EQ_U64(A2[l], R[l]);
        }
    }
    if (ran) CHECK_EQ_U64((uint64_t)ran, 2000u);
}

/* exec_mem.c's scalar address loops, as they were before the kernels */
static bool simd_addrs64_ref(const uint64_t *b, uint64_t off, uint64_t *ad, uint64_t lo, uint64_t last,
                             uint32_t size) {
    uint64_t any = 0, hi = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint64_t a = b[l] + off, d = a - lo;
        ad[l] = a;
        any |= a;
        hi = d > hi ? d : hi;
    }
    return (any & (size - 1)) || hi > last;
}

static bool simd_addrs32_ref(const uint64_t *b, uint32_t off, uint64_t *ad, uint32_t last, uint32_t size) {
    uint32_t any = 0, over = 0;
    for (unsigned l = 0; l < 32; l++) {
        uint32_t a = (uint32_t)b[l] + off;
        ad[l] = a;
        any |= a;
        over |= (uint32_t)(a > last);
    }
    return (any & (size - 1)) || over;
}

/* Bases spread around an allocation [lo, lo + last]: inside, at its last address,
   one past it, below it (wrapping high), misaligned; upper words of 32-bit bases garbage. */
TEST(exec_simd_addrs_match_lane_loop) {
    uint64_t s = 0x2545F4914F6CDD1Dull;
    int ran = 0, bad_seen = 0, good_seen = 0;
    for (int round = 0; round < 3000; round++) {
        uint32_t size = 1u << (simd_rng(&s) % 4);
        uint64_t lo = 0x10000000000ull + (simd_rng(&s) % 4096) * 256, last = simd_rng(&s) % 100000;
        uint64_t off = round % 3 ? simd_rng(&s) % 64 : (uint64_t)-(int64_t)(simd_rng(&s) % 64);
        uint64_t b[32], ad[32], ref[32];
        unsigned kind = (unsigned)(simd_rng(&s) % 6);
        for (int l = 0; l < 32; l++) {
            uint64_t r = simd_rng(&s);
            uint64_t in = lo - off + (last ? r % (last + 1) : 0) / size * size;
            b[l] = in;
            if (kind == 1 && l == (int)(r >> 50) % 32) b[l] = lo + last - off + 1; /* one past */
            if (kind == 2 && l == (int)(r >> 50) % 32) b[l] = lo - off - size;     /* below */
            if (kind == 3 && l == (int)(r >> 50) % 32) b[l] |= 1;                  /* misaligned */
            if (kind == 4) b[l] = r;                                               /* anything */
            if (kind == 5 && l == 31) b[l] = lo + last - off;                      /* the last address */
        }
        memset(ad, 0, sizeof ad);
        bool want = simd_addrs64_ref(b, off, ref, lo, last, size);
        int got = ws_simd_addrs64_full(b, off, ad, lo, last, size);
        if (got < 0) continue;
        ran++;
        bad_seen += want, good_seen += !want;
        CHECK_EQ_U64((uint64_t)got, (uint64_t)want);
        for (int l = 0; l < 32; l++) CHECK_EQ_U64(ad[l], ref[l]);
        /* 32-bit: the low words, a limit below 2^32 */
        uint32_t last32 = (uint32_t)(simd_rng(&s) % 2 ? last : simd_rng(&s));
        uint32_t off32 = (uint32_t)off;
        for (int l = 0; l < 32; l++) b[l] = (simd_rng(&s) << 32) | (uint32_t)(b[l] - lo);
        memset(ad, 0, sizeof ad);
        want = simd_addrs32_ref(b, off32, ref, last32, size);
        CHECK_EQ_U64((uint64_t)ws_simd_addrs32_full(b, off32, ad, last32, size), (uint64_t)want);
        for (int l = 0; l < 32; l++) CHECK_EQ_U64(ad[l], ref[l]);
    }
    if (ran) CHECK(bad_seen > 100 && good_seen > 100);
}

/* A full warp's 32-bit loads (the gather) against the lane loop: random words of a buffer
   addressed from a heap base far from the buffer's host address (as exec_global's hb), lanes
   on one word, on neighbours and anywhere, values with the top bit set. */
TEST(exec_simd_load32_matches_lane_loop) {
    uint64_t s = 0x9E3779B97F4A7C15ull;
    uint8_t buf[4096];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)simd_rng(&s);
    const uint64_t base = 0x10000000000ull;
    uintptr_t hb = (uintptr_t)buf - (uintptr_t)base;
    for (int round = 0; round < 500; round++) {
        uint64_t ad[32], D[32], want[32];
        uint64_t w0 = simd_rng(&s) % (sizeof buf / 4 - 32);
        for (int l = 0; l < 32; l++) {
            uint64_t r = simd_rng(&s);
            uint64_t w = round % 3 == 0 ? w0 : round % 3 == 1 ? w0 + (uint64_t)l : r % (sizeof buf / 4);
            ad[l] = base + 4 * w;
            uint32_t v;
            memcpy(&v, buf + 4 * w, 4);
            want[l] = v;
            D[l] = r; /* overwritten */
        }
        if (!ws_simd_load32_full(D, hb, ad)) return;
        for (int l = 0; l < 32; l++) CHECK_EQ_U64(D[l], want[l]);
    }
}

/* A full warp's store as one log entry (WL_STORE_WARP) writes what 32 WL_STORE entries
   write, in lane order (lanes storing to one word: the last wins), after and before
   other entries of the cycle; lanes on consecutive elements too. */
TEST(exec_simd_wlog_warp_store_matches_lane_entries) {
    uint64_t s = 0x1234567887654321ull;
    for (int round = 0; round < 200; round++) {
        uint8_t heap_a[512], heap_b[512];
        for (int i = 0; i < 512; i++) heap_a[i] = heap_b[i] = (uint8_t)simd_rng(&s);
        ws_wlog *la = ws_wlog_create(NULL), *lb = ws_wlog_create(NULL);
        CHECK(la && lb);
        for (int k = 0; k < 3; k++) {
            uint8_t esz = (uint8_t)(1u << (simd_rng(&s) % 4));
            uint64_t pre = simd_rng(&s) % (512 / esz) * esz;
            /* a lone store before the warp's, to a word the warp may overwrite */
            *ws_wlog_add(la) = (ws_wlog_ent){.hp = heap_a + pre, .b = simd_rng(&s), .kind = WL_STORE, .size = esz};
            *ws_wlog_add(lb) = (ws_wlog_ent){.hp = heap_b + pre, .b = la->e[la->n - 1].b, .kind = WL_STORE, .size = esz};
            uint64_t ad[32], v[32];
            /* every other round, the second warp's lanes on consecutive elements (the packed
               store) from near the lone store's word */
            bool seq = k == 1 && round % 2 == 0;
            uint64_t seq0 = pre % ((512 / esz - 32) * esz);
            for (int l = 0; l < 32; l++) {
                ad[l] = WS_GLOBAL_HEAP_BASE + simd_rng(&s) % (simd_rng(&s) % 2 ? 64 / esz : 512 / esz) * esz;
                if (seq) ad[l] = WS_GLOBAL_HEAP_BASE + seq0 + (uint64_t)l * esz;
                v[l] = simd_rng(&s);
                *ws_wlog_add(lb) = (ws_wlog_ent){.hp = heap_b + (ad[l] - WS_GLOBAL_HEAP_BASE), .b = v[l],
                                                 .kind = WL_STORE, .size = esz};
            }
            size_t at;
            uint64_t *w = ws_wlog_words(la, 64, &at);
            memcpy(w, ad, sizeof ad);
            memcpy(w + 32, v, sizeof v);
            *ws_wlog_add(la) = (ws_wlog_ent){.hp = heap_a, .b = at, .kind = WL_STORE_WARP, .size = esz};
        }
        ws_wlog_commit(la);
        ws_wlog_commit(lb);
        CHECK(memcmp(heap_a, heap_b, sizeof heap_a) == 0);
        CHECK(ws_wlog_empty(la) && la->nw == 0);
        ws_wlog_destroy(la);
        ws_wlog_destroy(lb);
    }
}

/* 64-bit add and sub of a full warp, wrapping; the destination one of the sources */
TEST(exec_simd_addsub_matches_lane_loop) {
    uint64_t s = 0xD1B54A32D192ED03ull;
    for (int round = 0; round < 200; round++) {
        uint64_t A[32], B[32], D[32], R[32];
        for (int l = 0; l < 32; l++) {
            A[l] = simd_rng(&s), B[l] = simd_rng(&s);
            if (l % 5 == 0) B[l] = ~A[l] + (l % 2); /* sums that wrap to zero or all ones */
        }
        for (int sub = 0; sub < 2; sub++) {
            for (int l = 0; l < 32; l++) R[l] = sub ? A[l] - B[l] : A[l] + B[l];
            if (!ws_simd_addsub_full(D, A, B, sub)) return;
            for (int l = 0; l < 32; l++) CHECK_EQ_U64(D[l], R[l]);
            uint64_t B2[32];
            memcpy(B2, B, sizeof B2);
            CHECK(ws_simd_addsub_full(B2, A, B2, sub));
            for (int l = 0; l < 32; l++) CHECK_EQ_U64(B2[l], R[l]);
        }
    }
}
