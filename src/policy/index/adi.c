/* ADI, adaptive indexing (seed 003 §2.3, after ASCIB): the set number is
 * S address bits chosen at run time. Three phases repeat:
 *  - VIC (nv misses): per current index bit, an entropy counter (how often
 *    it is 1) and per pair a correlation counter (how often they are equal);
 *    the least useful bit, or the weaker bit of the most correlated pair,
 *    becomes the victim;
 *  - SEL (ns accesses): accesses are clustered by the S-1 remaining index
 *    bits; the candidate bit with the lowest mean relative period (the one
 *    that toggles most often within a cluster) replaces the victim, and the
 *    cache flushes if the index changed;
 *  - IDLE (ni accesses; ni=0: until the owner restarts it, as IACM does
 *    after its 6250-cycle idle sub-phase): no monitoring.
 * Parameters (adi_params) come from the owner's hints (the -adi_* options;
 * the L1D adds skip_gw=1: its global writes are write-evict/no-allocate,
 * so they do not sample) and the spec's arguments, which override them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/index/index.h"

enum { MAX_S = 12, PH_VIC = 0, PH_SEL, PH_IDLE };

typedef struct {
    unsigned S, B, N;
    uint32_t nv, ns, ni;
    bool skip_gw, trans, kreset;
    uint8_t idx[MAX_S];
    unsigned phase;
    uint32_t cnt;
    uint64_t nsel;   /* selections completed */
    /* victimization */
    uint32_t ce[MAX_S], cc[MAX_S][MAX_S];
    unsigned victim; /* slot in idx */
    /* selection */
    unsigned ncand;
    uint8_t cand[64];
    uint32_t *nsamp;  /* per cluster */
    uint32_t *runs;   /* per cluster x candidate: runs of equal values */
    uint64_t *last;   /* per cluster: candidates' last values (bit j = cand[j]) */
} adi_state;

static unsigned bit(uint64_t a, unsigned k) { return (unsigned)(a >> k) & 1; }

static void start_vic(adi_state *s) {
    s->phase = PH_VIC;
    s->cnt = 0;
    memset(s->ce, 0, sizeof s->ce);
    memset(s->cc, 0, sizeof s->cc);
}

static void conventional(adi_state *s) {
    for (unsigned i = 0; i < s->S; i++) s->idx[i] = (uint8_t)(s->B + i);
}

static const ws_param_def adi_params[] = {
    WS_INT("nv", "1024", 1, 4294967295.0, "victimization period, misses"),
    WS_INT("ns", "1024", 1, 4294967295.0, "selection period, accesses"),
    WS_INT("ni", "4096", 0, 4294967295.0,
           "idle period, accesses (0: until the owner restarts it, as IACM does)"),
    WS_BOOL("skip_gw", "0", "global writes do not sample"),
    WS_ENUM("mrp", "exact", "exact|trans",
            "candidate measure: exact mean relative period, or the hardware's transition count"),
    WS_INT("abits", "32", 1, 64, "address width N (candidate bits lie below it)"),
    WS_BOOL("reset", "1", "conventional index bits again at each kernel start"),
};

static void adi_destroy(void *st) {
    adi_state *s = st;
    if (!s) return;
    free(s->nsamp);
    free(s->runs);
    free(s->last);
    free(s);
}

static void *adi_create(const ws_cache_geom *g, ws_params *p, char *err, size_t errlen) {
    int S = ws_log2_exact(g->nsets), B = ws_log2_exact(g->line_size);
    if (S < 1 || S > MAX_S || B < 0) {
        snprintf(err, errlen, "adi index needs 2 to %u sets, a power of two (got %u)", 1u << MAX_S,
                 g->nsets);
        return NULL;
    }
    adi_state *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->S = (unsigned)S;
    s->B = (unsigned)B;
    s->nv = (uint32_t)ws_param_int(p, "nv");
    s->ns = (uint32_t)ws_param_int(p, "ns");
    s->ni = (uint32_t)ws_param_int(p, "ni");
    s->skip_gw = ws_param_bool(p, "skip_gw");
    s->trans = ws_param_enum(p, "mrp") == 1;
    s->N = (unsigned)ws_param_int(p, "abits");
    s->kreset = ws_param_bool(p, "reset");
    if (s->N < s->B + s->S || s->N - s->B - (s->S - 1) > 64) {
        snprintf(err, errlen, "adi index: abits=%u leaves no candidate bits above the %u index bits",
                 s->N, s->S);
        adi_destroy(s);
        return NULL;
    }
    size_t ncl = (size_t)1 << (s->S - 1);
    s->nsamp = calloc(ncl, sizeof *s->nsamp);
    s->runs = calloc(ncl * 64, sizeof *s->runs);
    s->last = calloc(ncl, sizeof *s->last);
    if (!s->nsamp || !s->runs || !s->last) {
        adi_destroy(s);
        return NULL;
    }
    conventional(s);
    start_vic(s);
    return s;
}

static uint32_t adi_set(const void *st, uint64_t a) {
    const adi_state *s = st;
    uint32_t set = 0;
    for (unsigned i = 0; i < s->S; i++) set |= (uint32_t)bit(a, s->idx[i]) << i;
    return set;
}

/* ---- victimization ---- */
static void vic_sample(adi_state *s, uint64_t a) {
    for (unsigned i = 0; i < s->S; i++) {
        unsigned bi = bit(a, s->idx[i]);
        s->ce[i] += bi;
        for (unsigned j = i + 1; j < s->S; j++) s->cc[i][j] += bi == bit(a, s->idx[j]);
    }
}

/* Lower entropy first, then the lower address bit (seed 003 §7.7). */
static bool less_useful(const adi_state *s, const uint32_t *e, unsigned i, unsigned j) {
    return e[i] != e[j] ? e[i] < e[j] : s->idx[i] < s->idx[j];
}

static unsigned choose_victim(const adi_state *s, uint32_t T) {
    uint32_t e[MAX_S];
    unsigned imin = 0;
    for (unsigned i = 0; i < s->S; i++) {
        e[i] = s->ce[i] < T - s->ce[i] ? s->ce[i] : T - s->ce[i];
        if (less_useful(s, e, i, imin)) imin = i;
    }
    if (s->S < 2) return imin;
    /* most correlated pair; ties to the pair with the lowest address bits */
    unsigned p = 0, q = 1;
    uint32_t best = 0;
    unsigned bestlo = 99, besthi = 99;
    for (unsigned i = 0; i < s->S; i++)
        for (unsigned j = i + 1; j < s->S; j++) {
            uint32_t c = s->cc[i][j] > T - s->cc[i][j] ? s->cc[i][j] : T - s->cc[i][j];
            unsigned lo = s->idx[i] < s->idx[j] ? s->idx[i] : s->idx[j];
            unsigned hi = s->idx[i] ^ s->idx[j] ^ lo;
            if (c > best || (c == best && (lo < bestlo || (lo == bestlo && hi < besthi)))) {
                best = c;
                p = i;
                q = j;
                bestlo = lo;
                besthi = hi;
            }
        }
    if (e[imin] < T - best) return imin; /* a bit alone is less useful than the pair */
    return less_useful(s, e, q, p) ? q : p;
}

/* ---- selection ---- */
static void start_sel(adi_state *s) {
    s->phase = PH_SEL;
    s->cnt = 0;
    s->ncand = 0;
    for (unsigned k = s->B; k < s->N; k++) {
        bool remaining = false;
        for (unsigned i = 0; i < s->S; i++) remaining |= i != s->victim && s->idx[i] == k;
        if (!remaining) s->cand[s->ncand++] = (uint8_t)k;
    }
    size_t ncl = (size_t)1 << (s->S - 1);
    memset(s->nsamp, 0, ncl * sizeof *s->nsamp);
    memset(s->runs, 0, ncl * 64 * sizeof *s->runs);
}

static void sel_sample(adi_state *s, uint64_t a) {
    uint32_t cl = 0;
    for (unsigned i = 0, o = 0; i < s->S; i++)
        if (i != s->victim) cl |= (uint32_t)bit(a, s->idx[i]) << o++;
    uint64_t v = 0;
    for (unsigned j = 0; j < s->ncand; j++) v |= (uint64_t)bit(a, s->cand[j]) << j;
    uint32_t *runs = &s->runs[(size_t)cl * 64];
    uint64_t changed = s->nsamp[cl] ? v ^ s->last[cl] : ~0ull; /* the first sample opens a run */
    for (unsigned j = 0; j < s->ncand; j++) runs[j] += (unsigned)(changed >> j) & 1;
    s->last[cl] = v;
    s->nsamp[cl]++;
}

/* Candidate with the lowest mean relative period: the mean over non-empty
   clusters of samples / runs. The transition count instead takes the most
   value changes (runs - 1) summed over clusters. Ties: lowest bit. */
static unsigned choose_bit(const adi_state *s) {
    size_t ncl = (size_t)1 << (s->S - 1);
    unsigned best = 0;
    double best_mrp = 0;
    uint64_t best_tr = 0;
    for (unsigned j = 0; j < s->ncand; j++) {
        double sum = 0;
        uint64_t tr = 0;
        for (size_t c = 0; c < ncl; c++) {
            if (!s->nsamp[c]) continue;
            uint32_t r = s->runs[c * 64 + j];
            sum += (double)s->nsamp[c] / r;
            tr += r - 1;
        }
        /* every candidate sees the same clusters, so comparing sums compares means */
        if (j == 0 || (s->trans ? tr > best_tr : sum < best_mrp)) {
            best = j;
            best_mrp = sum;
            best_tr = tr;
        }
    }
    return s->cand[best];
}

static bool adi_observe(void *st, uint64_t a, ws_index_probe probe, bool global_write) {
    adi_state *s = st;
    bool sample = !(s->skip_gw && global_write);
    switch (s->phase) {
    case PH_VIC:
        if (!sample || probe != WS_IX_MISS) return false;
        vic_sample(s, a);
        if (++s->cnt >= s->nv) {
            s->victim = choose_victim(s, s->cnt);
            start_sel(s);
        }
        return false;
    case PH_SEL:
        if (!sample) return false;
        sel_sample(s, a);
        if (++s->cnt < s->ns) return false;
        s->phase = PH_IDLE;
        s->cnt = 0;
        s->nsel++;
        unsigned nb = choose_bit(s);
        if (nb == s->idx[s->victim]) return false;
        s->idx[s->victim] = (uint8_t)nb;
        return true;
    default:
        if (s->ni && ++s->cnt >= s->ni) start_vic(s);
        return false;
    }
}

static bool adi_kernel_start(void *st) {
    adi_state *s = st;
    if (!s->kreset) return false;
    bool changed = false;
    for (unsigned i = 0; i < s->S; i++) changed |= s->idx[i] != s->B + i;
    conventional(s);
    start_vic(s);
    return changed;
}

static uint64_t adi_selections(const void *st) { return ((const adi_state *)st)->nsel; }

static void adi_restart(void *st) {
    adi_state *s = st;
    if (s->phase == PH_IDLE) start_vic(s);
}

static unsigned adi_index_bits(const void *st, uint8_t *bits, unsigned max) {
    const adi_state *s = st;
    unsigned n = s->S < max ? s->S : max;
    memcpy(bits, s->idx, n);
    return n;
}

const ws_index_policy ws_index_adi = {
    .name = "adi",
    .code = 0,
    .doc = "adaptive indexing: entropy/correlation victim, mean-relative-period selection, "
           "flush on change (defaults from -adi_nv, -adi_ns, -adi_ni)",
    .params = adi_params,
    .nparams = sizeof adi_params / sizeof adi_params[0],
    .create = adi_create,
    .destroy = adi_destroy,
    .set_index = adi_set,
    .observe = adi_observe,
    .kernel_start = adi_kernel_start,
    .index_bits = adi_index_bits,
    .selections = adi_selections,
    .restart = adi_restart,
};
