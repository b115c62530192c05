/* Global (device) memory: one reserved host mapping for the whole heap, a
 * bump allocator (addresses never reused, like GPGPU-Sim) and a per-256-byte
 * chunk owner map so a bounds check is two loads. The mapping is reserved
 * with MAP_NORESERVE, so only touched pages cost host memory, and host
 * pointers into it stay valid for the life of the ws_gmem.
 *
 * The bump allocator already sub-allocates as cudaMalloc does: small
 * allocations are packed next to each other, so they share mapping regions
 * (ws_gmem_set_map_granularity). Each region counts the live allocations
 * touching it; accesses to a region with a count are what a GPU would let
 * through. */
#include <stdlib.h>
#include <sys/mman.h>

#include "exec/exec_internal.h"

ws_gmem *ws_gmem_create(uint64_t capacity) {
    if (capacity == 0) capacity = 1ull << 30;
    capacity = (capacity + WS_ALLOC_ALIGN - 1) & ~(WS_ALLOC_ALIGN - 1);
    ws_gmem *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->capacity = capacity;
    g->nchunks = capacity / WS_ALLOC_ALIGN;
    void *h = mmap(NULL, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *m = mmap(NULL, g->nchunks * sizeof(uint32_t), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (h == MAP_FAILED || m == MAP_FAILED) {
        if (h != MAP_FAILED) munmap(h, capacity);
        if (m != MAP_FAILED) munmap(m, g->nchunks * sizeof(uint32_t));
        free(g);
        return NULL;
    }
    g->heap = h;
    g->chunk_owner = m;
    return g;
}

void ws_gmem_destroy(ws_gmem *g) {
    if (!g) return;
    munmap(g->heap, g->capacity);
    munmap(g->chunk_owner, g->nchunks * sizeof(uint32_t));
    free(g->allocs);
    free(g->region_live);
    free(g);
}

static uint64_t alloc_span(uint64_t size) {
    return size ? (size + WS_ALLOC_ALIGN - 1) & ~(WS_ALLOC_ALIGN - 1) : WS_ALLOC_ALIGN;
}

/* A live allocation enters (+1) or leaves (-1) the regions it touches. */
static void regions_add(ws_gmem *g, const struct ws_alloc *a, int d) {
    if (!g->map_shift) return;
    uint64_t off = a->base - WS_GLOBAL_HEAP_BASE, end = off + alloc_span(a->size) - 1;
    for (uint64_t r = off >> g->map_shift; r <= end >> g->map_shift; r++) g->region_live[r] += (uint32_t)d;
}

ws_status ws_gmem_set_map_granularity(ws_gmem *g, uint64_t bytes) {
    if (!g) return WS_ERR_INVALID_VALUE;
    unsigned shift = 0;
    if (bytes > 1) {
        if ((bytes & (bytes - 1)) || bytes < WS_ALLOC_ALIGN || bytes > WS_MAP_GRANULARITY_MAX)
            return WS_ERR_INVALID_VALUE;
        shift = (unsigned)__builtin_ctzll(bytes);
    }
    uint32_t *rl = NULL;
    uint64_t n = shift ? (g->capacity + bytes - 1) >> shift : 0;
    if (n && !(rl = calloc(n, sizeof *rl))) return WS_ERR_OUT_OF_MEMORY;
    free(g->region_live);
    g->region_live = rl;
    g->nregions = n;
    g->map_shift = shift;
    for (uint32_t i = 0; i < g->nallocs; i++)
        if (g->allocs[i].live) regions_add(g, &g->allocs[i], 1);
    return WS_OK;
}

bool ws_gmem_mapped(const ws_gmem *g, uint64_t addr, uint64_t size) {
    if (!g || !g->map_shift || addr < WS_GLOBAL_HEAP_BASE) return false;
    uint64_t off = addr - WS_GLOBAL_HEAP_BASE;
    if (!size) size = 1;
    if (off >= g->capacity || size > g->capacity - off) return false;
    for (uint64_t r = off >> g->map_shift; r <= (off + size - 1) >> g->map_shift; r++)
        if (!g->region_live[r]) return false;
    return true;
}

uint8_t *ws_gmem_host(ws_gmem *g, uint64_t addr) { return g->heap + (addr - WS_GLOBAL_HEAP_BASE); }

/* Distance from addr to an allocation's bytes (0 inside them). */
static uint64_t dist_to(const struct ws_alloc *a, uint64_t addr) {
    if (addr < a->base) return a->base - addr;
    uint64_t end = a->base + (a->size ? a->size : 1);
    return addr < end ? 0 : addr - end + 1;
}

bool ws_gmem_nearest(const ws_gmem *g, uint64_t addr, ws_gmem_near *out) {
    if (!g || !g->nallocs) return false;
    /* bases ascend (bump allocation): the last allocation starting at or below addr */
    uint32_t lo = 0, hi = g->nallocs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->allocs[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    int64_t below = (int64_t)lo - 1, pick = -1;
    if (below >= 0 && dist_to(&g->allocs[below], addr) == 0)
        pick = below; /* inside it: freed, or live and the access runs past its end */
    else {
        /* the nearest live one on either side; freed neighbours are skipped (slow path only) */
        int64_t b = below, a = lo;
        while (b >= 0 && !g->allocs[b].live) b--;
        while (a < g->nallocs && !g->allocs[a].live) a++;
        if (b >= 0) pick = b;
        if (a < g->nallocs && (pick < 0 || dist_to(&g->allocs[a], addr) < dist_to(&g->allocs[b], addr)))
            pick = a;
    }
    if (pick < 0) return false;
    const struct ws_alloc *p = &g->allocs[pick];
    *out = (ws_gmem_near){p->base, p->size, (uint32_t)pick, p->live};
    return true;
}

ws_status ws_gmem_alloc(ws_gmem *g, uint64_t size, uint64_t *addr) {
    if (!g || !addr) return WS_ERR_INVALID_VALUE;
    /* A zero-byte allocation still gets a distinct address (one chunk). */
    uint64_t span = alloc_span(size);
    if (size > g->capacity || span > g->capacity - g->top) return WS_ERR_OUT_OF_MEMORY;
    if (g->nallocs == g->cap_allocs) {
        uint32_t nc = g->cap_allocs ? 2 * g->cap_allocs : 64;
        void *p = realloc(g->allocs, nc * sizeof *g->allocs);
        if (!p) return WS_ERR_OUT_OF_MEMORY;
        g->allocs = p;
        g->cap_allocs = nc;
    }
    uint32_t idx = g->nallocs++;
    uint64_t off = g->top;
    g->allocs[idx] = (struct ws_alloc){WS_GLOBAL_HEAP_BASE + off, size, true};
    for (uint64_t ch = off / WS_ALLOC_ALIGN; ch < (off + span) / WS_ALLOC_ALIGN; ch++)
        g->chunk_owner[ch] = idx + 1;
    regions_add(g, &g->allocs[idx], 1);
    g->top += span;
    *addr = WS_GLOBAL_HEAP_BASE + off;
    return WS_OK;
}

ws_status ws_gmem_free(ws_gmem *g, uint64_t p) {
    if (!g || p < WS_GLOBAL_HEAP_BASE || p - WS_GLOBAL_HEAP_BASE >= g->top) return WS_ERR_INVALID_VALUE;
    uint64_t off = p - WS_GLOBAL_HEAP_BASE;
    uint32_t o = g->chunk_owner[off / WS_ALLOC_ALIGN];
    if (!o || g->allocs[o - 1].base != p || !g->allocs[o - 1].live) return WS_ERR_INVALID_VALUE;
    struct ws_alloc *a = &g->allocs[o - 1];
    uint64_t span = alloc_span(a->size);
    for (uint64_t ch = off / WS_ALLOC_ALIGN; ch < (off + span) / WS_ALLOC_ALIGN; ch++) g->chunk_owner[ch] = 0;
    a->live = false;
    regions_add(g, a, -1); /* a region no live allocation touches is unmapped */
    /* Give whole pages back to the OS; the address range stays reserved. */
    uint64_t pg = 4096, s = (off + pg - 1) & ~(pg - 1), e = (off + span) & ~(pg - 1);
    if (e > s) madvise(g->heap + s, e - s, MADV_DONTNEED);
    return WS_OK;
}

bool ws_gmem_valid(const ws_gmem *g, uint64_t addr, uint64_t size) {
    if (!g) return false;
    if (size == 0) return ws_gmem_ptr(g, addr, 1) != NULL;
    return ws_gmem_ptr(g, addr, size) != NULL;
}

ws_status ws_gmem_write(ws_gmem *g, uint64_t addr, const void *src, uint64_t size) {
    if (size == 0) return WS_OK;
    uint8_t *p = g ? ws_gmem_ptr(g, addr, size) : NULL;
    if (!p || !src) return p ? WS_ERR_INVALID_VALUE : WS_ERR_ILLEGAL_ADDRESS;
    memmove(p, src, size);
    return WS_OK;
}

ws_status ws_gmem_read(const ws_gmem *g, uint64_t addr, void *dst, uint64_t size) {
    if (size == 0) return WS_OK;
    uint8_t *p = g ? ws_gmem_ptr(g, addr, size) : NULL;
    if (!p || !dst) return p ? WS_ERR_INVALID_VALUE : WS_ERR_ILLEGAL_ADDRESS;
    memmove(dst, p, size);
    return WS_OK;
}

ws_status ws_gmem_fill(ws_gmem *g, uint64_t addr, int byte, uint64_t size) {
    if (size == 0) return WS_OK;
    uint8_t *p = g ? ws_gmem_ptr(g, addr, size) : NULL;
    if (!p) return WS_ERR_ILLEGAL_ADDRESS;
    memset(p, byte, size);
    return WS_OK;
}

uint32_t ws_gmem_nallocs(const ws_gmem *g) { return g ? g->nallocs : 0; }

bool ws_gmem_alloc_info(const ws_gmem *g, uint32_t i, uint64_t *base, uint64_t *size, bool *live) {
    if (!g || i >= g->nallocs) return false;
    *base = g->allocs[i].base;
    *size = g->allocs[i].size;
    *live = g->allocs[i].live;
    return true;
}
