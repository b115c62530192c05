/* One streaming multiprocessor (a SIMT core): fetch with an L1 instruction
 * cache, decode into per-warp instruction buffers, scoreboard, warp
 * schedulers (policy family "sched"), operand collector with banked
 * register file, pipelined SP/SFU/DP/INT units, the LD/ST unit with the
 * coalescer, L1D, shared memory and constant cache, barriers, and CTA
 * occupancy. Instructions are executed functionally at issue by the exec
 * engine (ws_warp_step); the SM then carries the facts (active mask,
 * addresses) through its pipeline.
 *
 * The SM talks to the rest of the GPU only through this interface: CTAs
 * come in from the GPU's dispatcher, memory requests leave through the
 * out queue towards the interconnect, replies come back through in. */
#ifndef WARPSIM_TIMING_SM_SM_H
#define WARPSIM_TIMING_SM_SM_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "stats/catalog.h"
#include "exec/exec.h"
#include "timing/mem/addrdec.h"
#include "timing/mem/mreq.h"

/* What a kernel needs per CTA, for occupancy. */
typedef struct ws_kernel_res {
    uint32_t threads_per_cta;
    uint32_t regs_per_thread;   /* ptxas count (or an estimate) */
    uint32_t smem_per_cta;      /* static + dynamic shared bytes */
} ws_kernel_res;

/* What the GPU gives each SM. Pointers outlive the SM. */
struct ws_pages;
typedef struct ws_sm_env {
    const ws_config *cfg;
    ws_mreq_pool *pool;
    const ws_addrdec *addrdec;
    uint32_t sm_id;
    uint32_t flit_size;         /* interconnect flit bytes */
    const struct ws_l1blist *l1blist; /* -l1d_bypass_list (timing/mem/l1bypass.h), or NULL */
    struct ws_pages *pages;     /* heterogeneous memory's page table (NULL: GPU memory only) */
    uint32_t cpu_port, cpu_ports; /* its CPU-link ports: destinations cpu_port.. on the interconnect */
} ws_sm_env;

/* Statistics kept by an SM (summed over SMs by the GPU for the report).
 * Running totals over the SM's life, every field a uint64_t: the GPU
 * subtracts a snapshot taken at kernel start. */
typedef struct ws_sm_stats {
    uint64_t cycles_active;          /* cycles with at least one CTA */
    uint64_t warp_insts, thread_insts;  /* thread_insts: lanes active at issue */
    uint64_t thread_insts_exec;      /* lanes whose guard predicate held (ws_step.active):
                                        GPGPU-Sim's gpu_sim_insn */
    /* caches (GPGPU-Sim names in the report) */
    uint64_t l1d_access[2][4];       /* [read/write][hit, hit_reserved, miss (sector misses
                                        too), reservation_fail] */
    uint64_t l1d_fail[5];            /* reservation fails by kind (ws_fail_kind) */
    uint64_t l1d_bypass;             /* accesses a bypass policy sent past the L1D */
    uint64_t l1i_access, l1i_miss, l1c_access, l1c_miss, l1t_access, l1t_miss;
    uint64_t shmem_accesses, shmem_bank_conflict_cycles;
    /* issue stalls, per scheduler-cycle */
    uint64_t stall_idle, stall_scoreboard, stall_pipeline, stall_barrier, stall_ibuffer;
    uint64_t mem_requests_out, mem_replies_in;
    uint64_t ctas_done;
    uint64_t mem_writes;             /* instructions that changed memory (hang detector) */
    /* activity for the energy model (src/stats/energy.h), per thread (lanes
       whose guard held): register operands read by the operand collector and
       written back, and thread instructions by what their lanes compute */
    uint64_t rf_reads, rf_writes;
    uint64_t thread_insts_int, thread_insts_fp, thread_insts_dp, thread_insts_sfu, thread_insts_mem;
    /* GPGPU-Sim's breakdowns */
    uint64_t issue_lanes[33];        /* warp instructions issued with k lanes active (W1..W32) */
    uint64_t mem_insn[WS_SPACE_COUNT][2]; /* memory instructions' guard-true lanes by the space
                                        they accessed, [load (atomics too) / store] */
    uint64_t l1d_status[2][6];       /* L1D [read/write][ws_cache_status], and of those the */
    uint64_t l1d_local[2][6];        /* local-memory accesses (the others are global) */
    uint64_t l1c_status[6], l1i_status[6]; /* L1C, L1I reads by ws_cache_status */
    uint64_t l1c_mshr_hits, l1i_mshr_hits; /* misses merged into an outstanding fetch */
    uint64_t mem_out[WS_MA_COUNT];   /* requests sent towards memory, by ws_mem_access */
    uint64_t mf_lat_sum, mf_lat_n;   /* data replies received (not instruction fetches) and
                                        their cycles from the request's creation to arrival */
    uint64_t warps_live_sum;         /* per active cycle, warps of resident CTAs not exited */
    uint64_t gld_bytes;              /* global-load bytes requested from memory (32 B sectors) */
    uint64_t l1d_list_bypass;        /* global-load sector requests -l1d_bypass_list sent past the L1D */
    /* memory-stage hazards (hazard.c): cycles the LD/ST unit was held by
       each kind [DIV, BANK, MSHR, COMQ, RSV]; collector-blocked cycles; and
       memory warp instructions issued (the rest count as ALU work) */
    uint64_t hazard[5];
    uint64_t oc_blocked_cycles;
    uint64_t warp_insts_mem;
    /* replay: reissues of squashed memory instructions, and squashes */
    uint64_t replay_issues, replay_squashes;
    uint64_t replay_mshr_again;      /* MSHR squashes of passes already known to miss */
    /* hazard prediction: scheduler cycles held back only by it; load
       predictions [ptt, ptf, pft, pff] (predicted miss/hit, actual miss/hit) */
    uint64_t hp_restrict, hp_pred[4];
    uint64_t hp_tracker_errors;      /* credited passes that found no MSHR */
    uint64_t hp_refused;             /* strict credits: uncredited accesses refused an MSHR
                                        entry or merge slot that credits in flight keep */
    uint64_t mshr_idle_demand;       /* -warpsim_mshr_idle_stat: cycles a load could use a free
                                        MSHR of its cache (hazard.c) */
    uint64_t sched_issue[2];         /* scheduler cycles that issued 1, 2 instructions */
} ws_sm_stats;

/* Every ws_sm_stats counter (a kernel's part is the difference of two
 * snapshots, summed over the SMs), and the issue stalls reported per
 * kernel (values at their offsets in the SMs' summed differences). */
extern const ws_counter_decl ws_sm_counters[];
extern const size_t ws_sm_ncounters;
extern const ws_stat_table ws_sm_stat_table;
extern const ws_stat_table ws_sm_hazard_table; /* hazard.c */

typedef struct ws_sm ws_sm;

ws_sm *ws_sm_create(const ws_sm_env *env, char *err, size_t errlen);
void ws_sm_destroy(ws_sm *sm);

/* A kernel begins: remember its launch (functional state is created per CTA
 * from it) and resources; flush L1 caches when -gpgpu_flush_l1_cache. */
void ws_sm_start_kernel(ws_sm *sm, const ws_launch_desc *l, const ws_kernel_res *res);
/* Could one more CTA of the current kernel be resident (threads, warps,
 * CTA slots, registers, shared memory)? */
bool ws_sm_can_take_cta(const ws_sm *sm);
/* Make CTA ctaid resident (creates its functional state). */
void ws_sm_take_cta(ws_sm *sm, const uint32_t ctaid[3], uint64_t now);
/* CTA slots free for the current kernel now (0 when none can be taken). */
unsigned ws_sm_free_ctas(const ws_sm *sm);
/* The same, the CTA joining cluster cl as rank `rank` (thread-block clusters:
 * the dispatcher places all CTAs of a cluster on one SM in one cycle). */
void ws_sm_take_cluster_cta(ws_sm *sm, const uint32_t ctaid[3], uint64_t now, ws_cluster *cl, uint32_t rank);
unsigned ws_sm_active_ctas(const ws_sm *sm);
/* CTAs of the current kernel that fit at once (GPGPU-Sim's max_cta). */
uint32_t ws_sm_max_ctas(const ws_sm *sm);
/* Work left: resident CTAs, instructions in the pipeline or memory requests
 * in flight. */
bool ws_sm_busy(const ws_sm *sm);

/* One core-clock cycle. It touches only the SM's own state (its request
 * pool included): SMs may run a cycle in parallel. Its global stores and
 * atomics wait in its log until ws_sm_commit, which the GPU calls after
 * every SM ran the cycle, SMs in id order. */
void ws_sm_cycle(ws_sm *sm, uint64_t now);
void ws_sm_commit(ws_sm *sm);
/* What the GPU's steps around the SMs' cycles need to know after one, in
 * one call (WS_SM_* flags): stores or atomics waiting for ws_sm_commit,
 * requests in the out queue (ws_sm_out_peek), progress (ws_sm_progressed),
 * a fault (ws_sm_fault), room for a CTA (ws_sm_can_take_cta). (Room for a
 * reply is asked only when one arrives, ws_sm_in_ready: the flag cost every
 * cycle what the question costs an arrival.) */
/* (PROGRESSED is bit 0: the SM's bool is the bit itself, without a shift) */
enum { WS_SM_PROGRESSED = 1, WS_SM_HAS_OUT = 2, WS_SM_LOGGED = 4, WS_SM_FAULTED = 8,
       WS_SM_CTA_ROOM = 32, WS_SM_PURE = 0x40, WS_SM_TICKED = 0x80 };
unsigned ws_sm_after_cycle(const ws_sm *sm);
/* The GPU's cycle of one SM in one call: when ws_sm_busy, ws_sm_cycle and
 * WS_SM_TICKED | ws_sm_after_cycle; otherwise nothing is done and only
 * ws_sm_after_cycle's WS_SM_CTA_ROOM is returned. */
unsigned ws_sm_step(ws_sm *sm, uint64_t now);
/* WS_SM_PURE in ws_sm_step's flags: the SM's next cycles up to
 * ws_sm_sleep_until are pure sleeping ones, which only count: the caller
 * may instead pass them by and count them later with ws_sm_skip (from: the
 * first, n of them), before anything reads the SM or gives it anything (a
 * reply, a CTA, ws_sm_wake), as long as its out queue is empty. The
 * counters they move are the active cycles, the live-warp sum and the
 * schedulers' stall counts. */
void ws_sm_skip(ws_sm *sm, uint64_t from, uint64_t n);
uint64_t ws_sm_sleep_until(const ws_sm *sm);
/* A quiet SM (all warps waiting, pipeline empty) only counts its cycles
 * until a reply or a CTA arrives; call this when anything else it reads
 * changed between cycles (a policy controller's decision). */
void ws_sm_wake(ws_sm *sm);

/* Requests towards memory, oldest first (the GPU injects them into the
 * interconnect when it has buffer space; ws_mreq_flits gives the size). */
ws_mreq *ws_sm_out_peek(ws_sm *sm);
/* Takes the oldest (the interconnect took it); returns the next, as ws_sm_out_peek. */
ws_mreq *ws_sm_out_pop(ws_sm *sm);
/* Replies from memory. A reply is the request (or, when the memory side
 * splits a request into sectors, one piece of it) with is_reply set; it keeps
 * `origin` and carries in `sectors` the 32 B sectors it answers (0 = all of
 * the request). The SM frees every reply it is given. Stores are counted
 * complete when acknowledgements for all their sectors came back. */
/* (Inline, as the GPU asks for every reply it gives: the response FIFO is the
 * SM's first member, and it holds WS_SM_RESP_FIFO replies; sm.c checks the first.) */
enum { WS_SM_RESP_FIFO = 2 };
static inline bool ws_sm_in_ready(const ws_sm *sm) {
    return ((const ws_mreq_fifo *)(const void *)sm)->len < WS_SM_RESP_FIFO;
}
/* Same, for a particular reply (instruction replies never wait). */
bool ws_sm_in_ready_for(const ws_sm *sm, const ws_mreq *r);
void ws_sm_in_push(ws_sm *sm, ws_mreq *r, uint64_t now);

/* A functional fault stops the kernel: true and *f filled if one happened. */
bool ws_sm_fault(const ws_sm *sm, ws_fault *f);
/* Describe what is stuck (for the watchdog): warps, their pcs and why they
 * wait, queue contents. Writes at most n bytes. */
void ws_sm_describe(const ws_sm *sm, char *buf, size_t n);
/* Did anything move this cycle (an instruction issued or completed, a
 * memory request sent or received)? For the watchdog. */
bool ws_sm_progressed(const ws_sm *sm);
/* Add where each resident warp is to a hang report's tally. */
void ws_sm_where(const ws_sm *sm, ws_where_tally *t);

const ws_sm_stats *ws_sm_get_stats(const ws_sm *sm);
/* The SM's -l1d_bypass_profile profile (NULL when not profiling). */
struct ws_l1prof *ws_sm_l1prof(ws_sm *sm);
/* -l1d_access_trace: this kernel's L1D accesses so far (line address | 1 for
   a write), emptied when reset; 0 when not tracing. */
size_t ws_sm_l1trace(ws_sm *sm, const uint64_t **a, bool reset);
/* The longest reply latency (mf_lat_sum's unit) since the current kernel began. */
uint64_t ws_sm_max_mf_latency(const ws_sm *sm);
/* The longest latency from leaving the SM to the reply, of requests that
   hit (missed false) or missed in the L2 (the shared LLC's profiled
   latencies of the cache-aware WCET; time held in the SM for an access
   interval is not in it). */
uint64_t ws_sm_max_mf_latency_l2(const ws_sm *sm, bool missed);
/* Why the current kernel gets no more CTAs per SM than ws_sm_max_ctas: "threads", "regs",
   "smem", "cta_limit" (the CTA slots) or "grid" (too few CTAs for all SMs). */
const char *ws_sm_cta_limiter(const ws_sm *sm);
/* Warps resident and not finished (for the interval time series). */
unsigned ws_sm_active_warps(const ws_sm *sm);
/* Mean over the schedulers of the warps each lets issue now (a warp-limiting
   throttle policy's limit); false if the policy does not limit warps. */
bool ws_sm_warp_limit(const ws_sm *sm, double *mean);
/* Warps a throttle policy isolated / stalled now (CIAO); false if it keeps no such state. */
bool ws_sm_ciao_warps(const ws_sm *sm, unsigned *isolated, unsigned *stalled);
/* Warp slots of the SM. */
unsigned ws_sm_max_warps(const ws_sm *sm);

/* For policy controllers between cycles (src/policy/throttle, bypass): the
   L1D, and the state of scheduler s's throttle policy. */
struct ws_cache *ws_sm_l1d(ws_sm *sm);
void *ws_sm_throttle_state(ws_sm *sm, unsigned s);

#endif
