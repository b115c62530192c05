/* Data cache with RESERVED lines, MSHR merging and a bounded miss queue.
 * See cache.h for the model and the reasons behind each failure kind. */
#include "timing/mem/cache.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* LINE_RD (reserved-doomed, seed 003 §2.3): a sector whose fetch was in
 * flight when an adaptive index function changed and the cache flushed. It
 * stays pinned until its fill, which makes it INVALID (the data still goes
 * to the merged requests); it matches no lookup and cannot be reserved. */
/* LINE_TAG (bypass tag-only mode): the tag is present, the data is not. */
enum { LINE_INVALID = 0, LINE_RESERVED, LINE_VALID, LINE_MODIFIED, LINE_RD, LINE_TAG };

enum { SECTOR = 32, MAX_SECTORS = 8 };

/* A line of a sectored cache has one state per 32 B sector; a line of a
 * plain cache is a line with one "sector" covering it (sec[0]). The line
 * is present when any sector is not INVALID and pinned (not evictable)
 * while any sector is RESERVED. */
typedef struct line {
    uint64_t block;      /* block address (addr with the offset bits cleared) */
    uint64_t last_use;   /* LRU */
    uint64_t alloc_time; /* FIFO */
    uint8_t sec[MAX_SECTORS];
    uint8_t unreadable;  /* MODIFIED sectors holding only part of their bytes (lazy fetch) */
    uint32_t wbytes[MAX_SECTORS]; /* an unreadable sector's bytes written so far (sectored) */
    uint8_t mod_on_fill; /* RESERVED sectors to become MODIFIED when their fill arrives */
    uint8_t rpd;         /* remaining protection distance (bypass protect mode) */
    uint8_t indexed;     /* in the tag index under `block` (wide sets; see struct ws_cache) */
    uint16_t owner;      /* who allocated it (ws_cache_set_owner) */
} line;

#define MKEY_NONE UINT64_MAX /* no MSHR address (they are aligned) */

typedef struct mshr_entry {
    uint64_t block;      /* MSHR address: the line, or the sector of a sectored cache */
    uint64_t index_addr; /* address the set was computed from */
    uint32_t nreq;
    bool valid;
    bool modify;         /* a fetch-on-write fill: the sector becomes MODIFIED */
    bool has_line;       /* allocate-on-miss: the fill goes to (set, way), found at
                            allocation, because the index function may change meanwhile */
    bool doomed;         /* its line turned RD in a flush: it cannot be joined */
    uint32_t set, way;
    void **reqs;         /* max_merge slots (of the cache's reqs_pool) */
} mshr_entry;

struct ws_cache {
    ws_cache_head h;      /* first: cache.h reads it inline (mq_len, rd_len, mshr_used) */
    char name[32];
    ws_cache_cfg cfg;
    ws_index index;
    bool field_sets;      /* the index policy's set is one address field (its bit_field
                             hook): set_index computes it inline, without the policy's call */
    uint32_t field_shift;
    uint64_t field_mask;
    uint32_t line_log2;
    uint32_t nsec, atom;  /* sectors per line (1 if not sectored), bytes per fetch */
    uint64_t sec_mask;    /* line.sec read as a word: the bytes of the nsec sectors */
    line *lines;         /* nsets * assoc */
    /* Per set, the way of its last hit found by scanning or of its last
       allocation (a hint only), which the scan of a narrow set tries first. A
       set never holds a block in two present lines (only allocate_line sets a
       block, and only after a probe of that set found it in none;
       ws_cache_check_tags checks it), so a match there is the scan's answer. */
    uint32_t *mru;
    /* Tag index of a wide cache (assoc >= TIX_MIN_ASSOC; NULL otherwise): a
       hash table (open addressing, linear probing, at most half full) of line
       index + 1 (0: empty), keyed by the line's block, holding every line ever
       allocated (line.indexed). Only allocate_line sets a block, and a line
       that was never allocated is never present, so the present lines of a
       set that hold a block are among the entries under that block: a probe
       looks at those instead of scanning the set's ways (the L1Ds of the
       post-Fermi presets have 64 and more; hits scanned half of them). Stale
       entries (lines since invalidated, lines of another set) are filtered
       out as the scan would skip them. ws_cache_check_tags checks it. */
    uint32_t *tix;
    uint32_t tix_mask;
    bool tix_off;         /* ws_cache_tag_index_drop: always scan */
    mshr_entry *mshr;
    void **reqs_pool;     /* every entry's merge slots, one block, not zeroed (slot i is read
                             only below nreq, after it was written): a cache has up to
                             thousands of entries of up to 128 slots, and zeroed blocks of
                             their own made creating the caches a tenth of a short program */
    uint64_t *mkey;       /* per MSHR: its block while valid, else MKEY_NONE */
    /* Every access and fill looks its block up: a hash table (open addressing,
       linear probing, at most a quarter full) of MSHR index + 1 (0: empty) keyed by
       mkey, whose keys are unique (an MSHR is allocated only when the lookup
       found none); and a bit set of the free entries, so that allocation takes
       the lowest free one as a scan would. ws_cache_check_mshr checks both. */
    uint32_t *mhash;
    uint32_t mhash_mask;
    uint64_t *mfree;
    ws_cache_out *mq;    /* miss queue ring */
    uint32_t mq_cap, mq_head;
    void **ready;        /* ready ring */
    uint32_t rd_cap, rd_head;
    uint64_t flush_from, blocked_until; /* a flush rejects accesses in [from, until); an
                                           owner whose clock restarts is not blocked */
    bool flush_pending;  /* the index changed: flush before the next access */
    bool index_paused;   /* adaptive index functions see no accesses */
    /* No tag-only mode and an index policy that never watches accesses nor changes at
       a kernel start: then no flush is ever pending or started (flush_pending stays
       false, blocked_until 0) and nothing is observed, so an access skips those tests
       (access_plain). Set at creation and by ws_cache_set_bypass. */
    bool plain;
    /* A plain cache with narrow sets (no tag index), a set that is one address field and
       no protection distances: a read that hits its set's last way found is answered before
       the access path (read_hit_mru). Set with plain, and where the tag index comes or goes. */
    bool hit_fast;
    ws_cache_bypass byp;
    ws_cache_evict_fn evict_fn;
    void *evict_ctx;
    ws_cache_stats stats;
    /* A refused access changes nothing, and whether one is refused depends on the cache's
       state alone (tags, MSHRs, miss queue, bypass settings) outside a flush's blocked
       window. `ver` changes with everything else that may change that state; an owner
       retries a refused access each cycle, and while ver holds, the same access is
       refused the same way without probing again (docs/timing.md, speed). */
    uint64_t ver;
    uint64_t fail_ver, fail_addr, fail_index; /* the last refusal: at ver, of this access */
    uint8_t fail_dir, fail_local, fail_kind;
    uint32_t fail_wbytes; /* the refused write's byte mask (or WS_WRITE_FULL) */
};

const char *ws_fail_kind_name(ws_fail_kind k) {
    static const char *const names[] = {"LINE_ALLOC_FAIL", "MSHR_ENTRY_FAIL", "MSHR_MERGE_FAIL",
                                        "MISS_QUEUE_FULL", "FLUSH_BLOCKED"};
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

/* ---- tag index (wide sets) ---- */
enum { TIX_MIN_ASSOC = 16 }; /* below this, scanning the ways costs less than hashing */

static inline uint32_t tix_slot(const ws_cache *c, uint64_t block) {
    return (uint32_t)((block * 0x9E3779B97F4A7C15ull) >> 32) & c->tix_mask;
}

/* (Re)build an empty table for nlines new (never allocated) lines. Narrow
   caches get none; without one (also when out of memory) probes scan. */
static void tix_create(ws_cache *c, uint32_t nlines, uint32_t assoc) {
    free(c->tix);
    c->tix = NULL;
    c->tix_mask = 0;
    if (assoc < TIX_MIN_ASSOC || c->tix_off) return;
    uint32_t cap = 4;
    while (cap < 2 * nlines) cap *= 2;
    c->tix = calloc(cap, sizeof *c->tix);
    c->tix_mask = cap - 1;
}

static void tix_insert(ws_cache *c, uint32_t idx, uint64_t block) {
    uint32_t s = tix_slot(c, block);
    while (c->tix[s]) s = (s + 1) & c->tix_mask;
    c->tix[s] = idx + 1;
}

/* Line idx, indexed under `block` (its block now), leaves the table; the
   entries after it in its probe run move back where lookups still find
   them (as mshr_release does). */
static void tix_remove(ws_cache *c, uint32_t idx, uint64_t block) {
    uint32_t m = c->tix_mask, s = tix_slot(c, block);
    while (c->tix[s] != idx + 1) s = (s + 1) & m;
    for (uint32_t j = (s + 1) & m; c->tix[j]; j = (j + 1) & m) {
        uint32_t home = tix_slot(c, c->lines[c->tix[j] - 1].block);
        if (((j - home) & m) >= ((j - s) & m)) {
            c->tix[s] = c->tix[j];
            s = j;
        }
    }
    c->tix[s] = 0;
}

/* ---- create / destroy ---- */
/* The rule of ws_cache.plain, for its two writers (creation, a new bypass mode). */
static bool plain_now(const ws_cache *c) {
    return !c->byp.tag_only && !c->index.policy->observe && !c->index.policy->kernel_start &&
           !c->flush_pending && !c->blocked_until;
}

/* n new lines, empty: every field but wbytes (read only where unreadable says it was
   written) as calloc would leave it, field by field (not one memset of the array). */
static void lines_clear(line *ls, size_t n) {
    for (size_t i = 0; i < n; i++) {
        line *l = &ls[i];
        l->block = l->last_use = l->alloc_time = 0;
        memset(l->sec, LINE_INVALID, sizeof l->sec);
        l->unreadable = l->mod_on_fill = l->rpd = l->indexed = 0;
        l->owner = 0;
    }
}

/* The rule of ws_cache.hit_fast, for its writers. */
static void hit_fast_now(ws_cache *c) {
    c->hit_fast = c->plain && !c->tix && c->field_sets && !c->byp.protect;
}

ws_cache *ws_cache_create(const char *name, const ws_cache_cfg *cfg_in, const char *index_spec,
                          char *err, size_t errlen) {
    ws_cache_cfg cfg_s = *cfg_in;
    const ws_cache_cfg *cfg = &cfg_s;
    if (cfg->sectored &&
        (cfg->line_size % SECTOR || cfg->line_size / SECTOR > MAX_SECTORS || cfg->line_size < SECTOR)) {
        snprintf(err, errlen,
                 "cache %s: a sectored cache needs a line of 32 to 256 bytes (32 B sectors), not %u",
                 name, cfg->line_size);
        return NULL;
    }
    if (cfg->alloc == WS_ALLOC_STREAMING) {
        /* GPGPU-Sim 4's streaming cache: allocate on fill (no line-allocation
           stalls) with an MSHR entry per line and a warp-sized merge limit */
        cfg_s.mshr_entries = cfg->nsets * cfg->assoc * (cfg->sectored ? cfg->line_size / SECTOR : 1);
        if (cfg_s.mshr_max_merge < 64) cfg_s.mshr_max_merge = 64;
    }
    ws_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->ver = 1; /* fail_ver 0: no refusal noted */
    snprintf(c->name, sizeof c->name, "%s", name);
    c->cfg = *cfg;
    c->line_log2 = (uint32_t)ws_log2_exact(cfg->line_size);
    c->nsec = cfg->sectored ? cfg->line_size / SECTOR : 1;
    {
        uint8_t m[MAX_SECTORS] = {0};
        for (uint32_t i = 0; i < MAX_SECTORS; i++) m[i] = i < c->nsec ? 0xff : 0;
        memcpy(&c->sec_mask, m, sizeof m);
    }
    c->atom = cfg->sectored ? SECTOR : cfg->line_size;
    ws_cache_geom g = {cfg->nsets, cfg->line_size, cfg->assoc, cfg->index_hints};
    char spec[2] = {cfg->index_code, 0};
    if (ws_index_create(&c->index, index_spec ? index_spec : spec, &g, err, errlen)) {
        free(c);
        return NULL;
    }
    c->plain = plain_now(c);
    c->field_sets = c->index.policy->bit_field &&
                    c->index.policy->bit_field(c->index.state, &c->field_shift, &c->field_mask);
    /* (not zeroed: lines_clear writes all but wbytes; a short program's caches are a tenth of
       its set-up in zeroing, and a large memset costs an instruction a byte under callgrind) */
    c->lines = malloc((size_t)cfg->nsets * cfg->assoc * sizeof *c->lines);
    if (c->lines) lines_clear(c->lines, (size_t)cfg->nsets * cfg->assoc);
    c->mru = calloc(cfg->nsets, sizeof *c->mru);
    tix_create(c, cfg->nsets * cfg->assoc, cfg->assoc);
    hit_fast_now(c);
    c->mshr = malloc(cfg->mshr_entries * sizeof *c->mshr); /* (each entry written below) */
    c->mkey = malloc(cfg->mshr_entries * sizeof *c->mkey);
    for (uint32_t i = 0; c->mkey && i < cfg->mshr_entries; i++) c->mkey[i] = MKEY_NONE;
    uint32_t hcap = 4;
    while (hcap < 4 * cfg->mshr_entries) hcap *= 2; /* at most a quarter full: short probe runs */
    c->mhash = calloc(hcap, sizeof *c->mhash);
    c->mhash_mask = hcap - 1;
    uint32_t nw = (cfg->mshr_entries + 63) / 64;
    c->mfree = malloc(nw * sizeof *c->mfree);
    for (uint32_t k = 0; c->mfree && k < nw; k++) /* every entry free: bits 0..mshr_entries-1 */
        c->mfree[k] = cfg->mshr_entries - 64 * k >= 64 ? ~0ull : (1ull << (cfg->mshr_entries - 64 * k)) - 1;
    c->mq_cap = cfg->miss_queue_size + 2; /* a read may bring a writeback with it */
    c->mq = malloc(c->mq_cap * sizeof *c->mq); /* (an entry is written before it is read) */
    c->rd_cap = cfg->mshr_entries * cfg->mshr_max_merge;
    /* (+ 1: never a request of 0 bytes, which may come back NULL) */
    c->ready = malloc(((size_t)c->rd_cap + 1) * sizeof *c->ready); /* written before read */
    c->reqs_pool = malloc(((size_t)cfg->mshr_entries * cfg->mshr_max_merge + 1) * sizeof(void *));
    bool ok = c->lines && c->mru && c->mshr && c->mkey && c->mhash && c->mfree && c->mq &&
              c->ready && c->reqs_pool;
    for (uint32_t i = 0; ok && i < cfg->mshr_entries; i++)
        c->mshr[i] = (mshr_entry){.reqs = c->reqs_pool + (size_t)i * cfg->mshr_max_merge};
    if (!ok) {
        ws_cache_destroy(c);
        snprintf(err, errlen, "cache %s: out of memory", name);
        return NULL;
    }
    return c;
}

void ws_cache_destroy(ws_cache *c) {
    if (!c) return;
    free(c->reqs_pool);
    free(c->mshr);
    free(c->mkey);
    free(c->mhash);
    free(c->mfree);
    free(c->lines);
    free(c->mru);
    free(c->tix);
    free(c->mq);
    free(c->ready);
    ws_index_destroy(&c->index);
    free(c);
}

/* ---- pieces ---- */
/* (inline for the access and fill paths; the exported form for owners) */
static inline uint64_t block_of(const ws_cache *c, uint64_t addr) {
    return addr & ~(uint64_t)(c->cfg.line_size - 1);
}
uint64_t ws_cache_block_addr(const ws_cache *c, uint64_t addr) { return block_of(c, addr); }
/* The set of an access (every access, fill and probe asks: the policy's call is
   skipped for a policy whose set is one address field, such as linear, which the
   L2s use). */
static inline uint32_t set_index(const ws_cache *c, uint64_t index_addr) {
    if (c->field_sets) return (uint32_t)((index_addr >> c->field_shift) & c->field_mask);
    return ws_index_set(&c->index, index_addr);
}
uint32_t ws_cache_set_of(const ws_cache *c, uint64_t addr) { return set_index(c, addr); }
uint32_t ws_cache_atom(const ws_cache *c) { return c->atom; }

static inline uint32_t sector_of(const ws_cache *c, uint64_t addr) {
    return (uint32_t)(addr >> 5) & (c->nsec - 1); /* (nsec is a power of two; 1 unsectored: 0) */
}
static inline uint64_t mshr_addr(const ws_cache *c, uint64_t addr) {
    return addr & ~(uint64_t)(c->atom - 1);
}
/* A line holds its block while any sector is valid, modified or reserved;
 * it is pinned (not evictable) while any sector waits for a fill. */
/* Both tests run for every way of a set on each probe (64 and more ways in
 * the post-Fermi L1Ds), so they read the sector states as one word: byte i
 * of the word is sec[i], bytes from nsec on are masked out. */
#define BYTES_01 0x0101010101010101ull
_Static_assert(MAX_SECTORS == 8, "sector states are read as one 64-bit word");
static inline uint64_t sec_word(const ws_cache *c, const line *l) {
    uint64_t x;
    memcpy(&x, l->sec, sizeof x);
    return x & c->sec_mask;
}
static bool line_present(const ws_cache *c, const line *l) {
    /* a state other than INVALID (0) and RD (4): nonzero once bit 2 is cleared */
    return (sec_word(c, l) & (BYTES_01 * (uint8_t)~4u)) != 0;
}
/* Of the states 0-5 (3 bits), RESERVED (001) and RD (100) are those with
   bit 1 clear and bit 0 != bit 2; bit 0 of each byte of the word below is
   that test (the shifted-in bits of the next byte land in bits 6-7, masked
   off), and masked-out bytes are 0, which fails it. The victim search runs
   it on every way of the set. */
_Static_assert(LINE_RESERVED == 1 && LINE_RD == 4 && LINE_INVALID == 0 && LINE_VALID == 2 &&
                   LINE_MODIFIED == 3 && LINE_TAG == 5,
               "line_reserved's bit test knows the state values");
static inline bool word_reserved(uint64_t x) { return ((~x >> 1) & (x ^ (x >> 2)) & BYTES_01) != 0; }
static bool line_reserved(const ws_cache *c, const line *l) { return word_reserved(sec_word(c, l)); }
static uint8_t line_modified_mask(const ws_cache *c, const line *l) {
    uint8_t m = 0;
    for (uint32_t i = 0; i < c->nsec; i++)
        if (l->sec[i] == LINE_MODIFIED) m |= (uint8_t)(1u << i);
    return m;
}
static line *line_at(ws_cache *c, uint32_t set, uint32_t way) {
    return &c->lines[(size_t)set * c->cfg.assoc + way];
}

/* What a probe that found its block in line l answers for sector si. */
static inline ws_cache_status hit_status(const line *l, uint32_t si, bool write) {
    switch (l->sec[si]) {
    case LINE_RESERVED: return WS_CACHE_HIT_RESERVED;
    case LINE_VALID: return WS_CACHE_HIT;
    case LINE_MODIFIED:
        return write || !((l->unreadable >> si) & 1) ? WS_CACHE_HIT : WS_CACHE_SECTOR_MISS;
    default: return WS_CACHE_SECTOR_MISS;
    }
}

/* The tag search by scanning: the lowest way of the set whose line is
   present and holds block, or -1. */
static int find_scan(const ws_cache *c, uint64_t block, uint32_t set) {
    const line *ls = &c->lines[(size_t)set * c->cfg.assoc];
    for (uint32_t w = 0; w < c->cfg.assoc; w++)
        if (ls[w].block == block && line_present(c, &ls[w])) return (int)w;
    return -1;
}

/* The same through the tag index: the lowest such way among the entries
   under block (a set holds a block in one present line at most, but the
   rule is the scan's). Not inlined: it would cost the narrow caches' probes
   their registers. */
__attribute__((noinline)) static int find_indexed(const ws_cache *c, uint64_t block, uint32_t set) {
    const uint32_t assoc = c->cfg.assoc, base = set * assoc;
    uint32_t best = assoc;
    for (uint32_t s = tix_slot(c, block);; s = (s + 1) & c->tix_mask) {
        uint32_t v = c->tix[s];
        if (!v) break;
        uint32_t w = v - 1 - base; /* wraps past assoc for other sets */
        if (w < best && c->lines[v - 1].block == block && line_present(c, &c->lines[v - 1])) best = w;
    }
    return best < assoc ? (int)best : -1;
}

/* The victim of a miss in `set`: scanned from the last way, so the first
   free way found is the answer; otherwise the oldest (LRU: last use, FIFO:
   allocation) of the ways with no reserved sector (and, under protection,
   no distance left), the lowest way among equals; -1 if every way is pinned.
   The plain form, kept for ws_cache_check_tags. */
static int find_victim_ref(const ws_cache *c, uint32_t set, bool protect) {
    const line *ls = &c->lines[(size_t)set * c->cfg.assoc];
    const bool fifo = c->cfg.repl == WS_REPL_FIFO;
    int victim = -1;
    uint64_t best = UINT64_MAX;
    for (uint32_t w = c->cfg.assoc; w-- > 0;) {
        const line *l = &ls[w];
        if (line_reserved(c, l)) continue;
        if (!line_present(c, l)) return (int)w;
        if (protect && l->rpd) continue;
        uint64_t t = fifo ? l->alloc_time : l->last_use;
        if (t < best || (t == best && victim >= 0)) {
            best = t;
            victim = (int)w;
        }
    }
    return victim;
}

/* The same with fewer instructions per way (a miss in a wide L1D looks at
   64 and more): one read of the sector states for both tests, the time read
   at an offset chosen once, and one comparison. */
static inline int find_victim(const ws_cache *c, uint32_t set, bool protect) {
    const line *ls = &c->lines[(size_t)set * c->cfg.assoc];
    const size_t toff = c->cfg.repl == WS_REPL_FIFO ? offsetof(line, alloc_time)
                                                     : offsetof(line, last_use);
    int victim = -1;
    /* a time of UINT64_MAX is never taken, a first smaller one is, and each
       later equal one takes the place: as the strict test with victim >= 0 */
    uint64_t best = UINT64_MAX - 1;
    for (uint32_t w = c->cfg.assoc; w-- > 0;) {
        const line *l = &ls[w];
        uint64_t x = sec_word(c, l);
        if (word_reserved(x)) continue;
        if (!(x & (BYTES_01 * (uint8_t)~4u))) return (int)w; /* not present (line_present) */
        if (protect && l->rpd) continue;
        uint64_t t;
        memcpy(&t, (const char *)l + toff, sizeof t);
        if (t <= best) {
            best = t;
            victim = (int)w;
        }
    }
    return victim;
}

/* Find the block in its set (HIT / HIT_RESERVED / SECTOR_MISS, *way), or a
 * victim way (MISS, *way; find_victim), or RESERVATION_FAIL if every way is
 * pinned. A MODIFIED sector that holds only part of its bytes cannot serve
 * a read (SECTOR_MISS). With `victim` false a miss answers MISS without the
 * victim search (*way 0): for callers that treat both miss answers alike. */
static inline __attribute__((always_inline)) ws_cache_status
probe_body(const ws_cache *c, uint64_t block, uint32_t set, uint32_t si, bool write, bool protect,
           bool victim, uint32_t *way) {
    /* (always inlined: as a call of its own it cost ~25 instructions of every access) */
    const line *ls = &c->lines[(size_t)set * c->cfg.assoc];
    const uint32_t assoc = c->cfg.assoc;
    /* the tag search first (most probes hit); the victim search on a miss */
    if (c->tix) {
        int hw = find_indexed(c, block, set);
        if (hw >= 0) {
            *way = (uint32_t)hw;
            return hit_status(&ls[hw], si, write);
        }
    } else {
        const uint32_t m = c->mru[set]; /* (the block is in no other present line) */
        if (ls[m].block == block && line_present(c, &ls[m])) {
            *way = m;
            return hit_status(&ls[m], si, write);
        }
        for (uint32_t w = 0; w < assoc; w++) {
            const line *l = &ls[w];
            if (l->block != block || !line_present(c, l)) continue;
            c->mru[set] = w;
            *way = w;
            return hit_status(l, si, write);
        }
    }
    if (!victim) {
        *way = 0;
        return WS_CACHE_MISS;
    }
    int v = find_victim(c, set, protect);
    if (v < 0) return WS_CACHE_RESERVATION_FAIL;
    *way = (uint32_t)v;
    return WS_CACHE_MISS;
}

static ws_cache_status probe_ex(const ws_cache *c, uint64_t block, uint32_t set, uint32_t si,
                                bool write, bool protect, uint32_t *way) {
    return probe_body(c, block, set, si, write, protect, true, way);
}

static ws_cache_status probe(const ws_cache *c, uint64_t block, uint32_t set, uint32_t si,
                             bool write, uint32_t *way) {
    return probe_ex(c, block, set, si, write, false, way);
}

/* Protection distances: an access (hit or fill) to `way` gives it the full
   distance and takes one from every other protected line of the set; a
   read that bypasses (way = assoc: no line) takes one from all of them. */
static void protect_touch_set(ws_cache *c, uint32_t set, uint32_t way) {
    line *ls = &c->lines[(size_t)set * c->cfg.assoc];
    for (uint32_t w = 0; w < c->cfg.assoc; w++)
        if (w == way) ls[w].rpd = c->byp.protect;
        else if (ls[w].rpd) ls[w].rpd--;
}
/* (the test inline: only a bypass policy with protection distances sets them) */
static inline void protect_touch(ws_cache *c, uint32_t set, uint32_t way) {
    if (c->byp.protect) protect_touch_set(c, set, way);
}

static inline uint32_t mhash_slot(const ws_cache *c, uint64_t maddr) {
    return (uint32_t)((maddr * 0x9E3779B97F4A7C15ull) >> 32) & c->mhash_mask;
}

static mshr_entry *mshr_find(ws_cache *c, uint64_t maddr) {
    if (!c->h.mshr_used) return NULL;
    for (uint32_t s = mhash_slot(c, maddr);; s = (s + 1) & c->mhash_mask) {
        uint32_t v = c->mhash[s];
        if (!v) return NULL;
        if (c->mkey[v - 1] == maddr) return &c->mshr[v - 1];
    }
}

/* MSHR i is freed: out of the table (the entries after it in its probe run
   move back where their lookups still find them) and its key cleared. */
static void mshr_release(ws_cache *c, uint32_t i) {
    uint32_t m = c->mhash_mask, s = mhash_slot(c, c->mkey[i]);
    while (c->mhash[s] != i + 1) s = (s + 1) & m;
    for (uint32_t j = (s + 1) & m; c->mhash[j]; j = (j + 1) & m) {
        uint32_t home = mhash_slot(c, c->mkey[c->mhash[j] - 1]);
        if (((j - home) & m) >= ((j - s) & m)) { /* s lies on j's probe path */
            c->mhash[s] = c->mhash[j];
            s = j;
        }
    }
    c->mhash[s] = 0;
    c->mkey[i] = MKEY_NONE;
    c->mfree[i / 64] |= 1ull << (i % 64);
}

static mshr_entry *mshr_alloc(ws_cache *c, uint64_t maddr, uint64_t index_addr) {
    for (uint32_t k = 0; k * 64 < c->cfg.mshr_entries; k++)
        if (c->mfree[k]) {
            uint32_t i = k * 64 + (uint32_t)__builtin_ctzll(c->mfree[k]); /* the lowest free */
            c->mfree[k] &= c->mfree[k] - 1;
            mshr_entry *e = &c->mshr[i];
            c->mkey[i] = maddr;
            uint32_t s = mhash_slot(c, maddr);
            while (c->mhash[s]) s = (s + 1) & c->mhash_mask;
            c->mhash[s] = i + 1;
            e->valid = true;
            e->block = maddr;
            e->index_addr = index_addr;
            e->nreq = 0;
            e->modify = false;
            e->has_line = false;
            e->doomed = false;
            c->h.mshr_used++;
            return e;
        }
    return NULL;
}

/* Miss queue has room for n more entries beyond those it must keep free
 * (GPGPU-Sim checks len + n >= size, so a read keeps one slot for the
 * writeback its eviction may cause). */
static bool mq_full(const ws_cache *c, uint32_t n) { return c->h.mq_len + n >= c->cfg.miss_queue_size; }

static void mq_push(ws_cache *c, ws_out_kind kind, uint64_t addr, uint32_t size, uint8_t sectors,
                    void *req) {
    /* capacity is miss_queue_size + 2 and every caller checked mq_full first */
    ws_cache_out *o = &c->mq[(c->mq_head + c->h.mq_len) % c->mq_cap];
    o->kind = (uint8_t)kind;
    o->addr = addr;
    o->size = size;
    o->sectors = sectors;
    o->req = req;
    c->h.mq_len++;
}

/* A writeback from a flush or a doomed fill: it cannot wait, so the queue
 * grows past its nominal size; accesses see it full until it drains. */
static void mq_push_grow(ws_cache *c, uint64_t addr, uint32_t size, uint8_t sectors) {
    if (c->h.mq_len == c->mq_cap) {
        uint32_t cap = c->mq_cap * 2;
        ws_cache_out *q = malloc(cap * sizeof *q);
        if (!q) return; /* out of host memory: the writeback is lost, timing only */
        for (uint32_t i = 0; i < c->h.mq_len; i++) q[i] = c->mq[(c->mq_head + i) % c->mq_cap];
        free(c->mq);
        c->mq = q;
        c->mq_cap = cap;
        c->mq_head = 0;
    }
    mq_push(c, WS_OUT_WRITEBACK, addr, size, sectors, NULL);
}

/* Take way `way` of `set` for `block` with sector si in `state` (the other
 * sectors invalid); a victim with modified sectors is written back (only
 * those sectors) unless `silent`. */
static void allocate_line(ws_cache *c, uint32_t set, uint32_t way, uint64_t block, uint32_t si,
                          uint8_t state, uint64_t now, bool silent) {
    line *l = line_at(c, set, way);
    c->mru[set] = way;
    bool indexed = c->tix && l->indexed && l->block == block;
    if (c->tix && !indexed) { /* the line moves to block's entries */
        uint32_t idx = set * c->cfg.assoc + way;
        if (l->indexed) tix_remove(c, idx, l->block);
        tix_insert(c, idx, block);
        indexed = true;
    }
    if (line_present(c, l)) {
        c->stats.evictions++;
        if (c->evict_fn) c->evict_fn(c->evict_ctx, l->block, l->owner, c->h.owner);
        uint8_t mod = line_modified_mask(c, l);
        if (mod && !silent) {
            c->stats.writebacks++;
            uint32_t n = (uint32_t)__builtin_popcount(mod);
            mq_push(c, WS_OUT_WRITEBACK, l->block, c->nsec > 1 ? n * SECTOR : c->cfg.line_size,
                    mod, NULL);
        }
    }
    memset(l, 0, sizeof *l);
    l->block = block;
    l->indexed = indexed;
    l->owner = c->h.owner;
    l->rpd = c->byp.protect;
    l->sec[si] = state;
    l->alloc_time = now;
    l->last_use = now;
}

/* A present line's sector starts a fetch: it is RESERVED until the fill;
 * a sector that was MODIFIED (partially written) is MODIFIED again after. */
static void allocate_sector(line *l, uint32_t si, uint64_t now) {
    if (l->sec[si] == LINE_MODIFIED) l->mod_on_fill |= (uint8_t)(1u << si);
    else l->mod_on_fill &= (uint8_t)~(1u << si);
    l->unreadable &= (uint8_t)~(1u << si);
    l->sec[si] = LINE_RESERVED;
    l->last_use = now;
}

static ws_cache_result fail(ws_cache *c, ws_acc_dir dir, ws_fail_kind k) {
    c->stats.status[dir][WS_CACHE_RESERVATION_FAIL]++;
    c->stats.fail[dir][k]++;
    return (ws_cache_result){WS_CACHE_RESERVATION_FAIL, k, false, false};
}

static ws_cache_result done(ws_cache *c, ws_acc_dir dir, ws_cache_status s, bool held,
                            bool sent_write) {
    c->stats.status[dir][s]++;
    return (ws_cache_result){s, 0, held, sent_write};
}

/* Can a fetch of maddr be started or merged? (GPGPU-Sim's order: miss
 * queue, then MSHR merge limit, then a free MSHR entry.) */
static bool fetch_possible(ws_cache *c, uint64_t maddr, ws_fail_kind *k, mshr_entry **found) {
    mshr_entry *e = *found = mshr_find(c, maddr);
    if (e && e->doomed) { /* its line is RD: wait for the fill, then miss afresh */
        *k = WS_FAIL_LINE_ALLOC;
        return false;
    }
    if (mq_full(c, 1)) {
        *k = WS_FAIL_MISS_QUEUE;
        return false;
    }
    if (e ? e->nreq >= c->cfg.mshr_max_merge : c->h.mshr_used >= c->cfg.mshr_entries) {
        *k = e ? WS_FAIL_MSHR_MERGE : WS_FAIL_MSHR_ENTRY;
        return false;
    }
    return true;
}

/* Start or join the fetch of addr's line (sector), after fetch_possible, whose
 * lookup found e (nothing changes the MSHRs in between: no second lookup).
 * req (may be NULL for a write-allocate fetch) is held until the fill.
 * Returns true if it merged into an outstanding fetch. */
static bool fetch(ws_cache *c, uint64_t addr, uint64_t index_addr, uint32_t set, uint32_t way,
                  ws_cache_status ps, void *req, bool modify, uint64_t now, mshr_entry *e) {
    uint64_t block = block_of(c, addr), maddr = mshr_addr(c, addr);
    uint32_t si = sector_of(c, addr);
    bool merged = e != NULL;
    if (e) {
        c->stats.mshr_hits++;
    } else {
        e = mshr_alloc(c, maddr, index_addr);
        mq_push(c, WS_OUT_READ_LINE, maddr, c->atom, (uint8_t)(1u << si), req);
    }
    e->reqs[e->nreq++] = req; /* a NULL (write-allocate) still takes a merge slot */
    e->modify |= modify;
    if (c->cfg.alloc == WS_ALLOC_ON_MISS) {
        if (ps == WS_CACHE_MISS) allocate_line(c, set, way, block, si, LINE_RESERVED, now, false);
        else if (ps == WS_CACHE_SECTOR_MISS) allocate_sector(line_at(c, set, way), si, now);
        else if (ps == WS_CACHE_HIT_RESERVED) line_at(c, set, way)->last_use = now;
        if (modify) line_at(c, set, way)->mod_on_fill |= (uint8_t)(1u << si);
        if (!merged) {
            e->has_line = true;
            e->set = set;
            e->way = way;
        }
    }
    return merged;
}

/* Write-allocate without fetching (lazy fetch, and fetch-on-write of a
 * whole sector): the sector becomes MODIFIED now; a partial write leaves it
 * unreadable until a read fetches the rest. */
static void write_allocate_now(ws_cache *c, uint64_t addr, uint32_t set, uint32_t way,
                               ws_cache_status ps, uint32_t wb, uint64_t now) {
    uint64_t block = block_of(c, addr);
    uint32_t si = sector_of(c, addr);
    uint8_t bit = (uint8_t)(1u << si);
    bool full = wb == WS_WRITE_FULL;
    line *l = line_at(c, set, way);
    if (ps == WS_CACHE_MISS) {
        allocate_line(c, set, way, block, si, LINE_MODIFIED, now, false);
        l->wbytes[si] = wb;
        if (!full) l->unreadable |= bit;
    } else if (ps == WS_CACHE_HIT_RESERVED) {
        /* the fill in flight merges with the written bytes */
        l->mod_on_fill |= bit;
        l->last_use = now;
    } else { /* SECTOR_MISS: the sector is invalid, or modified but partial */
        bool was_partial = l->sec[si] == LINE_MODIFIED && ((l->unreadable & bit) != 0);
        if (l->sec[si] != LINE_MODIFIED || was_partial) {
            /* GPGPU-Sim's byte mask: the parts written so far add up */
            l->wbytes[si] = was_partial ? l->wbytes[si] | wb : wb;
            if (l->wbytes[si] == WS_WRITE_FULL) l->unreadable &= (uint8_t)~bit;
            else l->unreadable |= bit;
        }
        l->sec[si] = LINE_MODIFIED;
        l->last_use = now;
    }
}

/* (always inlined into access_common, as the probe into it: one frame per access) */
static inline __attribute__((always_inline)) ws_cache_result
access_body(ws_cache *c, uint64_t addr, uint64_t index_addr, ws_acc_dir dir, bool local, uint32_t wb,
            void *req, uint64_t now) {
    const bool full_write = wb == WS_WRITE_FULL;
    uint64_t block = block_of(c, addr);
    uint32_t set = set_index(c, index_addr);
    uint32_t si = sector_of(c, addr);
    uint8_t bit = (uint8_t)(1u << si);
    uint32_t way = 0;
    bool rd = dir == WS_ACC_READ;
    char wp = c->cfg.write_policy, wa = c->cfg.write_alloc;
    /* a write that allocates nothing answers a missing line and a set with every way
       pinned alike (uses no line): no victim search (most writes of an uncoalesced
       store miss) */
    bool victim = rd || !(wa == WS_WA_NONE || wp == WS_WP_READ_ONLY);
    /* (one call for both: without the victim search it is a write, without protection;
       inlined, the probe costs no call of its own on every access) */
    ws_cache_status ps = probe_body(c, block, set, si, !rd, rd && c->byp.protect, victim, &way);
    line *l = ps == WS_CACHE_RESERVATION_FAIL ? NULL : line_at(c, set, way);
    ws_fail_kind fk;
    mshr_entry *me;

    if (rd) {
        if (ps == WS_CACHE_HIT) {
            l->last_use = now;
            protect_touch(c, set, way);
            return done(c, dir, WS_CACHE_HIT, false, false);
        }
        if (ps == WS_CACHE_RESERVATION_FAIL) {
            if (!c->byp.on_line_fail) return fail(c, dir, WS_FAIL_LINE_ALLOC);
            if (mq_full(c, 0)) return fail(c, dir, WS_FAIL_MISS_QUEUE);
            mq_push(c, WS_OUT_BYPASS, mshr_addr(c, addr), c->atom, bit, req);
            /* the bypass accessed another line of the set: without this, a set whose
               lines are all protected and never hit again would bypass forever */
            protect_touch(c, set, c->cfg.assoc);
            return done(c, dir, WS_CACHE_BYPASS, false, false);
        }
        if (!fetch_possible(c, mshr_addr(c, addr), &fk, &me)) return fail(c, dir, fk);
        fetch(c, addr, index_addr, set, way, ps, req, false, now, me);
        return done(c, dir, ps, true, false);
    }

    /* writes */
    bool write_back = wp == WS_WP_WRITE_BACK || (wp == WS_WP_LOCAL_WB_GLOBAL_WT && local);
    if (ps == WS_CACHE_HIT) {
        if (write_back) {
            if (l->sec[si] == LINE_MODIFIED && (l->unreadable & bit)) { /* the parts add up */
                l->wbytes[si] |= wb;
                if (l->wbytes[si] == WS_WRITE_FULL) l->unreadable &= (uint8_t)~bit;
            }
            l->sec[si] = LINE_MODIFIED;
            l->last_use = now;
            return done(c, dir, WS_CACHE_HIT, false, false);
        }
        if (mq_full(c, 0)) return fail(c, dir, WS_FAIL_MISS_QUEUE);
        mq_push(c, WS_OUT_WRITE, addr, 0, bit, req);
        if (wp == WS_WP_WRITE_THROUGH) l->last_use = now;
        else l->sec[si] = LINE_INVALID; /* write-evict (E, and global writes under L) */
        return done(c, dir, WS_CACHE_HIT, false, true);
    }
    /* write miss (including a write to a reserved sector, and a set whose ways
       are all reserved: a non-allocating write does not need a line) */
    if (wa == WS_WA_NONE || wp == WS_WP_READ_ONLY) {
        if (mq_full(c, 0)) return fail(c, dir, WS_FAIL_MISS_QUEUE);
        mq_push(c, WS_OUT_WRITE, addr, 0, bit, req);
        return done(c, dir, ps == WS_CACHE_RESERVATION_FAIL ? WS_CACHE_MISS : ps, false, true);
    }
    if (ps == WS_CACHE_RESERVATION_FAIL) return fail(c, dir, WS_FAIL_LINE_ALLOC);
    if (wa == WS_WA_LAZY_FETCH || (wa == WS_WA_FETCH_ON_WRITE && full_write)) {
        if (mq_full(c, 0)) return fail(c, dir, WS_FAIL_MISS_QUEUE);
        bool through = wp == WS_WP_WRITE_THROUGH;
        if (through) mq_push(c, WS_OUT_WRITE, addr, 0, bit, req);
        write_allocate_now(c, addr, set, way, ps, wb, now);
        return done(c, dir, ps, false, through);
    }
    if (wa == WS_WA_FETCH_ON_WRITE) {
        /* partial write: fetch the sector, hold the write until it is filled */
        if (!fetch_possible(c, mshr_addr(c, addr), &fk, &me)) return fail(c, dir, fk);
        fetch(c, addr, index_addr, set, way, ps, req, true, now, me);
        return done(c, dir, ps, true, false);
    }
    /* 'W' (naive write allocate): the write goes down and the line is read
       in; worst case three requests (write, line read, writeback) must fit. */
    if (mq_full(c, 2)) return fail(c, dir, WS_FAIL_MISS_QUEUE);
    if (!fetch_possible(c, mshr_addr(c, addr), &fk, &me)) return fail(c, dir, fk);
    mq_push(c, WS_OUT_WRITE, addr, 0, bit, req);
    fetch(c, addr, index_addr, set, way, ps, NULL, false, now, me);
    return done(c, dir, ps == WS_CACHE_HIT_RESERVED ? WS_CACHE_MISS : ps, false, true);
}

/* Tag-only mode (see cache.h): the tags see the access as if caching, the
   access itself goes down. */
static ws_cache_result access_tag_only(ws_cache *c, uint64_t addr, uint64_t index_addr,
                                       ws_acc_dir dir, void *req, uint64_t now) {
    uint64_t block = block_of(c, addr);
    uint32_t set = set_index(c, index_addr);
    uint32_t si = sector_of(c, addr), way = 0;
    uint8_t bit = (uint8_t)(1u << si);
    ws_cache_status ps = probe(c, block, set, si, dir == WS_ACC_WRITE, &way);
    line *l = ps == WS_CACHE_RESERVATION_FAIL ? NULL : line_at(c, set, way);
    bool tag_hit = ps == WS_CACHE_HIT || ps == WS_CACHE_HIT_RESERVED ||
                   (ps == WS_CACHE_SECTOR_MISS && l->sec[si] == LINE_TAG);
    if (dir == WS_ACC_READ) {
        if (ps == WS_CACHE_HIT) { /* the data is here: serve it */
            l->last_use = now;
            return done(c, dir, WS_CACHE_HIT, false, false);
        }
        if (mq_full(c, 1)) return fail(c, dir, WS_FAIL_MISS_QUEUE); /* + a victim's writeback */
        if (ps == WS_CACHE_MISS) allocate_line(c, set, way, block, si, LINE_TAG, now, false);
        else if (ps == WS_CACHE_SECTOR_MISS) {
            if (l->sec[si] == LINE_INVALID) l->sec[si] = LINE_TAG;
            l->last_use = now;
        } else if (l) l->last_use = now;
        mq_push(c, WS_OUT_BYPASS, mshr_addr(c, addr), c->atom, bit, req);
    } else {
        if (mq_full(c, 0)) return fail(c, dir, WS_FAIL_MISS_QUEUE);
        mq_push(c, WS_OUT_WRITE, addr, 0, bit, req);
        /* the next level gets the newest bytes; a copy here keeps its tag only */
        if (l && (l->sec[si] == LINE_VALID || l->sec[si] == LINE_MODIFIED)) {
            l->sec[si] = LINE_TAG;
            l->unreadable &= (uint8_t)~bit;
            l->last_use = now;
        }
    }
    c->stats.bypass_tag_hits[dir] += tag_hit;
    return done(c, dir, WS_CACHE_BYPASS, false, dir == WS_ACC_WRITE);
}

/* Invalidate every line for a new index function: modified sectors are
 * written back, sectors waiting for a fill become RD, and the cache rejects
 * accesses for one cycle per set (seed 003 §7.8). */
static void flush(ws_cache *c, uint64_t now) {
    size_t n = (size_t)c->cfg.nsets * c->cfg.assoc;
    for (size_t i = 0; i < n; i++) {
        line *l = &c->lines[i];
        uint8_t mod = line_modified_mask(c, l);
        if (mod) {
            c->stats.writebacks++;
            c->stats.flush_writebacks++;
            uint32_t k = (uint32_t)__builtin_popcount(mod);
            mq_push_grow(c, l->block, c->nsec > 1 ? k * SECTOR : c->cfg.line_size, mod);
        }
        for (uint32_t s = 0; s < c->nsec; s++) {
            if (l->sec[s] == LINE_VALID || l->sec[s] == LINE_MODIFIED) {
                l->sec[s] = LINE_INVALID;
                c->stats.flush_invalidations++;
            } else if (l->sec[s] == LINE_TAG) {
                l->sec[s] = LINE_INVALID;
            } else if (l->sec[s] == LINE_RESERVED) {
                l->sec[s] = LINE_RD;
            }
        }
        l->unreadable = 0;
    }
    for (uint32_t i = 0; i < c->cfg.mshr_entries; i++)
        if (c->mshr[i].valid && c->mshr[i].has_line) c->mshr[i].doomed = true;
    c->stats.flushes++;
    c->flush_from = now;
    c->blocked_until = now + c->cfg.nsets;
}

static ws_index_probe to_probe(ws_cache_status s) {
    switch (s) {
    case WS_CACHE_HIT: return WS_IX_HIT;
    case WS_CACHE_HIT_RESERVED: return WS_IX_HIT_RESERVED;
    case WS_CACHE_SECTOR_MISS: return WS_IX_SECTOR_MISS;
    default: return WS_IX_MISS;
    }
}

/* The flush of an index change starts at the next access (or memcpy fill),
 * so the access that caused it still sees only its own miss-queue entries
 * (owners tell "sent down" from the queue growing). */
static void start_pending_flush(ws_cache *c, uint64_t now) {
    if (!c->flush_pending) return;
    c->ver++;
    c->flush_pending = false;
    flush(c, now);
}

ws_cache_result ws_cache_access_ex(ws_cache *c, uint64_t addr, uint64_t index_addr, ws_acc_dir dir,
                                   bool local, bool full_write, void *req, uint64_t now) {
    return ws_cache_access_bytes(c, addr, index_addr, dir, local, full_write ? WS_WRITE_FULL : 0,
                                 req, now);
}

/* The last refusal was of this access, at this version (refused again, as probing
   again would be). */
static inline __attribute__((always_inline)) bool
refused_before(const ws_cache *c, uint64_t addr, uint64_t index_addr, ws_acc_dir dir, bool local,
               uint32_t wbytes) {
    return c->fail_ver == c->ver && c->fail_addr == addr && c->fail_index == index_addr &&
           c->fail_dir == dir && c->fail_local == local && c->fail_wbytes == wbytes;
}
/* After an access: its local count, and the refusal noted or the version moved on. */
static inline __attribute__((always_inline)) void
note_result(ws_cache *c, ws_cache_result r, uint64_t addr, uint64_t index_addr, ws_acc_dir dir,
            bool local, uint32_t wbytes) {
    if (local) c->stats.status_local[dir][r.status]++;
    if (r.status == WS_CACHE_RESERVATION_FAIL) {
        c->fail_ver = c->ver;
        c->fail_addr = addr;
        c->fail_index = index_addr;
        c->fail_dir = (uint8_t)dir;
        c->fail_local = local;
        c->fail_wbytes = wbytes;
        c->fail_kind = (uint8_t)r.fail;
    } else {
        c->ver++;
    }
}

/* The access, for any cache (see access_entry). */
static __attribute__((noinline)) ws_cache_result
access_common(ws_cache *c, uint64_t addr, uint64_t index_addr, ws_acc_dir dir, bool local,
              uint32_t wbytes, void *req, uint64_t now) {
    start_pending_flush(c, now);
    if (now < c->blocked_until && now >= c->flush_from) {
        if (local) c->stats.status_local[dir][WS_CACHE_RESERVATION_FAIL]++;
        return fail(c, dir, WS_FAIL_FLUSH);
    }
    if (refused_before(c, addr, index_addr, dir, local, wbytes)) {
        if (local) c->stats.status_local[dir][WS_CACHE_RESERVATION_FAIL]++;
        return fail(c, dir, (ws_fail_kind)c->fail_kind); /* as probing again would */
    }
    ws_cache_result r = c->byp.tag_only
                            ? access_tag_only(c, addr, index_addr, dir, req, now)
                            : access_body(c, addr, index_addr, dir, local, wbytes, req, now);
    note_result(c, r, addr, index_addr, dir, local, wbytes);
    /* adaptive index functions watch every access that was not rejected */
    if (c->index.policy->observe && !c->index_paused && r.status != WS_CACHE_RESERVATION_FAIL &&
        ws_index_observe(&c->index, index_addr, to_probe(r.status), dir == WS_ACC_WRITE && !local)) {
        c->stats.index_changes++;
        c->flush_pending = true;
    }
    return r;
}

/* access_common for a plain cache (no flush can be pending or blocking, no tag-only
   mode, nothing observes): the same steps without those tests. */
static inline __attribute__((always_inline)) ws_cache_result
access_plain(ws_cache *c, uint64_t addr, uint64_t index_addr, ws_acc_dir dir, bool local,
             uint32_t wbytes, void *req, uint64_t now) {
    if (refused_before(c, addr, index_addr, dir, local, wbytes)) {
        if (local) c->stats.status_local[dir][WS_CACHE_RESERVATION_FAIL]++;
        return fail(c, dir, (ws_fail_kind)c->fail_kind); /* as probing again would */
    }
    ws_cache_result r = access_body(c, addr, index_addr, dir, local, wbytes, req, now);
    note_result(c, r, addr, index_addr, dir, local, wbytes);
    return r;
}

/* Both entry points: a plain cache's access inline (one frame per access: the L1s'
   ws_cache_access, whose address is the index address and which has no byte mask,
   then makes no second call), any other through access_common. */
static inline __attribute__((always_inline)) ws_cache_result
access_entry(ws_cache *c, uint64_t addr, uint64_t index_addr, ws_acc_dir dir, bool local,
             uint32_t wbytes, void *req, uint64_t now) {
    if (!c->plain) return access_common(c, addr, index_addr, dir, local, wbytes, req, now);
    return access_plain(c, addr, index_addr, dir, local, wbytes, req, now);
}

/* hit_status for a read is HIT: the sector valid, or modified with all its bytes. */
static inline bool sector_readable(const line *l, uint32_t si) {
    return l->sec[si] == LINE_VALID || (l->sec[si] == LINE_MODIFIED && !((l->unreadable >> si) & 1));
}
/* A hit answered before the access path (the functions below): access_body's last use and
   count, note_result's local count and new version. */
static inline void fast_hit(ws_cache *c, line *l, ws_acc_dir dir, bool local, uint64_t now) {
    l->last_use = now;
    c->stats.status[dir][WS_CACHE_HIT]++;
    if (local) c->stats.status_local[dir][WS_CACHE_HIT]++;
    c->ver++;
}

/* A read (hit_fast) whose block is in its set's last way found, with the sector there to
   read: a hit, with the access path's effects (access_body's last use and count,
   note_result's local count and new version; no refusal can be noted for an access that
   hits at the same version, and the probe would find this way first). False, nothing done,
   otherwise. Most L1I, L1C and L2 reads; it costs no frame and no call. */
static inline bool read_hit_mru(ws_cache *c, uint64_t addr, uint64_t index_addr, bool local,
                                uint64_t now) {
    uint32_t set = (uint32_t)((index_addr >> c->field_shift) & c->field_mask), si = sector_of(c, addr);
    line *l = &c->lines[(size_t)set * c->cfg.assoc + c->mru[set]];
    if (l->block != block_of(c, addr) || !sector_readable(l, si)) return false;
    fast_hit(c, l, WS_ACC_READ, local, now);
    return true;
}

/* read_hit_mru's hit when the block is in another way of its set: the probe's scan (the
   lowest way holding the block in a present line, the only one), whose way becomes the
   set's last found as the probe makes it. Run first on the access path (a hit_fast
   cache's read that read_hit_mru left): kmeans' L2 reads mostly hit other ways. (Not for ws_cache_access: its L1D
   reads would pay the test, and the L1I's and L1C's rarely hit elsewhere.) */
static inline bool read_hit_scan(ws_cache *c, uint64_t addr, uint64_t index_addr, bool local,
                                 uint64_t now) {
    uint32_t set = (uint32_t)((index_addr >> c->field_shift) & c->field_mask), si = sector_of(c, addr);
    const uint64_t block = block_of(c, addr);
    line *ls = &c->lines[(size_t)set * c->cfg.assoc];
    for (uint32_t w = 0; w < c->cfg.assoc; w++) {
        line *l = &ls[w];
        if (l->block != block || !line_present(c, l)) continue;
        if (!sector_readable(l, si)) return false; /* (not a hit: the access path answers) */
        c->mru[set] = w;
        fast_hit(c, l, WS_ACC_READ, local, now);
        return true;
    }
    return false;
}

/* A write (hit_fast) to a write-back cache whose block is in its set's last way found,
   with the sector valid or modified: a hit, with access_body's write-back hit effects
   (the written bytes added up in a partial sector, MODIFIED, last use, the count) and
   note_result's (local count, new version). A write hit is never refused, so no note of
   this access can hold at this version (as read_hit_mru). False, nothing done, otherwise
   (most L2 writes: gemm's stores). */
static inline bool write_hit_mru(ws_cache *c, uint64_t addr, uint64_t index_addr, bool local,
                                 uint32_t wb, uint64_t now) {
    const char wp = c->cfg.write_policy;
    if (wp != WS_WP_WRITE_BACK && !(wp == WS_WP_LOCAL_WB_GLOBAL_WT && local)) return false;
    uint32_t set = (uint32_t)((index_addr >> c->field_shift) & c->field_mask), si = sector_of(c, addr);
    line *l = &c->lines[(size_t)set * c->cfg.assoc + c->mru[set]];
    if (l->block != block_of(c, addr)) return false;
    const uint8_t bit = (uint8_t)(1u << si);
    if (l->sec[si] == LINE_MODIFIED) {
        if (l->unreadable & bit) { /* the parts add up */
            l->wbytes[si] |= wb;
            if (l->wbytes[si] == WS_WRITE_FULL) l->unreadable &= (uint8_t)~bit;
        }
    } else if (l->sec[si] != LINE_VALID) {
        return false;
    }
    l->sec[si] = LINE_MODIFIED;
    fast_hit(c, l, WS_ACC_WRITE, local, now);
    return true;
}

static __attribute__((noinline)) ws_cache_result
access_bytes_full(ws_cache *c, uint64_t addr, uint64_t index_addr, ws_acc_dir dir, bool local,
                  uint32_t wbytes, void *req, uint64_t now) {
    if (dir == WS_ACC_READ && c->hit_fast && read_hit_scan(c, addr, index_addr, local, now))
        return (ws_cache_result){WS_CACHE_HIT, 0, false, false};
    return access_entry(c, addr, index_addr, dir, local, wbytes, req, now);
}

/* A write: its hit first (out of line, so that the reads' leaf keeps no frame). */
static __attribute__((noinline)) ws_cache_result
access_bytes_write(ws_cache *c, uint64_t addr, uint64_t index_addr, bool local, uint32_t wbytes,
                   void *req, uint64_t now) {
    if (c->hit_fast && write_hit_mru(c, addr, index_addr, local, wbytes, now))
        return (ws_cache_result){WS_CACHE_HIT, 0, false, false};
    return access_bytes_full(c, addr, index_addr, WS_ACC_WRITE, local, wbytes, req, now);
}

ws_cache_result ws_cache_access_bytes(ws_cache *c, uint64_t addr, uint64_t index_addr,
                                      ws_acc_dir dir, bool local, uint32_t wbytes, void *req,
                                      uint64_t now) {
    if (dir != WS_ACC_READ) return access_bytes_write(c, addr, index_addr, local, wbytes, req, now);
    if (c->hit_fast && read_hit_mru(c, addr, index_addr, local, now))
        return (ws_cache_result){WS_CACHE_HIT, 0, false, false};
    return access_bytes_full(c, addr, index_addr, dir, local, wbytes, req, now);
}

void ws_cache_kernel_start(ws_cache *c, uint64_t now) {
    c->ver++;
    if (ws_index_kernel_start(&c->index)) {
        c->stats.index_changes++;
        c->flush_pending = true;
    }
    start_pending_flush(c, now);
}

unsigned ws_cache_index_bits(const ws_cache *c, uint8_t *bits, unsigned max) {
    return c->index.policy->index_bits ? c->index.policy->index_bits(c->index.state, bits, max) : 0;
}

static __attribute__((noinline)) ws_cache_status access_full(ws_cache *c, uint64_t addr, ws_acc_dir dir,
                                                            bool local, void *req, uint64_t now,
                                                            ws_fail_kind *failk) {
    ws_cache_result r = access_entry(c, addr, addr, dir, local, 0, req, now);
    if (r.status == WS_CACHE_RESERVATION_FAIL && failk) *failk = r.fail;
    return r.status;
}

ws_cache_status ws_cache_access(ws_cache *c, uint64_t addr, ws_acc_dir dir, bool local, void *req,
                                uint64_t now, ws_fail_kind *failk) {
    if (dir == WS_ACC_READ && c->hit_fast && read_hit_mru(c, addr, addr, local, now)) return WS_CACHE_HIT;
    return access_full(c, addr, dir, local, req, now, failk);
}

const ws_cache_out *ws_cache_peek_miss(const ws_cache *c) {
    return c->h.mq_len ? &c->mq[c->mq_head] : NULL;
}
void ws_cache_pop_miss(ws_cache *c) {
    if (!c->h.mq_len) return;
    c->ver++;
    c->mq_head = (c->mq_head + 1) % c->mq_cap;
    c->h.mq_len--;
}

/* Requests whose data arrived wait here until the owner takes them (one per
 * call). The owner may take them slower than fills free MSHR entries for new
 * misses, so the queue grows instead of ever dropping a request. */
static void ready_push(ws_cache *c, void *req) {
    if (c->h.rd_len == c->rd_cap) {
        uint32_t ncap = c->rd_cap ? 2 * c->rd_cap : 16;
        void **n = malloc((size_t)ncap * sizeof *n);
        if (!n) abort(); /* bounded by the requests in flight; tiny */
        for (uint32_t i = 0; i < c->h.rd_len; i++) n[i] = c->ready[(c->rd_head + i) % c->rd_cap];
        free(c->ready);
        c->ready = n;
        c->rd_head = 0;
        c->rd_cap = ncap;
    }
    c->ready[(c->rd_head + c->h.rd_len++) % c->rd_cap] = req;
}

void ws_cache_fill(ws_cache *c, uint64_t fill_addr, uint64_t now) {
    uint64_t maddr = mshr_addr(c, fill_addr), block = block_of(c, fill_addr);
    uint32_t si = sector_of(c, fill_addr);
    uint8_t bit = (uint8_t)(1u << si);
    mshr_entry *e = mshr_find(c, maddr);
    c->stats.fills++;
    c->ver++;
    bool modify = e && e->modify;
    uint32_t set, way;
    ws_cache_status ps;
    line *rl = e && e->has_line ? line_at(c, e->set, e->way) : NULL;
    if (rl && rl->block == block && rl->sec[si] == LINE_RD) {
        /* reserved-doomed: the data serves the merged requests only; bytes a
           write merged into the fetch go down as a writeback */
        rl->sec[si] = LINE_INVALID;
        if (modify || (rl->mod_on_fill & bit)) {
            c->stats.writebacks++;
            mq_push_grow(c, maddr, c->atom, bit);
        }
        rl->mod_on_fill &= (uint8_t)~bit;
        ps = WS_CACHE_RESERVATION_FAIL; /* nothing to allocate below */
        set = e->set;
        way = e->way;
    } else if (rl && rl->block == block && rl->sec[si] == LINE_RESERVED) {
        set = e->set; /* the line allocated for this fetch, wherever the index now points */
        way = e->way;
        ps = WS_CACHE_HIT_RESERVED;
    } else {
        set = set_index(c, e ? e->index_addr : maddr);
        ps = probe(c, block, set, si, false, &way);
    }
    if (c->cfg.alloc == WS_ALLOC_ON_MISS) {
        if (ps == WS_CACHE_HIT_RESERVED) {
            line *l = line_at(c, set, way);
            protect_touch(c, set, way);
            l->sec[si] = (modify || (l->mod_on_fill & bit)) ? LINE_MODIFIED : LINE_VALID;
            l->mod_on_fill &= (uint8_t)~bit;
            l->unreadable &= (uint8_t)~bit;
        }
        /* otherwise the reserved line was invalidated by a flush: no allocation */
    } else if (ps == WS_CACHE_MISS) {
        /* allocate-on-fill: the victim is chosen now; the writeback of a dirty
           victim may exceed the nominal miss-queue size by one entry */
        allocate_line(c, set, way, block, si, modify ? LINE_MODIFIED : LINE_VALID, now, false);
    } else if (ps == WS_CACHE_SECTOR_MISS) {
        line *l = line_at(c, set, way);
        if (l->sec[si] != LINE_MODIFIED) l->sec[si] = modify ? LINE_MODIFIED : LINE_VALID;
        l->unreadable &= (uint8_t)~bit;
    }
    if (!e) return;
    for (uint32_t i = 0; i < e->nreq; i++) {
        if (!e->reqs[i]) continue;
        ready_push(c, e->reqs[i]);
        e->reqs[i] = NULL;
    }
    e->valid = false;
    mshr_release(c, (uint32_t)(e - c->mshr));
    c->h.mshr_used--;
}

void ws_cache_force_fill(ws_cache *c, uint64_t addr, uint64_t index_addr, uint64_t now) {
    start_pending_flush(c, now);
    c->ver++;
    uint64_t block = block_of(c, addr);
    uint32_t set = set_index(c, index_addr);
    uint32_t si = sector_of(c, addr), way;
    ws_cache_status ps = probe(c, block, set, si, true, &way);
    if (ps == WS_CACHE_RESERVATION_FAIL) return;
    line *l = line_at(c, set, way);
    if (ps == WS_CACHE_MISS) {
        allocate_line(c, set, way, block, si, LINE_VALID, now, true);
    } else if (l->sec[si] != LINE_RESERVED) {
        l->sec[si] = LINE_VALID;
        l->unreadable &= (uint8_t)~(1u << si);
        l->last_use = now;
    }
}

bool ws_cache_take(ws_cache *c, uint64_t addr, uint64_t index_addr) {
    c->ver++;
    uint64_t block = block_of(c, addr);
    uint32_t set = set_index(c, index_addr), way;
    if (probe(c, block, set, sector_of(c, addr), false, &way) != WS_CACHE_HIT) return false;
    line *l = line_at(c, set, way);
    if (line_reserved(c, l) || line_modified_mask(c, l)) return false; /* stays: no writeback */
    memset(l->sec, LINE_INVALID, sizeof l->sec);
    return true;
}


void *ws_cache_pop_ready_one(ws_cache *c) {
    if (!c->h.rd_len) return NULL;
    void *r = c->ready[c->rd_head];
    c->rd_head = (c->rd_head + 1) % c->rd_cap;
    c->h.rd_len--;
    return r;
}

void ws_cache_invalidate(ws_cache *c) {
    c->ver++;
    size_t n = (size_t)c->cfg.nsets * c->cfg.assoc;
    /* Every sector but RESERVED and RD becomes INVALID (0), a line's sectors as one word
       (sec_word's): word_reserved's per-byte bit, widened to a byte mask, keeps those two;
       a line already all INVALID is passed (most of them, at every kernel's start). */
    for (size_t i = 0; i < n; i++) {
        line *l = &c->lines[i];
        uint64_t w;
        memcpy(&w, l->sec, sizeof w);
        uint64_t x = w & c->sec_mask;
        if (!x) continue;
        uint64_t keep = ((~x >> 1) & (x ^ (x >> 2)) & BYTES_01) * 0xFF;
        w = (w & ~c->sec_mask) | (x & keep);
        memcpy(l->sec, &w, sizeof w);
    }
}

bool ws_cache_set_ways(ws_cache *c, uint32_t ways) {
    if (ways == c->cfg.assoc) return true;
    if (!ways || c->h.mshr_used) return false;
    size_t n = (size_t)c->cfg.nsets * c->cfg.assoc;
    for (size_t i = 0; i < n; i++) /* only clean lines may be dropped */
        for (uint32_t s = 0; s < c->nsec; s++)
            if (c->lines[i].sec[s] != LINE_INVALID && c->lines[i].sec[s] != LINE_VALID) return false;
    line *ls = calloc((size_t)c->cfg.nsets * ways, sizeof *ls);
    if (!ls) return false;
    c->ver++; /* a noted refusal was against the old lines */
    free(c->lines);
    c->lines = ls;
    memset(c->mru, 0, c->cfg.nsets * sizeof *c->mru); /* (ways below the new count) */
    c->cfg.assoc = ways;
    tix_create(c, c->cfg.nsets * ways, ways);
    hit_fast_now(c);
    return true;
}

const ws_cache_stats *ws_cache_get_stats(const ws_cache *c) { return &c->stats; }

void ws_cache_set_bypass(ws_cache *c, const ws_cache_bypass *b) {
    c->byp = *b;
    c->plain = plain_now(c);
    hit_fast_now(c);
    c->ver++;
}

void ws_cache_read_counts(const ws_cache *c, uint64_t *reads, uint64_t *misses) {
    const uint64_t *st = c->stats.status[WS_ACC_READ];
    uint64_t byp = st[WS_CACHE_BYPASS];
    *reads = st[WS_CACHE_HIT] + st[WS_CACHE_HIT_RESERVED] + st[WS_CACHE_MISS] +
             st[WS_CACHE_SECTOR_MISS] + byp;
    *misses = st[WS_CACHE_MISS] + st[WS_CACHE_SECTOR_MISS] + byp -
              c->stats.bypass_tag_hits[WS_ACC_READ];
}

void ws_cache_index_pause(ws_cache *c, bool paused) {
    c->index_paused = paused;
    c->ver++;
}
bool ws_cache_index_paused(const ws_cache *c) { return c->index_paused; }
void ws_cache_index_restart(ws_cache *c) {
    c->ver++;
    if (c->index.policy->restart) c->index.policy->restart(c->index.state);
}
bool ws_cache_index_selections(const ws_cache *c, uint64_t *n) {
    if (!c->index.policy->selections) return false;
    *n = c->index.policy->selections(c->index.state);
    return true;
}
/* (the owner is only stamped on lines it allocates: no refusal depends on it) */

static inline bool refusal_noted(const ws_cache *c, uint64_t addr, ws_acc_dir dir, bool local,
                                 uint64_t now) {
    /* ws_cache_access_bytes' path to the note (no flush to start, outside a flush's
       blocked window), for what ws_cache_access passes (index = addr, no write mask) */
    return !c->flush_pending && !(now < c->blocked_until && now >= c->flush_from) &&
           c->fail_ver == c->ver && c->fail_addr == addr && c->fail_index == addr &&
           c->fail_dir == dir && c->fail_local == local && c->fail_wbytes == 0;
}
static inline ws_fail_kind count_noted_refusal(ws_cache *c, ws_acc_dir dir, bool local) {
    /* what ws_cache_access_bytes counts when it answers from the note */
    if (local) c->stats.status_local[dir][WS_CACHE_RESERVATION_FAIL]++;
    fail(c, dir, (ws_fail_kind)c->fail_kind);
    return (ws_fail_kind)c->fail_kind;
}
bool ws_cache_refusal_noted(const ws_cache *c, uint64_t addr, ws_acc_dir dir, bool local,
                            uint64_t now) {
    return refusal_noted(c, addr, dir, local, now);
}
ws_fail_kind ws_cache_count_noted_refusal(ws_cache *c, ws_acc_dir dir, bool local) {
    return count_noted_refusal(c, dir, local);
}
bool ws_cache_retry_noted(ws_cache *c, uint64_t addr, ws_acc_dir dir, bool local, uint64_t now,
                          uint16_t owner, ws_fail_kind *kind) {
    if (!refusal_noted(c, addr, dir, local, now)) return false;
    c->h.owner = owner;
    *kind = count_noted_refusal(c, dir, local);
    return true;
}
void ws_cache_set_evict_hook(ws_cache *c, ws_cache_evict_fn fn, void *ctx) {
    c->evict_fn = fn;
    c->evict_ctx = ctx;
}
const ws_cache_cfg *ws_cache_get_cfg(const ws_cache *c) { return &c->cfg; }

unsigned ws_cache_reserved_in_set(const ws_cache *c, uint32_t set) {
    unsigned n = 0;
    for (uint32_t w = 0; w < c->cfg.assoc; w++)
        n += line_reserved(c, &c->lines[(size_t)set * c->cfg.assoc + w]);
    return n;
}

bool ws_cache_probe_hit(const ws_cache *c, uint64_t addr) {
    uint32_t way;
    return probe(c, block_of(c, addr), set_index(c, addr), sector_of(c, addr),
                 false, &way) == WS_CACHE_HIT;
}
uint64_t ws_cache_mshr_key(const ws_cache *c, uint64_t addr) { return mshr_addr(c, addr); }
int ws_cache_mshr_merges(const ws_cache *c, uint64_t addr) {
    uint64_t maddr = mshr_addr(c, addr);
    for (uint32_t i = 0; i < c->cfg.mshr_entries; i++)
        if (c->mkey[i] == maddr) return (int)c->mshr[i].nreq;
    return -1;
}

bool ws_cache_check_mshr(const ws_cache *c) {
    uint32_t used = 0, in_table = 0;
    for (uint32_t i = 0; i < c->cfg.mshr_entries; i++) {
        bool is_free = c->mfree[i / 64] >> (i % 64) & 1;
        if (is_free != (c->mkey[i] == MKEY_NONE) || is_free == c->mshr[i].valid) return false;
        if (is_free) continue;
        used++;
        for (uint32_t j = 0; j < i; j++) /* keys unique */
            if (c->mkey[j] == c->mkey[i]) return false;
        /* the lookup finds it */
        uint32_t s = mhash_slot(c, c->mkey[i]);
        while (c->mhash[s] && c->mhash[s] != i + 1) s = (s + 1) & c->mhash_mask;
        if (c->mhash[s] != i + 1) return false;
    }
    for (uint32_t s = 0; s <= c->mhash_mask; s++) in_table += c->mhash[s] != 0;
    return used == c->h.mshr_used && in_table == used;
}

bool ws_cache_check_tags(const ws_cache *c, const uint64_t *blocks, unsigned nblocks) {
    for (uint32_t set = 0; set < c->cfg.nsets; set++) {
        for (int p = 0; p < 2; p++)
            if (find_victim(c, set, p) != find_victim_ref(c, set, p)) return false;
        if (c->mru[set] >= c->cfg.assoc) return false;
        /* no block in two present lines of a set (the scan's most-recent way first) */
        for (uint32_t w = 0; w < c->cfg.assoc; w++) {
            const line *l = &c->lines[(size_t)set * c->cfg.assoc + w];
            if (line_present(c, l) && find_scan(c, l->block, set) != (int)w) return false;
        }
    }
    if (!c->tix) return true;
    uint32_t n = c->cfg.nsets * c->cfg.assoc, in_table = 0, indexed = 0;
    for (uint32_t s = 0; s <= c->tix_mask; s++) in_table += c->tix[s] != 0;
    for (uint32_t i = 0; i < n; i++) {
        const line *l = &c->lines[i];
        indexed += l->indexed;
        if (!l->indexed && line_present(c, l)) return false; /* present lines are entries */
        if (!l->indexed) continue;
        uint32_t s = tix_slot(c, l->block); /* found under its block */
        while (c->tix[s] && c->tix[s] != i + 1) s = (s + 1) & c->tix_mask;
        if (c->tix[s] != i + 1) return false;
        uint32_t set = i / c->cfg.assoc;
        if (find_indexed(c, l->block, set) != find_scan(c, l->block, set)) return false;
    }
    for (unsigned k = 0; k < nblocks; k++)
        for (uint32_t set = 0; set < c->cfg.nsets; set++)
            if (find_indexed(c, blocks[k], set) != find_scan(c, blocks[k], set)) return false;
    return in_table == indexed;
}

bool ws_cache_tag_index_drop(ws_cache *c) {
    c->tix_off = true;
    if (!c->tix) return false;
    free(c->tix);
    c->tix = NULL;
    hit_fast_now(c);
    return true;
}
