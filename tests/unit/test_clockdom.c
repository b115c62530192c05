/* The clock-domain step that compares one domain of each distinct period
 * (src/timing/clockdom.h) ticks the same domains in every step as the rule
 * over all four domains: the presets' clocks (two or three distinct
 * periods), all four equal, all four different, and clocks that are
 * nearly but not exactly equal. So does the step that passes the DRAM-only
 * steps by, counting them (ws_clockdom_step_past, the GPU loop's). */
#include "test.h"
#include "timing/clockdom.h"

static void steps_agree(double core, double icnt, double l2, double dram, uint32_t n_lead) {
    static const uint8_t bit[4] = {1, 2, 4, 8};
    const double mhz[4] = {core, icnt, l2, dram};
    ws_clockdom fast, ref;
    ws_clockdom_init(&fast, mhz, bit);
    ws_clockdom_init(&ref, mhz, bit);
    CHECK_EQ_U64(fast.n_lead, n_lead);
    uint64_t ticks[4] = {0};
    for (int s = 0; s < 400000; s++) {
        int a = ws_clockdom_step(&fast), b = ws_clockdom_step_ref(&ref, bit);
        CHECK_MSG(a == b, "%g:%g:%g:%g step %d: %d, the rule %d", core, icnt, l2, dram, s, a, b);
        if (a != b) return;
        for (int i = 0; i < 4; i++) ticks[i] += (a >> i) & 1;
    }
    for (int i = 0; i < 4; i++) CHECK(ticks[i] > 0);
    /* past the DRAM-only steps: the next other step and their number */
    ws_clockdom_init(&fast, mhz, bit);
    ws_clockdom_init(&ref, mhz, bit);
    uint64_t passed = 0;
    for (int s = 0; s < 200000; s++) {
        uint32_t n = 0, want = 0;
        int a = ws_clockdom_step_past(&fast, 8, &n), b;
        while ((b = ws_clockdom_step_ref(&ref, bit)) == 8) want++;
        CHECK_MSG(a == b && n == want, "%g:%g:%g:%g step %d: %d after %u, the rule %d after %u",
                  core, icnt, l2, dram, s, a, n, b, want);
        if (a != b || n != want) return;
        passed += n;
    }
    if (dram > core && dram > icnt && dram > l2) CHECK(passed > 0);
}

TEST(clockdom_step_ticks_as_the_rule) {
    steps_agree(700.0, 700.0, 700.0, 924.0, 2);      /* gtx480-v4 */
    steps_agree(700.0, 1400.0, 700.0, 924.0, 3);     /* gtx480 */
    steps_agree(1132.0, 1132.0, 1132.0, 850.0, 2);   /* qv100 */
    steps_agree(1365.0, 1365.0, 1365.0, 3500.5, 2);  /* rtx2060 */
    steps_agree(1000.0, 1000.0, 1000.0, 1000.0, 1);
    steps_agree(700.0, 800.0, 900.0, 1000.0, 4);
    steps_agree(700.0, 700.0000001, 700.0, 924.0, 3);
}
