/* Program-scope statistics: GPGPU-Sim's cache, DRAM, interconnect and stall
 * counters are cumulative over the program, their per-kernel values are
 * NAME_kernel, and ratios come from summed counts (text and JSON). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "stats/report.h"
#include "stats_util.h"
#include "test.h"
#include "timing/gpu.h"
#include "workload.h"

enum { MAXK = 64 };

/* For one scope's reader (text or JSON): every cumulative value is the sum of
   the per-kernel values so far, every cumulative ratio the ratio of the sums. */
typedef size_t (*reader)(const char *, const char *, double *, size_t);

static void check_program_scope(const char *what, const char *src, reader get, int text,
                                size_t kernels) {
    size_t n;
    const ws_stat_decl *decl = ws_gpu_program_stats(&n);
    double kv[MAXK], cv[MAXK], num[MAXK], den[MAXK];
    char kname[80];
    for (size_t i = 0; i < n; i++) {
        const ws_stat_decl *d = &decl[i];
        if (d->hidden) continue;
        const char *cname = text && d->text ? d->text : d->name;
        snprintf(kname, sizeof kname, "%s%s", d->name, WS_STAT_KERNEL_SUFFIX);
        CHECK_MSG(get(src, kname, kv, MAXK) == kernels, "%s: %s per kernel", what, kname);
        CHECK_MSG(get(src, cname, cv, MAXK) == kernels, "%s: %s per kernel", what, cname);
        if (d->agg == WS_AGG_RATIO) {
            /* counts of the same scope */
            const ws_stat_decl *dn = &decl[d->num], *dd = &decl[d->den];
            if (dn->hidden || dd->hidden) continue; /* dram_bw_util: its counts are not reported */
            get(src, text && dn->text ? dn->text : dn->name, num, MAXK);
            get(src, text && dd->text ? dd->text : dd->name, den, MAXK);
            double want = den[kernels - 1] ? num[kernels - 1] / den[kernels - 1] : 0;
            /* text rounds to 4 places; JSON carries the double exactly */
            CHECK_MSG(fabs(cv[kernels - 1] - want) <= (text ? 5e-5 : 0),
                      "%s: %s = %.6f, sums give %.6f", what, cname, cv[kernels - 1], want);
            continue;
        }
        /* a count sums over the kernels, a peak takes the largest */
        double sum = 0;
        for (size_t k = 0; k < kernels; k++) {
            sum = d->agg == WS_AGG_MAX ? (kv[k] > sum ? kv[k] : sum) : sum + kv[k];
            CHECK_MSG(cv[k] == sum, "%s: kernel %zu: %s = %.0f, %s of %s = %.0f", what, k + 1,
                      cname, cv[k], d->agg == WS_AGG_MAX ? "max" : "sum", kname, sum);
        }
    }
}

TEST(stats_program_scope_cumulative_multi_kernel) {
    char dir[] = "/tmp/warpsim-stats-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *log = NULL;
    char *rep = ws_test_timing_report("rodinia/bfs", NULL, dir, &log);
    char path[256];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    char *json = ws_test_read_file(path, NULL);
    CHECK(json != NULL);
    double v[MAXK];
    size_t kernels = ws_test_text_stat(rep, "kernel_name", v, MAXK);
    CHECK_MSG(kernels > 2 && kernels <= MAXK, "%zu kernels", kernels);
    if (json && kernels > 2 && kernels <= MAXK) {
        check_program_scope("text", rep, ws_test_text_stat, 1, kernels);
        check_program_scope("json", json, ws_test_json_stat, 0, kernels);
        /* the case: the whole-run miss rate is total misses / total
           accesses, not a mean of the kernels' rates */
        double acc[MAXK], miss[MAXK], rate[MAXK], krate[MAXK];
        ws_test_json_stat(json, "L1D_total_cache_accesses_kernel", acc, MAXK);
        ws_test_json_stat(json, "L1D_total_cache_misses_kernel", miss, MAXK);
        ws_test_json_stat(json, "L1D_total_cache_miss_rate", rate, MAXK);
        ws_test_json_stat(json, "L1D_total_cache_miss_rate_kernel", krate, MAXK);
        double sa = 0, sm = 0;
        for (size_t k = 0; k < kernels; k++) sa += acc[k], sm += miss[k];
        CHECK(sa > 0);
        CHECK_MSG(rate[kernels - 1] == sm / sa, "L1D_total_cache_miss_rate %.6f, sums %.6f",
                  rate[kernels - 1], sm / sa);
        CHECK(krate[kernels - 1] != rate[kernels - 1]); /* the last kernel alone differs */
    }
    /* GPGPU-Sim's own spellings */
    CHECK_STR_CONTAINS(rep, "\ntotal dram reads = ");
    CHECK_STR_CONTAINS(rep, "\ntotal dram writes = ");
    CHECK_STR_CONTAINS(rep, "\ngpu_stall_icnt2sh    = ");
    CHECK(!strstr(rep, "\ntotal_dram_reads = "));
    free(json);
    free(rep);
    free(log);
    unlink(path);
    rmdir(dir);
}

/* The aggregation kinds, the hidden counts behind a ratio, the text spelling
   and the order (all per-kernel values first, then the totals). */
TEST(stats_add_program_aggregates) {
    static const ws_stat_decl decl[] = {
        {"a_count", .text = "a count"},
        {"a_peak", .agg = WS_AGG_MAX},
        {"a_state", .agg = WS_AGG_LAST},
        {"hits", .hidden = 1},
        {"a_rate", .agg = WS_AGG_RATIO, .num = 3, .den = 0},
    };
    uint64_t tot[5] = {0};
    const uint64_t k1[5] = {10, 7, 1, 5, 0}, k2[5] = {30, 3, 2, 3, 0};
    ws_kernel_stats s;
    ws_kstats_init(&s);
    CHECK(ws_kstats_add_program(&s, decl, 5, k1, tot) == 0);
    ws_kstats_free(&s);
    ws_kstats_init(&s);
    CHECK(ws_kstats_add_program(&s, decl, 5, k2, tot) == 0);
    CHECK_EQ_U64(s.nextra, 8);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ws_report_text(f, &s);
    fclose(f);
    CHECK_STR_CONTAINS(buf, "a_count_kernel = 30\na_peak_kernel = 3\na_state_kernel = 2\n"
                            "a_rate_kernel = 0.1000\n"
                            "a count = 40\na_peak = 7\na_state = 2\na_rate = 0.2000\n");
    CHECK(!strstr(buf, "hits"));
    char *j = NULL;
    size_t jl = 0, jc = 0;
    CHECK(ws_report_json(&s, &j, &jl, &jc) == 0);
    CHECK_STR_CONTAINS(j, "\"a_count_kernel\": 30, ");
    CHECK_STR_CONTAINS(j, "\"a_count\": 40, ");
    CHECK_STR_CONTAINS(j, "\"a_rate\": 0.20000000000000001");
    free(j);
    free(buf);
    ws_kstats_free(&s);
}
