/* Per-kernel statistics and the end-of-kernel report.
 *
 * ws_kernel_stats holds what one launch measured. The functional engine
 * knows instruction and CTA counts; the timing model will add cycles, cache
 * and DRAM numbers through the name/value list (ws_kstats_add_*), which both
 * writers print after the fixed fields, so adding a stat never touches the
 * writers. Text output uses GPGPU-Sim's stat names so existing scripts parse
 * it; JSON carries the same numbers.
 *
 * Scope: GPGPU-Sim reports its cache, DRAM, interconnect and stall counters
 * cumulatively over the program (all kernels so far), so warpsim prints
 * those names with that meaning, and each one for this kernel alone as
 * NAME_kernel (a suffix, so that a script's regex "NAME\s*=" never picks up
 * the per-kernel line). Such program-scope stats are declared once in a
 * ws_stat_decl table (the timing model's is in timing/gpu.c) and added with
 * ws_kstats_add_program. Every stat is declared in the catalog
 * (stats/catalog.h); units whose values sit in a struct add them with
 * ws_kstats_add_table. */
#ifndef WARPSIM_STATS_REPORT_H
#define WARPSIM_STATS_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "stats/catalog.h"

typedef struct ws_stat {
    char name[96];               /* JSON key (an identifier); unused for a text line */
    char text[96];               /* the text report's spelling when it differs from name
                                    (GPGPU-Sim's, e.g. "total dram reads"); "": name (a copy:
                                    a declaration table may not outlive the report) */
    int json_only;               /* not in the text (which shows it in a line of its own) */
    char *line;                  /* owned: a whole text-report line (GPGPU-Sim's multi-value
                                    formats, "L1D_cache_core[0]: Access = ..."), not in JSON */
    char *str;                   /* owned: a string value ("name = str"; JSON string) */
    int is_float;
    uint64_t u;
    double f;
} ws_stat;

typedef struct ws_kernel_stats {
    char kernel_name[256];
    uint64_t launch_uid;         /* 1-based, in launch order on the device */
    uint32_t grid[3], block[3];
    int functional_only;         /* 1: no cycles were simulated */
    int capped;                  /* 1: the instruction cap stopped this kernel before its end */
    /* this kernel */
    uint64_t sim_insn;           /* thread instructions whose guard predicate held: GPGPU-Sim's
                                    gpu_sim_insn (an instruction predicated off for a lane does
                                    not count for it) */
    uint64_t sim_warp_insn;      /* warp instructions */
    uint64_t sim_cycle;          /* core cycles (timing mode only) */
    uint64_t issued_cta;
    double wall_s;               /* host wall time of the launch */
    /* all kernels so far, this one included */
    uint64_t tot_sim_insn, tot_warp_insn, tot_sim_cycle, tot_issued_cta;
    uint64_t tot_thrd_icount;    /* lanes active at issue, guard ignored (gpgpu_n_tot_thrd_icount) */
    double tot_wall_s;
    /* further stats (timing model): printed in order after the fixed ones */
    ws_stat *extra;
    size_t nextra, cap_extra;
    int no_text_lines;           /* 1: nothing prints the text report (a quiet run), so
                                    ws_kstats_add_line adds nothing: its lines are in no
                                    other output, and formatting them was a many-kernel
                                    program's largest statistics cost */
} ws_kernel_stats;

void ws_kstats_init(ws_kernel_stats *s);
void ws_kstats_free(ws_kernel_stats *s);
/* Append a named value; returns 0, or -1 when out of memory. */
int ws_kstats_add_u64(ws_kernel_stats *s, const char *name, uint64_t v);
int ws_kstats_add_f64(ws_kernel_stats *s, const char *name, double v);
/* A string value (text "name = v", JSON "name": "v"). */
int ws_kstats_add_str(ws_kernel_stats *s, const char *name, const char *v);
/* A line printed as is in the text report (no newline in fmt), absent from
 * JSON: for GPGPU-Sim formats with several values per line, whose numbers
 * the JSON carries as separate keys. */
int ws_kstats_add_line(ws_kernel_stats *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/* Fold one kernel's values (kernel[i] for decl[i]; ratio entries unused)
 * into the running totals total[] (owned by the caller, zeroed before the
 * first kernel), then append every reported stat twice: first all per-kernel
 * values as NAME_kernel, then all running totals under NAME. Returns 0, or -1
 * when out of memory. */
int ws_kstats_add_program(ws_kernel_stats *s, const ws_stat_decl *decl, size_t n,
                          const uint64_t *kernel, uint64_t *total);
/* The records ws_kstats_add_program appends for one table, named once: a caller
 * that adds the same table for every kernel keeps one (zeroed at first, freed
 * with ws_kstats_named_free) and passes it to ws_kstats_add_program_named, which
 * copies the names, spellings and flags from it and fills in the values (naming
 * each value cost a program of many kernels more than the rest of its report). */
typedef struct ws_kstats_named {
    ws_stat *v;                  /* both scopes' records, as ws_kstats_add_program makes them */
    size_t n;
    const ws_stat_decl *decl;    /* the table they were made for (rebuilt for another) */
    size_t ndecl;
} ws_kstats_named;
/* ws_kstats_add_program, with the same result, named from nm. */
int ws_kstats_add_program_named(ws_kernel_stats *s, ws_kstats_named *nm, const ws_stat_decl *decl,
                                size_t n, const uint64_t *kernel, uint64_t *total);
void ws_kstats_named_free(ws_kstats_named *nm);

/* Append every entry of t (kernel scope), reading WS_SRC_U64 / WS_SRC_F64 /
 * WS_SRC_STR values at their offsets in unit (the unit's stats struct);
 * WS_SRC_NONE entries are skipped (the unit adds them itself). Returns 0,
 * or -1 when out of memory. */
int ws_kstats_add_table(ws_kernel_stats *s, const ws_stat_table *t, const void *unit);
/* The same for n declarations of a table (a unit whose stats the report
 * interleaves with another's). */
int ws_kstats_add_decls(ws_kernel_stats *s, const ws_stat_decl *decl, size_t n, const void *unit);

/* The report's own fields (kernel name, gpu_sim_*, gpu_tot_*, wall time). */
extern const ws_stat_table ws_report_stat_table;

/* GPGPU-Sim style text block ("kernel_name = ...", "gpu_sim_insn = ..."). */
void ws_report_text(FILE *out, const ws_kernel_stats *s);

/* One JSON object for the kernel, appended to *buf (a growing, NUL-terminated
 * string; *len and *cap track it), preceded by a comma when *len > 0 so that
 * the buffer stays a comma-separated list. Returns 0, or -1 when out of
 * memory. */
int ws_report_json(const ws_kernel_stats *s, char **buf, size_t *len, size_t *cap);

/* Write "[obj,obj,...]" (objs: comma-separated objects as built by
 * ws_report_json) to DIR/stats.json. *written is how much of objs the file
 * already holds (0: none, or not known): when the file is as this call left
 * it, only the rest is appended in place of its closing "]" (rewriting the
 * whole file after every kernel cost O(kernels^2) bytes); otherwise it is
 * replaced through a temporary file. A failed append truncates the file back
 * to what it held. Sets *written on success. Returns 0, or -1 with a message
 * in err. */
int ws_report_write_json_file(const char *dir, const char *objs, size_t *written, char *err,
                              size_t errlen);

/* Write text to DIR/NAME through DIR/NAME.tmp and a rename, so that a full
 * disk or a crash leaves the old file or none, never a truncated one; every
 * step is checked. 0, or -1 with "cannot write PATH: reason" in err. */
int ws_write_file_atomic(const char *dir, const char *name, const char *text, char *err,
                         size_t errlen);

#endif
