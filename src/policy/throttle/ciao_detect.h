/* CIAO's interference detector (Zhang, Gao, Kim and Jung, "CIAO: Cache
 * Interference-Aware Throughput-Oriented Architecture and Scheduling for
 * GPUs", IPDPS 2018, sections III-A and IV-A/C), one per SM:
 *  - a victim tag array (VTA) per warp slot: `vta_ways` tags, FIFO. When a
 *    line owned by warp o is evicted to make room for a line of warp e, the
 *    tag goes into o's set with e as the evictor.
 *  - a miss of warp w (a real miss, not a merge into a pending one) that
 *    finds its tag in w's set is a VTA hit: w lost locality to the evictor.
 *    The entry leaves the VTA, w's hit counter rises, and w's interference
 *    list entry {interferer, 2-bit counter} is updated (same interferer: +1
 *    up to 3; another one: -1, replaced only when the counter is 0).
 *  - IRS_w = VTAHit_w / (InstTotal / N_active) (the paper's Eq. 1; its
 *    Algorithm 1 divides by N_active, which we read as a typo), compared as
 *    VTAHit_w * N_active > cut * InstTotal.
 *  - warp state bits V (may issue) and I (isolated: its loads go to the
 *    shared-memory cache) and the pair list (who triggered each action).
 *  - epochs in warp instructions issued by the SM: every `low_epoch` the
 *    actions whose trigger warp's IRS fell under the low cut-off (or whose
 *    trigger finished) are undone; every `high_epoch` each issuing warp
 *    whose IRS passed the high cut-off acts on its top interferer j:
 *    isolate j (mode with isolation), or stall j (stall-only mode, or j
 *    already isolated in the combined mode).
 * Choices where the paper is silent: all resident warps are checked in age
 * order each epoch (not only the head of the warp list); one action per
 * target warp per high epoch; a stall that would leave no issuing warp is
 * not made; a warp slot's state is reset when a new warp starts in it and a
 * generation number per slot makes a stale trigger count as finished.
 * Pure state, no timing: the throttle policies of ciao.c feed it. */
#ifndef WARPSIM_POLICY_THROTTLE_CIAO_DETECT_H
#define WARPSIM_POLICY_THROTTLE_CIAO_DETECT_H

#include <stdbool.h>
#include <stdint.h>

enum { WS_CIAO_ISOLATE = 1, WS_CIAO_STALL = 2 };

typedef struct ws_ciao_cfg {
    unsigned mode;                    /* WS_CIAO_ISOLATE | WS_CIAO_STALL bits */
    unsigned vta_ways;                /* tags per warp slot */
    unsigned low_epoch, high_epoch;   /* warp instructions */
    double high_cut, low_cut;         /* IRS cut-offs (0.01 = 1 %) */
    bool lifo;                        /* reactivate only the latest stalled warp per low epoch */
    bool window_epoch;                /* IRS counts restart every high epoch (else per kernel) */
} ws_ciao_cfg;

/* What the detector did (since the kernel started). */
typedef struct ws_ciao_counts {
    uint64_t vta_hits, isolations, deisolations, stalls, reactivations, forced;
} ws_ciao_counts;

typedef struct ws_ciao_det ws_ciao_det;

ws_ciao_det *ws_ciao_det_create(const ws_ciao_cfg *cfg, unsigned n_warps);
void ws_ciao_det_destroy(ws_ciao_det *d);
/* A kernel starts: every counter, list and VTA is cleared, all warps V=1, I=0. */
void ws_ciao_det_kernel_start(ws_ciao_det *d);
/* A new warp (age: smaller = older) starts in slot / the slot's warp finished. */
void ws_ciao_det_warp_start(ws_ciao_det *d, unsigned slot, uint64_t age);
void ws_ciao_det_warp_end(ws_ciao_det *d, unsigned slot);
/* A line of warp `owner` was evicted for a line of warp `evictor`. */
void ws_ciao_det_evict(ws_ciao_det *d, uint64_t block, unsigned owner, unsigned evictor);
/* Warp `warp` missed on `block`; true when that was a VTA hit. */
bool ws_ciao_det_miss(ws_ciao_det *d, unsigned warp, uint64_t block);
/* The SM issued n more warp instructions: runs the epochs that ended. */
void ws_ciao_det_issued(ws_ciao_det *d, uint64_t n);
/* Deadlock guard: make `slot` (or every warp, slot < 0) issue again. */
void ws_ciao_det_force_active(ws_ciao_det *d, int slot);

bool ws_ciao_det_stalled(const ws_ciao_det *d, unsigned slot);
bool ws_ciao_det_isolated(const ws_ciao_det *d, unsigned slot);
unsigned ws_ciao_det_n_stalled(const ws_ciao_det *d);
unsigned ws_ciao_det_n_isolated(const ws_ciao_det *d);
/* Resident, unfinished warps with V=1 (Eq. 1's N_active). */
unsigned ws_ciao_det_n_active(const ws_ciao_det *d);
/* IRS of slot, as a fraction (0 with no instructions yet). */
double ws_ciao_det_irs(const ws_ciao_det *d, unsigned slot);
uint32_t ws_ciao_det_vta_hits(const ws_ciao_det *d, unsigned slot);
bool ws_ciao_det_vta_has(const ws_ciao_det *d, unsigned slot, uint64_t block);
/* Slot's interference-list entry: interferer (-1: none) and its counter. */
int ws_ciao_det_interferer(const ws_ciao_det *d, unsigned slot, unsigned *counter);
/* Pair list: the warp whose IRS made slot isolated (which 0) / stalled (1); -1: none. */
int ws_ciao_det_pair(const ws_ciao_det *d, unsigned slot, unsigned which);
/* VTA hits of warp `victim` on lines evicted by warp `interferer` (this kernel). */
uint32_t ws_ciao_det_pair_events(const ws_ciao_det *d, unsigned interferer, unsigned victim);
unsigned ws_ciao_det_n_warps(const ws_ciao_det *d);
const ws_ciao_counts *ws_ciao_det_counts(const ws_ciao_det *d);
/* Changes whenever a warp's V or I bit may have changed. */
uint64_t ws_ciao_det_version(const ws_ciao_det *d);

#endif
