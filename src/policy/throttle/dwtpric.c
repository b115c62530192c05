/* DWT-CS as DWT-PRIC runs it (seed 000 §2.5): thrashing is checked only in
 * a kernel's first N periods (all N above the MPKI threshold), then core
 * sampling or the stored limit as in dwtcs.c. Settled after those N periods
 * when they were not all high, else once the limit is decided; DBSA
 * (`dbsa:wait=1`) starts then. DWT-PRIC as a whole is
 *   -l1d_index pric -warpsim_throttle dwtpric -l1d_bypass dbsa:wait=1
 *   -l2_bypass dbsa:wait=1
 * Parameters as dwtcs (ws_dwt_params). */
#include <stdlib.h>

#include "policy/throttle/dwt.h"
#include "policy/throttle/limit.h"

static void *dwtpric_ctl_create(ws_params *p, unsigned n_sms, unsigned n_sched, char *err,
                                size_t errlen) {
    return ws_dwt_create(p, n_sms, n_sched, true, err, errlen);
}

const ws_throttle_policy ws_throttle_dwtpric = {
    .name = "dwtpric",
    .doc = "DWT-CS in DWT-PRIC's order: thrashing checked in a kernel's first N periods only",
    .params = ws_dwt_params,
    .nparams = sizeof ws_dwt_params / sizeof ws_dwt_params[0],
    .create = ws_limit_create,
    .destroy = free,
    .filter = ws_limit_filter,
    .kernel_start = ws_limit_kernel_start,
    .limit = ws_limit_get,
    .ctl_create = dwtpric_ctl_create,
    .ctl_destroy = ws_dwt_destroy,
    .ctl_period = ws_dwt_period,
    .ctl_kernel_start = ws_dwt_kernel_start,
    .ctl_epoch = ws_dwt_epoch,
    .ctl_settled = ws_dwt_settled,
    .ctl_kernel_end = ws_dwt_kernel_end,
    .ctl_stats = ws_dwt_stats,
};
