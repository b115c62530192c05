/* Long programs end to end (docs/sampling.md): fast-forward marks what ran
 * in detail and leaves every instruction count as it was; a run resumed
 * from a checkpoint reports exactly what the uninterrupted run reports from
 * that boundary on; damaged, foreign and other-version checkpoints are
 * refused with a message; sampled runs project cycles near the full run's
 * with an error estimate. */
#include <stdlib.h>
#include <unistd.h>

#include "stats_util.h"
#include "test.h"
#include "util/version.h"
#include "runtime/longrun.h"
#include "workload.h"
#include "tmpdir.h"

typedef struct run_out {
    char *report;     /* text report, wall-clock lines dropped */
    char *err;        /* what the run wrote to stderr */
    ws_status create; /* device creation */
    ws_wl_result result;
} run_out;

static void run_free(run_out *r) {
    free(r->report);
    free(r->err);
}

/* A run of a bundled workload (small input) with overrides; functional or timing. */
static run_out run_with(const char *workload, int functional, const char *const *sets,
                        const char *stats_dir) {
    run_out o = {0};
    char *rep = NULL, *log = NULL;
    size_t rl = 0, ll = 0;
    FILE *rf = open_memstream(&rep, &rl), *lf = open_memstream(&log, &ll);
    ws_test_stderr cap;
    ws_test_stderr_begin(&cap);
    ws_device_options opt;
    ws_device_options_init(&opt);
    opt.functional_only = functional;
    opt.config_overrides = sets;
    opt.report = rf;
    opt.stats_dir = stats_dir;
    ws_device *d = NULL;
    o.create = ws_device_create(&opt, &d);
    o.result = WS_WL_ERROR;
    if (o.create == WS_OK) {
        o.result = ws_workload_run(ws_workload_find(workload), d, WS_INPUT_SMALL, lf);
        ws_device_flush(d);
    }
    ws_device_destroy(d);
    fclose(rf);
    fclose(lf);
    o.err = ws_test_stderr_end(&cap);
    free(log);
    /* host-dependent lines out */
    char *w = rep;
    for (char *p = rep; p && *p;) {
        char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
        if (strncmp(p, "gpu_sim_wall_time", 17) && strncmp(p, "gpu_tot_sim_wall_time", 21) &&
            strncmp(p, "gpu_total_sim_rate", 18) && strncmp(p, "-warpsim_", 9))
            memmove(w, p, len), w += len;
        p = eol ? eol + 1 : NULL;
    }
    if (w) *w = 0;
    o.report = rep;
    return o;
}

/* The report from the kernel with launch uid `from` (1-based) on. */
static const char *from_launch(const char *rep, unsigned from) {
    char key[64];
    snprintf(key, sizeof key, "kernel_launch_uid = %u ", from);
    const char *p = rep ? strstr(rep, key) : NULL;
    if (!p) return "";
    while (p > rep && strncmp(p, "kernel_name", 11)) p--;
    return p;
}

TEST(longrun_fast_forward_marks_what_ran_in_detail) {
    const char *ff[] = {"-warpsim_fast_forward_kernels 4", NULL};
    run_out a = run_with("rodinia/lud", 0, NULL, NULL), b = run_with("rodinia/lud", 0, ff, NULL);
    CHECK(a.result == WS_WL_PASS && b.result == WS_WL_PASS);
    double det[16], cyc[16], ia[16], ib[16];
    size_t n = ws_test_text_stat(b.report, "warpsim_detailed", det, 16);
    CHECK_EQ_U64(n, 10);
    for (size_t i = 0; i < n && i < 16; i++) CHECK_MSG(det[i] == (i >= 4), "launch %zu: %g", i + 1, det[i]);
    /* cycles only where the timing model ran; instructions everywhere, unchanged */
    CHECK_EQ_U64(ws_test_text_stat(b.report, "gpu_sim_cycle", cyc, 16), 6);
    CHECK_EQ_U64(ws_test_text_stat(a.report, "gpu_sim_insn", ia, 16), 10);
    CHECK_EQ_U64(ws_test_text_stat(b.report, "gpu_sim_insn", ib, 16), 10);
    for (int i = 0; i < 10; i++) CHECK(ia[i] == ib[i]);
    CHECK(strstr(b.report, "warpsim_mode = functional") != NULL);
    /* without the option no long-run stat appears */
    CHECK(!strstr(a.report, "warpsim_detailed"));
    run_free(&a);
    run_free(&b);
}

TEST(longrun_fast_forward_by_instructions_switches_at_a_boundary) {
    /* lud's first launch alone has more than 10 instructions */
    const char *ff[] = {"-warpsim_fast_forward_insn 10", NULL};
    run_out b = run_with("rodinia/lud", 0, ff, NULL);
    double det[16];
    CHECK_EQ_U64(ws_test_text_stat(b.report, "warpsim_detailed", det, 16), 10);
    CHECK(det[0] == 0 && det[1] == 1);
    run_free(&b);
}

TEST(longrun_warming_fills_the_caches_on_the_way) {
    const char *cold[] = {"-warpsim_fast_forward_kernels 9", NULL};
    const char *warm[] = {"-warpsim_fast_forward_kernels 9", "-warpsim_fast_forward_warm 1", NULL};
    run_out a = run_with("rodinia/lud", 0, cold, NULL), b = run_with("rodinia/lud", 0, warm, NULL);
    double ma[2], mb[2];
    CHECK_EQ_U64(ws_test_text_stat(a.report, "L2_total_cache_misses_kernel", ma, 2), 1);
    CHECK_EQ_U64(ws_test_text_stat(b.report, "L2_total_cache_misses_kernel", mb, 2), 1);
    CHECK_MSG(mb[0] < ma[0], "L2 misses of the first detailed kernel: warm %g, cold %g", mb[0], ma[0]);
    CHECK(b.result == WS_WL_PASS);
    run_free(&a);
    run_free(&b);
}

static char *tmp_path(const char *tag) {
    char *p = malloc(64);
    snprintf(p, 64, "/tmp/warpsim_lr_%s_%d", tag, (int)getpid());
    return p;
}

/* rodinia/bfs reads a flag back after every level: the resumed run must
   answer those reads from the checkpoint to take the same path. */
TEST(longrun_checkpoint_round_trip_is_exact) {
    char *ck = tmp_path("ckpt"), save[128], resume[128];
    snprintf(save, sizeof save, "-warpsim_checkpoint_save %s", ck);
    snprintf(resume, sizeof resume, "-warpsim_checkpoint_resume %s", ck);
    const char *s1[] = {save, "-warpsim_checkpoint_at 5", NULL};
    run_out w = run_with("rodinia/bfs", 1, s1, NULL); /* written by a functional run */
    CHECK(w.result == WS_WL_PASS);
    CHECK(strstr(w.err, "checkpoint written") != NULL);
    const char *ff[] = {"-warpsim_fast_forward_kernels 5", NULL}, *rs[] = {resume, NULL};
    run_out u = run_with("rodinia/bfs", 0, ff, NULL), r = run_with("rodinia/bfs", 0, rs, NULL);
    CHECK_MSG(r.result == WS_WL_PASS, "resumed run: %s", r.err);
    CHECK(strstr(r.err, "resumed from checkpoint") != NULL);
    const char *a = from_launch(u.report, 6), *b = from_launch(r.report, 6);
    CHECK(*a && *b);
    CHECK_MSG(!strcmp(a, b), "the resumed run's report differs from the uninterrupted run's");
    /* nothing before the boundary is reported */
    CHECK(!strstr(r.report, "kernel_launch_uid = 5 "));
    /* another configuration resumes too */
    const char *rs2[] = {resume, "-gpgpu_scheduler lrr", NULL};
    run_out r2 = run_with("rodinia/bfs", 0, rs2, NULL);
    CHECK(r2.result == WS_WL_PASS);
    run_free(&w);
    run_free(&u);
    run_free(&r);
    run_free(&r2);
    unlink(ck);
    free(ck);
}

/* Rewrite the checksum after editing a checkpoint's header. */
static void reseal(char *buf, size_t len) {
    uint64_t h = ws_lr_hash(WS_LR_HASH_INIT, buf, len - 8);
    memcpy(buf + len - 8, &h, 8);
}

static void write_file(const char *path, const char *buf, size_t len) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite(buf, 1, len, f);
        fclose(f);
    }
}

TEST(longrun_checkpoint_refusals_say_why) {
    char *ck = tmp_path("ckpt2"), *bad = tmp_path("bad"), save[128], resume[128];
    snprintf(save, sizeof save, "-warpsim_checkpoint_save %s", ck);
    snprintf(resume, sizeof resume, "-warpsim_checkpoint_resume %s", bad);
    const char *s1[] = {save, "-warpsim_checkpoint_at 3", NULL}, *rs[] = {resume, NULL};
    run_out w = run_with("rodinia/lud", 1, s1, NULL);
    CHECK(w.result == WS_WL_PASS);
    size_t len = 0;
    char *buf = ws_test_read_file(ck, &len);
    CHECK(buf && len > 100);
    if (buf && len > 100) {
        /* a flipped byte in the memory image */
        buf[len / 2] ^= 0x40;
        write_file(bad, buf, len);
        run_out r = run_with("rodinia/lud", 0, rs, NULL);
        CHECK(r.create != WS_OK);
        CHECK_MSG(strstr(r.err, "corrupted") != NULL, "%s", r.err);
        run_free(&r);
        buf[len / 2] ^= 0x40;
        /* truncated */
        write_file(bad, buf, len - 40);
        r = run_with("rodinia/lud", 0, rs, NULL);
        CHECK(r.create != WS_OK && strstr(r.err, "corrupted"));
        run_free(&r);
        /* another warpsim version, another format */
        char *v = malloc(len);
        memcpy(v, buf, len);
        memcpy(v + 20, "9.9.9", 6);
        reseal(v, len);
        write_file(bad, v, len);
        r = run_with("rodinia/lud", 0, rs, NULL);
        CHECK(r.create != WS_OK);
        CHECK_MSG(strstr(r.err, "written by warpsim 9.9.9; this is warpsim " WARPSIM_VERSION), "%s", r.err);
        run_free(&r);
        memcpy(v, buf, len);
        v[12] = 7;
        reseal(v, len);
        write_file(bad, v, len);
        r = run_with("rodinia/lud", 0, rs, NULL);
        CHECK(r.create != WS_OK && strstr(r.err, "checkpoint format 7"));
        run_free(&r);
        free(v);
        /* not a checkpoint at all */
        write_file(bad, "hello\n", 6);
        r = run_with("rodinia/lud", 0, rs, NULL);
        CHECK(r.create != WS_OK && strstr(r.err, "not a warpsim checkpoint"));
        run_free(&r);
        /* another program: its first launch is not the checkpoint's */
        write_file(bad, buf, len);
        r = run_with("rodinia/srad", 0, rs, NULL);
        CHECK(r.create == WS_OK && r.result == WS_WL_ERROR);
        run_free(&r);
        r = run_with("rodinia/lud", 0, rs, NULL);
        CHECK(r.result == WS_WL_PASS);
        run_free(&r);
    }
    free(buf);
    run_free(&w);
    unlink(ck);
    unlink(bad);
    free(ck);
    free(bad);
}

TEST(longrun_checkpoint_of_another_program_names_the_launch) {
    char *ck = tmp_path("ckpt3"), save[128], resume[128];
    snprintf(save, sizeof save, "-warpsim_checkpoint_save %s", ck);
    snprintf(resume, sizeof resume, "-warpsim_checkpoint_resume %s", ck);
    const char *s1[] = {save, "-warpsim_checkpoint_at 2", NULL}, *rs[] = {resume, NULL};
    run_out w = run_with("rodinia/lud", 1, s1, NULL);
    ws_device_options opt;
    ws_device_options_init(&opt);
    opt.functional_only = 1;
    opt.config_overrides = rs;
    opt.quiet = 1;
    ws_device *d = NULL;
    CHECK(ws_device_create(&opt, &d) == WS_OK);
    if (d) {
        /* a program that launches something else first */
        static const char ptx[] = ".version 7.0\n.target sm_75\n.address_size 64\n"
                                  ".visible .entry k()\n{\n  ret;\n}\n";
        ws_module_handle *m = NULL;
        ws_kernel *k = NULL;
        CHECK(ws_module_load(d, ptx, 0, "other.ptx", NULL, &m) == WS_OK);
        if (m) CHECK(ws_module_get_kernel(m, "k", &k) == WS_OK);
        ws_dim3 one = {1, 1, 1};
        ws_test_stderr cap;
        ws_test_stderr_begin(&cap);
        ws_status s = k ? ws_launch(d, k, one, one, 0, NULL) : WS_ERR_NOT_FOUND;
        ws_device_destroy(d);
        char *e = ws_test_stderr_end(&cap);
        CHECK(s == WS_ERR_INVALID_VALUE);
        CHECK(!strstr(e, "never reached"));
        free(e);
    }
    run_free(&w);
    unlink(ck);
    free(ck);
}

TEST(longrun_sampling_across_kernels_projects_the_total) {
    char *prof = tmp_path("prof"), dir[] = "/tmp/warpsim_lr_sampXXXXXX", p1[128], p2[128];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(p1, sizeof p1, "-warpsim_profile_out %s", prof);
    snprintf(p2, sizeof p2, "-warpsim_sample_kernels %s", prof);
    const char *s1[] = {p1, NULL}, *s2[] = {p2, "-warpsim_fast_forward_warm 1", NULL};
    run_out p = run_with("rodinia/gaussian", 1, s1, NULL);
    CHECK(p.result == WS_WL_PASS);
    run_out full = run_with("rodinia/gaussian", 0, NULL, NULL), s = run_with("rodinia/gaussian", 0, s2, dir);
    CHECK_MSG(s.result == WS_WL_PASS, "%s", s.err);
    double c[256], det[256];
    size_t n = ws_test_text_stat(full.report, "gpu_sim_cycle", c, 256);
    double total = 0;
    for (size_t i = 0; i < n && i < 256; i++) total += c[i];
    size_t nd = ws_test_text_stat(s.report, "warpsim_detailed", det, 256);
    double detailed = 0;
    for (size_t i = 0; i < nd && i < 256; i++) detailed += det[i];
    CHECK_EQ_U64(nd, n);
    CHECK_MSG(detailed < 0.7 * (double)nd, "%g of %zu launches in detail", detailed, nd);
    const char *line = strstr(s.err, "projected total cycles ");
    CHECK_MSG(line != NULL, "%s", s.err);
    double proj = line ? strtod(line + 23, NULL) : 0;
    CHECK_MSG(fabs(proj - total) <= 0.1 * total, "projected %g, full run %g", proj, total);
    CHECK(strstr(s.err, "error estimate +-") != NULL);
    char path[160];
    snprintf(path, sizeof path, "%s/sampling.json", dir);
    char *js = ws_test_read_file(path, NULL);
    CHECK(js && strstr(js, "\"projected_total_cycles\""));
    free(js);
    ws_test_rmtree(dir);
    /* another program's profile is refused at its first differing launch */
    run_out o = run_with("rodinia/lud", 0, s2, NULL);
    CHECK(o.result == WS_WL_ERROR);
    run_free(&o);
    /* the profile pass needs the functional engine, the sampled run the timing model */
    o = run_with("rodinia/gaussian", 0, s1, NULL);
    CHECK(o.create != WS_OK && strstr(o.err, "functional"));
    run_free(&o);
    o = run_with("rodinia/gaussian", 1, s2, NULL);
    CHECK(o.create != WS_OK && strstr(o.err, "timing model"));
    run_free(&o);
    run_free(&p);
    run_free(&full);
    run_free(&s);
    unlink(prof);
    free(prof);
}

TEST(longrun_sampling_within_a_kernel_stops_when_ipc_converges) {
    /* blackscholes: 480 CTAs, 120 at a time; its second launch settles */
    const char *tol[] = {"-warpsim_sample_ipc_tol 0.05", "-warpsim_sample_waves 2", NULL};
    run_out a = run_with("sdk/blackscholes", 0, NULL, NULL), b = run_with("sdk/blackscholes", 0, tol, NULL);
    CHECK(a.result == WS_WL_PASS && b.result == WS_WL_PASS);
    double ca[2] = {0}, cb[2] = {0}, ia[2] = {0}, ib[2] = {0}, det[2] = {0}, fi[2] = {0};
    CHECK_EQ_U64(ws_test_text_stat(a.report, "gpu_sim_cycle", ca, 2), 2);
    CHECK_EQ_U64(ws_test_text_stat(b.report, "gpu_sim_cycle", cb, 2), 2);
    CHECK_EQ_U64(ws_test_text_stat(a.report, "gpu_sim_insn", ia, 2), 2);
    CHECK_EQ_U64(ws_test_text_stat(b.report, "gpu_sim_insn", ib, 2), 2);
    CHECK_EQ_U64(ws_test_text_stat(b.report, "warpsim_detailed_cycle", det, 2), 2);
    CHECK_EQ_U64(ws_test_text_stat(b.report, "warpsim_functional_insn", fi, 2), 2);
    for (int i = 0; i < 2; i++) {
        CHECK(ia[i] == ib[i]);
        CHECK_MSG(fabs(cb[i] - ca[i]) <= 0.1 * ca[i], "launch %d: projected %g, full %g", i + 1,
                  cb[i], ca[i]);
        /* a kernel that stopped early: detailed part + projection */
        CHECK(fi[i] == 0 ? det[i] == cb[i] : det[i] < cb[i]);
    }
    CHECK_MSG(fi[1] > 0, "the second launch ran to its end in detail");
    /* the estimate: launches of one kernel add their errors linearly, so at
       least the tolerance times the projected cycles (two standard errors) */
    const char *e = strstr(b.err, "error estimate +-");
    CHECK_MSG(e != NULL, "%s", b.err);
    double est = e ? strtod(e + 17, NULL) / 100 : 0;
    double lin = 2 * 0.05 * ((cb[0] - det[0]) + (cb[1] - det[1])) / (cb[0] + cb[1]);
    CHECK_MSG(est >= lin - 1e-4, "estimate %g below %g", est, lin);
    run_free(&a);
    run_free(&b);
}

TEST(longrun_sampling_across_and_within_kernels_together) {
    /* blackscholes: two launches of one group, both detailed (2 per group);
       the second stops once its IPC converges (as in the test above), and
       its projection's error joins the across-kernel estimate */
    char *prof = tmp_path("prof2"), p1[128], p2[128];
    snprintf(p1, sizeof p1, "-warpsim_profile_out %s", prof);
    snprintf(p2, sizeof p2, "-warpsim_sample_kernels %s", prof);
    const char *s1[] = {p1, NULL};
    const char *s2[] = {p2, "-warpsim_sample_ipc_tol 0.05", "-warpsim_sample_waves 2", NULL};
    const char *s3[] = {p2, NULL};
    run_out p = run_with("sdk/blackscholes", 1, s1, NULL);
    CHECK(p.result == WS_WL_PASS);
    run_out b = run_with("sdk/blackscholes", 0, s2, NULL), a = run_with("sdk/blackscholes", 0, s3, NULL);
    CHECK_MSG(b.result == WS_WL_PASS, "%s", b.err);
    CHECK(a.result == WS_WL_PASS);
    double cb[2] = {0}, det[2] = {0}, fi[2] = {0}, d[2] = {0};
    CHECK_EQ_U64(ws_test_text_stat(b.report, "gpu_sim_cycle", cb, 2), 2);
    CHECK_EQ_U64(ws_test_text_stat(b.report, "warpsim_detailed", d, 2), 2);
    CHECK_EQ_U64(ws_test_text_stat(b.report, "warpsim_detailed_cycle", det, 2), 2);
    CHECK_EQ_U64(ws_test_text_stat(b.report, "warpsim_functional_insn", fi, 2), 2);
    CHECK(d[0] == 1 && d[1] == 1);
    CHECK_MSG(fi[1] > 0 && det[1] < cb[1], "the second launch ran to its end in detail");
    /* one line, of the across-kernel run, whose total is the launches' */
    CHECK(strstr(b.err, "sampled simulation within kernels") == NULL);
    const char *line = strstr(b.err, "projected total cycles ");
    CHECK_MSG(line != NULL, "%s", b.err);
    double proj = line ? strtod(line + 23, NULL) : 0;
    CHECK_MSG(fabs(proj - (cb[0] + cb[1])) < 1, "projected %g, launches %g", proj, cb[0] + cb[1]);
    /* the estimate: at least the stopped launch's tolerance times its projected
       cycles (two standard errors); without within-kernel sampling, none */
    const char *e = line ? strstr(line, "error estimate +-") : NULL, *ea = strstr(a.err, "error estimate +-");
    CHECK(e && ea);
    double est = e ? strtod(e + 17, NULL) / 100 : 0, esta = ea ? strtod(ea + 17, NULL) / 100 : 1;
    double floor = 2 * 0.05 * (cb[1] - det[1]) / (cb[0] + cb[1]);
    CHECK_MSG(est >= floor - 1e-4, "estimate %g below %g", est, floor);
    CHECK_MSG(esta < 1e-4, "nothing projected, estimate %g", esta);
    run_free(&p);
    run_free(&a);
    run_free(&b);
    unlink(prof);
    free(prof);
}
