/* -l1d_access_trace: the sequence of L1D accesses an SM made in the current
 * kernel (those that succeeded, in the order the L1D took them), kept as
 * line address | 1 for writes, and written out by the GPU after the
 * kernel. Used to check that warp reordering fixes the sequence, and by the
 * miss-rate estimator's comparison. */
#include <stdlib.h>

#include "timing/sm/sm_internal.h"

struct sm_l1trace {
    uint64_t *a;
    size_t n, cap;
};

int sm_l1trace_init(ws_sm *sm, char *err, size_t errlen) {
    if (!sm->cfg->l1d_access_trace || !*sm->cfg->l1d_access_trace) return 0;
    if (!(sm->l1trace = calloc(1, sizeof *sm->l1trace))) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    return 0;
}

void sm_l1trace_destroy(ws_sm *sm) {
    if (!sm->l1trace) return;
    free(sm->l1trace->a);
    free(sm->l1trace);
    sm->l1trace = NULL;
}

void sm_l1trace_push(ws_sm *sm, uint64_t addr, bool write) {
    struct sm_l1trace *t = sm->l1trace;
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 4096;
        uint64_t *na = realloc(t->a, nc * sizeof *na);
        if (!na) {
            ws_fault f = {WS_ERR_OUT_OF_MEMORY, "-l1d_access_trace: out of host memory"};
            sm_set_fault(sm, &f);
            return;
        }
        t->a = na;
        t->cap = nc;
    }
    t->a[t->n++] = (addr & ~(uint64_t)127) | (write ? 1u : 0u);
}

size_t ws_sm_l1trace(ws_sm *sm, const uint64_t **a, bool reset) {
    struct sm_l1trace *t = sm->l1trace;
    if (!t) {
        *a = NULL;
        return 0;
    }
    *a = t->a;
    size_t n = t->n;
    if (reset) t->n = 0;
    return n;
}
