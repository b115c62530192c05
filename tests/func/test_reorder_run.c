/* Warp-based load/store reordering end to end: each SM's L1D access
 * sequence (-l1d_access_trace) is identical when DRAM latency, interconnect
 * delay and the warp scheduler change, on kernels with loops and barriers;
 * without reordering the same perturbation changes it. Every run completes
 * and checks its output (no deadlock). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats_util.h"
#include "test.h"

/* The trace of one run with the extra settings (NULL-terminated). */
static char *trace(const char *workload, bool reorder, const char *extra) {
    char path[128], set[200];
    snprintf(path, sizeof path, "/tmp/warpsim-ro-%d.trace", (int)getpid());
    snprintf(set, sizeof set, "-l1d_access_trace %s", path);
    const char *sets[] = {set, reorder ? "-l1d_warp_reorder 1" : "-warpsim_static_cta_map 1",
                          extra, NULL};
    char *log = NULL;
    free(ws_test_timing_report_set(workload, NULL, sets, NULL, &log));
    free(log);
    char *t = ws_test_read_file(path, NULL);
    unlink(path);
    CHECK_MSG(t && *t, "%s: no trace", workload);
    return t;
}

static void same_under_perturbation(const char *workload) {
    static const char *const perturb[] = {
        "-dram_latency 400", "-routing_delay 6", "-gpgpu_scheduler lrr", "-gpgpu_l2_rop_latency 7",
    };
    char *base = trace(workload, true, NULL);
    for (size_t i = 0; i < sizeof perturb / sizeof perturb[0]; i++) {
        char *t = trace(workload, true, perturb[i]);
        CHECK_MSG(base && t && !strcmp(base, t), "%s: the L1D sequence changed with %s", workload,
                  perturb[i]);
        free(t);
    }
    free(base);
}

TEST(reorder_l1d_sequence_fixed_matmul) { same_under_perturbation("micro/matmul"); }
TEST(reorder_l1d_sequence_fixed_hotspot_barriers) { same_under_perturbation("rodinia/hotspot"); }

TEST(reorder_without_it_the_sequence_moves) {
    /* the same static CTA mapping, no reordering: the scheduler changes it */
    char *a = trace("micro/matmul", false, NULL), *b = trace("micro/matmul", false,
                                                             "-gpgpu_scheduler lrr");
    CHECK(a && b && strcmp(a, b) != 0);
    free(a);
    free(b);
}
