/* GPGPU-Sim 4's post-Fermi options, end to end: the kernel launch latency
 * (-gpgpu_kernel_launch_latency), the fetch throughput
 * (-gpgpu_inst_fetch_throughput) and the perfect instruction and constant
 * caches (-gpgpu_perfect_inst_const_cache). */
#include <stdlib.h>

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
 * wait (a later kernel finds the earlier one's writes drained), and warpsim
 * keeps the run's time stamps (LRU ages) across kernels. */
TEST(postfermi_kernel_launch_latency_adds_cycles_per_kernel) {
    const char *lat0[] = {"-gpgpu_n_clusters 4", NULL};
    const char *lat[] = {"-gpgpu_n_clusters 4", "-gpgpu_kernel_launch_latency 3000", NULL};
    totals a = run("micro/reduce", "gtx480", lat0), b = run("micro/reduce", "gtx480", lat);
    CHECK(a.kernels >= 1);
    CHECK_EQ_U64(b.insts, a.insts);
    uint64_t want = a.cycles + 3000 * a.kernels;
    CHECK_MSG(b.cycles + want / 100 >= want && b.cycles <= want + want / 100,
              "%llu cycles with the latency, %llu without, %llu kernels",
              (unsigned long long)b.cycles, (unsigned long long)a.cycles,
              (unsigned long long)a.kernels);
    CHECK(b.cycles >= a.cycles + 2900 * a.kernels);
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
 * cycles, with the same accesses. Bank counts that are not powers of two, and
 * banks with MRPB's reordering queue, are refused before the run. */
TEST(postfermi_l1_banks_take_one_access_each_per_cycle) {
    const char *one[] = {"-gpgpu_n_clusters 8", "-gpgpu_kernel_launch_latency 0",
                         "-gpgpu_l1_banks 1", NULL};
    const char *four[] = {"-gpgpu_n_clusters 8", "-gpgpu_kernel_launch_latency 0",
                          "-gpgpu_l1_banks 4", NULL};
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
