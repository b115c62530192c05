/* The page table (see pages.h): a chained hash of virtual page numbers over
 * an entry array that grows by doubling; freed entries (evictions) are
 * reused. The last page found is remembered, since a warp's consecutive
 * transactions usually fall in one page. */
#include "timing/mem/pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pentry {
    uint64_t vpn, last_use, frame;
    int64_t next;      /* hash chain, or the free list; -1 ends it */
    uint8_t node;
    bool used;
} pentry;

struct ws_pages {
    ws_pages_cfg cfg;
    unsigned shift;            /* log2(page size) */
    ws_page_placer placer;
    pentry *e;
    uint64_t n_e, cap_e;
    int64_t free_e;            /* freed entries */
    int64_t *bucket;
    uint64_t n_bucket;         /* a power of two */
    uint64_t rng;              /* splitmix64 state */
    uint64_t next_frame[WS_NODE_N];
    uint64_t *free_frames[WS_NODE_N]; /* frames given up by evicted pages */
    uint64_t n_free_frames[WS_NODE_N];
    int64_t last;              /* entry of the last page found, or -1 */
    ws_pages_stats st;
};

static uint64_t hash_vpn(uint64_t v) {
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdull;
    v ^= v >> 33;
    return v;
}

/* A uniform number in [0, 1) from the seeded stream (splitmix64). */
static double next_uniform(ws_pages *pt) {
    uint64_t z = (pt->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

ws_pages *ws_pages_create(const ws_pages_cfg *cfg, char *err, size_t errlen) {
    uint64_t ps = cfg->page_size;
    if (ps < 128 || (ps & (ps - 1))) {
        snprintf(err, errlen, "option -hm_page_size: %llu is not a power of two (allowed: powers "
                 "of two from 128 to 1073741824)", (unsigned long long)ps);
        return NULL;
    }
    ws_pages *pt = calloc(1, sizeof *pt);
    if (!pt) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pt->cfg = *cfg;
    pt->cfg.policy = NULL;
    pt->cfg.env.profile = NULL; /* read by the policy at creation only */
    while ((1ull << pt->shift) < ps) pt->shift++;
    pt->rng = cfg->seed;
    pt->free_e = pt->last = -1;
    pt->n_bucket = 1024;
    pt->bucket = malloc(pt->n_bucket * sizeof *pt->bucket);
    if (!pt->bucket) {
        snprintf(err, errlen, "out of memory");
        ws_pages_destroy(pt);
        return NULL;
    }
    memset(pt->bucket, 0xff, pt->n_bucket * sizeof *pt->bucket);
    if (ws_page_create(&pt->placer, cfg->policy, &cfg->env, err, errlen)) {
        ws_pages_destroy(pt);
        return NULL;
    }
    return pt;
}

void ws_pages_destroy(ws_pages *pt) {
    if (!pt) return;
    ws_page_destroy(&pt->placer);
    free(pt->e);
    free(pt->bucket);
    for (int n = 0; n < WS_NODE_N; n++) free(pt->free_frames[n]);
    free(pt);
}

static int64_t find(const ws_pages *pt, uint64_t vpn) {
    int64_t i = pt->bucket[hash_vpn(vpn) & (pt->n_bucket - 1)];
    while (i >= 0 && pt->e[i].vpn != vpn) i = pt->e[i].next;
    return i;
}

static void rehash(ws_pages *pt) {
    uint64_t nb = pt->n_bucket * 2;
    int64_t *b = malloc(nb * sizeof *b);
    if (!b) abort(); /* as the request pool: the simulation cannot go on without it */
    memset(b, 0xff, nb * sizeof *b);
    for (uint64_t i = 0; i < pt->n_e; i++) {
        if (!pt->e[i].used) continue;
        uint64_t h = hash_vpn(pt->e[i].vpn) & (nb - 1);
        pt->e[i].next = b[h];
        b[h] = (int64_t)i;
    }
    free(pt->bucket);
    pt->bucket = b;
    pt->n_bucket = nb;
}

static int64_t new_entry(ws_pages *pt) {
    if (pt->free_e >= 0) {
        int64_t i = pt->free_e;
        pt->free_e = pt->e[i].next;
        return i;
    }
    if (pt->n_e == pt->cap_e) {
        uint64_t cap = pt->cap_e ? pt->cap_e * 2 : 1024;
        pentry *e = realloc(pt->e, cap * sizeof *e);
        if (!e) abort();
        pt->e = e;
        pt->cap_e = cap;
    }
    return (int64_t)pt->n_e++;
}

static bool node_full(const ws_pages *pt, unsigned n) {
    return pt->cfg.cap[n] && pt->st.resident[n] >= pt->cfg.cap[n];
}

/* The least recently used page of node n gives up its frame. */
static void evict_lru(ws_pages *pt, unsigned n) {
    int64_t v = -1;
    for (uint64_t i = 0; i < pt->n_e; i++)
        if (pt->e[i].used && pt->e[i].node == n &&
            (v < 0 || pt->e[i].last_use < pt->e[v].last_use))
            v = (int64_t)i;
    if (v < 0) return;
    pentry *x = &pt->e[v];
    int64_t *link = &pt->bucket[hash_vpn(x->vpn) & (pt->n_bucket - 1)];
    while (*link != v) link = &pt->e[*link].next;
    *link = x->next;
    if (!pt->free_frames[n] || pt->n_free_frames[n] % 1024 == 0) {
        uint64_t *f = realloc(pt->free_frames[n], (pt->n_free_frames[n] + 1024) * sizeof *f);
        if (!f) abort();
        pt->free_frames[n] = f;
    }
    pt->free_frames[n][pt->n_free_frames[n]++] = x->frame;
    x->used = false;
    x->next = pt->free_e;
    pt->free_e = v;
    pt->st.resident[n]--;
    pt->st.evicted[n]++;
    if (pt->last == v) pt->last = -1;
}

/* Alg. 6 of the BLPP chapter: the policy's node, the other one if that is
   full and the other is not, and an LRU eviction in the chosen node when
   both are full. */
static int64_t place(ws_pages *pt, uint64_t vpn, uint64_t now) {
    const ws_page_policy *pol = pt->placer.policy;
    uint64_t placed = pt->st.placed[0] + pt->st.placed[1];
    unsigned n = pol->place(pt->placer.state, next_uniform(pt), placed) ? WS_NODE_CPU : WS_NODE_GPU;
    if (node_full(pt, n)) {
        if (!node_full(pt, 1 - n)) {
            n = 1 - n;
            pt->st.fallbacks++;
        } else {
            evict_lru(pt, n);
        }
    }
    int64_t i = new_entry(pt);
    pentry *x = &pt->e[i];
    x->vpn = vpn;
    x->node = (uint8_t)n;
    x->used = true;
    x->last_use = now;
    if (n == WS_NODE_GPU) x->frame = vpn; /* the GPU keeps its address mapping */
    else if (pt->n_free_frames[n]) x->frame = pt->free_frames[n][--pt->n_free_frames[n]];
    else x->frame = pt->next_frame[n]++;
    uint64_t h = hash_vpn(vpn) & (pt->n_bucket - 1);
    x->next = pt->bucket[h];
    pt->bucket[h] = i;
    pt->st.placed[n]++;
    pt->st.resident[n]++;
    if (pt->st.resident[0] + pt->st.resident[1] > pt->n_bucket) rehash(pt);
    return i;
}

unsigned ws_pages_touch(ws_pages *pt, uint64_t addr, uint64_t now, uint64_t *phys) {
    uint64_t vpn = addr >> pt->shift;
    int64_t i = pt->last;
    if (i < 0 || pt->e[i].vpn != vpn) {
        i = find(pt, vpn);
        if (i < 0) i = place(pt, vpn, now);
        pt->last = i;
    }
    pentry *x = &pt->e[i];
    x->last_use = now;
    if (phys) *phys = (x->frame << pt->shift) | (addr & ((1ull << pt->shift) - 1));
    return x->node;
}

int ws_pages_lookup(const ws_pages *pt, uint64_t addr, uint64_t *frame) {
    int64_t i = find(pt, addr >> pt->shift);
    if (i < 0) return -1;
    if (frame) *frame = pt->e[i].frame;
    return pt->e[i].node;
}

const ws_pages_stats *ws_pages_get_stats(const ws_pages *pt) { return &pt->st; }
uint64_t ws_pages_page_size(const ws_pages *pt) { return pt->cfg.page_size; }

double ws_pages_gpu_ratio(const ws_pages *pt) {
    const ws_page_policy *p = pt->placer.policy;
    return p->gpu_ratio ? p->gpu_ratio(pt->placer.state) : 1.0;
}

uint64_t ws_pages_period(const ws_pages *pt) {
    const ws_page_policy *p = pt->placer.policy;
    return p->period ? p->period(pt->placer.state) : 0;
}

void ws_pages_sample(ws_pages *pt, const ws_page_counters *c) {
    const ws_page_policy *p = pt->placer.policy;
    if (p->sample) p->sample(pt->placer.state, c);
}
