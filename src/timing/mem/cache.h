/* A data cache with GPGPU-Sim's miss-handling semantics: lines are
 * allocated on a miss and held RESERVED until the fill (or allocated on the
 * fill), misses to the same block merge in an MSHR up to a limit, outgoing
 * requests wait in a bounded miss queue, and an access that cannot get a
 * line, an MSHR entry, an MSHR merge slot or a miss-queue slot fails with a
 * reservation failure of that kind and must be retried.
 *
 * The cache does not move requests itself: its owner drains the miss queue
 * (ws_cache_pop_miss) towards the next level, calls ws_cache_fill when a
 * line comes back, and collects the merged requests that the fill made
 * ready (ws_cache_pop_ready). Requests are the owner's opaque pointers. */
#ifndef WARPSIM_TIMING_MEM_CACHE_H
#define WARPSIM_TIMING_MEM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "policy/index/index.h"

/* ---- configuration (GPGPU-Sim cache strings) ---- */
typedef enum { WS_REPL_LRU = 'L', WS_REPL_FIFO = 'F' } ws_repl;
typedef enum {
    WS_WP_READ_ONLY = 'R',
    WS_WP_WRITE_BACK = 'B',
    WS_WP_WRITE_THROUGH = 'T',
    WS_WP_WRITE_EVICT = 'E',
    WS_WP_LOCAL_WB_GLOBAL_WT = 'L', /* global: write-evict on hit; local: write-back */
} ws_write_policy;
typedef enum { WS_ALLOC_ON_MISS = 'm', WS_ALLOC_ON_FILL = 'f', WS_ALLOC_STREAMING = 's' } ws_alloc_policy;
typedef enum {
    WS_WA_NONE = 'N',        /* no write allocate */
    WS_WA_ALLOCATE = 'W',    /* write allocate: write goes down, and the line is read in */
    WS_WA_FETCH_ON_WRITE = 'F',
    WS_WA_LAZY_FETCH = 'L',
} ws_write_alloc;

typedef struct ws_cache_cfg {
    bool sectored;          /* 'S:' prefix: 32 B sectors with their own valid/reserved state */
    uint32_t nsets, line_size, assoc;
    char repl, write_policy, alloc, write_alloc;
    char index_code;        /* 'L' linear, 'H' fermi, ... (policy/index) */
    char mshr_type;         /* 'A' associative, 'F'/'T' texture FIFO, 'S' sector */
    uint32_t mshr_entries, mshr_max_merge;
    uint32_t miss_queue_size;
    uint32_t result_fifo;   /* texture caches; parsed, unused */
    uint32_t data_port_width; /* bytes per cycle of the data array (0: unlimited); the owner
                                 applies it (see ws_cache_port_cycles) */
    const char *index_hints; /* not parsed: the owner's defaults for adaptive index functions
                                ("nv=1024:skip_gw=1", see policy/index/adi.c); read at create */
} ws_cache_cfg;

/* Parse "[N:|S:]32:128:4,L:L:m:N[:H],A:32:8,8[:0][,32]". 0, or -1 with err
 * naming the bad field and what is allowed. */
int ws_cache_cfg_parse(const char *s, ws_cache_cfg *cfg, char *err, size_t errlen);

/* ---- access interface ---- */
typedef enum {
    WS_CACHE_HIT = 0,
    WS_CACHE_HIT_RESERVED,   /* pending hit: merged into an outstanding miss */
    WS_CACHE_MISS,
    WS_CACHE_RESERVATION_FAIL,
    WS_CACHE_SECTOR_MISS,    /* sectored caches: the line is present, the sector is not */
    WS_CACHE_BYPASS,         /* a bypass mode sent the access to the next level uncached
                                (reads: WS_OUT_BYPASS; writes: WS_OUT_WRITE) */
    WS_CACHE_NSTATUS
} ws_cache_status;

typedef enum {
    WS_FAIL_LINE_ALLOC = 0,  /* every way of the set is reserved */
    WS_FAIL_MSHR_ENTRY,      /* no free MSHR entry */
    WS_FAIL_MSHR_MERGE,      /* the block's MSHR entry is at its merge limit */
    WS_FAIL_MISS_QUEUE,      /* the miss queue is full */
    WS_FAIL_FLUSH,           /* an index change is flushing the cache (adaptive indexing) */
    WS_FAIL_NKINDS
} ws_fail_kind;
const char *ws_fail_kind_name(ws_fail_kind k);

typedef enum { WS_ACC_READ = 0, WS_ACC_WRITE } ws_acc_dir;

/* What the owner must send to the next level. */
typedef enum {
    WS_OUT_READ_LINE = 0, /* fetch a whole line (req = the request that missed) */
    WS_OUT_WRITE,         /* pass a write through (req = the write) */
    WS_OUT_WRITEBACK,     /* write back an evicted dirty line (req = NULL) */
    WS_OUT_BYPASS,        /* read addr's line (sector) for req without caching it: the
                             reply goes to req's owner, not to ws_cache_fill */
} ws_out_kind;

typedef struct ws_cache_out {
    uint8_t kind;         /* ws_out_kind */
    uint64_t addr;        /* block address for lines, byte address for writes */
    uint32_t size;        /* line (sector) size for READ_LINE, modified bytes for WRITEBACK; 0 for
                             WRITE (the request's size) */
    uint8_t sectors;      /* READ_LINE/WRITEBACK of a sectored cache: sectors concerned */
    void *req;
} ws_cache_out;

typedef struct ws_cache_stats {
    uint64_t status[2][WS_CACHE_NSTATUS]; /* [read/write][status] */
    uint64_t status_local[2][WS_CACHE_NSTATUS]; /* the part of status for local memory */
    uint64_t fail[2][WS_FAIL_NKINDS];
    uint64_t evictions, writebacks, fills;
    uint64_t mshr_hits;   /* misses merged into an outstanding MSHR entry */
    uint64_t index_changes, flushes; /* adaptive index functions: changes, and the flushes they
                                        caused (equal; kept apart for other flush causes) */
    uint64_t flush_invalidations, flush_writebacks; /* sectors dropped / dirty lines written */
    uint64_t bypass_tag_hits[2]; /* BYPASS accesses whose tag was present (tag-only mode) */
} ws_cache_stats;

typedef struct ws_cache ws_cache;

/* The counts an owner polls every cycle, the first member of every ws_cache,
   so that the queries below are inline reads instead of calls (the rest of
   the cache stays private to cache.c). */
typedef struct ws_cache_head {
    uint32_t mq_len;    /* miss queue entries */
    uint32_t rd_len;    /* ready requests */
    uint32_t mshr_used; /* MSHR entries in use */
    uint16_t owner;     /* ws_cache_set_owner's (here: set inline before each L1D access) */
} ws_cache_head;
static inline const ws_cache_head *ws_cache_head_of(const ws_cache *c) {
    return (const ws_cache_head *)(const void *)c;
}

/* Change the number of ways (GPGPU-Sim 4's L1D/shared-memory carve-out at a
 * kernel launch). The cache is emptied; false, and nothing changed, while a
 * fill is pending or a line is dirty. */
bool ws_cache_set_ways(ws_cache *c, uint32_t ways);

/* Create with an index function spec ("linear", "fermi", ... or NULL for the
 * config's letter). NULL and err on a bad configuration. */
ws_cache *ws_cache_create(const char *name, const ws_cache_cfg *cfg, const char *index_spec,
                          char *err, size_t errlen);
void ws_cache_destroy(ws_cache *c);

/* One access. `local` selects the local-memory write policy of 'L'.
 * On WS_CACHE_RESERVATION_FAIL *fail says which resource was missing and
 * nothing changed (stats aside). On MISS of a read, req is held in the MSHR
 * until the fill; on HIT_RESERVED it is merged. Writes are never held: a
 * write miss or write-through goes to the miss queue as WS_OUT_WRITE. */
ws_cache_status ws_cache_access(ws_cache *c, uint64_t addr, ws_acc_dir dir, bool local, void *req,
                                uint64_t now, ws_fail_kind *fail);

/* The general access. index_addr is the address the set index is computed
 * from (the byte address, or GPGPU-Sim 4's partition-local address for
 * L2). full_write: the write covers its whole sector (line, if not
 * sectored); fetch-on-write ('F') and lazy-fetch ('L') use it. A sectored
 * cache serves one 32 B sector per access: the sector of addr. */
typedef struct ws_cache_result {
    ws_cache_status status;   /* as counted in the stats (HIT_RESERVED, SECTOR_MISS, ...) */
    ws_fail_kind fail;        /* on RESERVATION_FAIL */
    bool held;                /* req waits in an MSHR; it comes out of ws_cache_pop_ready */
    bool sent_write;          /* req itself was queued as WS_OUT_WRITE */
} ws_cache_result;
ws_cache_result ws_cache_access_ex(ws_cache *c, uint64_t addr, uint64_t index_addr, ws_acc_dir dir,
                                   bool local, bool full_write, void *req, uint64_t now);
/* The same with the write's bytes within its 32 B sector (bit i: byte i;
 * WS_WRITE_FULL: all). A sectored cache adds up the bytes that partial
 * writes leave in an unreadable sector, which becomes readable once all 32
 * are written, as GPGPU-Sim's byte mask does. ws_cache_access_ex's partial
 * write (0 here) never completes a sector. */
#define WS_WRITE_FULL 0xFFFFFFFFu
ws_cache_result ws_cache_access_bytes(ws_cache *c, uint64_t addr, uint64_t index_addr,
                                      ws_acc_dir dir, bool local, uint32_t wbytes, void *req,
                                      uint64_t now);

/* Make addr's sector (line) VALID without any traffic, evicting silently if
 * needed (GPGPU-Sim's -gpgpu_perf_sim_memcpy L2 fill). */
void ws_cache_force_fill(ws_cache *c, uint64_t addr, uint64_t index_addr, uint64_t now);

/* Bytes moved per access unit: 32 for sectored caches, else the line size. */
uint32_t ws_cache_atom(const ws_cache *c);

/* Miss queue towards the next level. */
static inline bool ws_cache_has_miss(const ws_cache *c) { return ws_cache_head_of(c)->mq_len > 0; }
const ws_cache_out *ws_cache_peek_miss(const ws_cache *c);
void ws_cache_pop_miss(ws_cache *c);

/* A line came back from the next level: fill it and make the requests
 * merged on it ready. block_addr is the READ_LINE's addr (for a sectored
 * cache, the sector's address). */
void ws_cache_fill(ws_cache *c, uint64_t block_addr, uint64_t now);
/* Requests whose data is now available, one per call (NULL when none). */
void *ws_cache_pop_ready_one(ws_cache *c);
static inline void *ws_cache_pop_ready(ws_cache *c) { /* (polled every cycle: inline when empty) */
    return ws_cache_head_of(c)->rd_len ? ws_cache_pop_ready_one(c) : NULL;
}
static inline bool ws_cache_has_ready(const ws_cache *c) { return ws_cache_head_of(c)->rd_len > 0; }

/* ---- bypass modes (set by the policy family "bypass", src/policy/bypass) ----
 * tag_only: every access goes to the next level uncached, while the tags and
 *   LRU are updated as if caching (lines allocated so hold a tag and no
 *   data: when caching resumes, a tag match without data is a miss). A read
 *   that finds its data present is still served (a hit). Writes go down and
 *   drop the sector's data here.
 * protect: protection distance (IACM): a line gets this many protected
 *   accesses of other lines of its set on each fill or hit; only lines whose
 *   distance is 0 may be victims.
 * on_line_fail: a read that finds no evictable line (every way reserved or
 *   protected) bypasses instead of failing with LINE_ALLOC_FAIL.
 * A bypassing read still needs a miss-queue slot (MISS_QUEUE_FULL if not). */
typedef struct ws_cache_bypass {
    bool tag_only;
    uint8_t protect;
    bool on_line_fail;
} ws_cache_bypass;
void ws_cache_set_bypass(ws_cache *c, const ws_cache_bypass *b);
/* Reads the cache took since creation (hits, pending hits, misses and
   bypasses, not reservation fails), and how many of them missed (a pending
   hit is not a miss; a bypass is a miss unless its tag was present). */
void ws_cache_read_counts(const ws_cache *c, uint64_t *reads, uint64_t *misses);
/* Stop (or resume) feeding accesses to an adaptive index function. */
void ws_cache_index_pause(ws_cache *c, bool paused);
bool ws_cache_index_paused(const ws_cache *c);
/* An adaptive index function's selection rounds so far; false if it has none. */
bool ws_cache_index_selections(const ws_cache *c, uint64_t *n);
/* An adaptive index function idle after a selection starts its next round. */
void ws_cache_index_restart(ws_cache *c);

/* ---- line ownership (observers such as CCWS's victim tags) ---- */
/* Lines allocated from now on belong to `owner` (e.g. a warp slot). Inline: the
   LD/ST unit sets it before every L1D access. */
static inline void ws_cache_set_owner(ws_cache *c, uint16_t owner) { ((ws_cache_head *)(void *)c)->owner = owner; }
/* Would ws_cache_access(c, addr, dir, local, ...) at `now` be answered from the
 * note of the last refusal (a refusal, counted, nothing else changed)? */
bool ws_cache_refusal_noted(const ws_cache *c, uint64_t addr, ws_acc_dir dir, bool local,
                            uint64_t now);
/* That access, when ws_cache_refusal_noted holds: the refusal counted as
 * ws_cache_access would count it (without its path to the note); its kind. */
ws_fail_kind ws_cache_count_noted_refusal(ws_cache *c, ws_acc_dir dir, bool local);
/* Both in one call, with ws_cache_set_owner(owner) before the count, as
 * ws_cache_access's owner would set it (a stuck LD/ST unit's cycle): false, with
 * nothing done, when the note does not answer; else counted, *kind its kind. */
bool ws_cache_retry_noted(ws_cache *c, uint64_t addr, ws_acc_dir dir, bool local, uint64_t now,
                          uint16_t owner, ws_fail_kind *kind);
/* Called when a present line is evicted to make room (not on flushes);
   evictor: the owner set when the line that takes its place came in. */
typedef void (*ws_cache_evict_fn)(void *ctx, uint64_t block, uint16_t owner, uint16_t evictor);
void ws_cache_set_evict_hook(ws_cache *c, ws_cache_evict_fn fn, void *ctx);

/* Move a line out (CIAO's migration into the shared-memory cache): if
   addr's line (set from index_addr) is present, readable, unmodified and has no fill pending, it
   is invalidated silently and true returned. */
bool ws_cache_take(ws_cache *c, uint64_t addr, uint64_t index_addr);

/* Invalidate everything (kernel boundaries with -gpgpu_flush_l1_cache). Lines
 * with fills outstanding stay reserved. */
void ws_cache_invalidate(ws_cache *c);

/* Kernel boundary: an adaptive index function may go back to its initial
 * bits, which flushes the cache (RD lines, writebacks, blocked sets). */
void ws_cache_kernel_start(ws_cache *c, uint64_t now);
/* The address bit behind each set-index bit, for bit-selecting index
 * functions (adi); returns how many (0 for other functions). */
unsigned ws_cache_index_bits(const ws_cache *c, uint8_t *bits, unsigned max);

const ws_cache_stats *ws_cache_get_stats(const ws_cache *c);
const ws_cache_cfg *ws_cache_get_cfg(const ws_cache *c);
uint64_t ws_cache_block_addr(const ws_cache *c, uint64_t addr);
uint32_t ws_cache_set_of(const ws_cache *c, uint64_t addr);
/* Number of lines of set `set` in the RESERVED state (tests, watchdog). */
unsigned ws_cache_reserved_in_set(const ws_cache *c, uint32_t set);
static inline unsigned ws_cache_mshr_used(const ws_cache *c) { return ws_cache_head_of(c)->mshr_used; }
/* Would a read of addr hit now (valid data, not a pending fill)? No side
   effects but the tag scan's hint of the set's most recent way, which changes
   no answer (the hazard-prediction oracle). */
bool ws_cache_probe_hit(const ws_cache *c, uint64_t addr);
/* The MSHR address of addr (its line, or its sector), and the requests
   merged in its MSHR entry now (-1: none pending). No side effects (the
   hazard-prediction credit tracker). */
uint64_t ws_cache_mshr_key(const ws_cache *c, uint64_t addr);
int ws_cache_mshr_merges(const ws_cache *c, uint64_t addr);
/* The MSHR lookup table and free set agree with the entries (tests). */
bool ws_cache_check_mshr(const ws_cache *c);
/* The victim search of every set (with and without protection) agrees with
   its plain form; no set holds a block in two present lines (the tag scan
   tries the set's most recent way first); the tag index of a wide cache
   agrees with its lines, and its lookups with the plain scan of the ways,
   for every line's block and the given blocks in every set (tests). */
bool ws_cache_check_tags(const ws_cache *c, const uint64_t *blocks, unsigned nblocks);
/* Drop the tag index: probes scan the ways (tests compare the two); false if
   the cache had none. Not undone by ws_cache_set_ways. */
bool ws_cache_tag_index_drop(ws_cache *c);
static inline unsigned ws_cache_miss_queue_len(const ws_cache *c) { return ws_cache_head_of(c)->mq_len; }

#endif
