/* Memory-request pool: requests are carved from chunks that live until the
 * pool is destroyed, so the hot path only moves pointers on a free list. */
#include "timing/mem/mreq.h"

#include <stdlib.h>
#include <string.h>

enum { CHUNK = 1024 };

const char *ws_mem_access_name(ws_mem_access a) {
    static const char *const names[WS_MA_COUNT] = {
        "GLOBAL_ACC_R", "LOCAL_ACC_R", "CONST_ACC_R", "TEXTURE_ACC_R", "GLOBAL_ACC_W",  "LOCAL_ACC_W",
        "L1_WRBK_ACC",  "L2_WRBK_ACC", "INST_ACC_R",  "L1_WR_ALLOC_R", "L2_WR_ALLOC_R",
    };
    return (unsigned)a < WS_MA_COUNT ? names[a] : "?";
}

void ws_mreq_pool_init(ws_mreq_pool *p) { memset(p, 0, sizeof *p); }

void ws_mreq_pool_destroy(ws_mreq_pool *p) {
    for (uint32_t i = 0; i < p->nchunks; i++) free(p->chunks[i]);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}

void ws_mreq_pool_grow(ws_mreq_pool *p) {
    ws_mreq **nc = realloc(p->chunks, (p->nchunks + 1) * sizeof *nc);
    /* not cleared: a request leaves the pool only through ws_mreq_alloc (zeroed) or
       ws_mreq_alloc_copy (every field written), and only `next` is read on the free
       list (calloc's clearing was 2.3% of a short program's instructions) */
    ws_mreq *c = malloc(CHUNK * sizeof *c);
    if (!nc || !c) abort(); /* the pool only grows to the peak number in flight */
    p->chunks = nc;
    p->chunks[p->nchunks++] = c;
    for (int i = CHUNK - 1; i >= 0; i--) {
        c[i].next = p->free;
        p->free = &c[i];
    }
    p->nfree += CHUNK;
}

uint32_t ws_mreq_pool_move_free(ws_mreq_pool *from, ws_mreq_pool *to, uint32_t n) {
    uint32_t k = 0;
    for (; k < n && from->free; k++) {
        ws_mreq *r = from->free;
        from->free = r->next;
        r->next = to->free;
        to->free = r;
    }
    from->nfree -= k;
    to->nfree += k;
    return k;
}
