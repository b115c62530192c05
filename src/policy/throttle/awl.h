/* IACM's adaptive warp limiting for one SM (seed 003 §2.4, Alg. 1-5),
 * shared by the policies awl (alone) and iacm (inside IACM's phase
 * machine). The owner calls these at the end of each CP-cycle period with
 * the SM's IPC over it. */
#ifndef WARPSIM_POLICY_THROTTLE_AWL_H
#define WARPSIM_POLICY_THROTTLE_AWL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/throttle/throttle.h"

typedef enum {
    WS_AWL_SEARCHING, /* keep searching */
    WS_AWL_SETTLED,   /* search over, NC within εW of the previous optimum: idle phase */
    WS_AWL_MOVED,     /* search over, NC moved further: adapt again (IACM: the ADI phase) */
} ws_awl_result;

typedef struct ws_awl {
    unsigned nt;         /* warps resident on the SM for this kernel (0: not known yet) */
    unsigned nc, ns, np; /* current limit, limit when this search started, last optimum */
    unsigned last;       /* the limit before the last binary step (to revert to) */
    double ipc_prev;     /* the best IPC of this search's path (0: none yet) */
    double tie;          /* a sample within this fraction below ipc_prev still counts as
                            better (0: Alg. 2-3's strict "IPCprev < IPCcurr") */
    bool up, linear, kernel_init;
    unsigned searches;   /* searches finished this kernel */
} ws_awl;

/* Alg. 5's idle phase. */
typedef struct ws_awl_idle {
    double ipc_prev;
    bool init;
} ws_awl_idle;

/* A kernel starts: forget everything but the tie tolerance. */
void ws_awl_kernel_start(ws_awl *a, double tie);
/* The SM's resident warps were seen (NT is the first nonzero count). */
void ws_awl_see_warps(ws_awl *a, unsigned warps);
/* An AWL phase begins: Alg. 1's initialisation (NC = NT at a kernel's
   first). Not SEARCHING when NT is 1. */
ws_awl_result ws_awl_begin(ws_awl *a, double ew);
/* A period of the AWL phase ended with this IPC (Alg. 2-4). */
ws_awl_result ws_awl_step(ws_awl *a, double ipc, double ew);
/* A period of the idle phase ended: true when |ΔIPC| > εI (leave it). */
bool ws_awl_idle_step(ws_awl_idle *s, double ipc, double ei);
/* The controller parameters awl and iacm share: cp (period, cycles), ew, ei (the 25%
   thresholds), tie, gpu (awl.c); iacm adds eadi, the last entry (awl declares the first 5). */
extern const ws_param_def ws_awl_param_defs[6];
typedef struct ws_awl_params {
    uint64_t cp;
    double ew, ei, eadi, tie;
    bool gpu;
} ws_awl_params;
/* What an awl or iacm controller is made of: its parameters (eadi read only when with_eadi)
   and a zeroed array of n_sms per-SM states of sm_size bytes (at least one). The array, or
   NULL with err. */
void *ws_awl_ctl_parts(ws_params *prm, bool with_eadi, unsigned n_sms, size_t sm_size,
                       ws_awl_params *p, char *err, size_t errlen);

/* The gpu scope's sample: mean IPC per SM over the epoch, most warps resident on one SM. */
void ws_awl_gpu_sample(const ws_throttle_epoch *e, double *ipc, unsigned *warps);
/* Per-scheduler limit for NC: ceil(NC / n_sched) (0: NT unknown, no limit). */
unsigned ws_awl_sched_limit(const ws_awl *a, unsigned n_sched);

#endif
