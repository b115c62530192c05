/* The scheduler-policy registry: one line per policy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/sched/sched.h"

extern const ws_sched_policy ws_sched_lrr;
extern const ws_sched_policy ws_sched_gto;
extern const ws_sched_policy ws_sched_two_level_active;
extern const ws_sched_policy ws_sched_oldest;
extern const ws_sched_policy ws_sched_prr;

static const ws_sched_policy *const g_sched_policies[] = {
    &ws_sched_lrr,
    &ws_sched_gto,
    &ws_sched_two_level_active,
    &ws_sched_oldest,
    &ws_sched_prr,
    NULL,
};

const ws_sched_policy *const *ws_sched_all(void) { return g_sched_policies; }

ws_policy_info ws_sched_info(unsigned i) {
    if (i + 1 >= sizeof g_sched_policies / sizeof g_sched_policies[0]) return (ws_policy_info){0};
    return WS_POLICY_INFO(g_sched_policies[i]);
}

const ws_sched_policy *ws_sched_find(const char *name) {
    size_t n = strcspn(name, ":");
    for (const ws_sched_policy *const *p = g_sched_policies; *p; p++)
        if (strlen((*p)->name) == n && !strncmp((*p)->name, name, n)) return *p;
    return NULL;
}

int ws_sched_create(ws_sched *s, const char *spec, unsigned n, char *err, size_t errlen) {
    s->policy = ws_sched_find(spec);
    s->state = NULL;
    if (!s->policy) {
        size_t o = (size_t)snprintf(err, errlen, "-gpgpu_scheduler %s: unknown policy (known:", spec);
        for (const ws_sched_policy *const *p = g_sched_policies; *p && o < errlen; p++)
            o += (size_t)snprintf(err + o, errlen - o, " %s", (*p)->name);
        if (o < errlen) snprintf(err + o, errlen - o, ")");
        return -1;
    }
    const char *colon = strchr(spec, ':');
    char what[80];
    snprintf(what, sizeof what, "-gpgpu_scheduler %s", s->policy->name);
    ws_policy_info info = WS_POLICY_INFO(s->policy);
    ws_params p;
    if (ws_params_parse(&p, &info, NULL, colon ? colon + 1 : NULL, what, err, errlen)) return -1;
    s->state = s->policy->create(&p, n, err, errlen);
    return s->state ? 0 : -1;
}

void ws_sched_destroy(ws_sched *s) {
    if (s->policy && s->state) s->policy->destroy(s->state);
    s->state = NULL;
}

unsigned ws_sched_sort_by_age(const ws_sched_warp *w, unsigned n, uint16_t *out, int skip) {
    /* key: (not eligible, age); eligible warps first so that waiting ones
       never shadow a ready one */
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        if ((int)i == skip) continue;
        unsigned j = k++;
        int ei = !w[i].valid || w[i].waiting;
        while (j > 0) {
            const ws_sched_warp *p = &w[out[j - 1]];
            int ep = !p->valid || p->waiting;
            if (ep < ei || (ep == ei && p->age <= w[i].age)) break;
            out[j] = out[j - 1];
            j--;
        }
        out[j] = (uint16_t)i;
    }
    return k;
}

void ws_sched_ageord_init(ws_sched_ageord *a, unsigned n) {
    a->n = n < WS_SCHED_MAX_SLOTS ? n : WS_SCHED_MAX_SLOTS;
    a->sorted = false;
    a->have = a->same = false;
    for (unsigned i = 0; i < a->n; i++) a->perm[i] = (uint16_t)i;
}

/* The order of every warp (none skipped), from the views w: sorted by age (the perm kept
   from the last time), eligible warps first, each group by age. */
static void ageord_full(ws_sched_ageord *a, const ws_sched_warp *w, unsigned n) {
    uint16_t *p = a->perm;
    /* (age, slot) is a total order, so the sorted perm depends on the ages
       alone: sort again only when one changed (rarely: the scan has no early exit, so no
       branch per warp) */
    uint64_t diff = 0;
    for (unsigned i = 0; i < n; i++) diff |= a->age[i] ^ w[i].age;
    if (!a->sorted || diff) {
        for (unsigned i = 0; i < n; i++) a->age[i] = w[i].age;
        a->sorted = true;
        /* adaptive insertion sort of last cycle's order by (age, slot) */
        for (unsigned i = 1; i < n; i++) {
            uint16_t v = p[i];
            unsigned j = i;
            while (j > 0 && (w[p[j - 1]].age > w[v].age ||
                             (w[p[j - 1]].age == w[v].age && p[j - 1] > v))) {
                p[j] = p[j - 1];
                j--;
            }
            p[j] = v;
        }
    }
    uint16_t rest[WS_SCHED_MAX_SLOTS];
    unsigned k = 0, m = 0;
    for (unsigned i = 0; i < n; i++) {
        uint16_t v = p[i];
        if (w[v].valid && !w[v].waiting) a->full[k++] = v;
        else rest[m++] = v;
    }
    memcpy(a->full + k, rest, m * sizeof *rest);
    for (unsigned i = 0; i < n; i++) a->pos[a->full[i]] = (uint16_t)i;
}

unsigned ws_sched_ageord_order(ws_sched_ageord *a, const ws_sched_warp *w, unsigned n,
                               uint16_t *out, int skip) {
    if (n != a->n) ws_sched_ageord_init(a, n);
    if (n > WS_SCHED_MAX_SLOTS) return ws_sched_sort_by_age(w, n, out, skip);
    /* The order depends on the views alone, and a scheduler asks again mostly with the
       same views (after an issue, the warp that issued usually stays eligible): compare
       them as bytes with the ones of the last time, and sort and partition only when they
       differ. Skipping a warp leaves the others' order as it is: it is cut out. */
    if (!a->have || (!a->same && memcmp(a->seen, w, n * sizeof *w))) {
        ageord_full(a, w, n);
        memcpy(a->seen, w, n * sizeof *w);
        a->have = true;
    }
    a->same = false;
    if (skip < 0 || (unsigned)skip >= n) {
        memcpy(out, a->full, n * sizeof *out);
        return n;
    }
    unsigned at = a->pos[skip];
    memcpy(out, a->full, at * sizeof *out);
    memcpy(out + at, a->full + at + 1, (n - at - 1) * sizeof *out);
    return n - 1;
}
