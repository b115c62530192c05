/* LD/ST unit (GPGPU-Sim 4's ldst_unit): one instruction at a time in the
 * dispatch register.
 *  - shared memory: the bank-conflict degree (distinct 4-byte words per bank,
 *    per warp part, broadcast of one word free) keeps it in dispatch that
 *    many cycles; loads then take -gpgpu_smem_latency in the shared pipeline.
 *  - constant and kernel-parameter loads: one L1C access per cycle, one per
 *    distinct line; misses fill the L1C and write back through the unit.
 *  - global/local: transactions from the coalescer enter the L1 latency
 *    queue (-gpgpu_l1_latency stages) one per cycle; the L1D is accessed at
 *    its head, which holds on a reservation failure (the queue backs up).
 *    Hits complete there; misses wait in the MSHR for the fill. Atomics,
 *    .cg loads and -gpgpu_gmem_skip_L1D global accesses bypass the L1D and
 *    go out directly. Local memory is mapped to a global range, interleaved
 *    by word across the resident threads (GPGPU-Sim's local_mem_map).
 *    With heterogeneous memory (-hm_enable), each global transaction's page
 *    is looked up (and placed on first touch) in the page table; a page in
 *    CPU memory is not cached (selective caching): the transaction bypasses
 *    the L1D to a CPU-link port.
 *  - texture fetches: the L1T path of tex.c, one access per distinct line;
 *    its fills write back through client 1 of the writeback arbiter.
 *  - replies: one per cycle from a 2-entry response FIFO (fill L1D / L1C,
 *    store acknowledgement, bypass reply). Writeback arbitrates round robin
 *    between the shared pipeline, L1C fills, bypass replies and L1D fills,
 *    one instruction per cycle.
 * A load releases its registers when all its accesses are back; stores leave
 * the unit once their accesses are queued; a warp finishes only when its
 * stores are acknowledged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/mem/pages.h"
#include "timing/sm/hazard.h"
#include "timing/sm/ldst_queue.h"
#include "timing/sm/sm_internal.h"
#include "util/bits.h"

int sm_ldst_init(ws_sm *sm, char *err, size_t errlen) {
    char e[200], hints[96];
    ws_cache_cfg cc;
    /* adi defaults; global writes are write-evict/no-allocate here, so they do not sample */
    snprintf(hints, sizeof hints, "nv=%lld:ns=%lld:ni=%lld:skip_gw=1", (long long)sm->cfg->adi_nv,
             (long long)sm->cfg->adi_ns, (long long)sm->cfg->adi_ni);
    const char *ix = sm->cfg->l1d_index && *sm->cfg->l1d_index ? sm->cfg->l1d_index : NULL;
    if (ws_cache_cfg_parse(sm->cfg->cache_dl1, &cc, e, sizeof e)) {
        snprintf(err, errlen, "-gpgpu_cache:dl1: %s", e);
        return -1;
    }
    cc.index_hints = hints;
    if (!(sm->l1d = ws_cache_create("L1D", &cc, ix, e, sizeof e))) {
        snprintf(err, errlen, "%s: %s", ix ? "-l1d_index" : "-gpgpu_cache:dl1", e);
        return -1;
    }
    if (ws_cache_cfg_parse(sm->cfg->cache_const, &cc, e, sizeof e) ||
        !(sm->l1c = ws_cache_create("L1C", &cc, NULL, e, sizeof e))) {
        snprintf(err, errlen, "-gpgpu_const_cache:l1: %s", e);
        return -1;
    }
    sm->txq = calloc(WS_MAX_TRANSACTIONS, sizeof *sm->txq);
    sm->smem_lat = (unsigned)sm->cfg->shmem_latency;
    sm->smem_pipe = calloc(sm->smem_lat, sizeof *sm->smem_pipe);
    sm->l1_lat = (unsigned)(sm->cfg->l1_latency + sm->cfg->l1d_index_latency); /* hashing */
    sm->l1_banks = (unsigned)sm->cfg->l1_banks;
    if (sm->l1_banks & (sm->l1_banks - 1)) {
        snprintf(err, errlen, "option -gpgpu_l1_banks: %u is not a power of two", sm->l1_banks);
        return -1;
    }
    if (sm->l1_banks > 1 && sm->cfg->l1d_reorder && strcmp(sm->cfg->l1d_reorder, "none")) {
        snprintf(err, errlen, "option -gpgpu_l1_banks: %u banks with -l1d_reorder %s are not "
                 "modelled (allowed: 1 bank)", sm->l1_banks, sm->cfg->l1d_reorder);
        return -1;
    }
    sm->l1q = calloc((size_t)sm->l1_lat * sm->l1_banks, sizeof *sm->l1q);
    sm->l1q_base = calloc(sm->l1_banks, sizeof *sm->l1q_base);
    sm->l1q_cnt = calloc(sm->l1_banks, sizeof *sm->l1q_cnt);
    if (!sm->txq || !sm->smem_pipe || !sm->l1q || !sm->l1q_base || !sm->l1q_cnt) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    if (sm->cfg->l1d_bypass_profile && *sm->cfg->l1d_bypass_profile) {
        if (!(sm->l1prof = ws_l1prof_create())) {
            snprintf(err, errlen, "out of host memory");
            return -1;
        }
        sm->l1prof_sectors = !strcmp(sm->cfg->l1d_bypass_unit, "sectors");
    }
    if (sm->env.l1blist && !(sm->txbyp = calloc(WS_MAX_TRANSACTIONS, 1))) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    unsigned mrpb_size, mrpb_queues;
    if (sm_mrpb_parse(sm->cfg->l1d_reorder, &mrpb_size, &mrpb_queues, err, errlen)) return -1;
    if (mrpb_size && !(sm->mrpb = sm_mrpb_create(mrpb_size, mrpb_queues))) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    if (sm->mrpb) sm->ldst_extras = true;
    return 0;
}

static void ldst_dispatch(ws_sm *sm, sm_inst *in);

bool sm_ldst_can_issue(const ws_sm *sm) {
    if (!sm->ld_disp) return true;
    if (!sm->ro) return false;
    /* warp reordering: ordered accesses go to their channel, which has room */
    const sm_regset *rs = &sm->oc_ex[SM_MEM];
    const sm_inst *o = NULL;
    for (unsigned i = 0; i < rs->n; i++)
        if (!o || rs->slot[i]->uid < o->uid) o = rs->slot[i];
    return o && o->ro_ticket;
}

bool sm_ldst_busy(const ws_sm *sm) {
    if (sm->smc && sm_smc_cache(sm) && ws_cache_has_miss(sm_smc_cache(sm))) return true;
    if (sm->ld_disp || sm->next_wb || sm->next_global || ws_cache_has_miss(sm->l1d) ||
        ws_cache_has_miss(sm->l1c) || ws_cache_has_miss(sm->l1i))
        return true;
    if (sm->smem_n || sm->l1q_n) return true;
    if (sm->ro && sm_ro_busy(sm)) return true;
    return sm->mrpb && sm->mrpb->n;
}

/* Cycles a shared access occupies the unit: per warp part, the largest
   number of distinct words any bank must deliver. */
/* Lanes from..hi-1's accesses (active ones) after lanes before `from` left each bank of
   `seen` one distinct word, first read by lane lane0[b]: the most distinct words of one
   bank. (What the per-bank lists give for the whole part: the lanes before `from` make
   exactly these lists.) */
static unsigned part_conflicts(const uint64_t *addr, uint32_t active, unsigned from, unsigned hi,
                               unsigned nb, uint64_t bmask, uint64_t seen, const uint8_t *lane0) {
    uint8_t cnt[64] = {0};
    int8_t first[64], next[WS_WARP_SIZE]; /* per bank: its distinct words' lanes */
    memset(first, -1, sizeof first);
    unsigned mx = seen != 0;
    for (uint64_t r = seen; r; r &= r - 1) {
        unsigned b = (unsigned)__builtin_ctzll(r);
        first[b] = (int8_t)lane0[b];
        next[lane0[b]] = -1;
        cnt[b] = 1;
    }
    for (unsigned l = from; l < hi; l++) {
        if (!(active >> l & 1)) continue;
        uint64_t word = addr[l] / 4;
        unsigned b = (unsigned)(bmask ? word & bmask : word % nb);
        int j = first[b];
        while (j >= 0 && addr[j] / 4 != word) j = next[j];
        if (j >= 0) continue; /* an earlier lane reads this word: one access */
        next[l] = first[b];
        first[b] = (int8_t)l;
        if (++cnt[b] > mx) mx = cnt[b];
    }
    return mx;
}

unsigned sm_smem_conflict_cycles(const ws_sm *sm, const uint64_t *addr, uint32_t active) {
    unsigned nb = (unsigned)sm->cfg->shmem_num_banks, parts = (unsigned)sm->cfg->shmem_warp_parts;
    unsigned psize = WS_WARP_SIZE / parts, total = 0;
    uint64_t bmask = nb & (nb - 1) ? 0 : nb - 1; /* banks a power of two: no division */
    for (unsigned p = 0; p < parts; p++) {
        /* the common patterns first (a broadcast, consecutive words): when no bank
           holds two distinct words the part takes one cycle, no per-bank lists needed;
           else the lists go on from the first lane that found its bank taken */
        uint64_t seen = 0, wordof[64];
        uint8_t lane0[64];
        unsigned stop = (p + 1) * psize;
        for (unsigned l = p * psize; l < (p + 1) * psize; l++) {
            if (!(active >> l & 1)) continue;
            uint64_t word = addr[l] / 4;
            unsigned b = (unsigned)(bmask ? word & bmask : word % nb);
            if (seen >> b & 1) {
                if (wordof[b] == word) continue;
                stop = l;
                break;
            }
            seen |= 1ull << b;
            wordof[b] = word;
            lane0[b] = (uint8_t)l;
        }
        if (stop == (p + 1) * psize) total += seen != 0;
        else total += part_conflicts(addr, active, stop, (p + 1) * psize, nb, bmask, seen, lane0);
    }
    return total ? total : 1;
}

static bool bypasses_l1(const ws_sm *sm, const sm_inst *in) {
    if (in->is_atomic) return true;
    if (in->inst->cacheop == WS_CACHE_CG) return true;
    if (sm->route && in->is_load &&
        sm->route(sm->throttle_sm.state, in->warp) == WS_ROUTE_BYPASS) /* statPCAL */
        return true;
    return in->space == WS_SPACE_GLOBAL && sm->cfg->gmem_skip_l1d;
}
bool sm_ldst_bypasses_l1(const ws_sm *sm, const sm_inst *in) { return bypasses_l1(sm, in); }
/* bypasses_l1 for the instruction in the dispatch register: decided at dispatch
   (the dispatch steps ask every cycle) unless statPCAL routes loads as it goes */
static inline bool disp_bypasses_l1(const ws_sm *sm, const sm_inst *in) {
    return sm->route ? bypasses_l1(sm, in) : sm->ld_byp;
}

/* -l1d_bypass_list: each transaction of a global load to a listed line is
   replaced by one 32 B transaction per sector it touches, flagged to skip the
   L1D (what an uncached load moves); the others keep their place. */
static unsigned split_listed(ws_sm *sm, unsigned n) {
    ws_mem_txn keep[WS_MAX_TRANSACTIONS];
    uint8_t byp[WS_MAX_TRANSACTIONS];
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        const ws_mem_txn *t = &sm->txq[i];
        uint64_t line = t->addr & ~(uint64_t)127;
        if (!ws_l1blist_has(sm->env.l1blist, sm->env.sm_id, line)) {
            byp[k] = 0;
            keep[k++] = *t;
            continue;
        }
        for (unsigned s = 0; s < 4; s++) {
            if (!(t->sectors >> s & 1) || k == WS_MAX_TRANSACTIONS) continue;
            ws_mem_txn *o = &keep[k];
            memset(o, 0, sizeof *o);
            o->addr = line + 32 * s;
            o->size = 32;
            o->sectors = (uint8_t)(1u << s);
            memcpy(o->bytes + 4 * s, t->bytes + 4 * s, 4);
            o->lanes = t->lanes; /* the reply completes the instruction's count, not lanes */
            byp[k++] = 1;
        }
    }
    memcpy(sm->txq, keep, k * sizeof *keep);
    memcpy(sm->txbyp, byp, k);
    return k;
}

/* Words of one thread's local access that reach the timing model. GPGPU-Sim
   4 translates an access by its element size, not its vector width: a
   ld/st.local.v2/.v4 maps its first element's words only (v4.f32: one word,
   v2.f64: two), so a warp's vector access is one line per element word. */
uint32_t sm_local_words(uint32_t access_size, uint32_t elem_size) {
    uint32_t size = elem_size && elem_size < access_size ? elem_size : access_size;
    return size >= 4 ? size / 4 : 1;
}

/* Map per-thread local offsets to the global range GPGPU-Sim uses:
   word-interleaved across every thread that can be resident GPU-wide. */
static unsigned build_local(ws_sm *sm, sm_inst *in) {
    uint64_t maxconc = sm->local_threads ? sm->local_threads : 1;
    uint32_t tpc = sm->padded_threads ? sm->padded_threads : 32;
    uint32_t elem = in->inst && in->inst->vec > 1 ? ws_type_size((ws_type)in->inst->type) : 0;
    uint32_t words = sm_local_words(in->access_size, elem);
    unsigned n = 0;
    uint64_t a[WS_WARP_SIZE];
    for (uint32_t k = 0; k < words && k < 4; k++) {
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
            if (!(in->active >> l & 1)) continue;
            uint64_t tid = (uint64_t)in->warp * 32 + l;
            uint64_t base = 4 * (tpc * (sm->env.sm_id + sm->n_sms * (tid / tpc)) + tid % tpc);
            uint64_t off = in->addr[l];
            a[l] = SM_LOCAL_BASE + (off / 4 + k) * maxconc * 4 + base +
                   (in->access_size < 4 ? off % 4 : 0);
        }
        ws_coalesce_in ci = {a, in->active, in->access_size < 4 ? in->access_size : 4, false,
                             false};
        n += ws_coalesce(&ci, sm->txq + n);
    }
    return n;
}

void sm_ldst_issue(ws_sm *sm, sm_inst *in) {
    if (sm->ro && in->ro_ticket) { /* warp reordering: to its channel first */
        in->in_dispatch = true;   /* not complete before it has been dispatched */
        sm_ro_distribute(sm, in);
        return;
    }
    ldst_dispatch(sm, in);
}

/* Constant and parameter loads: one access per distinct constant-cache line, in
   first-lane order, each with its lanes. A warp whose lanes all read one line (a
   uniform load, the common case) is answered without the search; `slow` forces
   the search (the test compares the two). */
unsigned sm_const_txns(const uint64_t *addr, uint32_t active, uint64_t base, uint32_t line,
                       ws_mem_txn *txq, bool slow) {
    uint64_t lmask = ~(uint64_t)(line - 1), b0 = (base + addr[__builtin_ctz(active)]) & lmask;
    bool one;
    if (active == ~0u) {
        /* a full warp: its addresses share their line bits (OR ^ AND clears the bits
           every lane agrees on), two lanes per vector operation (GCC/Clang vector
           types; SSE2 on x86-64) */
        typedef uint64_t v2u64 __attribute__((vector_size(16)));
        v2u64 vany = {0, 0}, vall = {~0ull, ~0ull};
        const v2u64 vb = {base, base};
#pragma GCC unroll 4
        for (unsigned l = 0; l < WS_WARP_SIZE; l += 2) {
            v2u64 x;
            memcpy(&x, addr + l, sizeof x);
            x += vb;
            vany |= x;
            vall &= x;
        }
        one = !(((vany[0] | vany[1]) ^ (vall[0] & vall[1])) & lmask);
    } else if (!((active + (active & -active)) & active)) {
        /* a run of lanes (a partial warp's usual mask): as a full warp, over the run only,
           two lanes per vector operation from an even lane (about 11 host instructions a
           lane for the bounds below) */
        typedef uint64_t v2u64 __attribute__((vector_size(16)));
        unsigned l = (unsigned)__builtin_ctz(active), t = 32 - (unsigned)__builtin_clz(active);
        uint64_t any = 0, all = ~0ull;
        if (l & 1) any = all = base + addr[l++];
        v2u64 vany = {0, 0}, vall = {~0ull, ~0ull};
        const v2u64 vb = {base, base};
        for (; l + 2 <= t; l += 2) {
            v2u64 x;
            memcpy(&x, addr + l, sizeof x);
            x += vb;
            vany |= x;
            vall &= x;
        }
        if (l < t) {
            uint64_t x = base + addr[l];
            any |= x;
            all &= x;
        }
        one = !(((any | vany[0] | vany[1]) ^ (all & vall[0] & vall[1])) & lmask);
    } else {
        /* every lane in b0's line: the lowest and the highest address are (lines are
           ranges) */
        uint64_t lo, hi;
        sm_lane_bounds(addr, active, &lo, &hi);
        one = ((base + lo) & lmask) == b0 && ((base + hi) & lmask) == b0;
    }
    if (!slow && one) {
        memset(&txq[0], 0, sizeof txq[0]);
        txq[0].addr = b0;
        txq[0].size = line;
        txq[0].lanes = active;
        return 1;
    }
    unsigned n = 0;
    for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
        if (!(active >> l & 1)) continue;
        uint64_t b = (base + addr[l]) & lmask;
        unsigned j = 0;
        while (j < n && txq[j].addr != b) j++;
        if (j == n) {
            memset(&txq[j], 0, sizeof txq[j]);
            txq[j].addr = b;
            txq[j].size = line;
            n++;
        }
        txq[j].lanes |= 1u << l;
    }
    return n;
}

/* The instruction enters the dispatch register: its transactions. */
static void ldst_dispatch(ws_sm *sm, sm_inst *in) {
    sm->ld_disp = in;
    in->in_dispatch = true;
    sm->ntx = sm->txpos = 0;
    if (!in->active || in->is_membar || (!in->is_load && !in->is_store && !in->is_atomic)) return;
    sm->ld_byp = !sm->route && bypasses_l1(sm, in); /* (read only while accesses remain) */
    switch (in->space) {
    case WS_SPACE_SHARED: break;
    case WS_SPACE_CONST:
    case WS_SPACE_PARAM: {
        uint64_t base = in->space == WS_SPACE_CONST ? sm->launch.img->const_base : SM_PARAM_BASE;
        sm->ntx = sm_const_txns(in->addr, in->active, base,
                                ws_cache_get_cfg(sm->l1c)->line_size, sm->txq, false);
        break;
    }
    case WS_SPACE_LOCAL: sm->ntx = build_local(sm, in); break;
    case WS_SPACE_TEX: sm->ntx = sm_tex_dispatch_begin(sm, in); break; /* tex.c */
    default: {
        bool sectored = sm->cfg->coalesce_arch >= 40 ||
                        (disp_bypasses_l1(sm, in) && !in->is_atomic);
        ws_coalesce_in ci = {in->addr, in->active, in->access_size ? in->access_size : 4, false,
                             sectored};
        sm->ntx = ws_coalesce(&ci, sm->txq);
        if (sm->txbyp) {
            memset(sm->txbyp, 0, sm->ntx);
            if (in->is_load && !in->is_atomic && in->space == WS_SPACE_GLOBAL && !sectored)
                sm->ntx = split_listed(sm, sm->ntx);
        }
        break;
    }
    }
    if ((in->is_load || in->is_atomic) && !in->rp_live) in->pending = sm->ntx;
}

/* ---- completion ------------------------------------------------------------ */
static void finish_load(ws_sm *sm, sm_inst *in) {
    sm_warp *w = &sm->warps[in->warp];
    if (in->is_atomic && w->n_atomic) w->n_atomic--;
    if (in->cpasync && w->n_cpasync) w->n_cpasync--;
    sm_sb_release(sm, w, in);
    sm_inst_complete(sm, in);
}
void sm_ldst_finish_load(ws_sm *sm, sm_inst *in) { finish_load(sm, in); }

/* One access of a load has its data (a replaying load also waits for its
   other threads to get through the memory stage). */
static void access_done(ws_sm *sm, sm_inst *in) {
    if (in->pending) in->pending--;
    if (!in->pending && !in->in_dispatch && !in->rp_live) finish_load(sm, in);
}

static void store_acked(ws_sm *sm, unsigned wi, unsigned n) {
    sm_warp *w = &sm->warps[wi];
    w->stores_out = w->stores_out > n ? w->stores_out - n : 0;
    if (!w->stores_out && w->func_done) sm_warp_try_finish(sm, wi);
}

/* ---- requests out ---------------------------------------------------------- */
static uint8_t acc_read(uint8_t space) { return space == WS_SPACE_LOCAL ? WS_MA_LOCAL_R : WS_MA_GLOBAL_R; }
static uint8_t acc_write(uint8_t space) { return space == WS_SPACE_LOCAL ? WS_MA_LOCAL_W : WS_MA_GLOBAL_W; }
static unsigned nsec(uint8_t m) { return m ? (unsigned)ws_popc32(m) : 1; }

static void drain_cache(ws_sm *sm, ws_cache *c, uint8_t which) {
    if (!ws_cache_has_miss(c) || sm_outq_full(sm)) return;
    const ws_cache_out *o = ws_cache_peek_miss(c);
    ws_mreq *r;
    if (o->kind == WS_OUT_READ_LINE || o->kind == WS_OUT_BYPASS) {
        sm_inst *in = o->req;
        uint8_t acc = which == SM_C_L1C ? WS_MA_CONST_R : acc_read(in ? in->space : WS_SPACE_GLOBAL);
        r = sm_new_req(sm, acc, o->addr, o->size, in ? in->warp : 0);
        sm_pend *p = sm_pend_alloc(sm);
        p->cache = which;
        p->block = o->addr;
        p->want = r->sectors;
        if (o->kind == WS_OUT_BYPASS) { /* the reply goes to the instruction, not the cache */
            p->cache = SM_C_NONE;
            p->in = in;
        }
        r->origin = p;
        sm->n_pend++;
    } else if (o->kind == WS_OUT_WRITEBACK) {
        r = sm_new_req(sm, WS_MA_L1_WRBK, o->addr, o->size, 0);
        r->is_write = true;
    } else { /* a write passing through: its descriptor is a pend record */
        sm_pend *d = o->req;
        r = sm_new_req(sm, acc_write(d->space), d->block, d->size,
                       d->warp);
        r->is_write = true;
        r->sectors = d->want;
        r->lanes = d->lanes;
        memcpy(r->bytes, d->bytes, sizeof r->bytes);
        sm_pend_free(sm, d);
    }
    ws_cache_pop_miss(c);
    sm_outq_push(sm, r);
}

/* Send one bypassing transaction; false when the out queue is full.
   cpu_phys: not NULL for a page in CPU memory (its node-physical address),
   which goes to a CPU-link port. */
static bool send_bypass(ws_sm *sm, sm_inst *in, const ws_mem_txn *t, const uint64_t *cpu_phys) {
    if (sm_outq_full(sm)) return false;
    ws_mreq *r = sm_new_req(sm, in->is_store ? acc_write(in->space) : acc_read(in->space), t->addr,
                            t->size, in->warp);
    r->is_write = in->is_store;
    r->is_atomic = in->is_atomic;
    r->lanes = t->lanes;
    r->sectors = t->sectors ? t->sectors : r->sectors;
    memcpy(r->bytes, t->bytes, sizeof r->bytes);
    if (in->is_store) {
        sm->warps[in->warp].stores_out += nsec(r->sectors);
    } else {
        sm_pend *p = sm_pend_alloc(sm);
        p->cache = SM_C_NONE;
        p->want = r->sectors;
        p->in = in;
        r->origin = p;
        sm->n_pend++;
    }
    sm_outq_push(sm, r);
    if (cpu_phys) { /* after the GPU address decoding, which it replaces */
        r->node = 1;
        r->part_addr = *cpu_phys;
        r->subpart = (uint16_t)(sm->env.cpu_port + (*cpu_phys >> 8) % sm->env.cpu_ports);
    }
    return true;
}

bool sm_ldst_send_bypass(ws_sm *sm, sm_inst *in, const ws_mem_txn *t) {
    return send_bypass(sm, in, t, NULL);
}

/* ---- replies in -------------------------------------------------------------- */
static void process_response(ws_sm *sm) {
    ws_mreq *r = sm->resp.head;
    if (!r) return;
    if (r->is_write && !r->is_atomic) {
        if (r->access != WS_MA_L1_WRBK) store_acked(sm, r->warp, nsec(r->sectors));
    } else {
        sm_pend *p = r->origin;
        if (p) {
            uint8_t got = p->got | (r->sectors ? r->sectors : p->want);
            if ((got & p->want) == p->want) {
                if (p->cache == SM_C_NONE) {
                    if (sm->next_global) return; /* one bypass reply at a time */
                    sm->next_global = p->in;
                } else if (p->cache == SM_C_L1T) {
                    sm_tex_fill(sm, p->block);
                } else if (p->cache == SM_C_SMC) {
                    sm_smc_fill(sm, p->block);
                } else {
                    ws_cache_fill(p->cache == SM_C_L1C ? sm->l1c : sm->l1d, p->block, sm->now);
                }
                sm_pend_free(sm, p);
                sm->n_pend--;
            } else {
                p->got = got;
            }
        }
    }
    ws_mreq_fifo_pop(&sm->resp);
    ws_mreq_free(sm->env.pool, r);
}

/* ---- replies to a sleeping SM (sm.c) ------------------------------------------- */
/* Would process_response, taking r at the head of the response FIFO, only count
 * and free it? So it does for a sector piece that leaves its line (or bypass
 * reply) incomplete, an L1D writeback's acknowledgement and a store's
 * acknowledgement that does not finish its warp (stores_out only goes down).
 * Instruction replies (taken in ws_sm_in_push, never queued) only count unless
 * they complete a fetch. A sleeping SM then takes r in its sleeping cycle
 * (sm_ldst_sleep_reply): nothing the cycle's other stages look at changed. */
bool sm_ldst_reply_quiet(const ws_sm *sm, const ws_mreq *r) {
    if (r->is_write && !r->is_atomic && r->access != WS_MA_INST) {
        if (r->access == WS_MA_L1_WRBK) return true;
        const sm_warp *w = &sm->warps[r->warp];
        return !w->func_done || w->stores_out > nsec(r->sectors);
    }
    const sm_pend *p = r->origin;
    if (!p) return true;
    uint8_t got = p->got | (r->sectors ? r->sectors : p->want);
    return (got & p->want) != p->want;
}

/* A sleeping cycle's reply (one that sm_ldst_reply_quiet let in): what the full
   cycle's process_response does with it. */
void sm_ldst_sleep_reply(ws_sm *sm) { process_response(sm); }

/* ---- writeback ---------------------------------------------------------------- */
static void ldst_writeback(ws_sm *sm) {
    if (sm->next_wb) {
        sm_inst *in = sm->next_wb;
        sm->next_wb = NULL;
        sm_oc_write(sm, in);
        if (in->space == WS_SPACE_SHARED) finish_load(sm, in);
        else access_done(sm, in);
    }
    /* the clients that may give an instruction (bit c: client c); a client left out
       would give none, and looking would change nothing. The texture cache is looked
       at whenever it is live: finding no fill there clears its maybe-ready mark */
    ws_cache *smc = sm->smc ? sm_smc_cache(sm) : NULL;
    unsigned cand = (unsigned)sm_smem_head_full(sm) | (unsigned)ws_cache_has_ready(sm->l1c) << 2 |
                    (unsigned)(sm->next_global != NULL) << 3 |
                    (unsigned)(ws_cache_has_ready(sm->l1d) || (smc && ws_cache_has_ready(smc))) << 4;
    if (sm->tex_live) {
        /* most cycles no client has anything: then the round would only note that
           the texture cache has no fill, and the priority stays */
        if (!cand && !sm_tex_has_ready(sm)) {
            (void)sm_tex_pop_ready(sm);
            return;
        }
        cand |= 2;
    } else if (!cand) {
        return;
    }
    /* round robin from wb_arb (< 5) up, then from 0: the first that gives one */
    unsigned round[2] = {cand & (~0u << sm->wb_arb), cand & ~(~0u << sm->wb_arb)};
    for (unsigned h = 0; h < 2; h++)
        for (unsigned m = round[h]; m; m &= m - 1) {
            unsigned client = (unsigned)__builtin_ctz(m);
            sm_inst *in = NULL;
            switch (client) {
            case 0: in = sm_smem_pop(sm); break; /* shared memory pipeline */
            case 1: in = sm_tex_pop_ready(sm); break; /* texture fills */
            case 2: in = ws_cache_pop_ready(sm->l1c); break;
            case 3:
                in = sm->next_global;
                sm->next_global = NULL;
                break;
            default:
                in = ws_cache_pop_ready(sm->l1d);
                if (!in && smc) in = ws_cache_pop_ready(smc);
                break;
            }
            if (in) {
                sm->next_wb = in;
                sm->wb_arb = client == 4 ? 0 : client + 1;
                return;
            }
        }
}

/* ---- the L1 latency queue ------------------------------------------------------ */
/* -l1d_bypass_profile: one L1D access of a global load (a miss allocates). */
static void l1prof_access(ws_sm *sm, const sm_l1acc *h, ws_cache_status s) {
    unsigned used = 0;
    if (sm->l1prof_sectors) {
        used = 32u * (unsigned)ws_popc32(h->sectors);
    } else {
        for (unsigned i = 0; i < 16; i++) used += (unsigned)ws_popc32(h->bytes[i]);
    }
    bool fill = s == WS_CACHE_MISS || s == WS_CACHE_SECTOR_MISS;
    if (!ws_l1prof_record(sm->l1prof, h->addr & ~(uint64_t)127, used, fill)) {
        ws_fault f = {WS_ERR_OUT_OF_MEMORY, "-l1d_bypass_profile: out of host memory"};
        sm_set_fault(sm, &f);
    }
}

/* Bank b's queue: its oldest entry, once at the head, accesses the L1D (the
   others' places follow from their entry cycles: ldst_queue.h). */
static void l1q_bank_cycle(ws_sm *sm, unsigned b) {
    sm_l1acc *h = sm_l1q_at_head(sm, b);
    if (h) {
        sm_inst *in = h->in;
        bool write = h->write;
        void *req = in;
        sm_pend *wd = NULL;
        if (write) { /* the write's descriptor, used if it goes down */
            wd = sm_pend_alloc(sm);
            wd->block = h->addr;
            wd->size = h->size;
            wd->want = h->sectors;
            wd->lanes = h->lanes;
            wd->warp = h->warp;
            wd->space = h->space;
            memcpy(wd->bytes, h->bytes, sizeof wd->bytes);
            req = wd;
        }
        /* CIAO: an isolated warp's reads go to the shared-memory cache */
        ws_cache *c = sm->smc ? sm_smc_pick(sm, h) : sm->l1d;
        if (!c) {
            if (wd) sm_pend_free(sm, wd);
            return; /* every MSHR is in use: the head waits */
        }
        unsigned mq = ws_cache_miss_queue_len(c);
        unsigned u0 = sm->hp ? ws_cache_mshr_used(sm->l1d) : 0;
        ws_fail_kind fk;
        ws_cache_status s;
        if (c == sm->l1d && sm->hp && !sm_hp_admit(sm, in, false, h->addr, write, &fk)) {
            s = WS_CACHE_RESERVATION_FAIL; /* an MSHR kept for a credit (hp.c) */
        } else if (c == sm->l1d) {
            ws_cache_set_owner(sm->l1d, h->warp); /* a line it allocates is this warp's (CCWS) */
            s = ws_cache_access(sm->l1d, h->addr, write ? WS_ACC_WRITE : WS_ACC_READ,
                                h->space == WS_SPACE_LOCAL, req, sm->now, &fk);
            if (sm->hp) /* hazard prediction's books (hp.c) */
                sm_hp_access(sm, in, false, s == WS_CACHE_HIT, u0, ws_cache_mshr_used(sm->l1d),
                             s != WS_CACHE_RESERVATION_FAIL);
        } else {
            s = sm_smc_read(sm, h, req);
        }
        bool sent = ws_cache_miss_queue_len(c) > mq;
        if (c == sm->l1d) {
            if (sm->l1prof && !write && h->space == WS_SPACE_GLOBAL && s != WS_CACHE_RESERVATION_FAIL)
                l1prof_access(sm, h, s);
            if (sm->l1trace && s != WS_CACHE_RESERVATION_FAIL) sm_l1trace_push(sm, h->addr, write);
        }
        const ws_throttle_policy *tp = sm->throttle_sm.policy;
        if (tp && tp->l1d_read_miss && !write && (s == WS_CACHE_MISS || s == WS_CACHE_SECTOR_MISS))
            tp->l1d_read_miss(sm->throttle_sm.state, h->warp, ws_cache_block_addr(c, h->addr));
        if (s == WS_CACHE_RESERVATION_FAIL) {
            sm_hazard(sm, sm_hazard_of_fail(fk));
            if (wd) sm_pend_free(sm, wd);
            if (in && in->rp_live) { /* replay: squashed here, not held */
                sm_l1q_leave(sm, b);
                if (write) store_acked(sm, h->warp, nsec(h->sectors));
                else if (in->pending) in->pending--;
                sm_replay_checkpoint(sm, in, SM_RP_NONE, 0, sm_hazard_of_fail(fk));
            }
        } else {
            if (in && in->rp_live) sm_replay_checkpoint(sm, in, h->tx, h->lanes, SM_HZ_N);
            if (write) {
                /* a write that nothing sent down (write-back hit) is done here */
                if (!sent) {
                    sm_pend_free(sm, wd);
                    store_acked(sm, h->warp, nsec(h->sectors));
                }
            } else if (s == WS_CACHE_HIT) {
                access_done(sm, in);
            }
            sm_l1q_leave(sm, b);
        }
    }
}

/* Every bank's head accesses the L1D this cycle, bank 0 first (GPGPU-Sim's order). */
static void l1q_cycle(ws_sm *sm) {
    if (!sm->l1q_n) return; /* every bank empty: nothing accesses or moves */
    if (sm->l1_banks == 1) { /* (the one queue is not empty: its oldest entry is the ring's base) */
        if (sm->l1q[sm->l1q_base[0]].ready <= sm->now) l1q_bank_cycle(sm, 0);
        return;
    }
    for (unsigned b = 0; b < sm->l1_banks; b++) l1q_bank_cycle(sm, b);
}

/* ---- the dispatch register --------------------------------------------------------- */
/* Put access t of in at the tail of the L1 latency queue (with MRPB: its
   warp's queue); NULL when there is no room this cycle. */
static inline sm_l1acc *l1q_tail(ws_sm *sm, sm_inst *in, const ws_mem_txn *t) {
    /* the bank of the access's 32 B sector (-gpgpu_l1_banks; 1: the one queue) */
    unsigned bank = (unsigned)(t->addr >> 5) & (sm->l1_banks - 1);
    sm_l1acc *tail;
    if (sm->mrpb) {
        if (!(tail = sm_mrpb_push(sm->mrpb, in->warp))) return NULL; /* the MRPB is full */
        if (tail->valid) {
            sm->l1_bank_conflicts++;
            return NULL;
        }
        tail->valid = true; /* (an MRPB entry counts when it enters l1q) */
    } else {
        if (!(tail = sm_l1q_free_tail(sm, bank))) { /* the tail slot is taken */
            sm->l1_bank_conflicts++;
            return NULL;
        }
        sm_l1q_enter(sm, bank, tail);
    }
    /* a store's instruction leaves before its accesses, unless it replays */
    tail->in = in->is_store && !in->rp_live ? NULL : in;
    tail->warp = in->warp;
    tail->space = in->space;
    tail->write = in->is_store;
    tail->addr = t->addr;
    tail->size = t->size;
    tail->sectors = t->sectors ? t->sectors : sm_sectors_of(t->addr, t->size);
    tail->lanes = t->lanes;
    memcpy(tail->bytes, t->bytes, sizeof tail->bytes);
    if (in->is_store) sm->warps[in->warp].stores_out += nsec(tail->sectors);
    return tail;
}
sm_l1acc *sm_ldst_l1q_tail(ws_sm *sm, sm_inst *in, const ws_mem_txn *t) {
    return l1q_tail(sm, in, t);
}

/* Returns true when the instruction has no more accesses to make. */
static bool dispatch_step(ws_sm *sm, sm_inst *in) {
    if (!in->active || sm->txpos >= sm->ntx) {
        if (in->space == WS_SPACE_SHARED && in->active && in->smem_cycles > 1) {
            in->smem_cycles--; /* bank conflicts: one conflict-free access per cycle */
            sm->st.shmem_bank_conflict_cycles++;
            sm_hazard(sm, SM_HZ_BANK);
            return false;
        }
        return true;
    }
    if (in->space == WS_SPACE_TEX) return sm_tex_dispatch_step(sm, in); /* one L1T access */
    ws_mem_txn *t = &sm->txq[sm->txpos];
    if (sm->cfg->perfect_memory) {
        /* perfect memory: one access per cycle, each done a cycle later */
        if (in->is_load || in->is_atomic) in->pending--;
        sm->txpos++;
        return sm->txpos >= sm->ntx;
    }
    uint64_t phys;
    if (sm->cfg->perfect_inst_const_cache &&
        (in->space == WS_SPACE_CONST || in->space == WS_SPACE_PARAM)) {
        /* perfect constant cache: every access of the instruction hits now, none
           counted (GPGPU-Sim 4's -gpgpu_perfect_inst_const_cache) */
        in->pending -= sm->ntx - sm->txpos;
        sm->txpos = sm->ntx;
        return true;
    }
    if (in->space == WS_SPACE_CONST || in->space == WS_SPACE_PARAM) {
        ws_fail_kind fk;
        unsigned u0 = sm->hp ? ws_cache_mshr_used(sm->l1c) : 0;
        if (sm->hp && !sm_hp_admit(sm, in, true, t->addr, false, &fk)) {
            sm_hazard(sm, sm_hazard_of_fail(fk)); /* an MSHR kept for a credit (hp.c) */
            return false;
        }
        ws_cache_status s = ws_cache_access(sm->l1c, t->addr, WS_ACC_READ, false, in, sm->now, &fk);
        if (sm->hp)
            sm_hp_access(sm, in, true, s == WS_CACHE_HIT, u0, ws_cache_mshr_used(sm->l1c),
                         s != WS_CACHE_RESERVATION_FAIL);
        if (s == WS_CACHE_RESERVATION_FAIL) {
            sm_hazard(sm, sm_hazard_of_fail(fk));
            return false;
        }
        if (s == WS_CACHE_HIT) in->pending--;
        sm->txpos++;
    } else if (sm->env.pages && in->space == WS_SPACE_GLOBAL &&
               ws_pages_touch(sm->env.pages, t->addr, sm->now, &phys) == WS_NODE_CPU) {
        /* selective caching: a page in CPU memory is never cached on the GPU */
        if (!send_bypass(sm, in, t, &phys)) {
            sm_hazard(sm, SM_HZ_COMQ);
            return false;
        }
        sm->txpos++;
    } else if (disp_bypasses_l1(sm, in) || (sm->txbyp && sm->txbyp[sm->txpos])) {
        if (!send_bypass(sm, in, t, NULL)) {
            sm_hazard(sm, SM_HZ_COMQ);
            return false;
        }
        if (sm->txbyp && sm->txbyp[sm->txpos]) sm->st.l1d_list_bypass++;
        sm->txpos++;
    } else {
        if (!l1q_tail(sm, in, t)) return false;
        sm->txpos++;
        /* banked L1D: more accesses this cycle, one per bank, in order, until one finds
           its bank's slot taken (only plain L1D accesses; pages and lists take the
           one-per-cycle path) */
        for (unsigned k = 1; k < sm->l1_banks && sm->txpos < sm->ntx && !sm->env.pages &&
                             !sm->txbyp && !disp_bypasses_l1(sm, in);
             k++) {
            if (!l1q_tail(sm, in, &sm->txq[sm->txpos])) break;
            sm->txpos++;
        }
    }
    if (sm->txpos < sm->ntx) { /* an access made, more to come: another pass */
        sm_hazard(sm, SM_HZ_DIV);
        return false;
    }
    return true;
}

/* ---- a stuck unit (sleeping SMs, sm.c) ------------------------------------------ */
/* The L1 queue's head is refused by the L1D from its note of the last refusal
 * (the cache has not changed since), nothing behind it can move up, and the
 * dispatch register is empty or waits for the queue's tail. Until the L1D
 * changes, a cycle of the unit then only counts: the refusal, its hazard and
 * the dispatch register's stall. The caller has checked that nothing else of
 * the unit has work (replies, misses to send, fills, the shared pipeline).
 * Policies with their own books on L1D accesses (hazard prediction, the
 * shared-memory cache, MRPB, warp reordering, banked L1D) are left out. */
bool sm_ldst_stuck(const ws_sm *sm) {
    if (!sm->l1q_n || sm->l1_banks != 1 || sm->hp || sm->smc || sm->mrpb || sm->ro ||
        sm->env.pages || sm->txbyp || sm->route)
        return false;
    if (!sm_l1q_packed(sm, 0)) return false; /* valid entries first: the move-up moves none */
    const sm_l1acc *h = sm_l1q_entry(sm, 0, 0);
    if (h->in && h->in->rp_live) return false; /* a replay squashes the refused access */
    if (!ws_cache_refusal_noted(sm->l1d, h->addr, h->write ? WS_ACC_WRITE : WS_ACC_READ,
                                h->space == WS_SPACE_LOCAL, sm->now + 1))
        return false;
    const sm_inst *in = sm->ld_disp;
    if (!in) return true;
    /* dispatch_step's path to a taken tail */
    return in->active && !in->rp_live && sm->txpos < sm->ntx && !sm->cfg->perfect_memory &&
           (in->space == WS_SPACE_GLOBAL || in->space == WS_SPACE_LOCAL) &&
           !disp_bypasses_l1(sm, in) && sm->l1q_cnt[0] == sm->l1_lat; /* (packed: the tail is taken) */
}

/* A stuck unit's cycle (sm_ldst_stuck held at the end of the last cycle): what
   sm_ldst_cycle would count. False, with nothing done, when the L1D changed
   meanwhile: the cycle must run in full. */
/* The rest of a stuck cycle's counts, once the L1D counted its refusal (kind fk): the
   hazard, and a held dispatch register's bank conflict and stall. */
static inline void stuck_counts(ws_sm *sm, ws_fail_kind fk) {
    sm_hazard(sm, sm_hazard_of_fail(fk));
    if (sm->ld_disp) {
        sm->l1_bank_conflicts++;
        sm->ldst_stalls++;
    }
}

bool sm_ldst_stuck_cycle(ws_sm *sm) {
    sm_l1acc *h = sm_l1q_entry(sm, 0, 0);
    ws_acc_dir dir = h->write ? WS_ACC_WRITE : WS_ACC_READ;
    bool local = h->space == WS_SPACE_LOCAL;
    ws_fail_kind fk;
    /* (counted as the access would, owner set first) */
    if (!ws_cache_retry_noted(sm->l1d, h->addr, dir, local, sm->now, h->warp, &fk)) return false;
    stuck_counts(sm, fk);
    return true;
}

/* sm_ldst_stuck_cycle's counts when its L1D refusal is known to hold (sm.c's stuck
   sleep: asked already, and nothing has reached the L1D since), without asking again. */
void sm_ldst_stuck_count(ws_sm *sm) {
    const sm_l1acc *h = sm_l1q_entry(sm, 0, 0);
    ws_cache_set_owner(sm->l1d, h->warp); /* (as ws_cache_retry_noted sets it) */
    stuck_counts(sm, ws_cache_count_noted_refusal(sm->l1d, h->write ? WS_ACC_WRITE : WS_ACC_READ,
                                                  h->space == WS_SPACE_LOCAL));
}

/* ---- a moving queue (sleeping SMs, sm.c) ------------------------------------------ */
/* With the dispatch register empty and the L1 queue's head slot empty, a cycle
 * of the unit only moves every entry of the queue down by one (the first empty
 * slot is the head); the lowest one reaches the head after as many cycles as
 * its slot number, and the cycle after that accesses the L1D. Returns that
 * number (0: not so). The caller has checked that nothing else of the unit has
 * work. Left out as for sm_ldst_stuck: policies with their own books on the
 * queue or the L1D, banked L1Ds; and queues longer than 64 slots, as when the
 * queue kept a 64-bit mask (the FIFO could answer them too). */
unsigned sm_ldst_moving(const ws_sm *sm) {
    if (!sm->l1q_n || sm->ld_disp || sm->l1_lat > 64 || sm->l1_banks != 1 || sm->hp || sm->smc ||
        sm->mrpb || sm->ro)
        return 0;
    return sm_l1q_first_slot(sm, 0);
}

/* A sleeping cycle's move-up (sm_ldst_moving held): what l1q_cycle does then,
   which is nothing to store (the entries' places follow from their entry cycles). */
void sm_ldst_moving_cycle(ws_sm *sm) { (void)sm; }

/* Nothing for any stage of the unit's cycle: no reply, no writeback held or ready
   to take (shared-memory pipeline's head, L1C, L1D, bypass reply), no miss to send, no
   head of the one L1 latency queue due, nothing dispatched; no texture path,
   shared-memory cache, MRPB or reordering (their stages are not looked at here).
   Then every stage of ldst_cycle returns at its first test (most cycles of a
   memory-bound run: the queue's entries wait out their latency), so the cycle is
   left before its frame is built. (The tests most often failing first.) */
static inline bool ldst_idle(const ws_sm *sm) {
    if (sm->resp.head || sm->ld_disp || sm->next_wb) return false;
    if (sm->l1q_n && (sm->l1_banks != 1 || sm->l1q[sm->l1q_base[0]].ready <= sm->now)) return false;
    const ws_cache_head *c = ws_cache_head_of(sm->l1c), *d = ws_cache_head_of(sm->l1d);
    return !(c->mq_len | c->rd_len | d->mq_len | d->rd_len) && !sm_smem_head_full(sm) &&
           !sm->next_global && !sm->tex_live && !sm->ldst_extras;
}

static __attribute__((noinline)) void ldst_cycle(ws_sm *sm) {
    ldst_writeback(sm);
    if (sm->resp.head) process_response(sm); /* (most cycles have no reply: no call) */
    drain_cache(sm, sm->l1c, SM_C_L1C);
    drain_cache(sm, sm->l1d, SM_C_L1D);
    if (sm->smc && sm_smc_cache(sm)) drain_cache(sm, sm_smc_cache(sm), SM_C_SMC);
    if (sm->tex_live) sm_tex_cycle(sm);
    l1q_cycle(sm);
    if (sm->mrpb) sm_mrpb_cycle(sm);
    if (sm->ro && !sm->ld_disp) {
        sm_inst *r = sm_ro_select(sm);
        if (r) ldst_dispatch(sm, r);
    }

    sm_inst *in = sm->ld_disp;
    if (!in) return;
    if (in->rp_live) { /* -warpsim_hazard_mode replay: one access per pass */
        sm_replay_dispatch(sm, in);
        return;
    }
    if (!dispatch_step(sm, in)) {
        sm->ldst_stalls++;
        return;
    }
    if (in->space == WS_SPACE_SHARED) sm->st.shmem_accesses++;
    if (in->is_load && in->space == WS_SPACE_SHARED) {
        if (sm_smem_tail_taken(sm)) return; /* wait for the pipeline */
        sm_smem_push(sm, in);
        sm->ld_disp = NULL;
        if (in->rp_hold) sm_replay_retire(sm, in);
        return;
    }
    sm->ld_disp = NULL;
    if (in->rp_hold) sm_replay_retire(sm, in); /* -warpsim_hazard_mode retain */
    in->in_dispatch = false;
    if ((in->is_load || in->is_atomic) && !in->pending) finish_load(sm, in);
    else if (!in->is_load && !in->is_atomic) sm_inst_complete(sm, in);
}

void sm_ldst_cycle(ws_sm *sm) {
    if (!ldst_idle(sm)) ldst_cycle(sm);
}
