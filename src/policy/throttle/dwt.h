/* DWT-CS's GPU-wide controller (dwtcs.c), shared by the policies dwtcs
 * (standalone DWT-CS) and dwtpric (its mode inside DWT-PRIC). */
#ifndef WARPSIM_POLICY_THROTTLE_DWT_H
#define WARPSIM_POLICY_THROTTLE_DWT_H

#include "policy/throttle/throttle.h"

/* The parameters of both (n, m, mpki, period). */
extern const ws_param_def ws_dwt_params[4];
/* first_n_only: thrashing is checked only in a kernel's first N periods
   (DWT-PRIC); else at the end of every period over the last N. */
void *ws_dwt_create(ws_params *p, unsigned n_sms, unsigned n_sched, bool first_n_only, char *err,
                    size_t errlen);
void ws_dwt_destroy(void *ctl);
uint64_t ws_dwt_period(const void *ctl);
void ws_dwt_kernel_start(void *ctl, const ws_throttle_epoch *e);
void ws_dwt_epoch(void *ctl, const ws_throttle_epoch *e);
bool ws_dwt_settled(const void *ctl);
void ws_dwt_kernel_end(void *ctl);
unsigned ws_dwt_stats(const void *ctl, ws_throttle_stat *out, unsigned max);

#endif
