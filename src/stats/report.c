/* End-of-kernel report: GPGPU-Sim style text and JSON. */
#include "stats/report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The fields ws_report_text and ws_report_json write themselves, in text
 * order (JSON-only ones where JSON has them). */
#define K(n, u, d, ...) {n, .unit = u, .desc = d, __VA_ARGS__}
#define CUM .scope = WS_SCOPE_CUMULATIVE, .agg = WS_AGG_LAST
#define STATE .agg = WS_AGG_LAST
static const ws_stat_decl report_stats[] = {
    K("kernel_name", "text", "the kernel's (mangled) name", STATE),
    K("kernel_launch_uid", "id", "1-based launch number on the device", STATE),
    K("grid", "CTAs", "grid dimensions (x,y,z); JSON: a list", .text = "kernel_grid_dim", STATE),
    K("block", "threads", "CTA dimensions (x,y,z); JSON: a list", .text = "kernel_block_dim",
      STATE),
    K("mode", "text", "performance (timing model) or functional", .text = "warpsim_mode", STATE),
    K("warpsim_capped", "flag", "1: an instruction or cycle cap stopped this kernel before its end "
      "(text: only then)", .agg = WS_AGG_MAX, .when = "text: when capped; JSON: always"),
    K("gpu_sim_cycle", "cycles", "core cycles of this kernel", .twin = "gpu_tot_sim_cycle"),
    K("gpu_sim_insn", "instructions", "thread instructions whose guard predicate held",
      .twin = "gpu_tot_sim_insn"),
    K("gpu_ipc", "instructions/cycle", "gpu_sim_insn / gpu_sim_cycle", .agg = WS_AGG_RATIO,
      .num_name = "gpu_sim_insn", .den_name = "gpu_sim_cycle", .twin = "gpu_tot_ipc",
      .run = WS_RUN_GEOMEAN),
    K("gpu_tot_sim_cycle", "cycles", "core cycles of all kernels so far", CUM),
    K("gpu_tot_sim_insn", "instructions", "gpu_sim_insn of all kernels so far", CUM),
    K("gpu_tot_ipc", "instructions/cycle", "gpu_tot_sim_insn / gpu_tot_sim_cycle", CUM,
      .run = WS_RUN_GEOMEAN),
    K("gpu_sim_issued_cta", "CTAs", "CTAs issued in this kernel", .text = "",
      .twin = "gpu_tot_issued_cta"),
    K("gpu_tot_issued_cta", "CTAs", "CTAs issued in all kernels so far", CUM),
    K("gpu_sim_warp_insn", "warp instructions", "warp instructions issued in this kernel"),
    K("gpgpu_n_tot_thrd_icount", "instructions",
      "thread instructions so far, lanes active at issue (guard ignored)", CUM),
    K("gpgpu_n_tot_w_icount", "warp instructions", "warp instructions so far", CUM),
    K("wall_time_s", "s", "host wall time of this launch", .text = "gpu_sim_wall_time",
      .twin = "tot_wall_time_s"),
    K("tot_wall_time_s", "s", "host wall time of all launches so far", .text = "", CUM),
    K("gpu_total_sim_rate", "instructions/s", "simulation speed: gpu_tot_sim_insn per wall "
      "second so far", CUM, .run = WS_RUN_MEAN),
};
#undef K
#undef CUM
#undef STATE
const ws_stat_table ws_report_stat_table = {"report", report_stats,
                                            sizeof report_stats / sizeof report_stats[0]};

void ws_kstats_init(ws_kernel_stats *s) { memset(s, 0, sizeof *s); }

void ws_kstats_free(ws_kernel_stats *s) {
    for (size_t i = 0; i < s->nextra; i++) {
        free(s->extra[i].line);
        free(s->extra[i].str);
    }
    free(s->extra);
    s->extra = NULL;
    s->nextra = s->cap_extra = 0;
}

static ws_stat *add_stat(ws_kernel_stats *s, const char *name) {
    if (s->nextra == s->cap_extra) {
        size_t cap = s->cap_extra ? 2 * s->cap_extra : 16;
        ws_stat *n = realloc(s->extra, cap * sizeof *n);
        if (!n) return NULL;
        s->extra = n;
        s->cap_extra = cap;
    }
    ws_stat *st = &s->extra[s->nextra++];
    memset(st, 0, sizeof *st);
    snprintf(st->name, sizeof st->name, "%s", name);
    return st;
}

int ws_kstats_add_u64(ws_kernel_stats *s, const char *name, uint64_t v) {
    ws_stat *st = add_stat(s, name);
    if (!st) return -1;
    st->u = v;
    return 0;
}

int ws_kstats_add_f64(ws_kernel_stats *s, const char *name, double v) {
    ws_stat *st = add_stat(s, name);
    if (!st) return -1;
    st->is_float = 1;
    st->f = v;
    return 0;
}

int ws_kstats_add_str(ws_kernel_stats *s, const char *name, const char *v) {
    ws_stat *st = add_stat(s, name);
    if (!st) return -1;
    if (!(st->str = strdup(v))) return -1;
    return 0;
}

int ws_kstats_add_line(ws_kernel_stats *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    ws_stat *st = n < 0 ? NULL : add_stat(s, "");
    if (!st || !(st->line = malloc((size_t)n + 1))) return -1;
    va_start(ap, fmt);
    vsnprintf(st->line, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return 0;
}

static double ratio_of(uint64_t num, uint64_t den) { return den ? (double)num / (double)den : 0.0; }

/* One scope's values: ratios from the same scope's counts. */
static int add_scope(ws_kernel_stats *s, const ws_stat_decl *decl, size_t n, const uint64_t *v,
                     int per_kernel) {
    char name[96];
    for (size_t i = 0; i < n; i++) {
        const ws_stat_decl *d = &decl[i];
        if (d->hidden) continue;
        snprintf(name, sizeof name, "%s%s", d->name, per_kernel ? WS_STAT_KERNEL_SUFFIX : "");
        int rc = d->agg == WS_AGG_RATIO ? ws_kstats_add_f64(s, name, ratio_of(v[d->num], v[d->den]))
                                        : ws_kstats_add_u64(s, name, v[i]);
        if (rc) return -1;
        /* a JSON-only stat stays out of the text in both scopes */
        ws_stat *st = &s->extra[s->nextra - 1];
        st->json_only = d->text && !*d->text;
        if (!per_kernel && d->text) snprintf(st->text, sizeof st->text, "%s", d->text);
    }
    return 0;
}

int ws_kstats_add_program(ws_kernel_stats *s, const ws_stat_decl *decl, size_t n,
                          const uint64_t *kernel, uint64_t *total) {
    for (size_t i = 0; i < n; i++) {
        switch (decl[i].agg) {
        case WS_AGG_SUM: total[i] += kernel[i]; break;
        case WS_AGG_MAX: if (kernel[i] > total[i]) total[i] = kernel[i]; break;
        case WS_AGG_LAST: total[i] = kernel[i]; break;
        case WS_AGG_RATIO: /* computed from the totals of num and den */
        case WS_AGG_WMEAN: break; /* not used in program tables */
        }
    }
    /* per-kernel lines first: `grep NAME | tail -1` then still finds the
       program total, and a first match in the first kernel equals it */
    if (add_scope(s, decl, n, kernel, 1)) return -1;
    return add_scope(s, decl, n, total, 0);
}

int ws_kstats_add_decls(ws_kernel_stats *s, const ws_stat_decl *decl, size_t n, const void *unit) {
    const char *base = unit;
    for (size_t i = 0; i < n; i++) {
        const ws_stat_decl *d = &decl[i];
        if (d->hidden) continue;
        const void *v = base + d->off;
        int rc = 0;
        switch (d->src) {
        case WS_SRC_NONE: continue;
        case WS_SRC_U64: rc = ws_kstats_add_u64(s, d->name, *(const uint64_t *)v); break;
        case WS_SRC_F64: rc = ws_kstats_add_f64(s, d->name, *(const double *)v); break;
        case WS_SRC_STR: rc = ws_kstats_add_str(s, d->name, *(const char *const *)v); break;
        }
        if (rc) return -1;
        if (d->text) {
            ws_stat *st = &s->extra[s->nextra - 1];
            st->json_only = !*d->text;
            snprintf(st->text, sizeof st->text, "%s", d->text);
        }
    }
    return 0;
}

int ws_kstats_add_table(ws_kernel_stats *s, const ws_stat_table *t, const void *unit) {
    return ws_kstats_add_decls(s, t->decl, t->n, unit);
}

/* Instructions per wall second; GPGPU-Sim prints it as an integer. */
static uint64_t sim_rate(uint64_t insn, double wall_s) {
    if (wall_s <= 0) wall_s = 1e-9;
    return (uint64_t)((double)insn / wall_s);
}

void ws_report_text(FILE *out, const ws_kernel_stats *s) {
    fprintf(out, "kernel_name = %s \n", s->kernel_name);
    fprintf(out, "kernel_launch_uid = %" PRIu64 " \n", s->launch_uid);
    fprintf(out, "kernel_grid_dim = (%u,%u,%u)\n", s->grid[0], s->grid[1], s->grid[2]);
    fprintf(out, "kernel_block_dim = (%u,%u,%u)\n", s->block[0], s->block[1], s->block[2]);
    fprintf(out, "warpsim_mode = %s\n", s->functional_only ? "functional" : "performance");
    /* only when it happened: a partial kernel must not pass for a whole one */
    if (s->capped) fprintf(out, "warpsim_capped = 1\n");
    /* Cycles (and IPC) exist only when the timing model ran: no fake zeros. */
    if (!s->functional_only) fprintf(out, "gpu_sim_cycle = %" PRIu64 "\n", s->sim_cycle);
    fprintf(out, "gpu_sim_insn = %" PRIu64 "\n", s->sim_insn);
    if (!s->functional_only && s->sim_cycle)
        fprintf(out, "gpu_ipc = %12.4f\n", (double)s->sim_insn / (double)s->sim_cycle);
    if (!s->functional_only) fprintf(out, "gpu_tot_sim_cycle = %" PRIu64 "\n", s->tot_sim_cycle);
    fprintf(out, "gpu_tot_sim_insn = %" PRIu64 "\n", s->tot_sim_insn);
    if (!s->functional_only && s->tot_sim_cycle)
        fprintf(out, "gpu_tot_ipc = %12.4f\n", (double)s->tot_sim_insn / (double)s->tot_sim_cycle);
    fprintf(out, "gpu_tot_issued_cta = %" PRIu64 "\n", s->tot_issued_cta);
    fprintf(out, "gpu_sim_warp_insn = %" PRIu64 "\n", s->sim_warp_insn);
    fprintf(out, "gpgpu_n_tot_thrd_icount = %" PRIu64 "\n", s->tot_thrd_icount);
    fprintf(out, "gpgpu_n_tot_w_icount = %" PRIu64 "\n", s->tot_warp_insn);
    for (size_t i = 0; i < s->nextra; i++) {
        const ws_stat *st = &s->extra[i];
        const char *name = *st->text ? st->text : st->name;
        if (st->line)
            fprintf(out, "%s\n", st->line);
        else if (st->json_only)
            continue;
        else if (st->str)
            fprintf(out, "%s = %s\n", name, st->str);
        else if (st->is_float)
            fprintf(out, "%s = %.4f\n", name, st->f);
        else
            fprintf(out, "%s = %" PRIu64 "\n", name, st->u);
    }
    fprintf(out, "gpu_sim_wall_time = %.6f sec\n", s->wall_s);
    fprintf(out, "gpu_total_sim_rate=%" PRIu64 "\n", sim_rate(s->tot_sim_insn, s->tot_wall_s));
    fflush(out);
}

/* ---- a tiny JSON writer ------------------------------------------------ */
typedef struct jbuf {
    char **buf;
    size_t *len, *cap;
    int oom;
} jbuf;

static void jput(jbuf *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jput(jbuf *j, const char *fmt, ...) {
    if (j->oom) return;
    for (;;) {
        size_t room = *j->cap - *j->len;
        va_list ap;
        va_start(ap, fmt);
        int n = *j->buf ? vsnprintf(*j->buf + *j->len, room, fmt, ap) : -2;
        va_end(ap);
        if (n >= 0 && (size_t)n < room) {
            *j->len += (size_t)n;
            return;
        }
        if (n == -1) { j->oom = 1; return; }
        size_t cap = *j->cap ? 2 * *j->cap : 1024;
        while (n > 0 && cap < *j->len + (size_t)n + 1) cap *= 2;
        char *nb = realloc(*j->buf, cap);
        if (!nb) { j->oom = 1; return; }
        *j->buf = nb;
        *j->cap = cap;
    }
}

static void jstr(jbuf *j, const char *s) {
    jput(j, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') jput(j, "\\%c", *p);
        else if (*p < 0x20) jput(j, "\\u%04x", *p);
        else jput(j, "%c", *p);
    }
    jput(j, "\"");
}

static void jkey_u64(jbuf *j, const char *k, uint64_t v) {
    jput(j, ", ");
    jstr(j, k);
    jput(j, ": %" PRIu64, v);
}

static void jkey_f64(jbuf *j, const char *k, double v) {
    jput(j, ", ");
    jstr(j, k);
    if (isfinite(v)) jput(j, ": %.17g", v);
    else jput(j, ": null");  /* JSON has no NaN/Inf */
}

int ws_report_json(const ws_kernel_stats *s, char **buf, size_t *len, size_t *cap) {
    jbuf j = {buf, len, cap, 0};
    jput(&j, "%s{\"kernel_name\": ", *len ? "," : "");
    jstr(&j, s->kernel_name);
    jkey_u64(&j, "kernel_launch_uid", s->launch_uid);
    jput(&j, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u]", s->grid[0], s->grid[1],
         s->grid[2], s->block[0], s->block[1], s->block[2]);
    jput(&j, ", \"mode\": ");
    jstr(&j, s->functional_only ? "functional" : "performance");
    jkey_u64(&j, "warpsim_capped", (uint64_t)s->capped);
    if (!s->functional_only) jkey_u64(&j, "gpu_sim_cycle", s->sim_cycle);
    jkey_u64(&j, "gpu_sim_insn", s->sim_insn);
    if (!s->functional_only && s->sim_cycle)
        jkey_f64(&j, "gpu_ipc", (double)s->sim_insn / (double)s->sim_cycle);
    if (!s->functional_only) jkey_u64(&j, "gpu_tot_sim_cycle", s->tot_sim_cycle);
    if (!s->functional_only && s->tot_sim_cycle)
        jkey_f64(&j, "gpu_tot_ipc", (double)s->tot_sim_insn / (double)s->tot_sim_cycle);
    jkey_u64(&j, "gpu_tot_sim_insn", s->tot_sim_insn);
    jkey_u64(&j, "gpu_sim_issued_cta", s->issued_cta);
    jkey_u64(&j, "gpu_tot_issued_cta", s->tot_issued_cta);
    jkey_u64(&j, "gpu_sim_warp_insn", s->sim_warp_insn);
    jkey_u64(&j, "gpgpu_n_tot_thrd_icount", s->tot_thrd_icount);
    jkey_u64(&j, "gpgpu_n_tot_w_icount", s->tot_warp_insn);
    for (size_t i = 0; i < s->nextra; i++) {
        if (s->extra[i].line) continue; /* text only */
        if (s->extra[i].str) {
            jput(&j, ", ");
            jstr(&j, s->extra[i].name);
            jput(&j, ": ");
            jstr(&j, s->extra[i].str);
        } else if (s->extra[i].is_float) jkey_f64(&j, s->extra[i].name, s->extra[i].f);
        else jkey_u64(&j, s->extra[i].name, s->extra[i].u);
    }
    jkey_f64(&j, "wall_time_s", s->wall_s);
    jkey_f64(&j, "tot_wall_time_s", s->tot_wall_s);
    jkey_u64(&j, "gpu_total_sim_rate", sim_rate(s->tot_sim_insn, s->tot_wall_s));
    jput(&j, "}");
    return j.oom ? -1 : 0;
}

int ws_report_write_json_file(const char *dir, const char *objs, char *err, size_t errlen) {
    size_t n = strlen(dir) + sizeof "/stats.json";
    char *path = malloc(n);
    if (!path) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(path, n, "%s/stats.json", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        free(path);
        return -1;
    }
    fprintf(f, "[%s]\n", objs ? objs : "");
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    free(path);
    return bad ? -1 : 0;
}
