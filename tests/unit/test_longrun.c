/* The rules of the long-run machinery (src/runtime/longrun.c): the digest,
 * how launches are grouped and which ones are simulated in detail, and how
 * a group's cycles and error are projected; when a kernel's waves converge. */
#include "runtime/longrun.h"
#include "test.h"
#include "timing/wave_sample.h"

static ws_lr_features feat(const char *k, uint64_t insts, uint64_t mem, uint64_t lines,
                           double simd) {
    ws_lr_features f;
    memset(&f, 0, sizeof f);
    snprintf(f.kernel, sizeof f.kernel, "%s", k);
    f.block[0] = 256;
    f.block[1] = f.block[2] = 1;
    f.grid[0] = f.grid[1] = f.grid[2] = 1;
    f.thread_insts = insts;
    f.warp_insts = (uint64_t)((double)insts / (32.0 * simd));
    f.mem_insts = (uint64_t)((double)f.warp_insts * (double)mem / 100.0);
    f.lines = lines;
    return f;
}

TEST(longrun_hash_is_fnv1a) {
    CHECK_EQ_U64(ws_lr_hash(WS_LR_HASH_INIT, "", 0), 0xcbf29ce484222325ull);
    CHECK_EQ_U64(ws_lr_hash(WS_LR_HASH_INIT, "a", 1), 0xaf63dc4c8601ec8cull);
    CHECK_EQ_U64(ws_lr_hash(WS_LR_HASH_INIT, "foobar", 6), 0x85944171f73967e8ull);
}

TEST(longrun_groups_by_kernel_and_features) {
    ws_lr_features f[7] = {
        feat("a", 1000, 10, 100, 1.0),  /* 0: group 0 */
        feat("a", 1050, 10, 104, 1.0),  /* 1: within 10% of launch 0: group 0 */
        feat("b", 1000, 10, 100, 1.0),  /* 2: another kernel: group 1 */
        feat("a", 1300, 10, 100, 1.0),  /* 3: 30% more instructions: group 2 */
        feat("a", 1000, 30, 100, 1.0),  /* 4: three times the memory intensity: group 3 */
        feat("a", 1000, 10, 100, 0.5),  /* 5: half the lanes active: group 4 */
        feat("a", 1290, 10, 100, 1.0),  /* 6: near launch 3: group 2 */
    };
    uint32_t g[7];
    CHECK_EQ_U64(ws_lr_group(f, 7, 0.1, g), 5);
    uint32_t want[7] = {0, 0, 1, 2, 3, 4, 2};
    for (int i = 0; i < 7; i++) CHECK_MSG(g[i] == want[i], "launch %d: group %u, want %u", i, g[i], want[i]);
    /* another block shape is another group */
    f[1].block[0] = 128;
    CHECK_EQ_U64(ws_lr_group(f, 7, 0.1, g), 6);
    /* a wide tolerance merges what differs only in size */
    f[1].block[0] = 256;
    CHECK_EQ_U64(ws_lr_group(f, 7, 0.5, g), 4);
}

TEST(longrun_picks_launches_nearest_the_group_mean) {
    ws_lr_features f[5] = {
        feat("a", 100, 10, 10, 1), feat("a", 108, 10, 10, 1), feat("a", 104, 10, 10, 1),
        feat("a", 101, 10, 10, 1), feat("b", 7, 10, 10, 1),
    };
    uint32_t g[5] = {0, 0, 0, 0, 1};
    uint8_t rep[5];
    /* mean of group 0: 103.25 -> 104 (launch 2), then 101 (launch 3) */
    ws_lr_pick(f, 5, g, 2, 1, rep);
    CHECK(rep[2] && !rep[0] && !rep[1] && !rep[3] && rep[4]);
    ws_lr_pick(f, 5, g, 2, 2, rep);
    CHECK(rep[2] && rep[3] && !rep[0] && !rep[1] && rep[4]);
    /* more than a group has: all of it */
    ws_lr_pick(f, 5, g, 2, 9, rep);
    for (int i = 0; i < 5; i++) CHECK(rep[i]);
}

TEST(longrun_projects_at_the_pooled_cpi) {
    ws_lr_projection p;
    double rc[2] = {1000, 1200}, ri[2] = {500, 500}, oi[3] = {500, 250, 1000};
    /* pooled CPI 2.2; projected 2.2 * 1750 */
    ws_lr_project(rc, ri, 2, oi, 3, &p);
    CHECK(fabs(p.projected - 3850) < 1e-6);
    CHECK(fabs(p.cycles - 6050) < 1e-6);
    /* CPI 2 and 2.4: sample sd 0.2828 over 2.2 */
    CHECK(fabs(p.sigma - 3850 * (0.28284271 / 2.2)) < 0.01);
    /* identical detailed launches: the floor */
    double rc1[2] = {1000, 1000};
    ws_lr_project(rc1, ri, 2, oi, 3, &p);
    CHECK(fabs(p.sigma - 3500 * WS_LR_CV_FLOOR) < 1e-6);
    /* nothing projected: the measured cycles, no error */
    ws_lr_project(rc, ri, 2, NULL, 0, &p);
    CHECK(p.cycles == 2200 && p.projected == 0 && p.sigma == 0);
    /* kernels without instructions take the mean detailed cycles */
    double z[1] = {0}, zc[1] = {300}, zo[2] = {0, 0};
    ws_lr_project(zc, z, 1, zo, 2, &p);
    CHECK(fabs(p.projected - 600) < 1e-9);
}

/* Across and within kernels together: a group's detailed launches' own
 * projection errors add linearly and scale with the group by instructions. */
TEST(longrun_within_errors_spread_to_the_group) {
    double rs[2] = {30, 10}, ri[2] = {500, 500}, oi[3] = {500, 250, 1000};
    /* (1000 + 1750) / 1000 = 2.75 times (30 + 10) */
    CHECK(fabs(ws_lr_within_sigma(rs, ri, 2, oi, 3) - 110) < 1e-9);
    /* nothing projected: the detailed launches' own errors, added */
    CHECK(fabs(ws_lr_within_sigma(rs, ri, 2, NULL, 0) - 40) < 1e-9);
    /* no detailed launch: nothing to spread */
    CHECK(ws_lr_within_sigma(NULL, NULL, 0, oi, 3) == 0);
    /* kernels without instructions: by launch count (2 + 3) / 2 */
    double z[2] = {0, 0}, zo[3] = {0, 0, 0};
    CHECK(fabs(ws_lr_within_sigma(rs, z, 2, zo, 3) - 100) < 1e-9);
}

TEST(longrun_features_ratios) {
    ws_lr_features f = feat("k", 3200, 25, 1, 0.5);
    CHECK(fabs(ws_lr_simd_eff(&f) - 0.5) < 1e-9);
    CHECK(fabs(ws_lr_mem_intensity(&f) - 0.25) < 1e-9);
    ws_lr_features z;
    memset(&z, 0, sizeof z);
    CHECK(ws_lr_simd_eff(&z) == 0 && ws_lr_mem_intensity(&z) == 0);
}

TEST(longrun_waves_converge_when_the_last_k_agree) {
    ws_wave_watch w;
    /* too few CTAs for 3 waves and a drain: nothing to watch */
    CHECK(!ws_wave_watch_init(&w, 0.05, 3, 100, 400));
    CHECK(!ws_wave_watch_init(&w, 0, 3, 100, 10000));
    CHECK(ws_wave_watch_init(&w, 0.05, 3, 100, 10000));
    /* waves of 100 CTAs: IPC 50 (warm-up), then 100, 104, 98 */
    CHECK(!ws_wave_watch_step(&w, 99, 0, 0));       /* no wave ended yet */
    CHECK(!ws_wave_watch_step(&w, 100, 50000, 1000)); /* wave 1: 50 */
    CHECK(!ws_wave_watch_step(&w, 200, 150000, 2000)); /* wave 2: 100 */
    CHECK(!ws_wave_watch_step(&w, 300, 254000, 3000)); /* wave 3: 104; 50 is too far */
    CHECK(ws_wave_watch_step(&w, 400, 352000, 4000));  /* wave 4: 98; 100,104,98 agree */
    CHECK(fabs(w.ipc - (100 + 104 + 98) / 3.0) < 1e-9);
    CHECK(fabs(w.wave_cycles - 1000) < 1e-9);
}
