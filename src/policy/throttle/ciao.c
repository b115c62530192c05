/* CIAO (Zhang, Gao, Kim and Jung, IPDPS 2018) as throttle policies:
 *   ciao_p  isolation only: a warp that interferes is moved to the
 *           shared-memory cache (its global/local reads leave the L1D);
 *   ciao_t  throttling only: a warp that interferes is stalled;
 *   ciao_c  both: isolate first, stall a warp that still interferes while
 *           isolated.
 * The decisions are the interference detector's (ciao_detect.c): its VTA is
 * fed by the L1D's and the shared-memory cache's evictions and misses, its
 * epochs by the SM's issued warp instructions. The per-scheduler filter
 * keeps stalled warps (V=0) from issuing anything.
 * Deadlock guard (the paper is silent; its benchmarks use barriers): a
 * stalled warp whose CTA has a warp at a barrier is made active again (its
 * CTA-mates wait for it), and so is every stalled warp when no unstalled
 * warp of the SM can issue, or when the SM issued nothing for `guard`
 * cycles. Parameters: ciao_params. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/throttle/ciao.h"
#include "policy/throttle/ciao_detect.h"
#include "stats/report.h"

enum { MAX_CTAS = 256 };

typedef struct ciao_sm {
    ws_ciao_det *det;
    unsigned n, mode;
    uint64_t guard;
    uint64_t *age;              /* the warp in each slot (a new one resets its state) */
    uint8_t *live, *wait, *bar, *cta;
    uint8_t *seen;              /* per slot: the view flags last looked at (valid, wait, bar) */
    uint16_t cta_bar[MAX_CTAS]; /* warps at a barrier per CTA slot */
    uint64_t insts, last_issue; /* warp instructions so far; cycle of the last issue */
    /* counts over the slots, recomputed only when the detector or the views changed */
    uint64_t seen_version;
    bool views_changed;
    unsigned n_iso, n_stalled, n_live, n_issuable;
    /* per kernel: sums over the SM's cycles (time averages), and the cycles */
    uint64_t iso_sum, stall_sum, active_sum, cycles;
    const ws_smc_counts *smc;   /* the SM's shared-memory cache, if it has one */
    ws_smc_counts smc0;         /* its counts when the kernel started */
} ciao_sm;

typedef struct ciao_sched {
    ciao_sm *sm;
} ciao_sched;

static const ws_param_def ciao_params[] = {
    WS_INT("high_epoch", "5000", 100, 1000000, "warp instructions per high-cut-off epoch "
           "(isolate or stall the top interferer of warps whose IRS passed the high cut-off)"),
    WS_INT("low_epoch", "100", 10, 100000, "warp instructions per low-cut-off epoch (undo "
           "actions whose trigger's IRS fell under the low cut-off); at most high_epoch"),
    WS_DOUBLE("high", "0.01", 1e-5, 1, "high cut-off of the IRS (VTA hits per average per-warp "
              "instruction; 0.01 = 1 %)"),
    WS_DOUBLE("low", "0.5", 0.01, 0.99, "low cut-off of the IRS as a fraction of high (the "
              "paper keeps it at half)"),
    WS_INT("vta", "8", 1, 64, "victim tags per warp slot (FIFO)"),
    WS_BOOL("lifo", "0", "reactivate only the most recently stalled warp per low epoch"),
    WS_ENUM("window", "kernel", "kernel|epoch",
            "IRS counts since the kernel started, or since the last high epoch"),
    WS_INT("guard", "1000", 0, 1000000000, "cycles without any issue on the SM after which "
           "every stalled warp is made active (0: never)"),
};

static int parse(ws_params *p, unsigned mode, ws_ciao_cfg *c, uint64_t *guard, char *err,
                 size_t errlen) {
    *c = (ws_ciao_cfg){.mode = mode,
                       .vta_ways = (unsigned)ws_param_int(p, "vta"),
                       .low_epoch = (unsigned)ws_param_int(p, "low_epoch"),
                       .high_epoch = (unsigned)ws_param_int(p, "high_epoch"),
                       .high_cut = ws_param_double(p, "high"),
                       .low_cut = ws_param_double(p, "low") * ws_param_double(p, "high"),
                       .lifo = ws_param_bool(p, "lifo"),
                       .window_epoch = ws_param_enum(p, "window") == 1};
    *guard = (uint64_t)ws_param_int(p, "guard");
    if (c->low_epoch > c->high_epoch) {
        snprintf(err, errlen, "-warpsim_throttle %s: low_epoch (%u) must be at most high_epoch (%u)",
                 p->policy.name, c->low_epoch, c->high_epoch);
        return -1;
    }
    return 0;
}

static unsigned mode_of(const char *name) {
    return !strcmp(name, "ciao_p")   ? WS_CIAO_ISOLATE
           : !strcmp(name, "ciao_t") ? WS_CIAO_STALL
                                     : WS_CIAO_ISOLATE | WS_CIAO_STALL;
}

/* ---- per-scheduler part ---------------------------------------------------------- */
static void *ciao_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    ws_ciao_cfg c;
    uint64_t g;
    if (parse(p, mode_of(p->policy.name), &c, &g, err, errlen)) return NULL;
    return calloc(1, sizeof(ciao_sched));
}

static void ciao_attach(void *st, void *sm, unsigned id) {
    (void)id;
    ((ciao_sched *)st)->sm = sm;
}

static void ciao_kernel_start(void *st) {
    ciao_sm *m = ((ciao_sched *)st)->sm;
    if (!m) return;
    ws_ciao_det_kernel_start(m->det);
    memset(m->live, 0, m->n);
    memset(m->wait, 0, m->n);
    memset(m->bar, 0, m->n);
    memset(m->seen, 0, m->n);
    memset(m->cta_bar, 0, sizeof m->cta_bar);
    for (unsigned i = 0; i < m->n; i++) m->age[i] = UINT64_MAX;
    m->iso_sum = m->stall_sum = m->active_sum = m->cycles = 0;
    m->views_changed = true;
    if (m->smc) m->smc0 = *m->smc;
}

/* A warp of CTA slot c waits at a barrier: its stalled CTA-mates (of any
   scheduler) must run, or the CTA never passes it. */
static void release_cta(ciao_sm *m, unsigned c) {
    for (unsigned t = 0; t < m->n; t++)
        if (m->live[t] && m->cta[t] == c && ws_ciao_det_stalled(m->det, t))
            ws_ciao_det_force_active(m->det, (int)t);
}

static void ciao_filter(void *st, ws_sched_warp *w, unsigned n) {
    ciao_sm *m = ((ciao_sched *)st)->sm;
    if (!m) return;
    for (unsigned i = 0; i < n; i++) {
        unsigned s = w[i].slot;
        if (s >= m->n) continue;
        uint8_t f = (uint8_t)(w[i].valid | w[i].waiting << 1 | w[i].at_bar << 2);
        if (f == m->seen[s] && w[i].age == m->age[s] && w[i].cta == m->cta[s])
            continue; /* nothing new (most views, most cycles) */
        m->seen[s] = f;
        if (m->bar[s]) m->cta_bar[m->cta[s]]--;
        if (w[i].valid && w[i].age != m->age[s]) {
            m->age[s] = w[i].age;
            ws_ciao_det_warp_start(m->det, s, w[i].age);
        } else if (!w[i].valid && m->live[s]) {
            ws_ciao_det_warp_end(m->det, s);
        }
        if (!w[i].valid) m->age[s] = w[i].age; /* a later warp has another age */
        uint8_t wait = w[i].valid && w[i].waiting;
        m->views_changed |= m->live[s] != w[i].valid || m->wait[s] != wait;
        m->live[s] = w[i].valid;
        m->wait[s] = wait;
        m->cta[s] = w[i].cta;
        bool arrived = w[i].valid && w[i].at_bar && !m->bar[s];
        m->bar[s] = w[i].valid && w[i].at_bar;
        if (m->bar[s]) m->cta_bar[m->cta[s]]++;
        if (arrived) release_cta(m, m->cta[s]);
    }
    bool any = ws_ciao_det_n_stalled(m->det) > 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned s = w[i].slot;
        w[i].throttled = 0;
        if (!any || s >= m->n || !w[i].valid || !ws_ciao_det_stalled(m->det, s)) continue;
        if (m->cta_bar[m->cta[s]]) { /* stalled while CTA-mates wait at a barrier */
            ws_ciao_det_force_active(m->det, (int)s);
            continue;
        }
        w[i].throttled = 1;
    }
}

/* ---- per-SM part -------------------------------------------------------------------- */
static void sm_destroy(void *p) {
    ciao_sm *m = p;
    if (!m) return;
    ws_ciao_det_destroy(m->det);
    free(m->age);
    free(m->live);
    free(m->wait);
    free(m->bar);
    free(m->cta);
    free(m->seen);
    free(m);
}

static void *sm_create_mode(ws_params *p, unsigned n_warps, char *err, size_t errlen) {
    ciao_sm *m = calloc(1, sizeof *m);
    ws_ciao_cfg c;
    if (!m || parse(p, mode_of(p->policy.name), &c, &m->guard, err, errlen)) {
        free(m);
        return NULL;
    }
    m->n = n_warps;
    m->mode = c.mode;
    m->det = ws_ciao_det_create(&c, n_warps);
    m->age = calloc(n_warps, sizeof *m->age);
    m->live = calloc(n_warps, 1);
    m->wait = calloc(n_warps, 1);
    m->bar = calloc(n_warps, 1);
    m->cta = calloc(n_warps, 1);
    m->seen = calloc(n_warps, 1);
    if (!m->det || !m->age || !m->live || !m->wait || !m->bar || !m->cta || !m->seen) {
        sm_destroy(m);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    for (unsigned i = 0; i < n_warps; i++) m->age[i] = UINT64_MAX;
    return m;
}

static void *sm_create(ws_params *p, unsigned n_warps, unsigned l1d_line, char *err,
                       size_t errlen) {
    (void)l1d_line;
    return sm_create_mode(p, n_warps, err, errlen);
}

static void count(ciao_sm *m) {
    m->n_iso = m->n_stalled = m->n_live = m->n_issuable = 0;
    for (unsigned s = 0; s < m->n; s++) {
        if (!m->live[s]) continue;
        bool st = ws_ciao_det_stalled(m->det, s);
        m->n_live++;
        m->n_stalled += st;
        m->n_iso += ws_ciao_det_isolated(m->det, s);
        m->n_issuable += !st && !m->wait[s];
    }
    m->seen_version = ws_ciao_det_version(m->det);
    m->views_changed = false;
}

static void sm_cycle(void *p, uint64_t now, uint64_t warp_insts) {
    ciao_sm *m = p;
    if (warp_insts != m->insts || !m->last_issue) {
        ws_ciao_det_issued(m->det, warp_insts - m->insts);
        m->insts = warp_insts;
        m->last_issue = now;
    }
    if (ws_ciao_det_version(m->det) != m->seen_version || m->views_changed) count(m);
    /* never leave the SM with nothing that may issue */
    if (m->n_stalled && (!m->n_issuable || (m->guard && now - m->last_issue >= m->guard))) {
        ws_ciao_det_force_active(m->det, -1);
        m->last_issue = now;
        count(m);
    }
    m->iso_sum += m->n_iso;
    m->stall_sum += m->n_stalled;
    m->active_sum += m->n_live - m->n_stalled;
    m->cycles++;
}

static void sm_evict(void *p, uint64_t block, uint16_t owner, uint16_t evictor) {
    ws_ciao_det_evict(((ciao_sm *)p)->det, block, owner, evictor);
}

static void sm_read_miss(void *p, uint16_t warp, uint64_t block) {
    ws_ciao_det_miss(((ciao_sm *)p)->det, warp, block);
}

static uint8_t sm_route(const void *p, uint16_t warp) {
    const ciao_sm *m = p;
    return ws_ciao_det_isolated(m->det, warp) ? WS_ROUTE_SMC : WS_ROUTE_L1D;
}

static void sm_warps(const void *p, ws_throttle_sm_warps *out) {
    const ciao_sm *m = p;
    out->isolated = ws_ciao_det_n_isolated(m->det);
    out->stalled = ws_ciao_det_n_stalled(m->det);
}

static uint64_t sm_version(const void *p) { return ws_ciao_det_version(((const ciao_sm *)p)->det); }

static void sm_bind_smc(void *p, const ws_smc_counts *c) { ((ciao_sm *)p)->smc = c; }

const ws_ciao_det *ws_ciao_detector(const void *sm) { return ((const ciao_sm *)sm)->det; }

/* ---- GPU-wide part: only the report (what the SMs' detectors did) ------------------ */
typedef struct ciao_ctl {
    unsigned n_sms, n_sched;
    ciao_sm **sm;
} ciao_ctl;

static void ctl_destroy(void *p) {
    ciao_ctl *c = p;
    if (!c) return;
    free(c->sm);
    free(c);
}

static void *ctl_create(ws_params *p, unsigned n_sms, unsigned n_sched, char *err, size_t errlen) {
    ws_ciao_cfg cfg;
    uint64_t g;
    if (parse(p, mode_of(p->policy.name), &cfg, &g, err, errlen)) return NULL;
    ciao_ctl *c = calloc(1, sizeof *c);
    if (c) c->sm = calloc(n_sms, sizeof *c->sm);
    if (!c || !c->sm) {
        ctl_destroy(c);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    c->n_sms = n_sms;
    c->n_sched = n_sched;
    return c;
}

static uint64_t ctl_period(const void *c) {
    (void)c;
    return 0; /* no periods: the SMs decide */
}

static void ctl_kernel_start(void *p, const ws_throttle_epoch *e) {
    ciao_ctl *c = p;
    for (unsigned i = 0; i < c->n_sms && i < e->n_sms; i++) {
        const ciao_sched *s = e->sched[(size_t)i * e->n_sched];
        c->sm[i] = s ? s->sm : NULL;
    }
}

static void ctl_epoch(void *c, const ws_throttle_epoch *e) {
    (void)c;
    (void)e;
}

static unsigned ctl_stats(const void *p, ws_throttle_stat *out, unsigned max) {
    const ciao_ctl *c = p;
    ws_ciao_counts t = {0};
    uint64_t iso = 0, stall = 0, act = 0, cyc = 0, top = 0;
    ws_smc_counts sc = {0};
    uint64_t lines = 0, n_smc = 0;
    for (unsigned i = 0; i < c->n_sms; i++) {
        const ciao_sm *m = c->sm[i];
        if (!m) continue;
        const ws_ciao_counts *k = ws_ciao_det_counts(m->det);
        t.vta_hits += k->vta_hits;
        t.isolations += k->isolations;
        t.deisolations += k->deisolations;
        t.stalls += k->stalls;
        t.reactivations += k->reactivations;
        t.forced += k->forced;
        if (m->smc) {
            sc.hits += m->smc->hits - m->smc0.hits;
            sc.misses += m->smc->misses - m->smc0.misses;
            sc.fills += m->smc->fills - m->smc0.fills;
            sc.flushes += m->smc->flushes - m->smc0.flushes;
            sc.migrations += m->smc->migrations - m->smc0.migrations;
            sc.mshr_waits += m->smc->mshr_waits - m->smc0.mshr_waits;
            lines += m->smc->lines;
            n_smc += m->smc->lines > 0; /* SMs that ran no CTA have none */
        }
        iso += m->iso_sum;
        stall += m->stall_sum;
        act += m->active_sum;
        cyc += m->cycles;
        /* events of each victim's most frequent interferer */
        for (unsigned v = 0; v < m->n; v++) {
            uint32_t best = 0;
            for (unsigned e = 0; e < m->n; e++) {
                uint32_t x = ws_ciao_det_pair_events(m->det, e, v);
                if (x > best) best = x;
            }
            top += best;
        }
    }
    double dc = cyc ? (double)cyc : 1;
    const ws_throttle_stat all[] = {
        {"warpsim_ciao_vta_hits", (double)t.vta_hits, false},
        {"warpsim_ciao_isolations", (double)t.isolations, false},
        {"warpsim_ciao_deisolations", (double)t.deisolations, false},
        {"warpsim_ciao_stalls", (double)t.stalls, false},
        {"warpsim_ciao_reactivations", (double)(t.reactivations + t.forced), false},
        {"warpsim_ciao_forced_reactivations", (double)t.forced, false},
        {"warpsim_ciao_top_interferer_share", t.vta_hits ? (double)top / (double)t.vta_hits : 0,
         true},
        {"warpsim_ciao_isolated_warps", (double)iso / dc, true},
        {"warpsim_ciao_stalled_warps", (double)stall / dc, true},
        {"warpsim_ciao_active_warps", (double)act / dc, true},
        {"warpsim_smc_hits", (double)sc.hits, false},
        {"warpsim_smc_misses", (double)sc.misses, false},
        {"warpsim_smc_fills", (double)sc.fills, false},
        {"warpsim_smc_flushes", (double)sc.flushes, false},
        {"warpsim_smc_migrations", (double)sc.migrations, false},
        {"warpsim_smc_mshr_waits", (double)sc.mshr_waits, false},
        {"warpsim_smc_lines", n_smc ? (double)lines / (double)n_smc : 0, true},
    };
    unsigned n = 0;
    for (; n < max && n < sizeof all / sizeof all[0]; n++) out[n] = all[n];
    return n;
}

/* The interference pairs of each SM (interferer>victim:events), largest
   first, as the paper's per-warp interference histograms. */
static void ctl_lines(const void *p, struct ws_kernel_stats *ks) {
    const ciao_ctl *c = p;
    enum { TOP = 12 };
    for (unsigned i = 0; i < c->n_sms; i++) {
        const ciao_sm *m = c->sm[i];
        if (!m) continue;
        uint32_t best[TOP] = {0};
        unsigned be[TOP] = {0}, bv[TOP] = {0}, nb = 0;
        for (unsigned e = 0; e < m->n; e++)
            for (unsigned v = 0; v < m->n; v++) {
                uint32_t x = ws_ciao_det_pair_events(m->det, e, v);
                if (!x || (nb == TOP && x <= best[TOP - 1])) continue;
                unsigned j = nb < TOP ? nb++ : TOP - 1;
                while (j > 0 && best[j - 1] < x) {
                    best[j] = best[j - 1];
                    be[j] = be[j - 1];
                    bv[j] = bv[j - 1];
                    j--;
                }
                best[j] = x;
                be[j] = e;
                bv[j] = v;
            }
        if (!nb) continue;
        char line[512];
        int k = snprintf(line, sizeof line, "ciao_interference_pairs[%u] =", i);
        for (unsigned j = 0; j < nb && k > 0 && (size_t)k < sizeof line; j++)
            k += snprintf(line + k, sizeof line - (size_t)k, " %u>%u:%u", be[j], bv[j], best[j]);
        ws_kstats_add_line(ks, "%s", line);
    }
}

#define CIAO_POLICY(NAME, DOC, SMC)                                                           \
    {                                                                                         \
        .name = NAME, .doc = DOC, .params = ciao_params,                                      \
        .nparams = sizeof ciao_params / sizeof ciao_params[0], .create = ciao_create,         \
        .destroy = free, .filter = ciao_filter, .kernel_start = ciao_kernel_start,            \
        .ctl_create = ctl_create, .ctl_destroy = ctl_destroy, .ctl_period = ctl_period,       \
        .ctl_kernel_start = ctl_kernel_start, .ctl_epoch = ctl_epoch, .ctl_stats = ctl_stats, \
        .sm_create = sm_create, .sm_destroy = sm_destroy, .sm_attach = ciao_attach,           \
        .sm_cycle = sm_cycle, .l1d_read_miss = sm_read_miss, .l1d_evict = sm_evict,           \
        .l1d_route = SMC ? sm_route : NULL, .wants_smem_cache = SMC, .sm_warps = sm_warps,    \
        .ctl_lines = ctl_lines, .sm_bind_smc = SMC ? sm_bind_smc : NULL,                      \
        .sm_version = sm_version,                                                             \
    }

const ws_throttle_policy ws_throttle_ciao_p =
    CIAO_POLICY("ciao_p", "CIAO-P: warps that interfere most in the L1D are isolated in a cache "
                          "in unused shared memory", 1);
const ws_throttle_policy ws_throttle_ciao_t =
    CIAO_POLICY("ciao_t", "CIAO-T: warps that interfere most in the L1D are stalled", 0);
const ws_throttle_policy ws_throttle_ciao_c =
    CIAO_POLICY("ciao_c", "CIAO-C: isolate interfering warps in shared memory; stall those that "
                          "still interfere there", 1);
