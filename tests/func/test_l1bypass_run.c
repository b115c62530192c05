/* Profile-based L1D bypassing end to end on micro/matmul: the profiling run
 * writes a list, the second run bypasses exactly the listed lines' loads
 * (still computing the right result), and neither option changes anything
 * when it is off. */
#include <stdlib.h>
#include <unistd.h>

#include "stats_util.h"
#include "test.h"

static double last(const char *rep, const char *name) {
    double v[256];
    size_t n = ws_test_stat(rep, 1, name, v, 256);
    CHECK_MSG(n > 0, "no %s", name);
    return n ? v[n < 256 ? n - 1 : 255] : -1;
}

TEST(l1bypass_profile_then_bypass_matmul) {
    char path[128], set1[200], set2[200];
    snprintf(path, sizeof path, "/tmp/warpsim-l1bp-run-%d.list", (int)getpid());
    snprintf(set1, sizeof set1, "-l1d_bypass_profile %s", path);
    snprintf(set2, sizeof set2, "-l1d_bypass_list %s", path);
    const char *s1[] = {set1, NULL}, *s2[] = {set2, NULL};
    const char *nol1[] = {"-gpgpu_gmem_skip_L1D 1", NULL};
    char *log = NULL;
    char *base = ws_test_timing_report("micro/matmul", NULL, NULL, &log);
    free(log);
    char *prof = ws_test_timing_report_set("micro/matmul", NULL, s1, NULL, &log);
    free(log);
    char *byp = ws_test_timing_report_set("micro/matmul", NULL, s2, NULL, &log);
    free(log);
    char *none = ws_test_timing_report_set("micro/matmul", NULL, nol1, NULL, &log);
    free(log);
    char *text = ws_test_read_file(path, NULL);
    CHECK(text != NULL);
    if (base && prof && byp && none && text) {
        /* profiling observes: the same timing */
        CHECK(last(base, "gpu_tot_sim_cycle") == last(prof, "gpu_tot_sim_cycle"));
        CHECK(last(base, "warpsim_gmem_load_bytes") == last(prof, "warpsim_gmem_load_bytes"));
        CHECK(last(base, "warpsim_l1d_list_bypasses") == 0);
        CHECK_STR_CONTAINS(text, "warpsim-l1d-bypass 1\n");
        CHECK_STR_CONTAINS(text, "\nsm 14 ");
        /* the bypassing run moved sectors past the L1D, which saw fewer accesses */
        double nb = last(byp, "warpsim_l1d_list_bypasses");
        CHECK(nb > 0);
        CHECK(last(byp, "L1D_total_cache_accesses") < last(base, "L1D_total_cache_accesses"));
        /* global-load traffic: 128 B per fill with the L1D, sectors without */
        CHECK(last(none, "L1D_total_cache_accesses") == 0);
        CHECK(last(byp, "warpsim_gmem_load_bytes") < last(base, "warpsim_gmem_load_bytes"));
    }
    free(base);
    free(prof);
    free(byp);
    free(none);
    free(text);
    char csv[160];
    snprintf(csv, sizeof csv, "%s.reuse.csv", path);
    CHECK(access(csv, R_OK) == 0);
    unlink(csv);
    unlink(path);
}

TEST(l1bypass_bad_options_refused_before_the_run) {
    const char *bad[][2] = {
        {"-l1d_bypass_list /nonexistent-list", "/nonexistent-list"},
        {"-l1d_bypass_profile /nonexistent-dir/list", "cannot write"},
        {"-l1d_bypass_unit words", "allowed: bytes, sectors"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ws_device_options o;
        ws_device_options_init(&o);
        o.functional_only = 0;
        const char *sets[] = {bad[i][0], NULL};
        o.config_overrides = sets;
        ws_device *d = NULL;
        ws_test_stderr c;
        ws_test_stderr_begin(&c);
        ws_status s = ws_device_create(&o, &d);
        char *msg = ws_test_stderr_end(&c);
        CHECK_MSG(s != WS_OK, "%s accepted", bad[i][0]);
        const char *why = d ? ws_device_last_error(d) : msg;
        CHECK_STR_CONTAINS(why ? why : "", bad[i][1]);
        ws_device_destroy(d);
        free(msg);
    }
}
