/* No bypassing: the cache caches everything (the baseline). */
#include "policy/bypass/bypass.h"

static int g_none;
static void *none_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    return &g_none; /* stateless */
}
static void none_destroy(void *st) { (void)st; }
static void none_kernel_start(void *st, ws_cache_bypass *mode, unsigned n) {
    (void)st, (void)mode, (void)n;
}

const ws_bypass_policy ws_bypass_none = {
    "none", "no bypassing", NULL, 0, none_create, none_destroy, 0, none_kernel_start, NULL,
};
