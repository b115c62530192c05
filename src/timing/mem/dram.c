/* GDDR5 channel model; the rules are in dram.h. */
#include "timing/mem/dram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BANK_IDLE = 0, BANK_ACTIVE };

typedef struct slot {       /* a request being scheduled or served */
    ws_dram_req r;
    uint64_t seq;           /* arrival order */
    uint32_t txbytes, dqbytes;
    int next_free;
} slot;

typedef struct bank {
    uint8_t state;
    bool has_lock;          /* FR-FCFS: serving the requests of locked_row */
    uint32_t curr_row, locked_row;
    int cur;                /* slot being served, -1 if none */
    int *q;                 /* waiting slots in arrival order */
    uint32_t qlen, qcap;
    uint32_t RCDc, RCDWRc, RASc, RPc, RCc, WTPc, RTPc;
    uint32_t tmax;          /* no timer above this: a bank at 0 has nothing to count */
} bank;

typedef struct inflight {   /* an atom in the data pipeline */
    uint64_t ready;
    int slot;
} inflight;

struct ws_dram {
    ws_dram_timing t;
    uint32_t tRTW, tWTR, tWTP, tRCDWR;
    uint32_t queue_size, retq_size;
    bool frfcfs;
    uint32_t nserving;          /* banks with a request being served */
    /* per-bank bits (nbk <= 64) so that each cycle visits only the banks with work:
       serving: a request being served; waiting: not serving, with a queue or a row lock
       (what schedule_bank acts on); timed: a bank timer is running */
    uint64_t serving, waiting, timed;
    uint32_t settle, quiet;     /* idle cycles after which every timer is 0 */
    bank *bk;
    uint32_t *CCDLc, *RTPLc;    /* per bank group */
    uint32_t CCDc, RRDc, RTWc, WTRc;
    uint32_t prio;
    slot *pool;
    int pool_cap, free_head;
    uint32_t npending;          /* waiting in bank queues (not yet served) */
    uint64_t seq;
    inflight *pipe;             /* ring */
    uint32_t pipe_cap, pipe_head, pipe_len;
    void **retq;                /* ring */
    uint32_t retq_cap, retq_head, retq_len;
    ws_dram_stats stats;
};

int ws_dram_timing_parse(const char *s, ws_dram_timing *t, char *err, size_t errlen) {
    static const struct { const char *key; size_t off; } keys[] = {
        {"nbk", offsetof(ws_dram_timing, nbk)},       {"CCD", offsetof(ws_dram_timing, tCCD)},
        {"RRD", offsetof(ws_dram_timing, tRRD)},      {"RCD", offsetof(ws_dram_timing, tRCD)},
        {"RAS", offsetof(ws_dram_timing, tRAS)},      {"RP", offsetof(ws_dram_timing, tRP)},
        {"RC", offsetof(ws_dram_timing, tRC)},        {"CL", offsetof(ws_dram_timing, CL)},
        {"WL", offsetof(ws_dram_timing, WL)},         {"CDLR", offsetof(ws_dram_timing, tCDLR)},
        {"WR", offsetof(ws_dram_timing, tWR)},        {"nbkgrp", offsetof(ws_dram_timing, nbkgrp)},
        {"CCDL", offsetof(ws_dram_timing, tCCDL)},    {"RTPL", offsetof(ws_dram_timing, tRTPL)},
    };
    uint32_t bl = t->BL, ratio = t->data_ratio, atom = t->atom_bytes, low = t->bnkgrp_low_bits;
    memset(t, 0, sizeof *t);
    t->BL = bl;
    t->data_ratio = ratio;
    t->atom_bytes = atom;
    t->bnkgrp_low_bits = low;
    t->nbkgrp = 1;
    const char *p = s;
    while (*p) {
        const char *eq = strchr(p, '=');
        if (!eq) {
            snprintf(err, errlen, "DRAM timing '%s': expected key=value at '%s'", s, p);
            return -1;
        }
        size_t kl = (size_t)(eq - p);
        size_t i;
        for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (strlen(keys[i].key) == kl && !strncmp(keys[i].key, p, kl)) break;
        if (i == sizeof keys / sizeof keys[0]) {
            snprintf(err, errlen,
                     "DRAM timing '%s': unknown parameter '%.*s' (known: nbk CCD RRD RCD RAS RP "
                     "RC CL WL CDLR WR nbkgrp CCDL RTPL)",
                     s, (int)kl, p);
            return -1;
        }
        char *end;
        unsigned long v = strtoul(eq + 1, &end, 10);
        if (end == eq + 1 || (*end && *end != ':')) {
            snprintf(err, errlen, "DRAM timing '%s': '%.*s' needs a number", s, (int)kl, p);
            return -1;
        }
        *(uint32_t *)((char *)t + keys[i].off) = (uint32_t)v;
        p = *end ? end + 1 : end;
    }
    if (!t->nbk || t->nbk > 64 || !t->nbkgrp || t->nbk % t->nbkgrp) {
        snprintf(err, errlen,
                 "DRAM timing '%s': nbk must be 1 to 64 and a multiple of nbkgrp", s);
        return -1;
    }
    if (!t->tCCDL) t->tCCDL = t->tCCD;
    return 0;
}

ws_dram *ws_dram_create(const ws_dram_timing *t, uint32_t queue_size, bool frfcfs,
                        uint32_t return_queue_size) {
    ws_dram *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->t = *t;
    uint32_t burst = t->BL / (t->data_ratio ? t->data_ratio : 1);
    d->tRTW = t->CL + burst + 2 > t->WL ? t->CL + burst + 2 - t->WL : 0;
    d->tWTR = t->WL + burst + t->tCDLR;
    d->tWTP = t->WL + burst + t->tWR;
    d->tRCDWR = t->tRCD > t->WL + 1 ? t->tRCD - (t->WL + 1) : 0;
    /* the longest any timer can run after the last command */
    uint32_t m = t->tRC;
    uint32_t all[] = {t->tRAS, t->tRP, t->tRCD, t->tRRD, t->tCCD, t->tCCDL, t->tRTPL, d->tRTW,
                      d->tWTR, d->tWTP, burst, t->CL, t->WL};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i] > m) m = all[i];
    d->settle = m + 1;
    d->queue_size = queue_size;
    d->retq_size = return_queue_size;
    d->frfcfs = frfcfs;
    d->bk = calloc(t->nbk, sizeof *d->bk);
    d->CCDLc = calloc(t->nbkgrp, sizeof *d->CCDLc);
    d->RTPLc = calloc(t->nbkgrp, sizeof *d->RTPLc);
    d->pipe_cap = t->CL + t->WL + 64;
    d->pipe = calloc(d->pipe_cap, sizeof *d->pipe);
    d->retq_cap = 64;
    d->retq = calloc(d->retq_cap, sizeof *d->retq);
    d->free_head = -1;
    if (!d->bk || !d->CCDLc || !d->RTPLc || !d->pipe || !d->retq) {
        ws_dram_destroy(d);
        return NULL;
    }
    for (uint32_t b = 0; b < t->nbk; b++) d->bk[b].cur = -1;
    return d;
}

void ws_dram_destroy(ws_dram *d) {
    if (!d) return;
    if (d->bk)
        for (uint32_t b = 0; b < d->t.nbk; b++) free(d->bk[b].q);
    free(d->bk);
    free(d->CCDLc);
    free(d->RTPLc);
    free(d->pool);
    free(d->pipe);
    free(d->retq);
    free(d);
}

bool ws_dram_full(const ws_dram *d) { return d->queue_size && d->npending >= d->queue_size; }

static int slot_alloc(ws_dram *d) {
    if (d->free_head < 0) {
        int ncap = d->pool_cap ? 2 * d->pool_cap : 64;
        slot *np = realloc(d->pool, (size_t)ncap * sizeof *np);
        if (!np) abort(); /* the pool only grows to the peak number in flight */
        d->pool = np;
        for (int i = ncap - 1; i >= d->pool_cap; i--) {
            d->pool[i].next_free = d->free_head;
            d->free_head = i;
        }
        d->pool_cap = ncap;
    }
    int s = d->free_head;
    d->free_head = d->pool[s].next_free;
    return s;
}

static void slot_free(ws_dram *d, int s) {
    d->pool[s].next_free = d->free_head;
    d->free_head = s;
}

/* Bank j's bits in the masks, after its state changed. */
static inline void note(ws_dram *d, uint32_t j) {
    const bank *b = &d->bk[j];
    uint64_t bit = 1ull << j;
    d->serving = b->cur >= 0 ? d->serving | bit : d->serving & ~bit;
    d->waiting = b->cur < 0 && (b->qlen || b->has_lock) ? d->waiting | bit : d->waiting & ~bit;
}

void ws_dram_push(ws_dram *d, const ws_dram_req *r, uint64_t now) {
    int s = slot_alloc(d);
    slot *sl = &d->pool[s];
    sl->r = *r;
    sl->r.arrival = now;
    uint32_t atom = d->t.atom_bytes ? d->t.atom_bytes : 64;
    if (sl->r.bytes == 0) sl->r.bytes = atom;
    sl->r.bytes = (sl->r.bytes + atom - 1) / atom * atom;
    sl->seq = d->seq++;
    sl->txbytes = sl->dqbytes = 0;
    bank *b = &d->bk[r->bank % d->t.nbk];
    sl->r.bank = r->bank % d->t.nbk;
    if (b->qlen == b->qcap) {
        b->qcap = b->qcap ? 2 * b->qcap : 16;
        b->q = realloc(b->q, b->qcap * sizeof *b->q);
        if (!b->q) abort();
    }
    b->q[b->qlen++] = s;
    d->npending++;
    note(d, sl->r.bank);
}

static void bank_take(ws_dram *d, bank *b, uint32_t i) {
    b->cur = b->q[i];
    d->nserving++;
    memmove(&b->q[i], &b->q[i + 1], (b->qlen - i - 1) * sizeof *b->q);
    b->qlen--;
    d->npending--;
}

/* FR-FCFS choice for idle bank j: stay on the locked row while requests
 * hit it; else take the open row's requests; else the oldest request. */
static void schedule_bank(ws_dram *d, uint32_t j) {
    bank *b = &d->bk[j];
    if (!b->qlen) {
        b->has_lock = false;
        note(d, j);
        return;
    }
    if (b->has_lock) {
        for (uint32_t i = 0; i < b->qlen; i++)
            if (d->pool[b->q[i]].r.row == b->locked_row) {
                d->stats.row_hits++;
                bank_take(d, b, i);
                note(d, j);
                return;
            }
        b->has_lock = false;
    }
    for (uint32_t i = 0; i < b->qlen; i++)
        if (d->pool[b->q[i]].r.row == b->curr_row) {
            b->has_lock = true;
            b->locked_row = b->curr_row;
            d->stats.row_hits++;
            bank_take(d, b, i);
            note(d, j);
            return;
        }
    b->has_lock = true;
    b->locked_row = d->pool[b->q[0]].r.row;
    d->stats.row_misses++;
    bank_take(d, b, 0);
    note(d, j);
}

static uint32_t group_of(const ws_dram *d, uint32_t bank_no) {
    uint32_t per = d->t.nbk / d->t.nbkgrp;
    return d->t.bnkgrp_low_bits ? bank_no % d->t.nbkgrp : bank_no / per;
}

static void retq_push(ws_dram *d, void *owner) {
    if (d->retq_len == d->retq_cap) {
        void **n = malloc(2 * d->retq_cap * sizeof *n);
        if (!n) abort();
        for (uint32_t i = 0; i < d->retq_len; i++) n[i] = d->retq[(d->retq_head + i) % d->retq_cap];
        free(d->retq);
        d->retq = n;
        d->retq_head = 0;
        d->retq_cap *= 2;
    }
    d->retq[(d->retq_head + d->retq_len++) % d->retq_cap] = owner;
}

static inline void dec(uint32_t *c) {
    if (*c) (*c)--;
}

/* A timer of bank j starts. */
static inline void bank_timer(ws_dram *d, uint32_t j, uint32_t *c, uint32_t v) {
    bank *b = &d->bk[j];
    *c = v;
    if (v > b->tmax) b->tmax = v;
    if (b->tmax) d->timed |= 1ull << j;
}

void ws_dram_cycle(ws_dram *d, uint64_t now) {
    const ws_dram_timing *t = &d->t;
    d->stats.cycles++;
    /* idle long enough that every timer is zero: nothing can happen */
    if (!d->npending && !d->pipe_len && !d->nserving) {
        if (d->quiet >= d->settle) {
            d->stats.n_nop++;
            return;
        }
        d->quiet++;
    } else {
        d->quiet = 0;
    }
    /* 1. one atom leaves the data pipeline */
    if (d->pipe_len && d->pipe[d->pipe_head].ready <= now &&
        (!d->retq_size || d->retq_len < d->retq_size)) {
        int s = d->pipe[d->pipe_head].slot;
        d->pipe_head = (d->pipe_head + 1) % d->pipe_cap;
        d->pipe_len--;
        slot *sl = &d->pool[s];
        sl->dqbytes += t->atom_bytes;
        if (sl->dqbytes >= sl->r.bytes) {
            d->stats.reqs_done++;
            if (!sl->r.no_reply) retq_push(d, sl->r.owner);
            slot_free(d, s);
        }
    }
    /* 2. idle banks pick their next request (banks do not interact here: any order) */
    if (d->frfcfs) {
        for (uint64_t m = d->waiting; m; m &= m - 1) schedule_bank(d, (uint32_t)__builtin_ctzll(m));
    } else {
        /* FIFO: only the globally oldest request may be started */
        int best = -1;
        uint32_t bb = 0;
        for (uint32_t i = 0; i < t->nbk; i++)
            if (d->bk[i].qlen && (best < 0 || d->pool[d->bk[i].q[0]].seq < d->pool[best].seq)) {
                best = d->bk[i].q[0];
                bb = i;
            }
        if (best >= 0 && d->bk[bb].cur < 0) {
            if (d->pool[best].r.row == d->bk[bb].curr_row) d->stats.row_hits++;
            else d->stats.row_misses++;
            bank_take(d, &d->bk[bb], 0);
            note(d, bb);
        }
    }
    /* 3. at most one command: the serving banks in priority order, from bank prio round */
    bool issued = false, active = d->serving != 0;
    uint32_t burst = t->BL / (t->data_ratio ? t->data_ratio : 1);
    uint64_t from_prio = d->serving & (~0ull << d->prio), before = d->serving & ~from_prio;
    for (uint64_t m = from_prio ? from_prio : before; m && !issued;) {
        uint32_t j = (uint32_t)__builtin_ctzll(m);
        m &= m - 1;
        if (!m && from_prio) m = before, from_prio = 0;
        bank *b = &d->bk[j];
        slot *sl = &d->pool[b->cur];
        uint32_t g = group_of(d, j);
        bool open_hit = b->state == BANK_ACTIVE && b->curr_row == sl->r.row;
        bool room = d->pipe_len < d->pipe_cap;
        if (open_hit && !sl->r.write && !d->CCDc && !b->RCDc && !d->CCDLc[g] && !d->WTRc && room) {
            d->pipe[(d->pipe_head + d->pipe_len++) % d->pipe_cap] = (inflight){now + t->CL, b->cur};
            sl->txbytes += t->atom_bytes;
            d->CCDc = t->tCCD;
            d->CCDLc[g] = t->tCCDL;
            d->RTWc = d->tRTW;
            bank_timer(d, j, &b->RTPc, burst);
            d->RTPLc[g] = t->tRTPL;
            d->stats.n_rd++;
            d->stats.busy_data_cycles += burst;
            issued = true;
        } else if (open_hit && sl->r.write && !d->CCDc && !b->RCDWRc && !d->CCDLc[g] && !d->RTWc &&
                   room) {
            d->pipe[(d->pipe_head + d->pipe_len++) % d->pipe_cap] = (inflight){now + t->WL, b->cur};
            sl->txbytes += t->atom_bytes;
            d->CCDc = t->tCCD;
            d->CCDLc[g] = t->tCCDL;
            d->WTRc = d->tWTR;
            bank_timer(d, j, &b->WTPc, d->tWTP);
            d->stats.n_wr++;
            d->stats.busy_data_cycles += burst;
            issued = true;
        } else if (b->state == BANK_IDLE && !d->RRDc && !b->RPc && !b->RCc) {
            b->state = BANK_ACTIVE;
            b->curr_row = sl->r.row;
            d->RRDc = t->tRRD;
            bank_timer(d, j, &b->RCDc, t->tRCD);
            bank_timer(d, j, &b->RCDWRc, d->tRCDWR);
            bank_timer(d, j, &b->RASc, t->tRAS);
            bank_timer(d, j, &b->RCc, t->tRC);
            d->prio = (j + 1) % t->nbk;
            d->stats.n_act++;
            issued = true;
        } else if (b->state == BANK_ACTIVE && b->curr_row != sl->r.row && !b->RASc && !b->WTPc &&
                   !b->RTPc && !d->RTPLc[g]) {
            b->state = BANK_IDLE;
            bank_timer(d, j, &b->RPc, t->tRP);
            d->prio = (j + 1) % t->nbk;
            d->stats.n_pre++;
            issued = true;
        }
        if (issued && sl->txbytes >= sl->r.bytes) { /* all atoms issued */
            b->cur = -1;
            d->nserving--;
            note(d, j);
        }
    }
    if (issued) d->stats.n_cmd++;
    else {
        d->stats.n_nop++;
        if (active) d->stats.n_activity++;
    }
    /* 4. time passes */
    for (uint64_t m = d->timed; m; m &= m - 1) {
        uint32_t j = (uint32_t)__builtin_ctzll(m);
        bank *b = &d->bk[j];
        if (!--b->tmax) d->timed &= ~(1ull << j); /* every timer is 0 next cycle */
        dec(&b->RCDc); dec(&b->RCDWRc); dec(&b->RASc); dec(&b->RPc); dec(&b->RCc);
        dec(&b->WTPc); dec(&b->RTPc);
    }
    for (uint32_t g = 0; g < t->nbkgrp; g++) {
        dec(&d->CCDLc[g]);
        dec(&d->RTPLc[g]);
    }
    dec(&d->CCDc); dec(&d->RRDc); dec(&d->RTWc); dec(&d->WTRc);
}

/* The idle early exit of ws_dram_cycle, for a caller that checks first:
 * nothing queued, in flight, served or waiting to be returned, and every
 * timer settled. Counts what the cycle would (a cycle, a NOP). */
bool ws_dram_idle_cycle(ws_dram *d) { return ws_dram_idle_cycles(d, 1); }

bool ws_dram_idle_cycles(ws_dram *d, uint32_t n) {
    if (d->npending || d->pipe_len || d->nserving || d->retq_len || d->quiet < d->settle)
        return false;
    d->stats.cycles += n;
    d->stats.n_nop += n;
    return true;
}

void ws_dram_count_idle(ws_dram *d, uint64_t n) {
    d->stats.cycles += n;
    d->stats.n_nop += n;
}

void *ws_dram_pop_return(ws_dram *d) {
    if (!d->retq_len) return NULL;
    void *o = d->retq[d->retq_head];
    d->retq_head = (d->retq_head + 1) % d->retq_cap;
    d->retq_len--;
    return o;
}

unsigned ws_dram_pending(const ws_dram *d) {
    unsigned n = d->npending;
    for (uint32_t b = 0; b < d->t.nbk; b++) n += d->bk[b].cur >= 0;
    return n;
}

bool ws_dram_busy(const ws_dram *d) { return ws_dram_pending(d) || d->pipe_len || d->retq_len; }

const ws_dram_stats *ws_dram_get_stats(const ws_dram *d) { return &d->stats; }
