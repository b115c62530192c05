/* Data cache with RESERVED lines, MSHR merging and a bounded miss queue.
 * See cache.h for the model and the reasons behind each failure kind. */
#include "timing/mem/cache.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_INVALID = 0, LINE_RESERVED, LINE_VALID, LINE_MODIFIED };

typedef struct line {
    uint64_t block;      /* block address (addr with the offset bits cleared) */
    uint64_t last_use;   /* LRU */
    uint64_t alloc_time; /* FIFO */
    uint8_t state;
} line;

typedef struct mshr_entry {
    uint64_t block;
    uint32_t nreq;
    bool valid;
    void **reqs;         /* max_merge slots */
} mshr_entry;

struct ws_cache {
    char name[32];
    ws_cache_cfg cfg;
    ws_index index;
    uint32_t line_log2;
    line *lines;         /* nsets * assoc */
    mshr_entry *mshr;
    uint32_t mshr_used;
    ws_cache_out *mq;    /* miss queue ring */
    uint32_t mq_cap, mq_head, mq_len;
    void **ready;        /* ready ring */
    uint32_t rd_cap, rd_head, rd_len;
    ws_cache_stats stats;
};

const char *ws_fail_kind_name(ws_fail_kind k) {
    static const char *const names[] = {"LINE_ALLOC_FAIL", "MSHR_ENTRY_FAIL", "MSHR_MERGE_FAIL",
                                        "MISS_QUEUE_FULL"};
    return k < WS_FAIL_NKINDS ? names[k] : "?";
}

/* ---- config string ---- */
static int parse_u32(const char **p, uint32_t *out) {
    char *end;
    unsigned long v = strtoul(*p, &end, 10);
    if (end == *p) return -1;
    *out = (uint32_t)v;
    *p = end;
    return 0;
}

static int expect(const char **p, char c) {
    if (**p != c) return -1;
    (*p)++;
    return 0;
}

int ws_cache_cfg_parse(const char *s, ws_cache_cfg *cfg, char *err, size_t errlen) {
    memset(cfg, 0, sizeof *cfg);
    cfg->index_code = 'L';
    cfg->data_port_width = 0;
    const char *p = s;
    if ((p[0] == 'N' || p[0] == 'S') && p[1] == ':') {
        cfg->sectored = p[0] == 'S';
        p += 2;
    }
    if (parse_u32(&p, &cfg->nsets) || expect(&p, ':') || parse_u32(&p, &cfg->line_size) ||
        expect(&p, ':') || parse_u32(&p, &cfg->assoc) || expect(&p, ',')) {
        snprintf(err, errlen, "cache '%s': expected sets:line_size:assoc, at '%s'", s, p);
        return -1;
    }
    if (!cfg->nsets || !cfg->assoc || ws_log2_exact(cfg->line_size) < 0) {
        snprintf(err, errlen,
                 "cache '%s': sets and assoc must be > 0 and the line size a power of two", s);
        return -1;
    }
    char f[5] = {0};
    for (int i = 0; i < 4; i++) {
        if (!isalpha((unsigned char)*p)) goto bad_policy;
        f[i] = *p++;
        if (i < 3 && expect(&p, ':')) goto bad_policy;
    }
    cfg->repl = f[0];
    cfg->write_policy = f[1];
    cfg->alloc = f[2];
    cfg->write_alloc = f[3];
    if (*p == ':') { /* GPGPU-Sim 4: set-index function letter */
        p++;
        if (!isalpha((unsigned char)*p)) goto bad_policy;
        cfg->index_code = *p++;
    }
    if (!strchr("LF", cfg->repl)) {
        snprintf(err, errlen, "cache '%s': replacement '%c' unknown (allowed: L=LRU, F=FIFO)", s,
                 cfg->repl);
        return -1;
    }
    if (!strchr("RBTEL", cfg->write_policy)) {
        snprintf(err, errlen,
                 "cache '%s': write policy '%c' unknown (allowed: R, B, T, E, L)", s,
                 cfg->write_policy);
        return -1;
    }
    if (!strchr("mfs", cfg->alloc)) {
        snprintf(err, errlen, "cache '%s': allocation '%c' unknown (allowed: m, f, s)", s,
                 cfg->alloc);
        return -1;
    }
    if (!strchr("NWFL", cfg->write_alloc)) {
        snprintf(err, errlen, "cache '%s': write allocation '%c' unknown (allowed: N, W, F, L)",
                 s, cfg->write_alloc);
        return -1;
    }
    if (expect(&p, ',') || !isalpha((unsigned char)*p)) {
        snprintf(err, errlen, "cache '%s': expected ',MSHR_TYPE:entries:merge' at '%s'", s, p);
        return -1;
    }
    cfg->mshr_type = *p++;
    if (expect(&p, ':') || parse_u32(&p, &cfg->mshr_entries) || expect(&p, ':') ||
        parse_u32(&p, &cfg->mshr_max_merge) || expect(&p, ',') ||
        parse_u32(&p, &cfg->miss_queue_size)) {
        snprintf(err, errlen, "cache '%s': expected MSHR_TYPE:entries:merge,miss_queue at '%s'", s,
                 p);
        return -1;
    }
    if (*p == ':') {
        p++;
        if (parse_u32(&p, &cfg->result_fifo)) goto bad_tail;
    }
    if (*p == ',') {
        p++;
        if (parse_u32(&p, &cfg->data_port_width)) goto bad_tail;
    }
    if (*p) goto bad_tail;
    if (!cfg->mshr_entries || !cfg->mshr_max_merge || !cfg->miss_queue_size) {
        snprintf(err, errlen, "cache '%s': MSHR entries, merge limit and miss queue must be > 0", s);
        return -1;
    }
    return 0;
bad_policy:
    snprintf(err, errlen, "cache '%s': expected replacement:write:alloc:write_alloc[:index] letters",
             s);
    return -1;
bad_tail:
    snprintf(err, errlen, "cache '%s': unexpected text '%s'", s, p);
    return -1;
}

/* ---- create / destroy ---- */
ws_cache *ws_cache_create(const char *name, const ws_cache_cfg *cfg, const char *index_spec,
                          char *err, size_t errlen) {
    if (cfg->sectored) {
        snprintf(err, errlen, "cache %s: sectored caches ('S:') are not modelled yet", name);
        return NULL;
    }
    if (cfg->alloc == WS_ALLOC_STREAMING || cfg->write_alloc == WS_WA_FETCH_ON_WRITE ||
        cfg->write_alloc == WS_WA_LAZY_FETCH) {
        snprintf(err, errlen,
                 "cache %s: allocation '%c' / write allocation '%c' are not modelled yet "
                 "(supported: m, f / N, W)",
                 name, cfg->alloc, cfg->write_alloc);
        return NULL;
    }
    ws_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    snprintf(c->name, sizeof c->name, "%s", name);
    c->cfg = *cfg;
    c->line_log2 = (uint32_t)ws_log2_exact(cfg->line_size);
    ws_cache_geom g = {cfg->nsets, cfg->line_size, cfg->assoc};
    char spec[2] = {cfg->index_code, 0};
    if (ws_index_create(&c->index, index_spec ? index_spec : spec, &g, err, errlen)) {
        free(c);
        return NULL;
    }
    c->lines = calloc((size_t)cfg->nsets * cfg->assoc, sizeof *c->lines);
    c->mshr = calloc(cfg->mshr_entries, sizeof *c->mshr);
    c->mq_cap = cfg->miss_queue_size + 2; /* a read may bring a writeback with it */
    c->mq = calloc(c->mq_cap, sizeof *c->mq);
    c->rd_cap = cfg->mshr_entries * cfg->mshr_max_merge;
    c->ready = calloc(c->rd_cap, sizeof *c->ready);
    bool ok = c->lines && c->mshr && c->mq && c->ready;
    for (uint32_t i = 0; ok && i < cfg->mshr_entries; i++)
        ok = (c->mshr[i].reqs = calloc(cfg->mshr_max_merge, sizeof(void *))) != NULL;
    if (!ok) {
        ws_cache_destroy(c);
        snprintf(err, errlen, "cache %s: out of memory", name);
        return NULL;
    }
    return c;
}

void ws_cache_destroy(ws_cache *c) {
    if (!c) return;
    if (c->mshr)
        for (uint32_t i = 0; i < c->cfg.mshr_entries; i++) free(c->mshr[i].reqs);
    free(c->mshr);
    free(c->lines);
    free(c->mq);
    free(c->ready);
    ws_index_destroy(&c->index);
    free(c);
}

/* ---- pieces ---- */
uint64_t ws_cache_block_addr(const ws_cache *c, uint64_t addr) {
    return addr & ~(uint64_t)(c->cfg.line_size - 1);
}
uint32_t ws_cache_set_of(const ws_cache *c, uint64_t addr) { return ws_index_set(&c->index, addr); }

/* Find the block in its set (HIT / HIT_RESERVED, *way), or a victim way
 * (MISS, *way) — the last invalid way, else the least recently used (LRU) or
 * oldest (FIFO) non-reserved way — or RESERVATION_FAIL if all are reserved. */
static ws_cache_status probe(const ws_cache *c, uint64_t block, uint32_t set, uint32_t *way) {
    const line *ls = &c->lines[(size_t)set * c->cfg.assoc];
    int invalid = -1, victim = -1;
    uint64_t best = UINT64_MAX;
    for (uint32_t w = 0; w < c->cfg.assoc; w++) {
        const line *l = &ls[w];
        if (l->state != LINE_INVALID && l->block == block) {
            *way = w;
            return l->state == LINE_RESERVED ? WS_CACHE_HIT_RESERVED : WS_CACHE_HIT;
        }
        if (l->state == LINE_RESERVED) continue;
        if (l->state == LINE_INVALID) {
            invalid = (int)w;
        } else {
            uint64_t t = c->cfg.repl == WS_REPL_FIFO ? l->alloc_time : l->last_use;
            if (t < best) {
                best = t;
                victim = (int)w;
            }
        }
    }
    if (invalid >= 0) *way = (uint32_t)invalid;
    else if (victim >= 0) *way = (uint32_t)victim;
    else return WS_CACHE_RESERVATION_FAIL;
    return WS_CACHE_MISS;
}

static mshr_entry *mshr_find(ws_cache *c, uint64_t block) {
    for (uint32_t i = 0; i < c->cfg.mshr_entries; i++)
        if (c->mshr[i].valid && c->mshr[i].block == block) return &c->mshr[i];
    return NULL;
}

static mshr_entry *mshr_alloc(ws_cache *c, uint64_t block) {
    for (uint32_t i = 0; i < c->cfg.mshr_entries; i++)
        if (!c->mshr[i].valid) {
            mshr_entry *e = &c->mshr[i];
            e->valid = true;
            e->block = block;
            e->nreq = 0;
            c->mshr_used++;
            return e;
        }
    return NULL;
}

/* Miss queue has room for n more entries beyond those it must keep free
 * (GPGPU-Sim checks len + n >= size, so a read keeps one slot for the
 * writeback its eviction may cause). */
static bool mq_full(const ws_cache *c, uint32_t n) { return c->mq_len + n >= c->cfg.miss_queue_size; }

static void mq_push(ws_cache *c, ws_out_kind kind, uint64_t addr, uint32_t size, void *req) {
    /* capacity is miss_queue_size + 2 and every caller checked mq_full first */
    ws_cache_out *o = &c->mq[(c->mq_head + c->mq_len) % c->mq_cap];
    o->kind = (uint8_t)kind;
    o->addr = addr;
    o->size = size;
    o->req = req;
    c->mq_len++;
}

/* Take way `way` of `set` for `block`: a dirty victim is written back. */
static void allocate_line(ws_cache *c, uint32_t set, uint32_t way, uint64_t block, uint8_t state,
                          uint64_t now) {
    line *l = &c->lines[(size_t)set * c->cfg.assoc + way];
    if (l->state == LINE_VALID || l->state == LINE_MODIFIED) {
        c->stats.evictions++;
        if (l->state == LINE_MODIFIED) {
            c->stats.writebacks++;
            mq_push(c, WS_OUT_WRITEBACK, l->block, c->cfg.line_size, NULL);
        }
    }
    l->block = block;
    l->state = state;
    l->alloc_time = now;
    l->last_use = now;
}

static ws_cache_status fail(ws_cache *c, ws_acc_dir dir, ws_fail_kind k, ws_fail_kind *out) {
    c->stats.status[dir][WS_CACHE_RESERVATION_FAIL]++;
    c->stats.fail[dir][k]++;
    if (out) *out = k;
    return WS_CACHE_RESERVATION_FAIL;
}

static ws_cache_status done(ws_cache *c, ws_acc_dir dir, ws_cache_status s) {
    c->stats.status[dir][s]++;
    return s;
}

/* A read that needs the line from below: merge into the block's MSHR entry
 * or open a new one and queue the line fetch. `probe_status` is MISS (way
 * is the victim) or HIT_RESERVED (way holds the reserved line). */
static ws_cache_status read_miss(ws_cache *c, uint64_t block, uint32_t set, uint32_t way,
                                 ws_cache_status probe_status, ws_acc_dir dir, void *req,
                                 uint64_t now, ws_fail_kind *failk) {
    if (mq_full(c, 1)) return fail(c, dir, WS_FAIL_MISS_QUEUE, failk);
    mshr_entry *e = mshr_find(c, block);
    if (e) {
        if (e->nreq >= c->cfg.mshr_max_merge) return fail(c, dir, WS_FAIL_MSHR_MERGE, failk);
        if (req) e->reqs[e->nreq++] = req;
        else e->nreq++; /* a write-allocate fetch also occupies a merge slot */
        if (probe_status == WS_CACHE_HIT_RESERVED)
            c->lines[(size_t)set * c->cfg.assoc + way].last_use = now;
        return done(c, dir, probe_status == WS_CACHE_HIT_RESERVED ? WS_CACHE_HIT_RESERVED
                                                                    : WS_CACHE_MISS);
    }
    if (c->mshr_used >= c->cfg.mshr_entries) return fail(c, dir, WS_FAIL_MSHR_ENTRY, failk);
    /* probe_status is MISS here: a reserved line always has an MSHR entry */
    e = mshr_alloc(c, block);
    if (req) e->reqs[e->nreq++] = req;
    else e->nreq++;
    if (c->cfg.alloc == WS_ALLOC_ON_MISS) allocate_line(c, set, way, block, LINE_RESERVED, now);
    mq_push(c, WS_OUT_READ_LINE, block, c->cfg.line_size, req);
    return done(c, dir, WS_CACHE_MISS);
}

ws_cache_status ws_cache_access(ws_cache *c, uint64_t addr, ws_acc_dir dir, bool local, void *req,
                                uint64_t now, ws_fail_kind *failk) {
    uint64_t block = ws_cache_block_addr(c, addr);
    uint32_t set = ws_index_set(&c->index, addr);
    uint32_t way = 0;
    ws_cache_status ps = probe(c, block, set, &way);
    line *l = ps == WS_CACHE_RESERVATION_FAIL ? NULL : &c->lines[(size_t)set * c->cfg.assoc + way];

    if (dir == WS_ACC_READ) {
        if (ps == WS_CACHE_HIT) {
            l->last_use = now;
            return done(c, dir, WS_CACHE_HIT);
        }
        if (ps == WS_CACHE_RESERVATION_FAIL) return fail(c, dir, WS_FAIL_LINE_ALLOC, failk);
        return read_miss(c, block, set, way, ps, dir, req, now, failk);
    }

    /* writes */
    char wp = c->cfg.write_policy;
    bool write_back = wp == WS_WP_WRITE_BACK || (wp == WS_WP_LOCAL_WB_GLOBAL_WT && local);
    if (ps == WS_CACHE_HIT) {
        if (write_back) {
            l->state = LINE_MODIFIED;
            l->last_use = now;
            return done(c, dir, WS_CACHE_HIT);
        }
        if (mq_full(c, 0)) return fail(c, dir, WS_FAIL_MISS_QUEUE, failk);
        mq_push(c, WS_OUT_WRITE, addr, 0, req);
        if (wp == WS_WP_WRITE_THROUGH) l->last_use = now;
        else l->state = LINE_INVALID; /* write-evict (E, and global writes under L) */
        return done(c, dir, WS_CACHE_HIT);
    }
    /* write miss (including a write to a reserved line, and a set whose ways
       are all reserved: a non-allocating write does not need a line) */
    if (c->cfg.write_alloc == WS_WA_NONE || wp == WS_WP_READ_ONLY) {
        if (mq_full(c, 0)) return fail(c, dir, WS_FAIL_MISS_QUEUE, failk);
        mq_push(c, WS_OUT_WRITE, addr, 0, req);
        return done(c, dir, WS_CACHE_MISS);
    }
    /* write allocate: the write goes down and the line is fetched; worst case
       three requests (write, line read, writeback) must fit. */
    if (ps == WS_CACHE_RESERVATION_FAIL) return fail(c, dir, WS_FAIL_LINE_ALLOC, failk);
    if (mq_full(c, 2)) return fail(c, dir, WS_FAIL_MISS_QUEUE, failk);
    mshr_entry *e = mshr_find(c, block);
    if (e ? e->nreq >= c->cfg.mshr_max_merge : c->mshr_used >= c->cfg.mshr_entries)
        return fail(c, dir, e ? WS_FAIL_MSHR_MERGE : WS_FAIL_MSHR_ENTRY, failk);
    mq_push(c, WS_OUT_WRITE, addr, 0, req);
    ws_fail_kind dummy;
    /* cannot fail now: resources were checked above */
    ws_cache_status s = read_miss(c, block, set, way, ps, dir, NULL, now, &dummy);
    /* read_miss counted the access under its own status; record it as a write miss */
    c->stats.status[dir][s]--;
    return done(c, dir, WS_CACHE_MISS);
}

bool ws_cache_has_miss(const ws_cache *c) { return c->mq_len > 0; }
const ws_cache_out *ws_cache_peek_miss(const ws_cache *c) {
    return c->mq_len ? &c->mq[c->mq_head] : NULL;
}
void ws_cache_pop_miss(ws_cache *c) {
    if (!c->mq_len) return;
    c->mq_head = (c->mq_head + 1) % c->mq_cap;
    c->mq_len--;
}

void ws_cache_fill(ws_cache *c, uint64_t block_addr, uint64_t now) {
    uint64_t block = ws_cache_block_addr(c, block_addr);
    uint32_t set = ws_index_set(&c->index, block);
    c->stats.fills++;
    uint32_t way;
    ws_cache_status ps = probe(c, block, set, &way);
    if (c->cfg.alloc == WS_ALLOC_ON_MISS) {
        if (ps == WS_CACHE_HIT_RESERVED) {
            line *l = &c->lines[(size_t)set * c->cfg.assoc + way];
            l->state = LINE_VALID;
        }
        /* otherwise the reserved line was invalidated by a flush: no allocation */
    } else if (ps == WS_CACHE_MISS) {
        /* allocate-on-fill: the victim is chosen now; the writeback of a dirty
           victim may exceed the nominal miss-queue size by one entry */
        allocate_line(c, set, way, block, LINE_VALID, now);
    }
    mshr_entry *e = mshr_find(c, block);
    if (!e) return;
    for (uint32_t i = 0; i < e->nreq; i++) {
        if (!e->reqs[i]) continue;
        if (c->rd_len < c->rd_cap) c->ready[(c->rd_head + c->rd_len++) % c->rd_cap] = e->reqs[i];
        e->reqs[i] = NULL;
    }
    e->valid = false;
    c->mshr_used--;
}

void *ws_cache_pop_ready(ws_cache *c) {
    if (!c->rd_len) return NULL;
    void *r = c->ready[c->rd_head];
    c->rd_head = (c->rd_head + 1) % c->rd_cap;
    c->rd_len--;
    return r;
}

void ws_cache_invalidate(ws_cache *c) {
    size_t n = (size_t)c->cfg.nsets * c->cfg.assoc;
    for (size_t i = 0; i < n; i++)
        if (c->lines[i].state != LINE_RESERVED) c->lines[i].state = LINE_INVALID;
}

const ws_cache_stats *ws_cache_get_stats(const ws_cache *c) { return &c->stats; }
const ws_cache_cfg *ws_cache_get_cfg(const ws_cache *c) { return &c->cfg; }

unsigned ws_cache_reserved_in_set(const ws_cache *c, uint32_t set) {
    unsigned n = 0;
    for (uint32_t w = 0; w < c->cfg.assoc; w++)
        n += c->lines[(size_t)set * c->cfg.assoc + w].state == LINE_RESERVED;
    return n;
}
unsigned ws_cache_mshr_used(const ws_cache *c) { return c->mshr_used; }
unsigned ws_cache_miss_queue_len(const ws_cache *c) { return c->mq_len; }
