/* Shared-LLC reuse-distance analyses (src/analysis/llc.h): Table 5's reuse
 * distances, and both estimators never predicting fewer misses than an LRU
 * cache sees in interleavings the hardware allows (any interleaving for the
 * Simple method; interval-ordered ones for the Access Interval method). */
#include <stdlib.h>

#include "analysis/llc.h"
#include "test.h"

TEST(llc_reuse_distances_table5) {
    /* A B C D A C E B, all in one set */
    const uint64_t s[8] = {1, 2, 3, 4, 1, 3, 5, 2};
    uint32_t rd[8];
    ws_llc_reuse_distances(s, 8, 1, rd);
    const uint32_t want[8] = {WS_RD_INF, WS_RD_INF, WS_RD_INF, WS_RD_INF, 3, 2, WS_RD_INF, 4};
    for (int i = 0; i < 8; i++) CHECK_EQ_U64(rd[i], want[i]);
    /* 4 ways: access 4 (A, RD 3) hits, access 7 (B, RD 4) misses */
    CHECK(rd[4] < 4 && rd[7] >= 4);
    const uint64_t *one[1] = {s};
    size_t n[1] = {8};
    ws_llc_trace t = {1, one, n};
    unsigned order[8] = {0};
    CHECK_EQ_I64(ws_llc_lru_misses(&t, order, 8, 1, 4), 6); /* hits: accesses 4 and 5 */
    CHECK_EQ_I64(ws_llc_simple(&t, 1, 4), 6);               /* one core: exact */
    CHECK_EQ_I64(ws_llc_access_interval(&t, 1, 4, 2), 6);
}

static uint64_t rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

TEST(llc_estimators_bound_every_legal_interleaving) {
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int trial = 0; trial < 40; trial++) {
        enum { C = 3, N = 40 };
        uint64_t buf[C][N];
        const uint64_t *lines[C];
        size_t n[C];
        unsigned ways = 2 + (unsigned)(rnd(&seed) % 3), sets = 1 + (unsigned)(rnd(&seed) % 3);
        unsigned quota = 1 + (unsigned)(rnd(&seed) % 4);
        for (int c = 0; c < C; c++) {
            n[c] = 10 + rnd(&seed) % (N - 10);
            for (size_t i = 0; i < n[c]; i++) buf[c][i] = rnd(&seed) % 12; /* much reuse */
            lines[c] = buf[c];
        }
        ws_llc_trace t = {C, lines, n};
        int64_t simple = ws_llc_simple(&t, sets, ways);
        int64_t ai = ws_llc_access_interval(&t, sets, ways, quota);
        for (int k = 0; k < 30; k++) {
            unsigned order[C * N], m = 0;
            size_t left[C] = {n[0], n[1], n[2]};
            /* any interleaving */
            while (left[0] + left[1] + left[2]) {
                unsigned c = (unsigned)(rnd(&seed) % C);
                if (left[c]) order[m++] = c, left[c]--;
            }
            int64_t lru = ws_llc_lru_misses(&t, order, m, sets, ways);
            CHECK_MSG(simple >= lru, "simple %lld < LRU %lld", (long long)simple, (long long)lru);
            /* interval-ordered: interval k of every core before interval k + 1 */
            m = 0;
            size_t done[C] = {0, 0, 0};
            for (size_t iv = 0; m < n[0] + n[1] + n[2]; iv++) {
                size_t want[C], tot = 0;
                for (int c = 0; c < C; c++) {
                    size_t hi = (iv + 1) * quota < n[c] ? (iv + 1) * quota : n[c];
                    want[c] = hi > done[c] ? hi - done[c] : 0;
                    tot += want[c];
                }
                while (tot) {
                    unsigned c = (unsigned)(rnd(&seed) % C);
                    if (want[c]) order[m++] = c, want[c]--, done[c]++, tot--;
                }
            }
            lru = ws_llc_lru_misses(&t, order, m, sets, ways);
            CHECK_MSG(ai >= lru, "access interval %lld < LRU %lld", (long long)ai, (long long)lru);
        }
        CHECK(ai <= (int64_t)(n[0] + n[1] + n[2]) && simple <= (int64_t)(n[0] + n[1] + n[2]));
    }
}
