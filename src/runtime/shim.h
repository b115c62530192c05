/* Pieces shared by the CUDA runtime shim (cudart.c) and driver shim (cuda.c).
 *
 * Simulator options for programs run under the shims come from environment
 * variables:
 *   WARPSIM_CONFIG=FILE     GPGPU-Sim style config file (for the timing model)
 *   WARPSIM_PRESET=NAME     named preset (e.g. gtx480)
 *   WARPSIM_FUNCTIONAL=0|1  0 (default): cycle-level timing model; 1:
 *                           functional simulation only (instruction counts)
 *   WARPSIM_SET=LINES       option overrides, one "-name value" per line
 *   WARPSIM_STATS_DIR=DIR   write DIR/stats.json (one object per kernel)
 *   WARPSIM_QUIET=1         no per-kernel report on stdout
 *   WARPSIM_MAX_INSN=N      stop a kernel after N warp instructions
 *   WARPSIM_DUMP_PTX=DIR    write each embedded PTX module to DIR under the name
 *                           its error messages use (ws_shim_module_name) */
#ifndef WARPSIM_RUNTIME_SHIM_H
#define WARPSIM_RUNTIME_SHIM_H

#include <stddef.h>

#include "warpsim/warpsim.h"

/* Open the device with options from the environment; on failure prints the
 * reason to stderr. */
ws_status ws_shim_open_device(ws_device **out);

/* At the program's exit, check that the device's output files (stats.json,
 * config.txt, timeseries.csv) were written; if not, say so and end the
 * process with status 1 (a program that passed must not hide a truncated
 * result). *slot is read at exit: the shim may replace or drop the device. */
/* A synchronisation point (device or stream synchronise, a blocking copy, exit):
 * what the device's kernels printed goes to stdout now, as CUDA prints it. */
void ws_shim_sync_output(ws_device *d);
/* cudaDeviceSetLimit / cuCtxSetLimit (cudaLimit and CUlimit share their
 * numbers): the printf FIFO size and the malloc heap size have an effect
 * (the heap's only until a kernel has used it: WS_ERR_INVALID_VALUE after,
 * as CUDA refuses it); others read back 0. */
ws_status ws_shim_set_limit(ws_device *d, int limit, size_t value);
size_t ws_shim_get_limit(const ws_device *d, int limit);
void ws_shim_check_outputs_at_exit(ws_device **slot);

/* Value of a CUDA device attribute (cudaDeviceAttr / CUdevice_attribute share
 * numbers). Returns 0 and sets *v, or -1 for an attribute warpsim does not know. */
/* Name of a program's N-th embedded PTX module (1-based) in messages and
 * dumps: "PROG.moduleN.compute_ARCH.ptx" ("PROG.moduleN.ptx" for arch 0:
 * PTX text given to cuModuleLoadData). */
void ws_shim_module_name(char *buf, size_t n, unsigned index, unsigned arch);

int ws_shim_device_attr(const ws_device_props *p, int attr, int *v);

#endif
