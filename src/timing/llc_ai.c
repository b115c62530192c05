/* Access-interval throttling and the LLC access trace (see llc_ai.h). */
#include "timing/llc_ai.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ws_llc_ai {
    unsigned n, n_sms, quota; /* cores (SMs, then the CPU core), SMs */
    uint32_t *count;       /* per SM: accesses sent in this interval */
    uint64_t inflight;     /* counted accesses not yet accepted by the L2 */
    uint64_t intervals;
    const char *path;
    uint64_t *tr;          /* (sm, line, set) triples of this kernel */
    size_t ntr, cap;
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
    if (!a || !(a->count = calloc(n_sms + n_cpu, sizeof *a->count))) {
        free(a);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    a->n = n_sms + n_cpu;
    a->n_sms = n_sms;
    a->quota = (unsigned)cfg->llc_access_interval;
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
    free(a->tr);
    free(a);
}

void ws_llc_ai_kernel_start(ws_llc_ai *a) {
    memset(a->count, 0, a->n * sizeof *a->count);
    a->ntr = 0;
}

bool ws_llc_ai_may_send(const ws_llc_ai *a, unsigned sm, const ws_mreq *r) {
    return !a->quota || !counted(r) || a->count[sm] < a->quota;
}

void ws_llc_ai_sent(ws_llc_ai *a, unsigned sm, const ws_mreq *r, uint64_t set) {
    if (!counted(r)) return;
    if (a->quota) {
        a->count[sm]++;
        a->inflight++;
    }
    if (!a->path) return;
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

uint64_t ws_llc_ai_intervals(const ws_llc_ai *a) { return a ? a->intervals : 0; }

int ws_llc_ai_write(ws_llc_ai *a, uint64_t kernel, char *err, size_t errlen) {
    if (!a->path) return 0;
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
