/* CIAO: the interference detector's rules (VTA insert and hit, interference
 * list, IRS, the epochs' actions per scheme), the throttle policies'
 * filter and deadlock guard, the shared-memory cache's capacity and
 * mapping, statPCAL's tokens, parameter checking; and real runs. */
#include <stdlib.h>

#include "policy/throttle/ciao.h"
#include "test.h"
#include "timing/sm/sm_internal.h"
#include "warpsim/warpsim.h"
#include "workload.h"

static ws_ciao_cfg cfg(unsigned mode) {
    return (ws_ciao_cfg){.mode = mode, .vta_ways = 4, .low_epoch = 100, .high_epoch = 1000,
                         .high_cut = 0.01, .low_cut = 0.005};
}

static ws_ciao_det *det_open(unsigned mode, unsigned n) {
    ws_ciao_cfg c = cfg(mode);
    ws_ciao_det *d = ws_ciao_det_create(&c, n);
    for (unsigned w = 0; d && w < n; w++) ws_ciao_det_warp_start(d, w, 10 + w);
    return d;
}

static uint64_t blk(unsigned k) { return 0x20000000ull + 128ull * k; }

/* Warp `victim` loses `n` lines to `evictor` and misses on them again. */
static void interfere(ws_ciao_det *d, unsigned evictor, unsigned victim, unsigned n) {
    for (unsigned k = 0; k < n; k++) {
        ws_ciao_det_evict(d, blk(k), victim, evictor);
        CHECK(ws_ciao_det_miss(d, victim, blk(k)));
    }
}

TEST(ciao_vta_insert_fifo_and_hit) {
    ws_ciao_det *d = det_open(WS_CIAO_ISOLATE | WS_CIAO_STALL, 4);
    CHECK(d != NULL);
    /* warp 2 evicts five lines of warp 1: its 4-entry set keeps the last four (FIFO) */
    for (unsigned k = 0; k < 5; k++) ws_ciao_det_evict(d, blk(k), 1, 2);
    CHECK(!ws_ciao_det_vta_has(d, 1, blk(0)));
    for (unsigned k = 1; k < 5; k++) CHECK_MSG(ws_ciao_det_vta_has(d, 1, blk(k)), "line %u", k);
    CHECK(!ws_ciao_det_vta_has(d, 2, blk(1))); /* the evictor's own set is untouched */
    /* a miss of another warp does not probe warp 1's set */
    CHECK(!ws_ciao_det_miss(d, 3, blk(1)));
    /* warp 1's own miss hits once; the entry leaves; the evictor is its interferer */
    CHECK(ws_ciao_det_miss(d, 1, blk(1)));
    CHECK(!ws_ciao_det_miss(d, 1, blk(1)));
    CHECK_EQ_U64(ws_ciao_det_vta_hits(d, 1), 1);
    CHECK_EQ_U64(ws_ciao_det_pair_events(d, 2, 1), 1);
    CHECK_EQ_U64(ws_ciao_det_counts(d)->vta_hits, 1);
    unsigned c = 9;
    CHECK(ws_ciao_det_interferer(d, 1, &c) == 2 && c == 0);
    /* lines of no warp, or evicted by none, are ignored */
    ws_ciao_det_evict(d, blk(9), 99, 1);
    ws_ciao_det_evict(d, blk(9), 1, 99);
    CHECK(!ws_ciao_det_vta_has(d, 1, blk(9)));
    /* a new warp in the slot starts with an empty set and no counts */
    ws_ciao_det_warp_start(d, 1, 50);
    CHECK(!ws_ciao_det_vta_has(d, 1, blk(2)) && ws_ciao_det_vta_hits(d, 1) == 0);
    CHECK(ws_ciao_det_interferer(d, 1, NULL) == -1);
    ws_ciao_det_destroy(d);
}

TEST(ciao_interference_list_counter) {
    ws_ciao_det *d = det_open(WS_CIAO_ISOLATE, 4);
    unsigned c;
    interfere(d, 2, 0, 1); /* first interferer: counter 00 */
    CHECK(ws_ciao_det_interferer(d, 0, &c) == 2 && c == 0);
    interfere(d, 2, 0, 5); /* same one: up to 11 and no further */
    CHECK(ws_ciao_det_interferer(d, 0, &c) == 2 && c == 3);
    interfere(d, 3, 0, 2); /* another one: down, kept while the counter is not 00 */
    CHECK(ws_ciao_det_interferer(d, 0, &c) == 2 && c == 1);
    interfere(d, 3, 0, 1);
    CHECK(ws_ciao_det_interferer(d, 0, &c) == 2 && c == 0);
    interfere(d, 3, 0, 1); /* replaced only once the counter is 00 */
    CHECK(ws_ciao_det_interferer(d, 0, &c) == 3 && c == 0);
    CHECK_EQ_U64(ws_ciao_det_pair_events(d, 2, 0), 6);
    CHECK_EQ_U64(ws_ciao_det_pair_events(d, 3, 0), 4);
    ws_ciao_det_destroy(d);
}

TEST(ciao_irs_is_eq1) {
    ws_ciao_det *d = det_open(WS_CIAO_STALL, 4);
    CHECK(ws_ciao_det_irs(d, 0) == 0); /* no instructions yet */
    interfere(d, 1, 0, 3);
    ws_ciao_det_issued(d, 50);
    /* VTAHit / (InstTotal / N_active) = 3 / (50 / 4) */
    CHECK(fabs(ws_ciao_det_irs(d, 0) - 0.24) < 1e-12);
    CHECK_EQ_U64(ws_ciao_det_n_active(d), 4);
    ws_ciao_det_warp_end(d, 3);
    CHECK(fabs(ws_ciao_det_irs(d, 0) - 0.18) < 1e-12);
    ws_ciao_det_destroy(d);
}

/* Warp 0 suffers 20 hits from warp 2: IRS = 20 * 4 / insts. */
TEST(ciao_high_epoch_actions_per_scheme) {
    /* CIAO-P isolates the interferer and never stalls */
    ws_ciao_det *p = det_open(WS_CIAO_ISOLATE, 4);
    interfere(p, 2, 0, 20);
    ws_ciao_det_issued(p, 999);
    CHECK(!ws_ciao_det_isolated(p, 2)); /* not before the high epoch ends */
    ws_ciao_det_issued(p, 1);
    CHECK(ws_ciao_det_isolated(p, 2) && !ws_ciao_det_stalled(p, 2));
    CHECK(ws_ciao_det_pair(p, 2, 0) == 0 && ws_ciao_det_pair(p, 2, 1) == -1);
    interfere(p, 2, 0, 20);
    ws_ciao_det_issued(p, 1000);
    CHECK(ws_ciao_det_isolated(p, 2) && !ws_ciao_det_stalled(p, 2));
    CHECK_EQ_U64(ws_ciao_det_counts(p)->isolations, 1);
    ws_ciao_det_destroy(p);
    /* CIAO-T stalls it directly */
    ws_ciao_det *t = det_open(WS_CIAO_STALL, 4);
    interfere(t, 2, 0, 20);
    ws_ciao_det_issued(t, 1000);
    CHECK(ws_ciao_det_stalled(t, 2) && !ws_ciao_det_isolated(t, 2));
    CHECK(ws_ciao_det_pair(t, 2, 1) == 0);
    CHECK_EQ_U64(ws_ciao_det_n_active(t), 3);
    ws_ciao_det_destroy(t);
    /* CIAO-C isolates first and stalls at the next epoch if it still interferes */
    ws_ciao_det *c = det_open(WS_CIAO_ISOLATE | WS_CIAO_STALL, 4);
    interfere(c, 2, 0, 20);
    ws_ciao_det_issued(c, 1000);
    CHECK(ws_ciao_det_isolated(c, 2) && !ws_ciao_det_stalled(c, 2)); /* one step per epoch */
    interfere(c, 2, 0, 20);
    ws_ciao_det_issued(c, 1000);
    CHECK(ws_ciao_det_isolated(c, 2) && ws_ciao_det_stalled(c, 2));
    CHECK(ws_ciao_det_pair(c, 2, 0) == 0 && ws_ciao_det_pair(c, 2, 1) == 0);
    ws_ciao_det_destroy(c);
    /* under the high cut-off (1 hit: IRS 4 / 1000 = 0.4 %) nothing happens */
    ws_ciao_det *q = det_open(WS_CIAO_STALL, 4);
    interfere(q, 2, 0, 1);
    ws_ciao_det_issued(q, 1000);
    CHECK(!ws_ciao_det_stalled(q, 2));
    ws_ciao_det_destroy(q);
}

TEST(ciao_high_epoch_one_action_per_target_and_never_the_last) {
    /* warps 0 and 1 both suffer from warp 3: it is stalled once (CIAO-C would
       isolate and stall in one epoch otherwise) */
    ws_ciao_det *c = det_open(WS_CIAO_ISOLATE | WS_CIAO_STALL, 4);
    interfere(c, 3, 0, 20);
    interfere(c, 3, 1, 20);
    ws_ciao_det_issued(c, 1000);
    CHECK(ws_ciao_det_isolated(c, 3) && !ws_ciao_det_stalled(c, 3));
    ws_ciao_det_destroy(c);
    /* two warps that stall each other: the second stall would leave none */
    ws_ciao_det *t = det_open(WS_CIAO_STALL, 2);
    interfere(t, 1, 0, 20);
    interfere(t, 0, 1, 20);
    ws_ciao_det_issued(t, 1000);
    CHECK_EQ_U64(ws_ciao_det_n_stalled(t), 1);
    CHECK_EQ_U64(ws_ciao_det_n_active(t), 1);
    ws_ciao_det_destroy(t);
}

TEST(ciao_low_epoch_undoes) {
    /* the trigger's IRS falls under the low cut-off: the stall is undone */
    ws_ciao_det *t = det_open(WS_CIAO_STALL, 4);
    interfere(t, 2, 0, 20); /* IRS(0) = 20 * 4 / 1000 = 8 % */
    ws_ciao_det_issued(t, 1000);
    CHECK(ws_ciao_det_stalled(t, 2));
    /* with 3 active warps IRS(0) = 60 / insts: above 0.5 % until 12000 */
    ws_ciao_det_issued(t, 10900);
    CHECK(ws_ciao_det_stalled(t, 2));
    ws_ciao_det_issued(t, 200); /* 12100: 0.496 % */
    CHECK(!ws_ciao_det_stalled(t, 2) && ws_ciao_det_pair(t, 2, 1) == -1);
    CHECK_EQ_U64(ws_ciao_det_counts(t)->reactivations, 1);
    ws_ciao_det_destroy(t);
    /* the trigger finished: the isolation is undone at the next low epoch */
    ws_ciao_det *p = det_open(WS_CIAO_ISOLATE, 4);
    interfere(p, 2, 0, 20);
    ws_ciao_det_issued(p, 1000);
    CHECK(ws_ciao_det_isolated(p, 2));
    ws_ciao_det_warp_end(p, 0);
    ws_ciao_det_issued(p, 100);
    CHECK(!ws_ciao_det_isolated(p, 2) && ws_ciao_det_pair(p, 2, 0) == -1);
    CHECK_EQ_U64(ws_ciao_det_counts(p)->deisolations, 1);
    ws_ciao_det_destroy(p);
    /* a new warp in the trigger's slot is not the trigger */
    ws_ciao_det *q = det_open(WS_CIAO_STALL, 4);
    interfere(q, 2, 0, 20);
    ws_ciao_det_issued(q, 1000);
    ws_ciao_det_warp_end(q, 0);
    ws_ciao_det_warp_start(q, 0, 77);
    interfere(q, 1, 0, 30); /* the new warp's IRS is high, but it triggered nothing */
    ws_ciao_det_issued(q, 100);
    CHECK(!ws_ciao_det_stalled(q, 2));
    ws_ciao_det_destroy(q);
}

TEST(ciao_kernel_start_clears) {
    ws_ciao_det *t = det_open(WS_CIAO_STALL, 4);
    interfere(t, 2, 0, 20);
    ws_ciao_det_evict(t, blk(40), 1, 3);
    ws_ciao_det_issued(t, 1000);
    CHECK(ws_ciao_det_stalled(t, 2));
    ws_ciao_det_kernel_start(t);
    CHECK(!ws_ciao_det_stalled(t, 2) && !ws_ciao_det_vta_has(t, 1, blk(40)));
    CHECK_EQ_U64(ws_ciao_det_counts(t)->vta_hits, 0);
    CHECK_EQ_U64(ws_ciao_det_pair_events(t, 2, 0), 0);
    ws_ciao_det_destroy(t);
}

/* ---- the throttle policies --------------------------------------------------------- */
typedef struct rig {
    ws_throttle sched;
    ws_throttle_sm sm;
    const ws_throttle_policy *p;
    ws_sched_warp w[4];
} rig;

static int rig_open(rig *r, const char *spec) {
    char err[256];
    if (ws_throttle_create(&r->sched, spec, 4, err, sizeof err)) return -1;
    if (ws_throttle_sm_create(&r->sm, spec, 4, 128, &r->sched, 1, err, sizeof err)) return -1;
    r->p = r->sm.policy;
    r->p->kernel_start(r->sched.state);
    for (int i = 0; i < 4; i++)
        r->w[i] = (ws_sched_warp){.slot = (uint16_t)i, .valid = 1, .age = (uint64_t)10 + i,
                                  .cta = (uint8_t)(i / 2)};
    return r->p ? 0 : -1;
}

static void rig_close(rig *r) {
    ws_throttle_sm_destroy(&r->sm);
    ws_throttle_destroy(&r->sched);
}

TEST(ciao_filter_stalls_and_barrier_guard) {
    rig r;
    CHECK(rig_open(&r, "ciao_t:high_epoch=1000") == 0);
    void *m = r.sm.state;
    r.p->filter(r.sched.state, r.w, 4);
    for (unsigned k = 0; k < 20; k++) { /* warp 3 (CTA 1) keeps evicting warp 0's lines */
        r.p->l1d_evict(m, blk(k), 0, 3);
        r.p->l1d_read_miss(m, 0, blk(k));
    }
    r.p->sm_cycle(m, 1, 1000);
    r.p->filter(r.sched.state, r.w, 4);
    CHECK(r.w[3].throttled && !r.w[0].throttled && !r.w[1].throttled && !r.w[2].throttled);
    CHECK(ws_ciao_det_stalled(ws_ciao_detector(m), 3));
    ws_throttle_sm_warps sw;
    r.p->sm_warps(m, &sw);
    CHECK(sw.stalled == 1 && sw.isolated == 0);
    /* its CTA-mate waits at a barrier: the stalled warp is made active again */
    r.w[2].waiting = r.w[2].at_bar = 1;
    r.p->filter(r.sched.state, r.w, 4);
    CHECK(!r.w[3].throttled && !ws_ciao_det_stalled(ws_ciao_detector(m), 3));
    CHECK_EQ_U64(ws_ciao_det_counts(ws_ciao_detector(m))->forced, 1);
    /* stall-only: CIAO-T never routes reads away from the L1D */
    CHECK(r.p->l1d_route == NULL && !r.p->wants_smem_cache);
    rig_close(&r);
}

TEST(ciao_guard_when_nothing_can_issue) {
    rig r;
    CHECK(rig_open(&r, "ciao_t:high_epoch=1000:guard=50") == 0);
    void *m = r.sm.state;
    r.p->filter(r.sched.state, r.w, 4);
    for (unsigned k = 0; k < 20; k++) {
        r.p->l1d_evict(m, blk(k), 0, 3);
        r.p->l1d_read_miss(m, 0, blk(k));
    }
    r.p->sm_cycle(m, 1, 1000);
    r.p->filter(r.sched.state, r.w, 4);
    CHECK(ws_ciao_det_stalled(ws_ciao_detector(m), 3));
    /* nothing issues for 50 cycles (e.g. the others wait on memory): released */
    r.p->sm_cycle(m, 30, 1000);
    CHECK(ws_ciao_det_stalled(ws_ciao_detector(m), 3));
    r.p->sm_cycle(m, 51, 1000);
    CHECK(!ws_ciao_det_stalled(ws_ciao_detector(m), 3));
    rig_close(&r);
}

TEST(ciao_p_routes_isolated_reads) {
    rig r;
    CHECK(rig_open(&r, "ciao_p:high_epoch=1000") == 0);
    void *m = r.sm.state;
    r.p->filter(r.sched.state, r.w, 4);
    CHECK(r.p->wants_smem_cache && r.p->l1d_route(m, 3) == WS_ROUTE_L1D);
    for (unsigned k = 0; k < 20; k++) {
        r.p->l1d_evict(m, blk(k), 0, 3);
        r.p->l1d_read_miss(m, 0, blk(k));
    }
    r.p->sm_cycle(m, 1, 1000);
    r.p->filter(r.sched.state, r.w, 4);
    CHECK(r.p->l1d_route(m, 3) == WS_ROUTE_SMC && r.p->l1d_route(m, 0) == WS_ROUTE_L1D);
    CHECK(!r.w[3].throttled); /* isolated warps keep issuing */
    rig_close(&r);
}

TEST(ciao_args_refused_with_ranges) {
    ws_throttle t;
    char err[256];
    CHECK(ws_throttle_create(&t, "ciao_c:high_epoch=50000:high=0.02:lifo=1:window=epoch", 24, err,
                             sizeof err) == 0);
    ws_throttle_destroy(&t);
    CHECK(ws_throttle_create(&t, "ciao_c:high_epoch=10", 24, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "high_epoch");
    CHECK_STR_CONTAINS(err, "100");
    CHECK(ws_throttle_create(&t, "ciao_t:epoch=5000", 24, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "high_epoch"); /* the accepted keys are listed */
    CHECK(ws_throttle_create(&t, "ciao_p:low=1.5", 24, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "0.99");
    CHECK(ws_throttle_create(&t, "ciao_p:low_epoch=2000:high_epoch=1000", 24, err, sizeof err) ==
          -1);
    CHECK_STR_CONTAINS(err, "at most high_epoch");
    CHECK(ws_throttle_create(&t, "statpcal:util=2", 24, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "util");
}

/* ---- statPCAL ------------------------------------------------------------------------- */
TEST(statpcal_tokens_and_bandwidth) {
    rig r;
    CHECK(rig_open(&r, "statpcal:tokens=2") == 0);
    void *m = r.sm.state;
    r.p->filter(r.sched.state, r.w, 4);
    /* bandwidth scarce (the kernel starts closed): only the 2 oldest issue */
    CHECK(!r.w[0].throttled && !r.w[1].throttled && r.w[2].throttled && r.w[3].throttled);
    CHECK(r.p->l1d_route(m, 0) == WS_ROUTE_L1D && r.p->l1d_route(m, 3) == WS_ROUTE_BYPASS);
    /* the controller sees DRAM under-used: non-token warps run, bypassing */
    char err[256];
    ws_throttle_ctl ctl;
    CHECK(ws_throttle_ctl_create(&ctl, "statpcal:tokens=2:util=0.5", 1, 1, err, sizeof err) == 0);
    void *sched[1] = {r.sched.state};
    ws_throttle_epoch e = {.n_sms = 1, .n_sched = 1, .sched = sched, .dram_util = 0.2};
    ctl.policy->ctl_kernel_start(ctl.state, &e);
    ctl.policy->ctl_epoch(ctl.state, &e);
    r.p->filter(r.sched.state, r.w, 4);
    for (int i = 0; i < 4; i++) CHECK(!r.w[i].throttled);
    CHECK(r.p->l1d_route(m, 3) == WS_ROUTE_BYPASS && r.p->l1d_route(m, 1) == WS_ROUTE_L1D);
    e.dram_util = 0.7;
    ctl.policy->ctl_epoch(ctl.state, &e);
    r.p->filter(r.sched.state, r.w, 4);
    CHECK(r.w[2].throttled && r.w[3].throttled);
    ws_throttle_ctl_destroy(&ctl);
    rig_close(&r);
}

/* ---- the shared-memory cache's rules --------------------------------------------------- */
TEST(smc_capacity_and_rows) {
    /* 48 KB unused: 372 lines of 132 B fit; the power of two is 256 */
    CHECK_EQ_U64(sm_smc_capacity(49152, 132, 372, 0), 256);
    CHECK_EQ_U64(sm_smc_capacity(49152, 132, 372, 1), 372);
    /* a CTA takes 16 KB: 248 lines fit, 128 as a power of two */
    CHECK_EQ_U64(sm_smc_capacity(32768, 132, 256, 0), 128);
    CHECK_EQ_U64(sm_smc_capacity(100, 132, 256, 2), 0);
    /* rows: the low line bits (paper), modulo, and the XOR fold */
    CHECK_EQ_U64(sm_smc_row(0x1234, 256, 0), 0x34);
    CHECK_EQ_U64(sm_smc_row(1000, 372, 1), 1000 % 372);
    CHECK_EQ_U64(sm_smc_row(0x1234, 256, 2), (0x34 ^ 0x12) & 0xff);
    /* lines 128 apart (a 16 KB row stride) share 2 rows under the mask, not with the fold */
    unsigned seen0[256] = {0}, seen2[256] = {0}, n0 = 0, n2 = 0;
    for (uint64_t k = 0; k < 32; k++) {
        n0 += !seen0[sm_smc_row(5 + 128 * k, 256, 0)]++;
        n2 += !seen2[sm_smc_row(5 + 128 * k, 256, 2)]++;
    }
    CHECK(n0 == 2 && n2 == 32);
}

/* ---- real runs ----------------------------------------------------------------------- */
static char *run_report(const char *wl, const char *const *over, int *ok) {
    char *rep = NULL;
    size_t rlen = 0;
    FILE *rf = open_memstream(&rep, &rlen), *lf = fopen("/dev/null", "w");
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.report = rf;
    o.config_overrides = over;
    ws_device *d = NULL;
    *ok = 0;
    if (ws_device_create(&o, &d) == WS_OK) {
        *ok = ws_workload_run(ws_workload_find(wl), d, WS_INPUT_SMALL, lf) == WS_WL_PASS;
        ws_device_destroy(d);
    }
    fclose(rf);
    fclose(lf);
    return rep;
}

/* Sum of a stat over the report's kernels. */
static double stat_sum(const char *rep, const char *name) {
    char key[96];
    snprintf(key, sizeof key, "\n%s = ", name);
    double s = 0;
    for (const char *p = rep; p && (p = strstr(p, key)); p++) s += strtod(p + strlen(key), NULL);
    return s;
}

/* ATAX's first kernel thrashes the L1D: each scheme acts, the results check,
   and CIAO-T (stalls) and CIAO-C (isolates, then stalls) cut its misses. */
TEST(ciao_end_to_end_atax) {
    int ok;
    const char *base[] = {"-l1d_index fermi", "-gpgpu_max_insn 2000000", NULL};
    char *r0 = run_report("polybench/atax", base, &ok);
    CHECK(ok);
    const char *t[] = {base[0], base[1], "-warpsim_throttle ciao_t", NULL};
    char *rt = run_report("polybench/atax", t, &ok);
    CHECK(ok);
    CHECK_MSG(stat_sum(rt, "warpsim_ciao_stalls") > 0, "no stall");
    CHECK(stat_sum(rt, "warpsim_ciao_vta_hits") > 0);
    CHECK(strstr(rt, "ciao_interference_pairs[") != NULL);
    const char *c[] = {base[0], base[1], "-warpsim_throttle ciao_c", NULL};
    char *rc = run_report("polybench/atax", c, &ok);
    CHECK(ok);
    CHECK_MSG(stat_sum(rc, "warpsim_ciao_isolations") > 0, "no isolation");
    CHECK_MSG(stat_sum(rc, "warpsim_smc_hits") > 0 && stat_sum(rc, "warpsim_smc_fills") > 0,
              "shared-memory cache unused");
    CHECK_EQ_U64((uint64_t)stat_sum(rc, "warpsim_smc_lines"), 256); /* no smem used: 48 KB */
    double m0 = stat_sum(r0, "L1D_total_cache_misses_kernel"),
           mt = stat_sum(rt, "L1D_total_cache_misses_kernel");
    CHECK_MSG(mt < m0, "ciao_t misses %g, baseline %g", mt, m0);
    free(r0);
    free(rt);
    free(rc);
}

/* backprop's CTAs use shared memory and barriers: the cache shrinks (and is
   flushed) as CTAs arrive, and no CTA deadlocks at its barriers. */
TEST(ciao_end_to_end_smem_and_barriers) {
    int ok;
    /* every line that fits: each CTA's allocation changes the count (48 KB: 372 lines) */
    /* one victim tag per warp: interference is seen often enough that an
       isolated warp is stalled too (the CTA order decides how much there is) */
    const char *c[] = {"-warpsim_throttle ciao_c:high_epoch=100:low_epoch=10:high=0.0001:vta=1",
                       "-warpsim_smem_cache_lines 1", NULL};
    char *rc = run_report("rodinia/backprop", c, &ok);
    CHECK_MSG(ok, "backprop under ciao_c did not pass");
    CHECK(stat_sum(rc, "warpsim_smc_flushes") > 0);
    CHECK(stat_sum(rc, "warpsim_ciao_stalls") > 0);
    double lines = stat_sum(rc, "warpsim_smc_lines");
    CHECK_MSG(lines > 0 && lines < 2 * 372, "lines %g", lines);
    /* the skipping of unchanged schedulers (versioned state) changes nothing */
    const char *full[] = {c[0], c[1], "-warpsim_skip_idle 0", NULL};
    char *rf = run_report("rodinia/backprop", full, &ok);
    CHECK(ok);
    CHECK_MSG(stat_sum(rc, "gpu_sim_cycle") == stat_sum(rf, "gpu_sim_cycle") &&
                  stat_sum(rc, "warpsim_ciao_stalls") == stat_sum(rf, "warpsim_ciao_stalls") &&
                  stat_sum(rc, "warpsim_smc_hits") == stat_sum(rf, "warpsim_smc_hits"),
              "skip_idle 1: %g cycles, 0: %g", stat_sum(rc, "gpu_sim_cycle"),
              stat_sum(rf, "gpu_sim_cycle"));
    free(rf);
    free(rc);
}
