/* The GPU's four clock domains (core, interconnect, L2, DRAM): each step
 * of the cycle loop ticks the domains whose next edge is the earliest (the
 * GPGPU-Sim rule: edges kept as sums of periods in doubles, compared with
 * <=; the results depend on those sums, so they are kept exactly).
 *
 * Domains of the same period start at 0 and add the same period whenever
 * they tick, so their sums stay equal and they tick together for ever: the
 * step compares one domain of each distinct period (its lead) and ticks
 * the domains it carries. Most configs have two periods (core,
 * interconnect and L2 at one clock, DRAM at another). */
#ifndef WARPSIM_TIMING_CLOCKDOM_H
#define WARPSIM_TIMING_CLOCKDOM_H

#include <stdint.h>

typedef struct ws_clockdom {
    double period[4], next[4]; /* per domain (next: ws_clockdom_step_ref's sums) */
    double lnext[4], lper[4];  /* lead k's next edge and period, by k (ws_clockdom_step:
                                  one load each, no lookup of the domain) */
    uint32_t n_lead;
    uint8_t lead[4];           /* the first domain of each distinct period */
    uint8_t bits[4];           /* the domain bits that lead k carries */
} ws_clockdom;

/* mhz: the four clocks; bit[i]: the mask bit of domain i. */
static inline void ws_clockdom_init(ws_clockdom *c, const double mhz[4], const uint8_t bit[4]) {
    *c = (ws_clockdom){0};
    for (int i = 0; i < 4; i++) {
        c->period[i] = 1.0 / (mhz[i] * 1e6);
        uint32_t k = 0;
        while (k < c->n_lead && c->period[c->lead[k]] != c->period[i]) k++;
        if (k == c->n_lead) {
            c->lper[c->n_lead] = c->period[i];
            c->lead[c->n_lead++] = (uint8_t)i;
        }
        c->bits[k] |= bit[i];
    }
}

/* The domains that tick in the next step (their bits). */
static inline int ws_clockdom_step(ws_clockdom *c) {
    double *nx = c->lnext;
    if (c->n_lead == 2) {
        double ta = nx[0], tb = nx[1];
        int mask = 0;
        if (ta <= tb) {
            mask |= c->bits[0];
            nx[0] = ta + c->lper[0];
        }
        if (tb <= ta) {
            mask |= c->bits[1];
            nx[1] = tb + c->lper[1];
        }
        return mask;
    }
    double t = nx[0];
    for (uint32_t k = 1; k < c->n_lead; k++)
        if (nx[k] < t) t = nx[k];
    int mask = 0;
    for (uint32_t k = 0; k < c->n_lead; k++)
        if (nx[k] <= t) {
            mask |= c->bits[k];
            nx[k] += c->lper[k];
        }
    return mask;
}

/* Steps until one ticks a domain outside `only` (a mask of one lead's bits), and returns
 * that step's domains; *n counts the steps before it (which ticked `only` alone). The
 * same sums as ws_clockdom_step called step by step: with two leads and lead 1's bits
 * `only`, those steps are the ones with lead 1's edge strictly first, each one addition. */
static inline int ws_clockdom_step_past(ws_clockdom *c, int only, uint32_t *n) {
    if (c->n_lead == 2 && c->bits[1] == only) {
        double ta = c->lnext[0], tb = c->lnext[1];
        const double pb = c->lper[1];
        uint32_t k = 0;
        for (; tb < ta; k++) tb += pb;
        *n += k;
        c->lnext[1] = tb;
        return ws_clockdom_step(c);
    }
    int mask;
    while ((mask = ws_clockdom_step(c)) == only) ++*n;
    return mask;
}

/* The same step over all four domains, each with its own sum (the rule
 * as written; unit tests compare the two). */
static inline int ws_clockdom_step_ref(ws_clockdom *c, const uint8_t bit[4]) {
    double t = c->next[0];
    for (int i = 1; i < 4; i++)
        if (c->next[i] < t) t = c->next[i];
    int mask = 0;
    for (int i = 0; i < 4; i++)
        if (c->next[i] <= t) {
            mask |= bit[i];
            c->next[i] += c->period[i];
        }
    return mask;
}

#endif
