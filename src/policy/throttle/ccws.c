/* Cache-Conscious Wavefront Scheduling (CCWS; Rogers, O'Connor and Aamodt,
 * MICRO 2012) as a throttle policy: warps that lose their own locality in
 * the L1D get room in the cache by keeping other warps from issuing loads.
 *
 * Per SM (all of its warps are ranked together, so the state is the
 * policy's per-SM part; the per-scheduler states only apply its decision):
 *  - each warp has a victim tag array (VTA): `vta` entries, `ways`-way set
 *    associative, LRU. An L1D line remembers the warp that allocated it;
 *    when it is evicted, its tag goes into that warp's VTA.
 *  - a read miss in the L1D probes the requesting warp's VTA. A hit is lost
 *    locality: the warp's lost-locality score rises by
 *        k * (VTA hits / warp instructions issued, by the SM so far) * cutoff
 *    (the paper's update, which grows with how much of the work misses).
 *  - scores start at `base` and fall by `decay` per cycle back to it.
 *  - cutoff = live warps x base. Warps are stacked by score, highest
 *    first; a warp whose cumulative score passes the cutoff may not issue
 *    global/local loads (other instructions still issue). With every score
 *    at base nothing is gated.
 * Chosen here (not in the paper): a VTA hit removes the entry (the line is
 * coming back into the L1D); a score is capped at the cutoff and the first
 * warp of the stack may always load, so one warp's score cannot stop all
 * loads; warps waiting at a barrier, memory barrier or atomic take no room
 * in the stack (as in swl: holding it could stall the warps they wait for);
 * ties go to the older warp; VTA set = line number mod sets.
 * Parameters: ccws_params. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/throttle/ccws.h"
#include "policy/throttle/limit.h"

typedef struct ccws_args {
    unsigned k, base, vta, ways, decay;
} ccws_args;

typedef struct ccws_sm {
    ccws_args a;
    unsigned n, sets, line;
    uint64_t *tag;          /* [slot][set][way]: line addresses */
    uint64_t *used;         /* LRU stamp of each entry, 0: empty */
    uint64_t stamp;
    uint64_t *score;        /* lost-locality score per slot */
    uint64_t *age;          /* the warp in the slot (a new one starts with base and empty VTA) */
    uint8_t *live, *waiting, *may_load;
    uint16_t *order;        /* ranking scratch */
    bool dirty;             /* scores or warps changed since the last ranking */
    uint64_t hits;          /* VTA hits so far */
    uint64_t insts;         /* warp instructions the SM has issued so far */
    uint64_t last;          /* cycle of the last sm_cycle (0: none yet) */
} ccws_sm;

typedef struct ccws_sched {
    ccws_sm *sm;
    unsigned id;
} ccws_sched;

static const ws_param_def ccws_params[] = {
    WS_INT("k", "8", 0, 1e6, "score gain of a VTA hit (x hits per instruction x cutoff)"),
    WS_INT("base", "100", 1, 1e6, "a warp's base score (cutoff = live warps x base)"),
    WS_INT("vta", "16", 1, 4096, "victim tag array entries per warp (a multiple of ways)"),
    WS_INT("ways", "8", 1, 4096, "victim tag array associativity"),
    WS_INT("decay", "1", 0, 1e6, "score points lost per cycle, down to base"),
};

static int parse(ws_params *p, ccws_args *out, char *err, size_t errlen) {
    *out = (ccws_args){(unsigned)ws_param_int(p, "k"), (unsigned)ws_param_int(p, "base"),
                       (unsigned)ws_param_int(p, "vta"), (unsigned)ws_param_int(p, "ways"),
                       (unsigned)ws_param_int(p, "decay")};
    if (out->vta % out->ways) {
        snprintf(err, errlen, "-warpsim_throttle ccws: vta must be a multiple of ways (got vta=%u "
                 "ways=%u)", out->vta, out->ways);
        return -1;
    }
    return 0;
}

/* ---- per-scheduler part --------------------------------------------------- */
static void *ccws_create(ws_params *p, unsigned n, char *err, size_t errlen) {
    ccws_args a;
    if (parse(p, &a, err, errlen)) return NULL;
    return calloc(1, sizeof(ccws_sched));
}

static void ccws_attach(void *st, void *sm, unsigned id) {
    ccws_sched *s = st;
    s->sm = sm;
    s->id = id;
}

/* Nothing to reset: a new warp in a slot starts afresh (ccws_filter), and
   the hit and instruction totals run over the whole run, so that the first
   hits of a kernel are not weighed against a handful of instructions. */
static void ccws_kernel_start(void *st) {}

static uint64_t cutoff(const ccws_sm *m) {
    unsigned live = 0;
    for (unsigned i = 0; i < m->n; i++) live += m->live[i];
    return (uint64_t)live * m->a.base;
}

/* Stack the warps that may issue by score and mark those past the cutoff. */
static void rank(ccws_sm *m) {
    unsigned cnt = 0;
    for (unsigned i = 0; i < m->n; i++) {
        m->may_load[i] = 1;
        if (m->live[i] && !m->waiting[i]) m->order[cnt++] = (uint16_t)i;
    }
    for (unsigned i = 1; i < cnt; i++) { /* insertion sort: score down, then age up */
        uint16_t x = m->order[i];
        unsigned j = i;
        for (; j > 0; j--) {
            uint16_t y = m->order[j - 1];
            if (m->score[y] > m->score[x] || (m->score[y] == m->score[x] && m->age[y] < m->age[x]))
                break;
            m->order[j] = y;
        }
        m->order[j] = x;
    }
    uint64_t cut = cutoff(m), cum = 0;
    for (unsigned i = 0; i < cnt; i++) {
        cum += m->score[m->order[i]];
        m->may_load[m->order[i]] = i == 0 || cum <= cut;
    }
    m->dirty = false;
}

static void ccws_filter(void *st, ws_sched_warp *w, unsigned n) {
    ccws_sm *m = ((ccws_sched *)st)->sm;
    if (!m) return; /* no per-SM part: nothing to rank */
    for (unsigned i = 0; i < n; i++) {
        unsigned s = w[i].slot;
        if (s >= m->n) continue;
        if (w[i].valid && w[i].age != m->age[s]) { /* a new warp in the slot */
            m->age[s] = w[i].age;
            m->score[s] = m->a.base;
            memset(m->used + (size_t)s * m->a.vta, 0, m->a.vta * sizeof *m->used);
            m->dirty = true;
        }
        uint8_t waiting = w[i].valid && w[i].waiting;
        if (m->live[s] != w[i].valid || m->waiting[s] != waiting) m->dirty = true;
        m->live[s] = w[i].valid;
        m->waiting[s] = waiting;
    }
    if (m->dirty) rank(m);
    for (unsigned i = 0; i < n; i++) {
        unsigned s = w[i].slot;
        w[i].noload = w[i].valid && s < m->n && !m->may_load[s];
        w[i].throttled = w[i].noload && w[i].next_load;
    }
}

/* ---- per-SM part ------------------------------------------------------------ */
static void sm_destroy(void *p) {
    ccws_sm *m = p;
    if (!m) return;
    free(m->tag);
    free(m->used);
    free(m->score);
    free(m->age);
    free(m->live);
    free(m->waiting);
    free(m->may_load);
    free(m->order);
    free(m);
}

static void *sm_create(ws_params *p, unsigned n_warps, unsigned l1d_line, char *err,
                       size_t errlen) {
    ccws_sm *m = calloc(1, sizeof *m);
    if (!m || parse(p, &m->a, err, errlen)) {
        free(m);
        return NULL;
    }
    m->n = n_warps;
    m->sets = m->a.vta / m->a.ways;
    m->line = l1d_line ? l1d_line : 128;
    size_t entries = (size_t)n_warps * m->a.vta;
    m->tag = calloc(entries, sizeof *m->tag);
    m->used = calloc(entries, sizeof *m->used);
    m->score = calloc(n_warps, sizeof *m->score);
    m->age = calloc(n_warps, sizeof *m->age);
    m->live = calloc(n_warps, 1);
    m->waiting = calloc(n_warps, 1);
    m->may_load = calloc(n_warps, 1);
    m->order = calloc(n_warps, sizeof *m->order);
    if (!m->tag || !m->used || !m->score || !m->age || !m->live || !m->waiting || !m->may_load ||
        !m->order) {
        sm_destroy(m);
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    for (unsigned i = 0; i < n_warps; i++) {
        m->score[i] = m->a.base;
        m->age[i] = UINT64_MAX;
        m->may_load[i] = 1;
    }
    return m;
}

/* First entry of slot's VTA set for `block`. */
static size_t vta_set(const ccws_sm *m, unsigned slot, uint64_t block) {
    return (size_t)slot * m->a.vta + (size_t)(block / m->line % m->sets) * m->a.ways;
}

static void sm_evict(void *p, uint64_t block, uint16_t owner, uint16_t evictor) {
    (void)evictor; /* CCWS needs only the victim's owner */
    ccws_sm *m = p;
    if (owner >= m->n) return;
    size_t b = vta_set(m, owner, block), victim = b;
    for (size_t e = b; e < b + m->a.ways; e++) {
        if (m->used[e] && m->tag[e] == block) { /* already there: refresh */
            victim = e;
            break;
        }
        if (m->used[e] < m->used[victim]) victim = e; /* empty (0) or least recently used */
    }
    m->tag[victim] = block;
    m->used[victim] = ++m->stamp;
}

static void sm_read_miss(void *p, uint16_t warp, uint64_t block) {
    ccws_sm *m = p;
    if (warp >= m->n) return;
    size_t b = vta_set(m, warp, block);
    size_t e = b;
    while (e < b + m->a.ways && !(m->used[e] && m->tag[e] == block)) e++;
    if (e == b + m->a.ways) return;
    m->used[e] = 0;
    m->hits++;
    uint64_t cut = cutoff(m), insts = m->insts ? m->insts : 1;
    uint64_t cap = cut > m->a.base ? cut : m->a.base;
    uint64_t up = (uint64_t)m->a.k * m->hits * cut / insts;
    m->score[warp] = m->score[warp] + up < cap ? m->score[warp] + up : cap;
    m->dirty = true;
}

static void sm_cycle(void *p, uint64_t now, uint64_t warp_insts) {
    ccws_sm *m = p;
    m->insts = warp_insts;
    uint64_t dec = (m->last && now > m->last ? now - m->last : 1) * m->a.decay;
    m->last = now;
    for (unsigned i = 0; i < m->n; i++) {
        if (m->score[i] <= m->a.base) continue;
        uint64_t over = m->score[i] - m->a.base;
        m->score[i] -= over < dec ? over : dec;
        m->dirty = true;
    }
}

uint64_t ws_ccws_score(const void *sm, unsigned slot) {
    const ccws_sm *m = sm;
    return slot < m->n ? m->score[slot] : 0;
}
uint64_t ws_ccws_vta_hits(const void *sm) { return ((const ccws_sm *)sm)->hits; }
bool ws_ccws_vta_has(const void *sm, unsigned slot, uint64_t block) {
    const ccws_sm *m = sm;
    if (slot >= m->n) return false;
    size_t b = vta_set(m, slot, block);
    for (size_t e = b; e < b + m->a.ways; e++)
        if (m->used[e] && m->tag[e] == block) return true;
    return false;
}

const ws_throttle_policy ws_throttle_ccws = {
    .name = "ccws",
    .doc = "cache-conscious wavefront scheduling: warps that lose locality (victim tag hits) "
           "keep lower-scored warps from issuing loads",
    .params = ccws_params,
    .nparams = sizeof ccws_params / sizeof ccws_params[0],
    .create = ccws_create,
    .destroy = free,
    .filter = ccws_filter,
    .kernel_start = ccws_kernel_start,
    .sm_create = sm_create,
    .sm_destroy = sm_destroy,
    .sm_attach = ccws_attach,
    .sm_cycle = sm_cycle,
    .l1d_read_miss = sm_read_miss,
    .l1d_evict = sm_evict,
    .needs_next_load = 1,
};
