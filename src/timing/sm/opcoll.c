/* Operand collector and banked register file. Issue puts an instruction in
 * its class's ID_OC register; an input port moves it into a free collector
 * unit of its class (or a general one), which queues one read per source
 * register at the register's bank ((arch number [+ warp]) % banks, the
 * arch number being the number in the PTX register name, as GPGPU-Sim).
 * Each cycle every bank serves at most one read (none if a writeback uses
 * it) and every collector unit receives at most one operand. A unit whose
 * operands are all read is dispatched, through the class's output ports,
 * to the OC_EX register when that has room. Address registers of memory
 * operands and guard predicates are not read here (GPGPU-Sim's arch_reg
 * lists hold value operands only).
 * GPGPU-Sim 4's generic collector (-gpgpu_enable_specialized_operand_collector
 * 0) keeps only the general units: each of its input ports takes the oldest
 * instruction of the first non-empty ID_OC register, each output port
 * dispatches one ready unit of any class. -gpgpu_reg_file_port_throughput N
 * runs the whole step N times a cycle, as GPGPU-Sim does. Sub-core SMs
 * (-gpgpu_sub_core_model) split every unit set and the banks evenly over the
 * schedulers: an instruction uses only its scheduler's units and banks, and
 * each scheduler has one slot of each pipeline register. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/sm/sm_internal.h"
#include "util/bits.h"

static int set_width(sm_regset *r, int64_t w) {
    if (w < 0) w = 0;
    if (w > 8) w = 8;
    r->width = (unsigned)w;
    return 0;
}

/* -warpsim_oc: "genN" or "sepA-S-M" into per-set unit counts (sp, sfu,
   mem, dp, int, general); "" keeps the -gpgpu_operand_collector_num_units_*
   counts. */
int sm_oc_spec_parse(const char *spec, int64_t units[SM_NCLASS + 1], char *err, size_t errlen) {
    if (!spec || !*spec) return 0;
    long a = 0, b = 0, m = 0;
    int used = 0;
    bool ok = false;
    if (sscanf(spec, "gen%ld%n", &a, &used) == 1 && !spec[used]) {
        ok = a >= 1 && a <= 64;
        if (ok) {
            for (int k = 0; k < SM_NCLASS; k++) units[k] = 0;
            units[SM_NCLASS] = a;
        }
    } else if (sscanf(spec, "sep%ld-%ld-%ld%n", &a, &b, &m, &used) == 3 && !spec[used]) {
        ok = a >= 1 && a <= 64 && b >= 1 && b <= 64 && m >= 1 && m <= 64;
        if (ok) {
            for (int k = 0; k <= SM_NCLASS; k++) units[k] = 0;
            units[SM_SP] = a, units[SM_SFU] = b, units[SM_MEM] = m;
        }
    }
    if (!ok)
        snprintf(err, errlen,
                 "-warpsim_oc %s: expected genN (N general slots) or sepA-S-M (SP, SFU and MEM "
                 "slots), each number from 1 to 64",
                 spec);
    return ok ? 0 : -1;
}

static void oc_busy_plain(ws_sm *sm);
static void oc_busy_common(ws_sm *sm);
static void oc_busy_sub_generic(ws_sm *sm);

int sm_oc_init(ws_sm *sm, char *err, size_t errlen) {
    const ws_config *c = sm->cfg;
    int64_t w[16];
    int n = ws_config_int_list(c->pipeline_widths, w, 16);
    /* class order of each documented list length */
    static const int o7[] = {SM_SP, SM_SFU, SM_MEM};
    static const int o11[] = {SM_SP, SM_DP, SM_INT, SM_SFU, SM_MEM};
    if (n == 7) {
        for (int i = 0; i < 3; i++) {
            set_width(&sm->id_oc[o7[i]], w[i]);
            set_width(&sm->oc_ex[o7[i]], w[3 + i]);
        }
        set_width(&sm->id_oc[SM_DP], 1), set_width(&sm->oc_ex[SM_DP], 1);
        set_width(&sm->id_oc[SM_INT], 1), set_width(&sm->oc_ex[SM_INT], 1);
        sm->n_resbus = (unsigned)w[6];
    } else if (n == 11 || n == 13) {
        /* GPGPU-Sim 4 order; 13 adds tensor-core registers after MEM */
        int ex = n == 11 ? 5 : 6;
        for (int i = 0; i < 5; i++) {
            set_width(&sm->id_oc[o11[i]], w[i]);
            set_width(&sm->oc_ex[o11[i]], w[ex + i]);
        }
        sm->n_resbus = (unsigned)w[n - 1];
    } else {
        snprintf(err, errlen,
                 "-gpgpu_pipeline_widths %s: expected 7 (ID_OC_SP,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,"
                 "OC_EX_SFU,OC_EX_MEM,EX_WB) or 11 (GPGPU-Sim 4 order) numbers",
                 c->pipeline_widths);
        return -1;
    }
    if (sm->n_resbus < 1) sm->n_resbus = 1;
    /* collector units per class; DP/INT ports exist only with their units */
    int64_t units[SM_NCLASS + 1] = {c->oc_units_sp, c->oc_units_sfu, c->oc_units_mem,
                                    c->oc_units_dp, c->oc_units_int, c->oc_units_gen};
    if (sm_oc_spec_parse(c->oc_spec, units, err, errlen)) return -1;
    sm->oc_steps = (unsigned)c->reg_file_port_throughput;
    sm->oc_generic = !c->enable_specialized_operand_collector;
    if (sm->oc_generic) {
        /* the per-class counts and ports are not built in this organisation */
        for (int k = 0; k < SM_NCLASS; k++) units[k] = 0;
        sm->gen_in_ports = (unsigned)c->oc_in_ports_gen;
        sm->gen_out_ports = (unsigned)c->oc_out_ports_gen;
        if (!units[SM_NCLASS] || !sm->gen_in_ports || !sm->gen_out_ports) {
            snprintf(err, errlen,
                     "-gpgpu_enable_specialized_operand_collector 0 needs general collector units "
                     "and ports: -gpgpu_operand_collector_num_units_gen %lld, "
                     "-gpgpu_operand_collector_num_in_ports_gen %lld, "
                     "-gpgpu_operand_collector_num_out_ports_gen %lld (each from 1)",
                     (long long)units[SM_NCLASS], (long long)c->oc_in_ports_gen,
                     (long long)c->oc_out_ports_gen);
            return -1;
        }
    }
    int64_t inp[SM_NCLASS] = {c->oc_in_ports_sp, c->oc_in_ports_sfu, c->oc_in_ports_mem, 1, 1};
    int64_t outp[SM_NCLASS] = {c->oc_out_ports_sp, c->oc_out_ports_sfu, c->oc_out_ports_mem, 1, 1};
    bool used[SM_NCLASS] = {c->num_sp_units > 0, c->num_sfu_units > 0, true, c->num_dp_units > 0,
                            c->num_int_units > 0};
    static const char *names[SM_NCLASS] = {"sp", "sfu", "mem", "dp", "int"};
    sm->ncu = 0;
    for (int k = 0; k <= SM_NCLASS; k++) {
        sm->cu_base[k] = sm->ncu;
        sm->cu_n[k] = (unsigned)units[k];
        sm->ncu += sm->cu_n[k];
    }
    for (int k = 0; k < SM_NCLASS; k++) {
        sm->in_ports[k] = (unsigned)inp[k];
        sm->out_ports[k] = (unsigned)outp[k];
        if (used[k] && !sm->cu_n[k] && !sm->cu_n[SM_NCLASS]) {
            snprintf(err, errlen,
                     "-gpgpu_operand_collector_num_units_%s is 0 and there are no general units: "
                     "%s instructions could never execute",
                     names[k], names[k]);
            return -1;
        }
        if (used[k] && (!sm->id_oc[k].width || !sm->oc_ex[k].width)) {
            snprintf(err, errlen, "-gpgpu_pipeline_widths %s: the %s pipeline has width 0",
                     c->pipeline_widths, names[k]);
            return -1;
        }
    }
    /* without DP (INT) units their instructions take the SFU (SP) class (units.c): the
       collector's per-class loops stop before classes that stay empty */
    sm->oc_ncls = c->num_int_units > 0 ? SM_INT + 1 : c->num_dp_units > 0 ? SM_DP + 1 : SM_MEM + 1;
    sm->sub_core = c->sub_core_model;
    if (sm->sub_core) {
        /* GPGPU-Sim requires these splits to be even; so do we, before the run */
        unsigned ns = (unsigned)c->num_sched_per_core;
        if (c->num_reg_banks % ns) {
            snprintf(err, errlen,
                     "-gpgpu_sub_core_model 1: -gpgpu_num_reg_banks %lld is not a multiple of "
                     "-gpgpu_num_sched_per_core %u",
                     (long long)c->num_reg_banks, ns);
            return -1;
        }
        sm->banks_per_sched = (unsigned)c->num_reg_banks / ns;
        unsigned bps = sm->banks_per_sched; /* (the collector's reads: reg_bank) */
        sm->sub_bank_and = bps > 1 && !(bps & (bps - 1)) ? bps - 1 : 0;
        for (int k = 0; k <= SM_NCLASS; k++)
            if (sm->cu_n[k] % ns) {
                snprintf(err, errlen,
                         "-gpgpu_sub_core_model 1: %u %s collector units do not split evenly "
                         "over %u schedulers",
                         sm->cu_n[k], k == SM_NCLASS ? "general" : names[k], ns);
                return -1;
            }
        for (int k = 0; k < SM_NCLASS; k++)
            if (used[k] && (sm->id_oc[k].width < ns || sm->oc_ex[k].width < ns)) {
                snprintf(err, errlen,
                         "-gpgpu_sub_core_model 1: -gpgpu_pipeline_widths %s gives the %s "
                         "pipeline fewer slots than the %u schedulers",
                         c->pipeline_widths, names[k], ns);
                return -1;
            }
    }
    /* the common collector (specialized sets, no sub-cores) one step a cycle has a busy
       cycle of its own, compiled apart */
    sm->oc_busy = sm->sub_core && sm->oc_generic                      ? oc_busy_sub_generic
                  : sm->sub_core || sm->oc_generic || sm->oc_steps != 1 ? sm_oc_busy_cycle
                  : sm->cu_n[SM_NCLASS]                                ? oc_busy_common
                                                                       : oc_busy_plain;
    sm->cu = calloc(sm->ncu ? sm->ncu : 1, sizeof *sm->cu);
    sm->nbanks = (unsigned)c->num_reg_banks;
    sm->bank_use_warp = c->reg_bank_use_warp_id;
    sm->wr_bank_and = !sm->sub_core && sm->nbanks > 1 && !(sm->nbanks & (sm->nbanks - 1))
                          ? sm->nbanks - 1 : 0;
    /* (a power of two at least units x SM_MAX_SRC: the ring's index wraps with an AND) */
    for (sm->bq_cap = 1; sm->bq_cap < (sm->ncu ? sm->ncu : 1) * SM_MAX_SRC;) sm->bq_cap <<= 1;
    sm->bankq = calloc(sm->nbanks, sizeof *sm->bankq);
    if (!sm->cu || !sm->bankq) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    for (unsigned b = 0; b < sm->nbanks; b++) {
        sm->bankq[b] = calloc(1, sizeof **sm->bankq + sm->bq_cap * sizeof(sm_rdreq));
        if (!sm->bankq[b]) return -1;
    }
    for (int k = 0; k <= SM_NCLASS; k++) {
        sm->cu_set[k] = &sm->cu[sm->cu_base[k]];
        for (unsigned i = 0; i < sm->cu_n[k]; i++) {
            sm->cu[sm->cu_base[k] + i].set = (uint8_t)k;
            sm->cu[sm->cu_base[k] + i].idx = (uint8_t)i;
        }
        sm->cu_all[k] = sm->cu_n[k] >= 64 ? ~0ull : (1ull << sm->cu_n[k]) - 1;
        /* sub-core SMs: scheduler s's share, units lo..hi-1 (lo = s x per < hi <= 64: both
           shifts below 64; no share without units). ns <= 8: each MEM pipeline register,
           at most 8 wide, holds a slot per scheduler. */
        if (!sm->sub_core) continue;
        unsigned ns = (unsigned)c->num_sched_per_core, per = sm->cu_n[k] / ns;
        for (unsigned s = 0; per && s < ns; s++) {
            unsigned lo = s * per, hi = lo + per;
            sm->cu_share[k][s] = sm->cu_all[k] & ~((1ull << lo) - 1) & (~0ull >> (64 - hi));
        }
    }
    return 0;
}

/* The step below is compiled three times (oc_step_t): twice for the common collector
   (specialized sets, no sub-cores), where the sub-core branches fold away, with and
   without general units (`gen`: without, as on the Fermi presets, the general set's tests
   fold away too), and once for every organisation. `sub` is sm->sub_core on the last.
   (oc_busy_plain, oc_busy_common, sm_oc_busy_cycle) */
#define OC_INLINE static inline __attribute__((always_inline))

OC_INLINE unsigned reg_bank(const ws_sm *sm, unsigned arch, unsigned warp, bool sub) {
    unsigned r = arch + (sm->bank_use_warp ? warp : 0);
    if (!sub) return sm->nbanks & (sm->nbanks - 1) ? r % sm->nbanks : r & (sm->nbanks - 1);
    if (!sm->sub_bank_and) return sm_reg_bank(sm, arch, warp);
    /* sm_reg_bank's, the remainder an AND (fewer instructions than the test and the
       division there: the units' writeback keeps that) */
    return (r & sm->sub_bank_and) + sm->vsched[warp] * sm->banks_per_sched;
}

/* A unit's operands are all read: dispatch may take it. */
OC_INLINE void cu_mark_ready(ws_sm *sm, const sm_cu *u) {
    sm->cu_rdy[u->set] |= 1ull << u->idx;
    sm->cu_rdy_sets |= 1u << u->set;
}

/* (cu_dispatch and cu_allocate run for most instructions every cycle: inlined, the
   call sites' constant sets fold the general-set tests away) */
OC_INLINE bool cu_dispatch(ws_sm *sm, unsigned k, unsigned set, bool sub) {
    /* round robin over the set's units, starting after the last dispatched: only those
       whose operands are all read (cu_rdy), from disp_rr + 1 up, then from 0 (n <= 64) */
    uint64_t m = sm->cu_rdy[set];
    if (!m) return false;
    /* every candidate goes to OC_EX k (k: not any) with one slot for all (not sub-core):
       when that is full none can go, else the first goes */
    if (!sub && k < SM_NCLASS && !sm_regset_free(&sm->oc_ex[k])) return false;
    /* (the units after disp_rr < n <= 64: two shifts, each below 64, need no test of 64) */
    sm_cu *units = sm->cu_set[set];
    uint64_t mm = m & (~0ull << sm->disp_rr[set] << 1), rest = m & ~mm;
    for (;; mm &= mm - 1) {
        if (!mm) { /* the second round, from 0 */
            if (!rest) return false;
            mm = rest, rest = 0;
        }
        unsigned c = (unsigned)__builtin_ctzll(mm);
        sm_cu *cu = &units[c];
        unsigned cls = set < SM_NCLASS ? set : cu->cls; /* (a specialized unit holds its class) */
        if (set == SM_NCLASS && k < SM_NCLASS && cls != k) continue; /* k: any */
        sm_regset *out = &sm->oc_ex[cls];
        if (sub) { /* one slot per scheduler (oc_ex_scheds: the schedulers holding one) */
            if (sm->oc_ex_scheds[cls] & cu->sbit) continue;
            sm->oc_ex_scheds[cls] |= cu->sbit;
        } else if (k == SM_NCLASS && out->n >= out->width)
            continue;
        sm_regset_push(out, cu->in);
        sm->oc_ex_set |= 1u << cls;
        cu->in = NULL;
        sm->cu_used[set]--;
        sm->cu_used_all--;
        sm->cu_occ[set] &= ~(1ull << c);
        uint64_t left = m & ~(1ull << c);
        sm->cu_rdy[set] = left;
        if (!left) sm->cu_rdy_sets &= ~(1u << set);
        sm->disp_rr[set] = c;
        return true;
    }
}

OC_INLINE void cu_fill(ws_sm *sm, unsigned set, unsigned c, sm_inst *in, bool sub, bool cls);
OC_INLINE bool cu_allocate(ws_sm *sm, unsigned set, sm_inst *in, bool sub) {
    uint64_t range = sm->cu_all[set]; /* the set's units */
    if (sub) { /* the scheduler's share of the set */
        if (sm->cu_used[set] == sm->cu_n[set]) return false;
        range = sm->cu_share[set][sm->vsched[in->warp]];
    }
    /* the first free unit (of the scheduler's share on sub-core SMs) */
    uint64_t free = range & ~sm->cu_occ[set];
    if (!free) return false;
    cu_fill(sm, set, (unsigned)__builtin_ctzll(free), in, sub, true);
    return true;
}

/* Unit c of the set (free) takes in and queues its reads. `cls`: the unit's class is read
   later (general units, oc_blocked); without general units every reader takes the set's. */
OC_INLINE void cu_fill(ws_sm *sm, unsigned set, unsigned c, sm_inst *in, bool sub, bool cls) {
    sm_cu *cu = &sm->cu_set[set][c];
    cu->in = in;
    if (cls) cu->cls = in->cls;
    if (sub) cu->sbit = (uint8_t)(1u << sm->vsched[in->warp]);
    sm->cu_used[set]++;
    sm->cu_used_all++;
    sm->cu_occ[set] |= 1ull << c;
    unsigned ns = in->nsrc;
    in->nrd = (uint8_t)ns;
    /* every queued operand read is served before dispatch: count it now */
    sm->st.rf_reads += (uint64_t)ns * in->nact;
    /* (a bank's ring holds bq_cap >= units x SM_MAX_SRC reads: it cannot overflow) */
    uint64_t banks = 0;
    for (unsigned i = 0; i < ns; i++) {
        unsigned b = reg_bank(sm, in->src_bank[i], in->warp, sub);
        sm_bankq *q = sm->bankq[b];
        unsigned at = (q->head + q->len++) & (sm->bq_cap - 1); /* (head + len) % cap */
        q->ring[at].cu = cu;
        banks |= 1ull << b;
    }
    sm->bq_mask |= banks;
    sm->bq_total += ns;
    if (!ns) {
        sm->cu_rdy[set] |= 1ull << c;
        sm->cu_rdy_sets |= 1u << set;
    }
}

/* Bank queue q's head read (for unit u; bit: the bank's) is served. */
OC_INLINE void bank_serve(ws_sm *sm, sm_bankq *q, sm_cu *u, uint64_t bit) {
    unsigned head = q->head;
    q->head = (head + 1) & (sm->bq_cap - 1);
    if (!--q->len) sm->bq_mask &= ~bit;
    sm->bq_total--;
    /* (a queued read's unit holds its instruction until all its reads are served: units
       are emptied only by dispatch, which takes only ready ones) */
    if (!--u->in->nrd) cu_mark_ready(sm, u);
}

/* Class k's instruction found no unit: is one of the units it could use
   held by an instruction ready to leave but refused by a full OC_EX
   register (the collector blocked from downstream)? */
static bool oc_blocked(const ws_sm *sm, unsigned k) {
    const unsigned sets[2] = {k, SM_NCLASS};
    for (unsigned j = 0; j < 2; j++) /* (the units holding one with all operands read: cu_rdy) */
        for (uint64_t m = sm->cu_rdy[sets[j]]; m; m &= m - 1) {
            const sm_cu *cu = &sm->cu[sm->cu_base[sets[j]] + (unsigned)__builtin_ctzll(m)];
            if (!sm_regset_free(&sm->oc_ex[cu->cls])) return true;
        }
    return false;
}

/* oc_blocked for the generic collector (only general units): first which OC_EX
   registers are full; mostly none is, and then no unit need be looked at. */
static bool gen_blocked(const ws_sm *sm) {
    unsigned full = 0;
    for (unsigned c = 0; c < SM_NCLASS; c++) full |= (unsigned)!sm_regset_free(&sm->oc_ex[c]) << c;
    if (!full) return false;
    for (uint64_t m = sm->cu_rdy[SM_NCLASS]; m; m &= m - 1)
        if (full >> sm->cu[sm->cu_base[SM_NCLASS] + (unsigned)__builtin_ctzll(m)].cls & 1) return true;
    return false;
}

/* Generic collector, input side: each port visits the ID_OC registers in
   GPGPU-Sim's port order (SP, SFU, MEM, DP, INT: the class numbers' order) and
   moves the oldest instruction of each non-empty one (idoc) into a free general
   unit (GPGPU-Sim 4 lets a port serve every register in one step). */
OC_INLINE bool gen_allocate(ws_sm *sm, unsigned idoc, bool sub) {
    bool blocked = false;
    /* here only the general set has units, so oc_blocked answers alike for every
       class (gen_blocked) until a unit with all operands read is allocated (-1: not
       asked since) */
    int gblk = -1;
    /* a register whose oldest found no unit finds none at the later ports either:
       allocation only fills units (only its blocked check is repeated) */
    unsigned failed = 0;
    for (unsigned p = 0; p < sm->gen_in_ports && idoc; p++) {
        bool moved = false; /* a port that moves nothing leaves the next nothing either */
        for (unsigned todo = idoc; todo; todo &= todo - 1) {
            unsigned k = (unsigned)__builtin_ctz(todo);
            sm_regset *rs = &sm->id_oc[k];
            unsigned idx;
            if (failed >> k & 1 || !cu_allocate(sm, SM_NCLASS, sm_regset_oldest(rs, &idx), sub)) {
                failed |= 1u << k;
                if (!blocked) {
                    if (gblk < 0) gblk = gen_blocked(sm);
                    blocked = gblk;
                }
                continue;
            }
            if (!rs->slot[idx]->nsrc) gblk = -1; /* (it is ready: cu_rdy changed) */
            sm_idoc_out(sm, rs->slot[idx], k);
            sm_regset_remove(rs, idx);
            if (!rs->n) idoc &= ~(1u << k);
            sm->gen++; /* an ID_OC slot is free: issue may go on */
            moved = true;
        }
        if (!moved) break;
    }
    return blocked;
}

/* One collector step; true when an instruction found no unit because the
   units it could use are blocked from downstream. `idoc`: bit k set when
   ID_OC k holds an instruction (issue adds none between steps). */
OC_INLINE bool oc_step_t(ws_sm *sm, unsigned idoc, bool sub, bool generic, bool gen) {
    /* 1. dispatch collector units whose operands are all read (a unit of
       class k, or a general one holding class k, goes to OC_EX k: none
       can while that is full) */
    if (generic) {
        for (unsigned p = 0; p < sm->gen_out_ports && sm->cu_rdy[SM_NCLASS]; p++)
            if (!cu_dispatch(sm, SM_NCLASS, SM_NCLASS, sub)) break;
    } else if (sm->cu_rdy_sets) {
        /* only classes whose set has a unit with all operands read (cu_rdy_sets), or
           all when a general one has (dispatch only clears bits, so this covers the
           classes the loop must visit) */
        unsigned todo = sm->cu_rdy_sets;
        if (gen && todo >> SM_NCLASS) todo = (1u << sm->oc_ncls) - 1;
        for (; todo; todo &= todo - 1) {
            unsigned k = (unsigned)__builtin_ctz(todo);
            if (k >= SM_NCLASS) __builtin_unreachable(); /* (cu_dispatch's tests of k fold) */
            /* (a full OC_EX k takes none: cu_dispatch's own first test, but for sub-core SMs,
               whose dispatch tests only the scheduler's slot) */
            if (sub && !sm_regset_free(&sm->oc_ex[k])) continue;
            for (unsigned p = 0; p < sm->out_ports[k] && sm->cu_rdy[k]; p++)
                if (!cu_dispatch(sm, k, k, sub)) break;
            if (gen && sm->cu_rdy[SM_NCLASS]) cu_dispatch(sm, k, SM_NCLASS, sub);
        }
    }
    /* 2. register-bank arbitration: one read per bank, one operand per unit */
    /* banks with a queued read and no writeback this cycle */
    uint64_t cand = sm->bq_mask & ~sm->bank_wmask, cand2 = cand & (cand - 1);
    if (cand && !(cand2 & (cand2 - 1))) {
        /* one or two banks: no grant stamp. The first (from arb_prio up, then from 0) is
           served; the second unless its head is for the same unit. */
        uint64_t first = cand ^ cand2, up = cand & (~0ull << sm->arb_prio);
        if (cand2 && up == cand2) first = cand2; /* (only the upper bank is from arb_prio up) */
        sm_bankq *q0 = sm->bankq[__builtin_ctzll(first)];
        sm_cu *u0 = q0->ring[q0->head].cu;
        if (cand2) {
            uint64_t second = cand ^ first;
            sm_bankq *q1 = sm->bankq[__builtin_ctzll(second)];
            sm_cu *u1 = q1->ring[q1->head].cu;
            if (u1 != u0) bank_serve(sm, q1, u1, second);
        }
        bank_serve(sm, q0, u0, first);
    } else if (cand) {
        /* units granted a read this step carry this step's stamp (unique among the steps
           with more than two candidate banks, the only ones that look at it) */
        uint64_t stamp = ++sm->oc_stamp;
        /* banks from arb_prio up, then from 0 (arb_prio < nbanks <= 64) */
        uint64_t qmask = sm->bq_mask;
        uint64_t up = ~0ull << sm->arb_prio;
        uint64_t m = cand & up, rest = cand & ~up; /* (the two rounds in one loop) */
        unsigned served = 0;
        /* (the queues' fields in locals: the count below is a char store, after which the
           compiler would load them again from the SM) */
        unsigned cap = sm->bq_cap;
        sm_bankq *const *bq = sm->bankq;
        for (;; m &= m - 1) {
            if (!m) {
                if (!rest) break;
                m = rest, rest = 0;
            }
            unsigned b = (unsigned)__builtin_ctzll(m);
            sm_bankq *q = bq[b];
            unsigned head = q->head;
            sm_cu *u = q->ring[head].cu;
            if (u->granted == stamp) continue;
            u->granted = stamp;
            q->head = (head + 1) & (cap - 1);
            if (!--q->len) qmask &= ~(1ull << b);
            served++;
            /* (a queued read's unit holds its instruction until all its reads are served:
               units are emptied only by dispatch, which takes only ready ones) */
            if (!--u->in->nrd) cu_mark_ready(sm, u);
        }
        sm->bq_mask = qmask;
        sm->bq_total -= served;
    }
    if (++sm->arb_prio == sm->nbanks) sm->arb_prio = 0; /* (arb_prio < nbanks) */
    /* 3. input ports move instructions from ID_OC into free collector units */
    if (generic) {
        bool b = gen_allocate(sm, idoc, sub);
        sm->bank_wmask = 0;
        return b;
    }
    bool blocked = false;
    if (!gen && !sub) { /* (only the class's own set: a free unit there or none) */
        for (; idoc; idoc &= idoc - 1) {
            unsigned k = (unsigned)__builtin_ctz(idoc);
            sm_regset *rs = &sm->id_oc[k];
            for (unsigned p = sm->in_ports[k]; p--;) {
                uint64_t free = sm->cu_all[k] & ~sm->cu_occ[k];
                if (!free) {
                    /* oc_blocked: the set's units all hold class k (no general set) */
                    if (sm->cu_rdy[k] && !sm_regset_free(&sm->oc_ex[k])) blocked = true;
                    break;
                }
                unsigned idx;
                sm_inst *in = sm_regset_oldest(rs, &idx);
                sm_regset_remove(rs, idx);
                cu_fill(sm, k, (unsigned)__builtin_ctzll(free), in, false, false);
                sm->gen++; /* an ID_OC slot is free: issue may go on */
                if (!rs->n) {
                    sm->idoc_set &= ~(1u << k); /* (sm_idoc_out, after the take) */
                    break;
                }
            }
        }
        sm->bank_wmask = 0;
        return blocked;
    }
    for (; idoc; idoc &= idoc - 1) {
        unsigned k = (unsigned)__builtin_ctz(idoc);
        sm_regset *rs = &sm->id_oc[k];
        for (unsigned p = sm->in_ports[k]; p--;) {
            unsigned idx;
            /* both sets full: cu_allocate would refuse at once (most cycles of a busy
               collector), so the oldest is not looked for either */
            bool full = sm->cu_used[k] == sm->cu_n[k] &&
                        (!gen || sm->cu_used[SM_NCLASS] == sm->cu_n[SM_NCLASS]);
            sm_inst *in = full ? NULL : sm_regset_oldest(rs, &idx);
            if (full || (!cu_allocate(sm, k, in, sub) &&
                         (!gen || !cu_allocate(sm, SM_NCLASS, in, sub)))) {
                if (!blocked && oc_blocked(sm, k)) blocked = true;
                break;
            }
            if (sub) sm_idoc_out(sm, in, k);
            sm_regset_remove(rs, idx);
            sm->gen++; /* an ID_OC slot is free: issue may go on */
            if (!rs->n) {
                if (!sub) sm->idoc_set &= ~(1u << k); /* (sm_idoc_out, after the take) */
                break;
            }
        }
    }
    sm->bank_wmask = 0;
    return blocked;
}

/* A cycle of a collector holding work (sm_oc_cycle, inline, takes the idle ones), one
   function per organisation (sm->oc_busy, picked by sm_oc_init): the common collector's
   single step a cycle (the Fermi presets), without and with general units, and every
   other organisation (sm_oc_busy_cycle). */
static void oc_busy_plain(ws_sm *sm) { /* (no general units) */
    if (oc_step_t(sm, sm->idoc_set, false, false, false)) sm->st.oc_blocked_cycles++;
}
static void oc_busy_common(ws_sm *sm) {
    if (oc_step_t(sm, sm->idoc_set, false, false, true)) sm->st.oc_blocked_cycles++;
}
/* (the post-Fermi presets: generic collector, sub-cores, any number of steps) */
static void oc_busy_sub_generic(ws_sm *sm) {
    unsigned idoc = sm->idoc_set;
    bool blocked = false;
    for (unsigned s = 0;;) {
        blocked |= oc_step_t(sm, idoc, true, true, true);
        if (++s == sm->oc_steps) break;
        idoc = sm->idoc_set;
    }
    if (blocked) sm->st.oc_blocked_cycles++;
}
void sm_oc_busy_cycle(ws_sm *sm) {
    unsigned idoc = sm->idoc_set; /* (bit k: ID_OC k holds an instruction) */
    bool blocked = false;
    for (unsigned s = 0;;) {
        blocked |= oc_step_t(sm, idoc, sm->sub_core, sm->oc_generic, true);
        if (++s == sm->oc_steps) break;
        idoc = sm->idoc_set; /* less the ID_OC registers the step emptied */
    }
    if (blocked) sm->st.oc_blocked_cycles++; /* a cycle count, whatever the steps */
}

/* Register-bank read cycles a set of instructions would need in isolation
   (tests). */
unsigned sm_oc_pending_reads(const ws_sm *sm) {
    unsigned n = 0;
    for (unsigned b = 0; b < sm->nbanks; b++) n += sm->bankq[b]->len;
    return n;
}
