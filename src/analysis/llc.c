/* Reuse-distance analyses of a shared LLC (see llc.h). The conflict sets
 * are counted only up to the associativity: once a set holds `ways` other
 * lines the access is a predicted miss. */
#include "analysis/llc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void ws_llc_reuse_distances(const uint64_t *lines, size_t n, uint32_t sets, uint32_t *rd) {
    for (size_t i = 0; i < n; i++) {
        uint64_t L = lines[i];
        size_t j = i;
        bool found = false;
        while (j > 0) {
            if (lines[--j] == L) {
                found = true;
                break;
            }
        }
        if (!found) {
            rd[i] = WS_RD_INF;
            continue;
        }
        /* distinct lines of L's set strictly between j and i */
        uint32_t d = 0;
        for (size_t k = j + 1; k < i; k++) {
            uint64_t M = lines[k];
            if (M == L || M % sets != L % sets) continue;
            bool seen = false;
            for (size_t q = j + 1; q < k && !seen; q++) seen = lines[q] == M;
            d += !seen;
        }
        rd[i] = d;
    }
}

/* A small set of distinct lines, counted up to `cap`. */
typedef struct {
    uint64_t *v;
    uint32_t n, cap;
} lset;

static bool lset_add(lset *s, uint64_t x) { /* true when full */
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i] == x) return s->n >= s->cap;
    if (s->n < s->cap) s->v[s->n++] = x;
    return s->n >= s->cap;
}

/* The methods; out (when not NULL): out[c][n] = 1 where access n of core c
   is a predicted miss. */
static int64_t simple(const ws_llc_trace *t, uint32_t sets, uint32_t ways, uint8_t *const *out) {
    lset s = {malloc((ways + 1) * sizeof(uint64_t)), 0, ways};
    if (!s.v) return -1;
    int64_t miss = 0;
    for (unsigned c = 0; c < t->ncores; c++)
        for (size_t n = 0; n < t->n[c]; n++) {
            uint64_t L = t->lines[c][n];
            s.n = 0;
            /* the previous access on the same core */
            size_t m = n;
            bool prev = false;
            while (m > 0)
                if (t->lines[c][--m] == L) {
                    prev = true;
                    break;
                }
            if (!prev) {
                miss++;
                if (out) out[c][n] = 1;
                continue;
            }
            bool full = false;
            for (size_t k = m + 1; k < n && !full; k++) {
                uint64_t M = t->lines[c][k];
                if (M != L && M % sets == L % sets) full = lset_add(&s, M);
            }
            for (unsigned d = 0; d < t->ncores && !full; d++) {
                if (d == c) continue;
                for (size_t k = 0; k < t->n[d] && !full; k++) {
                    uint64_t M = t->lines[d][k];
                    if (M != L && M % sets == L % sets) full = lset_add(&s, M);
                }
            }
            miss += full;
            if (out) out[c][n] = full;
        }
    free(s.v);
    return miss;
}

int64_t ws_llc_simple(const ws_llc_trace *t, uint32_t sets, uint32_t ways) {
    return simple(t, sets, ways, NULL);
}

static int64_t access_interval(const ws_llc_trace *t, uint32_t sets, uint32_t ways,
                               uint32_t quota, uint8_t *const *out) {
    if (!quota) quota = 1;
    lset s = {malloc((ways + 1) * sizeof(uint64_t)), 0, ways};
    if (!s.v) return -1;
    int64_t miss = 0;
    for (unsigned c = 0; c < t->ncores; c++)
        for (size_t n = 0; n < t->n[c]; n++) {
            uint64_t L = t->lines[c][n];
            size_t E = n / quota;
            /* P: the latest access to L surely before X (largest interval) */
            bool have = false;
            unsigned pc = 0;
            size_t pm = 0, S = 0;
            for (size_t m = n; m > 0;)
                if (t->lines[c][--m] == L) {
                    have = true;
                    pc = c;
                    pm = m;
                    S = m / quota;
                    break;
                }
            for (unsigned d = 0; d < t->ncores; d++) {
                if (d == c) continue;
                size_t lim = E * quota < t->n[d] ? E * quota : t->n[d]; /* intervals < E */
                for (size_t m = lim; m > 0;)
                    if (t->lines[d][--m] == L) {
                        if (!have || m / quota > S) {
                            have = true;
                            pc = d;
                            pm = m;
                            S = m / quota;
                        }
                        break;
                    }
            }
            if (!have) {
                miss++;
                if (out) out[c][n] = 1;
                continue;
            }
            s.n = 0;
            bool full = false;
            for (unsigned d = 0; d < t->ncores && !full; d++) {
                size_t lo = S * quota, hi = (E + 1) * quota;
                if (hi > t->n[d]) hi = t->n[d];
                for (size_t m = lo; m < hi && !full; m++) {
                    if (d == pc && m <= pm) continue;  /* up to P on P's core */
                    if (d == c && m >= n) continue;    /* from X on, on X's core */
                    uint64_t M = t->lines[d][m];
                    if (M != L && M % sets == L % sets) full = lset_add(&s, M);
                }
            }
            miss += full;
            if (out) out[c][n] = full;
        }
    free(s.v);
    return miss;
}

int64_t ws_llc_access_interval(const ws_llc_trace *t, uint32_t sets, uint32_t ways, uint32_t quota) {
    return access_interval(t, sets, ways, quota, NULL);
}

int64_t ws_llc_predict(const ws_llc_trace *t, uint32_t sets, uint32_t ways, uint32_t quota,
                       uint8_t *const *miss) {
    return quota ? access_interval(t, sets, ways, quota, miss) : simple(t, sets, ways, miss);
}

int64_t ws_llc_lru_misses(const ws_llc_trace *t, const unsigned *order, size_t norder,
                          uint32_t sets, uint32_t ways) {
    uint64_t *tag = calloc((size_t)sets * ways, sizeof *tag); /* line + 1, 0: empty */
    uint64_t *age = calloc((size_t)sets * ways, sizeof *age);
    size_t *pos = calloc(t->ncores ? t->ncores : 1, sizeof *pos);
    int64_t miss = 0;
    if (!tag || !age || !pos) miss = -1;
    for (size_t k = 0; k < norder && miss >= 0; k++) {
        unsigned c = order[k];
        if (c >= t->ncores || pos[c] >= t->n[c]) {
            miss = -1;
            break;
        }
        uint64_t L = t->lines[c][pos[c]++];
        uint64_t *tg = tag + (L % sets) * ways, *ag = age + (L % sets) * ways;
        uint32_t w = 0, victim = 0;
        while (w < ways && tg[w] != L + 1) w++;
        if (w == ways) {
            miss++;
            /* an empty way, else the least recently used */
            for (uint32_t i = 1; i < ways; i++)
                if (ag[i] < ag[victim]) victim = i; /* empty ways have age 0 */
            w = victim;
            tg[w] = L + 1;
        }
        ag[w] = k + 1;
    }
    free(tag);
    free(age);
    free(pos);
    return miss;
}
