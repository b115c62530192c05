/* Functional execution of part of a grid with an observer: the CTAs from a
 * given linear index to the end, and every executed warp instruction shown
 * to a callback (its addresses included). The long-run machinery uses it
 * to warm cache tags while fast-forwarding, to profile launches for
 * sampling, and to finish a kernel functionally once its detailed
 * simulation has stopped. ws_exec_grid stays the plain, fastest path. */
#include <stdio.h>

#include "exec/exec_internal.h"

ws_status ws_exec_grid_observed(const ws_launch_desc *l, uint64_t first_cta,
                                const ws_exec_observer *obs, ws_exec_counts *counts,
                                ws_fault *fault) {
    ws_fault dummy;
    if (!fault) fault = &dummy;
    fault->code = WS_OK;
    fault->msg[0] = 0;
    if (counts) *counts = (ws_exec_counts){0};
    if (!l || !l->img || !l->img->mod || !l->gmem || l->func >= l->img->mod->nfuncs) {
        fault->code = WS_ERR_INVALID_VALUE;
        snprintf(fault->msg, sizeof fault->msg, "invalid launch (missing image, memory or kernel)");
        return WS_ERR_INVALID_VALUE;
    }
    const ws_module *m = l->img->mod;
    const ws_func *kf = &m->funcs[l->func];
    uint64_t nc = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (first_cta >= nc) return WS_OK;
    if (m->const_size && l->img->const_base)
        ws_gmem_read(l->gmem, l->img->const_base, l->img->const_mem, m->const_size);
    uint32_t nsm = l->num_sms ? l->num_sms : 1;
    ws_step *st = NULL;
    ws_step step_buf;
    if (obs && obs->step) st = &step_buf;
    ws_cta *c = NULL;
    ws_status rc = WS_OK;
    uint64_t hang = l->hang_warp_insts;
    ws_exec_counts tot = {0};
    for (uint64_t lin = first_cta; lin < nc && rc == WS_OK; lin++) {
        uint32_t id[3] = {(uint32_t)(lin % l->grid[0]), (uint32_t)(lin / l->grid[0] % l->grid[1]),
                          (uint32_t)(lin / ((uint64_t)l->grid[0] * l->grid[1]))};
        uint32_t sm = (uint32_t)(lin % nsm);
        if (!c) c = ws_cta_create(l, id, sm);
        else if (!ws_cta_reset(c, id, sm)) {
            ws_cta_destroy(c);
            c = NULL;
        }
        if (!c) {
            rc = fault->code = WS_ERR_OUT_OF_MEMORY;
            snprintf(fault->msg, sizeof fault->msg, "kernel %s: out of host memory", kf->name);
            break;
        }
        c->counts = (ws_exec_counts){0};
        uint64_t writes_seen = 0, quiet_from = 0;
        while (!ws_cta_done(c) && rc == WS_OK) {
            bool progress = false;
            for (uint32_t wi = 0; wi < c->nwarps && rc == WS_OK; wi++) {
                ws_warp *w = &c->warps[wi];
                while (w->state == WS_WARP_RUN) {
                    ws_step_result r = ws_cta_step_warp(c, w, st, fault);
                    if (r == WS_STEP_FAULT) {
                        rc = fault->code;
                        break;
                    }
                    if (r != WS_STEP_BARRIER) progress = true;
                    if (st && r == WS_STEP_OK) obs->step(obs->ctx, sm, st);
                    if (!hang) continue;
                    if (c->counts.mem_writes != writes_seen || r == WS_STEP_DONE) {
                        writes_seen = c->counts.mem_writes;
                        quiet_from = c->counts.warp_insts;
                    } else if (c->counts.warp_insts - quiet_from >= hang) {
                        ws_where_tally t = {0};
                        for (uint32_t i = 0; i < c->nwarps; i++) ws_where_add(&t, c, i);
                        ws_hang_message(kf->name, c->counts.warp_insts - quiet_from, &t,
                                        " (-warpsim_hang_insns)", fault);
                        rc = fault->code;
                        break;
                    }
                }
            }
            if (rc == WS_OK && !progress && !ws_cta_done(c)) {
                ws_cta_deadlock(c, fault);
                rc = WS_ERR_DEADLOCK;
            }
        }
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
