/* Functional execution of a whole grid: CTAs one after another; inside a
 * CTA each warp runs until it blocks at a barrier or exits, then the next
 * (round robin), which keeps the hot loop on one warp's registers. */
#include <stdio.h>

#include "exec/exec_internal.h"

static void hang_report(const ws_cta *c, uint64_t quiet, ws_fault *fault) {
    ws_where_tally t = {0};
    for (uint32_t i = 0; i < c->nwarps; i++) ws_where_add(&t, c, i);
    char hint[200];
    snprintf(hint, sizeof hint,
             " (-warpsim_hang_insns) in CTA (%u,%u,%u); functional mode runs CTAs one after "
             "another, so CTAs that wait for each other never finish here",
             c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    ws_hang_message(c->kfunc->name, quiet, &t, hint, fault);
}

/* One CTA to its end: each warp runs until it blocks at a barrier, sleeps or
 * exits, then the next. obs (NULL on the plain path, where this inlines to
 * the loop without it) sees every executed instruction; cap (0: none) stops
 * the CTA once the grid's warp instructions, `before` plus this CTA's, reach
 * it (*capped). Returns WS_OK or the fault. */
static inline __attribute__((always_inline)) ws_status
run_cta(ws_cta *c, const ws_exec_observer *obs, uint32_t sm, uint64_t hang, uint64_t cap,
        uint64_t before, bool *capped, ws_fault *fault) {
    ws_step step_buf, *st = obs && obs->step ? &step_buf : NULL;
    ws_status rc = WS_OK;
    c->counts = (ws_exec_counts){0};
    c->parks = true;
    /* CTAs run one at a time, so the hang detector looks at this CTA only */
    uint64_t writes_seen = 0, quiet_from = 0, parked_writes = UINT64_MAX;
    while (!ws_cta_done(c) && rc == WS_OK && !*capped) {
        bool progress = false;
        for (uint32_t wi = 0; wi < c->nwarps && rc == WS_OK && !*capped; wi++) {
            ws_warp *w = &c->warps[wi];
            if (w->state == WS_WARP_SLEEP) w->state = WS_WARP_RUN; /* its turn again */
            while (w->state == WS_WARP_RUN) {
                ws_step_result r = ws_cta_step_warp(c, w, st, fault);
                if (r == WS_STEP_FAULT) { rc = fault->code; break; }
                if (r != WS_STEP_BARRIER) progress = true;
                if (st && r == WS_STEP_OK) obs->step(obs->ctx, sm, st);
                if (cap && before + c->counts.warp_insts >= cap) { *capped = true; break; }
                if (!hang) continue;
                if (c->counts.mem_writes != writes_seen || r == WS_STEP_DONE) {
                    writes_seen = c->counts.mem_writes;
                    quiet_from = c->counts.warp_insts;
                } else if (c->counts.warp_insts - quiet_from >= hang) {
                    hang_report(c, c->counts.warp_insts - quiet_from, fault);
                    rc = fault->code;
                    break;
                }
            }
        }
        if (rc == WS_OK && !*capped && !progress && !ws_cta_done(c) &&
            c->counts.mem_writes != parked_writes) { /* mbarrier pollers: look again */
            bool woke = false;
            for (uint32_t wi = 0; wi < c->nwarps; wi++)
                if (c->warps[wi].state == WS_WARP_MBAR) c->warps[wi].state = WS_WARP_RUN, woke = true;
            parked_writes = c->counts.mem_writes;
            if (woke) continue;
        }
        if (rc == WS_OK && !*capped && !progress && !ws_cta_done(c)) {
            ws_cta_deadlock(c, fault);
            rc = WS_ERR_DEADLOCK;
        }
    }
    return rc;
}

/* The checks both entry points make; a non-NULL kernel when the launch can run. */
static const ws_func *launch_begin(const ws_launch_desc *l, ws_exec_counts *counts, ws_fault *fault) {
    fault->code = WS_OK;
    fault->msg[0] = 0;
    if (counts) *counts = (ws_exec_counts){0};
    if (!l || !l->img || !l->img->mod || !l->gmem || l->func >= l->img->mod->nfuncs) {
        fault->code = WS_ERR_INVALID_VALUE;
        snprintf(fault->msg, sizeof fault->msg, "invalid launch (missing image, memory or kernel)");
        return NULL;
    }
    const ws_module *m = l->img->mod;
    const ws_func *kf = &m->funcs[l->func];
    uint64_t nt = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t nc = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (!kf->is_entry || nt == 0 || nt > 4096 || nc == 0) {
        fault->code = WS_ERR_INVALID_VALUE;
        snprintf(fault->msg, sizeof fault->msg, "kernel %s: invalid launch (%s, block %ux%ux%u, grid %ux%ux%u)",
                 kf->name, kf->is_entry ? "entry" : "not an .entry", l->block[0], l->block[1], l->block[2],
                 l->grid[0], l->grid[1], l->grid[2]);
        return NULL;
    }
    /* Constants may have been written through their device address. */
    if (m->const_size && l->img->const_base)
        ws_gmem_read(l->gmem, l->img->const_base, l->img->const_mem, m->const_size);
    return kf;
}

/* CTAs first..end of the grid in linear order (x fastest), CTA by CTA. */
static inline __attribute__((always_inline)) ws_status
run_ctas(const ws_launch_desc *l, const ws_func *kf, uint64_t first, const ws_exec_observer *obs,
         uint64_t cap, ws_exec_counts *counts, ws_fault *fault) {
    uint64_t nc = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint32_t nsm = l->num_sms ? l->num_sms : 1;
    ws_exec_counts tot = {0};
    ws_cta *c = NULL;
    ws_status rc = WS_OK;
    bool capped = false;
    for (uint64_t lin = first; lin < nc && rc == WS_OK && !capped; lin++) {
        uint32_t id[3] = {(uint32_t)(lin % l->grid[0]), (uint32_t)(lin / l->grid[0] % l->grid[1]),
                          (uint32_t)(lin / ((uint64_t)l->grid[0] * l->grid[1]))};
        uint32_t sm = (uint32_t)(lin % nsm);
        if (!c) {
            if (!(c = ws_cta_create(l, id, sm))) {
                rc = fault->code = WS_ERR_OUT_OF_MEMORY;
                snprintf(fault->msg, sizeof fault->msg, "kernel %s: cannot allocate CTA state", kf->name);
                break;
            }
        } else if (!ws_cta_reset(c, id, sm)) {
            rc = fault->code = WS_ERR_OUT_OF_MEMORY;
            snprintf(fault->msg, sizeof fault->msg, "kernel %s: out of host memory", kf->name);
            break;
        }
        rc = run_cta(c, obs, sm, l->hang_warp_insts, cap, tot.warp_insts, &capped, fault);
        tot.warp_insts += c->counts.warp_insts;
        tot.thread_insts += c->counts.thread_insts;
        tot.thread_insts_exec += c->counts.thread_insts_exec;
        tot.mem_writes += c->counts.mem_writes;
        if (obs && obs->cta_done) obs->cta_done(obs->ctx, sm, &c->counts);
    }
    if (counts) *counts = tot;
    ws_cta_destroy(c);
    return rc;
}

ws_status ws_exec_grid(const ws_launch_desc *l, ws_exec_counts *counts, ws_fault *fault) {
    ws_fault dummy;
    if (!fault) fault = &dummy;
    const ws_func *kf = launch_begin(l, counts, fault);
    if (!kf) return fault->code;
    return run_ctas(l, kf, 0, NULL, l->max_warp_insts, counts, fault);
}

/* Part of a grid with an observer (exec.h): the long-run machinery uses it
 * to warm cache tags while fast-forwarding, to profile launches for
 * sampling, and to finish a kernel functionally once its detailed
 * simulation has stopped. No instruction cap. */
ws_status ws_exec_grid_observed(const ws_launch_desc *l, uint64_t first_cta,
                                const ws_exec_observer *obs, ws_exec_counts *counts,
                                ws_fault *fault) {
    ws_fault dummy;
    if (!fault) fault = &dummy;
    const ws_func *kf = launch_begin(l, counts, fault);
    if (!kf) return fault->code;
    return run_ctas(l, kf, first_cta, obs, 0, counts, fault);
}
