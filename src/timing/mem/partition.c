/* Memory partition: a DRAM channel and its L2 sub-partitions, following
 * GPGPU-Sim's memory_partition_unit / memory_sub_partition.
 *
 * A request from the interconnect (at a sectored L2: one 32 B request per
 * sector it covers, children of the original) waits the ROP latency, then
 * enters the icnt->L2 queue and accesses the L2 slice. Hits are answered at
 * once; misses go through the slice's MSHRs and miss queue to the L2->DRAM
 * queue, wait -dram_latency, are served by the DRAM channel, come back
 * through the DRAM->L2 queue and fill the slice, which releases every
 * request merged on them. Replies (and write acknowledgements) wait in the
 * L2->icnt queue, one packet per sector (the SM gathers the sectors of a
 * line or store). */
#include "timing/mem/partition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/mem/addrdec.h"
#include "timing/mem/dram.h"

enum { MF_FILL = 1, MF_NOACK = 2 }; /* ws_mreq.mflags */

/* An entry of the L2->DRAM and DRAM latency queues. Writebacks have no
 * request object (r == NULL) and are completed silently by the DRAM. */
typedef struct dram_item {
    ws_mreq *r;
    uint64_t ready;       /* latency queue: core cycle it may enter the DRAM */
    ws_dram_req d;
    uint8_t sub;          /* local sub-partition */
} dram_item;

typedef struct item_ring {
    dram_item *v;
    uint32_t cap, head, len;
} item_ring;

typedef struct subpart {
    ws_cache *l2;
    ws_mreq_fifo rop, icnt_l2, dram_l2;
    ws_mreq_fifo *l2_icnt; /* its entry of scan.l2_icnt */
    item_ring l2_dram;
    ws_mreq *ready_hold;  /* released by a fill, waiting for L2->icnt room */
    uint32_t data_port_busy, fill_port_busy;
    uint32_t inbox_tex;   /* entries that the inbox's requests will add to icnt_l2 */
    bool *full;           /* its entry of scan.full, kept where icnt_l2 or inbox_tex change */
    /* It was quiet (subpart_quiet) at its last test and stays so before this
       L2 cycle: its ROP head's due cycle (UINT64_MAX: none), or 0 (test it).
       Whatever makes a quiet sub-partition act before then sets it to 0: a
       request entering it, a DRAM reply reaching it, a kernel boundary or a
       memcpy's fill. Its own cycles and tests change the rest. */
    uint64_t quiet_until;
} subpart;

struct ws_mempart {
    ws_mempart_scan scan; /* first: read by partition.h's inline functions */
    ws_mreq_pool *pool;
    ws_addrdec ad;
    uint32_t chan, nsub;
    subpart *sp;
    ws_dram *dram;
    item_ring lat;        /* DRAM latency queue */
    ws_mreq *ret_hold;    /* popped from the DRAM return queue, waiting for DRAM->L2 room */
    uint32_t last_issued;
    /* arbitration between sub-partitions for the DRAM (GPGPU-Sim's credits):
       one private credit each, the rest shared */
    uint32_t *priv_credit, shared_credit, shared_limit;
    /* sizes */
    /* queue sizes, 0 (unbounded) kept as UINT32_MAX: a queue is full at len >= size */
    uint32_t q_icnt_l2, q_l2_dram, q_dram_l2, q_l2_icnt;
    /* a sub-partition is full (refull) from this many icnt->L2 entries,
       counted ones included: q_icnt_l2 less the room kept for a line's
       sector requests but one, at least 0 */
    uint64_t full_at;
    uint32_t rop_latency, dram_latency, port_width, atom;
    bool sectored, texture_only, part_local_index, flush_l2;
    uint32_t l2_dram_n;   /* entries in the sub-partitions' L2->DRAM queues together */
    /* requests given by ws_subpart_push since the partition's last cycle,
       in order: they enter their sub-partitions (split into sectors) at the
       start of its next cycle, in its own item of the parallel phase rather
       than in the serial step that moves them out of the interconnect */
    ws_mreq_fifo inbox;
    bool inbox_tex_any;   /* a texture fetch is in the inbox: some inbox_tex is not 0 */
    /* The channel was a settled idle one at its last check: it stays so
       until a DRAM cycle runs (only dram_cycle gives it work), so its idle
       cycles are counted here and handed to it in one call, before that
       cycle or when the statistics are read (ws_mempart_get_stats). */
    bool dram_settled;    /* (its idle cycles counted apart: scan.dram_now - idle_from) */
    uint64_t idle_from;   /* settled: the DRAM cycle from which its idle cycles are owed */
    bool plain;           /* tests: none of the shortcuts (these two, quiet_until) */
    ws_mempart_stats stats;
};

/* ---- small helpers ---- */
static void count_full(ws_mempart *p);
static bool ring_push(item_ring *q, const dram_item *it) {
    if (q->len == q->cap) {
        uint32_t ncap = q->cap ? 2 * q->cap : 64;
        dram_item *n = malloc(ncap * sizeof *n);
        if (!n) abort();
        for (uint32_t i = 0; i < q->len; i++) n[i] = q->v[(q->head + i) % q->cap];
        free(q->v);
        q->v = n;
        q->cap = ncap;
        q->head = 0;
    }
    q->v[(q->head + q->len++) % q->cap] = *it;
    return true;
}
static dram_item *ring_top(item_ring *q) { return q->len ? &q->v[q->head] : NULL; }
static void ring_pop(item_ring *q) {
    q->head = (q->head + 1) % q->cap;
    q->len--;
}

static bool qfull(const ws_mreq_fifo *q, uint32_t size) { return q->len >= size; }
static uint32_t qsize(uint32_t size) { return size ? size : UINT32_MAX; }

static int parse_queues(const char *s, uint32_t out[4]) {
    int64_t v[4];
    if (ws_config_int_list(s, v, 4) != 4) {
        /* GPGPU-Sim writes them with ':' */
        char buf[64];
        snprintf(buf, sizeof buf, "%s", s);
        for (char *c = buf; *c; c++)
            if (*c == ':') *c = ',';
        if (ws_config_int_list(buf, v, 4) != 4) return -1;
    }
    for (int i = 0; i < 4; i++) {
        if (v[i] < 0) return -1;
        out[i] = (uint32_t)v[i];
    }
    return 0;
}

/* ---- create / destroy ---- */
ws_mempart *ws_mempart_create(const ws_config *cfg, uint32_t chan, ws_mreq_pool *pool, char *err,
                              size_t errlen) {
    ws_mempart *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->pool = pool;
    p->chan = chan;
    if (ws_addrdec_init(&p->ad, cfg, err, errlen)) goto fail;
    p->nsub = p->ad.n_sub_per_chan;
    uint32_t q[4];
    if (parse_queues(cfg->dram_partition_queues, q)) {
        snprintf(err, errlen,
                 "option -gpgpu_dram_partition_queues: '%s' is not four sizes "
                 "icnt_L2:L2_dram:dram_L2:L2_icnt",
                 cfg->dram_partition_queues);
        goto fail;
    }
    p->q_icnt_l2 = qsize(q[0]);
    p->q_l2_dram = qsize(q[1]);
    p->q_dram_l2 = qsize(q[2]);
    p->q_l2_icnt = qsize(q[3]);
    p->rop_latency = (uint32_t)cfg->l2_rop_latency;
    p->dram_latency = (uint32_t)cfg->dram_latency;
    p->texture_only = cfg->cache_dl2_texture_only;
    /* -1: a GPGPU-Sim 4 cache string ("N:"/"S:" prefix) means 4.x semantics */
    p->part_local_index = cfg->l2_partition_local_index >= 0
                              ? cfg->l2_partition_local_index
                              : (cfg->cache_dl2[0] == 'N' || cfg->cache_dl2[0] == 'S') &&
                                    cfg->cache_dl2[1] == ':';
    p->flush_l2 = cfg->flush_l2_cache;

    ws_dram_timing t = {0};
    t.BL = (uint32_t)cfg->dram_burst_length;
    t.data_ratio = (uint32_t)cfg->dram_data_command_freq_ratio;
    t.atom_bytes = (uint32_t)(cfg->dram_burst_length * cfg->dram_buswidth * cfg->n_mem_per_ctrlr);
    t.bnkgrp_low_bits = cfg->dram_bnkgrp_indexing_policy != 0;
    if (ws_dram_timing_parse(cfg->dram_timing_opt, &t, err, errlen)) goto fail;
    p->dram = ws_dram_create(&t, (uint32_t)cfg->frfcfs_queue_size, cfg->dram_scheduler == 1,
                             (uint32_t)cfg->dram_return_queue_size);
    if (!p->dram) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    uint32_t sched = (uint32_t)cfg->frfcfs_queue_size, ret = (uint32_t)cfg->dram_return_queue_size;
    p->shared_limit = (sched && ret) ? sched + ret - (p->nsub - 1) : 0; /* 0: unlimited */
    p->priv_credit = calloc(p->nsub, sizeof *p->priv_credit);
    p->sp = calloc(p->nsub, sizeof *p->sp);
    p->scan.l2_icnt = calloc(p->nsub, sizeof *p->scan.l2_icnt);
    p->scan.full = calloc(p->nsub, sizeof *p->scan.full);
    if (!p->sp || !p->priv_credit || !p->scan.l2_icnt || !p->scan.full) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    ws_cache_cfg cc;
    if (ws_cache_cfg_parse(cfg->cache_dl2, &cc, err, errlen)) goto fail;
    char hints[96];
    snprintf(hints, sizeof hints, "nv=%lld:ns=%lld:ni=%lld", (long long)cfg->adi_nv,
             (long long)cfg->adi_ns, (long long)cfg->adi_ni);
    cc.index_hints = hints;
    const char *ix = cfg->l2_index && *cfg->l2_index ? cfg->l2_index : NULL;
    p->sectored = cc.sectored;
    p->port_width = cc.data_port_width;
    for (uint32_t k = 0; k < p->nsub; k++) {
        p->sp[k].l2_icnt = &p->scan.l2_icnt[k];
        p->sp[k].full = &p->scan.full[k];
        char name[32];
        snprintf(name, sizeof name, "L2_bank_%03u", chan * p->nsub + k);
        if (!(p->sp[k].l2 = ws_cache_create(name, &cc, ix, err, errlen))) {
            if (ix) { /* name the option, keep the policy's message */
                char m[256];
                snprintf(m, sizeof m, "-l2_index: %s", err);
                snprintf(err, errlen, "%s", m);
            }
            goto fail;
        }
    }
    p->atom = ws_cache_atom(p->sp[0].l2);
    const uint32_t keep = p->sectored ? 3 : 0; /* (a line's sector requests but one) */
    p->full_at = p->q_icnt_l2 > keep ? p->q_icnt_l2 - keep : 0;
    count_full(p); /* tiny icnt->L2 queues are full from the start */
    return p;
fail:
    ws_mempart_destroy(p);
    return NULL;
}

static void free_fifo(ws_mempart *p, ws_mreq_fifo *q) {
    ws_mreq *r;
    while ((r = ws_mreq_fifo_pop(q))) ws_mreq_free(p->pool, r);
}

void ws_mempart_destroy(ws_mempart *p) {
    if (!p) return;
    /* requests still inside (a run stopped early) go back to the pool */
    if (p->sp)
        for (uint32_t k = 0; k < p->nsub; k++) {
            subpart *s = &p->sp[k];
            free_fifo(p, &s->rop);
            free_fifo(p, &s->icnt_l2);
            free_fifo(p, &s->dram_l2);
            if (s->l2_icnt) free_fifo(p, s->l2_icnt);
            free(s->l2_dram.v);
            ws_cache_destroy(s->l2);
        }
    free_fifo(p, &p->inbox);
    free(p->sp);
    free(p->scan.l2_icnt);
    free(p->scan.full);
    free(p->lat.v);
    free(p->priv_credit);
    ws_dram_destroy(p->dram);
    free(p);
}

uint32_t ws_mempart_nsub(const ws_mempart *p) { return p->nsub; }

/* ---- icnt side ---- */
/* Sub-partition s's icnt->L2 queue or inbox_tex changed: is it full now?
   GPGPU-Sim keeps room for a whole line's sector requests. */
static inline void refull(ws_mempart *p, subpart *s) {
    bool f = (uint64_t)s->icnt_l2.len + s->inbox_tex >= p->full_at;
    p->scan.n_full_now += (uint32_t)f - (uint32_t)*s->full;
    *s->full = f;
}

static void count_full(ws_mempart *p) { /* every sub-partition's, published */
    for (uint32_t k = 0; k < p->nsub; k++) refull(p, &p->sp[k]);
    p->scan.n_full = p->scan.n_full_now;
}

static bool is_texture(const ws_mreq *r) { return r->access == WS_MA_TEXTURE_R; }

static void enter(ws_mempart *p, subpart *s, ws_mreq *r, uint64_t now) {
    r->t_l2_in = now;
    p->scan.l2_quiet_until = 0;
    s->quiet_until = 0;
    /* textures skip the ROP (GPGPU-Sim); the ROP queue itself is unbounded */
    if (is_texture(r)) ws_mreq_fifo_push(&s->icnt_l2, r);
    else ws_mreq_fifo_push(&s->rop, r);
}

/* Does r enter as one request (else one per sector of sector_mask)? */
static bool whole(const ws_mempart *p, const ws_mreq *r) {
    return !p->sectored || (p->texture_only && !is_texture(r)) || r->data_size <= 32;
}

/* The sectors that a request split by the sectored L2 asks for: all four
   for a whole line, else those of its mask (GPGPU-Sim 4's L2) */
static uint8_t sector_mask(const ws_mreq *r) {
    uint8_t mask = r->data_size >= 128 || !r->sectors ? 0xF : r->sectors;
    if (r->data_size == 64 && (r->sectors == 0xF || !r->sectors))
        mask = (r->addr & 127) ? 0xC : 0x3;
    return mask;
}

/* The piece of r (split by the sectored L2) for sector i of its line, not
   linked. */
static inline __attribute__((always_inline)) ws_mreq *sector_piece(ws_mempart *p, ws_mreq *r,
                                                                  uint32_t i, uint64_t line,
                                                                  uint64_t part_line) {
    ws_mreq *c = ws_mreq_alloc_copy(p->pool, r); /* (its next: NULL) */
    c->parent = r;
    c->addr = line + 32 * i;
    c->data_size = 32;
    c->sectors = (uint8_t)(1u << i);
    uint8_t b[4]; /* its sector's bytes only */
    memcpy(b, r->bytes + i * 4, 4);
    memset(c->bytes, 0, sizeof c->bytes);
    memcpy(c->bytes + i * 4, b, 4);
    c->part_addr = part_line + 32 * i;
    return c;
}

static void take(ws_mempart *p, subpart *s, ws_mreq *r, uint64_t now) {
    r->parent = NULL;
    r->mflags = r->access == WS_MA_L1_WRBK ? MF_NOACK : 0;
    if (whole(p, r)) {
        if (p->sectored && r->data_size <= 32 && !r->sectors) r->sectors = (uint8_t)(1u << ((r->addr >> 5) & 3));
        enter(p, s, r, now);
        return;
    }
    uint64_t line = r->addr & ~(uint64_t)127;
    uint64_t part_line = r->part_addr - (r->addr - line);
    uint8_t mask = sector_mask(r);
    r->pending = 0;
    /* enter() for each piece, its tests and stores made once: the pieces
       copy the entry cycle and share the parent's queue */
    r->t_l2_in = now;
    p->scan.l2_quiet_until = 0;
    s->quiet_until = 0;
    ws_mreq_fifo *q = is_texture(r) ? &s->icnt_l2 : &s->rop;
    /* the pieces (the sectors in ascending order; at least one) are linked
       in order as they are made, then join the queue together, as one push
       each would have left them; the parent's count goes up after each
       copy (each piece holds the count before it, as it did) */
    uint32_t m = mask, n = 1;
    ws_mreq *first = sector_piece(p, r, (uint32_t)__builtin_ctz(m), line, part_line), *last = first;
    r->pending = 1;
    for (m &= m - 1; m; m &= m - 1) {
        ws_mreq *c = sector_piece(p, r, (uint32_t)__builtin_ctz(m), line, part_line);
        last->next = c;
        last = c;
        r->pending = (uint16_t)++n;
    }
    ws_mreq_fifo_push_chain(q, first, last, n);
}

/* The inbox's requests enter, in the order given (their pieces take
   request numbers from the pool in that order, as when they entered at
   once); each keeps the cycle it was given in. */
static void take_inbox(ws_mempart *p) {
    for (ws_mreq *r = p->inbox.head, *nx; r; r = nx) {
        nx = r->next;
        take(p, &p->sp[r->subpart % p->nsub], r, r->t_l2_in);
    }
    p->inbox = (ws_mreq_fifo){0};
    /* (the entries counted ahead are in icnt_l2 now: `full` stays as it was) */
    if (p->inbox_tex_any) /* (else every inbox_tex is 0 already) */
        for (uint32_t k = 0; k < p->nsub; k++) p->sp[k].inbox_tex = 0;
    p->inbox_tex_any = false;
}

void ws_subpart_push(ws_mempart *p, uint32_t k, ws_mreq *r, uint64_t now) {
    p->scan.dram_until = 0; /* the DRAM step takes the inbox in first */
    /* every request enters a sub-partition (enter) when the inbox is taken,
       before the L2 step reads this: a non-empty inbox is never passed by
       (ws_mempart_l2_cycle's inline test) */
    p->scan.l2_quiet_until = 0;
    p->stats.reqs_in++;
    p->scan.moves++;
    if (r->subpart % p->nsub != k) { /* not addressed to k (a unit test): at once */
        take(p, &p->sp[k], r, now);
        refull(p, &p->sp[k]); /* (published at the next L2 cycle's end) */
        return;
    }
    r->t_l2_in = now;
    ws_mreq_fifo_push(&p->inbox, r);
    if (is_texture(r)) {
        p->sp[k].inbox_tex += whole(p, r) ? 1u : (uint32_t)__builtin_popcount(sector_mask(r));
        p->inbox_tex_any = true;
        refull(p, &p->sp[k]);
        p->scan.n_full = p->scan.n_full_now;
    }
}


/* A request is done at the L2 (hit, write accepted, or its data came
 * back): answer it, or its parent once every sector is done. Callers have
 * checked that the L2->icnt queue has room. (Inline: the L2 step answers
 * every request through it.) */
static inline __attribute__((always_inline)) void complete(ws_mempart *p, subpart *s, ws_mreq *r,
                                                          uint64_t now) {
    ws_mreq *par = r->parent;
    if (par) {
        /* each sector travels back as its own packet, as in GPGPU-Sim 4 (the
           SM counts them: a line fill waits for all its sectors, a store for
           all its acknowledgements); the parent goes once all are answered */
        if (--par->pending == 0) ws_mreq_free(p->pool, par);
        /* (r->parent is left: only complete reads it, once per request, and
           take sets it before) */
    }
    if (r->mflags & MF_NOACK) { /* L1 writebacks get no acknowledgement */
        ws_mreq_free(p->pool, r);
        return;
    }
    r->is_reply = true;
    r->t_returned = now;
    ws_mreq_fifo_push(s->l2_icnt, r);
    p->scan.n_replies++;
}

/* ---- L2 clock ---- */
/* A write's bytes within its 32 B sector (sectored L2), or WS_WRITE_FULL /
   0 for a whole / partial line (line-granular L2). */
static uint32_t write_bytes(const ws_mempart *p, const ws_mreq *r);

static bool full_write(const ws_mempart *p, const ws_mreq *r) {
    if (!p->sectored) {
        for (int i = 0; i < 16; i++)
            if (r->bytes[i] != 0xFF) return false;
        return true;
    }
    uint32_t i = (uint32_t)((r->addr >> 5) & 3);
    return r->bytes[i * 4] == 0xFF && r->bytes[i * 4 + 1] == 0xFF && r->bytes[i * 4 + 2] == 0xFF &&
           r->bytes[i * 4 + 3] == 0xFF;
}

static uint32_t write_bytes(const ws_mempart *p, const ws_mreq *r) {
    if (!p->sectored) return full_write(p, r) ? WS_WRITE_FULL : 0;
    uint32_t i = (uint32_t)((r->addr >> 5) & 3);
    return (uint32_t)r->bytes[i * 4] | (uint32_t)r->bytes[i * 4 + 1] << 8 |
           (uint32_t)r->bytes[i * 4 + 2] << 16 | (uint32_t)r->bytes[i * 4 + 3] << 24;
}

static void make_dram_item(ws_mempart *p, dram_item *it, ws_mreq *r, uint64_t addr, uint32_t bytes,
                           bool write, uint8_t sub) {
    ws_mreq tmp = {0};
    tmp.addr = addr;
    ws_addrdec_decode(&p->ad, &tmp);
    memset(it, 0, sizeof *it);
    it->r = r;
    it->sub = sub;
    it->d.owner = r;
    it->d.bank = tmp.bank;
    it->d.row = tmp.row;
    it->d.col = tmp.col;
    it->d.bytes = bytes;
    it->d.write = write;
    it->d.no_reply = r == NULL;
}

/* No step of subpart_cycle acts: nothing queued, held or counting down but
   requests in the ROP queue whose delay has not passed (the first of them
   enters the icnt->L2 queue only when its own has). The large machines have
   many idle sub-partitions every cycle, and a request waits the ROP delay
   (over a hundred cycles) in an otherwise idle one. A data port busy for 1
   more cycle counts as quiet: the cycle would only count it down to 0, and
   nothing reads it before the next cycle that runs does that (step 3 comes
   before step 4, its only reader), so it is as if it were 0 already (the
   cycle after a sector's read hit, at a 32 B port). */
static inline bool subpart_quiet(const ws_mempart *p, const subpart *s, uint64_t now) {
    return !s->ready_hold && !s->dram_l2.head && !s->icnt_l2.head && s->data_port_busy <= 1 &&
           !s->fill_port_busy && !ws_cache_has_miss(s->l2) && !ws_cache_has_ready(s->l2) &&
           (!s->rop.head || now < s->rop.head->t_l2_in + p->rop_latency);
}

/* subpart_cycle's step 3: the head of sub-partition k's miss queue goes
   towards DRAM, if its L2->DRAM queue has room. (Out of line, as is the
   bypass below: the L2 step's common cycles need neither's frame.) */
static __attribute__((noinline)) void miss_to_dram(ws_mempart *p, subpart *s, uint64_t now) {
    const uint32_t k = (uint32_t)(s - p->sp);
    ws_cache *c = s->l2;
    const ws_cache_out *o = ws_cache_peek_miss(c);
    if (!o) return;
    if (s->l2_dram.len >= p->q_l2_dram) {
        p->stats.stall_dram_full++;
        return;
    }
    dram_item it;
    if (o->kind == WS_OUT_READ_LINE) {
        const ws_mreq *src = o->req;
        ws_mreq *f = ws_mreq_alloc(p->pool);
        f->addr = o->addr;
        f->data_size = o->size;
        f->access = src ? src->access : WS_MA_L2_WR_ALLOC;
        f->mflags = MF_FILL;
        f->subpart = (uint16_t)(p->chan * p->nsub + k);
        f->t_l2_in = now;
        make_dram_item(p, &it, f, o->addr, o->size, false, (uint8_t)k);
    } else if (o->kind == WS_OUT_WRITE) {
        ws_mreq *w = o->req;
        make_dram_item(p, &it, w, w->addr, w->data_size, true, (uint8_t)k);
    } else if (o->kind == WS_OUT_BYPASS) { /* uncached: DRAM answers the request */
        ws_mreq *b = o->req;
        make_dram_item(p, &it, b, b->addr, b->data_size, false, (uint8_t)k);
        p->stats.l2_bypass++;
    } else {
        make_dram_item(p, &it, NULL, o->addr, o->size, true, (uint8_t)k);
    }
    ring_push(&s->l2_dram, &it);
    p->l2_dram_n++;
    p->scan.dram_until = 0;
    ws_cache_pop_miss(c);
    p->scan.moves++;
}

/* subpart_cycle's step 4 at a texture-only L2: request r (not a texture
   fetch) goes straight towards DRAM, if its L2->DRAM queue has room. */
static __attribute__((noinline)) void bypass_to_dram(ws_mempart *p, subpart *s, ws_mreq *r) {
    if (s->l2_dram.len >= p->q_l2_dram) return;
    const uint32_t k = (uint32_t)(s - p->sp);
    dram_item it;
    make_dram_item(p, &it, r, r->addr, r->data_size, r->is_write && !r->is_atomic, (uint8_t)k);
    ring_push(&s->l2_dram, &it);
    p->l2_dram_n++;
    p->scan.dram_until = 0;
    ws_mreq_fifo_pop(&s->icnt_l2);
    p->stats.l2_bypass++;
    p->scan.moves++;
}

static void subpart_cycle(ws_mempart *p, subpart *s, uint64_t now) {
    ws_cache *c = s->l2;
    const uint32_t icnt_l2_len = s->icnt_l2.len; /* (whether `full` may change) */
    /* 1. requests released by a fill leave for the icnt (one per cycle) */
    if (!s->ready_hold) s->ready_hold = ws_cache_pop_ready(c);
    if (s->ready_hold && !qfull(s->l2_icnt, p->q_l2_icnt)) {
        complete(p, s, s->ready_hold, now);
        s->ready_hold = NULL;
        p->scan.moves++;
    }
    /* 2. DRAM returns: fill the L2, or pass replies of uncached requests on */
    ws_mreq *d = s->dram_l2.head;
    if (d) {
        if (d->mflags & MF_FILL) {
            if (!s->fill_port_busy) {
                ws_mreq_fifo_pop(&s->dram_l2);
                ws_cache_fill(c, d->addr, now);
                if (p->port_width) s->fill_port_busy = (p->atom + p->port_width - 1) / p->port_width;
                ws_mreq_free(p->pool, d);
                p->scan.moves++;
            }
        } else if (!qfull(s->l2_icnt, p->q_l2_icnt)) {
            ws_mreq_fifo_pop(&s->dram_l2);
            complete(p, s, d, now);
            p->scan.moves++;
        }
    }
    /* 3. one miss-queue entry goes towards DRAM */
    if (ws_cache_has_miss(c)) miss_to_dram(p, s, now);
    if (s->data_port_busy) s->data_port_busy--;
    if (s->fill_port_busy) s->fill_port_busy--;
    /* 4. a new L2 access */
    ws_mreq *r = s->icnt_l2.head;
    if (r) {
        bool bypass = p->texture_only && !is_texture(r);
        if (bypass) {
            bypass_to_dram(p, s, r);
        } else if (!qfull(s->l2_icnt, p->q_l2_icnt) && !s->data_port_busy) {
            bool wr = r->is_write && !r->is_atomic; /* atomics are served as reads */
            uint64_t ix = p->part_local_index ? r->part_addr : r->addr;
            ws_cache_result res =
                ws_cache_access_bytes(c, r->addr, ix, wr ? WS_ACC_WRITE : WS_ACC_READ,
                                      r->access == WS_MA_LOCAL_W, wr ? write_bytes(p, r) : 0, r,
                                      now);
            p->stats.l2_by_access[r->access][res.status]++;
            r->l2_waited = res.status != WS_CACHE_HIT; /* answered from beyond the L2 */
            if (res.status != WS_CACHE_RESERVATION_FAIL) {
                ws_mreq_fifo_pop(&s->icnt_l2);
                p->scan.moves++;
                if (res.status == WS_CACHE_HIT && !wr && p->port_width)
                    s->data_port_busy = (r->data_size + p->port_width - 1) / p->port_width;
                /* answered now: read hits, and writes neither held for a
                   fill nor passed down (those are answered later) */
                if (!res.held && !res.sent_write && res.status != WS_CACHE_BYPASS)
                    complete(p, s, r, now);
            }
        }
    }
    /* 5. the ROP delay */
    ws_mreq *q = s->rop.head;
    if (q && now >= q->t_l2_in + p->rop_latency && !qfull(&s->icnt_l2, p->q_icnt_l2)) {
        ws_mreq_fifo_pop(&s->rop);
        ws_mreq_fifo_push(&s->icnt_l2, q);
        p->scan.moves++;
    }
    if (s->icnt_l2.len != icnt_l2_len) refull(p, s);
}

/* (Called by ws_mempart_l2_cycle once its quiet test fails: now >= l2_quiet_until.) */
void ws_mempart_l2_steps(ws_mempart *p, uint64_t now) {
    if (p->inbox.head) take_inbox(p);
    p->scan.l2_now = now;
    p->scan.moves_a = p->scan.moves_b;
    p->scan.moves_b = p->scan.moves;
    uint64_t until = UINT64_MAX; /* when the first quiet one's ROP head is due */
    for (subpart *s = p->sp, *end = s + p->nsub; s < end; s++) {
        if (now < s->quiet_until) { /* quiet still: what the test below would find */
            if (s->quiet_until < until) until = s->quiet_until;
            continue;
        }
        if (!subpart_quiet(p, s, now)) {
            subpart_cycle(p, s, now);
            until = 0;
            continue;
        }
        const uint64_t due = s->rop.head ? s->rop.head->t_l2_in + p->rop_latency : UINT64_MAX;
        if (!p->plain) s->quiet_until = due;
        if (due < until) until = due;
    }
    p->scan.l2_quiet_until = p->plain ? 0 : until;
    p->scan.n_full = p->scan.n_full_now; /* published: kept where the queues change */
}

/* ---- DRAM clock ---- */
static bool can_issue(const ws_mempart *p, uint32_t k) {
    return p->priv_credit[k] < 1 || !p->shared_limit || p->shared_credit < p->shared_limit;
}
static void borrow(ws_mempart *p, uint32_t k) {
    if (p->priv_credit[k] < 1) p->priv_credit[k]++;
    else p->shared_credit++;
}
static void give_back(ws_mempart *p, uint32_t k) {
    if (p->priv_credit[k]) p->priv_credit[k]--;
    else if (p->shared_credit) p->shared_credit--;
}

static void dram_cycle(ws_mempart *p, uint64_t now);

void ws_mempart_dram_cycle(ws_mempart *p, uint64_t now) { ws_mempart_dram_cycles(p, now, 1); }

void ws_mempart_dram_steps(ws_mempart *p, uint64_t now, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        if (p->inbox.head) take_inbox(p); /* before the cycle, as if they had entered at once */
        /* nothing held or waiting to enter the latency queue, nothing there that
           may leave it at `now`, and a settled idle channel: the steps would only
           count the channel's idle cycle, and leave all of this as it was, so the
           remaining cycles (with the same `now`) are idle too */
        if (!p->ret_hold && !p->l2_dram_n && (!p->lat.len || now < p->lat.v[p->lat.head].ready)) {
            if (p->dram_settled) {
                p->scan.dram_now += n - i; /* (owed: counted from idle_from) */
            } else if (ws_dram_idle_cycles(p->dram, n - i)) {
                p->dram_settled = !p->plain;
                p->scan.dram_now += n - i;
                p->idle_from = p->scan.dram_now; /* (these were counted) */
            } else {
                dram_cycle(p, now);
                continue;
            }
            /* idle so until the latency queue's head is due, unless a request
               reaches the inbox or an L2->DRAM queue first */
            if (p->dram_settled)
                p->scan.dram_until = p->lat.len ? p->lat.v[p->lat.head].ready : UINT64_MAX;
            return;
        }
        dram_cycle(p, now);
    }
}

/* The settled idle cycles counted apart, into the channel's statistics. */
static void pay_dram_idle(ws_mempart *p) {
    if (!p->dram_settled) return;
    uint64_t owed = p->scan.dram_now - p->idle_from;
    if (owed) ws_dram_count_idle(p->dram, owed);
    p->idle_from = p->scan.dram_now;
}

/* A DRAM cycle that is not a settled idle one. */
static void dram_cycle(ws_mempart *p, uint64_t now) {
    p->scan.dram_until = 0;
    if (p->dram_settled) {
        pay_dram_idle(p);
        p->dram_settled = false;
    }
    /* 1. a finished request goes to its sub-partition's DRAM->L2 queue */
    if (!p->ret_hold) p->ret_hold = ws_dram_pop_return(p->dram);
    if (p->ret_hold) {
        uint32_t k = p->ret_hold->subpart % p->nsub;
        subpart *s = &p->sp[k];
        if (!qfull(&s->dram_l2, p->q_dram_l2)) {
            ws_mreq_fifo_push(&s->dram_l2, p->ret_hold);
            p->scan.l2_quiet_until = 0;
            s->quiet_until = 0;
            p->ret_hold = NULL;
            give_back(p, k);
            p->scan.moves++;
        }
    }
    /* 2. the channel itself */
    ws_dram_cycle(p->dram, p->scan.dram_now++);
    /* 3. one request per cycle from the sub-partitions, round robin */
    for (uint32_t i = 0; i < p->nsub; i++) {
        uint32_t k = (p->last_issued + 1 + i) % p->nsub;
        subpart *s = &p->sp[k];
        dram_item *it = ring_top(&s->l2_dram);
        if (!it || !can_issue(p, k)) continue;
        if (ws_dram_full(p->dram)) break;
        dram_item x = *it;
        ring_pop(&s->l2_dram);
        p->l2_dram_n--;
        x.ready = now + p->dram_latency;
        if (x.r) x.r->t_dram_in = now;
        ring_push(&p->lat, &x);
        borrow(p, k);
        p->last_issued = k;
        p->scan.moves++;
        break;
    }
    /* 4. the fixed DRAM latency */
    dram_item *h = ring_top(&p->lat);
    if (h && now >= h->ready && !ws_dram_full(p->dram)) {
        ws_dram_push(p->dram, &h->d, p->scan.dram_now);
        /* writebacks finish silently: their credit is returned here */
        if (!h->r) give_back(p, h->sub);
        ring_pop(&p->lat);
        p->scan.moves++;
    }
}

/* ---- misc ---- */
void ws_mempart_kernel_done(ws_mempart *p) {
    /* the next kernel starts with the index function's initial bits (adi) */
    p->scan.l2_quiet_until = 0;
    for (uint32_t k = 0; k < p->nsub; k++) {
        p->sp[k].quiet_until = 0;
        ws_cache_kernel_start(p->sp[k].l2, p->scan.l2_now);
    }
    if (!p->flush_l2) return;
    for (uint32_t k = 0; k < p->nsub; k++) ws_cache_invalidate(p->sp[k].l2);
}

void ws_mempart_memcpy_fill_decoded(ws_mempart *p, const ws_mreq *d, uint64_t now) {
    if (d->chan != p->chan) return;
    p->scan.l2_quiet_until = 0;
    p->sp[d->subpart % p->nsub].quiet_until = 0;
    ws_cache *c = p->sp[d->subpart % p->nsub].l2;
    uint64_t ix = p->part_local_index ? d->part_addr : d->addr;
    ws_cache_force_fill(c, d->addr, ix, now);
}

void ws_mempart_memcpy_fill(ws_mempart *p, uint64_t addr, uint64_t now) {
    ws_mreq tmp = {0};
    tmp.addr = addr;
    ws_addrdec_decode(&p->ad, &tmp);
    ws_mempart_memcpy_fill_decoded(p, &tmp, now);
}

const ws_cache *ws_subpart_l2(const ws_mempart *p, uint32_t k) { return p->sp[k].l2; }
ws_cache *ws_subpart_l2_ctl(ws_mempart *p, uint32_t k) { return p->sp[k].l2; }

bool ws_mempart_busy(const ws_mempart *p) {
    if (p->ret_hold || p->lat.len || p->inbox.len || ws_dram_busy(p->dram)) return true;
    for (uint32_t k = 0; k < p->nsub; k++) {
        const subpart *s = &p->sp[k];
        if (s->rop.len || s->icnt_l2.len || s->dram_l2.len || s->l2_icnt->len || s->l2_dram.len ||
            s->ready_hold || ws_cache_mshr_used(s->l2) || ws_cache_miss_queue_len(s->l2))
            return true;
    }
    return false;
}

void ws_mempart_set_plain(ws_mempart *p, bool on) {
    p->plain = on;
    for (uint32_t k = 0; k < p->nsub; k++) p->sp[k].quiet_until = 0; /* (tested again) */
}

void ws_mempart_describe(const ws_mempart *p, char *buf, size_t len) {
    size_t n = (size_t)snprintf(buf, len, "DRAM pending %u, latency queue %u%s",
                                ws_dram_pending(p->dram), p->lat.len,
                                p->ret_hold ? ", return blocked (DRAM->L2 full)" : "");
    for (uint32_t k = 0; k < p->nsub && n < len; k++) {
        const subpart *s = &p->sp[k];
        n += (size_t)snprintf(buf + n, len - n,
                              "; sub %u: rop %u icnt->L2 %u L2->dram %u dram->L2 %u L2->icnt %u "
                              "MSHR %u missq %u",
                              p->chan * p->nsub + k, s->rop.len, s->icnt_l2.len, s->l2_dram.len,
                              s->dram_l2.len, s->l2_icnt->len, ws_cache_mshr_used(s->l2),
                              ws_cache_miss_queue_len(s->l2));
    }
}

const ws_counter_decl ws_mempart_counters[] = {
    WS_COUNTER(ws_mempart_stats, l2_access),
    WS_COUNTER(ws_mempart_stats, l2_by_access),
    WS_COUNTER(ws_mempart_stats, l2_fail),
    WS_COUNTER(ws_mempart_stats, dram_reads),
    WS_COUNTER(ws_mempart_stats, dram_writes),
    WS_COUNTER(ws_mempart_stats, dram_row_hits),
    WS_COUNTER(ws_mempart_stats, dram_row_misses),
    WS_COUNTER(ws_mempart_stats, dram_cycles),
    WS_COUNTER(ws_mempart_stats, dram_busy_data_cycles),
    WS_COUNTER(ws_mempart_stats, dram_n_cmd),
    WS_COUNTER(ws_mempart_stats, dram_n_nop),
    WS_COUNTER(ws_mempart_stats, dram_n_act),
    WS_COUNTER(ws_mempart_stats, dram_n_pre),
    WS_COUNTER(ws_mempart_stats, stall_dram_full),
    WS_COUNTER(ws_mempart_stats, l2_mshr_hits),
    WS_COUNTER(ws_mempart_stats, l2_writebacks),
    WS_COUNTER(ws_mempart_stats, l2_fills),
    WS_COUNTER(ws_mempart_stats, reqs_in),
    WS_COUNTER(ws_mempart_stats, replies_out),
    WS_COUNTER(ws_mempart_stats, dram_n_activity),
    WS_COUNTER(ws_mempart_stats, dram_reqs),
    WS_COUNTER(ws_mempart_stats, l2_bypass),
};
const size_t ws_mempart_ncounters = sizeof ws_mempart_counters / sizeof ws_mempart_counters[0];

const ws_mempart_stats *ws_mempart_get_stats(const ws_mempart *p) {
    ws_mempart_stats *st = (ws_mempart_stats *)&p->stats; /* totals are gathered on demand */
    pay_dram_idle((ws_mempart *)p); /* the channel's idle cycles counted apart */
    st->replies_out = p->scan.replies_out;
    memset(st->l2_access, 0, sizeof st->l2_access);
    memset(st->l2_fail, 0, sizeof st->l2_fail);
    st->l2_mshr_hits = st->l2_writebacks = st->l2_fills = 0;
    for (uint32_t k = 0; k < p->nsub; k++) {
        const ws_cache_stats *cs = ws_cache_get_stats(p->sp[k].l2);
        for (int d = 0; d < 2; d++) {
            for (int i = 0; i < WS_CACHE_NSTATUS; i++) st->l2_access[d][i] += cs->status[d][i];
            for (int i = 0; i < WS_FAIL_NKINDS; i++) st->l2_fail[i] += cs->fail[d][i];
        }
        st->l2_mshr_hits += cs->mshr_hits;
        st->l2_writebacks += cs->writebacks;
        st->l2_fills += cs->fills;
    }
    const ws_dram_stats *ds = ws_dram_get_stats(p->dram);
    st->dram_reads = ds->n_rd;
    st->dram_writes = ds->n_wr;
    st->dram_row_hits = ds->row_hits;
    st->dram_row_misses = ds->row_misses;
    st->dram_cycles = ds->cycles;
    st->dram_busy_data_cycles = ds->busy_data_cycles;
    st->dram_n_cmd = ds->n_cmd;
    st->dram_n_nop = ds->n_nop;
    st->dram_n_act = ds->n_act;
    st->dram_n_pre = ds->n_pre;
    st->dram_n_activity = ds->n_activity;
    st->dram_reqs = ds->reqs_done;
    return st;
}
