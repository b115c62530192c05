/* The hot-path rewrites of the one-core speed work compute exactly what the
 * code they replaced did: the inline bit counts (src/util/bits.h) against the
 * compiler's builtins; the age-ordered schedulers' order (ws_sched_ageord_order,
 * whose age check no longer exits early) against a plain sort and partition,
 * with the skipped warp anywhere, the last position included (nothing may be
 * written past the n - 1 warps then ordered); and the shared-memory bank
 * conflict count's quick answer for conflict-free parts against a brute-force
 * count of the distinct words of each bank; the coalescer's byte and sector
 * masks against a byte-by-byte count, and its line-by-line answer against its
 * per-lane loop; the scoreboard's one-word test against its per-id loop; the
 * LD/ST unit's latency-queue move-up from a mask of valid slots, as a ring,
 * against the slot-by-slot loop (every field of every valid slot). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "policy/sched/sched.h"
#include "test.h"
#include "timing/mem/coalesce.h"
#include "timing/sm/ldst_queue.h"
#include "timing/sm/sm_internal.h"
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

/* As the SM calls it: one scheduler's state over many cycles, in which eligibility changes
   every call and an age only now and then (a warp starts), up to the largest scheduler. */
TEST(speed_ageord_kept_order_matches_reference) {
    uint64_t s = 777;
    for (unsigned run = 0; run < 40; run++) {
        unsigned n = run < 30 ? 1 + (unsigned)(next_rand(&s) % 64)
                              : 65 + (unsigned)(next_rand(&s) % (WS_SCHED_MAX_SLOTS - 64));
        ws_sched_ageord a;
        ws_sched_ageord_init(&a, n);
        ws_sched_warp w[WS_SCHED_MAX_SLOTS];
        memset(w, 0, sizeof w);
        uint64_t next_age = 0;
        for (unsigned i = 0; i < n; i++) {
            w[i].slot = (uint16_t)i;
            w[i].age = next_age++;
        }
        for (unsigned c = 0; c < 200; c++) {
            for (unsigned i = 0; i < n; i++) {
                uint64_t r = next_rand(&s);
                w[i].valid = (uint8_t)(r % 5 != 0);
                w[i].waiting = (uint8_t)((r >> 8) % 4 == 0);
                if ((r >> 16) % 97 == 0) w[i].age = next_age++; /* a new warp in the slot */
                if ((r >> 24) % 211 == 0) w[i].age = w[(i + 1) % n].age; /* a tie */
            }
            int skip = c % 5 == 0 ? -1 : (int)(next_rand(&s) % n);
            uint16_t out[WS_SCHED_MAX_SLOTS], ref[WS_SCHED_MAX_SLOTS];
            unsigned k = ws_sched_ageord_order(&a, w, n, out, skip);
            unsigned kr = ref_order(w, n, ref, skip);
            CHECK_EQ_U64(k, kr);
            if (k != kr || memcmp(out, ref, k * sizeof *out)) {
                CHECK(!"kept order differs");
                return;
            }
        }
    }
}

/* the most distinct words in one bank, for each warp part, summed (at least 1) */
static unsigned ref_conflicts(const uint64_t *a, uint32_t active, unsigned nb, unsigned parts) {
    unsigned psize = WS_WARP_SIZE / parts, total = 0;
    for (unsigned p = 0; p < parts; p++) {
        unsigned mx = 0;
        for (unsigned l = p * psize; l < (p + 1) * psize; l++) {
            if (!(active >> l & 1)) continue;
            unsigned b = (unsigned)(a[l] / 4 % nb), words = 0;
            for (unsigned j = p * psize; j < (p + 1) * psize; j++) { /* distinct words of bank b */
                if (!(active >> j & 1) || a[j] / 4 % nb != b) continue;
                bool earlier = false;
                for (unsigned i = p * psize; i < j; i++)
                    earlier |= (active >> i & 1) && a[i] / 4 == a[j] / 4;
                words += !earlier;
            }
            if (words > mx) mx = words;
        }
        total += mx;
    }
    return total ? total : 1;
}

/* (also issue.c's sm_smem_cycles: its aligned-block and span answers, else this count) */
TEST(speed_smem_conflicts_match_reference) {
    ws_config cfg;
    ws_config_init(&cfg);
    ws_sm sm;
    memset(&sm, 0, sizeof sm);
    sm.cfg = &cfg;
    uint64_t s = 777;
    const unsigned banks[] = {32, 16, 64, 24}, nparts[] = {1, 2, 4};
    for (unsigned trial = 0; trial < 6000; trial++) {
        cfg.shmem_num_banks = (int)banks[trial % 4];
        cfg.shmem_warp_parts = (int)nparts[trial / 4 % 3];
        uint64_t a[WS_WARP_SIZE];
        unsigned pattern = (unsigned)(next_rand(&s) % 6);
        uint64_t base = 4 * (next_rand(&s) % 256), stride = 4 * (next_rand(&s) % 5);
        unsigned span = 1 + (unsigned)(next_rand(&s) % 70);
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
            uint64_t r = next_rand(&s);
            if (pattern == 0) a[l] = base + l * stride + (r & 3);      /* strided */
            else if (pattern == 1) a[l] = base + (r & 3);              /* broadcast */
            else if (pattern == 2) a[l] = 4 * (r % 40);                /* few words */
            else if (pattern == 3) a[l] = l % 3 == 0 ? base : 4 * (r % 4096); /* mixed */
            else if (pattern == 4) a[l] = base + 4 * (l % 16) + 64 * (l / 16); /* two tile rows */
            else a[l] = base + 4 * (r % span) + (r >> 32 & 3);       /* words within a span */
        }
        uint32_t active = trial % 5 == 0 || pattern >= 4 ? ~0u : (uint32_t)next_rand(&s);
        if (trial % 7 == 0) active = (uint32_t)next_rand(&s);
        unsigned got = sm_smem_conflict_cycles(&sm, a, active);
        unsigned quick = sm_smem_cycles(&sm, a, active); /* issue.c's quick answers first */
        unsigned want = ref_conflicts(a, active, banks[trial % 4], nparts[trial / 4 % 3]);
        if (got != want || quick != want) {
            CHECK_MSG(got == want && quick == want, "trial %u: %u and %u cycles, expected %u",
                      trial, got, quick, want);
            break;
        }
    }
    ws_config_free(&cfg);
}

/* the coalescer's byte and sector masks, marked a mask byte at a time, against
   marking each byte of each served lane's access that lies in the transaction's segment */
TEST(speed_coalesce_masks_match_bit_loop) {
    uint64_t s = 4242;
    const uint32_t sizes[] = {1, 2, 4, 8, 16};
    for (unsigned trial = 0; trial < 3000; trial++) {
        uint64_t a[WS_WARP_SIZE];
        uint32_t size = sizes[trial % 5];
        ws_coalesce_in in = {.addr = a, .active = (uint32_t)next_rand(&s) | 1u, .access_size = size,
                             .local = trial % 7 == 0, .sectored = trial % 3 == 0};
        uint64_t seg = size == 1 || in.sectored ? 32 : size == 2 ? 64 : 128;
        uint64_t base = 4096 * (next_rand(&s) % 16);
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) /* aligned lanes, and unaligned ones */
            a[l] = base + (next_rand(&s) % 512) * (trial % 4 ? size : 1);
        ws_mem_txn out[WS_MAX_TRANSACTIONS];
        unsigned n = ws_coalesce(&in, out);
        /* the transactions: one per distinct segment touched, ascending, each with the
           lanes that touch it */
        uint64_t segs[2 * WS_MAX_TRANSACTIONS];
        uint32_t slanes[2 * WS_MAX_TRANSACTIONS];
        unsigned ns = 0;
        uint32_t chunk = in.local && size > 4 ? 4 : size;
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
            if (!(in.active >> l & 1)) continue;
            for (uint64_t b = a[l]; b < a[l] + size; b += chunk)
                for (uint64_t e = b; e < b + chunk; e++) {
                    uint64_t sg = e & ~(seg - 1);
                    unsigned j = 0;
                    while (j < ns && segs[j] != sg) j++;
                    if (j == ns) {
                        segs[ns] = sg;
                        slanes[ns++] = 0;
                    }
                    slanes[j] |= 1u << l;
                }
        }
        CHECK_EQ_U64(n, ns);
        for (unsigned i = 0; i < n; i++) {
            uint64_t sg = out[i].addr & ~(seg - 1);
            unsigned j = 0;
            while (j < ns && segs[j] != sg) j++;
            if (j == ns || slanes[j] != out[i].lanes || (i && out[i - 1].addr >= out[i].addr)) {
                CHECK_MSG(0, "trial %u transaction %u: segment, lanes or order differ", trial, i);
                return;
            }
        }
        for (unsigned i = 0; i < n; i++) {
            uint8_t bytes[16] = {0}, sectors = 0;
            uint64_t s0 = out[i].addr & ~(seg - 1);
            for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
                if (!(out[i].lanes >> l & 1)) continue;
                for (uint64_t b = a[l]; b < a[l] + size; b++) {
                    if ((b & ~(seg - 1)) != s0) continue;
                    unsigned o = (unsigned)(b & 127);
                    bytes[o >> 3] |= (uint8_t)(1u << (o & 7));
                    sectors |= (uint8_t)(1u << (o >> 5));
                }
            }
            if (memcmp(bytes, out[i].bytes, sizeof bytes) || sectors != out[i].sectors) {
                CHECK_MSG(0, "trial %u transaction %u: masks differ", trial, i);
                return;
            }
        }
    }
}

/* ws_coalesce's line-by-line answers (no lane crossing a segment; lines ascending in
   lane order, or in any order) against the per-lane loop: lanes in one line, aligned
   and not, some crossing a segment or reaching the next line, rows of lanes going up
   or down, strides, transposed tiles, lines in any order, every size, sectored or not */
TEST(speed_coalesce_line_matches_each_lane) {
    uint64_t s = 977;
    const uint32_t sizes[] = {1, 2, 4, 8, 16, 12};
    for (unsigned trial = 0; trial < 12000; trial++) {
        uint64_t a[WS_WARP_SIZE];
        uint32_t size = sizes[trial % 6];
        uint32_t active = trial % 3 ? ~0u : (uint32_t)next_rand(&s);
        ws_coalesce_in in = {.addr = a, .active = active, .access_size = size,
                             .local = trial % 11 == 0, .sectored = trial % 4 == 0};
        uint64_t line = 128 * (next_rand(&s) % 64) + (trial % 13 == 0 ? 0x100000000ull : 0);
        unsigned pattern = (unsigned)(next_rand(&s) % 11);
        unsigned row = 4u << (next_rand(&s) % 4);                        /* lanes per row */
        uint64_t pitch = 32 * (1 + next_rand(&s) % 40), shift = next_rand(&s) % 3 ? 0 : next_rand(&s) % 8;
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
            uint64_t r = next_rand(&s);
            uint64_t slots = 128 / size ? 128 / size : 1;
            if (pattern == 0) a[l] = line + (l % slots) * size;           /* consecutive */
            else if (pattern == 1) a[l] = line + (r % slots) * size;      /* aligned, any order */
            else if (pattern == 2) a[l] = line + r % 128;                 /* unaligned */
            else if (pattern == 3) a[l] = line + (r % 160);               /* into the next line */
            else if (pattern == 4) a[l] = line + shift + l / row * pitch + l % row * size; /* rows */
            else if (pattern == 5) a[l] = line + 8192 + shift - l / row * pitch + l % row * size;
            else if (pattern == 6) a[l] = line + shift + l * pitch / 8;  /* a stride */
            else if (pattern == 7) /* a transposed tile: columns of row lanes */
                a[l] = line + (l % row) * pitch * 4 + (l / row) * size + shift * size;
            else if (pattern == 8) /* lines in any order */
                a[l] = line + (r % 8) * 128 * (1 + pitch % 3) + (r >> 8) % slots * size;
            else if (pattern == 9) a[l] = line + (shift * 4 % slots + l) * size; /* consecutive */
            else a[l] = line + (shift + 3) * size; /* one address */
        }
        if (trial % 17 == 0) a[31] += 128; /* one lane on the next line */
        ws_mem_txn got[WS_MAX_TRANSACTIONS], want[WS_MAX_TRANSACTIONS];
        unsigned n = ws_coalesce(&in, got), nw = ws_coalesce_each_lane(&in, want);
        bool same = n == nw;
        for (unsigned i = 0; same && i < n; i++)
            same = got[i].addr == want[i].addr && got[i].size == want[i].size &&
                   got[i].lanes == want[i].lanes && got[i].sectors == want[i].sectors &&
                   !memcmp(got[i].bytes, want[i].bytes, sizeof got[i].bytes);
        if (!same) {
            CHECK_MSG(0, "trial %u (pattern %u, size %u): %u transactions, per-lane loop %u",
                      trial, pattern, size, n, nw);
            return;
        }
    }
}

/* A warp with scoreboard words sb (long-latency words sbl), reserved in most trials, and an
   empty decoded instruction, for the scoreboard tests below */
static void scoreboard_case(sm_warp *w, sm_dec *d, uint64_t *sb, uint64_t *sbl, unsigned trial) {
    memset(w, 0, sizeof *w);
    w->sb = sb;
    w->sb_long = sbl;
    w->n_reserved = trial % 9 ? 1 : 0;
    memset(d, 0, sizeof *d);
}

/* The scoreboard's one-word test (sm_dec.sb_one: every id below 64, one AND) gives
   what the per-id loop gives, for reservations in both words */
TEST(speed_scoreboard_one_word_matches_loop) {
    uint64_t s = 31337;
    for (unsigned trial = 0; trial < 20000; trial++) {
        uint64_t sb[2] = {next_rand(&s) & next_rand(&s), next_rand(&s)}, sbl[2] = {0, 0};
        sm_warp w;
        sm_dec d;
        scoreboard_case(&w, &d, sb, sbl, trial);
        d.ndst = (uint8_t)(next_rand(&s) % (SM_MAX_DST + 1));
        d.nsrc = (uint8_t)(next_rand(&s) % (SM_MAX_SRC + 1));
        for (unsigned i = 0; i < d.ndst; i++) d.dst[i] = (uint16_t)(next_rand(&s) % 64);
        for (unsigned i = 0; i < d.nsrc; i++) d.src[i] = (uint16_t)(next_rand(&s) % 64);
        bool loop = sm_sb_collides(&w, &d); /* sb_one false: the loop */
        d.sb_one = true;
        for (unsigned i = 0; i < d.ndst; i++) d.sb_bits |= 1ull << d.dst[i];
        for (unsigned i = 0; i < d.nsrc; i++) d.sb_bits |= 1ull << d.src[i];
        if (sm_sb_collides(&w, &d) != loop) {
            CHECK_MSG(0, "trial %u: one-word test differs from the loop", trial);
            return;
        }
    }
}

/* The scoreboard's two-word test (sm_dec.sb_two, as sm_decode_inst sets it: ids in at most
   two words of a four-word scoreboard) gives what the per-id loop gives, in sm_sb_hit and
   sm_sb_collides */
TEST(speed_scoreboard_two_words_match_loop) {
    uint64_t s = 4242;
    for (unsigned trial = 0; trial < 20000; trial++) {
        uint64_t sb[4], sbl[4] = {0, 0, 0, 0};
        for (unsigned k = 0; k < 4; k++) sb[k] = next_rand(&s) & next_rand(&s) & next_rand(&s);
        sm_warp w;
        sm_dec d;
        scoreboard_case(&w, &d, sb, sbl, trial);
        unsigned wa = (unsigned)(next_rand(&s) % 4), wb = (unsigned)(next_rand(&s) % 4);
        d.ndst = (uint8_t)(next_rand(&s) % (SM_MAX_DST + 1));
        d.nsrc = (uint8_t)(next_rand(&s) % (SM_MAX_SRC + 1));
        for (unsigned i = 0; i < d.ndst + d.nsrc; i++) {
            uint16_t id = (uint16_t)((next_rand(&s) & 1 ? wa : wb) * 64 + next_rand(&s) % 64);
            if (i < d.ndst) d.dst[i] = id;
            else d.src[i - d.ndst] = id;
        }
        bool loop = sm_sb_collides(&w, &d); /* sb_one, sb_two false: the loop */
        d.sb_two = true;
        d.sb_wa = (uint8_t)wa;
        d.sb_wb = (uint8_t)wb;
        for (unsigned i = 0; i < d.ndst + d.nsrc; i++) {
            unsigned id = i < d.ndst ? d.dst[i] : d.src[i - d.ndst];
            if (id >> 6 == wa) d.sb_ma |= 1ull << (id & 63);
            else d.sb_mb |= 1ull << (id & 63);
        }
        if (sm_sb_collides(&w, &d) != loop || sm_sb_hit(&w, &d) != loop) {
            CHECK_MSG(0, "trial %u: two-word test differs from the loop", trial);
            return;
        }
    }
}

static bool l1acc_same(const sm_l1acc *a, const sm_l1acc *b) {
    return a->in == b->in && a->warp == b->warp && a->space == b->space &&
           a->write == b->write && a->addr == b->addr && a->size == b->size &&
           a->sectors == b->sectors && !memcmp(a->bytes, b->bytes, sizeof a->bytes) &&
           a->lanes == b->lanes && a->tx == b->tx && a->valid == b->valid;
}

/* The L1 latency queue and the shared-memory pipeline as FIFOs with entry cycles
   (ldst_queue.h) against the slot-by-slot move-up: queues of 1-70 slots through 300
   cycles each of the head leaving or staying (a refusal, a busy writeback), the
   move-up and an entry trying the tail; the entry at the head, a taken tail, the
   first entry's slot and a packed queue must agree every cycle, and the FIFO's
   entries must be the loop's, in order. */
TEST(speed_l1_queue_fifo_matches_loop) {
    uint64_t s = 0x5851F42D4C957F2Dull;
    enum { MAXL = 70 };
    sm_l1acc a[MAXL], q[MAXL];
    sm_smem_ent sp[MAXL];
    sm_inst *dummy = calloc(128, sizeof *dummy); /* (distinct among the entries in a queue) */
    ws_sm *sm = calloc(1, sizeof *sm);
    CHECK(sm != NULL && dummy != NULL);
    if (!sm || !dummy) {
        free(sm);
        free(dummy);
        return;
    }
    sm->smem_pipe = sp;
    uint32_t base = 0, cnt = 0;
    sm->l1q = q;
    sm->l1q_base = &base;
    sm->l1q_cnt = &cnt;
    sm->l1_banks = 1;
    for (unsigned trial = 0; trial < 600; trial++) {
        unsigned lat = 1 + (unsigned)(next_rand(&s) % MAXL);
        memset(a, 0, sizeof a);
        memset(q, 0, sizeof q);
        sm->l1_lat = sm->smem_lat = lat;
        base = (uint32_t)(next_rand(&s) % lat); /* the rings may start anywhere */
        sm->smem_base = (uint32_t)(next_rand(&s) % lat);
        cnt = 0;
        sm->l1q_n = sm->smem_n = 0;
        unsigned serial = 0, pleave = 1 + trial % 4, penter = 1 + trial % 3;
        for (uint64_t now = 1000 * trial; now < 1000 * trial + 300; now++) {
            sm->now = now;
            uint64_t x = next_rand(&s);
            /* the head: the loop's slot 0 against the FIFO's oldest entry, once there */
            sm_l1acc *h = sm_l1q_at_head(sm, 0);
            if (a[0].valid != (h != NULL) || (h && (!l1acc_same(&a[0], h))) ||
                a[0].valid != sm_smem_head_full(sm)) {
                CHECK_MSG(0, "trial %u (lat %u) cycle %llu: the head differs", trial, lat,
                          (unsigned long long)now);
                goto out;
            }
            if (h && x % 4 < pleave) { /* accepted: it leaves */
                a[0].valid = false;
                sm_l1q_leave(sm, 0);
                if (sm_smem_pop(sm) != h->in) {
                    CHECK_MSG(0, "trial %u: the pipeline's head differs", trial);
                    goto out;
                }
            }
            sm_l1q_shift_loop(a, lat);
            if (x >> 8 & 1 ? (x >> 9) % 3 < penter : 0) {
                sm_l1acc *t = sm_l1q_free_tail(sm, 0);
                if (a[lat - 1].valid != (t == NULL) || sm_smem_tail_taken(sm) != (t == NULL)) {
                    CHECK_MSG(0, "trial %u (lat %u) cycle %llu: the tail differs", trial, lat,
                              (unsigned long long)now);
                    goto out;
                }
                if (t) {
                    sm_l1acc n;
                    memset(&n, 0, sizeof n);
                    n.in = &dummy[serial % 128];
                    n.addr = x;
                    n.warp = (uint16_t)serial++;
                    n.lanes = (uint32_t)(x >> 32);
                    n.valid = true;
                    a[lat - 1] = n;
                    *t = n;
                    sm_l1q_enter(sm, 0, t);
                    sm_smem_push(sm, n.in);
                }
            }
            /* after the cycle: the entries in order, the first one's slot, packed or not */
            unsigned k = 0, first = lat, nv = 0;
            bool packed = true;
            for (unsigned i = 0; i < lat; i++) {
                if (!a[i].valid) continue;
                if (first == lat) first = i;
                if (i != nv) packed = false;
                nv++;
                const sm_l1acc *e = k < cnt ? sm_l1q_entry(sm, 0, k) : NULL;
                k++;
                if (!e || !e->valid || !l1acc_same(&a[i], e) || k > sm->smem_n ||
                    sm_smem_entry(sm, k - 1)->in != a[i].in) {
                    CHECK_MSG(0, "trial %u (lat %u): entry %u differs", trial, lat, k - 1);
                    goto out;
                }
            }
            if (nv != cnt || nv != sm->l1q_n || nv != sm->smem_n ||
                (nv && sm_l1q_first_slot(sm, 0) != first) || sm_l1q_packed(sm, 0) != packed) {
                CHECK_MSG(0, "trial %u (lat %u) cycle %llu: count, first slot or packing differs",
                          trial, lat, (unsigned long long)now);
                goto out;
            }
        }
        /* the ring's other slots are empty (hazard.c scans the valid flags) */
        unsigned nvalid = 0;
        for (unsigned i = 0; i < lat; i++) nvalid += q[i].valid;
        CHECK_EQ_U64(nvalid, cnt);
    }
out:
    free(dummy);
    free(sm);
}


/* Constant and parameter loads: the one-line answer for a uniform warp against
   the search over lanes (uniform, two-line and scattered warps, partial masks, runs of
   lanes). */
TEST(speed_const_txns_match_search) {
    uint64_t s = 0x94D049BB133111EBull;
    ws_mem_txn fast[WS_WARP_SIZE], slow[WS_WARP_SIZE];
    for (unsigned trial = 0; trial < 20000; trial++) {
        uint64_t addr[WS_WARP_SIZE];
        uint32_t active = (uint32_t)next_rand(&s);
        if (trial % 3 == 0) active = ~0u;
        if (trial % 6 == 1) { /* a run of lanes (from the same draw) */
            unsigned f = active % 32, n = 1 + (active >> 5) % (32 - f);
            active = (uint32_t)(((1ull << n) - 1) << f);
        }
        if (!active) active = 1;
        uint32_t line = trial % 2 ? 64 : 128;
        uint64_t base = (next_rand(&s) % 4096) * 256, a0 = next_rand(&s) % 65536;
        if (trial % 5 == 0) base += next_rand(&s) % 64; /* a base inside a line */
        unsigned kind = trial % 4;
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
            uint64_t x = next_rand(&s);
            addr[l] = kind == 0   ? a0                                 /* one word */
                      : kind == 1 ? a0 + (x % 8) * 4                   /* near it */
                      : kind == 2 ? a0 + (x % 2) * 256 + (x >> 8) % 16 /* two lines */
                                  : x % 65536;                         /* anywhere */
        }
        unsigned nf = sm_const_txns(addr, active, base, line, fast, false);
        unsigned ns = sm_const_txns(addr, active, base, line, slow, true);
        bool ok = nf == ns;
        for (unsigned i = 0; ok && i < nf; i++)
            ok = fast[i].addr == slow[i].addr && fast[i].size == slow[i].size &&
                 fast[i].lanes == slow[i].lanes && fast[i].sectors == slow[i].sectors &&
                 !memcmp(fast[i].bytes, slow[i].bytes, sizeof fast[i].bytes);
        if (!ok) {
            CHECK_MSG(0, "trial %u: the uniform answer differs from the search", trial);
            return;
        }
    }
}
