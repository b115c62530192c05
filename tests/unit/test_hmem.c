/* Heterogeneous memory: the BLPP model's equations and classification
 * (with the worked latency set of the placement chapter), the placement
 * policies' decisions on seeded random streams, the page table's routing,
 * capacity fallback and LRU eviction, the CPU node's latency and bandwidth
 * as one request stream sees them, and the refusal of bad values. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "config/config.h"
#include "policy/page/page.h"
#include "test.h"
#include "timing/gpu.h"
#include "timing/mem/cpumem.h"
#include "timing/mem/pages.h"

#define CHECK_NEAR(a, b, tol) \
    CHECK_MSG(fabs((double)(a) - (double)(b)) <= (tol), "%s = %.4f, want %.4f", #a, (double)(a), (double)(b))

/* The chapter's nine benchmarks: profile counters (its Table 7) and the
   latency ratio r_L its worked latency set gives (20, 200, 250, 450 cycles). */
static const struct {
    const char *name;
    double m1, m2, bm, r_l;
    int bw_sensitive;
} g_bench[] = {
    {"2MM", 0.53, 0.24, 227.5, 1.53, 1}, {"GE", 0.57, 0.36, 222.3, 1.41, 1},
    {"LM", 0.57, 0.00, 200.9, 1.67, 1},  {"SC", 0.62, 0.40, 149.0, 1.34, 1},
    {"ST", 0.60, 0.76, 162.7, 1.22, 1},  {"2DC", 0.23, 0.54, 188.0, 2.04, 0},
    {"BFS", 0.35, 0.36, 112.5, 1.77, 0}, {"CFD", 0.20, 0.71, 78.3, 2.06, 0},
    {"II", 0.03, 0.19, 33.0, 5.40, 0},
};

TEST(blpp_model_equations) {
    /* Eq. 2 at 200/80 GB/s */
    CHECK_NEAR(ws_blpp_p_bw(200, 80), 0.714, 0.001);
    CHECK_NEAR(ws_blpp_p_bw(200, 0), 1.0, 1e-12);
    ws_blpp_lat l = {20, 200, 250, 450};
    /* Eq. 3: 20 + 0.5 * (200 + 0.5 * 250) */
    CHECK_NEAR(ws_blpp_lat_gpu(&l, 0.5, 0.5), 182.5, 1e-9);
    /* Eq. 5 = Eq. 8 (the bound vs BAP): with L_C = L_G it is 1 */
    ws_blpp_lat same = {100, 0, 0, 100};
    CHECK_NEAR(ws_blpp_r_lat(&same, 200, 80, 0.3, 0.3), 1.0, 1e-12);
}

TEST(blpp_classifies_the_chapters_benchmarks) {
    ws_blpp_lat l = {20, 200, 250, 450};
    for (size_t i = 0; i < sizeof g_bench / sizeof g_bench[0]; i++) {
        double r = ws_blpp_r_lat(&l, 200, 80, g_bench[i].m1, g_bench[i].m2);
        CHECK_MSG(fabs(r - g_bench[i].r_l) < 0.01, "%s: r_L %.3f, want %.2f", g_bench[i].name, r,
                  g_bench[i].r_l);
        ws_page_counters c = {g_bench[i].m1, g_bench[i].m2, g_bench[i].bm};
        double p = ws_blpp_p_opt(&l, 200, 80, &c, 1.8, 140);
        double want = g_bench[i].bw_sensitive ? 200.0 / 280.0 : 1.0;
        CHECK_MSG(fabs(p - want) < 1e-9, "%s: p %.3f, want %.3f", g_bench[i].name, p, want);
    }
    /* either condition alone keeps every page in GPU memory */
    ws_page_counters slow = {0.03, 0.19, 500}, quiet = {0.6, 0.76, 100};
    CHECK(ws_blpp_p_opt(&l, 200, 80, &slow, 1.8, 140) == 1.0);
    CHECK(ws_blpp_p_opt(&l, 200, 80, &quiet, 1.8, 140) == 1.0);
}

static ws_pages *make_pages(const char *policy, uint64_t gpu_cap, uint64_t cpu_cap, uint64_t seed,
                            const char *profile) {
    ws_pages_cfg c = {.page_size = 4096, .cap = {gpu_cap, cpu_cap}, .seed = seed,
                      .policy = policy, .env = {200, 80, profile}};
    char err[300];
    ws_pages *pt = ws_pages_create(&c, err, sizeof err);
    CHECK_MSG(pt != NULL, "%s: %s", policy, err);
    return pt;
}

/* Pages 0..n-1 touched once each, in order; returns how many went to GPU memory. */
static unsigned touch_pages(ws_pages *pt, unsigned n, unsigned *nodes) {
    unsigned gpu = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned node = ws_pages_touch(pt, 0x100000000ull + (uint64_t)i * 4096 + 12, i, NULL);
        if (nodes) nodes[i] = node;
        gpu += node == WS_NODE_GPU;
    }
    return gpu;
}

TEST(page_policies_decide_by_their_ratio) {
    enum { N = 20000 };
    static unsigned a[N], b[N];
    ws_pages *pt;
    CHECK((pt = make_pages("local", 0, 0, 1, NULL)) && touch_pages(pt, N, NULL) == N);
    ws_pages_destroy(pt);
    CHECK((pt = make_pages("static:0", 0, 0, 1, NULL)) && touch_pages(pt, N, NULL) == 0);
    ws_pages_destroy(pt);
    CHECK((pt = make_pages("static:1", 0, 0, 1, NULL)) && touch_pages(pt, N, NULL) == N);
    ws_pages_destroy(pt);
    /* interleave alternates in allocation order, starting in GPU memory */
    pt = make_pages("interleave", 0, 0, 1, NULL);
    touch_pages(pt, 8, a);
    for (unsigned i = 0; i < 8; i++) CHECK_EQ_U64(a[i], i % 2);
    ws_pages_destroy(pt);
    /* random placement: the fraction is p (binomial: sigma = 0.0032 at 20000 pages) and the
       stream is the seed's */
    static const double ps[] = {0.25, 0.6, 0.9};
    for (int k = 0; k < 3; k++) {
        char spec[32];
        snprintf(spec, sizeof spec, "static:%g", ps[k]);
        pt = make_pages(spec, 0, 0, 7, NULL);
        CHECK_NEAR((double)touch_pages(pt, N, a) / N, ps[k], 0.015);
        ws_pages_destroy(pt);
        pt = make_pages(spec, 0, 0, 7, NULL);
        touch_pages(pt, N, b);
        CHECK(!memcmp(a, b, sizeof a));
        ws_pages_destroy(pt);
    }
    pt = make_pages("static:0.5", 0, 0, 8, NULL);
    touch_pages(pt, N, b);
    CHECK(memcmp(a, b, sizeof a) != 0); /* another seed, another stream */
    ws_pages_destroy(pt);
    /* bap: BG / (BG + BC) = 0.714 */
    pt = make_pages("bap", 0, 0, 3, NULL);
    CHECK_NEAR(ws_pages_gpu_ratio(pt), 0.714, 0.001);
    CHECK_NEAR((double)touch_pages(pt, N, NULL) / N, 0.714, 0.015);
    ws_pages_destroy(pt);
}

TEST(page_policy_blpp_reads_its_profile_and_dblpp_samples) {
    char path[] = "/tmp/warpsim-profile-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    char err[300];
    ws_page_counters lm = {0.57, 0.0, 200.9}, got;
    CHECK(ws_page_profile_write(path, &lm, err, sizeof err) == 0);
    CHECK(ws_page_profile_read(path, &got, err, sizeof err) == 0);
    CHECK_NEAR(got.bm_gbps, 200.9, 1e-3);
    ws_pages *pt = make_pages("blpp", 0, 0, 1, path); /* LM: bandwidth-sensitive */
    CHECK(pt && fabs(ws_pages_gpu_ratio(pt) - 200.0 / 280) < 1e-9);
    ws_pages_destroy(pt);
    ws_page_counters ii = {0.03, 0.19, 33.0};
    CHECK(ws_page_profile_write(path, &ii, err, sizeof err) == 0);
    pt = make_pages("blpp", 0, 0, 1, path); /* II: not */
    CHECK(pt && ws_pages_gpu_ratio(pt) == 1.0);
    ws_pages_destroy(pt);
    /* measured latencies: 2DC's counters are "other" under the set (r_L 2.04) but
       bandwidth-sensitive with a slow L2 and GPU memory (r_L 1.45 at 400 + 500 cycles) */
    ws_page_counters dc = {0.23, 0.54, 188.0, 400, 500, 0};
    CHECK(ws_page_profile_write(path, &dc, err, sizeof err) == 0);
    CHECK(ws_page_profile_read(path, &got, err, sizeof err) == 0);
    CHECK(got.lat_l2 == 400 && got.lat_mem == 500 && got.lat_cpu == 0);
    pt = make_pages("blpp", 0, 0, 1, path);
    CHECK(pt && ws_pages_gpu_ratio(pt) == 1.0);
    ws_pages_destroy(pt);
    pt = make_pages("blpp:lat=measured", 0, 0, 1, path);
    CHECK(pt && fabs(ws_pages_gpu_ratio(pt) - 200.0 / 280) < 1e-9);
    ws_pages_destroy(pt);
    /* a broken profile is refused with the line */
    FILE *f = fopen(path, "w");
    fputs("l1d_miss_rate 0.5\nl2_miss_rate x\n", f);
    fclose(f);
    ws_pages_cfg c = {.page_size = 4096, .policy = "blpp", .env = {200, 80, path}};
    CHECK(ws_pages_create(&c, err, sizeof err) == NULL);
    CHECK_STR_CONTAINS(err, ":2: expected");
    c.env.profile = NULL;
    CHECK(ws_pages_create(&c, err, sizeof err) == NULL);
    CHECK_STR_CONTAINS(err, "-hm_profile");
    remove(path);
    /* dblpp: all GPU until the first sample, then the model's ratio for new pages */
    pt = make_pages("dblpp:period=1000", 0, 0, 1, NULL);
    CHECK_EQ_U64(ws_pages_period(pt), 1000);
    CHECK_EQ_U64(touch_pages(pt, 100, NULL), 100);
    ws_pages_sample(pt, &lm);
    CHECK_NEAR(ws_pages_gpu_ratio(pt), 200.0 / 280, 1e-9);
    unsigned gpu = 0;
    for (unsigned i = 100; i < 10100; i++)
        gpu += ws_pages_touch(pt, (uint64_t)i * 4096, i, NULL) == WS_NODE_GPU;
    CHECK_NEAR(gpu / 10000.0, 0.714, 0.02);
    /* no migration: the first pages are still in GPU memory */
    for (unsigned i = 0; i < 100; i++)
        CHECK(ws_pages_lookup(pt, 0x100000000ull + (uint64_t)i * 4096, NULL) == WS_NODE_GPU);
    ws_pages_destroy(pt);
}

TEST(page_table_routes_by_page) {
    ws_pages *pt = make_pages("interleave", 0, 0, 1, NULL);
    uint64_t phys;
    CHECK(ws_pages_lookup(pt, 0x5000, NULL) == -1);           /* nothing until touched */
    CHECK(ws_pages_touch(pt, 0x5010, 1, &phys) == WS_NODE_GPU); /* first page: GPU */
    CHECK_EQ_U64(phys, 0x5010);                                /* GPU frames keep the address */
    CHECK(ws_pages_touch(pt, 0x9abc, 2, &phys) == WS_NODE_CPU);
    CHECK_EQ_U64(phys, 0xabc);                                 /* CPU frame 0 */
    CHECK(ws_pages_touch(pt, 0x5ffc, 3, &phys) == WS_NODE_GPU); /* same page, same node */
    CHECK(ws_pages_touch(pt, 0x9000, 4, &phys) == WS_NODE_CPU);
    CHECK(ws_pages_touch(pt, 0x20000, 5, &phys) == WS_NODE_GPU);
    CHECK(ws_pages_touch(pt, 0x30004, 6, &phys) == WS_NODE_CPU);
    CHECK_EQ_U64(phys, 0x1004);                                /* CPU frame 1 */
    const ws_pages_stats *s = ws_pages_get_stats(pt);
    CHECK_EQ_U64(s->placed[0], 2);
    CHECK_EQ_U64(s->placed[1], 2);
    ws_pages_destroy(pt);
    /* many pages: the table grows and still finds every one */
    pt = make_pages("static:0.5", 0, 0, 5, NULL);
    enum { N = 50000 };
    static unsigned nodes[N];
    touch_pages(pt, N, nodes);
    for (unsigned i = 0; i < N; i++)
        CHECK(ws_pages_lookup(pt, 0x100000000ull + (uint64_t)i * 4096 + 4095, NULL) == (int)nodes[i]);
    ws_pages_destroy(pt);
}

TEST(page_capacity_fallback_and_lru_eviction) {
    /* GPU memory holds 3 pages: the 4th and 5th go to CPU memory (Alg. 6's fallback) */
    ws_pages *pt = make_pages("local", 3, 2, 1, NULL);
    unsigned n[5];
    touch_pages(pt, 5, n);
    CHECK(n[0] == 0 && n[1] == 0 && n[2] == 0 && n[3] == 1 && n[4] == 1);
    CHECK_EQ_U64(ws_pages_get_stats(pt)->fallbacks, 2);
    /* both full: the least recently used GPU page gives up its frame */
    uint64_t base = 0x100000000ull;
    ws_pages_touch(pt, base + 0 * 4096, 10, NULL); /* page 0 used again: page 1 is LRU */
    CHECK(ws_pages_touch(pt, base + 7 * 4096, 11, NULL) == WS_NODE_GPU);
    CHECK(ws_pages_lookup(pt, base + 1 * 4096, NULL) == -1);
    CHECK(ws_pages_lookup(pt, base + 0 * 4096, NULL) == WS_NODE_GPU);
    const ws_pages_stats *s = ws_pages_get_stats(pt);
    CHECK_EQ_U64(s->evicted[0], 1);
    CHECK_EQ_U64(s->resident[0], 3);
    CHECK_EQ_U64(s->resident[1], 2);
    /* the evicted page is placed again on its next touch (evicting page 2 now) */
    CHECK(ws_pages_touch(pt, base + 1 * 4096, 12, NULL) == WS_NODE_GPU);
    CHECK(ws_pages_lookup(pt, base + 2 * 4096, NULL) == -1);
    ws_pages_destroy(pt);
}

/* The CPU node alone: requests pushed at given cycles, replies timed. */
static ws_cpumem *make_node(double chan_gbs, double link_gbs) {
    const double mhz = 700, per = 1e3 / mhz;
    ws_cpumem_cfg c = {.channels = 4, .chan_bpc = chan_gbs * per, .link_bpc = link_gbs * per,
                       .mem_latency = 350, .link_latency = 100, .queue = 100000};
    char err[100];
    ws_cpumem *m = ws_cpumem_create(&c, err, sizeof err);
    CHECK(m != NULL);
    return m;
}

/* n reads of 128 B at consecutive lines, pushed at cycle 0; the cycle the
   first and the last reply leave the link. */
static void stream(ws_cpumem *m, ws_mreq *r, unsigned n, uint64_t *first, uint64_t *last) {
    for (unsigned i = 0; i < n; i++) {
        memset(&r[i], 0, sizeof r[i]);
        r[i].data_size = 128;
        r[i].part_addr = (uint64_t)i * 128;
        ws_cpumem_push(m, &r[i], 0);
    }
    unsigned got = 0;
    *first = 0;
    for (uint64_t now = 0; got < n && now < 10000000; now++) {
        ws_cpumem_cycle(m, now);
        while (ws_cpumem_top(m, now)) {
            ws_cpumem_pop(m);
            if (!got++) *first = now;
            *last = now;
        }
    }
    CHECK_EQ_U64(got, n);
}

TEST(cpu_node_latency_and_bandwidth_of_one_stream) {
    static ws_mreq r[4000];
    uint64_t first, last;
    /* one read: 100 cycles of link, 350 of memory, and the transfers (8 B and 136 B at
       160 GB/s, 128 B at 20 GB/s: 4.5 cycles), rounded up */
    ws_cpumem *m = make_node(20, 160);
    stream(m, r, 1, &first, &last);
    CHECK_MSG(first >= 450 && first <= 457, "one read: %llu cycles", (unsigned long long)first);
    ws_cpumem_destroy(m);
    /* a long stream over the 4 channels: 4 x 20 GB/s = 114.3 B per 700 MHz cycle */
    m = make_node(20, 160);
    stream(m, r, 4000, &first, &last);
    double bpc = 3999.0 * 128 / (double)(last - first);
    CHECK_MSG(fabs(bpc / (80e3 / 700) - 1) < 0.02, "channel-bound stream: %.2f B/cycle", bpc);
    CHECK_EQ_U64(ws_cpumem_get_stats(m)->data_bytes, 4000 * 128);
    ws_cpumem_destroy(m);
    /* a narrow link (40 GB/s = 57.1 B/cycle of packets, 136 B per 128 B read) limits it */
    m = make_node(20, 40);
    stream(m, r, 4000, &first, &last);
    bpc = 3999.0 * 128 / (double)(last - first);
    CHECK_MSG(fabs(bpc / (40e3 / 700 * 128 / 136) - 1) < 0.02, "link-bound stream: %.2f B/cycle",
              bpc);
    ws_cpumem_destroy(m);
}

/* The timing model's error for one bad setting (NULL when it is accepted). */
static char *gpu_error(const char *name, const char *value, char *err, size_t len) {
    ws_config c;
    ws_config_init(&c);
    int rc = ws_config_set(&c, "hm_enable", "1", err, len);
    if (!rc) rc = ws_config_set(&c, name, value, err, len);
    ws_gpu *g = rc ? NULL : ws_gpu_create(&c, err, len);
    ws_gpu_destroy(g);
    ws_config_free(&c);
    return rc || !g ? err : NULL;
}

TEST(hm_bad_values_are_refused_with_the_allowed_range) {
    char err[400];
    CHECK(gpu_error("hm_page_size", "8192", err, sizeof err) == NULL);
    CHECK(gpu_error("hm_page_size", "3000", err, sizeof err) != NULL);
    CHECK_STR_CONTAINS(err, "not a power of two (allowed: powers of two from 128");
    CHECK(gpu_error("hm_cpu_channels", "0", err, sizeof err) != NULL);
    CHECK_STR_CONTAINS(err, "allowed: 1..64");
    CHECK(gpu_error("hm_page_policy", "static:1.5", err, sizeof err) != NULL);
    CHECK_STR_CONTAINS(err, "a number in [0, 1]");
    CHECK(gpu_error("hm_page_policy", "static:-0.1", err, sizeof err) != NULL);
    CHECK(gpu_error("hm_page_policy", "nearest", err, sizeof err) != NULL);
    CHECK_STR_CONTAINS(err, "unknown policy (known: local interleave bap static blpp dblpp)");
    CHECK(gpu_error("hm_cpu_channel_bw", "0", err, sizeof err) != NULL);
    CHECK(gpu_error("hm_page_policy", "dblpp:period=5000:theta_l=2", err, sizeof err) == NULL);
}
