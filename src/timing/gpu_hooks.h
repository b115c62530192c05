/* Run-wide inputs and outputs of the time-predictability and profiling
 * studies (gpu_hooks.c), called by the GPU at creation and after every
 * kernel. */
#ifndef WARPSIM_TIMING_GPU_HOOKS_H
#define WARPSIM_TIMING_GPU_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "exec/exec.h"
#include "timing/mem/l1bypass.h"
#include "timing/sm/sm.h"

/* -l1d_bypass_unit and -l1d_bypass_profile checked, -l1d_bypass_list read
   (*out NULL when not given). 0, or -1 and err naming the option. */
int ws_l1bp_open(const ws_config *c, uint32_t n_sms, ws_l1blist **out, char *err,
                 size_t errlen);
/* -l1d_bypass_profile: the lists so far. */
int ws_l1bp_write_sms(const ws_config *c, ws_sm *const *sms, uint32_t n, ws_fault *fault);
/* -l1d_access_trace: append kernel's per-SM L1D sequences. */
int ws_l1trace_write_sms(const ws_config *c, ws_sm *const *sms, uint32_t n, uint64_t kernel,
                         ws_fault *fault);
/* -warpsim_analyze: append the analyzer's record of launch l (kernel); with
   have_hits, also the cache-aware WCET (hit_lines: the sure LLC-hit lines of
   ws_llc_ai_hit_lines). */
int ws_analyze_write(const ws_config *c, ws_sm *const *sms, uint32_t n, uint64_t kernel,
                     const ws_launch_desc *l, const uint64_t *hit_lines, size_t nhit,
                     bool have_hits, uint64_t held, ws_fault *fault);

#endif
