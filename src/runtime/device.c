/* The embedding API (include/warpsim/warpsim.h) on top of the PTX front end
 * (src/ptx) and the functional engine (src/exec).
 *
 * Execution mode: today every launch runs functionally (ws_exec_grid): the
 * whole grid executes CTA after CTA, instruction and CTA counts are exact,
 * and no cycles are simulated (ws_device_cycles stays 0). The timing model
 * (a later milestone) plugs in at run_grid() below, selected by
 * options.functional_only == 0 and configured by options.config_file /
 * preset / config_overrides, which are accepted and kept for it now.
 *
 * Simulated device: a GTX480-class part (15 SMs, 1.5 GiB, 48 KiB shared per
 * block, 1536 threads per SM) as in GPGPU-Sim's GTX480 config, but it reports
 * compute capability 7.5: programs built by CUDA 13 (whose oldest target is
 * sm_75) and programs that check for >= 7.x would otherwise refuse to run.
 * The PTX they carry is compute_75 PTX, which is what warpsim executes. */
#include "warpsim/warpsim.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "exec/exec.h"
#include "ptx/ptx.h"
#include "runtime/longrun.h"
#include "stats/report.h"
#include "timing/gpu.h"
#include "util/readfile.h"

#define GTX480_GLOBAL_BYTES (1536ull << 20)
#define MAX_SHARED_PER_BLOCK (48u * 1024u)

struct ws_kernel {
    ws_module_handle *mh;
    uint32_t func;          /* index in mh->mod->funcs */
    int32_t problem;        /* its first unsupported instruction (index in the module's
                               problems; -1: none): launches are refused */
};

struct ws_module_handle {
    ws_device *dev;
    ws_module *mod;
    ws_image *img;
    char *name;
    ws_kernel *kernels;     /* one per .entry with a body */
    uint32_t nkernels;
    ws_module_handle *next;
};

struct ws_device {
    ws_device_options opt;       /* strings below are owned copies */
    char *config_file, *preset, *stats_dir;
    char **overrides;            /* NULL-terminated copy */
    char *config_text;           /* contents of config_file (timing model input) */
    ws_device_props props;
    ws_gmem *gmem;
    ws_tex_table *tex;           /* texture objects */
    ws_module_handle *modules;
    char err[1024];
    ws_run_totals totals;
    char skipped[4][64];         /* the first kernels whose launches the cap skipped */
    uint32_t nskipped;
    uint64_t tot_ctas;
    double tot_wall_s;
    uint64_t launch_uid;
    char *json;                  /* comma-separated kernel objects for stats.json */
    size_t json_len, json_cap;
    size_t json_written;         /* how much of json stats.json holds (appended to after each kernel) */
    ws_config cfg;               /* the simulated GPU (defaults = preset gtx480) */
    ws_gpu *gpu;                 /* timing model; NULL in functional-only mode */
    FILE *timeseries;            /* DIR/timeseries.csv when an interval is set */
    char *dump_ptx_dir;
    bool config_echoed;          /* the configuration was shown / saved (before kernel 1) */
    char io_err[1024];           /* the first failed write of an output file ("" if none) */
    bool ts_failed;              /* the time series' write error was reported */
    char first_failure[1024];    /* the first failed launch's message */
    ws_memcheck *memcheck;       /* -warpsim_memcheck 1|2; NULL when off */
    ws_printf_buf printf_out;    /* kernels' printf / assert text until the host synchronises */
    ws_dev_heap *heap;           /* kernels' malloc / free */
    ws_devptr coop_ws;           /* cooperative launches' grid-sync workspace (0 until the first) */
    ws_longrun *longrun;         /* fast-forward, checkpoints, sampling; NULL when none is asked */
    uint64_t sampling_shown;     /* launches when the sampled run's projection was last shown + 1 */
    uint64_t last_detailed, last_functional_insn; /* the last timing run's sampling within it */
    double last_sigma;
};

const char *ws_status_name(ws_status s) {
    static const char *const names[WS_STATUS_COUNT] = {
        [WS_OK] = "WS_OK",
        [WS_ERR_INVALID_VALUE] = "WS_ERR_INVALID_VALUE",
        [WS_ERR_OUT_OF_MEMORY] = "WS_ERR_OUT_OF_MEMORY",
        [WS_ERR_INVALID_PTX] = "WS_ERR_INVALID_PTX",
        [WS_ERR_UNSUPPORTED] = "WS_ERR_UNSUPPORTED",
        [WS_ERR_NOT_FOUND] = "WS_ERR_NOT_FOUND",
        [WS_ERR_INVALID_CONFIG] = "WS_ERR_INVALID_CONFIG",
        [WS_ERR_ILLEGAL_ADDRESS] = "WS_ERR_ILLEGAL_ADDRESS",
        [WS_ERR_MISALIGNED] = "WS_ERR_MISALIGNED",
        [WS_ERR_TRAP] = "WS_ERR_TRAP",
        [WS_ERR_DEADLOCK] = "WS_ERR_DEADLOCK",
        [WS_ERR_LAUNCH_FAILURE] = "WS_ERR_LAUNCH_FAILURE",
        [WS_ERR_CONFIG] = "WS_ERR_CONFIG",
        [WS_ERR_IO] = "WS_ERR_IO",
    };
    if ((unsigned)s >= WS_STATUS_COUNT || !names[s]) return "WS_ERR_UNKNOWN";
    return names[s];
}

/* Record the reason of a failure and return its status. */
static ws_status fail(ws_device *d, ws_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static ws_status fail(ws_device *d, ws_status s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err, sizeof d->err, fmt, ap);
    va_end(ap);
    return s;
}

static char *dup_str(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *r = malloc(n);
    if (r) memcpy(r, s, n);
    return r;
}

void ws_device_options_init(ws_device_options *o) {
    memset(o, 0, sizeof *o);
    o->functional_only = 1;  /* the only mode implemented today */
}

static void fill_props(ws_device_props *p) {
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "warpsim GTX480 (simulated)");
    p->cc_major = 7;  /* see the comment at the top of this file */
    p->cc_minor = 5;
    p->num_sms = 15;
    p->warp_size = 32;
    p->max_threads_per_block = 1024;
    p->max_threads_per_sm = 1536;
    p->max_block_dim[0] = 1024; p->max_block_dim[1] = 1024; p->max_block_dim[2] = 64;
    p->max_grid_dim[0] = 0x7fffffff; p->max_grid_dim[1] = 65535; p->max_grid_dim[2] = 65535;
    p->regs_per_block = 32768;
    p->regs_per_sm = 32768;
    p->shared_per_block = MAX_SHARED_PER_BLOCK;
    p->shared_per_sm = 48 * 1024;
    p->const_mem = 64 * 1024;
    p->total_global_mem = (size_t)GTX480_GLOBAL_BYTES;
    p->clock_khz = 700000;      /* GPGPU-Sim GTX480 core clock */
    p->mem_clock_khz = 924000;
    p->mem_bus_width = 384;
    p->l2_size = 768 * 1024;
    p->max_blocks_per_sm = 8;
}

static void free_overrides(char **ov) {
    if (!ov) return;
    for (char **p = ov; *p; p++) free(*p);
    free(ov);
}

static void config_note(void *ctx, const char *msg) {
    (void)ctx;
    fprintf(stderr, "warpsim: note: %s\n", msg);
}

/* Defaults, then the preset or the config file, then the overrides
 * ("-option value" each). Problems are printed: the device does not exist
 * yet to hold a last-error message. */
static ws_status build_config(ws_device *d) {
    char err[512];
    ws_config_init(&d->cfg);
    if (d->preset && ws_config_apply_preset(&d->cfg, d->preset, err, sizeof err)) {
        fprintf(stderr, "warpsim: %s\n", err);
        return WS_ERR_CONFIG;
    }
    if (d->config_file &&
        ws_config_load_file(&d->cfg, d->config_file, config_note, NULL, err, sizeof err)) {
        fprintf(stderr, "warpsim: %s\n", err);
        return WS_ERR_CONFIG;
    }
    /* "SOURCE #N '-name value'": which override, as a file:line names a line */
    const char *src = d->opt.overrides_source ? d->opt.overrides_source : "override";
    for (char **o = d->overrides; o && *o; o++) {
        char name[256];
        const char *p = *o;
        int idx = (int)(o - d->overrides) + 1;
        while (*p == ' ') p++;
        size_t n = strcspn(p, " \t=");
        if (n == 0 || n >= sizeof name) {
            fprintf(stderr, "warpsim: %s #%d '%s': bad option override (want '-name value')\n", src,
                    idx, *o);
            return WS_ERR_CONFIG;
        }
        memcpy(name, p, n);
        name[n] = 0;
        const char *v = p + n;
        while (*v == ' ' || *v == '\t' || *v == '=') v++;
        if (ws_config_set(&d->cfg, name, v, err, sizeof err)) {
            fprintf(stderr, "warpsim: %s #%d '%s': %s\n", src, idx, *o, err);
            return WS_ERR_CONFIG;
        }
        if (ws_config_no_effect(name) == 1)
            fprintf(stderr, "warpsim: note: %s #%d '%s': this option has no effect in warpsim "
                    "(accepted for GPGPU-Sim configs; see `warpsim options`)\n", src, idx, *o);
    }
    return WS_OK;
}

/* How out-of-allocation accesses behave: the mapping granularity and memcheck. */
static ws_status setup_memory_checks(ws_device *d) {
    ws_status s = ws_gmem_set_map_granularity(d->gmem, (uint64_t)d->cfg.map_granularity);
    if (s == WS_ERR_INVALID_VALUE)
        fprintf(stderr, "warpsim: option -warpsim_map_granularity: %lld is not 0, 1 or a power of two "
                "from %llu to %llu\n", (long long)d->cfg.map_granularity,
                (unsigned long long)WS_ALLOC_ALIGN, (unsigned long long)WS_MAP_GRANULARITY_MAX);
    if (s != WS_OK) return s == WS_ERR_INVALID_VALUE ? WS_ERR_CONFIG : s;
    if (d->cfg.memcheck && !(d->memcheck = ws_memcheck_create((int)d->cfg.memcheck, stderr)))
        return WS_ERR_OUT_OF_MEMORY;
    return WS_OK;
}

ws_status ws_device_create(const ws_device_options *o, ws_device **out) {
    if (!out) return WS_ERR_INVALID_VALUE;
    *out = NULL;
    ws_device *d = calloc(1, sizeof *d);
    if (!d) return WS_ERR_OUT_OF_MEMORY;
    if (o) d->opt = *o;
    else ws_device_options_init(&d->opt);
    fill_props(&d->props);
    ws_status st = WS_OK;
    d->config_file = dup_str(d->opt.config_file);
    d->preset = dup_str(d->opt.preset);
    d->stats_dir = dup_str(d->opt.stats_dir);
    d->dump_ptx_dir = dup_str(d->opt.dump_ptx_dir);
    if ((d->opt.config_file && !d->config_file) || (d->opt.preset && !d->preset) ||
        (d->opt.stats_dir && !d->stats_dir) || (d->opt.dump_ptx_dir && !d->dump_ptx_dir))
        st = WS_ERR_OUT_OF_MEMORY;
    if (st == WS_OK && d->opt.config_overrides) {
        size_t n = 0;
        while (d->opt.config_overrides[n]) n++;
        d->overrides = calloc(n + 1, sizeof *d->overrides);
        if (!d->overrides) st = WS_ERR_OUT_OF_MEMORY;
        for (size_t i = 0; st == WS_OK && i < n; i++)
            if (!(d->overrides[i] = dup_str(d->opt.config_overrides[i]))) st = WS_ERR_OUT_OF_MEMORY;
    }
    d->opt.config_file = d->config_file;
    d->opt.preset = d->preset;
    d->opt.stats_dir = d->stats_dir;
    d->opt.dump_ptx_dir = d->dump_ptx_dir;
    d->opt.config_overrides = (const char *const *)d->overrides;
    if (st == WS_OK && d->config_file) {
        /* Kept for the timing model; reading it now reports a bad path early. */
        d->config_text = ws_read_file_capped(d->config_file, WS_CONFIG_FILE_MAX, NULL);
        if (!d->config_text) {
            char msg[4200];
            ws_read_file_error(msg, sizeof msg, "config file", d->config_file, WS_CONFIG_FILE_MAX);
            fprintf(stderr, "warpsim: %s\n", msg);
            st = WS_ERR_IO;
        }
    }
    if (st == WS_OK && !(d->gmem = ws_gmem_create(GTX480_GLOBAL_BYTES))) st = WS_ERR_OUT_OF_MEMORY;
    if (st == WS_OK && !(d->tex = ws_tex_table_create())) st = WS_ERR_OUT_OF_MEMORY;
    if (st == WS_OK && !(d->heap = ws_dev_heap_create(WS_DEV_HEAP_DEFAULT_LIMIT))) st = WS_ERR_OUT_OF_MEMORY;
    d->printf_out.limit = WS_PRINTF_DEFAULT_LIMIT;
    if (st == WS_OK) st = build_config(d);
    if (st == WS_OK) st = setup_memory_checks(d);
    if (st == WS_OK && !d->opt.functional_only) {
        char err[512];
        if (!(d->gpu = ws_gpu_create(&d->cfg, err, sizeof err))) {
            fprintf(stderr, "warpsim: cannot build the simulated GPU: %s\n", err);
            st = WS_ERR_CONFIG;
        } else {
            d->props.num_sms = (int)ws_gpu_num_sms(d->gpu);
            d->props.clock_khz = (int)(ws_gpu_core_mhz(d->gpu) * 1000.0);
            ws_gpu_set_progress(d->gpu, d->cfg.progress_s);
            if (d->stats_dir && d->cfg.stat_interval > 0) {
                char path[4096];
                snprintf(path, sizeof path, "%s/timeseries.csv", d->stats_dir);
                if (!(d->timeseries = fopen(path, "w"))) {
                    fprintf(stderr, "warpsim: cannot write %s: %s\n", path, strerror(errno));
                    st = WS_ERR_IO;
                } else {
                    ws_gpu_set_timeseries(d->gpu, d->timeseries);
                }
            }
        }
    }
    if (st == WS_OK && ws_longrun_wanted(&d->cfg)) {
        ws_longrun_dev ld = {d->gmem, &d->totals, &d->launch_uid, &d->tot_ctas, d->heap};
        if (!(d->longrun = ws_longrun_create(&d->cfg, d->gpu, &ld))) st = WS_ERR_CONFIG;
    }
    if (st != WS_OK) {
        ws_device_destroy(d);
        return st;
    }
    *out = d;
    return WS_OK;
}

static void module_free(ws_device *d, ws_module_handle *m) {
    if (m->img) ws_image_destroy(m->img, d->gmem);
    if (m->mod) ws_module_free(m->mod);
    free(m->kernels);
    free(m->name);
    free(m);
}

static void check_timeseries(ws_device *d, bool close_it);

/* A launch after the instruction cap: counted, and named at the end. */
static void note_skipped(ws_device *d, const char *name) {
    d->totals.skipped_launches++;
    for (uint32_t i = 0; i < d->nskipped; i++)
        if (!strncmp(d->skipped[i], name, sizeof d->skipped[i] - 1)) return;
    if (d->nskipped < 4) snprintf(d->skipped[d->nskipped++], sizeof d->skipped[0], "%s", name);
}

void ws_device_destroy(ws_device *d) {
    if (!d) return;
    if (d->totals.skipped_launches) {
        fprintf(stderr, "warpsim: %llu launch%s skipped after the %s cap (kernels ",
                (unsigned long long)d->totals.skipped_launches,
                d->totals.skipped_launches == 1 ? "" : "es",
                d->totals.capped_by_cycles ? "cycle" : "instruction");
        for (uint32_t i = 0; i < d->nskipped; i++)
            fprintf(stderr, "%s%s", i ? ", " : "", d->skipped[i]);
        fprintf(stderr, "%s)\n", d->nskipped == 4 ? ", ..." : "");
    }
    ws_printf_buf_flush(&d->printf_out, stdout);
    ws_printf_buf_free(&d->printf_out);
    ws_dev_heap_destroy(d->heap, d->gmem);
    d->heap = NULL;
    if (d->longrun && d->sampling_shown != d->launch_uid + 1) {
        char err[600];
        if (ws_longrun_finish(d->longrun, stderr, d->stats_dir, err, sizeof err))
            fprintf(stderr, "warpsim: %s\n", err);
    }
    ws_longrun_destroy(d->longrun);
    while (d->modules) {
        ws_module_handle *m = d->modules;
        d->modules = m->next;
        module_free(d, m);
    }
    if (d->memcheck) ws_memcheck_summary(d->memcheck);
    ws_memcheck_destroy(d->memcheck);
    if (d->gmem) ws_gmem_destroy(d->gmem);
    ws_tex_table_destroy(d->tex);
    check_timeseries(d, true);
    ws_gpu_destroy(d->gpu);
    ws_config_free(&d->cfg);
    free(d->config_file);
    free(d->preset);
    free(d->stats_dir);
    free(d->dump_ptx_dir);
    free_overrides(d->overrides);
    free(d->config_text);
    free(d->json);
    free(d);
}

const char *ws_device_last_error(const ws_device *d) { return d ? d->err : "no device"; }

void ws_device_get_props(const ws_device *d, ws_device_props *p) { *p = d->props; }

/* ---- memory ------------------------------------------------------------ */
ws_status ws_malloc(ws_device *d, size_t size, ws_devptr *out) {
    if (!out) return fail(d, WS_ERR_INVALID_VALUE, "ws_malloc: null result pointer");
    *out = 0;
    ws_status s = ws_gmem_alloc(d->gmem, size ? size : 1, out);
    if (s != WS_OK)
        return fail(d, s, "device memory exhausted: cannot allocate %zu bytes (device has %llu MiB)",
                    size, (unsigned long long)(GTX480_GLOBAL_BYTES >> 20));
    return WS_OK;
}

ws_status ws_free(ws_device *d, ws_devptr p) {
    if (p == 0) return WS_OK;  /* like cudaFree(NULL) */
    ws_status s = ws_gmem_free(d->gmem, p);
    if (s != WS_OK)
        return fail(d, WS_ERR_INVALID_VALUE,
                    "free of 0x%llx: not the start of a live device allocation (double free?)",
                    (unsigned long long)p);
    return WS_OK;
}

static ws_status bad_range(ws_device *d, const char *what, ws_devptr p, size_t n) {
    return fail(d, WS_ERR_ILLEGAL_ADDRESS,
                "%s: device range [0x%llx, 0x%llx) is not inside one live allocation", what,
                (unsigned long long)p, (unsigned long long)(p + n));
}

ws_status ws_memcpy_htod(ws_device *d, ws_devptr dst, const void *src, size_t n) {
    if (n == 0) return WS_OK;
    if (!src) return fail(d, WS_ERR_INVALID_VALUE, "memcpy host-to-device: null host pointer");
    if (ws_gmem_write(d->gmem, dst, src, n) != WS_OK)
        return bad_range(d, "memcpy host-to-device", dst, n);
    if (d->gpu) ws_gpu_memcpy_to_device(d->gpu, dst, n);
    return WS_OK;
}

ws_status ws_memcpy_dtoh(ws_device *d, void *dst, ws_devptr src, size_t n) {
    if (n == 0) return WS_OK;
    if (!dst) return fail(d, WS_ERR_INVALID_VALUE, "memcpy device-to-host: null host pointer");
    if (d->longrun) {
        bool answered;
        ws_status s = ws_longrun_dtoh(d->longrun, dst, src, n, &answered, d->err, sizeof d->err);
        if (s != WS_OK || answered) return s;
    }
    if (ws_gmem_read(d->gmem, src, dst, n) != WS_OK)
        return bad_range(d, "memcpy device-to-host", src, n);
    return WS_OK;
}

ws_status ws_memcpy_dtod(ws_device *d, ws_devptr dst, ws_devptr src, size_t n) {
    if (n == 0) return WS_OK;
    if (!ws_gmem_valid(d->gmem, src, n)) return bad_range(d, "memcpy device-to-device (source)", src, n);
    if (!ws_gmem_valid(d->gmem, dst, n))
        return bad_range(d, "memcpy device-to-device (destination)", dst, n);
    /* Bounce through the host; fine for functional simulation. memmove
       semantics for overlapping ranges come for free. */
    void *tmp = malloc(n);
    if (!tmp) return fail(d, WS_ERR_OUT_OF_MEMORY, "memcpy device-to-device: host out of memory");
    ws_status s = ws_gmem_read(d->gmem, src, tmp, n);
    if (s == WS_OK) s = ws_gmem_write(d->gmem, dst, tmp, n);
    free(tmp);
    if (s != WS_OK) return bad_range(d, "memcpy device-to-device", dst, n);
    return WS_OK;
}

ws_status ws_memset(ws_device *d, ws_devptr dst, int value, size_t n) {
    if (n == 0) return WS_OK;
    if (ws_gmem_fill(d->gmem, dst, value & 0xff, n) != WS_OK) return bad_range(d, "memset", dst, n);
    return WS_OK;
}

int ws_is_device_ptr(const ws_device *d, ws_devptr p, size_t n) {
    return ws_gmem_valid(d->gmem, p, n ? n : 1);
}

/* ---- texture objects ------------------------------------------------------ */
ws_status ws_texture_create(ws_device *d, const ws_tex_desc *desc, ws_texobj *out) {
    if (!d) return WS_ERR_INVALID_VALUE;
    if (!desc || !out) return fail(d, WS_ERR_INVALID_VALUE, "texture create: null argument");
    char err[256];
    ws_status s = ws_tex_table_add(d->tex, desc, d->gmem, out, err, sizeof err);
    if (s != WS_OK) return fail(d, s, "texture create: %s", err);
    return WS_OK;
}

ws_status ws_texture_destroy(ws_device *d, ws_texobj t) {
    if (!d) return WS_ERR_INVALID_VALUE;
    if (ws_tex_table_remove(d->tex, t) != WS_OK)
        return fail(d, WS_ERR_INVALID_VALUE, "texture destroy: %llu is not a live texture object",
                    (unsigned long long)t);
    return WS_OK;
}

ws_status ws_texture_get_desc(const ws_device *d, ws_texobj t, ws_tex_desc *out) {
    if (!d || !out) return WS_ERR_INVALID_VALUE;
    const ws_tex_desc *td = ws_tex_table_get(d->tex, t);
    if (!td) return WS_ERR_INVALID_VALUE;
    *out = *td;
    return WS_OK;
}

/* ---- modules ------------------------------------------------------------ */
/* Register counts decide occupancy. Like GPGPU-Sim in PTX mode, ask ptxas
 * (WARPSIM_PTXAS, else ptxas on PATH, else CUDA's default place) when the
 * caller gave no ptxas information; NULL when there is no usable ptxas. */
static char *run_ptxas(const char *ptx, size_t len, const char *target) {
    const char *exe = getenv("WARPSIM_PTXAS");
    char found[512] = "";
    if (!exe || !*exe) {
        const char *path = getenv("PATH");
        for (const char *p = path; p && *p && !found[0];) {
            size_t n = strcspn(p, ":");
            snprintf(found, sizeof found, "%.*s/ptxas", (int)n, p);
            if (access(found, X_OK)) found[0] = 0;
            p += n + (p[n] == ':');
        }
        if (!found[0] && !access("/usr/local/cuda/bin/ptxas", X_OK))
            snprintf(found, sizeof found, "/usr/local/cuda/bin/ptxas");
        if (!found[0]) return NULL;
        exe = found;
    }
    if (strchr(exe, '\'') || strncmp(target, "sm_", 3)) return NULL;
    char tmpl[] = "/tmp/warpsim-ptxas-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "w");
    bool ok = f && fwrite(ptx, 1, len, f) == len;
    if (f) fclose(f);
    char *out = NULL;
    if (ok) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "'%s' -v -arch=%.16s -o /dev/null '%s' 2>&1", exe, target, tmpl);
        FILE *pp = popen(cmd, "r");
        size_t n = 0, cap = 0;
        int c;
        while (pp && (c = fgetc(pp)) != EOF) {
            if (n + 2 > cap) {
                char *nb = realloc(out, cap = cap ? 2 * cap : 4096);
                if (!nb) break;
                out = nb;
            }
            out[n++] = (char)c;
        }
        if (out) out[n] = 0;
        if (!pp || pclose(pp) != 0) {
            free(out);
            out = NULL;
        }
    }
    unlink(tmpl);
    return out;
}

/* --dump-ptx / WARPSIM_DUMP_PTX: the module as DIR/<name>, written before it
 * is parsed so that a module that fails to parse can be read at its error's line. */
static void dump_ptx(const char *dir, const char *name, const char *ptx, size_t len) {
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    size_t bl = strlen(base);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", dir, base,
             bl > 4 && !strcmp(base + bl - 4, ".ptx") ? "" : ".ptx");
    FILE *f = fopen(path, "w");
    int bad = !f;
    if (f) {
        bad = fwrite(ptx, 1, len, f) != len;
        bad |= fclose(f) != 0;
    }
    if (bad) fprintf(stderr, "warpsim: cannot write %s: %s\n", path, strerror(errno));
    else fprintf(stderr, "warpsim: PTX of module %s written to %s\n", name, path);
}

ws_status ws_module_load(ws_device *d, const char *ptx, size_t len, const char *name,
                         const char *ptxas_info, ws_module_handle **out) {
    if (!out) return fail(d, WS_ERR_INVALID_VALUE, "ws_module_load: null result pointer");
    *out = NULL;
    if (!ptx) return fail(d, WS_ERR_INVALID_VALUE, "ws_module_load: null PTX text");
    if (!name) name = "<ptx>";
    if (len == 0) len = strlen(ptx);
    ws_module_handle *m = calloc(1, sizeof *m);
    if (!m || !(m->name = dup_str(name))) {
        free(m);
        return fail(d, WS_ERR_OUT_OF_MEMORY, "out of host memory loading %s", name);
    }
    m->dev = d;
    if (d->dump_ptx_dir) dump_ptx(d->dump_ptx_dir, name, ptx, len);
    if (d->longrun) ws_longrun_module(d->longrun, ptx, len);
    ws_diag diag;
    memset(&diag, 0, sizeof diag);
    /* an unsupported instruction refuses only the kernels that reach it */
    ws_parse_opts popt = {.defer_unsupported = true};
    m->mod = ws_ptx_parse_ex(ptx, len, name, &popt, &diag);
    if (!m->mod) {
        module_free(d, m);
        /* The parser names unsupported features; tell them apart from bad syntax. */
        ws_status s = strstr(diag.msg, "unsupported") ? WS_ERR_UNSUPPORTED : WS_ERR_INVALID_PTX;
        return fail(d, s, "%s", diag.msg[0] ? diag.msg : "PTX did not parse");
    }
    if (ptxas_info && ws_ptx_apply_ptxas_info(m->mod, ptxas_info, &diag) != 0) {
        module_free(d, m);
        return fail(d, WS_ERR_INVALID_PTX, "%s: ptxas info: %s", name, diag.msg);
    }
    if (!ptxas_info && d->gpu) {
        char *info = run_ptxas(ptx, len, m->mod->target);
        if (!info || ws_ptx_apply_ptxas_info(m->mod, info, &diag) != 0)
            fprintf(stderr, "warpsim: %s: no ptxas register counts (ptxas %s); occupancy uses an "
                            "estimate\n", name, info ? "output not understood" : "not found");
        free(info);
    }
    char err[512] = "";
    ws_status s = ws_image_create(d->gmem, m->mod, &m->img, err, sizeof err);
    if (s != WS_OK) {
        m->img = NULL;
        module_free(d, m);
        return fail(d, s, "%s: cannot place module on the device: %s", name, err);
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->mod->nfuncs; i++)
        if (m->mod->funcs[i].is_entry && m->mod->funcs[i].has_body) n++;
    m->kernels = calloc(n ? n : 1, sizeof *m->kernels);
    if (!m->kernels) {
        module_free(d, m);
        return fail(d, WS_ERR_OUT_OF_MEMORY, "out of host memory loading %s", name);
    }
    uint32_t refused = 0;
    for (uint32_t i = 0; i < m->mod->nfuncs; i++)
        if (m->mod->funcs[i].is_entry && m->mod->funcs[i].has_body) {
            int pi = ws_module_func_unsupported(m->mod, i);
            refused += pi >= 0;
            m->kernels[m->nkernels++] = (ws_kernel){m, i, pi};
        }
    if (m->mod->nproblems)
        fprintf(stderr, "warpsim: note: %s has %u unsupported instruction%s (first: %s); %u of its %u "
                "kernels use them and will be refused at launch\n", name, m->mod->nproblems,
                m->mod->nproblems == 1 ? "" : "s", m->mod->problems[0].msg, refused, m->nkernels);
    m->next = d->modules;
    d->modules = m;
    *out = m;
    return WS_OK;
}

ws_status ws_module_load_file(ws_device *d, const char *path, ws_module_handle **out) {
    if (!out || !path) return fail(d, WS_ERR_INVALID_VALUE, "ws_module_load_file: null argument");
    *out = NULL;
    size_t len = 0;
    char *text = ws_read_file_capped(path, WS_PTX_FILE_MAX, &len);
    if (!text) {
        ws_read_file_error(d->err, sizeof d->err, "PTX file", path, WS_PTX_FILE_MAX);
        return WS_ERR_IO;
    }
    /* Optional ptxas sidecar: foo.ptx -> foo.ptxinfo (see bench/README). */
    char *info = NULL;
    size_t pl = strlen(path);
    char *ipath = malloc(pl + 16);
    if (ipath) {
        memcpy(ipath, path, pl + 1);
        if (pl > 4 && strcmp(ipath + pl - 4, ".ptx") == 0) ipath[pl - 4] = '\0';
        strcat(ipath, ".ptxinfo");
        info = ws_read_file_capped(ipath, WS_PTX_FILE_MAX, NULL);
        free(ipath);
    }
    ws_status s = ws_module_load(d, text, len, path, info, out);
    free(text);
    free(info);
    return s;
}

void ws_module_unload(ws_device *d, ws_module_handle *m) {
    if (!d || !m) return;
    for (ws_module_handle **p = &d->modules; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            module_free(d, m);
            return;
        }
}

ws_status ws_module_get_kernel(ws_module_handle *m, const char *name, ws_kernel **out) {
    if (!m || !name || !out) return WS_ERR_INVALID_VALUE;
    *out = NULL;
    for (uint32_t i = 0; i < m->nkernels; i++)
        if (strcmp(m->mod->funcs[m->kernels[i].func].name, name) == 0) {
            *out = &m->kernels[i];
            return WS_OK;
        }
    return fail(m->dev, WS_ERR_NOT_FOUND, "module %s has no kernel (.entry) named %s", m->name, name);
}

ws_status ws_module_get_global(ws_module_handle *m, const char *name, ws_devptr *addr,
                               size_t *size) {
    if (!m || !name) return WS_ERR_INVALID_VALUE;
    int i = ws_module_find_symbol(m->mod, name);
    const ws_symbol *s = i >= 0 ? &m->mod->syms[i] : NULL;
    if (!s || (s->space != WS_SPACE_GLOBAL && s->space != WS_SPACE_CONST))
        return fail(m->dev, WS_ERR_NOT_FOUND, "module %s has no .global or .const variable named %s",
                    m->name, name);
    ws_devptr a = m->img->sym_addr[i];
    if (s->space == WS_SPACE_CONST) a += m->img->const_base;  /* sym_addr: offset in the bank */
    if (addr) *addr = a;
    if (size) *size = (size_t)s->size;
    return WS_OK;
}

/* ---- kernels ----------------------------------------------------------- */
static const ws_func *kfunc(const ws_kernel *k) { return &k->mh->mod->funcs[k->func]; }

const char *ws_kernel_name(const ws_kernel *k) { return kfunc(k)->name; }

const char *ws_kernel_unsupported(const ws_kernel *k) {
    if (k->problem < 0) return NULL;
    const ws_module *m = k->mh->mod;
    return m->problems[k->problem].msg;
}

int ws_kernel_num_params(const ws_kernel *k) { return (int)kfunc(k)->nparams; }

void ws_kernel_param_layout(const ws_kernel *k, int i, size_t *offset, size_t *size) {
    const ws_func *f = kfunc(k);
    if (i < 0 || (uint32_t)i >= f->nparams) {
        if (offset) *offset = 0;
        if (size) *size = 0;
        return;
    }
    const ws_symbol *s = &k->mh->mod->syms[f->params[i]];
    if (offset) *offset = (size_t)s->offset;
    if (size) *size = (size_t)s->size;
}

void ws_kernel_get_attrs(const ws_kernel *k, ws_kernel_attrs *a) {
    const ws_func *f = kfunc(k);
    memset(a, 0, sizeof *a);
    /* ptxas numbers when the sidecar gave them; otherwise what the PTX shows. */
    a->num_regs = f->ptxas_regs >= 0 ? f->ptxas_regs : (int)(f->nregs < 255 ? f->nregs : 255);
    a->shared_bytes = f->ptxas_smem >= 0 ? (size_t)f->ptxas_smem : f->static_shared;
    a->local_bytes = f->ptxas_lmem >= 0 ? (size_t)f->ptxas_lmem : f->frame_size;
    a->const_bytes = f->ptxas_cmem >= 0 ? (size_t)f->ptxas_cmem : (size_t)k->mh->mod->const_size;
    a->param_bytes = f->param_size;
    a->num_params = (int)f->nparams;
    int maxt = 1024;
    if (f->maxntid[0]) {
        uint64_t t = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                     (f->maxntid[2] ? f->maxntid[2] : 1);
        if (t < (uint64_t)maxt) maxt = (int)t;
    }
    if (a->num_regs > 0) {
        int byregs = 32768 / a->num_regs / 32 * 32;  /* whole warps within the register file */
        if (byregs < maxt) maxt = byregs;
    }
    a->max_threads_per_block = maxt;
    memcpy(a->cluster_dims, f->reqnctapercluster, sizeof a->cluster_dims);
}

/* ---- launching --------------------------------------------------------- */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ws_status check_config(ws_device *d, const ws_func *f, ws_dim3 g, ws_dim3 b, size_t dyn) {
    const ws_device_props *p = &d->props;
    const char *kn = f->name;
    if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z)
        return fail(d, WS_ERR_INVALID_CONFIG,
                    "launch of %s: grid (%u,%u,%u) / block (%u,%u,%u) has a zero dimension", kn, g.x,
                    g.y, g.z, b.x, b.y, b.z);
    uint32_t gd[3] = {g.x, g.y, g.z}, bd[3] = {b.x, b.y, b.z};
    for (int i = 0; i < 3; i++) {
        if (gd[i] > (uint32_t)p->max_grid_dim[i])
            return fail(d, WS_ERR_INVALID_CONFIG,
                        "launch of %s: grid dimension %c = %u exceeds the device limit %d", kn,
                        "xyz"[i], gd[i], p->max_grid_dim[i]);
        if (bd[i] > (uint32_t)p->max_block_dim[i])
            return fail(d, WS_ERR_INVALID_CONFIG,
                        "launch of %s: block dimension %c = %u exceeds the device limit %d", kn,
                        "xyz"[i], bd[i], p->max_block_dim[i]);
    }
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (threads > (uint64_t)p->max_threads_per_block)
        return fail(d, WS_ERR_INVALID_CONFIG,
                    "launch of %s: block (%u,%u,%u) has %llu threads; at most %d are allowed", kn,
                    b.x, b.y, b.z, (unsigned long long)threads, p->max_threads_per_block);
    if (f->reqntid[0] &&
        (b.x != f->reqntid[0] || b.y != (f->reqntid[1] ? f->reqntid[1] : 1) ||
         b.z != (f->reqntid[2] ? f->reqntid[2] : 1)))
        return fail(d, WS_ERR_INVALID_CONFIG,
                    "launch of %s: block (%u,%u,%u) differs from the kernel's .reqntid %u,%u,%u", kn,
                    b.x, b.y, b.z, f->reqntid[0], f->reqntid[1] ? f->reqntid[1] : 1,
                    f->reqntid[2] ? f->reqntid[2] : 1);
    if (f->maxntid[0]) {
        uint64_t m = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                     (f->maxntid[2] ? f->maxntid[2] : 1);
        if (threads > m)
            return fail(d, WS_ERR_INVALID_CONFIG,
                        "launch of %s: block has %llu threads, more than the kernel's .maxntid (%llu)",
                        kn, (unsigned long long)threads, (unsigned long long)m);
    }
    uint64_t smem = (uint64_t)f->static_shared + dyn;
    if (smem > p->shared_per_block)
        return fail(d, WS_ERR_INVALID_CONFIG,
                    "launch of %s: %u bytes of static + %zu bytes of dynamic shared memory exceed "
                    "the %zu bytes allowed per block",
                    kn, f->static_shared, dyn, p->shared_per_block);
    return WS_OK;
}

/* Map an engine status to one the API documents. */
static ws_status fault_status(ws_status s) {
    return (s > WS_OK && s < WS_STATUS_COUNT) ? s : WS_ERR_LAUNCH_FAILURE;
}

/* Registers per thread when ptxas did not say: the PTX virtual register
 * count overstates what ptxas allocates, so it is capped at 63 (the Fermi
 * per-thread maximum the GTX480 model assumes). Occupancy is then only an
 * estimate; bundled workloads ship ptxas info so they never take this path. */
static uint32_t estimate_regs(const ws_func *f) {
    uint32_t n = f->nregs + (f->npreds + 31) / 32;
    return n < 63 ? (n ? n : 1) : 63;
}

/* ptxas sizes registers for the PTX's target (sm_75 and up: 64K per SM), so
 * a CTA of the kernel's .maxntid fits there; the modelled SM's register file
 * may be smaller, where ptxas would have capped the count (spilling) so that
 * such a CTA still fits. Without .maxntid CUDA refuses oversized launches too. */
static uint32_t fit_regs(const ws_device *d, const ws_func *f, uint32_t regs) {
    if (!f->maxntid[0]) return regs;
    uint64_t t = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                 (f->maxntid[2] ? f->maxntid[2] : 1);
    t = (t + 31) / 32 * 32;  /* the timing model allocates whole warps */
    uint64_t cap = (uint64_t)d->cfg.shader_registers / t & ~(uint64_t)3;
    return cap >= 4 && regs > cap ? (uint32_t)cap : regs;
}

/* Run one grid: functionally, or on the timing model (which executes the
 * same engine at issue and adds its statistics to ks). */
static ws_status run_grid(ws_device *d, const ws_launch_desc *l, ws_exec_counts *c,
                          ws_fault *fault, uint64_t *cycles, ws_kernel_stats *ks) {
    *cycles = 0;
    if (!d->gpu) return ws_exec_grid(l, c, fault);
    /* constants may have been written through their device address (the
       functional grid runner refreshes them itself) */
    const ws_module *mod = l->img->mod;
    if (mod->const_size && l->img->const_base)
        ws_gmem_read(l->gmem, l->img->const_base, l->img->const_mem, mod->const_size);
    const ws_func *f = &l->img->mod->funcs[l->func];
    ws_kernel_res res;
    res.threads_per_cta = l->block[0] * l->block[1] * l->block[2];
    res.regs_per_thread = fit_regs(d, f, f->ptxas_regs > 0 ? (uint32_t)f->ptxas_regs
                                                            : estimate_regs(f));
    res.smem_per_cta = f->static_shared + l->dyn_shared;
    ws_gpu_result r;
    uint64_t cap = d->cfg.max_insn > 0 ? (uint64_t)d->cfg.max_insn : d->opt.max_insn;
    ws_gpu_set_insn_cap(d->gpu, cap ? (cap > d->totals.thread_insts_exec
                                           ? cap - d->totals.thread_insts_exec : 1) : 0);
    d->last_detailed = d->last_functional_insn = 0;
    ws_status s = ws_gpu_run_kernel(d->gpu, l, &res, &r, ks, fault);
    if (r.capped) d->totals.capped = 1;
    if (s != WS_OK || r.capped) {
        /* a kernel stopped midway leaves CTAs, pipelines and requests in
           flight: start the next launch on a fresh GPU (after a fault CUDA's
           context is lost too) */
        char err[512];
        ws_gpu *old = d->gpu;
        d->gpu = ws_gpu_create(&d->cfg, err, sizeof err);
        if (d->gpu) ws_gpu_inherit_totals(d->gpu, old); /* cumulative stats go on */
        ws_gpu_destroy(old);
        if (!d->gpu) {
            fprintf(stderr, "warpsim: cannot rebuild the simulated GPU: %s\n", err);
        } else {
            ws_gpu_set_progress(d->gpu, d->cfg.progress_s);
            if (d->timeseries) ws_gpu_set_timeseries(d->gpu, d->timeseries);
        }
        ws_longrun_set_gpu(d->longrun, d->gpu);
    }
    d->last_detailed = r.detailed_cycles;
    d->last_functional_insn = r.functional_insn;
    d->last_sigma = r.projection_sigma;
    c->warp_insts = r.warp_insts;
    c->thread_insts = r.thread_insts;
    c->thread_insts_exec = r.thread_insts_exec;
    *cycles = r.cycles;
    return s;
}

/* The configuration the timing model uses, once per device before the first
 * kernel's report (GPGPU-Sim echoes its options at the start of a run): on
 * the text report unless quiet, and as DIR/config.txt beside stats.json. */
/* An output file could not be written: said at once, remembered for
 * ws_device_flush (so the run ends with a non-zero status). */
static void io_failed(ws_device *d, const char *msg) {
    fprintf(stderr, "warpsim: %s\n", msg);
    if (!d->io_err[0]) snprintf(d->io_err, sizeof d->io_err, "%s", msg);
    d->totals.io_errors++;
}

static void echo_config(ws_device *d) {
    if (d->config_echoed || !d->gpu) return;
    d->config_echoed = true;
    if (!d->opt.quiet) ws_config_echo(&d->cfg, d->opt.report ? d->opt.report : stdout);
    if (!d->stats_dir) return;
    char *text = NULL, err[600];
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        ws_config_echo(&d->cfg, m);
        fclose(m);
    }
    if (!text) io_failed(d, "cannot write config.txt: out of memory");
    else if (ws_write_file_atomic(d->stats_dir, "config.txt", text, err, sizeof err)) io_failed(d, err);
    free(text);
}

/* Flush the time series and tell whether it still reaches its file. */
static void check_timeseries(ws_device *d, bool close_it) {
    if (!d->timeseries) return;
    int bad = fflush(d->timeseries) != 0 || ferror(d->timeseries);
    int e = errno;
    if (close_it) {
        if (fclose(d->timeseries) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
        d->timeseries = NULL;
        if (d->gpu) ws_gpu_set_timeseries(d->gpu, NULL);
    }
    if (bad && !d->ts_failed) {
        char msg[600];
        snprintf(msg, sizeof msg, "cannot write %s/timeseries.csv: %s", d->stats_dir, strerror(e));
        d->ts_failed = true;
        io_failed(d, msg);
    }
}

ws_status ws_device_flush(ws_device *d) {
    if (!d) return WS_ERR_INVALID_VALUE;
    check_timeseries(d, false);
    if (d->longrun) {
        char err[600];
        d->sampling_shown = d->launch_uid + 1;
        if (ws_longrun_finish(d->longrun, stderr, d->stats_dir, err, sizeof err)) io_failed(d, err);
    }
    if (!d->io_err[0]) return WS_OK;
    return fail(d, WS_ERR_IO, "%s (the run's statistics are incomplete)", d->io_err);
}

static void report_kernel(ws_device *d, const ws_func *f, const uint32_t grid[3],
                          const uint32_t block[3], const ws_exec_counts *c, uint64_t cycles,
                          double wall, ws_kernel_stats *kstats) {
    ws_kernel_stats ks = *kstats; /* takes over the extra list */
    snprintf(ks.kernel_name, sizeof ks.kernel_name, "%s", f->name);
    ks.launch_uid = d->launch_uid;
    memcpy(ks.grid, grid, sizeof ks.grid);
    memcpy(ks.block, block, sizeof ks.block);
    ks.functional_only = d->gpu == NULL || kstats->functional_only;
    ks.sim_insn = c->thread_insts_exec;
    ks.sim_warp_insn = c->warp_insts;
    ks.sim_cycle = cycles;
    ks.issued_cta = (uint64_t)grid[0] * grid[1] * grid[2];
    ks.wall_s = wall;
    ks.tot_sim_insn = d->totals.thread_insts_exec;
    ks.tot_thrd_icount = d->totals.thread_insts;
    ks.tot_warp_insn = d->totals.warp_insts;
    ks.tot_sim_cycle = d->totals.cycles;
    ks.tot_issued_cta = d->tot_ctas;
    ks.tot_wall_s = d->tot_wall_s;
    echo_config(d);
    if (!d->opt.quiet) ws_report_text(d->opt.report ? d->opt.report : stdout, &ks);
    if (d->stats_dir) {
        char err[512];
        size_t before = d->json_len;
        int bad = ws_report_json(&ks, &d->json, &d->json_len, &d->json_cap) != 0;
        if (bad) {
            fprintf(stderr, "warpsim: out of memory building JSON stats\n");
            d->json_len = before;
            if (d->json) d->json[before] = '\0';
        } else if (ws_report_write_json_file(d->stats_dir, d->json, &d->json_written, err,
                                             sizeof err) != 0) {
            io_failed(d, err);
        }
    }
    check_timeseries(d, false); /* a kernel's samples are written: a full disk shows now */
    ws_kstats_free(&ks);
}

static ws_status launch_packed(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster,
                               int coop, size_t dyn_shared, const void *params, size_t params_size);

/* Every failed launch is counted and the first one kept: a program may ignore
 * the error CUDA returns, the run's summary does not (ws_run_totals). */
ws_status ws_launch_packed(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                           size_t dyn_shared, const void *params, size_t params_size) {
    return ws_launch_packed_cluster(d, k, grid, block, (ws_dim3){0, 0, 0}, dyn_shared, params, params_size);
}

static ws_status launch_recorded(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster,
                                 int coop, size_t dyn_shared, const void *params, size_t params_size);

ws_status ws_launch_packed_cluster(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster,
                                   size_t dyn_shared, const void *params, size_t params_size) {
    return launch_recorded(d, k, grid, block, cluster, 0, dyn_shared, params, params_size);
}

static ws_status launch_recorded(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster,
                                 int coop, size_t dyn_shared, const void *params, size_t params_size) {
    ws_status s = launch_packed(d, k, grid, block, cluster, coop, dyn_shared, params, params_size);
    if (s != WS_OK && d) {
        if (!d->totals.failed_launches++)
            snprintf(d->first_failure, sizeof d->first_failure, "%s", d->err);
    }
    return s;
}

/* The cluster shape of a launch: the one it names, else the kernel's
 * .reqnctapercluster, else none (all 0). Checked against the grid and
 * CUDA's portable cluster size. */
static ws_status cluster_shape(ws_device *d, const ws_func *f, ws_dim3 g, ws_dim3 c, uint32_t out[3]) {
    const uint32_t *req = f->reqnctapercluster;
    out[0] = out[1] = out[2] = 0;
    if (!c.x && !c.y && !c.z) {
        if (!req[0]) return WS_OK;
        c = (ws_dim3){req[0], req[1], req[2]};
    } else if (req[0] && (c.x != req[0] || c.y != req[1] || c.z != req[2])) {
        return fail(d, WS_ERR_INVALID_CONFIG,
                    "launch of %s: cluster (%u,%u,%u) differs from the kernel's __cluster_dims__ (%u,%u,%u)",
                    f->name, c.x, c.y, c.z, req[0], req[1], req[2]);
    }
    if (!c.x || !c.y || !c.z)
        return fail(d, WS_ERR_INVALID_CONFIG, "launch of %s: cluster (%u,%u,%u) has a zero dimension", f->name,
                    c.x, c.y, c.z);
    uint64_t n = (uint64_t)c.x * c.y * c.z;
    if (n > WS_MAX_CLUSTER_SIZE)
        return fail(d, WS_ERR_INVALID_CONFIG,
                    "launch of %s: a cluster of %llu CTAs; at most %d are allowed (CUDA's portable cluster size)",
                    f->name, (unsigned long long)n, WS_MAX_CLUSTER_SIZE);
    if (g.x % c.x || g.y % c.y || g.z % c.z)
        return fail(d, WS_ERR_INVALID_CONFIG,
                    "launch of %s: grid (%u,%u,%u) is not a whole number of (%u,%u,%u) clusters", f->name, g.x,
                    g.y, g.z, c.x, c.y, c.z);
    out[0] = c.x, out[1] = c.y, out[2] = c.z;
    return WS_OK;
}

static ws_status launch_packed(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster,
                               int coop, size_t dyn_shared, const void *params, size_t params_size) {
    if (!d || !k) return d ? fail(d, WS_ERR_INVALID_VALUE, "launch: null kernel") : WS_ERR_INVALID_VALUE;
    const ws_func *f = kfunc(k);
    if (k->problem >= 0) {
        const ws_problem *pr = &k->mh->mod->problems[k->problem];
        const char *in = pr->func >= 0 && (uint32_t)pr->func != k->func
                             ? k->mh->mod->funcs[pr->func].name : NULL;
        return fail(d, WS_ERR_UNSUPPORTED, "launch of %s refused: %s%s%shas an unsupported instruction: %s",
                    f->name, in ? "it calls " : "", in ? in : "", in ? ", which " : "it ", pr->msg);
    }
    if (params_size != f->param_size)
        return fail(d, WS_ERR_INVALID_VALUE,
                    "launch of %s: parameter buffer has %zu bytes, the kernel takes %u", f->name,
                    params_size, f->param_size);
    if (f->param_size && !params)
        return fail(d, WS_ERR_INVALID_VALUE, "launch of %s: null parameter buffer", f->name);
    /* the instruction cap ended the simulation: later launches are skipped
       (their inputs are whatever the cut-short run left, so not even checked) */
    if (d->totals.capped) {
        note_skipped(d, f->name);
        return WS_OK;
    }
    ws_status s = check_config(d, f, grid, block, dyn_shared);
    if (s != WS_OK) return s;
    uint32_t cdim[3];
    if ((s = cluster_shape(d, f, grid, cluster, cdim)) != WS_OK) return s;

    ws_launch_desc l;
    memset(&l, 0, sizeof l);
    l.img = k->mh->img;
    l.func = k->func;
    l.grid[0] = grid.x; l.grid[1] = grid.y; l.grid[2] = grid.z;
    l.block[0] = block.x; l.block[1] = block.y; l.block[2] = block.z;
    l.dyn_shared = (uint32_t)dyn_shared;
    l.params = params;
    l.gmem = d->gmem;
    l.tex = d->tex;
    l.printf_out = &d->printf_out;
    l.heap = d->heap;
    l.num_sms = (uint32_t)d->props.num_sms;
    l.hang_warp_insts = (uint64_t)d->cfg.hang_insns;
    l.memcheck = d->memcheck;
    memcpy(l.cluster, cdim, sizeof l.cluster);
    if (coop) { /* the grid-sync workspace (cooperative groups read it from %envreg1/2) */
        if (!d->coop_ws && (s = ws_malloc(d, 64, &d->coop_ws)) != WS_OK) return s;
        ws_memset(d, d->coop_ws, 0, 64);
        l.grid_ws = d->coop_ws;
    }
    /* functional mode approximates the thread-instruction cap in warp instructions */
    uint64_t cap = d->cfg.max_insn > 0 ? (uint64_t)d->cfg.max_insn : d->opt.max_insn;
    if (cap && !d->gpu) {
        uint64_t left = cap > d->totals.thread_insts_exec ? cap - d->totals.thread_insts_exec : 0;
        l.max_warp_insts = left / 32 + 1;
    }

    ws_lr_mode mode = WS_LR_DETAILED;
    if (d->longrun) {
        s = ws_longrun_begin(d->longrun, f->name, l.grid, l.block, params, params_size, &mode,
                             d->err, sizeof d->err);
        if (s != WS_OK) return s;
        if (mode == WS_LR_SKIP) return WS_OK; /* before a resumed checkpoint's boundary */
    }

    ws_exec_counts c = {0};
    ws_fault fault;
    memset(&fault, 0, sizeof fault);
    uint64_t cycles = 0;
    ws_kernel_stats ks;
    ws_kstats_init(&ks);
    ks.no_text_lines = d->opt.quiet; /* report_kernel prints no text then */
    double t0 = now_s();
    int was_capped = d->totals.capped;
    d->last_detailed = d->last_functional_insn = 0;
    d->last_sigma = 0;
    if (mode == WS_LR_FUNCTIONAL || ws_longrun_profiles(d->longrun)) {
        s = ws_longrun_run_functional(d->longrun, &l, &c, &fault);
        ks.functional_only = 1;
    } else {
        s = run_grid(d, &l, &c, &fault, &cycles, &ks);
    }
    if (d->longrun && s == WS_OK)
        ws_longrun_end(d->longrun, mode, &c, cycles, d->last_detailed, d->last_functional_insn,
                       d->last_sigma, &ks);
    ws_memcheck_end_kernel(d->memcheck, f->name);
    if (!d->gpu && l.max_warp_insts && c.warp_insts >= l.max_warp_insts) d->totals.capped = 1;
    if (d->totals.capped && !was_capped) {
        ks.capped = 1;
        /* the timing model stops at whichever cap comes first: name the one it hit */
        uint64_t max_cycle = d->gpu && d->cfg.max_cycle > 0 ? (uint64_t)d->cfg.max_cycle : 0;
        d->totals.capped_by_cycles = max_cycle && d->totals.cycles + cycles >= max_cycle;
        char what[96];
        if (d->totals.capped_by_cycles)
            snprintf(what, sizeof what, "cycle cap (%llu cycles)", (unsigned long long)max_cycle);
        else
            snprintf(what, sizeof what, "instruction cap (%llu thread instructions)",
                     (unsigned long long)cap);
        fprintf(stderr, "warpsim: the %s stopped kernel %s (launch %llu) before its end; later "
                "launches are skipped and the program's results are incomplete\n", what, f->name,
                (unsigned long long)d->launch_uid + 1);
    }
    double wall = now_s() - t0;
    d->launch_uid++;
    d->totals.kernels++;
    d->totals.warp_insts += c.warp_insts;
    d->totals.thread_insts += c.thread_insts;
    d->totals.thread_insts_exec += c.thread_insts_exec;
    d->totals.cycles += cycles;
    d->tot_wall_s += wall;
    if (s != WS_OK) {
        ws_kstats_free(&ks);
        s = fault_status(fault.code != WS_OK ? fault.code : s);
        return fail(d, s, "%s", fault.msg[0] ? fault.msg : ws_status_name(s));
    }
    d->tot_ctas += (uint64_t)grid.x * grid.y * grid.z;
    report_kernel(d, f, l.grid, l.block, &c, cycles, wall, &ks);
    return WS_OK;
}

ws_status ws_launch(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, size_t dyn_shared,
                    void **args) {
    return ws_launch_cluster(d, k, grid, block, (ws_dim3){0, 0, 0}, dyn_shared, args);
}

static ws_status launch_args(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster, int coop,
                             size_t dyn_shared, void **args);

ws_status ws_launch_cluster(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster,
                            size_t dyn_shared, void **args) {
    return launch_args(d, k, grid, block, cluster, 0, dyn_shared, args);
}

ws_status ws_launch_cooperative(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, size_t dyn_shared,
                                void **args) {
    return launch_args(d, k, grid, block, (ws_dim3){0, 0, 0}, 1, dyn_shared, args);
}

static ws_status launch_args(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster, int coop,
                             size_t dyn_shared, void **args) {
    if (!d || !k) return d ? fail(d, WS_ERR_INVALID_VALUE, "launch: null kernel") : WS_ERR_INVALID_VALUE;
    const ws_func *f = kfunc(k);
    if (f->nparams && !args)
        return fail(d, WS_ERR_INVALID_VALUE, "launch of %s: kernel takes %u parameters but args is NULL",
                    f->name, f->nparams);
    uint8_t small[256];
    uint8_t *buf = f->param_size <= sizeof small ? small : calloc(1, f->param_size);
    if (!buf) return fail(d, WS_ERR_OUT_OF_MEMORY, "launch of %s: host out of memory", f->name);
    memset(buf, 0, f->param_size <= sizeof small ? sizeof small : 0);
    ws_status s = WS_OK;
    for (uint32_t i = 0; i < f->nparams; i++) {
        size_t off, sz;
        ws_kernel_param_layout(k, (int)i, &off, &sz);
        if (!args[i]) {
            s = fail(d, WS_ERR_INVALID_VALUE, "launch of %s: args[%u] is NULL", f->name, i);
            break;
        }
        if (off + sz > f->param_size) {
            s = fail(d, WS_ERR_LAUNCH_FAILURE, "launch of %s: parameter %u lies outside the %u-byte "
                     "parameter buffer", f->name, i, f->param_size);
            break;
        }
        memcpy(buf + off, args[i], sz);
    }
    if (s == WS_OK) s = launch_recorded(d, k, grid, block, cluster, coop, dyn_shared, buf, f->param_size);
    if (buf != small) free(buf);
    return s;
}

/* ---- device-side printf ------------------------------------------------- */
void ws_device_print_output(ws_device *d, FILE *out) {
    if (d) ws_printf_buf_flush(&d->printf_out, out ? out : stdout);
}

ws_status ws_device_set_printf_limit(ws_device *d, size_t bytes) {
    if (!d) return WS_ERR_INVALID_VALUE;
    d->printf_out.limit = bytes;
    return WS_OK;
}

size_t ws_device_printf_limit(const ws_device *d) { return d ? d->printf_out.limit : 0; }

ws_status ws_device_set_malloc_heap_limit(ws_device *d, size_t bytes) {
    return d ? ws_dev_heap_set_limit(d->heap, bytes) : WS_ERR_INVALID_VALUE;
}

size_t ws_device_malloc_heap_limit(const ws_device *d) { return d ? (size_t)ws_dev_heap_limit(d->heap) : 0; }

/* ---- time and statistics ------------------------------------------------ */
uint64_t ws_device_cycles(const ws_device *d) { return d->totals.cycles; }

double ws_device_time_ns(const ws_device *d) {
    return (double)d->totals.cycles * 1e6 / (double)d->props.clock_khz;
}

void ws_device_totals(const ws_device *d, ws_run_totals *t) { *t = d->totals; }
const char *ws_device_first_failure(const ws_device *d) { return d->first_failure; }
