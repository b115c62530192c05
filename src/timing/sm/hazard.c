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
     .desc = "MSHR squashes of passes that held a credit (uncredited loads took the MSHRs "
             "between issue and the memory stage)"},
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
