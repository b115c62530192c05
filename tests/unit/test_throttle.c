/* Throttle policies: static warp limiting's rule, and its effect on a run. */
#include "policy/throttle/throttle.h"
#include "test.h"
#include "warpsim/warpsim.h"
#include "workload.h"

TEST(throttle_swl_keeps_the_n_oldest) {
    ws_throttle t;
    char err[256];
    CHECK(ws_throttle_create(&t, "swl:2", 6, err, sizeof err) == 0);
    ws_sched_warp w[6];
    uint64_t ages[6] = {50, 10, 30, 20, 40, 5};
    for (int i = 0; i < 6; i++) w[i] = (ws_sched_warp){.slot = (uint16_t)i, .valid = 1, .age = ages[i]};
    w[5].valid = 0; /* finished warps do not count */
    t.policy->filter(t.state, w, 6);
    /* oldest valid: ages 10 (slot 1) and 20 (slot 3) */
    for (int i = 0; i < 5; i++) CHECK_MSG(w[i].throttled == !(i == 1 || i == 3), "slot %d", i);
    /* when the oldest finishes, the next oldest takes its place */
    w[1].valid = 0;
    t.policy->filter(t.state, w, 6);
    CHECK(!w[3].throttled && !w[2].throttled && w[4].throttled && w[0].throttled);
    /* a warp waiting at a barrier gives its slot to the next oldest */
    w[3].waiting = 1;
    t.policy->filter(t.state, w, 6);
    CHECK(!w[2].throttled && !w[4].throttled && w[0].throttled);
    ws_throttle_destroy(&t);
    CHECK(ws_throttle_create(&t, "swl", 6, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "swl:N");
    CHECK(ws_throttle_create(&t, "swl:0", 6, err, sizeof err) == -1);
    CHECK(ws_throttle_create(&t, "dwt", 6, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "known: none swl");
}

static uint64_t cycles_with(const char *throttle) {
    const char *over[] = {throttle, NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.quiet = 1;
    o.config_overrides = over;
    ws_device *d = NULL;
    if (ws_device_create(&o, &d) != WS_OK) return 0;
    FILE *lf = fopen("/dev/null", "w");
    ws_wl_result r = ws_workload_run(ws_workload_find("micro/matmul"), d, WS_INPUT_SMALL, lf);
    fclose(lf);
    uint64_t c = r == WS_WL_PASS ? ws_device_cycles(d) : 0;
    ws_device_destroy(d);
    return c;
}

/* One warp per scheduler still computes the right result, more slowly; a
   limit above the resident warps changes nothing. */
TEST(throttle_swl_end_to_end) {
    uint64_t base = cycles_with("-warpsim_throttle none");
    uint64_t one = cycles_with("-warpsim_throttle swl:1");
    uint64_t all = cycles_with("-warpsim_throttle swl:48");
    CHECK(base > 0 && one > 0);
    CHECK_MSG(one > base + base / 2, "swl:1 %llu cycles vs %llu", (unsigned long long)one,
              (unsigned long long)base);
    CHECK_EQ_U64(all, base);
}
