/* The device-side heap behind malloc/free in kernels: one region of device
 * memory of the heap's limit (cudaLimitMallocHeapSize, 8 MiB by default as in
 * CUDA), reserved at the first malloc and kept for the device's life, so
 * that blocks outlive the launch that allocated them. First fit over an
 * address-ordered block list, 16-byte granules, neighbours merged on free;
 * requests run in lane order, so addresses are deterministic. */
#include <stdlib.h>

#include "exec/exec_internal.h"

typedef struct heap_blk { uint64_t off, size; bool used; } heap_blk;

struct ws_dev_heap {
    uint64_t limit, base; /* base 0: not reserved yet */
    heap_blk *blk;
    uint32_t n, cap;
};

ws_dev_heap *ws_dev_heap_create(uint64_t limit) {
    ws_dev_heap *h = calloc(1, sizeof *h);
    if (h) h->limit = limit;
    return h;
}

void ws_dev_heap_destroy(ws_dev_heap *h, ws_gmem *g) {
    if (!h) return;
    if (h->base && g) ws_gmem_free(g, h->base);
    free(h->blk);
    free(h);
}

ws_status ws_dev_heap_set_limit(ws_dev_heap *h, uint64_t bytes) {
    if (!h || h->base) return WS_ERR_INVALID_VALUE; /* as CUDA: only before the heap is in use */
    h->limit = bytes;
    return WS_OK;
}

uint64_t ws_dev_heap_limit(const ws_dev_heap *h) { return h ? h->limit : 0; }

static bool insert(ws_dev_heap *h, uint32_t at, heap_blk b) {
    if (h->n == h->cap) {
        uint32_t nc = h->cap ? 2 * h->cap : 64;
        heap_blk *nb = realloc(h->blk, nc * sizeof *nb);
        if (!nb) return false;
        h->blk = nb, h->cap = nc;
    }
    memmove(&h->blk[at + 1], &h->blk[at], (h->n - at) * sizeof *h->blk);
    h->blk[at] = b;
    h->n++;
    return true;
}

ws_status ws_dev_heap_reserve(ws_dev_heap *h, ws_gmem *g) {
    if (!h) return WS_ERR_INVALID_VALUE;
    if (h->base) return WS_OK;
    if (h->limit < 16 || ws_gmem_alloc(g, h->limit, &h->base) != WS_OK) {
        h->base = 0;
        return WS_ERR_OUT_OF_MEMORY;
    }
    h->n = 0;
    return insert(h, 0, (heap_blk){0, h->limit & ~15ull, false}) ? WS_OK : WS_ERR_OUT_OF_MEMORY;
}

uint64_t ws_dev_heap_base(const ws_dev_heap *h) { return h ? h->base : 0; }
uint32_t ws_dev_heap_nblocks(const ws_dev_heap *h) { return h && h->base ? h->n : 0; }

void ws_dev_heap_block(const ws_dev_heap *h, uint32_t i, uint64_t w[3]) {
    w[0] = h->blk[i].off, w[1] = h->blk[i].size, w[2] = h->blk[i].used;
}

ws_status ws_dev_heap_set_blocks(ws_dev_heap *h, const uint64_t *w, uint32_t n) {
    if (!h || !h->base) return WS_ERR_INVALID_VALUE;
    uint64_t at = 0;
    for (uint32_t i = 0; i < n; i++) { /* back to back from 0, within the limit */
        if (w[3 * i] != at || !w[3 * i + 1] || w[3 * i + 1] > h->limit - at) return WS_ERR_INVALID_VALUE;
        at += w[3 * i + 1];
    }
    h->n = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!insert(h, i, (heap_blk){w[3 * i], w[3 * i + 1], w[3 * i + 2] != 0}))
            return WS_ERR_OUT_OF_MEMORY;
    return WS_OK;
}

uint64_t ws_dev_heap_malloc(ws_dev_heap *h, ws_gmem *g, uint64_t size) {
    if (!h || !size || size > h->limit) return 0;
    if (!h->base && ws_dev_heap_reserve(h, g) != WS_OK) return 0;
    uint64_t n = (size + 15) & ~15ull;
    for (uint32_t i = 0; i < h->n; i++) {
        heap_blk *b = &h->blk[i];
        if (b->used || b->size < n) continue;
        if (b->size > n && !insert(h, i + 1, (heap_blk){b->off + n, b->size - n, false})) return 0;
        b = &h->blk[i]; /* (insert may have moved it) */
        b->size = n;
        b->used = true;
        return h->base + b->off;
    }
    return 0; /* out of heap: malloc returns NULL, as in CUDA */
}

bool ws_dev_heap_free(ws_dev_heap *h, uint64_t addr) {
    if (!addr) return true;
    if (!h || !h->base || addr < h->base) return false;
    uint64_t off = addr - h->base;
    uint32_t lo = 0, hi = h->n;
    while (lo < hi) { /* the block starting at off */
        uint32_t mid = (lo + hi) / 2;
        if (h->blk[mid].off < off) lo = mid + 1;
        else hi = mid;
    }
    if (lo == h->n || h->blk[lo].off != off || !h->blk[lo].used) return false;
    h->blk[lo].used = false;
    if (lo + 1 < h->n && !h->blk[lo + 1].used) { /* merge the next */
        h->blk[lo].size += h->blk[lo + 1].size;
        memmove(&h->blk[lo + 1], &h->blk[lo + 2], (h->n - lo - 2) * sizeof *h->blk);
        h->n--;
    }
    if (lo > 0 && !h->blk[lo - 1].used) { /* into the previous */
        h->blk[lo - 1].size += h->blk[lo].size;
        memmove(&h->blk[lo], &h->blk[lo + 1], (h->n - lo - 1) * sizeof *h->blk);
        h->n--;
    }
    return true;
}
