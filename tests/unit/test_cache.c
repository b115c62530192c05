/* Cache rules: config strings, set-index functions, hits, misses, MSHR
 * merging, each reservation failure, replacement and write policies. */
#include <stdlib.h>
#include <string.h>

#include "policy/index/index.h"
#include "test.h"
#include "timing/mem/cache.h"

static ws_cache *make(const char *cfgs, char *err) {
    ws_cache_cfg cfg;
    if (ws_cache_cfg_parse(cfgs, &cfg, err, 256)) return NULL;
    return ws_cache_create("t", &cfg, NULL, err, 256);
}

/* Address of block k of set s in a linear 32-set, 128 B cache. */
static uint64_t lin(uint32_t s, uint32_t k) { return 0xC0000000ull + ((uint64_t)k * 32 + s) * 128; }

TEST(cache_cfg_parse_321_and_v4_strings) {
    ws_cache_cfg c;
    char err[256];
    CHECK(ws_cache_cfg_parse("32:128:4,L:L:m:N,A:32:8,8", &c, err, sizeof err) == 0);
    CHECK(c.nsets == 32 && c.line_size == 128 && c.assoc == 4);
    CHECK(c.repl == 'L' && c.write_policy == 'L' && c.alloc == 'm' && c.write_alloc == 'N');
    CHECK(c.index_code == 'L' && c.mshr_type == 'A');
    CHECK(c.mshr_entries == 32 && c.mshr_max_merge == 8 && c.miss_queue_size == 8);
    CHECK(ws_cache_cfg_parse("N:32:128:4,L:L:m:N:H,S:64:8,8", &c, err, sizeof err) == 0);
    CHECK(!c.sectored && c.index_code == 'H' && c.mshr_type == 'S' && c.mshr_entries == 64);
    CHECK(ws_cache_cfg_parse("S:64:128:8,L:B:m:L:L,A:256:4,4:0,32", &c, err, sizeof err) == 0);
    CHECK(c.sectored && c.write_alloc == 'L' && c.data_port_width == 32);
    CHECK(ws_cache_cfg_parse("32:100:4,L:L:m:N,A:32:8,8", &c, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "power of two");
    CHECK(ws_cache_cfg_parse("32:128:4,Q:L:m:N,A:32:8,8", &c, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "replacement 'Q'");
    CHECK(ws_cache_cfg_parse("32:128:4,L:L:m:N,A:32", &c, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "MSHR_TYPE");
}

TEST(index_linear_and_fermi_sets) {
    ws_index lin_ix, fer, fer64;
    char err[256];
    ws_cache_geom g = {32, 128, 4, NULL}, g64 = {64, 128, 6, NULL};
    CHECK(ws_index_create(&lin_ix, "linear", &g, err, sizeof err) == 0);
    CHECK(ws_index_create(&fer, "H", &g, err, sizeof err) == 0);
    CHECK(ws_index_create(&fer64, "fermi", &g64, err, sizeof err) == 0);
    CHECK_EQ_U64(ws_index_set(&lin_ix, 0x1F80), 31);          /* A11..A7 all set */
    CHECK_EQ_U64(ws_index_set(&lin_ix, 0x2000), 0);           /* A13 ignored */
    /* RXI: I0=A13^A7 I1=A14^A8 I2=A15^A9 I3=A17^A10 I4=A19^A11 */
    CHECK_EQ_U64(ws_index_set(&fer, 1ull << 13), 1);
    CHECK_EQ_U64(ws_index_set(&fer, 1ull << 17), 8);
    CHECK_EQ_U64(ws_index_set(&fer, 1ull << 19), 16);
    CHECK_EQ_U64(ws_index_set(&fer, (1ull << 7) | (1ull << 13)), 0);
    CHECK_EQ_U64(ws_index_set(&fer, (1ull << 11) | (1ull << 16)), 16); /* A16 unused */
    CHECK_EQ_U64(ws_index_set(&fer64, 1ull << 12), 32);
    /* a stride of 16 KB (ATAX rows) hits one linear set but spreads under RXI */
    unsigned seen_lin = 0, seen_fer = 0;
    for (int t = 0; t < 32; t++) {
        seen_lin |= 1u << ws_index_set(&lin_ix, (uint64_t)t * 16384);
        seen_fer |= 1u << ws_index_set(&fer, (uint64_t)t * 16384);
    }
    CHECK_EQ_U64(__builtin_popcount(seen_lin), 1);
    CHECK(__builtin_popcount(seen_fer) >= 8);
    ws_index_destroy(&fer);
    CHECK(ws_index_create(&fer, "fermi", &(ws_cache_geom){16, 128, 4, NULL}, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "32 or 64 sets");
    CHECK(ws_index_create(&fer, "nosuch", &g, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown set-index function 'nosuch'");
    ws_index_destroy(&lin_ix);
    ws_index_destroy(&fer64);
}

TEST(cache_read_miss_pending_hit_fill_hit) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,8", err);
    CHECK_MSG(c, "%s", err);
    int r1, r2;
    ws_fail_kind f;
    uint64_t a = lin(3, 0);
    CHECK_EQ_I64(ws_cache_access(c, a, WS_ACC_READ, false, &r1, 1, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_reserved_in_set(c, 3), 1);
    CHECK_EQ_I64(ws_cache_access(c, a + 4, WS_ACC_READ, false, &r2, 2, &f), WS_CACHE_HIT_RESERVED);
    CHECK_EQ_I64(ws_cache_miss_queue_len(c), 1); /* one line fetch for both */
    const ws_cache_out *o = ws_cache_peek_miss(c);
    CHECK(o && o->kind == WS_OUT_READ_LINE && o->addr == a && o->size == 128 && o->req == &r1);
    ws_cache_pop_miss(c);
    CHECK(ws_cache_pop_ready(c) == NULL);
    ws_cache_fill(c, a, 10);
    CHECK(ws_cache_pop_ready(c) == &r1);
    CHECK(ws_cache_pop_ready(c) == &r2);
    CHECK(ws_cache_pop_ready(c) == NULL);
    CHECK_EQ_I64(ws_cache_mshr_used(c), 0);
    CHECK_EQ_I64(ws_cache_access(c, a + 64, WS_ACC_READ, false, &r1, 11, &f), WS_CACHE_HIT);
    const ws_cache_stats *s = ws_cache_get_stats(c);
    CHECK_EQ_U64(s->status[0][WS_CACHE_MISS], 1);
    CHECK_EQ_U64(s->status[0][WS_CACHE_HIT_RESERVED], 1);
    CHECK_EQ_U64(s->status[0][WS_CACHE_HIT], 1);
    ws_cache_destroy(c);
}

TEST(cache_line_alloc_fail_when_set_all_reserved) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,8", err);
    int r;
    ws_fail_kind f = WS_FAIL_NKINDS;
    for (uint32_t k = 0; k < 4; k++) {
        CHECK_EQ_I64(ws_cache_access(c, lin(5, k), WS_ACC_READ, false, &r, k, &f), WS_CACHE_MISS);
        ws_cache_pop_miss(c);
    }
    CHECK_EQ_I64(ws_cache_access(c, lin(5, 4), WS_ACC_READ, false, &r, 9, &f),
                 WS_CACHE_RESERVATION_FAIL);
    CHECK_EQ_I64(f, WS_FAIL_LINE_ALLOC);
    /* other sets are unaffected */
    CHECK_EQ_I64(ws_cache_access(c, lin(6, 4), WS_ACC_READ, false, &r, 9, &f), WS_CACHE_MISS);
    /* a fill frees the way for the retry */
    ws_cache_fill(c, lin(5, 0), 20);
    CHECK_EQ_I64(ws_cache_access(c, lin(5, 4), WS_ACC_READ, false, &r, 21, &f), WS_CACHE_MISS);
    CHECK_EQ_U64(ws_cache_get_stats(c)->fail[0][WS_FAIL_LINE_ALLOC], 1);
    ws_cache_destroy(c);
}

TEST(cache_mshr_merge_limit) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,64", err);
    int r[10];
    ws_fail_kind f;
    CHECK_EQ_I64(ws_cache_access(c, lin(1, 0), WS_ACC_READ, false, &r[0], 0, &f), WS_CACHE_MISS);
    for (int i = 1; i < 8; i++)
        CHECK_EQ_I64(ws_cache_access(c, lin(1, 0), WS_ACC_READ, false, &r[i], 1, &f),
                     WS_CACHE_HIT_RESERVED);
    CHECK_EQ_I64(ws_cache_access(c, lin(1, 0), WS_ACC_READ, false, &r[8], 2, &f),
                 WS_CACHE_RESERVATION_FAIL);
    CHECK_EQ_I64(f, WS_FAIL_MSHR_MERGE);
    ws_cache_fill(c, lin(1, 0), 3);
    for (int i = 0; i < 8; i++) CHECK(ws_cache_pop_ready(c) == &r[i]);
    ws_cache_destroy(c);
}

TEST(cache_mshr_entry_fail) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:2:8,64", err);
    int r;
    ws_fail_kind f;
    CHECK_EQ_I64(ws_cache_access(c, lin(1, 0), WS_ACC_READ, false, &r, 0, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access(c, lin(2, 0), WS_ACC_READ, false, &r, 0, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access(c, lin(3, 0), WS_ACC_READ, false, &r, 0, &f),
                 WS_CACHE_RESERVATION_FAIL);
    CHECK_EQ_I64(f, WS_FAIL_MSHR_ENTRY);
    CHECK_EQ_I64(ws_cache_reserved_in_set(c, 3), 0); /* a failed access changes nothing */
    ws_cache_destroy(c);
}

TEST(cache_miss_queue_full_keeps_writeback_slot) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,8", err);
    int r;
    ws_fail_kind f;
    /* len + 1 >= 8 fails: seven line fetches fit, the eighth does not */
    for (uint32_t s = 0; s < 7; s++)
        CHECK_EQ_I64(ws_cache_access(c, lin(s, 0), WS_ACC_READ, false, &r, 0, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access(c, lin(7, 0), WS_ACC_READ, false, &r, 0, &f),
                 WS_CACHE_RESERVATION_FAIL);
    CHECK_EQ_I64(f, WS_FAIL_MISS_QUEUE);
    /* a non-allocating write needs only one slot: len + 0 >= 8 fails */
    CHECK_EQ_I64(ws_cache_access(c, lin(9, 0), WS_ACC_WRITE, false, &r, 0, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access(c, lin(10, 0), WS_ACC_WRITE, false, &r, 0, &f),
                 WS_CACHE_RESERVATION_FAIL);
    CHECK_EQ_I64(f, WS_FAIL_MISS_QUEUE);
    ws_cache_pop_miss(c);
    CHECK_EQ_I64(ws_cache_access(c, lin(10, 0), WS_ACC_WRITE, false, &r, 0, &f), WS_CACHE_MISS);
    ws_cache_destroy(c);
}

TEST(cache_lru_eviction_order) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,8", err);
    int r;
    ws_fail_kind f;
    for (uint32_t k = 0; k < 4; k++) {
        ws_cache_access(c, lin(0, k), WS_ACC_READ, false, &r, 1 + k, &f);
        ws_cache_pop_miss(c);
        ws_cache_fill(c, lin(0, k), 1 + k);
        while (ws_cache_pop_ready(c)) {}
    }
    /* touch 0, 2, 3: block 1 becomes least recently used */
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 0), WS_ACC_READ, false, &r, 10, &f), WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 2), WS_ACC_READ, false, &r, 11, &f), WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 3), WS_ACC_READ, false, &r, 12, &f), WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 4), WS_ACC_READ, false, &r, 13, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 0), WS_ACC_READ, false, &r, 14, &f), WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 2), WS_ACC_READ, false, &r, 15, &f), WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 3), WS_ACC_READ, false, &r, 16, &f), WS_CACHE_HIT);
    /* block 1 was the victim; bringing it back evicts the LRU of 0, 2, 3 (the
       reserved block 4 cannot be chosen) */
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 1), WS_ACC_READ, false, &r, 17, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 2), WS_ACC_READ, false, &r, 18, &f), WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 3), WS_ACC_READ, false, &r, 19, &f), WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access(c, lin(0, 0), WS_ACC_READ, false, &r, 20, &f), WS_CACHE_MISS);
    CHECK_EQ_U64(ws_cache_get_stats(c)->evictions, 3);
    ws_cache_destroy(c);
}

TEST(cache_l1_write_policies_global_evict_local_writeback) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,8", err);
    int r;
    ws_fail_kind f;
    uint64_t a = lin(2, 0), b = lin(2, 1);
    ws_cache_access(c, a, WS_ACC_READ, false, &r, 1, &f);
    ws_cache_access(c, b, WS_ACC_READ, true, &r, 1, &f);
    ws_cache_pop_miss(c);
    ws_cache_pop_miss(c);
    ws_cache_fill(c, a, 2);
    ws_cache_fill(c, b, 2);
    /* global write hit: write-evict: the line goes, the write goes down */
    CHECK_EQ_I64(ws_cache_access(c, a + 8, WS_ACC_WRITE, false, &r, 3, &f), WS_CACHE_HIT);
    const ws_cache_out *o = ws_cache_peek_miss(c);
    CHECK(o && o->kind == WS_OUT_WRITE && o->addr == a + 8);
    ws_cache_pop_miss(c);
    CHECK_EQ_I64(ws_cache_access(c, a, WS_ACC_READ, false, &r, 4, &f), WS_CACHE_MISS);
    ws_cache_pop_miss(c);
    /* local write hit: write-back, nothing goes down now */
    CHECK_EQ_I64(ws_cache_access(c, b, WS_ACC_WRITE, true, &r, 5, &f), WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_miss_queue_len(c), 0);
    /* write miss, no write allocate: goes down, no line */
    CHECK_EQ_I64(ws_cache_access(c, lin(2, 7), WS_ACC_WRITE, false, &r, 6, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_reserved_in_set(c, 2), 1); /* only a's refetch */
    ws_cache_pop_miss(c);
    /* evicting the dirty local line writes it back */
    ws_cache_fill(c, a, 7);
    /* two invalid ways, then a (least recently used), then the dirty b */
    for (uint32_t k = 0; k < 4; k++) {
        ws_cache_access(c, lin(2, k + 10), WS_ACC_READ, false, &r, 8 + k, &f);
    }
    int wb = 0;
    while (ws_cache_has_miss(c)) {
        const ws_cache_out *m = ws_cache_peek_miss(c);
        if (m->kind == WS_OUT_WRITEBACK) {
            wb++;
            CHECK_EQ_U64(m->addr, b);
        }
        ws_cache_pop_miss(c);
    }
    CHECK_EQ_I64(wb, 1);
    ws_cache_destroy(c);
}

TEST(cache_l2_write_back_write_allocate) {
    char err[256];
    ws_cache *c = make("64:128:16,L:B:m:W,A:32:4,4", err);
    CHECK_MSG(c, "%s", err);
    int w;
    ws_fail_kind f;
    uint64_t a = 0xC0001000ull;
    CHECK_EQ_I64(ws_cache_access(c, a, WS_ACC_WRITE, false, &w, 1, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_miss_queue_len(c), 2);
    const ws_cache_out *o = ws_cache_peek_miss(c);
    CHECK(o->kind == WS_OUT_WRITE);
    ws_cache_pop_miss(c);
    o = ws_cache_peek_miss(c);
    CHECK(o->kind == WS_OUT_READ_LINE && o->addr == a && o->req == NULL);
    ws_cache_pop_miss(c);
    ws_cache_fill(c, a, 5);
    CHECK(ws_cache_pop_ready(c) == NULL); /* the write waited for nothing */
    CHECK_EQ_I64(ws_cache_access(c, a + 4, WS_ACC_WRITE, false, &w, 6, &f), WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_miss_queue_len(c), 0); /* write-back: kept dirty */
    CHECK_EQ_I64(ws_cache_access(c, a, WS_ACC_READ, false, &w, 7, &f), WS_CACHE_HIT);
    ws_cache_destroy(c);
}

/* ---- sectored caches and GPGPU-Sim 4 write-allocate policies ---- */
#define L2V4 "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32"

static ws_cache_result acc(ws_cache *c, uint64_t a, ws_acc_dir d, bool full, void *req,
                           uint64_t now) {
    return ws_cache_access_ex(c, a, a, d, false, full, req, now);
}

TEST(cache_sector_misses_fetch_32B_and_fill_per_sector) {
    char err[256];
    ws_cache *c = make(L2V4, err);
    CHECK(c != NULL);
    if (!c) return;
    CHECK_EQ_I64(ws_cache_atom(c), 32);
    int r1, r2, r3, r4;
    uint64_t a = 0x80000000ull; /* sector 0 of a line */
    ws_cache_result r = acc(c, a, WS_ACC_READ, false, &r1, 1);
    CHECK(r.status == WS_CACHE_MISS && r.held);
    const ws_cache_out *o = ws_cache_peek_miss(c);
    CHECK(o->kind == WS_OUT_READ_LINE && o->addr == a && o->size == 32 && o->sectors == 1);
    ws_cache_pop_miss(c);
    /* another sector of the same line: a sector miss with its own fetch */
    r = acc(c, a + 0x40 + 4, WS_ACC_READ, false, &r2, 2);
    CHECK_EQ_I64(r.status, WS_CACHE_SECTOR_MISS);
    o = ws_cache_peek_miss(c);
    CHECK(o->addr == a + 0x40 && o->sectors == 4);
    ws_cache_pop_miss(c);
    CHECK_EQ_I64(ws_cache_mshr_used(c), 2);
    /* the first sector again: pending hit, merged */
    r = acc(c, a + 8, WS_ACC_READ, false, &r3, 3);
    CHECK(r.status == WS_CACHE_HIT_RESERVED && r.held);
    CHECK_EQ_U64(ws_cache_get_stats(c)->mshr_hits, 1);
    ws_cache_fill(c, a, 10);
    CHECK(ws_cache_pop_ready(c) == &r1);
    CHECK(ws_cache_pop_ready(c) == &r3);
    CHECK(ws_cache_pop_ready(c) == NULL);
    CHECK_EQ_I64(acc(c, a + 16, WS_ACC_READ, false, &r4, 11).status, WS_CACHE_HIT);
    CHECK_EQ_I64(acc(c, a + 0x40, WS_ACC_READ, false, &r4, 12).status, WS_CACHE_HIT_RESERVED);
    CHECK_EQ_I64(acc(c, a + 0x20, WS_ACC_READ, false, &r4, 13).status, WS_CACHE_SECTOR_MISS);
    CHECK_EQ_U64(ws_cache_get_stats(c)->status[0][WS_CACHE_SECTOR_MISS], 2);
    ws_cache_destroy(c);
}

/* ws_cache_invalidate (the sector word at once): a sector waiting for its fill stays
   RESERVED, a valid one becomes INVALID; a line with nothing pending leaves. */
TEST(cache_invalidate_keeps_pending_sectors) {
    char err[256];
    ws_cache *c = make(L2V4, err);
    CHECK(c != NULL);
    if (!c) return;
    int r1, r2, r3, r4;
    uint64_t a = 0x80000000ull, b = a + 0x100000; /* two lines */
    CHECK_EQ_I64(acc(c, a, WS_ACC_READ, false, &r1, 1).status, WS_CACHE_MISS);
    ws_cache_pop_miss(c);
    ws_cache_fill(c, a, 2); /* a: sector 0 valid */
    CHECK(ws_cache_pop_ready(c) == &r1);
    CHECK_EQ_I64(acc(c, a + 0x40, WS_ACC_READ, false, &r2, 3).status, WS_CACHE_SECTOR_MISS);
    ws_cache_pop_miss(c); /* a: sector 2 reserved */
    CHECK_EQ_I64(acc(c, b, WS_ACC_READ, false, &r3, 4).status, WS_CACHE_MISS);
    ws_cache_pop_miss(c);
    ws_cache_fill(c, b, 5); /* b: sector 0 valid */
    CHECK(ws_cache_pop_ready(c) == &r3);
    ws_cache_invalidate(c);
    CHECK_EQ_I64(acc(c, a + 0x40, WS_ACC_READ, false, &r4, 6).status, WS_CACHE_HIT_RESERVED);
    CHECK_EQ_I64(acc(c, a, WS_ACC_READ, false, &r4, 7).status, WS_CACHE_SECTOR_MISS);
    CHECK_EQ_I64(acc(c, b, WS_ACC_READ, false, &r4, 8).status, WS_CACHE_MISS);
    ws_cache_destroy(c);
}

TEST(cache_lazy_fetch_write_allocates_without_fetch) {
    char err[256];
    ws_cache *c = make(L2V4, err);
    if (!c) return;
    int w, rd;
    uint64_t a = 0x80000000ull;
    /* partial write miss: line allocated, sector modified, nothing sent */
    ws_cache_result r = acc(c, a, WS_ACC_WRITE, false, &w, 1);
    CHECK(r.status == WS_CACHE_MISS && !r.held && !r.sent_write);
    CHECK_EQ_I64(ws_cache_miss_queue_len(c), 0);
    /* a read of the partially written sector fetches it */
    r = acc(c, a + 4, WS_ACC_READ, false, &rd, 2);
    CHECK(r.status == WS_CACHE_SECTOR_MISS && r.held);
    CHECK_EQ_I64(ws_cache_miss_queue_len(c), 1);
    ws_cache_pop_miss(c);
    ws_cache_fill(c, a, 3);
    CHECK(ws_cache_pop_ready(c) == &rd);
    CHECK_EQ_I64(acc(c, a + 4, WS_ACC_READ, false, &rd, 4).status, WS_CACHE_HIT);
    /* a whole-sector write is readable at once */
    CHECK_EQ_I64(acc(c, a + 0x20, WS_ACC_WRITE, true, &w, 5).status, WS_CACHE_SECTOR_MISS);
    CHECK_EQ_I64(acc(c, a + 0x24, WS_ACC_READ, false, &rd, 6).status, WS_CACHE_HIT);
    /* evicting the line writes back its two modified sectors (64 B): fill the
       set (8 ways, 64 sets: stride 64 * 128) with reads */
    for (int k = 1; k <= 8; k++) {
        uint64_t b = a + (uint64_t)k * 64 * 128;
        CHECK(acc(c, b, WS_ACC_WRITE, true, &w, 10 + k).status == WS_CACHE_MISS);
    }
    const ws_cache_out *o = ws_cache_peek_miss(c);
    CHECK(o && o->kind == WS_OUT_WRITEBACK && o->addr == a && o->size == 64 && o->sectors == 3);
    ws_cache_destroy(c);
}

/* Partial writes add up (GPGPU-Sim's byte mask): a sector written in parts
   becomes readable once all its 32 bytes are written, whether its first
   part allocated the line or found it; a part short stays unreadable. */
TEST(cache_partial_writes_add_up_to_a_readable_sector) {
    char err[256];
    ws_cache *c = make(L2V4, err);
    if (!c) return;
    int w, rd;
    uint64_t a = 0x80000000ull;
    /* sector 0: three parts (bytes 0-7, 8-23, 24-31), the first a miss */
    CHECK_EQ_I64(ws_cache_access_bytes(c, a, a, WS_ACC_WRITE, false, 0xFFu, &w, 1).status,
                 WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access_bytes(c, a + 8, a + 8, WS_ACC_WRITE, false, 0xFFFF00u, &w, 2).status,
                 WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access_bytes(c, a, a, WS_ACC_READ, false, 0, &rd, 3).status,
                 WS_CACHE_SECTOR_MISS); /* 24 of 32 bytes: still fetched */
    ws_cache_pop_miss(c);
    ws_cache_fill(c, a, 4);
    CHECK(ws_cache_pop_ready(c) == &rd);
    /* sector 1: two halves, the first in a sector of a present line */
    uint64_t b = a + 0x20;
    CHECK_EQ_I64(ws_cache_access_bytes(c, b, b, WS_ACC_WRITE, false, 0xFFFFu, &w, 5).status,
                 WS_CACHE_SECTOR_MISS);
    CHECK_EQ_I64(ws_cache_access_bytes(c, b + 16, b + 16, WS_ACC_WRITE, false, 0xFFFF0000u, &w, 6)
                     .status,
                 WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access_bytes(c, b, b, WS_ACC_READ, false, 0, &rd, 7).status,
                 WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_miss_queue_len(c), 0);
    /* the old entry point's partial write (no bytes given) never completes one */
    uint64_t d = a + 0x40;
    CHECK_EQ_I64(acc(c, d, WS_ACC_WRITE, false, &w, 8).status, WS_CACHE_SECTOR_MISS);
    CHECK_EQ_I64(acc(c, d, WS_ACC_WRITE, false, &w, 9).status, WS_CACHE_HIT);
    CHECK_EQ_I64(acc(c, d, WS_ACC_READ, false, &rd, 10).status, WS_CACHE_SECTOR_MISS);
    ws_cache_destroy(c);
}

TEST(cache_fetch_on_write_holds_partial_write_until_fill) {
    char err[256];
    ws_cache *c = make("S:64:128:8,L:B:m:F:L,A:256:4,4", err);
    if (!c) return;
    int w1, w2;
    uint64_t a = 0x80000000ull;
    ws_cache_result r = acc(c, a, WS_ACC_WRITE, false, &w1, 1);
    CHECK(r.status == WS_CACHE_MISS && r.held && !r.sent_write);
    const ws_cache_out *o = ws_cache_peek_miss(c);
    CHECK(o->kind == WS_OUT_READ_LINE && o->addr == a && o->size == 32);
    ws_cache_pop_miss(c);
    ws_cache_fill(c, a, 2);
    CHECK(ws_cache_pop_ready(c) == &w1);
    /* the filled sector is dirty: evicting writes it back */
    r = acc(c, a + 0x20, WS_ACC_WRITE, true, &w2, 3); /* whole sector: no fetch */
    CHECK(r.status == WS_CACHE_SECTOR_MISS && !r.held);
    CHECK_EQ_I64(ws_cache_miss_queue_len(c), 0);
    for (int k = 1; k <= 8; k++) acc(c, a + (uint64_t)k * 64 * 128, WS_ACC_WRITE, true, &w2, 3 + k);
    o = ws_cache_peek_miss(c);
    CHECK(o && o->kind == WS_OUT_WRITEBACK && o->sectors == 3 && o->size == 64);
    ws_cache_destroy(c);
}

TEST(cache_streaming_allocates_on_fill) {
    char err[256];
    ws_cache *m = make("1:128:1,L:R:m:N,A:8:8,8", err), *s = make("1:128:1,L:R:s:N,A:8:8,8", err);
    if (!m || !s) return;
    int r;
    CHECK_EQ_I64(acc(m, 0x1000, WS_ACC_READ, false, &r, 1).status, WS_CACHE_MISS);
    ws_cache_result x = acc(m, 0x2000, WS_ACC_READ, false, &r, 2);
    CHECK(x.status == WS_CACHE_RESERVATION_FAIL && x.fail == WS_FAIL_LINE_ALLOC);
    /* streaming: no line is reserved; the MSHR (one per line) is the limit */
    CHECK_EQ_I64(acc(s, 0x1000, WS_ACC_READ, false, &r, 1).status, WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_reserved_in_set(s, 0), 0);
    x = acc(s, 0x2000, WS_ACC_READ, false, &r, 2);
    CHECK(x.status == WS_CACHE_RESERVATION_FAIL && x.fail == WS_FAIL_MSHR_ENTRY);
    ws_cache_fill(s, 0x1000, 3);
    CHECK_EQ_I64(acc(s, 0x1004, WS_ACC_READ, false, &r, 4).status, WS_CACHE_HIT);
    ws_cache_destroy(m);
    ws_cache_destroy(s);
}

TEST(cache_index_address_and_force_fill) {
    char err[256];
    ws_cache *c = make(L2V4, err);
    if (!c) return;
    int r;
    uint64_t a = 0x80000000ull, ix = 5 * 128; /* partition-local address: set 5 */
    CHECK_EQ_I64(ws_cache_access_ex(c, a, ix, WS_ACC_READ, false, false, &r, 1).status,
                 WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_reserved_in_set(c, 5), 1);
    CHECK_EQ_I64(ws_cache_reserved_in_set(c, ws_cache_set_of(c, a)), 0);
    ws_cache_pop_miss(c);
    ws_cache_fill(c, a, 2); /* the MSHR remembers the index address */
    CHECK_EQ_I64(ws_cache_reserved_in_set(c, 5), 0);
    CHECK_EQ_I64(ws_cache_access_ex(c, a, ix, WS_ACC_READ, false, false, &r, 3).status,
                 WS_CACHE_HIT);
    /* memcpy fill: the sector becomes valid without traffic */
    ws_cache_force_fill(c, a + 0x60, a + 0x60, 4);
    CHECK_EQ_I64(acc(c, a + 0x64, WS_ACC_READ, false, &r, 5).status, WS_CACHE_HIT);
    CHECK_EQ_I64(acc(c, a + 0x44, WS_ACC_READ, false, &r, 6).status, WS_CACHE_SECTOR_MISS);
    CHECK_EQ_I64(ws_cache_miss_queue_len(c), 1);
    ws_cache_destroy(c);
}

TEST(cache_sectored_line_size_checked) {
    char err[256];
    CHECK(make("S:64:16:8,L:B:m:L:L,A:256:4,4", err) == NULL);
    CHECK_STR_CONTAINS(err, "32 B sectors");
}

/* A 64-way set (the post-Fermi L1Ds have 64 and more ways): an empty set
 * fills from its last way down, a full set evicts the least recently used
 * line, the lowest way among equally old lines, never a reserved one. */
TEST(cache_high_associativity_victims) {
    char err[256];
    ws_cache *c = make("1:128:64,L:L:m:N,A:64:8,8", err);
    CHECK(c != NULL);
    int r;
    ws_fail_kind f;
    for (uint32_t k = 0; k < 64; k++) { /* all at one time: equally old */
        CHECK_EQ_I64(ws_cache_access(c, k * 128ull, WS_ACC_READ, false, &r, 5, &f), WS_CACHE_MISS);
        ws_cache_pop_miss(c);
        ws_cache_fill(c, k * 128ull, 5);
        while (ws_cache_pop_ready(c)) {}
    }
    for (uint32_t k = 0; k < 64; k++) CHECK(ws_cache_probe_hit(c, k * 128ull));
    /* block 63 took the lowest way, the first among equals */
    CHECK_EQ_I64(ws_cache_access(c, 64 * 128ull, WS_ACC_READ, false, &r, 10, &f), WS_CACHE_MISS);
    CHECK(!ws_cache_probe_hit(c, 63 * 128ull));
    for (uint32_t k = 0; k < 63; k++)
        if (k != 7) CHECK_EQ_I64(ws_cache_access(c, k * 128ull, WS_ACC_READ, false, &r, 20, &f),
                                 WS_CACHE_HIT);
    /* block 64 (reserved, in the lowest way) is passed over: block 7 is the oldest */
    CHECK_EQ_I64(ws_cache_access(c, 65 * 128ull, WS_ACC_READ, false, &r, 30, &f), WS_CACHE_MISS);
    CHECK(!ws_cache_probe_hit(c, 7 * 128ull));
    CHECK(ws_cache_probe_hit(c, 6 * 128ull) && ws_cache_probe_hit(c, 8 * 128ull));
    CHECK_EQ_I64(ws_cache_access(c, 64 * 128ull, WS_ACC_READ, false, &r, 31, &f),
                 WS_CACHE_HIT_RESERVED);
    CHECK_EQ_U64(ws_cache_get_stats(c)->evictions, 2);
    ws_cache_destroy(c);
}

/* A refused access retried with nothing changed is refused the same way and counted each
   time (the cache answers it from its note of the last refusal); whatever frees the
   resource (a fill, a miss sent down, a flush window) is seen at the next retry. */
TEST(cache_retried_refusal_counts_and_sees_changes) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:2:8,8", err);
    int r;
    ws_fail_kind f = WS_FAIL_NKINDS;
    CHECK_EQ_I64(ws_cache_access(c, lin(1, 0), WS_ACC_READ, false, &r, 0, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access(c, lin(2, 0), WS_ACC_READ, true, &r, 0, &f), WS_CACHE_MISS);
    for (uint64_t t = 1; t <= 5; t++) {
        f = WS_FAIL_NKINDS;
        CHECK_EQ_I64(ws_cache_access(c, lin(3, 0), WS_ACC_READ, true, &r, t, &f),
                     WS_CACHE_RESERVATION_FAIL);
        CHECK_EQ_I64(f, WS_FAIL_MSHR_ENTRY);
    }
    const ws_cache_stats *st = ws_cache_get_stats(c);
    CHECK_EQ_U64(st->fail[WS_ACC_READ][WS_FAIL_MSHR_ENTRY], 5);
    CHECK_EQ_U64(st->status[WS_ACC_READ][WS_CACHE_RESERVATION_FAIL], 5);
    CHECK_EQ_U64(st->status_local[WS_ACC_READ][WS_CACHE_RESERVATION_FAIL], 5);
    /* another access in between is probed on its own: a hit on a reserved line merges */
    CHECK_EQ_I64(ws_cache_access(c, lin(1, 0), WS_ACC_READ, false, &r, 6, &f),
                 WS_CACHE_HIT_RESERVED);
    /* the same block from a non-local access is another access: probed, refused */
    CHECK_EQ_I64(ws_cache_access(c, lin(3, 0), WS_ACC_READ, false, &r, 7, &f),
                 WS_CACHE_RESERVATION_FAIL);
    CHECK_EQ_U64(st->status_local[WS_ACC_READ][WS_CACHE_RESERVATION_FAIL], 5);
    /* a fill frees an MSHR entry: the retry gets it */
    ws_cache_fill(c, lin(2, 0), 8);
    CHECK_EQ_I64(ws_cache_access(c, lin(3, 0), WS_ACC_READ, true, &r, 9, &f), WS_CACHE_MISS);
    CHECK_EQ_U64(st->fail[WS_ACC_READ][WS_FAIL_MSHR_ENTRY], 6);
    ws_cache_destroy(c);

    /* miss queue: refused while full, accepted once a miss was sent down */
    c = make("32:128:4,L:L:m:N,A:32:8,4", err);
    for (uint32_t s = 0; s < 3; s++)
        CHECK_EQ_I64(ws_cache_access(c, lin(s, 0), WS_ACC_READ, false, &r, 0, &f), WS_CACHE_MISS);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_I64(ws_cache_access(c, lin(9, 0), WS_ACC_READ, false, &r, 1, &f),
                     WS_CACHE_RESERVATION_FAIL);
        CHECK_EQ_I64(f, WS_FAIL_MISS_QUEUE);
    }
    ws_cache_pop_miss(c);
    CHECK_EQ_I64(ws_cache_access(c, lin(9, 0), WS_ACC_READ, false, &r, 2, &f), WS_CACHE_MISS);
    CHECK_EQ_U64(ws_cache_get_stats(c)->fail[WS_ACC_READ][WS_FAIL_MISS_QUEUE], 3);
    ws_cache_destroy(c);
}

/* ws_cache_refusal_noted (a sleeping SM's stuck LD/ST unit): true exactly for
   the access that was refused last, until anything in the cache changes */
TEST(cache_refusal_noted_until_a_change) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:2:8,8", err);
    int r;
    ws_fail_kind f;
    CHECK(!ws_cache_refusal_noted(c, lin(3, 0), WS_ACC_READ, true, 0)); /* nothing refused */
    CHECK_EQ_I64(ws_cache_access(c, lin(1, 0), WS_ACC_READ, false, &r, 0, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access(c, lin(2, 0), WS_ACC_READ, false, &r, 0, &f), WS_CACHE_MISS);
    CHECK_EQ_I64(ws_cache_access(c, lin(3, 0), WS_ACC_READ, true, &r, 1, &f),
                 WS_CACHE_RESERVATION_FAIL);
    CHECK(ws_cache_refusal_noted(c, lin(3, 0), WS_ACC_READ, true, 2));
    CHECK(!ws_cache_refusal_noted(c, lin(3, 0), WS_ACC_READ, false, 2)); /* another access */
    CHECK(!ws_cache_refusal_noted(c, lin(3, 0), WS_ACC_WRITE, true, 2));
    CHECK(!ws_cache_refusal_noted(c, lin(4, 0), WS_ACC_READ, true, 2));
    /* a retry answered from the note counts and keeps it */
    CHECK_EQ_I64(ws_cache_access(c, lin(3, 0), WS_ACC_READ, true, &r, 2, &f),
                 WS_CACHE_RESERVATION_FAIL);
    CHECK(ws_cache_refusal_noted(c, lin(3, 0), WS_ACC_READ, true, 3));
    CHECK_EQ_U64(ws_cache_get_stats(c)->fail[WS_ACC_READ][WS_FAIL_MSHR_ENTRY], 2);
    /* an accepted access, a miss sent down or a fill end it */
    CHECK_EQ_I64(ws_cache_access(c, lin(1, 0), WS_ACC_READ, false, &r, 3, &f),
                 WS_CACHE_HIT_RESERVED);
    CHECK(!ws_cache_refusal_noted(c, lin(3, 0), WS_ACC_READ, true, 4));
    CHECK_EQ_I64(ws_cache_access(c, lin(3, 0), WS_ACC_READ, true, &r, 4, &f),
                 WS_CACHE_RESERVATION_FAIL);
    ws_cache_pop_miss(c);
    CHECK(!ws_cache_refusal_noted(c, lin(3, 0), WS_ACC_READ, true, 5));
    CHECK_EQ_I64(ws_cache_access(c, lin(3, 0), WS_ACC_READ, true, &r, 5, &f),
                 WS_CACHE_RESERVATION_FAIL);
    ws_cache_fill(c, lin(2, 0), 6);
    CHECK(!ws_cache_refusal_noted(c, lin(3, 0), WS_ACC_READ, true, 7));
    ws_cache_destroy(c);
}

/* ws_cache_count_noted_refusal and ws_cache_retry_noted (a sleeping SM's stuck
   cycles) count what the access they stand for counts: triplet caches, one retried,
   one counted, one retried from the note in one call, alike. */
TEST(cache_count_noted_refusal_as_the_access) {
    char err[256];
    ws_cache *c[3] = {make("32:128:4,L:L:m:N,A:2:8,8", err), make("32:128:4,L:L:m:N,A:2:8,8", err),
                      make("32:128:4,L:L:m:N,A:2:8,8", err)};
    CHECK(c[0] && c[1] && c[2]);
    if (!c[0] || !c[1] || !c[2]) return;
    int r;
    ws_fail_kind f[3];
    for (int k = 0; k < 3; k++) {
        ws_cache_access(c[k], lin(1, 0), WS_ACC_READ, false, &r, 0, &f[k]);
        ws_cache_access(c[k], lin(2, 0), WS_ACC_READ, false, &r, 0, &f[k]);
        for (int local = 0; local < 2; local++) {
            CHECK_EQ_I64(ws_cache_access(c[k], lin(3, 0), WS_ACC_READ, local, &r, 1, &f[k]),
                         WS_CACHE_RESERVATION_FAIL);
            for (uint64_t t = 2; t < 5; t++) {
                CHECK(ws_cache_refusal_noted(c[k], lin(3, 0), WS_ACC_READ, local, t));
                if (k == 2) {
                    CHECK(ws_cache_retry_noted(c[k], lin(3, 0), WS_ACC_READ, local, t, 0, &f[k]));
                } else if (k) {
                    f[k] = ws_cache_count_noted_refusal(c[k], WS_ACC_READ, local);
                } else {
                    CHECK_EQ_I64(ws_cache_access(c[k], lin(3, 0), WS_ACC_READ, local, &r, t, &f[k]),
                                 WS_CACHE_RESERVATION_FAIL);
                }
            }
        }
    }
    CHECK_EQ_I64(f[0], f[1]);
    CHECK_EQ_I64(f[0], f[2]);
    CHECK(!memcmp(ws_cache_get_stats(c[0]), ws_cache_get_stats(c[1]), sizeof(ws_cache_stats)));
    CHECK(!memcmp(ws_cache_get_stats(c[0]), ws_cache_get_stats(c[2]), sizeof(ws_cache_stats)));
    CHECK_EQ_U64(ws_cache_get_stats(c[1])->status_local[WS_ACC_READ][WS_CACHE_RESERVATION_FAIL], 4);
    /* a note that does not answer: nothing done */
    ws_fail_kind g = WS_FAIL_FLUSH;
    CHECK(!ws_cache_retry_noted(c[2], lin(4, 0), WS_ACC_READ, false, 6, 0, &g));
    CHECK_EQ_I64(g, WS_FAIL_FLUSH);
    CHECK(!memcmp(ws_cache_get_stats(c[0]), ws_cache_get_stats(c[2]), sizeof(ws_cache_stats)));
    for (int k = 0; k < 3; k++) ws_cache_destroy(c[k]);
}

/* A retry answered from the note of the last refusal answers what a probe answers:
   twin caches (one never keeps a note: its note is dropped before every access by a
   pause of the index, which bumps the version and changes nothing else) through
   random reads and writes of a few lines, retries, misses sent down and fills, with
   small MSHR, merge and miss-queue limits; every answer and count must agree. */
TEST(cache_noted_refusal_matches_probe) {
    static const char *cfgs[] = {"32:128:4,L:L:m:N,A:4:2,3", "S:4:128:4,L:B:m:L:L,A:6:2,3",
                                 "4:128:2,L:B:m:W,A:3:4,4"};
    char err[256];
    uint64_t s = 0x2545F4914F6CDD1Dull;
    for (unsigned k = 0; k < sizeof cfgs / sizeof *cfgs; k++) {
        ws_cache *a = make(cfgs[k], err), *b = make(cfgs[k], err);
        CHECK(a && b);
        if (!a || !b) return;
        uint64_t out_a[64], out_b[64];
        unsigned na = 0, nb = 0;
        int r;
        for (uint64_t t = 1; t < 6000; t++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            unsigned op = (unsigned)(s >> 60);
            uint64_t addr = lin((uint32_t)(s >> 33) % 6, (uint32_t)(s >> 40) % 3) + 32 * ((s >> 45) % 4);
            if (op < 9) { /* an access, or a retry of the last one */
                ws_acc_dir dir = op < 7 ? WS_ACC_READ : WS_ACC_WRITE;
                ws_fail_kind fa = WS_FAIL_NKINDS, fb = WS_FAIL_NKINDS;
                ws_cache_index_pause(b, false); /* the twin probes every access */
                ws_cache_status sa = ws_cache_access(a, addr, dir, false, &r, t, &fa);
                ws_cache_status sb = ws_cache_access(b, addr, dir, false, &r, t, &fb);
                if (sa != sb || (sa == WS_CACHE_RESERVATION_FAIL && fa != fb)) {
                    CHECK_MSG(0, "config %u step %llu: %d/%d against %d/%d", k,
                              (unsigned long long)t, sa, fa, sb, fb);
                    break;
                }
                /* the same access again at once: a retry, answered from the note */
                if (sa == WS_CACHE_RESERVATION_FAIL && (s >> 20 & 1)) {
                    ws_cache_index_pause(b, false);
                    sa = ws_cache_access(a, addr, dir, false, &r, t, &fa);
                    sb = ws_cache_access(b, addr, dir, false, &r, t, &fb);
                    CHECK(sa == sb && fa == fb);
                }
            } else if (op < 13) { /* a miss sent down: its fill comes later */
                const ws_cache_out *oa = ws_cache_peek_miss(a), *ob = ws_cache_peek_miss(b);
                CHECK((oa == NULL) == (ob == NULL));
                if (oa && ob) {
                    CHECK_EQ_U64(oa->addr, ob->addr);
                    if (oa->kind == WS_OUT_READ_LINE && na < 64) out_a[na++] = oa->addr;
                    if (ob->kind == WS_OUT_READ_LINE && nb < 64) out_b[nb++] = ob->addr;
                    ws_cache_pop_miss(a);
                    ws_cache_pop_miss(b);
                }
            } else if (na && nb) { /* a fill of a random one sent */
                unsigned i = (unsigned)(s >> 8) % na;
                CHECK_EQ_U64(out_a[i], out_b[i]);
                ws_cache_fill(a, out_a[i], t);
                ws_cache_fill(b, out_b[i], t);
                out_a[i] = out_a[--na];
                out_b[i] = out_b[--nb];
                while (ws_cache_pop_ready_one(a)) {}
                while (ws_cache_pop_ready_one(b)) {}
            }
        }
        const ws_cache_stats *sa = ws_cache_get_stats(a), *sb = ws_cache_get_stats(b);
        CHECK(!memcmp(sa->status, sb->status, sizeof sa->status));
        CHECK(!memcmp(sa->fail, sb->fail, sizeof sa->fail));
        ws_cache_destroy(a);
        ws_cache_destroy(b);
    }
}

/* The MSHR lookups go through a hash table and allocation through a free
   set (cache.c): after every access, miss sent and fill of a random run
   (reads over a few sets, fills in random order, up to every entry in use;
   a plain and a sectored cache, one and several words of the free set),
   the table and the set agree with the entries, and every fetch sent is
   found in its MSHR until its fill. */
TEST(cache_mshr_table_matches_entries) {
    static const char *cfgs[] = {"32:128:4,L:L:m:N,A:32:8,8", "S:4:128:64,L:L:m:N,A:200:4,400"};
    uint64_t s = 0x2545F4914F6CDD1Dull;
    for (unsigned k = 0; k < 2; k++) {
        char err[256];
        ws_cache *c = make(cfgs[k], err);
        CHECK(c != NULL);
        if (!c) return;
        uint64_t sent[512];
        unsigned nsent = 0;
        int dummy = 0;
        for (unsigned step = 0; step < 20000; step++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            unsigned op = (unsigned)(s % 4);
            if (op < 2) { /* a read of one of 256 blocks (sectors) over 4 sets */
                uint64_t a = 0xC0000000ull + ((s >> 8) % 64) * 32 * 128 + ((s >> 20) % 4) * 128 +
                             ((s >> 24) % 4) * 32;
                ws_cache_access(c, a, WS_ACC_READ, false, &dummy, step, NULL);
            } else if (op == 2) { /* the oldest miss goes down */
                const ws_cache_out *o = ws_cache_peek_miss(c);
                if (o && nsent < 512) sent[nsent++] = o->addr;
                if (o) ws_cache_pop_miss(c);
            } else if (nsent) { /* a random fetch comes back */
                unsigned i = (unsigned)((s >> 32) % nsent);
                ws_cache_fill(c, sent[i], step);
                sent[i] = sent[--nsent];
                while (ws_cache_pop_ready(c)) {
                }
            }
            bool ok = ws_cache_check_mshr(c);
            for (unsigned i = 0; ok && i < nsent; i++) ok = ws_cache_mshr_merges(c, sent[i]) >= 0;
            if (!ok) {
                CHECK_MSG(0, "cache %u step %u: MSHR table disagrees", k, step);
                break;
            }
        }
        ws_cache_destroy(c);
    }
}

/* The tag index of wide caches (16 ways and more) answers as the plain scan
   of the ways: two caches, one with its index dropped, take the same random
   sequence of reads, writes, fills, memcpy fills, moves, invalidations and
   way changes (a plain, a sectored write-through, a sectored write-back with
   protection distances and an allocate-on-fill FIFO cache, with evictions,
   reserved lines, stale tags, partial sectors and equal times), and every
   result, outgoing request and ready request must agree; the index agrees
   with its lines, its lookups with the scan (which tries the set's most
   recent way first: no set may hold a block in two present lines), and the
   victim search of every set with its plain form throughout. */
TEST(cache_tag_index_matches_scan) {
    static const char *cfgs[] = {"4:128:64,L:L:m:N,A:32:8,8", "S:4:128:64,L:T:m:L:L,A:64:8,16:0,32",
                                 "S:2:128:24,L:B:m:L,A:48:4,16:0,32", "4:128:32,F:B:f:W,A:32:4,8"};
    static int tok[64];
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (unsigned k = 0; k < 4; k++) {
        char err[256];
        ws_cache *c[2] = {make(cfgs[k], err), make(cfgs[k], err)};
        CHECK(c[0] && c[1]);
        if (!c[0] || !c[1]) return;
        CHECK(ws_cache_tag_index_drop(c[0])); /* it had one */
        if (k == 2) { /* protection distances: victims skip protected lines */
            ws_cache_bypass b = {.protect = 3};
            ws_cache_set_bypass(c[0], &b);
            ws_cache_set_bypass(c[1], &b);
        }
        uint64_t sent[256], probe[8];
        unsigned nsent = 0, bad = 0;
        for (unsigned step = 0; step < 12000 && !bad; step++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            unsigned op = (unsigned)(s % 16);
            uint64_t now = step / 4; /* equal times: the lowest way among the oldest */
            /* one of 512 blocks (4 sectors each) over the sets */
            uint64_t a = 0xC0000000ull + ((s >> 8) % 512) * 128 + ((s >> 20) % 4) * 32;
            if (op < 9) {
                ws_acc_dir d = op < 6 ? WS_ACC_READ : WS_ACC_WRITE;
                uint32_t wb = (s >> 30) & 1 ? WS_WRITE_FULL : 0xFFu << ((s >> 31) % 24);
                void *req = &tok[(s >> 40) % 64];
                ws_cache_result r[2];
                for (unsigned i = 0; i < 2; i++)
                    r[i] = ws_cache_access_bytes(c[i], a, a, d, (s >> 33) & 1, wb, req, now);
                bad |= r[0].status != r[1].status || r[0].fail != r[1].fail ||
                       r[0].held != r[1].held || r[0].sent_write != r[1].sent_write;
            } else if (op < 12) { /* the oldest miss goes down */
                const ws_cache_out *o[2] = {ws_cache_peek_miss(c[0]), ws_cache_peek_miss(c[1])};
                bad |= !o[0] != !o[1];
                if (o[0] && o[1]) {
                    bad |= o[0]->kind != o[1]->kind || o[0]->addr != o[1]->addr ||
                           o[0]->size != o[1]->size || o[0]->sectors != o[1]->sectors ||
                           o[0]->req != o[1]->req;
                    if (o[0]->kind == WS_OUT_READ_LINE && nsent < 256) sent[nsent++] = o[0]->addr;
                    ws_cache_pop_miss(c[0]);
                    ws_cache_pop_miss(c[1]);
                }
            } else if (op < 15 && nsent) { /* a random fetch comes back */
                unsigned i = (unsigned)((s >> 32) % nsent);
                ws_cache_fill(c[0], sent[i], now);
                ws_cache_fill(c[1], sent[i], now);
                sent[i] = sent[--nsent];
                for (;;) {
                    void *p0 = ws_cache_pop_ready(c[0]), *p1 = ws_cache_pop_ready(c[1]);
                    bad |= p0 != p1;
                    if (!p0 || !p1) break;
                }
            } else { /* rarer changes */
                unsigned what = (unsigned)((s >> 44) % 8);
                if (what < 4) {
                    ws_cache_force_fill(c[0], a, a, now);
                    ws_cache_force_fill(c[1], a, a, now);
                } else if (what < 6) {
                    bad |= ws_cache_take(c[0], a, a) != ws_cache_take(c[1], a, a);
                } else if (what == 6) {
                    ws_cache_invalidate(c[0]);
                    ws_cache_invalidate(c[1]);
                } else {
                    uint32_t ways = ws_cache_get_cfg(c[0])->assoc == 64 ? 32 : 64;
                    bad |= ws_cache_set_ways(c[0], ways) != ws_cache_set_ways(c[1], ways);
                }
            }
            for (unsigned i = 0; i < 8; i++) probe[i] = (a & ~127ull) + i * 128 * 64;
            if (!ws_cache_check_tags(c[1], probe, 8) || !ws_cache_check_tags(c[0], probe, 0)) bad = 2;
            if (bad) CHECK_MSG(0, "cache %u step %u: %s", k, step,
                               bad == 2 ? "the tag index or victim search disagrees"
                                        : "the two caches differ");
        }
        /* every count too: without its tag index c[0] answers most hits before the access
           path (cache.c: read_hit_mru, read_hit_scan, write_hit_mru), c[1] never does */
        CHECK_MSG(!memcmp(ws_cache_get_stats(c[0]), ws_cache_get_stats(c[1]), sizeof(ws_cache_stats)),
                  "cache %u: the counts differ", k);
        ws_cache_destroy(c[0]);
        ws_cache_destroy(c[1]);
    }
}

/* Read hits answered before the access path (cache.c: read_hit_mru, read_hit_scan) keep
   what the path would: the last use that LRU reads, the counts (local ones too) and the
   set's last-found way. */
TEST(cache_read_hits_before_the_path_keep_lru_and_counts) {
    char err[256];
    ws_cache *c = make("S:4:128:4,L:B:m:L:L,A:32:4,8:0,32", err);
    CHECK_MSG(c, "%s", err);
    if (!c) return;
    int r;
    uint64_t b[5];
    for (unsigned i = 0; i < 5; i++) b[i] = 0x80000000ull + (uint64_t)i * 4 * 128; /* set 0 */
    for (unsigned i = 0; i < 4; i++) { /* ways 0-3, last used at 1-4 */
        CHECK_EQ_I64(ws_cache_access_bytes(c, b[i], b[i], WS_ACC_READ, false, 0, &r, i + 1).status,
                     WS_CACHE_MISS);
        ws_cache_pop_miss(c);
        ws_cache_fill(c, b[i], i + 1);
        CHECK(ws_cache_pop_ready(c) == &r);
    }
    /* b[0] is not the way last found (b[3] is): the scan's hit, a local one */
    CHECK_EQ_I64(ws_cache_access_bytes(c, b[0], b[0], WS_ACC_READ, true, 0, &r, 10).status,
                 WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access_bytes(c, b[2], b[2], WS_ACC_READ, false, 0, &r, 11).status,
                 WS_CACHE_HIT);
    const ws_cache_stats *s = ws_cache_get_stats(c);
    CHECK_EQ_I64(s->status[WS_ACC_READ][WS_CACHE_HIT], 2);
    CHECK_EQ_I64(s->status_local[WS_ACC_READ][WS_CACHE_HIT], 1);
    /* a new block takes the least recently used way: b[1]'s, not b[0]'s nor b[2]'s */
    CHECK_EQ_I64(ws_cache_access_bytes(c, b[4], b[4], WS_ACC_READ, false, 0, &r, 12).status,
                 WS_CACHE_MISS);
    ws_cache_pop_miss(c);
    ws_cache_fill(c, b[4], 13);
    CHECK(ws_cache_pop_ready(c) == &r);
    CHECK_EQ_I64(ws_cache_access_bytes(c, b[0], b[0], WS_ACC_READ, false, 0, &r, 14).status,
                 WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access_bytes(c, b[2], b[2], WS_ACC_READ, false, 0, &r, 15).status,
                 WS_CACHE_HIT);
    CHECK_EQ_I64(ws_cache_access_bytes(c, b[1], b[1], WS_ACC_READ, false, 0, &r, 16).status,
                 WS_CACHE_MISS);
    ws_cache_destroy(c);
}
