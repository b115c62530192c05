/* Policy family "sched": the order in which one warp scheduler considers
 * its warps each cycle (-gpgpu_scheduler).
 *
 * A scheduler supervises a fixed set of warp slots (slot % n_sched == id).
 * Each cycle the SM fills one ws_sched_warp per supervised slot (in slot
 * order) and asks the policy for an order; it then issues from the first
 * eligible warp and tells the policy which one issued.
 *
 * To add a policy: write src/policy/sched/<name>.c defining a
 * `const ws_sched_policy ws_sched_<name>` (with its parameter table,
 * params.h) and add one line to registry.c. */
#ifndef WARPSIM_POLICY_SCHED_H
#define WARPSIM_POLICY_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy/params.h"

typedef struct ws_sched_warp {
    uint16_t slot;     /* SM warp slot */
    uint8_t valid;     /* holds a warp that has not finished */
    uint8_t waiting;   /* at a barrier, memory barrier or atomic wait */
    uint8_t longop;    /* next instruction reads a register a global/local load will write */
    uint64_t age;      /* dynamic warp id: smaller = launched earlier */
    uint8_t throttled; /* a throttle policy forbids it to issue this cycle */
    uint8_t next_load; /* next instruction is a global/local (or generic) load; computed only
                          for throttle policies with needs_next_load */
    uint8_t noload;    /* a throttle policy forbids it to issue global/local loads this cycle
                          (issue checks every instruction, the second of a dual issue too) */
    uint8_t at_bar;    /* of `waiting`: at a barrier (CTA-mates may wait for the others) */
    uint8_t cta;       /* the SM's CTA slot of the warp */
} ws_sched_warp;

typedef struct ws_sched_policy {
    const char *name;  /* config name (text before the first ':') */
    const char *doc;   /* one line */
    const ws_param_def *params; /* its parameters (WS_PARAMS(table); NULL, 0: none) */
    unsigned nparams;
    /* State for one scheduler supervising n warp slots, from the parsed
       parameters. NULL and err when they do not go together. */
    void *(*create)(ws_params *p, unsigned n, char *err, size_t errlen);
    void (*destroy)(void *st);
    /* Write a priority order of indices into w[0..n) to out; return how many
       (warps left out are not considered this cycle). */
    unsigned (*order)(void *st, const ws_sched_warp *w, unsigned n, uint16_t *out);
    /* Warp w[idx] issued at least one instruction this cycle. */
    void (*issued)(void *st, const ws_sched_warp *w, unsigned n, unsigned idx);
    /* Reads ws_sched_warp.longop (the SM computes it only for such policies:
       it costs a scoreboard lookup per warp per cycle). */
    int uses_longop;
    /* `order` gives the same order, and leaves the state as it was, when
       called again with the same views and no `issued` in between (1 for
       lrr, gto, oldest; not two_level_active, whose order() rotates its
       lists). Only then may the SM skip a scheduler whose views have not
       changed since it last found nothing to issue. */
    int stable;
    /* Optional: the views of the next order() call hold the same bytes as those of the
       last call (the SM knows which views it rewrote), so the policy need not compare
       them with the ones it kept. */
    void (*views_same)(void *st);
    /* Optional, for stable policies (0 and NULL: none): the shape order() always gives,
       so that the SM can follow it without asking for the list (src/timing/sm/issue.c
       walks only the warps that may issue, by bit scans). With f = first(st, n):
       WS_SCHED_ROTATE: all n indices, f, f + 1, ..., n - 1, 0, ..., f - 1 (0 <= f < n);
       WS_SCHED_AGE: f first when 0 <= f < n, then every other index, those of views
       valid and not waiting before the others, each group by (age, index). */
    int shape;
    int (*first)(const void *st, unsigned n);
    /* Optional, with `first` (NULL: none): where the state keeps the last issued index
       when `issued` only stores idx there and first(st, n) is that index (WS_SCHED_AGE) or
       the one after it, 0 after n - 1 (WS_SCHED_ROTATE). The SM's walk then stores the
       issued index there in place of calling `issued`. */
    int *(*last)(void *st);
} ws_sched_policy;
enum { WS_SCHED_ANY = 0, WS_SCHED_ROTATE, WS_SCHED_AGE };

const ws_sched_policy *ws_sched_find(const char *name); /* "gto", "two_level_active:6:0:1" */
const ws_sched_policy *const *ws_sched_all(void);
/* The i-th policy's name, doc and parameters (name NULL past the end). */
ws_policy_info ws_sched_info(unsigned i);

/* A created instance. */
typedef struct ws_sched {
    const ws_sched_policy *policy;
    void *state;
} ws_sched;
/* 0, or -1 with err naming the policy and the known ones. */
int ws_sched_create(ws_sched *s, const char *spec, unsigned n, char *err, size_t errlen);
void ws_sched_destroy(ws_sched *s);

/* Helper for age-ordered policies: indices of valid, non-waiting warps by
   age, then the others by age (insertion sort, n is small). Returns n. */
unsigned ws_sched_sort_by_age(const ws_sched_warp *w, unsigned n, uint16_t *out, int skip);

/* The same order, kept across cycles: ages change only when a warp starts,
   so re-sorting the previous cycle's order is linear almost always (this is
   on the per-cycle path of every scheduler). */
#define WS_SCHED_MAX_SLOTS 128
typedef struct ws_sched_ageord {
    uint16_t perm[WS_SCHED_MAX_SLOTS];
    unsigned n;
    bool sorted;                       /* perm is sorted by age[] */
    uint64_t age[WS_SCHED_MAX_SLOTS];  /* the ages it was sorted by */
    bool have;                         /* full[] is the order for the views seen[] */
    uint16_t full[WS_SCHED_MAX_SLOTS]; /* the order with no warp skipped */
    uint16_t pos[WS_SCHED_MAX_SLOTS];  /* index -> its place in full[] */
    ws_sched_warp seen[WS_SCHED_MAX_SLOTS];
    bool same;                         /* the next views are seen[] (views_same) */
} ws_sched_ageord;
void ws_sched_ageord_init(ws_sched_ageord *a, unsigned n);
static inline void ws_sched_ageord_same(ws_sched_ageord *a) { a->same = a->have; }
unsigned ws_sched_ageord_order(ws_sched_ageord *a, const ws_sched_warp *w, unsigned n,
                               uint16_t *out, int skip);

#endif
