/* Activity-based energy model (see energy.h; defaults and sources in
 * options.def and docs/energy.md). */
#include "stats/energy.h"

#include <stddef.h>

void ws_energy_params_from_config(ws_energy_params *p, const ws_config *c) {
    p->rf_read_pj = c->energy_rf_read_pj;
    p->rf_write_pj = c->energy_rf_write_pj;
    p->int_pj = c->energy_int_pj;
    p->fp_pj = c->energy_fp_pj;
    p->dp_pj = c->energy_dp_pj;
    p->sfu_pj = c->energy_sfu_pj;
    p->ldst_pj = c->energy_ldst_pj;
    p->inst_pj = c->energy_inst_pj;
    p->l1i_pj = c->energy_l1i_pj;
    p->l1d_pj = c->energy_l1d_pj;
    p->shmem_pj = c->energy_shmem_pj;
    p->const_pj = c->energy_const_pj;
    p->sm_cycle_pj = c->energy_sm_cycle_pj;
    p->l2_pj = c->energy_l2_pj;
    p->icnt_flit_pj = c->energy_icnt_flit_pj;
    p->dram_act_pj = c->energy_dram_act_pj;
    p->dram_rd_pj = c->energy_dram_rd_pj;
    p->dram_wr_pj = c->energy_dram_wr_pj;
    p->sm_static_w = c->energy_sm_static_w;
    p->idle_core_w = c->energy_idle_core_w;
    p->l2_static_w = c->energy_l2_static_w;
    p->dram_static_w = c->energy_dram_static_w;
    p->const_w = c->energy_const_w;
}

/* count x pJ, in nJ */
static double nj(uint64_t n, double pj) { return (double)n * pj * 1e-3; }

void ws_energy_compute(const ws_energy_params *p, const ws_energy_activity *a, ws_energy *e) {
    e->fetch = nj(a->warp_insts, p->inst_pj) + nj(a->l1i_accesses, p->l1i_pj);
    e->rf = nj(a->rf_reads, p->rf_read_pj) + nj(a->rf_writes, p->rf_write_pj);
    e->fu = nj(a->lanes_int, p->int_pj) + nj(a->lanes_fp, p->fp_pj) + nj(a->lanes_dp, p->dp_pj) +
            nj(a->lanes_sfu, p->sfu_pj) + nj(a->lanes_mem, p->ldst_pj);
    e->l1d = nj(a->l1d_accesses, p->l1d_pj);
    e->shmem = nj(a->shmem_accesses, p->shmem_pj);
    e->constc = nj(a->const_accesses, p->const_pj);
    e->pipe = nj(a->sm_active_cycles, p->sm_cycle_pj);
    e->l2 = nj(a->l2_accesses, p->l2_pj);
    e->icnt = nj(a->icnt_flits, p->icnt_flit_pj);
    e->dram = nj(a->dram_act, p->dram_act_pj) + nj(a->dram_rd, p->dram_rd_pj) +
              nj(a->dram_wr, p->dram_wr_pj);
    e->dynamic = e->fetch + e->rf + e->fu + e->l1d + e->shmem + e->constc + e->pipe + e->l2 +
                 e->icnt + e->dram;
    e->time_s = a->core_mhz > 0 ? (double)a->cycles / (a->core_mhz * 1e6) : 0.0;
    /* SMs without a CTA burn idle-core power (GPUWattch's idle core term),
       the rest of the chip and the DRAM leak for the whole kernel */
    double sm_cycles = (double)a->cycles * (double)a->n_sms;
    double idle_cycles = sm_cycles > (double)a->sm_active_cycles
                             ? sm_cycles - (double)a->sm_active_cycles : 0.0;
    double core_s = a->core_mhz > 0 ? 1.0 / (a->core_mhz * 1e6) : 0.0;
    e->idle_core = p->idle_core_w * idle_cycles * core_s * 1e9;
    double static_w = p->sm_static_w * a->n_sms + p->l2_static_w + p->dram_static_w + p->const_w;
    e->static_ = static_w * e->time_s * 1e9;
    e->total = e->dynamic + e->idle_core + e->static_;
    e->avg_power_w = e->time_s > 0 ? e->total * 1e-9 / e->time_s : 0.0;
}

#define EU(f, nm, u, d, ...)                                                                  \
    {nm, .unit = u, .desc = d, .src = WS_SRC_F64, .off = offsetof(ws_energy, f), __VA_ARGS__}
#define E(f, nm, d) EU(f, nm, "nJ", d)
#define DYN(f, what) E(f, "energy_dynamic_" #f "_nJ", "dynamic energy: " what)
static const ws_stat_decl energy_stats[] = {
    E(total, "energy_total_nJ", "energy of this kernel: dynamic + idle core + static"),
    DYN(fetch, "instruction fetch (L1I) and decode/schedule per warp instruction"),
    DYN(rf, "register file reads and writes"),
    DYN(fu, "functional units, per lane"),
    DYN(l1d, "L1 data cache accesses"),
    DYN(shmem, "shared memory accesses and bank-conflict replays"),
    E(constc, "energy_dynamic_const_nJ", "dynamic energy: constant cache accesses"),
    DYN(pipe, "clock tree and pipeline of SMs with work"),
    DYN(l2, "L2 accesses"),
    DYN(icnt, "interconnect flits"),
    DYN(dram, "DRAM activates, reads and writes"),
    E(dynamic, "energy_dynamic_nJ", "sum of the dynamic parts"),
    E(idle_core, "energy_idle_core_nJ", "extra power of SMs without a CTA over the kernel"),
    E(static_, "energy_static_nJ", "leakage and constant power over the kernel"),
    EU(avg_power_w, "avg_power_W", "W", "energy_total_nJ over the simulated time", .agg = WS_AGG_RATIO, .num_name = "energy_total_nJ", .den_name = "gpu_sim_time_us",
      .scale = 1e-3),
    /* seed 003's efficiency is 1 / normalised energy for the same work: the
       ratio of this number between two runs of one program */
    EU(insn_per_nj, "energy_efficiency_insn_per_nJ", "instructions/nJ",
      "thread instructions (gpu_sim_insn) per nJ", .agg = WS_AGG_RATIO, .num_name = "gpu_sim_insn",
      .den_name = "energy_total_nJ"),
};
#undef DYN
#undef E
#undef EU
const ws_stat_table ws_energy_stat_table = {"energy model", energy_stats,
                                            sizeof energy_stats / sizeof energy_stats[0]};

#define A(f, nm, u, d)                                                                        \
    {nm, .unit = u, .desc = d, .src = WS_SRC_U64, .off = offsetof(ws_energy_activity, f)}
static const ws_stat_decl activity_stats[] = {
    A(rf_reads, "warpsim_rf_reads", "operands", "register operands read, per lane"),
    A(rf_writes, "warpsim_rf_writes", "operands", "register results written, per lane"),
    A(lanes_int, "warpsim_thread_insts_int", "instructions", "integer/logic thread instructions"),
    A(lanes_fp, "warpsim_thread_insts_fp", "instructions", "single-precision thread instructions"),
    A(lanes_dp, "warpsim_thread_insts_dp", "instructions", "double-precision thread instructions"),
    A(lanes_sfu, "warpsim_thread_insts_sfu", "instructions", "SFU thread instructions"),
    A(lanes_mem, "warpsim_thread_insts_mem", "instructions", "memory thread instructions"),
    A(icnt_flits, "warpsim_icnt_flits", "flits", "interconnect flits, both directions"),
    A(sm_active_cycles, "warpsim_sm_active_cycles", "SM-cycles", "SM cycles with a resident CTA, "
      "summed over SMs"),
};
#undef A
const ws_stat_table ws_energy_activity_table = {"energy model's activity (for recalibration)",
                                                activity_stats,
                                                sizeof activity_stats / sizeof activity_stats[0]};

int ws_energy_report(ws_kernel_stats *ks, const ws_energy *e, uint64_t insn) {
    ws_energy v = *e;
    v.insn_per_nj = e->total > 0 ? (double)insn / e->total : 0.0;
    return ws_kstats_add_table(ks, &ws_energy_stat_table, &v);
}
