/* CIAO's interference detector (see ciao_detect.h). */
#include "policy/throttle/ciao_detect.h"

#include <stdlib.h>
#include <string.h>

typedef struct vta_entry {
    uint64_t block;
    uint16_t evictor;
    uint8_t valid;
} vta_entry;

typedef struct slot_state {
    uint64_t age;
    uint32_t gen;        /* bumped when the slot's warp starts or ends */
    uint32_t vta_hits;   /* VTAHit of Eq. 1 */
    uint64_t stall_seq;  /* order of stalls, for LIFO reactivation */
    int16_t intf;        /* interference list: interferer slot, -1 none */
    uint8_t intf_cnt;    /* its 2-bit saturating counter */
    uint8_t live, v, i;
    int16_t pair[2];     /* pair list: trigger of the isolation [0] / stall [1] */
    uint32_t pair_gen[2];/* the trigger slot's generation then */
    unsigned fifo;       /* next VTA entry to replace */
} slot_state;

struct ws_ciao_det {
    ws_ciao_cfg cfg;
    unsigned n;
    slot_state *s;
    vta_entry *vta;      /* [slot][way] */
    uint32_t *pairs;     /* [interferer][victim] VTA hits */
    uint16_t *order;     /* age-order scratch */
    uint8_t *touched;    /* targets acted on in this high epoch */
    uint64_t inst_total; /* InstTotal of Eq. 1 */
    uint64_t low_cnt, high_cnt, stall_seq;
    uint64_t version;    /* bumped with every V/I change */
    unsigned n_stalled;  /* live warps with V=0 */
    ws_ciao_counts cnt;
};

void ws_ciao_det_destroy(ws_ciao_det *d) {
    if (!d) return;
    free(d->s);
    free(d->vta);
    free(d->pairs);
    free(d->order);
    free(d->touched);
    free(d);
}

ws_ciao_det *ws_ciao_det_create(const ws_ciao_cfg *cfg, unsigned n_warps) {
    ws_ciao_det *d = calloc(1, sizeof *d);
    if (!d || !n_warps || !cfg->vta_ways || !cfg->low_epoch || !cfg->high_epoch) {
        free(d);
        return NULL;
    }
    d->cfg = *cfg;
    d->n = n_warps;
    d->s = calloc(n_warps, sizeof *d->s);
    d->vta = calloc((size_t)n_warps * cfg->vta_ways, sizeof *d->vta);
    d->pairs = calloc((size_t)n_warps * n_warps, sizeof *d->pairs);
    d->order = calloc(n_warps, sizeof *d->order);
    d->touched = calloc(n_warps, 1);
    if (!d->s || !d->vta || !d->pairs || !d->order || !d->touched) {
        ws_ciao_det_destroy(d);
        return NULL;
    }
    ws_ciao_det_kernel_start(d);
    return d;
}

static void reset_slot(ws_ciao_det *d, unsigned w) {
    slot_state *s = &d->s[w];
    d->version++;
    if (s->live && !s->v) d->n_stalled--;
    s->vta_hits = 0;
    s->intf = -1;
    s->intf_cnt = 0;
    s->v = 1;
    s->i = 0;
    s->pair[0] = s->pair[1] = -1;
    s->fifo = 0;
    memset(d->vta + (size_t)w * d->cfg.vta_ways, 0, d->cfg.vta_ways * sizeof *d->vta);
}

void ws_ciao_det_kernel_start(ws_ciao_det *d) {
    for (unsigned w = 0; w < d->n; w++) {
        reset_slot(d, w);
        d->s[w].live = 0;
        d->s[w].gen++;
    }
    memset(d->pairs, 0, (size_t)d->n * d->n * sizeof *d->pairs);
    d->inst_total = d->low_cnt = d->high_cnt = 0;
    d->n_stalled = 0;
    memset(&d->cnt, 0, sizeof d->cnt);
}

void ws_ciao_det_warp_start(ws_ciao_det *d, unsigned slot, uint64_t age) {
    if (slot >= d->n) return;
    reset_slot(d, slot);
    d->s[slot].live = 1;
    d->s[slot].age = age;
    d->s[slot].gen++;
}

void ws_ciao_det_warp_end(ws_ciao_det *d, unsigned slot) {
    if (slot >= d->n || !d->s[slot].live) return;
    d->version++;
    if (!d->s[slot].v) d->n_stalled--;
    d->s[slot].live = 0;
    d->s[slot].v = 1; /* a finished warp holds no state that could gate anything */
    d->s[slot].i = 0;
    d->s[slot].gen++;
}

void ws_ciao_det_evict(ws_ciao_det *d, uint64_t block, unsigned owner, unsigned evictor) {
    if (owner >= d->n || evictor >= d->n) return;
    vta_entry *set = d->vta + (size_t)owner * d->cfg.vta_ways;
    for (unsigned k = 0; k < d->cfg.vta_ways; k++)
        if (set[k].valid && set[k].block == block) { /* already there: newest evictor */
            set[k].evictor = (uint16_t)evictor;
            return;
        }
    slot_state *s = &d->s[owner];
    set[s->fifo] = (vta_entry){block, (uint16_t)evictor, 1};
    s->fifo = (s->fifo + 1) % d->cfg.vta_ways;
}

/* The interference list keeps the most recent and most frequent
   interferer in 8 bits instead of an n x n matrix. */
static void on_vta_hit(ws_ciao_det *d, unsigned w, unsigned e) {
    slot_state *s = &d->s[w];
    s->vta_hits++;
    d->cnt.vta_hits++;
    d->pairs[(size_t)e * d->n + w]++;
    if (s->intf < 0) {
        s->intf = (int16_t)e;
        s->intf_cnt = 0;
    } else if ((unsigned)s->intf == e) {
        if (s->intf_cnt < 3) s->intf_cnt++;
    } else if (s->intf_cnt == 0) {
        s->intf = (int16_t)e;
    } else {
        s->intf_cnt--;
    }
}

bool ws_ciao_det_miss(ws_ciao_det *d, unsigned warp, uint64_t block) {
    if (warp >= d->n) return false;
    vta_entry *set = d->vta + (size_t)warp * d->cfg.vta_ways;
    for (unsigned k = 0; k < d->cfg.vta_ways; k++)
        if (set[k].valid && set[k].block == block) {
            set[k].valid = 0; /* the line is coming back */
            on_vta_hit(d, warp, set[k].evictor);
            return true;
        }
    return false;
}

unsigned ws_ciao_det_n_active(const ws_ciao_det *d) {
    unsigned n = 0;
    for (unsigned w = 0; w < d->n; w++) n += d->s[w].live && d->s[w].v;
    return n;
}

/* IRS_w > cut, i.e. VTAHit_w * N_active > cut * InstTotal. */
static bool irs_above(const ws_ciao_det *d, unsigned w, double cut, unsigned n_active) {
    if (!d->inst_total) return false;
    return (double)d->s[w].vta_hits * n_active > cut * (double)d->inst_total;
}

/* The trigger recorded in pair[which] of slot w is gone (finished, or its
   slot holds another warp now). */
static bool trigger_finished(const ws_ciao_det *d, unsigned w, unsigned which) {
    int k = d->s[w].pair[which];
    return k < 0 || !d->s[k].live || d->s[k].gen != d->s[w].pair_gen[which];
}

/* Live slots, oldest first (GTO's order among warps that can issue). */
static unsigned age_order(ws_ciao_det *d) {
    unsigned cnt = 0;
    for (unsigned w = 0; w < d->n; w++) {
        if (!d->s[w].live) continue;
        unsigned j = cnt++;
        while (j > 0 && d->s[d->order[j - 1]].age > d->s[w].age) {
            d->order[j] = d->order[j - 1];
            j--;
        }
        d->order[j] = (uint16_t)w;
    }
    return cnt;
}

static void low_epoch(ws_ciao_det *d) {
    unsigned cnt = age_order(d), na = ws_ciao_det_n_active(d);
    int latest = -1; /* LIFO: only the most recently stalled warp may come back */
    if (d->cfg.lifo)
        for (unsigned k = 0; k < cnt; k++) {
            unsigned w = d->order[k];
            if (!d->s[w].v && (latest < 0 || d->s[w].stall_seq > d->s[latest].stall_seq))
                latest = (int)w;
        }
    for (unsigned k = 0; k < cnt; k++) {
        unsigned w = d->order[k];
        slot_state *s = &d->s[w];
        if (!s->v) {
            if (d->cfg.lifo && (int)w != latest) continue;
            if (!trigger_finished(d, w, 1) && irs_above(d, (unsigned)s->pair[1], d->cfg.low_cut, na))
                continue;
            s->v = 1;
            s->pair[1] = -1;
            d->cnt.reactivations++;
            d->version++;
            d->n_stalled--;
            na++;
        } else if (s->i) {
            if (!trigger_finished(d, w, 0) && irs_above(d, (unsigned)s->pair[0], d->cfg.low_cut, na))
                continue;
            s->i = 0;
            s->pair[0] = -1;
            d->cnt.deisolations++;
            d->version++;
        }
    }
}

static void high_epoch(ws_ciao_det *d) {
    unsigned cnt = age_order(d), na = ws_ciao_det_n_active(d);
    memset(d->touched, 0, d->n);
    for (unsigned k = 0; k < cnt; k++) {
        unsigned i = d->order[k];
        const slot_state *si = &d->s[i];
        if (!si->v || si->intf < 0 || (unsigned)si->intf == i) continue;
        unsigned j = (unsigned)si->intf;
        slot_state *sj = &d->s[j];
        if (!sj->live || !sj->v || d->touched[j] || !irs_above(d, i, d->cfg.high_cut, na))
            continue;
        bool iso = d->cfg.mode & WS_CIAO_ISOLATE, stall = d->cfg.mode & WS_CIAO_STALL;
        if (iso && !sj->i) { /* first step: isolate */
            sj->i = 1;
            sj->pair[0] = (int16_t)i;
            sj->pair_gen[0] = si->gen;
            d->cnt.isolations++;
        } else if (stall && (sj->i || !iso) && na > 1) { /* isolation was not enough */
            sj->v = 0;
            sj->pair[1] = (int16_t)i;
            sj->pair_gen[1] = si->gen;
            sj->stall_seq = ++d->stall_seq;
            d->cnt.stalls++;
            d->n_stalled++;
            na--;
        } else {
            continue;
        }
        d->touched[j] = 1;
        d->version++;
    }
    if (d->cfg.window_epoch) {
        for (unsigned w = 0; w < d->n; w++) d->s[w].vta_hits = 0;
        d->inst_total = 0;
    }
}

void ws_ciao_det_issued(ws_ciao_det *d, uint64_t n) {
    d->inst_total += n;
    d->low_cnt += n;
    d->high_cnt += n;
    if (d->low_cnt >= d->cfg.low_epoch) {
        d->low_cnt %= d->cfg.low_epoch;
        low_epoch(d);
    }
    if (d->high_cnt >= d->cfg.high_epoch) {
        d->high_cnt %= d->cfg.high_epoch;
        high_epoch(d);
    }
}

void ws_ciao_det_force_active(ws_ciao_det *d, int slot) {
    for (unsigned w = slot < 0 ? 0 : (unsigned)slot; w < d->n; w++) {
        if (!d->s[w].v) {
            if (d->s[w].live) d->n_stalled--;
            d->s[w].v = 1;
            d->s[w].pair[1] = -1;
            d->cnt.forced++;
            d->version++;
        }
        if (slot >= 0) break;
    }
}

bool ws_ciao_det_stalled(const ws_ciao_det *d, unsigned slot) {
    return slot < d->n && d->s[slot].live && !d->s[slot].v;
}
bool ws_ciao_det_isolated(const ws_ciao_det *d, unsigned slot) {
    return slot < d->n && d->s[slot].i;
}
unsigned ws_ciao_det_n_stalled(const ws_ciao_det *d) { return d->n_stalled; }
unsigned ws_ciao_det_n_isolated(const ws_ciao_det *d) {
    unsigned n = 0;
    for (unsigned w = 0; w < d->n; w++) n += d->s[w].live && d->s[w].i;
    return n;
}
double ws_ciao_det_irs(const ws_ciao_det *d, unsigned slot) {
    if (slot >= d->n || !d->inst_total) return 0;
    return (double)d->s[slot].vta_hits * ws_ciao_det_n_active(d) / (double)d->inst_total;
}
uint32_t ws_ciao_det_vta_hits(const ws_ciao_det *d, unsigned slot) {
    return slot < d->n ? d->s[slot].vta_hits : 0;
}
bool ws_ciao_det_vta_has(const ws_ciao_det *d, unsigned slot, uint64_t block) {
    if (slot >= d->n) return false;
    const vta_entry *set = d->vta + (size_t)slot * d->cfg.vta_ways;
    for (unsigned k = 0; k < d->cfg.vta_ways; k++)
        if (set[k].valid && set[k].block == block) return true;
    return false;
}
int ws_ciao_det_interferer(const ws_ciao_det *d, unsigned slot, unsigned *counter) {
    if (slot >= d->n) return -1;
    if (counter) *counter = d->s[slot].intf_cnt;
    return d->s[slot].intf;
}
int ws_ciao_det_pair(const ws_ciao_det *d, unsigned slot, unsigned which) {
    return slot < d->n && which < 2 ? d->s[slot].pair[which] : -1;
}
uint32_t ws_ciao_det_pair_events(const ws_ciao_det *d, unsigned interferer, unsigned victim) {
    return interferer < d->n && victim < d->n ? d->pairs[(size_t)interferer * d->n + victim] : 0;
}
unsigned ws_ciao_det_n_warps(const ws_ciao_det *d) { return d->n; }
const ws_ciao_counts *ws_ciao_det_counts(const ws_ciao_det *d) { return &d->cnt; }
uint64_t ws_ciao_det_version(const ws_ciao_det *d) { return d->version; }
