/* Functional execution of a whole grid: CTAs one after another; inside a
 * CTA each warp runs until it blocks at a barrier or exits, then the next
 * (round robin), which keeps the hot loop on one warp's registers. */
#include <stdio.h>
#include <stdlib.h>

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

/* The hang detector's view of one CTA. */
typedef struct {
    uint64_t writes_seen, quiet_from, parked_writes;
} hang_state;

/* One pass over a CTA's warps: each runs until it blocks at a barrier,
 * sleeps or exits. obs (NULL on the plain path, where this inlines to the
 * loop without it) sees every executed instruction; cap (0: none) stops once
 * the grid's warp instructions, `before` plus this CTA's, reach it
 * (*capped). *progress: some warp executed something. WS_OK or the fault. */
static inline __attribute__((always_inline)) ws_status
cta_pass(ws_cta *c, const ws_exec_observer *obs, ws_step *st, uint32_t sm, uint64_t hang, uint64_t cap,
         uint64_t before, bool *capped, hang_state *h, bool *progress, uint32_t quantum, ws_fault *fault) {
    ws_status rc = WS_OK;
    for (uint32_t wi = 0; wi < c->nwarps && rc == WS_OK && !*capped; wi++) {
        ws_warp *w = &c->warps[wi];
        if (w->state == WS_WARP_SLEEP) w->state = WS_WARP_RUN; /* its turn again */
        /* quantum (0: none): at most that many instructions per turn, so that a warp spinning
           on another CTA's write lets that CTA run (grids and clusters run side by side) */
        for (uint32_t left = quantum; w->state == WS_WARP_RUN && (!quantum || left); left--) {
            ws_step_result r = ws_cta_step_warp(c, w, st, fault);
            if (r == WS_STEP_FAULT) { rc = fault->code; break; }
            if (r != WS_STEP_BARRIER) *progress = true;
            if (st && r == WS_STEP_OK) obs->step(obs->ctx, sm, st);
            if (cap && before + c->counts.warp_insts >= cap) { *capped = true; break; }
            if (!hang) continue;
            if (c->counts.mem_writes != h->writes_seen || r == WS_STEP_DONE) {
                h->writes_seen = c->counts.mem_writes;
                h->quiet_from = c->counts.warp_insts;
            } else if (c->counts.warp_insts - h->quiet_from >= hang) {
                hang_report(c, c->counts.warp_insts - h->quiet_from, fault);
                rc = fault->code;
                break;
            }
        }
    }
    return rc;
}

/* No warp of c progressed: wake mbarrier pollers if memory changed since
 * they parked. True when some woke. */
static bool wake_pollers(ws_cta *c, hang_state *h) {
    if (c->counts.mem_writes == h->parked_writes) return false;
    bool woke = false;
    for (uint32_t wi = 0; wi < c->nwarps; wi++)
        if (c->warps[wi].state == WS_WARP_MBAR) c->warps[wi].state = WS_WARP_RUN, woke = true;
    h->parked_writes = c->counts.mem_writes;
    return woke;
}

/* One CTA to its end (see cta_pass). Returns WS_OK or the fault. */
static inline __attribute__((always_inline)) ws_status
run_cta(ws_cta *c, const ws_exec_observer *obs, uint32_t sm, uint64_t hang, uint64_t cap,
        uint64_t before, bool *capped, ws_fault *fault) {
    ws_step step_buf, *st = obs && obs->step ? &step_buf : NULL;
    step_buf.addr = step_buf.addr_own;
    ws_status rc = WS_OK;
    c->counts = (ws_exec_counts){0};
    c->parks = true;
    /* CTAs run one at a time, so the hang detector looks at this CTA only */
    hang_state h = {0, 0, UINT64_MAX};
    while (!ws_cta_done(c) && rc == WS_OK && !*capped) {
        bool progress = false;
        rc = cta_pass(c, obs, st, sm, hang, cap, before, capped, &h, &progress, 0, fault);
        if (rc != WS_OK || *capped || progress || ws_cta_done(c)) continue;
        if (wake_pollers(c, &h)) continue;
        ws_cta_deadlock(c, fault);
        rc = WS_ERR_DEADLOCK;
    }
    return rc;
}

/* The n CTAs of a cluster side by side, a pass of each in turn, until all
 * are done: they wait for each other at the cluster barrier. Not inlined:
 * cluster launches are rare and the plain path stays as it was. */
#define SIDE_BY_SIDE_QUANTUM 1024 /* warp instructions per turn when CTAs run side by side */
static __attribute__((noinline)) ws_status
run_cluster(ws_cta **cs, uint32_t n, const ws_exec_observer *obs, uint32_t sm, uint64_t hang, uint64_t cap,
            uint64_t before, bool *capped, hang_state *hs, ws_fault *fault) {
    ws_step step_buf, *st = obs && obs->step ? &step_buf : NULL;
    step_buf.addr = step_buf.addr_own;
    ws_status rc = WS_OK;
    for (uint32_t r = 0; r < n; r++) {
        cs[r]->counts = (ws_exec_counts){0};
        cs[r]->parks = true;
        hs[r] = (hang_state){0, 0, UINT64_MAX};
    }
    for (;;) {
        uint32_t done = 0;
        for (uint32_t r = 0; r < n; r++) done += ws_cta_done(cs[r]);
        if (done == n || rc != WS_OK || *capped) break;
        bool progress = false;
        for (uint32_t r = 0; r < n && rc == WS_OK && !*capped; r++) {
            uint64_t others = 0;
            for (uint32_t q = 0; q < n; q++) others += q != r ? cs[q]->counts.warp_insts : 0;
            if (!ws_cta_done(cs[r]))
                rc = cta_pass(cs[r], obs, st, sm, hang, cap, before + others, capped, &hs[r], &progress,
                              SIDE_BY_SIDE_QUANTUM, fault);
        }
        if (rc != WS_OK || *capped || progress) continue;
        bool woke = false;
        for (uint32_t r = 0; r < n; r++) woke |= wake_pollers(cs[r], &hs[r]);
        if (woke) continue;
        for (uint32_t r = 0; r < n; r++)
            if (!ws_cta_done(cs[r])) { ws_cta_deadlock(cs[r], fault); break; }
        rc = WS_ERR_DEADLOCK;
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
    if (l->cluster[0] && (!l->cluster[1] || !l->cluster[2] || l->grid[0] % l->cluster[0] ||
                          l->grid[1] % l->cluster[1] || l->grid[2] % l->cluster[2])) {
        fault->code = WS_ERR_INVALID_VALUE;
        snprintf(fault->msg, sizeof fault->msg, "kernel %s: grid %ux%ux%u is not a whole number of %ux%ux%u clusters",
                 kf->name, l->grid[0], l->grid[1], l->grid[2], l->cluster[0], l->cluster[1], l->cluster[2]);
        return NULL;
    }
    /* Constants may have been written through their device address. */
    if (m->const_size && l->img->const_base)
        ws_gmem_read(l->gmem, l->img->const_base, l->img->const_mem, m->const_size);
    return kf;
}

/* Cluster launches: clusters from the one holding CTA `first` (dispatch order,
 * exec.h) on, each cluster's CTAs together; %smid as the timing model places
 * them, a whole cluster on one SM. */
static __attribute__((noinline)) ws_status
run_clusters(const ws_launch_desc *l, const ws_func *kf, uint64_t first, const ws_exec_observer *obs,
             uint64_t cap, ws_exec_counts *counts, ws_fault *fault) {
    uint64_t nc = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint32_t n = ws_launch_cluster_size(l), nsm = l->num_sms ? l->num_sms : 1;
    ws_exec_counts tot = {0};
    ws_cta **cs = calloc(n, sizeof *cs);
    hang_state *hs = calloc(n, sizeof *hs);
    ws_status rc = WS_OK;
    bool capped = false;
    if (!cs || !hs) {
        rc = fault->code = WS_ERR_OUT_OF_MEMORY;
        snprintf(fault->msg, sizeof fault->msg, "kernel %s: cannot allocate CTA state", kf->name);
    }
    for (uint64_t ci = first / n; rc == WS_OK && !capped && ci * n < nc; ci++) {
        uint32_t sm = (uint32_t)(ci % nsm);
        ws_cluster *cl = ws_cluster_create(l, ci);
        for (uint32_t r = 0; r < n && cl; r++) {
            uint32_t id[3];
            ws_launch_cta_of(l, ci * n + r, id);
            if (!cs[r] ? !(cs[r] = ws_cta_create(l, id, sm)) : !ws_cta_reset(cs[r], id, sm)) {
                ws_cluster_release(cl);
                cl = NULL;
                break;
            }
            ws_cluster_join(cl, cs[r], r);
        }
        if (!cl) {
            rc = fault->code = WS_ERR_OUT_OF_MEMORY;
            snprintf(fault->msg, sizeof fault->msg, "kernel %s: cannot allocate CTA state", kf->name);
            break;
        }
        ws_cluster_release(cl); /* the CTAs hold it now */
        rc = run_cluster(cs, n, obs, sm, l->hang_warp_insts, cap, tot.warp_insts, &capped, hs, fault);
        for (uint32_t r = 0; r < n; r++) {
            tot.warp_insts += cs[r]->counts.warp_insts;
            tot.thread_insts += cs[r]->counts.thread_insts;
            tot.thread_insts_exec += cs[r]->counts.thread_insts_exec;
            tot.mem_writes += cs[r]->counts.mem_writes;
            if (obs && obs->cta_done) obs->cta_done(obs->ctx, sm, &cs[r]->counts);
        }
    }
    if (counts) *counts = tot;
    for (uint32_t r = 0; cs && r < n; r++) ws_cta_destroy(cs[r]);
    free(cs);
    free(hs);
    return rc;
}

/* A cooperative launch: every CTA of the grid side by side (grid sync spins
 * on a counter the others advance), %smid as linear CTA index modulo the
 * SMs. No cap by warp instructions beyond the grid's; not resumable midway
 * (first must be 0). */
static __attribute__((noinline)) ws_status
run_cooperative(const ws_launch_desc *l, const ws_func *kf, uint64_t first, const ws_exec_observer *obs,
                uint64_t cap, ws_exec_counts *counts, ws_fault *fault) {
    uint64_t nc = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint32_t nsm = l->num_sms ? l->num_sms : 1;
    if (first) {
        fault->code = WS_ERR_INVALID_VALUE;
        snprintf(fault->msg, sizeof fault->msg, "kernel %s: a cooperative grid runs whole, not from CTA %llu",
                 kf->name, (unsigned long long)first);
        return fault->code;
    }
    if (nc > 65536) {
        fault->code = WS_ERR_INVALID_CONFIG;
        snprintf(fault->msg, sizeof fault->msg, "kernel %s: a cooperative grid of %llu CTAs is too large", kf->name,
                 (unsigned long long)nc);
        return fault->code;
    }
    ws_cta **cs = calloc(nc, sizeof *cs);
    hang_state *hs = calloc(nc, sizeof *hs);
    ws_status rc = WS_OK;
    bool capped = false;
    for (uint64_t i = 0; cs && hs && i < nc; i++) {
        uint32_t id[3];
        ws_launch_cta_of(l, i, id);
        if (!(cs[i] = ws_cta_create(l, id, (uint32_t)(i % nsm)))) break;
    }
    if (!cs || !hs || !cs[nc - 1]) {
        rc = fault->code = WS_ERR_OUT_OF_MEMORY;
        snprintf(fault->msg, sizeof fault->msg, "kernel %s: cannot allocate CTA state", kf->name);
    } else {
        rc = run_cluster(cs, (uint32_t)nc, obs, 0, l->hang_warp_insts, cap, 0, &capped, hs, fault);
    }
    ws_exec_counts tot = {0};
    for (uint64_t i = 0; cs && i < nc && cs[i]; i++) {
        tot.warp_insts += cs[i]->counts.warp_insts;
        tot.thread_insts += cs[i]->counts.thread_insts;
        tot.thread_insts_exec += cs[i]->counts.thread_insts_exec;
        tot.mem_writes += cs[i]->counts.mem_writes;
        if (rc == WS_OK && obs && obs->cta_done) obs->cta_done(obs->ctx, (uint32_t)(i % nsm), &cs[i]->counts);
    }
    if (counts) *counts = tot;
    for (uint64_t i = 0; cs && i < nc; i++) ws_cta_destroy(cs[i]);
    free(cs);
    free(hs);
    return rc;
}

/* CTAs first..end of the grid in linear order (x fastest), CTA by CTA. */
static inline __attribute__((always_inline)) ws_status
run_ctas(const ws_launch_desc *l, const ws_func *kf, uint64_t first, const ws_exec_observer *obs,
         uint64_t cap, ws_exec_counts *counts, ws_fault *fault) {
    if (l->grid_ws) return run_cooperative(l, kf, first, obs, cap, counts, fault);
    if (l->cluster[0]) return run_clusters(l, kf, first, obs, cap, counts, fault);
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
