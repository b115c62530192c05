/* Warp-based load/store reordering (Huangfu and Zhang, "Warp-Based
 * Load/Store Reordering to Improve GPU Data Cache Time Predictability";
 * dissertation Ch. 4, Fig. 12), -l1d_warp_reorder 1.
 *
 * Between the memory pipeline and the LD/ST unit's dispatch register, a
 * Distributing Unit puts every global/local load and store into the channel
 * of its warp, and a Reordering Unit releases them to the L1D one warp
 * instruction at a time in an order fixed by the program alone, so each
 * SM's L1D access sequence does not depend on timing (DRAM, interconnect,
 * scheduler). Other instructions keep dynamic scheduling.
 *
 * The order. Every such instruction gets a ticket at issue, (e, n): e is
 * the number of barriers its warp has arrived at, n its index among the
 * warp's accesses since. The unit releases tickets in ascending
 *     (wave, e, n, block, warp index in block)
 * For loop-free code without barriers this is the paper's order (lowest
 * PC first, then block ID, then warp index); keying by dynamic index
 * instead of PC makes loops representable, and putting the barrier count
 * first means no warp is waited for across a barrier it cannot pass (which
 * would deadlock). Blocks go to SMs statically (block b on SM b mod S, in
 * ID order as slots free; -warpsim_static_cta_map), and a "wave" is the
 * SM's next max-CTA blocks: the unit waits until the whole wave is
 * resident, and serves it completely before the next.
 *
 * Why it is deterministic: the unit always waits for the warp whose next
 * ticket (its oldest unreleased one, or the next it will take) is the
 * smallest; a warp's tickets only grow, so every later ticket is larger
 * and the released sequence is the tickets sorted by key.
 * Why it does not deadlock: the awaited warp either has its instruction in
 * the pipeline (it reaches its channel: a warp may hold at most
 * -l1d_reorder_channel unreleased tickets, checked at issue, so channels
 * never fill), or will issue it (its earlier accesses were released, and
 * its block-mates with smaller keys were served before the barrier).
 * Channel and unit cost one cycle each (the unit runs before the
 * distributing step in the LD/ST cycle). */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "timing/sm/sm_internal.h"

typedef struct ro_ticket {
    uint32_t e, n;
    sm_inst *in; /* NULL until it reaches the LD/ST unit */
} ro_ticket;

typedef struct ro_warp {
    uint32_t e, n;          /* next ticket it will take */
    unsigned head, count;   /* unreleased tickets, in issue order */
} ro_warp;

struct sm_ro {
    unsigned cap;           /* tickets per warp */
    ro_warp *w;             /* [max_warps] */
    ro_ticket *t;           /* [max_warps * cap] */
    uint64_t *block;        /* per CTA slot: linear block ID */
    uint64_t nblocks;       /* blocks of this kernel on this SM */
    uint64_t wave, nwaves;
    uint32_t *done;         /* per wave: blocks finished */
};

bool sm_ro_is_ticketed(const sm_inst *in) {
    return (in->space == WS_SPACE_GLOBAL || in->space == WS_SPACE_LOCAL) && !in->is_atomic &&
           (in->is_load || in->is_store) && in->active;
}

int sm_ro_init(ws_sm *sm, char *err, size_t errlen) {
    if (!sm->cfg->l1d_warp_reorder) return 0;
    sm_ro *r = calloc(1, sizeof *r);
    if (!r) goto oom;
    sm->ro = r;
    sm->ldst_extras = true;
    r->cap = (unsigned)sm->cfg->l1d_reorder_channel;
    r->w = calloc(sm->max_warps, sizeof *r->w);
    r->t = calloc((size_t)sm->max_warps * r->cap, sizeof *r->t);
    r->block = calloc(sm->max_ctas, sizeof *r->block);
    if (!r->w || !r->t || !r->block) goto oom;
    return 0;
oom:
    snprintf(err, errlen, "out of host memory");
    return -1;
}

void sm_ro_destroy(ws_sm *sm) {
    sm_ro *r = sm->ro;
    if (!r) return;
    free(r->w);
    free(r->t);
    free(r->block);
    free(r->done);
    free(r);
    sm->ro = NULL;
    sm->ldst_extras = sm->smc || sm->mrpb;
}

static uint64_t wave_size(const ws_sm *sm, uint64_t w) {
    uint64_t mc = sm->max_cta ? sm->max_cta : 1, first = w * mc;
    uint64_t left = sm->ro->nblocks > first ? sm->ro->nblocks - first : 0;
    return left < mc ? left : mc;
}

static uint64_t wave_of(const ws_sm *sm, uint64_t block) {
    uint64_t mc = sm->max_cta ? sm->max_cta : 1;
    return block / sm->n_sms / mc;
}

void sm_ro_kernel_start(ws_sm *sm) {
    sm_ro *r = sm->ro;
    uint64_t total = (uint64_t)sm->launch.grid[0] * sm->launch.grid[1] * sm->launch.grid[2];
    uint64_t id = sm->env.sm_id;
    r->nblocks = total > id ? (total - id + sm->n_sms - 1) / sm->n_sms : 0;
    uint64_t mc = sm->max_cta ? sm->max_cta : 1;
    r->nwaves = (r->nblocks + mc - 1) / mc;
    r->wave = 0;
    free(r->done);
    r->done = calloc(r->nwaves + 1, sizeof *r->done);
    if (!r->done) {
        ws_fault f = {WS_ERR_OUT_OF_MEMORY, "out of host memory (warp reordering)"};
        sm_set_fault(sm, &f);
    }
}

void sm_ro_cta_start(ws_sm *sm, unsigned k, const uint32_t ctaid[3]) {
    sm_ro *r = sm->ro;
    const uint32_t *g = sm->launch.grid;
    r->block[k] = ctaid[0] + (uint64_t)g[0] * (ctaid[1] + (uint64_t)g[1] * ctaid[2]);
    const sm_cta *c = &sm->ctas[k];
    for (uint32_t i = 0; i < c->nwarps && c->first_warp + i < sm->max_warps; i++)
        memset(&r->w[c->first_warp + i], 0, sizeof *r->w);
}

void sm_ro_cta_done(ws_sm *sm, unsigned k) {
    sm_ro *r = sm->ro;
    uint64_t w = wave_of(sm, r->block[k]);
    if (r->done && w < r->nwaves) r->done[w]++;
}

/* Issue: may warp wi issue inst (not when its tickets are all in use)? */
bool sm_ro_may_issue(const ws_sm *sm, unsigned wi, const ws_inst *inst) {
    if (!inst || (inst->op != WS_OP_LD && inst->op != WS_OP_LDU && inst->op != WS_OP_ST))
        return true;
    if (inst->space != WS_SPACE_GLOBAL && inst->space != WS_SPACE_LOCAL &&
        inst->space != WS_SPACE_NONE)
        return true;
    return sm->ro->w[wi].count < sm->ro->cap;
}

void sm_ro_issued(ws_sm *sm, unsigned wi, sm_inst *in) {
    in->ro_ticket = sm_ro_is_ticketed(in);
    if (!in->ro_ticket) return;
    sm_ro *r = sm->ro;
    ro_warp *w = &r->w[wi];
    ro_ticket *t = &r->t[(size_t)wi * r->cap + (w->head + w->count) % r->cap];
    t->e = in->ro_e = w->e;
    t->n = in->ro_n = w->n++;
    t->in = NULL;
    w->count++; /* sm_ro_may_issue kept it within cap */
}

void sm_ro_barrier(ws_sm *sm, unsigned wi) {
    ro_warp *w = &sm->ro->w[wi];
    w->e++;
    w->n = 0;
}

/* The Distributing Unit: the instruction enters its warp's channel. */
void sm_ro_distribute(ws_sm *sm, sm_inst *in) {
    sm_ro *r = sm->ro;
    ro_warp *w = &r->w[in->warp];
    for (unsigned i = 0; i < w->count; i++) {
        ro_ticket *t = &r->t[(size_t)in->warp * r->cap + (w->head + i) % r->cap];
        if (t->e == in->ro_e && t->n == in->ro_n) {
            t->in = in;
            return;
        }
    }
}

/* Key order: (e, n, block, warp index). */
static bool key_less(uint32_t e, uint32_t n, uint64_t b, uint32_t wid, uint32_t e2, uint32_t n2,
                     uint64_t b2, uint32_t wid2) {
    if (e != e2) return e < e2;
    if (n != n2) return n < n2;
    if (b != b2) return b < b2;
    return wid < wid2;
}

/* The Reordering Unit: the instruction to dispatch now, or NULL (waiting). */
sm_inst *sm_ro_select(ws_sm *sm) {
    sm_ro *r = sm->ro;
    while (r->wave < r->nwaves && r->done && r->done[r->wave] >= wave_size(sm, r->wave)) r->wave++;
    if (r->wave >= r->nwaves) return NULL;
    /* the whole wave must be resident (or finished) before anything of it goes */
    uint64_t present = r->done ? r->done[r->wave] : 0;
    for (unsigned k = 0; k < sm->max_ctas; k++)
        if (sm->ctas[k].used && wave_of(sm, r->block[k]) == r->wave) present++;
    if (present < wave_size(sm, r->wave)) return NULL;
    int best = -1;
    uint32_t be = 0, bn = 0, bw = 0;
    uint64_t bb = 0;
    for (unsigned k = 0; k < sm->max_ctas; k++) {
        const sm_cta *c = &sm->ctas[k];
        if (!c->used || wave_of(sm, r->block[k]) != r->wave) continue;
        for (uint32_t i = 0; i < c->nwarps && c->first_warp + i < sm->max_warps; i++) {
            unsigned wi = c->first_warp + i;
            const sm_warp *sw = &sm->warps[wi];
            const ro_warp *w = &r->w[wi];
            uint32_t e, n;
            if (w->count) {
                const ro_ticket *t = &r->t[(size_t)wi * r->cap + w->head];
                e = t->e;
                n = t->n;
            } else if (sw->valid && !sw->func_done) {
                e = w->e;
                n = w->n;
            } else {
                continue; /* no more accesses */
            }
            if (best < 0 || key_less(e, n, r->block[k], i, be, bn, bb, bw)) {
                best = (int)wi;
                be = e;
                bn = n;
                bb = r->block[k];
                bw = i;
            }
        }
    }
    if (best < 0) return NULL;
    ro_warp *w = &r->w[best];
    if (!w->count) return NULL; /* it has not issued it yet */
    ro_ticket *t = &r->t[(size_t)best * r->cap + w->head];
    if (!t->in) return NULL; /* still in the pipeline */
    sm_inst *in = t->in;
    t->in = NULL;
    w->head = (w->head + 1) % r->cap;
    w->count--;
    /* a ticket freed: the warp may issue a memory instruction again */
    sm->gen++;
    sm_view_dirty(sm, (unsigned)best);
    return in;
}

bool sm_ro_busy(const ws_sm *sm) {
    const sm_ro *r = sm->ro;
    for (unsigned i = 0; i < sm->max_warps; i++)
        if (r->w[i].count) return true;
    return false;
}
