/* The throttle-policy registry: one line per policy. */
#include <stdio.h>
#include <string.h>

#include "policy/throttle/throttle.h"

extern const ws_throttle_policy ws_throttle_none;
extern const ws_throttle_policy ws_throttle_swl;
extern const ws_throttle_policy ws_throttle_dwtcs;
extern const ws_throttle_policy ws_throttle_dwtpric;
extern const ws_throttle_policy ws_throttle_awl;
extern const ws_throttle_policy ws_throttle_iacm;
extern const ws_throttle_policy ws_throttle_ccws;
extern const ws_throttle_policy ws_throttle_ciao_p;
extern const ws_throttle_policy ws_throttle_ciao_t;
extern const ws_throttle_policy ws_throttle_ciao_c;
extern const ws_throttle_policy ws_throttle_statpcal;

static const ws_throttle_policy *const g_policies[] = {
    &ws_throttle_none,
    &ws_throttle_swl,
    &ws_throttle_dwtcs,
    &ws_throttle_dwtpric,
    &ws_throttle_awl,
    &ws_throttle_iacm,
    &ws_throttle_ccws,
    &ws_throttle_ciao_p,
    &ws_throttle_ciao_t,
    &ws_throttle_ciao_c,
    &ws_throttle_statpcal,
    NULL,
};

const ws_throttle_policy *ws_throttle_find(const char *name) {
    for (const ws_throttle_policy *const *p = g_policies; *p; p++)
        if (!strcmp((*p)->name, name)) return *p;
    return NULL;
}

ws_policy_info ws_throttle_info(unsigned i) {
    if (i + 1 >= sizeof g_policies / sizeof g_policies[0]) return (ws_policy_info){0};
    return WS_POLICY_INFO(g_policies[i]);
}

/* The policy a spec "name[:args]" names (NULL: unknown) and its parsed
   parameters; *rc -1 with err when they are bad. */
static const ws_throttle_policy *lookup(const char *spec, ws_params *prm, int *rc, char *err,
                                        size_t errlen) {
    char name[64];
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    if (len >= sizeof name) len = sizeof name - 1;
    memcpy(name, spec, len);
    name[len] = 0;
    const ws_throttle_policy *p = ws_throttle_find(name);
    *rc = 0;
    if (!p) return NULL;
    char what[96];
    snprintf(what, sizeof what, "-warpsim_throttle %s", p->name);
    ws_policy_info info = WS_POLICY_INFO(p);
    if (ws_params_parse(prm, &info, NULL, colon ? colon + 1 : NULL, what, err, errlen)) {
        *rc = -1;
        return NULL;
    }
    return p;
}

int ws_throttle_create(ws_throttle *t, const char *spec, unsigned n, char *err, size_t errlen) {
    ws_params prm;
    int rc;
    t->policy = lookup(spec, &prm, &rc, err, errlen);
    t->state = NULL;
    if (rc) return -1;
    if (!t->policy) {
        size_t k = (size_t)snprintf(err, errlen, "-warpsim_throttle %s: unknown policy (known:", spec);
        for (const ws_throttle_policy *const *p = g_policies; *p && k < errlen; p++)
            k += (size_t)snprintf(err + k, errlen - k, " %s", (*p)->name);
        if (k < errlen) snprintf(err + k, errlen - k, ")");
        return -1;
    }
    t->state = t->policy->create(&prm, n, err, errlen);
    return t->state ? 0 : -1;
}

int ws_throttle_ctl_create(ws_throttle_ctl *c, const char *spec, unsigned n_sms, unsigned n_sched,
                           char *err, size_t errlen) {
    ws_params prm;
    int rc;
    const ws_throttle_policy *p = lookup(spec, &prm, &rc, err, errlen);
    c->policy = NULL;
    c->state = NULL;
    if (!p || !p->ctl_create) return rc; /* an unknown name is reported by ws_throttle_create */
    if (!(c->state = p->ctl_create(&prm, n_sms, n_sched, err, errlen))) return -1;
    c->policy = p;
    return 0;
}

void ws_throttle_ctl_destroy(ws_throttle_ctl *c) {
    if (c->policy && c->state) c->policy->ctl_destroy(c->state);
    c->policy = NULL;
    c->state = NULL;
}

void ws_throttle_destroy(ws_throttle *t) {
    if (t->policy && t->state) t->policy->destroy(t->state);
    t->policy = NULL;
    t->state = NULL;
}

int ws_throttle_sm_create(ws_throttle_sm *t, const char *spec, unsigned n_warps,
                          unsigned l1d_line, ws_throttle *sched, unsigned n_sched, char *err,
                          size_t errlen) {
    ws_params prm;
    int rc;
    const ws_throttle_policy *p = lookup(spec, &prm, &rc, err, errlen);
    t->policy = NULL;
    t->state = NULL;
    if (!p || !p->sm_create) return rc;
    if (!(t->state = p->sm_create(&prm, n_warps, l1d_line, err, errlen))) return -1;
    t->policy = p;
    for (unsigned s = 0; s < n_sched; s++)
        if (sched[s].policy == p && sched[s].state) p->sm_attach(sched[s].state, t->state, s);
    return 0;
}

void ws_throttle_sm_destroy(ws_throttle_sm *t) {
    if (t->policy && t->state) t->policy->sm_destroy(t->state);
    t->policy = NULL;
    t->state = NULL;
}
