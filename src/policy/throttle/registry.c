/* The throttle-policy registry: one line per policy. */
#include <stdio.h>
#include <string.h>

#include "policy/throttle/throttle.h"

extern const ws_throttle_policy ws_throttle_none;
extern const ws_throttle_policy ws_throttle_swl;

static const ws_throttle_policy *const g_policies[] = {
    &ws_throttle_none,
    &ws_throttle_swl,
    NULL,
};

const ws_throttle_policy *ws_throttle_find(const char *name) {
    for (const ws_throttle_policy *const *p = g_policies; *p; p++)
        if (!strcmp((*p)->name, name)) return *p;
    return NULL;
}

int ws_throttle_create(ws_throttle *t, const char *spec, unsigned n, char *err, size_t errlen) {
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof name) len = sizeof name - 1;
    memcpy(name, spec, len);
    name[len] = 0;
    t->policy = ws_throttle_find(name);
    t->state = NULL;
    if (!t->policy) {
        size_t k = (size_t)snprintf(err, errlen, "-warpsim_throttle %s: unknown policy (known:", spec);
        for (const ws_throttle_policy *const *p = g_policies; *p && k < errlen; p++)
            k += (size_t)snprintf(err + k, errlen - k, " %s", (*p)->name);
        if (k < errlen) snprintf(err + k, errlen - k, ")");
        return -1;
    }
    t->state = t->policy->create(colon ? colon + 1 : NULL, n, err, errlen);
    return t->state ? 0 : -1;
}

void ws_throttle_destroy(ws_throttle *t) {
    if (t->policy && t->state) t->policy->destroy(t->state);
    t->policy = NULL;
    t->state = NULL;
}
