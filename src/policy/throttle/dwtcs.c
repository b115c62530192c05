/* DWT-CS, dynamic warp throttling via core sampling (seed 000 §2.3, with
 * the §7 choices). Per kernel, at the end of every period (10K cycles):
 *  - detect: GPU-wide L1D read MPKI over the period (1000 x misses / thread
 *    instructions committed, §7 2/2b) above the threshold (10) for N (3)
 *    consecutive periods means thrashing;
 *  - then a limit stored for this kernel name is applied at once (§7 9);
 *    otherwise M (3) sampling periods in which the SM with 1-based id c
 *    lets each scheduler issue from its c oldest warps (limits
 *    1..K = min(SMs, slots per scheduler); SMs beyond K run unthrottled);
 *  - the winner is the limit whose SM committed the most thread
 *    instructions over the sampling periods (ties: the smaller limit);
 *  - if the last sampled SM (limit K) wins and larger limits exist, a
 *    second round: SMs 1..R take K+1..K+R (R = min(slots - K, SMs - 1):
 *    with 15 SMs and 24 slots, SMs 1..9 take 16..24), the rest keep K and
 *    compete with the mean of their counts;
 *  - every SM then uses the winner until the kernel ends, and the winner is
 *    stored under the kernel's name.
 * A kernel ending during sampling stores the winner of the full periods of
 * the round in progress (none finished: nothing stored; ended in round 2
 * before a full period: K). The coordinator's latency is taken as zero.
 * Settled (for DBSA's wait=1): once a limit is decided, or once the first
 * N periods passed without detecting thrashing (then it stays settled,
 * even if standalone DWT-CS detects thrashing later).
 * Parameters: ws_dwt_params.
 *
 * The per-scheduler state is limit.c's; this file also holds dwtpric's
 * controller (dwt.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/throttle/dwt.h"
#include "policy/throttle/limit.h"

enum { DETECT, SAMPLE, FIXED, CALM };

typedef struct {
    char *name;
    unsigned limit;
} memo_entry;

typedef struct {
    unsigned n, m;
    double mpki;
    uint64_t period;
    bool first_n_only;
    unsigned n_sms, n_sched;
    memo_entry *memo;     /* best limit per kernel name, across launches */
    size_t nmemo, cap;
    /* this kernel */
    char *kernel;
    int state;
    unsigned periods, high_run;
    unsigned round, full; /* sampling round (1, 2) and its full periods */
    unsigned k, slots;    /* round 1's largest limit; warp slots per scheduler */
    unsigned *lim;        /* [n_sms] per-scheduler limit of each SM this round */
    uint64_t *sum;        /* [n_sms] thread instructions this round */
    unsigned limit;       /* decided (0: none) */
    bool settled;
    uint64_t kcycles, decided_at;
} dwt;

const ws_param_def ws_dwt_params[4] = {
    WS_INT("n", "3", 1, 1000, "periods of high MPKI that mean thrashing"),
    WS_INT("m", "3", 1, 1000, "sampling periods"),
    WS_DOUBLE("mpki", "10", 0, 1e9, "GPU-wide L1D read misses per 1000 thread instructions above "
              "which a period is high"),
    WS_INT("period", "10000", 1, 1e12, "core cycles per period"),
};

void *ws_dwt_create(ws_params *p, unsigned n_sms, unsigned n_sched, bool first_n_only, char *err,
                    size_t errlen) {
    dwt *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->n = (unsigned)ws_param_int(p, "n");
    d->m = (unsigned)ws_param_int(p, "m");
    d->mpki = ws_param_double(p, "mpki");
    d->period = (uint64_t)ws_param_int(p, "period");
    d->first_n_only = first_n_only;
    d->n_sms = n_sms;
    d->n_sched = n_sched;
    d->lim = calloc(n_sms ? n_sms : 1, sizeof *d->lim);
    d->sum = calloc(n_sms ? n_sms : 1, sizeof *d->sum);
    if (!d->lim || !d->sum) {
        ws_dwt_destroy(d);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    return d;
}

void ws_dwt_destroy(void *ctl) {
    dwt *d = ctl;
    for (size_t i = 0; i < d->nmemo; i++) free(d->memo[i].name);
    free(d->memo);
    free(d->kernel);
    free(d->lim);
    free(d->sum);
    free(d);
}

uint64_t ws_dwt_period(const void *ctl) { return ((const dwt *)ctl)->period; }

static memo_entry *memo_find(dwt *d, const char *name) {
    for (size_t i = 0; i < d->nmemo; i++)
        if (!strcmp(d->memo[i].name, name)) return &d->memo[i];
    return NULL;
}

static void memo_store(dwt *d, unsigned limit) {
    const char *name = d->kernel ? d->kernel : "";
    memo_entry *m = memo_find(d, name);
    if (m) {
        m->limit = limit;
        return;
    }
    if (d->nmemo == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 8;
        memo_entry *p = realloc(d->memo, cap * sizeof *p);
        if (!p) return; /* out of memory: the next launch samples again */
        d->memo = p;
        d->cap = cap;
    }
    char *copy = strdup(name);
    if (!copy) return;
    d->memo[d->nmemo++] = (memo_entry){copy, limit};
}

static void apply(const dwt *d, const ws_throttle_epoch *e) {
    for (unsigned i = 0; i < d->n_sms; i++)
        for (unsigned s = 0; s < d->n_sched; s++)
            ws_limit_set(e->sched[i * d->n_sched + s], d->lim[i]);
}

static void decide(dwt *d, const ws_throttle_epoch *e, unsigned limit, bool store) {
    d->limit = limit;
    d->state = FIXED;
    d->settled = true;
    d->decided_at = d->kcycles;
    if (store) memo_store(d, limit);
    for (unsigned i = 0; i < d->n_sms; i++) d->lim[i] = limit;
    if (e) apply(d, e);
}

/* SMs 1..r of the round get k0+1..k0+r, the others `rest`. */
static void start_round(dwt *d, const ws_throttle_epoch *e, unsigned round, unsigned k0,
                        unsigned r, unsigned rest) {
    d->state = SAMPLE;
    d->round = round;
    d->full = 0;
    for (unsigned i = 0; i < d->n_sms; i++) {
        d->lim[i] = i < r ? k0 + 1 + i : rest;
        d->sum[i] = 0;
    }
    apply(d, e);
}

/* Second round's size: new limits above k, leaving one SM at k. */
static unsigned round2_size(const dwt *d) {
    unsigned r = d->slots > d->k ? d->slots - d->k : 0;
    return r < d->n_sms - 1 ? r : d->n_sms - 1;
}

static unsigned winner(const dwt *d) {
    if (d->round == 1) {
        unsigned best = 0;
        for (unsigned i = 1; i < d->k; i++)
            if (d->sum[i] > d->sum[best]) best = i;
        return best + 1;
    }
    unsigned r = round2_size(d), best = d->k;
    double bv = 0;
    for (unsigned i = r; i < d->n_sms; i++) bv += (double)d->sum[i];
    bv /= (double)(d->n_sms - r);
    for (unsigned i = 0; i < r; i++)
        if ((double)d->sum[i] > bv) {
            bv = (double)d->sum[i];
            best = d->k + 1 + i;
        }
    return best;
}

static void thrashing(dwt *d, const ws_throttle_epoch *e) {
    const memo_entry *m = memo_find(d, d->kernel ? d->kernel : "");
    if (m) {
        decide(d, e, m->limit, false);
        return;
    }
    d->k = d->n_sms < d->slots ? d->n_sms : d->slots;
    start_round(d, e, 1, 0, d->k, d->slots);
}

static void sample(dwt *d, const ws_throttle_epoch *e) {
    for (unsigned i = 0; i < d->n_sms; i++) d->sum[i] += e->sm[i].thread_insts;
    if (++d->full < d->m) return;
    unsigned w = winner(d);
    unsigned r = round2_size(d);
    if (d->round == 1 && w == d->k && r > 0) start_round(d, e, 2, d->k, r, d->k);
    else decide(d, e, w, true);
}

void ws_dwt_kernel_end(void *ctl) {
    dwt *d = ctl;
    if (d->state != SAMPLE) return;
    if (d->full) decide(d, NULL, winner(d), true);
    else if (d->round == 2) decide(d, NULL, d->k, true);
    else d->state = CALM; /* no full sampling period: unthrottled, nothing learnt */
}

void ws_dwt_kernel_start(void *ctl, const ws_throttle_epoch *e) {
    dwt *d = ctl;
    ws_dwt_kernel_end(d); /* in case the last kernel's end was not reported */
    free(d->kernel);
    d->kernel = strdup(e->kernel ? e->kernel : "");
    d->state = DETECT;
    d->periods = d->high_run = d->round = d->full = d->limit = 0;
    d->settled = false;
    d->kcycles = d->decided_at = 0;
    d->slots = d->n_sms && d->n_sched ? ((const ws_limit_state *)e->sched[0])->slots : 1;
    for (unsigned i = 0; i < d->n_sms; i++) d->lim[i] = d->slots;
    apply(d, e);
}

void ws_dwt_epoch(void *ctl, const ws_throttle_epoch *e) {
    dwt *d = ctl;
    d->kcycles += e->cycles;
    d->periods++;
    if (d->state == SAMPLE) {
        sample(d, e);
        return;
    }
    if (d->state != DETECT) return;
    uint64_t insts = 0, misses = 0;
    for (unsigned i = 0; i < e->n_sms; i++) {
        insts += e->sm[i].thread_insts;
        misses += e->sm[i].l1d_read_misses;
    }
    bool high = 1000.0 * (double)misses > d->mpki * (double)insts;
    d->high_run = high ? d->high_run + 1 : 0;
    if (d->high_run >= d->n) {
        thrashing(d, e);
    } else if (d->periods >= d->n) {
        d->settled = true;                  /* the detection window passed quietly */
        if (d->first_n_only) d->state = CALM; /* DWT-PRIC looks no further */
    }
}

bool ws_dwt_settled(const void *ctl) { return ((const dwt *)ctl)->settled; }

unsigned ws_dwt_stats(const void *ctl, ws_throttle_stat *out, unsigned max) {
    const dwt *d = ctl;
    if (max < 2) return 0;
    /* the per-scheduler limit decided for the kernel (0: none, every warp issued) and the
       kernel cycle of the decision */
    out[0] = (ws_throttle_stat){"warpsim_throttle_limit", d->limit, false};
    out[1] = (ws_throttle_stat){"warpsim_throttle_decided_cycle", (double)d->decided_at, false};
    return 2;
}

static void *dwtcs_ctl_create(ws_params *p, unsigned n_sms, unsigned n_sched, char *err,
                              size_t errlen) {
    return ws_dwt_create(p, n_sms, n_sched, false, err, errlen);
}

const ws_throttle_policy ws_throttle_dwtcs = {
    .name = "dwtcs",
    .doc = "DWT-CS: on N periods of high L1D MPKI, SM c samples limit c, all take the best",
    .params = ws_dwt_params,
    .nparams = sizeof ws_dwt_params / sizeof ws_dwt_params[0],
    .create = ws_limit_create,
    .destroy = free,
    .filter = ws_limit_filter,
    .kernel_start = ws_limit_kernel_start,
    .limit = ws_limit_get,
    .ctl_create = dwtcs_ctl_create,
    .ctl_destroy = ws_dwt_destroy,
    .ctl_period = ws_dwt_period,
    .ctl_kernel_start = ws_dwt_kernel_start,
    .ctl_epoch = ws_dwt_epoch,
    .ctl_settled = ws_dwt_settled,
    .ctl_kernel_end = ws_dwt_kernel_end,
    .ctl_stats = ws_dwt_stats,
};
