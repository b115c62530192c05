/* The page-placement registry: one line per policy. */
#include <stdio.h>
#include <string.h>

#include "policy/page/page.h"

extern const ws_page_policy ws_page_local;
extern const ws_page_policy ws_page_interleave;
extern const ws_page_policy ws_page_bap;
extern const ws_page_policy ws_page_static;
extern const ws_page_policy ws_page_blpp;
extern const ws_page_policy ws_page_dblpp;

static const ws_page_policy *const g_policies[] = {
    &ws_page_local, &ws_page_interleave, &ws_page_bap, &ws_page_static,
    &ws_page_blpp,  &ws_page_dblpp,      NULL,
};

const ws_page_policy *ws_page_find(const char *name) {
    for (const ws_page_policy *const *p = g_policies; *p; p++)
        if (!strcmp((*p)->name, name)) return *p;
    return NULL;
}

ws_policy_info ws_page_info(unsigned i) {
    if (i + 1 >= sizeof g_policies / sizeof g_policies[0]) return (ws_policy_info){0};
    return WS_POLICY_INFO(g_policies[i]);
}

int ws_page_create(ws_page_placer *pl, const char *spec, const ws_page_env *env, char *err,
                   size_t errlen) {
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof name) len = sizeof name - 1;
    memcpy(name, spec, len);
    name[len] = 0;
    memset(pl, 0, sizeof *pl);
    const ws_page_policy *pol = ws_page_find(name);
    if (!pol) {
        size_t k = (size_t)snprintf(err, errlen, "-hm_page_policy %s: unknown policy (known:", spec);
        for (const ws_page_policy *const *p = g_policies; *p && k < errlen; p++)
            k += (size_t)snprintf(err + k, errlen - k, " %s", (*p)->name);
        if (k < errlen) snprintf(err + k, errlen - k, ")");
        return -1;
    }
    char e[300], opt[96];
    snprintf(opt, sizeof opt, "-hm_page_policy %s", name);
    ws_policy_info info = WS_POLICY_INFO(pol);
    ws_params prm;
    if (ws_params_parse(&prm, &info, NULL, colon ? colon + 1 : NULL, opt, err, errlen)) return -1;
    void *st = pol->create(&prm, env, e, sizeof e);
    if (!st) {
        snprintf(err, errlen, "-hm_page_policy %s: %s", spec, e);
        return -1;
    }
    pl->policy = pol;
    pl->state = st;
    return 0;
}

void ws_page_destroy(ws_page_placer *pl) {
    if (pl->policy && pl->state) pl->policy->destroy(pl->state);
    memset(pl, 0, sizeof *pl);
}
