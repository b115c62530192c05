/* A memory request (GPGPU-Sim's mem_fetch): what travels from an SM's
 * LD/ST unit or fetch unit through the interconnect to a memory
 * sub-partition (L2 slice, DRAM) and back. Requests come from a fixed pool
 * owned by the GPU (ws_mreq_pool): no allocation per cycle. */
#ifndef WARPSIM_TIMING_MEM_MREQ_H
#define WARPSIM_TIMING_MEM_MREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum ws_mem_access {
    WS_MA_GLOBAL_R = 0,
    WS_MA_LOCAL_R,
    WS_MA_CONST_R,
    WS_MA_TEXTURE_R,
    WS_MA_GLOBAL_W,
    WS_MA_LOCAL_W,
    WS_MA_L1_WRBK,      /* L1 writeback of a dirty (local) line */
    WS_MA_L2_WRBK,      /* L2 writeback to DRAM */
    WS_MA_INST,         /* instruction fetch */
    WS_MA_L1_WR_ALLOC,  /* line fetch caused by an L1 write allocation */
    WS_MA_L2_WR_ALLOC,  /* line fetch caused by an L2 write allocation */
    WS_MA_COUNT
} ws_mem_access;
const char *ws_mem_access_name(ws_mem_access a);

/* Bytes of the header of a request or reply packet (GPGPU-Sim's
 * READ_PACKET_SIZE / WRITE_PACKET_SIZE). */
#define WS_MREQ_CTRL_BYTES 8

typedef struct ws_mreq {
    uint64_t addr;          /* byte address; line/sector aligned for fetches */
    uint32_t data_size;     /* bytes of data carried (line, sector or write size) */
    uint8_t access;         /* ws_mem_access */
    bool is_write;
    bool is_atomic;
    bool is_reply;          /* on its way back to the SM */
    uint16_t sm;            /* issuing SM (global SM id) */
    uint16_t warp;          /* issuing warp within the SM */
    uint32_t lanes;         /* lanes served */
    uint8_t sectors;        /* 32 B sectors of the 128 B line (bit i = sector i) */
    uint8_t bytes[16];      /* byte mask over the 128 B line */
    /* decoded address (filled by the address decoder) */
    uint16_t chan;          /* memory channel */
    uint16_t subpart;       /* global sub-partition id (chan * n_sub + local) */
    uint32_t bank, row, col, bankgrp;
    uint64_t part_addr;     /* address with the channel bits removed (L2 set indexing in v4) */
    /* timestamps in core cycles, for latency statistics */
    uint64_t t_created, t_icnt_in, t_l2_in, t_dram_in, t_returned;
    uint64_t t_node;        /* CPU memory node (cpumem.c): when its next step is due */
    uint8_t node;           /* memory node of its page: 0 GPU, 1 CPU (-hm_enable) */
    bool l2_waited;         /* the L2 did not hit: the data came from DRAM (or a pending fill) */
    void *origin;           /* the SM side's context (e.g. a pending LD/ST entry) */
    struct ws_mreq *next;   /* intrusive link for queues and the free list */
    /* memory-side bookkeeping (partition.c): a request broken into 32 B
       sector requests at a sectored L2 is their parent and is replied to
       once all of them are done */
    struct ws_mreq *parent;
    uint16_t pending;       /* sector requests not yet done (parents) */
    uint8_t mflags;         /* partition-private flags */
    uint32_t uid;
} ws_mreq;

/* Packet size in flits on the interconnect, as GPGPU-Sim counts it: a read
 * request carries only its header; a write request, an atomic, and a read
 * reply carry header + data; a write acknowledgement only its header. */
static inline uint32_t ws_mreq_flits(const ws_mreq *r, uint32_t flit_size) {
    /* data: an atomic, a write to memory or a read's reply (is_reply !=
       is_write), tested without branches */
    bool data = r->is_atomic | (r->is_reply ^ r->is_write);
    uint32_t sz = (data ? r->data_size : 0) + WS_MREQ_CTRL_BYTES;
    return (sz + flit_size - 1) / flit_size;
}

/* ---- pool ---- */
typedef struct ws_mreq_pool {
    ws_mreq *free;
    ws_mreq **chunks;
    uint32_t nchunks, live, next_uid;
    uint32_t nfree;         /* requests on the free list */
} ws_mreq_pool;

void ws_mreq_pool_init(ws_mreq_pool *p);
void ws_mreq_pool_destroy(ws_mreq_pool *p);
/* Adds a chunk of requests to the free list (aborts on out-of-memory). */
void ws_mreq_pool_grow(ws_mreq_pool *p);
/* Allocation and freeing are inline: every request of every access goes through
   them, and as calls their entry and exit cost a quarter of the copy. */
/* A zeroed request (never fails: aborts on out-of-memory). */
static inline ws_mreq *ws_mreq_alloc(ws_mreq_pool *p) {
    if (!p->free) ws_mreq_pool_grow(p);
    ws_mreq *r = p->free;
    p->free = r->next;
    p->nfree--;
    memset(r, 0, sizeof *r);
    r->uid = ++p->next_uid;
    p->live++;
    return r;
}
/* A copy of *src with its own request number (the next, as ws_mreq_alloc
   would give) and no link: what ws_mreq_alloc and a copy of every field but
   uid and next give, without zeroing first. */
static inline ws_mreq *ws_mreq_alloc_copy(ws_mreq_pool *p, const ws_mreq *src) {
    if (!p->free) ws_mreq_pool_grow(p);
    ws_mreq *r = p->free;
    p->free = r->next;
    p->nfree--;
    *r = *src; /* no zeroing first: every byte is written */
    r->next = NULL;
    r->uid = ++p->next_uid;
    p->live++;
    return r;
}
static inline void ws_mreq_free(ws_mreq_pool *p, ws_mreq *r) {
    if (!r) return;
    r->next = p->free;
    p->free = r;
    p->nfree++;
    p->live--;
}
/* Moves up to n requests from from's free list to to's (a request goes back
   to the pool of the unit that frees it, which need not be the one that made
   it: the owner of the pools evens them out). Returns how many. */
uint32_t ws_mreq_pool_move_free(ws_mreq_pool *from, ws_mreq_pool *to, uint32_t n);

/* ---- FIFO of requests (intrusive, unbounded; the owner enforces limits) ---- */
typedef struct ws_mreq_fifo {
    ws_mreq *head;
    ws_mreq *tail; /* the last request while head is not NULL (else stale: a pop leaves it) */
    uint32_t len;
} ws_mreq_fifo;

static inline void ws_mreq_fifo_push(ws_mreq_fifo *q, ws_mreq *r) {
    r->next = NULL;
    if (q->head) q->tail->next = r;
    else q->head = r;
    q->tail = r;
    q->len++;
}
/* ws_mreq_fifo_push of each request of the chain first .. last (n of them,
   linked by next, last->next NULL), in its order. */
static inline void ws_mreq_fifo_push_chain(ws_mreq_fifo *q, ws_mreq *first, ws_mreq *last,
                                           uint32_t n) {
    if (q->head) q->tail->next = first;
    else q->head = first;
    q->tail = last;
    q->len += n;
}
static inline ws_mreq *ws_mreq_fifo_pop(ws_mreq_fifo *q) {
    ws_mreq *r = q->head;
    if (!r) return NULL;
    q->head = r->next; /* (tail is left: push tests head) */
    q->len--;
    return r; /* (its next is left too: a push sets it, and nothing else reads it) */
}

#endif
