/* The memory side's shortcuts agree with the plain steps: several DRAM
 * cycles taken at once (ws_mempart_dram_cycles, idle ones counted together),
 * the L2 step passed by while every sub-partition is quiet, and a settled
 * idle channel's cycles counted apart, against one call per cycle without
 * those shortcuts (ws_mempart_set_plain), and a request copied from the pool
 * (ws_mreq_alloc_copy) against an allocation and a copy. */
#include <string.h>

#include "config/config.h"
#include "test.h"
#include "timing/mem/addrdec.h"
#include "timing/mem/partition.h"

typedef struct twin {
    ws_config c;
    ws_mreq_pool pool;
    ws_addrdec ad;
    ws_mempart *p;
} twin;

static int twin_setup(twin *e) {
    char err[256];
    ws_config_init(&e->c);
    ws_config_set(&e->c, "gpgpu_n_sub_partition_per_mchannel", "2", err, sizeof err);
    ws_config_set(&e->c, "gpgpu_cache:dl2", "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32", err,
                  sizeof err);
    ws_mreq_pool_init(&e->pool);
    if (ws_addrdec_init(&e->ad, &e->c, err, sizeof err)) return -1;
    e->p = ws_mempart_create(&e->c, 0, &e->pool, err, sizeof err);
    return e->p ? 0 : -1;
}

static void twin_teardown(twin *e) {
    ws_mempart_destroy(e->p);
    ws_mreq_pool_destroy(&e->pool);
    ws_config_free(&e->c);
}

/* A request of channel 0 at or after line *a (reads and writes, whole lines
   and single sectors); *a moves past it. */
static ws_mreq *chan0_req(twin *e, uint64_t *a, uint32_t kind) {
    for (;;) {
        ws_mreq *r = ws_mreq_alloc(&e->pool);
        r->addr = *a;
        *a += 128;
        bool write = kind % 3 == 2;
        r->data_size = kind & 1 ? 32 : 128;
        r->is_write = write;
        r->access = write ? WS_MA_GLOBAL_W : WS_MA_GLOBAL_R;
        r->sectors = kind & 1 ? 1 : 0xF;
        for (int i = 0; i < 16; i++) r->bytes[i] = 0xFF;
        ws_addrdec_decode(&e->ad, r);
        if (r->chan == 0) return r;
        ws_mreq_free(&e->pool, r);
    }
}

TEST(speed_mem_dram_cycles_match_single_steps) {
    twin a, b;
    CHECK(twin_setup(&a) == 0 && twin_setup(&b) == 0);
    ws_mempart_set_plain(b.p, true); /* and b takes none of the L2 and DRAM shortcuts */
    uint64_t la = 0, lb = 0, seed = 12345;
    uint32_t replies = 0;
    for (uint64_t now = 0; now < 6000; now++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t x = (uint32_t)(seed >> 33);
        /* bursts of requests, then long quiet stretches: both kinds of DRAM cycle */
        if (now % 1500 < 400 && x % 4 == 0) {
            ws_mreq *ra = chan0_req(&a, &la, x >> 8), *rb = chan0_req(&b, &lb, x >> 8);
            uint32_t k = ra->subpart % 2;
            CHECK_EQ_U64(rb->subpart % 2, k);
            if (!ws_subpart_full(a.p, k)) {
                ws_subpart_push(a.p, k, ra, now);
                ws_subpart_push(b.p, k, rb, now);
            } else {
                ws_mreq_free(&a.pool, ra);
                ws_mreq_free(&b.pool, rb);
            }
        }
        uint32_t n = (x >> 4) % 4; /* 0..3 DRAM cycles in this step */
        ws_mempart_dram_cycles(a.p, now, n);
        for (uint32_t i = 0; i < n; i++) ws_mempart_dram_cycle(b.p, now);
        ws_mempart_l2_cycle(a.p, now);
        ws_mempart_l2_cycle(b.p, now);
        for (uint32_t k = 0; k < 2; k++) {
            ws_mreq *ra = ws_subpart_top(a.p, k), *rb = ws_subpart_top(b.p, k);
            CHECK((ra == NULL) == (rb == NULL));
            if (!ra || !rb) continue;
            CHECK_EQ_U64(ra->addr, rb->addr);
            CHECK_EQ_U64(ra->uid, rb->uid);
            CHECK_EQ_U64(ra->t_returned, rb->t_returned);
            ws_subpart_pop(a.p, k);
            ws_subpart_pop(b.p, k);
            ws_mreq_free(&a.pool, ra);
            ws_mreq_free(&b.pool, rb);
            replies++;
        }
        CHECK(memcmp(ws_mempart_get_stats(a.p), ws_mempart_get_stats(b.p),
                     sizeof(ws_mempart_stats)) == 0);
        CHECK_EQ_U64(ws_mempart_busy(a.p), ws_mempart_busy(b.p));
    }
    CHECK(replies > 100);
    CHECK(!ws_mempart_busy(a.p));
    const ws_mempart_stats *s = ws_mempart_get_stats(a.p);
    CHECK(s->dram_n_nop > 1000 && s->dram_n_cmd > 100); /* both kinds were stepped */
    twin_teardown(&a);
    twin_teardown(&b);
}

TEST(speed_mem_alloc_copy_matches_alloc_and_copy) {
    ws_mreq_pool p, q;
    ws_mreq_pool_init(&p);
    ws_mreq_pool_init(&q);
    ws_mreq *src = ws_mreq_alloc(&p);
    ws_mreq_alloc(&q);
    src->addr = 0x12345680;
    src->data_size = 128;
    src->sectors = 0xA;
    src->bytes[3] = 0x7F;
    src->part_addr = 77;
    src->next = src; /* a link: not copied */
    ws_mreq *c = ws_mreq_alloc_copy(&p, src);
    ws_mreq *d = ws_mreq_alloc(&q);
    uint32_t uid = d->uid;
    *d = *src;
    d->uid = uid;
    d->next = NULL;
    CHECK(c != src);
    CHECK_EQ_U64(c->uid, 2);
    CHECK(memcmp(c, d, sizeof *c) == 0);
    CHECK_EQ_U64(p.live, 2);
    ws_mreq_pool_destroy(&p);
    ws_mreq_pool_destroy(&q);
}

/* Free requests moved between pools: counts kept, the moved ones handed
   out by the receiving pool (with its own request numbers), none lost. */
TEST(speed_mem_pool_move_free) {
    ws_mreq_pool a, b;
    ws_mreq_pool_init(&a);
    ws_mreq_pool_init(&b);
    ws_mreq *r[8];
    for (int i = 0; i < 8; i++) r[i] = ws_mreq_alloc(&a);
    uint32_t fa = a.nfree;
    for (int i = 0; i < 8; i++) ws_mreq_free(&a, r[i]);
    CHECK_EQ_U64(a.nfree, fa + 8);
    CHECK_EQ_U64(ws_mreq_pool_move_free(&a, &b, 5), 5);
    CHECK_EQ_U64(a.nfree, fa + 3);
    CHECK_EQ_U64(b.nfree, 5);
    CHECK_EQ_U64(b.nchunks, 0);
    for (int i = 0; i < 5; i++) {
        ws_mreq *x = ws_mreq_alloc(&b);
        CHECK(x == r[3 + i]); /* r7 .. r3 moved one by one: r3 on top */
        CHECK_EQ_U64(x->uid, (uint64_t)i + 1);
    }
    CHECK_EQ_U64(b.nfree, 0);
    CHECK_EQ_U64(b.nchunks, 0); /* no chunk carved while moved ones were there */
    ws_mreq_pool c;
    ws_mreq_pool_init(&c);
    CHECK_EQ_U64(ws_mreq_pool_move_free(&c, &b, 4), 0); /* an empty pool gives nothing */
    uint32_t before = a.nfree;
    CHECK_EQ_U64(ws_mreq_pool_move_free(&a, &c, before + 10), before);
    CHECK_EQ_U64(a.nfree, 0);
    CHECK_EQ_U64(c.nfree, before);
    ws_mreq_pool_destroy(&a);
    ws_mreq_pool_destroy(&b);
    ws_mreq_pool_destroy(&c);
}
