/* The `warpsim` command.
 *
 *   warpsim run [--config FILE | --preset NAME] [--functional] [-o DIR] WORKLOAD [--input small|paper|long]
 *   warpsim run [options] -- PROGRAM ARGS...     run a CUDA program under the libcudart shim
 *   warpsim run [options] --check-config         load the configuration, build the GPU, exit
 *   warpsim list                                 list bundled workloads
 *   warpsim ptx-check [-v] FILE.ptx...           parse and validate PTX
 *   warpsim options                              every option, its default and doc
 *   warpsim stats [--json]                       every statistic: names, unit, scope, aggregation
 *   warpsim sweep|query|report|timeseries ...    experiment tools (tools/warpsim-tools, Python)
 *   warpsim COMMAND --help                       that command's usage
 *
 * Options that take a value accept both `--opt VALUE` and `--opt=VALUE`.
 * Exit status: the workload's or program's (0 = pass), or 2 when the
 * simulator itself could not run it. */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/analyze.h"
#include "config/config.h"
#include "ptx/ptx.h"
#include "stats/catalog.h"
#include "util/hostheap.h"
#include "util/readfile.h"
#include "util/version.h"
#include "warpsim/warpsim.h"
#include "workload.h"

#define RUN_LINES                                                                                  \
    "  warpsim run [options] WORKLOAD [--input SIZE]           run a bundled workload\n"              \
    "  warpsim run [options] -- PROGRAM [ARGS...]              run a CUDA program (built with\n"      \
    "                                                           nvcc -cudart shared) on the simulator\n" \
    "  warpsim run [options] --check-config                    check the configuration, run nothing\n"
#define RUN_OPTIONS                                                                                \
    "run options (--opt VALUE or --opt=VALUE):\n"                                                  \
    "  --preset NAME     named configuration preset (below; default gtx480)\n"                     \
    "  --config FILE     GPGPU-Sim style configuration file (applied after the preset)\n"          \
    "  --set 'OPT VALUE' set one option (after the preset and file; repeatable),\n"                \
    "                    e.g. --set '-gpgpu_scheduler lrr' (see `warpsim options`)\n"              \
    "  --functional      functional simulation only (no timing model)\n"                           \
    "  --check-config    load the configuration and build the simulated GPU from it (which\n"      \
    "                    checks every option name and value), then exit: 0 = usable\n"             \
    "  -o, --output DIR  also write statistics as JSON into DIR\n"                                 \
    "  -q, --quiet       no per-kernel report\n"                                                   \
    "  --max-insn N      stop after N thread instructions (like -gpgpu_max_insn)\n"                \
    "  --max-cycle N     stop after N core cycles (like -gpgpu_max_cycle; timing runs)\n"          \
    "                    a capped run is marked: warpsim_capped = 1, later launches skipped\n"     \
    "  --memcheck[=stop] report accesses outside allocations (-warpsim_memcheck 1; stop: 2)\n"      \
    "long programs (docs/sampling.md; each is the option in parentheses):\n"                     \
    "  --fast-forward-kernels N  run the first N launches functionally, then the timing model\n"   \
    "                    (-warpsim_fast_forward_kernels); --fast-forward-insn N: until N thread\n"  \
    "                    instructions (-warpsim_fast_forward_insn); --warm: warm L1D/L2 tags\n"     \
    "  --checkpoint-at N --checkpoint-save FILE   write a checkpoint after N launches\n"           \
    "  --resume FILE     resume from a checkpoint (-warpsim_checkpoint_resume)\n"                   \
    "  --sample-kernels  sampled simulation across kernels: a functional profiling pass, then\n"   \
    "                    a timing run of a few launches per group (-warpsim_sample_kernels)\n"     \
    "  --sample-ipc-tol X  stop a kernel's detailed simulation once its IPC over CTA waves\n"       \
    "                    is stable within X (-warpsim_sample_ipc_tol)\n"                            \
    "  --input SIZE      workload input: small (default), paper, or long (hotspot, gemm: for\n"  \
    "                    sampled simulation, docs/sampling.md)\n"                               \
    "  --profile-bypass FILE  profile-based L1D bypassing in one command: a profiling run\n"    \
    "                    writes the per-SM bypass list FILE (and FILE.reuse.csv, the reuse\n"      \
    "                    histograms), then the reported run bypasses the listed lines\n"         \
    "                    (-l1d_bypass_profile, then -l1d_bypass_list; docs/bypass.md)\n"         \
    "  --dump-ptx DIR    write every PTX module loaded to DIR, under the name its error\n"         \
    "                    messages use (for -- PROGRAM: PROGRAM.moduleN.compute_ARCH.ptx)\n"        \
    "  -h, --help        this help\n"
static const char RUN_USAGE[] = "usage:\n" RUN_LINES "\n" RUN_OPTIONS;

static void usage(FILE *f) {
    fputs("warpsim " WARPSIM_VERSION " - a cycle-level GPGPU simulator\n"
          "\n"
          "usage:\n"
          RUN_LINES
          "  warpsim list                                            list the bundled workloads\n"
          "  warpsim ptx-check [-v] FILE.ptx...                      parse and validate PTX files\n"
          "  warpsim analyze FILE.ptx KERNEL --grid G --block B ...  static kernel analyzer (reorder\n"
          "                                                           configuration, L1D estimate, WCET)\n"
          "  warpsim llc-analyze TRACE --sets N --ways A [--quota Q]  shared-LLC reuse-distance analyses\n"
          "  warpsim options                                         list every configuration option\n"
          "  warpsim stats [--json]                                  list every statistic (docs/stats.md)\n"
          "  warpsim version                                         print the version\n"
          "  warpsim sweep SPEC [--engine local|slurm] [-j N]        run or resume a sweep (docs/sweeps.md)\n"
          "  warpsim query SWEEP_DIR [--metric M]                    normalised table of a sweep\n"
          "  warpsim report SWEEP_DIR                                HTML report and figures of a sweep\n"
          "  warpsim timeseries RUN_DIR|FILE.csv [-o FILE.png]       plot a run's interval time series\n"
          "                                                           (-warpsim_stat_interval N with -o DIR)\n"
          "  warpsim COMMAND --help                                  one command's usage and options\n"
          "\n"
          RUN_OPTIONS
          "\n"
          "presets:\n", f);
    ws_config_print_presets(f);
}

/* `warpsim CMD --help` (stdout, exit 0) for the commands implemented here. */
static int command_usage(const char *cmd) {
    if (!strcmp(cmd, "run")) {
        fputs(RUN_USAGE, stdout);
        printf("\npresets:\n");
        ws_config_print_presets(stdout);
    } else if (!strcmp(cmd, "list")) {
        printf("usage: warpsim list\n  list the bundled workloads (name, suite, description);\n"
               "  run one with `warpsim run NAME` or `warpsim run SUITE/NAME`\n");
    } else if (!strcmp(cmd, "ptx-check")) {
        printf("usage: warpsim ptx-check [-v] FILE.ptx...\n"
               "  parse and validate PTX files; every problem (unsupported instructions, undefined\n"
               "  names, syntax errors in function bodies) as FILE:LINE:COL: message, in line order\n"
               "  -v  also print each function as parsed\n"
               "exit status: 0 all valid, 1 some invalid, 2 no files\n");
    } else if (!strcmp(cmd, "options")) {
        printf("usage: warpsim options\n"
               "  every configuration option: name, default and what it does, then the presets;\n"
               "  set them with --config FILE, --set '-name value' or WARPSIM_SET\n");
    } else if (!strcmp(cmd, "stats")) {
        printf("usage: warpsim stats [--json]\n"
               "  every statistic warpsim reports: JSON key, unit, scope (kernel, or program: the\n"
               "  cumulative value with NAME_kernel for one kernel), how it aggregates over\n"
               "  kernels and over a sweep's runs, and what it means (docs/stats.md)\n"
               "  --json  the same as a JSON array (name, text, json, description, unit, scope,\n"
               "          kernel_agg, run_agg, numerator, denominator, ...)\n");
    } else if (!strcmp(cmd, "version")) {
        printf("usage: warpsim version\n  print the version\n");
    } else {
        return -1;
    }
    return 0;
}

static int is_help(const char *a) { return !strcmp(a, "-h") || !strcmp(a, "--help"); }

#define MAX_SETS 64
typedef struct run_opts {
    const char *config, *preset, *outdir, *dump_ptx;
    const char *sets[MAX_SETS + 4]; /* "-name value" overrides (+ --max-cycle, + a bypass
                                       pass or a sampled run's profile), NULL-terminated */
    char max_cycle_set[48];         /* --max-cycle N as "-gpgpu_max_cycle N" */
    char *long_sets[8];             /* the long-run flags as "-name value" (owned) */
    int nlong;
    int sample_kernels;             /* --sample-kernels: profile, then the sampled run */
    int nsets;
    int functional, quiet, check;
    unsigned long long max_insn;
    ws_input_size input;
} run_opts;

/* Directory of the running executable (for the shim libraries in <dir>/lib). */
static int exe_dir(char *buf, size_t n) {
    ssize_t len = readlink("/proc/self/exe", buf, n - 1);
    if (len <= 0) return -1;
    buf[len] = 0;
    char *slash = strrchr(buf, '/');
    if (!slash) return -1;
    *slash = 0;
    return 0;
}

static int mkdir_p(const char *dir) {
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0777) && errno != EEXIST) return -1;
            *p = '/';
        }
    }
    if (mkdir(tmp, 0777) && errno != EEXIST) return -1;
    return 0;
}

static void device_options(const run_opts *o, ws_device_options *opt) {
    ws_device_options_init(opt);
    opt->functional_only = o->functional;
    opt->config_file = o->config;
    opt->preset = o->preset;
    opt->config_overrides = o->nsets ? o->sets : NULL;
    opt->overrides_source = "--set";
    opt->stats_dir = o->outdir;
    opt->quiet = o->quiet;
    opt->max_insn = o->max_insn;
    opt->dump_ptx_dir = o->dump_ptx;
}

/* ws_device_create reports a bad configuration or an unreadable file on
 * stderr itself, with the reason; only other failures need a line here. */
static void device_error(ws_status st) {
    if (st != WS_ERR_CONFIG && st != WS_ERR_IO)
        fprintf(stderr, "warpsim: cannot create the device: %s\n",
                st == WS_ERR_OUT_OF_MEMORY ? "out of host memory" : ws_status_name(st));
}

/* --check-config: what a run would do before its first instruction, with the
 * timing model always built (it checks the values the option table cannot,
 * e.g. policy names), so that a sweep can refuse a bad config up front. */
static int check_config(const run_opts *o) {
    ws_device_options opt;
    run_opts c = *o;
    c.outdir = NULL;
    c.functional = 0;
    c.quiet = 1;
    device_options(&c, &opt);
    ws_device *d = NULL;
    ws_status st = ws_device_create(&opt, &d);
    ws_device_destroy(d);
    if (st != WS_OK) {
        device_error(st);
        fprintf(stderr, "warpsim: configuration refused\n");
        return 2;
    }
    printf("warpsim: configuration OK\n");
    return 0;
}

static int run_workload(const run_opts *o, const char *name) {
    const ws_workload *w = ws_workload_find(name);
    if (!w) {
        int n = 0;
        for (size_t i = 0; i < ws_workload_count(); i++)
            if (!strcmp(ws_workload_at(i)->name, name)) {
                if (!n++) fprintf(stderr, "warpsim: '%s' is ambiguous; name one of:", name);
                fprintf(stderr, " %s/%s", ws_workload_at(i)->suite, name);
            }
        if (n) fputc('\n', stderr);
        else fprintf(stderr, "warpsim: no bundled workload named '%s' (see `warpsim list`)\n", name);
        return 2;
    }
    if (o->input == WS_INPUT_LONG && !w->long_input) {
        fprintf(stderr, "warpsim: %s/%s has no long input (--input long: rodinia/hotspot, "
                "polybench/gemm)\n", w->suite, w->name);
        return 2;
    }
    if (o->outdir && mkdir_p(o->outdir)) {
        fprintf(stderr, "warpsim: cannot create output directory '%s': %s\n", o->outdir,
                strerror(errno));
        return 2;
    }
    ws_device_options opt;
    device_options(o, &opt);
    ws_device *d = NULL;
    ws_status st = ws_device_create(&opt, &d);
    if (st != WS_OK) {
        device_error(st);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ws_wl_result r = ws_workload_run(w, d, o->input, stdout);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    ws_run_totals tot;
    ws_device_totals(d, &tot);
    /* a run cut short on purpose cannot be checked: not a failure */
    bool capped = tot.capped && r != WS_WL_ERROR;
    if (capped) r = WS_WL_PASS;
    char capnote[128];
    snprintf(capnote, sizeof capnote, "CAPPED (%s cap reached; %llu later launches "
             "skipped; output not checked)", tot.capped_by_cycles ? "cycle" : "instruction",
             (unsigned long long)tot.skipped_launches);
    printf("warpsim: %s (%s input): %s; %llu kernels, %llu warp insts, %llu thread insts, "
           "%.3f s, %.1f M thread-insts/s\n",
           w->name, o->input == WS_INPUT_LONG ? "long" : o->input == WS_INPUT_PAPER ? "paper" : "small",
           capped ? capnote
           : r == WS_WL_PASS ? "PASS" : r == WS_WL_MISMATCH ? "FAIL (output mismatch)" : "ERROR",
           (unsigned long long)tot.kernels, (unsigned long long)tot.warp_insts,
           (unsigned long long)tot.thread_insts, secs,
           secs > 0 ? (double)tot.thread_insts / secs / 1e6 : 0.0);
    if (r == WS_WL_ERROR) fprintf(stderr, "warpsim: %s\n", ws_device_last_error(d));
    /* statistics that did not reach their files make the run a failure, even
       if the workload passed: a sweep must not take a truncated result */
    bool io_ok = ws_device_flush(d) == WS_OK;
    if (!io_ok) fprintf(stderr, "warpsim: %s\n", ws_device_last_error(d));
    ws_device_destroy(d);
    if (!io_ok) return 2;
    return r == WS_WL_PASS ? 0 : r == WS_WL_MISMATCH ? 1 : 2;
}

/* A folder beside the executable that holds `probe`: the first of `rel`
 * (relative to the executable's folder) that does. The build tree has
 * build/warpsim, build/lib, tools/; `make install` has PREFIX/bin/warpsim,
 * PREFIX/lib/warpsim (shims) and PREFIX/lib/warpsim/tools. On failure `out`
 * names the first candidate, for the message. */
static int find_beside_exe(char *out, size_t n, const char *const rel[], const char *probe) {
    char dir[PATH_MAX], path[2 * PATH_MAX];
    if (exe_dir(dir, sizeof dir)) {
        snprintf(out, n, "(cannot locate the warpsim executable)");
        return -1;
    }
    for (int i = 0; rel[i]; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", dir, rel[i], probe);
        if (!access(path, R_OK)) /* a truncated path would not be found */
            return snprintf(out, n, "%s/%s", dir, rel[i]) < (int)n ? 0 : -1;
    }
    if (snprintf(out, n, "%s/%s/%s", dir, rel[0], probe) >= (int)n) out[0] = 0;
    return -1;
}

/* Run PROGRAM with the shim libraries first on the library path; options
 * reach the shim through WARPSIM_* environment variables. */
/* What the shim wrote to the summary file: a program that never loaded it
 * (nvcc's default static runtime) simulated nothing; failed launches are
 * named even if the program ignored the errors CUDA returned. Returns the
 * exit status to report for a program that exited 0 (0: nothing wrong). */
static int program_summary(const char *path, const char *prog, bool not_run, bool ok) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[1300];
    bool loaded = false;
    unsigned long long failed = 0;
    char first[1200] = "";
    while (fgets(line, sizeof line, f)) {
        unsigned long long n;
        int off = 0;
        if (!strcmp(line, "loaded\n")) loaded = true;
        else if (sscanf(line, "failed_launches %llu %n", &n, &off) == 1 && off > 0) {
            if (!failed) snprintf(first, sizeof first, "%s", line + off);
            failed += n;
        }
    }
    fclose(f);
    first[strcspn(first, "\n")] = 0;
    if (!loaded && !not_run) {
        /* after a failure of its own the program's message comes first: a note */
        fprintf(stderr, "warpsim: %s%s did not use warpsim's CUDA runtime, so nothing was "
                "simulated: nvcc links the CUDA runtime statically by default; rebuild with "
                "-cudart shared\n", ok ? "" : "note: ", prog);
        return 2;
    }
    if (failed) {
        fprintf(stderr, "warpsim: %llu kernel launch%s failed in %s (first: %s)\n", failed,
                failed == 1 ? "" : "es", prog, first);
        return 1;
    }
    return 0;
}

static int run_program(const run_opts *o, char **argv) {
    static const char *const libdirs[] = {"lib", "../lib/warpsim", NULL};
    char lib[PATH_MAX];
    if (find_beside_exe(lib, sizeof lib, libdirs, "libcudart.so.13")) {
        fprintf(stderr, "warpsim: the CUDA runtime shim %s is missing (run `make`)\n", lib);
        return 2;
    }
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
    char *path = malloc(n);
    if (!path) return 2;
    snprintf(path, n, "%s%s%s", lib, old && *old ? ":" : "", old && *old ? old : "");
    setenv("LD_LIBRARY_PATH", path, 1);
    free(path);
    if (o->config) setenv("WARPSIM_CONFIG", o->config, 1);
    if (o->preset) setenv("WARPSIM_PRESET", o->preset, 1);
    setenv("WARPSIM_FUNCTIONAL", o->functional ? "1" : "0", 1);
    if (o->nsets) {
        size_t len = 1;
        for (int i = 0; i < o->nsets; i++) len += strlen(o->sets[i]) + 1;
        char *all = malloc(len);
        if (!all) return 2;
        all[0] = 0;
        for (int i = 0; i < o->nsets; i++) {
            strcat(all, o->sets[i]);
            strcat(all, "\n");
        }
        setenv("WARPSIM_SET", all, 1);
        free(all);
    }
    if (o->quiet) setenv("WARPSIM_QUIET", "1", 1);
    if (o->outdir) {
        if (mkdir_p(o->outdir)) {
            fprintf(stderr, "warpsim: cannot create output directory '%s': %s\n", o->outdir,
                    strerror(errno));
            return 2;
        }
        setenv("WARPSIM_STATS_DIR", o->outdir, 1);
    }
    if (o->max_insn) {
        char b[32];
        snprintf(b, sizeof b, "%llu", o->max_insn);
        setenv("WARPSIM_MAX_INSN", b, 1);
    }
    if (o->dump_ptx) setenv("WARPSIM_DUMP_PTX", o->dump_ptx, 1);
    char tun[512];
    if (ws_host_heap_tunables(getenv("GLIBC_TUNABLES"), tun, sizeof tun)) setenv("GLIBC_TUNABLES", tun, 1);
    /* the shim reports here whether it was loaded and which launches failed */
    char summary[] = "/tmp/warpsim-summary-XXXXXX";
    int sfd = mkstemp(summary);
    if (sfd >= 0) {
        close(sfd);
        setenv("WARPSIM_SUMMARY_FILE", summary, 1);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("warpsim: fork");
        if (sfd >= 0) unlink(summary);
        return 2;
    }
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "warpsim: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0) {
        perror("warpsim: waitpid");
        if (sfd >= 0) unlink(summary);
        return 2;
    }
    int rc = 2;
    if (WIFEXITED(status)) rc = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "warpsim: '%s' was killed by signal %d\n", argv[0], WTERMSIG(status));
        rc = 128 + WTERMSIG(status);
    }
    if (sfd >= 0) {
        int s = program_summary(summary, argv[0], rc == 127, rc == 0);
        unlink(summary);
        if (s && rc == 0) rc = s;
    }
    return rc;
}

static int parse_u64(const char *s, unsigned long long *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end) return -1;
    *out = v;
    return 0;
}

/* "--name VALUE" or "--name=VALUE" at argv[*i]: 1 with *val set (and *i
 * past the value), -1 when the value is missing, 0 for another argument. */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **val) {
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n)) return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n]) return 0;
    if (*i + 1 >= argc) return -1;
    *val = argv[++*i];
    return 1;
}

/* --profile-bypass FILE: pass 1 profiles (quietly, no statistics files) and
   writes the bypass list; pass 2, the reported run, reads it. */
static int run_profile_bypass(const run_opts *o, const char *workload, char **program,
                              const char *file) {
    char set[PATH_MAX + 32];
    run_opts p = *o;
    p.quiet = 1;
    p.outdir = NULL;
    snprintf(set, sizeof set, "-l1d_bypass_profile %s", file);
    p.sets[p.nsets++] = set;
    p.sets[p.nsets] = NULL;
    fprintf(stderr, "warpsim: profile-based bypassing, pass 1: profiling into %s\n", file);
    int rc = program ? run_program(&p, program) : run_workload(&p, workload);
    if (rc) {
        fprintf(stderr, "warpsim: the profiling run failed (status %d); no second pass\n", rc);
        return rc;
    }
    p = *o;
    snprintf(set, sizeof set, "-l1d_bypass_list %s", file);
    p.sets[p.nsets++] = set;
    p.sets[p.nsets] = NULL;
    fprintf(stderr, "warpsim: profile-based bypassing, pass 2: bypassing the lines of %s\n", file);
    return program ? run_program(&p, program) : run_workload(&p, workload);
}

/* The long-run flags and the options they set. */
static const char *const g_long_flags[][2] = {
    {"--fast-forward-kernels", "-warpsim_fast_forward_kernels"},
    {"--fast-forward-insn", "-warpsim_fast_forward_insn"},
    {"--warm", "-warpsim_fast_forward_warm"},
    {"--checkpoint-at", "-warpsim_checkpoint_at"},
    {"--checkpoint-save", "-warpsim_checkpoint_save"},
    {"--resume", "-warpsim_checkpoint_resume"},
    {"--sample-ipc-tol", "-warpsim_sample_ipc_tol"},
};

static const char *long_option(const char *flag) {
    for (size_t i = 0; i < sizeof g_long_flags / sizeof g_long_flags[0]; i++)
        if (!strcmp(flag, g_long_flags[i][0])) return g_long_flags[i][1];
    return NULL;
}

static int add_long_set(run_opts *o, const char *flag, const char *v) {
    const char *opt = long_option(flag);
    size_t n = strlen(opt) + strlen(v) + 2;
    if (o->nlong == (int)(sizeof o->long_sets / sizeof o->long_sets[0]) ||
        !(o->long_sets[o->nlong] = malloc(n))) {
        fprintf(stderr, "warpsim run: too many long-run options\n");
        return -1;
    }
    snprintf(o->long_sets[o->nlong++], n, "%s %s", opt, v);
    return 0;
}

/* --sample-kernels: the functional profiling pass into DIR/profile.txt (or a
 * temporary file), then the sampled timing run from it. */
static int run_sampled(const run_opts *o, const char *workload) {
    char path[PATH_MAX], set1[PATH_MAX + 40], set2[PATH_MAX + 40];
    int tmp = -1;
    if (o->outdir) {
        if (mkdir_p(o->outdir)) {
            fprintf(stderr, "warpsim: cannot create output directory '%s': %s\n", o->outdir,
                    strerror(errno));
            return 2;
        }
        snprintf(path, sizeof path, "%s/profile.txt", o->outdir);
    } else {
        snprintf(path, sizeof path, "/tmp/warpsim-profile-XXXXXX");
        if ((tmp = mkstemp(path)) < 0) {
            fprintf(stderr, "warpsim: cannot create a temporary profile file: %s\n", strerror(errno));
            return 2;
        }
        close(tmp);
    }
    run_opts p = *o;
    p.functional = 1;
    p.quiet = 1;
    p.outdir = NULL;
    p.nsets = 0;
    snprintf(set1, sizeof set1, "-warpsim_profile_out %s", path);
    for (int i = 0; i < o->nsets; i++) /* the run's other options, not its long-run ones */
        if (strncmp(o->sets[i], "-warpsim_sample", 15) &&
            strncmp(o->sets[i], "-warpsim_fast_forward", 21) &&
            strncmp(o->sets[i], "-warpsim_checkpoint", 19))
            p.sets[p.nsets++] = o->sets[i];
    p.sets[p.nsets++] = set1;
    p.sets[p.nsets] = NULL;
    fprintf(stderr, "warpsim: --sample-kernels: profiling pass (functional) into %s\n", path);
    int rc = run_workload(&p, workload);
    if (rc == 0) {
        run_opts s = *o;
        snprintf(set2, sizeof set2, "-warpsim_sample_kernels %s", path);
        s.sets[s.nsets++] = set2;
        s.sets[s.nsets] = NULL;
        rc = run_workload(&s, workload);
    }
    if (tmp >= 0) unlink(path);
    return rc;
}

static int cmd_run(int argc, char **argv) {
    run_opts o = {0};
    const char *workload = NULL, *max_cycle = NULL, *profile_bypass = NULL;
    char **program = NULL;
    for (int i = 0; i < argc && !program; i++) {
        const char *a = argv[i], *v = NULL;
        int r = 0;
        /* the options that take a value; the first that matches sets v */
        static const char *const valued[] = {"--config", "--preset", "--set", "-o", "--output",
                                             "--max-insn", "--max-cycle", "--input", "--dump-ptx",
                                             "--profile-bypass", "--fast-forward-kernels",
                                             "--fast-forward-insn", "--checkpoint-at",
                                             "--checkpoint-save", "--resume", "--sample-ipc-tol",
                                             NULL};
        int which = -1;
        for (int k = 0; valued[k] && !r; k++)
            if ((r = opt_value(argc, argv, &i, valued[k], &v))) which = k;
        if (r < 0) {
            fprintf(stderr, "warpsim run: option '%s' needs a value (see `warpsim run --help`)\n", a);
            return 2;
        }
        const char *name = which >= 0 ? valued[which] : a;
        if (!strcmp(a, "--")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim run: '--' must be followed by a program\n");
                return 2;
            }
            program = argv + i + 1;
        } else if (is_help(a)) {
            return command_usage("run");
        } else if (!strcmp(name, "--config")) {
            o.config = v;
        } else if (!strcmp(name, "--preset")) {
            o.preset = v;
        } else if (!strcmp(name, "--set") || !strcmp(a, "--memcheck") || !strcmp(a, "--memcheck=stop")) {
            if (o.nsets == MAX_SETS) {
                fprintf(stderr, "warpsim run: at most %d --set options\n", MAX_SETS);
                return 2;
            }
            o.sets[o.nsets++] = v ? v : a[10] ? "-warpsim_memcheck 2" : "-warpsim_memcheck 1";
        } else if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
            o.outdir = v;
        } else if (!strcmp(name, "--dump-ptx")) {
            o.dump_ptx = v;
        } else if (!strcmp(name, "--profile-bypass")) {
            profile_bypass = v;
        } else if (!strcmp(name, "--max-insn")) {
            if (parse_u64(v, &o.max_insn)) {
                fprintf(stderr, "warpsim run: --max-insn wants a count, got '%s'\n", v);
                return 2;
            }
        } else if (!strcmp(name, "--max-cycle")) {
            unsigned long long n;
            if (parse_u64(v, &n)) {
                fprintf(stderr, "warpsim run: --max-cycle wants a count, got '%s'\n", v);
                return 2;
            }
            max_cycle = v;
        } else if (!strcmp(name, "--input")) {
            if (!strcmp(v, "small")) o.input = WS_INPUT_SMALL;
            else if (!strcmp(v, "paper")) o.input = WS_INPUT_PAPER;
            else if (!strcmp(v, "long")) o.input = WS_INPUT_LONG;
            else {
                fprintf(stderr, "warpsim run: --input must be 'small', 'paper' or 'long', got '%s'\n", v);
                return 2;
            }
        } else if (long_option(name) || !strcmp(a, "--warm")) {
            if (add_long_set(&o, name, v ? v : "1")) return 2;
        } else if (!strcmp(a, "--sample-kernels")) {
            o.sample_kernels = 1;
        } else if (!strcmp(a, "--functional")) {
            o.functional = 1;
        } else if (!strcmp(a, "--check-config")) {
            o.check = 1;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o.quiet = 1;
        } else if (a[0] == '-') {
            fprintf(stderr, "warpsim run: unknown option '%s' (see `warpsim run --help`)\n", a);
            return 2;
        } else if (!workload) {
            workload = a;
        } else {
            fprintf(stderr, "warpsim run: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    for (int k = 0; k < o.nlong; k++) {
        if (o.nsets == MAX_SETS) {
            fprintf(stderr, "warpsim run: at most %d --set options\n", MAX_SETS);
            return 2;
        }
        o.sets[o.nsets++] = o.long_sets[k];
    }
    /* --max-cycle is -gpgpu_max_cycle, after every --set: it reaches a
       workload's device and a program's shim (WARPSIM_SET) alike */
    if (max_cycle) {
        snprintf(o.max_cycle_set, sizeof o.max_cycle_set, "-gpgpu_max_cycle %s", max_cycle);
        o.sets[o.nsets++] = o.max_cycle_set;
    }
    if (o.dump_ptx && mkdir_p(o.dump_ptx)) {
        fprintf(stderr, "warpsim: cannot create directory '%s': %s\n", o.dump_ptx, strerror(errno));
        return 2;
    }
    if (program && workload) {
        fprintf(stderr, "warpsim run: give either a workload or -- PROGRAM, not both\n");
        return 2;
    }
    if (o.check) return check_config(&o);
    if (o.sample_kernels && (program || !workload)) {
        fprintf(stderr, "warpsim run: --sample-kernels runs a bundled workload twice; for a program, "
                "run it with --functional --set '-warpsim_profile_out FILE', then with "
                "--set '-warpsim_sample_kernels FILE'\n");
        return 2;
    }
    if (o.sample_kernels && profile_bypass) {
        fprintf(stderr, "warpsim run: --sample-kernels and --profile-bypass each run the workload "
                "twice; use one of them\n");
        return 2;
    }
    if (!program && !workload) {
        fprintf(stderr, "warpsim run: no workload given (see `warpsim list`)\n");
        fputs(RUN_USAGE, stderr);
        return 2;
    }
    int rc = profile_bypass     ? run_profile_bypass(&o, workload, program, profile_bypass)
             : program          ? run_program(&o, program)
             : o.sample_kernels ? run_sampled(&o, workload)
                                : run_workload(&o, workload);
    for (int k = 0; k < o.nlong; k++) free(o.long_sets[k]);
    return rc;
}

static int cmd_list(void) {
    printf("%-16s %-10s %s\n", "NAME", "SUITE", "DESCRIPTION");
    for (size_t i = 0; i < ws_workload_count(); i++) {
        const ws_workload *w = ws_workload_at(i);
        printf("%-16s %-10s %s\n", w->name, w->suite, w->description);
    }
    return 0;
}

/* ptx-check's problems, kept to be listed in line order (an undefined label is
   found at the end of its function) even when a later error ends the parse. */
typedef struct {
    ws_problem *v;
    unsigned n;
} problem_list;

static void keep_problem(void *ctx, const ws_problem *pr) {
    problem_list *l = ctx;
    ws_problem *nv = realloc(l->v, (l->n + 1) * sizeof *nv);
    char *msg = strdup(pr->msg);
    if (!nv || !msg) {
        fprintf(stderr, "%s\n", pr->msg); /* out of memory: at least say it */
        free(msg);
        if (nv) l->v = nv;
        return;
    }
    l->v = nv;
    l->v[l->n++] = (ws_problem){msg, pr->line, pr->func};
}

static int by_line(const void *a, const void *b) {
    const ws_problem *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line;
}

static int cmd_ptx_check(int argc, char **argv) {
    int verbose = 0, bad = 0, files = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) { verbose = 1; continue; }
        files++;
        size_t len;
        char *text = ws_read_file_capped(argv[i], WS_PTX_FILE_MAX, &len);
        if (!text) {
            char msg[4200];
            ws_read_file_error(msg, sizeof msg, "PTX file", argv[i], WS_PTX_FILE_MAX);
            fprintf(stderr, "warpsim: %s\n", msg);
            bad = 1;
            continue;
        }
        ws_diag diag = {0};
        /* every problem, not just the first: the parse skips statements in error */
        problem_list pl = {NULL, 0};
        ws_parse_opts po = {.keep_going = true, .report = keep_problem, .ctx = &pl};
        ws_module *m = ws_ptx_parse_ex(text, len, argv[i], &po, &diag);
        if (!m) keep_problem(&pl, &(ws_problem){diag.msg, diag.line, -1}); /* the one that ended it */
        if (pl.n) {
            qsort(pl.v, pl.n, sizeof *pl.v, by_line);
            for (unsigned k = 0; k < pl.n; k++) {
                fprintf(stderr, "%s\n", pl.v[k].msg);
                free(pl.v[k].msg);
            }
            if (m) fprintf(stderr, "%s: %u problem%s\n", argv[i], pl.n, pl.n == 1 ? "" : "s");
            else if (pl.n > 1)
                fprintf(stderr, "%s: %u problems (checking stopped at line %u)\n", argv[i], pl.n, diag.line);
            bad = 1;
            ws_module_free(m);
        } else {
            unsigned kernels = 0, insts = 0;
            for (uint32_t f = 0; f < m->nfuncs; f++) {
                kernels += m->funcs[f].is_entry;
                insts += m->funcs[f].ninsts;
            }
            printf("%s: ok: PTX %u.%u, target %s, %u functions (%u kernels), %u instructions\n",
                   argv[i], m->version_major, m->version_minor, m->target, m->nfuncs, kernels, insts);
            if (verbose)
                for (uint32_t f = 0; f < m->nfuncs; f++) ws_ptx_dump_func(stdout, m, &m->funcs[f]);
            ws_module_free(m);
        }
        free(pl.v);
        free(text);
    }
    if (!files) {
        fprintf(stderr, "warpsim ptx-check: no files given\n");
        return 2;
    }
    return bad ? 1 : 0;
}

/* sweep, query, report, timeseries: the Python tools (tools/warpsim-tools),
 * found from this executable (build/warpsim -> ../tools, or an installed
 * copy's lib/warpsim/tools). They run this binary (WARPSIM_BIN) with
 * Debian's python3 when present, which has python3-matplotlib. */
static int run_tool(const char *cmd, int argc, char **argv) {
    static const char *const tooldirs[] = {"../tools", "../lib/warpsim/tools", NULL};
    char dir[PATH_MAX], script[PATH_MAX + 32], self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        fprintf(stderr, "warpsim: cannot locate the warpsim executable\n");
        return 2;
    }
    self[len] = 0;
    if (find_beside_exe(dir, sizeof dir, tooldirs, "warpsim-tools")) {
        fprintf(stderr, "warpsim %s: the tools are missing: %s\n", cmd, dir);
        return 2;
    }
    snprintf(script, sizeof script, "%s/warpsim-tools", dir);
    setenv("WARPSIM_BIN", self, 0);
    const char *py = getenv("WARPSIM_PYTHON");
    if (!py || !*py) py = access("/usr/bin/python3", X_OK) ? "python3" : "/usr/bin/python3";
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) return 2;
    args[0] = (char *)py;
    args[1] = script;
    args[2] = (char *)cmd;
    for (int i = 0; i < argc; i++) args[3 + i] = argv[i];
    execvp(py, args);
    fprintf(stderr, "warpsim %s: cannot run %s: %s\n", cmd, py, strerror(errno));
    free(args);
    return 2;
}

static int is_tool(const char *cmd) {
    return !strcmp(cmd, "sweep") || !strcmp(cmd, "query") || !strcmp(cmd, "report") ||
           !strcmp(cmd, "timeseries");
}

/* Commands other than run and ptx-check take no arguments but --help. */
static int no_args(const char *cmd, int argc, char **argv) {
    if (argc == 0) return 0;
    if (is_help(argv[0])) return command_usage(cmd) ? 2 : 1;
    fprintf(stderr, "warpsim %s: unexpected argument '%s' (see `warpsim %s --help`)\n", cmd,
            argv[0], cmd);
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2 || is_help(argv[1])) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    /* `warpsim help [COMMAND]` is `warpsim [COMMAND] --help` */
    if (!strcmp(cmd, "help")) {
        if (argc < 3) {
            usage(stdout);
            return 0;
        }
        static char help_flag[] = "--help";
        char *args[] = {argv[0], argv[2], help_flag, NULL};
        return main(3, args);
    }
    if (!strcmp(cmd, "run")) {
        ws_host_heap_tune();
        return cmd_run(argc - 2, argv + 2);
    }
    if (!strcmp(cmd, "analyze")) return ws_cli_analyze(argc - 2, argv + 2);
    if (!strcmp(cmd, "llc-analyze")) return ws_cli_llc(argc - 2, argv + 2);
    if (!strcmp(cmd, "ptx-check")) {
        if (argc > 2 && is_help(argv[2])) return command_usage(cmd);
        return cmd_ptx_check(argc - 2, argv + 2);
    }
    if (is_tool(cmd)) return run_tool(cmd, argc - 2, argv + 2);
    if (!strcmp(cmd, "--version")) cmd = "version";
    int r;
    if (!strcmp(cmd, "list")) {
        if ((r = no_args(cmd, argc - 2, argv + 2))) return r == 1 ? 0 : r;
        return cmd_list();
    }
    if (!strcmp(cmd, "options")) {
        if ((r = no_args(cmd, argc - 2, argv + 2))) return r == 1 ? 0 : r;
        ws_config_print_options(stdout);
        return 0;
    }
    if (!strcmp(cmd, "stats")) {
        if (argc == 3 && !strcmp(argv[2], "--json")) {
            ws_catalog_print_json(stdout);
            return 0;
        }
        if ((r = no_args(cmd, argc - 2, argv + 2))) return r == 1 ? 0 : r;
        ws_catalog_print(stdout);
        return 0;
    }
    if (!strcmp(cmd, "version")) {
        if ((r = no_args(cmd, argc - 2, argv + 2))) return r == 1 ? 0 : r;
        printf("warpsim " WARPSIM_VERSION "\n");
        return 0;
    }
    fprintf(stderr, "warpsim: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
