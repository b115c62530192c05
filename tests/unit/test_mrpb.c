/* MRPB (-l1d_reorder mrpb): the option, per-warp queueing and the
 * non-greedy fixed-order drain with synthetic requests, and whole runs. */
#include <stdlib.h>

#include "test.h"
#include "timing/sm/sm_internal.h"
#include "warpsim/warpsim.h"
#include "workload.h"

TEST(mrpb_option) {
    unsigned size, q;
    char err[256];
    CHECK(sm_mrpb_parse("none", &size, &q, err, sizeof err) == 0 && size == 0);
    CHECK(sm_mrpb_parse("mrpb", &size, &q, err, sizeof err) == 0 && size == 32 && q == 48);
    CHECK(sm_mrpb_parse("mrpb:queues=4:size=8", &size, &q, err, sizeof err) == 0);
    CHECK(size == 8 && q == 4);
    CHECK(sm_mrpb_parse("mrpb:size=0", &size, &q, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "bad argument 'size=0'");
    CHECK(sm_mrpb_parse("mrpb:ways=2", &size, &q, err, sizeof err) == -1);
    CHECK(sm_mrpb_parse("mrpbx", &size, &q, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "known: none mrpb");
}

static void push(sm_mrpb *m, unsigned warp, uint64_t addr) {
    sm_l1acc *e = sm_mrpb_push(m, warp);
    if (!e) return;
    e->warp = (uint16_t)warp;
    e->addr = addr;
    e->valid = true;
}

static uint64_t pop(sm_mrpb *m) {
    sm_l1acc a;
    return sm_mrpb_pop(m, &a) ? a.addr : 0;
}

TEST(mrpb_queues_and_drain_order) {
    sm_mrpb *m = sm_mrpb_create(4, 4);
    CHECK(m != NULL);
    CHECK_EQ_U64(pop(m), 0);
    push(m, 3, 1);
    push(m, 1, 2);
    push(m, 3, 3);
    push(m, 5, 4); /* signature 5 mod 4: warp 1's queue */
    CHECK_EQ_U64(m->n, 4);
    CHECK(sm_mrpb_push(m, 0) == NULL); /* 4 requests in all: full */
    /* the lowest non-empty queue drains first, FIFO within it */
    CHECK_EQ_U64(pop(m), 2);
    /* non-greedy: the choice is made again every cycle, so a request of a
       lower queue goes before the rest of queue 1 */
    push(m, 0, 5);
    CHECK_EQ_U64(pop(m), 5);
    CHECK_EQ_U64(pop(m), 4);
    CHECK_EQ_U64(pop(m), 1);
    push(m, 2, 6);
    CHECK_EQ_U64(pop(m), 6);
    CHECK_EQ_U64(pop(m), 3);
    CHECK_EQ_U64(m->n, 0);
    CHECK_EQ_U64(pop(m), 0);
    /* entries are reused: fill and empty it again, more queues than 64 */
    sm_mrpb_destroy(m);
    m = sm_mrpb_create(3, 100);
    push(m, 99, 7);
    push(m, 70, 8);
    push(m, 64, 9);
    CHECK_EQ_U64(pop(m), 9);
    CHECK_EQ_U64(pop(m), 8);
    CHECK_EQ_U64(pop(m), 7);
    for (int round = 0; round < 3; round++) {
        push(m, 2, 10);
        push(m, 1, 11);
        CHECK_EQ_U64(pop(m), 11);
        CHECK_EQ_U64(pop(m), 10);
    }
    sm_mrpb_destroy(m);
}

/* A timing run; PASS, cycles and L1D accesses (summed over kernels). */
static int run_with(const char *wl, const char **over, uint64_t *cycles, uint64_t *acc) {
    char *rep = NULL;
    size_t rlen = 0;
    FILE *rf = open_memstream(&rep, &rlen), *lf = fopen("/dev/null", "w");
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.report = rf;
    o.config_overrides = over;
    ws_device *d = NULL;
    int ok = 0;
    if (ws_device_create(&o, &d) == WS_OK) {
        ok = ws_workload_run(ws_workload_find(wl), d, WS_INPUT_SMALL, lf) == WS_WL_PASS;
        *cycles = ws_device_cycles(d);
        ws_device_destroy(d);
    }
    fclose(rf);
    fclose(lf);
    *acc = 0;
    static const char name[] = "\nL1D_total_cache_accesses_kernel = "; /* summed */
    for (const char *p = rep; p && (p = strstr(p, name)); p++)
        *acc += strtoull(p + sizeof name - 1, NULL, 10);
    free(rep);
    return ok;
}

/* Loads and stores go through the buffer: results check, every warp's
   stores are acknowledged (the runs finish), and the timing changes. spmv
   also lets SMs sleep while requests wait in the buffer. */
TEST(mrpb_end_to_end) {
    static const char *const wls[] = {"micro/matmul", "shoc/spmv"};
    for (int i = 0; i < 2; i++) {
        const char *none[] = {NULL};
        const char *mrpb[] = {"-l1d_reorder mrpb", "-l1d_bypass stall", NULL};
        const char *small[] = {"-l1d_reorder mrpb:size=2:queues=4", NULL};
        uint64_t c0, a0, c1, a1, c2, a2;
        CHECK_MSG(run_with(wls[i], none, &c0, &a0), "%s", wls[i]);
        CHECK_MSG(run_with(wls[i], mrpb, &c1, &a1), "%s with MRPB", wls[i]);
        CHECK_MSG(run_with(wls[i], small, &c2, &a2), "%s with a 2-entry buffer", wls[i]);
        CHECK_MSG(c1 != c0 && c2 != c0, "%s: %llu, %llu cycles vs %llu", wls[i],
                  (unsigned long long)c1, (unsigned long long)c2, (unsigned long long)c0);
        CHECK(a0 > 0 && a1 > 0);
    }
}
