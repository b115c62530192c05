/* The static bypass switch: every access skips the cache (the "no cache" /
 * full-bypass configuration of seed 000's characterisation). The tags keep
 * updating (tag-only mode), which costs nothing in timing and keeps the
 * cache's miss counts meaningful. */
#include "policy/bypass/bypass.h"

static int g_always;
static void *always_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    return &g_always; /* stateless */
}
static void always_destroy(void *st) { (void)st; }
static void always_kernel_start(void *st, ws_cache_bypass *mode, unsigned n) {
    (void)st;
    for (unsigned i = 0; i < n; i++) mode[i].tag_only = true;
}

const ws_bypass_policy ws_bypass_always = {
    "always", "static switch: every access bypasses the cache (tags keep updating)", NULL, 0,
    always_create, always_destroy, 0, always_kernel_start, NULL,
};
