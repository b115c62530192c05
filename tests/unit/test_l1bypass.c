/* Profile-based L1D bypassing (timing/mem/l1bypass.h): the paper's Eq. 3.1
 * decisions and Fig. 4 utilisations, the profile's counters and reuse
 * histogram, and the bypass-list file (round trip, and every refusal). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "timing/mem/coalesce.h"
#include "timing/mem/l1bypass.h"

TEST(l1bypass_eq31_decisions) {
    /* U * (1 + R) < 1 */
    CHECK(ws_l1bp_rule_ur(0.25, 2));  /* 0.75: bypass */
    CHECK(!ws_l1bp_rule_ur(0.25, 3)); /* 1.0: keep */
    CHECK(ws_l1bp_rule_ur(0.75, 0));  /* never reused: bypass */
    CHECK(!ws_l1bp_rule_ur(0.75, 1)); /* 1.5: keep */
    for (int r = 0; r < 20; r++) CHECK(!ws_l1bp_rule_ur(1.0, r)); /* full lines never */
    /* the summed form used on profiles, with one fill: used = U * 128 * (1 + R) */
    CHECK(ws_l1bp_rule(32 * 3, 1, 128));
    CHECK(!ws_l1bp_rule(32 * 4, 1, 128));
    CHECK(ws_l1bp_rule(96, 1, 128));
    CHECK(!ws_l1bp_rule(96 * 2, 1, 128));
    CHECK(!ws_l1bp_rule(128, 1, 128));
    /* two fills: 256 B fetched */
    CHECK(ws_l1bp_rule(255, 2, 128));
    CHECK(!ws_l1bp_rule(256, 2, 128));
    CHECK(!ws_l1bp_rule(10, 0, 128)); /* never filled: nothing to save */
}

/* Fig. 4: 32 threads x 4 B from byte 96 to 223 make two 128 B transactions,
   25% and 75% used, 50% overall. */
TEST(l1bypass_fig4_utilisation) {
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = 96 + 4 * (uint64_t)i;
    ws_mem_txn t[WS_MAX_TRANSACTIONS];
    ws_coalesce_in in = {a, 0xFFFFFFFFu, 4, false, false};
    unsigned n = ws_coalesce(&in, t);
    CHECK_EQ_I64(n, 2);
    unsigned used[2] = {0, 0};
    for (unsigned k = 0; k < 2 && k < n; k++)
        for (int i = 0; i < 16; i++) used[k] += (unsigned)__builtin_popcount(t[k].bytes[i]);
    CHECK_EQ_U64(t[0].addr & ~127ull, 0);
    CHECK_EQ_U64(t[1].addr & ~127ull, 128);
    CHECK_EQ_I64(used[0], 32);  /* 25% of 128 */
    CHECK_EQ_I64(used[1], 96);  /* 75% */
    CHECK_EQ_I64((used[0] + used[1]) * 100 / 256, 50);
    /* never reused: both bypassed; the 75% line is kept after one reuse */
    CHECK(ws_l1bp_rule(used[0], 1, 128) && ws_l1bp_rule(used[1], 1, 128));
    CHECK(!ws_l1bp_rule(2 * used[1], 1, 128));
}

TEST(l1bypass_profile_counts_and_histogram) {
    ws_l1prof *p = ws_l1prof_create();
    CHECK(p != NULL);
    /* line 0x1000: filled once, hit 3 times, 32 B each: 128 B used of 128 fetched */
    CHECK(ws_l1prof_record(p, 0x1000, 32, true));
    for (int i = 0; i < 3; i++) ws_l1prof_record(p, 0x1000, 32, false);
    /* line 0x2000: one fill, never reused */
    ws_l1prof_record(p, 0x2000, 64, true);
    /* 3000 lines reused 20 times: the last bucket, and the table grows */
    for (uint64_t l = 0; l < 3000; l++)
        for (int i = 0; i < 21; i++) ws_l1prof_record(p, 0x100000 + 128 * l, 128, i == 0);
    CHECK_EQ_U64(ws_l1prof_lines(p), 3002);
    uint64_t h[WS_L1BP_HIST];
    ws_l1prof_histogram(p, h);
    CHECK_EQ_U64(h[0], 1);
    CHECK_EQ_U64(h[3], 1);
    CHECK_EQ_U64(h[WS_L1BP_HIST - 1], 3000);
    bool seen = false;
    for (size_t i = 0; i < ws_l1prof_lines(p); i++) {
        uint64_t line, acc, fills, used;
        ws_l1prof_get(p, i, &line, &acc, &fills, &used);
        if (line != 0x1000) continue;
        seen = true;
        CHECK(acc == 4 && fills == 1 && used == 128);
        CHECK(!ws_l1bp_rule(used, fills, 128)); /* U = 0.25, R = 3: keep */
    }
    CHECK(seen);
    ws_l1prof_destroy(p);
}

static char *tmpname(const char *tag) {
    static char buf[4][128];
    static int k;
    char *b = buf[k++ & 3];
    snprintf(b, sizeof buf[0], "/tmp/warpsim-l1bp-%d-%s", (int)getpid(), tag);
    return b;
}

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

TEST(l1bypass_list_file_round_trip) {
    ws_l1prof *p[2] = {ws_l1prof_create(), ws_l1prof_create()};
    ws_l1prof_record(p[0], 0x1000, 32, true);  /* bypass */
    ws_l1prof_record(p[0], 0x1080, 128, true); /* keep */
    ws_l1prof_record(p[1], 0x1080, 32, true);  /* bypass on SM 1 only */
    ws_l1prof_record(p[1], 0x1080, 32, false);
    char err[300];
    const char *f = tmpname("list");
    CHECK(ws_l1prof_write(f, p, 2, 128, "bytes", err, sizeof err) == 0);
    ws_l1blist *b = ws_l1blist_load(f, 2, 128, err, sizeof err);
    CHECK_MSG(b != NULL, "%s", err);
    if (b) {
        CHECK(ws_l1blist_has(b, 0, 0x1000) && !ws_l1blist_has(b, 0, 0x1080));
        CHECK(ws_l1blist_has(b, 1, 0x1080) && !ws_l1blist_has(b, 1, 0x1000));
        CHECK(!ws_l1blist_has(b, 7, 0x1000));
        CHECK_EQ_U64(ws_l1blist_count(b, 0), 1);
        ws_l1blist_destroy(b);
    }
    /* a GPU with another SM count refuses it */
    CHECK(ws_l1blist_load(f, 15, 128, err, sizeof err) == NULL);
    CHECK_STR_CONTAINS(err, "sms 15");
    char csv[160];
    snprintf(csv, sizeof csv, "%s.reuse.csv", f);
    char *text = ws_test_read_file(csv, NULL);
    CHECK(text != NULL);
    if (text) {
        CHECK_STR_CONTAINS(text, "sm,lines,reused_0,");
        CHECK_STR_CONTAINS(text, "\n0,2,2,0,");
        CHECK_STR_CONTAINS(text, "\n1,1,0,1,");
    }
    free(text);
    unlink(csv);
    unlink(f);
    /* an unwritable path */
    CHECK(ws_l1prof_write("/nonexistent-dir/x", p, 2, 128, "bytes", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "cannot write /nonexistent-dir/x");
    ws_l1prof_destroy(p[0]);
    ws_l1prof_destroy(p[1]);
}

TEST(l1bypass_list_file_refusals) {
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"hello\n", "not a warpsim L1D bypass list"},
        {"warpsim-l1d-bypass 2\n", "format version 2"},
        {"warpsim-l1d-bypass 1\nline_size 64\n", "line_size 128"},
        {"warpsim-l1d-bypass 1\nline_size 128\nunit words\n", "unit bytes"},
        {"warpsim-l1d-bypass 1\nline_size 128\nunit bytes\nsms 1\nsm 0 1\n0x1001\nend\n",
         "not aligned"},
        {"warpsim-l1d-bypass 1\nline_size 128\nunit bytes\nsms 1\nsm 0 1\nzzz\nend\n",
         "want a line address"},
        {"warpsim-l1d-bypass 1\nline_size 128\nunit bytes\nsms 1\nsm 0 2\n0x1000\nend\n",
         "fewer line addresses"},
        {"warpsim-l1d-bypass 1\nline_size 128\nunit bytes\nsms 1\nsm 0 1\n0x1000\n", "no 'end'"},
        {"warpsim-l1d-bypass 1\nline_size 128\nunit bytes\nsms 1\nsm 1 0\nend\n", "out of order"},
        {"warpsim-l1d-bypass 1\nline_size 128\nunit bytes\nsms 1\nsm 0 0\n0x80\nend\n",
         "more than the SM's COUNT"},
    };
    const char *f = tmpname("bad");
    char err[300];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put(f, bad[i].text);
        ws_l1blist *b = ws_l1blist_load(f, 1, 128, err, sizeof err);
        CHECK_MSG(b == NULL, "case %zu accepted", i);
        ws_l1blist_destroy(b);
        CHECK_STR_CONTAINS(err, bad[i].want);
    }
    put(f, "warpsim-l1d-bypass 1 # v1\nline_size 128\nunit sectors\nsms 1\nsm 0 1\n0x80\nend\n");
    ws_l1blist *b = ws_l1blist_load(f, 1, 128, err, sizeof err);
    CHECK_MSG(b && ws_l1blist_has(b, 0, 0x80), "%s", err);
    ws_l1blist_destroy(b);
    unlink(f);
    CHECK(ws_l1blist_load("/nonexistent-file", 1, 128, err, sizeof err) == NULL);
    CHECK_STR_CONTAINS(err, "/nonexistent-file");
}
