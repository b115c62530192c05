/* The hot-path rewrites of the one-core speed work compute exactly what the
 * code they replaced did: the inline bit counts (src/util/bits.h) against the
 * compiler's builtins, and the branch-free partition of the age-ordered
 * schedulers (ws_sched_ageord_order) against the plain two-list partition,
 * including a skipped warp in the last position (the order may then hold only
 * n - 1 warps: nothing may be written past them). */
#include <stdint.h>
#include <stdlib.h>

#include "policy/sched/sched.h"
#include "test.h"
#include "util/bits.h"

static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

TEST(speed_popcount_matches_builtin) {
    uint64_t s = 0x9E3779B97F4A7C15ull;
    const uint64_t edge[] = {0, 1, ~0ull, 0x8000000000000000ull, 0xFFFFFFFFull, 0x5555555555555555ull};
    for (unsigned i = 0; i < sizeof edge / sizeof *edge; i++) {
        CHECK_EQ_U64(ws_popc64(edge[i]), (uint64_t)__builtin_popcountll(edge[i]));
        CHECK_EQ_U64(ws_popc32((uint32_t)edge[i]), (uint64_t)__builtin_popcount((uint32_t)edge[i]));
    }
    for (unsigned i = 0; i < 100000; i++) {
        uint64_t v = next_rand(&s);
        if (ws_popc64(v) != (unsigned)__builtin_popcountll(v) ||
            ws_popc32((uint32_t)v) != (unsigned)__builtin_popcount((uint32_t)v)) {
            CHECK(!"popcount differs");
            return;
        }
    }
}

/* the partition as it was written before: eligible warps first, each group by age */
static unsigned ref_order(const ws_sched_warp *w, unsigned n, uint16_t *out, int skip) {
    uint16_t idx[WS_SCHED_MAX_SLOTS];
    for (unsigned i = 0; i < n; i++) idx[i] = (uint16_t)i;
    for (unsigned i = 1; i < n; i++) /* insertion sort by (age, slot) */
        for (unsigned j = i; j > 0 && (w[idx[j - 1]].age > w[idx[j]].age ||
                                       (w[idx[j - 1]].age == w[idx[j]].age && idx[j - 1] > idx[j]));
             j--) {
            uint16_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    unsigned k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < n; i++) {
            uint16_t v = idx[i];
            if ((int)v == skip) continue;
            bool el = w[v].valid && !w[v].waiting;
            if (el == (pass == 0)) out[k++] = v;
        }
    return k;
}

TEST(speed_ageord_partition_matches_reference) {
    uint64_t s = 12345;
    ws_sched_ageord a;
    for (unsigned trial = 0; trial < 3000; trial++) {
        unsigned n = 1 + (unsigned)(next_rand(&s) % 48);
        ws_sched_warp w[WS_SCHED_MAX_SLOTS];
        memset(w, 0, sizeof w);
        for (unsigned i = 0; i < n; i++) {
            uint64_t r = next_rand(&s);
            w[i].slot = (uint16_t)i;
            w[i].valid = (uint8_t)(r & 1 ? 1 : r & 2);
            w[i].waiting = (uint8_t)((r >> 2) % 3 == 0);
            w[i].age = (r >> 8) % 8; /* ties: the slot breaks them */
        }
        if (trial % 3 == 0) ws_sched_ageord_init(&a, n); /* else re-sort from the last order */
        int skip = trial % 4 == 0 ? -1 : trial % 4 == 1 ? (int)n - 1 : (int)(next_rand(&s) % n);
        /* as GTO calls it: the skipped warp first, the rest after it (n - 1 slots) */
        uint16_t buf[WS_SCHED_MAX_SLOTS + 1], ref[WS_SCHED_MAX_SLOTS];
        const uint16_t guard = 0xBEEF;
        unsigned base = skip >= 0 ? 1 : 0;
        for (unsigned i = 0; i <= WS_SCHED_MAX_SLOTS; i++) buf[i] = guard;
        unsigned k = ws_sched_ageord_order(&a, w, n, buf + base, skip);
        unsigned kr = ref_order(w, n, ref, skip);
        CHECK_EQ_U64(k, kr);
        if (k != kr) return;
        for (unsigned i = 0; i < k; i++)
            if (buf[base + i] != ref[i]) {
                CHECK(!"order differs");
                return;
            }
        CHECK_EQ_U64(buf[base + k], guard); /* nothing written past the order */
        if (base) CHECK_EQ_U64(buf[0], guard);
    }
}
