/* Activity-based energy model, in the spirit of GPUWattch (Leng et al.,
 * ISCA 2013) but far simpler: each counted event costs a fixed energy, and
 * static power runs for the simulated time. The timing model counts the
 * events (ws_sm_stats, ws_mempart_stats, ws_icnt_stats); this file turns a
 * kernel's counts into energy, a breakdown and power. Every coefficient is
 * an option (-energy_*), so users can recalibrate; the defaults and where
 * they come from are in options.def and docs/energy.md. Pure functions, no
 * state: the same counts always give the same energy. */
#ifndef WARPSIM_STATS_ENERGY_H
#define WARPSIM_STATS_ENERGY_H

#include <stdint.h>

#include "config/config.h"
#include "stats/report.h"

/* Coefficients: pJ per event, W for static power. */
typedef struct ws_energy_params {
    double rf_read_pj, rf_write_pj;                 /* per 32-bit operand per lane */
    double int_pj, fp_pj, dp_pj, sfu_pj, ldst_pj;   /* per lane */
    double inst_pj;                                 /* per warp instruction */
    double l1i_pj, l1d_pj, shmem_pj, const_pj;      /* per access */
    double sm_cycle_pj;                             /* per SM-cycle with work */
    double l2_pj, icnt_flit_pj;
    double dram_act_pj, dram_rd_pj, dram_wr_pj;     /* per command */
    double sm_static_w, idle_core_w, l2_static_w, dram_static_w, const_w;
} ws_energy_params;

/* One kernel's activity, summed over the GPU. */
typedef struct ws_energy_activity {
    uint64_t warp_insts, l1i_accesses;
    uint64_t rf_reads, rf_writes;
    uint64_t lanes_int, lanes_fp, lanes_dp, lanes_sfu, lanes_mem;
    uint64_t l1d_accesses, shmem_accesses, const_accesses; /* shmem: incl. conflict replays */
    uint64_t sm_active_cycles;   /* sum over SMs of core cycles with a resident CTA */
    uint64_t l2_accesses, icnt_flits;
    uint64_t dram_act, dram_rd, dram_wr;
    uint64_t cycles;             /* core cycles of the kernel */
    double core_mhz;
    uint32_t n_sms;
} ws_energy_activity;

/* The result, in nJ (power in W). total = dynamic + idle_core + static_. */
typedef struct ws_energy {
    double fetch, rf, fu, l1d, shmem, constc, pipe, l2, icnt, dram; /* dynamic parts */
    double dynamic, idle_core, static_, total;
    double time_s, avg_power_w;
    double insn_per_nj;          /* set by ws_energy_report: thread instructions per nJ */
} ws_energy;

/* The energy stats (offsets into ws_energy) and the activity behind them
 * (offsets into ws_energy_activity). */
extern const ws_stat_table ws_energy_stat_table, ws_energy_activity_table;

void ws_energy_params_from_config(ws_energy_params *p, const ws_config *c);
void ws_energy_compute(const ws_energy_params *p, const ws_energy_activity *a, ws_energy *e);
/* Append energy_* stats, avg_power_W and energy_efficiency_insn_per_nJ
 * (insn = thread instructions, gpu_sim_insn). Returns 0, or -1 when out of
 * memory. */
int ws_energy_report(ws_kernel_stats *ks, const ws_energy *e, uint64_t insn);

#endif
