/* The statistics catalog (see catalog.h). */
#include "stats/catalog.h"

#include <string.h>

#include "stats/energy.h"
#include "stats/report.h"
#include "runtime/longrun.h"
#include "timing/control.h"
#include "timing/cpucore.h"
#include "timing/gpu.h"
#include "timing/hmem.h"
#include "timing/sm/sm.h"

/* In report order. */
static const ws_stat_table *const g_tables[] = {
    &ws_report_stat_table,     &ws_gpu_stat_table,       &ws_gpu_family_table,
    &ws_gpu_kernel_table,      &ws_sm_stat_table,        &ws_sm_hazard_table,
    &ws_energy_stat_table,     &ws_energy_activity_table, &ws_control_stat_table,
    &ws_hmem_stat_table,       &ws_cpucore_stat_table,   &ws_longrun_stat_table,
};

const ws_stat_table *const *ws_catalog_tables(size_t *n) {
    *n = sizeof g_tables / sizeof g_tables[0];
    return g_tables;
}

/* Only '*' is special: GPGPU-Sim's spellings have brackets. */
static int glob(const char *p, const char *s) {
    if (!*p) return !*s;
    if (*p == '*') return glob(p + 1, s) || (*s && glob(p, s + 1));
    return *p == *s && glob(p + 1, s + 1);
}

static int match(const ws_stat_decl *d, const char *key) {
    return glob(d->name, key) || (d->text && *d->text && glob(d->text, key));
}

const ws_stat_decl *ws_catalog_find(const char *key, int *per_kernel) {
    size_t klen = strlen(key), slen = strlen(WS_STAT_KERNEL_SUFFIX);
    int is_k = klen > slen && !strcmp(key + klen - slen, WS_STAT_KERNEL_SUFFIX);
    char base[160];
    snprintf(base, sizeof base, "%.*s", (int)(is_k ? klen - slen : klen), key);
    for (size_t t = 0; t < sizeof g_tables / sizeof g_tables[0]; t++)
        for (size_t i = 0; i < g_tables[t]->n; i++) {
            const ws_stat_decl *d = &g_tables[t]->decl[i];
            if (d->hidden) continue;
            /* the per-kernel spelling exists for program-scope stats only */
            if (is_k && d->scope == WS_SCOPE_PROGRAM &&
                (!strcmp(d->name, base) || (strchr(d->name, '*') && glob(d->name, base)))) {
                if (per_kernel) *per_kernel = 1;
                return d;
            }
            if (match(d, key)) {
                if (per_kernel) *per_kernel = 0;
                return d;
            }
        }
    return NULL;
}

/* Only a ratio or weighted mean has parts (gpu_tot_ipc names its den for the report). */
const char *ws_catalog_num(const ws_stat_table *t, const ws_stat_decl *d) {
    if (d->agg != WS_AGG_RATIO) return NULL;
    if (d->num_name) return d->num_name;
    return t ? t->decl[d->num].name : NULL; /* by index in a program table */
}

const char *ws_catalog_den(const ws_stat_table *t, const ws_stat_decl *d) {
    if (d->agg != WS_AGG_RATIO && d->agg != WS_AGG_WMEAN) return NULL;
    if (d->den_name) return d->den_name;
    return d->agg == WS_AGG_RATIO && t ? t->decl[d->den].name : NULL;
}

const char *ws_stat_agg_name(ws_stat_agg a) {
    static const char *const n[] = {"sum", "max", "last", "ratio", "weighted_mean"};
    return (unsigned)a < sizeof n / sizeof n[0] ? n[a] : "?";
}

const char *ws_stat_run_name(const ws_stat_decl *d) {
    static const char *const n[] = {"default", "sum", "mean", "geomean", "max", "none"};
    if (d->run != WS_RUN_DEFAULT) return n[d->run];
    switch (d->agg) {
    case WS_AGG_SUM: return "sum";
    case WS_AGG_MAX: return "max";
    case WS_AGG_LAST: return d->scope == WS_SCOPE_CUMULATIVE ? "sum" : "none";
    default: return "mean";
    }
}

static const char *scope_name(ws_stat_scope s) {
    return s == WS_SCOPE_PROGRAM ? "program" : s == WS_SCOPE_CUMULATIVE ? "cumulative" : "kernel";
}

/* The text spelling: "" when JSON only. */
static const char *text_of(const ws_stat_decl *d) { return d->text ? d->text : d->name; }

/* Every catalogued (reported) declaration d, of table t, in order. */
#define EACH_DECL(t, d)                                                                       \
    for (size_t ti_ = 0; ti_ < sizeof g_tables / sizeof g_tables[0]; ti_++)                   \
        for (const ws_stat_table *t = g_tables[ti_]; t; t = NULL)                             \
            for (const ws_stat_decl *d = t->decl; d < t->decl + t->n; d++)                    \
                if (!d->hidden)

void ws_catalog_print(FILE *f) {
    fprintf(f, "%-46s %-10s %-13s %-18s %s\n", "NAME", "SCOPE", "KERNELS", "UNIT", "DESCRIPTION");
    EACH_DECL(t, d) {
        fprintf(f, "%-46s %-10s %-13s %-18s %s", d->name, scope_name(d->scope),
                ws_stat_agg_name(d->agg), d->unit, d->desc);
        const char *num = ws_catalog_num(t, d), *den = ws_catalog_den(t, d);
        if (num && den) fprintf(f, " [%s / %s]", num, den);
        else if (den) fprintf(f, " [weighted by %s]", den);
        fputc('\n', f);
    }
}

static void jstr(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static void jfield(FILE *f, const char *k, const char *v) {
    fprintf(f, ", ");
    jstr(f, k);
    fprintf(f, ": ");
    if (v) jstr(f, v);
    else fputs("null", f);
}

void ws_catalog_print_json(FILE *f) {
    int first = 1;
    fputs("[", f);
    EACH_DECL(t, d) {
        char kname[160];
        snprintf(kname, sizeof kname, "%s%s", d->name, WS_STAT_KERNEL_SUFFIX);
        fprintf(f, "%s\n  {\"name\": ", first ? "" : ",");
        first = 0;
        jstr(f, d->name);
        jfield(f, "text", text_of(d));
        jfield(f, "json", d->name);
        jfield(f, "kernel_json", d->scope == WS_SCOPE_PROGRAM ? kname : NULL);
        jfield(f, "declared_by", t->unit);
        jfield(f, "description", d->desc);
        jfield(f, "unit", d->unit);
        jfield(f, "scope", scope_name(d->scope));
        jfield(f, "kernel_agg", ws_stat_agg_name(d->agg));
        jfield(f, "run_agg", ws_stat_run_name(d));
        jfield(f, "numerator", ws_catalog_num(t, d));
        jfield(f, "denominator", ws_catalog_den(t, d));
        fprintf(f, ", \"scale\": %.17g", d->scale ? d->scale : 1.0);
        jfield(f, "cumulative", d->twin);
        jfield(f, "when", d->when);
        fprintf(f, ", \"family\": %s, \"always\": %s}", strchr(d->name, '*') ? "true" : "false",
                d->when ? "false" : "true");
    }
    fputs("\n]\n", f);
}

void ws_catalog_print_markdown(FILE *f) {
    fputs("# Statistics\n\n"
          "<!-- generated from the statistics catalog (src/stats/catalog.h) by "
          "`WARPSIM_UPDATE_DOCS=1 make test T=stats_docs`; do not edit -->\n\n"
          "Every statistic in warpsim's per-kernel report (text) and stats.json (JSON), as "
          "`warpsim stats` lists it (`--json`: machine-readable). Columns:\n\n"
          "- **name (JSON)**: the key in stats.json; **text**: the spelling in the text report "
          "(GPGPU-Sim's where it has one; *JSON only*: the text shows it in a line of its own "
          "or not at all).\n"
          "- **scope**: *kernel*: this kernel alone; *program*: GPGPU-Sim's cumulative counter "
          "(the value over all kernels so far under the name, this kernel's part as "
          "NAME`_kernel`); *cumulative*: a running total alone (GPGPU-Sim's `gpu_tot_*`).\n"
          "- **over kernels**: how per-kernel values make the whole program's value: *sum*, "
          "*max*, *last*, a *ratio* of two summed stats (never a mean of per-kernel ratios) or "
          "a *mean weighted by* a stat. Where GPGPU-Sim has its own cumulative spelling, the "
          "whole run's value is that stat's last value. `warpsim sweep`'s database "
          "(tools/warpsim_tools/store.py) aggregates by these rules.\n"
          "- **over runs**: how a sweep combines one stat's whole-run values over runs "
          "(*sum*, *mean*, *geomean*, *max*; *none*: a state that does not combine).\n"
          "- A `*` in a name stands for a family (per SM, per access kind and outcome).\n\n",
          f);
    const char *unit = NULL;
    EACH_DECL(t, d) {
        if (unit != t->unit) {
            unit = t->unit;
            fprintf(f, "### %s\n\n", unit);
            fprintf(f, "| name (JSON) | text | unit | scope | over kernels | over runs | "
                       "description |\n|---|---|---|---|---|---|---|\n");
        }
        const char *num = ws_catalog_num(t, d), *den = ws_catalog_den(t, d);
        char agg[200];
        if (num && den && d->scale && d->scale != 1)
            snprintf(agg, sizeof agg, "ratio `%s` / `%s` x %g", num, den, d->scale);
        else if (num && den) snprintf(agg, sizeof agg, "ratio `%s` / `%s`", num, den);
        else if (den) snprintf(agg, sizeof agg, "mean weighted by `%s`", den);
        else snprintf(agg, sizeof agg, "%s", ws_stat_agg_name(d->agg));
        const char *tx = text_of(d);
        int same = !strcmp(tx, d->name), quote = *tx && !same;
        fprintf(f, "| `%s` | %s%s%s | %s | %s | %s | %s | %s", d->name, quote ? "`" : "",
                same ? "same" : *tx ? tx : "JSON only", quote ? "`" : "", d->unit,
                scope_name(d->scope), agg, ws_stat_run_name(d), d->desc);
        if (d->twin) fprintf(f, "; whole run: `%s`", d->twin);
        if (d->when) fprintf(f, " (reported: %s)", d->when);
        fputs(" |\n", f);
        if (d + 1 == t->decl + t->n) fputc('\n', f);
    }
}

void ws_counters_diff_add(const ws_counter_decl *c, size_t n, void *out, const void *now,
                          const void *before, void *acc) {
    for (size_t i = 0; i < n; i++) {
        /* (the counters are uint64_t fields: read and written as such, through pointers
           to the declaration's first; out may be before, element for element) */
        const size_t o = c[i].off;
        const uint64_t *pn = (const uint64_t *)(const void *)((const char *)now + o);
        const uint64_t *pb = (const uint64_t *)(const void *)((const char *)before + o);
        uint64_t *po = (uint64_t *)(void *)((char *)out + o);
        uint64_t *pa = (uint64_t *)(void *)((char *)acc + o);
        for (size_t k = 0, m = c[i].n; k < m; k++) {
            uint64_t a = pn[k] - pb[k];
            po[k] = a;
            pa[k] += a;
        }
    }
}

size_t ws_counters_bytes(const ws_counter_decl *c, size_t n) {
    size_t b = 0;
    for (size_t i = 0; i < n; i++) b += c[i].n * sizeof(uint64_t);
    return b;
}
