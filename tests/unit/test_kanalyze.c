/* The static kernel analyzer (src/analysis/kanalyze.h): the dissertation's
 * Sec. 4.4.4 example reproduces its reorder configuration and the
 * Reordering Unit's walk (Fig. 14 with Table 1's warp mapping); kernels
 * with data-dependent branches or addresses are refused with the construct
 * and PTX line; loops with static bounds and barriers are followed. */
#include <stdlib.h>
#include <string.h>

#include "analysis/kanalyze.h"
#include "test.h"
#include "test_ptx_util.h"

static ws_module *load(void) {
    size_t len;
    char *text = ptxt_read("tests/data/analysis/reorder_example.ptx", &len);
    CHECK(text != NULL);
    if (!text) return NULL;
    ws_diag d;
    ws_module *m = ws_ptx_parse(text, len, "reorder_example.ptx", &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    free(text);
    return m;
}

static uint32_t func_index(const ws_module *m, const char *name) {
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (!strcmp(m->funcs[i].name, name)) return i;
    return UINT32_MAX;
}

static int analyze(const ws_module *m, const char *kernel, uint32_t gy, uint32_t bx, uint32_t by,
                   const uint8_t *params, ws_ka_result *r) {
    ws_ka_launch l = {m, func_index(m, kernel), {1, gy, 1}, {bx, by, 1}, params, 0};
    CHECK(l.func != UINT32_MAX);
    return ws_ka_analyze(&l, r);
}

TEST(kanalyze_sec444_reorder_configuration) {
    ws_module *m = load();
    if (!m) return;
    uint8_t params[16] = {0}; /* input = 0 */
    ws_ka_result r;
    CHECK(analyze(m, "reorder_example", 2, 16, 4, params, &r) == 0);
    CHECK_MSG(r.ok, "%s", r.why);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_ka_print(f, &r);
    fclose(f);
    CHECK_STR_CONTAINS(text, "-num_pcs 2\n-pc_addr [64, 80]\n-grid [1, 2, 1]\n-block [16, 4, 1]\n"
                             "Block [0, 0, 0]\n"
                             "Warp0 [1, 0]\nWarp0 [[[0, 128, 256, 384], L], None]\n"
                             "Warp1 [1, 0]\nWarp1 [[[0, 128, 256, 384], L], None]\n"
                             "Block [0, 1, 0]\n"
                             "Warp0 [0, 1]\nWarp0 [None, [[2048, 2176, 2304, 2432], S]]\n"
                             "Warp1 [0, 1]\nWarp1 [None, [[2048, 2176, 2304, 2432], S]]\n");
    free(text);
    CHECK_EQ_U64(r.ncoal_max, 4);
    /* The Reordering Unit on one SM holding both blocks: Table 1 maps
       B0W0->W2, B0W1->W3, B1W0->W0, B1W1->W1; Fig. 14 waits on CH2, CH3,
       CH0, CH1 in turn. */
    size_t *order, *first;
    CHECK(ws_ka_l1_sequence(&r, 1, 2, &order, &first) == 0);
    static const unsigned table1[2][2] = {{2, 3}, {0, 1}};
    static const unsigned want[4] = {2, 3, 0, 1};
    CHECK_EQ_U64(first[1], 4);
    for (size_t i = 0; i < 4 && i < first[1]; i++) {
        const ws_ka_access *a = &r.acc[order[i]];
        const ws_ka_warp *w = NULL;
        for (size_t k = 0; k < r.nwarps; k++)
            if (order[i] >= r.warps[k].first && order[i] < r.warps[k].first + r.warps[k].count)
                w = &r.warps[k];
        CHECK(w != NULL);
        if (w) CHECK_EQ_U64(table1[w->block][w->warp], want[i]);
        CHECK(a->kind == (i < 2 ? 'L' : 'S'));
    }
    free(order);
    free(first);
    /* the estimator on that sequence: 4 load misses, then 4 store misses
       (no write allocate) in a 16 KB L1D */
    uint64_t acc, miss;
    char err[200];
    CHECK(ws_ka_estimate_l1(&r, 1, 2, "32:128:4,L:L:m:N,A:32:8,8", &acc, &miss, err,
                            sizeof err) == 0);
    CHECK_EQ_U64(acc, 16);
    CHECK_EQ_U64(miss, 12); /* warp 1 of block 0 hits the 4 lines warp 0 loaded */
    ws_ka_free(&r);
    ws_module_free(m);
}

TEST(kanalyze_refuses_data_dependent_kernels) {
    ws_module *m = load();
    if (!m) return;
    uint8_t params[16] = {0};
    ws_ka_result r;
    CHECK(analyze(m, "data_dependent", 1, 32, 1, params, &r) == 0);
    CHECK(!r.ok);
    CHECK_STR_CONTAINS(r.why, "not analyzable: a guard predicate that depends on a value loaded "
                              "from global memory at line 42 (bra at PTX line 44 of "
                              "data_dependent)");
    ws_ka_free(&r);
    CHECK(analyze(m, "indirect", 1, 32, 1, params, &r) == 0);
    CHECK(!r.ok);
    CHECK_STR_CONTAINS(r.why, "a global address that depends on a value loaded from global "
                              "memory at line 58 (st at PTX line 61 of indirect)");
    ws_ka_free(&r);
    ws_module_free(m);
}

TEST(kanalyze_static_loop_with_barrier) {
    ws_module *m = load();
    if (!m) return;
    uint8_t params[16] = {0};
    params[8] = 3; /* n = 3 */
    ws_ka_result r;
    CHECK(analyze(m, "loop_bar", 1, 64, 1, params, &r) == 0);
    CHECK_MSG(r.ok, "%s", r.why);
    CHECK(!r.loop_free);
    CHECK_EQ_U64(r.nwarps, 2);
    CHECK_EQ_U64(r.nacc, 6); /* 3 iterations x 2 warps */
    /* one access per barrier epoch: keys (0,0), (1,0), (2,0) */
    for (size_t i = 0; i < 3 && r.nacc == 6; i++) {
        CHECK_EQ_U64(r.acc[i].e, i);
        CHECK_EQ_U64(r.acc[i].n, 0);
        CHECK_EQ_U64(r.addr[r.acc[i].at], 4096 * i);
    }
    ws_ka_free(&r);
    ws_module_free(m);
}
