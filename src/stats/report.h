/* Per-kernel statistics and the end-of-kernel report.
 *
 * ws_kernel_stats holds what one launch measured. The functional engine
 * knows instruction and CTA counts; the timing model will add cycles, cache
 * and DRAM numbers through the name/value list (ws_kstats_add_*), which both
 * writers print after the fixed fields, so adding a stat never touches the
 * writers. Text output uses GPGPU-Sim's stat names so existing scripts parse
 * it; JSON carries the same numbers. */
#ifndef WARPSIM_STATS_REPORT_H
#define WARPSIM_STATS_REPORT_H

#include <stdint.h>
#include <stdio.h>

typedef struct ws_stat {
    char name[64];
    int is_float;
    uint64_t u;
    double f;
} ws_stat;

typedef struct ws_kernel_stats {
    char kernel_name[256];
    uint64_t launch_uid;         /* 1-based, in launch order on the device */
    uint32_t grid[3], block[3];
    int functional_only;         /* 1: no cycles were simulated */
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
} ws_kernel_stats;

void ws_kstats_init(ws_kernel_stats *s);
void ws_kstats_free(ws_kernel_stats *s);
/* Append a named value; returns 0, or -1 when out of memory. */
int ws_kstats_add_u64(ws_kernel_stats *s, const char *name, uint64_t v);
int ws_kstats_add_f64(ws_kernel_stats *s, const char *name, double v);

/* GPGPU-Sim style text block ("kernel_name = ...", "gpu_sim_insn = ..."). */
void ws_report_text(FILE *out, const ws_kernel_stats *s);

/* One JSON object for the kernel, appended to *buf (a growing, NUL-terminated
 * string; *len and *cap track it), preceded by a comma when *len > 0 so that
 * the buffer stays a comma-separated list. Returns 0, or -1 when out of
 * memory. */
int ws_report_json(const ws_kernel_stats *s, char **buf, size_t *len, size_t *cap);

/* Write "[obj,obj,...]" (objs: comma-separated objects as built by
 * ws_report_json) to DIR/stats.json, replacing it. Returns 0, or -1 with a
 * message in err. */
int ws_report_write_json_file(const char *dir, const char *objs, char *err, size_t errlen);

#endif
