/* Parallel simulation (-warpsim_threads): the SMs of a core cycle run on
 * worker threads, and every simulated number must be the same for every
 * thread count. Each run here is compared as a whole: the text report (stall
 * breakdown, caches, DRAM, energy) and the interval time series. Also: the
 * visibility rule for a load racing with another SM's store in the same
 * cycle (docs/timing.md, parallel simulation), atomics from many SMs, and
 * the combination refused before the run. */
#include <stdlib.h>
#include <unistd.h>

#include "config/config.h"
#include "exec/exec_internal.h"
#include "ptx/ptx.h"
#include "test.h"
#include "timing/gpu.h"
#include "workload.h"
#include "tmpdir.h"

/* Drop lines holding wall-clock numbers and the echoed thread count. */
static void drop_wall_clock(char *rep) {
    char *q = rep;
    for (char *p = rep; p && *p;) {
        char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
        if (!memmem(p, len, "wall_time", 9) && !memmem(p, len, "sim_rate", 8) &&
            strncmp(p, "-warpsim_threads ", 17)) {
            memmove(q, p, len);
            q += len;
        }
        p += len;
    }
    if (q) *q = 0;
}

/* The report and time series of one run. */
static char *run(const char *workload, const char *preset, const char *const *extra, int threads,
                 uint64_t max_insn) {
    const ws_workload *w = ws_workload_find(workload);
    CHECK_MSG(w != NULL, "no workload %s", workload);
    if (!w) return NULL;
    char dir[] = "/tmp/warpsim_par_XXXXXX";
    if (!mkdtemp(dir)) return NULL;
    char tset[40];
    snprintf(tset, sizeof tset, "-warpsim_threads %d", threads);
    const char *over[16];
    int n = 0;
    over[n++] = tset;
    over[n++] = "-warpsim_threads_adapt 0"; /* every cycle that can, in parallel */
    over[n++] = "-warpsim_stat_interval 250";
    for (int i = 0; extra && extra[i] && n < 15; i++) over[n++] = extra[i];
    over[n] = NULL;
    char *rep = NULL;
    size_t rlen = 0;
    FILE *rf = open_memstream(&rep, &rlen), *lf = fopen("/dev/null", "w");
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.preset = preset;
    o.config_overrides = over;
    o.report = rf;
    o.stats_dir = dir;
    o.max_insn = max_insn;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    ws_wl_result r = d ? ws_workload_run(w, d, WS_INPUT_SMALL, lf) : WS_WL_ERROR;
    CHECK_MSG(r == WS_WL_PASS || (max_insn && r != WS_WL_ERROR), "%s: %d", workload, (int)r);
    ws_device_destroy(d);
    char path[256];
    snprintf(path, sizeof path, "%s/timeseries.csv", dir);
    FILE *ts = fopen(path, "r");
    CHECK_MSG(ts != NULL, "no %s", path);
    for (int c; ts && (c = fgetc(ts)) != EOF;) fputc(c, rf);
    if (ts) fclose(ts);
    fclose(rf);
    fclose(lf);
    ws_test_rmtree(dir);
    drop_wall_clock(rep);
    return rep;
}

static void check_same(const char *what, const char *a, const char *b, int threads) {
    if (!a || !b || !strcmp(a, b)) return;
    size_t i = 0;
    while (a[i] && a[i] == b[i]) i++;
    while (i > 0 && a[i - 1] != '\n') i--;
    int la = (int)strcspn(a + i, "\n"), lb = (int)strcspn(b + i, "\n");
    CHECK_MSG(0, "%s: %d threads changed the results:\n  1 thread:  %.*s\n  %d threads: %.*s", what,
              threads, la, a + i, threads, lb, b + i);
}

/* The same run at 1 thread and at each of `threads` (0-terminated). */
static void same(const char *workload, const char *preset, const char *const *extra,
                 uint64_t max_insn, const int *threads) {
    char *a = run(workload, preset, extra, 1, max_insn);
    CHECK(a && strlen(a) > 1000);
    char what[160];
    snprintf(what, sizeof what, "%s (%s%s%s)", workload, preset ? preset : "gtx480",
             extra ? ", " : "", extra ? extra[0] : "");
    for (int k = 0; threads[k]; k++) {
        char *b = run(workload, preset, extra, threads[k], max_insn);
        check_same(what, a, b, threads[k]);
        free(b);
    }
    free(a);
}

static const int g_2_4[] = {2, 4, 0};
static const int g_4[] = {4, 0};

/* the workloads of tests/golden, at 1, 2 and 4 threads */
TEST(par_golden_workloads_identical) {
    static const char *const micro[] = {"vectoradd", "matmul", "reduce", "histogram",
                                        "bfs",       "funcs",  "dpsolve", NULL};
    char name[64];
    for (int i = 0; micro[i]; i++) {
        snprintf(name, sizeof name, "micro/%s", micro[i]);
        same(name, NULL, NULL, 0, g_2_4);
    }
    same("micro/vectoradd", "gtx480-v4", NULL, 0, g_2_4);
    same("micro/matmul", "gtx480-v4", NULL, 0, g_2_4);
}

/* -warpsim_threads_adapt 1 (the default, off in the tests above): stretches
   of 2048 cycles in parallel and on the calling thread alone, in turns */
TEST(par_adapt_identical) {
    static const char *const adapt[] = {"-warpsim_threads_adapt 1", NULL};
    static const int g_2[] = {2, 0};
    same("micro/matmul", NULL, adapt, 0, g_2);
}

/* Policies with per-SM state that moves every cycle, GPU-wide controllers
   acting between cycles, and the paths the skip tests cover. */
TEST(par_policies_identical) {
    const char *swl[] = {"-warpsim_throttle swl:2", NULL};
    const char *ccws[] = {"-warpsim_throttle ccws", NULL};
    const char *mrpb[] = {"-l1d_reorder mrpb", "-l1d_bypass stall", NULL};
    const char *dbsa[] = {"-l1d_bypass dbsa", "-l2_bypass dbsa", NULL};
    const char *replay[] = {"-warpsim_hazard_mode replay", "-warpsim_hp_predictor true", NULL};
    const char *reorder[] = {"-l1d_warp_reorder 1", NULL};
    const char *lrr[] = {"-gpgpu_scheduler lrr", "-warpsim_skip_idle 0", NULL};
    const char *ciao[] = {"-warpsim_throttle ciao_c", NULL};
    const char *dwt[] = {"-warpsim_throttle dwtcs", NULL};
    const char *iacm[] = {"-warpsim_throttle iacm", NULL};
    const char *llc[] = {"-llc_access_interval 4", NULL};
    same("micro/reduce", NULL, swl, 0, g_4);
    same("micro/bfs", NULL, ccws, 0, g_4);
    same("polybench/syrk", NULL, mrpb, 150000, g_4);
    same("rodinia/kmeans", NULL, dbsa, 300000, g_4);
    same("micro/histogram", NULL, replay, 0, g_4);
    same("micro/reduce", NULL, reorder, 0, g_4);
    same("micro/histogram", NULL, lrr, 0, g_4);
    same("micro/reduce", "ciao", ciao, 0, g_4);
    same("rodinia/kmeans", NULL, dwt, 300000, g_4);
    same("rodinia/kmeans", NULL, iacm, 300000, g_4);
    same("micro/matmul", NULL, llc, 0, g_4);
}

/* ---- the racing micro-kernel ----------------------------------------------------
 * Every thread of many CTAs loads a word that the others store, and takes a
 * ticket with atomicAdd: loads race with stores of other SMs in the same
 * cycle. out[i] = the value thread i loaded, tick[i] = its ticket. */
static const char g_race_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry race(.param .u64 p_word, .param .u64 p_cnt, .param .u64 p_out,\n"
    "                     .param .u64 p_tick)\n"
    "{\n"
    "    .reg .b32 %r<12>;\n"
    "    .reg .b64 %rd<16>;\n"
    "    ld.param.u64 %rd1, [p_word];\n"
    "    ld.param.u64 %rd2, [p_cnt];\n"
    "    ld.param.u64 %rd3, [p_out];\n"
    "    ld.param.u64 %rd4, [p_tick];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mad.lo.u32 %r4, %r2, %r3, %r1;\n"   /* global thread id */
    "    and.b32 %r5, %r4, 7;\n"
    "    mul.wide.u32 %rd5, %r5, 4;\n"
    "    add.u64 %rd6, %rd1, %rd5;\n"        /* one of 8 words */
    "    ld.global.u32 %r6, [%rd6];\n"
    "    add.u32 %r7, %r4, 1;\n"
    "    st.global.u32 [%rd6], %r7;\n"
    "    atom.global.add.u32 %r8, [%rd2], 1;\n"
    "    ld.global.u32 %r9, [%rd6];\n"
    "    add.u32 %r6, %r6, %r9;\n"
    "    mul.wide.u32 %rd7, %r4, 4;\n"
    "    add.u64 %rd8, %rd3, %rd7;\n"
    "    st.global.u32 [%rd8], %r6;\n"
    "    add.u64 %rd9, %rd4, %rd7;\n"
    "    st.global.u32 [%rd9], %r8;\n"
    "    ret;\n"
    "}\n";

enum { RACE_CTAS = 60, RACE_THREADS = 64, RACE_N = RACE_CTAS * RACE_THREADS };

static char *race(int threads, uint32_t *out, uint32_t *tick) {
    char tset[40];
    snprintf(tset, sizeof tset, "-warpsim_threads %d", threads);
    const char *over[] = {tset, "-warpsim_threads_adapt 0", NULL};
    char *rep = NULL;
    size_t rlen = 0;
    FILE *rf = open_memstream(&rep, &rlen);
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.config_overrides = over;
    o.report = rf;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    ws_devptr word = 0, cnt = 0, dout = 0, dtick = 0;
    static const char info[] = "ptxas info    : Compiling entry function 'race' for 'sm_70'\n"
                               "ptxas info    : Used 12 registers, used 0 barriers\n";
    CHECK(d && ws_module_load(d, g_race_ptx, sizeof g_race_ptx - 1, "race.ptx", info, &m) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "race", &k) == WS_OK);
    CHECK(d && ws_malloc(d, 32, &word) == WS_OK && ws_malloc(d, 4, &cnt) == WS_OK &&
          ws_malloc(d, RACE_N * 4, &dout) == WS_OK && ws_malloc(d, RACE_N * 4, &dtick) == WS_OK);
    if (d && k) {
        ws_memset(d, word, 0, 32);
        ws_memset(d, cnt, 0, 4);
        void *args[] = {&word, &cnt, &dout, &dtick};
        ws_dim3 grid = {RACE_CTAS, 1, 1}, block = {RACE_THREADS, 1, 1};
        CHECK(ws_launch(d, k, grid, block, 0, args) == WS_OK);
        CHECK(ws_memcpy_dtoh(d, out, dout, RACE_N * 4) == WS_OK);
        CHECK(ws_memcpy_dtoh(d, tick, dtick, RACE_N * 4) == WS_OK);
    }
    ws_device_destroy(d);
    fclose(rf);
    drop_wall_clock(rep);
    return rep;
}

TEST(par_racing_kernel_identical) {
    static uint32_t out1[RACE_N], tick1[RACE_N], out[RACE_N], tick[RACE_N];
    char *r1 = race(1, out1, tick1);
    /* atomics from every SM stay atomic: the tickets are 0..N-1 */
    static uint8_t seen[RACE_N];
    memset(seen, 0, sizeof seen);
    int dup = 0;
    for (int i = 0; i < RACE_N; i++) {
        if (tick1[i] >= RACE_N || seen[tick1[i]]) dup++;
        else seen[tick1[i]] = 1;
    }
    CHECK_EQ_I64(dup, 0);
    /* the loads do race: they saw different stores */
    int differ = 0;
    for (int i = 1; i < RACE_N; i++) differ += out1[i] != out1[0];
    CHECK(differ > 0);
    for (int t = 2; t <= 4; t += 2) {
        char *r = race(t, out, tick);
        CHECK_MSG(!memcmp(out, out1, sizeof out), "%d threads: loaded values differ", t);
        CHECK_MSG(!memcmp(tick, tick1, sizeof tick), "%d threads: tickets differ", t);
        check_same("race", r1, r, t);
        free(r);
    }
    free(r1);
}

/* ---- the visibility rule, step by step ------------------------------------------
 * Two CTAs "on two SMs" (each with its own log) run the same code; the test
 * steps them as the timing model would and commits the logs, SM 0 then SM 1,
 * at the end of each cycle. */
static const char g_rule_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry rule(.param .u64 p)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [p];\n"             /* 0 */
    "    mov.u32 %r5, %ctaid.x;\n"              /* 1 */
    "    add.u32 %r6, %r5, 1;\n"                /* 2 */
    "    mul.wide.u32 %rd2, %r5, 8;\n"          /* 3 */
    "    add.u64 %rd3, %rd1, %rd2;\n"           /* 4: rd3 = p + 8 * ctaid */
    "    atom.global.add.u32 %r1, [%rd1], 1;\n" /* 5: the counter, p[0] */
    "    st.global.u32 [%rd1+4], %r6;\n"        /* 6: the shared word, p[1] = ctaid + 1 */
    "    ld.global.u32 %r2, [%rd1+4];\n"        /* 7 */
    "    st.global.u32 [%rd3+16], %r1;\n"       /* 8: results from p[4] */
    "    st.global.u32 [%rd3+20], %r2;\n"       /* 9 */
    "    ret;\n"
    "}\n";

static void step(ws_cta *c, unsigned n) {
    ws_fault f;
    for (unsigned i = 0; i < n; i++) CHECK_EQ_I64(ws_warp_step(c, 0, NULL, &f), WS_STEP_OK);
}

TEST(par_visibility_rule) {
    ws_diag dg;
    ws_module *m = ws_ptx_parse(g_rule_ptx, sizeof g_rule_ptx - 1, "rule.ptx", &dg);
    CHECK(m != NULL);
    if (!m) return;
    ws_gmem *g = ws_gmem_create(1 << 20);
    ws_image *img = NULL;
    char err[128];
    CHECK(ws_image_create(g, m, &img, err, sizeof err) == WS_OK);
    uint64_t p = 0;
    CHECK(ws_gmem_alloc(g, 64, &p) == WS_OK);
    ws_gmem_fill(g, p, 0, 64);
    uint8_t params[8];
    memcpy(params, &p, 8);
    ws_wlog *log[2] = {ws_wlog_create(NULL), ws_wlog_create(NULL)};
    ws_cta *c[2];
    for (uint32_t s = 0; s < 2; s++) {
        ws_launch_desc l = {0};
        l.img = img;
        l.grid[0] = 2;
        l.grid[1] = l.grid[2] = l.block[0] = l.block[1] = l.block[2] = 1;
        l.params = params;
        l.gmem = g;
        l.num_sms = 2;
        l.wlog = log[s];
        uint32_t id[3] = {s, 0, 0};
        c[s] = ws_cta_create(&l, id, s);
    }
    uint32_t w[10];
    /* cycle 1: both set up; cycle 2: both take a ticket */
    step(c[0], 5), step(c[1], 5);
    step(c[0], 1), step(c[1], 1);
    ws_gmem_read(g, p, w, 4);
    CHECK_EQ_I64(w[0], 0); /* not applied before the commit */
    ws_wlog_commit(log[0]), ws_wlog_commit(log[1]);
    /* cycle 3: SM 0 stores 1; SM 1 stores 2 and loads the word in the same cycle */
    step(c[0], 1);
    step(c[1], 2);
    ws_wlog_commit(log[0]), ws_wlog_commit(log[1]);
    /* cycle 4: SM 0 loads it, then both write their results */
    step(c[0], 1);
    step(c[0], 2), step(c[1], 2);
    ws_wlog_commit(log[0]), ws_wlog_commit(log[1]);
    ws_gmem_read(g, p, w, 40);
    CHECK_EQ_I64(w[0], 2); /* both atomics applied */
    CHECK_EQ_I64(w[1], 2); /* SM 1's store applied after SM 0's (SM-id order) */
    CHECK_EQ_I64(w[4], 0); /* SM 0's ticket: the atomics in SM-id order */
    CHECK_EQ_I64(w[6], 1); /* SM 1's */
    CHECK_EQ_I64(w[7], 0); /* SM 1's load saw the word as at the start of its cycle, without
                              the stores of the same cycle, its own included */
    CHECK_EQ_I64(w[5], 2); /* SM 0's load, a cycle later, sees the last store */
    for (int s = 0; s < 2; s++) {
        ws_cta_destroy(c[s]);
        ws_wlog_destroy(log[s]);
    }
    ws_image_destroy(img, g);
    ws_gmem_destroy(g);
    ws_module_free(m);
}

/* heterogeneous memory's page table is shared by the SMs within a cycle */
TEST(par_refuses_hm_before_the_run) {
    ws_config c;
    ws_config_init(&c);
    char err[512] = "";
    CHECK(ws_config_set(&c, "warpsim_threads", "2", err, sizeof err) == 0);
    CHECK(ws_config_set(&c, "hm_enable", "1", err, sizeof err) == 0);
    ws_gpu *g = ws_gpu_create(&c, err, sizeof err);
    CHECK(g == NULL);
    CHECK_STR_CONTAINS(err, "-warpsim_threads 2 cannot be combined with -hm_enable 1");
    ws_gpu_destroy(g);
    CHECK(ws_config_set(&c, "warpsim_threads", "0", err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "1..256");
    ws_config_free(&c);
}

/* A warp issues at most one memory instruction per cycle, even where the
   ID_OC_MEM register and -gpgpu_max_insn_issue_per_warp would allow two: a
   thread's load right after its store sees the store (which reaches memory
   at the end of the cycle). */
static const char g_own_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry own(.param .u64 p_buf, .param .u64 p_out)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    ld.param.u64 %rd1, [p_buf];\n"
    "    ld.param.u64 %rd2, [p_out];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.wide.u32 %rd3, %r1, 4;\n"
    "    add.u64 %rd4, %rd1, %rd3;\n"
    "    add.u64 %rd5, %rd2, %rd3;\n"
    "    mov.u32 %r4, 0;\n"                 /* puts the store and the load in one fetch pair */
    "    add.u32 %r2, %r1, 1;\n"
    "    st.global.u32 [%rd4], %r2;\n"
    "    ld.global.u32 %r3, [%rd4];\n"
    "    st.global.u32 [%rd5], %r3;\n"
    "    ret;\n"
    "}\n";

TEST(par_own_store_then_load_same_warp) {
    const char *over[] = {"-gpgpu_pipeline_widths 2,1,2,2,1,2,2", "-gpgpu_max_insn_issue_per_warp 2",
                          "-warpsim_threads 2", NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.quiet = 1;
    o.config_overrides = over;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    static const char info[] = "ptxas info    : Compiling entry function 'own' for 'sm_70'\n"
                               "ptxas info    : Used 8 registers, used 0 barriers\n";
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    ws_devptr buf = 0, dout = 0;
    CHECK(d && ws_module_load(d, g_own_ptx, sizeof g_own_ptx - 1, "own.ptx", info, &m) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "own", &k) == WS_OK);
    CHECK(d && ws_malloc(d, 64 * 4, &buf) == WS_OK && ws_malloc(d, 64 * 4, &dout) == WS_OK);
    uint32_t out[64] = {0};
    if (d && k) {
        ws_memset(d, buf, 0, 64 * 4);
        void *args[] = {&buf, &dout};
        ws_dim3 grid = {1, 1, 1}, block = {64, 1, 1};
        CHECK(ws_launch(d, k, grid, block, 0, args) == WS_OK);
        CHECK(ws_memcpy_dtoh(d, out, dout, sizeof out) == WS_OK);
    }
    for (int i = 0; i < 64; i++) CHECK_EQ_I64(out[i], i + 1);
    ws_device_destroy(d);
}
