/* Interconnect: zero-load latency, one flit per output per cycle,
 * round-robin fairness, back-pressure from full ejection buffers. */
#include <stdlib.h>

#include "config/config.h"
#include "test.h"
#include "timing/mem/icnt.h"

enum { NSM = 4, NSUB = 2 };

static ws_icnt *make(const char *vcbuf) {
    ws_config c;
    char err[256];
    ws_config_init(&c);
    if (vcbuf) ws_config_set(&c, "vc_buf_size", vcbuf, err, sizeof err);
    ws_icnt *n = ws_icnt_create(&c, NSM, NSUB, err, sizeof err);
    ws_config_free(&c);
    return n;
}

TEST(icnt_one_packet_latency_empty_network) {
    ws_icnt *n = make(NULL);
    ws_mreq r = {0};
    CHECK(ws_icnt_has_buffer(n, 0, 1));
    ws_icnt_push(n, 0, NSM + 1, &r, 1);
    CHECK(ws_icnt_busy(n));
    int got = -1;
    for (int c = 0; c < 20 && got < 0; c++) {
        ws_icnt_cycle(n);
        if (ws_icnt_pop(n, NSM + 0)) got = -2; /* wrong destination */
        if (ws_icnt_pop(n, NSM + 1) == &r) got = c + 1;
    }
    /* input channel + VC alloc + switch alloc (the .icnt delays), then the
       output channel */
    CHECK_EQ_I64(got, 4);
    CHECK(!ws_icnt_busy(n));
    /* a reply: sub-partition -> SM, a 4-flit packet: 3 more cycles */
    ws_icnt_push(n, NSM + 1, 2, &r, 4);
    got = -1;
    for (int c = 0; c < 20 && got < 0; c++) {
        ws_icnt_cycle(n);
        if (ws_icnt_pop(n, 2) == &r) got = c + 1;
    }
    CHECK_EQ_I64(got, 7);
    const ws_icnt_stats *s = ws_icnt_get_stats(n);
    CHECK_EQ_U64(s->packets[0], 1);
    CHECK_EQ_U64(s->flits[1], 4);
    ws_icnt_destroy(n);
}

TEST(icnt_throughput_one_flit_per_output_per_cycle) {
    ws_icnt *n = make("64");
    ws_mreq r[NSM * 8];
    int k = 0;
    /* every SM sends 8 two-flit packets to sub-partition 0: 64 flits */
    for (int i = 0; i < 8; i++)
        for (int sm = 0; sm < NSM; sm++) {
            CHECK(ws_icnt_has_buffer(n, (uint32_t)sm, 2));
            ws_icnt_push(n, (uint32_t)sm, NSM, &r[k++], 2);
        }
    int popped = 0, last = 0;
    for (int c = 1; c <= 200 && popped < k; c++) {
        ws_icnt_cycle(n);
        while (ws_icnt_pop(n, NSM)) {
            popped++;
            last = c;
        }
    }
    CHECK_EQ_I64(popped, k);
    /* 64 flits through one output: 64 cycles after the first head is ready */
    CHECK(last >= 64 && last <= 64 + 4);
    ws_icnt_destroy(n);
}

TEST(icnt_round_robin_between_two_inputs) {
    ws_icnt *n = make("64");
    ws_mreq a[6], b[6];
    for (int i = 0; i < 6; i++) {
        ws_icnt_push(n, 0, NSM, &a[i], 1);
        ws_icnt_push(n, 1, NSM, &b[i], 1);
    }
    int na = 0, nb = 0, maxdiff = 0;
    for (int c = 0; c < 50; c++) {
        ws_icnt_cycle(n);
        ws_mreq *r;
        while ((r = ws_icnt_pop(n, NSM))) {
            if (r >= a && r < a + 6) na++;
            else nb++;
            int d = abs(na - nb);
            if (d > maxdiff) maxdiff = d;
        }
    }
    CHECK_EQ_I64(na, 6);
    CHECK_EQ_I64(nb, 6);
    CHECK(maxdiff <= 1); /* strictly alternating */
    ws_icnt_destroy(n);
}

TEST(icnt_backpressure_when_buffers_full) {
    ws_icnt *n = make("8");
    ws_mreq r[16];
    /* input buffer: 8 flits */
    ws_icnt_push(n, 0, NSM, &r[0], 4);
    ws_icnt_push(n, 0, NSM, &r[1], 4);
    CHECK(!ws_icnt_has_buffer(n, 0, 1));
    CHECK(ws_icnt_has_buffer(n, 1, 8));
    /* nobody pops at the destination: its 8-flit ejection buffer fills and
       the rest stays in the network */
    ws_icnt_push(n, 1, NSM, &r[2], 4);
    for (int c = 0; c < 50; c++) ws_icnt_cycle(n);
    /* round robin gave the output to r[0], then r[2]; r[1] waits at input 0 */
    CHECK(!ws_icnt_has_buffer(n, 0, 8));
    CHECK(ws_icnt_has_buffer(n, 1, 8));
    CHECK(ws_icnt_busy(n));
    int got = 0;
    for (int c = 0; c < 50; c++) {
        while (ws_icnt_pop(n, NSM)) got++;
        ws_icnt_cycle(n);
    }
    CHECK_EQ_I64(got, 3);
    CHECK(!ws_icnt_busy(n));
    CHECK(ws_icnt_has_buffer(n, 0, 8));
    ws_icnt_destroy(n);
}

/* More than 64 inputs (the post-Fermi machines have 80 SMs and 64 or more
 * sub-partitions): the round robin over the multi-word request sets grants
 * in the order of a plain loop from each output's pointer, across word
 * boundaries and around the end. */
TEST(icnt_round_robin_over_many_inputs) {
    enum { BIG_SM = 130, BIG_SUB = 70 };
    ws_config c;
    char err[256];
    ws_config_init(&c);
    ws_config_set(&c, "vc_buf_size", "64", err, sizeof err);
    ws_icnt *n = ws_icnt_create(&c, BIG_SM, BIG_SUB, err, sizeof err);
    ws_config_free(&c);
    CHECK(n != NULL);
    static const uint32_t src[] = {3, 63, 64, 100, 129};
    enum { NS = sizeof src / sizeof src[0] };
    ws_mreq r[2][NS];
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < NS; j++) ws_icnt_push(n, src[j], BIG_SM + 66, &r[k][j], 1);
    /* a busy reply output elsewhere must not disturb it */
    ws_mreq other;
    ws_icnt_push(n, BIG_SM + 65, 127, &other, 3);
    ws_mreq *order[2 * NS];
    int got = 0;
    for (int cyc = 0; cyc < 100 && got < 2 * NS; cyc++) {
        ws_icnt_cycle(n);
        ws_mreq *p;
        while (got < 2 * NS && (p = ws_icnt_pop(n, BIG_SM + 66))) order[got++] = p;
    }
    CHECK_EQ_I64(got, 2 * NS);
    for (int i = 0; i < got; i++) CHECK(order[i] == &r[i / NS][i % NS]);
    int back = 0;
    for (int cyc = 0; cyc < 20 && !back; cyc++) {
        ws_icnt_cycle(n);
        back = ws_icnt_pop(n, 127) == &other;
    }
    CHECK(back);
    CHECK(!ws_icnt_busy(n));
    ws_icnt_destroy(n);
}

/* ws_icnt_arrivals names exactly the SMs with a reply in (or entering)
 * their ejection buffer, by 64-SM words; a pop clears only its SM's bit
 * once its buffer is empty. */
TEST(icnt_arrivals_list_sms_with_replies) {
    enum { BIG_SM = 130, BIG_SUB = 4 };
    ws_config c;
    char err[256];
    ws_config_init(&c);
    ws_icnt *n = ws_icnt_create(&c, BIG_SM, BIG_SUB, err, sizeof err);
    ws_config_free(&c);
    CHECK(n != NULL);
    for (uint32_t w = 0; w < 3; w++) CHECK_EQ_U64(ws_icnt_arrivals(n, true, w), 0);
    ws_mreq r[3];
    static const uint32_t dst[] = {5, 64, 129};
    for (int j = 0; j < 3; j++) ws_icnt_push(n, BIG_SM + (uint32_t)j, dst[j], &r[j], 1);
    for (int cyc = 0; cyc < 10; cyc++) ws_icnt_cycle(n);
    CHECK_EQ_U64(ws_icnt_arrivals(n, true, 0), 1ull << 5);
    CHECK_EQ_U64(ws_icnt_arrivals(n, true, 1), 1ull);
    CHECK_EQ_U64(ws_icnt_arrivals(n, true, 2), 1ull << 1);
    CHECK(ws_icnt_pop(n, 64) == &r[1]);
    CHECK_EQ_U64(ws_icnt_arrivals(n, true, 0), 1ull << 5);
    CHECK_EQ_U64(ws_icnt_arrivals(n, true, 1), 0);
    CHECK(ws_icnt_pop(n, 5) == &r[0] && ws_icnt_pop(n, 129) == &r[2]);
    for (uint32_t w = 0; w < 3; w++) CHECK_EQ_U64(ws_icnt_arrivals(n, true, w), 0);
    ws_icnt_destroy(n);
}

/* The same for the sub-partitions (numbered from 0), across 64-output
 * words. */
TEST(icnt_arrivals_list_subpartitions_with_requests) {
    enum { SM = 4, BIG_SUB = 70 };
    ws_config c;
    char err[256];
    ws_config_init(&c);
    ws_icnt *n = ws_icnt_create(&c, SM, BIG_SUB, err, sizeof err);
    ws_config_free(&c);
    CHECK(n != NULL);
    CHECK_EQ_U64(ws_icnt_arrivals(n, false, 0) | ws_icnt_arrivals(n, false, 1), 0);
    ws_mreq r[3];
    static const uint32_t dst[] = {2, 64, 69};
    for (int j = 0; j < 3; j++) ws_icnt_push(n, (uint32_t)j, SM + dst[j], &r[j], 1);
    for (int cyc = 0; cyc < 10; cyc++) ws_icnt_cycle(n);
    CHECK_EQ_U64(ws_icnt_arrivals(n, false, 0), 1ull << 2);
    CHECK_EQ_U64(ws_icnt_arrivals(n, false, 1), 1ull | 1ull << 5);
    CHECK_EQ_U64(ws_icnt_arrivals(n, true, 0), 0); /* the other network's */
    CHECK(ws_icnt_pop(n, SM + 64) == &r[1]);
    CHECK_EQ_U64(ws_icnt_arrivals(n, false, 1), 1ull << 5);
    CHECK(ws_icnt_pop(n, SM + 2) == &r[0] && ws_icnt_pop(n, SM + 69) == &r[2]);
    CHECK_EQ_U64(ws_icnt_arrivals(n, false, 0) | ws_icnt_arrivals(n, false, 1), 0);
    ws_icnt_destroy(n);
}

/* A port passes one packet per (vc_alloc_delay + sw_alloc_delay) allocation
 * steps: the next packet is VC-allocated only after the last tail has been
 * switched, then switch-allocated (BookSim's router, GPGPU-Sim's fly
 * network). Internal speedup runs that many steps per cycle. Returns the
 * cycle the last of 16 one-flit packets arrives, all from input 0 to output
 * `spread ? different outputs : one output`. */
static int one_flit_train(const char *speedup, const char *vc_delay, bool spread) {
    ws_config c;
    char err[256];
    ws_config_init(&c);
    ws_config_set(&c, "vc_buf_size", "64", err, sizeof err);
    ws_config_set(&c, "internal_speedup", speedup, err, sizeof err);
    ws_config_set(&c, "vc_alloc_delay", vc_delay, err, sizeof err);
    ws_icnt *n = ws_icnt_create(&c, NSM, NSUB, err, sizeof err);
    ws_config_free(&c);
    ws_mreq r[16];
    for (int i = 0; i < 16; i++) ws_icnt_push(n, 0, NSM + (spread ? (uint32_t)i % NSUB : 0), &r[i], 1);
    int got = 0, last = 0;
    for (int cyc = 1; cyc <= 100 && got < 16; cyc++) {
        ws_icnt_cycle(n);
        for (uint32_t s = 0; s < NSUB; s++)
            while (ws_icnt_pop(n, NSM + s)) got++, last = cyc;
    }
    CHECK_EQ_I64(got, 16);
    ws_icnt_destroy(n);
    return last;
}

TEST(icnt_port_passes_one_packet_per_allocation_gap) {
    /* speedup 1, VC + switch allocation 2 steps: a packet every 2 cycles;
       the first arrives after 4 (zero-load latency) */
    CHECK_EQ_I64(one_flit_train("1.0", "1", false), 4 + 15 * 2);
    CHECK_EQ_I64(one_flit_train("1.0", "1", true), 4 + 15 * 2); /* the input limits too */
    /* speedup 2: two steps a cycle, a packet every cycle */
    CHECK_EQ_I64(one_flit_train("2.0", "1", false), 4 + 15);
    /* no VC allocation delay: a one-step gap, a packet every cycle */
    CHECK_EQ_I64(one_flit_train("1.0", "0", false), 3 + 15);
}

/* Heads not yet ready wait apart from the allocation's candidates and join
   them in the cycle they are ready: with a long routing delay, packets
   pushed into one input while its head waits (they become head behind it,
   ready or not), into an idle network, and into several inputs a cycle
   apart arrive when the full per-step test of every head had them arrive
   (cycles taken from the code before the waiting slots). */
TEST(icnt_waiting_heads_join_in_their_cycle) {
    ws_config c;
    char err[256];
    ws_config_init(&c);
    CHECK(ws_config_set(&c, "routing_delay", "5", err, sizeof err) == 0);
    ws_icnt *n = ws_icnt_create(&c, NSM, NSUB, err, sizeof err);
    ws_config_free(&c);
    CHECK(n != NULL);
    enum { NP = 7 };
    ws_mreq r[NP] = {{0}};
    /* push cycle, source node, destination node, flits */
    static const int plan[NP][4] = {{0, 0, NSM + 1, 1}, {3, 0, NSM + 1, 2}, {4, 0, NSM + 0, 1},
                                    {30, 1, NSM + 1, 1}, {31, 2, NSM + 1, 1}, {31, 3, NSM + 0, 3},
                                    {32, NSM + 0, 1, 4}};
    int got[NP];
    for (int k = 0; k < NP; k++) got[k] = -1;
    for (int cyc = 0; cyc < 80; cyc++) {
        for (int k = 0; k < NP; k++)
            if (plan[k][0] == cyc) ws_icnt_push(n, (uint32_t)plan[k][1], (uint32_t)plan[k][2], &r[k],
                                                (uint32_t)plan[k][3]);
        ws_icnt_cycle(n);
        for (uint32_t node = 0; node < NSM + NSUB; node++)
            for (const ws_mreq *m; (m = ws_icnt_pop(n, node));)
                for (int k = 0; k < NP; k++)
                    if (m == &r[k]) got[k] = cyc + 1;
    }
    static const int want[NP] = {9, 13, 14, 39, 41, 42, 44};
    for (int k = 0; k < NP; k++) CHECK_EQ_I64(got[k], want[k]);
    CHECK(!ws_icnt_busy(n));
    ws_icnt_destroy(n);
}

/* The allocator over per-output candidate sets grants what the one that
   visits every candidate input grants: two networks, one of each, take
   the same random traffic (bursts to a few hot outputs and quiet
   stretches, packets of 1-4 flits, several sources per cycle) and must
   deliver the same packets to the same nodes in the same cycles, under
   the default network, BookSim's allocation gap with speedup 1.5, a long
   routing delay, and more than 64 SMs (bit sets of two words). The
   second network injects with ws_icnt_try_push, which must refuse exactly
   when ws_icnt_has_buffer says no. */
static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static void alloc_agrees(const char *const *opts, uint32_t nsm, uint32_t nsub, uint64_t seed) {
    ws_config c;
    char err[256];
    ws_config_init(&c);
    for (const char *const *o = opts; o && *o; o += 2) CHECK(ws_config_set(&c, o[0], o[1], err, sizeof err) == 0);
    ws_icnt *a = ws_icnt_create(&c, nsm, nsub, err, sizeof err);
    ws_icnt *b = ws_icnt_create(&c, nsm, nsub, err, sizeof err);
    ws_config_free(&c);
    CHECK(a && b);
    ws_icnt_set_reference_alloc(b, true);
    enum { NREQ = 6000 };
    ws_mreq *r = calloc(NREQ, sizeof *r);
    CHECK(r != NULL);
    uint32_t used = 0, nodes = nsm + nsub;
    uint64_t delivered = 0;
    for (int cyc = 0; cyc < 3000; cyc++) {
        uint32_t phase = (uint32_t)(cyc / 200) % 3; /* 0: burst to hot outputs, 1: spread, 2: quiet */
        uint32_t tries = phase == 2 ? 1 : nodes / 2;
        for (uint32_t t = 0; t < tries && used < NREQ; t++) {
            uint32_t src = (uint32_t)(lcg(&seed) % nodes);
            uint32_t dst = src < nsm ? nsm + (uint32_t)(lcg(&seed) % (phase ? nsub : 2))
                                     : (uint32_t)(lcg(&seed) % (phase ? nsm : 3));
            uint32_t flits = 1 + (uint32_t)(lcg(&seed) % 4);
            bool ha = ws_icnt_has_buffer(a, src, flits);
            if (ha && phase == 2 && lcg(&seed) % 4) {
                CHECK(ws_icnt_has_buffer(b, src, flits));
                continue;
            }
            /* b injects as the GPU's serial steps do (ws_icnt_try_push) */
            bool hb = ws_icnt_try_push(b, src, dst, &r[used], flits);
            CHECK(ha == hb);
            if (!ha) continue;
            ws_icnt_push(a, src, dst, &r[used], flits);
            used++;
        }
        ws_icnt_cycle(a);
        ws_icnt_cycle(b);
        /* nodes take packets only now and then, so ejection buffers fill */
        for (uint32_t node = 0; node < nodes; node++) {
            if (lcg(&seed) % 3 == 0) continue;
            ws_mreq *x = ws_icnt_pop(a, node), *y = ws_icnt_pop(b, node);
            CHECK(x == y);
            delivered += x != NULL;
        }
    }
    CHECK(delivered > NREQ / 2);
    CHECK_EQ_U64(ws_icnt_get_stats(a)->total_latency[0], ws_icnt_get_stats(b)->total_latency[0]);
    CHECK_EQ_U64(ws_icnt_get_stats(a)->total_latency[1], ws_icnt_get_stats(b)->total_latency[1]);
    free(r);
    ws_icnt_destroy(a);
    ws_icnt_destroy(b);
}

TEST(icnt_output_candidates_grant_as_input_visits) {
    alloc_agrees(NULL, 15, 12, 1);
    static const char *const booksim[] = {"network_mode", "1", "internal_speedup", "1.5", NULL};
    alloc_agrees(booksim, 15, 12, 2);
    static const char *const slow[] = {"routing_delay", "4", "vc_buf_size", "4", NULL};
    alloc_agrees(slow, 8, 4, 3);
    alloc_agrees(NULL, 80, 70, 4);
}
