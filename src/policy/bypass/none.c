/* No bypassing: the cache caches everything (the baseline). */
#include <stdio.h>

#include "policy/bypass/bypass.h"

static int g_none;
static void *none_create(const char *args, unsigned n, char *err, size_t errlen) {
    (void)n;
    if (args) {
        snprintf(err, errlen, "none takes no arguments");
        return NULL;
    }
    return &g_none; /* stateless */
}
static void none_destroy(void *st) { (void)st; }
static void none_kernel_start(void *st, ws_cache_bypass *mode, unsigned n) {
    (void)st, (void)mode, (void)n;
}

const ws_bypass_policy ws_bypass_none = {
    "none", "no bypassing", none_create, none_destroy, 0, none_kernel_start, NULL,
};
