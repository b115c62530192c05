/* Memory request prioritization buffer (MRPB; Jia, Shaw and Martonosi,
 * HPCA 2014), the request-reordering half, before the L1D
 * (-l1d_reorder mrpb[:size=32:queues=48]).
 *
 * The LD/ST unit puts each global/local L1D transaction (loads and stores)
 * into the FIFO queue its signature selects (the warp id, modulo `queues`)
 * instead of straight into the L1 latency queue; the buffer holds at most
 * `size` requests in all, and a full buffer stalls the dispatch register.
 * Each cycle the drain policy moves one request to the L1 latency queue
 * when its tail is free. Seed 000 uses "non-greedy, fixed order": the
 * lowest-numbered non-empty queue, chosen again every cycle (a greedy drain
 * would stay on a queue until it empties). So one warp's requests reach the
 * cache together and fewer warps share it at any time. MRPB's other half,
 * bypassing a request that finds its set fully reserved, is
 * -l1d_bypass stall. The buffer is a pipeline stage: a request spends at
 * least one cycle in it. Requests keep what the latency queue needs (the
 * load's instruction, a store's warp: its acknowledgement was counted
 * when it entered). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/catalog.h"
#include "timing/sm/ldst_queue.h"
#include "timing/sm/sm_internal.h"

#define NONE UINT16_MAX

static const ws_param_def mrpb_params[] = {
    WS_INT("size", "32", 1, 4096, "requests the buffer holds in all"),
    WS_INT("queues", "48", 1, 4096, "FIFO queues (a request's queue: its warp slot mod queues)"),
};

const ws_policy_info sm_mrpb_info = {
    "mrpb", "MRPB's request reordering: per-warp FIFOs, the lowest non-empty one drains first",
    WS_PARAMS(mrpb_params),
};

int sm_mrpb_parse(const char *spec, unsigned *size, unsigned *queues, char *err, size_t errlen) {
    *size = *queues = 0;
    if (!spec || !*spec || !strcmp(spec, "none")) return 0;
    if (strncmp(spec, "mrpb", 4) || (spec[4] && spec[4] != ':')) {
        snprintf(err, errlen, "-l1d_reorder %s: unknown (known: none mrpb)", spec);
        return -1;
    }
    ws_params p;
    if (ws_params_parse(&p, &sm_mrpb_info, NULL, spec[4] ? spec + 5 : NULL, "-l1d_reorder mrpb",
                        err, errlen))
        return -1;
    *size = (unsigned)ws_param_int(&p, "size");
    *queues = (unsigned)ws_param_int(&p, "queues");
    return 0;
}

sm_mrpb *sm_mrpb_create(unsigned size, unsigned queues) {
    sm_mrpb *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->size = size;
    m->nq = queues;
    m->ent = calloc(size, sizeof *m->ent);
    m->next = calloc(size, sizeof *m->next);
    m->head = calloc(queues, sizeof *m->head);
    m->tail = calloc(queues, sizeof *m->tail);
    m->busy = calloc((queues + 63) / 64, sizeof *m->busy);
    if (!m->ent || !m->next || !m->head || !m->tail || !m->busy) {
        sm_mrpb_destroy(m);
        return NULL;
    }
    for (unsigned i = 0; i < size; i++) m->next[i] = (uint16_t)(i + 1 < size ? i + 1 : NONE);
    m->free = 0;
    for (unsigned q = 0; q < queues; q++) m->head[q] = m->tail[q] = NONE;
    return m;
}

void sm_mrpb_destroy(sm_mrpb *m) {
    if (!m) return;
    free(m->ent);
    free(m->next);
    free(m->head);
    free(m->tail);
    free(m->busy);
    free(m);
}

sm_l1acc *sm_mrpb_push(sm_mrpb *m, unsigned warp) {
    if (m->free == NONE) return NULL;
    uint16_t e = m->free;
    m->free = m->next[e];
    m->next[e] = NONE;
    unsigned q = warp % m->nq;
    if (m->tail[q] == NONE) m->head[q] = e;
    else m->next[m->tail[q]] = e;
    m->tail[q] = e;
    m->busy[q / 64] |= 1ull << (q % 64);
    m->n++;
    memset(&m->ent[e], 0, sizeof m->ent[e]);
    return &m->ent[e];
}

/* The drain policy: non-greedy fixed order, the lowest non-empty queue. */
bool sm_mrpb_pop(sm_mrpb *m, sm_l1acc *out) {
    if (!m->n) return false;
    unsigned w = 0;
    while (!m->busy[w]) w++;
    unsigned q = w * 64 + (unsigned)__builtin_ctzll(m->busy[w]);
    uint16_t e = m->head[q];
    *out = m->ent[e];
    m->head[q] = m->next[e];
    if (m->head[q] == NONE) {
        m->tail[q] = NONE;
        m->busy[w] &= ~(1ull << (q % 64));
    }
    m->next[e] = m->free;
    m->free = e;
    m->n--;
    return true;
}

void sm_mrpb_cycle(ws_sm *sm) {
    sm_l1acc *tail = sm_l1q_free_tail(sm, 0); /* (one bank with MRPB) */
    if (tail && sm_mrpb_pop(sm->mrpb, tail)) sm_l1q_enter(sm, 0, tail);
}
