/* The bypass-policy registry: one line per policy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/bypass/bypass.h"

extern const ws_bypass_policy ws_bypass_none;
extern const ws_bypass_policy ws_bypass_always;
extern const ws_bypass_policy ws_bypass_dbsa;
extern const ws_bypass_policy ws_bypass_pd;
extern const ws_bypass_policy ws_bypass_stall;

static const ws_bypass_policy *const g_policies[] = {
    &ws_bypass_none,
    &ws_bypass_always,
    &ws_bypass_dbsa,
    &ws_bypass_pd,
    &ws_bypass_stall,
    NULL,
};

const ws_bypass_policy *ws_bypass_find(const char *name) {
    for (const ws_bypass_policy *const *p = g_policies; *p; p++)
        if (!strcmp((*p)->name, name)) return *p;
    return NULL;
}

const ws_bypass_policy *const *ws_bypass_all(void) { return g_policies; }

ws_policy_info ws_bypass_info(unsigned i) {
    if (i + 1 >= sizeof g_policies / sizeof g_policies[0]) return (ws_policy_info){0};
    return WS_POLICY_INFO(g_policies[i]);
}

int ws_bypass_create(ws_bypass *b, const char *what, const char *spec, unsigned n, char *err,
                     size_t errlen) {
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof name) len = sizeof name - 1;
    memcpy(name, spec, len);
    name[len] = 0;
    memset(b, 0, sizeof *b);
    b->policy = ws_bypass_find(name);
    if (!b->policy) {
        size_t k = (size_t)snprintf(err, errlen, "-%s %s: unknown policy (known:", what, spec);
        for (const ws_bypass_policy *const *p = g_policies; *p && k < errlen; p++)
            k += (size_t)snprintf(err + k, errlen - k, " %s", (*p)->name);
        if (k < errlen) snprintf(err + k, errlen - k, ")");
        return -1;
    }
    char e[200], opt[96];
    snprintf(opt, sizeof opt, "-%s %s", what, name);
    ws_policy_info info = WS_POLICY_INFO(b->policy);
    ws_params prm;
    if (ws_params_parse(&prm, &info, NULL, colon ? colon + 1 : NULL, opt, err, errlen)) {
        b->policy = NULL;
        return -1;
    }
    if (!(b->state = b->policy->create(&prm, n, e, sizeof e))) {
        snprintf(err, errlen, "-%s %s: %s", what, spec, e);
        b->policy = NULL;
        return -1;
    }
    b->period = b->policy->period ? b->policy->period(b->state) : 0;
    return 0;
}

void ws_bypass_destroy(ws_bypass *b) {
    if (b->policy && b->state) b->policy->destroy(b->state);
    memset(b, 0, sizeof *b);
}
