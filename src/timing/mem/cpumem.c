/* The CPU memory node (see cpumem.h). Times are computed when a request
 * arrives: the request direction of the link and each channel are FIFOs, so
 * a request's channel-done time is known then and is non-decreasing per
 * channel. The reply direction is shared by all channels, so replies take
 * it when their channel finishes (ws_cpumem_cycle). mreq.t_node holds the
 * time of the request's next step. */
#include "timing/mem/cpumem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct ws_cpumem {
    ws_cpumem_cfg cfg;
    double link_free[2];      /* when each link direction is free (core cycles) */
    double *chan_free;
    ws_mreq_fifo *chan;       /* per channel: requests by done time */
    ws_mreq_fifo back;        /* replies on the link by arrival time */
    uint32_t held;
    ws_cpumem_stats st;
};

ws_cpumem *ws_cpumem_create(const ws_cpumem_cfg *cfg, char *err, size_t errlen) {
    if (!cfg->channels) {
        snprintf(err, errlen, "option -hm_cpu_channels: 0 is out of range (allowed: 1..64)");
        return NULL;
    }
    ws_cpumem *m = calloc(1, sizeof *m);
    if (m) {
        m->cfg = *cfg;
        m->chan_free = calloc(cfg->channels, sizeof *m->chan_free);
        m->chan = calloc(cfg->channels, sizeof *m->chan);
    }
    if (!m || !m->chan_free || !m->chan) {
        ws_cpumem_destroy(m);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return m;
}

void ws_cpumem_destroy(ws_cpumem *m) {
    if (!m) return;
    free(m->chan_free);
    free(m->chan);
    free(m);
}

bool ws_cpumem_full(const ws_cpumem *m) { return m->held >= m->cfg.queue; }

/* Bytes of a packet on the link: what the interconnect would carry. */
static uint32_t packet_bytes(const ws_mreq *r, bool reply) {
    bool data = r->is_atomic || (reply ? !r->is_write : r->is_write);
    return (data ? r->data_size : 0) + WS_MREQ_CTRL_BYTES;
}

static double later(double a, double b) { return a > b ? a : b; }

void ws_cpumem_push(ws_cpumem *m, ws_mreq *r, uint64_t now) {
    const ws_cpumem_cfg *c = &m->cfg;
    uint32_t pb = packet_bytes(r, false);
    m->link_free[0] = later((double)now, m->link_free[0]) + pb / c->link_bpc;
    m->st.link_bytes[0] += pb;
    double arrive = m->link_free[0] + 0.5 * (double)c->link_latency;
    uint32_t ch = (uint32_t)((r->part_addr >> 8) % c->channels);
    double busy = r->data_size / c->chan_bpc;
    double start = later(arrive, m->chan_free[ch]);
    m->chan_free[ch] = start + busy;
    m->st.chan_busy += (uint64_t)ceil(busy);
    r->t_dram_in = (uint64_t)ceil(start);
    r->t_node = (uint64_t)ceil(m->chan_free[ch]) + c->mem_latency;
    ws_mreq_fifo_push(&m->chan[ch], r);
    m->held++;
    m->st.data_bytes += r->data_size;
    if (r->is_write && !r->is_atomic) m->st.writes++;
    else m->st.reads++;
}

void ws_cpumem_cycle(ws_cpumem *m, uint64_t now) {
    const ws_cpumem_cfg *c = &m->cfg;
    for (uint32_t ch = 0; ch < c->channels; ch++) {
        ws_mreq_fifo *q = &m->chan[ch];
        while (q->head && q->head->t_node <= now) {
            ws_mreq *r = ws_mreq_fifo_pop(q);
            uint32_t pb = packet_bytes(r, true);
            m->link_free[1] = later((double)now, m->link_free[1]) + pb / c->link_bpc;
            m->st.link_bytes[1] += pb;
            r->t_node = (uint64_t)ceil(m->link_free[1] + 0.5 * (double)c->link_latency);
            r->is_reply = true;
            ws_mreq_fifo_push(&m->back, r);
        }
    }
}

ws_mreq *ws_cpumem_top(const ws_cpumem *m, uint64_t now) {
    ws_mreq *r = m->back.head;
    return r && r->t_node <= now ? r : NULL;
}

void ws_cpumem_pop(ws_cpumem *m) {
    ws_mreq_fifo_pop(&m->back);
    m->held--;
}

bool ws_cpumem_busy(const ws_cpumem *m) { return m->held > 0; }
uint32_t ws_cpumem_held(const ws_cpumem *m) { return m->held; }
const ws_cpumem_stats *ws_cpumem_get_stats(const ws_cpumem *m) { return &m->st; }
