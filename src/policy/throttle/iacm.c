/* IACM's phase machine per SM (seed 003 §2.4, Fig. 23; ADI-AWL order):
 *   ADI  --(idle-subphase IPC within 25% of the previous one)--> AWL
 *   AWL  --(search ends, NC within εW of NP)--> Idle
 *   AWL  --(search ends, NC moved further)--> ADI
 *   Idle --(|ΔIPC| > εI)--> ADI
 * Only in the ADI phase does the L1D's adaptive index function (-l1d_index
 * adi) see accesses; in the others it is paused. The AWL and idle phases
 * are awl.c's. Bypassing (-l1d_bypass pd) is active in all phases and is
 * not steered here. IACM as a whole is
 *   -l1d_index adi -l1d_bypass pd -warpsim_throttle iacm
 * Choices: the ADI phase's idle sub-phase is timed here, at period
 * granularity: it runs from a selection of the ADI function to the end of
 * the first full CP (6250) cycle period after it, whose IPC is the sample;
 * then the function starts its next round (victimization and selection run
 * on access counts inside the cache). The function should idle until then
 * (adi's ni=0); with an access-counted idle (ni=4096), rounds of programs
 * with few accesses per cycle took dozens of periods (atax: 30). Sampling
 * every period instead left ADI after one or two changes, as IPC barely
 * moves between selections. An index function without selections
 * (not adaptive) gives a sample every period. The previous IPC starts at 0
 * on each entry to the ADI phase, so the phase takes at least two samples
 * (the spec's first-iteration choice). The spec's ADI periods in IACM are
 * 250 misses / 250 accesses: -l1d_index adi:nv=250:ns=250:ni=0.
 * Every SM starts a kernel in the ADI phase with no warp limit (NC = NT;
 * the first AWL phase starts from NT). The 25% thresholds are relative to
 * the previous IPC (or NP). tie and gpu=1 are awl.c's options beyond the
 * spec; with gpu=1 one machine decides every SM's phase and limit from the
 * mean IPC per SM, and its ADI samples follow the selections of all L1Ds.
 * Parameters: ws_awl_param_defs (awl's and eadi). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "policy/throttle/awl.h"
#include "policy/throttle/limit.h"
#include "timing/mem/cache.h"

enum { P_ADI, P_AWL, P_IDLE, P_N };

typedef struct {
    int phase;
    double adi_prev;  /* IPC of the previous ADI-phase sample (0: none yet) */
    uint64_t sel_seen; /* the L1D index function's selections at the last period end */
    bool armed;       /* a selection ended in the last period: this one is a sample */
    ws_awl a;
    ws_awl_idle idle;
    uint64_t cycles[P_N]; /* this kernel, per phase */
} iacm_sm;

typedef struct {
    ws_awl_params p;   /* p.gpu: one phase machine for the whole GPU on its mean IPC per SM */
    unsigned n_sms, n_sched;
    iacm_sm *sm;
} iacm_ctl;

static void *iacm_ctl_create(ws_params *p, unsigned n_sms, unsigned n_sched, char *err,
                             size_t errlen) {
    iacm_ctl *c = calloc(1, sizeof *c);
    if (!c) snprintf(err, errlen, "out of host memory");
    if (!c || !(c->sm = ws_awl_ctl_parts(p, true, n_sms, sizeof *c->sm, &c->p, err, errlen))) {
        free(c);
        return NULL;
    }
    c->n_sms = n_sms;
    c->n_sched = n_sched;
    return c;
}

static void iacm_ctl_destroy(void *ctl) {
    iacm_ctl *c = ctl;
    free(c->sm);
    free(c);
}

static uint64_t iacm_ctl_period(const void *ctl) { return ((const iacm_ctl *)ctl)->p.cp; }

/* The state that decides for SM i. */
static iacm_sm *state(const iacm_ctl *c, unsigned i) { return &c->sm[c->p.gpu ? 0 : i]; }

/* The SMs whose L1Ds machine m steers: [*lo, return value). */
static unsigned span(const iacm_ctl *c, const iacm_sm *m, unsigned *lo) {
    *lo = c->p.gpu ? 0 : (unsigned)(m - c->sm);
    return c->p.gpu ? c->n_sms : *lo + 1;
}

/* ADI selections of the L1D(s) that machine m watches (false: no adaptive index). */
static bool selections(const iacm_ctl *c, const ws_throttle_epoch *e, const iacm_sm *m,
                       uint64_t *n) {
    unsigned lo, hi = span(c, m, &lo);
    bool any = false;
    *n = 0;
    for (unsigned i = lo; e->l1d && i < hi; i++) {
        uint64_t k = 0;
        if (e->l1d[i] && ws_cache_index_selections(e->l1d[i], &k)) any = true, *n += k;
    }
    return any;
}

/* The idle sub-phase is over: the L1D(s) of machine m start their next adaptation round. */
static void restart(const iacm_ctl *c, const ws_throttle_epoch *e, const iacm_sm *m) {
    unsigned lo, hi = span(c, m, &lo);
    for (unsigned i = lo; e->l1d && i < hi; i++)
        if (e->l1d[i]) ws_cache_index_restart(e->l1d[i]);
}

/* SM i follows its machine: the L1D's index adapts only in the ADI phase; the warp limit. */
static void apply(const iacm_ctl *c, const ws_throttle_epoch *e, unsigned i) {
    const iacm_sm *m = state(c, i);
    if (e->l1d && e->l1d[i]) ws_cache_index_pause(e->l1d[i], m->phase != P_ADI);
    for (unsigned s = 0; s < c->n_sched; s++)
        ws_limit_set(e->sched[i * c->n_sched + s], ws_awl_sched_limit(&m->a, c->n_sched));
}

static void enter(const iacm_ctl *c, const ws_throttle_epoch *e, iacm_sm *m, int phase) {
    m->phase = phase;
    if (phase == P_ADI) {
        m->adi_prev = 0;
        m->armed = false;
        selections(c, e, m, &m->sel_seen);
        restart(c, e, m);
    }
    if (phase == P_IDLE) m->idle.init = true;
    if (phase == P_AWL && ws_awl_begin(&m->a, c->p.ew) != WS_AWL_SEARCHING) { /* NT 1 */
        m->phase = P_IDLE;
        m->idle.init = true;
    }
}

static void iacm_ctl_kernel_start(void *ctl, const ws_throttle_epoch *e) {
    iacm_ctl *c = ctl;
    for (unsigned i = 0; i < c->n_sms; i++) {
        iacm_sm *m = &c->sm[i];
        ws_awl_kernel_start(&m->a, c->p.tie);
        for (int p = 0; p < P_N; p++) m->cycles[p] = 0;
        enter(c, e, m, P_ADI);
    }
    for (unsigned i = 0; i < c->n_sms; i++) apply(c, e, i);
}

/* One period of machine m with its IPC sample and resident warps. */
static void iacm_sm_epoch(const iacm_ctl *c, const ws_throttle_epoch *e, iacm_sm *m, double ipc,
                          unsigned warps) {
    m->cycles[m->phase] += e->cycles;
    ws_awl_see_warps(&m->a, warps);
    int next = m->phase;
    switch (m->phase) {
    case P_ADI: {
        uint64_t sel = 0;
        bool sync = selections(c, e, m, &sel);
        bool sample = !sync || m->armed;
        m->armed = sync && sel != m->sel_seen;
        m->sel_seen = sel;
        if (!sample) break;
        if (sync) restart(c, e, m);
        bool within = m->adi_prev > 0 && fabs(ipc - m->adi_prev) <= c->p.eadi * m->adi_prev;
        m->adi_prev = ipc;
        if (within && m->a.nt) next = P_AWL;
        break;
    }
    case P_AWL: {
        ws_awl_result r = ws_awl_step(&m->a, ipc, c->p.ew);
        if (r != WS_AWL_SEARCHING) next = r == WS_AWL_SETTLED ? P_IDLE : P_ADI;
        break;
    }
    default:
        if (ws_awl_idle_step(&m->idle, ipc, c->p.ei)) next = P_ADI;
        break;
    }
    if (next != m->phase) enter(c, e, m, next);
}

static void iacm_ctl_epoch(void *ctl, const ws_throttle_epoch *e) {
    iacm_ctl *c = ctl;
    if (c->p.gpu) {
        double ipc;
        unsigned warps;
        ws_awl_gpu_sample(e, &ipc, &warps);
        iacm_sm_epoch(c, e, &c->sm[0], ipc, warps);
    } else {
        for (unsigned i = 0; i < c->n_sms; i++) {
            double ipc = e->cycles ? (double)e->sm[i].thread_insts / (double)e->cycles : 0;
            iacm_sm_epoch(c, e, &c->sm[i], ipc, e->sm[i].warps);
        }
    }
    for (unsigned i = 0; i < c->n_sms; i++) apply(c, e, i);
}

static unsigned iacm_ctl_stats(const void *ctl, ws_throttle_stat *out, unsigned max) {
    const iacm_ctl *c = ctl;
    if (max < 5) return 0;
    double lim = 0, cyc[P_N] = {0};
    unsigned searches = 0, ran = 0, machines = c->p.gpu ? 1 : c->n_sms;
    for (unsigned i = 0; i < machines; i++) {
        lim += ws_awl_sched_limit(&c->sm[i].a, c->n_sched);
        ran += c->sm[i].a.nt != 0;
        searches += c->sm[i].a.searches;
        for (int p = 0; p < P_N; p++) cyc[p] += (double)c->sm[i].cycles[p];
    }
    double n = machines ? machines : 1;
    /* mean per-scheduler limit at the end over the SMs that ran warps for a full period, AWL
       searches finished, and the mean cycles an SM spent in each phase (full periods) */
    out[0] = (ws_throttle_stat){"warpsim_throttle_limit", ran ? lim / ran : 0, true};
    out[1] = (ws_throttle_stat){"warpsim_throttle_searches", searches, false};
    out[2] = (ws_throttle_stat){"warpsim_iacm_adi_cycles", cyc[P_ADI] / n, true};
    out[3] = (ws_throttle_stat){"warpsim_iacm_awl_cycles", cyc[P_AWL] / n, true};
    out[4] = (ws_throttle_stat){"warpsim_iacm_idle_cycles", cyc[P_IDLE] / n, true};
    return 5;
}

const ws_throttle_policy ws_throttle_iacm = {
    .name = "iacm",
    .doc = "IACM's phases per SM: adaptive L1D indexing, then AWL, then idle "
           "(with -l1d_index adi -l1d_bypass pd)",
    .params = ws_awl_param_defs,
    .nparams = 6,
    .create = ws_limit_create,
    .destroy = free,
    .filter = ws_limit_filter,
    .kernel_start = ws_limit_kernel_start,
    .limit = ws_limit_get,
    .ctl_create = iacm_ctl_create,
    .ctl_destroy = iacm_ctl_destroy,
    .ctl_period = iacm_ctl_period,
    .ctl_kernel_start = iacm_ctl_kernel_start,
    .ctl_epoch = iacm_ctl_epoch,
    .ctl_stats = iacm_ctl_stats,
};
