/* Bypass on associativity stalls (MRPB's second half, Jia et al. HPCA
 * 2014, as seed 000 §2.7 configures it): a read that finds every way of its
 * set reserved goes to the next level uncached instead of failing with
 * LINE_ALLOC_FAIL and retrying. */
#include "policy/bypass/bypass.h"

static int g_stall;
static void *stall_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    return &g_stall; /* stateless */
}
static void stall_destroy(void *st) { (void)st; }
static void stall_kernel_start(void *st, ws_cache_bypass *mode, unsigned n) {
    (void)st;
    for (unsigned i = 0; i < n; i++) mode[i].on_line_fail = true;
}

const ws_bypass_policy ws_bypass_stall = {
    "stall", "bypass a read whose set has no free line instead of stalling (MRPB)", NULL, 0,
    stall_create, stall_destroy, 0, stall_kernel_start, NULL,
};
