/* Adaptive indexing (seed 003 §2.3): the worked examples of victimization
 * and selection, the global-write filter and kernel reset, an ATAX-like
 * stream through a real cache, and the reserved-doomed (RD) line rules. */
#include <stdlib.h>

#include "policy/index/index.h"
#include "test.h"
#include "timing/mem/cache.h"

static ws_index mk_adi(uint32_t sets, uint32_t line, const char *spec) {
    ws_index ix = {0};
    char err[256];
    ws_cache_geom g = {sets, line, 4, NULL};
    CHECK_MSG(ws_index_create(&ix, spec, &g, err, sizeof err) == 0, "%s: %s", spec, err);
    return ix;
}

static unsigned bits_mask(const ws_index *ix) {
    uint8_t b[16];
    unsigned n = ix->policy->index_bits(ix->state, b, 16), m = 0;
    for (unsigned i = 0; i < n; i++) m |= 1u << b[i];
    return m;
}

TEST(adi_victim_example_fig7) {
    /* 8 sets of 1-byte lines: index bits B2B1B0; samples {001,011,001,010}
       give E = (1, 2, 0) and corr(B0,B1) = corr(B0,B2) = 3, so B2 goes */
    ws_index ix = mk_adi(8, 1, "adi:nv=4:ns=3:ni=100:abits=4");
    CHECK_EQ_U64(bits_mask(&ix), 0x7);
    const uint64_t miss[] = {1, 3, 1, 2};
    for (int i = 0; i < 4; i++) CHECK(!ws_index_observe(&ix, miss[i], WS_IX_MISS, false));
    /* selection among B2 (the victim) and B3: B3 toggles on every access */
    CHECK(!ws_index_observe(&ix, 0x8, WS_IX_HIT, false));
    CHECK(!ws_index_observe(&ix, 0x0, WS_IX_HIT, false));
    CHECK(ws_index_observe(&ix, 0x8, WS_IX_HIT, false)); /* changed: flush */
    CHECK_EQ_U64(bits_mask(&ix), 0xB);                    /* B2 replaced by B3 */
    ws_index_destroy(&ix);
}

TEST(adi_selection_example_fig8) {
    /* 4 sets: VIC makes B1 the victim (constant), leaving index {B0}; the
       samples (B2B1|B0) 00|1 10|1 01|0 01|1 11|0 give MRP(B2) = 1 and
       MRP(B1) = 7/4, so B2 is chosen, exactly and by transition count */
    for (int trans = 0; trans < 2; trans++) {
        ws_index ix = mk_adi(4, 1, trans ? "adi:nv=4:ns=5:ni=100:abits=3:mrp=trans"
                                         : "adi:nv=4:ns=5:ni=100:abits=3");
        const uint64_t vic[] = {0, 1, 0, 1};
        for (int i = 0; i < 4; i++) CHECK(!ws_index_observe(&ix, vic[i], WS_IX_MISS, false));
        const uint64_t sel[] = {1, 5, 2, 3, 6};
        for (int i = 0; i < 4; i++) CHECK(!ws_index_observe(&ix, sel[i], WS_IX_HIT, false));
        CHECK(ws_index_observe(&ix, sel[4], WS_IX_MISS, false));
        CHECK_EQ_U64(bits_mask(&ix), 0x5); /* {B0, B2} */
        ws_index_destroy(&ix);
    }
}

TEST(adi_filters_counts_and_kernel_reset) {
    ws_index ix = mk_adi(4, 1, "adi:nv=2:ns=2:ni=3:abits=3:skip_gw=1");
    /* global writes and hits do not count as victimization samples */
    CHECK(!ws_index_observe(&ix, 0, WS_IX_MISS, true));
    CHECK(!ws_index_observe(&ix, 0, WS_IX_HIT, false));
    CHECK(!ws_index_observe(&ix, 0, WS_IX_MISS, false));
    CHECK(!ws_index_observe(&ix, 1, WS_IX_MISS, false)); /* VIC done: B1 victim */
    CHECK(!ws_index_observe(&ix, 4, WS_IX_HIT, true));   /* filtered from SEL */
    CHECK(!ws_index_observe(&ix, 4, WS_IX_HIT, false));
    CHECK(ws_index_observe(&ix, 0, WS_IX_HIT, false));   /* B2 toggles: {B0,B2} */
    CHECK_EQ_U64(bits_mask(&ix), 0x5);
    /* a selection that keeps the victim changes nothing */
    for (int i = 0; i < 3; i++) CHECK(!ws_index_observe(&ix, 0, WS_IX_HIT, true)); /* idle */
    CHECK(!ws_index_observe(&ix, 0, WS_IX_MISS, false));
    CHECK(!ws_index_observe(&ix, 1, WS_IX_MISS, false)); /* B2 constant: victim */
    CHECK(!ws_index_observe(&ix, 0, WS_IX_HIT, false));
    CHECK(!ws_index_observe(&ix, 4, WS_IX_HIT, false));  /* B2 toggles most: kept */
    CHECK_EQ_U64(bits_mask(&ix), 0x5);
    CHECK(ix.policy->kernel_start(ix.state));            /* back to {B0,B1}: flush */
    CHECK_EQ_U64(bits_mask(&ix), 0x3);
    CHECK(!ix.policy->kernel_start(ix.state));
    ws_index_destroy(&ix);
    char err[256];
    ws_cache_geom g = {32, 128, 4, "nv=9:bogus=1"};
    CHECK(ws_index_create(&ix, "adi:ns=7", &g, err, sizeof err) == 0); /* hints may be foreign */
    ws_index_destroy(&ix);
    CHECK(ws_index_create(&ix, "adi:bogus=1", &g, err, sizeof err) == -1); /* args may not */
    CHECK_STR_CONTAINS(err, "bogus");
    CHECK(ws_index_create(&ix, "adi:mrp=fast", &g, err, sizeof err) == -1);
}

/* Run one access to completion with an ideal next level: retries through
 * flush windows, fills every line at once. Returns the status. */
static ws_cache_status run_access(ws_cache *c, uint64_t a, uint64_t *now) {
    for (;;) {
        ws_fail_kind fk;
        ws_cache_status s = ws_cache_access(c, a, WS_ACC_READ, false, (void *)1, (*now)++, &fk);
        const ws_cache_out *o;
        while ((o = ws_cache_peek_miss(c))) {
            uint64_t blk = o->addr;
            bool rd = o->kind == WS_OUT_READ_LINE;
            ws_cache_pop_miss(c);
            if (rd) ws_cache_fill(c, blk, *now);
        }
        while (ws_cache_pop_ready(c)) {
        }
        if (s != WS_CACHE_RESERVATION_FAIL) return s;
    }
}

TEST(adi_atax_stream_learns_thread_bits) {
    /* ATAX: warp lane t reads row t (16 KB apart), all lanes the same column:
       linear indexing puts the 32 lines in one 4-way set. ADI must move the
       index to bits 14..18 and the misses must drop. */
    ws_cache_cfg cfg;
    char err[256];
    CHECK(ws_cache_cfg_parse("32:128:4,L:L:m:N,A:32:8,8", &cfg, err, sizeof err) == 0);
    cfg.index_hints = "nv=1024:ns=1024:ni=4096:skip_gw=1";
    ws_cache *c = ws_cache_create("L1D", &cfg, "adi", err, sizeof err);
    CHECK_MSG(c != NULL, "%s", err);
    if (!c) return;
    /* two warps' worth of rows, each sweeping its 4096 columns (NY = 4096):
       once the set conflicts are gone only 1 access in 32 misses, so the
       last victimization period (1K misses) takes 32K accesses */
    uint64_t now = 0, misses_first = 0, misses_last = 0;
    const uint64_t ny = 4096;
    for (uint64_t w = 0; w < 2; w++)
        for (uint64_t j = 0; j < ny; j++)
            for (uint64_t t = 0; t < 32; t++) {
                uint64_t row = w * 32 + t;
                ws_cache_status s = run_access(c, 0x10000000ull + 16384 * row + 4 * j, &now);
                bool miss = s == WS_CACHE_MISS;
                if (w == 0 && j < 256) misses_first += miss;
                if (w == 1 && j >= ny - 256) misses_last += miss;
            }
    uint8_t b[8];
    unsigned nb = ws_cache_index_bits(c, b, 8), m = 0;
    for (unsigned i = 0; i < nb; i++) m |= 1u << b[i];
    CHECK_EQ_U64(nb, 5);
    CHECK_MSG(m == 0x7C000, "index bits mask %#x, want bits 14..18", m);
    const ws_cache_stats *st = ws_cache_get_stats(c);
    CHECK(st->index_changes >= 5 && st->flushes == st->index_changes);
    /* thrashing at first (every access misses); then one miss per new line */
    CHECK_MSG(misses_first > 256 * 32 / 2, "first: %llu misses", (unsigned long long)misses_first);
    CHECK_MSG(misses_last <= 256 + 32, "last: %llu misses", (unsigned long long)misses_last);
    CHECK(st->fail[0][WS_FAIL_FLUSH] > 0);
    ws_cache_destroy(c);
}

static ws_cache_status acc(ws_cache *c, uint64_t a, void *req, uint64_t now, ws_fail_kind *fk) {
    return ws_cache_access(c, a, WS_ACC_READ, false, req, now, fk);
}

TEST(adi_reserved_doomed_lines) {
    ws_cache_cfg cfg;
    char err[256];
    CHECK(ws_cache_cfg_parse("4:128:2,L:L:m:N,A:8:4,8", &cfg, err, sizeof err) == 0);
    ws_cache *c = ws_cache_create("t", &cfg, "adi:nv=2:ns=2:ni=1000:abits=16", err, sizeof err);
    CHECK_MSG(c != NULL, "%s", err);
    if (!c) return;
    int rx, ry, ra, rz;
    ws_fail_kind fk;
    const uint64_t X = 0x0000, Y = 0x0080, A1 = 0x0200, Z = 0x0100;
    /* VIC: misses X, Y (B8 constant -> victim); SEL: A1, X (B9 toggles) */
    CHECK(acc(c, X, &rx, 1, &fk) == WS_CACHE_MISS);
    CHECK(acc(c, Y, &ry, 2, &fk) == WS_CACHE_MISS);
    CHECK(acc(c, A1, &ra, 3, &fk) == WS_CACHE_MISS);
    CHECK(acc(c, X, &rx, 4, &fk) == WS_CACHE_HIT_RESERVED); /* index now {B7, B9} */
    CHECK_EQ_U64(ws_cache_get_stats(c)->index_changes, 1);
    uint8_t b[2];
    CHECK(ws_cache_index_bits(c, b, 2) == 2 && b[0] == 7 && b[1] == 9);
    /* the flush starts at the next access and blocks the cache one cycle per set */
    CHECK(acc(c, Z, &rz, 5, &fk) == WS_CACHE_RESERVATION_FAIL && fk == WS_FAIL_FLUSH);
    CHECK_EQ_U64(ws_cache_get_stats(c)->flushes, 1);
    CHECK(acc(c, Z, &rz, 8, &fk) == WS_CACHE_RESERVATION_FAIL && fk == WS_FAIL_FLUSH);
    /* old set 0 (X, A1) is now two RD lines: new set 0 cannot reserve */
    CHECK_EQ_U64(ws_cache_reserved_in_set(c, 0), 2);
    CHECK_EQ_U64(ws_cache_set_of(c, Z), 0);
    CHECK(acc(c, Z, &rz, 9, &fk) == WS_CACHE_RESERVATION_FAIL && fk == WS_FAIL_LINE_ALLOC);
    /* A1 maps to a free set now, but its doomed fetch cannot be joined */
    CHECK_EQ_U64(ws_cache_set_of(c, A1), 2);
    CHECK(acc(c, A1, &ra, 10, &fk) == WS_CACHE_RESERVATION_FAIL && fk == WS_FAIL_LINE_ALLOC);
    /* X's fill: the line becomes invalid, both merged requests get the data */
    while (ws_cache_has_miss(c)) ws_cache_pop_miss(c);
    ws_cache_fill(c, X, 11);
    CHECK(ws_cache_pop_ready(c) == &rx);
    CHECK(ws_cache_pop_ready(c) == &rx);
    CHECK(ws_cache_pop_ready(c) == NULL);
    CHECK_EQ_U64(ws_cache_reserved_in_set(c, 0), 1);
    CHECK(acc(c, X, &rx, 12, &fk) == WS_CACHE_MISS); /* not kept: a fresh miss */
    CHECK(acc(c, Z, &rz, 13, &fk) == WS_CACHE_RESERVATION_FAIL); /* X + A1's RD */
    ws_cache_fill(c, A1, 14);
    CHECK(ws_cache_pop_ready(c) == &ra);
    CHECK_EQ_U64(ws_cache_reserved_in_set(c, 0), 1);  /* X's new reservation */
    CHECK_EQ_U64(ws_cache_reserved_in_set(c, 2), 0);  /* A1 left nothing behind */
    CHECK(acc(c, A1, &ra, 15, &fk) == WS_CACHE_MISS);
    /* the new fetch of X fills its new line normally */
    while (ws_cache_has_miss(c)) ws_cache_pop_miss(c);
    ws_cache_fill(c, X, 16);
    CHECK(ws_cache_pop_ready(c) == &rx);
    CHECK(acc(c, X, &rx, 17, &fk) == WS_CACHE_HIT);
    /* a local (write-back) write dirties X; the kernel reset flushes it back */
    CHECK(ws_cache_access(c, X, WS_ACC_WRITE, true, &rx, 18, &fk) == WS_CACHE_HIT);
    ws_cache_kernel_start(c, 0);
    CHECK(ws_cache_index_bits(c, b, 2) == 2 && b[0] == 7 && b[1] == 8);
    const ws_cache_stats *st = ws_cache_get_stats(c);
    CHECK_EQ_U64(st->flushes, 2);
    CHECK_EQ_U64(st->flush_writebacks, 1);
    bool wb = false;
    for (const ws_cache_out *o; (o = ws_cache_peek_miss(c)); ws_cache_pop_miss(c))
        wb |= o->kind == WS_OUT_WRITEBACK && o->addr == X;
    CHECK(wb);
    ws_cache_fill(c, Y, 19); /* Y's RD line goes */
    CHECK(ws_cache_pop_ready(c) == &ry);
    CHECK(ws_cache_pop_ready(c) == NULL);
    ws_cache_destroy(c);
}
