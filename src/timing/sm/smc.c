/* The shared-memory cache of CIAO (Zhang et al., IPDPS 2018, sections
 * III-B and IV-B): the shared memory that the resident CTAs do not use is a
 * cache for the global/local reads of isolated warps, so that they stop
 * evicting the other warps' lines from the L1D.
 *  - capacity: shared memory per SM minus the resident CTAs' allocations
 *    (the SMMT), in lines of data plus a 4-byte tag (25-bit tag + 6-bit
 *    warp id).
 *  - direct-mapped (tag and data are read in one access from the two bank
 *    groups, so a hit costs what an L1D hit does: the same latency
 *    pipeline). -warpsim_smem_cache_lines: 0 = the largest power of two of
 *    lines (the paper's row mask; 256 for 48 KB), row = low line-address
 *    bits; 1 = every line that fits, row = line mod count; 2 (default) =
 *    as 0 with the next two groups of line bits XORed into the row (as the
 *    XOR set-index hash does for the L1D), so that lines at a power-of-two
 *    stride (matrix rows) do not all fall on a few rows.
 *  - it shares the L1D's MSHRs: a read routed here waits while the two
 *    together hold as many entries as the L1D has; so does an L1D read
 *    while this cache holds any (a hit too: the check comes before the tag
 *    lookup). Its own miss queue feeds the same path to L2.
 *  - a read of an isolated warp whose line is in the L1D moves the line
 *    here (one copy; no L2 traffic) and hits.
 *  - writes go through the L1D as for every warp, and drop the line here
 *    (one copy, the L1D's write policy).
 *  - when a CTA launch changes the unused space, the cache is flushed
 *    (its rows now belong to the CTA, or its index changed); at kernel
 *    start it is empty.
 *  - its evictions and misses feed the same interference detector as the
 *    L1D's (the throttle policy's per-SM hooks).
 * Not modelled: contention for the shared-memory port with the program's
 * own ld.shared/st.shared. */
#include <stdio.h>
#include <stdlib.h>

#include "timing/sm/sm_internal.h"

struct sm_smc {
    ws_cache *c;
    unsigned per_line;     /* bytes of shared memory per line: data + tag */
    unsigned max_lines;
    bool modulo;
    unsigned mode;         /* -warpsim_smem_cache_lines */
    uint32_t mshr_total;   /* the L1D's MSHR entries, shared */
    uint32_t line_size;
    ws_smc_counts k;
};

int sm_smc_init(ws_sm *sm, char *err, size_t errlen) {
    const ws_throttle_policy *p = sm->throttle_sm.policy;
    if (!p || !p->wants_smem_cache || !sm->route) return 0;
    if (sm->replay || sm->hp) { /* replay.c and hp.c know the L1D's path only */
        snprintf(err, errlen, "the shared-memory cache of %s cannot be combined with "
                              "-warpsim_hazard_mode replay or hazard prediction (not modelled)",
                 sm->cfg->throttle);
        return -1;
    }
    const ws_cache_cfg *l1 = ws_cache_get_cfg(sm->l1d);
    sm_smc *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    sm->smc = m;
    sm->ldst_extras = true;
    m->line_size = l1->line_size;
    m->per_line = l1->line_size + 4;
    m->mode = (unsigned)sm->cfg->smem_cache_lines;
    m->modulo = m->mode == 1;
    m->max_lines = (unsigned)(sm->cfg->shmem_size / m->per_line);
    if (!m->modulo)
        while (m->max_lines & (m->max_lines - 1)) m->max_lines &= m->max_lines - 1;
    m->mshr_total = l1->mshr_entries;
    if (!m->max_lines) return 0; /* no shared memory: isolated warps stay in the L1D */
    ws_cache_cfg cc = {.nsets = m->max_lines,
                       .line_size = l1->line_size,
                       .assoc = 1,
                       .repl = WS_REPL_LRU,
                       .write_policy = WS_WP_READ_ONLY,
                       .alloc = WS_ALLOC_ON_MISS,
                       .write_alloc = WS_WA_NONE,
                       .index_code = 'L',
                       .mshr_type = 'A',
                       .mshr_entries = l1->mshr_entries,
                       .mshr_max_merge = l1->mshr_max_merge,
                       .miss_queue_size = l1->miss_queue_size};
    char e[200];
    if (!(m->c = ws_cache_create("SMC", &cc, "linear", e, sizeof e))) {
        snprintf(err, errlen, "shared-memory cache: %s", e);
        return -1;
    }
    if (p->l1d_evict) ws_cache_set_evict_hook(m->c, p->l1d_evict, sm->throttle_sm.state);
    if (p->sm_bind_smc) p->sm_bind_smc(sm->throttle_sm.state, &m->k);
    return 0;
}

void sm_smc_destroy(ws_sm *sm) {
    if (!sm->smc) return;
    if (sm->smc->c) ws_cache_destroy(sm->smc->c);
    free(sm->smc);
    sm->smc = NULL;
    sm->ldst_extras = sm->mrpb || sm->ro;
}

ws_cache *sm_smc_cache(const ws_sm *sm) { return sm->smc ? sm->smc->c : NULL; }

void sm_smc_kernel_start(ws_sm *sm) {
    sm_smc *m = sm->smc;
    if (!m->c) return;
    ws_cache_invalidate(m->c);
    m->k.lines = 0; /* the first CTA launch sizes it */
}

void sm_smc_cta_launched(ws_sm *sm) {
    sm_smc *m = sm->smc;
    if (!m->c) return;
    uint64_t used = (uint64_t)sm->n_active_ctas * sm->res.smem_per_cta;
    uint64_t unused = (uint64_t)sm->cfg->shmem_size > used ? (uint64_t)sm->cfg->shmem_size - used : 0;
    unsigned n = sm_smc_capacity(unused, m->per_line, m->max_lines, m->modulo ? 1 : 0);
    if (n == m->k.lines) return;
    if (m->k.lines) m->k.flushes++;
    ws_cache_invalidate(m->c); /* rows given to the CTA, or every line's row moved */
    m->k.lines = n;
}

unsigned sm_smc_capacity(uint64_t unused, unsigned per_line, unsigned max_lines, unsigned mode) {
    uint64_t n = unused / per_line;
    if (n > max_lines) n = max_lines;
    if (mode != 1)
        while (n & (n - 1)) n &= n - 1;
    return (unsigned)n;
}

uint64_t sm_smc_row(uint64_t line, unsigned lines, unsigned mode) {
    if (mode == 1) return line % lines;
    uint64_t mask = lines - 1;
    if (mode == 2) { /* the row bits XOR the next two groups of line bits (strided rows spread) */
        unsigned bits = (unsigned)__builtin_ctzll(lines);
        return (line ^ line >> bits ^ line >> 2 * bits) & mask;
    }
    return line & mask;
}

static uint64_t index_addr(const sm_smc *m, uint64_t addr) {
    return sm_smc_row(addr / m->line_size, m->k.lines, m->mode) * m->line_size;
}

ws_cache *sm_smc_pick(ws_sm *sm, const sm_l1acc *h) {
    sm_smc *m = sm->smc;
    if (!m->c) return sm->l1d;
    if (h->write) {
        if (m->k.lines) ws_cache_take(m->c, h->addr, index_addr(m, h->addr)); /* one copy */
        return sm->l1d;
    }
    bool to_smc = m->k.lines && sm->route(sm->throttle_sm.state, h->warp) == WS_ROUTE_SMC;
    unsigned own = ws_cache_mshr_used(m->c);
    /* shared MSHRs: while it holds none, the L1D works exactly as without it */
    if ((to_smc || own) && ws_cache_mshr_used(sm->l1d) + own >= m->mshr_total) {
        m->k.mshr_waits++;
        return NULL;
    }
    return to_smc ? m->c : sm->l1d;
}

ws_cache_status sm_smc_read(ws_sm *sm, const sm_l1acc *h, void *req) {
    sm_smc *m = sm->smc;
    uint64_t ix = index_addr(m, h->addr);
    ws_cache_set_owner(m->c, h->warp);
    if (ws_cache_take(sm->l1d, h->addr, h->addr)) { /* migrate: the L1D's copy moves here */
        ws_cache_force_fill(m->c, h->addr, ix, sm->now);
        m->k.migrations++;
    }
    ws_cache_result r = ws_cache_access_ex(m->c, h->addr, ix, WS_ACC_READ,
                                           h->space == WS_SPACE_LOCAL, false, req, sm->now);
    switch (r.status) {
    case WS_CACHE_HIT: m->k.hits++; break;
    case WS_CACHE_HIT_RESERVED: m->k.pending_hits++; break;
    case WS_CACHE_MISS:
    case WS_CACHE_SECTOR_MISS: m->k.misses++; break;
    default: break;
    }
    return r.status;
}

void sm_smc_fill(ws_sm *sm, uint64_t block) {
    ws_cache_fill(sm->smc->c, block, sm->now);
    sm->smc->k.fills++;
}
