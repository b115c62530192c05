/* Option table, config files and presets. */
#include <stdlib.h>
#include <unistd.h>

#include "config/config.h"
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
    CHECK_EQ_I64(c.n_clusters, 4); /* failed sets change nothing */
    ws_config_free(&c);
}

TEST(config_file_syntax_comments_quotes_unknown) {
    const char *text =
        "# comment\n"
        "-gpgpu_n_clusters 10   # trailing comment\n"
        "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
        "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
        "-gpgpu_cache:dl1  N:32:128:4,L:L:m:N:H,S:64:8,8\n"
        "-some_future_option 7\n"
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
    CHECK_EQ_I64(g_warnings, 1);
    CHECK_STR_CONTAINS(g_last_warning, "t.config:6: unknown option -some_future_option");
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

/* The reference GPGPU-Sim config loads with its .icnt file and no warnings. */
TEST(config_loads_reference_gpgpusim_files) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/gpgpusim-gtx480/gpgpusim.config", ws_test_root());
    CHECK_MSG(access(path, R_OK) == 0, "reference config %s is missing", path);
    ws_config c;
    char err[512];
    ws_config_init(&c);
    g_warnings = 0;
    int rc = ws_config_load_file(&c, path, count_warn, NULL, err, sizeof err);
    CHECK_MSG(rc == 0, "load failed: %s", err);
    CHECK_MSG(g_warnings == 0, "unexpected warning: %s", g_last_warning);
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
