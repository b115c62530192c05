/* Golden statistics of the timing model: the bundled micro workloads (small
 * inputs) under the gtx480 preset, and vectoradd / matmul under gtx480-v4,
 * must reproduce the committed numbers in tests/golden/ exactly. A timing
 * change shows up here and is accepted on purpose by regenerating them:
 *     WARPSIM_UPDATE_GOLDEN=1 make test T=golden
 * (then review `git diff tests/golden` and explain it in the commit). */
#include <stdlib.h>
#include <unistd.h>

#include "stats_util.h"
#include "test.h"
#include "workload.h"
#include "tmpdir.h"

/* The run's totals: the last kernel's value of each cumulative stat, by its
 * catalog name, read from the text report under GPGPU-Sim's spelling (the
 * golden files write spaces as '_', which gives the catalog name).
 * Program-scope ones must also equal the sum of their per-kernel values
 * (NAME_kernel). */
static const char *const g_stats[] = {
    "gpu_tot_sim_cycle", "gpu_tot_sim_insn", "gpgpu_n_tot_w_icount",
    "L1D_total_cache_accesses", "L1D_total_cache_misses", "L1D_total_cache_pending_hits",
    "L1D_fail_LINE_ALLOC_FAIL", "L1D_fail_MSHR_ENTRY_FAIL", "L1D_fail_MSHR_MERGE_FAIL",
    "L1D_fail_MISS_QUEUE_FULL", "L1I_total_cache_misses", "L1C_total_cache_misses",
    "L2_total_cache_accesses", "L2_total_cache_misses", "total_dram_reads", "total_dram_writes",
    "gpu_stall_dramfull", "gpu_stall_icnt2sh", "icnt_total_packets_req",
    NULL,
};

enum { MAXK = 64 };

/* Parse the text report: "name = value" lines. */
static void collect(const char *report, unsigned long long *vals) {
    double v[MAXK], kv[MAXK];
    char kname[80];
    for (int i = 0; g_stats[i]; i++) {
        size_t k = ws_test_stat(report, 1, g_stats[i], v, MAXK);
        CHECK_MSG(k > 0 && k <= MAXK, "%s: %zu values", g_stats[i], k);
        vals[i] = k > 0 && k <= MAXK ? (unsigned long long)v[k - 1] : 0;
        const ws_stat_decl *d = ws_catalog_find(g_stats[i], NULL);
        if (!d || d->scope != WS_SCOPE_PROGRAM) continue;
        snprintf(kname, sizeof kname, "%s%s", d->name, WS_STAT_KERNEL_SUFFIX);
        size_t nk = ws_test_stat(report, 1, kname, kv, MAXK);
        double sum = 0;
        for (size_t m = 0; m < nk && m < MAXK; m++) sum += kv[m];
        CHECK_MSG(nk == k && (unsigned long long)sum == vals[i], "%s: total %llu, kernels sum %.0f",
                  g_stats[i], vals[i], sum);
    }
}

/* Golden files name a stat without spaces. */
static void file_key(const char *name, char *out, size_t len) {
    snprintf(out, len, "%s", name);
    for (char *c = out; *c; c++)
        if (*c == ' ') *c = '_';
}

static void golden(const char *preset, const char *workload) {
    char *log = NULL;
    char *rep = ws_test_timing_report(workload, preset, NULL, &log);
    unsigned long long vals[32];
    collect(rep ? rep : "", vals);

    char path[4096], name[128], key[128];
    snprintf(name, sizeof name, "%s", workload);
    for (char *c = name; *c; c++)
        if (*c == '/') *c = '_';
    snprintf(path, sizeof path, "%s/tests/golden/%s/%s.txt", ws_test_root(), preset, name);
    if (getenv("WARPSIM_UPDATE_GOLDEN")) {
        FILE *f = fopen(path, "w");
        CHECK_MSG(f != NULL, "cannot write %s", path);
        if (f) {
            for (int i = 0; g_stats[i]; i++) {
                file_key(g_stats[i], key, sizeof key);
                fprintf(f, "%s %llu\n", key, vals[i]);
            }
            fclose(f);
            printf("    wrote %s\n", path);
        }
    } else {
        FILE *f = fopen(path, "r");
        CHECK_MSG(f != NULL, "no golden file %s (WARPSIM_UPDATE_GOLDEN=1 writes it)", path);
        unsigned long long want;
        int seen = 0;
        char fkey[128];
        while (f && fscanf(f, "%127s %llu", fkey, &want) == 2) {
            for (int i = 0; g_stats[i]; i++) {
                file_key(g_stats[i], key, sizeof key);
                if (strcmp(key, fkey)) continue;
                seen++;
                CHECK_MSG(vals[i] == want, "%s %s: %s = %llu, golden %llu", preset, workload,
                          key, vals[i], want);
            }
        }
        if (f) fclose(f);
        CHECK_MSG(!f || seen == (int)(sizeof g_stats / sizeof g_stats[0]) - 1,
                  "%s lists %d of the stats", path, seen);
    }
    free(rep);
    free(log);
}

TEST(golden_gtx480_micro_vectoradd) { golden("gtx480", "micro/vectoradd"); }
TEST(golden_gtx480_micro_matmul) { golden("gtx480", "micro/matmul"); }
TEST(golden_gtx480_micro_reduce) { golden("gtx480", "micro/reduce"); }
TEST(golden_gtx480_micro_histogram) { golden("gtx480", "micro/histogram"); }
TEST(golden_gtx480_micro_bfs) { golden("gtx480", "micro/bfs"); }
TEST(golden_gtx480_micro_funcs) { golden("gtx480", "micro/funcs"); }
TEST(golden_gtx480_micro_dpsolve) { golden("gtx480", "micro/dpsolve"); }
TEST(golden_gtx480v4_micro_vectoradd) { golden("gtx480-v4", "micro/vectoradd"); }
TEST(golden_gtx480v4_micro_matmul) { golden("gtx480-v4", "micro/matmul"); }

/* The same run twice gives the same statistics, bit for bit. */
TEST(golden_runs_are_deterministic) {
    const ws_workload *w = ws_workload_find("micro/histogram");
    char *a = NULL, *b = NULL;
    size_t al = 0, bl = 0;
    for (int k = 0; k < 2; k++) {
        FILE *rf = open_memstream(k ? &b : &a, k ? &bl : &al);
        FILE *lf = fopen("/dev/null", "w");
        ws_device_options o;
        ws_device_options_init(&o);
        o.functional_only = 0;
        o.report = rf;
        ws_device *d = NULL;
        CHECK(ws_device_create(&o, &d) == WS_OK);
        CHECK(ws_workload_run(w, d, WS_INPUT_SMALL, lf) == WS_WL_PASS);
        ws_device_destroy(d);
        fclose(rf);
        fclose(lf);
    }
    /* wall-clock lines differ; everything simulated must not */
    unsigned long long va[32], vb[32];
    collect(a, va);
    collect(b, vb);
    for (int i = 0; g_stats[i]; i++)
        CHECK_MSG(va[i] == vb[i], "%s differs between runs: %llu vs %llu", g_stats[i], va[i], vb[i]);
    CHECK(va[0] > 0);
    free(a);
    free(b);
}

/* A pipeline that can never move (replies larger than the interconnect's
 * buffers) is stopped by the watchdog with a report of the stuck units. */
TEST(timing_watchdog_reports_stuck_units) {
    const ws_workload *w = ws_workload_find("micro/vectoradd");
    const char *over[] = {"-vc_buf_size 1", "-warpsim_watchdog_cycles 2000", NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.quiet = 1;
    o.config_overrides = over;
    ws_device *d = NULL;
    ws_status s = ws_device_create(&o, &d);
    if (s != WS_OK) {
        /* refusing the configuration up front is an acceptable answer too */
        CHECK_EQ_I64(s, WS_ERR_CONFIG);
        return;
    }
    char *log = NULL;
    size_t len = 0;
    FILE *lf = open_memstream(&log, &len);
    ws_wl_result r = ws_workload_run(w, d, WS_INPUT_SMALL, lf);
    fclose(lf);
    CHECK_EQ_I64(r, WS_WL_ERROR);
    const char *e = ws_device_last_error(d);
    CHECK_STR_CONTAINS(e, "no progress for 2000 cycles");
    CHECK_STR_CONTAINS(e, "SM ");
    /* the workload's log carries the reason, not the status's name */
    CHECK_STR_CONTAINS(log, "failed: kernel _Z9vectorAddPKfS0_Pfi: no progress for 2000 cycles");
    CHECK(!strstr(log, "WS_ERR_"));
    ws_device_destroy(d);
    free(log);
}

/* -warpsim_stat_interval writes the interval time series beside stats.json, with the warp
   limit of a warp-limiting policy in force. */
TEST(timing_interval_time_series) {
    char dir[] = "/tmp/warpsim-ts-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    const char *over[] = {"-warpsim_stat_interval 500", "-warpsim_throttle swl:3", NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.quiet = 1;
    o.stats_dir = dir;
    o.config_overrides = over;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    FILE *lf = fopen("/dev/null", "w");
    CHECK(ws_workload_run(ws_workload_find("micro/reduce"), d, WS_INPUT_SMALL, lf) == WS_WL_PASS);
    fclose(lf);
    ws_device_destroy(d);
    char path[256], line[512];
    snprintf(path, sizeof path, "%s/timeseries.csv", dir);
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "no %s", path);
    int lines = 0, kernels2 = 0, limit3 = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (lines == 0)
            CHECK_STR_CONTAINS(line, "kernel,cycle,ipc,l1d_miss_rate,l2_miss_rate,active_warps_per_sm,"
                                     "dram_bw_util,warp_limit_per_sched");
        else if (!strncmp(line, "2,", 2))
            kernels2++;
        if (lines > 0) limit3 += strstr(line, ",3.00\n") != NULL;
        lines++;
    }
    CHECK_EQ_I64(limit3, lines - 1);
    if (f) fclose(f);
    CHECK(lines > 3);
    CHECK(kernels2 > 0); /* reduce launches two kernels */
    snprintf(path, sizeof path, "%s/stats.json", dir);
    f = fopen(path, "r");
    CHECK(f != NULL);
    char buf[8192] = "";
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = 0;
    if (f) fclose(f);
    CHECK_STR_CONTAINS(buf, "\"gpu_ipc\"");
    ws_test_rmtree(dir);
}
