/* Private state of one SM, shared by the unit files of src/timing/sm/.
 * Not part of the sm.h contract. */
#ifndef WARPSIM_TIMING_SM_INTERNAL_H
#define WARPSIM_TIMING_SM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/sched/sched.h"
#include "policy/throttle/throttle.h"
#include "timing/mem/cache.h"
#include "timing/mem/coalesce.h"
#include "timing/mem/l1bypass.h"
#include "timing/sm/sm.h"

#define SM_PROGRAM_BASE 0xF0000000ull /* GPGPU-Sim's PROGRAM_MEM_START */
#define SM_INST_BYTES 8               /* PTX instructions are 8 bytes apart */
#define SM_IBUF_MAX 16             /* -warpsim_warp_buffer's upper bound */
#define SM_PARAM_BASE (WS_GLOBAL_HEAP_BASE - 0x100000ull) /* where kernel params live for L1C */
#define SM_LOCAL_BASE 0x100000000ull  /* timing-model home of local memory */
#define SM_RESP_FIFO WS_SM_RESP_FIFO /* -gpgpu_n_ldst_response_buffer_size (sm.h) */
#define SM_OUTQ_CAP 4                 /* requests staged towards the interconnect */
#define SM_RESBUS_RING 1024           /* > largest latency */
#define SM_MAX_SRC 12
#define SM_MAX_DST 6

/* Pipeline classes: which ID_OC / OC_EX register set and unit type. */
enum { SM_SP = 0, SM_SFU, SM_MEM, SM_DP, SM_INT, SM_NCLASS };
enum { SM_MAX_CARVEOUTS = 16 };

/* An instruction decoded once per kernel: pipeline class, latency, and the
 * registers the scoreboard and the register banks see. */
typedef struct sm_dec {
    uint8_t cls, ndst, nsrc, nrd;
    uint16_t lat, ii;
    uint16_t dst[SM_MAX_DST];  /* scoreboard ids written */
    uint16_t src[SM_MAX_SRC];  /* scoreboard ids read (incl. guard, address registers) */
    uint16_t bank[SM_MAX_SRC]; /* register-file reads: arch register numbers */
    bool is_mem, is_ctrl;
    bool is_membar;            /* membar, fence, cp.async.wait_group / wait_all */
    bool is_cpasync;           /* a cp.async copy (counted until its data is back) */
    bool sb_one;               /* every id in dst and src is below 64: ... */
    uint64_t sb_bits;          /* ... their bits, the scoreboard's first word to test */
    bool sb_two;               /* else every id in words sb_wa and sb_wb (the same word when
                                  one): their bits, a test of two ANDs (sm_sb_hit) */
    uint8_t sb_wa, sb_wb;
    uint64_t sb_ma, sb_mb;
} sm_dec;

/* One warp instruction in flight from issue to writeback. */
typedef struct sm_inst {
    struct sm_inst *next;      /* free list */
    const ws_inst *inst;
    uint64_t uid;              /* issue order */
    uint16_t warp;
    uint8_t cls;               /* SM_SP.. */
    uint8_t nrd;               /* register reads still to do (operand collector) */
    uint16_t lat, ii;
    uint32_t active;
    uint8_t nact;              /* lanes in active (counted once, at issue) */
    uint8_t ndst;
    uint16_t dst[SM_MAX_DST];  /* scoreboard ids */
    uint8_t nsrc;
    uint16_t src_bank[SM_MAX_SRC];
    /* memory */
    uint8_t space;             /* ws_space accessed */
    bool is_load, is_store, is_atomic, is_membar, in_dispatch, longop;
    bool cpasync;              /* a cp.async copy: counted in its warp's n_cpasync */
    uint32_t access_size;
    uint32_t pending;          /* accesses whose data has not come back */
    uint32_t smem_cycles;      /* shared-memory bank-conflict cycles left */
    uint64_t addr[WS_WARP_SIZE];
    struct sm_texlines *tex;   /* tex: its L1T blocks, from issue to the end of dispatch */
    bool ro_ticket;            /* warp reordering (reorder.c): ordered by the ticket below */
    uint32_t ro_e, ro_n;
    /* replay (replay.c): still held in its warp buffer entry; waiting to be
       reissued; passes made; accesses (txq indices) made; conflict groups
       served (shared); threads not through the memory stage (PAM) */
    bool rp_live, rp_ready;
    bool rp_hold;              /* -warpsim_hazard_mode retain: holds its entry, stalls */
    uint8_t rp_last;           /* the hazard of the last pass (SM_HZ_*; SM_HZ_N: none) */
    uint8_t rp_fail;           /* ... of this pass so far */
    uint16_t rp_pass, rp_ntx, rp_ndone;
    uint16_t rp_made, rp_out, rp_cursor; /* this pass: accesses made, not yet checked, next */
    uint32_t rp_groups, rp_pam;
    uint64_t rp_done[2];
    /* hazard prediction (hp.c): a credit held; this pass's prediction
       (0 hit, 1 miss, 2 none); it was known to miss; global instruction index */
    bool hp_credit, hp_known, hp_had_credit; /* ... and this pass's credited access failed */
    uint8_t hp_pred;
    uint32_t hp_pc;
    uint64_t hp_key; /* strict credits: the MSHR address its credit keeps a slot on */
} sm_inst;

typedef struct sm_ibuf {
    const ws_inst *inst;       /* NULL with valid: past the end of the function */
    const sm_dec *dec;
    uint32_t func, pc;
    bool valid;
} sm_ibuf;

typedef struct sm_warp {
    bool valid;                /* slot holds a warp of a resident CTA */
    bool func_done;            /* all threads exited (functionally) */
    bool imiss;                /* instruction miss outstanding */
    bool membar;
    uint8_t cta;               /* CTA slot */
    uint16_t wid;              /* warp index within the CTA */
    uint64_t age;              /* dynamic warp id */
    sm_ibuf ib[SM_IBUF_MAX];   /* ring of -warpsim_warp_buffer entries */
    uint8_t ib_next, ib_n;     /* head, entries filled from the head */
    uint8_t ib_depth;
    /* replay (replay.c): incomplete replayable instructions in issue order,
       each holding its warp buffer entry; how many wait to be reissued */
    uint32_t iss_seq;          /* instructions issued (first issues) */
    uint8_t rp_n, rp_ready;
    struct { sm_inst *in; uint32_t seq; } rp[SM_IBUF_MAX];
    struct sm_inst *hp_gated;  /* executed, held at the issue point by hazard prediction */
    uint32_t fetch_func, fetch_pc;
    uint32_t n_inflight;       /* issued, not yet completed */
    uint32_t stores_out;       /* store acknowledgements outstanding (sectors) */
    uint32_t n_atomic;
    uint32_t n_cpasync;        /* cp.async copies not yet complete (cp.async.wait_* waits) */
    uint32_t n_reserved;       /* scoreboard entries */
    uint64_t *sb;              /* reserved registers (bitmap) */
    uint64_t *sb_long;         /* ... of which written by global/local loads */
    uint64_t last_issue;
    uint64_t mem_cycle;        /* 1 + the cycle of its last memory instruction's issue */
    /* the functional next (func, pc), cached: it changes only when this warp
       executes an instruction (issue asks for it every cycle) */
    bool nx_valid, nx_alive;
    uint32_t nx_func, nx_pc;
} sm_warp;

typedef struct sm_cta {
    bool used;
    ws_cta *cta;
    uint32_t first_warp, nwarps, warps_left, nthreads;
    uint32_t state_seen;       /* cta->state_changes the views reflect */
    ws_cta *spare;             /* the slot's last finished CTA, kept for the next (ws_cta_recycle) */
} sm_cta;

/* A memory request we sent whose reply (possibly in sector pieces) we await. */
typedef struct sm_pend {
    struct sm_pend *next;
    uint8_t cache;             /* SM_C_* */
    uint8_t want, got;         /* sectors */
    uint8_t space;             /* writes: ws_space */
    uint16_t warp;
    uint32_t size, lanes;      /* writes */
    uint64_t block;            /* line (reads) or write address */
    sm_inst *in;               /* bypass loads/atomics: the instruction */
    uint8_t bytes[16];         /* writes: byte mask */
} sm_pend;
enum { SM_C_L1I = 0, SM_C_L1D, SM_C_L1C, SM_C_NONE, SM_C_L1T, SM_C_SMC };

/* A shared-memory load in the shared-memory pipeline, with the cycle from which it
   is at the head (its entry cycle + smem_latency; ldst_queue.h). */
typedef struct sm_smem_ent {
    sm_inst *in;
    uint64_t ready;
} sm_smem_ent;

/* One L1D access waiting in the L1 latency pipeline. */
typedef struct sm_l1acc {
    sm_inst *in;               /* loads only: a store's instruction leaves before its accesses */
    uint16_t warp;
    uint8_t space;
    bool write;
    uint64_t addr;
    uint32_t size;
    uint8_t sectors;
    uint8_t bytes[16];
    uint32_t lanes;
    uint8_t tx;                /* replay: which access of its instruction (< 128) */
    bool valid;
    uint64_t ready;            /* in the L1 latency queue: the cycle from which it is at the
                                  head (its entry cycle + l1_lat; ldst_queue.h) */
} sm_l1acc;

/* The memory request prioritization buffer (mrpb.c, -l1d_reorder mrpb):
   per-signature FIFO queues of L1D requests sharing `size` entries. */
typedef struct sm_mrpb {
    unsigned size, nq, n;      /* entries, queues, requests held */
    sm_l1acc *ent;             /* [size] */
    uint16_t *next;            /* [size]: next entry of its queue, or of the free list */
    uint16_t *head, *tail;     /* [nq] (UINT16_MAX: empty) */
    uint16_t free;
    uint64_t *busy;            /* bitmap of non-empty queues */
} sm_mrpb;

/* Collector unit. */
typedef struct sm_cu {
    sm_inst *in;
    uint64_t granted;          /* the collector step (oc_stamp) that last gave it a read */
    uint8_t set;               /* class it belongs to (SM_NCLASS = general) */
    uint8_t idx;               /* its index in the set (its bit in cu_occ, cu_rdy) */
    uint8_t cls;               /* in's class */
    uint8_t sbit;              /* sub-core SMs: 1 << in's scheduler */
} sm_cu;

/* A queued register read: the unit it is for (a pointer, not an index: the arbiter then
   needs no address arithmetic for it). */
typedef struct sm_rdreq { sm_cu *cu; } sm_rdreq;

/* A register bank's queue of reads: a FIFO ring of bq_cap entries (a power of two: the
   index wraps with an AND) from head, in one allocation with its head and length (sm.c
   frees bankq[b]). The collector's loops then need one base pointer, and a store to head
   or len cannot alias the SM's fields, which the compiler would otherwise load again after
   it (the bank count, bq_cap). */
typedef struct sm_bankq {
    unsigned head, len;
    sm_rdreq ring[];
} sm_bankq;

/* Pipelined function unit (SP, SFU, DP, INT). */
typedef struct sm_fu {
    uint8_t cls;
    uint8_t sched;             /* sub-core SMs: the scheduler whose OC_EX slot it takes */
    sm_inst *disp;             /* dispatch register */
    uint64_t disp_until;       /* cycle the dispatch register frees */
    unsigned nfl, capfl;       /* results in flight, at most capfl */
    /* in flight: a ring (fl_mask + 1 entries, a power of two, from fl_head) in order of
       completion (units.c: the writeback takes from the head, the collision test looks
       from the tail) */
    unsigned fl_head, fl_mask;
    sm_inst **fl;
    uint64_t *done_at;         /* issue cycle + latency (unique in a unit) */
    uint64_t unused;           /* (64 bytes in all: &sm->fu[u] is a shift) */
} sm_fu;

/* Register set between stages (ID_OC_x, OC_EX_x). */
typedef struct sm_regset {
    unsigned width, n;
    sm_inst *slot[8];
} sm_regset;

/* Issue stage (issue.c): one scheduler's walk state, kept together so that a walk
   loads it from one place rather than from an array per field. Bit i of the masks is
   the scheduler's view i (views up to 64). Aligned to 256 bytes, which makes its size
   256: `&sm->ss[s]`, computed at every memo test, walk and view mark, is then a shift
   rather than a multiplication (issue.c allocates the array aligned). */
typedef struct sm_sched_st {
    uint64_t memo_gen __attribute__((aligned(256))); /* gen of its memo (0: none) */
    uint64_t *memo_stall;      /* the stall counter its memo bumped */
    uint64_t vdirty;           /* views to look at again */
    uint64_t pelig, pbar;      /* pwait 0, pwait 2 */
    uint64_t pempty, psb;      /* wblk EMPTY, SCOREBOARD, as the walk set them (cleared with
                                  the view's dirty bit before the next walk) */
    uint64_t rk_cand, rk_rcand; /* the walk's last candidates (views) and their ranks' bits */
    uint64_t rk_moved;         /* views whose age changed since rk_by was sorted (rank_sort) */
    unsigned order_k;          /* its policy's last order (sorder) has this many warps ... */
    bool order_ok;             /* ... and is still what the policy would say */
    unsigned n;                /* its views (warps w with w % n_sched == s) */
    const struct ws_sched_policy *pol; /* sched[s]'s policy and state */
    void *pst;
    int *plast;                /* the policy's last issued index (ws_sched_policy.last), or NULL */
    struct ws_sched_warp *pv;  /* its parts of pview, pwait, sorder, rk_by, rk_rank */
    uint8_t *swait;
    uint16_t *order, *rk_by, *rk_rank;
    uint8_t idoc_n[SM_NCLASS]; /* sub-core SMs: its instructions in each ID_OC register (the
                                  room test is then one load: sm_idoc_in, sm_idoc_out) */
} sm_sched_st;

struct ws_sm {
    /* first: sm.h's inline ws_sm_in_ready reads its length (the GPU asks for every reply) */
    ws_mreq_fifo resp;         /* data replies waiting for the LD/ST unit */
    ws_sm_env env;
    const ws_config *cfg;
    ws_sm_stats st;
    bool progressed;
    bool has_fault;
    ws_fault fault;
    uint64_t now;

    ws_wlog *wlog;             /* this cycle's global stores and atomics (ws_sm_commit) */

    /* kernel */
    ws_launch_desc launch;
    bool have_kernel;
    ws_kernel_res res;
    const ws_module *mod;
    uint32_t *func_base;       /* per function: first instruction's global index */
    sm_dec **dec;              /* per function, per pc */
    uint32_t ndec;
    uint32_t sb_preds_at;      /* scoreboard id of predicate 0 */
    uint32_t sb_words;
    uint32_t max_cta, warps_per_cta, padded_threads;
    const char *cta_limiter;   /* why max_cta is what it is (ws_sm_cta_limiter) */
    uint64_t mf_lat_max;       /* the longest reply latency this kernel */
    uint64_t mf_lat_max_l2[2]; /* the longest from leaving the SM, of replies that hit [0] /
                                  missed [1] in the L2 */
    uint32_t local_threads;    /* max concurrent threads GPU-wide (local-memory map) */
    uint32_t n_sms;

    /* warps and CTAs */
    uint32_t max_threads, max_warps, max_ctas;
    sm_warp *warps;
    uint64_t *sb_store;
    sm_cta *ctas;
    unsigned n_active_ctas, n_active_threads;
    unsigned n_live_warps;     /* warps of resident CTAs not finished (occupancy) */
    uint64_t next_age, next_uid;

    /* instruction pool */
    sm_inst *free_inst;
    void **chunks; unsigned nchunks;
    sm_pend *free_pend;
    /* the last chunk's records not yet on a free list (sm.c's carve: the lists are
       filled a few at a time, so the records a run never uses stay untouched) */
    void *inst_carve, *pend_carve;
    unsigned inst_left, pend_left;
    unsigned n_pend;

    /* fetch/decode */
    ws_cache *l1i;
    bool fb_valid;             /* fetch buffer */
    uint32_t fb_warp, fb_func, fb_pc;
    unsigned last_fetched;

    /* schedulers */
    unsigned n_sched, sched_prio;
    ws_sched *sched;
    ws_throttle *throttle;     /* per scheduler (policy family "throttle") */
    bool throttling;           /* a policy other than "none" */
    ws_throttle_sm throttle_sm; /* the policy's per-SM part (CCWS), if it has one */
    uint8_t (*route)(const void *sm, uint16_t warp); /* its l1d_route, with a smem cache */
    uint64_t throttle_version; /* its sm_version when last seen */
    struct sm_smc *smc;        /* shared-memory cache of isolated warps (CIAO; smc.c), or NULL */
    ws_sched_warp *sview;      /* per scheduler view scratch */
    uint16_t *sorder;          /* per scheduler: its policy's last order ... */
    /* each scheduler's views of its warps, kept between cycles (issue.c):
       [s * view_per + warp / n_sched] */
    unsigned view_per;
    ws_sched_warp *pview;
    uint8_t *pwait;            /* waiting or not valid (1), at a barrier (2) */
    sm_sched_st *ss;           /* per scheduler: its walk's own state (issue.c) */
    bool views_add;            /* the SM adds to the views (longop, next_load, throttling) */
    unsigned sched_full;       /* schedulers below it have view_per warps, the others one fewer */
    uint32_t vsame;            /* bit s: scheduler s's kept views hold the bytes its policy
                                  was last asked with (ws_sched_policy.views_same) */
    uint8_t *vsched, *vbit;    /* per warp slot: its scheduler, its bit there */
    uint8_t *wblk;             /* per warp slot: why it could not issue (SM_BLK_*), kept
                                  until the warp changes (sm_view_dirty, sm_view_unblock; a
                                  release the walk would stop at again keeps it: scoreboard.c;
                                  an issue that empties the ibuffer sets EMPTY: issue.c) */
    bool blk_ok;               /* wblk may be used (no throttling; -warpsim_skip_idle) */
    bool view_all;             /* look at all of them every time */
    unsigned max_issue;
    /* Skipping repeated work (docs/timing.md, speed): `gen` changes with
       every event that can change what the schedulers or fetch see (an
       issue, a scoreboard release, an ibuffer fill or flush, an ID_OC slot
       freed, a warp starting or finishing, a fill for a missed fetch). A
       scheduler that issued nothing and changed nothing at generation g
       does the same, and counts the same stall, while gen is still g; fetch
       likewise finds no warp to fetch. */
    uint64_t gen;
    /* (each scheduler's memo: sm_sched_st) */
    uint64_t fetchable;        /* warps (slots < 64) that could fetch (fetch.c) */
    bool memo_ok;              /* the policies allow it (their `stable` flags) */
    uint64_t sleep_until;      /* cycles before this only count (sm.c, sleeping) */
    bool sleep_stuck;          /* asleep with the LD/ST unit stuck (sm_ldst_stuck_cycle) */
    bool stuck_blocked;        /* and the operand collector counting a blocked cycle */
    bool sleep_shift;          /* asleep while the L1 latency queue moves up (sm_ldst_moving) */
    bool stuck_recheck;        /* a reply was taken in a stuck sleep: the next sleeping cycle asks
                                  the L1D whether its refusal still holds (sm.c's busy_cycle) */
    /* the SM cycle's speed, eighth round (sm.c; ldst.c: sm_ldst_reply_quiet) */
    uint64_t sleep_replies;    /* replies taken asleep (tests: the path ran) */
    uint8_t after_kept;        /* ws_sm_after_cycle's FAULTED, CTA_ROOM and HAS_OUT, kept where
                                  they change (sm.c: one load for three flags a cycle) */

    /* pipeline registers */
    sm_regset id_oc[SM_NCLASS], oc_ex[SM_NCLASS];
    unsigned idoc_set;         /* bit k: ID_OC k holds an instruction (sm_idoc_in, sm_idoc_out:
                                  the collector and the SM's sleep test read it, not the counts) */
    unsigned oc_ex_set;        /* bit k: OC_EX k holds an instruction (the collector sets it,
                                  units.c clears it: the units and the sleep test read it) */
    bool has_dp_pipe, has_int_pipe;

    /* operand collector */
    unsigned ncu;
    sm_cu *cu;
    unsigned cu_base[SM_NCLASS + 1], cu_n[SM_NCLASS + 1];
    sm_cu *cu_set[SM_NCLASS + 1]; /* per set, its first unit (&cu[cu_base[k]]) */
    uint64_t cu_share[SM_NCLASS + 1][8]; /* sub-core SMs: per set, scheduler s's units */
    unsigned cu_used[SM_NCLASS + 1]; /* units holding an instruction, per set */
    unsigned oc_ncls;          /* classes below it can hold instructions (DP, INT: with units) */
    uint64_t cu_all[SM_NCLASS + 1]; /* per set, bit i: its unit i (i < cu_n) */
    uint64_t cu_occ[SM_NCLASS + 1]; /* per set, bit i: its unit i holds an instruction */
    uint64_t cu_rdy[SM_NCLASS + 1]; /* ... whose operands are all read (dispatch looks only there) */
    unsigned in_ports[SM_NCLASS], out_ports[SM_NCLASS];
    unsigned disp_rr[SM_NCLASS + 1];
    unsigned nbanks;
    sm_bankq **bankq;          /* per bank its queue of read requests */
    unsigned bq_cap;
    unsigned bq_total;         /* reads queued at all banks */
    uint64_t bank_wmask;       /* banks written back this cycle (bit b: bank b; nbanks <= 64) */
    uint64_t bq_mask;          /* banks whose read queue is not empty */
    /* (opcoll.c keeps these so a cycle looks only at what holds work) */
    unsigned cu_used_all;      /* sum of cu_used over the sets */
    unsigned cu_rdy_sets;      /* bit s: cu_rdy[s] is not 0 */
    uint64_t oc_stamp;         /* collector steps with a bank read queued (sm_cu.granted) */
    unsigned oc_ex_scheds[SM_NCLASS]; /* sub-core SMs: bit s, OC_EX k holds scheduler s's
                                  instruction (the collector adds, units.c takes) */
    void (*oc_busy)(ws_sm *sm); /* the busy cycle of this organisation (opcoll.c): the common
                                  collector's, compiled apart, or sm_oc_busy_cycle (every one:
                                  tests compare the common one with it) */
    bool bank_use_warp;        /* -gpgpu_reg_bank_use_warp_id */
    unsigned wr_bank_and;      /* nbanks - 1 when sm_reg_bank is an AND with it (no sub-cores,
                                  a power-of-two count above 1), else 0 (sm_oc_write) */
    unsigned arb_prio;
    unsigned oc_steps;         /* collector steps per cycle (-gpgpu_reg_file_port_throughput) */
    bool oc_generic;           /* GPGPU-Sim 4's generic collector: general units and ports only */
    unsigned gen_in_ports, gen_out_ports;
    bool sub_core;             /* -gpgpu_sub_core_model: per-scheduler slots, units, banks */
    /* unified L1D/shared array (carveout.c): carve-outs in KB, the dl1 geometry's ways */
    uint32_t carve_kb[SM_MAX_CARVEOUTS];
    unsigned carve_n, carve_ways;
    uint64_t carve_way_bytes;
    unsigned banks_per_sched;
    unsigned sub_bank_and;     /* banks_per_sched - 1 when a power of two above 1, else 0 */

    /* function units */
    unsigned nfu;
    sm_fu *fu;
    uint64_t wb_due;           /* the earliest cycle a unit's result is written back */
    uint64_t fu_busy;          /* bit u: unit u has results in flight */
    uint64_t fu_of[SM_NCLASS][8]; /* sub-core SMs: the units of a class serving a
                                  scheduler, bit u for unit u */
    uint8_t resbus[SM_RESBUS_RING];
    unsigned n_resbus;

    /* latencies */
    int64_t lat_int[6], ii_int[6], lat_fp[5], ii_fp[5], lat_dp[5], ii_dp[5];

    /* LD/ST */
    ws_cache *l1d, *l1c;
    struct sm_tex *tex;        /* texture path (tex.c) */
    bool tex_live;             /* a texture instruction has issued here: before, the L1T has
                                  no miss, no fill and nothing ready (its per-cycle checks skip) */
    sm_inst *ld_disp;
    ws_mem_txn *txq;           /* transactions of ld_disp (ascending) */
    unsigned ntx, txpos;
    bool txq_built;
    bool ld_byp;               /* ld_disp bypasses the L1D (ldst.c; read only without statPCAL
                                  routing, whose answer may change while it waits) */
    sm_smem_ent *smem_pipe;    /* a FIFO ring of at most smem_latency loads (ldst_queue.h:
                                  sm_smem_entry(sm, 0) is the oldest) */
    unsigned smem_lat;
    unsigned smem_n;           /* loads in smem_pipe */
    uint32_t smem_base;        /* the ring's oldest entry */
    sm_l1acc *l1q;             /* per bank b: a FIFO ring of at most l1_latency entries from
                                  l1q[b * l1_lat] (ldst_queue.h: sm_l1q_entry(sm, b, 0) is the
                                  oldest) */
    uint32_t *l1q_base;        /* per bank: the ring's oldest entry */
    unsigned l1_lat;
    unsigned l1_banks;         /* -gpgpu_l1_banks (1: one queue) */
    unsigned l1q_n;            /* valid entries in l1q (busy checks read this, not the queues) */
    uint32_t *l1q_cnt;         /* per bank: its entries */
    sm_mrpb *mrpb;             /* requests waiting to enter l1q (NULL: -l1d_reorder none) */
    bool ldst_extras;          /* smc, mrpb or ro is set (set where they are; fixed after
                                  set-up): ldst_idle reads one flag, not three pointers */
    sm_inst *next_global;      /* bypass reply waiting for writeback */
    sm_inst *next_wb;
    unsigned wb_arb;
    ws_mreq_fifo outq;

    /* profile-based bypassing (l1bypass.h): pass 1's profile, pass 2's flags
       per transaction of ld_disp (both NULL when off) */
    struct ws_l1prof *l1prof;
    bool l1prof_sectors;       /* -l1d_bypass_unit sectors */
    uint8_t *txbyp;            /* [WS_MAX_TRANSACTIONS]: 1 = skips the L1D */
    struct sm_ro *ro;          /* warp-based load/store reordering (reorder.c), or NULL */
    struct sm_l1trace *l1trace; /* -l1d_access_trace: this kernel's L1D accesses, or NULL */
    bool replay;               /* -warpsim_hazard_mode replay */
    bool retain;               /* -warpsim_hazard_mode retain */
    bool owes;                 /* replay or hazard prediction: warps may owe an issue */
    struct sm_hp *hp;          /* hazard prediction (hp.c); NULL: none */
    bool hp_check;             /* -warpsim_hp_check */
    bool hp_cycle;             /* sm_hp_cycle each cycle (check or signal delay) */
    bool mshr_idle;            /* -warpsim_mshr_idle_stat */
    /* The issue walk's own copy of its policy's order (issue.c), for policies that give its
       shape (ws_sched_policy.shape): per scheduler, its views by (age, index) and each
       view's place there (in sorder's allocation, freed with it). */
    uint16_t *rk_by, *rk_rank;
    uint32_t rk_stale;         /* bit s: an age in scheduler s's views changed since sorted */
    bool rk_ok;                /* the walk follows the shape (stable policy, kept views, no
                                  throttle; not with replay or hazard prediction) */
    bool iss_lean;             /* rk_ok, no replay or hazard prediction, no per-SM throttle
                                  part: sm_issue_cycle's lean loop (issue.c) */

    /* stats of stalls in the LD/ST unit */
    uint64_t l1_bank_conflicts, ldst_stalls;

    /* per-kernel set-up kept across launches (sm.c): the image and module whose
       instructions func_base, dec and sb_store were made for */
    const ws_image *dec_img;
    uint64_t dec_stamp;
    const ws_module *dec_mod;
    const ws_gmem *dec_gmem;
};

/* Lowest and highest of the active lanes' addresses (mask nonzero); a full
   warp in a loop without branches. */
static inline void sm_lane_bounds(const uint64_t *addr, uint32_t mask, uint64_t *lo_out, uint64_t *hi_out) {
    uint64_t lo = UINT64_MAX, hi = 0;
    if (mask == ~0u) {
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
            lo = addr[l] < lo ? addr[l] : lo;
            hi = addr[l] > hi ? addr[l] : hi;
        }
    } else {
        for (uint32_t r = mask; r; r &= r - 1) {
            uint64_t a = addr[__builtin_ctz(r)];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
        }
    }
    *lo_out = lo;
    *hi_out = hi;
}

/* A warp's scheduler view must be looked at again: anything warp_waiting,
   the view or the issue checks read changed (its ibuffer, scoreboard,
   state; issue.c). */
enum { SM_BLK_NONE = 0, SM_BLK_EMPTY, SM_BLK_SCOREBOARD, SM_BLK_PIPE /* + class: ID_OC full */ };
static inline void sm_view_dirty(ws_sm *sm, unsigned wi) {
    sm->ss[sm->vsched[wi]].vdirty |= 1ull << sm->vbit[wi];
    sm->wblk[wi] = SM_BLK_NONE;
}
/* Only what warp wi's issue checks read changed (an ibuffer fill, a scoreboard release),
   not what its view shows (valid, age, waiting), unless it waits for a memory barrier or
   an atomic (which such an event may end) or may owe an issue: then as sm_view_dirty,
   with a new generation. Else its kept stop goes, the view is not looked at again, and
   only its own scheduler's walk can come out differently: the other schedulers' memos
   (issue.c) hold. */
static inline void sm_view_unblock(ws_sm *sm, unsigned wi, bool atomic) {
    const sm_warp *w = &sm->warps[wi];
    if (w->membar || w->n_atomic || atomic || sm->owes) {
        sm->gen++;
        sm_view_dirty(sm, wi);
        return;
    }
    uint64_t bit = ~(1ull << sm->vbit[wi]);
    unsigned s = sm->vsched[wi];
    sm->ss[s].pempty &= bit;
    sm->ss[s].psb &= bit;
    sm->wblk[wi] = SM_BLK_NONE;
    sm->ss[s].memo_gen = 0; /* (gen starts at 1) */
}

/* reorder.c: warp-based load/store reordering (-l1d_warp_reorder) */
typedef struct sm_ro sm_ro;
int sm_ro_init(ws_sm *sm, char *err, size_t errlen);
void sm_ro_destroy(ws_sm *sm);
void sm_ro_kernel_start(ws_sm *sm);
void sm_ro_cta_start(ws_sm *sm, unsigned k, const uint32_t ctaid[3]);
void sm_ro_cta_done(ws_sm *sm, unsigned k);
bool sm_ro_is_ticketed(const sm_inst *in);
bool sm_ro_may_issue(const ws_sm *sm, unsigned wi, const ws_inst *inst);
void sm_ro_issued(ws_sm *sm, unsigned wi, sm_inst *in);
void sm_ro_barrier(ws_sm *sm, unsigned wi);
void sm_ro_distribute(ws_sm *sm, sm_inst *in);
sm_inst *sm_ro_select(ws_sm *sm);
bool sm_ro_busy(const ws_sm *sm);

/* l1trace.c: -l1d_access_trace */
int sm_l1trace_init(ws_sm *sm, char *err, size_t errlen);
void sm_l1trace_destroy(ws_sm *sm);
void sm_l1trace_push(ws_sm *sm, uint64_t addr, bool write);

/* sm.c */
/* Refills the empty free list of instruction records from the SM's chunks. */
sm_inst *sm_inst_refill(ws_sm *sm);
/* Inline: every issue takes a record and every instruction gives it back. */
static inline sm_inst *sm_inst_alloc(ws_sm *sm) {
    sm_inst *in = sm->free_inst;
    if (__builtin_expect(!in, 0)) in = sm_inst_refill(sm);
    sm->free_inst = in->next;
    in->next = NULL;
    return in;
}
static inline void sm_inst_free(ws_sm *sm, sm_inst *in) {
    in->next = sm->free_inst;
    sm->free_inst = in;
}
sm_pend *sm_pend_alloc(ws_sm *sm);
void sm_pend_free(ws_sm *sm, sm_pend *p);
void sm_warp_try_finish(ws_sm *sm, unsigned w);
void sm_set_fault(ws_sm *sm, const ws_fault *f);
/* An instruction left the pipeline: its warp may finish. */
static inline void sm_inst_complete(ws_sm *sm, sm_inst *in) {
    unsigned wi = in->warp;
    sm_warp *w = &sm->warps[wi];
    w->n_inflight--;
    sm->gen++;
    sm_inst_free(sm, in);
    sm->progressed = true;
    if (w->func_done) sm_warp_try_finish(sm, wi);
}
bool sm_outq_full(const ws_sm *sm);
void sm_outq_push(ws_sm *sm, ws_mreq *r);
uint8_t sm_sectors_of(uint64_t addr, uint32_t size);
void sm_decode_inst(const ws_sm *sm, const ws_inst *in, const uint16_t *names, uint32_t nregs,
                    sm_dec *d);
ws_mreq *sm_new_req(ws_sm *sm, uint8_t access, uint64_t addr, uint32_t size, uint16_t warp);

/* fetch.c */
int sm_fetch_init(ws_sm *sm, char *err, size_t errlen);
void sm_fetch_step(ws_sm *sm);
void sm_fetch_drain(ws_sm *sm); /* one waiting L1I miss towards memory, if there is room */
void sm_decode_fill(ws_sm *sm);
/* A decode round: the last fetch (if any) into its warp's ibuffer. A fetch round: most
   fetch nothing (the buffer is taken, or no fill came back and no warp has room) and only
   a miss may go out; inline, as the SM calls both up to -gpgpu_inst_fetch_throughput
   times a cycle. */
static inline void sm_decode_cycle(ws_sm *sm) {
    if (sm->fb_valid) sm_decode_fill(sm);
}
/* no L1I fill is ready and no warp may start a fetch (sm.c's fetch_round_idle asks it too) */
static inline bool sm_fetch_none_to_start(const ws_sm *sm) {
    return !ws_cache_has_ready(sm->l1i) &&
           (!sm->n_active_ctas || (sm->max_warps <= 64 && !sm->fetchable));
}
static inline void sm_fetch_cycle(ws_sm *sm) {
    if (sm->fb_valid || sm_fetch_none_to_start(sm)) {
        if (ws_cache_has_miss(sm->l1i)) sm_fetch_drain(sm);
        return;
    }
    sm_fetch_step(sm);
}
void sm_ibuf_flush(sm_warp *w); /* callers then sm_fetch_mark the warp */
/* the head issued */
static inline void sm_ibuf_pop(sm_warp *w) {
    w->ib[w->ib_next].valid = false;
    w->ib_next = (uint8_t)(w->ib_next + 1 == w->ib_depth ? 0 : w->ib_next + 1);
    w->ib_n--;
}
void sm_fetch_reply(ws_sm *sm, uint64_t block);
void sm_fetch_mark(ws_sm *sm, unsigned wi);
int sm_fetch_pick(const ws_sm *sm);

/* scoreboard.c */
bool sm_sb_collides(const sm_warp *w, const sm_dec *d);
/* sm_sb_collides with its common answers inline: nothing reserved, or every id in one or
   two words of the scoreboard (sm_dec.sb_one, sb_two) */
static inline bool sm_sb_hit(const sm_warp *w, const sm_dec *d) {
    if (!w->n_reserved) return false;
    if (d->sb_one) return (w->sb[0] & d->sb_bits) != 0;
    if (d->sb_two) return ((w->sb[d->sb_wa] & d->sb_ma) | (w->sb[d->sb_wb] & d->sb_mb)) != 0;
    return sm_sb_collides(w, d);
}
bool sm_sb_longop_dep(const sm_warp *w, const sm_dec *d);
/* At issue (inline: issue_one is its one caller). */
static inline void sm_sb_reserve(ws_sm *sm, sm_warp *w, const sm_inst *in, bool longop) {
    for (unsigned i = 0; i < in->ndst; i++) {
        unsigned r = in->dst[i];
        uint64_t m = 1ull << (r & 63);
        if (w->sb[r >> 6] & m) continue; /* the same register twice (vector) */
        w->sb[r >> 6] |= m;
        if (longop) w->sb_long[r >> 6] |= m;
        w->n_reserved++;
    }
}

/* At writeback (inline: the collector's and the LD/ST unit's writebacks). `atomic`:
   in->is_atomic, which the units' writeback knows is false (only memory instructions are). */
static inline void sm_sb_release_t(ws_sm *sm, sm_warp *w, const sm_inst *in, bool atomic) {
    for (unsigned i = 0; i < in->ndst; i++) {
        unsigned r = in->dst[i];
        uint64_t m = 1ull << (r & 63);
        if (!(w->sb[r >> 6] & m)) continue;
        w->sb[r >> 6] &= ~m;
        w->sb_long[r >> 6] &= ~m;
        w->n_reserved--;
    }
    if (!sm) return;
    /* A warp the walk stopped (its head unchanged since: a fill, an issue or a flush ends
       the stop) would stop there again after a release unless the stop was the scoreboard
       and the head no longer collides: an empty ibuffer stays empty, and a head that
       passed the scoreboard still does and waits for its ID_OC register as before. Then
       the stop and its scheduler's memo hold. Not when the release may end a wait (memory
       barrier, atomic) or owe an issue, nor when the views carry the scoreboard's long
       bits (two-level, throttles): those take sm_view_unblock as before. */
    unsigned wi = in->warp;
    uint8_t blk = sm->wblk[wi];
    if (blk && !sm->views_add && !atomic && !w->membar && !w->n_atomic && !sm->owes &&
        (blk != SM_BLK_SCOREBOARD || sm_sb_hit(w, w->ib[w->ib_next].dec)))
        return;
    sm_view_unblock(sm, wi, atomic); /* a memory barrier may end; atomics finish here too */
}
static inline void sm_sb_release(ws_sm *sm, sm_warp *w, const sm_inst *in) {
    sm_sb_release_t(sm, w, in, in->is_atomic);
}

/* issue.c */
int sm_issue_init(ws_sm *sm, char *err, size_t errlen);
void sm_issue_cycle(ws_sm *sm);

/* opcoll.c */
/* May scheduler s put an instruction into r? Sub-core SMs give each
   scheduler one slot of every pipeline register (sm_oc_init checks the
   widths); otherwise any free slot will do. */
static inline bool sm_regset_free_for(const ws_sm *sm, const sm_regset *r, unsigned s) {
    if (!sm->sub_core) return r->n < r->width;
    for (unsigned i = 0; i < r->n; i++)
        if (sm->vsched[r->slot[i]->warp] == s) return false;
    return true;
}
/* An instruction of warp in->warp went into / out of ID_OC register k (the issue stage's
   per-scheduler counts on sub-core SMs: sm_sched_st.idoc_n). */
static inline void sm_idoc_in(ws_sm *sm, const sm_inst *in, unsigned k) {
    sm->idoc_set |= 1u << k;
    if (sm->sub_core) sm->ss[sm->vsched[in->warp]].idoc_n[k]++;
}
/* (called before the instruction leaves the register: the last one empties it) */
static inline void sm_idoc_out(ws_sm *sm, const sm_inst *in, unsigned k) {
    if (sm->id_oc[k].n == 1) sm->idoc_set &= ~(1u << k);
    if (sm->sub_core) sm->ss[sm->vsched[in->warp]].idoc_n[k]--;
}
int sm_oc_init(ws_sm *sm, char *err, size_t errlen);
/* carveout.c: -gpgpu_adaptive_cache_config */
int sm_carveout_parse(const char *spec, uint32_t *kb, unsigned max, unsigned *n, char *err,
                      size_t errlen);
uint32_t sm_carveout_ways(uint32_t ways, uint64_t l1d_bytes, uint32_t unified_kb, const uint32_t *kb,
                          unsigned n, uint64_t shmem_bytes);
int sm_carveout_init(ws_sm *sm, char *err, size_t errlen);
void sm_carveout_kernel_start(ws_sm *sm);
int sm_oc_spec_parse(const char *spec, int64_t units[SM_NCLASS + 1], char *err, size_t errlen);
void sm_oc_busy_cycle(ws_sm *sm); /* (every organisation; sm->oc_busy) */
/* The collector's cycle. With nothing in ID_OC, in a collector unit or in a bank queue
   its steps would only rotate the bank priority (once per step) and clear the write
   marks (inline: a quarter of a memory-bound program's full SM cycles). (A queued read's
   unit holds its instruction until the read is served: with no unit held, bq_total is 0.) */
static inline void sm_oc_cycle(ws_sm *sm) {
    if (!sm->idoc_set && !sm->cu_used_all) {
        unsigned a = sm->arb_prio + sm->oc_steps;
        while (a >= sm->nbanks) a -= sm->nbanks;
        sm->arb_prio = a;
        sm->bank_wmask = 0;
        return;
    }
    sm->oc_busy(sm);
}
/* The bank of register arch of a warp: (arch [+ warp]) % banks, within the
   scheduler's own banks on sub-core SMs. */
static inline unsigned sm_reg_bank(const ws_sm *sm, unsigned arch, unsigned warp) {
    unsigned r = arch + (sm->bank_use_warp ? warp : 0);
    if (sm->sub_core) /* the scheduler's own banks */
        return r % sm->banks_per_sched + sm->vsched[warp] * sm->banks_per_sched;
    return sm->nbanks & (sm->nbanks - 1) ? r % sm->nbanks : r & (sm->nbanks - 1);
}
/* A writeback uses the banks of the registers it writes this cycle (inline: the
   units' and the LD/ST unit's writebacks call it for every instruction). */
static inline void sm_oc_write(ws_sm *sm, const sm_inst *in) {
    unsigned n = in->ndst, P = sm->sb_preds_at, mask = sm->wr_bank_and;
    sm->st.rf_writes += (uint64_t)n * in->nact;
    /* (the banks gathered in a local: a store through the SM each time would make the
       compiler reload the fields the bank mapping reads) */
    uint64_t m = 0;
    if (mask) { /* sm_reg_bank, with a power-of-two bank count (no sub-cores) */
        unsigned off = sm->bank_use_warp ? in->warp : 0;
        for (unsigned i = 0; i < n; i++) {
            unsigned id = in->dst[i];
            m |= 1ull << (((id >= P ? id - P : id) + off) & mask);
        }
    } else
        for (unsigned i = 0; i < n; i++) {
            unsigned id = in->dst[i];
            m |= 1ull << sm_reg_bank(sm, id >= P ? id - P : id, in->warp);
        }
    sm->bank_wmask |= m;
}
/* (inline: the issue and operand-collector stages ask it several times a cycle) */
static inline bool sm_regset_free(const sm_regset *r) { return r->n < r->width; }
/* (inline: issue, the collector and the units move an instruction through them
   every cycle) */
static inline void sm_regset_push(sm_regset *r, sm_inst *in) { r->slot[r->n++] = in; }
static inline sm_inst *sm_regset_oldest(sm_regset *r, unsigned *idx) {
    unsigned b = 0;
    for (unsigned i = 1; i < r->n; i++)
        if (r->slot[i]->uid < r->slot[b]->uid) b = i;
    *idx = b;
    return r->slot[b];
}
/* (the last slot fills the hole: every reader of a register looks for the oldest by uid or
   tests all slots, so their order does not count) */
static inline void sm_regset_remove(sm_regset *r, unsigned idx) { r->slot[idx] = r->slot[--r->n]; }

/* units.c */
int sm_units_init(ws_sm *sm, char *err, size_t errlen);
void sm_classify(const ws_sm *sm, const ws_inst *in, uint8_t *cls, uint16_t *lat, uint16_t *ii);
/* tensor.c: latency and initiation interval of an mma (mma.sync, wmma.mma),
   and the largest latency any form can have. */
void sm_tensor_timing(const ws_config *c, const ws_inst *in, int64_t *lat, int64_t *ii);
int64_t sm_tensor_max_latency(const ws_config *c);
void sm_units_writeback(ws_sm *sm);
void sm_units_cycle(ws_sm *sm);

/* tex.c: the texture cache path of the LD/ST unit */
typedef struct sm_tex sm_tex;
typedef struct sm_texlines sm_texlines;
int sm_tex_init(ws_sm *sm, char *err, size_t errlen);
void sm_tex_destroy(ws_sm *sm);
void sm_tex_kernel_start(ws_sm *sm);
void sm_tex_issue(ws_sm *sm, sm_inst *in, const ws_step *st);  /* at issue: its L1T blocks */
unsigned sm_tex_dispatch_begin(ws_sm *sm, sm_inst *in);        /* accesses to make */
bool sm_tex_dispatch_step(ws_sm *sm, sm_inst *in);             /* one access; true: all made */
void sm_tex_cycle(ws_sm *sm);                                  /* misses towards memory */
void sm_tex_fill(ws_sm *sm, uint64_t block);
sm_inst *sm_tex_pop_ready(ws_sm *sm);                          /* writeback client 1 */
bool sm_tex_has_ready(const ws_sm *sm);                        /* ... has one to give */
bool sm_tex_busy(const ws_sm *sm);                             /* misses to send */
bool sm_tex_wants_cycle(const ws_sm *sm);                      /* ... or fills to write back */
void sm_tex_stats(const ws_sm *sm, uint64_t *access, uint64_t *miss);

/* mrpb.c. parse: size 0 for "none"; push: the entry to fill (NULL when
   full); pop: the drain policy's choice; cycle: drain one into l1q's tail. */
int sm_mrpb_parse(const char *spec, unsigned *size, unsigned *queues, char *err, size_t errlen);
sm_mrpb *sm_mrpb_create(unsigned size, unsigned queues);
void sm_mrpb_destroy(sm_mrpb *m);
sm_l1acc *sm_mrpb_push(sm_mrpb *m, unsigned warp);
bool sm_mrpb_pop(sm_mrpb *m, sm_l1acc *out);
void sm_mrpb_cycle(ws_sm *sm);

/* replay.c: -warpsim_hazard_mode replay */
int sm_replay_init(ws_sm *sm, char *err, size_t errlen);
bool sm_replay_track(ws_sm *sm, sm_warp *w, sm_inst *in); /* at first issue */
int sm_replay_issue(ws_sm *sm, unsigned wi); /* 1: reissued, 0: no room, -1: held back (hp) */
int sm_hp_release(ws_sm *sm, unsigned wi);   /* the same for a gated first issue */
void sm_replay_dispatch(ws_sm *sm, sm_inst *in);          /* one pass in the LD/ST unit */
void sm_replay_retire(ws_sm *sm, sm_inst *in);            /* retain: it left the LD/ST unit */
enum { SM_RP_NONE = -1, SM_RP_ALL = -2 };
void sm_replay_checkpoint(ws_sm *sm, sm_inst *in, int tx, uint32_t lanes, unsigned hazard);
/* warp buffer entries held by incomplete replayable instructions */
static inline unsigned sm_replay_held(const sm_warp *w) {
    return w->rp_n ? w->iss_seq - w->rp[0].seq : 0;
}

/* fetch.c: entries one fill brings (two, as the fetch reads 16 bytes); room for a fill
   (with the default 2 entries, an empty buffer; entries held for replay, from the oldest
   incomplete memory instruction to the issue point, are not free); whether warp w may
   fetch; warp wi's (w's) bit in sm->fetchable after anything sm_can_fetch reads changed
   (inline for the issue, which marks its warp every time; sm_fetch_mark elsewhere). */
static inline unsigned sm_fill_n(const sm_warp *w) { return w->ib_depth < 2 ? w->ib_depth : 2; }
static inline bool sm_ib_room(const sm_warp *w) {
    return w->ib_n + sm_replay_held(w) + sm_fill_n(w) <= w->ib_depth;
}
static inline bool sm_can_fetch(const sm_warp *w) {
    return w->valid && !w->func_done && !w->imiss && sm_ib_room(w);
}
/* `live`: the caller knows the warp valid and not done (issue_one: it just issued), so
   those are not tested again */
static inline void sm_fetch_mark_t(ws_sm *sm, unsigned wi, const sm_warp *w, bool live) {
    if (wi < 64) {
        /* sm_can_fetch, the fill count first (the compiler then tests the rest in fewer steps) */
        unsigned fill = sm_fill_n(w);
        if ((live || (w->valid && !w->func_done)) && !w->imiss &&
            w->ib_n + sm_replay_held(w) + fill <= w->ib_depth)
            sm->fetchable |= 1ull << wi;
        else sm->fetchable &= ~(1ull << wi);
    }
}
static inline void sm_fetch_mark_inline(ws_sm *sm, unsigned wi, const sm_warp *w) {
    sm_fetch_mark_t(sm, wi, w, false);
}

/* hp.c: hazard prediction */
typedef struct sm_hp sm_hp;
int sm_hp_init(ws_sm *sm, char *err, size_t errlen);
void sm_hp_destroy(ws_sm *sm);
int sm_hp_pool(const ws_sm *sm, const sm_inst *in);
bool sm_hp_gate(ws_sm *sm, sm_inst *in);
void sm_hp_access(ws_sm *sm, sm_inst *in, bool l1c, bool hit, unsigned u0, unsigned u1,
                  bool through);
bool sm_hp_admit(ws_sm *sm, const sm_inst *in, bool l1c, uint64_t addr, bool write,
                 ws_fail_kind *fk);
bool sm_hp_check(ws_sm *sm);
int64_t sm_hp_credits(ws_sm *sm, int pool);
int64_t sm_hp_credits_visible(const ws_sm *sm, int pool);
void sm_hp_cycle(ws_sm *sm);                 /* sm->hp_cycle: delay line, -warpsim_hp_check */
void sm_mshr_idle_cycle(ws_sm *sm);          /* hazard.c: -warpsim_mshr_idle_stat */
/* a warp that must be offered to its scheduler whatever it waits for */
static inline bool sm_warp_owes(const sm_warp *w) { return w->rp_ready || w->hp_gated; }
/* smc.c: the shared-memory cache of CIAO's isolated warps. init creates it
   when the throttle policy wants one (sm->smc stays NULL otherwise); pick:
   the cache an L1 access goes to (NULL: wait, the MSHRs are all in use);
   read: a read routed to it; fill: its line came back. */
typedef struct sm_smc sm_smc;
int sm_smc_init(ws_sm *sm, char *err, size_t errlen);
void sm_smc_destroy(ws_sm *sm);
void sm_smc_kernel_start(ws_sm *sm);
void sm_smc_cta_launched(ws_sm *sm);
ws_cache *sm_smc_cache(const ws_sm *sm);
ws_cache *sm_smc_pick(ws_sm *sm, const sm_l1acc *h);
ws_cache_status sm_smc_read(ws_sm *sm, const sm_l1acc *h, void *req);
void sm_smc_fill(ws_sm *sm, uint64_t block);
/* Its rule, for tests: lines for `unused` bytes (per_line each, at most
   max_lines) and the row of line address `line` among `lines`, in
   -warpsim_smem_cache_lines mode `mode`. */
unsigned sm_smc_capacity(uint64_t unused, unsigned per_line, unsigned max_lines, unsigned mode);
uint64_t sm_smc_row(uint64_t line, unsigned lines, unsigned mode);

/* ldst.c */
int sm_ldst_init(ws_sm *sm, char *err, size_t errlen);
void sm_ldst_cycle(ws_sm *sm);
bool sm_ldst_can_issue(const ws_sm *sm);
void sm_ldst_issue(ws_sm *sm, sm_inst *in);
void sm_ldst_reply(ws_sm *sm, ws_mreq *r);
unsigned sm_smem_conflict_cycles(const ws_sm *sm, const uint64_t *addr, uint32_t active);
/* issue.c: the same count, answered at once when no part spans a bank's width */
unsigned sm_smem_cycles(const ws_sm *sm, const uint64_t *addr, uint32_t active);
bool sm_ldst_busy(const ws_sm *sm);
bool sm_ldst_stuck(const ws_sm *sm);
unsigned sm_const_txns(const uint64_t *addr, uint32_t active, uint64_t base, uint32_t line,
                       ws_mem_txn *txq, bool slow);
bool sm_ldst_stuck_cycle(ws_sm *sm);
void sm_ldst_stuck_count(ws_sm *sm);
unsigned sm_ldst_moving(const ws_sm *sm);
void sm_ldst_moving_cycle(ws_sm *sm);
bool sm_ldst_reply_quiet(const ws_sm *sm, const ws_mreq *r);
void sm_ldst_sleep_reply(ws_sm *sm);
void sm_ldst_finish_load(ws_sm *sm, sm_inst *in);
bool sm_ldst_send_bypass(ws_sm *sm, sm_inst *in, const ws_mem_txn *t);
bool sm_ldst_bypasses_l1(const ws_sm *sm, const sm_inst *in);
sm_l1acc *sm_ldst_l1q_tail(ws_sm *sm, sm_inst *in, const ws_mem_txn *t); /* NULL: busy */
/* words of a thread's local access the timing model maps (ldst.c, GPGPU-Sim 4: by element size) */
uint32_t sm_local_words(uint32_t access_size, uint32_t elem_size);
void sm_ldst_flush(ws_sm *sm);

#endif
