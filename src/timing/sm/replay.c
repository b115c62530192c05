/* Replay of memory instructions (-warpsim_hazard_mode replay), after T.
 * Turner, "On Replay and Hazards in Graphics Processing Units" (UBC MASc
 * thesis, 2012), chapter 5.
 *
 * A memory instruction (load, store, atomic; global, local, constant,
 * parameter or shared; texture fetches keep stalling) stays in its warp's
 * buffer entry from its first issue until every thread has got through
 * the memory stage: the entry, and every younger one up to the issue
 * point, cannot be refilled (the issue tail pointer stops fetch:
 * sm_replay_held). Each trip through the LD/ST unit is one pass that
 * tries one access (one coalesced line, one L1C line, one bypassing
 * request, or one conflict-free shared-memory bank group). The pass ends
 * at the checkpoint (the L1D at the head of the L1 latency queue, or the
 * L1C / the out queue / the shared banks in the dispatch register), which
 * always signals the warp buffer (sm_replay_checkpoint): threads whose
 * access hit or was accepted by the memory system complete; if threads
 * remain (a hazard: DIV or BANK with progress, MSHR/COMQ/RSV without) the
 * entry becomes replay-ready and the instruction leaves the pipeline, so it
 * never holds the LD/ST unit or a collector unit while it waits. A warp
 * with a replay-ready entry presents only its oldest one to its scheduler,
 * ahead of new instructions (forward progress); a reissue goes through the
 * ID_OC register and the operand collector again, is never paired with a
 * second instruction, and does not execute again: it is pure timing (the
 * functional engine ran the instruction at its first issue), so program
 * results and instruction counts are those of the stalling pipeline.
 * A load's registers stay reserved until its last access's data is back. */
#include <stdio.h>
#include <string.h>

#include "timing/sm/hazard.h"
#include "timing/sm/ldst_queue.h"
#include "timing/sm/sm_internal.h"

int sm_replay_init(ws_sm *sm, char *err, size_t errlen) {
    const char *m = sm->cfg->hazard_mode;
    sm->replay = !strcmp(m, "replay");
    sm->retain = !strcmp(m, "retain");
    if (!sm->replay && !sm->retain && strcmp(m, "stall")) {
        snprintf(err, errlen, "-warpsim_hazard_mode %s: expected stall, replay or retain", m);
        return -1;
    }
    /* A replayed pass makes its accesses in replay.c, which knows the L1D and
       bypass paths only: refuse the LD/ST-path mechanisms it would skip. */
    const char *other = !sm->replay                ? NULL
                        : sm->cfg->perfect_memory   ? "-warpsim_perfect_memory 1"
                        : sm->cfg->l1d_warp_reorder ? "-l1d_warp_reorder 1"
                        : sm->env.l1blist           ? "-l1d_bypass_list"
                        : sm->env.pages             ? "-hm_enable 1"
                                                    : NULL;
    if (other) {
        snprintf(err, errlen, "-warpsim_hazard_mode replay cannot be combined with %s (not modelled)",
                 other);
        return -1;
    }
    if (sm_hp_init(sm, err, errlen)) return -1;
    sm->hp_check = sm->hp && sm->cfg->hp_check;
    sm->hp_cycle = sm->hp_check || (sm->hp && sm->cfg->hp_signal_delay);
    sm->mshr_idle = sm->cfg->mshr_idle_stat;
    sm->owes = sm->replay || sm->hp;
    return 0;
}

/* At first issue: does this instruction replay? Then it holds its warp
   buffer entry until its threads are through. */
bool sm_replay_track(ws_sm *sm, sm_warp *w, sm_inst *in) {
    uint32_t seq = w->iss_seq; /* the caller counts it */
    if ((!sm->replay && !sm->retain) || !in->active || in->is_membar ||
        in->space == WS_SPACE_TEX || (!in->is_load && !in->is_store && !in->is_atomic) ||
        w->rp_n >= SM_IBUF_MAX)
        return false;
    in->rp_live = sm->replay;
    in->rp_hold = sm->retain;
    in->rp_last = in->rp_fail = SM_HZ_N;
    in->rp_pam = in->active;
    w->rp[w->rp_n].in = in;
    w->rp[w->rp_n].seq = seq;
    w->rp_n++;
    return true;
}

/* Reissue warp wi's oldest replay-ready instruction into the MEM ID_OC
   register. */
int sm_replay_issue(ws_sm *sm, unsigned wi) {
    sm_warp *w = &sm->warps[wi];
    sm_regset *rs = &sm->id_oc[SM_MEM];
    if (!sm_regset_free(rs)) return 0;
    for (unsigned i = 0; i < w->rp_n; i++) {
        sm_inst *in = w->rp[i].in;
        if (!in->rp_ready) continue;
        if (sm->hp && !sm_hp_gate(sm, in)) return -1;
        in->rp_ready = false;
        w->rp_ready--;
        in->uid = sm->next_uid++; /* it is the youngest in the pipeline now */
        sm_regset_push(rs, in);
        sm_idoc_in(sm, in, SM_MEM);
        sm->st.replay_issues++;
        sm->gen++;
        sm_view_dirty(sm, wi);
        sm->progressed = true;
        return 1;
    }
    return 0;
}

static inline bool tx_done(const sm_inst *in, unsigned t) { return in->rp_done[t >> 6] >> (t & 63) & 1; }

/* The end of a pass: all its accesses have passed the checkpoint, which
   signals the warp buffer: the entry retires (all_flag: nothing was left
   to do) or becomes replay-ready. */
static void pass_end(ws_sm *sm, sm_inst *in, bool all_flag) {
    sm_warp *w = &sm->warps[in->warp];
    bool all = all_flag || (in->rp_fail == SM_HZ_N && in->rp_ndone >= in->rp_ntx);
    unsigned hazard = in->rp_fail != SM_HZ_N ? in->rp_fail : all ? SM_HZ_N : SM_HZ_DIV;
    if (hazard == SM_HZ_DIV) sm_hazard(sm, SM_HZ_DIV); /* progress, threads left */
    if (hazard == SM_HZ_MSHR &&
        (in->rp_last == SM_HZ_MSHR || in->rp_last == SM_HZ_COMQ || in->rp_last == SM_HZ_RSV))
        sm->st.replay_mshr_again++; /* known to miss, and still no MSHR */
    if (hazard == SM_HZ_MSHR && in->hp_had_credit)
        sm->st.hp_tracker_errors++; /* its credited access found no MSHR */
    in->rp_last = (uint8_t)hazard;
    in->rp_fail = SM_HZ_N;
    sm->gen++;
    sm_view_dirty(sm, in->warp);
    sm->progressed = true;
    if (!all) { /* replay-ready: some threads are left */
        in->rp_ready = true;
        w->rp_ready++;
        sm->st.replay_squashes++;
        return;
    }
    /* retired from the warp buffer: the tail pointer may move, fetch go on */
    unsigned i = 0;
    while (i < w->rp_n && w->rp[i].in != in) i++;
    if (i < w->rp_n) {
        memmove(&w->rp[i], &w->rp[i + 1], (w->rp_n - i - 1) * sizeof w->rp[0]);
        w->rp_n--;
    }
    in->rp_live = false;
    in->rp_pam = 0;
    sm_fetch_mark(sm, in->warp);
    if (in->is_store && !in->is_atomic) sm_inst_complete(sm, in);
    else if (!in->pending && !in->in_dispatch && !(in->is_load && in->space == WS_SPACE_SHARED))
        sm_ldst_finish_load(sm, in);
}

/* One access of a pass at the checkpoint: access tx (lanes) made, or
   SM_RP_NONE (stopped by `hazard`), or SM_RP_ALL (nothing left to do).
   The pass ends with its last access once the instruction has left the
   dispatch register. */
void sm_replay_checkpoint(ws_sm *sm, sm_inst *in, int tx, uint32_t lanes, unsigned hazard) {
    if (tx >= 0) {
        in->rp_done[tx >> 6] |= 1ull << (tx & 63);
        in->rp_ndone++;
        in->rp_pam &= ~lanes;
    } else if (tx == SM_RP_NONE) {
        in->rp_fail = (uint8_t)hazard;
    }
    if (in->rp_out) in->rp_out--;
    if (tx == SM_RP_ALL || (!in->rp_out && !in->in_dispatch)) pass_end(sm, in, tx == SM_RP_ALL);
}

/* -warpsim_hazard_mode retain (the stalling pipeline with the warp-buffer
   retention of replay, the thesis's section 7.1.1): the instruction made
   all its accesses and leaves the LD/ST unit: its entry is free. */
void sm_replay_retire(ws_sm *sm, sm_inst *in) {
    sm_warp *w = &sm->warps[in->warp];
    unsigned i = 0;
    while (i < w->rp_n && w->rp[i].in != in) i++;
    if (i < w->rp_n) {
        memmove(&w->rp[i], &w->rp[i + 1], (w->rp_n - i - 1) * sizeof w->rp[0]);
        w->rp_n--;
    }
    in->rp_hold = false;
    sm->gen++;
    sm_view_dirty(sm, in->warp);
    sm_fetch_mark(sm, in->warp);
}

static void leave(ws_sm *sm, sm_inst *in) {
    sm->ld_disp = NULL;
    in->in_dispatch = false;
    in->rp_pass++;
    in->rp_made = 0;
}

/* Leave the dispatch register; the pass ends now unless accesses of it are
   still on their way to the checkpoint. */
static void leave_pass(ws_sm *sm, sm_inst *in) {
    leave(sm, in);
    if (!in->rp_out) pass_end(sm, in, false);
}

/* The next access of this pass, from the cursor on (-1: none). */
static int next_access(const ws_sm *sm, const sm_inst *in) {
    for (unsigned t = in->rp_cursor; t < sm->ntx; t++)
        if (!tx_done(in, t)) return (int)t;
    return -1;
}

/* One cycle of a pass in the dispatch register (sm_ldst_issue built the
   accesses of the instruction's active threads into sm->txq; those made in
   earlier passes are skipped). A pass makes one access per cycle, up to
   -warpsim_replay_pass_accesses of them (1: one line per pass, the DIV
   remainder replays), and ends early at an access that fails. */
void sm_replay_dispatch(ws_sm *sm, sm_inst *in) {
    if (in->space == WS_SPACE_SHARED) {
        if (in->smem_cycles > in->rp_groups + 1) { /* a bank conflict: one group per pass */
            in->rp_groups++;
            sm->st.shmem_bank_conflict_cycles++;
            sm_hazard(sm, SM_HZ_BANK);
            leave(sm, in);
            sm_replay_checkpoint(sm, in, SM_RP_NONE, 0, SM_HZ_BANK);
            return;
        }
        if (in->is_load) {
            if (sm_smem_tail_taken(sm)) return; /* wait for the pipeline */
            sm_smem_push(sm, in);
        }
        sm->st.shmem_accesses++;
        leave(sm, in);
        sm_replay_checkpoint(sm, in, SM_RP_ALL, 0, SM_HZ_N);
        return;
    }
    if (!in->rp_pass && !in->rp_made) in->rp_ntx = (uint16_t)sm->ntx;
    if (!in->rp_made) in->rp_cursor = 0; /* a new pass */
    int t = next_access(sm, in);
    if (t < 0) { /* nothing (left) to do */
        if (!in->rp_made) {
            leave(sm, in);
            sm_replay_checkpoint(sm, in, SM_RP_ALL, 0, SM_HZ_N);
        } else {
            leave_pass(sm, in);
        }
        return;
    }
    const ws_mem_txn *x = &sm->txq[t];
    bool rd = in->is_load || in->is_atomic;
    if (in->space == WS_SPACE_CONST || in->space == WS_SPACE_PARAM || sm_ldst_bypasses_l1(sm, in)) {
        bool ok, hit = false;
        unsigned kind = SM_HZ_COMQ;
        if (in->space == WS_SPACE_CONST || in->space == WS_SPACE_PARAM) {
            ws_fail_kind fk;
            unsigned u0 = sm->hp ? ws_cache_mshr_used(sm->l1c) : 0;
            bool kept = sm->hp && !sm_hp_admit(sm, in, true, x->addr, false, &fk);
            ws_cache_status s =
                kept ? WS_CACHE_RESERVATION_FAIL /* an MSHR kept for a credit (hp.c) */
                     : ws_cache_access(sm->l1c, x->addr, WS_ACC_READ, false, in, sm->now, &fk);
            if (sm->hp && !kept)
                sm_hp_access(sm, in, true, s == WS_CACHE_HIT, u0, ws_cache_mshr_used(sm->l1c),
                             s != WS_CACHE_RESERVATION_FAIL);
            ok = s != WS_CACHE_RESERVATION_FAIL;
            hit = s == WS_CACHE_HIT;
            kind = sm_hazard_of_fail(fk);
        } else {
            ok = sm_ldst_send_bypass(sm, in, x);
        }
        in->rp_made++;
        in->rp_cursor = (uint16_t)(t + 1);
        if (!ok) { /* squashed: the pass ends here */
            sm_hazard(sm, kind);
            in->rp_fail = (uint8_t)kind;
            leave_pass(sm, in);
            return;
        }
        if (rd && !hit) in->pending++; /* the fill or the reply writes it back */
        in->rp_out++;
        sm_replay_checkpoint(sm, in, t, x->lanes, SM_HZ_N); /* still in dispatch: recorded */
    } else {
        sm_l1acc *tail = sm_ldst_l1q_tail(sm, in, x);
        if (!tail) return; /* the queue is busy: try again next cycle */
        tail->tx = (uint8_t)t;
        if (rd) in->pending++;
        in->rp_out++; /* its checkpoint is the L1D, at the head of the queue */
        in->rp_made++;
        in->rp_cursor = (uint16_t)(t + 1);
    }
    if (in->rp_made < sm->cfg->replay_pass_accesses && next_access(sm, in) >= 0) return;
    leave_pass(sm, in);
}

/* Let warp wi's load held back by hazard prediction go, if the gate and
   the MEM ID_OC register allow. */
int sm_hp_release(ws_sm *sm, unsigned wi) {
    sm_warp *w = &sm->warps[wi];
    sm_regset *rs = &sm->id_oc[SM_MEM];
    if (!sm_regset_free(rs)) return 0;
    if (!sm_hp_gate(sm, w->hp_gated)) return -1;
    sm_regset_push(rs, w->hp_gated);
    sm_idoc_in(sm, w->hp_gated, SM_MEM);
    w->hp_gated = NULL;
    sm->gen++;
    sm_view_dirty(sm, wi);
    sm_fetch_mark(sm, wi);
    sm->progressed = true;
    return 1;
}
