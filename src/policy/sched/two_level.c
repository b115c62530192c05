/* Two-level active scheduler (GPGPU-Sim's two_level_active:N:inner:outer):
 * at most N warps are active; an active warp that waits (barrier, memory
 * barrier, atomic) or whose next instruction depends on a pending global/
 * local load is demoted to the tail of the pending FIFO, and pending warps
 * are promoted from its head until N are active again. Issue walks the
 * active list in order. inner and outer select prioritisations (GPGPU-Sim's
 * enum scheduler_prioritization_type, by number or name); GPGPU-Sim
 * implements only outer = 0/1 round robin, which is what this does for any
 * value: they are accepted and kept for GPGPU-Sim configs. */
#include <stdlib.h>

#include "policy/sched/sched.h"

typedef struct {
    unsigned n, max_active;
    unsigned nact;
    uint16_t *act;           /* active list, priority order */
    uint16_t *pend;          /* pending FIFO (ring) */
    unsigned phead, plen;
    unsigned inner, outer;   /* accepted, no effect (see above) */
} tl_state;

#define TL_PRIOS "lrr|srr|gto|gtlrr|gty|oldest|youngest"
static const ws_param_def tl_params[] = {
    WS_INT("n", "6", 1, 65535, "active warps per scheduler"),
    WS_ENUM("inner", "lrr", TL_PRIOS, "inner prioritisation (accepted; GPGPU-Sim's enum)"),
    WS_ENUM("outer", "srr", TL_PRIOS, "outer prioritisation (accepted; round robin either way)"),
};

static void *tl_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    tl_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    unsigned nact = (unsigned)ws_param_int(p, "n");
    s->inner = ws_param_enum(p, "inner");
    s->outer = ws_param_enum(p, "outer");
    s->n = n;
    s->max_active = nact < n ? nact : n;
    s->act = calloc(n ? n : 1, sizeof *s->act);
    s->pend = calloc(n ? n : 1, sizeof *s->pend);
    for (unsigned i = 0; i < n; i++) {
        if (i < s->max_active) s->act[s->nact++] = (uint16_t)i;
        else s->pend[s->plen++] = (uint16_t)i;
    }
    return s;
}
static void tl_destroy(void *st) {
    tl_state *s = st;
    free(s->act);
    free(s->pend);
    free(s);
}
static unsigned tl_order(void *st, const ws_sched_warp *w, unsigned n, uint16_t *out) {
    tl_state *s = st;
    unsigned k = 0;
    for (unsigned i = 0; i < s->nact; i++) {
        uint16_t x = s->act[i];
        if (!w[x].valid || w[x].waiting || w[x].longop) s->pend[(s->phead + s->plen++) % s->n] = x;
        else s->act[k++] = x;
    }
    s->nact = k;
    while (s->nact < s->max_active && s->plen) {
        s->act[s->nact++] = s->pend[s->phead];
        s->phead = (s->phead + 1) % s->n;
        s->plen--;
    }
    for (unsigned i = 0; i < s->nact; i++) out[i] = s->act[i];
    return s->nact;
}
static void tl_issued(void *st, const ws_sched_warp *w, unsigned n, unsigned idx) {}

const ws_sched_policy ws_sched_two_level_active = {
    "two_level_active", "N active warps in order; waiting or long-latency-dependent warps are demoted",
    WS_PARAMS(tl_params), tl_create, tl_destroy, tl_order, tl_issued, 1, 0,
};
