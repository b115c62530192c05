/* The page table of a GPU with two memory nodes (-hm_enable): device
 * addresses of global data, page by page, to (node, frame). A page is placed
 * when it is first touched (the placement policy of -hm_page_policy decides
 * the node); every global access of the SMs is routed by it: GPU pages
 * through the L1D, the L2 and GPU memory as before, CPU pages to the CPU
 * memory node (cpumem.h), uncached.
 *
 * Capacities (-hm_gpu_pages, -hm_cpu_pages; 0: unlimited): a page whose
 * chosen node is full goes to the other node while that one has room; when
 * both are full, the least recently used page of the chosen node gives up
 * its frame (it is placed again on its next touch; data moves are not
 * modelled). GPU frames keep the page's own address (the GPU address
 * mapping is unchanged: with every page in GPU memory the run is the
 * single-node run); CPU frames are numbered in allocation order and address
 * the CPU node's channels. */
#ifndef WARPSIM_TIMING_MEM_PAGES_H
#define WARPSIM_TIMING_MEM_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/page/page.h"

typedef struct ws_pages_cfg {
    uint64_t page_size;        /* a power of two */
    uint64_t cap[WS_NODE_N];   /* pages per node, 0: unlimited */
    uint64_t seed;             /* the placement's random stream */
    const char *policy;        /* -hm_page_policy spec */
    ws_page_env env;
} ws_pages_cfg;

/* Running totals (per-kernel values are differences). */
typedef struct ws_pages_stats {
    uint64_t placed[WS_NODE_N];    /* pages placed on first touch (or again after eviction) */
    uint64_t evicted[WS_NODE_N];   /* pages that lost their frame (both nodes full) */
    uint64_t fallbacks;            /* placements sent to the other node because the chosen was full */
    uint64_t resident[WS_NODE_N];  /* pages held now (a state, not a total) */
} ws_pages_stats;

typedef struct ws_pages ws_pages;

/* NULL with err on a bad configuration (page size not a power of two,
   unknown policy or bad parameters, unreadable profile). */
ws_pages *ws_pages_create(const ws_pages_cfg *cfg, char *err, size_t errlen);
void ws_pages_destroy(ws_pages *pt);

/* The node of addr's page, placing it on first touch; marks it used at now
   (LRU). *phys (may be NULL): the node-physical address (frame * page size +
   offset). */
unsigned ws_pages_touch(ws_pages *pt, uint64_t addr, uint64_t now, uint64_t *phys);
/* The node of addr's page without placing or touching it; -1 when unmapped. */
int ws_pages_lookup(const ws_pages *pt, uint64_t addr, uint64_t *frame);

const ws_pages_stats *ws_pages_get_stats(const ws_pages *pt);
uint64_t ws_pages_page_size(const ws_pages *pt);
/* The placement policy's current GPU fraction, its sampling period (0: none) and a sample. */
double ws_pages_gpu_ratio(const ws_pages *pt);
uint64_t ws_pages_period(const ws_pages *pt);
void ws_pages_sample(ws_pages *pt, const ws_page_counters *c);

#endif
