/* The WCET bound against the simulator: under pure round-robin scheduling
 * (one scheduler, one instruction per warp per turn, static block mapping)
 * the max/max bound of every analyzable kernel is at least the simulated
 * cycles, with normal memory (L_base: the kernel's longest measured memory
 * latency) and with perfect memory. Kernels with loops and barriers
 * included. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats_util.h"
#include "test.h"

static void check_safe(const char *workload, int perfect) {
    char path[128], set[200], pm[64];
    snprintf(path, sizeof path, "/tmp/warpsim-wcet-%d.txt", (int)getpid());
    snprintf(set, sizeof set, "-warpsim_analyze %s", path);
    snprintf(pm, sizeof pm, "-warpsim_perfect_memory %d", perfect);
    const char *sets[] = {set, pm, "-gpgpu_scheduler prr", "-gpgpu_num_sched_per_core 1",
                          "-gpgpu_max_insn_issue_per_warp 1", "-warpsim_static_cta_map 1", NULL};
    char *log = NULL;
    char *rep = ws_test_timing_report_set(workload, NULL, sets, NULL, &log);
    free(log);
    char *an = ws_test_read_file(path, NULL);
    unlink(path);
    double cyc[256];
    size_t nk = rep ? ws_test_stat(rep, 1, "gpu_sim_cycle", cyc, 256) : 0;
    CHECK_MSG(an && nk > 0, "%s: no analysis or report", workload);
    unsigned checked = 0;
    for (const char *p = an; p && *p && nk;) {
        unsigned long long k, mm;
        if (sscanf(p, "kernel %llu", &k) == 1) {
            const char *w = strstr(p, "\nwcet l_base");
            const char *nextk = strstr(p + 1, "\nkernel ");
            if (w && (!nextk || w < nextk)) {
                const char *m = strstr(w, "max_max ");
                CHECK(m && sscanf(m, "max_max %llu", &mm) == 1);
                if (m && k >= 1 && k <= nk && k <= 256) {
                    CHECK_MSG((double)mm >= cyc[k - 1], "%s kernel %llu (perfect %d): bound %llu < "
                              "simulated %.0f", workload, k, perfect, mm, cyc[k - 1]);
                    checked++;
                }
            }
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    CHECK_MSG(checked > 0, "%s: no analyzable kernel", workload);
    free(rep);
    free(an);
}

TEST(wcet_max_max_bound_is_safe_matmul) { check_safe("micro/matmul", 0); }
TEST(wcet_max_max_bound_is_safe_lud_barriers) { check_safe("rodinia/lud", 0); }
TEST(wcet_max_max_bound_is_safe_nw) { check_safe("rodinia/nw", 0); }
TEST(wcet_max_max_bound_is_safe_srad_perfect_memory) { check_safe("rodinia/srad", 1); }
TEST(wcet_max_max_bound_is_safe_vectoradd_perfect_memory) { check_safe("micro/vectoradd", 1); }
