/* The WCET timing model (src/analysis/wcet.h): the dissertation's worked
 * examples of Eqs. 5.4-5.7, the two-warp round-robin recurrence, N_coal of
 * Table 2 and Alg. 6's distances on Table 3. */
#include <math.h>

#include "analysis/wcet.h"
#include "test.h"

TEST(wcet_add_and_load_segment_latencies) {
    /* add.s32: an 8-instruction SP buffer, initiation 1, execution 4, 16 warps */
    ws_wcet_unit sp = {8, 8};
    uint64_t li_add = 1 + ws_wcet_li_arith(&sp, 16, 1);
    CHECK_EQ_U64(li_add, 2);
    CHECK_EQ_U64(ws_wcet_le_arith(&sp, 1, 4), 13);
    CHECK_EQ_U64(ws_wcet_li_arith(&sp, 8, 1), 0); /* N <= C_pipeline: no stall */
    /* ld.global: N_coal 8, 6 competing SMs, memory pipeline 5, L_base 200 */
    ws_wcet_unit mem = {8, 5};
    uint64_t li_ld = ws_wcet_li_mem(&mem, 16, 8, 6), le_ld = ws_wcet_le_mem(&mem, 200, 8, 6);
    CHECK_EQ_U64(li_ld, 56);
    CHECK_EQ_U64(le_ld, 480);
    /* the segment {ld.global, sub}: LI = 2 + 56 + 1, LE = max(480, 13) */
    uint64_t li_seg = 2 + li_ld + ws_wcet_li_arith(&sp, 16, 1);
    uint64_t le_seg = le_ld > ws_wcet_le_arith(&sp, 1, 4) ? le_ld : ws_wcet_le_arith(&sp, 1, 4);
    CHECK_EQ_U64(li_seg, 59);
    CHECK_EQ_U64(le_seg, 480);
}

TEST(wcet_two_warp_round_robin) {
    /* N = 2, two segments each, LI = 2, 3 and LE = 10, 5:
       T00 = 0, T10 = 2, T01 = max(2+2, 0+2+10) = 12, T11 = max(12+3, 2+2+10) = 15,
       ends 20 and 23 */
    ws_wcet_seg s[2] = {{2, 10, false}, {3, 5, false}};
    ws_wcet_warp w[2] = {{s, 2, 0}, {s, 2, 0}};
    CHECK_EQ_U64(ws_wcet_rr(w, 2, 0), 23);
    CHECK_EQ_U64(ws_wcet_rr(w, 1, 0), 20);
    CHECK_EQ_U64(ws_wcet_rr(w, 2, 100), 123);
    /* a barrier after warp 0's first segment: warp 0's second segment waits
       for warp 1 to complete its two pre-barrier segments */
    ws_wcet_seg a[2] = {{2, 10, true}, {3, 5, false}}, b[3] = {{2, 10, false}, {2, 30, true},
                                                                {1, 1, false}};
    ws_wcet_warp wb[2] = {{a, 2, 0}, {b, 3, 0}};
    /* T00=0 (ready 12); T10=2 (ready 14); W0 waits; T11=max(4,14)=14 (ready 46);
       T01=max(16, 46)=46 -> 54; T12=max(49, 46)=49 -> 51 (the release is the
       barrier's, not W0's later segment) */
    CHECK_EQ_U64(ws_wcet_rr(wb, 2, 0), 54);
}

TEST(wcet_ncoal_table2) {
    const uint32_t n[] = {16, 20, 4, 6, 8, 1, 6, 8, 12, 30, 10, 2};
    uint32_t mx, avg;
    ws_wcet_ncoal(n, 12, &mx, &avg);
    CHECK_EQ_U64(mx, 30);
    CHECK_EQ_U64(avg, 11); /* 10.25 rounded up */
}

TEST(wcet_alg6_distances_table3) {
    const double sm0[3] = {2, 0, 3}, sm1[3] = {2, 0, 2}, sm2[3] = {1, 3, 1};
    CHECK(fabs(ws_wcet_d2center(sm0, 3) - 1.29) < 0.01); /* sqrt(1.68) = 1.296 */
    CHECK(fabs(ws_wcet_d2vector(sm0, sm1, 3) - 0.42) < 0.005);
    CHECK(fabs(ws_wcet_d2vector(sm0, sm2, 3) - 2.2) < 0.05);
}
