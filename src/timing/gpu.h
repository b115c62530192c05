/* The GPU of the timing model: SMs, interconnect, memory partitions, the
 * four clock domains (core, interconnect, L2, DRAM) and the CTA dispatcher.
 * One call runs one kernel launch to completion, cycle by cycle. */
#ifndef WARPSIM_TIMING_GPU_H
#define WARPSIM_TIMING_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "exec/exec.h"
#include "stats/report.h"
#include "timing/sm/sm.h"

typedef struct ws_gpu ws_gpu;

/* Build the GPU described by cfg (copied). NULL and err naming the bad
 * option when the configuration cannot be modelled. */
ws_gpu *ws_gpu_create(const ws_config *cfg, char *err, size_t errlen);
void ws_gpu_destroy(ws_gpu *g);
/* The program-scope statistics' running totals (GPGPU-Sim's cumulative
 * counters) start at zero in a new GPU: a GPU built to replace another
 * midway through a program takes over the other's with this. */
void ws_gpu_inherit_totals(ws_gpu *to, const ws_gpu *from);
/* The catalog's tables of the GPU: the program-scope stats (reported
 * cumulatively and as NAME_kernel), their configuration-sized families, and
 * the per-kernel ones it computes. */
extern const ws_stat_table ws_gpu_stat_table, ws_gpu_family_table, ws_gpu_kernel_table;
uint32_t ws_gpu_num_sms(const ws_gpu *g);
double ws_gpu_core_mhz(const ws_gpu *g);

/* Interval time series: every -warpsim_stat_interval core cycles one CSV
 * line per kernel interval is written to f (header once): kernel launch id,
 * cycle, IPC, L1D and L2 miss rates, active warps (mean over SMs), DRAM
 * bandwidth use. f = NULL turns it off. */
void ws_gpu_set_timeseries(ws_gpu *g, FILE *f);
/* Progress of long kernels on stderr: on a terminal one line redrawn every
 * 0.5 s, otherwise (a batch log) a line every every_s seconds; 0: none. */
void ws_gpu_set_progress(ws_gpu *g, double every_s);

/* A host-to-device copy of n bytes at addr: with -gpgpu_perf_sim_memcpy the
 * copied lines are placed in the L2 (GPGPU-Sim 4 does this), so a kernel
 * finds its freshly copied inputs there. */
void ws_gpu_memcpy_to_device(ws_gpu *g, uint64_t addr, uint64_t n);

/* Warm the tags while fast-forwarding: the line of addr into the L2 slice
 * that holds it and, for a load, into SM sm's L1D; no timing, no counts. */
void ws_gpu_warm(ws_gpu *g, uint32_t sm, uint64_t addr, bool store);

/* What one launch measured. */
typedef struct ws_gpu_result {
    uint64_t cycles;             /* core cycles of this kernel (gpu_sim_cycle) */
    uint64_t warp_insts, thread_insts, thread_insts_exec;
    uint64_t ctas;
    int capped;                  /* stopped by insn_cap */
    /* sampling within the kernel (-warpsim_sample_ipc_tol): once its IPC
       converged, the rest of its CTAs ran functionally, and cycles is the
       detailed cycles plus their instructions at the converged IPC; the
       instruction counts above include them */
    uint64_t detailed_cycles;    /* cycles simulated in detail (= cycles when it did not stop) */
    uint64_t functional_insn;    /* thread instructions (gpu_sim_insn) of the CTAs run functionally */
    double projection_sigma;     /* cycles: the uncertainty of the last, partial wave's time */
} ws_gpu_result;

/* Run the launch l (functional state from exec) on the timing model. The
 * kernel's statistics (GPGPU-Sim names) are appended to ks's extra list, the
 * program-scope ones both as running totals and per kernel.
 * Returns WS_OK, the functional fault (illegal address, trap, ...),
 * WS_ERR_INVALID_CONFIG when a CTA cannot fit on an SM, or WS_ERR_DEADLOCK
 * when the watchdog stops a run that makes no progress (the message names
 * the stuck units and their queues). */
ws_status ws_gpu_run_kernel(ws_gpu *g, const ws_launch_desc *l, const ws_kernel_res *res,
                            ws_gpu_result *out, ws_kernel_stats *ks, ws_fault *fault);
/* Stop a kernel once this many more thread instructions (gpu_sim_insn
 * lanes) have executed in it (0 = no cap). */
void ws_gpu_set_insn_cap(ws_gpu *g, uint64_t insns);

#endif
