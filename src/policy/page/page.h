/* Page placement policies: where a page of global data lives when it is
 * first touched, in a GPU with two memory nodes (GPU memory and CPU memory
 * reached over a link; timing/mem/pages.h owns the page table).
 *
 * A policy answers one question, place(): GPU or CPU for the page being
 * allocated now, given a uniform random number r in [0, 1) from the page
 * table's seeded stream (so random placement is reproducible) and the count
 * of pages placed so far. Policies that adapt at run time (dblpp) also get
 * the application counters every period() core cycles (sample()).
 *
 * One file per policy, one registry line (registry.c). The bandwidth- and
 * latency-aware model shared by bap, blpp and dblpp (the equations of the
 * BLPP dissertation chapter: optimal bandwidth ratio, effective latency,
 * latency ratio, classification) is in blpp_model.c. */
#ifndef WARPSIM_POLICY_PAGE_H
#define WARPSIM_POLICY_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/params.h"

enum { WS_NODE_GPU = 0, WS_NODE_CPU = 1, WS_NODE_N = 2 };

/* What the owner tells a policy at creation. */
typedef struct ws_page_env {
    double bw_gpu, bw_cpu;   /* GB/s: GPU memory, CPU memory (the BG and BC of the model) */
    const char *profile;     /* the profile file (-hm_profile), "" or NULL: none */
} ws_page_env;

/* The application counters the BLPP model classifies by: L1D and L2 miss
 * rates and the core <-> memory-partition traffic in GB/s (all interconnect
 * data, L2 hits included). */
typedef struct ws_page_counters {
    double l1d_miss_rate, l2_miss_rate, bm_gbps;
    /* measured mean latencies (core cycles; 0: not measured): an L2 hit, GPU memory beyond
       the L2, CPU memory (a heterogeneous-memory run's replies, creation to arrival) */
    double lat_l2, lat_mem, lat_cpu;
} ws_page_counters;

typedef struct ws_page_policy {
    const char *name;
    const char *doc;
    const ws_param_def *params;
    unsigned nparams;
    void *(*create)(ws_params *p, const ws_page_env *env, char *err, size_t errlen);
    void (*destroy)(void *st);
    /* node (WS_NODE_GPU or WS_NODE_CPU) for a page allocated now */
    unsigned (*place)(void *st, double r, uint64_t placed);
    /* the fraction of new pages it sends to GPU memory now (reports, time series) */
    double (*gpu_ratio)(const void *st);
    /* run-time counters: period in core cycles (NULL or 0: none) and the sample */
    uint64_t (*period)(const void *st);
    void (*sample)(void *st, const ws_page_counters *c);
} ws_page_policy;

/* A policy instance (what the page table holds). */
typedef struct ws_page_placer {
    const ws_page_policy *policy;
    void *state;
} ws_page_placer;

const ws_page_policy *ws_page_find(const char *name);
ws_policy_info ws_page_info(unsigned i); /* catalog; .name NULL past the end */
/* spec "name[:args]" (-hm_page_policy). 0, or -1 with err. */
int ws_page_create(ws_page_placer *pl, const char *spec, const ws_page_env *env, char *err,
                   size_t errlen);
void ws_page_destroy(ws_page_placer *pl);

/* ---- the BLPP model (blpp_model.c) ---- */
/* Latencies of Eq. 3 and the CPU side, core cycles. */
typedef struct ws_blpp_lat {
    double l1d, l2, mem, cpu;  /* L_G,L1D, L_G,L2, L_G,M (beyond the L2), L_C (DRAM + link) */
} ws_blpp_lat;
/* Eq. 2: the GPU page fraction that balances both nodes' transfer times. */
double ws_blpp_p_bw(double bw_gpu, double bw_cpu);
/* Eq. 3: effective GPU-memory latency through the caches. */
double ws_blpp_lat_gpu(const ws_blpp_lat *l, double m_l1d, double m_l2);
/* Eq. 5: mean latency under Eq. 2's placement over the all-GPU latency. */
double ws_blpp_r_lat(const ws_blpp_lat *l, double bw_gpu, double bw_cpu, double m_l1d,
                     double m_l2);
/* Eq. 6: Eq. 2's fraction when r_L < theta_l and traffic > theta_b (GB/s), else 1
 * (Eq. 4: all pages in GPU memory). */
double ws_blpp_p_opt(const ws_blpp_lat *l, double bw_gpu, double bw_cpu,
                     const ws_page_counters *c, double theta_l, double theta_b);

/* The model's parameters, shared by blpp and dblpp: the latency set
   defaults to the one that reproduces the chapter's classification of its
   nine benchmarks (its Table 7), the thresholds to its footnote's values. */
#define WS_BLPP_PARAMS                                                                         \
    WS_DOUBLE("l1d", "20", 0, 1e6, "L_G,L1D: L1D hit latency, core cycles"),                   \
    WS_DOUBLE("l2", "200", 0, 1e6, "L_G,L2: L2 hit latency, core cycles"),                     \
    WS_DOUBLE("mem", "250", 0, 1e6, "L_G,M: GPU memory latency beyond the L2, core cycles"),   \
    WS_DOUBLE("cpu", "450", 0, 1e6, "L_C: CPU memory latency with the link, core cycles"),    \
    WS_DOUBLE("theta_l", "1.8", 0, 1e6, "latency-ratio threshold of the classification"),      \
    WS_DOUBLE("theta_b", "140", 0, 1e9, "traffic threshold of the classification, GB/s"),      \
    WS_ENUM("lat", "set", "set|measured", "latencies: the set above, or the ones the counters "   \
            "carry where measured (L2 hit, GPU memory, CPU memory; l1d stays)")
/* The model's inputs from a parsed WS_BLPP_PARAMS table. */
typedef struct ws_blpp_cfg {
    ws_blpp_lat lat;
    double theta_l, theta_b, bw_gpu, bw_cpu;
    bool measured;  /* lat=measured */
} ws_blpp_cfg;
void ws_blpp_cfg_read(ws_blpp_cfg *c, ws_params *p, const ws_page_env *env);
/* Eq. 6 for counters c under the configuration (its latencies, or c's measured ones). */
double ws_blpp_decide(const ws_blpp_cfg *m, const ws_page_counters *c);

/* Profile files: "key value" lines (l1d_miss_rate, l2_miss_rate, bm_gbps required;
 * lat_l2, lat_mem, lat_cpu where measured), '#' comments. 0, or -1 with err. */
int ws_page_profile_read(const char *path, ws_page_counters *c, char *err, size_t errlen);
int ws_page_profile_write(const char *path, const ws_page_counters *c, char *err, size_t errlen);

#endif
