/* Skipping idle work (-warpsim_skip_idle, the default) must not change a
 * single simulated number: each run here is made with and without it and
 * the whole report (stall breakdown, caches, DRAM, energy, interval time
 * series) is compared. Policies and configurations that take other paths
 * through the SM are covered too. */
#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "workload.h"
#include "tmpdir.h"

/* The report and time series of one run, wall-clock lines dropped. */
static char *run(const char *workload, const char *preset, const char *const *extra, int skip,
                 uint64_t max_insn) {
    const ws_workload *w = ws_workload_find(workload);
    CHECK_MSG(w != NULL, "no workload %s", workload);
    if (!w) return NULL;
    char dir[] = "/tmp/warpsim_skip_XXXXXX";
    if (!mkdtemp(dir)) return NULL;
    const char *over[16];
    int n = 0;
    over[n++] = skip ? "-warpsim_skip_idle 1" : "-warpsim_skip_idle 0";
    over[n++] = "-warpsim_stat_interval 300";
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
    /* a capped run stops early: its output is not checked */
    CHECK_MSG(r == WS_WL_PASS || (max_insn && r != WS_WL_ERROR), "%s: %d", workload, (int)r);
    ws_device_destroy(d);
    /* append the time series */
    char path[256];
    snprintf(path, sizeof path, "%s/timeseries.csv", dir);
    FILE *ts = fopen(path, "r");
    CHECK_MSG(ts != NULL, "no %s", path);
    for (int c; ts && (c = fgetc(ts)) != EOF;) fputc(c, rf);
    if (ts) fclose(ts);
    fclose(rf);
    fclose(lf);
    ws_test_rmtree(dir);
    /* drop lines with wall-clock numbers, and the option under test in the echoed config */
    char *out = rep, *q = rep;
    for (char *p = rep; p && *p;) {
        char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
        if (!memmem(p, len, "wall_time", 9) && !memmem(p, len, "sim_rate", 8) &&
            strncmp(p, "-warpsim_skip_idle ", 19)) {
            memmove(q, p, len);
            q += len;
        }
        p += len;
    }
    if (q) *q = 0;
    return out;
}

static void same(const char *workload, const char *preset, const char *const *extra,
                 uint64_t max_insn) {
    char *a = run(workload, preset, extra, 1, max_insn);
    char *b = run(workload, preset, extra, 0, max_insn);
    CHECK(a && b && strlen(a) > 1000);
    if (a && b && strcmp(a, b)) {
        /* show the first differing line */
        size_t i = 0;
        while (a[i] && a[i] == b[i]) i++;
        while (i > 0 && a[i - 1] != '\n') i--;
        int la = (int)strcspn(a + i, "\n"), lb = (int)strcspn(b + i, "\n");
        CHECK_MSG(0, "%s (%s%s%s): skipping changed the results:\n  skip: %.*s\n  full: %.*s",
                  workload, preset ? preset : "gtx480", extra ? ", " : "", extra ? extra[0] : "",
                  la, a + i, lb, b + i);
    }
    free(a);
    free(b);
}

TEST(skip_idle_exact_micro) {
    same("micro/bfs", NULL, NULL, 0);
    same("micro/reduce", NULL, NULL, 0);
    same("micro/funcs", NULL, NULL, 0);
    same("micro/histogram", "gtx480-v4", NULL, 0);
    /* compute-bound: the issue walk passes warps stopped at the scoreboard or an empty
       ibuffer (pempty, psb) */
    same("micro/matmul", "gtx480-v4", NULL, 0);
    same("micro/texture", NULL, NULL, 0);
}

/* Memory-bound: most scheduler steps find every warp stopped at the scoreboard or an
   empty ibuffer; the memo test then counts their stall from the masks without a walk, and a
   scoreboard release that leaves the head colliding keeps the warp's stop (scoreboard.c).
   The full walk (-warpsim_skip_idle 0) uses none of it. */
TEST(skip_idle_exact_memory_bound) {
    same("polybench/syrk", NULL, NULL, 300000);
    same("rodinia/kmeans", NULL, NULL, 600000);
    same("sdk/transpose_naive", NULL, NULL, 300000);
}

/* SMs asleep behind an access the L1D refuses (the LD/ST unit and operand
   collector stuck, sm.c's quiet_until), on post-Fermi configurations too (two
   collector steps a cycle, sectored L1D) */
TEST(skip_idle_exact_stuck_ldst) {
    same("rodinia/kmeans", "qv100", NULL, 300000);
    same("polybench/syrk", "rtx2060", NULL, 200000);
    same("sdk/transpose_naive", "gtx480-v4", NULL, 200000);
}

/* SMs asleep while their L1 latency queue only moves up (sm_ldst_moving): the
   queue moves each sleeping cycle, and the cycle its first entry reaches the
   head runs in full; with replaying accesses in the queue too */
TEST(skip_idle_exact_moving_l1q) {
    const char *replay[] = {"-warpsim_hazard_mode replay", NULL};
    same("micro/vectoradd", "gtx480-v4", NULL, 0);
    same("rodinia/kmeans", NULL, replay, 300000);
}

TEST(skip_idle_exact_policies) {
    const char *lrr[] = {"-gpgpu_scheduler lrr", NULL};
    const char *tl[] = {"-gpgpu_scheduler two_level_active:6:0:1", NULL};
    const char *old1[] = {"-gpgpu_scheduler oldest", "-gpgpu_num_sched_per_core 1", NULL};
    const char *swl[] = {"-warpsim_throttle swl:2", NULL};
    const char *adi[] = {"-l1d_index adi", "-gpgpu_flush_l1_cache 1", NULL};
    const char *mrpb[] = {"-l1d_reorder mrpb", "-l1d_bypass stall", NULL};
    const char *dbsa[] = {"-l1d_bypass dbsa", "-l2_bypass dbsa", NULL};
    same("micro/bfs", NULL, lrr, 0);
    same("micro/bfs", NULL, tl, 0);
    same("rodinia/kmeans", NULL, old1, 400000);
    same("micro/reduce", NULL, swl, 0);
    same("rodinia/kmeans", NULL, adi, 400000);
    same("polybench/syrk", NULL, mrpb, 200000);
    same("rodinia/kmeans", NULL, dbsa, 400000);
    /* the walk that follows a declared order shape (ws_sched_policy.shape) against the
       full walk: oldest's age order with two schedulers, lrr's rotation with four */
    const char *old2[] = {"-gpgpu_scheduler oldest", NULL};
    same("sdk/matmul_shared", "gtx480-v4", old2, 0);
    same("micro/matmul", "qv100", NULL, 300000);
}

/* Memory barriers, atomics and reductions, barriers with a warp that exits
   before the second one: paths no bundled workload takes. */
static const char g_mix_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry mix(.param .u64 p_out, .param .u64 p_cnt)\n"
    "{\n"
    "    .reg .pred %p<4>;\n"
    "    .reg .b32 %r<16>;\n"
    "    .reg .b64 %rd<16>;\n"
    "    .shared .align 4 .b32 sh[256];\n"
    "\n"
    "    ld.param.u64 %rd1, [p_out];\n"
    "    ld.param.u64 %rd2, [p_cnt];\n"
    "    mov.u32 %r2, %tid.x;\n"
    "    mov.u32 %r3, %ctaid.x;\n"
    "    mov.u32 %r4, %ntid.x;\n"
    "    mad.lo.u32 %r5, %r3, %r4, %r2;\n"
    "    cvta.to.global.u64 %rd3, %rd1;\n"
    "    cvta.to.global.u64 %rd4, %rd2;\n"
    "    mul.wide.u32 %rd5, %r5, 4;\n"
    "    add.u64 %rd6, %rd3, %rd5;\n"
    "    ld.global.u32 %r6, [%rd6];\n"
    "    add.u32 %r6, %r6, %r5;\n"
    "    st.global.u32 [%rd6], %r6;\n"
    "    membar.gl;\n"
    "    atom.global.add.u32 %r7, [%rd4], 1;\n"
    "    shl.b32 %r8, %r2, 2;\n"
    "    mov.u32 %r9, sh;\n"
    "    add.u32 %r10, %r9, %r8;\n"
    "    st.shared.u32 [%r10], %r7;\n"
    "    bar.sync 0;\n"
    "    setp.ge.u32 %p1, %r2, 224;\n"
    "    @%p1 bra DONE;\n"
    "    xor.b32 %r11, %r8, 4;\n"
    "    add.u32 %r12, %r9, %r11;\n"
    "    ld.shared.u32 %r13, [%r12];\n"
    "    bar.sync 0;\n"
    "    red.global.add.u32 [%rd4+4], %r13;\n"
    "    membar.cta;\n"
    "    ld.global.u32 %r14, [%rd6];\n"
    "    add.u32 %r14, %r14, %r13;\n"
    "    st.global.u32 [%rd6], %r14;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n";

static const char g_mix_info[] =
    "ptxas info    : Compiling entry function 'mix' for 'sm_70'\n"
    "ptxas info    : Used 16 registers, used 1 barriers, 1024 bytes smem\n";

static char *run_mix(int skip) {
    char *rep = NULL;
    size_t rlen = 0;
    FILE *rf = open_memstream(&rep, &rlen);
    const char *over[] = {skip ? "-warpsim_skip_idle 1" : "-warpsim_skip_idle 0", NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.config_overrides = over;
    o.report = rf;
    ws_device *d = NULL;
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    CHECK(d && ws_module_load(d, g_mix_ptx, sizeof g_mix_ptx - 1, "mix", g_mix_info, &m) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "mix", &k) == WS_OK);
    enum { CTAS = 45, THREADS = 256 };
    static uint32_t buf[CTAS * THREADS];
    ws_devptr out = 0, cnt = 0;
    CHECK(ws_malloc(d, sizeof buf, &out) == WS_OK && ws_malloc(d, 8, &cnt) == WS_OK);
    for (uint32_t i = 0; i < CTAS * THREADS; i++) buf[i] = i * 7u;
    CHECK(ws_memcpy_htod(d, out, buf, sizeof buf) == WS_OK);
    CHECK(ws_memset(d, cnt, 0, 8) == WS_OK);
    void *args[] = {&out, &cnt};
    ws_status s = ws_launch(d, k, (ws_dim3){CTAS, 1, 1}, (ws_dim3){THREADS, 1, 1}, 0, args);
    CHECK_MSG(s == WS_OK, "mix: %s: %s", ws_status_name(s), ws_device_last_error(d));
    uint32_t c[2] = {0, 0};
    CHECK(ws_memcpy_dtoh(d, c, cnt, 8) == WS_OK);
    CHECK_EQ_U64(c[0], CTAS * THREADS);
    ws_device_destroy(d);
    fclose(rf);
    return rep;
}

TEST(skip_idle_exact_membar_atomics_barriers) {
    char *a = run_mix(1), *b = run_mix(0);
    CHECK(a && b);
    /* the report after the echoed configuration (which shows the option), up to the
       wall-clock line */
    const char *ka = a ? strstr(a, "kernel_name") : NULL, *kb = b ? strstr(b, "kernel_name") : NULL;
    const char *wa = ka ? strstr(ka, "gpu_sim_wall_time") : NULL;
    const char *wb = kb ? strstr(kb, "gpu_sim_wall_time") : NULL;
    CHECK(wa && wb && wa - ka == wb - kb && !strncmp(ka, kb, (size_t)(wa - ka)));
    free(a);
    free(b);
}
