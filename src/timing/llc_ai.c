/* Access-interval throttling and the LLC access trace (see llc_ai.h). */
#include "timing/llc_ai.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/llc.h"
#include "timing/mem/cache.h"

struct ws_llc_ai {
    unsigned n, n_sms, quota; /* cores (SMs, then the CPU core), SMs */
    uint32_t *count;       /* per SM: accesses sent in this interval */
    uint64_t inflight;     /* counted accesses not yet accepted by the L2 */
    uint64_t intervals;
    uint64_t tick;         /* core cycles */
    uint64_t *blocked;     /* per core: tick + 1 since when its next access waits for the
                              next interval (0: not waiting) */
    uint64_t *held;        /* per core: cycles its accesses waited for intervals this kernel
                              (the cache-aware WCET's profile) */
    const char *path;
    bool record;           /* keep the trace: for the file, or for the cache-aware WCET */
    bool predict;          /* -warpsim_analyze: predict the GPU's sure LLC hits per kernel */
    uint32_t sets, ways;   /* the LLC: every slice's sets, associativity */
    uint64_t *tr;          /* (sm, line, set) triples of this kernel */
    size_t ntr, cap;
    uint64_t *hit;         /* this kernel's lines every GPU access of which surely hit, sorted */
    size_t nhit;
    bool hit_ok;
    bool oom;
};

/* Every access an SM sends to the LLC counts, instruction fetches too: in
   warpsim they share the L2 with data (the dissertation's chip has a
   separate instruction LLC), so they conflict with data lines, and an
   access outside the intervals would break the analysis' ordering. */
static bool counted(const ws_mreq *r) { (void)r; return true; }

ws_llc_ai *ws_llc_ai_create(const ws_config *cfg, unsigned n_sms, unsigned n_cpu, char *err,
                            size_t errlen) {
    err[0] = 0;
    bool trace = cfg->llc_access_trace && *cfg->llc_access_trace;
    if (!cfg->llc_access_interval && !trace) return NULL;
    ws_llc_ai *a = calloc(1, sizeof *a);
    if (!a || !(a->count = calloc(n_sms + n_cpu, sizeof *a->count)) ||
        !(a->blocked = calloc(n_sms + n_cpu, sizeof *a->blocked)) ||
        !(a->held = calloc(n_sms + n_cpu, sizeof *a->held))) {
        if (a) free(a->count), free(a->blocked);
        free(a);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    a->n = n_sms + n_cpu;
    a->n_sms = n_sms;
    a->quota = (unsigned)cfg->llc_access_interval;
    a->predict = cfg->analyze_out && *cfg->analyze_out;
    a->record = trace || a->predict;
    ws_cache_cfg cc;
    if (ws_cache_cfg_parse(cfg->cache_dl2, &cc, err, errlen)) {
        ws_llc_ai_destroy(a);
        return NULL;
    }
    a->sets = cc.nsets * (uint32_t)(cfg->n_mem * cfg->n_sub_partition_per_mchannel);
    a->ways = cc.assoc;
    if (trace) {
        a->path = cfg->llc_access_trace;
        FILE *f = fopen(a->path, "w"); /* refused now if it cannot be written */
        if (!f) {
            snprintf(err, errlen, "option -llc_access_trace: cannot write %s: %s", a->path,
                     strerror(errno));
            ws_llc_ai_destroy(a);
            return NULL;
        }
        fclose(f);
    }
    return a;
}

void ws_llc_ai_destroy(ws_llc_ai *a) {
    if (!a) return;
    free(a->count);
    free(a->blocked);
    free(a->held);
    free(a->tr);
    free(a->hit);
    free(a);
}

void ws_llc_ai_kernel_start(ws_llc_ai *a) {
    memset(a->count, 0, a->n * sizeof *a->count);
    memset(a->blocked, 0, a->n * sizeof *a->blocked);
    memset(a->held, 0, a->n * sizeof *a->held);
    a->ntr = 0;
}

bool ws_llc_ai_may_send(const ws_llc_ai *a, unsigned sm, const ws_mreq *r) {
    return !a->quota || !counted(r) || a->count[sm] < a->quota;
}

void ws_llc_ai_sent(ws_llc_ai *a, unsigned sm, const ws_mreq *r, uint64_t set) {
    if (!counted(r)) return;
    if (a->blocked[sm]) {
        a->held[sm] += a->tick + 1 - a->blocked[sm];
        a->blocked[sm] = 0;
    }
    if (a->quota) {
        a->count[sm]++;
        a->inflight++;
    }
    if (!a->record) return;
    if (a->ntr + 3 > a->cap) {
        size_t nc = a->cap ? 2 * a->cap : 3 * 4096;
        uint64_t *t = realloc(a->tr, nc * sizeof *t);
        if (!t) {
            a->oom = true;
            return;
        }
        a->tr = t;
        a->cap = nc;
    }
    a->tr[a->ntr++] = sm;
    a->tr[a->ntr++] = r->addr & ~(uint64_t)127;
    a->tr[a->ntr++] = set;
}

void ws_llc_ai_accepted(ws_llc_ai *a, const ws_mreq *r) {
    if (a->quota && counted(r) && a->inflight) a->inflight--;
}

void ws_llc_ai_cycle(ws_llc_ai *a, ws_sm *const *sms, bool cpu_active) {
    a->tick++;
    if (!a->quota || a->inflight) return;
    bool any = false;
    for (unsigned i = 0; i < a->n; i++) {
        any |= a->count[i] > 0;
        /* a core with work left that has not used its quota: wait for it */
        bool active = i < a->n_sms ? ws_sm_busy(sms[i]) : cpu_active;
        if (a->count[i] < a->quota && active) return;
    }
    if (!any) return;
    memset(a->count, 0, a->n * sizeof *a->count);
    a->intervals++;
}

void ws_llc_ai_held(ws_llc_ai *a, unsigned sm) {
    if (!a->blocked[sm]) a->blocked[sm] = a->tick + 1;
}

uint64_t ws_llc_ai_most_held(const ws_llc_ai *a) {
    uint64_t m = 0;
    for (unsigned i = 0; a && a->quota && i < a->n_sms; i++)
        if (a->held[i] > m) m = a->held[i];
    return m;
}
unsigned ws_llc_ai_quota(const ws_llc_ai *a) { return a ? a->quota : 0; }

uint64_t ws_llc_ai_intervals(const ws_llc_ai *a) { return a ? a->intervals : 0; }

static int cmp_u64(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* This kernel's sure hits: per access, the Access Interval prediction (the
   Simple one without throttling) over every core's trace, the CPU's
   included; (line, SM) is kept when no access of that SM to the line may
   miss. */
static void predict_hits(ws_llc_ai *a) {
    a->nhit = 0;
    a->hit_ok = false;
    size_t n = a->ntr / 3;
    size_t *cnt = calloc(a->n + 1, sizeof *cnt);
    uint64_t **key = calloc(a->n, sizeof *key);
    uint8_t **miss = calloc(a->n, sizeof *miss);
    uint64_t *pair = malloc((2 * n + 1) * sizeof *pair); /* (line << 1 | may miss) */
    bool ok = cnt && key && miss && pair;
    for (size_t i = 0; ok && i < n; i++) cnt[a->tr[3 * i]]++;
    for (unsigned c = 0; ok && c < a->n; c++) {
        key[c] = malloc((cnt[c] + 1) * sizeof **key);
        miss[c] = calloc(cnt[c] + 1, 1);
        ok = key[c] && miss[c];
        cnt[c] = 0;
    }
    for (size_t i = 0; ok && i < n; i++) { /* llc-analyze's keys: same set <=> same residue */
        uint64_t c = a->tr[3 * i];
        key[c][cnt[c]++] = (a->tr[3 * i + 1] / 128) * a->sets + a->tr[3 * i + 2] % a->sets;
    }
    ws_llc_trace t = {a->n, (const uint64_t *const *)key, cnt};
    if (ok) ok = ws_llc_predict(&t, a->sets, a->ways, a->quota, miss) >= 0;
    size_t np = 0;
    ok = ok && a->n_sms <= 256;
    for (unsigned c = 0; ok && c < a->n_sms; c++)
        for (size_t k = 0; k < cnt[c]; k++)
            pair[np++] = WS_LLC_HIT_KEY(key[c][k] / a->sets * 128, c) << 1 | miss[c][k];
    if (ok) {
        qsort(pair, np, sizeof *pair, cmp_u64);
        uint64_t *h = realloc(a->hit, (np + 1) * sizeof *h);
        ok = h != NULL;
        if (h) a->hit = h;
        for (size_t i = 0; ok && i < np;) {
            size_t j = i;
            bool may_miss = false;
            while (j < np && pair[j] >> 1 == pair[i] >> 1) may_miss |= pair[j++] & 1;
            if (!may_miss) a->hit[a->nhit++] = pair[i] >> 1;
            i = j;
        }
        a->hit_ok = ok;
    }
    for (unsigned c = 0; key && miss && c < a->n; c++) {
        free(key[c]);
        free(miss[c]);
    }
    free(key);
    free(miss);
    free(cnt);
    free(pair);
}

bool ws_llc_ai_hit_lines(const ws_llc_ai *a, const uint64_t **lines, size_t *n) {
    if (!a || !a->hit_ok) return false;
    *lines = a->hit;
    *n = a->nhit;
    return true;
}

int ws_llc_ai_write(ws_llc_ai *a, uint64_t kernel, char *err, size_t errlen) {
    if (a->predict && !a->oom) predict_hits(a);
    if (!a->path) {
        a->ntr = 0;
        return 0;
    }
    if (a->oom) {
        snprintf(err, errlen, "-llc_access_trace: out of host memory");
        return -1;
    }
    FILE *f = fopen(a->path, "a");
    int bad = !f;
    for (size_t i = 0; f && i + 2 < a->ntr; i += 3)
        fprintf(f, "%llu %llu 0x%llx %llu\n", (unsigned long long)kernel,
                (unsigned long long)a->tr[i], (unsigned long long)a->tr[i + 1],
                (unsigned long long)a->tr[i + 2]);
    if (f && (fflush(f) || ferror(f))) bad = 1;
    if (f && fclose(f)) bad = 1;
    a->ntr = 0;
    if (bad) snprintf(err, errlen, "-llc_access_trace: cannot write %s", a->path);
    return bad ? -1 : 0;
}
