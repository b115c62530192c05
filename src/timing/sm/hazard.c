/* Memory-stage hazard statistics (hazard.h has the taxonomy). In the
 * stalling pipeline each counts the cycles the LD/ST unit spent held by
 * that kind of hazard: DIV and BANK the extra passes of an instruction
 * whose threads need more than one access, MSHR/COMQ/RSV the cycles an
 * access retried a failed reservation. oc_blocked_cycles counts cycles in
 * which an instruction waiting in an ID_OC register found no free collector
 * unit while a collector unit held an instruction whose operands were read
 * but whose OC_EX register was full: the collector is blocked by stalling
 * downstream. With the memory instruction count these give the predicted
 * maximum speedup of the thesis's section 3.5 (tools/warpsim_tools/
 * repro_seed004.py). With -warpsim_hazard_mode replay the hazard stats
 * count squashes (passes that left threads to replay) by their kind. */
#include <stddef.h>

#include "timing/sm/hazard.h"

/* -warpsim_mshr_idle_stat (the thesis's Fig 7.12): does this cycle start
   with an MSHR of the L1D or the L1C free while a load that needs one of
   that cache waits for it? Such a load waits to issue again (held back by
   hazard prediction, or replay-ready) or is on its way to the L1
   checkpoint (the MEM ID_OC register, a collector unit, the MEM OC_EX
   register, the LD/ST dispatch register, the L1 latency queue). Loads not
   yet issued (a scoreboard or a busy ID_OC register holds them) are not
   counted. A sleeping SM holds none of these (sm.c, quiet_until), so its
   cycles count 0 and skip this. */
static unsigned demand_of(const ws_sm *sm, const sm_inst *in) {
    int p = in ? sm_hp_pool(sm, in) : -1;
    return p < 0 ? 0 : 1u << p;
}

static unsigned regset_demand(const ws_sm *sm, const sm_regset *r) {
    unsigned m = 0;
    for (unsigned i = 0; i < r->n; i++) m |= demand_of(sm, r->slot[i]);
    return m;
}

void sm_mshr_idle_cycle(ws_sm *sm) {
    unsigned free = 0; /* pools (bit 0 L1D, bit 1 L1C, as sm_hp_pool) with an MSHR free */
    if (ws_cache_mshr_used(sm->l1d) < ws_cache_get_cfg(sm->l1d)->mshr_entries) free |= 1;
    if (ws_cache_mshr_used(sm->l1c) < ws_cache_get_cfg(sm->l1c)->mshr_entries) free |= 2;
    if (!free) return;
    unsigned m = regset_demand(sm, &sm->id_oc[SM_MEM]) | regset_demand(sm, &sm->oc_ex[SM_MEM]) |
                 demand_of(sm, sm->ld_disp);
    for (unsigned i = 0; sm->l1q_n && i < sm->l1_lat * sm->l1_banks && !(m & free); i++)
        if (sm->l1q[i].valid) m |= demand_of(sm, sm->l1q[i].in);
    for (unsigned c = 0; c < sm->ncu && !(m & free); c++) m |= demand_of(sm, sm->cu[c].in);
    for (unsigned wi = 0; wi < sm->max_warps && !(m & free); wi++) {
        const sm_warp *w = &sm->warps[wi];
        if (!sm_warp_owes(w)) continue;
        m |= demand_of(sm, w->hp_gated);
        for (unsigned i = 0; i < w->rp_n; i++)
            if (w->rp[i].in->rp_ready) m |= demand_of(sm, w->rp[i].in);
    }
    if (m & free) sm->st.mshr_idle_demand++;
}

const char *sm_hazard_name(unsigned kind) {
    static const char *const names[SM_HZ_N] = {"DIV", "BANK", "MSHR", "COMQ", "RSV"};
    return kind < SM_HZ_N ? names[kind] : "?";
}

#define HZ(f, k, d)                                                                          \
    {"warpsim_hazard_" f, .unit = "cycles", .desc = d, .src = WS_SRC_U64,                    \
     .off = offsetof(ws_sm_stats, hazard) + (k) * sizeof(uint64_t)}
static const ws_stat_decl hazard_stats[] = {
    HZ("div", SM_HZ_DIV, "memory-stage cycles, summed over SMs, in which an instruction made one "
       "of several accesses because its threads' addresses did not coalesce into one (DIV)"),
    HZ("bank", SM_HZ_BANK, "memory-stage cycles, summed over SMs, spent on the extra passes of "
       "shared-memory bank conflicts (BANK)"),
    HZ("mshr", SM_HZ_MSHR, "memory-stage cycles, summed over SMs, in which a missing access found "
       "no free MSHR entry or its block's entry at the merge limit (MSHR)"),
    HZ("comq", SM_HZ_COMQ, "memory-stage cycles, summed over SMs, in which a missing access found "
       "the queue towards the interconnect full (COMQ)"),
    HZ("rsv", SM_HZ_RSV, "memory-stage cycles, summed over SMs, in which a missing access could "
       "not reserve a line in its set (RSV)"),
    {"warpsim_oc_blocked_cycles", .unit = "cycles", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, oc_blocked_cycles),
     .desc = "cycles, summed over SMs, in which an issued instruction found no free collector "
             "unit while one held an instruction with its operands read whose execution "
             "register was full (the collector blocked by stalling downstream)"},
    {"warpsim_warp_insts_mem", .unit = "warp instructions", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, warp_insts_mem),
     .desc = "memory warp instructions issued (loads, stores, atomics, fences: the LD/ST "
             "pipeline); the other issued warp instructions are ALU work"},
    {"warpsim_replay_issues", .unit = "warp instructions", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, replay_issues), .when = "-warpsim_hazard_mode replay",
     .desc = "reissues of squashed memory instructions (not in the instruction counts)"},
    {"warpsim_replay_squashes", .unit = "passes", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, replay_squashes), .when = "-warpsim_hazard_mode replay",
     .desc = "memory-stage passes that left threads to replay (each kind also counts in "
             "its warpsim_hazard_* stat)"},
    {"warpsim_replay_mshr_again", .unit = "passes", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, replay_mshr_again), .when = "-warpsim_hazard_mode replay",
     .desc = "MSHR squashes of passes whose previous pass had already failed for want of an "
             "MSHR, the miss queue or a line (known misses squashed again; hazard prediction "
             "with a credit tracker keeps these near 0)"},
    {"warpsim_hp_restrict", .unit = "scheduler-cycles", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, hp_restrict), .when = "-warpsim_hp_predictor other than none",
     .desc = "no issue: a load was ready but hazard prediction held it back (restrict)"},
    {"warpsim_hp_tracker_errors", .unit = "passes", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, hp_tracker_errors),
     .when = "-warpsim_hp_predictor other than none with -warpsim_hazard_mode replay",
     .desc = "MSHR squashes of passes that held a credit: with -warpsim_hp_credit_strict 0, "
             "uncredited accesses took the MSHR between issue and the memory stage, or the "
             "line's MSHR entry was at its merge limit; 0 with strict credits and no signal "
             "delay"},
    {"warpsim_hp_refused", .unit = "accesses", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, hp_refused),
     .when = "-warpsim_hp_tracker credit with -warpsim_hazard_mode replay",
     .desc = "L1D/L1C accesses without a credit that the memory stage refused an MSHR entry or "
             "merge slot kept for credits in flight (each also counts as an MSHR hazard)"},
    {"warpsim_mshr_idle_demand", .unit = "cycles", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, mshr_idle_demand), .when = "-warpsim_mshr_idle_stat 1",
     .desc = "cycles, summed over SMs, that began with an MSHR of the L1D (L1C) free while a "
             "load needing one of that cache was held back by hazard prediction, replay-ready, "
             "or issued and not yet through the L1 checkpoint (MSHRs idle while demand exists)"},
#define HP(f, k, d)                                                                          \
    {"warpsim_hp_" f, .unit = "predictions", .src = WS_SRC_U64,                              \
     .off = offsetof(ws_sm_stats, hp_pred) + (k) * sizeof(uint64_t),                         \
     .when = "-warpsim_hp_predictor other than none", .desc = d}
    HP("ptt", 0, "load passes predicted to miss that missed"),
    HP("ptf", 1, "load passes predicted to miss that hit"),
    HP("pft", 2, "load passes predicted to hit that missed (a merge into a pending line counts "
       "as a miss)"),
    HP("pff", 3, "load passes predicted to hit that hit"),
#undef HP
};
#undef HZ
const ws_stat_table ws_sm_hazard_table = {"SM memory-stage hazards", hazard_stats,
                                          sizeof hazard_stats / sizeof hazard_stats[0]};
