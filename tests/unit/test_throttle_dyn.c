/* Dynamic warp throttling: the controllers of dwtcs, dwtpric, awl and iacm
 * driven through their states with synthetic per-period counts (no
 * simulator), then each end to end on a small workload. */
#include <stdlib.h>

#include "policy/throttle/limit.h"
#include "policy/throttle/throttle.h"
#include "test.h"
#include "timing/mem/cache.h"
#include "warpsim/warpsim.h"
#include "workload.h"

enum { MAX_SMS = 16, MAX_SCHED = 2 };

/* A GPU as the controller sees it: per-scheduler states, counts, L1Ds. */
typedef struct {
    unsigned n_sms, n_sched;
    ws_throttle t[MAX_SMS * MAX_SCHED];
    void *sched[MAX_SMS * MAX_SCHED];
    ws_throttle_sm_counts sm[MAX_SMS];
    ws_cache *l1d[MAX_SMS];
    ws_throttle_ctl ctl;
    ws_throttle_epoch e;
    uint64_t now;
} rig;

static bool rig_init(rig *r, const char *spec, unsigned n_sms, unsigned n_sched, unsigned slots) {
    char err[256];
    memset(r, 0, sizeof *r);
    r->n_sms = n_sms;
    r->n_sched = n_sched;
    for (unsigned i = 0; i < n_sms * n_sched; i++) {
        CHECK_MSG(ws_throttle_create(&r->t[i], spec, slots, err, sizeof err) == 0, "%s", err);
        r->sched[i] = r->t[i].state;
    }
    CHECK_MSG(ws_throttle_ctl_create(&r->ctl, spec, n_sms, n_sched, err, sizeof err) == 0, "%s",
              err);
    CHECK(r->ctl.policy != NULL);
    for (unsigned i = 0; i < n_sms; i++) r->sm[i].max_warps = slots * n_sched;
    return r->ctl.policy != NULL;
}

static void rig_free(rig *r) {
    ws_throttle_ctl_destroy(&r->ctl);
    for (unsigned i = 0; i < r->n_sms * r->n_sched; i++) ws_throttle_destroy(&r->t[i]);
}

static const ws_throttle_epoch *rig_epoch(rig *r, uint64_t cycles, const char *kernel) {
    r->e = (ws_throttle_epoch){r->now, cycles, r->n_sms, r->n_sched, r->sm, r->sched, r->l1d,
                               kernel};
    return &r->e;
}

static void rig_kernel(rig *r, const char *kernel) {
    for (unsigned i = 0; i < r->n_sms * r->n_sched; i++)
        r->t[i].policy->kernel_start(r->t[i].state);
    for (unsigned i = 0; i < r->n_sms; i++) r->sm[i].thread_insts = r->sm[i].l1d_read_misses = 0;
    r->ctl.policy->ctl_kernel_start(r->ctl.state, rig_epoch(r, 0, kernel));
}

/* One period in which every SM committed insts[i] (or insts[0] for all
   when one value is given) with the given GPU-wide MPKI. */
static void rig_period(rig *r, const char *kernel, const uint64_t *insts, unsigned ninsts,
                       double mpki) {
    uint64_t p = r->ctl.policy->ctl_period(r->ctl.state);
    for (unsigned i = 0; i < r->n_sms; i++) {
        uint64_t n = insts[ninsts > 1 ? i : 0];
        r->sm[i].thread_insts = n;
        r->sm[i].l1d_reads = n / 4;
        r->sm[i].l1d_read_misses = (uint64_t)(mpki * (double)n / 1000.0);
    }
    r->now += p;
    r->ctl.policy->ctl_epoch(r->ctl.state, rig_epoch(r, p, kernel));
}

static void even(rig *r, const char *kernel, double mpki) {
    const uint64_t n = 100000;
    rig_period(r, kernel, &n, 1, mpki);
}

static unsigned lim(const rig *r, unsigned sm, unsigned s) {
    return ws_limit_get(r->sched[sm * r->n_sched + s]);
}

static bool settled(const rig *r) { return r->ctl.policy->ctl_settled(r->ctl.state); }

static double stat(const rig *r, const char *name) {
    ws_throttle_stat st[8];
    unsigned n = r->ctl.policy->ctl_stats(r->ctl.state, st, 8);
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(st[i].name, name)) return st[i].value;
    CHECK_MSG(0, "no stat %s", name);
    return -1;
}

/* Every scheduler of every SM at limit l. */
static bool all_at(const rig *r, unsigned l) {
    for (unsigned i = 0; i < r->n_sms * r->n_sched; i++)
        if (ws_limit_get(r->sched[i]) != l) return false;
    return true;
}

/* Per-SM counts in which SM `best` (0-based) committed the most. */
static void sample_period(rig *r, const char *k, unsigned best) {
    uint64_t v[MAX_SMS];
    for (unsigned i = 0; i < r->n_sms; i++) v[i] = 50000 + 100 * i;
    v[best] = 90000;
    rig_period(r, k, v, r->n_sms, 30);
}

TEST(throttle_dwtcs_detects_samples_and_picks_the_argmax) {
    rig r;
    if (!rig_init(&r, "dwtcs", 15, 2, 24)) return;
    CHECK_EQ_U64(r.ctl.policy->ctl_period(r.ctl.state), 10000);
    rig_kernel(&r, "k1");
    CHECK(all_at(&r, 24) && !settled(&r));
    /* MPKI 10 is not above the threshold; high, high, low resets the run */
    even(&r, "k1", 10);
    even(&r, "k1", 20);
    even(&r, "k1", 20);
    CHECK(all_at(&r, 24));
    CHECK(settled(&r)); /* the first N periods were not all high */
    even(&r, "k1", 5);
    even(&r, "k1", 20);
    even(&r, "k1", 20);
    CHECK(all_at(&r, 24));
    /* the third consecutive high period: SM c samples limit c on both schedulers */
    even(&r, "k1", 20);
    for (unsigned i = 0; i < 15; i++)
        CHECK_MSG(lim(&r, i, 0) == i + 1 && lim(&r, i, 1) == i + 1, "SM %u: %u", i, lim(&r, i, 0));
    /* M = 3 sampling periods; SM 5 (limit 5) commits the most in total though not in each */
    sample_period(&r, "k1", 4);
    sample_period(&r, "k1", 9);
    CHECK_EQ_U64(lim(&r, 9, 1), 10);
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_limit"), 0);
    sample_period(&r, "k1", 4);
    CHECK(all_at(&r, 5));
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_limit"), 5);
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_decided_cycle"), 100000);
    /* fixed until the kernel ends, whatever the MPKI */
    even(&r, "k1", 0);
    even(&r, "k1", 100);
    CHECK(all_at(&r, 5) && settled(&r));
    r.ctl.policy->ctl_kernel_end(r.ctl.state);

    /* another kernel samples afresh; a tie goes to the smaller limit */
    rig_kernel(&r, "k2");
    CHECK(all_at(&r, 24));
    for (int i = 0; i < 3; i++) even(&r, "k2", 50);
    CHECK_EQ_U64(lim(&r, 6, 0), 7);
    for (int i = 0; i < 3; i++) even(&r, "k2", 50);
    CHECK(all_at(&r, 1));
    r.ctl.policy->ctl_kernel_end(r.ctl.state);

    /* k1 again: the MPKI test still runs (low: unthrottled) ... */
    rig_kernel(&r, "k1");
    for (int i = 0; i < 4; i++) even(&r, "k1", 2);
    CHECK(all_at(&r, 24));
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_limit"), 0);
    /* ... and on thrashing the stored limit applies without sampling */
    rig_kernel(&r, "k1");
    even(&r, "k1", 40);
    even(&r, "k1", 40);
    CHECK(all_at(&r, 24) && !settled(&r));
    even(&r, "k1", 40);
    CHECK(all_at(&r, 5) && settled(&r));
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_decided_cycle"), 30000);
    rig_free(&r);
}

TEST(throttle_dwtcs_second_round_when_the_last_sm_wins) {
    rig r;
    if (!rig_init(&r, "dwtcs:n=2:m=2:mpki=5:period=1000", 15, 2, 24)) return;
    CHECK_EQ_U64(r.ctl.policy->ctl_period(r.ctl.state), 1000);
    rig_kernel(&r, "k");
    even(&r, "k", 6);
    even(&r, "k", 6);
    CHECK_EQ_U64(lim(&r, 14, 0), 15);
    sample_period(&r, "k", 14);
    sample_period(&r, "k", 14);
    /* SMs 1..9 take 16..24, SMs 10..15 keep 15 */
    for (unsigned i = 0; i < 15; i++)
        CHECK_MSG(lim(&r, i, 1) == (i < 9 ? 16 + i : 15), "SM %u: %u", i, lim(&r, i, 1));
    CHECK(!settled(&r));
    sample_period(&r, "k", 2);
    sample_period(&r, "k", 2);
    CHECK(all_at(&r, 18));
    CHECK(settled(&r));
    r.ctl.policy->ctl_kernel_end(r.ctl.state);
    /* in the second round the SMs that kept 15 compete with their mean */
    rig_kernel(&r, "k3");
    even(&r, "k3", 6);
    even(&r, "k3", 6);
    sample_period(&r, "k3", 14);
    sample_period(&r, "k3", 14);
    uint64_t v[15];
    for (unsigned i = 0; i < 15; i++) v[i] = i < 9 ? 60000 : 70000;
    rig_period(&r, "k3", v, 15, 30);
    rig_period(&r, "k3", v, 15, 30);
    CHECK(all_at(&r, 15));
    rig_free(&r);
    /* with fewer SMs than slots the second round is as large as it can be: 4 SMs test
       limits 1..4, then SMs 1..3 take 5..7 and SM 4 keeps 4 */
    if (!rig_init(&r, "dwtcs:n=1:m=1", 4, 2, 24)) return;
    rig_kernel(&r, "k");
    even(&r, "k", 20);
    sample_period(&r, "k", 3);
    CHECK(lim(&r, 0, 0) == 5 && lim(&r, 2, 0) == 7 && lim(&r, 3, 0) == 4);
    rig_free(&r);
}

TEST(throttle_dwtcs_kernel_end_during_sampling) {
    rig r;
    if (!rig_init(&r, "dwtcs", 15, 2, 24)) return;
    /* two of three sampling periods finished: their winner is stored */
    rig_kernel(&r, "short");
    for (int i = 0; i < 3; i++) even(&r, "short", 30);
    sample_period(&r, "short", 6);
    sample_period(&r, "short", 6);
    r.ctl.policy->ctl_kernel_end(r.ctl.state);
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_limit"), 7);
    /* none finished: nothing stored, the next launch samples */
    rig_kernel(&r, "shorter");
    for (int i = 0; i < 3; i++) even(&r, "shorter", 30);
    r.ctl.policy->ctl_kernel_end(r.ctl.state);
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_limit"), 0);
    rig_kernel(&r, "short");
    for (int i = 0; i < 3; i++) even(&r, "short", 30);
    CHECK(all_at(&r, 7));
    rig_kernel(&r, "shorter"); /* (the previous kernel's end not reported: harmless) */
    for (int i = 0; i < 3; i++) even(&r, "shorter", 30);
    CHECK_EQ_U64(lim(&r, 1, 0), 2);
    rig_free(&r);
}

TEST(throttle_dwtpric_checks_only_the_first_n_periods) {
    rig r, s;
    if (!rig_init(&r, "dwtpric", 15, 2, 24) || !rig_init(&s, "dwtcs", 15, 2, 24)) return;
    rig_kernel(&r, "k");
    rig_kernel(&s, "k");
    /* low, high, high, high: standalone DWT-CS detects at period 4, DWT-PRIC never */
    double mpki[] = {1, 30, 30, 30, 30, 30};
    for (int i = 0; i < 6; i++) {
        even(&r, "k", mpki[i]);
        even(&s, "k", mpki[i]);
        CHECK_MSG(settled(&r) == (i >= 2), "period %d", i + 1);
        CHECK(settled(&s) == (i >= 2)); /* stays settled once the window passed */
    }
    CHECK(all_at(&r, 24));
    CHECK_EQ_U64(lim(&s, 3, 0), 4);
    /* high from the start: sampling, and settled only when decided */
    rig_kernel(&r, "k2");
    for (int i = 0; i < 3; i++) even(&r, "k2", 30);
    CHECK(!settled(&r) && lim(&r, 3, 0) == 4);
    for (int i = 0; i < 3; i++) sample_period(&r, "k2", 11);
    CHECK(settled(&r) && all_at(&r, 12));
    rig_free(&r);
    rig_free(&s);
    /* bad arguments */
    ws_throttle_ctl c;
    char err[256];
    CHECK(ws_throttle_ctl_create(&c, "dwtpric:n=0", 15, 2, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "dwtpric");
    CHECK(ws_throttle_ctl_create(&c, "dwtcs:q=1", 15, 2, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "bad argument 'q'");
    CHECK(ws_throttle_ctl_create(&c, "awl:cp=0", 15, 2, err, sizeof err) == -1);
    CHECK(ws_throttle_ctl_create(&c, "iacm:ew", 15, 2, err, sizeof err) == -1);
    /* no controller for static policies */
    CHECK(ws_throttle_ctl_create(&c, "swl:3", 15, 2, err, sizeof err) == 0 && !c.policy);
}

/* A synthetic IPC(NC) curve with its peak at `peak`: thread insts over a period. */
static uint64_t curve(unsigned nc, unsigned peak, double top, uint64_t cycles) {
    double d = (double)nc - (double)peak;
    return (uint64_t)((top - d * d) * (double)cycles / 1000.0);
}

/* Periods of one SM (one scheduler, so its limit is NC) on the curve. */
static void awl_run(rig *r, int periods, unsigned peak, double top) {
    uint64_t p = r->ctl.policy->ctl_period(r->ctl.state);
    for (int i = 0; i < periods; i++) {
        uint64_t n = curve(lim(r, 0, 0), peak, top, p);
        rig_period(r, "k", &n, 1, 0);
    }
}

TEST(throttle_awl_searches_to_the_peak_then_idles) {
    rig r;
    if (!rig_init(&r, "awl", 1, 1, 48)) return;
    CHECK_EQ_U64(r.ctl.policy->ctl_period(r.ctl.state), 6250);
    rig_kernel(&r, "k");
    r.sm[0].warps = 48;
    CHECK_EQ_U64(lim(&r, 0, 0), 48);
    /* binary: 48 -> 24 -> 12 -> 6 (worse) -> back to 12, linear down to 10, 9 worse: 10 */
    unsigned expect[] = {24, 12, 6, 12, 11, 10, 9, 10};
    for (unsigned i = 0; i < 8; i++) {
        awl_run(&r, 1, 10, 2000);
        CHECK_MSG(lim(&r, 0, 0) == expect[i], "step %u: NC %u, expected %u", i, lim(&r, 0, 0),
                  expect[i]);
    }
    /* 10 is far from NP = 48: search again from 10: the first halving (5) is worse, so
       upwards (20, worse), then linear down from 20 ... */
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_searches"), 1);
    unsigned expect2[] = {5, 10, 20, 20, 19, 18};
    for (unsigned i = 0; i < 6; i++) {
        awl_run(&r, 1, 10, 2000);
        CHECK_MSG(lim(&r, 0, 0) == expect2[i], "step %u: NC %u, expected %u", i, lim(&r, 0, 0),
                  expect2[i]);
    }
    /* ... to 10, within 25% of NP: idle */
    awl_run(&r, 24, 10, 2000);
    CHECK_EQ_U64(lim(&r, 0, 0), 10);
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_searches"), 2);
    awl_run(&r, 10, 10, 2010); /* small changes: still idle */
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_searches"), 2);
    CHECK(stat(&r, "warpsim_throttle_limit") == 10.0);
    /* an IPC jump (the program's phase changed: the peak is now at 30) re-searches */
    awl_run(&r, 2, 30, 4000);
    CHECK_EQ_U64(lim(&r, 0, 0), 5);
    awl_run(&r, 80, 30, 4000);
    CHECK_EQ_U64(lim(&r, 0, 0), 30);
    unsigned n = (unsigned)stat(&r, "warpsim_throttle_searches");
    awl_run(&r, 5, 30, 4000);
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_searches"), n);
    /* two schedulers: each takes ceil(NC / 2) */
    rig_free(&r);
    if (!rig_init(&r, "awl", 1, 2, 24)) return;
    rig_kernel(&r, "k");
    r.sm[0].warps = 40; /* occupancy: NT = 40 */
    const uint64_t x = 1000;
    rig_period(&r, "k", &x, 1, 0);
    CHECK(lim(&r, 0, 0) == 10 && lim(&r, 0, 1) == 10); /* NC 20 */
    rig_free(&r);
}

/* A plateau, then a cliff: IPC slips by 0.1% per warp from 48 down to 7 and jumps at 6 and
   below (peak at 6): the shape of kmeans' and atax's curves (docs/policies.md). */
static uint64_t plateau(unsigned nc) {
    return nc > 6 ? 1000 - (48 - nc) : 3000 - 200 * (6 - nc);
}

static void plateau_run(rig *r, int periods) {
    for (int i = 0; i < periods; i++) {
        uint64_t n = plateau(lim(r, 0, 0)) * 6250 / 1000;
        rig_period(r, "k", &n, 1, 0);
    }
}

TEST(throttle_awl_tie_walks_across_a_plateau) {
    rig r;
    /* strict comparison (the spec's): the first halving looks worse, so NC stays at NT */
    if (!rig_init(&r, "awl", 1, 1, 48)) return;
    rig_kernel(&r, "k");
    r.sm[0].warps = 48;
    plateau_run(&r, 40);
    CHECK_EQ_U64(lim(&r, 0, 0), 48);
    rig_free(&r);
    /* tie=0.05: 48 -> 24 -> 12 -> 6 (the cliff) -> 3 worse -> linear from 6 ... settles at 6 */
    if (!rig_init(&r, "awl:tie=0.05", 1, 1, 48)) return;
    rig_kernel(&r, "k");
    r.sm[0].warps = 48;
    unsigned expect[] = {24, 12, 6, 3, 6};
    for (unsigned i = 0; i < 5; i++) {
        plateau_run(&r, 1);
        CHECK_MSG(lim(&r, 0, 0) == expect[i], "step %u: NC %u, expected %u", i, lim(&r, 0, 0),
                  expect[i]);
    }
    plateau_run(&r, 40);
    CHECK_EQ_U64(lim(&r, 0, 0), 6);
    rig_free(&r);
    /* the tolerance is against the path's best, not the last sample: on a slow slope
       (1000, 970, 955, 947.5 at 48, 24, 12, 6) the search stops at 6, 5.25% below the
       best, and goes back to 12; against the last sample it would have gone on to 3 */
    if (!rig_init(&r, "awl:tie=0.05", 1, 1, 48)) return;
    rig_kernel(&r, "k");
    r.sm[0].warps = 48;
    unsigned slope[] = {24, 12, 6, 12};
    for (unsigned i = 0; i < 4; i++) {
        uint64_t n = (uint64_t)((1000 - (48 - lim(&r, 0, 0)) * 1.25) * 6.25);
        rig_period(&r, "k", &n, 1, 0);
        CHECK_MSG(lim(&r, 0, 0) == slope[i], "step %u: NC %u, expected %u", i, lim(&r, 0, 0),
                  slope[i]);
    }
    rig_free(&r);
    ws_throttle_ctl c;
    char err[256];
    CHECK(ws_throttle_ctl_create(&c, "awl:tie=1", 1, 1, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "tie: a number in [0, 1)");
    CHECK(ws_throttle_ctl_create(&c, "iacm:gpu=2", 1, 1, err, sizeof err) == -1);
}

TEST(throttle_awl_gpu_scope_one_search_on_the_mean) {
    /* four SMs whose own samples are 30% off in alternating directions: the mean follows the
       curve, so the one GPU-wide search takes the single-SM path and every SM follows it */
    rig r;
    if (!rig_init(&r, "awl:gpu=1", 4, 1, 48)) return;
    rig_kernel(&r, "k");
    for (unsigned i = 0; i < 4; i++) r.sm[i].warps = 48;
    uint64_t p = r.ctl.policy->ctl_period(r.ctl.state);
    unsigned expect[] = {24, 12, 6, 12, 11, 10, 9, 10};
    for (unsigned k = 0; k < 8; k++) {
        uint64_t base = curve(lim(&r, 0, 0), 10, 2000, p), d = base * 3 / 10, v[4];
        for (unsigned i = 0; i < 4; i++) v[i] = i % 2 ? base + d : base - d;
        rig_period(&r, "k", v, 4, 0);
        CHECK_MSG(all_at(&r, expect[k]), "step %u: SM0 NC %u, expected %u", k, lim(&r, 0, 0),
                  expect[k]);
    }
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_searches"), 1);
    rig_free(&r);
}

/* Reads of distinct blocks (each filled at once): enough for a selection of
   an adi function with nv=2:ns=2 when it is not paused. */
static void touch(ws_cache *c) {
    static uint64_t k;
    for (int i = 0; i < 8; i++, k++) {
        uint64_t a = 0x10000000ull + k * 0x1180;
        ws_fail_kind f;
        int req;
        ws_cache_status st = ws_cache_access(c, a, WS_ACC_READ, false, &req, k, &f);
        while (ws_cache_has_miss(c)) ws_cache_pop_miss(c);
        if (st == WS_CACHE_MISS || st == WS_CACHE_SECTOR_MISS) ws_cache_fill(c, a & ~127ull, k);
        while (ws_cache_pop_ready(c)) {}
    }
}

static uint64_t selections(const rig *r) {
    uint64_t n = 0;
    CHECK(ws_cache_index_selections(r->l1d[0], &n));
    return n;
}

/* One iacm period (with L1D accesses during it when `acc`); returns the phase the SM was in
   during it (0 ADI, 1 AWL, 2 idle). */
static int iacm_period(rig *r, unsigned peak, double top, bool acc) {
    double a0 = stat(r, "warpsim_iacm_adi_cycles"), w0 = stat(r, "warpsim_iacm_awl_cycles");
    if (acc) touch(r->l1d[0]);
    awl_run(r, 1, peak, top);
    return stat(r, "warpsim_iacm_adi_cycles") > a0 ? 0
           : stat(r, "warpsim_iacm_awl_cycles") > w0 ? 1
                                                        : 2;
}

TEST(throttle_iacm_phase_order_and_the_index_pause) {
    rig r;
    if (!rig_init(&r, "iacm", 1, 1, 48)) return;
    char err[256];
    ws_cache_cfg cfg;
    CHECK(ws_cache_cfg_parse("32:128:4,L:L:m:N,A:32:8,8", &cfg, err, sizeof err) == 0);
    r.l1d[0] = ws_cache_create("L1D", &cfg, "adi:nv=2:ns=2:ni=1", err, sizeof err);
    CHECK_MSG(r.l1d[0], "%s", err);
    if (!r.l1d[0]) return;
    ws_cache_index_pause(r.l1d[0], true);
    rig_kernel(&r, "k");
    r.sm[0].warps = 48;
    CHECK(!ws_cache_index_paused(r.l1d[0])); /* a kernel starts in the ADI phase */
    /* ADI samples IPC in the period after a selection: none without accesses */
    CHECK_EQ_I64(iacm_period(&r, 10, 2000, false), 0);
    CHECK_EQ_I64(iacm_period(&r, 10, 2000, false), 0);
    CHECK_EQ_U64(selections(&r), 0);
    /* selections: the next period compares with 0, the one after is within 25%: AWL, index
       paused */
    CHECK_EQ_I64(iacm_period(&r, 10, 2000, true), 0);
    CHECK(selections(&r) > 0);
    CHECK_EQ_I64(iacm_period(&r, 10, 2000, true), 0);
    CHECK(!ws_cache_index_paused(r.l1d[0]));
    CHECK_EQ_I64(iacm_period(&r, 10, 2000, true), 0);
    CHECK(ws_cache_index_paused(r.l1d[0]));
    CHECK_EQ_U64(lim(&r, 0, 0), 48);
    /* paused: accesses no longer reach the index function */
    uint64_t s0 = selections(&r);
    touch(r.l1d[0]);
    CHECK_EQ_U64(selections(&r), s0);
    /* AWL finds 10, far from NP = 48: back to ADI */
    int ph[64], n = 0;
    for (int i = 0; i < 64; i++) ph[i] = -1;
    while (n < 12 && (ph[n] = iacm_period(&r, 10, 2000, true)) == 1) n++;
    CHECK_EQ_I64(n, 8);
    CHECK_EQ_U64(lim(&r, 0, 0), 10);
    CHECK(!ws_cache_index_paused(r.l1d[0]));
    /* ADI for three periods, then AWL from 10 settles near NP: idle (paused) */
    CHECK_EQ_I64(ph[n], 0);
    CHECK_EQ_I64(iacm_period(&r, 10, 2000, true), 0);
    CHECK_EQ_I64(iacm_period(&r, 10, 2000, true), 0);
    CHECK(ws_cache_index_paused(r.l1d[0]));
    int awl = 0;
    while (awl < 40 && iacm_period(&r, 10, 2000, true) == 1) awl++;
    CHECK(awl > 2 && awl < 40);
    CHECK(ws_cache_index_paused(r.l1d[0]));
    CHECK_EQ_U64(lim(&r, 0, 0), 10);
    CHECK_EQ_I64(iacm_period(&r, 10, 2000, true), 2);
    CHECK_EQ_I64(iacm_period(&r, 10, 2000, true), 2);
    /* an IPC jump in the idle phase: ADI again */
    CHECK_EQ_I64(iacm_period(&r, 10, 3000, true), 2);
    CHECK(!ws_cache_index_paused(r.l1d[0]));
    CHECK_EQ_I64(iacm_period(&r, 10, 3000, true), 0);
    rig_free(&r);
    ws_cache_destroy(r.l1d[0]);
    /* ni=0: after a selection the function idles until restarted (IACM times the idle
       sub-phase in cycles); a restart of a function that is not idle changes nothing */
    ws_cache *w = ws_cache_create("L1D", &cfg, "adi:nv=2:ns=2:ni=0", err, sizeof err);
    CHECK_MSG(w, "%s", err);
    if (!w) return;
    uint64_t k0 = 0, k1 = 0, k2 = 0;
    touch(w);
    CHECK(ws_cache_index_selections(w, &k0) && k0 == 1);
    touch(w);
    touch(w);
    CHECK(ws_cache_index_selections(w, &k1) && k1 == 1);
    ws_cache_index_restart(w);
    touch(w);
    CHECK(ws_cache_index_selections(w, &k2) && k2 == 2);
    ws_cache_destroy(w);
    /* a static index function has no selections: every ADI-phase period is a sample */
    ws_cache *lin = ws_cache_create("L1D", &cfg, "linear", err, sizeof err);
    uint64_t nsel = 0;
    CHECK(lin && !ws_cache_index_selections(lin, &nsel));
    ws_cache_destroy(lin);
}

TEST(throttle_iacm_gpu_scope_moves_every_sm_together) {
    /* gpu=1: one machine; the selections of any L1D arm its ADI sample, and every SM's index
       pauses and limit follow it */
    rig r;
    if (!rig_init(&r, "iacm:gpu=1", 2, 1, 48)) return;
    char err[256];
    ws_cache_cfg cfg;
    CHECK(ws_cache_cfg_parse("32:128:4,L:L:m:N,A:32:8,8", &cfg, err, sizeof err) == 0);
    for (int i = 0; i < 2; i++) {
        r.l1d[i] = ws_cache_create("L1D", &cfg, "adi:nv=2:ns=2:ni=1", err, sizeof err);
        CHECK_MSG(r.l1d[i], "%s", err);
        if (!r.l1d[i]) return;
    }
    rig_kernel(&r, "k");
    r.sm[0].warps = r.sm[1].warps = 48;
    for (int k = 0; k < 3; k++) {
        CHECK(!ws_cache_index_paused(r.l1d[0]) && !ws_cache_index_paused(r.l1d[1]));
        touch(r.l1d[1]); /* only SM 1's L1D selects */
        awl_run(&r, 1, 10, 2000);
    }
    CHECK(ws_cache_index_paused(r.l1d[0]) && ws_cache_index_paused(r.l1d[1])); /* AWL */
    CHECK(stat(&r, "warpsim_iacm_adi_cycles") == 3 * 6250.0);
    awl_run(&r, 8, 10, 2000); /* the search of the single-SM test: 10, far from NP: ADI */
    CHECK(all_at(&r, 10));
    CHECK(!ws_cache_index_paused(r.l1d[0]) && !ws_cache_index_paused(r.l1d[1]));
    CHECK_EQ_U64(stat(&r, "warpsim_throttle_searches"), 1);
    rig_free(&r);
    ws_cache_destroy(r.l1d[0]);
    ws_cache_destroy(r.l1d[1]);
}

/* Run a workload in timing mode; PASS, cycles and the named stat (the largest over its
   kernels; -1 if absent). */
static bool run_wl(const char *wl, const char *const *over, uint64_t *cycles, const char *name,
                   double *val) {
    char *rep = NULL;
    size_t rlen = 0;
    FILE *rf = open_memstream(&rep, &rlen), *lf = fopen("/dev/null", "w");
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.report = rf;
    o.config_overrides = (const char **)over;
    ws_device *d = NULL;
    bool ok = false;
    if (ws_device_create(&o, &d) == WS_OK) {
        ok = ws_workload_run(ws_workload_find(wl), d, WS_INPUT_SMALL, lf) == WS_WL_PASS;
        *cycles = ws_device_cycles(d);
        ws_device_destroy(d);
    }
    fclose(rf);
    fclose(lf);
    *val = -1;
    size_t n = name ? strlen(name) : 0;
    for (const char *p = rep; name && p && (p = strstr(p, name)); p += n)
        if ((p == rep || p[-1] == '\n') && !strncmp(p + n, " = ", 3)) {
            double x = strtod(p + n + 3, NULL);
            if (x > *val) *val = x;
        }
    free(rep);
    return ok;
}

TEST(throttle_dynamic_end_to_end) {
    uint64_t c;
    double v;
    /* k-means thrashes the L1D: DWT-CS (short periods for this small input) picks a limit */
    const char *const dwtcs[] = {"-warpsim_throttle dwtcs:period=2000", NULL};
    CHECK(run_wl("rodinia/kmeans", dwtcs, &c, "warpsim_throttle_limit", &v));
    CHECK_MSG(v >= 1 && v <= 24, "dwtcs limit %g", v);
    const char *const dwtpric[] = {"-l1d_index pric", "-warpsim_throttle dwtpric:period=2000",
                                   "-l1d_bypass dbsa:wait=1:period=2000", NULL};
    CHECK(run_wl("rodinia/kmeans", dwtpric, &c, "warpsim_throttle_limit", &v));
    CHECK_MSG(v >= 1 && v <= 24, "dwtpric limit %g", v);
    const char *const awl[] = {"-warpsim_throttle awl:cp=1000", NULL};
    CHECK(run_wl("micro/matmul", awl, &c, "warpsim_throttle_searches", &v));
    CHECK_MSG(v >= 1, "awl searches %g", v);
    const char *const iacm[] = {"-l1d_index adi:nv=250:ns=250:ni=0", "-l1d_bypass pd",
                                "-warpsim_throttle iacm:cp=1000", NULL};
    CHECK(run_wl("micro/matmul", iacm, &c, "warpsim_iacm_adi_cycles", &v));
    CHECK_MSG(v >= 2000, "iacm ADI cycles %g", v);
}
