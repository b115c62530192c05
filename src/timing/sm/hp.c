/* Hazard prediction (-warpsim_hp_predictor, -warpsim_hp_tracker), after T.
 * Turner, "On Replay and Hazards in Graphics Processing Units" (UBC MASc
 * thesis, 2012), chapter 6: a load that will need an MSHR is not issued
 * while none will be free for it.
 *
 * Which loads: those whose memory stage can need an MSHR (global and local
 * loads through the L1D, constant and parameter loads through the L1C),
 * at their first issue and at every reissue under replay.
 *
 * Predictor (will it miss?): a load whose previous pass failed on MSHR,
 * COMQ or RSV is known to miss (its line did not come in); otherwise
 *   false   predicts a hit (only known misses are held back),
 *   true    predicts a miss,
 *   pc      a 2-bit saturating counter per instruction (miss when >= 2,
 *           starting at 1, updated with each access's outcome at the
 *           checkpoint; a merge into a pending line counts as a miss),
 *   oracle  probes the cache for the line of its next access (which it
 *           knows: the functional engine has run it): miss unless valid.
 * Tracker (will an MSHR be free?):
 *   naive   one is free now (the cache's count, read instantly);
 *   credit  a pool of one credit per MSHR per cache: a predicted miss
 *           takes one at issue; at the checkpoint a credit whose access
 *           allocated an MSHR stays bound to it until the fill frees it,
 *           otherwise it comes back at once; an uncredited access that
 *           allocates one charges the pool a (virtual) credit. So
 *           credits + credits in flight + MSHRs in use == MSHRs, with no
 *           signal delay (-warpsim_hp_check asserts it every cycle).
 *           -warpsim_hp_signal_delay D: what the memory stage tells the
 *           pool (a credit back, a virtual credit charged, a fill that
 *           freed an MSHR) reaches it D cycles later, the wire delay of
 *           the thesis's section 8.1; the books then count those signals
 *           still on their way (pend). Taking a credit at issue is at once.
 *           Strict credits (-warpsim_hp_credit_strict 1, the default; under
 *           replay, where a pass makes one access): the
 *           thesis's pool only throttles issue, so an uncredited access
 *           can take the MSHR a credited one counts on between its issue
 *           and the memory stage, and a credit says nothing of the merge
 *           slots of a pending line (a load that failed on its entry's
 *           merge limit took a credit, went again and failed again; on
 *           micro/vectoradd that was 2148 of 2268 repeated MSHR squashes,
 *           the parameter line every warp reads). So a credit also keeps
 *           a merge slot on the line of its next access (a grant waits
 *           while that line's entry has none to spare), and the memory
 *           stage (sm_hp_admit) refuses an uncredited access the entry or
 *           the merge slot that credits in flight hold: a credited pass
 *           never fails on MSHR (check 4 of the thesis's list in its
 *           strict form), with no signal delay.
 * A predicted miss without a grant is held back: the warp's scheduler
 * cycle counts as "restrict". Mechanically the load is executed and held
 * at the issue point (w->hp_gated) until the gate lets it go; nothing
 * else of the warp issues meanwhile, so that is timing-equivalent to not
 * issuing it, and lets every predictor see the access it will make.
 * The PC table is per SM (the thesis's is one table for all cores, which
 * would be state shared between SMs during a cycle). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/sm/hazard.h"
#include "timing/sm/sm_internal.h"

enum { HP_NONE = 0, HP_FALSE, HP_TRUE, HP_PC, HP_ORACLE };
enum { HP_NAIVE = 0, HP_CREDIT };
enum { HP_L1D = 0, HP_L1C, HP_NPOOL };
#define HP_PCS 4096 /* counters, indexed by the instruction's global index */

struct sm_hp {
    int pred, tracker;
    bool check;
    int64_t credits[HP_NPOOL];
    int64_t in_flight[HP_NPOOL];
    unsigned used[HP_NPOOL];   /* MSHRs in use as the books know them */
    unsigned n[HP_NPOOL];
    uint8_t pc[HP_PCS];
    /* signal delay: pool changes due at cycle c wait in ring[c % (delay + 1)] */
    unsigned delay;
    int64_t (*ring)[HP_NPOOL];
    int64_t pend[HP_NPOOL];    /* their sum per pool */
    uint64_t tick_next;        /* the first cycle whose slot is not applied yet */
    /* strict credits: the MSHR address each credit in flight will use (0:
       not known, a local access) */
    bool strict;
    uint64_t *keys[HP_NPOOL];
    unsigned nkeys[HP_NPOOL];
};

static const char *const pred_names[] = {"none", "false", "true", "pc", "oracle"};
static const char *const trk_names[] = {"naive", "credit"};

static ws_cache *pool_cache(const ws_sm *sm, int p) { return p == HP_L1C ? sm->l1c : sm->l1d; }

int sm_hp_init(ws_sm *sm, char *err, size_t errlen) {
    int p = -1, t = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(sm->cfg->hp_predictor, pred_names[i])) p = i;
    for (int i = 0; i < 2; i++)
        if (!strcmp(sm->cfg->hp_tracker, trk_names[i])) t = i;
    if (p < 0) {
        snprintf(err, errlen, "-warpsim_hp_predictor %s: expected none, false, true, pc or oracle",
                 sm->cfg->hp_predictor);
        return -1;
    }
    if (t < 0) {
        snprintf(err, errlen, "-warpsim_hp_tracker %s: expected naive or credit", sm->cfg->hp_tracker);
        return -1;
    }
    if (p == HP_NONE) return 0;
    unsigned delay = (unsigned)sm->cfg->hp_signal_delay;
    if (delay && t != HP_CREDIT) {
        snprintf(err, errlen, "-warpsim_hp_signal_delay %u: applies to the credit tracker only "
                 "(-warpsim_hp_tracker credit)", delay);
        return -1;
    }
    sm->hp = calloc(1, sizeof *sm->hp);
    if (sm->hp && delay) sm->hp->ring = calloc(delay + 1, sizeof *sm->hp->ring);
    bool keys_ok = true;
    if (sm->hp)
        for (int k = 0; k < HP_NPOOL; k++) {
            /* a credit per MSHR: never more keys than entries */
            sm->hp->keys[k] = calloc(ws_cache_get_cfg(pool_cache(sm, k))->mshr_entries + 1,
                                     sizeof(uint64_t));
            keys_ok = keys_ok && sm->hp->keys[k];
        }
    if (!sm->hp || (delay && !sm->hp->ring) || !keys_ok) {
        sm_hp_destroy(sm);
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    sm->hp->delay = delay;
    sm->hp->pred = p;
    sm->hp->tracker = t;
    sm->hp->check = sm->cfg->hp_check;
    /* strict under replay only: a stalling instruction makes all its accesses on one credit,
       so keeping entries for credits there refuses its own later accesses (measured: SS with
       credit true, 7.6% slower than stalling, 0.4% with the thesis's scheme) */
    sm->hp->strict = t == HP_CREDIT && sm->cfg->hp_credit_strict && sm->replay;
    for (int k = 0; k < HP_NPOOL; k++) {
        sm->hp->n[k] = ws_cache_get_cfg(pool_cache(sm, k))->mshr_entries;
        sm->hp->credits[k] = sm->hp->n[k];
    }
    memset(sm->hp->pc, 1, sizeof sm->hp->pc);
    return 0;
}

void sm_hp_destroy(ws_sm *sm) {
    if (sm->hp) {
        free(sm->hp->ring);
        for (int k = 0; k < HP_NPOOL; k++) free(sm->hp->keys[k]);
    }
    free(sm->hp);
    sm->hp = NULL;
}

/* The MSHR pool an access of `in` may need, or -1. */
int sm_hp_pool(const ws_sm *sm, const sm_inst *in) {
    if (!in->is_load || in->is_atomic || !in->active) return -1;
    switch (in->space) {
    case WS_SPACE_CONST: case WS_SPACE_PARAM: return HP_L1C;
    case WS_SPACE_GLOBAL: case WS_SPACE_LOCAL: return sm_ldst_bypasses_l1(sm, in) ? -1 : HP_L1D;
    default: return -1;
    }
}

/* A change the memory stage signals to pool p: at once, or through the
   delay line. */
static void credit_add(sm_hp *h, const ws_sm *sm, int p, int64_t d) {
    if (!h->delay) {
        h->credits[p] += d;
        return;
    }
    h->ring[(sm->now + h->delay) % (h->delay + 1)][p] += d;
    h->pend[p] += d;
}

/* MSHRs freed by fills since the books last looked give their credits back. */
static void sync_pool(sm_hp *h, const ws_sm *sm, int p) {
    unsigned now = ws_cache_mshr_used(pool_cache(sm, p));
    if (now < h->used[p]) {
        credit_add(h, sm, p, h->used[p] - now);
        h->used[p] = now;
    }
}

/* The start of a cycle with a signal delay: the signals due by now arrive
   (every slot once when cycles were skipped), and fills since the last
   cycle are noticed now, not when the pool is next read. */
static void hp_tick(ws_sm *sm) {
    sm_hp *h = sm->hp;
    uint64_t c = h->tick_next, now = sm->now;
    if (now >= h->delay && c < now - h->delay) c = now - h->delay;
    for (; c <= now; c++) {
        int64_t *slot = h->ring[c % (h->delay + 1)];
        for (int p = 0; p < HP_NPOOL; p++) {
            h->credits[p] += slot[p];
            h->pend[p] -= slot[p];
            slot[p] = 0;
        }
    }
    h->tick_next = now + 1;
    for (int p = 0; p < HP_NPOOL; p++) sync_pool(h, sm, p);
}

static bool known_miss(const sm_inst *in) {
    return in->rp_last == SM_HZ_MSHR || in->rp_last == SM_HZ_COMQ || in->rp_last == SM_HZ_RSV;
}

/* The address of the access the next pass makes (oracle, strict credits):
   the L1C's accesses go in the order of their first thread, the L1D's in
   ascending address order (the coalescer's). */
static uint64_t next_addr(const ws_sm *sm, const sm_inst *in) {
    uint64_t lo = UINT64_MAX;
    for (unsigned l = 0; l < WS_WARP_SIZE; l++)
        if (in->rp_pam >> l & 1 || (!in->rp_live && in->active >> l & 1)) {
            uint64_t a = in->addr[l];
            if (in->space == WS_SPACE_CONST) return a + sm->launch.img->const_base;
            if (in->space == WS_SPACE_PARAM) return a + SM_PARAM_BASE;
            if (a < lo) lo = a;
        }
    return lo == UINT64_MAX ? 0 : lo;
}

/* Strict credits: credits in flight whose access will use MSHR address key. */
static unsigned keys_on(const sm_hp *h, int p, uint64_t key) {
    unsigned n = 0;
    for (unsigned i = 0; key && i < h->nkeys[p]; i++) n += h->keys[p][i] == key;
    return n;
}

static void key_drop(sm_hp *h, int p, uint64_t key) {
    for (unsigned i = 0; i < h->nkeys[p]; i++)
        if (h->keys[p][i] == key) {
            h->keys[p][i] = h->keys[p][--h->nkeys[p]];
            return;
        }
}

/* Strict credits: the MSHR address the pass's access will use (0: not
   known here; local addresses are remapped in the LD/ST unit). */
static uint64_t pass_key(const ws_sm *sm, const sm_inst *in, int p) {
    if (in->space == WS_SPACE_LOCAL) return 0;
    return ws_cache_mshr_key(pool_cache(sm, p), next_addr(sm, in));
}

/* Strict credits: would requests to key, counting `extra` more, overrun
   the merge limit of its (pending or new) MSHR entry? */
static bool merge_full(const ws_sm *sm, int p, uint64_t key, unsigned extra) {
    if (!key) return false;
    const ws_cache *c = pool_cache(sm, p);
    int m = ws_cache_mshr_merges(c, key);
    return (unsigned)(m < 0 ? 0 : m) + keys_on(sm->hp, p, key) + extra >
           ws_cache_get_cfg(c)->mshr_max_merge;
}

static bool predicts_miss(const ws_sm *sm, const sm_inst *in, int p) {
    if (known_miss(in)) return true;
    switch (sm->hp->pred) {
    case HP_TRUE: return true;
    case HP_PC: return sm->hp->pc[in->hp_pc % HP_PCS] >= 2;
    case HP_ORACLE:
        /* local addresses are remapped in the LD/ST unit: no oracle for them */
        return in->space == WS_SPACE_LOCAL || !ws_cache_probe_hit(pool_cache(sm, p), next_addr(sm, in));
    default: return false;
    }
}

/* May this pass of `in` go now? Takes a credit when it needs one. */
bool sm_hp_gate(ws_sm *sm, sm_inst *in) {
    sm_hp *h = sm->hp;
    int p = sm_hp_pool(sm, in);
    if (p < 0) return true;
    bool miss = predicts_miss(sm, in, p);
    in->hp_pred = miss ? 1 : 0;
    in->hp_had_credit = false;
    in->hp_known = known_miss(in);
    if (!miss) return true;
    sync_pool(h, sm, p);
    if (h->tracker == HP_NAIVE) {
        if (ws_cache_mshr_used(pool_cache(sm, p)) < h->n[p]) return true;
    } else if (h->credits[p] > 0) {
        uint64_t key = h->strict ? pass_key(sm, in, p) : 0;
        if (!merge_full(sm, p, key, 1)) {
            h->credits[p]--;
            h->in_flight[p]++;
            in->hp_credit = true;
            if (h->strict) h->keys[p][h->nkeys[p]++] = in->hp_key = key;
            return true;
        }
    }
    in->hp_pred = 2; /* held back: predicted again next time */
    return false;
}

/* An access of `in` (NULL: a store whose instruction has left) to the L1D
   (l1c: the L1C) at the checkpoint. u0/u1: the cache's MSHRs in use before
   and after it; through: it did not fail (a stalling access that failed
   is tried again and resolves then; under replay it was squashed). */
void sm_hp_access(ws_sm *sm, sm_inst *in, bool l1c, bool hit, unsigned u0, unsigned u1,
                  bool through) {
    sm_hp *h = sm->hp;
    int p = l1c ? HP_L1C : HP_L1D;
    if (u0 < h->used[p]) { /* fills freed some since the books looked */
        credit_add(h, sm, p, h->used[p] - u0);
        h->used[p] = u0;
    }
    bool allocated = u1 > u0;
    h->used[p] += u1 - u0;
    bool credited = in && in->hp_credit;
    if (in && sm_hp_pool(sm, in) == p && (through || sm->replay)) {
        if (in->hp_pred < 2) { /* this pass's prediction against the outcome */
            sm->st.hp_pred[in->hp_pred ? (hit ? 1 : 0) : (hit ? 3 : 2)]++;
            uint8_t *c = &h->pc[in->hp_pc % HP_PCS];
            if (hit && *c) (*c)--;
            else if (!hit && *c < 3) (*c)++;
            in->hp_pred = 2;
        }
        if (credited) {
            in->hp_credit = false;
            in->hp_had_credit = !through; /* the credited access itself failed (a pass of
                                             several accesses holds one credit, for its first) */
            h->in_flight[p]--;
            if (h->strict) key_drop(h, p, in->hp_key);
            if (!allocated) credit_add(h, sm, p, 1); /* a hit, a merge or a failure: back */
            return;
        }
    }
    if (allocated && !credited && h->tracker == HP_CREDIT)
        credit_add(h, sm, p, -(int64_t)(u1 - u0)); /* a virtual credit for an MSHR someone
                                                        counted on */
}

/* Strict credits: may this access (of `in`, NULL: a store whose instruction
   has left) to the L1D (l1c: the L1C) at addr go into the cache now? No
   when it has no credit and would take an MSHR entry or a merge slot that
   credits in flight hold; *fk then says which. */
bool sm_hp_admit(ws_sm *sm, const sm_inst *in, bool l1c, uint64_t addr, bool write,
                 ws_fail_kind *fk) {
    sm_hp *h = sm->hp;
    int p = l1c ? HP_L1C : HP_L1D;
    if (!h->strict || !h->in_flight[p] || (in && in->hp_credit)) return true;
    const ws_cache *c = pool_cache(sm, p);
    if (write && ws_cache_get_cfg(c)->write_alloc == WS_WA_NONE) return true; /* takes none */
    if (ws_cache_probe_hit(c, addr)) return true;
    uint64_t key = ws_cache_mshr_key(c, addr);
    bool fresh = ws_cache_mshr_merges(c, addr) < 0;
    if (fresh && ws_cache_mshr_used(c) + h->in_flight[p] >= h->n[p]) {
        *fk = WS_FAIL_MSHR_ENTRY;
    } else if (merge_full(sm, p, key, 1)) {
        *fk = fresh ? WS_FAIL_MSHR_ENTRY : WS_FAIL_MSHR_MERGE;
    } else {
        return true;
    }
    sm->st.hp_refused++;
    return false;
}

/* -warpsim_hp_check: the credit books (every cycle). False, with a line on
   stderr, when they do not add up, or when the SM has drained and a credit
   is missing. */
bool sm_hp_check(ws_sm *sm) {
    sm_hp *h = sm->hp;
    if (h->tracker != HP_CREDIT) return true;
    bool drained = !ws_sm_busy(sm);
    for (int p = 0; p < HP_NPOOL; p++) {
        sync_pool(h, sm, p);
        unsigned used = ws_cache_mshr_used(pool_cache(sm, p));
        int64_t all = h->credits[p] + h->pend[p];
        if (all + h->in_flight[p] + (int64_t)used != (int64_t)h->n[p] || h->used[p] != used ||
            (drained && all != (int64_t)h->n[p])) {
            fprintf(stderr,
                    "warpsim: -warpsim_hp_check: SM %u %s: credits %lld (%lld of them on their "
                    "way) + in flight %lld + MSHRs in use %u != %u MSHRs (the books say %u in "
                    "use%s) at cycle %llu\n",
                    sm->env.sm_id, p ? "L1C" : "L1D", (long long)all, (long long)h->pend[p],
                    (long long)h->in_flight[p], used, h->n[p], h->used[p],
                    drained ? "; drained" : "", (unsigned long long)sm->now);
            return false;
        }
    }
    return true;
}

/* Once per cycle when -warpsim_hp_check or a signal delay is on: the
   delay line moves, and the books are checked. */
void sm_hp_cycle(ws_sm *sm) {
    if (sm->hp->delay) hp_tick(sm);
    if (sm->hp_check && !sm_hp_check(sm)) abort(); /* a bookkeeping bug: stop right there */
}

/* Credits when nothing is in flight, those still on their way included
   (tests: all back once a kernel drained). */
int64_t sm_hp_credits(ws_sm *sm, int pool) {
    if (!sm->hp) return -1;
    sync_pool(sm->hp, sm, pool);
    return sm->hp->credits[pool] + sm->hp->pend[pool];
}

/* The credits the issue stage sees now (tests of the signal delay). */
int64_t sm_hp_credits_visible(const ws_sm *sm, int pool) {
    return sm->hp ? sm->hp->credits[pool] : -1;
}
