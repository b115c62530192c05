/* Global (device) memory: one reserved host mapping for the whole heap, a
 * bump allocator (addresses never reused, like GPGPU-Sim) and a per-256-byte
 * chunk owner map so a bounds check is two loads. The mapping is reserved
 * with MAP_NORESERVE, so only touched pages cost host memory, and host
 * pointers into it stay valid for the life of the ws_gmem. */
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
    free(g);
}

ws_status ws_gmem_alloc(ws_gmem *g, uint64_t size, uint64_t *addr) {
    if (!g || !addr) return WS_ERR_INVALID_VALUE;
    /* A zero-byte allocation still gets a distinct address (one chunk). */
    uint64_t span = size ? (size + WS_ALLOC_ALIGN - 1) & ~(WS_ALLOC_ALIGN - 1) : WS_ALLOC_ALIGN;
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
    uint64_t span = a->size ? (a->size + WS_ALLOC_ALIGN - 1) & ~(WS_ALLOC_ALIGN - 1) : WS_ALLOC_ALIGN;
    for (uint64_t ch = off / WS_ALLOC_ALIGN; ch < (off + span) / WS_ALLOC_ALIGN; ch++) g->chunk_owner[ch] = 0;
    a->live = false;
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
