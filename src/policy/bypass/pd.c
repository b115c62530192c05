/* Protection-distance bypassing (IACM, seed 003 §2.4): every line carries
 * a remaining protection distance (RPD), set to `rpd` (4) when it is filled
 * or hit and decremented on every hit or fill of another line of its set and
 * on every read of the set that bypasses (else a set whose protected lines
 * are never hit again would bypass forever; the spec counts hits and fills).
 * Only lines with RPD 0 may be victims; a read whose set holds only
 * protected or reserved lines bypasses the cache (it would otherwise be a
 * line-allocation failure), which protects reused lines from streams and
 * uses spare interconnect bandwidth instead of stalling. Args: rpd=N (1-7,
 * a 3-bit counter in hardware). */
#include <stdio.h>
#include <stdlib.h>

#include "policy/bypass/bypass.h"

typedef struct {
    uint8_t rpd;
} pd_state;

static void *pd_create(const char *args, unsigned n, char *err, size_t errlen) {
    (void)n;
    static const char *const keys[] = {"rpd"};
    double v[1] = {4};
    if (ws_policy_args(args, keys, v, 1, "pd", err, errlen)) return NULL;
    if (v[0] < 1 || v[0] > 255 || v[0] != (int)v[0]) {
        snprintf(err, errlen, "pd: rpd must be an integer from 1 to 255 (got %g)", v[0]);
        return NULL;
    }
    pd_state *s = malloc(sizeof *s);
    if (s) s->rpd = (uint8_t)v[0];
    return s;
}

static void pd_kernel_start(void *st, ws_cache_bypass *mode, unsigned n) {
    const pd_state *s = st;
    for (unsigned i = 0; i < n; i++) {
        mode[i].protect = s->rpd;
        mode[i].on_line_fail = true;
    }
}

const ws_bypass_policy ws_bypass_pd = {
    "pd", "protection-distance bypass: lines are protected for rpd accesses of their set (IACM)",
    pd_create, free, 0, pd_kernel_start, NULL,
};
