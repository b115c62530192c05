/* statPCAL, the static variant of priority-based cache allocation (Li et
 * al., "Priority-Based Cache Allocation in Throughput Processors", HPCA
 * 2015), as the CIAO paper uses it for comparison: the `tokens` oldest
 * warps of each scheduler hold tokens and use the L1D as usual; the other
 * warps run only while the memory system has bandwidth to spare (DRAM
 * data-bus utilisation over the last period under `util`), and then their
 * global/local reads bypass the L1D, so that they cannot evict the token
 * holders' lines. With bandwidth scarce they are throttled like swl's.
 * Chosen here: tokens are counted per scheduler as swl's limit (the paper's
 * per-SM N_warp is twice that with two schedulers); the decision is
 * GPU-wide, once per period; warps waiting at a barrier hold no token (as
 * in swl). Parameters: statpcal_params. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/throttle/limit.h"

typedef struct pcal_sm {
    unsigned n;
    uint8_t *bypass; /* per slot: a non-token warp (its reads bypass the L1D) */
} pcal_sm;

typedef struct pcal_sched {
    unsigned tokens, slots;
    bool open;       /* bandwidth to spare: non-token warps run */
    pcal_sm *sm;
} pcal_sched;

typedef struct pcal_ctl {
    uint64_t period;
    double util;
    unsigned opened, periods;
} pcal_ctl;

static const ws_param_def statpcal_params[] = {
    WS_INT("tokens", "1", 1, 1024, "token warps per scheduler (its oldest): they allocate in the L1D"),
    WS_DOUBLE("util", "0.5", 0, 1, "DRAM data-bus utilisation under which the non-token warps run "
              "(bypassing the L1D)"),
    WS_INT("period", "10000", 100, 1e9, "core cycles per utilisation measurement"),
};

static void *pcal_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    pcal_sched *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    s->tokens = (unsigned)ws_param_int(p, "tokens");
    s->slots = n;
    (void)ws_param_double(p, "util");
    (void)ws_param_int(p, "period");
    return s;
}

static void pcal_attach(void *st, void *sm, unsigned id) {
    (void)id;
    ((pcal_sched *)st)->sm = sm;
}

static void pcal_kernel_start(void *st) { ((pcal_sched *)st)->open = false; }

static void pcal_filter(void *st, ws_sched_warp *w, unsigned n) {
    pcal_sched *s = st;
    ws_throttle_limit_filter(w, n, s->tokens);
    for (unsigned i = 0; i < n; i++) {
        if (s->sm && w[i].slot < s->sm->n) s->sm->bypass[w[i].slot] = w[i].throttled;
        if (s->open) w[i].throttled = 0;
    }
}

/* Warps that may issue now (the time series' warp limit). */
static unsigned pcal_limit(const void *st) {
    const pcal_sched *s = st;
    return s->open ? s->slots : s->tokens;
}

static void *sm_create(ws_params *p, unsigned n_warps, unsigned l1d_line, char *err,
                       size_t errlen) {
    (void)p;
    (void)l1d_line;
    pcal_sm *m = calloc(1, sizeof *m);
    if (m) m->bypass = calloc(n_warps, 1);
    if (!m || !m->bypass) {
        if (m) free(m);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    m->n = n_warps;
    return m;
}

static void sm_destroy(void *p) {
    pcal_sm *m = p;
    if (!m) return;
    free(m->bypass);
    free(m);
}

static uint8_t sm_route(const void *p, uint16_t warp) {
    const pcal_sm *m = p;
    return warp < m->n && m->bypass[warp] ? WS_ROUTE_BYPASS : WS_ROUTE_L1D;
}

static void *ctl_create(ws_params *p, unsigned n_sms, unsigned n_sched, char *err, size_t errlen) {
    (void)n_sms;
    (void)n_sched;
    pcal_ctl *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    (void)ws_param_int(p, "tokens");
    c->period = (uint64_t)ws_param_int(p, "period");
    c->util = ws_param_double(p, "util");
    return c;
}

static uint64_t ctl_period(const void *c) { return ((const pcal_ctl *)c)->period; }

static void ctl_kernel_start(void *p, const ws_throttle_epoch *e) {
    pcal_ctl *c = p;
    c->opened = c->periods = 0;
    (void)e;
}

static void ctl_epoch(void *p, const ws_throttle_epoch *e) {
    pcal_ctl *c = p;
    bool open = e->dram_util < c->util;
    c->periods++;
    c->opened += open;
    for (unsigned i = 0; i < e->n_sms * e->n_sched; i++)
        if (e->sched[i]) ((pcal_sched *)e->sched[i])->open = open;
}

static unsigned ctl_stats(const void *p, ws_throttle_stat *out, unsigned max) {
    const pcal_ctl *c = p;
    if (!max) return 0;
    out[0] = (ws_throttle_stat){"warpsim_pcal_open_share",
                                c->periods ? (double)c->opened / c->periods : 0, true};
    return 1;
}

const ws_throttle_policy ws_throttle_statpcal = {
    .name = "statpcal",
    .doc = "static priority-based cache allocation: token warps use the L1D; the others run, "
           "bypassing it, only while DRAM bandwidth is under-used",
    .params = statpcal_params,
    .nparams = sizeof statpcal_params / sizeof statpcal_params[0],
    .create = pcal_create,
    .destroy = free,
    .filter = pcal_filter,
    .kernel_start = pcal_kernel_start,
    .limit = pcal_limit,
    .ctl_create = ctl_create,
    .ctl_destroy = free,
    .ctl_period = ctl_period,
    .ctl_kernel_start = ctl_kernel_start,
    .ctl_epoch = ctl_epoch,
    .ctl_stats = ctl_stats,
    .sm_create = sm_create,
    .sm_destroy = sm_destroy,
    .sm_attach = pcal_attach,
    .l1d_route = sm_route,
};
