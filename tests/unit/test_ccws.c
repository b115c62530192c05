/* CCWS (throttle policy "ccws"): victim tag arrays, lost-locality scores,
 * the cutoff gating loads only, driven with synthetic L1D events; and its
 * effect on real runs. */
#include <stdlib.h>

#include "policy/throttle/ccws.h"
#include "test.h"
#include "warpsim/warpsim.h"
#include "workload.h"

/* One SM of 4 warp slots under one scheduler, with 128 B lines. */
typedef struct ccws_rig {
    ws_throttle sched;
    ws_throttle_sm sm;
    const ws_throttle_policy *p;
    ws_sched_warp w[4];
} ccws_rig;

static int rig_open(ccws_rig *r, const char *spec) {
    char err[256];
    if (ws_throttle_create(&r->sched, spec, 4, err, sizeof err)) return -1;
    if (ws_throttle_sm_create(&r->sm, spec, 4, 128, &r->sched, 1, err, sizeof err)) return -1;
    r->p = r->sm.policy;
    for (int i = 0; i < 4; i++)
        r->w[i] = (ws_sched_warp){.slot = (uint16_t)i, .valid = 1, .age = (uint64_t)10 + i};
    return r->p ? 0 : -1;
}

static void rig_close(ccws_rig *r) {
    ws_throttle_sm_destroy(&r->sm);
    ws_throttle_destroy(&r->sched);
}

static void filter(ccws_rig *r) { r->p->filter(r->sched.state, r->w, 4); }

/* Line k of VTA set `set` (2 sets of 8 ways by default). */
static uint64_t blk(unsigned set, unsigned k) { return 0x10000000ull + (2ull * k + set) * 128; }

TEST(ccws_vta_insert_probe_and_lru) {
    ccws_rig r;
    CHECK(rig_open(&r, "ccws") == 0);
    void *m = r.sm.state;
    filter(&r);
    /* nine victims of warp 1 in one set: the least recently inserted goes */
    for (unsigned k = 0; k < 8; k++) r.p->l1d_evict(m, blk(0, k), 1, 0);
    r.p->l1d_evict(m, blk(0, 0), 1, 0); /* again: refreshed, not duplicated */
    r.p->l1d_evict(m, blk(0, 8), 1, 0);
    CHECK(ws_ccws_vta_has(m, 1, blk(0, 0)));
    CHECK(!ws_ccws_vta_has(m, 1, blk(0, 1)));
    for (unsigned k = 2; k <= 8; k++) CHECK_MSG(ws_ccws_vta_has(m, 1, blk(0, k)), "line %u", k);
    /* the other set and the other warps' arrays are untouched */
    r.p->l1d_evict(m, blk(1, 0), 1, 0);
    CHECK(ws_ccws_vta_has(m, 1, blk(1, 0)) && ws_ccws_vta_has(m, 1, blk(0, 8)));
    CHECK(!ws_ccws_vta_has(m, 2, blk(0, 8)));
    /* a miss of another warp does not probe warp 1's array; warp 1's own
       miss hits once, and the entry leaves (the line is coming back) */
    r.p->l1d_read_miss(m, 2, blk(0, 8));
    CHECK_EQ_U64(ws_ccws_vta_hits(m), 0);
    r.p->l1d_read_miss(m, 1, blk(0, 8));
    CHECK_EQ_U64(ws_ccws_vta_hits(m), 1);
    CHECK(!ws_ccws_vta_has(m, 1, blk(0, 8)));
    r.p->l1d_read_miss(m, 1, blk(0, 8));
    CHECK_EQ_U64(ws_ccws_vta_hits(m), 1);
    /* owners out of range (lines of no warp) are ignored */
    r.p->l1d_evict(m, blk(0, 9), 999, 0);
    rig_close(&r);
}

TEST(ccws_score_raise_decay_and_cap) {
    ccws_rig r;
    CHECK(rig_open(&r, "ccws") == 0);
    void *m = r.sm.state;
    filter(&r); /* 4 live warps: cutoff 400 */
    r.p->sm_cycle(m, 1000, 100);
    CHECK_EQ_U64(ws_ccws_score(m, 2), 100);
    r.p->l1d_evict(m, blk(0, 0), 2, 0);
    r.p->l1d_read_miss(m, 2, blk(0, 0));
    /* k * hits / insts * cutoff = 8 * 1 / 100 * 400 */
    CHECK_EQ_U64(ws_ccws_score(m, 2), 132);
    r.p->sm_cycle(m, 1001, 100);
    CHECK_EQ_U64(ws_ccws_score(m, 2), 131);
    r.p->sm_cycle(m, 1011, 100); /* cycles the SM skipped count too */
    CHECK_EQ_U64(ws_ccws_score(m, 2), 121);
    r.p->sm_cycle(m, 2000, 100);
    CHECK_EQ_U64(ws_ccws_score(m, 2), 100); /* never below the base */
    /* the update grows with the hit total; a score stops at the cutoff */
    for (unsigned k = 0; k < 6; k++) {
        r.p->l1d_evict(m, blk(0, k), 3, 0);
        r.p->l1d_read_miss(m, 3, blk(0, k));
    }
    CHECK_EQ_U64(ws_ccws_vta_hits(m), 7);
    CHECK_EQ_U64(ws_ccws_score(m, 3), 400);
    /* a new warp in the slot starts at the base */
    r.w[3].age = 99;
    filter(&r);
    CHECK_EQ_U64(ws_ccws_score(m, 3), 100);
    rig_close(&r);
}

TEST(ccws_cutoff_gates_loads_only) {
    ccws_rig r;
    CHECK(rig_open(&r, "ccws:k=8:base=100") == 0);
    void *m = r.sm.state;
    for (int i = 0; i < 4; i++) r.w[i].next_load = 1;
    filter(&r);
    for (int i = 0; i < 4; i++) CHECK(!r.w[i].noload && !r.w[i].throttled); /* all at base */
    /* warp 2 lost locality: 160 + 100 + 100 + 100 passes the cutoff of 400 at
       the last base-score warp in age order (slot 3, the youngest) */
    r.p->sm_cycle(m, 1, 160);
    r.p->l1d_evict(m, blk(0, 0), 2, 0);
    r.p->l1d_read_miss(m, 2, blk(0, 0)); /* 8 * 1 / 160 * 400 = 20 */
    r.p->l1d_evict(m, blk(0, 1), 2, 0);
    r.p->l1d_read_miss(m, 2, blk(0, 1)); /* 8 * 2 / 160 * 400 = 40 */
    CHECK_EQ_U64(ws_ccws_score(m, 2), 160);
    r.w[3].next_load = 0;
    filter(&r);
    CHECK(!r.w[0].noload && !r.w[1].noload && !r.w[2].noload);
    CHECK(r.w[3].noload);     /* may not issue loads ... */
    CHECK(!r.w[3].throttled); /* ... but its next instruction is no load: it issues */
    r.w[3].next_load = 1;
    filter(&r);
    CHECK(r.w[3].noload && r.w[3].throttled && !r.w[2].throttled);
    /* a warp waiting at a barrier takes no room in the stack */
    r.w[2].waiting = 1;
    filter(&r);
    CHECK(!r.w[3].noload);
    r.w[2].waiting = 0;
    /* when slot 3's warp finishes the cutoff shrinks to 300: 160 + 100 + 100
       now passes it at slot 1 */
    r.w[3].valid = 0;
    filter(&r);
    CHECK(!r.w[0].noload && !r.w[2].noload && r.w[1].noload && !r.w[3].noload);
    r.w[3].valid = 1;
    /* the score decays back and the gate opens */
    r.p->sm_cycle(m, 200, 160);
    filter(&r);
    for (int i = 0; i < 4; i++) CHECK_MSG(!r.w[i].noload, "slot %d", i);
    rig_close(&r);
}

TEST(ccws_args) {
    ws_throttle t;
    char err[256];
    CHECK(ws_throttle_create(&t, "ccws:k=4:base=50:vta=32:ways=4:decay=2", 24, err, sizeof err) ==
          0);
    ws_throttle_destroy(&t);
    CHECK(ws_throttle_create(&t, "ccws:vta=12:ways=8", 24, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "multiple of ways");
    CHECK(ws_throttle_create(&t, "ccws:kk=1", 24, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "ccws");
    CHECK(ws_throttle_create(&t, "ccws:k=-1", 24, err, sizeof err) == -1);
    /* policies without a per-SM part have none */
    ws_throttle_sm s;
    CHECK(ws_throttle_sm_create(&s, "none", 48, 128, NULL, 0, err, sizeof err) == 0);
    CHECK(s.policy == NULL);
}

/* A timing run of a workload; PASS, cycles and the L1D read misses. */
static int run_with(const char *wl, const char *opt, uint64_t *cycles, uint64_t *misses) {
    char *rep = NULL;
    size_t rlen = 0;
    FILE *rf = open_memstream(&rep, &rlen), *lf = fopen("/dev/null", "w");
    const char *over[] = {opt, NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.report = rf;
    o.config_overrides = over;
    ws_device *d = NULL;
    int ok = 0;
    if (ws_device_create(&o, &d) == WS_OK) {
        ok = ws_workload_run(ws_workload_find(wl), d, WS_INPUT_SMALL, lf) == WS_WL_PASS;
        *cycles = ws_device_cycles(d);
        ws_device_destroy(d);
    }
    fclose(rf);
    fclose(lf);
    *misses = 0;
    static const char name[] = "\nL1D_total_cache_misses_kernel = "; /* summed */
    for (const char *p = rep; p && (p = strstr(p, name)); p++)
        *misses += strtoull(p + sizeof name - 1, NULL, 10);
    free(rep);
    return ok;
}

/* k-means thrashes the L1D (every warp re-reads its own points): CCWS keeps
   some warps from loading, which cuts misses and cycles, and the result
   still checks. */
TEST(ccws_end_to_end) {
    uint64_t c0, m0, c1, m1;
    CHECK(run_with("rodinia/kmeans", "-warpsim_throttle none", &c0, &m0));
    CHECK(run_with("rodinia/kmeans", "-warpsim_throttle ccws", &c1, &m1));
    CHECK(c0 > 0 && m0 > 0);
    CHECK_MSG(m1 < m0 && c1 < c0, "ccws: %llu cycles %llu misses, baseline %llu, %llu",
              (unsigned long long)c1, (unsigned long long)m1, (unsigned long long)c0,
              (unsigned long long)m0);
}
