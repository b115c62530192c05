/* Long programs (docs/sampling.md): what a device does with each launch when
 * it fast-forwards, writes or resumes from a checkpoint, profiles launches,
 * or simulates a sample of them; the device (device.c) asks it at every
 * launch and device-to-host copy. A device without any of these options
 * has no ws_longrun and nothing here runs.
 *
 *  - fast-forward: the first launches (-warpsim_fast_forward_kernels, or
 *    until -warpsim_fast_forward_insn instructions) run functionally, with
 *    the L1D/L2 tags optionally warmed by their global accesses;
 *  - checkpoints: at the boundary after N launches the device memory, its
 *    allocations, a digest of the modules and launches, the run's totals and
 *    the bytes of every device-to-host copy before it go to a file; a later
 *    run of the same program skips its launches before the boundary
 *    (answering its reads from the file), restores the memory there and
 *    goes on under its own configuration;
 *  - profiling: per-launch features to a file (functional runs);
 *  - sampling across kernels: from such a profile, launches are grouped and
 *    only a few per group run on the timing model; the rest run
 *    functionally and their cycles are projected at the end of the run. */
#ifndef WARPSIM_RUNTIME_LONGRUN_H
#define WARPSIM_RUNTIME_LONGRUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "exec/exec.h"
#include "stats/report.h"
#include "timing/gpu.h"

#define WS_CKPT_FORMAT 2

typedef struct ws_longrun ws_longrun;

/* The device state a checkpoint holds, owned by the device. */
typedef struct ws_longrun_dev {
    ws_gmem *gmem;
    ws_run_totals *totals;
    uint64_t *launch_uid;   /* launches so far */
    uint64_t *tot_ctas;
    ws_dev_heap *heap;      /* device-side malloc (NULL: none) */
} ws_longrun_dev;

/* Does the configuration ask for any of it? */
bool ws_longrun_wanted(const ws_config *cfg);
/* NULL with a message on stderr when a file cannot be read, is not a
 * checkpoint of this format and version, is corrupted, or the options do
 * not go together. gpu: the timing model (NULL in functional mode). */
ws_longrun *ws_longrun_create(const ws_config *cfg, ws_gpu *gpu, const ws_longrun_dev *dev);
/* Says what was not done (a boundary never reached) and frees it. */
void ws_longrun_destroy(ws_longrun *lr);
/* The device rebuilt its timing model (after a fault or a cap). */
void ws_longrun_set_gpu(ws_longrun *lr, ws_gpu *gpu);

/* A module was loaded (its PTX text): part of the program's identity. */
void ws_longrun_module(ws_longrun *lr, const char *ptx, size_t len);

typedef enum ws_lr_mode {
    WS_LR_DETAILED = 0,  /* the timing model (or functional, on a functional device) */
    WS_LR_FUNCTIONAL,    /* functionally on a timing device: fast-forward or sampled out */
    WS_LR_SKIP           /* not at all: before a resumed checkpoint's boundary */
} ws_lr_mode;

/* A launch is about to run (the device's launch count is its index). Saves a
 * checkpoint or restores one at the boundary. WS_OK with *mode set, or an
 * error with the reason in err (another program than the checkpoint's). */
ws_status ws_longrun_begin(ws_longrun *lr, const char *kernel, const uint32_t grid[3],
                           const uint32_t block[3], const void *params, size_t params_size,
                           ws_lr_mode *mode, char *err, size_t errlen);
/* Run a WS_LR_FUNCTIONAL launch (warming the caches or profiling on the way). */
ws_status ws_longrun_run_functional(ws_longrun *lr, const ws_launch_desc *l, ws_exec_counts *c,
                                    ws_fault *fault);
/* Same for a launch of a functional device while profiling; false when the
 * device should run it itself (no profile wanted). */
bool ws_longrun_profiles(const ws_longrun *lr);
/* The launch ended: its counts and cycles (a projection for a kernel cut
 * short by sampling within it), the cycles simulated in detail, the
 * instructions run functionally inside a detailed kernel and the projection's
 * own uncertainty (its partial last wave): its stats into ks. */
void ws_longrun_end(ws_longrun *lr, ws_lr_mode mode, const ws_exec_counts *c, uint64_t cycles,
                    uint64_t detailed_cycles, uint64_t functional_insn, double sigma,
                    ws_kernel_stats *ks);

/* A device-to-host copy: before a resumed boundary it is answered from the
 * checkpoint (*answered = true); while a checkpoint is pending it is logged.
 * WS_OK, or an error with the reason in err. */
ws_status ws_longrun_dtoh(ws_longrun *lr, void *dst, uint64_t src, size_t n, bool *answered,
                          char *err, size_t errlen);

/* The end of a sampled run: projected total cycles and the error estimate
 * on out (stderr), and as DIR/sampling.json when dir is set. 0, or -1 when
 * the file could not be written (message in err). */
int ws_longrun_finish(ws_longrun *lr, FILE *out, const char *dir, char *err, size_t errlen);

/* The stats a long-run device adds to each kernel's report. */
extern const ws_stat_table ws_longrun_stat_table;

/* ---- pieces with rules of their own, for the unit tests ---- */
/* FNV-1a, 64 bits. */
uint64_t ws_lr_hash(uint64_t h, const void *p, size_t n);
#define WS_LR_HASH_INIT 0xcbf29ce484222325ull

typedef struct ws_lr_features {
    char kernel[512];       /* its name (longer ones are cut: compared cut) */
    uint32_t grid[3], block[3];
    uint64_t warp_insts, thread_insts, mem_insts, shared_insts, lines;
} ws_lr_features;
/* Memory instructions per warp instruction; active lanes per warp instruction / 32. */
double ws_lr_mem_intensity(const ws_lr_features *f);
double ws_lr_simd_eff(const ws_lr_features *f);
/* Group launches: group[i] for each of n launches (0-based group numbers in
 * order of first appearance): a launch joins the first group of the same
 * kernel and block whose first launch's instructions, memory intensity and
 * footprint are within relative tolerance tol and SIMD efficiency within tol
 * (absolute). Returns the number of groups. */
uint32_t ws_lr_group(const ws_lr_features *f, uint32_t n, double tol, uint32_t *group);
/* The k launches of each group nearest its mean instruction count (ties:
 * the earlier): rep[i] = 1 for those. */
void ws_lr_pick(const ws_lr_features *f, uint32_t n, const uint32_t *group, uint32_t ngroups,
                uint32_t k, uint8_t *rep);

/* Projection of one group: its detailed launches' cycles and instructions
 * and the instructions of the rest. */
typedef struct ws_lr_projection {
    double cycles;      /* detailed + projected */
    double projected;   /* the projected part */
    double sigma;       /* one standard error of the projected part, cycles */
} ws_lr_projection;
/* CPI floor: the relative launch-to-launch spread assumed where the
 * detailed launches cannot show one (docs/sampling.md). */
#define WS_LR_CV_FLOOR 0.03
void ws_lr_project(const double *rep_cycles, const double *rep_insts, uint32_t nrep,
                   const double *other_insts, uint32_t nother, ws_lr_projection *out);
/* Sampling across kernels with the detailed launches sampled within
 * (-warpsim_sample_ipc_tol): one standard error, in cycles, that the
 * detailed launches' own within-kernel projections (rep_sigma: each one's
 * standard error) give the group's total. The group's total is its detailed
 * launches' cycles times its instructions over theirs, so their errors scale
 * by that ratio; they add linearly, not in quadrature, because the
 * launches of a group run one kernel and stop by one rule, so their
 * projections deviate alike (docs/sampling.md). */
double ws_lr_within_sigma(const double *rep_sigma, const double *rep_insts, uint32_t nrep,
                          const double *other_insts, uint32_t nother);

#endif
