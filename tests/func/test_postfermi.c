/* GPGPU-Sim 4's post-Fermi options, end to end: the kernel launch latency
 * (-gpgpu_kernel_launch_latency), the fetch throughput
 * (-gpgpu_inst_fetch_throughput), the perfect instruction and constant
 * caches (-gpgpu_perfect_inst_const_cache), the collector's steps per cycle
 * and the unified L1D/shared array; and GPGPU-Sim's CTA dispatch order. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "workload.h"

typedef struct {
    uint64_t cycles, insts, kernels;
} totals;

/* report: if not NULL, receives the text report (free it) */
static totals run_r(const char *workload, const char *preset, const char *const *over,
                    char **report) {
    totals t = {0, 0, 0};
    size_t rlen = 0;
    FILE *rf = report ? open_memstream(report, &rlen) : NULL;
    const ws_workload *w = ws_workload_find(workload);
    CHECK_MSG(w != NULL, "no workload %s", workload);
    if (!w) return t;
    FILE *lf = fopen("/dev/null", "w");
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.report = rf ? rf : lf;
    o.preset = preset;
    o.config_overrides = over;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    if (d) {
        CHECK(ws_workload_run(w, d, WS_INPUT_SMALL, lf) == WS_WL_PASS);
        ws_run_totals rt;
        ws_device_totals(d, &rt);
        t.cycles = rt.cycles, t.insts = rt.thread_insts, t.kernels = rt.kernels;
    }
    ws_device_destroy(d);
    fclose(lf);
    if (rf) fclose(rf);
    return t;
}
static totals run(const char *workload, const char *preset, const char *const *over) {
    return run_r(workload, preset, over, NULL);
}

/* Each launch waits the latency before its first CTA: the kernels' cycles grow
 * by latency x kernels. Not to the cycle: the memory system ticks on during the
 * wait (a later kernel finds the earlier one's writes drained), warpsim keeps
 * the run's time stamps (LRU ages) across kernels, and the round-robin
 * arbiters meet the first CTAs at another phase (2% here). */
TEST(postfermi_kernel_launch_latency_adds_cycles_per_kernel) {
    const char *lat0[] = {"-gpgpu_n_clusters 4", NULL};
    const char *lat[] = {"-gpgpu_n_clusters 4", "-gpgpu_kernel_launch_latency 3000", NULL};
    totals a = run("micro/reduce", "gtx480", lat0), b = run("micro/reduce", "gtx480", lat);
    CHECK(a.kernels >= 1);
    CHECK_EQ_U64(b.insts, a.insts);
    uint64_t want = a.cycles + 3000 * a.kernels;
    CHECK_MSG(b.cycles + want / 50 >= want && b.cycles <= want + want / 50,
              "%llu cycles with the latency, %llu without, %llu kernels",
              (unsigned long long)b.cycles, (unsigned long long)a.cycles,
              (unsigned long long)a.kernels);
    CHECK(b.cycles >= a.cycles + 2800 * a.kernels);
}

/* Four fetch-and-decode rounds per cycle feed the qv100's four schedulers
 * faster than one: fewer cycles, the same instructions. */
TEST(postfermi_inst_fetch_throughput_feeds_four_schedulers) {
    const char *one[] = {"-gpgpu_n_clusters 1", "-gpgpu_kernel_launch_latency 0",
                         "-gpgpu_inst_fetch_throughput 1", NULL};
    const char *four[] = {"-gpgpu_n_clusters 1", "-gpgpu_kernel_launch_latency 0",
                          "-gpgpu_inst_fetch_throughput 4", NULL};
    totals a = run("micro/reduce", "qv100", one), b = run("micro/reduce", "qv100", four);
    CHECK_EQ_U64(b.insts, a.insts);
    CHECK_MSG(b.cycles < a.cycles, "fetch 1: %llu cycles, fetch 4: %llu",
              (unsigned long long)a.cycles, (unsigned long long)b.cycles);
}

/* Perfect instruction and constant caches: fetches and constant/parameter
 * loads hit at once and leave no L1I/L1C accesses (GPGPU-Sim prints none);
 * the same instructions run, no slower. */
TEST(postfermi_perfect_inst_const_cache_hits_without_accesses) {
    const char *real[] = {"-gpgpu_n_clusters 4", NULL};
    const char *perfect[] = {"-gpgpu_n_clusters 4", "-gpgpu_perfect_inst_const_cache 1", NULL};
    char *ra = NULL, *rb = NULL;
    totals a = run_r("micro/reduce", "gtx480", real, &ra);
    totals b = run_r("micro/reduce", "gtx480", perfect, &rb);
    CHECK_EQ_U64(b.insts, a.insts);
    CHECK(b.cycles < a.cycles);
    CHECK(ra && !strstr(ra, "\nL1I_total_cache_accesses = 0\n"));
    CHECK(ra && !strstr(ra, "\nL1C_total_cache_accesses = 0\n"));
    CHECK(rb && strstr(rb, "\nL1I_total_cache_accesses = 0\n"));
    CHECK(rb && strstr(rb, "\nL1C_total_cache_accesses = 0\n"));
    free(ra);
    free(rb);
}

/* A sectored L1D (the qv100's) counts each 32-byte sector access, as GPGPU-Sim
 * does: vectoradd's 65536 x 2 loads and 65536 stores of 4 bytes are 16384 +
 * 8192 sector accesses, all misses (GPGPU-Sim 4.2 on SM7_QV100: 24576). */
TEST(postfermi_sectored_l1d_counts_sector_accesses) {
    const char *over[] = {"-gpgpu_n_clusters 8", "-gpgpu_kernel_launch_latency 0", NULL};
    char *rep = NULL;
    run_r("micro/vectoradd", "qv100", over, &rep);
    CHECK(rep && strstr(rep, "\nL1D_total_cache_accesses = 24576\n"));
    CHECK(rep && strstr(rep, "\nL1D_total_cache_misses = 24576\n"));
    free(rep);
}

/* -gpgpu_l1_banks 4: a coalesced 128-byte access's four sectors enter their four
 * banks' queues in one cycle instead of four: a streaming kernel takes fewer
 * cycles, with the same accesses (with the qv100's GPGPU-Sim 4 collector, whose
 * faster issue meets the memory system's limits first, not necessarily: the
 * per-class collector isolates the banks). Bank counts that are not powers of
 * two, and banks with MRPB's reordering queue, are refused before the run. */
TEST(postfermi_l1_banks_take_one_access_each_per_cycle) {
#define OLD_OC                                                                                     \
    "-gpgpu_sub_core_model 0", "-gpgpu_enable_specialized_operand_collector 1",                    \
        "-gpgpu_reg_file_port_throughput 1"
    const char *one[] = {"-gpgpu_n_clusters 8", "-gpgpu_kernel_launch_latency 0",
                         "-gpgpu_l1_banks 1", OLD_OC, NULL};
    const char *four[] = {"-gpgpu_n_clusters 8", "-gpgpu_kernel_launch_latency 0",
                          "-gpgpu_l1_banks 4", OLD_OC, NULL};
#undef OLD_OC
    char *ra = NULL, *rb = NULL;
    totals a = run_r("micro/vectoradd", "qv100", one, &ra);
    totals b = run_r("micro/vectoradd", "qv100", four, &rb);
    CHECK_EQ_U64(b.insts, a.insts);
    CHECK_MSG(b.cycles < a.cycles, "1 bank: %llu cycles, 4 banks: %llu",
              (unsigned long long)a.cycles, (unsigned long long)b.cycles);
    CHECK(ra && strstr(ra, "\nL1D_total_cache_accesses = 24576\n"));
    CHECK(rb && strstr(rb, "\nL1D_total_cache_accesses = 24576\n"));
    free(ra);
    free(rb);
    static const char *const bad[][3] = {{"-gpgpu_l1_banks 3", NULL, "power of two"},
                                         {"-gpgpu_l1_banks 2", "-l1d_reorder mrpb", "mrpb"}};
    for (int i = 0; i < 2; i++) {
        const char *over[] = {bad[i][0], bad[i][1], NULL};
        ws_device_options o;
        ws_device_options_init(&o);
        o.functional_only = 0;
        o.config_overrides = over;
        ws_device *d = NULL;
        CHECK(ws_device_create(&o, &d) == WS_ERR_CONFIG);
        CHECK(d == NULL);
    }
}

/* The last value of "NAME = N" in a report, the run's total (UINT64_MAX:
   absent). */
static uint64_t stat_of(const char *rep, const char *name) {
    char key[128];
    snprintf(key, sizeof key, "\n%s = ", name);
    const char *last = NULL;
    for (const char *p = rep; p && (p = strstr(p, key)); p++) last = p;
    return last ? strtoull(last + strlen(key), NULL, 10) : UINT64_MAX;
}

/* GPGPU-Sim's CTA dispatch: each core cluster takes one CTA a cycle, its
 * cores in turn. 256 CTAs on 200 clusters of 2 cores: the first 200 go to
 * core 0 of every cluster (SMs 0, 2, ..., 398), the other 56 to core 1 of
 * clusters 0-55 (SMs 1, 3, ..., 111); SMs 113 and 399 get none. */
TEST(postfermi_cta_dispatch_one_per_cluster_per_cycle) {
    const char *over[] = {"-gpgpu_n_clusters 200", "-gpgpu_n_cores_per_cluster 2", NULL};
    char *rep = NULL;
    run_r("micro/vectoradd", "gtx480", over, &rep);
    static const struct { unsigned sm; int used; } want[] = {
        {0, 1}, {1, 1}, {111, 1}, {112, 1}, {113, 0}, {398, 1}, {399, 0}};
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        char key[64];
        snprintf(key, sizeof key, "\nL1D_cache_core[%u]: Access = 0,", want[i].sm);
        CHECK_MSG(rep && (strstr(rep, key) == NULL) == want[i].used, "SM %u: %s", want[i].sm,
                  want[i].used ? "no accesses" : "accesses");
    }
    free(rep);
}

/* The unified L1D/shared array: bfs (no shared memory) gets the whole 128 KB
 * on the qv100 instead of the 32 KB of its -gpgpu_cache:dl1 geometry: the
 * same accesses, fewer misses. A carve-out list that does not ascend is
 * refused before the run. */
TEST(postfermi_adaptive_cache_config_gives_the_l1d_the_unified_array) {
    const char *off[] = {"-gpgpu_n_clusters 4", "-gpgpu_kernel_launch_latency 0",
                         "-gpgpu_adaptive_cache_config 0", NULL};
    const char *on[] = {"-gpgpu_n_clusters 4", "-gpgpu_kernel_launch_latency 0",
                        "-gpgpu_adaptive_cache_config 1", NULL};
    char *ra = NULL, *rb = NULL;
    run_r("micro/bfs", "qv100", off, &ra);
    run_r("micro/bfs", "qv100", on, &rb);
    uint64_t acc_a = stat_of(ra, "L1D_total_cache_accesses"), acc_b = stat_of(rb, "L1D_total_cache_accesses");
    uint64_t miss_a = stat_of(ra, "L1D_total_cache_misses"), miss_b = stat_of(rb, "L1D_total_cache_misses");
    CHECK(acc_a != UINT64_MAX && acc_a == acc_b);
    CHECK_MSG(miss_b < miss_a, "L1D misses: 32 KB %llu, unified 128 KB %llu",
              (unsigned long long)miss_a, (unsigned long long)miss_b);
    free(ra);
    free(rb);
    const char *bad[] = {"-gpgpu_shmem_option 8,0", NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.preset = "qv100";
    o.config_overrides = bad;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_ERR_CONFIG);
    CHECK(d == NULL);
}

/* GPGPU-Sim 4 runs its operand collector -gpgpu_reg_file_port_throughput
 * times a cycle: twice (the qv100's) collects operands faster than once. */
TEST(postfermi_reg_file_port_throughput_speeds_collection) {
    const char *one[] = {"-gpgpu_n_clusters 1", "-gpgpu_kernel_launch_latency 0",
                         "-gpgpu_reg_file_port_throughput 1", NULL};
    const char *two[] = {"-gpgpu_n_clusters 1", "-gpgpu_kernel_launch_latency 0",
                         "-gpgpu_reg_file_port_throughput 2", NULL};
    totals a = run("micro/matmul", "qv100", one), b = run("micro/matmul", "qv100", two);
    CHECK_EQ_U64(b.insts, a.insts);
    CHECK_MSG(b.cycles < a.cycles, "1 step: %llu cycles, 2 steps: %llu",
              (unsigned long long)a.cycles, (unsigned long long)b.cycles);
}

/* sdk/mcpi writes each thread's 24-byte state with six 4-byte stores: every
 * store writes part of each sector, and the qv100's lazily fetching L2 makes
 * a sector readable once its parts add up to 32 bytes (GPGPU-Sim's byte mask).
 * The second kernel's reads of the states then all hit, as in GPGPU-Sim 4.2
 * (7498 L2 misses, all writes; warpsim had 14986). */
TEST(postfermi_partial_writes_add_up_in_the_l2) {
    const char *over[] = {"-gpgpu_n_clusters 4", "-gpgpu_kernel_launch_latency 0", NULL};
    char *rep = NULL;
    run_r("sdk/mcpi", "qv100", over, &rep);
    CHECK(stat_of(rep, "L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT]") > 0);
    CHECK_EQ_U64(stat_of(rep, "L2_cache_stats_breakdown[GLOBAL_ACC_R][MISS]"), 0);
    CHECK_EQ_U64(stat_of(rep, "L2_cache_stats_breakdown[GLOBAL_ACC_R][SECTOR_MISS]"), 0);
    free(rep);
}
