/* End-of-kernel report: GPGPU-Sim style text and JSON. */
#include "stats/report.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The report's own fields, from ws_kernel_stats (report_values). */
typedef struct report_vals {
    const char *kernel_name, *mode;
    uint64_t uid, capped;
    const uint32_t *grid, *block;
    uint64_t cycle, insn, tot_cycle, tot_insn, issued_cta, tot_issued_cta, warp_insn;
    uint64_t thrd_icount, w_icount, rate;
    double ipc, tot_ipc, wall, tot_wall;
} report_vals;

/* In text order; the text prints those marked WS_SHOW_LAST after the
 * units' stats, JSON-only ones (text "") where JSON has them. */
#define K(f, src_, n, u, d, ...)                                                              \
    {n, .unit = u, .desc = d, .src = src_, .off = offsetof(report_vals, f), __VA_ARGS__}
#define CUM .scope = WS_SCOPE_CUMULATIVE, .agg = WS_AGG_LAST
#define STATE .agg = WS_AGG_LAST
#define U WS_SRC_U64
#define F WS_SRC_F64
static const ws_stat_decl report_stats[] = {
    K(kernel_name, WS_SRC_STR, "kernel_name", "text", "the kernel's (mangled) name", STATE,
      .fmt = "%s = %s "),
    K(uid, U, "kernel_launch_uid", "id", "1-based launch number on the device", STATE,
      .fmt = "%s = %" PRIu64 " "),
    K(grid, WS_SRC_DIM3, "grid", "CTAs", "grid dimensions (x,y,z); JSON: a list",
      .text = "kernel_grid_dim", STATE),
    K(block, WS_SRC_DIM3, "block", "threads", "CTA dimensions (x,y,z); JSON: a list",
      .text = "kernel_block_dim", STATE),
    K(mode, WS_SRC_STR, "mode", "text", "performance (timing model) or functional",
      .text = "warpsim_mode", STATE),
    K(capped, U, "warpsim_capped", "flag", "1: an instruction or cycle cap stopped this kernel "
      "before its end (text: only then)", .agg = WS_AGG_MAX,
      .when = "text: when capped; JSON: always", .show = WS_SHOW_TEXT_IF_SET),
    K(cycle, U, "gpu_sim_cycle", "cycles", "core cycles of this kernel",
      .twin = "gpu_tot_sim_cycle", .show = WS_SHOW_TIMING),
    K(insn, U, "gpu_sim_insn", "instructions", "thread instructions whose guard predicate held",
      .twin = "gpu_tot_sim_insn"),
    K(ipc, F, "gpu_ipc", "instructions/cycle", "gpu_sim_insn / gpu_sim_cycle",
      .agg = WS_AGG_RATIO, .num_name = "gpu_sim_insn", .den_name = "gpu_sim_cycle",
      .twin = "gpu_tot_ipc", .run = WS_RUN_GEOMEAN, .fmt = "%s = %12.4f",
      .show = WS_SHOW_TIMING | WS_SHOW_IF_DEN),
    K(tot_cycle, U, "gpu_tot_sim_cycle", "cycles", "core cycles of all kernels so far", CUM,
      .show = WS_SHOW_TIMING),
    K(tot_insn, U, "gpu_tot_sim_insn", "instructions", "gpu_sim_insn of all kernels so far", CUM),
    /* the running ratio; not a WS_AGG_RATIO (it is the total already) */
    K(tot_ipc, F, "gpu_tot_ipc", "instructions/cycle", "gpu_tot_sim_insn / gpu_tot_sim_cycle", CUM,
      .den_name = "gpu_tot_sim_cycle", .run = WS_RUN_GEOMEAN, .fmt = "%s = %12.4f",
      .show = WS_SHOW_TIMING | WS_SHOW_IF_DEN),
    K(issued_cta, U, "gpu_sim_issued_cta", "CTAs", "CTAs issued in this kernel", .text = "",
      .twin = "gpu_tot_issued_cta"),
    K(tot_issued_cta, U, "gpu_tot_issued_cta", "CTAs", "CTAs issued in all kernels so far", CUM),
    K(warp_insn, U, "gpu_sim_warp_insn", "warp instructions", "warp instructions issued in this "
      "kernel"),
    K(thrd_icount, U, "gpgpu_n_tot_thrd_icount", "instructions",
      "thread instructions so far, lanes active at issue (guard ignored)", CUM),
    K(w_icount, U, "gpgpu_n_tot_w_icount", "warp instructions", "warp instructions so far", CUM),
    K(wall, F, "wall_time_s", "s", "host wall time of this launch", .text = "gpu_sim_wall_time",
      .twin = "tot_wall_time_s", .fmt = "%s = %.6f sec", .show = WS_SHOW_LAST),
    K(tot_wall, F, "tot_wall_time_s", "s", "host wall time of all launches so far", .text = "", CUM,
      .show = WS_SHOW_LAST),
    K(rate, U, "gpu_total_sim_rate", "instructions/s", "simulation speed: gpu_tot_sim_insn per "
      "wall second so far", CUM, .run = WS_RUN_MEAN, .fmt = "%s=%" PRIu64, .show = WS_SHOW_LAST),
};
#undef K
#undef CUM
#undef STATE
#undef U
#undef F
enum { N_REPORT = sizeof report_stats / sizeof report_stats[0] };
const ws_stat_table ws_report_stat_table = {"report", report_stats, N_REPORT};

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

/* snprintf(dst, cap, "%s%s", a, b) without the formatting (cap > 0): a kernel's
   report adds thousands of named values */
static void cat2(char *dst, size_t cap, const char *a, const char *b) {
    size_t na = strnlen(a, cap - 1), nb = *b ? strnlen(b, cap - 1 - na) : 0; /* (b: mostly "") */
    memcpy(dst, a, na);
    if (nb) memcpy(dst + na, b, nb);
    dst[na + nb] = 0;
}

/* Room for cap values in all. */
static int reserve_stats(ws_kernel_stats *s, size_t cap) {
    if (cap <= s->cap_extra) return 0;
    ws_stat *n = realloc(s->extra, cap * sizeof *n);
    if (!n) return -1;
    s->extra = n;
    s->cap_extra = cap;
    return 0;
}

/* A new value named a followed by b, its other fields cleared one by one:
   clearing the whole record (two 96-byte names) cost more than filling it,
   and nothing reads past a name's end. */
static ws_stat *add_stat2(ws_kernel_stats *s, const char *a, const char *b) {
    if (s->nextra == s->cap_extra && reserve_stats(s, s->cap_extra ? 2 * s->cap_extra : 16)) return NULL;
    ws_stat *st = &s->extra[s->nextra++];
    cat2(st->name, sizeof st->name, a, b);
    st->text[0] = 0;
    st->json_only = st->is_float = 0;
    st->line = st->str = NULL;
    st->u = 0;
    st->f = 0;
    return st;
}

static ws_stat *add_stat(ws_kernel_stats *s, const char *name) { return add_stat2(s, name, ""); }

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

/* One formatting pass when the line fits the stack buffer (all of today's
   lines): a many-kernel program formats thousands of lines with %.3f, and
   the measuring pass cost as much as the writing one. */
int ws_kstats_add_line(ws_kernel_stats *s, const char *fmt, ...) {
    if (s->no_text_lines) return 0;
    char t[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    ws_stat *st = n < 0 ? NULL : add_stat(s, "");
    if (!st || !(st->line = malloc((size_t)n + 1))) return -1;
    if ((size_t)n < sizeof t) {
        memcpy(st->line, t, (size_t)n + 1);
        return 0;
    }
    va_start(ap, fmt);
    vsnprintf(st->line, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return 0;
}

static double ratio_of(uint64_t num, uint64_t den) { return den ? (double)num / (double)den : 0.0; }

/* One scope's values: ratios from the same scope's counts. */
static int add_scope(ws_kernel_stats *s, const ws_stat_decl *decl, size_t n, const uint64_t *v,
                     int per_kernel) {
    const char *suffix = per_kernel ? WS_STAT_KERNEL_SUFFIX : "";
    for (size_t i = 0; i < n; i++) {
        const ws_stat_decl *d = &decl[i];
        if (d->hidden) continue;
        /* what ws_kstats_add_f64 / _u64 would add, named in place */
        ws_stat *st = add_stat2(s, d->name, suffix);
        if (!st) return -1;
        if (d->agg == WS_AGG_RATIO) {
            st->is_float = 1;
            st->f = ratio_of(v[d->num], v[d->den]);
        } else {
            st->u = v[i];
        }
        /* a JSON-only stat stays out of the text in both scopes */
        st->json_only = d->text && !*d->text;
        if (!per_kernel && d->text) cat2(st->text, sizeof st->text, d->text, "");
    }
    return 0;
}

static void fold_totals(const ws_stat_decl *decl, size_t n, const uint64_t *kernel,
                        uint64_t *total) {
    for (size_t i = 0; i < n; i++) {
        switch (decl[i].agg) {
        case WS_AGG_SUM: total[i] += kernel[i]; break;
        case WS_AGG_MAX: if (kernel[i] > total[i]) total[i] = kernel[i]; break;
        case WS_AGG_LAST: total[i] = kernel[i]; break;
        case WS_AGG_RATIO: /* computed from the totals of num and den */
        case WS_AGG_WMEAN: break; /* not used in program tables */
        }
    }
}

/* Both scopes' records, the kernel's values then the totals. */
static int add_program_scopes(ws_kernel_stats *s, const ws_stat_decl *decl, size_t n,
                              const uint64_t *kernel, const uint64_t *total) {
    /* per-kernel lines first: `grep NAME | tail -1` then still finds the
       program total, and a first match in the first kernel equals it */
    if (reserve_stats(s, s->nextra + 2 * n)) return -1; /* at once: hundreds per kernel */
    if (add_scope(s, decl, n, kernel, 1)) return -1;
    return add_scope(s, decl, n, total, 0);
}

int ws_kstats_add_program(ws_kernel_stats *s, const ws_stat_decl *decl, size_t n,
                          const uint64_t *kernel, uint64_t *total) {
    fold_totals(decl, n, kernel, total);
    return add_program_scopes(s, decl, n, kernel, total);
}

/* A scope's records copied from a named set (add_scope's, in its order), with their
   values. (Record by record: one copy of the whole set is a string instruction that
   a profiler counts per byte.) */
static ws_stat *fill_scope(ws_stat *st, const ws_stat **from, const ws_stat_decl *decl, size_t n,
                           const uint64_t *v) {
    const ws_stat *t = *from;
    for (size_t i = 0; i < n; i++) {
        const ws_stat_decl *d = &decl[i];
        if (d->hidden) continue;
        *st = *t++; /* every field but the value is the same */
        if (d->agg == WS_AGG_RATIO) st->f = ratio_of(v[d->num], v[d->den]);
        else st->u = v[i];
        st++;
    }
    *from = t;
    return st;
}

int ws_kstats_add_program_named(ws_kernel_stats *s, ws_kstats_named *nm, const ws_stat_decl *decl,
                                size_t n, const uint64_t *kernel, uint64_t *total) {
    fold_totals(decl, n, kernel, total);
    if (nm->decl != decl || nm->ndecl != n || !nm->v) { /* named once, as add_scope names */
        ws_kernel_stats t;
        ws_kstats_init(&t);
        if (add_program_scopes(&t, decl, n, kernel, total)) {
            ws_kstats_free(&t);
            return -1;
        }
        ws_kstats_named_free(nm);
        nm->v = t.extra; /* (no line or string: nothing for ws_kstats_free to own) */
        nm->n = t.nextra;
        nm->decl = decl;
        nm->ndecl = n;
    }
    if (reserve_stats(s, s->nextra + nm->n)) return -1;
    const ws_stat *from = nm->v;
    ws_stat *st = fill_scope(&s->extra[s->nextra], &from, decl, n, kernel);
    fill_scope(st, &from, decl, n, total);
    s->nextra += nm->n;
    return 0;
}

void ws_kstats_named_free(ws_kstats_named *nm) {
    free(nm->v);
    *nm = (ws_kstats_named){0};
}

int ws_kstats_add_decls(ws_kernel_stats *s, const ws_stat_decl *decl, size_t n, const void *unit) {
    const char *base = unit;
    for (size_t i = 0; i < n; i++) {
        const ws_stat_decl *d = &decl[i];
        if (d->hidden) continue;
        const void *v = base + d->off;
        int rc = 0;
        switch (d->src) {
        case WS_SRC_NONE:
        case WS_SRC_DIM3: continue; /* the report's own grid and block only */
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

static void report_values(const ws_kernel_stats *s, report_vals *v) {
    *v = (report_vals){
        .kernel_name = s->kernel_name, .mode = s->functional_only ? "functional" : "performance",
        .uid = s->launch_uid, .capped = (uint64_t)s->capped, .grid = s->grid, .block = s->block,
        .cycle = s->sim_cycle, .insn = s->sim_insn, .tot_cycle = s->tot_sim_cycle,
        .tot_insn = s->tot_sim_insn, .issued_cta = s->issued_cta,
        .tot_issued_cta = s->tot_issued_cta, .warp_insn = s->sim_warp_insn,
        .thrd_icount = s->tot_thrd_icount, .w_icount = s->tot_warp_insn,
        .rate = sim_rate(s->tot_sim_insn, s->tot_wall_s),
        .ipc = ratio_of(s->sim_insn, s->sim_cycle), .tot_ipc = ratio_of(s->tot_sim_insn, s->tot_sim_cycle),
        .wall = s->wall_s, .tot_wall = s->tot_wall_s,
    };
}

/* Is report field d printed for this kernel? Cycles (and IPC) exist only when
   the timing model ran: no fake zeros. */
static int shown(const ws_stat_decl *d, const ws_kernel_stats *s, const report_vals *v) {
    if ((d->show & WS_SHOW_TIMING) && s->functional_only) return 0;
    if (d->show & WS_SHOW_IF_DEN) {
        /* the den is a report field: gpu_sim_cycle or gpu_tot_sim_cycle */
        for (size_t i = 0; i < N_REPORT; i++)
            if (!strcmp(report_stats[i].name, d->den_name))
                return *(const uint64_t *)((const char *)v + report_stats[i].off) != 0;
    }
    return 1;
}

static void text_field(FILE *out, const ws_stat_decl *d, const ws_kernel_stats *s,
                       const report_vals *v) {
    const char *name = d->text ? d->text : d->name;
    const void *p = (const char *)v + d->off;
    if ((d->text && !*d->text) || !shown(d, s, v)) return;
    if ((d->show & WS_SHOW_TEXT_IF_SET) && !*(const uint64_t *)p) return;
    switch (d->src) {
    case WS_SRC_NONE: return;
    case WS_SRC_U64: fprintf(out, d->fmt ? d->fmt : "%s = %" PRIu64, name, *(const uint64_t *)p); break;
    case WS_SRC_F64: fprintf(out, d->fmt ? d->fmt : "%s = %.4f", name, *(const double *)p); break;
    case WS_SRC_STR: fprintf(out, d->fmt ? d->fmt : "%s = %s", name, *(const char *const *)p); break;
    case WS_SRC_DIM3: {
        const uint32_t *x = *(const uint32_t *const *)p;
        fprintf(out, "%s = (%u,%u,%u)", name, x[0], x[1], x[2]);
        break;
    }
    }
    fputc('\n', out);
}

void ws_report_text(FILE *out, const ws_kernel_stats *s) {
    report_vals v;
    report_values(s, &v);
    for (size_t i = 0; i < N_REPORT; i++)
        if (!(report_stats[i].show & WS_SHOW_LAST)) text_field(out, &report_stats[i], s, &v);
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
    for (size_t i = 0; i < N_REPORT; i++)
        if (report_stats[i].show & WS_SHOW_LAST) text_field(out, &report_stats[i], s, &v);
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

/* n bytes as they are (NUL-terminated after, as jput leaves the buffer): the
   names and values of a per-kernel report are thousands of short strings, one
   formatted write per character was most of a many-kernel program's run */
static void jraw(jbuf *j, const char *s, size_t n) {
    if (j->oom) return;
    if (!*j->buf || *j->cap - *j->len <= n) {
        size_t cap = *j->cap ? 2 * *j->cap : 1024;
        while (cap <= *j->len + n) cap *= 2;
        char *nb = realloc(*j->buf, cap);
        if (!nb) { j->oom = 1; return; }
        *j->buf = nb;
        *j->cap = cap;
    }
    memcpy(*j->buf + *j->len, s, n);
    *j->len += n;
    (*j->buf)[*j->len] = 0;
}

/* The bytes a JSON string escapes, and its end: one table lookup a byte
   (the keys of a many-kernel program's report are millions of bytes). */
static const bool json_stop[256] = {
    [0] = 1, [1] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1, [9] = 1,
    [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1, [15] = 1, [16] = 1, [17] = 1, [18] = 1,
    [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1, [24] = 1, [25] = 1, [26] = 1, [27] = 1,
    [28] = 1, [29] = 1, [30] = 1, [31] = 1, ['"'] = 1, ['\\'] = 1};

static void jstr(jbuf *j, const char *s) {
    jraw(j, "\"", 1);
    const unsigned char *p = (const unsigned char *)s, *run = p;
    for (;; p++) {
        while (!json_stop[*p]) p++;
        if (!*p) break;
        jraw(j, (const char *)run, (size_t)(p - run));
        if (*p == '"' || *p == '\\') jput(j, "\\%c", *p);
        else jput(j, "\\u%04x", *p);
        run = p + 1;
    }
    jraw(j, (const char *)run, (size_t)(p - run));
    jraw(j, "\"", 1);
}

/* ": " and v in decimal, as "%" PRIu64 writes it: most of a per-kernel
   report's values, and one vsnprintf each was a many-kernel program's
   largest cost after the simulation (test stats_json_u64_digits) */
static void jkey_u64(jbuf *j, const char *k, uint64_t v) {
    char t[24];
    size_t n = sizeof t;
    do t[--n] = (char)('0' + v % 10); while ((v /= 10));
    t[--n] = ' ';
    t[--n] = ':';
    size_t nv = sizeof t - n;
    /* a key with nothing to escape (all of the catalog's) and room for it:
       one copy, not five appends (test stats_json_u64_digits) */
    const unsigned char *p = (const unsigned char *)k;
    while (!json_stop[*p]) p++;
    size_t nk = (size_t)(p - (const unsigned char *)k), need = 4 + nk + nv;
    if (*p || j->oom || !*j->buf || *j->cap - *j->len <= need) {
        jraw(j, ", ", 2);
        jstr(j, k);
        jraw(j, t + n, nv);
        return;
    }
    char *o = *j->buf + *j->len;
    memcpy(o, ", \"", 3);
    memcpy(o + 3, k, nk);
    o[3 + nk] = '"';
    memcpy(o + 4 + nk, t + n, nv);
    o[need] = 0;
    *j->len += need;
}

static void jkey_str(jbuf *j, const char *k, const char *v) {
    jraw(j, ", ", 2);
    jstr(j, k);
    jraw(j, ": ", 2);
    jstr(j, v);
}

static void jkey_f64(jbuf *j, const char *k, double v) {
    jraw(j, ", ", 2);
    jstr(j, k);
    if (isfinite(v)) jput(j, ": %.17g", v);
    else jput(j, ": null");  /* JSON has no NaN/Inf */
}

static void json_field(jbuf *j, const ws_stat_decl *d, const ws_kernel_stats *s,
                       const report_vals *v) {
    const void *p = (const char *)v + d->off;
    if (!shown(d, s, v)) return;
    switch (d->src) {
    case WS_SRC_NONE: return;
    case WS_SRC_U64: jkey_u64(j, d->name, *(const uint64_t *)p); return;
    case WS_SRC_F64: jkey_f64(j, d->name, *(const double *)p); return;
    case WS_SRC_STR: jkey_str(j, d->name, *(const char *const *)p); return;
    case WS_SRC_DIM3: {
        const uint32_t *x = *(const uint32_t *const *)p;
        jput(j, ", ");
        jstr(j, d->name);
        jput(j, ": [%u, %u, %u]", x[0], x[1], x[2]);
        return;
    }
    }
}

int ws_report_json(const ws_kernel_stats *s, char **buf, size_t *len, size_t *cap) {
    jbuf j = {buf, len, cap, 0};
    report_vals v;
    report_values(s, &v);
    /* the first field opens the object (kernel_name: no leading comma) */
    jput(&j, "%s{", *len ? "," : "");
    size_t mark = *len;
    for (size_t i = 0; i < N_REPORT; i++)
        if (!(report_stats[i].show & WS_SHOW_LAST)) json_field(&j, &report_stats[i], s, &v);
    for (size_t i = 0; i < s->nextra; i++) {
        if (s->extra[i].line) continue; /* text only */
        if (s->extra[i].str) jkey_str(&j, s->extra[i].name, s->extra[i].str);
        else if (s->extra[i].is_float) jkey_f64(&j, s->extra[i].name, s->extra[i].f);
        else jkey_u64(&j, s->extra[i].name, s->extra[i].u);
    }
    for (size_t i = 0; i < N_REPORT; i++)
        if (report_stats[i].show & WS_SHOW_LAST) json_field(&j, &report_stats[i], s, &v);
    jput(&j, "}");
    if (j.oom) return -1;
    /* drop the ", " before the first key */
    memmove(*buf + mark, *buf + mark + 2, *len - mark - 1);
    *len -= 2;
    return 0;
}

/* The pieces of text, in order, as one file (ws_write_file_atomic). */
static int write_parts_atomic(const char *dir, const char *name, const char *const *parts,
                              size_t nparts, char *err, size_t errlen) {
    size_t n = strlen(dir) + strlen(name) + 8;
    char *path = malloc(n), *tmp = malloc(n);
    int bad = 0;
    if (!path || !tmp) {
        snprintf(err, errlen, "out of memory");
        bad = 1;
    } else {
        snprintf(path, n, "%s/%s", dir, name);
        snprintf(tmp, n, "%s/%s.tmp", dir, name);
        /* a full disk shows at fwrite, fflush or fclose: check them all, and
           only then replace the old file, so a reader never sees half of one */
        FILE *f = fopen(tmp, "w");
        for (size_t i = 0; f && i < nparts && !bad; i++) {
            size_t len = strlen(parts[i]);
            bad = fwrite(parts[i], 1, len, f) != len;
        }
        if (!f || bad || fflush(f) != 0 || ferror(f)) bad = 1;
        int e = errno;
        if (f && fclose(f) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
        if (!bad && rename(tmp, path) != 0) {
            bad = 1;
            e = errno;
        }
        if (bad) {
            snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
            unlink(tmp);
        }
    }
    free(path);
    free(tmp);
    return bad ? -1 : 0;
}

int ws_write_file_atomic(const char *dir, const char *name, const char *text, char *err,
                         size_t errlen) {
    const char *parts[1] = {text};
    return write_parts_atomic(dir, name, parts, 1, err, errlen);
}

/* Append objs[*written..] to a stats.json that holds "[" objs[0..*written) "]\n";
   0 on success, 1 when the file is not as expected (the caller rewrites it), -1
   on a write error (the file truncated back to its old contents when possible). */
static int append_json(const char *path, const char *objs, size_t *written, size_t total,
                       char *err, size_t errlen) {
    FILE *f = fopen(path, "r+");
    if (!f) return 1;
    long end = 1 + (long)*written; /* where the closing "]\n" starts */
    struct stat sb;
    char tail[2];
    if (fstat(fileno(f), &sb) != 0 || sb.st_size != end + 2 || fseek(f, end, SEEK_SET) != 0 ||
        fread(tail, 1, 2, f) != 2 || tail[0] != ']' || tail[1] != '\n' ||
        fseek(f, end, SEEK_SET) != 0) {
        fclose(f);
        return 1;
    }
    size_t n = total - *written;
    bool bad = fwrite(objs + *written, 1, n, f) != n || fwrite("]\n", 1, 2, f) != 2 ||
               fflush(f) != 0 || ferror(f);
    int e = errno;
    if (bad) { /* a full disk: back to the old contents, which were complete */
        clearerr(f);
        if (ftruncate(fileno(f), end) != 0 || fseek(f, end, SEEK_SET) != 0 ||
            fwrite("]\n", 1, 2, f) != 2 || fflush(f) != 0)
            *written = 0; /* not known now: the next call replaces the file */
    }
    if (fclose(f) != 0 && !bad) {
        bad = true;
        e = errno;
    }
    if (bad) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
        return -1;
    }
    *written = total;
    return 0;
}

int ws_report_write_json_file(const char *dir, const char *objs, size_t *written, char *err,
                              size_t errlen) {
    if (!objs) objs = "";
    size_t total = strlen(objs);
    if (*written && *written <= total) {
        size_t n = strlen(dir) + sizeof "/stats.json";
        char *path = malloc(n);
        if (!path) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        snprintf(path, n, "%s/stats.json", dir);
        int r = append_json(path, objs, written, total, err, errlen);
        free(path);
        if (r <= 0) return r;
    }
    /* written in pieces, no copy of the objects */
    const char *parts[3] = {"[", objs, "]\n"};
    if (write_parts_atomic(dir, "stats.json", parts, 3, err, errlen)) return -1;
    *written = total;
    return 0;
}
