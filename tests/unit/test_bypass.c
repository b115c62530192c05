/* Bypass family: the cache's bypass modes (tag-only, protection distance,
 * bypass on line-allocation failure) access by access, DBSA's per-period
 * rule driven through its states, and each policy end to end. */
#include <stdlib.h>

#include "policy/bypass/bypass.h"
#include "test.h"
#include "timing/mem/cache.h"
#include "warpsim/warpsim.h"
#include "workload.h"

static ws_cache *make(const char *cfgs, char *err) {
    ws_cache_cfg cfg;
    if (ws_cache_cfg_parse(cfgs, &cfg, err, 256)) return NULL;
    return ws_cache_create("t", &cfg, NULL, err, 256);
}

/* Block k of set s in a linear 32-set, 128 B cache. */
static uint64_t lin(uint32_t s, uint32_t k) { return 0xC0000000ull + ((uint64_t)k * 32 + s) * 128; }

static ws_cache_status rd(ws_cache *c, uint64_t a, void *req, uint64_t now) {
    ws_fail_kind f;
    return ws_cache_access(c, a, WS_ACC_READ, false, req, now, &f);
}

/* Drain the miss queue; returns how many entries of `kind` it held. */
static unsigned drain(ws_cache *c, int kind) {
    unsigned n = 0;
    while (ws_cache_has_miss(c)) {
        n += ws_cache_peek_miss(c)->kind == kind;
        ws_cache_pop_miss(c);
    }
    return n;
}

TEST(bypass_tag_only_updates_tags_and_sends_reads_down) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,8", err);
    CHECK_MSG(c, "%s", err);
    int r1, r2;
    ws_cache_bypass on = {.tag_only = true}, off = {0};
    ws_cache_set_bypass(c, &on);
    uint64_t a = lin(5, 0);
    CHECK_EQ_I64(rd(c, a, &r1, 1), WS_CACHE_BYPASS);
    const ws_cache_out *o = ws_cache_peek_miss(c);
    CHECK(o && o->kind == WS_OUT_BYPASS && o->addr == a && o->req == &r1 && o->size == 128);
    CHECK_EQ_I64(drain(c, WS_OUT_BYPASS), 1);
    CHECK_EQ_I64(ws_cache_mshr_used(c), 0); /* no MSHR, no reserved line */
    CHECK_EQ_I64(ws_cache_reserved_in_set(c, 5), 0);
    /* the second read finds the tag: counted as a hit for the miss rate, still bypassed */
    CHECK_EQ_I64(rd(c, a + 8, &r2, 2), WS_CACHE_BYPASS);
    drain(c, WS_OUT_BYPASS);
    uint64_t reads, misses;
    ws_cache_read_counts(c, &reads, &misses);
    CHECK_EQ_U64(reads, 2);
    CHECK_EQ_U64(misses, 1);
    /* caching again: the tag holds no data, so the read misses and fetches */
    ws_cache_set_bypass(c, &off);
    CHECK_EQ_I64(rd(c, a, &r1, 3), WS_CACHE_SECTOR_MISS);
    CHECK_EQ_I64(drain(c, WS_OUT_READ_LINE), 1);
    ws_cache_fill(c, a, 4);
    CHECK(ws_cache_pop_ready(c) == &r1);
    CHECK_EQ_I64(rd(c, a, &r1, 5), WS_CACHE_HIT);
    /* data present while bypassing: served */
    ws_cache_set_bypass(c, &on);
    CHECK_EQ_I64(rd(c, a, &r1, 6), WS_CACHE_HIT);
    CHECK(!ws_cache_has_miss(c));
    /* a write goes down and leaves only the tag */
    ws_cache_result w = ws_cache_access_ex(c, a, a, WS_ACC_WRITE, false, false, &r2, 7);
    CHECK(w.status == WS_CACHE_BYPASS && w.sent_write);
    CHECK_EQ_I64(drain(c, WS_OUT_WRITE), 1);
    CHECK_EQ_I64(rd(c, a, &r1, 8), WS_CACHE_BYPASS);
    drain(c, WS_OUT_BYPASS);
    /* a full miss queue still fails (the bypass needs a slot) */
    for (uint32_t k = 0; k < 7; k++) CHECK_EQ_I64(rd(c, lin(9, k), &r1, 10 + k), WS_CACHE_BYPASS);
    CHECK_EQ_I64(rd(c, lin(9, 7), &r1, 20), WS_CACHE_RESERVATION_FAIL);
    CHECK_EQ_U64(ws_cache_get_stats(c)->fail[0][WS_FAIL_MISS_QUEUE], 1);
    ws_cache_destroy(c);
}

/* Fill block k of set s (miss, then the fill). */
static void load(ws_cache *c, uint32_t s, uint32_t k, uint64_t now) {
    int r;
    CHECK_EQ_I64(rd(c, lin(s, k), &r, now), WS_CACHE_MISS);
    drain(c, WS_OUT_READ_LINE);
    ws_cache_fill(c, lin(s, k), now);
    ws_cache_pop_ready(c);
}

TEST(bypass_protection_distance_protects_then_releases) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,8", err);
    CHECK_MSG(c, "%s", err);
    ws_cache_bypass pd = {.protect = 4, .on_line_fail = true};
    ws_cache_set_bypass(c, &pd);
    int r;
    /* fills of blocks 0..3: RPDs end at 1, 2, 3, 4 (each fill takes one from the others) */
    for (uint32_t k = 0; k < 4; k++) load(c, 7, k, 10 + k);
    /* every line protected: a new block bypasses instead of evicting */
    CHECK_EQ_I64(rd(c, lin(7, 4), &r, 20), WS_CACHE_BYPASS);
    CHECK_EQ_I64(drain(c, WS_OUT_BYPASS), 1);
    CHECK_EQ_I64(rd(c, lin(7, 0), &r, 21), WS_CACHE_HIT); /* block 0 is still there */
    /* hits on block 0 (now 4) wear the others down: 1 2 3 -> 0 0 0 after three */
    CHECK_EQ_I64(rd(c, lin(7, 0), &r, 22), WS_CACHE_HIT);
    CHECK_EQ_I64(rd(c, lin(7, 0), &r, 23), WS_CACHE_HIT);
    CHECK_EQ_I64(rd(c, lin(7, 0), &r, 24), WS_CACHE_HIT);
    /* now block 1 (LRU among RPD 0) is the victim */
    CHECK_EQ_I64(rd(c, lin(7, 4), &r, 25), WS_CACHE_MISS);
    drain(c, WS_OUT_READ_LINE);
    CHECK_EQ_I64(rd(c, lin(7, 1), &r, 26), WS_CACHE_MISS);
    CHECK_EQ_I64(rd(c, lin(7, 0), &r, 27), WS_CACHE_HIT);
    ws_cache_destroy(c);
}

/* A bypassed read ages the set too: a set whose protected lines are never
   hit again frees a line after a few bypasses instead of bypassing forever. */
TEST(bypass_protection_distance_ages_on_bypass) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,8", err);
    CHECK_MSG(c, "%s", err);
    ws_cache_bypass pd = {.protect = 4, .on_line_fail = true};
    ws_cache_set_bypass(c, &pd);
    int r;
    for (uint32_t k = 0; k < 4; k++) load(c, 3, k, 10 + k); /* RPDs 1 2 3 4 */
    CHECK_EQ_I64(rd(c, lin(3, 10), &r, 20), WS_CACHE_BYPASS); /* -> 0 1 2 3 */
    drain(c, WS_OUT_BYPASS);
    CHECK_EQ_I64(rd(c, lin(3, 11), &r, 21), WS_CACHE_MISS);   /* block 0 is the victim */
    drain(c, WS_OUT_READ_LINE);
    /* block 0 is gone (not a hit); the others are still protected: bypass */
    CHECK_EQ_I64(rd(c, lin(3, 0), &r, 22), WS_CACHE_BYPASS);
    ws_cache_destroy(c);
}

TEST(bypass_on_line_fail_replaces_line_alloc_stall) {
    char err[256];
    ws_cache *c = make("32:128:4,L:L:m:N,A:32:8,8", err);
    CHECK_MSG(c, "%s", err);
    int r;
    for (uint32_t k = 0; k < 4; k++) CHECK_EQ_I64(rd(c, lin(2, k), &r, k), WS_CACHE_MISS);
    drain(c, WS_OUT_READ_LINE);
    CHECK_EQ_I64(rd(c, lin(2, 4), &r, 5), WS_CACHE_RESERVATION_FAIL); /* baseline: stall */
    CHECK_EQ_U64(ws_cache_get_stats(c)->fail[0][WS_FAIL_LINE_ALLOC], 1);
    ws_cache_bypass st = {.on_line_fail = true};
    ws_cache_set_bypass(c, &st);
    CHECK_EQ_I64(rd(c, lin(2, 4), &r, 6), WS_CACHE_BYPASS);
    const ws_cache_out *o = ws_cache_peek_miss(c);
    CHECK(o && o->kind == WS_OUT_BYPASS && o->req == &r);
    CHECK_EQ_U64(ws_cache_get_stats(c)->fail[0][WS_FAIL_LINE_ALLOC], 1);
    ws_cache_destroy(c);
}

static void epoch(ws_bypass *b, ws_bypass_counts *cnt, ws_cache_bypass *mode, unsigned n,
                  bool settled) {
    ws_bypass_epoch e = {0, 10000, n, cnt, mode, settled};
    b->policy->epoch(b->state, &e);
}

TEST(bypass_dbsa_rule_by_period) {
    ws_bypass b;
    char err[256];
    ws_cache_bypass mode[3] = {0};
    CHECK(ws_bypass_create(&b, "l1d_bypass", "dbsa", 3, err, sizeof err) == 0);
    CHECK_EQ_U64(b.period, 10000);
    b.policy->kernel_start(b.state, mode, 3);
    CHECK(!mode[0].tag_only);
    /* GPU-wide: 280 misses of 300 reads = 93% > 90%: bypass all next period */
    ws_bypass_counts hi[3] = {{100, 100}, {100, 100}, {100, 80}};
    epoch(&b, hi, mode, 3, true);
    CHECK(mode[0].tag_only && mode[1].tag_only && mode[2].tag_only);
    /* a period with no reads keeps the decision; 90% exactly is not above */
    ws_bypass_counts none[3] = {{0, 0}, {0, 0}, {0, 0}};
    epoch(&b, none, mode, 3, true);
    CHECK(mode[1].tag_only);
    ws_bypass_counts ninety[3] = {{100, 90}, {100, 90}, {100, 90}};
    epoch(&b, ninety, mode, 3, true);
    CHECK(!mode[0].tag_only && !mode[2].tag_only);
    ws_bypass_destroy(&b);
    /* per-cache scope and a lower threshold */
    CHECK(ws_bypass_create(&b, "l2_bypass", "dbsa:scope=1:threshold=0.5:period=500", 3, err,
                          sizeof err) == 0);
    CHECK_EQ_U64(b.period, 500);
    b.policy->kernel_start(b.state, mode, 3);
    ws_bypass_counts mix[3] = {{10, 6}, {10, 5}, {10, 0}};
    epoch(&b, mix, mode, 3, true);
    CHECK(mode[0].tag_only && !mode[1].tag_only && !mode[2].tag_only);
    ws_bypass_destroy(&b);
    /* wait=1 (DWT-PRIC): nothing until the throttle controller settled */
    CHECK(ws_bypass_create(&b, "l1d_bypass", "dbsa:wait=1", 3, err, sizeof err) == 0);
    memset(mode, 0, sizeof mode);
    b.policy->kernel_start(b.state, mode, 3);
    epoch(&b, hi, mode, 3, false);
    CHECK(!mode[0].tag_only);
    epoch(&b, hi, mode, 3, true);
    CHECK(mode[0].tag_only);
    ws_bypass_destroy(&b);
    /* bad arguments and names */
    CHECK(ws_bypass_create(&b, "l1d_bypass", "dbsa:threshold=2", 3, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "threshold");
    CHECK(ws_bypass_create(&b, "l1d_bypass", "dbsa:foo=1", 3, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "bad argument 'foo'");
    CHECK(ws_bypass_create(&b, "l1d_bypass", "pd:rpd=0", 3, err, sizeof err) == -1);
    CHECK(ws_bypass_create(&b, "l1d_bypass", "nosuch", 3, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "-l1d_bypass nosuch: unknown policy (known: none always dbsa pd stall");
}

/* Run a workload in timing mode with extra options; returns PASS and
   fills the named stats (summed over kernels). */
static int run_with(const char *wl, const char **over, const char *const *names, uint64_t *vals) {
    char *rep = NULL;
    size_t rlen = 0;
    FILE *rf = open_memstream(&rep, &rlen), *lf = fopen("/dev/null", "w");
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.report = rf; /* quiet would drop the report */
    o.config_overrides = over;
    ws_device *d = NULL;
    int ok = 0;
    if (ws_device_create(&o, &d) == WS_OK) {
        ok = ws_workload_run(ws_workload_find(wl), d, WS_INPUT_SMALL, lf) == WS_WL_PASS;
        vals[0] = ws_device_cycles(d);
        ws_device_destroy(d);
    }
    fclose(rf);
    fclose(lf);
    for (int i = 0; names[i]; i++) {
        vals[i + 1] = 0;
        size_t n = strlen(names[i]);
        for (const char *p = rep; p && (p = strstr(p, names[i])); p += n)
            if ((p == rep || p[-1] == '\n') && !strncmp(p + n, " = ", 3))
                vals[i + 1] += strtoull(p + n + 3, NULL, 10);
    }
    free(rep);
    return ok;
}

TEST(bypass_policies_end_to_end) {
    /* per-kernel values, summed over the run's kernels */
    static const char *const names[] = {"L1D_total_cache_bypasses_kernel",
                                        "L2_total_cache_bypasses_kernel",
                                        "L1D_total_cache_accesses_kernel", NULL};
    uint64_t base[4], v[4];
    const char *none[] = {NULL};
    CHECK(run_with("micro/vectoradd", none, names, base));
    CHECK_EQ_U64(base[1], 0);
    CHECK_EQ_U64(base[2], 0);
    /* streaming: DBSA (short periods for this small run) turns the L1D off */
    const char *dbsa[] = {"-l1d_bypass dbsa:period=1000", NULL};
    CHECK(run_with("micro/vectoradd", dbsa, names, v));
    CHECK_MSG(v[1] > base[3] / 2, "bypasses %llu of %llu", (unsigned long long)v[1],
              (unsigned long long)base[3]);
    const char *l2[] = {"-l2_bypass always", NULL};
    CHECK(run_with("micro/vectoradd", l2, names, v));
    CHECK(v[2] > 0 && v[0] != base[0]);
    const char *all[] = {"-l1d_bypass always", NULL};
    CHECK(run_with("micro/matmul", all, names, v));
    CHECK(v[1] > 0 && v[3] == 0);
    const char *pd[] = {"-l1d_bypass pd", NULL};
    CHECK(run_with("micro/matmul", pd, names, v));
    const char *stall[] = {"-l1d_bypass stall", NULL};
    CHECK(run_with("micro/matmul", stall, names, v));
}
