/* Pure round robin (Huangfu, "Improving the Performance and
 * Time-Predictability of GPUs", Ch. 5): the scheduler offers exactly one
 * warp each cycle, the next one in slot order after the warp that issued
 * last, and waits for it (no skipping to a ready warp) until it issues. The
 * only warps passed over are those that cannot issue for a reason outside
 * the pipeline's timing: empty or finished slots, and warps waiting at a
 * barrier (or for a memory barrier or an atomic). The issue order is then
 * fixed by the program, which a WCET analysis can model (Eqs. 5.1-5.3); pair
 * it with -gpgpu_num_sched_per_core 1 and -gpgpu_max_insn_issue_per_warp 1
 * for the one-instruction-per-turn circular order of the model. */
#include <stdlib.h>

#include "policy/sched/sched.h"

typedef struct { unsigned next; } prr_state;

static void *prr_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    return calloc(1, sizeof(prr_state));
}
static void prr_destroy(void *st) { free(st); }
static unsigned prr_order(void *st, const ws_sched_warp *w, unsigned n, uint16_t *out) {
    const prr_state *s = st;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (s->next + i) % n;
        if (w[k].valid && !w[k].waiting) {
            out[0] = (uint16_t)k;
            return 1;
        }
    }
    return 0;
}
static void prr_issued(void *st, const ws_sched_warp *w, unsigned n, unsigned idx) {
    ((prr_state *)st)->next = (idx + 1) % n;
}

const ws_sched_policy ws_sched_prr = {
    "prr", "pure round robin: waits for the next warp in slot order (WCET analysable)", NULL, 0,
    prr_create, prr_destroy, prr_order, prr_issued, 0, 1,
};
