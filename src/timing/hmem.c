/* Heterogeneous memory: the GPU's side of the second memory node (see
 * hmem.h). */
#include "timing/hmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/mem/cpumem.h"

/* Latency histogram buckets (core cycles): [0,64), then doubling, then >= 2048. */
enum { HM_NBUCKET = 7 };

/* Running totals per node. */
typedef struct hm_node_tot {
    uint64_t accesses, bytes, lat_sum, lat_max;
    uint64_t hist[HM_NBUCKET];
} hm_node_tot;

/* One kernel's values, in the order of hm_stats. */
typedef struct hm_vals {
    uint64_t acc[WS_NODE_N], bytes[WS_NODE_N];
    double bw[WS_NODE_N], lat[WS_NODE_N];
    uint64_t hist[WS_NODE_N][HM_NBUCKET];
    uint64_t placed[WS_NODE_N], resident[WS_NODE_N], evicted[WS_NODE_N], fallbacks;
    uint64_t link_bytes[2];
    double ratio;
} hm_vals;

struct ws_hmem {
    ws_pages *pages;
    ws_cpumem *cpu;
    uint32_t port0, ports;
    uint32_t held_back;       /* replies in the port queues */
    ws_mreq_fifo *portq;      /* per port: replies past the link waiting for the interconnect */
    hm_node_tot tot[WS_NODE_N], tot0[WS_NODE_N];
    uint64_t rd_lat[3], rd_n[3];  /* data reads: L2 hits, GPU memory, CPU memory (Eq. 3) */
    ws_pages_stats pg0;
    ws_cpumem_stats cpu0;
};

double ws_hmem_gpu_peak_bw(const ws_config *c, double dram_mhz) {
    /* bytes per DRAM command cycle: chips x bus width x data : command ratio */
    double bpc = (double)(c->n_mem_per_ctrlr * c->dram_buswidth * c->dram_data_command_freq_ratio);
    return (double)c->n_mem * bpc * dram_mhz / 1e3;
}

ws_hmem *ws_hmem_create(const ws_config *c, double core_mhz, double dram_mhz, uint32_t port0,
                        char *err, size_t errlen) {
    ws_hmem *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->port0 = port0;
    h->ports = (uint32_t)c->hm_link_ports;
    if (!(h->portq = calloc(h->ports, sizeof *h->portq))) {
        snprintf(err, errlen, "out of memory");
        free(h);
        return NULL;
    }
    double bw_cpu = (double)c->hm_cpu_channels * c->hm_cpu_channel_bw;
    ws_pages_cfg pc = {
        .page_size = (uint64_t)c->hm_page_size,
        .cap = {(uint64_t)c->hm_gpu_pages, (uint64_t)c->hm_cpu_pages},
        .seed = (uint64_t)c->hm_seed,
        .policy = c->hm_page_policy,
        .env = {c->hm_gpu_bw > 0 ? c->hm_gpu_bw : ws_hmem_gpu_peak_bw(c, dram_mhz), bw_cpu,
                c->hm_profile},
    };
    /* GB/s to bytes per core cycle: 1e9 / (MHz * 1e6) */
    double per_cycle = 1e3 / core_mhz;
    ws_cpumem_cfg mc = {
        .channels = (uint32_t)c->hm_cpu_channels,
        .chan_bpc = c->hm_cpu_channel_bw * per_cycle,
        .link_bpc = c->hm_link_bw * per_cycle,
        .mem_latency = (uint64_t)c->hm_cpu_latency,
        .link_latency = (uint64_t)c->hm_link_latency,
        .queue = (uint32_t)c->hm_cpu_queue,
    };
    if (!(h->pages = ws_pages_create(&pc, err, errlen)) ||
        !(h->cpu = ws_cpumem_create(&mc, err, errlen))) {
        ws_hmem_destroy(h);
        return NULL;
    }
    return h;
}

void ws_hmem_destroy(ws_hmem *h) {
    if (!h) return;
    ws_pages_destroy(h->pages);
    ws_cpumem_destroy(h->cpu);
    free(h->portq);
    free(h);
}

ws_pages *ws_hmem_pages(ws_hmem *h) { return h->pages; }
uint32_t ws_hmem_ports(const ws_hmem *h) { return h->ports; }

void ws_hmem_from_icnt(ws_hmem *h, ws_icnt *n, uint64_t now) {
    /* each port takes one request per cycle, as a sub-partition does */
    for (uint32_t k = 0; k < h->ports && !ws_cpumem_full(h->cpu); k++) {
        ws_mreq *r = ws_icnt_pop(n, h->port0 + k);
        if (r) ws_cpumem_push(h->cpu, r, now);
    }
}

void ws_hmem_cycle(ws_hmem *h, uint64_t now) { ws_cpumem_cycle(h->cpu, now); }

void ws_hmem_to_icnt(ws_hmem *h, ws_icnt *n, uint32_t flit, uint64_t now) {
    /* replies past the link go back by the port their request came in by (ldst.c
       spreads them by CPU address); each port has its own queue, so a busy port
       does not hold the others' replies (as each sub-partition has its own) */
    ws_mreq *r;
    while ((r = ws_cpumem_top(h->cpu, now))) {
        ws_cpumem_pop(h->cpu);
        ws_mreq_fifo_push(&h->portq[(r->part_addr >> 8) % h->ports], r);
        h->held_back++;
    }
    for (uint32_t k = 0; k < h->ports; k++) {
        ws_mreq_fifo *q = &h->portq[k];
        if (!q->head) continue;
        uint32_t f = ws_mreq_flits(q->head, flit);
        if (!ws_icnt_has_buffer(n, h->port0 + k, f)) continue;
        r = ws_mreq_fifo_pop(q);
        ws_icnt_push(n, h->port0 + k, r->sm, r, f);
        h->held_back--;
    }
}

bool ws_hmem_busy(const ws_hmem *h) { return h->held_back || ws_cpumem_busy(h->cpu); }

void ws_hmem_reply(ws_hmem *h, const ws_mreq *r, uint64_t now) {
    if (r->access == WS_MA_INST) return;
    hm_node_tot *t = &h->tot[r->node ? WS_NODE_CPU : WS_NODE_GPU];
    uint64_t lat = now - r->t_created;
    t->accesses++;
    t->bytes += r->data_size;
    t->lat_sum += lat;
    if (lat > t->lat_max) t->lat_max = lat;
    unsigned b = 0;
    for (uint64_t lim = 64; b + 1 < HM_NBUCKET && lat >= lim; lim *= 2) b++;
    t->hist[b]++;
    if (r->is_write && !r->is_atomic) return;
    int k = r->node ? 2 : r->l2_waited ? 1 : 0;
    h->rd_lat[k] += lat;
    h->rd_n[k]++;
}

void ws_hmem_latencies(const ws_hmem *h, ws_page_counters *c) {
    double m[3];
    for (int k = 0; k < 3; k++) m[k] = h->rd_n[k] ? (double)h->rd_lat[k] / (double)h->rd_n[k] : 0;
    c->lat_l2 = m[0];
    c->lat_mem = m[1] > m[0] ? m[1] - m[0] : 0; /* beyond the L2 */
    c->lat_cpu = m[2];
}

void ws_hmem_kernel_start(ws_hmem *h) {
    memcpy(h->tot0, h->tot, sizeof h->tot);
    h->pg0 = *ws_pages_get_stats(h->pages);
    h->cpu0 = *ws_cpumem_get_stats(h->cpu);
}

uint64_t ws_hmem_period(const ws_hmem *h) { return ws_pages_period(h->pages); }
void ws_hmem_sample(ws_hmem *h, const ws_page_counters *c) { ws_pages_sample(h->pages, c); }
double ws_hmem_gpu_ratio(const ws_hmem *h) { return ws_pages_gpu_ratio(h->pages); }

#define HV(f) WS_SRC_U64, offsetof(hm_vals, f)
#define HD(f) WS_SRC_F64, offsetof(hm_vals, f)
#define S(nm, u, d, ...) {nm, .unit = u, .desc = d, .when = "-hm_enable 1", __VA_ARGS__}
#define HIST(node, i, k, nm) \
    S("hm_" node "_lat_" nm, "replies", node " memory replies with this latency (core cycles)", \
      .src = HV(hist[i][k]))
static const ws_stat_decl hm_stats[] = {
    S("hm_gpu_accesses", "requests", "data requests served by GPU memory (its L2 included)",
      .src = HV(acc[0])),
    S("hm_cpu_accesses", "requests", "data requests served by CPU memory over the link",
      .src = HV(acc[1])),
    S("hm_gpu_bytes", "B", "data bytes of the requests GPU memory served", .src = HV(bytes[0])),
    S("hm_cpu_bytes", "B", "data bytes of the requests CPU memory served", .src = HV(bytes[1])),
    S("hm_gpu_bw", "GB/s", "hm_gpu_bytes per simulated second", .src = HD(bw[0]),
      .agg = WS_AGG_WMEAN, .den_name = "gpu_sim_cycle"),
    S("hm_cpu_bw", "GB/s", "hm_cpu_bytes per simulated second", .src = HD(bw[1]),
      .agg = WS_AGG_WMEAN, .den_name = "gpu_sim_cycle"),
    S("hm_gpu_avg_latency", "cycles", "mean latency of GPU-memory requests (creation to reply)",
      .src = HD(lat[0]), .agg = WS_AGG_WMEAN, .den_name = "hm_gpu_accesses"),
    S("hm_cpu_avg_latency", "cycles", "mean latency of CPU-memory requests (creation to reply)",
      .src = HD(lat[1]), .agg = WS_AGG_WMEAN, .den_name = "hm_cpu_accesses"),
    HIST("gpu", 0, 0, "0_63"), HIST("gpu", 0, 1, "64_127"), HIST("gpu", 0, 2, "128_255"),
    HIST("gpu", 0, 3, "256_511"), HIST("gpu", 0, 4, "512_1023"), HIST("gpu", 0, 5, "1024_2047"),
    HIST("gpu", 0, 6, "2048_up"),
    HIST("cpu", 1, 0, "0_63"), HIST("cpu", 1, 1, "64_127"), HIST("cpu", 1, 2, "128_255"),
    HIST("cpu", 1, 3, "256_511"), HIST("cpu", 1, 4, "512_1023"), HIST("cpu", 1, 5, "1024_2047"),
    HIST("cpu", 1, 6, "2048_up"),
    S("hm_gpu_pages_placed", "pages", "pages placed in GPU memory (first touches)",
      .src = HV(placed[0])),
    S("hm_cpu_pages_placed", "pages", "pages placed in CPU memory (first touches)",
      .src = HV(placed[1])),
    S("hm_gpu_pages", "pages", "pages resident in GPU memory at the kernel's end",
      .src = HV(resident[0]), .agg = WS_AGG_LAST),
    S("hm_cpu_pages", "pages", "pages resident in CPU memory at the kernel's end",
      .src = HV(resident[1]), .agg = WS_AGG_LAST),
    S("hm_gpu_pages_evicted", "pages", "GPU pages that gave up their frame (both nodes full)",
      .src = HV(evicted[0])),
    S("hm_cpu_pages_evicted", "pages", "CPU pages that gave up their frame (both nodes full)",
      .src = HV(evicted[1])),
    S("hm_page_fallbacks", "pages", "pages placed in the other node because the chosen one was full",
      .src = HV(fallbacks)),
    S("hm_link_bytes_to_cpu", "B", "packet bytes over the CPU link towards CPU memory",
      .src = HV(link_bytes[0])),
    S("hm_link_bytes_from_cpu", "B", "packet bytes over the CPU link back to the GPU",
      .src = HV(link_bytes[1])),
    S("hm_gpu_page_ratio", "ratio", "the placement policy's GPU page fraction at the kernel's end",
      .src = HD(ratio), .agg = WS_AGG_LAST),
};
#undef HIST
#undef S
#undef HV
#undef HD
const ws_stat_table ws_hmem_stat_table = {"heterogeneous memory (-hm_enable)", hm_stats,
                                          sizeof hm_stats / sizeof hm_stats[0]};

static double per_s(uint64_t bytes, uint64_t cycles, double mhz) {
    return cycles ? (double)bytes / (double)cycles * mhz / 1e3 : 0.0;
}

void ws_hmem_add_stats(ws_hmem *h, ws_kernel_stats *ks, uint64_t cycles, double core_mhz) {
    hm_vals v = {0};
    for (int n = 0; n < WS_NODE_N; n++) {
        const hm_node_tot *a = &h->tot[n], *b = &h->tot0[n];
        v.acc[n] = a->accesses - b->accesses;
        v.bytes[n] = a->bytes - b->bytes;
        v.bw[n] = per_s(v.bytes[n], cycles, core_mhz);
        v.lat[n] = v.acc[n] ? (double)(a->lat_sum - b->lat_sum) / (double)v.acc[n] : 0.0;
        for (int k = 0; k < HM_NBUCKET; k++) v.hist[n][k] = a->hist[k] - b->hist[k];
    }
    const ws_pages_stats *p = ws_pages_get_stats(h->pages);
    for (int n = 0; n < WS_NODE_N; n++) {
        v.placed[n] = p->placed[n] - h->pg0.placed[n];
        v.evicted[n] = p->evicted[n] - h->pg0.evicted[n];
        v.resident[n] = p->resident[n];
    }
    v.fallbacks = p->fallbacks - h->pg0.fallbacks;
    const ws_cpumem_stats *m = ws_cpumem_get_stats(h->cpu);
    for (int d = 0; d < 2; d++) v.link_bytes[d] = m->link_bytes[d] - h->cpu0.link_bytes[d];
    v.ratio = ws_pages_gpu_ratio(h->pages);
    ws_kstats_add_table(ks, &ws_hmem_stat_table, &v);
}
