/* The replay-and-hazards pipeline (src/timing/sm/replay.c, hazard.c): the
 * options' checks, the warp-buffer replay rules on the worked example of
 * Turner's thesis (section 5.3), and end-to-end runs: replay is pure
 * timing, the collector no longer blocks, the hazard counters count. */
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "stats_util.h"
#include "test.h"
#include "timing/mem/addrdec.h"
#include "timing/sm/hazard.h"
#include "timing/sm/sm_internal.h"
#include "util/bits.h"

#define CHECK_SAME(a, b) CHECK_MSG(!strcmp((a), (b)), "\"%s\" != \"%s\"", (a), (b))

/* ---- an SM built from options (no kernel) ------------------------------------ */
typedef struct srig {
    ws_config cfg;
    ws_mreq_pool pool;
    ws_addrdec ad;
    ws_sm *sm;
    char err[256];
} srig;

/* NULL-terminated name, value pairs; false (err says why) when the SM is refused */
static bool srig_open(srig *r, const char *const *opts) {
    memset(r, 0, sizeof *r);
    ws_config_init(&r->cfg);
    ws_mreq_pool_init(&r->pool);
    for (const char *const *o = opts; o && o[0]; o += 2)
        if (ws_config_set(&r->cfg, o[0], o[1], r->err, sizeof r->err)) return false;
    if (ws_addrdec_init(&r->ad, &r->cfg, r->err, sizeof r->err)) return false;
    ws_sm_env env = {&r->cfg, &r->pool, &r->ad, 0, 32};
    r->sm = ws_sm_create(&env, r->err, sizeof r->err);
    return r->sm != NULL;
}

static void srig_close(srig *r) {
    if (r->sm) ws_sm_destroy(r->sm);
    ws_mreq_pool_destroy(&r->pool);
    ws_config_free(&r->cfg);
}

static void refused(const char *opt, const char *val, const char *says) {
    srig r;
    const char *o[] = {opt, val, NULL};
    CHECK_MSG(!srig_open(&r, o), "%s %s accepted", opt, val);
    CHECK_STR_CONTAINS(r.err, says);
    srig_close(&r);
}

TEST(replay_bad_pipeline_values_are_refused_with_the_allowed_ones) {
    refused("warpsim_warp_buffer", "0", "out of range");
    refused("warpsim_warp_buffer", "17", "out of range");
    refused("warpsim_oc", "gen0", "genN (N general slots) or sepA-S-M");
    refused("warpsim_oc", "sep2-1", "each number from 1 to 64");
    refused("warpsim_oc", "sep4-0-2", "each number from 1 to 64");
    refused("warpsim_oc", "generic", "expected genN");
    refused("warpsim_hazard_mode", "squash", "expected stall, replay or retain");
    refused("gpgpu_num_sched_per_core", "0", "out of range");
    refused("gpgpu_max_insn_issue_per_warp", "3", "out of range");
    /* LD/ST-path mechanisms a replayed pass would skip are refused with it */
    srig c;
    const char *both[] = {"warpsim_hazard_mode", "replay", "warpsim_perfect_memory", "1", NULL};
    CHECK(!srig_open(&c, both));
    CHECK_STR_CONTAINS(c.err, "cannot be combined with -warpsim_perfect_memory");
    srig_close(&c);
    const char *reo[] = {"warpsim_hazard_mode", "replay", "l1d_warp_reorder", "1", NULL};
    CHECK(!srig_open(&c, reo));
    CHECK_STR_CONTAINS(c.err, "cannot be combined with -l1d_warp_reorder");
    srig_close(&c);
    srig r;
    const char *ok[] = {"warpsim_oc", "sep4-1-2", "warpsim_warp_buffer", "8", "warpsim_hazard_mode",
                        "replay", NULL};
    CHECK_MSG(srig_open(&r, ok), "%s", r.err);
    if (r.sm) {
        CHECK(r.sm->cu_n[SM_SP] == 4 && r.sm->cu_n[SM_SFU] == 1 && r.sm->cu_n[SM_MEM] == 2);
        CHECK(r.sm->cu_n[SM_NCLASS] == 0 && r.sm->replay);
    }
    srig_close(&r);
    const char *gen[] = {"warpsim_oc", "gen8", NULL};
    CHECK_MSG(srig_open(&r, gen), "%s", r.err);
    if (r.sm) CHECK(r.sm->cu_n[SM_NCLASS] == 8 && r.sm->cu_n[SM_SP] == 0 && r.sm->cu_n[SM_MEM] == 0);
    srig_close(&r);
}

TEST(replay_hazard_kinds_of_cache_failures) {
    CHECK(sm_hazard_of_fail(WS_FAIL_MSHR_ENTRY) == SM_HZ_MSHR);
    CHECK(sm_hazard_of_fail(WS_FAIL_MSHR_MERGE) == SM_HZ_MSHR);
    CHECK(sm_hazard_of_fail(WS_FAIL_MISS_QUEUE) == SM_HZ_COMQ);
    CHECK(sm_hazard_of_fail(WS_FAIL_LINE_ALLOC) == SM_HZ_RSV);
    CHECK(sm_hazard_of_fail(WS_FAIL_FLUSH) == SM_HZ_N);
    CHECK_SAME(sm_hazard_name(SM_HZ_COMQ), "COMQ");
}

/* ---- the worked example of the thesis's section 5.3 (4-wide SIMT) ------------- */
static sm_inst *mem_inst(ws_sm *sm, bool load, uint32_t active, uint16_t ntx) {
    sm_inst *in = sm_inst_alloc(sm);
    memset(in, 0, sizeof *in);
    in->warp = 0;
    in->cls = load ? SM_MEM : SM_SP;
    in->is_load = load;
    in->space = WS_SPACE_GLOBAL;
    in->active = active;
    in->nact = (uint8_t)ws_popc32(active);
    in->rp_ntx = ntx;
    in->pending = load; /* its data is still out: the checkpoint does not finish it */
    return in;
}

static bool fetch_may_fill(const ws_sm *sm) { return sm->fetchable & 1; }

/* what issue does for the warp buffer: track it, count the issue */
static bool first_issue(ws_sm *sm, sm_warp *w, sm_inst *in) {
    bool t = sm_replay_track(sm, w, in);
    w->iss_seq++;
    return t;
}

TEST(replay_warp_buffer_worked_example) {
    srig r;
    const char *o[] = {"warpsim_hazard_mode", "replay", "warpsim_warp_buffer", "4", NULL};
    CHECK_MSG(srig_open(&r, o), "%s", r.err);
    if (!r.sm) return;
    ws_sm *sm = r.sm;
    sm_warp *w = &sm->warps[0];
    w->valid = true;
    w->ib_depth = 4;
    w->ib_n = 1; /* D waits in the buffer at the issue pointer */
    sm_inst *A = mem_inst(sm, true, 0xF, 2), *B = mem_inst(sm, false, 0xF, 0),
            *C = mem_inst(sm, true, 0x3, 1);
    B->is_load = false;
    /* 1-2. A (load) issued; B (branch) issued and freed at once; C issued */
    CHECK(first_issue(sm, w, A));
    CHECK(!first_issue(sm, w, B));
    CHECK(first_issue(sm, w, C));
    CHECK(A->rp_pam == 0xF && C->rp_pam == 0x3); /* 3. C's PAM: the threads after B */
    CHECK(w->rp_n == 2 && sm_replay_held(w) == 3); /* A, B, C pin their entries */
    sm_fetch_mark(sm, 0);
    CHECK(!fetch_may_fill(sm)); /* the fill pointer is stuck behind the issue tail */
    /* 4. C fails as a whole (an MSHR hazard); A gets 2 of its 4 threads through (DIV) */
    sm_replay_checkpoint(sm, C, SM_RP_NONE, 0, SM_HZ_MSHR);
    CHECK(C->rp_ready && C->rp_pam == 0x3 && C->rp_last == SM_HZ_MSHR);
    sm_replay_checkpoint(sm, A, 0, 0x3, SM_HZ_N);
    CHECK(A->rp_ready && A->rp_pam == 0xC && A->rp_last == SM_HZ_DIV);
    CHECK(w->rp_ready == 2 && sm->st.hazard[SM_HZ_DIV] == 1);
    /* the oldest replay-ready entry, A, issues */
    CHECK(sm_replay_issue(sm, 0) == 1);
    CHECK(sm->id_oc[SM_MEM].n == 1 && sm->id_oc[SM_MEM].slot[0] == A && !A->rp_ready);
    sm_idoc_out(sm, sm->id_oc[SM_MEM].slot[0], SM_MEM); /* as the collector takes it */
    sm_regset_remove(&sm->id_oc[SM_MEM], 0);
    /* 5. A's other threads complete: A leaves, the tail moves behind C, fill goes on */
    sm_replay_checkpoint(sm, A, 1, 0xC, SM_HZ_N);
    CHECK(!A->rp_live && A->rp_pam == 0 && w->rp_n == 1 && w->rp[0].in == C);
    CHECK(sm_replay_held(w) == 1);
    CHECK(fetch_may_fill(sm)); /* D and E come in */
    /* C, the oldest replay-ready entry, goes before the new instruction D */
    CHECK(sm_replay_issue(sm, 0) == 1);
    CHECK(sm->id_oc[SM_MEM].slot[0] == C && w->rp_ready == 0);
    CHECK(sm->st.replay_issues == 2 && sm->st.replay_squashes == 2);
    sm_idoc_out(sm, sm->id_oc[SM_MEM].slot[0], SM_MEM); /* as the collector takes it */
    sm_regset_remove(&sm->id_oc[SM_MEM], 0);
    sm_replay_checkpoint(sm, C, 0, 0x3, SM_HZ_N);
    CHECK(w->rp_n == 0 && sm_replay_held(w) == 0);
    sm_inst_free(sm, A), sm_inst_free(sm, B), sm_inst_free(sm, C);
    srig_close(&r);
}

/* ---- end to end ------------------------------------------------------------------ */
static double stat1(const char *rep, const char *name) {
    double v[64];
    size_t k = ws_test_stat(rep, 1, name, v, 64);
    CHECK_MSG(k > 0, "%s not reported", name);
    return k ? v[k - 1] : -1;
}

static double stat_sum(const char *rep, const char *name) {
    double v[64], s = 0;
    size_t k = ws_test_stat(rep, 1, name, v, 64);
    CHECK_MSG(k > 0, "%s not reported", name);
    for (size_t i = 0; i < k && i < 64; i++) s += v[i];
    return s;
}

/* Check 1 of the thesis's reimplementation list (stall and replay give the
 * same program results and instruction counts) and check 5 (the collector
 * blocked by stalled memory instructions under stalling, not under replay),
 * on a kernel with MSHR hazards and shared-memory bank conflicts. */
TEST(replay_is_pure_timing_and_unblocks_the_collector) {
    const char *stall[] = {"-warpsim_hazard_mode stall", NULL};
    const char *replay[] = {"-warpsim_hazard_mode replay", NULL};
    const char *wl = "micro/matmul";
    char *log1 = NULL, *log2 = NULL;
    char *a = ws_test_timing_report_set(wl, "turner", stall, NULL, &log1);
    char *b = ws_test_timing_report_set(wl, "turner", replay, NULL, &log2);
    CHECK(a && b);
    if (a && b) {
        CHECK_SAME(log1, log2); /* the workload's output, checked against its CPU reference */
        CHECK(stat1(a, "gpu_tot_sim_insn") == stat1(b, "gpu_tot_sim_insn"));
        CHECK(stat1(a, "gpgpu_n_tot_w_icount") == stat1(b, "gpgpu_n_tot_w_icount"));
        CHECK(stat_sum(a, "warpsim_warp_insts_mem") == stat_sum(b, "warpsim_warp_insts_mem"));
        CHECK(stat_sum(a, "warpsim_hazard_mshr") > 0 && stat_sum(a, "warpsim_hazard_div") > 0);
        CHECK(stat_sum(a, "warpsim_oc_blocked_cycles") > 1000);
        CHECK(stat_sum(b, "warpsim_oc_blocked_cycles") < stat_sum(a, "warpsim_oc_blocked_cycles") / 2);
        double rep_issues = stat_sum(b, "warpsim_replay_issues");
        CHECK(rep_issues > 0 && rep_issues == stat_sum(b, "warpsim_replay_squashes"));
        /* the squashes are the replay-mode hazard counts */
        CHECK(stat_sum(b, "warpsim_hazard_div") + stat_sum(b, "warpsim_hazard_bank") +
                  stat_sum(b, "warpsim_hazard_mshr") + stat_sum(b, "warpsim_hazard_comq") +
                  stat_sum(b, "warpsim_hazard_rsv") == rep_issues);
    }
    free(a), free(b), free(log1), free(log2);
}

/* Shared-memory bank conflicts replay one conflict-free group per pass. */
TEST(replay_bank_conflicts_replay_group_by_group) {
    const char *stall[] = {"-warpsim_hazard_mode stall", NULL};
    const char *replay[] = {"-warpsim_hazard_mode replay", NULL};
    char *log1 = NULL, *log2 = NULL;
    char *a = ws_test_timing_report_set("micro/histogram", "turner", stall, NULL, &log1);
    char *b = ws_test_timing_report_set("micro/histogram", "turner", replay, NULL, &log2);
    if (a && b) {
        CHECK_SAME(log1, log2);
        double bank = stat_sum(a, "warpsim_hazard_bank");
        CHECK(bank > 0);
        /* the same extra passes, made as squashes and reissues instead of held cycles */
        CHECK(stat_sum(b, "warpsim_hazard_bank") == bank);
        CHECK(stat1(a, "gpu_tot_sim_insn") == stat1(b, "gpu_tot_sim_insn"));
    }
    free(a), free(b), free(log1), free(log2);
}

/* The turner preset is the thesis's machine; a deeper warp buffer fetches
   ahead (fewer cycles with nothing to issue for an empty buffer). */
TEST(replay_turner_preset_and_warp_buffer_depth) {
    ws_config c;
    ws_config_init(&c);
    char err[256];
    CHECK(ws_config_apply_preset(&c, "turner", err, sizeof err) == 0);
    CHECK(c.n_clusters * c.n_cores_per_cluster == 10 && c.n_mem == 6);
    CHECK(c.warp_buffer == 8 && !strcmp(c.oc_spec, "gen8") && c.num_sched_per_core == 2);
    CHECK(c.max_insn_issue_per_warp == 2 && !strcmp(c.hazard_mode, "stall"));
    CHECK_STR_CONTAINS(c.cache_dl1, "64:128:6");
    ws_config_free(&c);
    const char *d2[] = {"-warpsim_warp_buffer 2", NULL};
    char *log1 = NULL, *log2 = NULL;
    char *a = ws_test_timing_report_set("micro/vectoradd", "turner", d2, NULL, &log1);
    char *b = ws_test_timing_report_set("micro/vectoradd", "turner", NULL, NULL, &log2);
    if (a && b) {
        CHECK(stat1(a, "gpu_tot_sim_insn") == stat1(b, "gpu_tot_sim_insn"));
        CHECK(stat_sum(b, "warpsim_stall_ibuffer") < stat_sum(a, "warpsim_stall_ibuffer"));
    }
    free(a), free(b), free(log1), free(log2);
}

/* ---- hazard prediction --------------------------------------------------------- */
TEST(replay_hp_unknown_predictor_or_tracker_is_refused) {
    refused("warpsim_hp_predictor", "maybe", "expected none, false, true, pc or oracle");
    refused("warpsim_hp_tracker", "tokens", "expected naive or credit");
}

/* Check 3: the credit books. A real MSHR allocation the books never saw
   makes the check fail; a consistent one passes. */
TEST(replay_hp_credit_books_check) {
    srig r;
    const char *o[] = {"warpsim_hazard_mode", "replay", "warpsim_hp_predictor", "false",
                       "warpsim_hp_check", "1", NULL};
    CHECK_MSG(srig_open(&r, o), "%s", r.err);
    if (!r.sm) return;
    ws_sm *sm = r.sm;
    CHECK(sm->hp != NULL && sm->hp_check);
    unsigned n = ws_cache_get_cfg(sm->l1d)->mshr_entries;
    CHECK(sm_hp_check(sm) && sm_hp_credits(sm, 0) == (int64_t)n);
    /* an access the books see: a virtual credit for its MSHR */
    ws_fail_kind fk;
    unsigned u0 = ws_cache_mshr_used(sm->l1d);
    ws_cache_access(sm->l1d, 0x10000, WS_ACC_READ, false, NULL, 1, &fk);
    sm_hp_access(sm, NULL, false, false, u0, ws_cache_mshr_used(sm->l1d), true);
    CHECK(ws_cache_mshr_used(sm->l1d) == 1 && sm_hp_credits(sm, 0) == (int64_t)n - 1);
    CHECK(!ws_sm_busy(sm) || sm_hp_check(sm)); /* consistent (while its miss is pending) */
    /* one they miss */
    ws_cache_access(sm->l1d, 0x20000, WS_ACC_READ, false, NULL, 2, &fk);
    fprintf(stderr, "    (an -warpsim_hp_check message is expected next)\n");
    CHECK(!sm_hp_check(sm));
    srig_close(&r);
}

static char *run_wl(const char *wl, const char *const *sets, char **log) {
    return ws_test_timing_report_set(wl, "turner", sets, NULL, log);
}

/* Check 2: in the stalling pipeline "credit false" and "naive false" hold
   nothing back (no load is known to miss without replays), so they are
   cycle-identical to the baseline. Check 1 for every predictor under
   replay: the same results and instruction counts, the credit books
   checked every cycle (-warpsim_hp_check aborts otherwise). */
TEST(replay_hp_null_effect_and_functional_equivalence) {
    const char *wl = "micro/vectoradd";
    const char *base[] = {NULL};
    const char *cf[] = {"-warpsim_hp_predictor false", "-warpsim_hp_check 1", NULL};
    const char *nf[] = {"-warpsim_hp_predictor false", "-warpsim_hp_tracker naive", NULL};
    char *l0 = NULL, *l1 = NULL, *l2 = NULL;
    char *a = run_wl(wl, base, &l0), *b = run_wl(wl, cf, &l1), *c = run_wl(wl, nf, &l2);
    if (a && b && c) {
        double cyc = stat1(a, "gpu_tot_sim_cycle");
        CHECK(stat1(b, "gpu_tot_sim_cycle") == cyc && stat1(c, "gpu_tot_sim_cycle") == cyc);
        CHECK(stat_sum(b, "warpsim_hp_restrict") == 0);
        CHECK(stat_sum(b, "warpsim_hp_pft") > 0); /* it predicted, and held nothing back */
    }
    const char *preds[] = {"false", "true", "pc", "oracle"};
    for (int i = 0; i < 4 && a; i++) {
        char p[64];
        snprintf(p, sizeof p, "-warpsim_hp_predictor %s", preds[i]);
        const char *s[] = {"-warpsim_hazard_mode replay", p, "-warpsim_hp_check 1", NULL};
        char *lg = NULL, *rp = run_wl(wl, s, &lg);
        if (rp) {
            CHECK_SAME(lg, l0);
            CHECK(stat1(rp, "gpu_tot_sim_insn") == stat1(a, "gpu_tot_sim_insn"));
            CHECK(stat1(rp, "gpgpu_n_tot_w_icount") == stat1(a, "gpgpu_n_tot_w_icount"));
            CHECK_MSG(stat_sum(rp, "warpsim_hp_restrict") > 0, "%s restricted nothing", preds[i]);
        }
        free(rp), free(lg);
    }
    free(a), free(b), free(c), free(l0), free(l1), free(l2);
}

/* Check 4, strict: with "credit false" a load that failed for want of an
   MSHR goes again only with a credit, and strict credits keep its MSHR
   entry or merge slot, so no load pass is squashed on MSHR twice (plain
   replay squashes known misses again and again). With the thesis's token
   scheme (-warpsim_hp_credit_strict 0) credited passes still fail: here
   on the parameter line's merge limit, which a credit did not cover. */
TEST(replay_hp_predict_hit_bound) {
    const char *wl = "micro/vectoradd";
    const char *rp[] = {"-warpsim_hazard_mode replay", NULL};
    const char *cf[] = {"-warpsim_hazard_mode replay", "-warpsim_hp_predictor false",
                        "-warpsim_hp_check 1", NULL};
    const char *ns[] = {"-warpsim_hazard_mode replay", "-warpsim_hp_predictor false",
                        "-warpsim_hp_credit_strict 0", NULL};
    char *l1 = NULL, *l2 = NULL, *l3 = NULL;
    char *a = run_wl(wl, rp, &l1), *b = run_wl(wl, cf, &l2), *c = run_wl(wl, ns, &l3);
    if (a && b && c) {
        CHECK_SAME(l1, l2);
        CHECK(stat_sum(a, "warpsim_replay_mshr_again") > 1000);
        CHECK(stat_sum(b, "warpsim_replay_mshr_again") == 0);
        CHECK(stat_sum(b, "warpsim_hp_tracker_errors") == 0);
        CHECK(stat_sum(b, "warpsim_hp_refused") > 0); /* the reservation did something */
        CHECK(stat_sum(b, "warpsim_hazard_mshr") < stat_sum(a, "warpsim_hazard_mshr"));
        CHECK(stat_sum(b, "warpsim_replay_issues") < stat_sum(a, "warpsim_replay_issues"));
        double again_ns = stat_sum(c, "warpsim_replay_mshr_again");
        CHECK(again_ns > 0 && again_ns == stat_sum(c, "warpsim_hp_tracker_errors"));
        CHECK(stat_sum(c, "warpsim_hp_refused") == 0);
    }
    free(a), free(b), free(c), free(l1), free(l2), free(l3);
}

/* Strict credits, the rule: a credit in flight keeps an MSHR entry and a
   merge slot on its line; the memory stage refuses them to an access
   without a credit, and lets the credited one through. */
static bool admit_and_access(ws_sm *sm, sm_inst *in, uint64_t a, ws_fail_kind *fk) {
    if (!sm_hp_admit(sm, in, false, a, false, fk)) return false;
    unsigned u0 = ws_cache_mshr_used(sm->l1d);
    ws_cache_status s = ws_cache_access(sm->l1d, a, WS_ACC_READ, false, NULL, sm->now, fk);
    sm_hp_access(sm, in, false, s == WS_CACHE_HIT, u0, ws_cache_mshr_used(sm->l1d),
                 s != WS_CACHE_RESERVATION_FAIL);
    while (ws_cache_has_miss(sm->l1d)) ws_cache_pop_miss(sm->l1d); /* sent on: no COMQ */
    return s != WS_CACHE_RESERVATION_FAIL;
}

TEST(replay_hp_strict_credit_rule) {
    srig r;
    const char *o[] = {"warpsim_hazard_mode", "replay", "warpsim_hp_predictor", "true",
                       "warpsim_hp_check", "1", NULL};
    CHECK_MSG(srig_open(&r, o), "%s", r.err);
    if (!r.sm) return;
    ws_sm *sm = r.sm;
    unsigned n = ws_cache_get_cfg(sm->l1d)->mshr_entries;
    unsigned m = ws_cache_get_cfg(sm->l1d)->mshr_max_merge;
    CHECK(n > 2 && m > 1);
    static const ws_inst plain;
    sm_inst *in = mem_inst(sm, true, 0x1, 1);
    in->inst = &plain;
    in->addr[0] = 0x40000;
    ws_fail_kind fk;
    CHECK(sm_hp_gate(sm, in) && in->hp_credit); /* "true": a credit, kept on 0x40000's line */
    /* others fill the line's merge list up to the slot the credit keeps */
    for (unsigned i = 0; i + 1 < m; i++) CHECK(admit_and_access(sm, NULL, 0x40000 + 4 * i, &fk));
    CHECK(ws_cache_mshr_merges(sm->l1d, 0x40000) == (int)m - 1);
    CHECK(!admit_and_access(sm, NULL, 0x40000, &fk) && fk == WS_FAIL_MSHR_MERGE);
    /* a second credit on the same line must wait: no slot left for it */
    sm_inst *in2 = mem_inst(sm, true, 0x1, 1);
    in2->inst = &plain;
    in2->addr[0] = 0x40010;
    CHECK(!sm_hp_gate(sm, in2) && !in2->hp_credit);
    CHECK(admit_and_access(sm, in, 0x40000, &fk)); /* the credited one takes its slot */
    CHECK(!in->hp_credit && !in->hp_had_credit);
    /* the books (nothing in flight; the rig's SM runs no kernel, so not sm_hp_check) */
    CHECK(sm_hp_credits(sm, 0) == (int64_t)n - ws_cache_mshr_used(sm->l1d));
    /* the entry rule: other lines may use the MSHRs but the one a credit keeps */
    in2->addr[0] = 0x80000;
    CHECK(sm_hp_gate(sm, in2) && in2->hp_credit);
    uint64_t a = 0x100000;
    for (unsigned i = 0; i < 2 * n && ws_cache_mshr_used(sm->l1d) + 1 < n; i++)
        CHECK(admit_and_access(sm, NULL, a += 0x80, &fk));
    CHECK(ws_cache_mshr_used(sm->l1d) + 1 == n);
    CHECK(!admit_and_access(sm, NULL, a + 0x80, &fk) && fk == WS_FAIL_MSHR_ENTRY);
    CHECK(admit_and_access(sm, in2, 0x80000, &fk)); /* the credited one allocates the last */
    CHECK(ws_cache_mshr_used(sm->l1d) == n && sm_hp_credits(sm, 0) == 0);
    CHECK(sm->st.hp_refused == 2);
    srig_close(&r);
    /* the stalling pipeline keeps the thesis's scheme: nothing is kept for a credit */
    const char *st[] = {"warpsim_hp_predictor", "true", NULL};
    CHECK_MSG(srig_open(&r, st), "%s", r.err);
    if (!r.sm) return;
    sm = r.sm;
    in = mem_inst(sm, true, 0x1, 1);
    in->inst = &plain;
    in->addr[0] = 0x40000;
    CHECK(sm_hp_gate(sm, in) && in->hp_credit);
    for (unsigned i = 0; i < m; i++) CHECK(admit_and_access(sm, NULL, 0x40000 + 4 * i, &fk));
    CHECK(sm->st.hp_refused == 0);
    srig_close(&r);
}

/* -warpsim_hazard_mode retain: the stalling pipeline with replay's warp
   buffer retention (the thesis's warp-buffer penalty): the same work, and
   warps wait on full buffers more often (histogram: 8188 cycles against
   6337; on micro/matmul the two came out even once CTA dispatch and the
   crossbar followed GPGPU-Sim). */
TEST(replay_retain_mode_keeps_entries) {
    const char *st[] = {"-warpsim_hazard_mode stall", NULL};
    const char *rt[] = {"-warpsim_hazard_mode retain", NULL};
    char *l1 = NULL, *l2 = NULL;
    char *a = run_wl("micro/histogram", st, &l1), *b = run_wl("micro/histogram", rt, &l2);
    if (a && b) {
        CHECK_SAME(l1, l2);
        CHECK(stat1(a, "gpu_tot_sim_insn") == stat1(b, "gpu_tot_sim_insn"));
        CHECK(stat_sum(b, "warpsim_stall_ibuffer") > stat_sum(a, "warpsim_stall_ibuffer"));
        CHECK(stat_sum(b, "warpsim_replay_issues") == 0);
    }
    free(a), free(b), free(l1), free(l2);
}

/* -warpsim_replay_pass_accesses: a pass that may make all its accesses
   replays only what a resource hazard stopped (fewer DIV squashes and
   reissues), with the same results. */
TEST(replay_pass_accesses) {
    const char *one[] = {"-warpsim_hazard_mode replay", NULL};
    const char *all[] = {"-warpsim_hazard_mode replay", "-warpsim_replay_pass_accesses 128",
                         "-warpsim_hp_predictor false", "-warpsim_hp_check 1", NULL};
    char *l1 = NULL, *l2 = NULL;
    char *a = run_wl("micro/matmul", one, &l1), *b = run_wl("micro/matmul", all, &l2);
    if (a && b) {
        CHECK_SAME(l1, l2);
        CHECK(stat1(a, "gpu_tot_sim_insn") == stat1(b, "gpu_tot_sim_insn"));
        CHECK(stat_sum(a, "warpsim_hazard_div") > 0);
        CHECK(stat_sum(b, "warpsim_hazard_div") < stat_sum(a, "warpsim_hazard_div") / 2);
        CHECK(stat_sum(b, "warpsim_replay_issues") < stat_sum(a, "warpsim_replay_issues"));
    }
    free(a), free(b), free(l1), free(l2);
}

/* ---- the credit signal delay ----------------------------------------------------- */
TEST(replay_hp_signal_delay_is_refused_out_of_range_or_without_credits) {
    refused("warpsim_hp_signal_delay", "65", "out of range");
    refused("warpsim_hp_signal_delay", "-1", "out of range");
    srig r;
    const char *o[] = {"warpsim_hp_predictor", "false", "warpsim_hp_tracker", "naive",
                       "warpsim_hp_signal_delay", "2", NULL};
    CHECK(!srig_open(&r, o));
    CHECK_STR_CONTAINS(r.err, "applies to the credit tracker only");
    srig_close(&r);
}

/* A credit a pass gives back at the checkpoint reaches the issue stage D
   cycles later (taking one is at once); the books count it meanwhile. */
static void credit_round_trip(unsigned delay) {
    srig r;
    char d[16];
    snprintf(d, sizeof d, "%u", delay);
    const char *o[] = {"warpsim_hazard_mode", "replay", "warpsim_hp_predictor", "true",
                       "warpsim_hp_signal_delay", d, "warpsim_hp_check", "1", NULL};
    CHECK_MSG(srig_open(&r, o), "%s", r.err);
    if (!r.sm) return;
    ws_sm *sm = r.sm;
    CHECK(sm->hp_cycle);
    int64_t n = ws_cache_get_cfg(sm->l1d)->mshr_entries;
    static const ws_inst plain; /* a load with no cache operator */
    sm_inst *in = mem_inst(sm, true, 0x1, 1);
    in->inst = &plain;
    sm->now = 10;
    sm_hp_cycle(sm);
    CHECK(sm_hp_gate(sm, in)); /* "true": a predicted miss takes a credit */
    CHECK(sm_hp_credits_visible(sm, 0) == n - 1);
    unsigned u = ws_cache_mshr_used(sm->l1d);
    sm_hp_access(sm, in, false, true, u, u, true); /* it hit: the credit goes back */
    CHECK(sm_hp_credits(sm, 0) == n);              /* on its way or home */
    for (unsigned c = 1; c <= delay + 1; c++) {
        sm->now = 10 + c;
        sm_hp_cycle(sm); /* -warpsim_hp_check: the books add up every cycle */
        CHECK_MSG(sm_hp_credits_visible(sm, 0) == (c < delay ? n - 1 : n),
                  "delay %u, cycle +%u: %lld credits", delay, c,
                  (long long)sm_hp_credits_visible(sm, 0));
    }
    /* skipped cycles (a sleeping SM) deliver everything due */
    CHECK(sm_hp_gate(sm, in) && sm_hp_credits_visible(sm, 0) == n - 1);
    sm_hp_access(sm, in, false, true, u, u, true);
    sm->now += 5 * delay + 100;
    sm_hp_cycle(sm);
    CHECK(sm_hp_credits_visible(sm, 0) == n);
    sm_inst_free(sm, in);
    srig_close(&r);
}

TEST(replay_hp_signal_delay_rule) {
    credit_round_trip(0);
    credit_round_trip(1);
    credit_round_trip(4);
}

/* End to end: a delayed credit tracker keeps its books (checked every
   cycle, all credits back when the SMs drain) and is pure timing. */
TEST(replay_hp_signal_delay_end_to_end) {
    const char *wl = "micro/vectoradd";
    const char *d0[] = {"-warpsim_hazard_mode replay", "-warpsim_hp_predictor false", NULL};
    const char *d8[] = {"-warpsim_hazard_mode replay", "-warpsim_hp_predictor false",
                        "-warpsim_hp_signal_delay 8", "-warpsim_hp_check 1", NULL};
    char *l1 = NULL, *l2 = NULL;
    char *a = run_wl(wl, d0, &l1), *b = run_wl(wl, d8, &l2);
    if (a && b) {
        CHECK_SAME(l1, l2);
        CHECK(stat1(a, "gpgpu_n_tot_w_icount") == stat1(b, "gpgpu_n_tot_w_icount"));
        CHECK(stat1(a, "gpu_tot_sim_cycle") != stat1(b, "gpu_tot_sim_cycle"));
        CHECK(stat_sum(b, "warpsim_hp_restrict") > 0);
    }
    free(a), free(b), free(l1), free(l2);
}

/* ---- the scheduler-cycle classes and MSHRs idle while demand exists ------------- */
/* Every scheduler cycle of an active SM is one class (the thesis's Fig 7.5:
   idle, RAW, stall, restrict, issue1, issue2; ours splits idle by why),
   and issue1 + 2 issue2 is every issue, reissues included. The MSHR-idle
   count only looks: its runs take the same cycles. */
TEST(replay_sched_issue_classes_and_mshr_idle) {
    const char *wl = "micro/vectoradd";
    const char *st[] = {"-warpsim_mshr_idle_stat 1", NULL};
    const char *rp[] = {"-warpsim_hazard_mode replay", "-warpsim_mshr_idle_stat 1", NULL};
    const char *st0[] = {NULL};
    char *l1 = NULL, *l2 = NULL, *l3 = NULL;
    char *a = run_wl(wl, st, &l1), *b = run_wl(wl, rp, &l2), *c = run_wl(wl, st0, &l3);
    const char *const classes[] = {"warpsim_stall_idle",    "warpsim_stall_scoreboard",
                                   "warpsim_stall_pipeline", "warpsim_stall_barrier",
                                   "warpsim_stall_ibuffer", "warpsim_hp_restrict",
                                   "warpsim_sched_issue1",  "warpsim_sched_issue2"};
    for (int k = 0; k < 2 && a && b; k++) {
        const char *rep = k ? b : a;
        double sum = 0;
        for (int i = 0; i < 8; i++) sum += stat_sum(rep, classes[i]);
        /* 2 schedulers; a CTA finishing before issue ends an SM's last active cycle early */
        double slots = 2 * stat_sum(rep, "warpsim_sm_active_cycles");
        CHECK_MSG(sum <= slots && sum >= slots - 2 * 10 * 4, "%.0f classes, %.0f slots", sum,
                  slots);
        double issues = stat_sum(rep, "warpsim_sched_issue1") +
                        2 * stat_sum(rep, "warpsim_sched_issue2");
        CHECK(issues == stat1(rep, "gpgpu_n_tot_w_icount") +
                            stat_sum(rep, "warpsim_replay_issues"));
        CHECK(stat_sum(rep, "warpsim_sched_issue2") > 0); /* the turner preset dual-issues */
        double idle = stat_sum(rep, "warpsim_mshr_idle_demand");
        CHECK(idle > 0 && idle <= stat_sum(rep, "warpsim_sm_active_cycles"));
    }
    if (a && c) {
        CHECK(stat1(a, "gpu_tot_sim_cycle") == stat1(c, "gpu_tot_sim_cycle"));
        CHECK(stat_sum(c, "warpsim_mshr_idle_demand") == 0);
    }
    free(a), free(b), free(c), free(l1), free(l2), free(l3);
}
