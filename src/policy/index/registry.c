/* The index-policy registry: one line per policy. */
#include <stdio.h>
#include <string.h>

#include "policy/index/index.h"

extern const ws_index_policy ws_index_linear;
extern const ws_index_policy ws_index_fermi;
extern const ws_index_policy ws_index_bxi;
extern const ws_index_policy ws_index_pric;
extern const ws_index_policy ws_index_pli;
extern const ws_index_policy ws_index_prime;
extern const ws_index_policy ws_index_adi;
extern const ws_index_policy ws_index_ipoly;

static const ws_index_policy *const g_index_policies[] = {
    &ws_index_linear,
    &ws_index_fermi,
    &ws_index_bxi,
    &ws_index_pric,
    &ws_index_pli,
    &ws_index_prime,
    &ws_index_adi,
    &ws_index_ipoly,
    NULL,
};

const ws_index_policy *const *ws_index_all(void) { return g_index_policies; }

ws_policy_info ws_index_info(unsigned i) {
    if (i + 1 >= sizeof g_index_policies / sizeof g_index_policies[0]) return (ws_policy_info){0};
    return WS_POLICY_INFO(g_index_policies[i]);
}

const ws_index_policy *ws_index_find(const char *name) {
    for (const ws_index_policy *const *p = g_index_policies; *p; p++) {
        if (!strcmp((*p)->name, name)) return *p;
        if ((*p)->code && name[0] == (*p)->code && name[1] == 0) return *p;
    }
    return NULL;
}

int ws_log2_exact(uint64_t x) {
    if (!x || (x & (x - 1))) return -1;
    int n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

int ws_index_create(ws_index *ix, const char *spec, const ws_cache_geom *g, char *err,
                    size_t errlen) {
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, spec, n);
    name[n] = 0;
    const ws_index_policy *p = ws_index_find(name);
    if (!p) {
        size_t k = (size_t)snprintf(err, errlen, "unknown set-index function '%s' (known:", name);
        for (const ws_index_policy *const *q = g_index_policies; *q && k < errlen; q++)
            k += (size_t)snprintf(err + k, errlen - k, " %s", (*q)->name);
        if (k < errlen) snprintf(err + k, errlen - k, ")");
        return -1;
    }
    char what[80];
    snprintf(what, sizeof what, "%s index", p->name);
    ws_policy_info info = WS_POLICY_INFO(p);
    ws_params prm;
    if (ws_params_parse(&prm, &info, g->hints, colon ? colon + 1 : NULL, what, err, errlen))
        return -1;
    ix->policy = p;
    ix->state = p->create(g, &prm, err, errlen);
    return ix->state ? 0 : -1;
}

void ws_index_destroy(ws_index *ix) {
    if (ix->policy && ix->state) ix->policy->destroy(ix->state);
    ix->policy = NULL;
    ix->state = NULL;
}
