/* Access-interval throttling of the shared LLC end to end: kernels with
 * loops and barriers (lud) complete and check their output with quota 1 and
 * 2 (no deadlock); the recorded trace has every SM's accesses and the
 * throttling costs cycles but changes no result. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats_util.h"
#include "test.h"

static double last(const char *rep, const char *name) {
    double v[256];
    size_t n = ws_test_stat(rep, 1, name, v, 256);
    return n ? v[n < 256 ? n - 1 : 255] : -1;
}

TEST(llc_access_interval_runs_to_completion) {
    char path[128], set[200];
    snprintf(path, sizeof path, "/tmp/warpsim-llc-%d.trace", (int)getpid());
    snprintf(set, sizeof set, "-llc_access_trace %s", path);
    char *log = NULL;
    char *base = ws_test_timing_report("rodinia/lud", NULL, NULL, &log);
    free(log);
    for (int q = 1; q <= 2; q++) {
        char qs[64];
        snprintf(qs, sizeof qs, "-llc_access_interval %d", q);
        const char *sets[] = {qs, set, NULL};
        char *rep = ws_test_timing_report_set("rodinia/lud", NULL, sets, NULL, &log);
        free(log);
        CHECK(rep && base && last(rep, "gpu_tot_sim_cycle") >= last(base, "gpu_tot_sim_cycle"));
        CHECK(rep && base && last(rep, "gpu_tot_sim_insn") == last(base, "gpu_tot_sim_insn"));
        free(rep);
        char *tr = ws_test_read_file(path, NULL);
        CHECK(tr && !strncmp(tr, "1 ", 2) && strstr(tr, " 0xf0000000 ")); /* the first fetch */
        free(tr);
    }
    free(base);
    unlink(path);
}
