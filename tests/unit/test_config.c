/* Option table, config files and presets. */
#include <stdlib.h>
#include <unistd.h>

#include "config/config.h"
#include "runtime/shim.h"
#include "test.h"

static int g_warnings;
static char g_last_warning[512];
static void count_warn(void *ctx, const char *msg) {
    (void)ctx;
    g_warnings++;
    snprintf(g_last_warning, sizeof g_last_warning, "%s", msg);
}

TEST(config_defaults_are_gtx480_321) {
    ws_config c;
    ws_config_init(&c);
    CHECK_EQ_I64(c.n_clusters, 15);
    CHECK_EQ_I64(c.n_mem, 6);
    CHECK_EQ_I64(c.shader_registers, 32768);
    CHECK(!strcmp(c.cache_dl1, "32:128:4,L:L:m:N,A:32:8,8"));
    CHECK(!strcmp(c.cache_dl2, "64:128:16,L:B:m:W,A:32:4,4"));
    CHECK(!strcmp(c.scheduler, "gto"));
    CHECK_EQ_I64(c.icnt_vc_buf_size, 8);
    ws_config_free(&c);
}

TEST(config_set_checks_type_and_range) {
    ws_config c;
    char err[512];
    ws_config_init(&c);
    CHECK(ws_config_set(&c, "-gpgpu_n_clusters", "4", err, sizeof err) == 0);
    CHECK_EQ_I64(c.n_clusters, 4);
    CHECK(ws_config_set(&c, "gpgpu_n_clusters", "four", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "gpgpu_n_clusters");
    CHECK_STR_CONTAINS(err, "'four'");
    CHECK_STR_CONTAINS(err, "1..1024");
    CHECK(ws_config_set(&c, "gpgpu_n_clusters", "0", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "out of range");
    CHECK(ws_config_set(&c, "gpgpu_flush_l1_cache", "2", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "not a boolean");
    CHECK(ws_config_set(&c, "no_such_option", "1", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown option -no_such_option");
    CHECK_MSG(!strstr(err, "did you mean"), "a far-off name got a suggestion: %s", err);
    CHECK_EQ_I64(c.n_clusters, 4); /* failed sets change nothing */
    ws_config_free(&c);
}

TEST(config_file_syntax_comments_quotes) {
    const char *text =
        "# comment\n"
        "-gpgpu_n_clusters 10   # trailing comment\n"
        "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
        "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
        "-gpgpu_cache:dl1  N:32:128:4,L:L:m:N:H,S:64:8,8\n"
        "-gpgpu_scheduler lrr\n";
    ws_config c;
    char err[512];
    ws_config_init(&c);
    g_warnings = 0;
    CHECK(ws_config_load_text(&c, text, "t.config", ".", count_warn, NULL, err, sizeof err) == 0);
    CHECK_EQ_I64(c.n_clusters, 10);
    CHECK(!strcmp(c.dram_timing_opt,
                  "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"));
    CHECK(!strcmp(c.cache_dl1, "N:32:128:4,L:L:m:N:H,S:64:8,8"));
    CHECK(!strcmp(c.scheduler, "lrr"));
    CHECK_EQ_I64(g_warnings, 0);
    CHECK(ws_config_load_text(&c, "-gpgpu_n_mem x\n", "bad.config", ".", count_warn, NULL, err,
                              sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "bad.config:1: option -gpgpu_n_mem: 'x' is not an integer");
    CHECK(ws_config_load_text(&c, "gpgpu_n_mem 3\n", "bad.config", ".", count_warn, NULL, err,
                              sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "expected an option");
    ws_config_free(&c);
}

TEST(config_presets) {
    ws_config c;
    char err[512];
    ws_config_init(&c);
    CHECK(ws_config_apply_preset(&c, "gtx480-v4", err, sizeof err) == 0);
    CHECK_EQ_I64(c.l1_latency, 35);
    CHECK_EQ_I64(c.icnt_bs_flit_size, 40);
    CHECK(ws_config_apply_preset(&c, "gtx9000", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown preset 'gtx9000'");
    CHECK_STR_CONTAINS(err, "gtx480");
    ws_config_free(&c);
}

TEST(config_list_helpers) {
    int64_t v[8];
    double mhz[4];
    CHECK_EQ_I64(ws_config_int_list("4,13,4,5,145", v, 8), 5);
    CHECK_EQ_I64(v[4], 145);
    CHECK_EQ_I64(ws_config_int_list("4,x", v, 8), -1);
    CHECK(ws_config_clocks("700.0:1400.0:700.0:924.0", mhz) == 0);
    CHECK(mhz[1] == 1400.0 && mhz[3] == 924.0);
    CHECK(ws_config_clocks("700:1400", mhz) == -1);
}

/* The reference GPGPU-Sim config (GPGPU-Sim 4.2's SM2_GTX480) loads with its
 * .icnt file; the notes list the options warpsim does not model. */
TEST(config_loads_reference_gpgpusim_files) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/gpgpusim-configs/SM2_GTX480/gpgpusim.config",
             ws_test_root());
    ws_config c;
    char err[512];
    ws_config_init(&c);
    g_warnings = 0;
    int rc = ws_config_load_file(&c, path, count_warn, NULL, err, sizeof err);
    CHECK_MSG(rc == 0, "load failed: %s", err);
    /* one note for the .icnt file (flit_size, input_speedup), then the config's */
    CHECK_MSG(g_warnings == 2, "%d notes, last: %s", g_warnings, g_last_warning);
    CHECK_STR_CONTAINS(g_last_warning,
                       "SM2_GTX480/gpgpusim.config: 5 options set here have no effect");
    CHECK_STR_CONTAINS(g_last_warning, "-gpgpu_n_cluster_ejection_buffer_size 32");
    CHECK_EQ_I64(c.icnt_vc_buf_size, 64);
    CHECK_EQ_I64(c.icnt_bs_flit_size, 40);
    CHECK_EQ_I64(c.n_sub_partition_per_mchannel, 2);
    /* the preset that mirrors this file agrees on every option */
    ws_config p;
    ws_config_init(&p);
    CHECK(ws_config_apply_preset(&p, "gtx480-v4", err, sizeof err) == 0);
    char *a = NULL, *b = NULL;
    size_t al = 0, bl = 0;
    FILE *fa = open_memstream(&a, &al), *fb = open_memstream(&b, &bl);
    ws_config_write(&c, fa);
    ws_config_write(&p, fb);
    fclose(fa);
    fclose(fb);
    CHECK_MSG(!strcmp(a, b), "preset gtx480-v4 differs from the reference config");
    free(a);
    free(b);
    ws_config_free(&p);
    ws_config_free(&c);
}

/* A file, with the directory it lives in, in a fresh temporary folder. */
static void write_tmp(char *dir, size_t dlen, const char *name, const char *text, char *path,
                      size_t plen) {
    if (!dir[0]) {
        snprintf(dir, dlen, "/tmp/warpsim-cfg-XXXXXX");
        CHECK(mkdtemp(dir) != NULL);
    }
    snprintf(path, plen, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void rm_tmp(const char *dir, const char *const *names) {
    char p[4096];
    for (; *names; names++) {
        snprintf(p, sizeof p, "%s/%s", dir, *names);
        unlink(p);
    }
    rmdir(dir);
}

/* GPGPU-Sim stops on an unknown option, and so must warpsim: a typo would
 * otherwise run the default and look like a result. */
TEST(config_unknown_option_is_an_error_with_a_suggestion) {
    ws_config c;
    char err[512];
    ws_config_init(&c);
    g_warnings = 0;
    CHECK(ws_config_load_text(&c, "-gpgpu_n_clusters 4\n\n-gpgpu_schedular lrr\n", "t.config", ".",
                              count_warn, NULL, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "t.config:3: unknown option -gpgpu_schedular; did you mean -gpgpu_scheduler?");
    CHECK_EQ_I64(g_warnings, 0);
    /* --set and WARPSIM_SET go through ws_config_set */
    CHECK(ws_config_set(&c, "-gpgpu_schedular", "lrr", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown option -gpgpu_schedular; did you mean -gpgpu_scheduler?");
    CHECK(ws_config_set(&c, "scheduler", "lrr", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "did you mean -gpgpu_scheduler?");
    CHECK(ws_config_set(&c, "GPGPU_N_CLUSTERS", "2", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "did you mean -gpgpu_n_clusters?");
    CHECK(!strcmp(c.scheduler, "gto"));
    ws_config_free(&c);
}

TEST(config_unknown_icnt_key_is_an_error_with_a_suggestion) {
    char dir[256] = "", cfg[4096], icnt[4096], err[512];
    write_tmp(dir, sizeof dir, "x.icnt", "// comment\nnum_vcs = 2;\nvc_buff_size = 16;\n", icnt,
              sizeof icnt);
    write_tmp(dir, sizeof dir, "x.config", "-inter_config_file x.icnt\n", cfg, sizeof cfg);
    ws_config c;
    ws_config_init(&c);
    CHECK(ws_config_load_file(&c, cfg, count_warn, NULL, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "x.icnt:3: unknown interconnect key vc_buff_size; did you mean vc_buf_size?");
    CHECK_EQ_I64(c.icnt_num_vcs, 2);
    CHECK_EQ_I64(c.icnt_vc_buf_size, 8);
    /* .icnt keys are not config-file options, and the other way round */
    CHECK(ws_config_load_text(&c, "-vc_buf_size 4\n", "y.config", dir, count_warn, NULL, err,
                              sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "y.config:1: unknown option -vc_buf_size");
    ws_config_free(&c);
    rm_tmp(dir, (const char *const[]){"x.icnt", "x.config", NULL});
}

/* GPGPU-Sim options that warpsim does not model load, and the ones set away
 * from their defaults are named in one note per file. */
TEST(config_no_effect_options_are_accepted_with_one_note) {
    ws_config c;
    char err[512];
    ws_config_init(&c);
    g_warnings = 0;
    CHECK(ws_config_load_text(&c,
                              "-gpgpu_dual_issue_diff_exec_units 1\n-gpgpu_l1_cache_write_ratio 25\n"
                              "-ptx_opcode_latency_tesnor 64\n-gpgpu_runtime_stat 10000\n"
                              "-gpgpu_shmem_limited_broadcast 0\n-icnt_in_buffer_limit 64\n",
                              "m.config", ".", count_warn, NULL, err, sizeof err) == 0);
    CHECK_EQ_I64(g_warnings, 1);
    CHECK_STR_CONTAINS(g_last_warning, "m.config: 4 options set here have no effect in warpsim");
    CHECK_STR_CONTAINS(g_last_warning, "-gpgpu_dual_issue_diff_exec_units 1, -gpgpu_l1_cache_write_ratio 25, "
                                       "-ptx_opcode_latency_tesnor 64, -icnt_in_buffer_limit 64");
    g_warnings = 0;
    CHECK(ws_config_load_text(&c, "-gpgpu_TB_launch_latency 0\n", "d.config", ".", count_warn, NULL,
                              err, sizeof err) == 0);
    CHECK_EQ_I64(g_warnings, 0); /* the default value: nothing to say */
    CHECK_EQ_I64(ws_config_no_effect("-gpgpu_l1_cache_write_ratio"), 1);
    CHECK_EQ_I64(ws_config_no_effect("-gpgpu_sub_core_model"), 0); /* modelled */
    CHECK_EQ_I64(ws_config_no_effect("-gpgpu_kernel_launch_latency"), 0); /* modelled */
    CHECK_EQ_I64(ws_config_no_effect("use_map"), 1);
    CHECK_EQ_I64(ws_config_no_effect("gpgpu_scheduler"), 0);
    CHECK_EQ_I64(ws_config_no_effect("rop_latency"), 0);
    CHECK_EQ_I64(ws_config_no_effect("gpgpu_schedular"), -1);
    ws_config_free(&c);
}

/* -rop_latency is GPGPU-Sim 3.x's name of -gpgpu_l2_rop_latency: the same
 * setting, whichever comes last wins. */
TEST(config_rop_latency_is_an_alias) {
    ws_config c;
    char err[512];
    ws_config_init(&c);
    CHECK(ws_config_set(&c, "-rop_latency", "7", err, sizeof err) == 0);
    CHECK_EQ_I64(c.l2_rop_latency, 7);
    CHECK(ws_config_load_text(&c, "-rop_latency 9\n-gpgpu_l2_rop_latency 11\n", "a.config", ".",
                              count_warn, NULL, err, sizeof err) == 0);
    CHECK_EQ_I64(c.l2_rop_latency, 11);
    /* the effective configuration names it once, by its current name */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_config_write(&c, f);
    fclose(f);
    CHECK_STR_CONTAINS(text, "-gpgpu_l2_rop_latency 11\n");
    CHECK_MSG(!strstr(text, "\n-rop_latency"), "the alias is written out");
    free(text);
    ws_config_free(&c);
}

/* Every option GPGPU-Sim's tested configs set (tests/data/gpgpusim-configs,
 * copies of GPGPU-Sim 4.2's) is known: each file and its .icnt load. That the
 * timing model accepts their values is config_postfermi_presets_equal_their_files'
 * business (the presets are these files). */
TEST(config_loads_every_gpgpusim_tested_config) {
    static const char *const cfgs[] = {"SM2_GTX480", "SM7_QV100", "SM7_TITANV", "SM75_RTX2060",
                                       "SM86_RTX3070", NULL};
    for (const char *const *n = cfgs; *n; n++) {
        char path[4096], err[512];
        snprintf(path, sizeof path, "%s/tests/data/gpgpusim-configs/%s/gpgpusim.config",
                 ws_test_root(), *n);
        ws_config c;
        ws_config_init(&c);
        g_warnings = 0;
        int rc = ws_config_load_file(&c, path, count_warn, NULL, err, sizeof err);
        CHECK_MSG(rc == 0, "%s: %s", *n, err);
        CHECK_MSG(g_warnings <= 2, "%s: %d notes (one per file expected)", *n, g_warnings);
        ws_config_free(&c);
    }
}

/* --set (ws_device_options.config_overrides) and WARPSIM_SET (the CUDA shim)
 * refuse an unknown option: the device is not created. */
TEST(config_unknown_override_refuses_the_device) {
    const char *sets[] = {"-gpgpu_n_clusters 4", "-gpgpu_schedular lrr", NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.config_overrides = sets;
    o.overrides_source = "--set";
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_ERR_CONFIG);
    CHECK(d == NULL);
    sets[1] = "-gpgpu_scheduler lrr";
    CHECK(ws_device_create(&o, &d) == WS_OK);
    ws_device_destroy(d);

    const char *old = getenv("WARPSIM_SET");
    char *saved = old ? strdup(old) : NULL;
    setenv("WARPSIM_SET", "-gpgpu_n_clusters 4\n-gpgpu_schedular lrr\n", 1);
    d = NULL;
    CHECK(ws_shim_open_device(&d) == WS_ERR_CONFIG);
    CHECK(d == NULL);
    /* more overrides than the shim holds: an error, not a silently shorter list */
    char many[65 * 24] = "";
    for (int i = 0; i < 65; i++) strcat(many, "-gpgpu_n_clusters 4\n");
    setenv("WARPSIM_SET", many, 1);
    CHECK(ws_shim_open_device(&d) == WS_ERR_CONFIG);
    if (saved) setenv("WARPSIM_SET", saved, 1);
    else unsetenv("WARPSIM_SET");
    free(saved);

    /* WARPSIM_CONFIG: the file's unknown option */
    char dir[256] = "", path[4096];
    write_tmp(dir, sizeof dir, "s.config", "-gpgpu_n_clusters 4\n-gpgpu_n_clusterz 4\n", path,
              sizeof path);
    old = getenv("WARPSIM_CONFIG");
    saved = old ? strdup(old) : NULL;
    setenv("WARPSIM_CONFIG", path, 1);
    CHECK(ws_shim_open_device(&d) == WS_ERR_CONFIG);
    if (saved) setenv("WARPSIM_CONFIG", saved, 1);
    else unsetenv("WARPSIM_CONFIG");
    free(saved);
    rm_tmp(dir, (const char *const[]){"s.config", NULL});
}

/* The post-Fermi presets are GPGPU-Sim 4.2's tested configs option for option:
 * each equals loading the file (with its .icnt), has the configs' key values,
 * and builds a simulated GPU (no value is refused). */
TEST(config_postfermi_presets_equal_their_files) {
    static const struct {
        const char *preset, *dir;
        int64_t clusters, mem, sched, shmem;
        const char *dl2;
    } t[] = {
        {"qv100", "SM7_QV100", 80, 32, 4, 98304, "S:32:128:24,L:B:m:L:P,A:192:4,32:0,32"},
        {"titanv", "SM7_TITANV", 40, 24, 4, 98304, "S:32:128:24,L:B:m:L:P,A:192:4,32:0,32"},
        {"rtx2060", "SM75_RTX2060", 30, 12, 4, 65536, "S:64:128:16,L:B:m:L:P,A:192:4,32:0,32"},
        {"rtx3070", "SM86_RTX3070", 46, 16, 4, 102400, "S:64:128:16,L:B:m:L:P,A:192:4,32:0,32"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char path[4096], err[512];
        snprintf(path, sizeof path, "%s/tests/data/gpgpusim-configs/%s/gpgpusim.config",
                 ws_test_root(), t[i].dir);
        ws_config f, p;
        ws_config_init(&f);
        ws_config_init(&p);
        CHECK_MSG(ws_config_load_file(&f, path, count_warn, NULL, err, sizeof err) == 0, "%s",
                  err);
        CHECK_MSG(ws_config_apply_preset(&p, t[i].preset, err, sizeof err) == 0, "%s", err);
        CHECK_EQ_I64(p.n_clusters, t[i].clusters);
        CHECK_EQ_I64(p.n_mem, t[i].mem);
        CHECK_EQ_I64(p.num_sched_per_core, t[i].sched);
        CHECK_EQ_I64(p.shmem_size, t[i].shmem);
        CHECK_MSG(!strcmp(p.cache_dl2, t[i].dl2), "%s: dl2 %s", t[i].preset, p.cache_dl2);
        CHECK_EQ_I64(p.memory_partition_indexing, strcmp(t[i].preset, "rtx2060") ? 2 : 0);
        char *a = NULL, *b = NULL;
        size_t al = 0, bl = 0;
        FILE *fa = open_memstream(&a, &al), *fb = open_memstream(&b, &bl);
        ws_config_write(&f, fa);
        ws_config_write(&p, fb);
        fclose(fa);
        fclose(fb);
        CHECK_MSG(!strcmp(a, b), "preset %s differs from %s", t[i].preset, t[i].dir);
        free(a);
        free(b);
        ws_config_free(&p);
        ws_config_free(&f);
        ws_device_options o;
        ws_device_options_init(&o);
        o.preset = t[i].preset;
        ws_device *d = NULL;
        CHECK_MSG(ws_device_create(&o, &d) == WS_OK, "preset %s does not build", t[i].preset);
        ws_device_destroy(d);
    }
}

/* `warpsim options` gives every option that is accepted without effect a
 * reason: what warpsim does instead, or why it does not matter. */
TEST(config_no_effect_options_give_a_reason) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_config_print_options(f);
    fclose(f);
    int n = 0;
    for (char *l = text; l && *l;) {
        char *e = strchr(l, '\n');
        if (e) *e = 0;
        char *a = strstr(l, "(accepted;");
        if (a) {
            n++;
            CHECK_MSG(strcmp(a, "(accepted; no effect)") && strlen(a) > 24,
                      "no reason given: %s", l);
        }
        l = e ? e + 1 : NULL;
    }
    CHECK(n > 60);
    CHECK_EQ_I64(ws_config_no_effect("gpgpu_l1_cache_write_ratio"), 1);
    CHECK_EQ_I64(ws_config_no_effect("gpgpu_l1_banks"), 0);
    CHECK_EQ_I64(ws_config_no_effect("-gpgpu_memory_partition_indexing"), 0);
    free(text);
}
