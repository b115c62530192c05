/* Pure round robin (src/policy/sched/prr.c): one warp offered per cycle,
 * the next in slot order after the last issued, never a later ready one;
 * barrier-waiting and finished warps are passed over. */
#include <string.h>

#include "policy/sched/sched.h"
#include "test.h"

TEST(sched_prr_waits_for_its_warp_in_slot_order) {
    ws_sched s;
    char err[128];
    CHECK(ws_sched_create(&s, "prr", 4, err, sizeof err) == 0);
    CHECK(s.policy->stable);
    ws_sched_warp w[4];
    memset(w, 0, sizeof w);
    for (unsigned i = 0; i < 4; i++) w[i].valid = 1;
    uint16_t o[4];
    CHECK_EQ_U64(s.policy->order(s.state, w, 4, o), 1);
    CHECK_EQ_U64(o[0], 0);
    /* nothing issued (warp 0 not ready): warp 0 again, not warp 1 */
    CHECK_EQ_U64(s.policy->order(s.state, w, 4, o), 1);
    CHECK_EQ_U64(o[0], 0);
    s.policy->issued(s.state, w, 4, 0);
    s.policy->order(s.state, w, 4, o);
    CHECK_EQ_U64(o[0], 1);
    /* warp 1 at a barrier and warp 2 finished: warp 3 */
    w[1].waiting = 1;
    w[2].valid = 0;
    s.policy->order(s.state, w, 4, o);
    CHECK_EQ_U64(o[0], 3);
    s.policy->issued(s.state, w, 4, 3);
    s.policy->order(s.state, w, 4, o);
    CHECK_EQ_U64(o[0], 0); /* wraps around */
    for (unsigned i = 0; i < 4; i++) w[i].valid = 0;
    CHECK_EQ_U64(s.policy->order(s.state, w, 4, o), 0);
    ws_sched_destroy(&s);
}
