/* Memory partition: a sectored L2 miss goes to DRAM and comes back as one
 * reply packet per sector; a hit is answered after the ROP latency; writes
 * are acknowledged per sector; memcpy-filled data hits. */
#include "config/config.h"
#include "test.h"
#include "timing/mem/addrdec.h"
#include "timing/mem/partition.h"

typedef struct env {
    ws_config c;
    ws_mreq_pool pool;
    ws_addrdec ad;
    ws_mempart *p;
} env;

static int setup(env *e) {
    char err[256];
    ws_config_init(&e->c);
    ws_config_set(&e->c, "gpgpu_n_sub_partition_per_mchannel", "2", err, sizeof err);
    ws_config_set(&e->c, "gpgpu_cache:dl2", "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32", err, sizeof err);
    ws_mreq_pool_init(&e->pool);
    if (ws_addrdec_init(&e->ad, &e->c, err, sizeof err)) return -1;
    e->p = ws_mempart_create(&e->c, 0, &e->pool, err, sizeof err);
    return e->p ? 0 : -1;
}
static void teardown(env *e) {
    ws_mempart_destroy(e->p);
    ws_mreq_pool_destroy(&e->pool);
    ws_config_free(&e->c);
}

static ws_mreq *req(env *e, uint64_t addr, bool write) {
    ws_mreq *r = ws_mreq_alloc(&e->pool);
    r->addr = addr;
    r->data_size = 128;
    r->is_write = write;
    r->access = write ? WS_MA_GLOBAL_W : WS_MA_GLOBAL_R;
    r->sectors = 0xF;
    for (int i = 0; i < 16; i++) r->bytes[i] = 0xFF;
    ws_addrdec_decode(&e->ad, r);
    return r;
}

/* Run until sub-partition k has a reply; its cycle, or -1. */
static int64_t run_until_reply(env *e, uint32_t k, uint64_t *now, ws_mreq **out) {
    for (int i = 0; i < 2000; i++, (*now)++) {
        ws_mempart_dram_cycle(e->p, *now);
        ws_mempart_l2_cycle(e->p, *now);
        ws_mreq *r = ws_subpart_top(e->p, k);
        if (r) {
            ws_subpart_pop(e->p, k);
            *out = r;
            return (int64_t)(*now)++;
        }
    }
    return -1;
}

/* Collect the four sector replies of one request (each its own packet with
 * one sector bit, the request's origin, 32 B of data); frees them and
 * returns the cycle of the last one, or -1. */
static int64_t collect4(env *e, uint32_t k, uint64_t *now, void *origin, bool write) {
    uint8_t seen = 0;
    int64_t t = -1;
    for (int n = 0; n < 4; n++) {
        ws_mreq *got = NULL;
        t = run_until_reply(e, k, now, &got);
        if (t < 0) return -1;
        CHECK(got->is_reply && got->is_write == write && got->origin == origin);
        CHECK(got->data_size == 32 && __builtin_popcount(got->sectors) == 1);
        CHECK(!(seen & got->sectors));
        seen |= got->sectors;
        if (write) CHECK_EQ_U64(ws_mreq_flits(got, 40), 1); /* header-only acks */
        ws_mreq_free(&e->pool, got);
    }
    CHECK_EQ_U64(seen, 0xF);
    return t;
}

TEST(partition_read_miss_then_hit) {
    env e;
    CHECK(setup(&e) == 0);
    if (!e.p) return;
    uint64_t now = 0;
    int origin;
    ws_mreq *r = req(&e, 0, false); /* channel 0, sub-partition 0 */
    r->origin = &origin;
    CHECK_EQ_U64(r->subpart, 0);
    ws_subpart_push(e.p, 0, r, now);
    int64_t t_miss = collect4(&e, 0, &now, &origin, false);
    /* ROP 120 + DRAM latency 100 + DRAM service: well above a hit */
    CHECK(t_miss > 220 && t_miss < 400);
    const ws_mempart_stats *s = ws_mempart_get_stats(e.p);
    /* the first sector allocates the line, the other three are sector misses */
    CHECK_EQ_U64(s->l2_access[0][WS_CACHE_MISS], 1);
    CHECK_EQ_U64(s->l2_access[0][WS_CACHE_SECTOR_MISS], 3);
    CHECK_EQ_U64(s->dram_reqs, 4);
    CHECK(!ws_mempart_busy(e.p));
    /* the same line again: four sector hits, answered after the ROP delay */
    r = req(&e, 0, false);
    r->origin = &origin;
    uint64_t t0 = now;
    ws_subpart_push(e.p, 0, r, now);
    int64_t t_hit = collect4(&e, 0, &now, &origin, false);
    CHECK(t_hit - (int64_t)t0 >= 120 && t_hit - (int64_t)t0 <= 130);
    CHECK_EQ_U64(ws_mempart_get_stats(e.p)->l2_access[0][WS_CACHE_HIT], 4);
    CHECK_EQ_U64(e.pool.live, 0); /* the partition freed the parents */
    teardown(&e);
}

TEST(partition_write_ack_and_memcpy_fill) {
    env e;
    CHECK(setup(&e) == 0);
    if (!e.p) return;
    uint64_t now = 0;
    int origin;
    ws_mreq *w = req(&e, 0x600, true); /* channel 0, sub-partition 1 */
    w->origin = &origin;
    CHECK_EQ_U64(w->subpart, 1);
    ws_subpart_push(e.p, 1, w, now);
    int64_t t = collect4(&e, 1, &now, &origin, true);
    CHECK(t >= 120 && t < 134); /* lazy fetch: acknowledged without DRAM */
    CHECK_EQ_U64(ws_mempart_get_stats(e.p)->dram_reqs, 0);
    /* data copied by the host is in L2 */
    for (uint64_t a = 0xC00; a < 0xC80; a += 32) ws_mempart_memcpy_fill(e.p, a, now);
    ws_mreq *r = req(&e, 0xC00, false);
    r->origin = &origin;
    ws_subpart_push(e.p, r->subpart % 2, r, now);
    uint64_t t0 = now;
    t = collect4(&e, r->subpart % 2, &now, &origin, false);
    CHECK(t - (int64_t)t0 < 134);
    CHECK_EQ_U64(ws_mempart_get_stats(e.p)->dram_reqs, 0);
    CHECK_EQ_U64(e.pool.live, 0);
    teardown(&e);
}

/* Requests given by ws_subpart_push enter the partition at the start of its
 * next cycle (the serial step only queues them): until then the partition
 * is busy, and a texture request, which skips the ROP, already counts
 * towards its sub-partition's icnt->L2 queue (ws_subpart_full), as four
 * sector requests. The counts that the GPU's scans use agree with the
 * per-sub-partition answers after every cycle. */
TEST(partition_push_enters_at_next_cycle) {
    env e;
    CHECK(setup(&e) == 0);
    if (!e.p) return;
    char err[128];
    /* a fresh partition with 8-entry queues: full at 5 entries (room for 4 sectors) */
    ws_mempart_destroy(e.p);
    CHECK(ws_config_set(&e.c, "gpgpu_dram_partition_queues", "8:8:8:8", err, sizeof err) == 0);
    e.p = ws_mempart_create(&e.c, 0, &e.pool, err, sizeof err);
    CHECK(e.p != NULL);
    if (!e.p) return;
    uint64_t now = 0;
    int origin;
    CHECK(!ws_mempart_busy(e.p) && !ws_subpart_full(e.p, 0) && ws_mempart_full_count(e.p) == 0);
    uint64_t a = 0;
    for (int i = 0; i < 2; i++) {
        ws_mreq *t = req(&e, a, false);
        while (t->subpart != 0) { /* the next line of sub-partition 0 */
            ws_mreq_free(&e.pool, t);
            t = req(&e, a += 128, false);
        }
        a += 128;
        t->access = WS_MA_TEXTURE_R;
        t->origin = &origin;
        CHECK_EQ_U64(t->subpart, 0);
        ws_subpart_push(e.p, 0, t, now);
        CHECK(ws_mempart_busy(e.p));
        CHECK(ws_subpart_full(e.p, 0) == (i == 1)); /* 4 + 3 < 8, then 8 + 3 */
        CHECK_EQ_U64(ws_mempart_full_count(e.p), i == 1);
    }
    CHECK(!ws_subpart_full(e.p, 1));
    uint32_t replies = 0;
    for (int i = 0; i < 3000 && replies < 8; i++, now++) {
        ws_mempart_dram_cycle(e.p, now);
        ws_mempart_l2_cycle(e.p, now);
        uint32_t full = 0;
        bool any = false;
        for (uint32_t k = 0; k < 2; k++) {
            full += ws_subpart_full(e.p, k);
            any |= ws_subpart_top(e.p, k) != NULL;
        }
        CHECK_EQ_U64(ws_mempart_full_count(e.p), full);
        CHECK(any == (ws_mempart_replies(e.p) != 0));
        ws_mreq *r = ws_subpart_top(e.p, 0);
        if (r) {
            ws_subpart_pop(e.p, 0);
            CHECK(r->origin == &origin && r->data_size == 32);
            ws_mreq_free(&e.pool, r);
            replies++;
        }
    }
    CHECK_EQ_U64(replies, 8);
    CHECK_EQ_U64(ws_mempart_replies(e.p), 0);
    teardown(&e);
}
