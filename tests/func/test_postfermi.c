/* GPGPU-Sim 4's post-Fermi options, end to end: the kernel launch latency
 * (-gpgpu_kernel_launch_latency) and the fetch throughput
 * (-gpgpu_inst_fetch_throughput). */
#include <stdlib.h>

#include "test.h"
#include "workload.h"

typedef struct {
    uint64_t cycles, insts, kernels;
} totals;

static totals run(const char *workload, const char *preset, const char *const *over) {
    totals t = {0, 0, 0};
    const ws_workload *w = ws_workload_find(workload);
    CHECK_MSG(w != NULL, "no workload %s", workload);
    if (!w) return t;
    FILE *lf = fopen("/dev/null", "w");
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.report = lf;
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
    return t;
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
