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

int ws_energy_report(ws_kernel_stats *ks, const ws_energy *e, uint64_t insn) {
    static const struct { const char *name; size_t off; } parts[] = {
        {"energy_dynamic_fetch_nJ", offsetof(ws_energy, fetch)},
        {"energy_dynamic_rf_nJ", offsetof(ws_energy, rf)},
        {"energy_dynamic_fu_nJ", offsetof(ws_energy, fu)},
        {"energy_dynamic_l1d_nJ", offsetof(ws_energy, l1d)},
        {"energy_dynamic_shmem_nJ", offsetof(ws_energy, shmem)},
        {"energy_dynamic_const_nJ", offsetof(ws_energy, constc)},
        {"energy_dynamic_pipe_nJ", offsetof(ws_energy, pipe)},
        {"energy_dynamic_l2_nJ", offsetof(ws_energy, l2)},
        {"energy_dynamic_icnt_nJ", offsetof(ws_energy, icnt)},
        {"energy_dynamic_dram_nJ", offsetof(ws_energy, dram)},
        {"energy_dynamic_nJ", offsetof(ws_energy, dynamic)},
        {"energy_idle_core_nJ", offsetof(ws_energy, idle_core)},
        {"energy_static_nJ", offsetof(ws_energy, static_)},
    };
    int rc = ws_kstats_add_f64(ks, "energy_total_nJ", e->total);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        rc |= ws_kstats_add_f64(ks, parts[i].name, *(const double *)((const char *)e + parts[i].off));
    rc |= ws_kstats_add_f64(ks, "avg_power_W", e->avg_power_w);
    /* seed 003's efficiency is 1 / normalised energy for the same work: the
       ratio of this number between two runs of one program */
    rc |= ws_kstats_add_f64(ks, "energy_efficiency_insn_per_nJ",
                            e->total > 0 ? (double)insn / e->total : 0.0);
    return rc ? -1 : 0;
}
