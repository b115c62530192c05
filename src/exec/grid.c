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

ws_status ws_exec_grid(const ws_launch_desc *l, ws_exec_counts *counts, ws_fault *fault) {
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
    uint64_t nt = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    uint64_t nc = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (!kf->is_entry || nt == 0 || nt > 4096 || nc == 0) {
        fault->code = WS_ERR_INVALID_VALUE;
        snprintf(fault->msg, sizeof fault->msg, "kernel %s: invalid launch (%s, block %ux%ux%u, grid %ux%ux%u)",
                 kf->name, kf->is_entry ? "entry" : "not an .entry", l->block[0], l->block[1], l->block[2],
                 l->grid[0], l->grid[1], l->grid[2]);
        return WS_ERR_INVALID_VALUE;
    }
    /* Constants may have been written through their device address. */
    if (m->const_size && l->img->const_base)
        ws_gmem_read(l->gmem, l->img->const_base, l->img->const_mem, m->const_size);
    uint32_t zero[3] = {0, 0, 0};
    ws_cta *c = ws_cta_create(l, zero, 0);
    if (!c) {
        fault->code = WS_ERR_OUT_OF_MEMORY;
        snprintf(fault->msg, sizeof fault->msg, "kernel %s: cannot allocate CTA state", kf->name);
        return WS_ERR_OUT_OF_MEMORY;
    }
    uint64_t cap = l->max_warp_insts, total_w = 0, total_t = 0, total_x = 0;
    uint64_t hang = l->hang_warp_insts;
    ws_status rc = WS_OK;
    uint32_t nsm = l->num_sms ? l->num_sms : 1;
    uint64_t linear = 0;
    for (uint32_t z = 0; z < l->grid[2] && rc == WS_OK; z++)
        for (uint32_t y = 0; y < l->grid[1] && rc == WS_OK; y++)
            for (uint32_t xx = 0; xx < l->grid[0] && rc == WS_OK; xx++, linear++) {
                uint32_t id[3] = {xx, y, z};
                if (linear && !ws_cta_reset(c, id, (uint32_t)(linear % nsm))) {
                    rc = fault->code = WS_ERR_OUT_OF_MEMORY;
                    snprintf(fault->msg, sizeof fault->msg, "kernel %s: out of host memory", kf->name);
                    break;
                }
                c->counts = (ws_exec_counts){0};
                /* CTAs run one at a time, so the hang detector looks at this CTA only */
                uint64_t writes_seen = 0, quiet_from = 0, parked_writes = UINT64_MAX;
                bool capped = false;
                while (!ws_cta_done(c) && rc == WS_OK && !capped) {
                    bool progress = false;
                    for (uint32_t wi = 0; wi < c->nwarps && rc == WS_OK && !capped; wi++) {
                        ws_warp *w = &c->warps[wi];
                        if (w->state == WS_WARP_SLEEP) w->state = WS_WARP_RUN; /* its turn again */
                        while (w->state == WS_WARP_RUN) {
                            ws_step_result r = ws_cta_step_warp(c, w, NULL, fault);
                            if (r == WS_STEP_FAULT) { rc = fault->code; break; }
                            if (r != WS_STEP_BARRIER) progress = true;
                            if (cap && total_w + c->counts.warp_insts >= cap) { capped = true; break; }
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
                    if (rc == WS_OK && !capped && !progress && !ws_cta_done(c) &&
                        c->counts.mem_writes != parked_writes) { /* mbarrier pollers: look again */
                        bool woke = false;
                        for (uint32_t wi = 0; wi < c->nwarps; wi++)
                            if (c->warps[wi].state == WS_WARP_MBAR) c->warps[wi].state = WS_WARP_RUN, woke = true;
                        parked_writes = c->counts.mem_writes;
                        if (woke) continue;
                    }
                    if (rc == WS_OK && !capped && !progress && !ws_cta_done(c)) {
                        ws_cta_deadlock(c, fault);
                        rc = WS_ERR_DEADLOCK;
                    }
                }
                total_w += c->counts.warp_insts;
                total_t += c->counts.thread_insts;
                total_x += c->counts.thread_insts_exec;
                if (capped) goto out;
            }
out:
    if (counts) {
        counts->warp_insts = total_w;
        counts->thread_insts = total_t;
        counts->thread_insts_exec = total_x;
    }
    ws_cta_destroy(c);
    return rc;
}
