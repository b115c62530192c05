/* Between-cycle policy controllers (see control.h). */
#include "timing/control.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/bypass/bypass.h"
#include "policy/throttle/throttle.h"
#include "stats/report.h"
#include "timing/mem/cache.h"

/* One bypass level: its policy, caches, modes and counter snapshots. */
typedef struct level {
    ws_bypass b;
    unsigned n;
    ws_cache **cache;
    ws_cache_bypass *mode;
    ws_bypass_counts *cnt, *prev;
    uint64_t next, last;   /* kernel-relative cycle of the next / last epoch */
} level;

struct ws_control {
    uint32_t n_sms, n_sched;
    ws_sm **sms;
    /* throttle controller */
    ws_throttle_ctl t;
    const char *kernel;
    void **sched;
    ws_cache **l1d;
    ws_throttle_sm_counts *tc;
    uint64_t *t_prev_insts, *t_prev_reads, *t_prev_misses;
    uint64_t t_next, t_last;
    ws_mempart **parts;
    uint32_t n_chan;
    uint64_t dram_busy, dram_cycles; /* snapshots, for the period's utilisation */
    level l1, l2;
};

static int level_init(level *lv, const char *what, const char *spec, unsigned n, char *err,
                      size_t errlen) {
    if (ws_bypass_create(&lv->b, what, spec, n, err, errlen)) return -1;
    lv->n = n;
    lv->cache = calloc(n, sizeof *lv->cache);
    lv->mode = calloc(n, sizeof *lv->mode);
    lv->cnt = calloc(n, sizeof *lv->cnt);
    lv->prev = calloc(n, sizeof *lv->prev);
    if (!lv->cache || !lv->mode || !lv->cnt || !lv->prev) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    return 0;
}

static void level_free(level *lv) {
    ws_bypass_destroy(&lv->b);
    free(lv->cache);
    free(lv->mode);
    free(lv->cnt);
    free(lv->prev);
}

void ws_control_destroy(ws_control *c) {
    if (!c) return;
    ws_throttle_ctl_destroy(&c->t);
    free(c->sched);
    free(c->l1d);
    free(c->tc);
    free(c->t_prev_insts);
    free(c->t_prev_reads);
    free(c->t_prev_misses);
    level_free(&c->l1);
    level_free(&c->l2);
    free(c);
}

ws_control *ws_control_create(const ws_config *cfg, ws_sm **sms, uint32_t n_sms,
                              ws_mempart **parts, uint32_t n_chan, uint32_t n_sub_per_chan,
                              char *err, size_t errlen) {
    ws_control *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    c->n_sms = n_sms;
    c->n_sched = (uint32_t)cfg->num_sched_per_core;
    c->sms = sms;
    c->parts = parts;
    c->n_chan = n_chan;
    uint32_t n_l2 = n_chan * n_sub_per_chan;
    if (ws_throttle_ctl_create(&c->t, cfg->throttle, n_sms, c->n_sched, err, errlen) ||
        level_init(&c->l1, "l1d_bypass", cfg->l1d_bypass, n_sms, err, errlen) ||
        level_init(&c->l2, "l2_bypass", cfg->l2_bypass, n_l2, err, errlen))
        goto fail;
    c->sched = calloc((size_t)n_sms * c->n_sched, sizeof *c->sched);
    c->l1d = calloc(n_sms, sizeof *c->l1d);
    c->tc = calloc(n_sms, sizeof *c->tc);
    c->t_prev_insts = calloc(n_sms, sizeof *c->t_prev_insts);
    c->t_prev_reads = calloc(n_sms, sizeof *c->t_prev_reads);
    c->t_prev_misses = calloc(n_sms, sizeof *c->t_prev_misses);
    if (!c->sched || !c->l1d || !c->tc || !c->t_prev_insts || !c->t_prev_reads ||
        !c->t_prev_misses) {
        snprintf(err, errlen, "out of host memory");
        goto fail;
    }
    for (uint32_t i = 0; i < n_sms; i++) {
        c->l1d[i] = c->l1.cache[i] = ws_sm_l1d(sms[i]);
        for (uint32_t s = 0; s < c->n_sched; s++)
            c->sched[i * c->n_sched + s] = ws_sm_throttle_state(sms[i], s);
    }
    for (uint32_t i = 0; i < n_l2; i++)
        c->l2.cache[i] = ws_subpart_l2_ctl(parts[i / n_sub_per_chan], i % n_sub_per_chan);
    return c;
fail:
    ws_control_destroy(c);
    return NULL;
}

/* ---- throttle controller ---- */
static void throttle_counts(ws_control *c, uint64_t cycle, uint64_t now, ws_throttle_epoch *e) {
    for (uint32_t i = 0; i < c->n_sms; i++) {
        const ws_sm_stats *st = ws_sm_get_stats(c->sms[i]);
        uint64_t reads, misses;
        ws_cache_read_counts(c->l1d[i], &reads, &misses);
        ws_throttle_sm_counts *k = &c->tc[i];
        k->thread_insts = st->thread_insts_exec - c->t_prev_insts[i];
        k->l1d_reads = reads - c->t_prev_reads[i];
        k->l1d_read_misses = misses - c->t_prev_misses[i];
        k->warps = ws_sm_active_warps(c->sms[i]);
        k->max_warps = ws_sm_max_warps(c->sms[i]);
        c->t_prev_insts[i] = st->thread_insts_exec;
        c->t_prev_reads[i] = reads;
        c->t_prev_misses[i] = misses;
    }
    uint64_t busy = 0, dcyc = 0;
    for (uint32_t i = 0; c->parts && i < c->n_chan; i++) {
        const ws_mempart_stats *ms = ws_mempart_get_stats(c->parts[i]);
        busy += ms->dram_busy_data_cycles;
        dcyc += ms->dram_cycles;
    }
    double util = dcyc > c->dram_cycles ? (double)(busy - c->dram_busy) / (double)(dcyc - c->dram_cycles)
                                        : 0;
    c->dram_busy = busy;
    c->dram_cycles = dcyc;
    *e = (ws_throttle_epoch){now, cycle - c->t_last, c->n_sms, c->n_sched, c->tc, c->sched,
                             c->l1d, c->kernel, util};
    c->t_last = cycle;
}

static uint64_t after(uint64_t cycle, uint64_t period) {
    return period ? cycle + period : UINT64_MAX;
}

/* ---- bypass levels ---- */
static void level_apply(level *lv) {
    for (unsigned i = 0; i < lv->n; i++) ws_cache_set_bypass(lv->cache[i], &lv->mode[i]);
}

static void level_snapshot(level *lv) {
    for (unsigned i = 0; i < lv->n; i++)
        ws_cache_read_counts(lv->cache[i], &lv->prev[i].reads, &lv->prev[i].misses);
}

static void level_kernel_start(level *lv) {
    memset(lv->mode, 0, lv->n * sizeof *lv->mode);
    lv->b.policy->kernel_start(lv->b.state, lv->mode, lv->n);
    level_apply(lv);
    level_snapshot(lv);
    lv->last = 0;
    lv->next = after(0, lv->b.period);
}

static void level_epoch(level *lv, uint64_t cycle, uint64_t now, bool settled) {
    for (unsigned i = 0; i < lv->n; i++) {
        ws_bypass_counts cur;
        ws_cache_read_counts(lv->cache[i], &cur.reads, &cur.misses);
        lv->cnt[i].reads = cur.reads - lv->prev[i].reads;
        lv->cnt[i].misses = cur.misses - lv->prev[i].misses;
        lv->prev[i] = cur;
    }
    ws_bypass_epoch e = {now, cycle - lv->last, lv->n, lv->cnt, lv->mode, settled};
    lv->b.policy->epoch(lv->b.state, &e);
    level_apply(lv);
    lv->last = cycle;
    lv->next = after(cycle, lv->b.period);
}

static bool throttle_settled(const ws_control *c) {
    return !c->t.policy || !c->t.policy->ctl_settled || c->t.policy->ctl_settled(c->t.state);
}

void ws_control_kernel_start(ws_control *c, const char *kernel, uint64_t now) {
    c->kernel = kernel;
    c->t_next = UINT64_MAX;
    if (c->t.policy) {
        ws_throttle_epoch e;
        c->t_last = 0;
        throttle_counts(c, 0, now, &e); /* snapshots; the counts are zero */
        if (c->t.policy->ctl_kernel_start) c->t.policy->ctl_kernel_start(c->t.state, &e);
        c->t_next = after(0, c->t.policy->ctl_period(c->t.state));
    }
    level_kernel_start(&c->l1);
    level_kernel_start(&c->l2);
}

uint64_t ws_control_next(const ws_control *c) {
    uint64_t n = c->t_next;
    if (c->l1.next < n) n = c->l1.next;
    if (c->l2.next < n) n = c->l2.next;
    return n;
}

void ws_control_epoch(ws_control *c, uint64_t cycle, uint64_t now) {
    if (cycle >= c->t_next) {
        ws_throttle_epoch e;
        throttle_counts(c, cycle, now, &e);
        c->t.policy->ctl_epoch(c->t.state, &e);
        c->t_next = after(cycle, c->t.policy->ctl_period(c->t.state));
    }
    bool settled = throttle_settled(c);
    if (cycle >= c->l1.next) level_epoch(&c->l1, cycle, now, settled);
    if (cycle >= c->l2.next) level_epoch(&c->l2, cycle, now, settled);
}

void ws_control_kernel_end(ws_control *c) {
    if (c->t.policy && c->t.policy->ctl_kernel_end) c->t.policy->ctl_kernel_end(c->t.state);
}

#define T(nm, u, d, w, ...) {nm, .unit = u, .desc = d, .when = "-warpsim_throttle " w, __VA_ARGS__}
static const ws_stat_decl control_stats[] = {
    T("warpsim_throttle_limit", "warps", "warps per scheduler the controller allowed at the "
      "kernel's end (mean over SMs that ran a full period)", "awl, iacm, dwtcs, dwtpric",
      .agg = WS_AGG_WMEAN, .den_name = "gpu_sim_cycle"),
    T("warpsim_throttle_searches", "searches", "limit searches the controller finished",
      "awl, iacm"),
    T("warpsim_throttle_decided_cycle", "cycles", "kernel cycle at which the limit was decided",
      "dwtcs, dwtpric", .agg = WS_AGG_LAST),
    T("warpsim_iacm_adi_cycles", "cycles", "mean cycles an SM spent in IACM's indexing phase",
      "iacm"),
    T("warpsim_iacm_awl_cycles", "cycles", "mean cycles an SM spent in IACM's AWL phase", "iacm"),
    T("warpsim_iacm_idle_cycles", "cycles", "mean cycles an SM spent in IACM's idle phase", "iacm"),
    T("warpsim_pcal_open_share", "fraction", "share of periods in which non-token warps ran (DRAM "
      "utilisation under the threshold)", "statpcal", .agg = WS_AGG_LAST),
    T("warpsim_ciao_vta_hits", "events", "victim-tag hits: misses on lines another warp evicted "
      "(interference events)", "ciao_p, ciao_t, ciao_c"),
    T("warpsim_ciao_isolations", "events", "warps isolated in the shared-memory cache",
      "ciao_p, ciao_c"),
    T("warpsim_ciao_deisolations", "events", "isolated warps sent back to the L1D",
      "ciao_p, ciao_c"),
    T("warpsim_ciao_stalls", "events", "warps stalled", "ciao_t, ciao_c"),
    T("warpsim_ciao_reactivations", "events", "stalled warps made active again (epochs and "
      "deadlock guard)", "ciao_t, ciao_c"),
    T("warpsim_ciao_forced_reactivations", "events", "of which by the deadlock guard (barriers, "
      "no issuable warp)", "ciao_t, ciao_c"),
    T("warpsim_ciao_top_interferer_share", "fraction", "share of interference events caused by each "
      "victim's most frequent interferer", "ciao_p, ciao_t, ciao_c", .agg = WS_AGG_LAST),
    T("warpsim_ciao_isolated_warps", "warps", "isolated warps per SM, mean over active SM cycles",
      "ciao_p, ciao_c", .agg = WS_AGG_LAST),
    T("warpsim_ciao_stalled_warps", "warps", "stalled warps per SM, mean over active SM cycles",
      "ciao_t, ciao_c", .agg = WS_AGG_LAST),
    T("warpsim_ciao_active_warps", "warps", "resident warps not stalled per SM, mean over active "
      "SM cycles", "ciao_p, ciao_t, ciao_c", .agg = WS_AGG_LAST),
    T("warpsim_smc_hits", "accesses", "shared-memory cache: reads of isolated warps that hit "
      "(migrations from the L1D included)", "ciao_p, ciao_c"),
    T("warpsim_smc_misses", "accesses", "shared-memory cache: reads that missed", "ciao_p, ciao_c"),
    T("warpsim_smc_fills", "lines", "shared-memory cache: lines filled from L2", "ciao_p, ciao_c"),
    T("warpsim_smc_flushes", "flushes", "shared-memory cache: flushes because a CTA launch "
      "changed the unused shared memory", "ciao_p, ciao_c"),
    T("warpsim_smc_migrations", "lines", "shared-memory cache: lines moved in from the L1D",
      "ciao_p, ciao_c"),
    T("warpsim_smc_mshr_waits", "cycles", "L1 accesses held because the L1D and the "
      "shared-memory cache used every (shared) MSHR", "ciao_p, ciao_c"),
    T("warpsim_smc_lines", "lines", "shared-memory cache: lines it had at the kernel's end (mean "
      "over SMs that had one)", "ciao_p, ciao_c", .agg = WS_AGG_LAST),
};
#undef T
const ws_stat_table ws_control_stat_table = {"throttle controller", control_stats,
                                             sizeof control_stats / sizeof control_stats[0]};

void ws_control_add_stats(const ws_control *c, ws_kernel_stats *ks) {
    if (c->t.policy && c->t.policy->ctl_lines) c->t.policy->ctl_lines(c->t.state, ks);
    if (!c->t.policy || !c->t.policy->ctl_stats) return;
    ws_throttle_stat st[24];
    unsigned n = c->t.policy->ctl_stats(c->t.state, st, 24);
    for (unsigned i = 0; i < n && i < 24; i++) {
        if (st[i].is_float) ws_kstats_add_f64(ks, st[i].name, st[i].value);
        else ws_kstats_add_u64(ks, st[i].name, (uint64_t)st[i].value);
    }
}
