/* Interconnect: one crossbar per direction (requests SM -> memory,
 * replies memory -> SM) with the flit size, input buffers and speedups of
 * the .icnt file and an iSLIP-style separable allocator. Nodes 0..n_sms-1
 * are SMs, n_sms..n_sms+n_subparts-1 are memory sub-partitions. Ticked at
 * the interconnect clock. */
#ifndef WARPSIM_TIMING_MEM_ICNT_H
#define WARPSIM_TIMING_MEM_ICNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "timing/mem/mreq.h"

typedef struct ws_icnt_stats {
    uint64_t packets[2], flits[2];        /* [request net, reply net] */
    uint64_t cycles, busy_cycles;
    uint64_t total_latency[2];            /* injection to ejection, in icnt cycles */
} ws_icnt_stats;

typedef struct ws_icnt ws_icnt;
/* icnt.c's port types, declared here for the inline room test and pop
   below. A packet in a port's ring: */
typedef struct ws_icnt_pkt {
    ws_mreq *r;
    uint64_t ready;       /* input: cycle the head may compete; ejection: tail arrival */
    uint64_t t_push;
    uint32_t flits;
    union {               /* (one word: a packet is 32 bytes, its index a shift) */
        uint32_t dst;     /* input: local output index */
        uint32_t moved;   /* ejection: flits moved in (the grant sets it; no one reads dst there) */
    };
} ws_icnt_pkt;
_Static_assert(sizeof(ws_icnt_pkt) == 32, "ws_icnt_pkt: 32 bytes");
/* A port's packet ring (an input buffer or an ejection buffer). */
typedef struct ws_icnt_ring {
    ws_icnt_pkt *v;
    uint32_t cap, head, len;
    uint32_t mask;        /* slots - 1: the slots are the next power of two of cap */
    uint32_t flits;       /* flits held */
} ws_icnt_ring;
/* An output port (a grant or a transfer reads and writes all of it). */
typedef struct ws_icnt_port {
    ws_icnt_ring ej;      /* ejection buffer */
    uint64_t budget_at;   /* cycle its budget was last refilled */
    uint64_t out_ok;      /* first allocation step it may be granted again */
    int32_t conn;         /* input connected, -1 if free */
    uint32_t gptr;        /* round-robin grant pointer (one-word networks: up to nin) */
    uint32_t budget;      /* flits it may still move this cycle */
} ws_icnt_port;
/* What the GPU reads and pops every cycle without a call: the
   interconnect's first member. Indexed by network: [0] requests (outputs:
   sub-partitions), [1] replies (outputs: SMs). */
typedef struct ws_icnt_scan {
    uint64_t *arrivals[2];        /* ws_icnt_arrivals' words: the outputs' ejection-busy sets */
    ws_icnt_port *out[2];         /* the output ports */
    ws_icnt_ring *in[2];          /* the input rings ([0] the SMs', [1] the sub-partitions') */
    /* The waiting-head set that a head pushed in this cycle joins (the slot
       of the cycle it is due: head_delay >= 1 cycles on), per network. */
    uint64_t *push_wait[2];
    uint32_t cap_in;              /* an input's room, in flits */
    uint32_t head_delay;          /* cycles from a push to its head's first allocation */
    uint32_t n_sms;               /* nodes below it are SMs (ws_icnt_pop) */
    uint64_t now;                 /* interconnect cycles run */
    uint64_t in_flight;           /* packets anywhere in the network */
    ws_icnt_stats stats;
} ws_icnt_scan;

ws_icnt *ws_icnt_create(const ws_config *cfg, uint32_t n_sms, uint32_t n_subparts, char *err,
                        size_t errlen);
void ws_icnt_destroy(ws_icnt *n);
/* Can node src inject a packet of `flits` flits now? */
bool ws_icnt_has_buffer(const ws_icnt *n, uint32_t src, uint32_t flits);
/* Inject (call only after has_buffer). The network is chosen by direction
 * (src is an SM: request network; else reply network). */
void ws_icnt_push(ws_icnt *n, uint32_t src, uint32_t dst, ws_mreq *r, uint32_t flits);
/* Room in input ring q for a packet of `flits` flits: a slot and all its flits. */
static inline bool ws_icnt_room(const ws_icnt *n, const ws_icnt_ring *q, uint32_t flits) {
    return q->len < q->cap && q->flits + flits <= ((const ws_icnt_scan *)(const void *)n)->cap_in;
}
/* ws_icnt_push's body: packet r enters input i of network k (0: requests,
   1: replies) for its output o. Inline, as the GPU pushes every packet. */
static inline __attribute__((always_inline)) void ws_icnt_push_at(ws_icnt *n, const int k,
                                                                  uint32_t i, uint32_t o,
                                                                  ws_mreq *r, uint32_t flits) {
    ws_icnt_scan *s = (ws_icnt_scan *)(void *)n;
    ws_icnt_ring *q = &s->in[k][i];
    if (!flits) flits = 1;
    ws_icnt_pkt *p = &q->v[(q->head + q->len) & q->mask];
    q->len++;
    p->r = r;
    p->t_push = s->now;
    p->ready = s->now + s->head_delay;
    p->dst = o;
    p->flits = flits; /* (moved: counted in the ejection buffer's copy, from 0) */
    q->flits += flits;
    if (q->len == 1) /* a new head (an empty input holds no output): it waits for its cycle */
        s->push_wait[k][i >> 6] |= 1ull << (i & 63);
    s->in_flight++;
    s->stats.packets[k]++; /* (also the packets pushed: the network counts those past the switch) */
    s->stats.flits[k] += flits;
}
/* ws_icnt_try_push into input i of network k, for its output o. */
static inline __attribute__((always_inline)) bool ws_icnt_try_push_at(ws_icnt *n, const int k,
                                                                      uint32_t i, uint32_t o,
                                                                      ws_mreq *r, uint32_t flits) {
    if (!ws_icnt_room(n, &((ws_icnt_scan *)(void *)n)->in[k][i], flits)) return false;
    ws_icnt_push_at(n, k, i, o, r, flits);
    return true;
}
/* ws_icnt_try_push of a request from SM sm to sub-partition sub (node
   n_sms + sub), and of a reply from sub-partition sub to SM sm: with the
   network and ports known. */
static inline __attribute__((always_inline)) bool ws_icnt_try_push_req(ws_icnt *n, uint32_t sm,
                                                                       uint32_t sub, ws_mreq *r,
                                                                       uint32_t flits) {
    return ws_icnt_try_push_at(n, 0, sm, sub, r, flits);
}
static inline __attribute__((always_inline)) bool ws_icnt_try_push_reply(ws_icnt *n, uint32_t sub,
                                                                         uint32_t sm, ws_mreq *r,
                                                                         uint32_t flits) {
    return ws_icnt_try_push_at(n, 1, sub, sm, r, flits);
}
/* ws_icnt_has_buffer and, if it has, ws_icnt_push in one call; returns
 * whether r was injected (the serial steps inject every cycle). The
 * direction is picked here, for the entries above. */
static inline __attribute__((always_inline)) bool ws_icnt_try_push(ws_icnt *n, uint32_t src,
                                                                   uint32_t dst, ws_mreq *r,
                                                                   uint32_t flits) {
    const uint32_t n_sms = ((const ws_icnt_scan *)(const void *)n)->n_sms;
    return src < n_sms ? ws_icnt_try_push_req(n, src, dst - n_sms, r, flits)
                       : ws_icnt_try_push_reply(n, src - n_sms, dst, r, flits);
}
/* The packet that ws_icnt_pop would return, without taking it. */
const ws_mreq *ws_icnt_peek(const ws_icnt *n, uint32_t node);
/* The packet that has fully arrived at output o of network k (1: SM o's
   replies, 0: sub-partition o's requests), or NULL; inline, as the GPU pops
   every packet. */
static inline __attribute__((always_inline)) ws_mreq *ws_icnt_pop_at(ws_icnt *n, const int k,
                                                                     uint32_t o) {
    ws_icnt_scan *s = (ws_icnt_scan *)(void *)n;
    ws_icnt_ring *q = &s->out[k][o].ej;
    if (!q->len) return NULL;
    const ws_icnt_pkt *p = &q->v[q->head];
    if (p->moved < p->flits || p->ready > s->now) return NULL;
    ws_mreq *r = p->r;
    s->stats.total_latency[k] += s->now - p->t_push;
    q->flits -= p->flits;
    q->head = (q->head + 1) & q->mask;
    if (!--q->len) s->arrivals[k][o >> 6] &= ~(1ull << (o & 63));
    s->in_flight--;
    return r;
}
/* A packet that has fully arrived at SM sm (a reply) or at sub-partition
   sub (node n_sms + sub: a request), or NULL. */
static inline __attribute__((always_inline)) ws_mreq *ws_icnt_pop_sm(ws_icnt *n, uint32_t sm) {
    return ws_icnt_pop_at(n, 1, sm);
}
static inline __attribute__((always_inline)) ws_mreq *ws_icnt_pop_sub(ws_icnt *n, uint32_t sub) {
    return ws_icnt_pop_at(n, 0, sub);
}
/* A packet that has fully arrived at node `node`, or NULL: the direction is
   picked here, so that each entry above knows its network. */
static inline __attribute__((always_inline)) ws_mreq *ws_icnt_pop(ws_icnt *n, uint32_t node) {
    const uint32_t n_sms = ((const ws_icnt_scan *)(const void *)n)->n_sms;
    return node < n_sms ? ws_icnt_pop_sm(n, node) : ws_icnt_pop_sub(n, node - n_sms);
}
/* Word w (nodes 64w .. 64w + 63) of the set of SMs (replies) or of
 * sub-partitions (numbered from 0, not as nodes) with a packet, arrived or
 * arriving, in their ejection buffer: lets the GPU visit only those. A pop
 * changes only its own node's bit. */
static inline uint64_t ws_icnt_arrivals(const ws_icnt *n, bool replies, uint32_t w) {
    return ((const ws_icnt_scan *)(const void *)n)->arrivals[replies][w];
}
/* Is sub-partition sub's reply input (node n_sms + sub) too full for a
 * packet of `flits` flits? Then ws_icnt_try_push(_reply) would refuse it:
 * the replies' loop passes a full input by without a call (false leaves the
 * decision to the call). */
static inline bool ws_icnt_reply_full(const ws_icnt *n, uint32_t sub, uint32_t flits) {
    const ws_icnt_scan *s = (const ws_icnt_scan *)(const void *)n;
    return s->in[1][sub].flits + flits > s->cap_in;
}
/* One interconnect cycle. */
void ws_icnt_cycle(ws_icnt *n);
bool ws_icnt_busy(const ws_icnt *n);
void ws_icnt_describe(const ws_icnt *n, char *buf, size_t len);
const ws_icnt_stats *ws_icnt_get_stats(const ws_icnt *n);
/* Tests: allocate by visiting every candidate input (the allocator before
 * the per-output candidate sets), to compare the grants with. */
void ws_icnt_set_reference_alloc(ws_icnt *n, bool on);

#endif
