/* DBSA, dynamically bypassing streaming applications (seed 000 §2.1): at
 * the end of every period (10K core cycles) the miss rate of the level's
 * reads over the period decides the next period: above the threshold (90%)
 * the cache is bypassed, else it caches. While bypassed it runs tag-only,
 * so the miss rate is still measured and caching resumes when the program's
 * phase changes. Caches start enabled at every kernel launch.
 * Parameters: dbsa_params (scope=gpu, one decision from the summed
 * counters, is the spec's recommendation; wait=1 is DWT-PRIC's order). */
#include <stdlib.h>

#include "policy/bypass/bypass.h"

typedef struct {
    uint64_t period;
    double threshold;
    bool per_cache, wait, started;
} dbsa_state;

static const ws_param_def dbsa_params[] = {
    WS_INT("period", "10000", 1, 1e12, "core cycles per period"),
    WS_DOUBLE("threshold", "0.9", 0, 1, "read miss rate above which the level is bypassed"),
    WS_ENUM("scope", "gpu", "gpu|cache",
            "gpu: one decision from the summed counters; cache: each cache decides alone"),
    WS_BOOL("wait", "0", "start once the warp-throttling controller has settled (DWT-PRIC)"),
};

static void *dbsa_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    dbsa_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->period = (uint64_t)ws_param_int(p, "period");
    s->threshold = ws_param_double(p, "threshold");
    s->per_cache = ws_param_enum(p, "scope") == 1;
    s->wait = ws_param_bool(p, "wait");
    return s;
}

static uint64_t dbsa_period(const void *st) { return ((const dbsa_state *)st)->period; }

static void dbsa_kernel_start(void *st, ws_cache_bypass *mode, unsigned n) {
    dbsa_state *s = st;
    (void)mode, (void)n; /* all caching */
    s->started = !s->wait;
}

/* The rule. A period without reads keeps the previous decision. */
static bool decide(const dbsa_state *s, uint64_t reads, uint64_t misses, bool prev) {
    if (!reads) return prev;
    return (double)misses > s->threshold * (double)reads;
}

static void dbsa_epoch(void *st, const ws_bypass_epoch *e) {
    dbsa_state *s = st;
    if (!s->started) {
        if (!e->throttle_settled) return;
        s->started = true; /* the counts of this period are the first DBSA uses */
    }
    if (s->per_cache) {
        for (unsigned i = 0; i < e->n; i++)
            e->mode[i].tag_only = decide(s, e->cnt[i].reads, e->cnt[i].misses, e->mode[i].tag_only);
        return;
    }
    uint64_t reads = 0, misses = 0;
    for (unsigned i = 0; i < e->n; i++) {
        reads += e->cnt[i].reads;
        misses += e->cnt[i].misses;
    }
    bool off = decide(s, reads, misses, e->n && e->mode[0].tag_only);
    for (unsigned i = 0; i < e->n; i++) e->mode[i].tag_only = off;
}

const ws_bypass_policy ws_bypass_dbsa = {
    "dbsa", "bypass the level for a period when its miss rate was above a threshold (seed 000)",
    WS_PARAMS(dbsa_params), dbsa_create, free, dbsa_period, dbsa_kernel_start, dbsa_epoch,
};
