/* dblpp: dynamic BLPP (D-BLPP). The counters are sampled while the program
 * runs: every `period` core cycles the model classifies the application on
 * the counters of that period, and pages allocated afterwards follow the new
 * ratio. Until the first sample every page goes to GPU memory; placed pages
 * never move (no migration), so early pages stay where they were put. */
#include <stdlib.h>

#include "policy/page/page.h"

static const ws_param_def dblpp_params[] = {
    WS_BLPP_PARAMS,
    WS_INT("period", "100000", 1, 1e12, "core cycles between samples of the counters"),
};

typedef struct dblpp {
    ws_blpp_cfg m;
    uint64_t period;
    double p;
} dblpp;

static void *dblpp_create(ws_params *p, const ws_page_env *env, char *err, size_t errlen) {
    dblpp *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    ws_blpp_cfg_read(&d->m, p, env);
    d->period = (uint64_t)ws_param_int(p, "period");
    d->p = 1.0;
    return d;
}
static void dblpp_destroy(void *st) { free(st); }
static unsigned dblpp_place(void *st, double r, uint64_t placed) {
    return r < ((const dblpp *)st)->p ? WS_NODE_GPU : WS_NODE_CPU;
}
static double dblpp_ratio(const void *st) { return ((const dblpp *)st)->p; }
static uint64_t dblpp_period(const void *st) { return ((const dblpp *)st)->period; }
static void dblpp_sample(void *st, const ws_page_counters *c) {
    dblpp *d = st;
    d->p = ws_blpp_decide(&d->m, c);
}

const ws_page_policy ws_page_dblpp = {
    .name = "dblpp",
    .doc = "D-BLPP: the BLPP model on counters sampled every period; all GPU until the first",
    WS_PARAMS(dblpp_params),
    .create = dblpp_create,
    .destroy = dblpp_destroy,
    .place = dblpp_place,
    .gpu_ratio = dblpp_ratio,
    .period = dblpp_period,
    .sample = dblpp_sample,
};
