/* Every option of the table that is not marked "(accepted; no effect)" must
 * change something: a documented option that nothing reads (as -rop_latency
 * once was) silently runs the default, and a sweep over it gives identical
 * columns. Two checks, both required:
 *   - static: the option's ws_config field is read outside src/config, as
 *     cfg->FIELD or c->FIELD (the names the simulator uses for its config);
 *   - dynamic: a timing run of a bundled workload with a non-default value
 *     gives a different report than with the default (or the timing model
 *     refuses the value), except for the options listed in g_quiet, which
 *     no such run can show (each says why). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/config.h"
#include "test.h"
#include "warpsim/warpsim.h"
#include "workload.h"

typedef struct opt_row {
    const char *field, *name, *type, *def, *doc;
    double lo, hi;
} opt_row;

static const opt_row g_rows[] = {
#define X(field, name, type, def, lo, hi, doc) {#field, name, #type, def, doc, (double)(lo), (double)(hi)},
#define ICNT_X X
#define ALIAS_X(field, name, type, def, lo, hi, doc) /* tested with the option it names */
#include "config/options.def"
#undef X
#undef ICNT_X
#undef ALIAS_X
};
#define NROWS (sizeof g_rows / sizeof g_rows[0])

static int has_effect(const opt_row *r) { return strncmp(r->doc, "(accepted;", 10) != 0; }

/* Options with a single legal value: nothing to change. */
static int fixed(const opt_row *r) {
    return (!strcmp(r->type, "INT") || !strcmp(r->type, "DOUBLE")) && r->lo == r->hi;
}

/* ---- static: who reads the field ---- */
typedef struct src_text {
    char *buf;
    size_t len, cap;
} src_text;

static void slurp_tree(src_text *t, const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st)) continue;
        if (S_ISDIR(st.st_mode)) {
            if (strcmp(e->d_name, "config")) slurp_tree(t, path); /* the table itself does not count */
            continue;
        }
        size_t n = strlen(e->d_name);
        if (n < 3 || (strcmp(e->d_name + n - 2, ".c") && strcmp(e->d_name + n - 2, ".h"))) continue;
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        char chunk[65536];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
            if (t->len + got + 1 > t->cap) {
                t->cap = (t->len + got + 1) * 2;
                t->buf = realloc(t->buf, t->cap);
            }
            memcpy(t->buf + t->len, chunk, got);
            t->len += got;
        }
        t->buf[t->len] = 0;
        fclose(f);
    }
    closedir(d);
}

static int ident(char ch) {
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* "cfg->FIELD", "cfg.FIELD", "c->FIELD" or "c.FIELD" as whole words. */
static int read_in(const char *text, const char *field) {
    size_t fl = strlen(field);
    for (const char *p = strstr(text, field); p; p = strstr(p + 1, field)) {
        if (ident(p[fl])) continue;
        const char *q = p;
        if (q - text >= 2 && q[-2] == '-' && q[-1] == '>') q -= 2;
        else if (q - text >= 1 && q[-1] == '.') q -= 1;
        else continue;
        const char *v = q;
        while (v > text && ident(v[-1])) v--;
        size_t vl = (size_t)(q - v);
        if ((vl == 3 && !strncmp(v, "cfg", 3)) || (vl == 1 && *v == 'c')) return 1;
    }
    return 0;
}

TEST(options_every_documented_option_is_read) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/src", ws_test_root());
    src_text t = {0};
    slurp_tree(&t, dir);
    CHECK_MSG(t.len > 100000, "could not read the sources under %s", dir);
    if (!t.buf) return;
    int n = 0;
    for (size_t i = 0; i < NROWS; i++) {
        const opt_row *r = &g_rows[i];
        /* read by the loader itself: it loads the .icnt file it names */
        if (!has_effect(r) || fixed(r) || !strcmp(r->name, "inter_config_file")) continue;
        n++;
        CHECK_MSG(read_in(t.buf, r->field),
                  "option -%s (field %s) is documented but nothing outside src/config reads "
                  "cfg->%s: make it work or mark it \"(accepted; no effect)\"",
                  r->name, r->field, r->field);
    }
    CHECK(n > 80);
    /* the check itself: an unread field and a look-alike that is not the config's */
    CHECK(read_in("x = p->rop_latency + cfg->l2_rop_latency;", "l2_rop_latency"));
    CHECK(!read_in("x = p->rop_latency;", "rop_latency"));
    CHECK(!read_in("x = cfg->rop_latency_x;", "rop_latency"));
    free(t.buf);
}

/* ---- dynamic: a different value gives a different run ---- */

/* A non-default value to try, where the mechanical one (integer doubled,
 * boolean flipped) shows nothing or is not valid; the workload that uses what
 * the option controls (NULL: vectoradd, then matmul); other options it needs
 * (set in both runs); and whether the run must be whole (effects that show
 * only after the first kernels). */
typedef struct alt {
    const char *name, *value, *workload, *with;
    int whole;
} alt;

#define HM_CPU "-hm_enable 1\n-hm_page_policy static:0"
#define HM_RANDOM "-hm_enable 1\n-hm_page_policy static:0.5"
#define CPU_ON "-cpu_llc_source random\n-cpu_llc_rate 0.2"
#define GEN_OC                                                                                     \
    "-gpgpu_enable_specialized_operand_collector 0\n-gpgpu_operand_collector_num_units_gen 8\n"   \
    "-gpgpu_operand_collector_num_in_ports_gen 8\n-gpgpu_operand_collector_num_out_ports_gen 8"
static const alt g_alt[] = {
    {"gpgpu_clock_domains", "600.0:1200.0:600.0:800.0", NULL, NULL, 0},
    {"gpgpu_shader_core_pipeline", "1024:32", NULL, NULL, 0},
    {"gpgpu_scheduler", "lrr", NULL, NULL, 0},
    {"warpsim_oc", "gen8", NULL, NULL, 0},
    /* GPGPU-Sim 4's generic collector and sub-core SMs */
    {"gpgpu_enable_specialized_operand_collector", "1", NULL, GEN_OC, 0},
    {"gpgpu_operand_collector_num_in_ports_gen", "1", NULL, GEN_OC, 0},
    {"gpgpu_operand_collector_num_out_ports_gen", "1", NULL, GEN_OC, 0},
    {"gpgpu_sub_core_model", "1", NULL, "-gpgpu_pipeline_widths 2,2,2,2,2,2,2\n-gpgpu_num_sfu_units 2", 0},
    /* the unified L1D/shared array: the gtx480's 16 KB L1D grows to 48 KB (64 - 16) */
    {"gpgpu_adaptive_cache_config", "1", "micro/bfs", "-gpgpu_shmem_option 16,48\n-gpgpu_unified_l1d_size 64", 0},
    {"gpgpu_shmem_option", "48", "micro/bfs", "-gpgpu_adaptive_cache_config 1\n-gpgpu_shmem_option 16,48\n-gpgpu_unified_l1d_size 64", 0},
    {"gpgpu_unified_l1d_size", "32", "micro/bfs", "-gpgpu_adaptive_cache_config 1\n-gpgpu_shmem_option 16,48\n-gpgpu_unified_l1d_size 64", 0},
    {"warpsim_hazard_mode", "replay", NULL, NULL, 0},
    {"warpsim_hp_predictor", "true", NULL, NULL, 0},
    {"warpsim_replay_pass_accesses", "4", NULL, "-warpsim_hazard_mode replay", 0},
    {"warpsim_hp_tracker", "naive", NULL, "-warpsim_hp_predictor true", 0},
    {"gpgpu_shader_cta", "1", NULL, NULL, 0},
    {"gpgpu_num_sfu_units", "2", "sdk/blackscholes", NULL, 1},
    {"gpgpu_operand_collector_num_units_sp", "1", NULL, NULL, 0},
    {"warpsim_throttle", "swl:4", NULL, NULL, 0},
    {"gpgpu_pipeline_widths", "1,1,1,1,1,1,1", NULL, NULL, 0},
    {"ptx_opcode_latency_int", "8,13,8,10,145", NULL, NULL, 0},
    {"ptx_opcode_initiation_int", "2,2,2,2,8", NULL, NULL, 0},
    {"ptx_opcode_latency_fp", "40,13,40,40,39", NULL, NULL, 0},
    {"ptx_opcode_initiation_fp", "4,2,4,4,4", NULL, NULL, 0},
    {"ptx_opcode_latency_dp", "40,19,40,40,330", "micro/dpsolve", NULL, 0},
    /* an initiation interval above the latency is cut to it: go below */
    {"ptx_opcode_initiation_dp", "1,1,1,1,130", "micro/dpsolve",
     "-gpgpu_num_dp_units 1\n-gpgpu_operand_collector_num_units_dp 2", 0},
    {"energy_dp_pj", "180", "micro/dpsolve", NULL, 0},
    {"gpgpu_num_dp_units", "1", "micro/dpsolve", "-gpgpu_operand_collector_num_units_dp 2", 0},
    {"gpgpu_operand_collector_num_units_dp", "1", "micro/dpsolve",
     "-gpgpu_num_dp_units 1\n-gpgpu_operand_collector_num_units_dp 2", 0},
    {"gpgpu_num_int_units", "1", NULL, "-gpgpu_operand_collector_num_units_int 2", 0},
    {"gpgpu_operand_collector_num_units_int", "1", NULL,
     "-gpgpu_num_int_units 1\n-gpgpu_operand_collector_num_units_int 2", 0},
    {"ptx_opcode_latency_sfu", "80", "sdk/blackscholes", NULL, 1},
    {"ptx_opcode_initiation_sfu", "1", "sdk/blackscholes", NULL, 1},
    {"energy_sfu_pj", "160", "sdk/blackscholes", NULL, 1},
    {"gpgpu_operand_collector_num_units_sfu", "1", "sdk/blackscholes", NULL, 0},
    {"gpgpu_cache:dl1", "8:128:4,L:L:m:N,A:32:8,8", NULL, NULL, 0},
    {"gpgpu_cache:dl2", "2:128:1,L:B:m:W,A:32:4,4", "micro/matmul", NULL, 0},
    {"gpgpu_flush_l1_cache", "1", "micro/bfs", NULL, 0},
    {"gpgpu_flush_l2_cache", "1", "micro/bfs", NULL, 0},
    {"gpgpu_cache:il1", "1:128:1,L:R:f:N,A:2:32,4", NULL, NULL, 0},
    {"gpgpu_tex_cache:l1", "1:128:2,L:R:m:N,F:128:4,128:2", "micro/texture", NULL, 0},
    {"gpgpu_const_cache:l1", "1:64:1,L:R:f:N,A:2:32,4", "sdk/convsep", NULL, 0},
    {"l1d_index", "bxi", NULL, NULL, 0},
    {"l2_index", "bxi", "sdk/blackscholes", NULL, 1},
    {"l1d_bypass", "always", NULL, NULL, 0},
    {"l2_bypass", "always", NULL, NULL, 0},
    {"l1d_reorder", "mrpb", NULL, NULL, 0},
    {"l1d_bypass_list", "/nonexistent-bypass-list", NULL, NULL, 0}, /* refused */
    {"l1d_reorder_channel", "1", NULL, "-l1d_warp_reorder 1", 0},
    {"gpgpu_shmem_size", "4096", "micro/matmul", NULL, 0},
    {"gpgpu_shmem_num_banks", "1", "micro/matmul", NULL, 0},
    {"gpgpu_smem_latency", "30", "micro/matmul", NULL, 0},
    {"energy_shmem_pj", "500", "micro/matmul", NULL, 0},
    {"gpgpu_shmem_warp_parts", "2", "micro/matmul", NULL, 0},
    {"gpgpu_coalesce_arch", "60", NULL, NULL, 0},
    {"warpsim_l2_partition_local_index", "1", "sdk/blackscholes", NULL, 1},
    {"gpgpu_dram_partition_queues", "2:2:2:2", NULL, NULL, 0},
    {"gpgpu_dram_timing_opt",
     "nbk=16:CCD=2:RRD=6:RCD=24:RAS=28:RP=24:RC=40:CL=24:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2",
     NULL, NULL, 0},
    {"gpgpu_mem_addr_mapping",
     "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS", NULL, NULL, 0},
    /* heterogeneous memory: with pages in CPU memory (static:0), at random (static:0.5) */
    {"hm_cpu_channels", "8", NULL, HM_CPU, 0},
    {"hm_cpu_channel_bw", "40", NULL, HM_CPU, 0},
    {"hm_cpu_latency", "700", NULL, HM_CPU, 0},
    {"hm_link_latency", "200", NULL, HM_CPU, 0},
    {"hm_link_bw", "20", NULL, HM_CPU, 0},
    {"hm_link_ports", "1", NULL, HM_CPU, 0},
    {"hm_cpu_queue", "4", NULL, HM_CPU, 0},
    {"hm_cpu_pages", "1", NULL, HM_CPU, 0},
    {"hm_gpu_pages", "1", NULL, "-hm_enable 1", 0},
    {"hm_page_policy", "bap", NULL, "-hm_enable 1", 0},
    {"hm_gpu_bw", "1", NULL, "-hm_enable 1\n-hm_page_policy bap", 0},
    {"hm_page_size", "65536", NULL, HM_RANDOM, 0},
    {"hm_seed", "2", NULL, HM_RANDOM, 0},
    /* the CPU core on the shared LLC */
    {"cpu_llc_source", "random", NULL, NULL, 0},
    {"warpsim_perfect_icache", "1", NULL, NULL, 0},
    {"cpu_llc_rate", "0.5", NULL, CPU_ON, 0},
    {"cpu_llc_footprint", "4194304", NULL, CPU_ON, 0},
    {"cpu_llc_read_frac", "0.2", NULL, CPU_ON, 0},
    {"cpu_llc_seed", "2", NULL, CPU_ON, 0},
    {"cpu_llc_base", "34359738368", NULL, CPU_ON, 0},
    {"cpu_llc_latency", "100", NULL, CPU_ON, 0},
    {"cpu_llc_mshr", "1", NULL, CPU_ON, 0},
};

/* Effective options the bundled workloads cannot show, and why. The static
 * check above still holds them to being read. */
static const char *const g_quiet[][2] = {
    {"gpgpu_deadlock_detect", "acts only when the simulation stops making progress"},
    {"warpsim_watchdog_cycles", "acts only when the simulation stops making progress"},
    {"warpsim_stat_interval", "writes timeseries.csv, not the report"},
    {"warpsim_hang_insns", "acts only on a kernel that spins forever (tests/func/test_hang.c)"},
    {"warpsim_hang_cycles", "acts only on a kernel that spins forever (tests/func/test_hang.c)"},
    {"warpsim_progress", "writes progress lines to stderr, not the report (test_hang.c)"},
    {"warpsim_skip_idle", "an optimisation whose results are identical by design"},
    {"warpsim_threads", "parallel simulation, bit-identical by design (tests/func/test_par.c)"},
    {"warpsim_threads_adapt", "whether a stretch of cycles runs in parallel, bit-identical by "
                              "design (tests/func/test_par.c)"},
    {"warpsim_hp_check", "a debug check of hazard prediction's books (tests/unit/test_replay.c)"},
    {"warpsim_map_granularity", "acts only on accesses outside every allocation, which no bundled "
                                "workload makes (tests/func/test_memcheck.c)"},
    {"l1d_bypass_profile", "writes the bypass-list file, not the report (test_l1bypass_run.c)"},
    {"llc_access_trace", "writes the trace file, not the report (test_llc_run.c)"},
    {"cpu_llc_trace", "a trace file to read, with -cpu_llc_source trace (test_cpu_llc_run.c)"},
    {"warpsim_analyze", "writes the analysis file, not the report (test_wcet_run.c)"},
    {"l1d_access_trace", "writes the trace file, not the report (test_reorder_run.c)"},
    {"l1d_bypass_unit", "changes what -l1d_bypass_profile writes (test_l1bypass_run.c)"},
    {"warpsim_memcheck", "writes reports to stderr, not the report (tests/func/test_memcheck.c)"},
    {"warpsim_checkpoint_save", "a file name: writes a checkpoint (tests/func/test_longrun.c)"},
    {"warpsim_checkpoint_resume", "a checkpoint file to read (tests/func/test_longrun.c)"},
    {"warpsim_profile_out", "a file name: writes a launch profile (tests/func/test_longrun.c)"},
    {"warpsim_sample_kernels", "a launch profile to read (tests/func/test_longrun.c)"},
    {"adi_nv", "adaptive indexing (-l1d_index adi) changes function on no bundled workload"},
    {"adi_ns", "adaptive indexing (-l1d_index adi) changes function on no bundled workload"},
    {"adi_ni", "adaptive indexing (-l1d_index adi) changes function on no bundled workload"},
    {"gpgpu_mem_address_mask", "read only without -gpgpu_mem_addr_mapping, and without it the "
                               "GTX480's 6 channels are refused (fields overlap)"},
    {"hm_profile", "read by -hm_page_policy blpp, whose run needs another run's profile file "
                   "(tests/func/test_hmem_run.c)"},
    {"hm_profile_out", "writes a profile file, not the report (tests/func/test_hmem_run.c)"},
    {"gpgpu_operand_collector_num_in_ports_sfu", "no bundled workload is limited by collector ports"},
    {"gpgpu_operand_collector_num_out_ports_sfu", "no bundled workload is limited by collector ports"},
    {"gpgpu_operand_collector_num_in_ports_mem", "no bundled workload is limited by collector ports"},
    {"gpgpu_operand_collector_num_out_ports_mem", "no bundled workload is limited by collector ports"},
    {"warpsim_tensor_latency", "no bundled workload uses tensor-core instructions (tests/unit/test_sm.c)"},
    {"warpsim_tensor_macs_per_cycle", "no bundled workload uses tensor-core instructions (tests/unit/test_sm.c)"},
};

static const alt *alt_of(const char *name) {
    for (size_t i = 0; i < sizeof g_alt / sizeof g_alt[0]; i++)
        if (!strcmp(g_alt[i].name, name)) return &g_alt[i];
    return NULL;
}

static const char *quiet_why(const char *name) {
    for (size_t i = 0; i < sizeof g_quiet / sizeof g_quiet[0]; i++)
        if (!strcmp(g_quiet[i][0], name)) return g_quiet[i][1];
    return NULL;
}

/* A value other than the default, in range. */
static void alt_value(const opt_row *r, char *buf, size_t n) {
    const alt *a = alt_of(r->name);
    if (a) {
        snprintf(buf, n, "%s", a->value);
    } else if (!strcmp(r->type, "STR")) {
        buf[0] = 0;
    } else if (!strcmp(r->type, "BOOL")) {
        snprintf(buf, n, "%d", !strcmp(r->def, "1") ? 0 : 1);
    } else if (!strcmp(r->type, "DOUBLE")) {
        double d = strtod(r->def, NULL), v = d > 0 ? d * 2 : 1;
        snprintf(buf, n, "%g", v <= r->hi ? v : d / 2);
    } else {
        long long d = strtoll(r->def, NULL, 0), v = d > 0 ? d * 2 : d + 1;
        snprintf(buf, n, "%lld", (double)v <= r->hi ? v : d - 1);
    }
}

/* The report of a timing run (capped unless whole) with the overrides in
 * sets ("-name value" lines), without its host-dependent lines; NULL when
 * the device refuses the configuration. */
static char *run_report(const char *workload, const char *sets, int whole) {
    const ws_workload *w = ws_workload_find(workload);
    if (!w) return NULL;
    char *rep = NULL, *copy = strdup(sets ? sets : "");
    size_t len = 0;
    FILE *rf = open_memstream(&rep, &len), *lf = fopen("/dev/null", "w");
    const char *over[8];
    int n = 0;
    for (char *save = NULL, *t = strtok_r(copy, "\n", &save); t && n < 7; t = strtok_r(NULL, "\n", &save))
        over[n++] = t;
    over[n] = NULL;
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.report = rf;
    o.max_insn = whole ? 0 : 1000000;
    o.config_overrides = n ? over : NULL;
    ws_device *d = NULL;
    int ok = ws_device_create(&o, &d) == WS_OK;
    if (ok) ws_workload_run(w, d, WS_INPUT_SMALL, lf);
    ws_device_destroy(d);
    fclose(rf);
    fclose(lf);
    free(copy);
    if (!ok) {
        free(rep);
        return NULL;
    }
    char *wr = rep;
    for (char *line = rep; line && *line;) {
        char *eol = strchr(line, '\n');
        size_t l = eol ? (size_t)(eol - line + 1) : strlen(line);
        if (strncmp(line, "gpu_sim_wall_time", 17) && strncmp(line, "gpu_total_sim_rate", 18))
            memmove(wr, line, l), wr += l;
        line = eol ? eol + 1 : NULL;
    }
    *wr = 0;
    return rep;
}

/* Reports with the default value, kept: many options share them. */
typedef struct base_run {
    const char *workload, *with;
    int whole;
    char *report;
} base_run;

static const char *base_report(base_run *cache, size_t max, const char *workload, const char *with,
                               int whole) {
    size_t i = 0;
    for (; i < max && cache[i].workload; i++)
        if (!strcmp(cache[i].workload, workload) && cache[i].whole == whole &&
            !strcmp(cache[i].with ? cache[i].with : "", with ? with : ""))
            return cache[i].report;
    char *rep = run_report(workload, with, whole);
    if (i < max) cache[i] = (base_run){workload, with, whole, rep};
    return rep; /* leaks only when the cache is full, which the test checks */
}

/* 1: the value changes the report of some workload; 0: of none; -1: the
 * timing model refuses it (which also shows that it reads the option). */
static int changes_a_run(base_run *cache, size_t max, const opt_row *r, const char *value) {
    const alt *a = alt_of(r->name);
    static const char *const dflt[] = {"micro/vectoradd", "micro/matmul", NULL};
    const char *one[] = {a && a->workload ? a->workload : NULL, NULL};
    const char *const *wls = one[0] ? one : dflt;
    char sets[1024];
    snprintf(sets, sizeof sets, "%s%s-%s %s", a && a->with ? a->with : "", a && a->with ? "\n" : "",
             r->name, value);
    for (; *wls; wls++) {
        const char *base = base_report(cache, max, *wls, a ? a->with : NULL, a && a->whole);
        char *rep = run_report(*wls, sets, a && a->whole);
        int res = !rep ? -1 : base && strcmp(base, rep) ? 1 : 0;
        CHECK_MSG(base != NULL, "%s does not run with '%s'", *wls, a && a->with ? a->with : "");
        free(rep);
        if (res) return res;
    }
    return 0;
}

TEST(options_every_documented_option_changes_a_run) {
    base_run cache[64] = {{0}};
    int tried = 0;
    for (size_t i = 0; i < NROWS; i++) {
        const opt_row *r = &g_rows[i];
        if (!has_effect(r) || fixed(r) || quiet_why(r->name) || !strcmp(r->name, "inter_config_file"))
            continue;
        char v[512], err[512];
        alt_value(r, v, sizeof v);
        CHECK_MSG(v[0], "option -%s: no value to try in g_alt", r->name);
        if (!v[0]) continue;
        /* the option table accepts the value: a refusal below is the model's */
        ws_config c;
        ws_config_init(&c);
        int valid = ws_config_set(&c, r->name, v, err, sizeof err) == 0;
        ws_config_free(&c);
        CHECK_MSG(valid, "-%s %s: %s", r->name, v, err);
        if (!valid) continue;
        tried++;
        CHECK_MSG(changes_a_run(cache, 64, r, v),
                  "'-%s %s' changes no report of the bundled workloads: does anything read it? "
                  "(make it work, mark it \"(accepted; no effect)\", or list it in g_quiet with why)",
                  r->name, v);
    }
    CHECK(tried > 70);
    CHECK(!cache[63].workload);
    for (size_t i = 0; i < 64; i++) free(cache[i].report);
}

/* An alias must change what its option changes. */
TEST(options_rop_latency_alias_changes_a_run) {
    char *a = run_report("micro/vectoradd", NULL, 0);
    char *b = run_report("micro/vectoradd", "-rop_latency 500", 0);
    char *c = run_report("micro/vectoradd", "-gpgpu_l2_rop_latency 500", 0);
    CHECK(a && b && c);
    if (a && b && c) {
        CHECK_MSG(strcmp(a, b), "-rop_latency 500 changes nothing");
        CHECK_MSG(!strcmp(b, c), "-rop_latency and -gpgpu_l2_rop_latency differ");
    }
    free(a);
    free(b);
    free(c);
}
