/* Interconnect: two crossbars (requests SM -> sub-partition, replies
 * sub-partition -> SM), each a single input-queued router as GPGPU-Sim's
 * "fly, k = nodes, n = 1" configuration builds.
 *
 * A packet enters its source's input buffer whole (ws_icnt_has_buffer
 * checks room for all its flits). Its head may compete for the switch once
 * the input channel, routing, VC allocation and switch allocation delays
 * have passed. The allocator is iSLIP-like: every free output grants the
 * requesting input next after its round-robin pointer, and the pointer
 * moves past the input it granted (each input requests one output, its
 * head's, so every grant is accepted). A granted packet holds the output
 * until its tail (wormhole, one VC); an output moves output_speedup flits
 * per cycle into the destination's ejection buffer, and only while that
 * buffer has a free flit slot (back-pressure). The tail arrives one cycle
 * (the output channel) after it leaves; ws_icnt_pop hands out whole
 * packets in arrival order. Internal speedup runs the allocator that many
 * times per cycle, so an output freed by a tail can be granted again in
 * the same cycle. With -network_mode 1 (BookSim's router, as GPGPU-Sim runs
 * it) a port takes its next packet only vc_alloc_delay + sw_alloc_delay
 * allocation steps after the last tail left it: that packet is VC-allocated
 * once the output's VC is free, then switch-allocated. */
#include "timing/mem/icnt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A packet, a ring, an output port: ws_icnt_pkt, ws_icnt_ring and
   ws_icnt_port (icnt.h, where the inline room test and pop read them). */
typedef ws_icnt_pkt pkt;
typedef ws_icnt_ring pring;
typedef ws_icnt_port outp;

typedef struct net {
    uint32_t nin, nout;
    uint32_t win, wout;   /* 64-bit words of an input / output bit set */
    pring *in;
    outp *op;             /* per output */
    uint64_t *req;        /* per output, win words: inputs requesting it (allocation scratch) */
    /* Bit sets that keep the per-cycle work proportional to the traffic,
       not to the node count; walked in ascending order, as the plain loops
       over all ports were. */
    /* Inputs with a packet, not holding an output, head ready, kept by the
       output their head asks for: per output, win words (cand_o), and the
       outputs asked by any (out_cand). An allocation step then visits only
       outputs that can grant and have a candidate, never an input whose
       output is busy. */
    uint64_t *cand_o;
    uint64_t *out_cand;
    /* Inputs of cand_o's kind whose head is not ready yet, by the cycle it is:
       slot ready % n_wait (win words each; a head is at most head_delay
       cycles from ready, so n_wait = head_delay + 1 slots never mix two
       cycles). A cycle moves its slot into cand_o first, so the allocation
       steps pass waiting heads by instead of testing them every step. */
    uint64_t *wait;
    uint32_t n_wait;
    uint64_t *req_out;    /* outputs requested in this allocation (scratch) */
    uint64_t *conn_out;   /* outputs connected to an input */
    uint64_t *ej_busy;    /* outputs with a packet in their ejection buffer */
    /* Inputs whose tail left in this allocation step (at most one per
       output): their next heads join and the allocation gap starts after
       the step, where the transfer that followed the step put them. */
    uint32_t *tails, n_tails;
    uint64_t *in_ok;      /* per input: first allocation step its next packet may be granted */
    uint64_t step;        /* allocation steps run (internal speedup: several per cycle) */
    uint64_t gap_until;   /* the latest in_ok: no input waits out its gap from this step on */
    /* packets wholly past the switch: scan.stats.packets[k] (those pushed)
       - passed are entering (nothing to move if none) */
    uint64_t passed;
    double acc;           /* fractional internal speedup (stays 0 for a whole one) */
    bool ref_alloc;       /* tests: the allocator that visits every candidate input */
    bool one_word;        /* up to 64 inputs and outputs, not ref_alloc: cycle1 */
} net;

struct ws_icnt {
    ws_icnt_scan scan;    /* first: read by icnt.h's inline functions */
    uint32_t n_sms, n_subs;
    net nets[2];          /* 0: requests (SM -> sub-partition), 1: replies */
    uint32_t cap_in, cap_ej, head_delay, out_speedup;
    uint32_t alloc_gap;   /* allocation steps between two packets through one port */
    double speedup;
    int whole_steps;      /* speedup, if a whole number (the steps of every cycle); else 0 */
    uint32_t slot;        /* now % n_wait, kept without a division */
};

static bool ring_init(pring *q, uint32_t cap) {
    uint32_t slots = 1;
    while (slots < cap) slots *= 2;
    q->v = calloc(slots, sizeof *q->v);
    q->cap = cap;
    q->mask = slots - 1;
    return q->v != NULL;
}
/* slot head + i (i < cap): a mask (len < cap keeps the slots apart) */
static inline uint32_t ring_slot(const pring *q, uint32_t i) { return (q->head + i) & q->mask; }
static pkt *ring_at(pring *q, uint32_t i) { return &q->v[ring_slot(q, i)]; }
static pkt *ring_head(pring *q) { return q->len ? &q->v[q->head] : NULL; }
static pkt *ring_push(pring *q) {
    pkt *p = &q->v[ring_slot(q, q->len)];
    q->len++;
    return p;
}
static void ring_pop(pring *q) {
    q->head = ring_slot(q, 1);
    q->len--;
}

static inline void bit_set(uint64_t *s, uint32_t i) { s[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *s, uint32_t i) { s[i >> 6] &= ~(1ull << (i & 63)); }

/* Input i, whose head asks for output o, becomes a candidate. */
static inline void cand_add(net *t, uint32_t i, uint32_t o) {
    bit_set(t->cand_o + (size_t)o * t->win, i);
    bit_set(t->out_cand, o);
}

/* Input i's head (ready at cycle `ready`, for output o) may compete: a
   candidate now, or into the waiting slot of its cycle (ready - now <=
   head_delay). */
static inline void head_candidate(net *t, uint64_t now, uint32_t slot, uint32_t i, uint32_t o,
                                  uint64_t ready) {
    if (ready <= now) {
        cand_add(t, i, o);
        return;
    }
    uint32_t k = slot + (uint32_t)(ready - now); /* ready % n_wait: slot is now % n_wait */
    if (k >= t->n_wait) k -= t->n_wait;
    bit_set(t->wait + (size_t)k * t->win, i);
}

/* First member of the set at or after `from` (< nbits), wrapping around to
   the lowest; the set must not be empty. The round-robin pick of a plain
   loop i = (from + j) % nbits. */
static inline uint32_t first_from(const uint64_t *s, uint32_t words, uint32_t from) {
    uint32_t w0 = from >> 6;
    uint64_t m = s[w0] & (~0ull << (from & 63));
    if (m) return (w0 << 6) + (uint32_t)__builtin_ctzll(m);
    for (uint32_t w = w0 + 1; w < words; w++)
        if (s[w]) return (w << 6) + (uint32_t)__builtin_ctzll(s[w]);
    for (uint32_t w = 0; w <= w0; w++)
        if (s[w]) return (w << 6) + (uint32_t)__builtin_ctzll(s[w]);
    return 0; /* not reached: the set is not empty */
}

static void net_free(net *n) {
    if (n->in)
        for (uint32_t i = 0; i < n->nin; i++) free(n->in[i].v);
    if (n->op)
        for (uint32_t o = 0; o < n->nout; o++) free(n->op[o].ej.v);
    free(n->in);
    free(n->op);
    free(n->req);
    free(n->cand_o);
    free(n->out_cand); /* (conn_out and ej_busy are in its block) */
    free(n->wait);
    free(n->req_out);
    free(n->tails);
    free(n->in_ok);
}

static bool net_init(net *n, uint32_t nin, uint32_t nout, uint32_t cap_in, uint32_t cap_ej,
                     uint32_t head_delay) {
    n->nin = nin;
    n->nout = nout;
    n->in = calloc(nin, sizeof *n->in);
    n->op = calloc(nout, sizeof *n->op);
    n->win = (nin + 63) / 64;
    n->wout = (nout + 63) / 64;
    n->req = calloc((size_t)nout * n->win, sizeof *n->req);
    n->cand_o = calloc((size_t)nout * n->win, sizeof *n->cand_o);
    /* out_cand, conn_out and ej_busy in one block (cycle1 reads the three
       words of a one-word network through one pointer) */
    n->out_cand = calloc(3 * (size_t)n->wout, sizeof *n->out_cand);
    n->n_wait = head_delay + 1;
    n->wait = calloc((size_t)n->n_wait * n->win, sizeof *n->wait);
    n->req_out = calloc(n->wout, sizeof *n->req_out);
    if (n->out_cand) {
        n->conn_out = n->out_cand + n->wout;
        n->ej_busy = n->out_cand + 2 * (size_t)n->wout;
    }
    n->tails = calloc(nout, sizeof *n->tails);
    n->in_ok = calloc(nin, sizeof *n->in_ok);
    if (!n->in_ok || !n->wait) return false;
    if (!n->in || !n->op ||
        !n->req || !n->cand_o || !n->out_cand || !n->req_out || !n->conn_out || !n->ej_busy || !n->tails)
        return false;
    for (uint32_t i = 0; i < nin; i++)
        if (!ring_init(&n->in[i], cap_in)) return false;
    n->one_word = n->win == 1 && n->wout == 1;
    for (uint32_t o = 0; o < nout; o++) {
        if (!ring_init(&n->op[o].ej, cap_ej)) return false;
        n->op[o].conn = -1;
        n->op[o].budget_at = UINT64_MAX; /* refilled at first use */
    }
    return true;
}

ws_icnt *ws_icnt_create(const ws_config *cfg, uint32_t n_sms, uint32_t n_subparts, char *err,
                        size_t errlen) {
    ws_icnt *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    n->n_sms = n_sms;
    n->n_subs = n_subparts;
    uint32_t vcs = (uint32_t)cfg->icnt_num_vcs, buf = (uint32_t)cfg->icnt_vc_buf_size;
    n->cap_in = vcs * buf;
    n->cap_ej = vcs * buf;
    n->head_delay = 1 + (uint32_t)(cfg->icnt_routing_delay + cfg->icnt_vc_alloc_delay +
                                   cfg->icnt_sw_alloc_delay);
    n->out_speedup = (uint32_t)cfg->icnt_output_speedup;
    /* BookSim's router (GPGPU-Sim's -network_mode 1): a port's next packet
       is VC-allocated only after the last one's tail has been switched, then
       switch-allocated, one allocation step each. GPGPU-Sim's local crossbar
       (-network_mode 2) is no BookSim router: there a port is free again at
       the next step. */
    n->alloc_gap = cfg->network_mode == 1
                       ? (uint32_t)(cfg->icnt_vc_alloc_delay + cfg->icnt_sw_alloc_delay) : 1;
    if (n->alloc_gap < 1) n->alloc_gap = 1;
    n->speedup = cfg->icnt_internal_speedup;
    /* a whole speedup s: acc goes 0 -> s -> 0 each cycle, exactly */
    if (n->speedup >= 1.0 && n->speedup == (double)(int)n->speedup) n->whole_steps = (int)n->speedup;
    if (!net_init(&n->nets[0], n_sms, n_subparts, n->cap_in, n->cap_ej, n->head_delay) ||
        !net_init(&n->nets[1], n_subparts, n_sms, n->cap_in, n->cap_ej, n->head_delay)) {
        ws_icnt_destroy(n);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* the request network's outputs are the sub-partitions, the reply
       network's the SMs (only outputs have ejection buffers) */
    n->scan.arrivals[0] = n->nets[0].ej_busy;
    n->scan.arrivals[1] = n->nets[1].ej_busy;
    n->scan.out[0] = n->nets[0].op;
    n->scan.out[1] = n->nets[1].op;
    for (int k = 0; k < 2; k++) {
        n->scan.in[k] = n->nets[k].in;
        /* a pushed head's wait slot: (now + head_delay) % n_wait, at now 0 */
        n->scan.push_wait[k] = n->nets[k].wait + (size_t)n->head_delay * n->nets[k].win;
    }
    n->scan.head_delay = n->head_delay;
    n->scan.n_sms = n_sms;
    n->scan.cap_in = n->cap_in;
    return n;
}

void ws_icnt_destroy(ws_icnt *n) {
    if (!n) return;
    net_free(&n->nets[0]);
    net_free(&n->nets[1]);
    free(n);
}

/* Node -> (network, local input port): SMs inject requests, sub-partitions replies. */
static net *in_port(const ws_icnt *n, uint32_t src, uint32_t *port) {
    if (src < n->n_sms) {
        *port = src;
        return (net *)&n->nets[0];
    }
    *port = src - n->n_sms;
    return (net *)&n->nets[1];
}

bool ws_icnt_has_buffer(const ws_icnt *n, uint32_t src, uint32_t flits) {
    uint32_t i;
    net *t = in_port(n, src, &i);
    return ws_icnt_room(n, &t->in[i], flits);
}

/* (Network 0, requests, goes to the sub-partitions: output dst - n_sms;
   network 1, replies, to the SMs: output dst.) */
void ws_icnt_push(ws_icnt *n, uint32_t src, uint32_t dst, ws_mreq *r, uint32_t flits) {
    if (src < n->n_sms) ws_icnt_push_at(n, 0, src, dst - n->n_sms, r, flits);
    else ws_icnt_push_at(n, 1, src - n->n_sms, dst, r, flits);
}

const ws_mreq *ws_icnt_peek(const ws_icnt *n, uint32_t node) {
    const net *t = node < n->n_sms ? &n->nets[1] : &n->nets[0];
    uint32_t o = node < n->n_sms ? node : node - n->n_sms;
    pkt *p = ring_head((pring *)&t->op[o].ej);
    if (!p || p->moved < p->flits || p->ready > n->scan.now) return NULL;
    return p->r;
}

/* Output port op moves the flits of its packet d (the newest in its
 * ejection buffer, from input ring in) that it may in this cycle: up to
 * out_speedup per cycle, while the buffer has a free flit slot. Returns
 * whether the tail left (then the caller frees the ports: pass_tail). */
static inline __attribute__((always_inline)) bool move_flits(const ws_icnt *n, outp *op, pring *in,
                                                             pkt *d) {
    if (op->budget_at != n->scan.now) { /* first move of this cycle */
        op->budget_at = n->scan.now;
        op->budget = n->out_speedup;
    }
    /* as many flits as the budget, the ejection buffer's room and the
       packet allow (its flits never pass cap_ej) */
    uint32_t k = op->budget, room = n->cap_ej - op->ej.flits, left = d->flits - d->moved;
    if (room < k) k = room;
    if (left < k) k = left;
    d->moved += k;
    op->ej.flits += k;
    in->flits -= k;
    op->budget -= k;
    return d->moved == d->flits; /* else spent or full: it waits for the next cycle */
}

/* Packet d's tail left input ci (ring in) through output port op. */
static inline __attribute__((always_inline)) void pass_tail(const ws_icnt *n, net *t, outp *op,
                                                            uint32_t ci, pring *in, pkt *d) {
    d->ready = n->scan.now + 1; /* the output channel */
    ring_pop(in);
    t->passed++;
    t->in_ok[ci] = op->out_ok = t->step + n->alloc_gap;
}

/* Output o grants input i (a candidate of o): the packet takes its place in
   the ejection buffer with its head; i leaves the candidates. Its flits move
   at once: the transfer that followed the step did only that for o (an
   output's move touches its own ports and budget, which nothing else in the
   step touches, at the same cycle and step), and what it did for the other
   ports waits for the step's end (ws_icnt_cycle): the input's next head and
   the allocation gap, which this step must not see. */
static inline __attribute__((always_inline)) void grant(const ws_icnt *n, net *t, uint32_t o,
                                                        uint32_t i) {
    uint64_t *co = t->cand_o + (size_t)o * t->win;
    bit_clear(co, i);
    bool left = co[0] != 0;
    for (uint32_t w = 1; w < t->win && !left; w++) left = co[w] != 0;
    if (!left) bit_clear(t->out_cand, o);
    bit_set(t->ej_busy, o);
    outp *op = &t->op[o];
    op->gptr = i + 1 == t->nin ? 0 : i + 1;
    pring *in = &t->in[i];
    pkt *d = ring_push(&op->ej);
    *d = *ring_head(in);
    d->moved = 0;
    if (move_flits(n, op, in, d)) { /* all of it: o and i stay free */
        pass_tail(n, t, op, i, in, d);
        t->tails[t->n_tails++] = i;
    } else { /* o holds i until the tail has passed */
        op->conn = (int32_t)i;
        bit_set(t->conn_out, o);
    }
}

/* Can input i's head compete in this step? (The allocator below leaves out
   the due test: a head joins the candidates only in its due cycle.) */
static inline bool in_may(const ws_icnt *n, const net *t, uint32_t i) {
    return ring_head((pring *)&t->in[i])->ready <= n->scan.now && t->in_ok[i] <= t->step;
}

/* Output o's candidates that may be granted in this step: past their
   input's allocation gap (no test needed while no gap reaches this step). */
static inline uint64_t may_word(const net *t, uint64_t x, uint32_t w) {
    if (t->gap_until <= t->step) return x;
    for (uint64_t y = x; y; y &= y - 1) {
        uint32_t i = (w << 6) + (uint32_t)__builtin_ctzll(y);
        if (t->in_ok[i] > t->step) x &= ~(1ull << (i & 63));
    }
    return x;
}

/* tail_left's head for a one-word network: input i's next head, if any,
   becomes a candidate or waits for its cycle (head_candidate); returns the
   bit of the output it became a candidate of, else 0. */
static inline __attribute__((always_inline)) uint64_t join1(const ws_icnt *n, net *t, uint32_t i) {
    const pring *in = &t->in[i];
    if (!in->len) return 0;
    const pkt *h = &in->v[in->head];
    if (h->ready <= n->scan.now) {
        t->cand_o[h->dst] |= 1ull << i;
        return 1ull << h->dst;
    }
    uint32_t k = n->slot + (uint32_t)(h->ready - n->scan.now);
    if (k >= t->n_wait) k -= t->n_wait;
    t->wait[k] |= 1ull << i;
    return 0;
}

/* The sets of a one-word network that its cycle's steps change, held in
   locals for the whole cycle (cycle1) and stored once at its end: no other
   code reads them during the cycle. */
typedef struct sets1 {
    uint64_t oc, cn, eb; /* out_cand, conn_out, ej_busy */
} sets1;

/* One allocation step (number `step`) of a one-word network (up to 64
 * inputs and 64 outputs: the presets' networks), with its tails: no other
 * port's state is read through the sets in the step. The grants are
 * allocate()'s; the tails are tail_left()'s, after every grant of the step
 * (their head and gap sets are bits, in any order). A grant's first move
 * is move_flits' from 0 moved flits. */
static inline __attribute__((always_inline)) void step1(const ws_icnt *n, net *t, sets1 *w,
                                                        const uint64_t step) {
    const bool gap = t->gap_until > step; /* (tails of this step change it only after it) */
    const uint64_t ok = step + n->alloc_gap; /* a tail's port takes its next packet then */
    const uint64_t now = n->scan.now;
    uint64_t oc = w->oc, cn = w->cn, eb = w->eb;
    uint64_t tl = 0; /* inputs whose tail left in this step */
    for (uint64_t om = oc & ~cn; om; om &= om - 1) {
        const uint32_t o = (uint32_t)__builtin_ctzll(om);
        outp *op = &t->op[o];
        if (op->out_ok > step || op->ej.len >= op->ej.cap) continue;
        uint64_t x = t->cand_o[o];
        const uint64_t all = x;
        if (gap) /* may_word, at this step (t->step is stored at the cycle's end) */
            for (uint64_t y = all; y; y &= y - 1) {
                const uint32_t j = (uint32_t)__builtin_ctzll(y);
                if (t->in_ok[j] > step) x &= ~(1ull << j);
            }
        if (!x) continue;
        /* gptr is kept unwrapped here (i + 1 <= nin <= 64): at nin, the
           mask holds no input (or, at 64, all of them), so the pick wraps
           to the lowest as with gptr 0 */
        uint64_t up = x & (~0ull << (op->gptr & 63));
        const uint32_t i = (uint32_t)__builtin_ctzll(up ? up : x);
        /* grant (o, i), as grant() */
        uint64_t co = all & ~(1ull << i);
        t->cand_o[o] = co;
        if (!co) oc &= ~(1ull << o);
        eb |= 1ull << o;
        op->gptr = i + 1;
        pring *in = &t->in[i];
        pkt *d = ring_push(&op->ej);
        *d = in->v[in->head];
        /* move_flits, with d->moved 0 */
        if (op->budget_at != now) {
            op->budget_at = now;
            op->budget = n->out_speedup;
        }
        uint32_t k = op->budget, room = n->cap_ej - op->ej.flits;
        const uint32_t f = d->flits;
        if (room < k) k = room;
        if (f < k) k = f;
        d->moved = k;
        op->ej.flits += k;
        in->flits -= k;
        op->budget -= k;
        if (k == f) { /* pass_tail */
            d->ready = now + 1; /* the output channel */
            ring_pop(in);
            t->passed++;
            t->in_ok[i] = op->out_ok = ok;
            tl |= 1ull << i;
        } else {
            op->conn = (int32_t)i;
            cn |= 1ull << o;
        }
    }
    if (tl) { /* tail_left for each */
        t->gap_until = ok;
        for (; tl; tl &= tl - 1) oc |= join1(n, t, (uint32_t)__builtin_ctzll(tl));
    }
    w->oc = oc;
    w->cn = cn;
    w->eb = eb;
}

/* Free outputs grant to the first requesting input after their pointer.
 * Each input requests only its head's output, so a grant changes no other
 * output's requests nor whether another output can grant (free, a slot in
 * its ejection buffer, past its allocation gap): each output that can grant
 * picks from its own candidates, in ascending output order. */
static void allocate(const ws_icnt *n, net *t) {
    const uint32_t win = t->win;
    for (uint32_t wo = 0; wo < t->wout; wo++) {
        for (uint64_t om = t->out_cand[wo] & ~t->conn_out[wo]; om; om &= om - 1) {
            uint32_t o = (wo << 6) + (uint32_t)__builtin_ctzll(om);
            if (t->op[o].ej.len >= t->op[o].ej.cap || t->op[o].out_ok > t->step) continue;
            const uint64_t *co = t->cand_o + (size_t)o * win;
            if (win == 1) { /* up to 64 inputs: the pick is a mask and a bit scan */
                uint64_t x = may_word(t, co[0], 0);
                if (!x) continue;
                uint64_t up = x & (~0ull << t->op[o].gptr); /* gptr < nin <= 64 */
                grant(n, t, o, (uint32_t)__builtin_ctzll(up ? up : x));
                continue;
            }
            uint64_t *m = &t->req[(size_t)o * win];
            bool any = false;
            for (uint32_t w = 0; w < win; w++) {
                m[w] = may_word(t, co[w], w);
                any |= m[w] != 0;
            }
            if (any) grant(n, t, o, first_from(m, win, t->op[o].gptr));
        }
    }
}

/* The allocator as it was before the per-output candidates: every
 * candidate input is visited and asks its head's output, and the outputs
 * that can grant are gathered first. Kept for the tests, which require the
 * same grants from both (ws_icnt_set_reference_alloc). */
static void allocate_ref(const ws_icnt *n, net *t) {
    const uint32_t win = t->win;
    bool any = false;
    for (uint32_t w = 0; w < win; w++) {
        uint64_t cand = 0;
        for (uint32_t o = 0; o < t->nout; o++) cand |= t->cand_o[(size_t)o * win + w];
        for (uint64_t m = cand; m; m &= m - 1) {
            uint32_t i = (w << 6) + (uint32_t)__builtin_ctzll(m);
            if (!in_may(n, t, i)) continue;
            const uint32_t o = ring_head(&t->in[i])->dst;
            const outp *op = &t->op[o];
            if (op->conn >= 0 || op->ej.len >= op->ej.cap || op->out_ok > t->step) continue;
            t->req[(size_t)o * win + w] |= 1ull << (i & 63);
            bit_set(t->req_out, o);
            any = true;
        }
    }
    if (!any) return;
    for (uint32_t wo = 0; wo < t->wout; wo++) {
        uint64_t om = t->req_out[wo];
        t->req_out[wo] = 0;
        for (; om; om &= om - 1) {
            uint32_t o = (wo << 6) + (uint32_t)__builtin_ctzll(om);
            uint64_t *m = &t->req[(size_t)o * win];
            grant(n, t, o, first_from(m, win, t->op[o].gptr));
            memset(m, 0, win * sizeof *m);
        }
    }
}

void ws_icnt_set_reference_alloc(ws_icnt *n, bool on) {
    for (int k = 0; k < 2; k++) { /* allocate leaves its scratch set; allocate_ref needs it clear */
        net *t = &n->nets[k];
        t->ref_alloc = on;
        t->one_word = !on && t->win == 1 && t->wout == 1;
        for (uint32_t o = 0; o < t->nout; o++) /* (step1 leaves it unwrapped) */
            if (t->op[o].gptr >= t->nin) t->op[o].gptr = 0;
        memset(t->req, 0, (size_t)t->nout * t->win * sizeof *t->req);
    }
}

/* Input ci's tail left: its next head may compete, and no port may take
 * another packet before the allocation gap has passed. */
static inline void tail_left(const ws_icnt *n, net *t, uint32_t ci) {
    t->gap_until = t->step + n->alloc_gap;
    const pring *in = &t->in[ci];
    if (in->len) {
        const pkt *h = &in->v[in->head];
        head_candidate(t, n->scan.now, n->slot, ci, h->dst, h->ready);
    }
}

/* Has an output that is not connected a candidate? (Else an allocation
   step visits no output.) */
static inline bool free_cand(const net *t) {
    uint64_t any = t->out_cand[0] & ~t->conn_out[0];
    for (uint32_t w = 1; w < t->wout; w++) any |= t->out_cand[w] & ~t->conn_out[w];
    return any != 0;
}

/* The first transfer of a cycle: each connected output (its packet stopped
 * in an earlier cycle by its budget or a full ejection buffer) moves what it
 * may. Outputs granted later in the cycle move in the grant, so the
 * transfers that followed each step found nothing left to move. */
static void transfer_outputs(const ws_icnt *n, net *t) {
    for (uint32_t wo = 0; wo < t->wout; wo++) {
        for (uint64_t om = t->conn_out[wo]; om; om &= om - 1) {
            uint32_t o = (wo << 6) + (uint32_t)__builtin_ctzll(om);
            outp *op = &t->op[o];
            uint32_t ci = (uint32_t)op->conn;
            pring *in = &t->in[ci];
            pkt *d = ring_at(&op->ej, op->ej.len - 1);
            if (move_flits(n, op, in, d)) {
                pass_tail(n, t, op, ci, in, d);
                op->conn = -1;
                bit_clear(t->conn_out, o);
                tail_left(n, t, ci);
            }
        }
    }
}

/* transfer_outputs for a one-word network. */
static inline __attribute__((always_inline)) void transfer1(const ws_icnt *n, net *t, sets1 *w) {
    uint64_t cn = w->cn, oc = 0;
    for (uint64_t om = cn; om; om &= om - 1) {
        const uint32_t o = (uint32_t)__builtin_ctzll(om);
        outp *op = &t->op[o];
        const uint32_t ci = (uint32_t)op->conn;
        pring *in = &t->in[ci];
        pkt *d = ring_at(&op->ej, op->ej.len - 1);
        if (move_flits(n, op, in, d)) {
            pass_tail(n, t, op, ci, in, d);
            op->conn = -1;
            cn &= ~(1ull << o);
            t->gap_until = t->step + n->alloc_gap; /* tail_left */
            oc |= join1(n, t, ci);
        }
    }
    w->cn = cn;
    w->oc |= oc;
}

/* A cycle of a one-word network with entering packets: ws_icnt_cycle's
   steps, the sets read as single words (sets1). */
static inline __attribute__((always_inline)) void cycle1(const ws_icnt *n, net *t, int steps) {
    uint64_t *wt = t->wait + n->slot; /* heads ready from this cycle */
    /* no head joins, none is a candidate and no output is connected (every
       packet's head waits for its cycle): only the step count moves */
    uint64_t *const sets = t->out_cand; /* out_cand, conn_out, ej_busy: one word each */
    if (!(*wt | sets[0] | sets[1])) {
        t->step += (uint64_t)steps;
        return;
    }
    sets1 w = {sets[0], sets[1], sets[2]};
    if (*wt) {
        for (uint64_t m = *wt; m; m &= m - 1) {
            const uint32_t i = (uint32_t)__builtin_ctzll(m);
            const uint32_t o = t->in[i].v[t->in[i].head].dst;
            t->cand_o[o] |= 1ull << i;
            w.oc |= 1ull << o;
        }
        *wt = 0;
    }
    if (w.cn) transfer1(n, t, &w); /* budgets refill */
    uint64_t step = t->step;
    for (int s = 0; s < steps; s++) {
        /* no candidate at an unconnected output: this step grants nothing
           and leaves no tail, so neither it nor the cycle's later steps
           change anything but the step count */
        if (!(w.oc & ~w.cn)) {
            step += (uint64_t)(steps - s);
            break;
        }
        step1(n, t, &w, ++step);
    }
    t->step = step;
    sets[0] = w.oc;
    sets[1] = w.cn;
    sets[2] = w.eb;
}

/* A cycle of a network with entering packets, in any number of words (or
   with the tests' reference allocator). Out of line: the presets' one-word
   networks take cycle1, which keeps more in registers without this. */
static __attribute__((noinline)) void cycle_words(const ws_icnt *n, net *t, int steps) {
    uint64_t *wt = t->wait + (size_t)n->slot * t->win;
    for (uint32_t w = 0; w < t->win; w++) { /* heads ready from this cycle */
        for (uint64_t m = wt[w]; m; m &= m - 1) {
            uint32_t i = (w << 6) + (uint32_t)__builtin_ctzll(m);
            cand_add(t, i, ring_head(&t->in[i])->dst);
        }
        wt[w] = 0;
    }
    for (uint32_t w = 0; w < t->wout; w++) /* budgets refill */
        if (t->conn_out[w]) {
            transfer_outputs(n, t);
            break;
        }
    for (int s = 0; s < steps; s++) {
        /* no candidate at an unconnected output: this step grants nothing
           and leaves no tail, so neither it nor the cycle's later steps
           change anything but the step count */
        if (!t->ref_alloc && !free_cand(t)) {
            t->step += (uint64_t)(steps - s);
            break;
        }
        t->step++;
        if (t->ref_alloc) allocate_ref(n, t);
        else allocate(n, t);
        for (uint32_t j = 0; j < t->n_tails; j++) tail_left(n, t, t->tails[j]);
        t->n_tails = 0;
    }
}

/* Network k's cycle of `steps` allocation steps, if a packet enters it.
   Inline with k a constant: its net is then a fixed offset from n, which
   leaves the grant loop one register more. */
static inline __attribute__((always_inline)) void net_cycle(ws_icnt *n, const int k, int steps) {
    net *t = &n->nets[k];
    /* nothing in input buffers or crossing: keep only the speedup phase
       (packets waiting in ejection buffers do not move) */
    if (n->scan.stats.packets[k] == t->passed) return;
    if (t->one_word) cycle1(n, t, steps);
    else cycle_words(n, t, steps);
}

/* A fractional speedup's steps for network t in this cycle. */
static int frac_steps(const ws_icnt *n, net *t) {
    t->acc += n->speedup;
    int steps = (int)t->acc;
    if (steps < 1) steps = 1;
    t->acc -= steps;
    if (t->acc < -1.0) t->acc = 0;
    return steps;
}

void ws_icnt_cycle(ws_icnt *n) {
    n->scan.stats.cycles++;
    if (n->scan.in_flight) {
        n->scan.stats.busy_cycles++;
        if (n->whole_steps) {
            net_cycle(n, 0, n->whole_steps);
            net_cycle(n, 1, n->whole_steps);
        }
    }
    /* (an empty network has no packet entering either way: with a whole
       speedup, no phase to keep either) */
    if (!n->whole_steps) {
        net_cycle(n, 0, frac_steps(n, &n->nets[0]));
        net_cycle(n, 1, frac_steps(n, &n->nets[1]));
    }
    n->scan.now++;
    /* a pushed head's wait slot, (now + head_delay) % (head_delay + 1): the
       slot before now's, the one that ends (slot) */
    for (int k = 0; k < 2; k++)
        n->scan.push_wait[k] = n->nets[k].wait + (size_t)n->slot * n->nets[k].win;
    n->slot = n->slot + 1 == n->nets[0].n_wait ? 0 : n->slot + 1;
}

bool ws_icnt_busy(const ws_icnt *n) { return n->scan.in_flight != 0; }

void ws_icnt_describe(const ws_icnt *n, char *buf, size_t len) {
    size_t w = (size_t)snprintf(buf, len, "%llu packets in flight",
                                (unsigned long long)n->scan.in_flight);
    for (int k = 0; k < 2 && w < len; k++) {
        const net *t = &n->nets[k];
        uint32_t inq = 0, ejq = 0;
        for (uint32_t i = 0; i < t->nin; i++) inq += t->in[i].len;
        for (uint32_t o = 0; o < t->nout; o++) ejq += t->op[o].ej.len;
        w += (size_t)snprintf(buf + w, len - w, "; %s net: %u in input buffers, %u in ejection",
                              k ? "reply" : "request", inq, ejq);
    }
}

const ws_icnt_stats *ws_icnt_get_stats(const ws_icnt *n) { return &n->scan.stats; }
