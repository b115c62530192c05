/* Policy controllers that act between cycles: the GPU-wide controller of a
 * dynamic warp-throttling scheme (policy family "throttle") and the bypass
 * policies of the L1Ds and the L2 slices (family "bypass"). Each runs at the
 * end of its own period with the counters of that period; decisions take
 * effect from the next cycle. The GPU asks when the next one is due, so
 * the cycle loop pays one comparison per core cycle. */
#ifndef WARPSIM_TIMING_CONTROL_H
#define WARPSIM_TIMING_CONTROL_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "stats/catalog.h"
#include "timing/mem/partition.h"
#include "timing/sm/sm.h"

typedef struct ws_control ws_control;

/* Units outlive the controller. NULL and err on a bad policy spec. */
ws_control *ws_control_create(const ws_config *cfg, ws_sm **sms, uint32_t n_sms,
                              ws_mempart **parts, uint32_t n_chan, uint32_t n_sub_per_chan,
                              char *err, size_t errlen);
void ws_control_destroy(ws_control *c);

/* A kernel starts (after the SMs were told): reset, set the caches' modes. */
void ws_control_kernel_start(ws_control *c, const char *kernel, uint64_t now);
/* Kernel-relative core cycle at which the next period ends (UINT64_MAX: never). */
uint64_t ws_control_next(const ws_control *c);
/* Core cycle `cycle` of the kernel ended (run-wide cycle now): run every
   controller whose period ends here. */
void ws_control_epoch(ws_control *c, uint64_t cycle, uint64_t now);
/* The kernel ended (however it ended). */
void ws_control_kernel_end(ws_control *c);
/* Append what the controllers decided to the kernel's report. */
struct ws_kernel_stats;
void ws_control_add_stats(const ws_control *c, struct ws_kernel_stats *ks);
/* What the throttle controllers may report (their names; values come from
   the policy's ctl_stats). */
extern const ws_stat_table ws_control_stat_table;

#endif
