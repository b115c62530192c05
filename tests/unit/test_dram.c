/* DRAM timing: row hit vs row miss vs row conflict spacing, FR-FCFS order,
 * bank-level parallelism, read/write turnaround. GTX480 GDDR5 parameters. */
#include <stdint.h>

#include "test.h"
#include "timing/mem/dram.h"

static ws_dram *make(bool frfcfs) {
    ws_dram_timing t = {.BL = 8, .data_ratio = 4, .atom_bytes = 64, .bnkgrp_low_bits = 0};
    char err[256];
    if (ws_dram_timing_parse("nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:"
                             "WR=12:nbkgrp=4:CCDL=3:RTPL=2",
                             &t, err, sizeof err))
        return NULL;
    return ws_dram_create(&t, 64, frfcfs, 0);
}

/* Push the requests at cycle 0, run, record the cycle each one returns. */
static void run(ws_dram *d, const ws_dram_req *r, int n, int64_t *done) {
    for (int i = 0; i < n; i++) {
        done[i] = -1;
        ws_dram_push(d, &r[i], 0);
    }
    for (uint64_t now = 0; now < 400; now++) {
        ws_dram_cycle(d, now);
        void *o;
        while ((o = ws_dram_pop_return(d))) done[(intptr_t)o - 1] = (int64_t)now;
    }
}

#define REQ(i, bank, row, wr) {(void *)(intptr_t)((i) + 1), bank, row, 0, 64, wr, false, 0}

TEST(dram_timing_parse_errors) {
    ws_dram_timing t = {0};
    char err[256];
    CHECK(ws_dram_timing_parse("nbk=16:CCD=2:XYZ=3", &t, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown parameter 'XYZ'");
    CHECK(ws_dram_timing_parse("nbk=16:nbkgrp=3", &t, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "multiple of nbkgrp");
    CHECK(ws_dram_timing_parse("nbk=8:CL=x", &t, err, sizeof err) == -1);
    /* the per-cycle bank masks hold 64 banks */
    CHECK(ws_dram_timing_parse("nbk=128:nbkgrp=4", &t, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "nbk must be 1 to 64");
    CHECK(ws_dram_timing_parse("nbk=64:nbkgrp=4", &t, err, sizeof err) == 0);
}

TEST(dram_row_hit_same_bank_group_spacing) {
    ws_dram *d = make(true);
    ws_dram_req r[] = {REQ(0, 0, 5, false), REQ(1, 0, 5, false)};
    int64_t done[2];
    run(d, r, 2, done);
    /* ACT@0, RD@12 (tRCD) -> data @24 (CL); second RD after tCCDL=3 -> @27 */
    CHECK_EQ_I64(done[0], 24);
    CHECK_EQ_I64(done[1], 27);
    const ws_dram_stats *s = ws_dram_get_stats(d);
    CHECK_EQ_U64(s->n_act, 1);
    CHECK_EQ_U64(s->n_pre, 0);
    CHECK_EQ_U64(s->row_hits, 1);
    ws_dram_destroy(d);
}

TEST(dram_row_conflict_waits_for_tRAS_tRP_tRCD) {
    ws_dram *d = make(true);
    ws_dram_req r[] = {REQ(0, 0, 5, false), REQ(1, 0, 6, false)};
    int64_t done[2];
    run(d, r, 2, done);
    /* RD@12 -> 24; PRE when tRAS expires @28; ACT @40 (tRP, tRC); RD @52 -> 64 */
    CHECK_EQ_I64(done[0], 24);
    CHECK_EQ_I64(done[1], 64);
    CHECK_EQ_U64(ws_dram_get_stats(d)->n_pre, 1);
    CHECK_EQ_U64(ws_dram_get_stats(d)->n_act, 2);
    ws_dram_destroy(d);
}

TEST(dram_row_miss_other_bank_overlaps) {
    ws_dram *d = make(true);
    ws_dram_req r[] = {REQ(0, 0, 5, false), REQ(1, 4, 9, false)};
    int64_t done[2];
    run(d, r, 2, done);
    /* ACT b0@0, ACT b4@6 (tRRD); RD b0@12 -> 24; RD b4@18 -> 30 */
    CHECK_EQ_I64(done[0], 24);
    CHECK_EQ_I64(done[1], 30);
    ws_dram_destroy(d);
}

TEST(dram_64_banks_highest_bank) {
    /* the bank masks' top bit: bank 63 waits for bank 0, which comes first in priority order */
    ws_dram_timing t = {.BL = 8, .data_ratio = 4, .atom_bytes = 64, .bnkgrp_low_bits = 0};
    char err[256];
    CHECK(ws_dram_timing_parse("nbk=64:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:"
                               "WR=12:nbkgrp=4:CCDL=3:RTPL=2",
                               &t, err, sizeof err) == 0);
    ws_dram *d = ws_dram_create(&t, 64, true, 0);
    ws_dram_req r[] = {REQ(0, 63, 5, false), REQ(1, 0, 9, false)};
    int64_t done[2];
    run(d, r, 2, done);
    CHECK_EQ_I64(done[1], 24); /* ACT b0@0, RD@12 */
    CHECK_EQ_I64(done[0], 30); /* ACT b63@6 (tRRD), RD@18 */
    ws_dram_destroy(d);
}

TEST(dram_frfcfs_serves_open_row_first_fifo_does_not) {
    ws_dram_req r[] = {REQ(0, 0, 5, false), REQ(1, 0, 6, false), REQ(2, 0, 5, false)};
    int64_t fr[3], ff[3];
    ws_dram *d = make(true);
    run(d, r, 3, fr);
    ws_dram_destroy(d);
    d = make(false);
    run(d, r, 3, ff);
    ws_dram_destroy(d);
    CHECK(fr[2] < fr[1]);   /* the row hit overtakes the conflict */
    CHECK_EQ_I64(fr[2], 27);
    CHECK(ff[1] < ff[2]);   /* FIFO keeps arrival order */
}

TEST(dram_multi_atom_request_and_write_turnaround) {
    ws_dram *d = make(true);
    ws_dram_req r[] = {{(void *)1, 0, 5, 0, 128, false, false, 0},
                       {(void *)2, 0, 5, 0, 64, true, false, 0},
                       {(void *)3, 0, 5, 0, 64, true, true, 0}};
    int64_t done[3];
    run(d, r, 3, done);
    /* 128 B = two atoms: RD@12, RD@15 (tCCDL) -> last data @27 */
    CHECK_EQ_I64(done[0], 27);
    /* write after read waits tRTW = CL + BL/ratio + 2 - WL = 12 after the last RD:
       WR@27 -> WL=4 -> @31 */
    CHECK_EQ_I64(done[1], 31);
    CHECK_EQ_I64(done[2], -1); /* a writeback completes without a reply */
    CHECK_EQ_U64(ws_dram_get_stats(d)->reqs_done, 3);
    CHECK(!ws_dram_busy(d));
    ws_dram_destroy(d);
}

/* ws_dram_idle_cycle (the partitions' idle shortcut) acts only on a settled
   idle channel and counts what ws_dram_cycle counts there */
TEST(dram_idle_cycle_counts_as_the_cycle) {
    ws_dram *a = make(true), *b = make(true);
    ws_dram_req r[] = {REQ(0, 3, 7, false)};
    ws_dram_push(a, &r[0], 0);
    ws_dram_push(b, &r[0], 0);
    CHECK(!ws_dram_idle_cycle(b)); /* a request queued: nothing done */
    int idle_taken = 0;
    for (uint64_t now = 0; now < 200; now++) {
        ws_dram_cycle(a, now);
        if (ws_dram_idle_cycle(b)) idle_taken++;
        else ws_dram_cycle(b, now);
        void *o;
        while ((o = ws_dram_pop_return(a))) {}
        while ((o = ws_dram_pop_return(b))) {}
    }
    CHECK(idle_taken > 100); /* settled after the request and its timers */
    const ws_dram_stats *sa = ws_dram_get_stats(a), *sb = ws_dram_get_stats(b);
    CHECK_EQ_U64(sb->cycles, sa->cycles);
    CHECK_EQ_U64(sb->n_nop, sa->n_nop);
    CHECK_EQ_U64(sb->n_cmd, sa->n_cmd);
    CHECK_EQ_U64(sb->n_activity, sa->n_activity);
    CHECK_EQ_U64(sb->busy_data_cycles, sa->busy_data_cycles);
    ws_dram_destroy(a);
    ws_dram_destroy(b);
}
