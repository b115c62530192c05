/* The statistics catalog: every statistic warpsim reports, declared once.
 *
 * Each unit that counts something declares its statistics in one const
 * ws_stat_decl table next to the code that counts them (the SM's in
 * timing/sm/sm.c, the GPU's memory-system family in timing/gpu.c, energy in
 * stats/energy.c, the throttle controller's in timing/control.c, the
 * report's fixed fields in stats/report.c) and exports it as a
 * ws_stat_table. The catalog (catalog.c) is a const list of those tables:
 * `warpsim stats [--json]`, docs/stats.md, the tests and the sweep tools'
 * aggregation (tools/warpsim_tools/catalog.py) all read it.
 *
 * Raw counters are declared too (ws_counter_decl): the per-kernel
 * difference of a unit's running totals iterates its counters' offsets
 * instead of treating the stats struct as an array. */
#ifndef WARPSIM_STATS_CATALOG_H
#define WARPSIM_STATS_CATALOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How a stat follows its per-kernel values over the kernels of a program. */
typedef enum ws_stat_agg {
    WS_AGG_SUM,    /* a count: the sum over kernels */
    WS_AGG_MAX,    /* a peak: the largest per-kernel value */
    WS_AGG_LAST,   /* a state: the latest kernel's value */
    WS_AGG_RATIO,  /* value[num] / value[den] of the same scope (0 when den is 0): a ratio of
                      sums for the total, never a mean of per-kernel ratios */
    WS_AGG_WMEAN,  /* a rate without its counts: the mean weighted by stat den_name */
} ws_stat_agg;

/* Where a stat's values live. */
typedef enum ws_stat_scope {
    WS_SCOPE_KERNEL,   /* this kernel alone, under its name */
    WS_SCOPE_PROGRAM,  /* GPGPU-Sim's cumulative counters: NAME is the running total over the
                          kernels so far, NAME_kernel this kernel's part */
    WS_SCOPE_CUMULATIVE, /* the running total alone (GPGPU-Sim's gpu_tot_*): agg WS_AGG_LAST */
} ws_stat_scope;

/* How a sweep combines one stat's whole-run values over runs (the runs of a
 * group in a table or figure). WS_RUN_DEFAULT follows the kernel
 * aggregation: counts sum, peaks take the largest, rates take the mean,
 * states do not combine. */
typedef enum ws_stat_run {
    WS_RUN_DEFAULT, WS_RUN_SUM, WS_RUN_MEAN, WS_RUN_GEOMEAN, WS_RUN_MAX, WS_RUN_NONE,
} ws_stat_run;

/* The value's type, and where a table-driven unit finds it (off). */
typedef enum ws_stat_src {
    WS_SRC_NONE,  /* the unit computes it (off unused) */
    WS_SRC_U64,   /* a uint64_t at off in the unit's stats struct */
    WS_SRC_F64,   /* a double at off */
    WS_SRC_STR,   /* a const char * at off (a string value) */
    WS_SRC_DIM3,  /* a const uint32_t * at off to three values: text "(x,y,z)", JSON a list */
} ws_stat_src;

/* When a stat is printed (the report's own fields; 0: always). */
enum {
    WS_SHOW_TIMING = 1,      /* only when the timing model ran (cycles exist) */
    WS_SHOW_IF_DEN = 2,      /* only when the stat den_name is not 0 (an IPC needs cycles) */
    WS_SHOW_TEXT_IF_SET = 4, /* in the text only when not 0 (warpsim_capped) */
    WS_SHOW_LAST = 8,        /* after the units' stats */
};

typedef struct ws_stat_decl {
    const char *name;            /* JSON key; per kernel for WS_SCOPE_PROGRAM: name + "_kernel";
                                    a '*' stands for a family (per-core, per access kind) */
    const char *text;            /* GPGPU-Sim's text spelling when not name, else NULL; "": JSON
                                    only, in both scopes (the text prints it in a line of its
                                    own, e.g. per-core arrays and distributions) */
    ws_stat_agg agg;
    int num, den;                /* WS_AGG_RATIO in a program table: indices into the same table */
    int hidden;                  /* kept for ratios only, not reported (nor catalogued) */
    const char *desc, *unit;
    ws_stat_scope scope;
    const char *num_name, *den_name; /* ratio / weighted mean across tables (by name) */
    double scale;                /* ratio: num / den * scale (0: 1) */
    const char *twin;            /* GPGPU-Sim's own cumulative spelling of a per-kernel stat
                                    (gpu_sim_insn -> gpu_tot_sim_insn): the whole-run value */
    const char *when;            /* NULL: in every timing run; else when it is reported */
    ws_stat_run run;
    ws_stat_src src;
    size_t off;
    const char *fmt;             /* text line: printf format of the name and the value (NULL:
                                    "%s = %" PRIu64, "%s = %.4f", "%s = %s") */
    unsigned show;               /* WS_SHOW_* */
} ws_stat_decl;

typedef struct ws_stat_table {
    const char *unit;            /* who counts these (docs section) */
    const ws_stat_decl *decl;
    size_t n;
} ws_stat_table;

#define WS_STAT_KERNEL_SUFFIX "_kernel"

/* The catalog: the units' tables, in report order. */
const ws_stat_table *const *ws_catalog_tables(size_t *n);
/* The declaration reporting key (a JSON key, a text spelling, NAME_kernel, or
 * a member of a '*' family), or NULL. *per_kernel: key was the per-kernel
 * spelling of a program-scope stat. */
const ws_stat_decl *ws_catalog_find(const char *key, int *per_kernel);
/* The names behind a ratio or weighted mean (by index in a program table, or
 * by name), or NULL. */
const char *ws_catalog_num(const ws_stat_table *t, const ws_stat_decl *d);
const char *ws_catalog_den(const ws_stat_table *t, const ws_stat_decl *d);
const char *ws_stat_agg_name(ws_stat_agg a);
const char *ws_stat_run_name(const ws_stat_decl *d);
/* `warpsim stats`: a table; --json: an array of objects; docs/stats.md. */
void ws_catalog_print(FILE *f);
void ws_catalog_print_json(FILE *f);
void ws_catalog_print_markdown(FILE *f);

/* A unit's raw counters: n uint64_t at off in its stats struct. */
typedef struct ws_counter_decl {
    const char *name;
    size_t off, n;
} ws_counter_decl;

#define WS_COUNTER(type, field) {#field, offsetof(type, field), sizeof(((type *)0)->field) / sizeof(uint64_t)}

/* out = now - before and acc += out, per declared counter, in one pass (a kernel's
   statistics do both for every unit; out may be before). */
void ws_counters_diff_add(const ws_counter_decl *c, size_t n, void *out, const void *now,
                          const void *before, void *acc);
/* How many bytes the declarations cover (a test compares it with sizeof). */
size_t ws_counters_bytes(const ws_counter_decl *c, size_t n);

#endif
