/* The timing model's top level: clock domains, the order in which units
 * are ticked, CTA dispatch, completion, the watchdog and per-kernel stats.
 *
 * Clock domains follow GPGPU-Sim: each domain has a period (1 / MHz) and a
 * next-tick time; every step ticks the domains whose time is the smallest.
 * Within a step the order is: SMs take replies from the interconnect (core),
 * sub-partitions send replies into the interconnect (icnt), DRAM channels
 * (dram), sub-partitions take requests and run their L2 (L2), the
 * interconnect moves flits (icnt), SMs run a cycle and inject requests, then
 * the dispatcher gives at most one new CTA to each SM (core). */
#include "timing/gpu.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stats/energy.h"
#include "timing/clockdom.h"
#include "timing/control.h"
#include "timing/hmem.h"
#include "timing/mem/addrdec.h"
#include "timing/mem/cache.h"
#include "timing/mem/icnt.h"
#include "timing/gpu_hooks.h"
#include "timing/cpucore.h"
#include "timing/llc_ai.h"
#include "timing/mem/partition.h"
#include "timing/par.h"
#include "timing/wave_sample.h"

enum { DOM_CORE = 1, DOM_ICNT = 2, DOM_L2 = 4, DOM_DRAM = 8 };

/* Program-scope statistics: GPGPU-Sim's cache, DRAM, interconnect and stall
 * counters (and warpsim's additions to those families), which GPGPU-Sim
 * reports cumulatively over all kernels so far. Each is reported under its
 * name as the running total and as NAME_kernel for this kernel alone
 * (ws_kstats_add_program); program_values() measures the kernel's part.
 * Other stats (warpsim_*, energy, gpu_sim_*) are per kernel only. */
enum {
    P_L1D_ACC, P_L1D_MISS, P_L1D_MISS_RATE, P_L1D_PEND, P_L1D_RES_FAIL, P_L1D_BYPASS,
    P_L1D_F_LINE, P_L1D_F_MSHR, P_L1D_F_MERGE, P_L1D_F_MQ, P_L1D_F_FLUSH,
    P_L1I_ACC, P_L1I_MISS, P_L1I_MISS_RATE, P_L1C_ACC, P_L1C_MISS, P_L1C_MISS_RATE,
    P_L1T_ACC, P_L1T_MISS, P_SHMEM_BKCONFLICT,
    P_L2_ACC, P_L2_MISS, P_L2_MISS_RATE, P_L2_PEND, P_L2_RES_FAIL, P_L2_BYPASS,
    P_DRAM_RD, P_DRAM_WR, P_DRAM_ROW_HIT, P_DRAM_ROW_MISS, P_DRAM_BUSY, P_DRAM_CYC, P_DRAM_BW,
    P_STALL_DRAMFULL, P_STALL_ICNT2SH, P_ICNT_REQ, P_ICNT_REPLY,
    P_N_LOAD, P_N_STORE, P_N_SHMEM, P_N_TEX, P_N_CONST, P_N_PARAM,
    P_MEM_RD_LOCAL, P_MEM_WR_LOCAL, P_MEM_RD_GLOBAL, P_MEM_WR_GLOBAL, P_MEM_TEX, P_MEM_CONST,
    P_MF_LAT_SUM, P_MF_N, P_MF_MAX, P_MF_AVG, P_GLD_BYTES, P_L1D_LIST_BYPASS,
    P_L2_REPLY_BYTES, P_CYCLES, P_WARPS_LIVE, P_WARP_SLOTS,
    P_N
};

#define RATE(n, d) .agg = WS_AGG_RATIO, .num = (n), .den = (d)
#define S(id, nm, u, d, ...) [id] = {nm, .unit = u, .desc = d, .scope = WS_SCOPE_PROGRAM, __VA_ARGS__}
#define L1D_FAIL(id, kind) S(id, "L1D_fail_" #kind, "accesses", "L1D reservation fails: " #kind)
static const ws_stat_decl g_program_stats[P_N] = {
    S(P_L1D_ACC, "L1D_total_cache_accesses", "accesses", "L1D accesses (hits, pending hits, misses; in a sectored L1D each 32 B sector access counts, as GPGPU-Sim counts them)"),
    S(P_L1D_MISS, "L1D_total_cache_misses", "accesses", "L1D misses (sector misses too)"),
    S(P_L1D_MISS_RATE, "L1D_total_cache_miss_rate", "ratio", "L1D misses / accesses",
      RATE(P_L1D_MISS, P_L1D_ACC)),
    S(P_L1D_PEND, "L1D_total_cache_pending_hits", "accesses",
      "L1D hits on a line whose fill is in flight"),
    S(P_L1D_RES_FAIL, "L1D_total_cache_reservation_fails", "accesses",
      "L1D accesses refused for lack of a line, MSHR or miss-queue slot (retried)"),
    S(P_L1D_BYPASS, "L1D_total_cache_bypasses", "accesses", "accesses a bypass policy sent past the L1D"),
    L1D_FAIL(P_L1D_F_LINE, LINE_ALLOC_FAIL),
    L1D_FAIL(P_L1D_F_MSHR, MSHR_ENTRY_FAIL),
    L1D_FAIL(P_L1D_F_MERGE, MSHR_MERGE_FAIL),
    L1D_FAIL(P_L1D_F_MQ, MISS_QUEUE_FULL),
    L1D_FAIL(P_L1D_F_FLUSH, FLUSH_BLOCKED),
    S(P_L1I_ACC, "L1I_total_cache_accesses", "accesses", "instruction cache accesses"),
    S(P_L1I_MISS, "L1I_total_cache_misses", "accesses", "instruction cache misses"),
    S(P_L1I_MISS_RATE, "L1I_total_cache_miss_rate", "ratio", "L1I misses / accesses",
      RATE(P_L1I_MISS, P_L1I_ACC)),
    S(P_L1C_ACC, "L1C_total_cache_accesses", "accesses", "constant cache accesses"),
    S(P_L1C_MISS, "L1C_total_cache_misses", "accesses", "constant cache misses"),
    S(P_L1C_MISS_RATE, "L1C_total_cache_miss_rate", "ratio", "L1C misses / accesses",
      RATE(P_L1C_MISS, P_L1C_ACC)),
    S(P_L1T_ACC, "L1T_total_cache_accesses", "accesses", "texture cache accesses"),
    S(P_L1T_MISS, "L1T_total_cache_misses", "accesses", "texture cache misses"),
    S(P_SHMEM_BKCONFLICT, "gpgpu_n_shmem_bkconflict", "cycles",
      "extra shared-memory cycles spent on bank conflicts"),
    S(P_L2_ACC, "L2_total_cache_accesses", "accesses", "L2 accesses (hits, pending hits, misses)"),
    S(P_L2_MISS, "L2_total_cache_misses", "accesses", "L2 misses (sector misses too)"),
    S(P_L2_MISS_RATE, "L2_total_cache_miss_rate", "ratio", "L2 misses / accesses",
      RATE(P_L2_MISS, P_L2_ACC)),
    S(P_L2_PEND, "L2_total_cache_pending_hits", "accesses", "L2 hits on a line whose fill is in flight"),
    S(P_L2_RES_FAIL, "L2_total_cache_reservation_fails", "accesses",
      "L2 accesses refused for lack of resources (retried)"),
    S(P_L2_BYPASS, "L2_total_cache_bypasses", "accesses", "accesses a bypass policy sent past the L2"),
    S(P_DRAM_RD, "total_dram_reads", "commands", "DRAM read commands", .text = "total dram reads"),
    S(P_DRAM_WR, "total_dram_writes", "commands", "DRAM write commands", .text = "total dram writes"),
    S(P_DRAM_ROW_HIT, "dram_row_hits", "commands", "DRAM accesses to an open row"),
    S(P_DRAM_ROW_MISS, "dram_row_misses", "commands", "DRAM accesses that opened a row"),
    S(P_DRAM_BUSY, "dram_busy_data_cycles", "cycles", "DRAM cycles moving data", .hidden = 1),
    S(P_DRAM_CYC, "dram_cycles", "cycles", "DRAM cycles, all channels", .hidden = 1),
    S(P_DRAM_BW, "dram_bw_util", "ratio", "share of DRAM cycles moving data (all channels)",
      RATE(P_DRAM_BUSY, P_DRAM_CYC)),
    S(P_STALL_DRAMFULL, "gpu_stall_dramfull", "cycles",
      "sub-partition cycles a request waited because the partition's queue was full"),
    /* GPGPU-Sim pads this one: "gpu_stall_icnt2sh    = N" */
    S(P_STALL_ICNT2SH, "gpu_stall_icnt2sh", "cycles",
      "sub-partition cycles a reply waited for interconnect buffer space",
      .text = "gpu_stall_icnt2sh   "),
    S(P_ICNT_REQ, "icnt_total_packets_req", "packets", "request packets into the interconnect"),
    S(P_ICNT_REPLY, "icnt_total_packets_reply", "packets", "reply packets into the interconnect"),
    /* thread-level: guard-true lanes of memory instructions by space (GPGPU-Sim pads two) */
    S(P_N_LOAD, "gpgpu_n_load_insn", "instructions", "global/local loads (atomics too), per lane",
      .text = "gpgpu_n_load_insn "),
    S(P_N_STORE, "gpgpu_n_store_insn", "instructions", "global/local stores, per lane"),
    S(P_N_SHMEM, "gpgpu_n_shmem_insn", "instructions", "shared-memory instructions, per lane"),
    S(P_N_TEX, "gpgpu_n_tex_insn", "instructions", "texture fetches, per lane"),
    S(P_N_CONST, "gpgpu_n_const_mem_insn", "instructions", "constant-memory loads, per lane"),
    S(P_N_PARAM, "gpgpu_n_param_mem_insn", "instructions", "parameter-memory accesses, per lane"),
    /* requests the SMs sent towards memory, by kind */
    S(P_MEM_RD_LOCAL, "gpgpu_n_mem_read_local", "requests", "local-memory read requests to memory"),
    S(P_MEM_WR_LOCAL, "gpgpu_n_mem_write_local", "requests", "local-memory write requests to memory"),
    S(P_MEM_RD_GLOBAL, "gpgpu_n_mem_read_global", "requests", "global read requests to memory"),
    S(P_MEM_WR_GLOBAL, "gpgpu_n_mem_write_global", "requests", "global write requests to memory"),
    S(P_MEM_TEX, "gpgpu_n_mem_texture", "requests", "texture requests to memory"),
    S(P_MEM_CONST, "gpgpu_n_mem_const", "requests", "constant requests to memory"),
    /* data replies at the SMs: core cycles from the request's creation to arrival */
    S(P_MF_LAT_SUM, "mf_latency_sum", "cycles", "", .hidden = 1),
    S(P_MF_N, "mf_replies", "replies", "", .hidden = 1),
    S(P_MF_MAX, "maxmflatency", "cycles", "longest memory request latency (creation to reply)",
      .agg = WS_AGG_MAX),
    S(P_MF_AVG, "averagemflatency", "cycles", "mean memory request latency (creation to reply)",
      RATE(P_MF_LAT_SUM, P_MF_N)),
    /* profile-based L1D bypassing (timing/mem/l1bypass.h) */
    S(P_GLD_BYTES, "warpsim_gmem_load_bytes", "B",
      "global-load bytes requested from memory: L1D line fills and uncached 32 B sectors"),
    S(P_L1D_LIST_BYPASS, "warpsim_l1d_list_bypasses", "requests",
      "global-load sector requests that -l1d_bypass_list sent past the L1D"),
    /* for L2_BW and gpu_tot_occupancy, which GPGPU-Sim names per scope itself */
    S(P_L2_REPLY_BYTES, "l2_reply_bytes", "B", "", .hidden = 1),
    S(P_CYCLES, "core_cycles", "cycles", "", .hidden = 1),
    S(P_WARPS_LIVE, "warps_live_cycles", "warp-cycles", "", .hidden = 1),
    S(P_WARP_SLOTS, "warp_slot_cycles", "warp-cycles", "", .hidden = 1),
};
#undef L1D_FAIL
#undef RATE
#undef S
const ws_stat_table ws_gpu_stat_table = {"memory system (GPGPU-Sim's cumulative counters)",
                                         g_program_stats, P_N};

/* The generated program-scope entries (build_decl), one declaration per family. */
#define F(nm, tx, u, d) {nm, .text = tx, .unit = u, .desc = d, .scope = WS_SCOPE_PROGRAM}
static const ws_stat_decl g_families[] = {
    F("L1D_cache_core_*_accesses", "", "accesses", "one SM's L1D accesses (text: L1D_cache_core[i] line)"),
    F("L1D_cache_core_*_misses", "", "accesses", "one SM's L1D misses"),
    F("L1D_cache_core_*_pending_hits", "", "accesses", "one SM's L1D pending hits"),
    F("L1D_cache_core_*_reservation_fails", "", "accesses", "one SM's L1D reservation fails"),
    F("warp_distro_*", "", "scheduler-cycles",
      "warp issue distribution: Stall, W0_Idle, W0_Scoreboard, or issued with k lanes (Wk); "
      "text: the Warp Occupancy Distribution line"),
    F("Total_core_cache_stats_breakdown_*", "Total_core_cache_stats_breakdown[*][*]", "accesses",
      "core caches' accesses by access kind and outcome"),
    F("L2_cache_stats_breakdown_*", "L2_cache_stats_breakdown[*][*]", "accesses",
      "L2 accesses by access kind and outcome"),
};
#undef F
const ws_stat_table ws_gpu_family_table = {"per-core and per-kind breakdowns", g_families,
                                           sizeof g_families / sizeof g_families[0]};

/* Per kernel stats the GPU computes itself (values in gpu_kernel_vals). */
typedef struct gpu_kernel_vals {
    double l2_bw, l2_bw_total, occ, tot_occ;
    uint64_t regs, smem, ctas;
    const char *limiter;
    double time_us;
} gpu_kernel_vals;
/* the report prints the issue stalls between the limiter and the time */
enum { GK_TIME_US = 8, GK_N };
#define K(f, src_, nm, u, d, ...)                                                             \
    {nm, .unit = u, .desc = d, .src = src_, .off = offsetof(gpu_kernel_vals, f), __VA_ARGS__}
static const ws_stat_decl g_kernel_stats[GK_N] = {
    K(l2_bw, WS_SRC_F64, "L2_BW", "GB/s", "bytes leaving the L2 towards the SMs per simulated second",
      .twin = "L2_BW_total", .agg = WS_AGG_WMEAN, .den_name = "gpu_sim_cycle"),
    K(l2_bw_total, WS_SRC_F64, "L2_BW_total", "GB/s", "L2_BW over all kernels so far",
      .scope = WS_SCOPE_CUMULATIVE, .agg = WS_AGG_LAST, .run = WS_RUN_MEAN),
    K(occ, WS_SRC_F64, "gpu_occupancy", "%", "live warps / warp slots of active SMs",
      .twin = "gpu_tot_occupancy", .agg = WS_AGG_WMEAN, .den_name = "warpsim_sm_active_cycles"),
    K(tot_occ, WS_SRC_F64, "gpu_tot_occupancy", "%", "gpu_occupancy over all kernels so far",
      .scope = WS_SCOPE_CUMULATIVE, .agg = WS_AGG_LAST, .run = WS_RUN_MEAN),
    K(regs, WS_SRC_U64, "warpsim_regs_per_thread", "registers", "registers per thread (ptxas)",
      .agg = WS_AGG_LAST),
    K(smem, WS_SRC_U64, "warpsim_smem_per_cta", "B", "shared memory per CTA", .agg = WS_AGG_LAST),
    K(ctas, WS_SRC_U64, "warpsim_ctas_per_sm", "CTAs", "CTAs of this kernel that fit on an SM at once",
      .agg = WS_AGG_LAST),
    K(limiter, WS_SRC_STR, "warpsim_cta_limited_by", "text", "what limits CTAs per SM (a string)",
      .agg = WS_AGG_LAST),
    [GK_TIME_US] = K(time_us, WS_SRC_F64, "gpu_sim_time_us", "us",
                     "simulated time of this kernel at the core clock"),
};
#undef K
const ws_stat_table ws_gpu_kernel_table = {"GPU (per kernel)", g_kernel_stats, GK_N};

/* A request pool on cache lines of its own: the pools of different SMs and
   partitions are used by different host threads at the same time, and a
   line shared between two of them would move between their cores at every
   allocation. */
typedef union line_pool {
    ws_mreq_pool p;
    char line[128];
} line_pool;

/* What passes between an SM's cycle and the serial steps around it, on a
   line of its own, so that those steps do not touch the SM's own lines
   (which stay in the cache of the host core that runs the SM): the reply
   taken from the interconnect for it, which its cycle takes in first; and
   what its cycle left for the commit and whether it has room for a reply
   (ws_sm_after_cycle's flags, and SO_TICKED: it ran). Written only when a
   value changes. The CTAs that the dispatch gives it wait here too and are
   created at the start of its next cycle (ws_cta_create and the warps'
   set-up are work of its own); cta_room counts its free CTA slots for the
   dispatch. */
enum { SO_TICKED = WS_SM_TICKED, SO_PENDING_MAX = 8 };
typedef struct sm_out {
    _Alignas(128) uint8_t f;
    uint8_t cta_room;
    uint8_t n_pending;
    ws_mreq *arrived;
    uint64_t pending_now;             /* the cycle the CTAs were given in */
    uint64_t pending[SO_PENDING_MAX]; /* their linear numbers, in dispatch order */
    uint64_t skip_from, skip_due;     /* passed by (SKIPPED): its first cycle not run, the
                                         first it must run (ws_sm_sleep_until) */
} sm_out;

static uint8_t cta_room_of(const ws_sm *sm) {
    unsigned n = ws_sm_free_ctas(sm);
    return (uint8_t)(n < 255 ? n : 255);
}

static line_pool *line_pools(uint32_t n) {
    line_pool *v = aligned_alloc(sizeof *v, (n ? n : 1) * sizeof *v);
    for (uint32_t i = 0; v && i < n; i++) ws_mreq_pool_init(&v[i].p);
    return v;
}

struct ws_gpu {
    ws_config cfg;
    uint32_t n_sms, n_chan, n_sub_per_chan, n_subparts, flit;
    ws_mreq_pool pool;        /* the CPU core's requests */
    line_pool *sm_pool;       /* [n_sms]: each SM's own (an SM's cycle touches only its state) */
    line_pool *mem_pool;      /* [n_chan]: each memory partition's own, likewise */
    ws_par *par;              /* -warpsim_threads > 1: the SMs' and partitions' cycles run on
                                 these threads */
    bool par_kernel;          /* the current kernel runs its SMs in parallel (kernel_parallel) */
    uint32_t *par_unit;       /* [n_sms + 1 + n_chan]: the unit of each item of the parallel
                                 phase (par_plan), the threads' shares one after another */
    uint32_t *par_bounds;     /* [threads + 1]: where each thread's share starts */
    uint32_t *par_owner;      /* [n_sms + 1 + n_chan]: each unit's thread */
    uint64_t par_runs;        /* parallel phases run (par_rebalance every PAR_REBALANCE) */
    unsigned par_last_hi, par_last_lo; /* par_rebalance's last window: slowest, quickest (+1) */
    bool par_off;             /* par_adapt: this stretch runs on the calling thread alone */
    uint32_t par_n;           /* par_adapt: cycles of the stretch so far */
    uint64_t par_t0;          /* its start (ws_par_ticks) */
    uint64_t par_est[2];      /* the last stretch's time per cycle, in parallel [0] and alone [1] */
    uint64_t par_stretches;   /* stretches the quicker way */
    bool par_probing;         /* this stretch is a probe the other way */
    sm_out *out;              /* [n_sms]: what the SM's cycle left for the commit */
    uint8_t *sm_idle;         /* [n_sms]: not busy when last asked, and given nothing since
                                 (a CTA, a reply, a wake): still not busy, so the cycle loop
                                 skips ws_sm_busy, whose cost grows with the SM's units;
                                 padded to whole words of idle bytes, since busy_in reads it
                                 eight SMs at a time; SKIPPED: busy but passed by in a pure
                                 sleep (sm_skip) */
    bool skip_ok;             /* this kernel's SMs may be passed by asleep (sm_skip); and a
                                 CTA or a reply goes into its SM when given (give_cta, the
                                 arrivals) rather than at the start of the SM's next cycle:
                                 nothing between reads the SM, and sm_cycle (direct) skips
                                 the tests for them */
    uint64_t skip_next;       /* no passed-by SM is due before this cycle */
    ws_addrdec ad;
    ws_sm **sm;
    ws_icnt *icnt;
    ws_mempart **part;
    ws_control *ctl;          /* policy controllers between cycles */
    ws_l1blist *l1blist;      /* -l1d_bypass_list, or NULL */
    uint64_t *cta_next;       /* -warpsim_static_cta_map: per SM, its next block */
    ws_llc_ai *llc;           /* access-interval throttling / LLC trace, or NULL */
    ws_cpucore *cpu;          /* a CPU core on the shared LLC (NULL: -cpu_llc_source none) */
    ws_hmem *hm;              /* second memory node and page table (NULL: -hm_enable 0) */
    uint64_t hm_period;       /* placement policy's sampling period (0: none) */
    uint64_t hm_flits0, hm_l1a0, hm_l1m0, hm_l2a0, hm_l2m0; /* counters at the last sample */
    uint64_t ctl_next;        /* kernel cycle of the next controller epoch */
    double mhz[4];            /* core, icnt, L2, DRAM */
    ws_clockdom clk;          /* the domains' next edges */
    uint32_t last_issue_sm;   /* round-robin CTA dispatch (thread-block clusters) */
    uint32_t last_issue_cl;   /* round-robin CTA dispatch: the last core cluster given one */
    uint32_t *next_core;      /* per core cluster: its core given the last CTA */
    uint32_t cta_rooms;       /* the sum of the SMs' cta_room (sm_out) while dispatching */
    uint64_t tot_cycles;
    /* per-kernel counters kept here */
    uint64_t stall_icnt2sh, stall_dramfull;
    /* program-scope stats: g_program_stats, then the ones sized by the configuration
       (per-core L1D, warp issue distribution, cache breakdowns; see build_decl) */
    ws_stat_decl *decl;
    char (*dtext)[2][80];     /* names and text spellings of the generated entries */
    size_t n_decl;
    uint64_t *prog_tot;       /* their running totals over the kernels */
    ws_kstats_named decl_named; /* their report records, named once (ws_kstats_add_program_named) */
    uint64_t kernel_uid;
    FILE *ts;                 /* interval time series, or NULL */
    uint64_t insn_cap;        /* stop the kernel after this many instructions (0: none) */
    bool ts_header;
    double progress_s;      /* seconds between progress lines; 0: none */
    bool progress_tty;      /* stderr is a terminal: one line redrawn in place */
};

/* Running sums over all units, for interval deltas. */
typedef struct sums {
    uint64_t insn, l1a, l1m, l2a, l2m, dbusy, dcyc;
} sums;

static void take_sums(const ws_gpu *g, sums *o) {
    memset(o, 0, sizeof *o);
    for (uint32_t i = 0; i < g->n_sms; i++) {
        const ws_sm_stats *s = ws_sm_get_stats(g->sm[i]);
        o->insn += s->thread_insts_exec;
        for (int d = 0; d < 2; d++) {
            o->l1a += s->l1d_access[d][0] + s->l1d_access[d][1] + s->l1d_access[d][2];
            o->l1m += s->l1d_access[d][2];
        }
    }
    for (uint32_t i = 0; i < g->n_chan; i++) {
        const ws_mempart_stats *s = ws_mempart_get_stats(g->part[i]);
        for (int d = 0; d < 2; d++) {
            o->l2a += s->l2_access[d][WS_CACHE_HIT] + s->l2_access[d][WS_CACHE_HIT_RESERVED] +
                      s->l2_access[d][WS_CACHE_MISS] + s->l2_access[d][WS_CACHE_SECTOR_MISS];
            o->l2m += s->l2_access[d][WS_CACHE_MISS] + s->l2_access[d][WS_CACHE_SECTOR_MISS];
        }
        o->dbusy += s->dram_busy_data_cycles;
        o->dcyc += s->dram_cycles;
    }
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static void sample(ws_gpu *g, uint64_t cycle, uint64_t interval, sums *prev) {
    sums now;
    take_sums(g, &now);
    unsigned warps = 0, iso = 0, stalled = 0, wi, ws;
    double limit = 0, l;
    bool ciao = false; /* the policy isolates or stalls warps (CIAO): two more columns */
    for (uint32_t i = 0; i < g->n_sms; i++) {
        warps += ws_sm_active_warps(g->sm[i]);
        if (ws_sm_warp_limit(g->sm[i], &l)) limit += l;
        if (ws_sm_ciao_warps(g->sm[i], &wi, &ws)) {
            ciao = true;
            iso += wi;
            stalled += ws;
        }
    }
    if (!g->ts_header) {
        fprintf(g->ts, "kernel,cycle,ipc,l1d_miss_rate,l2_miss_rate,active_warps_per_sm,dram_bw_util,"
                       "warp_limit_per_sched%s%s\n", g->hm ? ",gpu_page_ratio" : "",
                       ciao ? ",isolated_warps_per_sm,stalled_warps_per_sm" : "");
        g->ts_header = true;
    }
    /* warp_limit_per_sched: mean over all schedulers of a warp-limiting throttle policy's
       limit now (0: no such policy) */
    fprintf(g->ts, "%llu,%llu,%.4f,%.4f,%.4f,%.2f,%.4f,%.2f", (unsigned long long)g->kernel_uid,
            (unsigned long long)cycle, ratio(now.insn - prev->insn, interval),
            ratio(now.l1m - prev->l1m, now.l1a - prev->l1a),
            ratio(now.l2m - prev->l2m, now.l2a - prev->l2a), (double)warps / g->n_sms,
            ratio(now.dbusy - prev->dbusy, now.dcyc - prev->dcyc), limit / g->n_sms);
    /* heterogeneous memory: the fraction of new pages the placement sends to GPU memory */
    if (g->hm) fprintf(g->ts, ",%.4f", ws_hmem_gpu_ratio(g->hm));
    if (ciao) fprintf(g->ts, ",%.2f,%.2f", (double)iso / g->n_sms, (double)stalled / g->n_sms);
    fputc('\n', g->ts);
    *prev = now;
}

static double wall_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void ws_gpu_set_timeseries(ws_gpu *g, FILE *f) {
    g->ts = f;
    g->ts_header = false;
}

void ws_gpu_set_progress(ws_gpu *g, double every_s) {
    g->progress_s = every_s > 0 ? every_s : 0;
    g->progress_tty = isatty(2);
}

/* One progress line: where the kernel is, how fast it goes, and when it
 * should end (from the share of its CTAs completed so far). */
static void show_progress(const ws_gpu *g, const char *kernel, uint64_t cycle, uint64_t insts,
                          uint64_t done, uint64_t total, double elapsed) {
    double pct = total ? 100.0 * (double)done / (double)total : 0;
    /* under an instruction cap the kernel ends at whichever comes first */
    double frac = pct / 100, cap = g->insn_cap ? (double)insts / (double)g->insn_cap : 0;
    if (cap > frac) frac = cap;
    char eta[32] = "?";
    if (frac > 0 && frac < 1) snprintf(eta, sizeof eta, "%.0f s", elapsed * (1 - frac) / frac);
    fprintf(stderr, "%swarpsim: kernel %s (launch %llu): cycle %llu, %.1f M insts, "
            "%.1f K cycles/s, CTAs %llu/%llu done (%.1f%%), ETA %s%s", g->progress_tty ? "\r" : "",
            kernel, (unsigned long long)g->kernel_uid, (unsigned long long)cycle, (double)insts / 1e6,
            elapsed > 0 ? (double)cycle / elapsed / 1e3 : 0.0, (unsigned long long)done,
            (unsigned long long)total, pct, eta, g->progress_tty ? "   " : "\n");
}
void ws_gpu_set_insn_cap(ws_gpu *g, uint64_t insns) { g->insn_cap = insns; }

/* Instructions (guard-true lanes) executed since the snapshot. */
static uint64_t insns_since(const ws_gpu *g, const ws_sm_stats *snap) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < g->n_sms; i++)
        n += ws_sm_get_stats(g->sm[i])->thread_insts_exec - snap[i].thread_insts_exec;
    return n;
}

void ws_gpu_memcpy_to_device(ws_gpu *g, uint64_t addr, uint64_t n) {
    if (!g->cfg.perf_sim_memcpy || !n) return;
    ws_mreq r;
    for (uint64_t a = addr & ~31ull; a < addr + n; a += 32) {
        memset(&r, 0, sizeof r);
        r.addr = a;
        ws_addrdec_decode(&g->ad, &r); /* the partitions' decoder is the same */
        ws_mempart_memcpy_fill_decoded(g->part[r.chan], &r, g->tot_cycles);
    }
}

void ws_gpu_warm(ws_gpu *g, uint32_t sm, uint64_t addr, bool store) {
    ws_mreq r;
    memset(&r, 0, sizeof r);
    r.addr = addr;
    ws_addrdec_decode(&g->ad, &r);
    ws_mempart_memcpy_fill_decoded(g->part[r.chan], &r, g->tot_cycles);
    struct ws_cache *l1 = store ? NULL : ws_sm_l1d(g->sm[sm % g->n_sms]);
    if (l1) ws_cache_force_fill(l1, addr, addr, g->tot_cycles);
}

/* GPGPU-Sim's breakdown outcomes: ws_cache_status's first five, then MSHR_HIT. */
enum { BD_MSHR_HIT = 5, BD_N = 6 };
static const char *const g_outcome[BD_N] = {"HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL",
                                            "SECTOR_MISS", "MSHR_HIT"};
/* Per-core L1D entries, in this order. */
enum { CORE_ACC, CORE_MISS, CORE_PEND, CORE_RES_FAIL, CORE_N };
/* Warp issue distribution: Stall, W0_Idle, W0_Scoreboard, then W1..W32. */
enum { WD_STALL, WD_IDLE, WD_SCOREBOARD, WD_W1, WD_N = WD_W1 + 32 };

/* Where the generated groups start in g->decl. */
static size_t d_core(const ws_gpu *g) { (void)g; return P_N; }
static size_t d_wdist(const ws_gpu *g) { return P_N + (size_t)g->n_sms * CORE_N; }
static size_t d_l1bd(const ws_gpu *g) { return d_wdist(g) + WD_N; }
static size_t d_l2bd(const ws_gpu *g) { return d_l1bd(g) + (size_t)WS_MA_COUNT * BD_N; }

/* Does warpsim count this core-cache combination? The L1D serves global and
 * local loads and stores, the L1C constants, the L1I instructions (their
 * MSHR merges too); no core cache sees the other kinds, and the L1D's
 * merges are not kept by kind, so those combinations are not reported. */
static bool core_bd_counted(int a, int o) {
    switch (a) {
    case WS_MA_GLOBAL_R: case WS_MA_LOCAL_R: case WS_MA_GLOBAL_W: case WS_MA_LOCAL_W:
        return o != BD_MSHR_HIT;
    case WS_MA_CONST_R: case WS_MA_INST: return true;
    default: return false;
    }
}

/* The strings of `parts` (NULL-ended) one after another in dst (n bytes), cut as
   snprintf cuts: the names are built once per GPU, cheaper so than by a format (a
   short program's set-up). */
static void join(char *dst, size_t n, const char *const *parts) {
    size_t k = 0;
    for (; *parts; parts++) {
        size_t len = strlen(*parts);
        if (len > n - 1 - k) len = n - 1 - k;
        memcpy(dst + k, *parts, len);
        k += len;
    }
    dst[k] = '\0';
}

/* v in decimal, in buf (11 bytes at least); returns where it starts. */
static const char *decimal(char *buf, size_t size, uint32_t v) {
    char *p = buf + size;
    *--p = '\0';
    do *--p = (char)('0' + v % 10); while ((v /= 10) != 0);
    return p;
}

/* Entry i of the generated groups: its JSON key (the parts joined) and its text line
   (NULL: JSON only, the text has a line of its own). */
static void set_decl(ws_gpu *g, size_t i, const char *text, const char *const *name) {
    char (*t)[80] = g->dtext[i - P_N];
    join(t[0], sizeof t[0], name);
    g->decl[i].name = t[0];
    if (text) {
        join(t[1], sizeof t[1], (const char *const[]){text, NULL});
        g->decl[i].text = t[1];
    } else {
        g->decl[i].text = ""; /* JSON only: the text has a line of its own */
    }
}

/* The program-scope table of this GPU: the static one, then per-core L1D
 * counts and the warp distribution (JSON keys; the text prints GPGPU-Sim's
 * lines), then the L1 and L2 breakdowns under GPGPU-Sim's text names. */
static int build_decl(ws_gpu *g) {
    g->n_decl = d_l2bd(g) + (size_t)WS_MA_COUNT * BD_N;
    g->decl = calloc(g->n_decl, sizeof *g->decl);
    g->dtext = calloc(g->n_decl - P_N, sizeof *g->dtext);
    g->prog_tot = calloc(g->n_decl, sizeof *g->prog_tot);
    if (!g->decl || !g->dtext || !g->prog_tot) return -1;
    memcpy(g->decl, g_program_stats, sizeof g_program_stats);
    static const char *const core_key[CORE_N] = {"_accesses", "_misses", "_pending_hits",
                                                 "_reservation_fails"};
    char num[12];
    for (uint32_t c = 0; c < g->n_sms; c++) {
        const char *cn = decimal(num, sizeof num, c);
        for (int k = 0; k < CORE_N; k++)
            set_decl(g, d_core(g) + c * CORE_N + k, NULL,
                     (const char *const[]){"L1D_cache_core_", cn, core_key[k], NULL});
    }
    static const char *const wd0[3] = {"Stall", "W0_Idle", "W0_Scoreboard"};
    for (int k = 0; k < WD_N; k++) {
        const char *wn = k < WD_W1 ? wd0[k] : decimal(num, sizeof num, (uint32_t)(k - WD_W1 + 1));
        set_decl(g, d_wdist(g) + (size_t)k, NULL,
                 (const char *const[]){"warp_distro_", k < WD_W1 ? "" : "W", wn, NULL});
    }
    char text[80];
    for (int a = 0; a < WS_MA_COUNT; a++)
        for (int o = 0; o < BD_N; o++) {
            const char *an = ws_mem_access_name((ws_mem_access)a);
            size_t i = d_l1bd(g) + (size_t)a * BD_N + (size_t)o;
            join(text, sizeof text,
                 (const char *const[]){"Total_core_cache_stats_breakdown[", an, "][", g_outcome[o],
                                       "]", NULL});
            set_decl(g, i, text,
                     (const char *const[]){"Total_core_cache_stats_breakdown_", an, "_",
                                           g_outcome[o], NULL});
            g->decl[i].hidden = !core_bd_counted(a, o);
            /* every L2 access is counted by its kind; MSHR merges are not kept by kind */
            i = d_l2bd(g) + (size_t)a * BD_N + (size_t)o;
            join(text, sizeof text,
                 (const char *const[]){"L2_cache_stats_breakdown[", an, "][", g_outcome[o], "]",
                                       NULL});
            set_decl(g, i, text,
                     (const char *const[]){"L2_cache_stats_breakdown_", an, "_", g_outcome[o],
                                           NULL});
            g->decl[i].hidden = o == BD_MSHR_HIT;
        }
    return 0;
}

static void gpu_free(ws_gpu *g) {
    if (!g) return;
    free(g->decl);
    free(g->dtext);
    free(g->prog_tot);
    ws_kstats_named_free(&g->decl_named);
    if (g->sm)
        for (uint32_t i = 0; i < g->n_sms; i++) ws_sm_destroy(g->sm[i]);
    free(g->sm);
    if (g->part)
        for (uint32_t i = 0; i < g->n_chan; i++) ws_mempart_destroy(g->part[i]);
    free(g->part);
    ws_control_destroy(g->ctl);
    ws_l1blist_destroy(g->l1blist);
    free(g->cta_next);
    ws_llc_ai_destroy(g->llc);
    ws_cpucore_destroy(g->cpu);
    ws_hmem_destroy(g->hm);
    ws_icnt_destroy(g->icnt);
    ws_par_destroy(g->par);
    free(g->par_unit);
    free(g->par_bounds);
    free(g->par_owner);
    free(g->out);
    free(g->sm_idle);
    free(g->next_core);
    /* requests move between pools' free lists; each pool frees the chunks it carved */
    for (uint32_t i = 0; g->sm_pool && i < g->n_sms; i++) ws_mreq_pool_destroy(&g->sm_pool[i].p);
    free(g->sm_pool);
    for (uint32_t i = 0; g->mem_pool && i < g->n_chan; i++) ws_mreq_pool_destroy(&g->mem_pool[i].p);
    free(g->mem_pool);
    ws_mreq_pool_destroy(&g->pool);
    ws_config_free(&g->cfg);
    free(g);
}

/* The threads' shares of the parallel phase. Its items: the SMs
 * (0 .. n_sms-1), the interconnect (n_sms) and the memory partitions
 * (n_sms + 1 + c), all of them every core cycle (an item whose clock does
 * not tick returns at once). A unit keeps its thread from cycle to cycle,
 * so that its state stays in one host core's cache. The interconnect and
 * the partitions go to thread 0, which runs the serial steps that move
 * requests in and out of them: their queues stay in its cache. The SMs
 * then go, in id order, each to the thread with the least estimated work:
 * the CTA dispatch fills SMs from the lowest id, so the busy SMs of a
 * kernel with fewer CTAs than SMs are spread over all threads. The
 * estimates are in sixteenths of a busy SM's cycle: host time per item,
 * measured at one thread, put the interconnect's cycle at about one SM's
 * and the six partitions of the GTX480 together at 2 to 4 SMs' in
 * kmeans, gemm and gaussian (instruction counts say less: the memory
 * side's data misses the host caches more); par_rebalance corrects the
 * estimates from the threads' measured times. Which thread runs an item
 * never changes a result. */
enum { PAR_W_SM = 16, PAR_W_ICNT = 16, PAR_W_PART = 5, PAR_REBALANCE = 8192 };

/* The items in thread order (par_unit) and the shares' bounds, from par_owner. */
static void par_shares(ws_gpu *g) {
    unsigned threads = ws_par_threads(g->par);
    uint32_t n = g->n_sms + 1 + g->n_chan, k = 0;
    for (unsigned t = 0; t < threads; t++) {
        g->par_bounds[t] = k;
        for (uint32_t u = 0; u < n; u++)
            if (g->par_owner[u] == t) g->par_unit[k++] = u;
    }
    g->par_bounds[threads] = k;
}

static int par_plan(ws_gpu *g, unsigned threads, char *err, size_t errlen) {
    uint32_t n = g->n_sms + 1 + g->n_chan;
    uint64_t *load = calloc(threads, sizeof *load);
    g->par_owner = calloc(n, sizeof *g->par_owner);
    g->par_unit = calloc(n, sizeof *g->par_unit);
    g->par_bounds = calloc(threads + 1, sizeof *g->par_bounds);
    if (!load || !g->par_owner || !g->par_unit || !g->par_bounds || n > WS_PAR_MAX_ITEMS) {
        snprintf(err, errlen, n > WS_PAR_MAX_ITEMS ? "-warpsim_threads: more than %u units"
                                                   : "-warpsim_threads: out of host memory",
                 (unsigned)WS_PAR_MAX_ITEMS);
        free(load);
        return -1;
    }
    load[0] = PAR_W_ICNT + (uint64_t)PAR_W_PART * g->n_chan;
    for (uint32_t i = 0; i < g->n_sms; i++) {
        unsigned best = 0;
        for (unsigned t = 1; t < threads; t++)
            if (load[t] < load[best]) best = t;
        g->par_owner[i] = best;
        load[best] += PAR_W_SM;
    }
    free(load);
    par_shares(g);
    return 0;
}

/* Every PAR_REBALANCE parallel phases (tens of milliseconds): when the
 * slowest thread's own share took longer than the quickest's by more than
 * a busy SM's average time (the threads' total over the SMs busy now: an
 * estimate on the high side, as it includes the memory side), and the same
 * two threads were the slowest and the quickest in the period before, the
 * slowest one's highest busy SM moves to the quickest. Under that
 * condition the gap shrinks if the costs stay as they were, so the shares
 * settle instead of swapping SMs back and forth; the second period keeps
 * a thread that the host did not schedule for a while (its time includes
 * the wait) from losing an SM at once. A period in which others ran more
 * than one item of the quickest thread's share in 64 phases is not used
 * (an owner away gets its items taken, and its time is short). */
static void par_rebalance(ws_gpu *g) {
    uint64_t t[WS_PAR_MAX_THREADS], lost[WS_PAR_MAX_THREADS];
    unsigned threads = ws_par_threads(g->par), hi = 0, lo = 0;
    ws_par_take_times(g->par, t, lost);
    uint64_t sum = 0;
    for (unsigned i = 0; i < threads; i++) {
        sum += t[i];
        if (t[i] > t[hi]) hi = i;
        if (t[i] < t[lo]) lo = i;
    }
    /* the quickest thread's time means little if others ran its items
       (the host did not schedule it) */
    bool calm = lost[lo] <= PAR_REBALANCE / 64;
    uint32_t busy = 0, pick = UINT32_MAX;
    for (uint32_t i = 0; i < g->n_sms; i++)
        if (!g->sm_idle[i]) {
            busy++;
            if (g->par_owner[i] == hi) pick = i;
        }
    bool again = g->par_last_hi == hi + 1 && g->par_last_lo == lo + 1;
    if (!calm || pick == UINT32_MAX || t[hi] - t[lo] <= sum / busy) {
        g->par_last_hi = g->par_last_lo = 0;
        return;
    }
    g->par_last_hi = hi + 1, g->par_last_lo = lo + 1;
    if (!again) return;
    g->par_last_hi = g->par_last_lo = 0;
    g->par_owner[pick] = lo;
    par_shares(g);
}

ws_gpu *ws_gpu_create(const ws_config *cfg, char *err, size_t errlen) {
    ws_gpu *g = calloc(1, sizeof *g);
    if (!g || ws_config_copy(&g->cfg, cfg)) {
        snprintf(err, errlen, "out of memory");
        free(g);
        return NULL;
    }
    const ws_config *c = &g->cfg;
    if (ws_config_clocks(c->clock_domains, g->mhz)) {
        snprintf(err, errlen,
                 "option -gpgpu_clock_domains: '%s' is not four clocks in MHz (core:icnt:L2:DRAM)",
                 c->clock_domains);
        gpu_free(g);
        return NULL;
    }
    static const uint8_t dom_bit[4] = {DOM_CORE, DOM_ICNT, DOM_L2, DOM_DRAM};
    ws_clockdom_init(&g->clk, g->mhz, dom_bit);
    g->n_sms = (uint32_t)(c->n_clusters * c->n_cores_per_cluster);
    g->last_issue_cl = (uint32_t)c->n_clusters - 1; /* the first CTA goes to cluster 0, core 0 */
    g->last_issue_sm = g->n_sms - 1; /* thread-block clusters: the first goes to SM 0 */
    g->n_chan = (uint32_t)c->n_mem;
    g->n_sub_per_chan = (uint32_t)c->n_sub_partition_per_mchannel;
    g->n_subparts = g->n_chan * g->n_sub_per_chan;
    g->flit = (uint32_t)c->icnt_flit_size;
    ws_mreq_pool_init(&g->pool);
    if (ws_addrdec_init(&g->ad, c, err, errlen)) {
        gpu_free(g);
        return NULL;
    }
    g->sm = calloc(g->n_sms, sizeof *g->sm);
    g->part = calloc(g->n_chan, sizeof *g->part);
    g->sm_pool = line_pools(g->n_sms);
    g->mem_pool = line_pools(g->n_chan);
    g->out = aligned_alloc(sizeof *g->out, (g->n_sms ? g->n_sms : 1) * sizeof *g->out);
    if (g->out) memset(g->out, 0, g->n_sms * sizeof *g->out);
    g->sm_idle = malloc(((size_t)g->n_sms + 8) & ~(size_t)7);
    if (g->sm_idle) memset(g->sm_idle, 1, ((size_t)g->n_sms + 8) & ~(size_t)7);
    g->next_core = calloc((size_t)c->n_clusters, sizeof *g->next_core);
    if (!g->sm || !g->part || !g->sm_pool || !g->mem_pool || !g->out || !g->sm_idle ||
        !g->next_core) {
        snprintf(err, errlen, "out of memory");
        gpu_free(g);
        return NULL;
    }
    for (int64_t i = 0; i < c->n_clusters; i++) /* core 0 takes a cluster's first CTA */
        g->next_core[i] = (uint32_t)c->n_cores_per_cluster - 1;
    if (build_decl(g)) {
        snprintf(err, errlen, "out of memory");
        gpu_free(g);
        return NULL;
    }
    if (c->sample_ipc_tol > 0 && (c->static_cta_map || c->l1d_warp_reorder)) {
        /* a kernel stopped early finishes its CTAs from next_cta on functionally,
           which assumes dispatch in ID order */
        snprintf(err, errlen, "-warpsim_sample_ipc_tol cannot be combined with static CTA mapping "
                              "(-warpsim_static_cta_map or -l1d_warp_reorder)");
        gpu_free(g);
        return NULL;
    }
    if (c->threads > 1 && c->hm_enable) {
        /* the SMs' loads and stores update its page table within their cycle */
        snprintf(err, errlen, "-warpsim_threads %lld cannot be combined with -hm_enable 1 "
                              "(heterogeneous memory's page table is shared by the SMs); use "
                              "-warpsim_threads 1", (long long)c->threads);
        gpu_free(g);
        return NULL;
    }
    if (c->threads > 1 && g->n_sms > 1) {
        unsigned n = c->threads < (int64_t)g->n_sms ? (unsigned)c->threads : g->n_sms;
        if (!(g->par = ws_par_create(n, err, errlen)) || par_plan(g, n, err, errlen)) {
            gpu_free(g);
            return NULL;
        }
    }
    if (!(g->cta_next = calloc(g->n_sms, sizeof *g->cta_next))) {
        snprintf(err, errlen, "out of memory");
        gpu_free(g);
        return NULL;
    }
    g->cpu = ws_cpucore_create(c, (uint16_t)g->n_sms, &g->pool, &g->ad, err, errlen);
    if (!g->cpu && err[0]) {
        gpu_free(g);
        return NULL;
    }
    g->llc = ws_llc_ai_create(c, g->n_sms, g->cpu ? 1 : 0, err, errlen);
    if (!g->llc && err[0]) {
        gpu_free(g);
        return NULL;
    }
    if (ws_l1bp_open(c, g->n_sms, &g->l1blist, err, errlen)) {
        gpu_free(g);
        return NULL;
    }
    uint32_t icnt_mem_nodes = g->n_subparts;
    if (c->hm_enable) {
        /* the CPU-link ports follow the sub-partitions on the interconnect */
        if (!(g->hm = ws_hmem_create(c, g->mhz[0], g->mhz[3], g->n_sms + g->n_subparts, err,
                                     errlen))) {
            gpu_free(g);
            return NULL;
        }
        icnt_mem_nodes += ws_hmem_ports(g->hm);
        g->hm_period = ws_hmem_period(g->hm);
    }
    for (uint32_t i = 0; i < g->n_sms; i++) {
        ws_sm_env env = {c, &g->sm_pool[i].p, &g->ad, i, g->flit, g->l1blist};
        if (g->hm) {
            env.pages = ws_hmem_pages(g->hm);
            env.cpu_port = g->n_subparts;
            env.cpu_ports = ws_hmem_ports(g->hm);
        }
        if (!(g->sm[i] = ws_sm_create(&env, err, errlen))) {
            gpu_free(g);
            return NULL;
        }
    }
    for (uint32_t i = 0; i < g->n_chan; i++)
        if (!(g->part[i] = ws_mempart_create(c, i, &g->mem_pool[i].p, err, errlen))) {
            gpu_free(g);
            return NULL;
        }
    if (!(g->icnt = ws_icnt_create(c, g->n_sms, icnt_mem_nodes, err, errlen)) ||
        !(g->ctl = ws_control_create(c, g->sm, g->n_sms, g->part, g->n_chan, g->n_sub_per_chan,
                                     err, errlen))) {
        gpu_free(g);
        return NULL;
    }
    return g;
}

void ws_gpu_destroy(ws_gpu *g) { gpu_free(g); }

void ws_gpu_inherit_totals(ws_gpu *to, const ws_gpu *from) {
    /* the same configuration, so the same table */
    size_t n = to->n_decl < from->n_decl ? to->n_decl : from->n_decl;
    memcpy(to->prog_tot, from->prog_tot, n * sizeof *to->prog_tot);
}
uint32_t ws_gpu_num_sms(const ws_gpu *g) { return g->n_sms; }
double ws_gpu_core_mhz(const ws_gpu *g) { return g->mhz[0]; }

static ws_mempart *part_of(ws_gpu *g, uint32_t subpart, uint32_t *k) {
    *k = subpart % g->n_sub_per_chan;
    return g->part[subpart / g->n_sub_per_chan];
}

/* SMs 8w .. 8w + 7 that are not idle, as bit 8j for SM 8w + j (sm_idle's
   padding bytes past the last SM read as idle). An idle SM has nothing
   pending nor arrived (whatever gives it one clears its idle byte), so its
   sm_cycle does nothing and its line holds no SO_TICKED: the serial loops
   pass it by. */
enum { IDLE_BYTES = 0x0101010101010101ull, SKIPPED = 3 };
static inline uint64_t idle_word(const ws_gpu *g, uint32_t w) {
    uint64_t x;
    memcpy(&x, g->sm_idle + 8 * (size_t)w, sizeof x);
    return x;
}
static inline uint64_t busy_in(const ws_gpu *g, uint32_t w) { return ~idle_word(g, w) & IDLE_BYTES; }
/* Of them, those passed by asleep (SKIPPED, which busy_in reads as idle), as bit 8j. */
static inline uint64_t skipped_in(const ws_gpu *g, uint32_t w) {
    return idle_word(g, w) >> 1 & IDLE_BYTES;
}

/* The bits of word w (nodes 64w ..) for nodes below n: the interconnect's
   arrival sets also hold other nodes (the heterogeneous memory's) past the
   SMs and the sub-partitions. */
static inline uint64_t below(uint32_t n, uint32_t w) {
    return n >= 64 * (w + 1) ? ~0ull : (1ull << (n - 64 * w)) - 1;
}

/* Is any SM busy? (the kernel's end) An idle one is not; one passed by
   asleep is; the others are asked, eight idle bytes at a time passed by. */
static bool sms_busy(const ws_gpu *g) {
    for (uint32_t w = 0; 8 * w < g->n_sms; w++)
        for (uint64_t m = busy_in(g, w) | skipped_in(g, w); m; m &= m - 1) {
            uint32_t i = 8 * w + ((uint32_t)__builtin_ctzll(m) >> 3);
            if (g->sm_idle[i] == SKIPPED || g->out[i].n_pending || ws_sm_busy(g->sm[i]))
                return true;
        }
    return false;
}

static bool memory_busy(const ws_gpu *g) {
    if (ws_icnt_busy(g->icnt)) return true;
    for (uint32_t i = 0; i < g->n_chan; i++)
        if (ws_mempart_busy(g->part[i])) return true;
    if (g->cpu && ws_cpucore_busy(g->cpu)) return true;
    return g->hm && ws_hmem_busy(g->hm);
}

/* The watchdog's report: where the warps wait (barriers with their lines,
 * as the functional engine reports them), then every unit that holds work. */
static ws_where_tally where_warps_are(const ws_gpu *g) {
    ws_where_tally t = {0};
    for (uint32_t i = 0; i < g->n_sms; i++) ws_sm_where(g->sm[i], &t);
    return t;
}

static void describe_stuck(ws_gpu *g, const char *kernel, uint64_t cycle, uint64_t idle,
                           ws_fault *f) {
    ws_where_tally t = where_warps_are(g);
    char where[320];
    ws_where_format(&t, where, sizeof where);
    size_t n = (size_t)snprintf(f->msg, sizeof f->msg,
                                "kernel %s: no progress for %llu cycles at cycle %llu: %s; ", kernel,
                                (unsigned long long)idle, (unsigned long long)cycle, where);
    char buf[256];
    for (uint32_t i = 0; i < g->n_sms && n < sizeof f->msg; i++)
        if (ws_sm_busy(g->sm[i])) {
            ws_sm_describe(g->sm[i], buf, sizeof buf);
            buf[strcspn(buf, "\n")] = 0; /* the unit summary; warps are in the tally above */
            n += (size_t)snprintf(f->msg + n, sizeof f->msg - n, "%s; ", buf);
        }
    if (n < sizeof f->msg && ws_icnt_busy(g->icnt)) {
        ws_icnt_describe(g->icnt, buf, sizeof buf);
        n += (size_t)snprintf(f->msg + n, sizeof f->msg - n, "icnt: %s; ", buf);
    }
    for (uint32_t i = 0; i < g->n_chan && n < sizeof f->msg; i++)
        if (ws_mempart_busy(g->part[i])) {
            ws_mempart_describe(g->part[i], buf, sizeof buf);
            n += (size_t)snprintf(f->msg + n, sizeof f->msg - n, "partition %u: %s; ", i, buf);
        }
    f->code = WS_ERR_DEADLOCK;
}

/* Memory writes and CTA completions so far: what the hang detector counts
 * as progress (issuing instructions is not: a spin loop issues forever). */
static uint64_t hang_progress(const ws_gpu *g) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < g->n_sms; i++) {
        const ws_sm_stats *s = ws_sm_get_stats(g->sm[i]);
        n += s->mem_writes + s->ctas_done;
    }
    return n;
}

static void describe_hang(ws_gpu *g, const char *kernel, uint64_t cycles, uint64_t insts,
                          ws_fault *f) {
    ws_where_tally t = where_warps_are(g);
    char hint[96];
    snprintf(hint, sizeof hint, " (over %llu cycles, -warpsim_hang_cycles)",
             (unsigned long long)cycles);
    ws_hang_message(kernel, insts, &t, hint, f);
}

/* This kernel's part of the program-scope stats, from the units' counters
 * summed over SMs (smt) and channels (mpt), and the interconnect's totals at
 * the kernel's start (ic0). */
static void program_values(const ws_gpu *g, const ws_sm_stats *smt, const ws_mempart_stats *mpt,
                           const ws_icnt_stats *ic0, uint64_t *v) {
    memset(v, 0, P_N * sizeof *v);
    for (int d = 0; d < 2; d++) {
        v[P_L1D_ACC] += smt->l1d_access[d][0] + smt->l1d_access[d][1] + smt->l1d_access[d][2];
        v[P_L1D_MISS] += smt->l1d_access[d][2];
        v[P_L1D_PEND] += smt->l1d_access[d][1];
        v[P_L1D_RES_FAIL] += smt->l1d_access[d][3];
        /* a sector miss (line present, sector not) is a miss too */
        const uint64_t *a = mpt->l2_access[d];
        v[P_L2_ACC] += a[WS_CACHE_HIT] + a[WS_CACHE_HIT_RESERVED] + a[WS_CACHE_MISS] +
                       a[WS_CACHE_SECTOR_MISS];
        v[P_L2_MISS] += a[WS_CACHE_MISS] + a[WS_CACHE_SECTOR_MISS];
        v[P_L2_PEND] += a[WS_CACHE_HIT_RESERVED];
        v[P_L2_RES_FAIL] += a[WS_CACHE_RESERVATION_FAIL];
        v[P_L2_BYPASS] += a[WS_CACHE_BYPASS];
    }
    v[P_L1D_BYPASS] = smt->l1d_bypass;
    _Static_assert(P_L1D_F_FLUSH - P_L1D_F_LINE + 1 == WS_FAIL_NKINDS,
                   "one stat per fail kind, in ws_fail_kind order");
    for (int k = 0; k < WS_FAIL_NKINDS; k++) v[P_L1D_F_LINE + k] = smt->l1d_fail[k];
    v[P_L1I_ACC] = smt->l1i_access;
    v[P_L1I_MISS] = smt->l1i_miss;
    v[P_L1C_ACC] = smt->l1c_access;
    v[P_L1C_MISS] = smt->l1c_miss;
    v[P_L1T_ACC] = smt->l1t_access;
    v[P_L1T_MISS] = smt->l1t_miss;
    v[P_SHMEM_BKCONFLICT] = smt->shmem_bank_conflict_cycles;
    v[P_DRAM_RD] = mpt->dram_reads;
    v[P_DRAM_WR] = mpt->dram_writes;
    v[P_DRAM_ROW_HIT] = mpt->dram_row_hits;
    v[P_DRAM_ROW_MISS] = mpt->dram_row_misses;
    v[P_DRAM_BUSY] = mpt->dram_busy_data_cycles;
    v[P_DRAM_CYC] = mpt->dram_cycles;
    v[P_STALL_DRAMFULL] = g->stall_dramfull;
    v[P_STALL_ICNT2SH] = g->stall_icnt2sh;
    const ws_icnt_stats *ic = ws_icnt_get_stats(g->icnt);
    v[P_ICNT_REQ] = ic->packets[0] - ic0->packets[0];
    v[P_ICNT_REPLY] = ic->packets[1] - ic0->packets[1];
    /* loads: atomics too (GPGPU-Sim counts every non-store global/local access as a load) */
    v[P_N_LOAD] = smt->mem_insn[WS_SPACE_GLOBAL][0] + smt->mem_insn[WS_SPACE_LOCAL][0];
    v[P_N_STORE] = smt->mem_insn[WS_SPACE_GLOBAL][1] + smt->mem_insn[WS_SPACE_LOCAL][1];
    v[P_N_SHMEM] = smt->mem_insn[WS_SPACE_SHARED][0] + smt->mem_insn[WS_SPACE_SHARED][1];
    v[P_N_TEX] = smt->mem_insn[WS_SPACE_TEX][0];
    v[P_N_CONST] = smt->mem_insn[WS_SPACE_CONST][0];
    v[P_N_PARAM] = smt->mem_insn[WS_SPACE_PARAM][0] + smt->mem_insn[WS_SPACE_PARAM][1];
    v[P_MEM_RD_LOCAL] = smt->mem_out[WS_MA_LOCAL_R];
    v[P_MEM_WR_LOCAL] = smt->mem_out[WS_MA_LOCAL_W];
    v[P_MEM_RD_GLOBAL] = smt->mem_out[WS_MA_GLOBAL_R];
    v[P_MEM_WR_GLOBAL] = smt->mem_out[WS_MA_GLOBAL_W];
    v[P_MEM_TEX] = smt->mem_out[WS_MA_TEXTURE_R];
    v[P_MEM_CONST] = smt->mem_out[WS_MA_CONST_R];
    v[P_MF_LAT_SUM] = smt->mf_lat_sum;
    v[P_MF_N] = smt->mf_lat_n;
    v[P_GLD_BYTES] = smt->gld_bytes;
    v[P_L1D_LIST_BYPASS] = smt->l1d_list_bypass;
    for (uint32_t i = 0; i < g->n_sms; i++)
        if (ws_sm_max_mf_latency(g->sm[i]) > v[P_MF_MAX]) v[P_MF_MAX] = ws_sm_max_mf_latency(g->sm[i]);
    /* GPGPU-Sim counts 32 B per reply packet leaving the L2 side (L2_BW) */
    v[P_L2_REPLY_BYTES] = 32 * mpt->replies_out;
    v[P_WARPS_LIVE] = smt->warps_live_sum;
    v[P_WARP_SLOTS] = smt->cycles_active * ws_sm_max_warps(g->sm[0]);
}

/* This kernel's values of the generated entries (build_decl) from the
 * per-SM differences (smk) and their sums (smt, mpt). */
static void breakdown_values(const ws_gpu *g, const ws_sm_stats *smk, const ws_sm_stats *smt,
                             const ws_mempart_stats *mpt, uint64_t *v) {
    for (uint32_t c = 0; c < g->n_sms; c++) {
        uint64_t *o = v + d_core(g) + c * CORE_N;
        for (int d = 0; d < 2; d++) {
            const uint64_t *a = smk[c].l1d_access[d];
            o[CORE_ACC] += a[0] + a[1] + a[2];
            o[CORE_MISS] += a[2];
            o[CORE_PEND] += a[1];
            o[CORE_RES_FAIL] += a[3];
        }
    }
    uint64_t *w = v + d_wdist(g);
    w[WD_STALL] = smt->stall_pipeline;
    /* GPGPU-Sim's "no valid instruction": idle warps, barriers, empty instruction buffers */
    w[WD_IDLE] = smt->stall_idle + smt->stall_barrier + smt->stall_ibuffer;
    w[WD_SCOREBOARD] = smt->stall_scoreboard;
    for (int k = 1; k <= 32; k++) w[WD_W1 + k - 1] = smt->issue_lanes[k];
    uint64_t *l1 = v + d_l1bd(g), *l2 = v + d_l2bd(g);
    static const int l1d_kind[2][2] = {{WS_MA_GLOBAL_R, WS_MA_LOCAL_R},
                                       {WS_MA_GLOBAL_W, WS_MA_LOCAL_W}};
    for (int o = 0; o < BD_MSHR_HIT; o++) {
        for (int d = 0; d < 2; d++) {
            l1[l1d_kind[d][0] * BD_N + o] = smt->l1d_status[d][o] - smt->l1d_local[d][o];
            l1[l1d_kind[d][1] * BD_N + o] = smt->l1d_local[d][o];
        }
        l1[WS_MA_CONST_R * BD_N + o] = smt->l1c_status[o];
        l1[WS_MA_INST * BD_N + o] = smt->l1i_status[o];
        for (int a = 0; a < WS_MA_COUNT; a++) l2[a * BD_N + o] = mpt->l2_by_access[a][o];
    }
    l1[WS_MA_CONST_R * BD_N + BD_MSHR_HIT] = smt->l1c_mshr_hits;
    l1[WS_MA_INST * BD_N + BD_MSHR_HIT] = smt->l1i_mshr_hits;
}

/* GPGPU-Sim's multi-value lines, from the running totals. */
static void add_breakdown_lines(const ws_gpu *g, ws_kernel_stats *ks) {
    if (ks->no_text_lines) return; /* a quiet run prints no text report */
    const uint64_t *t = g->prog_tot;
    for (uint32_t c = 0; c < g->n_sms; c++) {
        const uint64_t *o = t + d_core(g) + c * CORE_N;
        ws_kstats_add_line(ks, "L1D_cache_core[%u]: Access = %llu, Miss = %llu, Miss_rate = %.3f, "
                           "Pending_hits = %llu, Reservation_fails = %llu", c,
                           (unsigned long long)o[CORE_ACC], (unsigned long long)o[CORE_MISS],
                           ratio(o[CORE_MISS], o[CORE_ACC]), (unsigned long long)o[CORE_PEND],
                           (unsigned long long)o[CORE_RES_FAIL]);
    }
    const uint64_t *w = t + d_wdist(g);
    char line[1024];
    int n = snprintf(line, sizeof line, "Stall:%llu\tW0_Idle:%llu\tW0_Scoreboard:%llu",
                     (unsigned long long)w[WD_STALL], (unsigned long long)w[WD_IDLE],
                     (unsigned long long)w[WD_SCOREBOARD]);
    for (int k = 1; k <= 32 && n > 0 && (size_t)n < sizeof line; k++)
        n += snprintf(line + n, sizeof line - (size_t)n, "\tW%d:%llu", k,
                      (unsigned long long)w[WD_W1 + k - 1]);
    ws_kstats_add_line(ks, "Warp Occupancy Distribution:");
    ws_kstats_add_line(ks, "%s", line);
}

/* The per-kernel stats of g_kernel_stats. kv: this kernel's program-scope values. */
static void kernel_values(const ws_gpu *g, const uint64_t *kv, const ws_kernel_res *res,
                          uint64_t cycles, gpu_kernel_vals *o) {
    const uint64_t *t = g->prog_tot;
    /* bytes over simulated seconds, in GB/s: B * MHz / cycles / 1e3 */
    o->l2_bw = ratio(kv[P_L2_REPLY_BYTES], kv[P_CYCLES]) * g->mhz[0] / 1e3;
    o->l2_bw_total = ratio(t[P_L2_REPLY_BYTES], t[P_CYCLES]) * g->mhz[0] / 1e3;
    o->occ = 100 * ratio(kv[P_WARPS_LIVE], kv[P_WARP_SLOTS]);
    o->tot_occ = 100 * ratio(t[P_WARPS_LIVE], t[P_WARP_SLOTS]);
    /* occupancy: what fits and why (the same on every SM) */
    o->regs = res->regs_per_thread;
    o->smem = res->smem_per_cta;
    o->ctas = ws_sm_max_ctas(g->sm[0]);
    o->limiter = ws_sm_cta_limiter(g->sm[0]);
    o->time_us = (double)cycles / g->mhz[0];
}

/* The kernel's statistics into ks, from the units' counters now and at the
 * kernel's start (sm0, mp0: turned into this kernel's part; ic0). Once per
 * kernel; not inlined, so that it does not change the code of the cycle loop.
 * Returns 0, or -1 when out of memory. */
__attribute__((noinline)) static int kernel_stats(ws_gpu *g, const ws_kernel_res *res,
                                                 const ws_gpu_result *out, ws_kernel_stats *ks,
                                                 ws_sm_stats *sm0, ws_mempart_stats *mp0,
                                                 const ws_icnt_stats *ic0) {
    /* turn running totals into this kernel's numbers, summed over the units */
    ws_sm_stats smt = {0};
    ws_mempart_stats mpt = {0};
    for (uint32_t i = 0; i < g->n_sms; i++) {
        ws_counters_diff_add(ws_sm_counters, ws_sm_ncounters, &sm0[i], ws_sm_get_stats(g->sm[i]),
                             &sm0[i], &smt);
    }
    for (uint32_t i = 0; i < g->n_chan; i++) {
        ws_counters_diff_add(ws_mempart_counters, ws_mempart_ncounters, &mp0[i],
                             ws_mempart_get_stats(g->part[i]), &mp0[i], &mpt);
    }
    uint64_t *pv = calloc(g->n_decl, sizeof *pv);
    if (!pv) return -1;
    program_values(g, &smt, &mpt, ic0, pv);
    pv[P_CYCLES] = out->cycles;
    breakdown_values(g, sm0, &smt, &mpt, pv);
    ws_kstats_add_program_named(ks, &g->decl_named, g->decl, g->n_decl, pv, g->prog_tot);
    add_breakdown_lines(g, ks);
    gpu_kernel_vals kval;
    kernel_values(g, pv, res, out->cycles, &kval);
    ws_kstats_add_decls(ks, g_kernel_stats, GK_TIME_US, &kval);
    /* per kernel only: issue stalls, time, energy, activity, controller decisions */
    ws_kstats_add_table(ks, &ws_sm_stat_table, &smt);
    ws_kstats_add_table(ks, &ws_sm_hazard_table, &smt);
    ws_kstats_add_decls(ks, g_kernel_stats + GK_TIME_US, GK_N - GK_TIME_US, &kval);
    /* energy: this kernel's activity through the model's coefficients */
    const ws_icnt_stats *ic = ws_icnt_get_stats(g->icnt);
    ws_energy_activity ea = {
        .warp_insts = smt.warp_insts, .l1i_accesses = smt.l1i_access,
        .rf_reads = smt.rf_reads, .rf_writes = smt.rf_writes,
        .lanes_int = smt.thread_insts_int, .lanes_fp = smt.thread_insts_fp,
        .lanes_dp = smt.thread_insts_dp, .lanes_sfu = smt.thread_insts_sfu,
        .lanes_mem = smt.thread_insts_mem, .l1d_accesses = pv[P_L1D_ACC],
        .shmem_accesses = smt.shmem_accesses + smt.shmem_bank_conflict_cycles,
        .const_accesses = smt.l1c_access, .sm_active_cycles = smt.cycles_active,
        .l2_accesses = pv[P_L2_ACC],
        .icnt_flits = ic->flits[0] + ic->flits[1] - ic0->flits[0] - ic0->flits[1],
        .dram_act = mpt.dram_n_act, .dram_rd = mpt.dram_reads, .dram_wr = mpt.dram_writes,
        .cycles = out->cycles, .core_mhz = g->mhz[0], .n_sms = g->n_sms,
    };
    ws_energy_params ep;
    ws_energy_params_from_config(&ep, &g->cfg);
    ws_energy en;
    ws_energy_compute(&ep, &ea, &en);
    ws_energy_report(ks, &en, out->thread_insts_exec);
    /* the activity behind it, for recalibration */
    ws_kstats_add_table(ks, &ws_energy_activity_table, &ea);
    ws_control_add_stats(g->ctl, ks); /* what a throttle controller decided */
    if (g->hm) ws_hmem_add_stats(g->hm, ks, out->cycles, g->mhz[0]);
    if (g->cpu) ws_cpucore_add_stats(g->cpu, ks);
    free(pv);
    return 0;
}

/* Access-interval throttling: may SM i send r now? If so, it is counted
   (and traced with its global LLC set: slice x sets per slice + set). */
static bool llc_send(ws_gpu *g, uint32_t i, const ws_mreq *r) {
    if (!ws_llc_ai_may_send(g->llc, i, r)) {
        ws_llc_ai_held(g->llc, i);
        return false;
    }
    uint32_t k;
    ws_mempart *p = part_of(g, r->subpart, &k);
    const ws_cache *l2 = ws_subpart_l2(p, k);
    uint64_t set = l2 ? (uint64_t)r->subpart * ws_cache_get_cfg(l2)->nsets +
                            ws_cache_set_of(l2, r->addr)
                      : r->subpart;
    ws_llc_ai_sent(g->llc, i, r, set);
    return true;
}

/* The CPU core's cycle: replies that came back complete, and its next due
   access leaves (under access-interval throttling, only within its quota)
   while the GPU has work (`working`: CTAs to dispatch, or an SM busy).
   Returns whether the core is active for the interval coordinator: the GPU
   works and the core has accesses left. */
__attribute__((noinline)) static bool cpu_cycle(ws_gpu *g, uint64_t now, bool working) {
    ws_cpucore_cycle(g->cpu, now);
    for (uint32_t i = 0; i < g->n_sms && !working; i++) working = ws_sm_busy(g->sm[i]);
    ws_mreq *r = ws_cpucore_peek(g->cpu, now, working);
    if (r && g->llc && !llc_send(g, g->n_sms, r)) ws_cpucore_stalled(g->cpu);
    else if (r) ws_cpucore_pop(g->cpu, now);
    return working && ws_cpucore_has_work(g->cpu);
}

/* The CPU core's port into the L2 slices: its oldest arrived access enters
   its slice when the slice has room after the interconnect's request. */
__attribute__((noinline)) static void cpu_to_l2(ws_gpu *g, uint64_t now) {
    ws_mreq *r = ws_cpucore_port_top(g->cpu, now);
    uint32_t k;
    ws_mempart *p = r ? part_of(g, r->subpart, &k) : NULL;
    if (!r || ws_subpart_full(p, k)) return;
    ws_cpucore_port_pop(g->cpu);
    if (g->llc) ws_llc_ai_accepted(g->llc, r);
    ws_subpart_push(p, k, r, now);
}

static void take_pending(ws_gpu *g, const ws_launch_desc *l, uint32_t i);

/* ---- SMs passed by in a pure sleep ---------------------------------------------
 * An SM whose next cycles are pure sleeping ones (WS_SM_PURE: they only count,
 * ws_sm_skip) and whose out queue is empty does nothing the serial steps see
 * until its sleep ends: its flags stay those of its last cycle (less
 * WS_SM_PROGRESSED), it sends nothing and it takes part in no progress. On one
 * thread the cycle loop passes such an SM by (sm_idle SKIPPED, which busy_in
 * reads as idle) and counts its cycles when a reply or a CTA comes, at its
 * sleep's end (skip_next), and before anything reads those counts. */
static void sm_unskip(ws_gpu *g, uint32_t i, uint64_t next) {
    sm_out *o = &g->out[i];
    ws_sm_skip(g->sm[i], o->skip_from, next - o->skip_from);
    g->sm_idle[i] = 0;
}

/* Every SM passed by counted up to `next` (the first cycle not run). */
static void unskip_all(ws_gpu *g, uint64_t next) {
    for (uint32_t i = 0; i < g->n_sms; i++)
        if (g->sm_idle[i] == SKIPPED) sm_unskip(g, i, next);
    g->skip_next = UINT64_MAX;
}

/* Before the SMs' cycle `now`: the SMs whose sleep ends run it. */
__attribute__((noinline)) static void unskip_due(ws_gpu *g, uint64_t now) {
    uint64_t next = UINT64_MAX;
    for (uint32_t w = 0; 8 * w < g->n_sms; w++) {
        for (uint64_t m = skipped_in(g, w); m; m &= m - 1) {
            uint32_t i = 8 * w + ((uint32_t)__builtin_ctzll(m) >> 3);
            if (g->out[i].skip_due <= now) sm_unskip(g, i, now);
            else if (g->out[i].skip_due < next) next = g->out[i].skip_due;
        }
    }
    g->skip_next = next;
}

/* After SM i's cycle `now`, committed, which left WS_SM_PURE (and flags f: without
   WS_SM_HAS_OUT its out queue was empty, and nothing has filled it since). */
__attribute__((noinline)) static void sm_skip(ws_gpu *g, uint32_t i, uint64_t now, uint8_t f) {
    ws_sm *sm = g->sm[i];
    if (!g->skip_ok || ((f & WS_SM_HAS_OUT) && ws_sm_out_peek(sm))) return;
    sm_out *o = &g->out[i];
    o->skip_from = now + 1;
    o->skip_due = ws_sm_sleep_until(sm);
    o->f &= (uint8_t)~(WS_SM_PROGRESSED | WS_SM_PURE);
    g->sm_idle[i] = SKIPPED;
    if (o->skip_due < g->skip_next) g->skip_next = o->skip_due;
}

/* CTA `cta` goes to SM idx, which has room: queued for the start of its next cycle. */
static inline void give_cta(ws_gpu *g, const ws_launch_desc *l, uint32_t idx, uint64_t cta,
                            uint64_t now) {
    sm_out *o = &g->out[idx];
    o->cta_room--;
    g->cta_rooms--;
    if (g->sm_idle[idx] == SKIPPED) sm_unskip(g, idx, now + 1); /* (after its cycle `now`) */
    g->sm_idle[idx] = 0;
    if (g->skip_ok) { /* created now: nothing reads the SM before its next cycle */
        o->pending[0] = cta;
        o->pending_now = now;
        o->n_pending = 1;
        take_pending(g, l, idx);
        return;
    }
    if (o->n_pending == SO_PENDING_MAX) take_pending(g, l, idx);
    o->pending[o->n_pending++] = cta;
    o->pending_now = now;
}

/* GPGPU-Sim's CTA dispatch: each core cluster takes at most one CTA a
   cycle; the clusters are visited round robin from the one after the last
   that took one (as it stood when the cycle began), a cluster's cores round
   robin from the one after its last. Returns the CTAs dispatched. */
static uint64_t dispatch_rr(ws_gpu *g, const ws_launch_desc *l, uint64_t next, uint64_t end,
                            uint64_t now) {
    uint32_t ncl = (uint32_t)g->cfg.n_clusters, cpc = (uint32_t)g->cfg.n_cores_per_cluster;
    uint32_t start = g->last_issue_cl;
    uint64_t n = 0;
    if (!g->cta_rooms) return 0; /* no SM has room: the walk would find none */
    if (cpc == 1) { /* one core per cluster (GTX480, Volta): the same walk, without divisions */
        for (uint32_t i = 0, cl = start; i < ncl && next + n < end; i++) {
            if (++cl == ncl) cl = 0;
            if (!g->out[cl].cta_room) continue;
            give_cta(g, l, cl, next + n, now);
            g->last_issue_cl = cl; /* (next_core[cl] stays 0) */
            n++;
        }
        return n;
    }
    for (uint32_t i = 0; i < ncl && next + n < end; i++) {
        uint32_t cl = (start + 1 + i) % ncl;
        for (uint32_t j = 0; j < cpc; j++) {
            uint32_t core = (g->next_core[cl] + 1 + j) % cpc, idx = cl * cpc + core;
            /* ws_sm_can_take_cta as the SM's cycle left it (cta_room), less
               the CTAs given since; they are created at the start of its
               next cycle, on the thread that runs it */
            if (!g->out[idx].cta_room) continue;
            give_cta(g, l, idx, next + n, now);
            g->next_core[cl] = core;
            g->last_issue_cl = cl;
            n++;
            break;
        }
    }
    return n;
}

/* Static CTA mapping: block b on SM b mod n, each SM taking its own blocks
   in ID order as its slots free (one per SM per cycle). Returns how many. */
static uint64_t dispatch_static(ws_gpu *g, const ws_launch_desc *l, uint64_t total, uint64_t now) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < g->n_sms; i++) {
        uint64_t b = g->cta_next[i];
        if (b >= total || !ws_sm_can_take_cta(g->sm[i])) continue;
        uint32_t id[3] = {(uint32_t)(b % l->grid[0]), (uint32_t)(b / l->grid[0] % l->grid[1]),
                          (uint32_t)(b / ((uint64_t)l->grid[0] * l->grid[1]))};
        ws_sm_take_cta(g->sm[i], id, now);
        g->sm_idle[i] = 0;
        g->cta_next[i] = b + g->n_sms;
        n++;
    }
    return n;
}

/* ---- heterogeneous memory: the placement model's counters ---------------- */
/* Interconnect bytes (both directions) so far: the model's core <-> memory traffic. */
static uint64_t icnt_bytes(const ws_gpu *g) {
    const ws_icnt_stats *ic = ws_icnt_get_stats(g->icnt);
    return (ic->flits[0] + ic->flits[1]) * g->flit;
}

/* The counters over (a1 - a0 accesses, m1 - m0 misses, bytes over cycles). */
static ws_page_counters counters(const ws_gpu *g, const sums *now, const sums *before,
                                 uint64_t bytes, uint64_t cycles) {
    ws_page_counters c = {ratio(now->l1m - before->l1m, now->l1a - before->l1a),
                          ratio(now->l2m - before->l2m, now->l2a - before->l2a),
                          ratio(bytes, cycles) * g->mhz[0] / 1e3, 0, 0, 0};
    return c;
}

static void hm_sample_base(ws_gpu *g) {
    sums s;
    take_sums(g, &s);
    g->hm_l1a0 = s.l1a, g->hm_l1m0 = s.l1m, g->hm_l2a0 = s.l2a, g->hm_l2m0 = s.l2m;
    g->hm_flits0 = icnt_bytes(g);
}

/* A dynamic placement policy's sample: the counters of the last `cycles`. Once
   per period, out of the cycle loop's code. */
__attribute__((noinline)) static void hm_sample(ws_gpu *g, uint64_t cycles) {
    sums now, before = {0};
    take_sums(g, &now);
    before.l1a = g->hm_l1a0, before.l1m = g->hm_l1m0, before.l2a = g->hm_l2a0;
    before.l2m = g->hm_l2m0;
    ws_page_counters c = counters(g, &now, &before, icnt_bytes(g) - g->hm_flits0, cycles);
    ws_hmem_latencies(g->hm, &c); /* the run's so far */
    ws_hmem_sample(g->hm, &c);
    hm_sample_base(g);
}

/* -hm_profile_out: the counters of the whole program so far (a profiling
   run's output; the last kernel's write holds the whole run). */
static int write_profile(ws_gpu *g, ws_fault *f) {
    sums now, zero = {0};
    take_sums(g, &now);
    ws_page_counters c = counters(g, &now, &zero, icnt_bytes(g), g->tot_cycles);
    if (g->hm) ws_hmem_latencies(g->hm, &c);
    char err[200];
    if (!ws_page_profile_write(g->cfg.hm_profile_out, &c, err, sizeof err)) return 0;
    f->code = WS_ERR_IO;
    snprintf(f->msg, sizeof f->msg, "option -hm_profile_out: %s", err);
    return -1;
}

/* Sampling within a kernel (timing/wave_sample.c): every 64 cycles, the
 * CTAs completed and instructions executed since the kernel's start. */
__attribute__((noinline)) static bool waves_converged(ws_wave_watch *w, const ws_gpu *g,
                                                      const ws_sm_stats *sm0, uint64_t cycle) {
    uint64_t done = 0;
    for (uint32_t i = 0; i < g->n_sms; i++) done += ws_sm_get_stats(g->sm[i])->ctas_done - sm0[i].ctas_done;
    return done >= w->next && ws_wave_watch_step(w, done, insns_since(g, sm0), cycle);
}

/* ---- the units' own part of a cycle -----------------------------------------
 * Two phases, so that the result does not depend on -warpsim_threads: every
 * busy SM runs its cycle touching only its own state (sm_cycle), and so do
 * the memory partitions' DRAM and L2 cycles (mem_cycle), on the worker
 * threads when there are any; then, serially in SM-id order, each SM's
 * global stores and atomics are applied (ws_sm_commit) and its requests
 * enter the interconnect (sms_commit). A load therefore sees global memory
 * as it was at the start of its cycle, whatever SM ran first
 * (docs/timing.md, parallel simulation). What moves between units (into
 * and out of the interconnect) is done before the parallel phase and in
 * the commit, serially; the interconnect's own cycle, which moves flits
 * inside it, is an item of the parallel phase. */
/* Creates the CTAs given to SM i and not yet created, in the order given. */
static void take_pending(ws_gpu *g, const ws_launch_desc *l, uint32_t i) {
    sm_out *o = &g->out[i];
    for (uint32_t k = 0; k < o->n_pending; k++) {
        uint64_t n = o->pending[k];
        uint32_t id[3] = {(uint32_t)(n % l->grid[0]), (uint32_t)(n / l->grid[0] % l->grid[1]),
                          (uint32_t)(n / ((uint64_t)l->grid[0] * l->grid[1]))};
        ws_sm_take_cta(g->sm[i], id, o->pending_now);
    }
    o->n_pending = 0;
}

/* Before anything outside the SMs' cycles looks at their CTAs. */
static void take_all_pending(ws_gpu *g, const ws_launch_desc *l) {
    for (uint32_t i = 0; i < g->n_sms; i++)
        if (g->out[i].n_pending) take_pending(g, l, i);
}


typedef struct unit_phase {
    ws_gpu *g;
    const ws_launch_desc *l;
    uint64_t now;
    int dom;          /* the memory clock domains that tick (DOM_DRAM, DOM_L2) */
    uint32_t n_icnt;  /* 1: the interconnect's cycle is an item too */
    uint32_t dram_owed; /* DRAM cycles of the DRAM-only steps since the last core cycle */
    bool dispatching;   /* CTAs are left for the dispatch loop (cta_room is read) */
} unit_phase;

/* Returns the SM's flags for the serial steps (0: it stayed idle). serial:
   called by sms_cycle_serial, for an SM that is not idle, which stores the
   flags itself (it may clear SO_TICKED) and shares no line with a thread.
   direct: its CTAs and replies went in when given (skip_ok). dispatching:
   p->dispatching (a constant in the serial loop's instances). */
static inline __attribute__((always_inline)) uint8_t sm_cycle(ws_gpu *g, const unit_phase *p,
                                                              uint64_t now, uint32_t i,
                                                              bool serial, bool direct,
                                                              bool dispatching) {
    ws_sm *sm = g->sm[i];
    sm_out *o = &g->out[i];
    if (!direct && o->n_pending) take_pending(g, p->l, i); /* as if given at the end of the
                                                              last cycle */
    if (!direct && o->arrived) { /* as if it had come in before the cycle started */
        ws_sm_in_push(sm, o->arrived, now);
        o->arrived = NULL;
    }
    /* an idle SM keeps the line of the cycle in which it went idle: nothing
       but the serial steps changed it since, and they set it busy again */
    if (!serial && g->sm_idle[i]) return 0;
    uint8_t f = (uint8_t)ws_sm_step(sm, now); /* SO_TICKED: it was busy and ran */
    if (!(f & SO_TICKED)) g->sm_idle[i] = 1;
    if (serial) {
        /* cta_room is read only while dispatching, which once over stays over for
           the kernel */
        if (dispatching && ((f & WS_SM_CTA_ROOM) || o->cta_room)) { /* (else 0 stays 0) */
            uint8_t room = f & WS_SM_CTA_ROOM ? cta_room_of(sm) : 0;
            g->cta_rooms += (uint32_t)room - o->cta_room;
            o->cta_room = room;
        }
        return f;
    }
    uint8_t room = dispatching && (f & WS_SM_CTA_ROOM) ? cta_room_of(sm) : 0;
    if (o->f != f) o->f = f; /* unchanged: the line stays shared */
    if (o->cta_room != room) o->cta_room = room;
    return f;
}

/* A memory partition's DRAM and L2 cycles: they touch only the partition
 * (its sub-partitions' queues, L2 slices, DRAM channel, request pool). */
static inline __attribute__((always_inline)) void mem_cycle(const unit_phase *p, uint32_t c) {
    ws_mempart_dram_cycles(p->g->part[c], p->now, p->dram_owed + ((p->dom & DOM_DRAM) != 0));
    if (p->dom & DOM_L2) ws_mempart_l2_cycle(p->g->part[c], p->now);
}

/* An item of the parallel phase: the SMs, the interconnect (its cycle
 * moves flits inside it only: what enters and leaves it is moved before and
 * after this phase), then the partitions. */
static void unit_cycle(void *ctx, uint32_t i) {
    const unit_phase *p = ctx;
    uint32_t u = p->g->par_unit[i];
    if (u < p->g->n_sms) (void)sm_cycle(p->g, p, p->now, u, false, false, p->dispatching);
    else if (u == p->g->n_sms) {
        if (p->n_icnt) ws_icnt_cycle(p->g->icnt);
    } else {
        mem_cycle(p, u - p->g->n_sms - 1); /* nothing when no memory clock ticks */
    }
}

/* Is the parallel phase worth its hand-offs this cycle? Not with at most
 * one SM to run (the partitions' cycles alone are short): the start and
 * the end of a kernel, a lone straggler. */
static bool par_worthwhile(const ws_gpu *g) {
    uint32_t busy = 0;
    for (uint32_t i = 0; i < g->n_sms && busy < 2; i++) busy += !g->sm_idle[i];
    return busy >= 2;
}

/* -warpsim_threads_adapt: the cycles that could run in parallel go in
 * stretches, each timed whole (serial steps included) and run in parallel
 * or on the calling thread alone: a stretch of PAR_STRETCH cycles the
 * quicker way (by the time per cycle of the last stretch of each kind),
 * and after every PAR_PROBE of them a probe of PAR_PROBE_LEN cycles the
 * other way, to see whether that changed (the host's other work comes and
 * goes). The first stretch runs in parallel and is followed by a probe. A
 * stretch's cycles differ from the next's only as the kernel moves on,
 * and a stretch may span a kernel boundary. */
enum { PAR_STRETCH = 2048, PAR_PROBE_LEN = 256, PAR_PROBE = 8 };
static void par_adapt(ws_gpu *g) {
    if (!g->par_n++) g->par_t0 = ws_par_ticks();
    uint32_t len = g->par_probing ? PAR_PROBE_LEN : PAR_STRETCH;
    if (g->par_n < len) return;
    /* the time from the first cycle's start to this one's: len - 1 cycles */
    g->par_est[g->par_off] = (ws_par_ticks() - g->par_t0) / (len - 1);
    g->par_n = 0;
    if (!g->par_probing && (!g->par_est[!g->par_off] || ++g->par_stretches % PAR_PROBE == 0)) {
        g->par_off = !g->par_off;
        g->par_probing = true;
    } else {
        g->par_off = g->par_est[1] < g->par_est[0];
        g->par_probing = false;
    }
}

/* Can this kernel's SMs run in parallel? Global-memory writes outside the
 * SMs' logs (surface stores and reductions, tensor-core stores, bulk copies), device-side
 * printf, malloc and assert (one buffer and heap for all SMs) and memcheck
 * reports (one stream) are made at issue, in the order the SMs run: such a
 * kernel runs its SMs one after another, with the same results. */
static bool kernel_parallel(const ws_gpu *g, const ws_launch_desc *l) {
    if (!g->par || l->memcheck) return false;
    const ws_module *m = l->img->mod;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ws_func *fn = &m->funcs[f];
        if (fn->builtin && !fn->has_body) return false;
        for (uint32_t k = 0; k < fn->ninsts; k++) {
            const ws_inst *in = &fn->insts[k];
            if (in->op == WS_OP_SUST || in->op == WS_OP_SURED ||
                (in->op == WS_OP_WMMA && in->sub == WS_MMA_STORE_D) ||
                (in->op == WS_OP_CP_ASYNC && in->sub == WS_CPA_BULK))
                return false;
        }
    }
    return true;
}

/* The sub-partitions' replies enter the interconnect: sub-partition
   s = chan * n_sub_per_chan + k, in order; a partition without replies has
   nothing to send. */
static void replies_to_icnt(ws_gpu *g, uint64_t now) {
    /* (in locals: the calls below could write g, as far as the compiler knows) */
    ws_mempart *const *part = g->part;
    ws_cpucore *const cpu = g->cpu;
    const uint32_t n_chan = g->n_chan, nsub = g->n_sub_per_chan;
    for (uint32_t c = 0; c < n_chan; c++) {
        ws_mempart *p = part[c];
        if (!ws_mempart_replies(p)) continue;
        for (uint32_t k = 0, s = c * nsub; k < nsub; k++, s++) {
            ws_mreq *r = ws_subpart_top(p, k);
            if (!r) continue;
            if (cpu && r->sm == g->n_sms) { /* the CPU core's, back over its port */
                ws_subpart_pop(p, k);
                ws_cpucore_reply(cpu, r, now);
                continue;
            }
            /* an input without room for a flit refuses any packet (a third
               of the tries on kmeans): no call, nor its size */
            if (!ws_icnt_reply_full(g->icnt, s, 1) &&
                ws_icnt_try_push_reply(g->icnt, s, r->sm, r, ws_mreq_flits(r, g->flit)))
                ws_subpart_pop(p, k);
            else
                g->stall_icnt2sh++;
        }
    }
}

/* SM i's requests enter its interconnect input, while there is room (and,
   under access-interval throttling, quota). */
static inline void sm_send(ws_gpu *g, uint32_t i, ws_sm *sm) {
    /* (the pop returns the next head: one call a request; an SM's request goes to
       sub-partition r->subpart, ws_icnt_try_push's request side) */
    for (ws_mreq *r = ws_sm_out_peek(sm); r; r = ws_sm_out_pop(sm)) {
        uint32_t flits = ws_mreq_flits(r, g->flit);
        if (g->llc) {
            if (!ws_icnt_has_buffer(g->icnt, i, flits)) break;
            if (!llc_send(g, i, r)) break; /* its interval quota is used */
            ws_icnt_push(g->icnt, i, g->n_sms + r->subpart, r, flits);
        } else if (!ws_icnt_try_push_req(g->icnt, i, r->subpart, r, flits)) {
            break;
        }
    }
}

/* SM i's part of the serial phase, if it ran; returns whether it moved. */
static inline bool sm_commit(ws_gpu *g, uint32_t i, ws_status *rc, ws_fault *fault) {
    uint8_t f = g->out[i].f;
    if (!(f & SO_TICKED)) return false;
    ws_sm *sm = g->sm[i];
    if (f & WS_SM_LOGGED) ws_sm_commit(sm);
    if (f & WS_SM_HAS_OUT) sm_send(g, i, sm);
    if ((f & WS_SM_FAULTED) && ws_sm_fault(sm, fault)) *rc = fault->code;
    return (f & WS_SM_PROGRESSED) != 0;
}

/* The SMs' cycles on one thread, each followed by its commit where that
   gives the same results: an SM that logged no stores and has no fault
   only sends requests, into its own interconnect input, which no other
   SM's cycle reads (nor its requests' order: inputs are visited by number),
   so they enter as they would after every SM's cycle. An SM with logged
   stores commits after every SM's cycle (the visibility rule), as do all
   under access-interval throttling (one quota for all SMs). Such an SM keeps
   SO_TICKED for sms_commit; returns whether one does (*progress: whether
   an SM committed here moved). */
static inline __attribute__((always_inline)) bool sms_cycle_serial_t(ws_gpu *g,
                                                                      const unit_phase *ph,
                                                                      bool *progress,
                                                                      const bool direct,
                                                                      const bool dispatching) {
    bool later = false, moved = false;
    /* (g and now as arguments of sm_cycle, not through ph, which is in memory; direct
       implies no access-interval throttling: skip_ok) */
    const uint8_t now_only = !direct && g->llc ? 0 : SO_TICKED;
    const uint64_t now = ph->now;
    for (uint32_t w = 0; 8 * w < g->n_sms; w++) /* the busy ones: busy_in */
        for (uint64_t m = busy_in(g, w); m; m &= m - 1) {
            uint32_t i = 8 * w + ((uint32_t)__builtin_ctzll(m) >> 3);
            uint8_t f = sm_cycle(g, ph, now, i, true, direct, dispatching);
            if ((f & (now_only | WS_SM_LOGGED | WS_SM_FAULTED)) != SO_TICKED) {
                later |= (f & SO_TICKED) != 0;
                g->out[i].f = f;
                continue;
            }
            g->out[i].f = (uint8_t)(f & ~SO_TICKED); /* committed here */
            moved |= (f & WS_SM_PROGRESSED) != 0;
            if (!(f & (WS_SM_HAS_OUT | WS_SM_PURE))) continue; /* (most visits) */
            if (f & WS_SM_HAS_OUT) sm_send(g, i, g->sm[i]);
            if (f & WS_SM_PURE) sm_skip(g, i, now, f);
        }
    *progress = moved;
    return later;
}
static bool sms_cycle_serial(ws_gpu *g, const unit_phase *ph, bool *progress) {
    /* (an instance for each of the common cases: a test less per SM visit) */
    if (!g->skip_ok) return sms_cycle_serial_t(g, ph, progress, false, ph->dispatching);
    return ph->dispatching ? sms_cycle_serial_t(g, ph, progress, true, true)
                           : sms_cycle_serial_t(g, ph, progress, true, false);
}

/* Requests go back to the pool of the unit that frees them: at a sectored L2
   a partition makes a request per sector and frees the SM's request they
   came from, and the SM frees the sectors' replies, so partitions' pools
   would grow by three requests for every split one while the SMs' free lists
   grow as much. Between cycles (no unit is running), every POOL_EVERY
   cycles, a partition pool that is running low takes free requests from an
   SM's pool with plenty (a partition takes at most a few requests a cycle,
   so POOL_LOW lasts the POOL_EVERY cycles between checks). Which
   request object a pool hands out changes no result (nothing depends on
   where a request lives; request numbers are counted per pool). */
enum { POOL_LOW = 128, POOL_BATCH = 512, POOL_EVERY = 8 };
static void pools_even(ws_gpu *g) {
    for (uint32_t c = 0; c < g->n_chan; c++) {
        ws_mreq_pool *to = &g->mem_pool[c].p;
        if (to->nfree >= POOL_LOW) continue;
        for (uint32_t i = 0; i < g->n_sms; i++)
            if (g->sm_pool[i].p.nfree >= 2 * POOL_BATCH) {
                ws_mreq_pool_move_free(&g->sm_pool[i].p, to, POOL_BATCH);
                break;
            }
    }
}

/* The serial phase: SMs that ran, in id order. Returns whether any moved;
 * a fault stops the kernel after this cycle. */
static bool sms_commit(ws_gpu *g, ws_status *rc, ws_fault *fault) {
    bool progress = false;
    /* an SM that ran is not idle (it goes idle only when it does not run) */
    for (uint32_t w = 0; 8 * w < g->n_sms; w++)
        for (uint64_t m = busy_in(g, w); m; m &= m - 1)
            progress |= sm_commit(g, 8 * w + ((uint32_t)__builtin_ctzll(m) >> 3), rc, fault);
    return progress;
}

/* One kernel's run (ws_gpu_run_kernel): what the cycle loop and the
 * statistics assembly after it share. */
typedef struct kernel_run {
    const ws_launch_desc *l;
    const char *name;
    const ws_sm_stats *sm0;     /* the SMs' counters at the kernel's start */
    uint64_t total_ctas;
    uint64_t cycle, next_cta;   /* at the loop's end: cycles run, CTAs dispatched */
    ws_wave_watch ww;           /* sampling within the kernel */
    bool watch_waves;
    uint64_t interval;          /* time-series period (0: none) */
    sums ts_prev;               /* the time series' last sample */
} kernel_run;

/* The first multiple of `every` after `cycle`. */
static uint64_t next_multiple(uint64_t cycle, uint64_t every) { return (cycle / every + 1) * every; }

/* After the checks of the kernel's cycle `cycle` (idle: the cycles since the last
 * progress), the first cycle at which one of the loop's periodic steps or stop tests
 * could act: a sample of the heterogeneous memory, a controller epoch, the sampling
 * within the kernel, the watchdog (idle grows by one a cycle at most), the cycle
 * and instruction caps, a time-series sample, the hang detector, the progress line.
 * Before it they would all pass, so the loop asks none of them (one compare a cycle). */
static uint64_t check_due(const ws_gpu *g, uint64_t cycle, uint64_t idle, bool watch_waves,
                          uint64_t interval) {
    uint64_t due = g->ctl_next, c;
#define CHECK_AT(x) (c = (x), due = c < due ? c : due)
    if (g->hm_period) CHECK_AT(next_multiple(cycle, g->hm_period));
    if (watch_waves || g->insn_cap) CHECK_AT(next_multiple(cycle, 64));
    uint64_t watchdog = (uint64_t)g->cfg.watchdog_cycles, max_cycle = (uint64_t)g->cfg.max_cycle;
    if (g->cfg.deadlock_detect) CHECK_AT(cycle + (idle < watchdog ? watchdog - idle : 1));
    if (max_cycle) CHECK_AT(max_cycle > g->tot_cycles ? max_cycle - g->tot_cycles : cycle + 1);
    if (interval) CHECK_AT(next_multiple(cycle, interval));
    if (g->cfg.hang_cycles || g->progress_s > 0) CHECK_AT(next_multiple(cycle, 4096));
#undef CHECK_AT
    return due;
}

/* The cycle loop of one kernel: until its CTAs are done and the memory
 * system drained, a fault, the watchdog, the hang detector or a cap. */
static ws_status kernel_loop(ws_gpu *g, kernel_run *k, ws_gpu_result *out, ws_fault *fault) {
    const ws_launch_desc *l = k->l;
    const ws_sm_stats *sm0 = k->sm0;
    uint64_t total_ctas = k->total_ctas, next_cta = 0, cycle = 0, idle = 0;
    bool static_map = g->cfg.static_cta_map || g->cfg.l1d_warp_reorder;
    uint32_t csize = ws_launch_cluster_size(l);
    const bool clustered = l->cluster[0] != 0; /* hoisted: the dispatch loop runs every cycle */
    uint64_t static_before = 0;
    /* CTAs dispatched on the timing model: all of them, unless sampling
       within the kernel stops it early (wave_watch) */
    uint64_t dispatch_end = total_ctas;
    bool watch_waves = k->watch_waves;
    uint64_t interval = k->interval;
    double t_start = wall_now(), t_shown = t_start;
    bool shown = false;
    uint64_t max_cycle = (uint64_t)g->cfg.max_cycle, watchdog = (uint64_t)g->cfg.watchdog_cycles;
    uint64_t hang = (uint64_t)g->cfg.hang_cycles, hang_seen = hang_progress(g), hang_from = 0;
    uint64_t hang_insts = 0;
    uint32_t dram_owed = 0;
    ws_status rc = WS_OK;
    const bool deadlock = g->cfg.deadlock_detect, cpu_llc = g->cpu || g->llc;
    /* the first cycle (after cycle++) at which a periodic step or a stop test may act */
    uint64_t check = check_due(g, 0, 0, watch_waves, interval);
    /* the arrival sets' words and their last word's nodes (below): the same every cycle */
    const uint32_t sm_words = (g->n_sms + 63) / 64, sub_words = (g->n_subparts + 63) / 64;
    const uint64_t sm_last = below(g->n_sms, sm_words - 1);
    const uint64_t sub_last = below(g->n_subparts, sub_words - 1);
    /* the partitions' full sub-partitions (ws_mempart_full_count) summed, and whether the
       sum holds (taken by the serial L2 loop, no L2 step since; the kernel's first cycle
       counts them) */
    uint32_t full_sum = 0;
    bool full_known = false;
    memset(g->sm_idle, 0, g->n_sms); /* the SMs changed between kernels (padding stays idle) */
    g->cta_rooms = 0;
    /* SMs are passed by asleep only on one thread, and not where other steps between
       cycles read or give them anything (static and cluster dispatch, access-interval
       throttling, the CPU core, the heterogeneous memory) */
    g->skip_ok = !g->par_kernel && !static_map && !clustered && !g->llc && !g->cpu && !g->hm;
    g->skip_next = UINT64_MAX;
    for (uint32_t i = 0; i < g->n_sms; i++) {
        g->out[i].arrived = NULL;
        g->out[i].f = (uint8_t)(ws_sm_after_cycle(g->sm[i]) & WS_SM_CTA_ROOM);
        g->out[i].cta_room = cta_room_of(g->sm[i]);
        g->cta_rooms += g->out[i].cta_room;
        g->out[i].n_pending = 0;
    }
    for (;;) {
        /* A step in which only the DRAM ticks (the DRAM clock is not the
           core's) is owed to the partitions' items of the next core cycle,
           which run it first: nothing between touches what it touches,
           `now` is the same, and a kernel ends only after a core cycle. Such
           steps are counted here, before any of the tests below (none of
           which acts on them): over half the steps of a gtx480 run. */
        int dom = ws_clockdom_step_past(&g->clk, DOM_DRAM, &dram_owed);
        /* units keep time stamps (LRU, ready times) across kernels: they see
           the run's cycle, not this kernel's */
        uint64_t now = g->tot_cycles + cycle;
        if (dom & DOM_CORE) {
            if (g->hm) ws_hmem_cycle(g->hm, now);
            for (uint32_t w = 0; w < sm_words; w++)
            for (uint64_t m = ws_icnt_arrivals(g->icnt, true, w) & (w + 1 < sm_words ? ~0ull : sm_last);
                 m; m &= m - 1) {
                uint32_t i = 64 * w + (uint32_t)__builtin_ctzll(m);
                /* ws_sm_in_ready_for: a reply needs room, an instruction fetch's
                   does not (the room is what the SM's last cycle left: a reply
                   given to sm_cycle, not direct, went in at its start) */
                ws_mreq *r;
                if (ws_sm_in_ready(g->sm[i])) {
                    r = ws_icnt_pop_sm(g->icnt, i); /* NULL: not all arrived */
                } else {
                    const ws_mreq *h = ws_icnt_peek(g->icnt, i);
                    r = h && h->access == WS_MA_INST ? ws_icnt_pop_sm(g->icnt, i) : NULL;
                }
                if (r) {
                    if (g->hm) ws_hmem_reply(g->hm, r, now); /* per-node stats */
                    if (g->sm_idle[i] == SKIPPED) sm_unskip(g, i, now);
                    g->sm_idle[i] = 0;
                    /* in now (skip_ok: nothing reads the SM before its cycle), or taken in
                       by sm_cycle, on the SM's thread */
                    if (g->skip_ok) ws_sm_in_push(g->sm[i], r, now);
                    else g->out[i].arrived = r;
                }
            }
        }
        if (dom & DOM_ICNT) {
            replies_to_icnt(g, now);
            if (g->hm) ws_hmem_to_icnt(g->hm, g->icnt, g->flit, now);
        }
        /* the requests that the sub-partitions take from the interconnect
           (and the CPU's port) enter before the partitions' DRAM cycles, in
           which they take no part (the DRAM cycle touches other queues) */
        if (dom & DOM_L2) {
            /* every full sub-partition counts a stall (ws_mempart_full_count: as
               the last L2 cycle and texture pushes left them, which is what each
               one's turn below would see: a request entering one changes only
               its own); the others take the request that has reached them. The
               counts are published only by the L2 steps and by these pushes, so
               the sum taken in the serial L2 loop after the last pushes holds
               (full_sum; full_known: no other L2 step since) */
            if (!full_known) {
                full_sum = 0;
                for (uint32_t c = 0; c < g->n_chan; c++) full_sum += ws_mempart_full_count(g->part[c]);
            }
            g->stall_dramfull += full_sum;
            for (uint32_t w = 0; w < sub_words; w++)
            for (uint64_t m = ws_icnt_arrivals(g->icnt, false, w) & (w + 1 < sub_words ? ~0ull : sub_last);
                 m; m &= m - 1) {
                uint32_t s = 64 * w + (uint32_t)__builtin_ctzll(m);
                uint32_t k;
                ws_mempart *p = part_of(g, s, &k);
                if (ws_subpart_full(p, k)) continue;
                ws_mreq *r = ws_icnt_pop_sub(g->icnt, s); /* (node n_sms + s) */
                if (r && g->llc) ws_llc_ai_accepted(g->llc, r);
                if (r) ws_subpart_push(p, k, r, now);
            }
            if (g->hm) ws_hmem_from_icnt(g->hm, g->icnt, now);
            if (g->cpu) cpu_to_l2(g, now);
        }
        unit_phase ph = {g, l, now, dom & (DOM_DRAM | DOM_L2), 0, dram_owed,
                         !static_map && !clustered && next_cta < dispatch_end};
        dram_owed = 0;
        if (!(dom & DOM_CORE)) {
            if (dom & DOM_ICNT) ws_icnt_cycle(g->icnt);
            for (uint32_t i = 0; (ph.dom || ph.dram_owed) && i < g->n_chan; i++) mem_cycle(&ph, i);
            full_known = full_known && !(dom & DOM_L2);
            continue;
        }
        uint32_t n_mem = ph.dom || ph.dram_owed ? g->n_chan : 0;
        bool par = g->par_kernel && par_worthwhile(g);
        if (par && g->cfg.threads_adapt) par_adapt(g);
        bool progress = false, commit = true;
        if (par && !g->par_off) {
            ph.n_icnt = (dom & DOM_ICNT) != 0;
            ws_par_run_shares(g->par, g->par_bounds, unit_cycle, &ph);
            full_known = full_known && !(dom & DOM_L2); /* (the items' L2 steps) */
            if (ph.dispatching) { /* the SMs' cycles set their cta_room apart */
                g->cta_rooms = 0;
                for (uint32_t i = 0; i < g->n_sms; i++) g->cta_rooms += g->out[i].cta_room;
            }
            if (++g->par_runs % PAR_REBALANCE == 0) par_rebalance(g);
        } else {
            if (dom & DOM_ICNT) ws_icnt_cycle(g->icnt);
            if (now >= g->skip_next) unskip_due(g, now);
            commit = sms_cycle_serial(g, &ph, &progress);
            /* mem_cycle's steps, with its arguments held apart from ph (whose
               address the parallel branch hands out) */
            uint32_t n_dram = ph.dram_owed + ((dom & DOM_DRAM) != 0);
            /* (the pointers in locals: the inline steps store through a partition's,
               which as far as the compiler knows could be g's) */
            ws_mempart *const *part = g->part;
            if (dom & DOM_L2) { /* (the full counts as this loop leaves them: full_sum) */
                uint32_t fs = 0;
                for (uint32_t i = 0; i < n_mem; i++) {
                    ws_mempart *p = part[i];
                    ws_mempart_dram_cycles(p, now, n_dram);
                    ws_mempart_l2_cycle(p, now);
                    fs += ws_mempart_full_count(p);
                }
                full_sum = fs;
                full_known = true;
            } else {
                for (uint32_t i = 0; i < n_mem; i++) ws_mempart_dram_cycles(part[i], now, n_dram);
            }
        }
        if (commit) progress |= sms_commit(g, &rc, fault);
        if ((cycle & (POOL_EVERY - 1)) == 0) pools_even(g);
        if (cpu_llc) {
            bool cpu_active = g->cpu && cpu_cycle(g, now, next_cta < dispatch_end);
            if (g->llc) ws_llc_ai_cycle(g->llc, g->sm, cpu_active);
        }
        cycle++;
        if (rc != WS_OK) break;
        if (cycle >= check) { /* (the periodic steps before the dispatch: check_due) */
            if (g->hm_period && cycle % g->hm_period == 0) hm_sample(g, g->hm_period);
            if (cycle >= g->ctl_next) {
                unskip_all(g, now + 1);
                for (uint32_t i = 0; i < g->n_sms; i++) ws_sm_wake(g->sm[i]); /* decisions change */
                memset(g->sm_idle, 0, g->n_sms);
                ws_control_epoch(g->ctl, cycle, now);
                g->ctl_next = ws_control_next(g->ctl);
            }
        }
        /* dispatch: GPGPU-Sim's order (dispatch_rr), statically, or, for
           thread-block clusters, a whole cluster to one SM at a time */
        bool launch_wait = cycle < (uint64_t)g->cfg.kernel_launch_latency; /* no CTA yet */
        progress |= launch_wait;
        if (static_map && !launch_wait) {
            next_cta += dispatch_static(g, l, total_ctas, now);
            progress |= next_cta != static_before;
            static_before = next_cta;
        }
        if (!clustered && !static_map && !launch_wait && next_cta < dispatch_end) {
            uint64_t n = dispatch_rr(g, l, next_cta, dispatch_end, now);
            next_cta += n;
            progress |= n > 0;
        }
        /* thread-block clusters: the rotation starts after the SM that got the
           last one in an earlier cycle */
        const uint32_t rr_start = g->last_issue_sm + 1;
        for (uint32_t i = 0; clustered && i < g->n_sms && next_cta < dispatch_end && !static_map &&
                             !launch_wait;
             i++) {
            uint32_t idx = (rr_start + i) % g->n_sms;
            { /* a whole cluster on one SM, in one cycle */
                if (ws_sm_free_ctas(g->sm[idx]) < csize) continue;
                ws_cluster *cl = ws_cluster_create(l, next_cta / csize);
                for (uint32_t r = 0; r < csize && cl; r++, next_cta++) {
                    uint32_t id[3];
                    ws_launch_cta_of(l, next_cta, id);
                    ws_sm_take_cluster_cta(g->sm[idx], id, now, cl, r);
                    g->sm_idle[idx] = 0;
                }
                if (!cl) {
                    rc = fault->code = WS_ERR_OUT_OF_MEMORY;
                    snprintf(fault->msg, sizeof fault->msg, "out of host memory creating a cluster");
                    break;
                }
                ws_cluster_release(cl);
                g->last_issue_sm = idx;
                progress = true;
            }
        }
        if (rc != WS_OK) break;
        /* (while CTAs are left, the SMs' state is not read) */
        if (next_cta == dispatch_end && !sms_busy(g) && !memory_busy(g)) break;
        for (uint32_t i = 0; i < g->n_chan && !progress; i++)
            progress = ws_mempart_progressed(g->part[i]);
        if (!progress && ws_icnt_busy(g->icnt)) progress = true; /* flits in flight move */
        idle = progress ? 0 : idle + 1;
        if (cycle < check) continue;
        /* The checks of some cycles only (check_due); the sampling within the kernel reads
           only the SMs' counters and changes only dispatch_end, neither of which the
           progress test above reads: it goes first here. */
        if (watch_waves && (cycle & 63) == 0 && waves_converged(&k->ww, g, sm0, cycle))
            dispatch_end = next_cta, watch_waves = false; /* converged: drain, then the rest runs
                                                             functionally */
        if (deadlock && idle >= watchdog) {
            unskip_all(g, now + 1);
            take_all_pending(g, l);
            describe_stuck(g, k->name, cycle, idle, fault);
            rc = fault->code;
            break;
        }
        if (max_cycle && g->tot_cycles + cycle >= max_cycle) {
            out->capped = 1;
            break;
        }
        if (g->insn_cap && (cycle & 63) == 0 && insns_since(g, sm0) >= g->insn_cap) {
            out->capped = 1;
            break;
        }
        if (interval && cycle % interval == 0) {
            unskip_all(g, now + 1);
            take_all_pending(g, l); /* the sample counts their warps */
            sample(g, cycle, interval, &k->ts_prev);
        }
        if (hang && (cycle & 4095) == 0) {
            uint64_t p = hang_progress(g), wi = 0;
            for (uint32_t i = 0; i < g->n_sms; i++) wi += ws_sm_get_stats(g->sm[i])->warp_insts;
            if (p != hang_seen) {
                hang_seen = p;
                hang_from = cycle;
                hang_insts = wi;
            } else if (cycle - hang_from >= hang) {
                unskip_all(g, now + 1);
                take_all_pending(g, l);
                describe_hang(g, k->name, cycle - hang_from, wi - hang_insts, fault);
                rc = fault->code;
                break;
            }
        }
        if (g->progress_s > 0 && (cycle & 4095) == 0) {
            double t = wall_now();
            /* a terminal gets a live line; a log gets one line per period */
            if (t - t_shown >= (g->progress_tty ? 0.5 : g->progress_s)) {
                uint64_t done = 0;
                for (uint32_t i = 0; i < g->n_sms; i++)
                    done += ws_sm_get_stats(g->sm[i])->ctas_done - sm0[i].ctas_done;
                show_progress(g, k->name, cycle, insns_since(g, sm0), done, total_ctas,
                              t - t_start);
                t_shown = t;
                shown = true;
            }
        }
        check = check_due(g, cycle, idle, watch_waves, interval);
    }
    if (shown && g->progress_tty) fprintf(stderr, "\r%120s\r", "");
    unskip_all(g, g->tot_cycles + cycle); /* (every exit is after a core cycle's cycle++) */
    take_all_pending(g, l); /* a kernel stopped early (a cap, a fault) leaves none waiting */
    k->cycle = cycle;
    k->next_cta = next_cta;
    return rc;
}

/* After the loop: the kernel boundary in the units, the per-kernel files,
 * and the result's counts. */
static ws_status kernel_finish(ws_gpu *g, kernel_run *k, ws_status rc, ws_gpu_result *out,
                               ws_fault *fault) {
    const ws_launch_desc *l = k->l;
    uint64_t cycle = k->cycle;
    if (k->interval && cycle % k->interval) sample(g, cycle, cycle % k->interval, &k->ts_prev);
    /* kernel boundary in the memory system (L2 flush option, adaptive
       indexing's reset) */
    for (uint32_t i = 0; i < g->n_chan; i++) ws_mempart_kernel_done(g->part[i]);
    ws_control_kernel_end(g->ctl);
    if (rc == WS_OK && ws_l1bp_write_sms(&g->cfg, g->sm, g->n_sms, fault)) rc = fault->code;
    if (rc == WS_OK && ws_l1trace_write_sms(&g->cfg, g->sm, g->n_sms, g->kernel_uid, fault))
        rc = fault->code;
    if (rc == WS_OK && g->llc &&
        ws_llc_ai_write(g->llc, g->kernel_uid, fault->msg, sizeof fault->msg))
        rc = fault->code = WS_ERR_IO;
    const uint64_t *hits = NULL;
    size_t nhits = 0;
    bool have_hits = ws_llc_ai_hit_lines(g->llc, &hits, &nhits);
    if (rc == WS_OK && ws_analyze_write(&g->cfg, g->sm, g->n_sms, g->kernel_uid, l, hits, nhits,
                                        have_hits, ws_llc_ai_most_held(g->llc), fault))
        rc = fault->code;
    /* a dynamic placement also samples at the kernel's end */
    if (g->hm_period && cycle % g->hm_period) hm_sample(g, cycle % g->hm_period);
    out->cycles = out->detailed_cycles = cycle;
    out->ctas = k->next_cta;
    g->tot_cycles += cycle;
    for (uint32_t i = 0; i < g->n_sms; i++) {
        const ws_sm_stats *s = ws_sm_get_stats(g->sm[i]);
        out->warp_insts += s->warp_insts - k->sm0[i].warp_insts;
        out->thread_insts += s->thread_insts - k->sm0[i].thread_insts;
        out->thread_insts_exec += s->thread_insts_exec - k->sm0[i].thread_insts_exec;
    }
    const char *prof = g->cfg.hm_profile_out;
    if (rc == WS_OK && prof && *prof && write_profile(g, fault)) rc = fault->code;
    return rc;
}

ws_status ws_gpu_run_kernel(ws_gpu *g, const ws_launch_desc *l, const ws_kernel_res *res,
                            ws_gpu_result *out, ws_kernel_stats *ks, ws_fault *fault) {
    const ws_func *kf = &l->img->mod->funcs[l->func];
    memset(out, 0, sizeof *out);
    fault->code = WS_OK;
    fault->msg[0] = 0;
    g->stall_icnt2sh = g->stall_dramfull = 0;
    /* Per-kernel statistics are differences of the units' running totals. */
    /* (not cleared: every element is copied in below, before any exit) */
    ws_sm_stats *sm0 = malloc(g->n_sms * sizeof *sm0);
    ws_mempart_stats *mp0 = malloc(g->n_chan * sizeof *mp0);
    if (!sm0 || !mp0) {
        free(sm0);
        free(mp0);
        fault->code = WS_ERR_OUT_OF_MEMORY;
        snprintf(fault->msg, sizeof fault->msg, "out of host memory");
        return fault->code;
    }
    for (uint32_t i = 0; i < g->n_sms; i++) {
        ws_sm_start_kernel(g->sm[i], l, res);
        sm0[i] = *ws_sm_get_stats(g->sm[i]);
    }
    for (uint32_t i = 0; i < g->n_chan; i++) mp0[i] = *ws_mempart_get_stats(g->part[i]);
    const ws_icnt_stats ic0 = *ws_icnt_get_stats(g->icnt); /* running totals too */
    ws_control_kernel_start(g->ctl, kf->name, g->tot_cycles);
    if (g->llc) ws_llc_ai_kernel_start(g->llc);
    if (g->cpu) ws_cpucore_kernel_start(g->cpu);
    if (g->hm) {
        ws_hmem_kernel_start(g->hm);
        hm_sample_base(g);
    }
    g->ctl_next = ws_control_next(g->ctl);
    g->par_kernel = kernel_parallel(g, l);
    if (!ws_sm_can_take_cta(g->sm[0])) {
        free(sm0);
        free(mp0);
        fault->code = WS_ERR_INVALID_CONFIG;
        snprintf(fault->msg, sizeof fault->msg,
                 "kernel %s: one CTA (%u threads, %u registers/thread, %u B shared) does not fit "
                 "on an SM of this configuration",
                 kf->name, res->threads_per_cta, res->regs_per_thread, res->smem_per_cta);
        return fault->code;
    }
    /* cooperative grids and clusters: refused before the loop when they cannot be placed */
    uint64_t ktot = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    bool kstatic = g->cfg.static_cta_map || g->cfg.l1d_warp_reorder;
    uint32_t csize = ws_launch_cluster_size(l);
    if (l->grid_ws && ktot > (uint64_t)g->n_sms * ws_sm_max_ctas(g->sm[0])) {
        free(sm0);
        free(mp0);
        fault->code = WS_ERR_INVALID_CONFIG;
        snprintf(fault->msg, sizeof fault->msg,
                 "kernel %s: a cooperative grid of %llu CTAs does not fit on the GPU at once (%u SMs x %u CTAs; "
                 "cudaErrorCooperativeLaunchTooLarge)", kf->name, (unsigned long long)ktot, g->n_sms,
                 ws_sm_max_ctas(g->sm[0]));
        return fault->code;
    }
    if (l->cluster[0] && (kstatic || csize > ws_sm_max_ctas(g->sm[0]))) {
        free(sm0);
        free(mp0);
        fault->code = WS_ERR_INVALID_CONFIG;
        if (kstatic)
            snprintf(fault->msg, sizeof fault->msg,
                     "kernel %s: thread-block clusters cannot be placed by -warpsim_static_cta_map or "
                     "-l1d_warp_reorder, which place CTAs one by one", kf->name);
        else
            snprintf(fault->msg, sizeof fault->msg,
                     "kernel %s: a cluster of %u CTAs does not fit on one SM, where warpsim places a "
                     "cluster (%u CTAs of %u threads, %u registers/thread, %u B shared fit at once, "
                     "limited by %s)", kf->name, csize, ws_sm_max_ctas(g->sm[0]), res->threads_per_cta,
                     res->regs_per_thread, res->smem_per_cta, ws_sm_cta_limiter(g->sm[0]));
        return fault->code;
    }
    /* (field by field: the wave watch is large and cleared by its own set-up, so a
       zeroed initializer cleared it twice, 16 KiB a kernel) */
    kernel_run k;
    k.l = l;
    k.name = kf->name;
    k.sm0 = sm0;
    k.total_ctas = ktot;
    k.cycle = k.next_cta = 0;
    for (uint32_t i = 0; i < g->n_sms && g->cta_next; i++) g->cta_next[i] = i;
    k.watch_waves = ws_wave_watch_init(&k.ww, g->cfg.sample_ipc_tol, (uint32_t)g->cfg.sample_waves,
                                       (uint64_t)g->n_sms * ws_sm_max_ctas(g->sm[0]), k.total_ctas);
    k.interval = g->ts ? (uint64_t)g->cfg.stat_interval : 0;
    take_sums(g, &k.ts_prev);
    g->kernel_uid++;
    ws_status rc = kernel_loop(g, &k, out, fault);
    rc = kernel_finish(g, &k, rc, out, fault);
    /* the kernel's memory-system and energy stats are those of its detailed part */
    if (rc == WS_OK && ks && kernel_stats(g, res, out, ks, sm0, mp0, &ic0)) {
        fault->code = rc = WS_ERR_OUT_OF_MEMORY;
        snprintf(fault->msg, sizeof fault->msg, "out of host memory");
    }
    if (rc == WS_OK && !out->capped && k.next_cta < k.total_ctas)
        rc = ws_wave_finish(&k.ww, l, k.next_cta, out, fault);
    free(sm0);
    free(mp0);
    return rc;
}
