/* Heterogeneous memory end to end, on bundled workloads under the gtx480-hm
 * preset: with every page in GPU memory the run is the single-node run; a
 * bandwidth-bound workload gains from spreading its pages over both nodes
 * (bap) and a cache- and latency-bound one loses (the two directions of the
 * placement chapter); CPU pages are served uncached at the node's latency;
 * a profiling run's file drives blpp. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy/page/page.h"
#include "stats_util.h"
#include "test.h"

static double stat1(const char *rep, const char *name) {
    double v[64];
    size_t n = ws_test_text_stat(rep, name, v, 64);
    double s = 0;
    for (size_t i = 0; i < n && i < 64; i++) s += v[i];
    CHECK_MSG(n > 0, "no %s in the report", name);
    return s;
}

static char *run(const char *wl, const char *preset, const char *const *sets) {
    char *log = NULL;
    char *rep = ws_test_timing_report_set(wl, preset, sets, NULL, &log);
    free(log);
    return rep;
}

/* The report without the option echo, host-dependent lines and hm_ stats. */
static void strip(char *rep) {
    char *w = rep;
    for (char *line = rep; line && *line;) {
        char *eol = strchr(line, '\n');
        size_t l = eol ? (size_t)(eol - line + 1) : strlen(line);
        if (*line != '-' && strncmp(line, "hm_", 3) && strncmp(line, "gpu_sim_wall_time", 17) &&
            strncmp(line, "gpu_total_sim_rate", 18))
            memmove(w, line, l), w += l;
        line = eol ? eol + 1 : NULL;
    }
    *w = 0;
}

TEST(hm_local_placement_is_the_single_node_run) {
    const char *on[] = {"-hm_enable 1", NULL};
    char *a = run("micro/vectoradd", NULL, NULL), *b = run("micro/vectoradd", NULL, on);
    CHECK(a && b && strstr(b, "\nhm_gpu_pages = 192") && !strstr(a, "\nhm_gpu_pages"));
    if (a && b) {
        strip(a);
        strip(b);
        CHECK_MSG(!strcmp(a, b), "hm_enable 1 with local placement changed the report");
    }
    free(a);
    free(b);
}

TEST(hm_bap_helps_bandwidth_bound_and_hurts_latency_bound) {
    /* CPU memory at 160 GB/s (a large share): bap puts 200/360 of the pages in GPU memory */
    const char *local[] = {"-hm_cpu_channel_bw 40", "-hm_link_bw 320", NULL};
    const char *bap[] = {"-hm_cpu_channel_bw 40", "-hm_link_bw 320", "-hm_page_policy bap", NULL};
    char *a = run("micro/vectoradd", "gtx480-hm", local), *b = run("micro/vectoradd", "gtx480-hm", bap);
    double la = stat1(a, "gpu_sim_cycle"), lb = stat1(b, "gpu_sim_cycle");
    CHECK_MSG(lb < 0.9 * la, "vectoradd (bandwidth-bound): bap %.0f vs local %.0f cycles", lb, la);
    CHECK(stat1(b, "hm_cpu_accesses") > 0);
    free(a);
    free(b);
    /* 2D convolution: a low L1D miss rate; CPU pages are not cached, so bap loses */
    a = run("polybench/conv2d", "gtx480-hm", local);
    b = run("polybench/conv2d", "gtx480-hm", bap);
    la = stat1(a, "gpu_sim_cycle"), lb = stat1(b, "gpu_sim_cycle");
    CHECK_MSG(lb > 1.2 * la, "conv2d (cache/latency-bound): bap %.0f vs local %.0f cycles", lb, la);
    free(a);
    free(b);
}

TEST(hm_cpu_pages_are_uncached_and_slow) {
    const char *cpu[] = {"-hm_page_policy static:0", NULL};
    char *r = run("micro/vectoradd", "gtx480-hm", cpu);
    /* every global access went to CPU memory: no L1D data traffic, none in the L2 */
    CHECK(stat1(r, "hm_cpu_accesses") >= 6144);
    CHECK(stat1(r, "hm_gpu_pages") == 0);
    CHECK(stat1(r, "Total_core_cache_stats_breakdown_GLOBAL_ACC_R_HIT_kernel") == 0);
    CHECK(stat1(r, "L2_cache_stats_breakdown_GLOBAL_ACC_R_MISS_kernel") == 0);
    /* at least the configured link + memory latency (100 + 350) */
    CHECK(stat1(r, "hm_cpu_avg_latency") >= 450);
    double bytes = stat1(r, "hm_cpu_bytes");
    CHECK(bytes >= 3 * 65536 * 4);
    free(r);
}

TEST(hm_profile_run_drives_blpp) {
    char path[] = "/tmp/warpsim-hm-profile-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    char set[200];
    snprintf(set, sizeof set, "-hm_profile_out %s", path);
    const char *prof[] = {set, NULL};
    free(run("micro/vectoradd", "gtx480-hm", prof));
    ws_page_counters c = {0};
    char err[300];
    CHECK_MSG(ws_page_profile_read(path, &c, err, sizeof err) == 0, "%s", err);
    CHECK(c.l1d_miss_rate > 0.5 && c.bm_gbps > 10);
    /* a high threshold on traffic: vectoradd is not bandwidth-bound enough, all GPU */
    snprintf(set, sizeof set, "-hm_profile %s", path);
    const char *blpp[] = {set, "-hm_page_policy blpp:theta_b=100000", NULL};
    char *r = run("micro/vectoradd", "gtx480-hm", blpp);
    CHECK(stat1(r, "hm_gpu_page_ratio") == 1.0 && stat1(r, "hm_cpu_pages") == 0);
    free(r);
    /* no traffic threshold: the bandwidth ratio */
    const char *blpp0[] = {set, "-hm_page_policy blpp:theta_b=0:theta_l=100", NULL};
    r = run("micro/vectoradd", "gtx480-hm", blpp0);
    CHECK(stat1(r, "hm_gpu_page_ratio") < 0.72 && stat1(r, "hm_cpu_pages") > 0);
    free(r);
    remove(path);
}
