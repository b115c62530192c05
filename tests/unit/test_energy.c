/* The energy model: its arithmetic on hand-made activity, its options, its
 * report lines, and an end-to-end timing run that must report a positive,
 * plausible energy without changing the timing. */
#include <stddef.h>
#include <stdlib.h>

#include "stats/energy.h"
#include "test.h"
#include "workload.h"

static int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-9; }

static void defaults(ws_energy_params *p) {
    ws_config c;
    ws_config_init(&c);
    ws_energy_params_from_config(p, &c);
    ws_config_free(&c);
}

/* 10 us of a 15-SM GPU at 700 MHz, every SM busy throughout. */
static ws_energy_activity busy_idle(void) {
    return (ws_energy_activity){.cycles = 7000, .core_mhz = 700.0, .n_sms = 15,
                                .sm_active_cycles = 15 * 7000};
}

TEST(energy_defaults_are_gtx480_class) {
    ws_energy_params p;
    defaults(&p);
    CHECK(close_to(p.idle_core_w, 1.59)); /* GPUWattch's GTX480 idle_core_power */
    const double *v = &p.rf_read_pj;
    for (size_t i = 0; i < sizeof p / sizeof *v; i++) CHECK_MSG(v[i] > 0, "coefficient %zu is 0", i);
}

TEST(energy_zero_activity_is_static_only) {
    ws_energy_params p;
    defaults(&p);
    ws_energy_activity a = busy_idle();
    a.sm_active_cycles = 0; /* no SM has a CTA */
    ws_energy e;
    /* without the idle-core term, only static power remains */
    ws_energy_params q = p;
    q.idle_core_w = 0;
    ws_energy_compute(&q, &a, &e);
    CHECK(e.dynamic == 0 && e.fetch == 0 && e.dram == 0 && e.pipe == 0);
    CHECK(e.idle_core == 0);
    double w = 15 * p.sm_static_w + p.l2_static_w + p.dram_static_w + p.const_w;
    CHECK(close_to(e.time_s, 1e-5));
    CHECK_MSG(close_to(e.static_, w * 1e-5 * 1e9), "static %g nJ, want %g", e.static_, w * 1e4);
    CHECK(close_to(e.total, e.static_));
    CHECK(close_to(e.avg_power_w, w));
    /* by default each idle SM adds the idle-core power (GPUWattch) */
    ws_energy_compute(&p, &a, &e);
    CHECK(e.dynamic == 0);
    CHECK(close_to(e.idle_core, 15 * p.idle_core_w * 1e-5 * 1e9));
    CHECK(close_to(e.avg_power_w, w + 15 * p.idle_core_w));
    /* no time, no energy, and no division by zero */
    a.cycles = 0;
    ws_energy_compute(&p, &a, &e);
    CHECK(e.total == 0 && e.avg_power_w == 0);
}

/* Every event counter: doubling its count doubles its dynamic energy. */
TEST(energy_doubling_an_event_doubles_its_part) {
    static const size_t events[] = {
        offsetof(ws_energy_activity, warp_insts),     offsetof(ws_energy_activity, l1i_accesses),
        offsetof(ws_energy_activity, rf_reads),       offsetof(ws_energy_activity, rf_writes),
        offsetof(ws_energy_activity, lanes_int),      offsetof(ws_energy_activity, lanes_fp),
        offsetof(ws_energy_activity, lanes_dp),       offsetof(ws_energy_activity, lanes_sfu),
        offsetof(ws_energy_activity, lanes_mem),      offsetof(ws_energy_activity, l1d_accesses),
        offsetof(ws_energy_activity, shmem_accesses), offsetof(ws_energy_activity, const_accesses),
        offsetof(ws_energy_activity, l2_accesses),    offsetof(ws_energy_activity, icnt_flits),
        offsetof(ws_energy_activity, dram_act),       offsetof(ws_energy_activity, dram_rd),
        offsetof(ws_energy_activity, dram_wr),
    };
    ws_energy_params p;
    defaults(&p);
    for (size_t i = 0; i < sizeof events / sizeof *events; i++) {
        ws_energy_activity a = busy_idle();
        a.rf_reads = 5000; /* some other activity that must stay put */
        uint64_t *f = (uint64_t *)((char *)&a + events[i]);
        uint64_t base = *f;
        ws_energy e0, e1, e2;
        ws_energy_compute(&p, &a, &e0);
        *f = base + 1000;
        ws_energy_compute(&p, &a, &e1);
        *f = base + 2000;
        ws_energy_compute(&p, &a, &e2);
        double d1 = e1.dynamic - e0.dynamic, d2 = e2.dynamic - e0.dynamic;
        CHECK_MSG(d1 > 0, "event %zu costs nothing", i);
        CHECK_MSG(close_to(d2, 2 * d1), "event %zu: %g nJ for 2000, %g for 1000", i, d2, d1);
        CHECK_MSG(close_to(e2.static_, e0.static_), "event %zu changed static energy", i);
        CHECK(close_to(e2.total - e0.total, d2));
    }
    /* SM-cycles with work: the pipeline part doubles, and idle-core energy
       falls by the same SM-cycles' worth */
    ws_energy_activity a = busy_idle();
    a.sm_active_cycles = 1000;
    ws_energy e1, e2;
    ws_energy_compute(&p, &a, &e1);
    a.sm_active_cycles = 2000;
    ws_energy_compute(&p, &a, &e2);
    CHECK(e1.pipe > 0 && close_to(e2.pipe, 2 * e1.pipe));
    CHECK(close_to(e1.idle_core - e2.idle_core, p.idle_core_w * 1000 / 700e6 * 1e9));
    /* the parts add up */
    CHECK(close_to(e2.dynamic, e2.fetch + e2.rf + e2.fu + e2.l1d + e2.shmem + e2.constc + e2.pipe +
                                   e2.l2 + e2.icnt + e2.dram));
}

TEST(energy_options_change_results) {
    ws_config c;
    ws_config_init(&c);
    char err[256];
    ws_energy_params p0, p1;
    ws_energy_params_from_config(&p0, &c);
    CHECK(ws_config_set(&c, "-energy_rf_read_pj", "24", err, sizeof err) == 0);
    CHECK(ws_config_set(&c, "-energy_const_w", "0", err, sizeof err) == 0);
    CHECK(ws_config_set(&c, "-energy_dram_rd_pj", "-1", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "energy_dram_rd_pj");
    ws_energy_params_from_config(&p1, &c);
    ws_config_free(&c);
    ws_energy_activity a = busy_idle();
    a.rf_reads = 1000;
    a.dram_rd = 10;
    ws_energy e0, e1;
    ws_energy_compute(&p0, &a, &e0);
    ws_energy_compute(&p1, &a, &e1);
    CHECK(close_to(e1.rf, 2 * e0.rf) && close_to(e1.rf, 24.0)); /* 1000 x 24 pJ = 24 nJ */
    CHECK(close_to(e1.dram, e0.dram));
    CHECK(close_to(e0.static_ - e1.static_, p0.const_w * 1e-5 * 1e9));
}

static double stat_f(const ws_kernel_stats *ks, const char *name) {
    for (size_t i = 0; i < ks->nextra; i++)
        if (!strcmp(ks->extra[i].name, name))
            return ks->extra[i].is_float ? ks->extra[i].f : (double)ks->extra[i].u;
    return NAN;
}

TEST(energy_report_names_and_efficiency) {
    ws_energy_params p;
    defaults(&p);
    ws_energy_activity a = busy_idle();
    a.warp_insts = 100;
    a.lanes_fp = 3200;
    ws_energy e;
    ws_energy_compute(&p, &a, &e);
    ws_kernel_stats ks;
    ws_kstats_init(&ks);
    CHECK(ws_energy_report(&ks, &e, 3200) == 0);
    CHECK(close_to(stat_f(&ks, "energy_total_nJ"), e.total));
    CHECK(close_to(stat_f(&ks, "energy_static_nJ"), e.static_));
    CHECK(close_to(stat_f(&ks, "energy_dynamic_fu_nJ"), 3200 * p.fp_pj * 1e-3));
    CHECK(close_to(stat_f(&ks, "avg_power_W"), e.avg_power_w));
    CHECK(close_to(stat_f(&ks, "energy_efficiency_insn_per_nJ"), 3200 / e.total));
    CHECK(!isnan(stat_f(&ks, "energy_idle_core_nJ")) && !isnan(stat_f(&ks, "energy_dynamic_dram_nJ")));
    ws_kstats_free(&ks);
}

/* Sum a stat over the run's kernels in a text report. */
static double sum_stat(const char *rep, const char *name) {
    double s = 0;
    size_t n = strlen(name);
    for (const char *p = rep; p && *p;) {
        if (!strncmp(p, name, n) && !strncmp(p + n, " = ", 3)) s += strtod(p + n + 3, NULL);
        p = strchr(p, '\n');
        if (p) p++;
    }
    return s;
}

static char *run_timing(const char *workload, const char *const *over) {
    char *rep = NULL;
    size_t len = 0;
    FILE *rf = open_memstream(&rep, &len), *lf = fopen("/dev/null", "w");
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.report = rf;
    o.config_overrides = over;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    if (d) CHECK(ws_workload_run(ws_workload_find(workload), d, WS_INPUT_SMALL, lf) == WS_WL_PASS);
    ws_device_destroy(d);
    fclose(rf);
    fclose(lf);
    return rep;
}

TEST(energy_timing_run_is_plausible) {
    char *rep = run_timing("micro/vectoradd", NULL);
    double total = sum_stat(rep, "energy_total_nJ"), power = sum_stat(rep, "avg_power_W");
    CHECK_MSG(total > 0, "energy_total_nJ %g", total);
    CHECK_MSG(power > 10 && power < 300, "avg_power_W %g outside 10..300 W", power);
    static const char *parts[] = {"fetch", "rf", "fu", "l1d", "shmem", "const", "pipe", "l2", "icnt",
                                  "dram"};
    double dyn = 0;
    char name[64];
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        snprintf(name, sizeof name, "energy_dynamic_%s_nJ", parts[i]);
        dyn += sum_stat(rep, name);
    }
    CHECK(fabs(dyn - sum_stat(rep, "energy_dynamic_nJ")) < 0.01);
    CHECK(fabs(dyn + sum_stat(rep, "energy_idle_core_nJ") + sum_stat(rep, "energy_static_nJ") - total) <
          0.01);
    /* vectoradd streams through DRAM and does FP adds */
    CHECK(sum_stat(rep, "energy_dynamic_dram_nJ") > 0 && sum_stat(rep, "energy_dynamic_rf_nJ") > 0);
    CHECK(sum_stat(rep, "warpsim_thread_insts_fp") > 0 && sum_stat(rep, "warpsim_icnt_flits") > 0);
    /* every executed thread instruction went through exactly one unit class */
    double lanes = sum_stat(rep, "warpsim_thread_insts_int") + sum_stat(rep, "warpsim_thread_insts_fp") +
                   sum_stat(rep, "warpsim_thread_insts_dp") + sum_stat(rep, "warpsim_thread_insts_sfu") +
                   sum_stat(rep, "warpsim_thread_insts_mem");
    CHECK_MSG(lanes == sum_stat(rep, "gpu_sim_insn"), "unit lanes %g, gpu_sim_insn %g", lanes,
              sum_stat(rep, "gpu_sim_insn"));
    CHECK_MSG(fabs(total / sum_stat(rep, "gpu_sim_insn") -
                   1 / sum_stat(rep, "energy_efficiency_insn_per_nJ")) < 1e-3 * total,
              "efficiency is not insn per nJ");

    /* energy options change energy, never timing */
    const char *over[] = {"-energy_const_w 0", "-energy_dram_rd_pj 0", NULL};
    char *rep2 = run_timing("micro/vectoradd", over);
    CHECK(sum_stat(rep2, "gpu_sim_cycle") == sum_stat(rep, "gpu_sim_cycle"));
    CHECK(sum_stat(rep2, "energy_total_nJ") < total);
    CHECK(fabs(power - sum_stat(rep2, "avg_power_W")) > 30);
    free(rep);
    free(rep2);
}

/* Double-precision work counts as DP wherever it runs. */
TEST(energy_dp_workload_counts_dp_lanes) {
    char *rep = run_timing("micro/dpsolve", NULL);
    CHECK(sum_stat(rep, "warpsim_thread_insts_dp") > 0);
    CHECK(sum_stat(rep, "energy_dynamic_fu_nJ") > 0 && sum_stat(rep, "energy_total_nJ") > 0);
    free(rep);
}
