/* The cache-aware WCET bound (Sec. 6.5) against the simulator with a CPU
 * core streaming into the shared LLC and access-interval throttling (quota
 * 2): under pure round robin with static block mapping, the max/max bound
 * of every analyzable kernel is at least the simulated cycles, and, less
 * the SM's profiled time held for intervals, never above the bound that
 * charges every access the kernel's longest latency.
 * Kernels with loops and barriers (lud) included. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats_util.h"
#include "test.h"

static unsigned long long field(const char *line, const char *name) {
    const char *p = strstr(line, name);
    unsigned long long v = 0;
    if (!p || sscanf(p + strlen(name), " %llu", &v) != 1) return 0;
    return v;
}

static void check(const char *workload, unsigned *hits) {
    char path[128], set[200];
    snprintf(path, sizeof path, "/tmp/warpsim-wcetllc-%d.txt", (int)getpid());
    snprintf(set, sizeof set, "-warpsim_analyze %s", path);
    const char *sets[] = {set, "-gpgpu_scheduler prr", "-gpgpu_num_sched_per_core 1",
                          "-gpgpu_max_insn_issue_per_warp 1", "-warpsim_static_cta_map 1",
                          "-cpu_llc_source random", "-cpu_llc_rate 0.1",
                          "-cpu_llc_footprint 1048576", "-llc_access_interval 2", NULL};
    char *log = NULL;
    char *rep = ws_test_timing_report_set(workload, NULL, sets, NULL, &log);
    free(log);
    char *an = ws_test_read_file(path, NULL);
    unlink(path);
    double cyc[512];
    size_t nk = rep ? ws_test_stat(rep, 1, "gpu_sim_cycle", cyc, 512) : 0;
    CHECK_MSG(an && nk > 0, "%s: no analysis or report", workload);
    unsigned checked = 0;
    unsigned long long k = 0, plain = 0;
    for (char *p = an; p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        if (!strncmp(p, "kernel ", 7)) k = field(p, "kernel"), plain = 0;
        if (!strncmp(p, "wcet l_base", 11)) plain = field(p, "max_max");
        if (!strncmp(p, "wcet_llc method access_interval", 31) && k >= 1 && k <= nk && k <= 512) {
            unsigned long long mm = field(p, "max_max");
            CHECK_MSG((double)mm >= cyc[k - 1], "%s kernel %llu: cache-aware bound %llu < "
                      "simulated %.0f", workload, k, mm, cyc[k - 1]);
            /* its latencies are never above L_base; only the held time is added */
            unsigned long long held = field(p, "held");
            CHECK_MSG(plain && mm - held <= plain, "%s kernel %llu: cache-aware %llu - held %llu "
                      "above %llu", workload, k, mm, held, plain);
            *hits += field(p, "hit_accesses") > 0;
            checked++;
        }
        p = nl ? nl + 1 : NULL;
    }
    CHECK_MSG(checked > 0, "%s: no cache-aware bound", workload);
    free(rep);
    free(an);
}

TEST(wcet_llc_bound_is_safe_with_cpu_traffic) {
    unsigned hits = 0;
    check("rodinia/lud", &hits);
    check("rodinia/srad", &hits);
    check("rodinia/nw", &hits);
    CHECK_MSG(hits > 0, "no kernel had a sure LLC hit");
}
