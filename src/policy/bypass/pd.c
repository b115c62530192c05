/* Protection-distance bypassing (IACM, seed 003 §2.4): every line carries
 * a remaining protection distance (RPD), set to `rpd` (4) when it is filled
 * or hit and decremented on every hit or fill of another line of its set and
 * on every read of the set that bypasses (else a set whose protected lines
 * are never hit again would bypass forever; the spec counts hits and fills).
 * Only lines with RPD 0 may be victims; a read whose set holds only
 * protected or reserved lines bypasses the cache (it would otherwise be a
 * line-allocation failure), which protects reused lines from streams and
 * uses spare interconnect bandwidth instead of stalling. Parameter: rpd
 * (1-7 in a 3-bit hardware counter). */
#include <stdlib.h>

#include "policy/bypass/bypass.h"

typedef struct {
    uint8_t rpd;
} pd_state;

static const ws_param_def pd_params[] = {
    WS_INT("rpd", "4", 1, 255, "protection distance: accesses of its set a line is kept for"),
};

static void *pd_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    pd_state *s = malloc(sizeof *s);
    if (s) s->rpd = (uint8_t)ws_param_int(p, "rpd");
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
    WS_PARAMS(pd_params), pd_create, free, 0, pd_kernel_start, NULL,
};
