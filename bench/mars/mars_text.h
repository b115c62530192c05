/* Host helpers shared by the text-based Mars workloads: a deterministic
 * word vocabulary with a skewed (roughly Zipf) choice of words, and line
 * records over a text buffer. */
#ifndef WARPSIM_BENCH_MARS_TEXT_H
#define WARPSIM_BENCH_MARS_TEXT_H

#include "mars_host.h"

typedef struct {
    int n;
    char (*w)[16];
} mars_vocab;

static inline int mars_vocab_make(wl_ctx *c, mars_vocab *v, int n, ws_rng *r) {
    v->n = n;
    v->w = wl_host_alloc(c, (size_t)n * sizeof *v->w);
    if (!v->w) return 0;
    for (int i = 0; i < n; i++) {
        int len = 2 + (int)ws_rng_below(r, 9);
        for (int j = 0; j < len; j++) v->w[i][j] = (char)('a' + ws_rng_below(r, 26));
        v->w[i][len] = 0;
    }
    return 1;
}

/* skewed pick: small indices much more often */
static inline const char *mars_vocab_pick(const mars_vocab *v, ws_rng *r) {
    float u = ws_rng_float(r);
    int i = (int)((float)v->n * u * u * u);
    return v->w[i < v->n ? i : v->n - 1];
}

/* Split text[0..len) into line records {offset, length without '\n', 0, 0}. */
static inline mars_int4 *mars_line_records(wl_ctx *c, const char *text, int len, int *count) {
    int n = 0;
    for (int i = 0; i < len; i++) n += text[i] == '\n';
    mars_int4 *idx = wl_host_alloc(c, (size_t)(n + 1) * sizeof *idx);
    if (!idx) return NULL;
    int k = 0, start = 0;
    for (int i = 0; i < len; i++)
        if (text[i] == '\n') {
            idx[k].x = start;
            idx[k].y = i - start;
            idx[k].z = 0;
            idx[k].w = 0;
            k++;
            start = i + 1;
        }
    *count = k;
    return idx;
}

/* key order used by the device compare: bytes, then length */
static inline int mars_key_cmp(const char *a, int la, const char *b, int lb) {
    int n = la < lb ? la : lb;
    int r = memcmp(a, b, (size_t)n);
    return r ? r : la - lb;
}

/* host view of records as (key, value) pairs, sortable by key */
typedef struct {
    const char *key, *val;
    int klen, vlen;
} mars_kv;

static inline int mars_kv_cmp(const void *a, const void *b) {
    const mars_kv *x = a, *y = b;
    return mars_key_cmp(x->key, x->klen, y->key, y->klen);
}

static inline mars_kv *mars_kvs(wl_ctx *c, const mars_host_records *h, int sorted) {
    mars_kv *kv = wl_host_alloc(c, (size_t)(h->count + 1) * sizeof *kv);
    if (!kv) return NULL;
    for (int i = 0; i < h->count; i++) {
        kv[i].key = h->keys + h->index[i].x;
        kv[i].klen = h->index[i].y;
        kv[i].val = h->vals + h->index[i].z;
        kv[i].vlen = h->index[i].w;
    }
    if (sorted) qsort(kv, (size_t)h->count, sizeof *kv, mars_kv_cmp);
    return kv;
}

static inline int mars_kv_int(const mars_kv *kv) {
    int v = 0;
    memcpy(&v, kv->val, sizeof v);
    return v;
}

#endif
