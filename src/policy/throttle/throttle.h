/* Policy family "throttle": which of a scheduler's warps may issue at all
 * this cycle (-warpsim_throttle). Warp throttling schemes (static warp
 * limiting, dynamic ones driven by cache behaviour) live here; the
 * scheduler policy then orders the warps that remain.
 *
 * Each cycle the SM fills one ws_sched_warp per supervised slot and calls
 * `filter`, which sets `throttled` on the warps that must not issue. `epoch`
 * is called at kernel start (dynamic policies reset there).
 *
 * To add a policy: write src/policy/throttle/<name>.c defining a
 * `const ws_throttle_policy ws_throttle_<name>` and add one line to registry.c. */
#ifndef WARPSIM_POLICY_THROTTLE_H
#define WARPSIM_POLICY_THROTTLE_H

#include <stddef.h>

#include "policy/sched/sched.h"

typedef struct ws_throttle_policy {
    const char *name;  /* config name (text before the first ':') */
    const char *doc;
    /* State for one scheduler of n warp slots; args is the text after
       "name:" or NULL. NULL and err on bad arguments. */
    void *(*create)(const char *args, unsigned n, char *err, size_t errlen);
    void (*destroy)(void *st);
    void (*filter)(void *st, ws_sched_warp *w, unsigned n);
    void (*kernel_start)(void *st);
} ws_throttle_policy;

const ws_throttle_policy *ws_throttle_find(const char *name);

typedef struct ws_throttle {
    const ws_throttle_policy *policy;
    void *state;
} ws_throttle;
/* 0, or -1 with err naming the policy and the known ones. */
int ws_throttle_create(ws_throttle *t, const char *spec, unsigned n, char *err, size_t errlen);
void ws_throttle_destroy(ws_throttle *t);

#endif
