/* Warp schedulers (-gpgpu_num_sched_per_core; warp w belongs to scheduler
 * w % n). Each cycle the schedulers run in a rotating order; each asks its
 * policy (src/policy/sched) for an order and issues from the first warp
 * that can, up to -gpgpu_max_insn_issue_per_warp instructions (a second
 * one only if the first issued). A warp can issue when its ibuffer head is
 * valid and on the functional path (else the ibuffer is flushed: control
 * hazard), it is not waiting (barrier, memory barrier, atomic), the
 * scoreboard is clear and its class's ID_OC register has room. The
 * instruction executes functionally at issue (ws_warp_step). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "timing/sm/hazard.h"
#include "timing/sm/sm_internal.h"
#include "util/bits.h"

int sm_issue_init(ws_sm *sm, char *err, size_t errlen) {
    sm->n_sched = (unsigned)sm->cfg->num_sched_per_core;
    sm->max_issue = (unsigned)sm->cfg->max_insn_issue_per_warp;
    sm->sched = calloc(sm->n_sched, sizeof *sm->sched);
    sm->sview = calloc(sm->max_warps, sizeof *sm->sview);
    sm->view_per = (sm->max_warps + sm->n_sched - 1) / sm->n_sched;
    /* sorder, then rk_by and rk_rank: one allocation */
    sm->sorder = calloc(3 * (size_t)sm->view_per * sm->n_sched, sizeof *sm->sorder);
    sm->ss = aligned_alloc(_Alignof(sm_sched_st), sm->n_sched * sizeof *sm->ss);
    if (sm->ss) memset(sm->ss, 0, sm->n_sched * sizeof *sm->ss);
    sm->pview = calloc((size_t)sm->view_per * sm->n_sched, sizeof *sm->pview);
    sm->pwait = calloc((size_t)sm->view_per * sm->n_sched, sizeof *sm->pwait);
    if (!sm->sched || !sm->sview || !sm->sorder || !sm->ss || !sm->pview || !sm->pwait) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    sm->rk_by = sm->sorder + (size_t)sm->view_per * sm->n_sched;
    sm->rk_rank = sm->rk_by + (size_t)sm->view_per * sm->n_sched;
    for (unsigned i = 0; i < sm->view_per * sm->n_sched; i++)
        sm->rk_by[i] = sm->rk_rank[i] = (uint16_t)(i % sm->view_per);
    sm->rk_stale = ~0u;
    sm->vsched = calloc(sm->max_warps, 1);
    sm->vbit = calloc(sm->max_warps, 1);
    sm->wblk = calloc(sm->max_warps, 1);
    if (!sm->vsched || !sm->vbit || !sm->wblk) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    for (unsigned wi = 0; wi < sm->max_warps; wi++) {
        sm->pview[wi % sm->n_sched * sm->view_per + wi / sm->n_sched].slot = (uint16_t)wi;
        sm->vsched[wi] = (uint8_t)(wi % sm->n_sched);
        sm->vbit[wi] = (uint8_t)(wi / sm->n_sched & 63);
        sm_view_dirty(sm, wi);
    }
    /* dirty bits cover 64 warps per scheduler; beyond that (and to check
       them, without -warpsim_skip_idle) every view is rebuilt every time */
    sm->view_all = sm->view_per > 64 || !sm->cfg->skip_idle;
    sm->throttle = calloc(sm->n_sched, sizeof *sm->throttle);
    if (!sm->throttle) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    for (unsigned s = 0; s < sm->n_sched; s++) {
        unsigned n = (sm->max_warps + sm->n_sched - 1 - s) / sm->n_sched;
        if (ws_sched_create(&sm->sched[s], sm->cfg->scheduler, n, err, errlen)) return -1;
        if (ws_throttle_create(&sm->throttle[s], sm->cfg->throttle, n, err, errlen)) return -1;
        sm_sched_st *q = &sm->ss[s];
        q->n = n;
        q->pol = sm->sched[s].policy;
        q->pst = sm->sched[s].state;
        q->plast = q->pol->last ? q->pol->last(q->pst) : NULL;
        q->pv = &sm->pview[s * sm->view_per];
        q->swait = &sm->pwait[s * sm->view_per];
        q->order = &sm->sorder[s * sm->view_per];
        q->rk_by = &sm->rk_by[s * sm->view_per];
        q->rk_rank = &sm->rk_rank[s * sm->view_per];
        q->rk_moved = ~0ull; /* (rk_stale: all; the first sort inserts every view) */
    }
    sm->throttling = sm->throttle[0].policy != ws_throttle_find("none");
    /* the same policies in every scheduler: whether the SM adds to the views is fixed */
    sm->views_add = sm->sched[0].policy->uses_longop || sm->throttle[0].policy->needs_next_load ||
                    sm->throttling;
    unsigned rem = sm->max_warps % sm->n_sched; /* schedulers below it have view_per warps */
    sm->sched_full = rem ? rem : sm->n_sched;
    const ws_sched_policy *sp = sm->sched[0].policy;
    sm->rk_ok = sp->shape != WS_SCHED_ANY && sp->first && sp->stable && !sm->view_all &&
                !sm->views_add && !sm->throttling;
    /* schemes ranking all of the SM's warps (CCWS) also keep per-SM state fed by L1D events */
    if (ws_throttle_sm_create(&sm->throttle_sm, sm->cfg->throttle, sm->max_warps,
                              ws_cache_get_cfg(sm->l1d)->line_size, sm->throttle, sm->n_sched,
                              err, errlen))
        return -1;
    if (sm->throttle_sm.policy && sm->throttle_sm.policy->l1d_evict)
        ws_cache_set_evict_hook(sm->l1d, sm->throttle_sm.policy->l1d_evict, sm->throttle_sm.state);
    sm->route = sm->throttle_sm.policy ? sm->throttle_sm.policy->l1d_route : NULL;
    /* (sm_issue_cycle's lean loop: the shape walk, nothing to call before it) */
    sm->iss_lean = sm->rk_ok && !sm->owes && !sm->throttle_sm.policy;
    if (sm_smc_init(sm, err, errlen)) return -1;
    /* a throttle filter may keep per-cycle state: throttled runs take the full path, unless
       the policy versions its state (a new version counts as a change: sm_issue_cycle) */
    bool versioned = sm->throttle_sm.policy && sm->throttle_sm.policy->sm_version;
    sm->memo_ok = sm->sched[0].policy->stable && (!sm->throttling || versioned) &&
                  sm->cfg->skip_idle;
    if (sm->hp) sm->memo_ok = false; /* the gate reads MSHR state that moves on its own */
    sm->blk_ok = (!sm->throttling || versioned) && sm->cfg->skip_idle; /* throttles gate per cycle */
    sm->gen = 1;
    return 0;
}

static inline ws_warp *fwarp(const ws_sm *sm, const sm_warp *w) {
    return &sm->ctas[w->cta].cta->warps[w->wid];
}

static void view_sync_others(ws_sm *sm);

/* After the engine ran a warp of CTA slot k: if any warp's state changed
   (barrier arrival or release, a warp done), all its warps' views may. */
static void view_sync_changed(ws_sm *sm, sm_cta *c);
static inline void view_sync_cta(ws_sm *sm, unsigned k) {
    sm_cta *c = &sm->ctas[k];
    if (c->cta->state_changes != c->state_seen) view_sync_changed(sm, c); /* (rarely) */
}

static __attribute__((noinline)) void view_sync_changed(ws_sm *sm, sm_cta *c) {
    c->state_seen = c->cta->state_changes;
    for (uint32_t i = 0; i < c->nwarps && c->first_warp + i < sm->max_warps; i++)
        sm_view_dirty(sm, c->first_warp + i);
    /* a cluster barrier's phase (it changes every member's state) releases warps of the
       cluster's other CTAs, all on this SM (gpu.c places a cluster on one SM) */
    if (sm->launch.cluster[0]) view_sync_others(sm);
}

static __attribute__((noinline)) void view_sync_others(ws_sm *sm) {
    for (unsigned j = 0; j < sm->max_ctas; j++) {
        sm_cta *c = &sm->ctas[j];
        if (!c->used || c->cta->state_changes == c->state_seen) continue;
        c->state_seen = c->cta->state_changes;
        for (uint32_t i = 0; i < c->nwarps && c->first_warp + i < sm->max_warps; i++)
            sm_view_dirty(sm, c->first_warp + i);
    }
}

/* The function and pc the warp executes next (the engine settles finished
   SIMT paths and returns from finished calls first). */
static inline __attribute__((always_inline)) bool func_next(ws_sm *sm, sm_warp *w, uint32_t *func,
                                                            uint32_t *pc) {
    if (!w->nx_valid) {
        w->nx_alive = ws_warp_next_inline(sm->ctas[w->cta].cta, w->wid, &w->nx_func, &w->nx_pc);
        w->nx_valid = true;
        view_sync_cta(sm, w->cta); /* settling may end the warp: barriers may release */
    }
    *func = w->nx_func;
    *pc = w->nx_pc;
    return w->nx_alive;
}

static bool fw_all_exited(const ws_sm *sm, const sm_warp *w) {
    const ws_warp *fw = fwarp(sm, w);
    return fw->state == WS_WARP_DONE || (fw->lanes & ~fw->exited) == 0;
}

/* The head's (func, pc) is the functional next one (func_next's, kept in the warp): both
   pairs as one 64-bit word each (a compare of two words, no lane moves). */
static inline bool same_place(const sm_ibuf *e, const sm_warp *w) {
    _Static_assert(offsetof(sm_ibuf, pc) == offsetof(sm_ibuf, func) + 4 &&
                       offsetof(sm_warp, nx_pc) == offsetof(sm_warp, nx_func) + 4,
                   "(func, pc) pairs are adjacent");
    uint64_t a, b;
    memcpy(&a, &e->func, sizeof a);
    memcpy(&b, &w->nx_func, sizeof b);
    return a == b;
}

/* Waiting at a barrier, a memory barrier (until its register writes are
   done; then the L1 is flushed if -gpgpu_flush_l1_cache) or an atomic. */
static inline __attribute__((always_inline)) bool warp_waiting(ws_sm *sm, sm_warp *w,
                                                              bool *at_bar) {
    if (fwarp(sm, w)->state == WS_WARP_BAR) {
        *at_bar = true;
        return true;
    }
    if (w->membar) { /* (cp.async.wait_group / wait_all: also the warp's copies) */
        if (w->n_reserved || w->n_cpasync) return true;
        w->membar = false;
        sm->gen++;
        if (sm->cfg->flush_l1_cache) ws_cache_invalidate(sm->l1d);
    }
    return w->n_atomic > 0;
}

static void mark_done(ws_sm *sm, unsigned wi) {
    sm_warp *w = &sm->warps[wi];
    w->func_done = true;
    sm->gen++;
    sm_view_dirty(sm, wi);
    sm_ibuf_flush(w);
    sm_fetch_mark(sm, wi);
    sm_warp_try_finish(sm, wi);
}

/* Issue the instruction at the head of warp wi's ibuffer. Returns 1 if
   issued, 0 if the warp turned out to wait or be done, -1 on a fault. */
static int issue_one(ws_sm *sm, unsigned wi, const sm_ibuf *e, sm_regset *rs) {
    sm_warp *w = &sm->warps[wi];
    ws_cta *cta = sm->ctas[w->cta].cta;
    ws_step st;
    ws_fault f;
    /* one memory instruction per warp and cycle (only an ID_OC_MEM wider than 1 could
       allow two): a thread's load then always sees its own earlier stores, which reach
       memory at the end of the cycle (ws_sm_commit) */
    if (e->dec->is_mem && w->mem_cycle == sm->now + 1) return 0;
    sm->gen++; /* whatever the step does (issue, barrier, exit) changes the views */
    /* a memory instruction's lane addresses go straight into the record sm_inst_alloc
       returns next (its free list's head), when there is one (copied below if another
       one came) */
    uint64_t *lane_addrs = st.addr_own;
    if (e->dec->is_mem && sm->free_inst) lane_addrs = sm->free_inst->addr;
    ws_step_result r = ws_warp_step_to(cta, w->wid, &st, lane_addrs, &f);
    /* func_next's answer from the step when it has it (its settle would change nothing,
       and view_sync_cta is called below), else asked again */
    if ((w->nx_valid = r == WS_STEP_OK && st.next_ok)) {
        w->nx_alive = true;
        w->nx_func = st.next_func;
        w->nx_pc = st.next_pc;
    }
    view_sync_cta(sm, w->cta); /* barrier arrival, release, exit */
    if (r != WS_STEP_OK) sm_view_dirty(sm, wi);
    if (r == WS_STEP_FAULT) {
        sm_set_fault(sm, &f);
        return -1;
    }
    if (r == WS_STEP_DONE) {
        mark_done(sm, wi);
        return 0;
    }
    if (r == WS_STEP_BARRIER) return 0;
    /* warp reordering: its accesses after a barrier are a new epoch */
    if (sm->ro && st.inst->op == WS_OP_BAR && st.inst->sub != WS_BAR_WARP_SYNC && st.active)
        sm_ro_barrier(sm, wi);
    const sm_dec *d = e->dec;
    /* it may wait now (memory barrier, atomic): only a memory instruction makes it (the walk
       issues only from a warp that did not wait: no memory barrier, no atomic out) */
    bool waits = false;
    sm_inst *in = sm_inst_alloc(sm);
    in->inst = st.inst;
    in->uid = sm->next_uid++;
    in->warp = (uint16_t)wi;
    in->cls = d->cls;
    in->lat = d->lat;
    in->ii = d->ii;
    in->active = st.active;
    in->nact = (uint8_t)(st.active == ~0u ? WS_WARP_SIZE : ws_popc32(st.active));
    in->ndst = d->ndst;
    /* whole arrays: fixed-size copies, no library call (only the first ndst, nsrc count) */
    _Static_assert(sizeof in->dst == sizeof d->dst && sizeof in->src_bank == sizeof d->bank,
                   "sm_inst's register lists mirror sm_dec's");
    memcpy(in->dst, d->dst, sizeof in->dst);
    in->nsrc = d->nrd;
    memcpy(in->src_bank, d->bank, sizeof in->src_bank);
    in->nrd = 0;
    in->is_load = in->is_store = in->is_atomic = in->is_membar = in->in_dispatch = false;
    in->longop = false;
    in->cpasync = d->is_cpasync;
    in->pending = 0;
    in->smem_cycles = 0;
    /* (ldst.c and units.c test these in every mode) */
    in->rp_live = in->rp_ready = in->rp_hold = false;
    in->rp_pass = 0;
    if (sm->replay || sm->retain || sm->hp) { /* the rest: read only by replay.c and hp.c */
        in->rp_last = in->rp_fail = SM_HZ_N;
        in->rp_made = in->rp_out = in->rp_cursor = 0;
        in->rp_ntx = in->rp_ndone = 0;
        in->rp_groups = in->rp_pam = 0;
        in->rp_done[0] = in->rp_done[1] = 0;
        in->hp_credit = in->hp_known = in->hp_had_credit = false;
        in->hp_pred = 2;
        if (sm->hp) in->hp_pc = sm->func_base[e->func] + e->pc;
    }
    if (d->is_mem) {
        ws_opcode op = (ws_opcode)st.inst->op;
        w->mem_cycle = sm->now + 1;
        sm->st.warp_insts_mem++;
        in->is_membar = d->is_membar;
        in->is_atomic = st.is_atomic;
        in->is_store = st.is_store && !st.is_atomic;
        in->is_load = !in->is_membar && !in->is_store && op != WS_OP_PREFETCH;
        in->space = st.mem_space;
        in->access_size = st.access_size;
        if (st.active && st.addr != in->addr) memcpy(in->addr, st.addr, sizeof in->addr);
        if (in->space == WS_SPACE_TEX) sm_tex_issue(sm, in, &st);
        if (in->space == WS_SPACE_SHARED && st.active)
            in->smem_cycles = sm_smem_cycles(sm, st.addr, st.active);
        in->longop = in->is_load && (in->space == WS_SPACE_GLOBAL || in->space == WS_SPACE_LOCAL ||
                                     in->space == WS_SPACE_TEX);
        /* GPGPU-Sim's gpgpu_n_*_insn: guard-true lanes by the space accessed */
        if (!in->is_membar && op != WS_OP_PREFETCH)
            sm->st.mem_insn[in->space][in->is_store] += in->nact;
        if (in->is_membar) w->membar = true;
        if (in->is_atomic) w->n_atomic++;
        waits = in->is_membar || in->is_atomic;
        if (sm->ro) sm_ro_issued(sm, wi, in);
        w->n_cpasync += in->cpasync;
    }
    sm_sb_reserve(sm, w, in, in->longop);
    if (sm->replay || sm->retain) sm_replay_track(sm, w, in);
    w->iss_seq++;
    w->n_inflight++;
    w->last_issue = sm->now;
    bool gated = sm->hp && !sm_hp_gate(sm, in);
    if (gated) w->hp_gated = in; /* hazard prediction holds it at the issue point */
    else {
        sm_regset_push(rs, in);
        sm_idoc_in(sm, in, d->cls);
    }
    /* the ibuffer slot is consumed (fetch continues after the buffer's tail) */
    sm_ibuf_pop(w);
    sm_fetch_mark_t(sm, wi, w, true); /* (once per issue: no call; it issued, so live) */
    /* its view changes only if it now waits (memory barrier, atomic: set above) or its
       state changed (view_sync_cta marked its CTA): sm_view_unblock, with its test and
       masks shared with what follows. An empty buffer now: the walk would stop there
       (nothing before that check has a side effect), so the stop is kept at once, unless
       the warp was marked (its view is looked at again) or may now wait (the view is
       looked at again too: the first branch). */
    if (waits || sm->owes) {
        sm->gen++;
        sm_view_dirty(sm, wi);
    } else {
        sm_sched_st *q = &sm->ss[sm->vsched[wi]];
        uint64_t vb = 1ull << sm->vbit[wi];
        q->memo_gen = 0; /* (gen starts at 1) */
        /* (its psb bit needs no clearing: psb is set only with a kept scoreboard stop, from
           which no walk issues, and the bits of a marked view are cleared before the next
           walk reads them) */
        if (!w->ib[w->ib_next].valid && sm->blk_ok && !(q->vdirty & vb)) {
            sm->wblk[wi] = SM_BLK_EMPTY;
            q->pempty |= vb;
        } else {
            sm->wblk[wi] = SM_BLK_NONE;
            q->pempty &= ~vb;
        }
    }
    sm->st.warp_insts++;
    unsigned lanes = st.issued_mask == st.active ? in->nact : (unsigned)ws_popc32(st.issued_mask);
    sm->st.thread_insts += lanes;
    sm->st.issue_lanes[lanes]++;
    sm->st.thread_insts_exec += in->nact;
    sm->st.mem_writes += st.wrote;
    sm->progressed = true;
    if (d->is_ctrl && fw_all_exited(sm, w)) mark_done(sm, wi);
    return gated ? 2 : 1;
}

/* A global/local load as the throttle family sees it before execution: the
   static space, with generic loads counted (nvcc's generic loads are almost
   always global data). */
static bool is_gload(const ws_inst *in) {
    return in && (in->op == WS_OP_LD || in->op == WS_OP_LDU) &&
           (in->space == WS_SPACE_GLOBAL || in->space == WS_SPACE_LOCAL ||
            in->space == WS_SPACE_NONE);
}

/* Replay: the warp offers only its oldest replay-ready entry; else its load
   held back by hazard prediction. Out of line: the common loop stays small. */
static int owed_issue(ws_sm *sm, unsigned s, unsigned wi, unsigned idx, unsigned n,
                      const ws_sched_warp *sv) {
    int r = sm->warps[wi].rp_ready ? sm_replay_issue(sm, wi) : sm_hp_release(sm, wi);
    if (r > 0) {
        sm->sched[s].policy->issued(sm->sched[s].state, sv, n, idx);
        sm->ss[s].order_ok = false;
    }
    return r;
}

/* What a scheduler's walk found so far. */
typedef struct walk_st {
    unsigned f; /* WS_*: one word, set and tested as bits (six bools cost a store each) */
} walk_st;
enum { WS_VALID = 1, WS_READY = 2, WS_ISSUED = 4, WS_BAR = 8, WS_EMPTY = 16, WS_RESTRICTED = 32 };

/* Why warp wi stopped, kept until it changes; the scheduler's bit sets of the empty and
   scoreboard stops follow it (view bit vbit: used only without view_all). */
static inline __attribute__((always_inline)) void blk_set(ws_sm *sm, unsigned s, unsigned wi, uint8_t blk) {
    uint64_t bit = 1ull << sm->vbit[wi];
    sm->wblk[wi] = blk;
    sm->ss[s].pempty = (sm->ss[s].pempty & ~bit) | (blk == SM_BLK_EMPTY ? bit : 0);
    sm->ss[s].psb = (sm->ss[s].psb & ~bit) | (blk == SM_BLK_SCOREBOARD ? bit : 0);
}

/* May scheduler s put an instruction into ID_OC register k? (sm_regset_free_for, with
   the scheduler's count of its entries on sub-core SMs instead of a look at each) */
static inline bool idoc_room(const ws_sm *sm, unsigned k, unsigned s) {
    if (!sm->sub_core) return sm->id_oc[k].n < sm->id_oc[k].width;
    return !sm->ss[s].idoc_n[k];
}

/* The walk's look at the warp of view idx, one the views let through or any after a
   change: issues from it if it can. Returns -1 on a fault (the cycle ends), 1 when its
   first check found a control hazard (gen changed for this warp alone: its ibuffer
   flushed, its view marked), else 0.
   `known` (the quick walks' candidates): the views let it through and nothing changed
   since they were looked at (gen == gen_view), so it is valid, not done and not waiting
   (swait 0) at its first check; swait is then not read. */
static inline __attribute__((always_inline)) int walk_warp(ws_sm *sm, unsigned s, unsigned idx,
                                                           unsigned n, ws_sched_warp *sv,
                                                           const uint8_t *swait, uint64_t gen_view,
                                                           walk_st *ws,
                                                           const bool owes, const bool fast,
                                                           const bool known) {
    const bool thr = !fast && sm->throttling, blk_ok = fast || sm->blk_ok;
    const ws_sched_warp *v = &sv[idx];
    if (thr && v->throttled) return 0;
    unsigned wi = v->slot;
    sm_warp *w = &sm->warps[wi];
    if (owes && sm_warp_owes(w)) {
        int r = owed_issue(sm, s, wi, idx, n, sv);
        ws->f |= WS_VALID | WS_READY;
        if (r > 0) ws->f |= WS_ISSUED;
        if (ws->f & WS_ISSUED) sm->st.sched_issue[0]++; /* a reissue or a released load: alone */
        if (r < 0) ws->f |= WS_RESTRICTED;
        return 0;
    }
    if (!known && sm->gen != gen_view && (!w->valid || w->func_done)) return 0;
    uint8_t blk = sm->wblk[wi];
    if (blk) { /* it stopped there last time and nothing of it changed */
        if (blk == SM_BLK_EMPTY) {
            ws->f |= WS_EMPTY;
            return 0;
        }
        if (blk == SM_BLK_SCOREBOARD) {
            ws->f |= WS_VALID;
            return 0;
        }
        if (!idoc_room(sm, blk - SM_BLK_PIPE, s)) {
            ws->f |= WS_VALID | WS_READY;
            return 0;
        } /* its ID_OC register has room now: check it again */
    }
    /* (a second check only after an issue: max_issue is 1 or 2) */
    unsigned issued = 0;
    int hazard = 0;
    for (;;) {
        bool bar = false, wait;
        if (issued) { /* (an issue changed gen: the views no longer answer) */
            wait = warp_waiting(sm, w, &bar);
        } else if (known) {
            wait = false;
        } else if (sm->gen == gen_view) {
            wait = swait[idx] != 0;
            bar = swait[idx] == 2;
        } else {
            wait = warp_waiting(sm, w, &bar);
        }
        if (wait) {
            ws->f |= bar ? WS_BAR : 0;
            break;
        }
        const sm_ibuf *e = &w->ib[w->ib_next];
        if (!e->valid) {
            ws->f |= WS_EMPTY;
            if (!issued && blk_ok) blk_set(sm, s, wi, SM_BLK_EMPTY);
            break;
        }
        uint32_t func, pc;
        if (!func_next(sm, w, &func, &pc)) {
            mark_done(sm, wi);
            break;
        }
        if (!e->inst || !same_place(e, w)) {
            /* control hazard: refetch from the functional path */
            sm_ibuf_flush(w);
            sm_fetch_mark(sm, wi);
            sm_view_dirty(sm, wi);
            sm->gen++;
            w->fetch_func = func;
            w->fetch_pc = pc;
            hazard = !issued;
            break;
        }
        if (!fast && sv[idx].noload && is_gload(e->inst)) break; /* load gated (CCWS) */
        if (sm->ro && !sm_ro_may_issue(sm, wi, e->inst)) break; /* its channel is full */
        ws->f |= WS_VALID;
        /* (the scoreboard's common answers inline: nothing reserved, or every id in one or
           two of its words) */
        const sm_dec *d = e->dec;
        if (sm_sb_hit(w, d)) {
            if (!issued && blk_ok) blk_set(sm, s, wi, SM_BLK_SCOREBOARD);
            break;
        }
        ws->f |= WS_READY;
        sm_regset *rs = &sm->id_oc[e->dec->cls];
        if (!idoc_room(sm, e->dec->cls, s)) {
            if (!issued && blk_ok) blk_set(sm, s, wi, (uint8_t)(SM_BLK_PIPE + e->dec->cls));
            break;
        }
        int r = issue_one(sm, wi, e, rs);
        if (r < 0) return -1;
        if (r == 0) break; /* it turned out to be waiting or finished */
        if (r == 2) { /* executed, held back by hazard prediction */
            ws->f |= WS_RESTRICTED;
            break;
        }
        issued++;
        if (issued >= sm->max_issue || !w->valid || w->func_done) break;
    }
    if (issued) {
        ws->f |= WS_ISSUED;
        sm->st.sched_issue[issued - 1]++; /* max_issue is at most 2 */
        int *last = sm->ss[s].plast; /* (the policy's `issued` would only store idx there) */
        if (__builtin_expect(last != NULL, 1)) *last = (int)idx;
        else sm->ss[s].pol->issued(sm->sched[s].state, sv, sm->ss[s].n, idx);
        if (!fast) sm->ss[s].order_ok = false; /* (the shape walks do not read it) */
    }
    return hazard;
}

/* The counts of the warps the quick walk passed without a look before order position
   p (at a barrier, stopped at an empty ibuffer or the scoreboard), when something
   changed at p and the full walk takes over. */
static inline __attribute__((always_inline)) void walk_passed(walk_st *ws, const uint16_t *order, unsigned p, uint64_t cand,
                        uint64_t bar, uint64_t bemp, uint64_t bsb) {
    for (unsigned j = 0; j < p; j++) {
        unsigned x = order[j];
        if (cand >> x & 1) continue;
        ws->f |= (unsigned)(bar >> x & 1) * WS_BAR;
        ws->f |= (unsigned)(bemp >> x & 1) * WS_EMPTY;
        ws->f |= (unsigned)(bsb >> x & 1) * WS_VALID;
    }
}

/* Ask scheduler s's policy for its order of the views sv. */
static inline void sched_order(ws_sm *sm, unsigned s, const ws_sched_policy *pol,
                               ws_sched_warp *sv, unsigned n, bool adds) {
    /* the kept views hold the bytes of the policy's last call: it need not compare */
    if (!adds && pol->views_same && (sm->vsame >> s & 1)) pol->views_same(sm->sched[s].state);
    sm->ss[s].order_k = pol->order(sm->sched[s].state, sv, n, &sm->sorder[s * sm->view_per]);
    sm->ss[s].order_ok = true;
    if (!adds) sm->vsame |= 1u << s;
}

/* Scheduler s's views by (age, index) again after ages changed (warps started): the
   views whose age did not change (rk_moved) keep their order, so they are kept in it and
   the moved ones inserted again, each from the end (a new warp is mostly the youngest).
   The keys (age, index) are distinct: the order is the one a full sort gives. Places
   below the first that changes (lo) keep their view and its rank. */
static __attribute__((noinline)) void rank_sort(ws_sm *sm, unsigned s, const ws_sched_warp *pv,
                                                unsigned n) {
    sm_sched_st *q = &sm->ss[s];
    uint16_t *by = q->rk_by, *rank = q->rk_rank;
    uint64_t moved = q->rk_moved & (n < 64 ? (1ull << n) - 1 : ~0ull);
    unsigned lo = 0;
    while (lo < n && !(moved >> by[lo] & 1)) lo++;
    unsigned k = lo;
    for (unsigned i = lo; i < n; i++) {
        uint16_t v = by[i];
        if (!(moved >> v & 1)) by[k++] = v;
    }
    for (; moved; moved &= moved - 1) {
        uint16_t v = (uint16_t)__builtin_ctzll(moved);
        unsigned j = k++;
        while (j > 0 && (pv[by[j - 1]].age > pv[v].age ||
                         (pv[by[j - 1]].age == pv[v].age && by[j - 1] > v))) {
            by[j] = by[j - 1];
            j--;
        }
        by[j] = v;
        if (j < lo) lo = j;
    }
    for (unsigned i = lo; i < n; i++) rank[by[i]] = (uint16_t)i;
    q->rk_moved = 0;
    sm->rk_stale &= ~(1u << s);
    q->rk_cand = q->rk_rcand = 0; /* (the empty set's ranks: empty) */
}

/* The shape walk's visits, in order: view `first` (~0u: none), then the views of r's
   bits (through map by_rank, else the bit index + rot mod 64), lowest first. Returns
   -1 on a fault, 1 once one issued, 2 when something changed at view *changed (gen: the
   full walk takes over after it), 0 when all were visited. A control hazard changes its
   warp alone (flushed, marked: not visited again in this walk), so the visits go on
   with *gen_view moved up: the full walk would give the others the answers their views
   give, and the stall's flags are the same in any order. (Two copies, age order and
   rotation: each keeps only its bits and map or rotation live across a visit.) */
static inline __attribute__((always_inline)) int shape_visits(
    ws_sm *sm, unsigned s, unsigned n, ws_sched_warp *sv, const uint8_t *swait, uint64_t *gen_view,
    walk_st *ws, unsigned first, uint64_t r, const uint16_t *map,
    unsigned rot, const bool by_rank, const bool fast, unsigned *changed) {
    unsigned idx = first;
    if (idx == ~0u) {
        if (!r) return 0;
        unsigned b = (unsigned)__builtin_ctzll(r);
        idx = by_rank ? map[b] : (b + rot) & 63;
        r &= r - 1;
    }
    for (;;) {
        int wr = walk_warp(sm, s, idx, n, sv, swait, *gen_view, ws, false, fast, true);
        if (wr < 0) return -1;
        if ((ws->f & WS_ISSUED)) return 1;
        if (sm->gen != *gen_view) {
            if (!wr) {
                *changed = idx;
                return 2;
            }
            *gen_view = sm->gen; /* (a control hazard) */
        }
        if (!r) return 0;
        unsigned b = (unsigned)__builtin_ctzll(r);
        idx = by_rank ? map[b] : (b + rot) & 63;
        r &= r - 1;
    }
}

/* One scheduler's cycle; `owes` (replay or hazard prediction on) and `fast` (the walk
   follows the policy's shape: sm->rk_ok, which implies kept views to which the SM adds
   nothing, no throttle, wblk and the memo in use) are constants in each of the three
   copies below, so each carries none of the others' tests and loads of per-SM flags. */
static inline __attribute__((always_inline)) void sched_cycle_t(ws_sm *sm, unsigned s,
                                                                 const bool owes,
                                                                 const bool fast) {
    sm_sched_st *const q = &sm->ss[s];
    uint64_t gen0 = sm->gen;
    /* The views persist: only warps marked since this scheduler last looked
       (sm_view_dirty) are looked at again; warp_waiting's side effect (a
       memory barrier ends) happens in the same cycle as it would if all
       were, since whatever ends one marks the warp. */
    unsigned n = q->n;
    ws_sched_warp *pv = q->pv;
    /* (swait and order are read where needed: the shape walks' visits use neither) */
    const uint8_t *swait;
    const uint16_t *order;
    uint64_t dirty = q->vdirty;
    if (dirty) { /* (most walks find none: no stores then) */
        q->vdirty = 0;
        q->pempty &= ~dirty; /* (their wblk went with the mark) */
        q->psb &= ~dirty;
    }
    const bool view_all = !fast && sm->view_all;
    bool same_view = !dirty && !view_all;
    /* (the masks in locals: the byte stores below could alias them) */
    uint64_t pelig = q->pelig, pbar = q->pbar;
    if (dirty || view_all) { /* (else the views and their masks stand: no stores) */
        uint8_t *sw8 = q->swait;
        bool vdiff = false;
        uint64_t amoved = 0; /* views whose age changed (a warp started) */
        for (unsigned i = 0; i < n; i++) {
            if (!view_all) {
                if (!dirty) break;
                i = (unsigned)__builtin_ctzll(dirty);
                dirty &= dirty - 1;
            }
            sm_warp *w = &sm->warps[pv[i].slot];
            ws_sched_warp was = pv[i];
            pv[i].valid = w->valid && (!w->func_done || (owes && w->rp_ready)); /* stores to replay */
            pv[i].age = w->age;
            pv[i].waiting = pv[i].at_bar = 0;
            uint8_t sw = 1; /* not valid: the walk skips it like a waiting warp, no barrier */
            if (pv[i].valid) {
                bool bar = false;
                pv[i].waiting = warp_waiting(sm, w, &bar);
                sw = bar ? 2 : pv[i].waiting;
                pv[i].at_bar = bar;
                pv[i].cta = w->cta;
                if (owes && sm_warp_owes(w)) pv[i].waiting = sw = 0; /* goes on regardless */
            }
            sw8[i] = sw;
            if (memcmp(&was, &pv[i], sizeof was)) {
                vdiff = true;
                if (was.age != pv[i].age && i < 64) amoved |= 1ull << i;
            }
            if (i < 64) { /* (view_all beyond 64 views: the masks are not used then) */
                uint64_t bit = 1ull << i;
                pelig = (pelig & ~bit) | (sw == 0 ? bit : 0);
                pbar = (pbar & ~bit) | (sw == 2 ? bit : 0);
            }
        }
        q->pelig = pelig;
        q->pbar = pbar;
        if (vdiff) sm->vsame &= ~(1u << s);
        if (amoved) {
            q->rk_moved |= amoved;
            sm->rk_stale |= 1u << s;
        }
    }
    /* the policies see a copy only when the SM adds to the views (longop, next_load,
       throttling); else the kept views themselves, which hold the same bytes */
    const bool adds = !fast && sm->views_add;
    const ws_sched_policy *pol = q->pol; /* (after the refresh: not kept across it) */
    ws_sched_warp *sv = adds ? sm->sview : pv;
    if (adds) memcpy(sm->sview, pv, n * sizeof *pv);
    if (adds && (pol->uses_longop || sm->throttle[s].policy->needs_next_load))
        for (unsigned i = 0; i < n; i++) {
            ws_sched_warp *v = &sv[i];
            if (!v->valid) continue;
            const sm_warp *w = &sm->warps[v->slot];
            const sm_ibuf *e = &w->ib[w->ib_next];
            if (pol->uses_longop) /* a reissue depends on nothing */
                v->longop = e->valid && e->dec && !(owes && sm_warp_owes(w)) &&
                            sm_sb_longop_dep(w, e->dec);
            if (sm->throttle[s].policy->needs_next_load)
                v->next_load = e->valid && is_gload(e->inst);
        }
    if (!fast && sm->throttling) {
        ws_throttle *t = &sm->throttle[s];
        t->policy->filter(t->state, sv, n);
        for (unsigned i = 0; i < n; i++) sv[i].waiting |= sv[i].throttled;
    }
    uint64_t gen_view = sm->gen; /* while unchanged, the view holds warp_waiting's answers */
    walk_st ws = {0};
    const bool thr = !fast && sm->throttling; /* only a throttle filter sets `throttled` */
    unsigned k, oi = 0, left = ~0u;
    if (fast || (!owes && sm->rk_ok)) {
        /* The policy's order has a known shape (ws_sched_policy.shape): the walk follows it
           without asking for the list. As in the quick walk below, it visits in order only
           the warps the views let through that did not stop at an empty ibuffer or the
           scoreboard last time (cand), and adds the others' counts at the end; but it
           finds them by bit scans: for a rotation, the cand bits from the first index up,
           then those below it; for the age order, the first warp, then the others by their
           ranks in the kept (age, index) order. Should something change on the way (gen),
           the policy's list is asked for and the full walk takes over after that warp. */
        /* sorder is written only when the list is needed (order_ok is read only by the
           walks that ask for the list first: never on an SM whose walks follow the shape) */
        if (!fast) q->order_ok = false;
        uint64_t elig = pelig, bemp = q->pempty & elig, bsb = q->psb & elig;
        uint64_t cand = elig & ~(bemp | bsb);
        unsigned idx; /* where something changed (gen) */
        int vr = 0;
        /* first(): the policy's last issued index (the age order) or the one after it (a
           rotation; n, past n - 1, counts as 0), read in place when it says where. That
           warp, when a candidate (or the only one), is visited alone first: a walk that
           issues there (most) orders none of the others. */
        const bool age = pol->shape != WS_SCHED_ROTATE;
        unsigned f = 0, one = ~0u;
        if (cand & (cand - 1)) {
            const int *last = q->plast;
            if (age) f = (unsigned)(last ? *last : pol->first(q->pst, n));
            else {
                f = last ? (unsigned)*last + 1 : (unsigned)pol->first(q->pst, n);
                if (f >= n) f = 0;
            }
            if (f < n && (cand >> f & 1)) one = f;
        } else if (cand)
            one = (unsigned)__builtin_ctzll(cand);
        uint64_t rest = cand;
        if (one != ~0u) {
            rest &= ~(1ull << one);
            vr = shape_visits(sm, s, n, sv, NULL, &gen_view, &ws, one, 0, NULL, 0, false,
                              fast, &idx);
        }
        if (!vr && rest) {
            if (age && (rest & (rest - 1))) {
                if (sm->rk_stale >> s & 1) rank_sort(sm, s, pv, n);
                const uint16_t *rank = q->rk_rank;
                /* the candidates' ranks, kept from the last visit: only the warps that
                   came or went since are looked up */
                uint64_t rc = q->rk_rcand;
                for (uint64_t r = cand ^ q->rk_cand; r; r &= r - 1)
                    rc ^= 1ull << rank[__builtin_ctzll(r)];
                q->rk_cand = cand;
                q->rk_rcand = rc;
                /* the others by rank */
                vr = shape_visits(sm, s, n, sv, NULL, &gen_view, &ws, ~0u,
                                  one != ~0u ? rc & ~(1ull << rank[one]) : rc, q->rk_by, 0, true,
                                  fast, &idx);
            } else {
                /* a rotation (or one left): the bits from the first index up, then those
                   below it, as one mask rotated by the first index (no bit at or above n:
                   the order is kept) */
                unsigned rot = age ? 0 : f;
                vr = shape_visits(sm, s, n, sv, NULL, &gen_view, &ws, ~0u,
                                  rot ? rest >> rot | rest << (64 - rot) : rest, NULL, rot, false,
                                  fast, &idx);
            }
        }
        if (vr < 0) return;
        if (vr == 1) goto walked;
        if (vr == 2) {
            /* the masks and n again (the visits changed only their candidates' stops, which
               walk_passed does not read) */
            n = q->n;
            pbar = q->pbar;
            elig = q->pelig;
            bemp = q->pempty & elig;
            bsb = q->psb & elig;
            sched_order(sm, s, q->pol, sv, n, adds);
            k = q->order_k;
            order = q->order;
            swait = q->swait;
            while (oi < k && order[oi] != idx) oi++;
            walk_passed(&ws, order, oi, cand, pbar, bemp, bsb);
            oi++;
            goto full;
        }
        /* the counts of the warps passed without a look, from the masks again: of them only
           the candidates' bits changed (their stops), so only cand is kept across the visits */
        elig = q->pelig;
        ws.f |= q->pbar ? WS_BAR : 0;
        ws.f |= q->pempty & elig & ~cand ? WS_EMPTY : 0;
        ws.f |= q->psb & elig & ~cand ? WS_VALID : 0;
        goto walked;
    }
    /* a stable policy gives the same order for the same views when none of
       its warps issued since it was asked */
    if (!same_view || !sm->memo_ok || !q->order_ok) sched_order(sm, s, pol, sv, n, adds);
    k = q->order_k;
    order = q->order;
    swait = q->swait;
    /* A stable policy's full order is a permutation of the views: once the walk has
       passed every warp the views let through (nothing changed on the way), the rest
       are all skipped, and of them only whether one is at a barrier counts (off with
       -warpsim_skip_idle 0, view_all, so that tests compare it with the full walk). */
    const bool perm = pol->stable && !thr && !view_all && k == n;
    if (perm && owes) left = ws_popc64(pelig);
    if (!owes && perm) {
        /* Of those, a warp that stopped at an empty ibuffer or the scoreboard last time,
           unchanged since (pempty, psb), would stop there again and count only as such:
           the walk passes it without a look, visits the others in order, and adds the
           stopped ones' counts at the end. Should something change on the way (gen), the
           full walk takes over after the warp that changed it, with the counts of the
           warps passed until then. */
        uint64_t elig = pelig, bemp = q->pempty & elig, bsb = q->psb & elig;
        uint64_t cand = elig & ~(bemp | bsb);
        if (cand && !(cand & (cand - 1))) {
            /* one to visit: no search (its position only if something changes) */
            unsigned idx = (unsigned)__builtin_ctzll(cand);
            if (walk_warp(sm, s, idx, n, sv, swait, gen_view, &ws, false, fast, true) < 0) return;
            if (!(ws.f & WS_ISSUED) && sm->gen != gen_view) {
                while (oi < k && order[oi] != idx) oi++;
                walk_passed(&ws, order, oi, cand, pbar, bemp, bsb);
                oi++;
                goto full;
            }
        } else {
            for (uint64_t rest = cand; rest && oi < k; oi++) {
                unsigned idx = order[oi];
                if (!(rest >> idx & 1)) continue;
                rest &= ~(1ull << idx);
                if (walk_warp(sm, s, idx, n, sv, swait, gen_view, &ws, false, fast, true) < 0) return;
                if ((ws.f & WS_ISSUED)) break;
                if (sm->gen != gen_view) {
                    walk_passed(&ws, order, oi, cand, pbar, bemp, bsb);
                    oi++;
                    goto full;
                }
            }
        }
        if (!(ws.f & WS_ISSUED)) {
            ws.f |= pbar ? WS_BAR : 0;
            ws.f |= bemp ? WS_EMPTY : 0;
            ws.f |= bsb ? WS_VALID : 0;
        }
        oi = k;
    }
full:
    for (; oi < k && !(ws.f & WS_ISSUED); oi++) {
        unsigned idx = order[oi];
        /* the view still says what the warp would: one byte tells a warp to skip (not
           valid, waiting, at a barrier) */
        if (sm->gen == gen_view && swait[idx]) {
            if (!left) {
                ws.f |= pbar ? WS_BAR : 0;
                break;
            }
            ws.f |= swait[idx] == 2 && !(thr && sv[idx].throttled) ? WS_BAR : 0;
            continue;
        }
        left--; /* (read only while gen == gen_view: then a warp the views let through) */
        if (walk_warp(sm, s, idx, n, sv, swait, gen_view, &ws, owes, fast, false) < 0) return;
    }
walked:;
    bool valid_inst = ws.f & WS_VALID, ready_inst = ws.f & WS_READY, any_bar = ws.f & WS_BAR,
         any_empty = ws.f & WS_EMPTY, restricted = ws.f & WS_RESTRICTED;
    if ((ws.f & WS_ISSUED)) return;
    uint64_t *stall;
    if (restricted) stall = &sm->st.hp_restrict; /* only hazard prediction held it back */
    else if (!valid_inst) stall = any_bar ? &sm->st.stall_barrier
                           : any_empty ? &sm->st.stall_ibuffer : &sm->st.stall_idle;
    else stall = ready_inst ? &sm->st.stall_pipeline : &sm->st.stall_scoreboard;
    (*stall)++;
    if ((fast || sm->memo_ok) && sm->gen == gen0) {
        q->memo_gen = gen0;
        q->memo_stall = stall;
    }
}

/* Shared-memory bank conflict cycles: a part whose words all lie within one bank
   width of each other has no bank with two distinct words (broadcasts, consecutive
   or repeated rows of words): one cycle, as sm_smem_conflict_cycles' own quick answer
   gives, without its per-lane bank bookkeeping; any other part takes that count. */
unsigned sm_smem_cycles(const ws_sm *sm, const uint64_t *addr, uint32_t active) {
    unsigned nb = (unsigned)sm->cfg->shmem_num_banks, parts = (unsigned)sm->cfg->shmem_warp_parts;
    unsigned psize = WS_WARP_SIZE / parts, total = 0;
    for (unsigned p = 0; p < parts; p++) {
        uint32_t m = psize == WS_WARP_SIZE ? active : active >> (p * psize) & ((1u << psize) - 1);
        if (!m) continue;
        const uint64_t *a = addr + p * psize;
        if (m == ~0u) { /* whole warp: all words in one aligned block of 2^k <= nb words? */
            /* bits that differ between lanes: any ^ all (two lanes per vector operation) */
            typedef uint64_t v2u64 __attribute__((vector_size(16)));
            v2u64 vany = {0, 0}, vall = {~0ull, ~0ull};
#pragma GCC unroll 16
            for (unsigned l = 0; l < WS_WARP_SIZE; l += 2) {
                v2u64 x;
                memcpy(&x, a + l, sizeof x);
                vany |= x;
                vall &= x;
            }
            uint64_t any = vany[0] | vany[1], all = vall[0] & vall[1];
            if (!((any ^ all) >> 2 >> (63 - __builtin_clzll(nb)))) {
                total++;
                continue;
            }
        }
        uint64_t lo, hi; /* the words' range is the addresses' range / 4 */
        sm_lane_bounds(a, m, &lo, &hi);
        if ((hi >> 2) - (lo >> 2) >= nb) return sm_smem_conflict_cycles(sm, addr, active);
        total++;
    }
    return total ? total : 1;
}

/* The walks out of line: the SM-cycle's loop below answers the memos without their frame. */
static __attribute__((noinline)) void sched_cycle(ws_sm *sm, unsigned s) {
    sched_cycle_t(sm, s, false, false);
}
static __attribute__((noinline)) void sched_cycle_owes(ws_sm *sm, unsigned s) {
    sched_cycle_t(sm, s, true, false);
}

/* Scheduler s's memo holds: it counts its stall again and walks no warp. */
static inline __attribute__((always_inline)) bool memo_holds(ws_sm *sm, unsigned s,
                                                             const bool fast) {
    sm_sched_st *const q = &sm->ss[s];
    if (q->memo_gen == sm->gen) { /* nothing it looks at changed */
        (*q->memo_stall)++;
        return true;
    }
    /* The walk that follows the shape visits only the warps the views let through that
       did not stop at an empty ibuffer or the scoreboard (pempty, psb: an unblock clears
       their bits). With none such and no view marked since its last look (vdirty), it
       would visit no warp: its stall follows from the masks alone, whatever changed
       elsewhere (another scheduler's issue, an ID_OC slot freed), and so does the memo it
       would leave (of this generation: the SM may sleep). */
    if (fast && !q->vdirty) {
        uint64_t elig = q->pelig, bemp = q->pempty & elig, bsb = q->psb & elig;
        if (!(elig & ~(bemp | bsb))) {
            ws_sm_stats *st = &sm->st;
            uint64_t *stall = bsb ? &st->stall_scoreboard
                              : q->pbar ? &st->stall_barrier
                              : bemp ? &st->stall_ibuffer : &st->stall_idle;
            (*stall)++;
            q->memo_gen = sm->gen;
            q->memo_stall = stall;
            return true;
        }
    }
    return false;
}

/* The SM-cycle's schedulers from the j-th (scheduler s) on, in the rotating order, when
   the walk follows the shape; the first of them walks (its memo did not hold). The walk is
   inline here: a cycle's walks share one frame, which memo-only cycles never set up. */
static __attribute__((noinline)) void issue_from_shape(ws_sm *sm, unsigned j, unsigned s) {
    const unsigned n_sched = sm->n_sched;
    for (bool walk = true; j < n_sched; j++) {
        if (walk || !memo_holds(sm, s, true)) {
            sched_cycle_t(sm, s, false, true);
            if (sm->has_fault) return;
        }
        walk = false;
        if (++s == n_sched) s = 0;
    }
    if (++sm->sched_prio == n_sched) sm->sched_prio = 0;
}

static __attribute__((noinline)) void issue_cycle_general(ws_sm *sm) {
    const ws_throttle_policy *tp = sm->throttle_sm.policy;
    if (tp && tp->sm_cycle) tp->sm_cycle(sm->throttle_sm.state, sm->now, sm->st.warp_insts);
    if (tp && tp->sm_version) {
        uint64_t v = tp->sm_version(sm->throttle_sm.state);
        if (v != sm->throttle_version) { /* its decisions may differ: look again, reorder */
            sm->throttle_version = v;
            sm->gen++;
            for (unsigned s = 0; s < sm->n_sched; s++) sm->ss[s].order_ok = false;
        }
    }
    /* from sched_prio round */
    unsigned s = sm->sched_prio;
    if (sm->rk_ok && !sm->owes) {
        for (unsigned j = 0; j < sm->n_sched; j++) {
            if (!memo_holds(sm, s, true)) {
                issue_from_shape(sm, j, s);
                return;
            }
            if (++s == sm->n_sched) s = 0;
        }
        if (++sm->sched_prio == sm->n_sched) sm->sched_prio = 0;
        return;
    }
    for (unsigned j = 0; j < sm->n_sched; j++) {
        if (!memo_holds(sm, s, false)) {
            if (sm->owes) sched_cycle_owes(sm, s);
            else sched_cycle(sm, s);
            if (sm->has_fault) return;
        }
        if (++s == sm->n_sched) s = 0;
    }
    if (++sm->sched_prio == sm->n_sched) sm->sched_prio = 0;
}

/* In the common case (the walk follows the shape: iss_lean) a cycle in which every
   scheduler's memo holds is answered here without a frame; the first scheduler that
   must walk hands the rest of the cycle over. */
void sm_issue_cycle(ws_sm *sm) {
    if (!sm->n_active_ctas) return;
    if (!sm->iss_lean) {
        issue_cycle_general(sm);
        return;
    }
    const unsigned n_sched = sm->n_sched;
    unsigned s = sm->sched_prio;
    for (unsigned j = 0; j < n_sched; j++) {
        if (!memo_holds(sm, s, true)) {
            issue_from_shape(sm, j, s);
            return;
        }
        if (++s == n_sched) s = 0;
    }
    if (++sm->sched_prio == n_sched) sm->sched_prio = 0;
}
