/* Fetch and decode. Fetch picks, round robin after the warp fetched last, a
 * warp whose instruction buffer has room for a fill (two free entries, or
 * one with a 1-entry buffer; -warpsim_warp_buffer entries, 2 by default:
 * GPGPU-Sim's ibuffer, which fetches only when empty) and no instruction
 * miss pending, and reads up to two instructions (16 bytes, not crossing a
 * line) at 0xF0000000 + 8 * pc through the L1I (-gpgpu_cache:il1). A hit
 * fills the single fetch buffer, which decode appends to the warp's
 * instruction buffer the next cycle (unless the warp changed path since); a
 * miss leaves as a WS_MA_INST request and the warp waits for the fill. Warps fetch along their predicted sequential path; issue
 * flushes the ibuffer when the functional pc differs (GPGPU-Sim's control
 * hazard), so taken branches cost a refetch as they do there. */
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"
#include "timing/sm/sm_internal.h"
#include "ptx/mma.h"

int sm_fetch_init(ws_sm *sm, char *err, size_t errlen) {
    ws_cache_cfg cc;
    char e[200];
    if (ws_cache_cfg_parse(sm->cfg->cache_il1, &cc, e, sizeof e)) {
        snprintf(err, errlen, "-gpgpu_cache:il1: %s", e);
        return -1;
    }
    sm->l1i = ws_cache_create("L1I", &cc, NULL, e, sizeof e);
    if (!sm->l1i) {
        snprintf(err, errlen, "-gpgpu_cache:il1: %s", e);
        return -1;
    }
    sm->last_fetched = 0;
    return 0;
}

void sm_ibuf_flush(sm_warp *w) {
    for (unsigned i = 0, j = w->ib_next; i < w->ib_n; i++, j = j + 1 == w->ib_depth ? 0 : j + 1)
        w->ib[j].valid = false;
    w->ib_next = 0;
    w->ib_n = 0;
}

/* (the room test and the fetchable mark: sm_internal.h, inline for the issue; here out of
   line, also for this file's fill and fetch, which stay smaller without it) */
__attribute__((noinline)) void sm_fetch_mark(ws_sm *sm, unsigned wi) {
    sm_fetch_mark_inline(sm, wi, &sm->warps[wi]);
}

/* The first warp that can fetch, round robin after the one fetched last;
   -1 if none. (inline for the fetch round; sm_fetch_pick for the SM's sleep test) */
static inline int fetch_pick(const ws_sm *sm) {
    if (sm->max_warps <= 64) {
        uint64_t m = sm->fetchable;
        if (!m) return -1;
        /* (the warps after the last fetched, last_fetched < max_warps <= 64: none after the
           last warp, and then the first, as the round's wrap to 0 gives) */
        uint64_t after = m & (~0ull << sm->last_fetched << 1);
        return __builtin_ctzll(after ? after : m);
    }
    for (uint32_t i = 0; i < sm->max_warps; i++) {
        unsigned wi = (sm->last_fetched + 1 + i) % sm->max_warps;
        if (sm_can_fetch(&sm->warps[wi])) return (int)wi;
    }
    return -1;
}
int sm_fetch_pick(const ws_sm *sm) { return fetch_pick(sm); }

void sm_fetch_reply(ws_sm *sm, uint64_t block) { ws_cache_fill(sm->l1i, block, sm->now); }

/* Send one L1I miss towards memory if there is room. */
void sm_fetch_drain(ws_sm *sm) {
    if (!ws_cache_has_miss(sm->l1i) || sm_outq_full(sm)) return;
    const ws_cache_out *o = ws_cache_peek_miss(sm->l1i);
    if (sm->cfg->perfect_memory || sm->cfg->perfect_icache) { /* the line is there a cycle later */
        uint64_t b = o->addr;
        ws_cache_pop_miss(sm->l1i);
        ws_cache_fill(sm->l1i, b, sm->now);
        return;
    }
    uint16_t wi = (uint16_t)((uintptr_t)o->req - 1);
    ws_mreq *r = sm_new_req(sm, WS_MA_INST, o->addr, o->size, wi);
    sm_pend *p = sm_pend_alloc(sm);
    p->cache = SM_C_L1I;
    p->block = o->addr;
    p->want = r->sectors;
    r->origin = p;
    sm->n_pend++;
    ws_cache_pop_miss(sm->l1i);
    sm_outq_push(sm, r);
}

static void fetch_one(ws_sm *sm);

/* A fetch round that may fetch (sm_fetch_cycle, sm_internal.h, passes the others). */
void sm_fetch_step(ws_sm *sm) {
    fetch_one(sm);
    if (ws_cache_has_miss(sm->l1i)) sm_fetch_drain(sm); /* (its first test, inline) */
}

/* A fill that came back completes its warp's fetch; else one warp fetches. (sm_fetch_cycle
   calls only with the fetch buffer free and a fill ready or a warp that may start one:
   CTAs resident, so those are not tested again) */
static void fetch_one(ws_sm *sm) {
    void *rd = ws_cache_pop_ready(sm->l1i);
    if (rd) {
        /* a fill came back: the waiting warp's fetch completes */
        unsigned wi = (unsigned)((uintptr_t)rd - 1);
        sm_warp *w = &sm->warps[wi];
        w->imiss = false;
        sm_fetch_mark(sm, wi);
        if (w->valid && !w->func_done && sm_ib_room(w)) {
            sm->fb_valid = true;
            sm->fb_warp = wi;
            sm->fb_func = w->fetch_func;
            sm->fb_pc = w->fetch_pc;
        }
        return;
    }
    int pick = fetch_pick(sm); /* (inline: most rounds that get here fetch) */
    if (pick < 0) return;
    unsigned wi = (unsigned)pick;
    sm_warp *w = &sm->warps[wi];
    uint64_t addr =
        SM_PROGRAM_BASE + (uint64_t)SM_INST_BYTES * (sm->func_base[w->fetch_func] + w->fetch_pc);
    ws_fail_kind fk;
    ws_cache_status s = sm->cfg->perfect_inst_const_cache /* a hit, the L1I untouched */
                            ? WS_CACHE_HIT
                            : ws_cache_access(sm->l1i, addr, WS_ACC_READ, false,
                                              (void *)(uintptr_t)(wi + 1), sm->now, &fk);
    sm->last_fetched = wi;
    if (s == WS_CACHE_HIT) {
        sm->fb_valid = true;
        sm->fb_warp = wi;
        sm->fb_func = w->fetch_func;
        sm->fb_pc = w->fetch_pc;
    } else if (s != WS_CACHE_RESERVATION_FAIL) {
        w->imiss = true;
        sm_fetch_mark(sm, wi);
    }
}

/* The fill's entries after the buffer's tail, up to n (the first even past the end of the
   function: GPGPU-Sim fills a NULL instruction, and issue then resynchronises the warp; the
   second only after a real instruction inside the function); returns how many. (apart: the
   common fill, two into an empty buffer, is written straight and needs fewer registers) */
__attribute__((noinline)) static unsigned fill_entries(ws_sm *sm, sm_warp *w, const ws_func *f,
                                                       uint32_t pc, unsigned n) {
    unsigned k = 0, pos = w->ib_next + w->ib_n;
    for (; k < n; k++, pos++) {
        if (k && pc + k >= f->ninsts) break; /* the end of the function (or the first was past it) */
        if (pos >= w->ib_depth) pos -= w->ib_depth;
        sm_ibuf *e = &w->ib[pos];
        bool in = pc + k < f->ninsts;
        e->valid = true;
        e->func = sm->fb_func;
        e->pc = pc + k;
        e->inst = in ? &f->insts[pc + k] : NULL;
        e->dec = in ? &sm->dec[sm->fb_func][pc + k] : NULL;
        w->ib_n++;
    }
    return k;
}

void sm_decode_fill(ws_sm *sm) {
    sm->fb_valid = false;
    sm_warp *w = &sm->warps[sm->fb_warp];
    if (!w->valid || w->func_done) return;
    /* a deeper buffer may have issued and changed path since the fetch:
       then the fetched instructions are not the ones after its tail */
    if (sm->fb_func != w->fetch_func || sm->fb_pc != w->fetch_pc) {
        sm_fetch_mark(sm, sm->fb_warp);
        return;
    }
    sm_view_unblock(sm, sm->fb_warp, false); /* (a new generation or its scheduler's memo) */
    const ws_func *f = &sm->mod->funcs[sm->fb_func];
    uint32_t pc = sm->fb_pc;
    unsigned n = sm_fill_n(w);
    if (!w->ib_n) w->ib_next = 0;
    if (!w->ib_n && n == 2 && pc + 1 < f->ninsts) { /* (the common fill: two, both in the function) */
        const ws_inst *ins = &f->insts[pc];
        const sm_dec *dec = &sm->dec[sm->fb_func][pc];
        w->ib[0] = (sm_ibuf){.inst = ins, .dec = dec, .func = sm->fb_func, .pc = pc, .valid = true};
        w->ib[1] = (sm_ibuf){.inst = ins + 1, .dec = dec + 1, .func = sm->fb_func, .pc = pc + 1,
                             .valid = true};
        w->ib_n = 2;
        w->fetch_pc = pc + 2;
        /* sm_fetch_mark: two entries and room for a fill of two need four (the default
           buffer of two, as most, has no room until it empties) */
        if (w->ib_depth < 4) {
            if (sm->fb_warp < 64) sm->fetchable &= ~(1ull << sm->fb_warp);
            return;
        }
    } else {
        unsigned k = fill_entries(sm, w, f, pc, n);
        w->fetch_pc = pc + k; /* the next fill continues after the tail */
    }
    sm_fetch_mark_inline(sm, sm->fb_warp, w); /* (inline: every fill ends here) */
}

/* ---- decode once per kernel ------------------------------------------------ */
static void add_dst(sm_dec *d, unsigned id) {
    if (d->ndst < SM_MAX_DST) d->dst[d->ndst++] = (uint16_t)id;
}
static void add_src(sm_dec *d, unsigned id, int arch) {
    if (d->nsrc < SM_MAX_SRC) {
        d->src[d->nsrc++] = (uint16_t)id;
        if (arch >= 0) d->bank[d->nrd++] = (uint16_t)arch;
    }
}

void sm_decode_inst(const ws_sm *sm, const ws_inst *in, const uint16_t *names, uint32_t nregs,
                    sm_dec *d) {
    unsigned P = sm->sb_preds_at;
    sm_classify(sm, in, &d->cls, &d->lat, &d->ii);
    for (unsigned i = 0; i < in->ndst && i < WS_MAX_DST; i++) {
        const ws_operand *o = &in->dst[i];
        switch (o->kind) {
        case WS_OPND_REG: add_dst(d, o->reg); break;
        case WS_OPND_PRED: add_dst(d, P + o->reg); break;
        case WS_OPND_VEC:
            for (unsigned k = 0; k < o->vecn && k < 4; k++)
                if (o->vreg[k] != WS_NOREG) add_dst(d, (o->vec_is_pred ? P : 0) + o->vreg[k]);
            break;
        case WS_OPND_MEM:
            if (o->reg != WS_NOREG) add_src(d, o->reg, -1);
            break;
        default: break;
        }
    }
    for (unsigned i = 0; i < in->nsrc && i < WS_MAX_SRC; i++) {
        const ws_operand *o = &in->src[i];
        switch (o->kind) {
        case WS_OPND_REG: add_src(d, o->reg, names[o->reg]); break;
        case WS_OPND_PRED: add_src(d, P + o->reg, names[nregs + o->reg]); break;
        case WS_OPND_VEC:
            for (unsigned k = 0; k < o->vecn && k < 4; k++) {
                if (o->vreg[k] == WS_NOREG || ws_vec_is_imm(o, k)) continue;
                if (o->vec_is_pred) add_src(d, P + o->vreg[k], names[nregs + o->vreg[k]]);
                else add_src(d, o->vreg[k], names[o->vreg[k]]);
            }
            break;
        case WS_OPND_MEM: /* address registers: scoreboard only, not a bank read
                             (GPGPU-Sim does not collect them) */
            if (o->reg != WS_NOREG) add_src(d, o->reg, -1);
            break;
        default: break;
        }
    }
    if ((in->op == WS_OP_WMMA || in->op == WS_OP_MMA) && in->call_args) { /* fragment registers */
        unsigned nd = in->sub == WS_MMA_MMA ? ws_mma_frag_regs(in, WS_FRAG_D)
                      : in->sub == WS_MMA_STORE_D ? 0 : in->ncall_args;
        for (unsigned k = 0; k < in->ncall_args; k++) {
            unsigned r = in->call_args[k];
            if (k < nd) add_dst(d, r);
            else add_src(d, r, names[r]);
        }
    }
    if (in->guard != WS_NOREG) add_src(d, P + in->guard, -1);
    d->is_mem = d->cls == SM_MEM;
    d->is_membar = d->is_mem && (in->op == WS_OP_MEMBAR || in->op == WS_OP_FENCE ||
                                 (in->op == WS_OP_CP_ASYNC && (in->sub == WS_CPA_WAIT_GROUP ||
                                                               in->sub == WS_CPA_WAIT_ALL)));
    d->is_cpasync = d->is_mem && in->op == WS_OP_CP_ASYNC && (in->sub == WS_CPA_COPY || in->sub == WS_CPA_BULK);
    /* the scoreboard test in one AND (every id in the first word) or two (every id in two
       words: registers and a guard, or registers across a word's end; sm_sb_hit) */
    d->sb_one = d->sb_two = true;
    unsigned wa = ~0u, wb = ~0u;
    for (unsigned i = 0; i < d->ndst + d->nsrc; i++) {
        unsigned id = i < d->ndst ? d->dst[i] : d->src[i - d->ndst], wd = id >> 6;
        uint64_t bit = 1ull << (id & 63);
        if (id < 64) d->sb_bits |= bit;
        else d->sb_one = false;
        if (wa == ~0u || wd == wa) {
            wa = wd;
            d->sb_ma |= bit;
        } else if (wb == ~0u || wd == wb) {
            wb = wd;
            d->sb_mb |= bit;
        } else d->sb_two = false;
    }
    d->sb_wa = (uint8_t)(wa == ~0u ? 0 : wa);
    d->sb_wb = (uint8_t)(wb == ~0u ? d->sb_wa : wb);
    if (wa > 255 && wa != ~0u) d->sb_two = false; /* (word indices in a byte) */
    if (wb > 255 && wb != ~0u) d->sb_two = false;
    switch ((ws_opcode)in->op) {
    case WS_OP_BRA: case WS_OP_CALL: case WS_OP_RET: case WS_OP_EXIT: case WS_OP_TRAP:
        d->is_ctrl = true;
        break;
    default: break;
    }
}
