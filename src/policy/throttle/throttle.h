/* Policy family "throttle": which of a scheduler's warps may issue at all
 * this cycle (-warpsim_throttle). Warp throttling schemes (static warp
 * limiting, dynamic ones driven by cache behaviour) live here; the
 * scheduler policy then orders the warps that remain.
 *
 * Each cycle the SM fills one ws_sched_warp per supervised slot and calls
 * `filter`, which sets `throttled` on the warps that must not issue.
 * `kernel_start` is called at each kernel start.
 *
 * Dynamic schemes add a GPU-wide controller (the ctl_* hooks, all optional):
 * the GPU creates one per run, calls ctl_kernel_start when a kernel begins
 * and ctl_epoch every ctl_period core cycles with each SM's counters over
 * the period just ended; the controller steers the per-scheduler states
 * (its own type: same file) through ws_throttle_epoch.sched. Decisions take
 * effect from the next cycle. Controllers are deterministic and see SMs in
 * id order.
 *
 * To add a policy: write src/policy/throttle/<name>.c defining a
 * `const ws_throttle_policy ws_throttle_<name>` (with its parameter table,
 * params.h) and add one line to registry.c. Every hook that creates state
 * gets the same parsed parameters. */
#ifndef WARPSIM_POLICY_THROTTLE_H
#define WARPSIM_POLICY_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/params.h"
#include "policy/sched/sched.h"

struct ws_cache;
struct ws_throttle_stat;
struct ws_kernel_stats;

/* One SM's counters over an epoch (the period just ended). */
typedef struct ws_throttle_sm_counts {
    uint64_t thread_insts;     /* committed thread instructions (guard held: gpu_sim_insn) */
    uint64_t l1d_reads;        /* L1D data reads the cache took (hits, pending hits, misses,
                                  lookups in tag-only mode); reservation fails not counted */
    uint64_t l1d_read_misses;  /* of which misses (a pending hit is not a miss) */
    unsigned warps;            /* warps resident now (not finished) */
    unsigned max_warps;        /* warp slots of the SM */
} ws_throttle_sm_counts;

typedef struct ws_throttle_epoch {
    uint64_t now;              /* core cycle (run-wide) */
    uint64_t cycles;           /* core cycles in the period */
    unsigned n_sms, n_sched;
    const ws_throttle_sm_counts *sm; /* [n_sms] */
    void **sched;              /* [sm * n_sched + s]: the per-scheduler states */
    struct ws_cache **l1d;     /* [n_sms]: for schemes that steer the L1D (iacm pauses adi) */
    const char *kernel;        /* the running kernel's name */
    double dram_util;          /* DRAM data-bus utilisation over the period, all channels (0..1) */
} ws_throttle_epoch;

/* Where a warp's global/local reads go (ws_throttle_policy.l1d_route). */
enum {
    WS_ROUTE_L1D = 0,  /* the L1D, as usual */
    WS_ROUTE_SMC,      /* the shared-memory cache of isolated warps (CIAO) */
    WS_ROUTE_BYPASS,   /* past the L1D, uncached (PCAL's non-token warps) */
};

/* The shared-memory cache's counters (kept by the SM, running totals). */
typedef struct ws_smc_counts {
    uint64_t hits, pending_hits, misses, fills, flushes, migrations;
    uint64_t mshr_waits;  /* accesses held because the L1D and it used every MSHR */
    unsigned lines;       /* lines it has now (0: no unused shared memory) */
} ws_smc_counts;

/* A per-SM part's counters for the report and the time series. */
typedef struct ws_throttle_sm_warps {
    unsigned isolated, stalled; /* warps now */
} ws_throttle_sm_warps;

typedef struct ws_throttle_policy {
    const char *name;  /* config name (text before the first ':') */
    const char *doc;
    const ws_param_def *params; /* its parameters (NULL, 0: none) */
    unsigned nparams;
    /* State for one scheduler of n warp slots. NULL and err when the
       parameters do not go together. */
    void *(*create)(ws_params *p, unsigned n, char *err, size_t errlen);
    void (*destroy)(void *st);
    void (*filter)(void *st, ws_sched_warp *w, unsigned n);
    void (*kernel_start)(void *st);
    /* Warp-limiting policies: the number of oldest warps this scheduler lets
       issue now (for the interval time series). NULL: not a limiter. */
    unsigned (*limit)(const void *st);

    /* ---- optional GPU-wide controller (NULL ctl_create: none) ---- */
    void *(*ctl_create)(ws_params *p, unsigned n_sms, unsigned n_sched, char *err, size_t errlen);
    void (*ctl_destroy)(void *ctl);
    /* Core cycles until the next epoch (may change with the controller's phase). */
    uint64_t (*ctl_period)(const void *ctl);
    void (*ctl_kernel_start)(void *ctl, const ws_throttle_epoch *e);
    void (*ctl_epoch)(void *ctl, const ws_throttle_epoch *e);
    /* Has the controller finished deciding for this kernel? (DWT-PRIC starts
       its bypass rule after warp throttling settled.) NULL: always. */
    bool (*ctl_settled)(const void *ctl);
    /* The kernel ended (also after a fault or the instruction cap); the
       period in progress is dropped. NULL: nothing to do. */
    void (*ctl_kernel_end)(void *ctl);
    /* Named values for the end-of-kernel report (what was decided): up to
       max into out; returns how many. NULL: none. */
    unsigned (*ctl_stats)(const void *ctl, struct ws_throttle_stat *out, unsigned max);

    /* ---- optional per-SM part (NULL sm_create: none) ----
     * For schemes that rank all warps of an SM against each other (CCWS).
     * Each SM creates one such state beside its per-scheduler states, gives
     * it to each of them (sm_attach: scheduler `id` supervises warp slots
     * id, id + n_sched, ...) and reports its L1D events to it. Warps are SM
     * warp slots; l1d_line is the L1D line size in bytes. Use designated
     * initializers: fields are appended here. */
    void *(*sm_create)(ws_params *p, unsigned n_warps, unsigned l1d_line, char *err,
                       size_t errlen);
    void (*sm_destroy)(void *sm);
    void (*sm_attach)(void *st, void *sm, unsigned id);
    /* Once per SM cycle before the schedulers (only while CTAs are resident):
       the core cycle and the warp instructions the SM has issued so far. */
    void (*sm_cycle)(void *sm, uint64_t now, uint64_t warp_insts);
    /* A read of `warp` missed the L1D (MISS or SECTOR_MISS; a pending hit
       is not a miss); block is the line address. */
    void (*l1d_read_miss)(void *sm, uint16_t warp, uint64_t block);
    /* An L1D line allocated by warp `owner` was evicted to make room for a
       line of warp `evictor` (a ws_cache_evict_fn, registered with ctx = the
       per-SM state). */
    void (*l1d_evict)(void *sm, uint64_t block, uint16_t owner, uint16_t evictor);
    /* The filter reads ws_sched_warp.next_load (the SM computes it only for
       such policies). */
    int needs_next_load;
    /* Where warp `warp`'s global/local reads go now (WS_ROUTE_*); NULL: the
       L1D. Asked once per L1D access. */
    uint8_t (*l1d_route)(const void *sm, uint16_t warp);
    /* The SM has a shared-memory cache for WS_ROUTE_SMC reads (the SM asks
       only policies that set this, so the cache costs nothing otherwise). */
    int wants_smem_cache;
    /* Warps isolated / stalled now (the interval time series). NULL: none. */
    void (*sm_warps)(const void *sm, ws_throttle_sm_warps *out);
    /* Extra lines for the end-of-kernel text report (the controller's
       detail, e.g. CIAO's interference pairs). NULL: none. */
    void (*ctl_lines)(const void *ctl, struct ws_kernel_stats *ks);
    /* The SM's shared-memory cache counters (with wants_smem_cache), given
       once after sm_create; they outlive the per-SM state. */
    void (*sm_bind_smc)(void *sm, const ws_smc_counts *c);
    /* A per-SM part whose filter decides only from the views and from its
       own state may give that state's version here (it changes whenever a
       decision may): the SM then keeps skipping schedulers whose views did
       not change, as without throttling (issue.c). NULL: the filter runs
       every cycle on the full path. */
    uint64_t (*sm_version)(const void *sm);
} ws_throttle_policy;

/* One value of ctl_stats; name is a static string. */
typedef struct ws_throttle_stat {
    const char *name;
    double value;
    bool is_float; /* else printed as an integer */
} ws_throttle_stat;

const ws_throttle_policy *ws_throttle_find(const char *name);
/* The i-th policy's name, doc and parameters (name NULL past the end). */
ws_policy_info ws_throttle_info(unsigned i);

typedef struct ws_throttle {
    const ws_throttle_policy *policy;
    void *state;
} ws_throttle;
/* 0, or -1 with err naming the policy and the known ones. */
int ws_throttle_create(ws_throttle *t, const char *spec, unsigned n, char *err, size_t errlen);
void ws_throttle_destroy(ws_throttle *t);

/* The GPU-wide controller of a throttle spec, if its policy has one. */
typedef struct ws_throttle_ctl {
    const ws_throttle_policy *policy; /* NULL: no controller */
    void *state;
} ws_throttle_ctl;
int ws_throttle_ctl_create(ws_throttle_ctl *c, const char *spec, unsigned n_sms, unsigned n_sched,
                           char *err, size_t errlen);
void ws_throttle_ctl_destroy(ws_throttle_ctl *c);

/* The per-SM part of a throttle spec, if its policy has one: created for an
   SM of n_warps slots (L1D lines of l1d_line bytes) and attached to that
   SM's n_sched scheduler states. */
typedef struct ws_throttle_sm {
    const ws_throttle_policy *policy; /* NULL: no per-SM part */
    void *state;
} ws_throttle_sm;
int ws_throttle_sm_create(ws_throttle_sm *t, const char *spec, unsigned n_warps,
                          unsigned l1d_line, ws_throttle *sched, unsigned n_sched, char *err,
                          size_t errlen);
void ws_throttle_sm_destroy(ws_throttle_sm *t);

#endif
