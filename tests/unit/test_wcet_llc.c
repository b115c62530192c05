/* The cache-aware WCET (Sec. 6.5): a warp's global access whose blocks are
 * all sure LLC hits from its SM is charged the LLC-hit latency, every other
 * memory instruction (parameter loads too) the LLC-miss latency; on the
 * Sec. 4.4.4 example kernel
 * (block 0 on SM 0 loads lines 0..384, block 1 on SM 1 stores 2048..2432)
 * and on the per-access predictions of the analyses. */
#include <stdlib.h>
#include <string.h>

#include "analysis/kanalyze.h"
#include "analysis/llc.h"
#include "analysis/wcet.h"
#include "config/config.h"
#include "test.h"
#include "test_ptx_util.h"

static int cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

TEST(wcet_llc_hit_latency_per_access_and_sm) {
    size_t len;
    char *text = ptxt_read("tests/data/analysis/reorder_example.ptx", &len);
    CHECK(text != NULL);
    if (!text) return;
    ws_diag d;
    ws_module *m = ws_ptx_parse(text, len, "reorder_example.ptx", &d);
    free(text);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    uint32_t fi = 0;
    while (fi < m->nfuncs && strcmp(m->funcs[fi].name, "reorder_example")) fi++;
    uint8_t params[16] = {0};
    ws_ka_launch l = {m, fi, {1, 2, 1}, {16, 4, 1}, params, 0};
    ws_ka_result r;
    CHECK(ws_ka_analyze(&l, &r) == 0 && r.ok);
    ws_config c;
    ws_config_init(&c);
    char err[200];
    ws_wcet_model wm;
    CHECK(ws_wcet_model_from_config(&wm, &c, 400, 1, err, sizeof err) == 0);
    ws_wcet_result plain, lo, all, none, wrong;
    CHECK(ws_wcet_kernel(&r, m, &wm, &c, &plain, err, sizeof err) == 0);
    wm.l_base = 100;
    CHECK(ws_wcet_kernel(&r, m, &wm, &c, &lo, err, sizeof err) == 0);
    CHECK(lo.bound[1][1] < plain.bound[1][1]);
    /* every line a sure hit from the SM that accesses it: as if L_base were the hit latency */
    uint64_t keys[8], wrong_sm[8];
    for (int i = 0; i < 4; i++) {
        keys[i] = WS_LLC_HIT_KEY(128 * i, 0);
        keys[4 + i] = WS_LLC_HIT_KEY(2048 + 128 * i, 1);
        wrong_sm[i] = WS_LLC_HIT_KEY(128 * i, 1);
        wrong_sm[4 + i] = WS_LLC_HIT_KEY(2048 + 128 * i, 0);
    }
    qsort(keys, 8, sizeof *keys, cmp);
    qsort(wrong_sm, 8, sizeof *wrong_sm, cmp);
    ws_wcet_llc llc = {keys, 8, 100, 400};
    wm.l_base = 400;
    wm.llc = &llc;
    CHECK(ws_wcet_kernel(&r, m, &wm, &c, &all, err, sizeof err) == 0);
    CHECK_EQ_U64(all.hit_acc, r.nacc);
    /* its parameter loads (ld.param: no LLC prediction) stay at the miss latency */
    CHECK(all.bound[1][1] >= lo.bound[1][1] && all.bound[1][1] < plain.bound[1][1]);
    CHECK(all.bound[0][0] >= lo.bound[0][0] && all.bound[0][0] < plain.bound[0][0]);
    /* no sure hit: every access charged the miss latency, as L_base 400 */
    llc.nhit = 0;
    CHECK(ws_wcet_kernel(&r, m, &wm, &c, &none, err, sizeof err) == 0);
    CHECK_EQ_U64(none.hit_acc, 0);
    CHECK_EQ_U64(none.bound[1][1], plain.bound[1][1]);
    /* throttling: an SM held 200 cycles in all for its intervals */
    ws_wcet_result thr;
    llc.held = 200;
    CHECK(ws_wcet_kernel(&r, m, &wm, &c, &thr, err, sizeof err) == 0);
    CHECK_EQ_U64(thr.bound[1][1], none.bound[1][1] + 200);
    CHECK_EQ_U64(thr.bound[0][0], none.bound[0][0] + 200);
    llc.held = 0;
    /* a hit from another SM is no hit here */
    llc.hit_lines = wrong_sm;
    llc.nhit = 8;
    CHECK(ws_wcet_kernel(&r, m, &wm, &c, &wrong, err, sizeof err) == 0);
    CHECK_EQ_U64(wrong.hit_acc, 0);
    CHECK_EQ_U64(wrong.bound[1][1], plain.bound[1][1]);
    ws_ka_free(&r);
    ws_config_free(&c);
    ws_module_free(m);
}

TEST(llc_predict_flags_each_access) {
    /* Table 5's sequence on one core, one set, 4 ways: A B C D A C E B; with
       a second core's access to A in interval 0 (quota 2) */
    uint64_t c0[] = {1, 2, 3, 4, 1, 3, 5, 2}, c1[] = {1, 6};
    const uint64_t *lines[] = {c0, c1};
    size_t n[] = {8, 2};
    ws_llc_trace t = {1, lines, n};
    uint8_t m0[8], m1[2];
    uint8_t *miss[] = {m0, m1};
    CHECK_EQ_I64(ws_llc_predict(&t, 1, 4, 0, miss), 6); /* Simple, one core: exact LRU */
    static const uint8_t want[8] = {1, 1, 1, 1, 0, 0, 1, 1};
    CHECK(!memcmp(m0, want, sizeof want));
    t.ncores = 2;
    int64_t ai = ws_llc_predict(&t, 1, 4, 2, miss);
    CHECK_EQ_I64(ai, ws_llc_access_interval(&t, 1, 4, 2));
    int64_t flagged = 0;
    for (int i = 0; i < 8; i++) flagged += m0[i];
    flagged += m1[0] + m1[1];
    CHECK_EQ_I64(flagged, ai);
    CHECK_EQ_I64(ws_llc_predict(&t, 1, 4, 0, miss), ws_llc_simple(&t, 1, 4));
}
