/* Execution units: SP, SFU and (when configured) DP and INT pipelines with
 * per-opcode latency and initiation interval (-ptx_opcode_latency_* /
 * -ptx_opcode_initiation_*), classified as GPGPU-Sim classifies PTX
 * opcodes. A unit takes one instruction into its dispatch register, which
 * stays busy for the initiation interval; the instruction reaches the end of
 * the pipeline `latency` cycles after dispatch, moves to the EX_WB register
 * and is written back the cycle after, releasing the scoreboard. Two
 * instructions of one unit may not complete in the same cycle, and at most
 * EX_WB-width instructions SM-wide may (GPGPU-Sim's result buses). Without
 * DP units double-precision work goes to the SFU, without INT units integer
 * work to the SP (GPGPU-Sim 4's Fermi mapping). */
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "timing/sm/sm_internal.h"
#include "util/bits.h"

static int parse_list(const char *opt, const char *s, int64_t *out, int min, int max, char *err,
                      size_t errlen) {
    int n = ws_config_int_list(s, out, max);
    if (n < min) {
        snprintf(err, errlen, "-%s %s: expected %d comma-separated numbers", opt, s, min);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (out[i] < 1) out[i] = 1;
    return n;
}

int sm_units_init(ws_sm *sm, char *err, size_t errlen) {
    const ws_config *c = sm->cfg;
    int n = parse_list("ptx_opcode_latency_int", c->lat_int, sm->lat_int, 5, 6, err, errlen);
    if (n < 0) return -1;
    if (n < 6) sm->lat_int[5] = 32; /* GPGPU-Sim's default SHFL latency */
    n = parse_list("ptx_opcode_initiation_int", c->ii_int, sm->ii_int, 5, 6, err, errlen);
    if (n < 0) return -1;
    if (n < 6) sm->ii_int[5] = 4;
    if (parse_list("ptx_opcode_latency_fp", c->lat_fp, sm->lat_fp, 5, 5, err, errlen) < 0 ||
        parse_list("ptx_opcode_initiation_fp", c->ii_fp, sm->ii_fp, 5, 5, err, errlen) < 0 ||
        parse_list("ptx_opcode_latency_dp", c->lat_dp, sm->lat_dp, 5, 5, err, errlen) < 0 ||
        parse_list("ptx_opcode_initiation_dp", c->ii_dp, sm->ii_dp, 5, 5, err, errlen) < 0)
        return -1;
    unsigned maxlat = (unsigned)c->lat_sfu;
    if ((unsigned)sm_tensor_max_latency(c) > maxlat) maxlat = (unsigned)sm_tensor_max_latency(c);
    for (int i = 0; i < 6; i++)
        if ((unsigned)sm->lat_int[i] > maxlat) maxlat = (unsigned)sm->lat_int[i];
    for (int i = 0; i < 5; i++) {
        if ((unsigned)sm->lat_fp[i] > maxlat) maxlat = (unsigned)sm->lat_fp[i];
        if ((unsigned)sm->lat_dp[i] > maxlat) maxlat = (unsigned)sm->lat_dp[i];
    }
    if (maxlat + 4 >= SM_RESBUS_RING) {
        snprintf(err, errlen, "ptx_opcode_latency: latencies above %d cycles are not supported",
                 SM_RESBUS_RING - 5);
        return -1;
    }
    sm->has_dp_pipe = c->num_dp_units > 0;
    sm->has_int_pipe = c->num_int_units > 0;
    sm->nfu = (unsigned)(c->num_sp_units + c->num_sfu_units + c->num_dp_units + c->num_int_units);
    sm->fu = calloc(sm->nfu, sizeof *sm->fu);
    if (!sm->fu) return -1;
    unsigned k = 0, ns = (unsigned)c->num_sched_per_core;
    /* sub-core SMs: unit i of a kind serves scheduler i % schedulers */
    for (int64_t i = 0; i < c->num_sp_units; i++) sm->fu[k].sched = (uint8_t)(i % ns), sm->fu[k++].cls = SM_SP;
    for (int64_t i = 0; i < c->num_dp_units; i++) sm->fu[k].sched = (uint8_t)(i % ns), sm->fu[k++].cls = SM_DP;
    for (int64_t i = 0; i < c->num_int_units; i++) sm->fu[k].sched = (uint8_t)(i % ns), sm->fu[k++].cls = SM_INT;
    for (int64_t i = 0; i < c->num_sfu_units; i++) sm->fu[k].sched = (uint8_t)(i % ns), sm->fu[k++].cls = SM_SFU;
    if (c->sub_core_model) {
        const int64_t n[4] = {c->num_sp_units, c->num_dp_units, c->num_int_units, c->num_sfu_units};
        static const char *const names[4] = {"sp", "dp", "int", "sfu"};
        for (int i = 0; i < 4; i++)
            if (n[i] && n[i] < (int64_t)ns) {
                snprintf(err, errlen,
                         "-gpgpu_sub_core_model 1: -gpgpu_num_%s_units %lld is fewer than the %u "
                         "schedulers (each needs its own)",
                         names[i], (long long)n[i], ns);
                return -1;
            }
    }
    if (sm->nfu > 64) { /* fu_busy and fu_of hold a bit per unit */
        snprintf(err, errlen, "more than 64 function units per SM are not supported");
        return -1;
    }
    if (c->sub_core_model)
        for (unsigned i = 0; i < sm->nfu; i++) sm->fu_of[sm->fu[i].cls][sm->fu[i].sched] |= 1ull << i;
    for (unsigned i = 0; i < sm->nfu; i++) {
        sm->fu[i].capfl = maxlat + 2;
        unsigned ring = 1;
        while (ring < sm->fu[i].capfl) ring <<= 1;
        sm->fu[i].fl_mask = ring - 1;
        sm->fu[i].fl = calloc(ring, sizeof *sm->fu[i].fl);
        sm->fu[i].done_at = calloc(ring, sizeof *sm->fu[i].done_at);
        if (!sm->fu[i].fl || !sm->fu[i].done_at) return -1;
    }
    sm->wb_due = UINT64_MAX;
    return 0;
}

/* GPGPU-Sim's ptx_instruction::set_opcode_and_latency, on our opcodes. */
void sm_classify(const ws_sm *sm, const ws_inst *in, uint8_t *cls, uint16_t *lat, uint16_t *ii) {
    enum { K_ALU, K_SP, K_INT, K_DP, K_SFU, K_MEM } k = K_ALU;
    int64_t L = 1, I = 1;
    int idx = -1;
    switch ((ws_opcode)in->op) {
    case WS_OP_LD: case WS_OP_LDU: case WS_OP_ST: case WS_OP_ATOM: case WS_OP_RED:
    case WS_OP_MEMBAR: case WS_OP_FENCE: case WS_OP_PREFETCH: case WS_OP_TEX:
    case WS_OP_SULD: case WS_OP_SUST: case WS_OP_SURED: /* surfaces: global loads, stores, atomics */
    case WS_OP_LDMATRIX: case WS_OP_STMATRIX: /* shared-memory rows */
    case WS_OP_TLD4:
        k = K_MEM;
        break;
    case WS_OP_ADD: case WS_OP_ADDC: case WS_OP_SUB: case WS_OP_SUBC: idx = 0; break;
    case WS_OP_MIN: case WS_OP_MAX: idx = 1; break;
    case WS_OP_MUL: idx = 2; break;
    case WS_OP_MAD: case WS_OP_MADC: case WS_OP_FMA: idx = 3; break;
    case WS_OP_MUL24: case WS_OP_MAD24:
        k = K_INT, L = sm->lat_int[3], I = sm->ii_int[3];
        break;
    case WS_OP_DIV: case WS_OP_REM:
        k = K_SFU;
        if (in->type == WS_T_F32) L = sm->lat_fp[4], I = sm->ii_fp[4];
        else if (in->type == WS_T_F64) L = sm->lat_dp[4], I = sm->ii_dp[4];
        else L = sm->lat_int[4], I = sm->ii_int[4];
        break;
    case WS_OP_SQRT: case WS_OP_SIN: case WS_OP_COS: case WS_OP_EX2: case WS_OP_LG2:
    case WS_OP_RSQRT: case WS_OP_RCP: case WS_OP_TANH:
        k = K_SFU, L = sm->cfg->lat_sfu, I = sm->cfg->ii_sfu;
        break;
    case WS_OP_SHFL: L = sm->lat_int[5], I = sm->ii_int[5]; break;
    case WS_OP_CP_ASYNC: /* copies (global reads) and waits go to the LD/ST unit */
        if (in->sub == WS_CPA_COPY || in->sub == WS_CPA_BULK || in->sub == WS_CPA_WAIT_GROUP ||
            in->sub == WS_CPA_WAIT_ALL)
            k = K_MEM;
        break;
    case WS_OP_WMMA: case WS_OP_MMA: /* tensor core: on the SP pipeline (tensor.c) */
        if (in->sub != WS_MMA_MMA) k = K_MEM;
        else k = K_SP, sm_tensor_timing(sm->cfg, in, &L, &I);
        break;
    default: break;
    }
    if (idx >= 0) {
        if (in->type == WS_T_F32) k = K_SP, L = sm->lat_fp[idx], I = sm->ii_fp[idx];
        else if (in->type == WS_T_F64) k = K_DP, L = sm->lat_dp[idx], I = sm->ii_dp[idx];
        else k = K_INT, L = sm->lat_int[idx], I = sm->ii_int[idx];
    }
    uint8_t c;
    switch (k) {
    case K_MEM: c = SM_MEM; break;
    case K_SFU: c = SM_SFU; break;
    case K_DP: c = sm->has_dp_pipe ? SM_DP : SM_SFU; break;
    case K_SP: c = SM_SP; break;
    default: /* integer and other ALU work: INT pipe when there is one */
        c = sm->has_int_pipe ? SM_INT : SM_SP;
        break;
    }
    if (I > L) I = L;
    *cls = c;
    *lat = (uint16_t)L;
    *ii = (uint16_t)I;
}

/* Writeback (first stage of the cycle): everything due leaves the units. A unit's
   results in flight are in order of completion, so the due ones are at the head. (A unit
   completes at most one result a cycle, done_at being unique in it, and the SM runs the
   writeback in full at every cycle from wb_due on: at most one is due per unit, and the
   order is the units' order, as when each unit's list was searched.) */
void sm_units_writeback(ws_sm *sm) {
    if (sm->now < sm->wb_due) return; /* nothing due yet */
    uint64_t due = UINT64_MAX;
    /* (only the units with results in flight, in unit order) */
    for (uint64_t busy = sm->fu_busy; busy; busy &= busy - 1) {
        unsigned u = (unsigned)__builtin_ctzll(busy);
        sm_fu *fu = &sm->fu[u];
        unsigned h = fu->fl_head;
        uint64_t d;
        while ((d = fu->done_at[h] + 2) <= sm->now) {
            sm_inst *in = fu->fl[h];
            h = (h + 1) & fu->fl_mask;
            fu->fl_head = h;
            sm_oc_write(sm, in);
            sm_sb_release_t(sm, &sm->warps[in->warp], in, false); /* (not a memory instruction) */
            sm_inst_complete(sm, in);
            if (!--fu->nfl) {
                sm->fu_busy &= ~(1ull << u);
                goto next;
            }
        }
        if (d < due) due = d;
    next:;
    }
    sm->wb_due = due;
}

/* Unit fu's result due at t goes before the results due later (its ring in order of
   completion): they move up one slot, and the slot freed is returned; UINT_MAX when one of
   them is due at t (a collision: the unit may not take it now, and nothing moved). (apart:
   most results are due after all those in flight, and fu_take then puts it at the tail) */
__attribute__((noinline)) static unsigned fu_insert(sm_fu *fu, uint64_t t) {
    unsigned m = fu->fl_mask, at = fu->fl_head + fu->nfl, n = fu->nfl;
    for (; n; n--, at--) {
        uint64_t d = fu->done_at[(at - 1) & m];
        if (d < t) break;
        if (d == t) return UINT_MAX;
    }
    at &= m;
    for (unsigned i = (fu->fl_head + fu->nfl) & m; i != at;) {
        unsigned p = (i - 1) & m;
        fu->fl[i] = fu->fl[p];
        fu->done_at[i] = fu->done_at[p];
        i = p;
    }
    return at;
}

/* Energy class of the lanes' work, counted at dispatch: what they compute,
   not which pipeline carries it (DP work on the SFU is still DP work; setp
   and cvt count by their compare / source type too). */
static inline void count_lanes(ws_sm *sm, const sm_fu *fu, const sm_inst *in) {
    /* (each type's kind: 2 f64, 1 f16 to f32; both types' kinds ORed, one test each) */
    static const uint8_t kind[256] = {[WS_T_F64] = 2, [WS_T_F16] = 1, [WS_T_F16X2] = 1,
                                      [WS_T_BF16] = 1, [WS_T_BF16X2] = 1, [WS_T_F32] = 1};
    uint64_t n = in->nact;
    unsigned k = kind[in->inst->type] | kind[in->inst->stype];
    if (k & 2) sm->st.thread_insts_dp += n;
    else if (fu->cls == SM_SFU) sm->st.thread_insts_sfu += n;
    else if (k) sm->st.thread_insts_fp += n;
    else sm->st.thread_insts_int += n;
}

/* Sub-core SMs: the instruction in scheduler s's slot of rs (NULL: none). */
static sm_inst *oldest_of(const ws_sm *sm, sm_regset *rs, unsigned s, unsigned *idx) {
    sm_inst *best = NULL;
    for (unsigned i = 0; i < rs->n; i++)
        if (sm->vsched[rs->slot[i]->warp] == s && (!best || rs->slot[i]->uid < best->uid))
            best = rs->slot[i], *idx = i;
    return best;
}

/* Unit u takes the oldest instruction of its OC_EX register (sub-core SMs: of its
   scheduler's slot) if it can. (inline: the execute stage's loops call it) */
static inline __attribute__((always_inline)) void fu_take(ws_sm *sm, unsigned u, bool sub) {
    sm_fu *fu = &sm->fu[u];
    sm_regset *rs = &sm->oc_ex[fu->cls];
    if (!rs->n) return;
    unsigned idx = 0;
    sm_inst *in = sub ? oldest_of(sm, rs, fu->sched, &idx) : sm_regset_oldest(rs, &idx);
    if (!in) return;
    /* (may it take in now: its dispatch register free, room in its ring, no result of its
       own due at t and a result bus free at t) */
    uint64_t t = sm->now + in->lat;
    if (fu->disp_until > sm->now || fu->nfl >= fu->capfl ||
        sm->resbus[t % SM_RESBUS_RING] >= sm->n_resbus)
        return;
    unsigned m = fu->fl_mask, at = (fu->fl_head + fu->nfl) & m;
    if (fu->nfl && fu->done_at[(at - 1) & m] >= t && (at = fu_insert(fu, t)) == UINT_MAX) return;
    sm_regset_remove(rs, idx);
    if (!rs->n) sm->oc_ex_set &= ~(1u << fu->cls);
    if (sub) sm->oc_ex_scheds[fu->cls] &= ~(1u << fu->sched);
    sm->resbus[t % SM_RESBUS_RING]++;
    fu->disp_until = sm->now + in->ii;
    fu->fl[at] = in;
    fu->done_at[at] = t;
    fu->nfl++;
    sm->fu_busy |= 1ull << u;
    if (t + 2 < sm->wb_due) sm->wb_due = t + 2;
    count_lanes(sm, fu, in);
}

/* The function units take from their OC_EX registers (apart from sm_units_cycle, whose
   frame then stays small: most cycles of memory-bound programs have nothing here; and
   apart for sub-core SMs, so that each loop gets registers of its own). */
__attribute__((noinline)) static void fu_cycle(ws_sm *sm) {
    for (unsigned u = 0; u < sm->nfu; u++) fu_take(sm, u, false);
}
__attribute__((noinline)) static void fu_cycle_sub(ws_sm *sm) {
    /* only the units whose scheduler's slot of their class holds work */
    static const uint8_t fu_cls[4] = {SM_SP, SM_SFU, SM_DP, SM_INT};
    uint64_t todo = 0;
    for (unsigned j = 0; j < 4; j++)
        for (unsigned m = sm->oc_ex_scheds[fu_cls[j]]; m; m &= m - 1)
            todo |= sm->fu_of[fu_cls[j]][__builtin_ctz(m)];
    for (; todo; todo &= todo - 1) fu_take(sm, (unsigned)__builtin_ctzll(todo), true);
}

/* Execute stage: each unit takes the oldest ready instruction of its OC_EX
 * register if it can; then the LD/ST unit cycles and takes its own. */
void sm_units_cycle(ws_sm *sm) {
    /* most cycles no function unit's OC_EX register holds anything (classes without
       units stay empty): then no unit takes an instruction */
    if (sm->oc_ex_set & ~(1u << SM_MEM)) {
        if (sm->sub_core) fu_cycle_sub(sm);
        else fu_cycle(sm);
    }
    sm_ldst_cycle(sm);
    sm_regset *rs = &sm->oc_ex[SM_MEM];
    if (sm->oc_ex_set >> SM_MEM & 1 && sm_ldst_can_issue(sm)) {
        unsigned idx;
        sm_inst *in = sm_regset_oldest(rs, &idx);
        sm_regset_remove(rs, idx);
        if (!rs->n) sm->oc_ex_set &= ~(1u << SM_MEM);
        if (sm->sub_core) sm->oc_ex_scheds[SM_MEM] &= ~(1u << sm->vsched[in->warp]);
        if (!in->rp_pass) /* a replay's pass is not another instruction */
            sm->st.thread_insts_mem += in->nact;
        sm_ldst_issue(sm, in);
    }
}
