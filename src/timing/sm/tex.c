/* Texture path of the LD/ST unit: a read-only texture cache (L1T) per SM,
 * configured by -gpgpu_tex_cache:l1, with the generic cache's miss handling.
 *  - at issue the functional engine has read the texels; their addresses
 *    (every filter tap of every lane) become the instruction's distinct
 *    L1T blocks (lines, or 32 B sectors of a sectored L1T), in first-use
 *    order;
 *  - in the dispatch register the unit makes one L1T access per cycle, as
 *    for the constant cache: hits count the access done, misses wait in the
 *    MSHR, a reservation failure stalls the unit and retries;
 *  - misses go to memory as texture reads (WS_MA_TEXTURE_R); a fill makes
 *    the merged instructions ready, and they write back through writeback
 *    client 1 of the LD/ST unit, one per cycle.
 * GPGPU-Sim's texture pipeline proper (fragment FIFO, result FIFO, separate
 * texture latency) is not modelled. The L1T is invalidated at every kernel
 * start: the host may have rewritten texture memory between launches.
 *
 * An instruction's block list lives in a buffer from a per-SM pool, taken
 * at issue and given back when its last access has been made; the pool
 * grows only when more tex instructions are in flight than ever before. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/sm/hazard.h"
#include "timing/sm/sm_internal.h"

struct sm_texlines {
    sm_texlines *next_free, *next_all;
    uint32_t n;
    uint64_t block[WS_WARP_SIZE * WS_TEX_MAX_TAPS];
};

struct sm_tex {
    ws_cache *l1t;
    uint32_t atom;            /* bytes per L1T access (line, or sector) */
    bool maybe_ready;         /* a fill since the ready queue was last found empty */
    sm_texlines *free, *all;
};

int sm_tex_init(ws_sm *sm, char *err, size_t errlen) {
    char e[200];
    ws_cache_cfg cc;
    sm->tex = calloc(1, sizeof *sm->tex);
    if (!sm->tex) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    if (ws_cache_cfg_parse(sm->cfg->cache_tex, &cc, e, sizeof e) ||
        !(sm->tex->l1t = ws_cache_create("L1T", &cc, NULL, e, sizeof e))) {
        snprintf(err, errlen, "-gpgpu_tex_cache:l1: %s", e);
        return -1;
    }
    sm->tex->atom = ws_cache_atom(sm->tex->l1t);
    return 0;
}

void sm_tex_destroy(ws_sm *sm) {
    if (!sm->tex) return;
    for (sm_texlines *b = sm->tex->all, *nx; b; b = nx) {
        nx = b->next_all;
        free(b);
    }
    if (sm->tex->l1t) ws_cache_destroy(sm->tex->l1t);
    free(sm->tex);
    sm->tex = NULL;
}

void sm_tex_kernel_start(ws_sm *sm) { ws_cache_invalidate(sm->tex->l1t); }

static void put_lines(ws_sm *sm, sm_inst *in) {
    if (!in->tex) return;
    in->tex->next_free = sm->tex->free;
    sm->tex->free = in->tex;
    in->tex = NULL;
}

void sm_tex_issue(ws_sm *sm, sm_inst *in, const ws_step *st) {
    sm->tex_live = true;
    in->tex = NULL;
    if (!st->ntex) return; /* nothing read: inactive, or only border texels */
    sm_tex *t = sm->tex;
    sm_texlines *b = t->free;
    if (b) {
        t->free = b->next_free;
    } else {
        if (!(b = malloc(sizeof *b))) {
            ws_fault f = {WS_ERR_OUT_OF_MEMORY, "out of host memory (texture path)"};
            sm_set_fault(sm, &f);
            return;
        }
        b->next_all = t->all;
        t->all = b;
    }
    uint64_t mask = ~(uint64_t)(t->atom - 1);
    b->n = 0;
    for (uint32_t i = 0; i < st->ntex; i++) {
        uint64_t blk = st->tex_addr[i] & mask;
        bool seen = false; /* neighbouring taps share blocks: look back from the end */
        for (uint32_t j = b->n; j-- > 0 && !seen;) seen = b->block[j] == blk;
        if (!seen) b->block[b->n++] = blk;
    }
    in->tex = b;
}

unsigned sm_tex_dispatch_begin(ws_sm *sm, sm_inst *in) {
    (void)sm;
    return in->tex ? in->tex->n : 0;
}

bool sm_tex_dispatch_step(ws_sm *sm, sm_inst *in) {
    ws_fail_kind fk;
    ws_cache_status s = ws_cache_access(sm->tex->l1t, in->tex->block[sm->txpos], WS_ACC_READ,
                                        false, in, sm->now, &fk);
    if (s == WS_CACHE_RESERVATION_FAIL) {
        sm_hazard(sm, sm_hazard_of_fail(fk));
        return false;
    }
    if (s == WS_CACHE_HIT) in->pending--;
    if (++sm->txpos < sm->ntx) {
        sm_hazard(sm, SM_HZ_DIV);
        return false;
    }
    put_lines(sm, in);
    return true;
}

/* Send the oldest L1T miss towards memory (when the out queue has room). */
void sm_tex_cycle(ws_sm *sm) {
    ws_cache *c = sm->tex->l1t;
    if (!ws_cache_has_miss(c) || sm_outq_full(sm)) return;
    const ws_cache_out *o = ws_cache_peek_miss(c);
    if (o->kind == WS_OUT_READ_LINE) { /* a read-only cache sends nothing else */
        const sm_inst *in = o->req;
        ws_mreq *r = sm_new_req(sm, WS_MA_TEXTURE_R, o->addr, o->size, in ? in->warp : 0);
        sm_pend *p = sm_pend_alloc(sm);
        p->cache = SM_C_L1T;
        p->block = o->addr;
        p->want = r->sectors;
        r->origin = p;
        sm->n_pend++;
        sm_outq_push(sm, r);
    }
    ws_cache_pop_miss(c);
}

void sm_tex_fill(ws_sm *sm, uint64_t block) {
    ws_cache_fill(sm->tex->l1t, block, sm->now);
    sm->tex->maybe_ready = true;
}

sm_inst *sm_tex_pop_ready(ws_sm *sm) {
    sm_inst *in = ws_cache_pop_ready(sm->tex->l1t);
    if (!in) sm->tex->maybe_ready = false;
    return in;
}

bool sm_tex_has_ready(const ws_sm *sm) { return ws_cache_has_ready(sm->tex->l1t); }

bool sm_tex_busy(const ws_sm *sm) { return ws_cache_has_miss(sm->tex->l1t); }

/* Work for the next cycle: a miss to send or (perhaps) a fill to write back. */
bool sm_tex_wants_cycle(const ws_sm *sm) { return sm_tex_busy(sm) || sm->tex->maybe_ready; }

void sm_tex_stats(const ws_sm *sm, uint64_t *access, uint64_t *miss) {
    const ws_cache_stats *c = ws_cache_get_stats(sm->tex->l1t);
    *access = c->status[0][WS_CACHE_HIT] + c->status[0][WS_CACHE_HIT_RESERVED] +
              c->status[0][WS_CACHE_MISS];
    *miss = c->status[0][WS_CACHE_MISS];
}
