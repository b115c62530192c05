/* AWL, IACM's adaptive warp limiting alone (seed 003 §2.4 Alg. 1-5, with
 * the spec's [choice]s and its §7 10-13 fixes). Per SM, every CP (6250)
 * cycles, IPC = committed thread instructions / CP:
 *  - search: binary (halve NC while IPC rises; if the first halving hurt,
 *    try doubling from the start), then linear (±1 from the better
 *    bracket end) for the active-warp limit NC of the SM;
 *  - when the search ends with NC within εW (25%) of the previous optimum
 *    NP, idle (Alg. 5); if it moved further, search again from NC (in IACM
 *    the ADI phase comes in between; alone, the next phase is AWL again);
 *  - idle: search again when the IPC changes by more than εI (25%) from the
 *    previous idle period.
 * Choices: NT is the SM's resident warp count at the end of the first
 * period with warps (occupancy-limited, §7 16); that first period ran
 * unthrottled, which is NC = NT, so its IPC is the search's first sample.
 * NP starts at NT. Periods are exactly CP cycles (Alg. 1's "> CP" would be
 * CP+1). The binary step back reverts to the previous count (the printed
 * 2·NC is the same for even counts). NC is enforced per scheduler as
 * ceil(NC / schedulers) oldest warps: the spec splits NC over the
 * schedulers by global age rank, which a per-scheduler filter cannot see;
 * with ceil, odd NC gives one warp more than NC in total.
 * Two options beyond the spec (off by default): tie=f, a sample less than
 * f below the search path's best IPC still counts as better, so a search
 * walks across a plateau to a cliff beyond it; gpu=1, one search for the
 * whole GPU on the mean IPC per SM, whose sample is ~n_sms times larger and
 * is not biased by the SMs sharing DRAM bandwidth (docs/policies.md).
 * Parameters: the first 5 of ws_awl_param_defs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "policy/throttle/awl.h"
#include "policy/throttle/limit.h"

void ws_awl_kernel_start(ws_awl *a, double tie) {
    *a = (ws_awl){.kernel_init = true, .tie = tie};
}

/* Alg. 2-3's "IPCprev < IPCcurr", with the tie tolerance; the path's best
   IPC is kept so that ties cannot drift downwards step by step. */
static bool better(ws_awl *a, double ipc) {
    if (!(ipc > a->ipc_prev * (1.0 - a->tie))) return false;
    if (ipc > a->ipc_prev) a->ipc_prev = ipc;
    return true;
}

void ws_awl_see_warps(ws_awl *a, unsigned warps) {
    if (!a->nt && warps) a->nt = a->np = a->nc = warps;
}

/* Alg. 4 (changePhase). */
static ws_awl_result change_phase(ws_awl *a, double ew) {
    unsigned d = a->nc > a->np ? a->nc - a->np : a->np - a->nc;
    bool near = d <= ew * a->np;
    a->np = a->nc;
    a->searches++;
    return near ? WS_AWL_SETTLED : WS_AWL_MOVED;
}

ws_awl_result ws_awl_begin(ws_awl *a, double ew) {
    if (a->nt <= 1) {
        a->nc = 1;
        return change_phase(a, ew);
    }
    if (a->kernel_init) a->nc = a->nt;
    a->kernel_init = false;
    a->up = a->nc == 1;
    a->linear = false;
    a->ipc_prev = 0;
    a->ns = a->last = a->nc;
    return WS_AWL_SEARCHING;
}

/* getNextWarpCount, clamped to 1..NT. */
static unsigned next_count(const ws_awl *a) {
    unsigned n = a->linear ? (a->up ? a->nc + 1 : a->nc - 1) : (a->up ? 2 * a->nc : a->nc / 2);
    return n < 1 ? 1 : n > a->nt ? a->nt : n;
}

/* Alg. 2. */
static ws_awl_result binary_step(ws_awl *a, double ipc, double ew) {
    if (better(a, ipc)) {
        if ((!a->up && a->nc == 1) || (a->up && a->nc >= a->nt)) return change_phase(a, ew);
        a->last = a->nc;
        a->nc = next_count(a);
        return WS_AWL_SEARCHING;
    }
    a->ipc_prev = 0;
    if (a->nc == a->ns / 2) { /* the very first halving hurt: try upwards from the start */
        a->up = true;
        a->nc = a->ns;
    } else {
        if (!a->up) a->nc = a->last; /* back to the last good count */
        a->ns = a->nc;
        a->up = false;
        a->linear = true;
    }
    return WS_AWL_SEARCHING;
}

/* Alg. 3 (bounds per direction, §7 12). */
static ws_awl_result linear_step(ws_awl *a, double ipc, double ew) {
    if (better(a, ipc)) {
        bool room = a->up ? a->nc < a->nt : a->nc > 1;
        if (a->nc != a->ns / 2 && a->nc != 2 * a->ns && room) {
            a->nc = next_count(a);
            return WS_AWL_SEARCHING;
        }
        return change_phase(a, ew);
    }
    a->ipc_prev = 0;
    if (a->nc == a->ns - 1) { /* the first decrement hurt: search upwards from NS */
        a->nc = a->ns;
        a->up = true;
        return WS_AWL_SEARCHING;
    }
    a->nc = a->up ? a->nc - 1 : a->nc + 1; /* undo the last step */
    return change_phase(a, ew);
}

ws_awl_result ws_awl_step(ws_awl *a, double ipc, double ew) {
    if (a->nt <= 1) {
        a->nc = 1;
        return change_phase(a, ew);
    }
    return a->linear ? linear_step(a, ipc, ew) : binary_step(a, ipc, ew);
}

bool ws_awl_idle_step(ws_awl_idle *s, double ipc, double ei) {
    if (s->init) {
        s->init = false;
        s->ipc_prev = ipc;
        return false;
    }
    bool jump = fabs(ipc - s->ipc_prev) > ei * s->ipc_prev;
    s->ipc_prev = ipc;
    s->init = jump;
    return jump;
}

unsigned ws_awl_sched_limit(const ws_awl *a, unsigned n_sched) {
    return a->nt ? (a->nc + n_sched - 1) / n_sched : 0;
}

/* ---- the policy: AWL and idle phases per SM ---- */
typedef struct {
    ws_awl a;
    ws_awl_idle idle;
    bool idling;
} awl_sm;

const ws_param_def ws_awl_param_defs[6] = {
    WS_INT("cp", "6250", 1, 1e12, "core cycles per period (IPC sample)"),
    WS_DOUBLE("ew", "0.25", 0, 1e6, "a search ending within ew x NP of the last optimum NP idles"),
    WS_DOUBLE("ei", "0.25", 0, 1e6, "idle ends when IPC changes by more than ei x the last IPC"),
    WS_DOUBLE("tie", "0", 0, 0x1.fffffffffffffp-1, /* [0, 1) */
              "a sample less than tie below the search path's best IPC still counts as better"),
    WS_BOOL("gpu", "0", "one search for the whole GPU on the mean IPC per SM"),
    WS_DOUBLE("eadi", "0.25", 0, 1e6, "the ADI phase ends when a sample is within eadi of the "
              "last"),
};

void *ws_awl_ctl_parts(ws_params *prm, bool with_eadi, unsigned n_sms, size_t sm_size,
                       ws_awl_params *p, char *err, size_t errlen) {
    *p = (ws_awl_params){
        .cp = (uint64_t)ws_param_int(prm, "cp"),
        .ew = ws_param_double(prm, "ew"),
        .ei = ws_param_double(prm, "ei"),
        .eadi = with_eadi ? ws_param_double(prm, "eadi") : 0.25,
        .tie = ws_param_double(prm, "tie"),
        .gpu = ws_param_bool(prm, "gpu"),
    };
    void *sm = calloc(n_sms ? n_sms : 1, sm_size);
    if (!sm) snprintf(err, errlen, "out of host memory");
    return sm;
}

typedef struct {
    ws_awl_params p;   /* p.gpu: one search for the whole GPU on its mean IPC per SM (sm[0]) */
    unsigned n_sms, n_sched;
    awl_sm *sm;
} awl_ctl;

static void *awl_ctl_create(ws_params *p, unsigned n_sms, unsigned n_sched, char *err,
                            size_t errlen) {
    awl_ctl *c = calloc(1, sizeof *c);
    if (!c) snprintf(err, errlen, "out of host memory");
    if (!c || !(c->sm = ws_awl_ctl_parts(p, false, n_sms, sizeof *c->sm, &c->p, err, errlen))) {
        free(c);
        return NULL;
    }
    c->n_sms = n_sms;
    c->n_sched = n_sched;
    return c;
}

static void awl_ctl_destroy(void *ctl) {
    awl_ctl *c = ctl;
    free(c->sm);
    free(c);
}

static uint64_t awl_ctl_period(const void *ctl) { return ((const awl_ctl *)ctl)->p.cp; }

/* The state that decides for SM i. */
static awl_sm *state(const awl_ctl *c, unsigned i) { return &c->sm[c->p.gpu ? 0 : i]; }

static void apply(const awl_ctl *c, const ws_throttle_epoch *e, unsigned i) {
    for (unsigned s = 0; s < c->n_sched; s++)
        ws_limit_set(e->sched[i * c->n_sched + s], ws_awl_sched_limit(&state(c, i)->a, c->n_sched));
}

static void awl_ctl_kernel_start(void *ctl, const ws_throttle_epoch *e) {
    awl_ctl *c = ctl;
    for (unsigned i = 0; i < c->n_sms; i++) {
        ws_awl_kernel_start(&c->sm[i].a, c->p.tie);
        c->sm[i].idling = false;
        apply(c, e, i);
    }
}

/* The search (re)starts; NT == 1 ends it at once. */
static void search(awl_ctl *c, awl_sm *m) {
    if (ws_awl_begin(&m->a, c->p.ew) != WS_AWL_SEARCHING) m->idling = true, m->idle.init = true;
}

/* One period of one search with its IPC sample and resident warps. */
static void awl_sm_epoch(awl_ctl *c, awl_sm *m, double ipc, unsigned warps) {
    if (!m->a.nt) {
        ws_awl_see_warps(&m->a, warps);
        if (!m->a.nt) return;
        search(c, m); /* this period ran unthrottled: NC = NT, the first sample */
    }
    if (m->idling) {
        if (ws_awl_idle_step(&m->idle, ipc, c->p.ei)) {
            m->idling = false;
            search(c, m);
        }
    } else {
        ws_awl_result r = ws_awl_step(&m->a, ipc, c->p.ew);
        if (r == WS_AWL_SETTLED) m->idling = true, m->idle.init = true;
        else if (r == WS_AWL_MOVED) search(c, m);
    }
}

/* Mean IPC per SM and the most warps resident on one (gpu scope). */
void ws_awl_gpu_sample(const ws_throttle_epoch *e, double *ipc, unsigned *warps) {
    uint64_t insts = 0;
    *warps = 0;
    for (unsigned i = 0; i < e->n_sms; i++) {
        insts += e->sm[i].thread_insts;
        if (e->sm[i].warps > *warps) *warps = e->sm[i].warps;
    }
    *ipc = e->cycles && e->n_sms ? (double)insts / (double)e->cycles / e->n_sms : 0;
}

static void awl_ctl_epoch(void *ctl, const ws_throttle_epoch *e) {
    awl_ctl *c = ctl;
    if (c->p.gpu) {
        double ipc;
        unsigned warps;
        ws_awl_gpu_sample(e, &ipc, &warps);
        awl_sm_epoch(c, &c->sm[0], ipc, warps);
    } else {
        for (unsigned i = 0; i < c->n_sms; i++) {
            double ipc = e->cycles ? (double)e->sm[i].thread_insts / (double)e->cycles : 0;
            awl_sm_epoch(c, &c->sm[i], ipc, e->sm[i].warps);
        }
    }
    for (unsigned i = 0; i < c->n_sms; i++) apply(c, e, i);
}

static unsigned awl_ctl_stats(const void *ctl, ws_throttle_stat *out, unsigned max) {
    const awl_ctl *c = ctl;
    if (max < 2) return 0;
    double lim = 0;
    unsigned searches = 0, n = 0;
    for (unsigned i = 0; i < (c->p.gpu ? 1 : c->n_sms); i++) {
        lim += ws_awl_sched_limit(&c->sm[i].a, c->n_sched);
        n += c->sm[i].a.nt != 0;
        searches += c->sm[i].a.searches;
    }
    /* mean per-scheduler limit in force at the end over the SMs that ran warps for a full
       period (0: none did), searches finished */
    out[0] = (ws_throttle_stat){"warpsim_throttle_limit", n ? lim / n : 0, true};
    out[1] = (ws_throttle_stat){"warpsim_throttle_searches", searches, false};
    return 2;
}

const ws_throttle_policy ws_throttle_awl = {
    .name = "awl",
    .doc = "IACM's adaptive warp limiting per SM: binary then linear search on IPC, idle until "
           "IPC changes",
    .params = ws_awl_param_defs,
    .nparams = 5,
    .create = ws_limit_create,
    .destroy = free,
    .filter = ws_limit_filter,
    .kernel_start = ws_limit_kernel_start,
    .limit = ws_limit_get,
    .ctl_create = awl_ctl_create,
    .ctl_destroy = awl_ctl_destroy,
    .ctl_period = awl_ctl_period,
    .ctl_kernel_start = awl_ctl_kernel_start,
    .ctl_epoch = awl_ctl_epoch,
    .ctl_stats = awl_ctl_stats,
};
