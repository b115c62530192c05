/* Host side of the Mars-style runtime (see mars_lib.cuh), shared by the
 * bench/mars workloads: the map / sort / group / reduce stages as the Mars
 * scheduler runs them, each a fixed sequence of launches. Device buffers
 * are tracked here (a MapReduce run needs more than wl_ctx holds) and freed
 * by mars_free. Failures go through the wl_ctx and make later calls no-ops. */
#ifndef WARPSIM_BENCH_MARS_HOST_H
#define WARPSIM_BENCH_MARS_HOST_H

#include <stdint.h>

#include "host_util.h"

#define MARS_MAX_BUFS 128
#define MARS_SCAN_ELEMS 512   /* per scan block (256 threads) */
#define MARS_ALIGN_H(n) (((n) + 3) & ~3)

typedef struct { int32_t x, y, z, w; } mars_int4;   /* keyOffset, keySize, valOffset, valSize */
typedef struct { int32_t x, y; } mars_int2;         /* group range [x, y) */

/* a set of records on the device */
typedef struct {
    ws_devptr keys, vals, index;
    int count, keyBytes, valBytes;
} mars_records;

typedef struct {
    wl_ctx *c;
    ws_devptr bufs[MARS_MAX_BUFS];
    int nbufs;
    int launches;
    ws_kernel *mapCount, *map, *scanBlocks, *scanAdd;
    ws_kernel *bitonic, *gather, *mark, *writeGroups;   /* if the app sorts */
    ws_kernel *redCount, *red;                          /* if the app reduces */
} mars_rt;

static inline void mars_init(mars_rt *rt, wl_ctx *c, int sort, int reduce) {
    memset(rt, 0, sizeof *rt);
    rt->c = c;
    rt->mapCount = wl_kernel(c, "_Z15marsMapperCountPKcS0_PK4int4iiPKvPiS6_S6_");
    rt->map = wl_kernel(c, "_Z10marsMapperPKcS0_PK4int4iiPKvPKiS7_S7_PcS8_PS1_");
    rt->scanBlocks = wl_kernel(c, "_Z14marsScanBlocksPiPKiS_i");
    rt->scanAdd = wl_kernel(c, "_Z11marsScanAddPiPKii");
    if (sort) {
        rt->bitonic = wl_kernel(c, "_Z15marsBitonicStepPKcPK4int4Piii");
        rt->gather = wl_kernel(c, "_Z10marsGatherPK4int4PKiPS_i");
        rt->mark = wl_kernel(c, "_Z14marsMarkGroupsPKcPK4int4iPi");
        rt->writeGroups = wl_kernel(c, "_Z15marsWriteGroupsPKiS0_iP4int2");
    }
    if (reduce) {
        rt->redCount = wl_kernel(c, "_Z16marsReducerCountPKcS0_PK4int4PK4int2iiPKvPiS9_S9_");
        rt->red = wl_kernel(c, "_Z11marsReducerPKcS0_PK4int4PK4int2iiPKvPKiSA_SA_PcSB_PS1_");
    }
}

static inline ws_devptr mars_alloc(mars_rt *rt, size_t n) {
    ws_devptr p = 0;
    if (rt->c->failed) return 0;
    if (rt->nbufs == MARS_MAX_BUFS) {
        fprintf(rt->c->log, "%s: too many device buffers\n", rt->c->name);
        rt->c->failed = 1;
        return 0;
    }
    if (wl_check(rt->c, ws_malloc(rt->c->d, n ? n : 4, &p), "cudaMalloc")) return 0;
    rt->bufs[rt->nbufs++] = p;
    return p;
}

static inline ws_devptr mars_upload(mars_rt *rt, const void *src, size_t n) {
    ws_devptr p = mars_alloc(rt, n);
    if (!rt->c->failed && n) wl_check(rt->c, ws_memcpy_htod(rt->c->d, p, src, n), "memcpy host to device");
    return p;
}

static inline void mars_free(mars_rt *rt) {
    for (int i = 0; i < rt->nbufs; i++) ws_free(rt->c->d, rt->bufs[i]);
    rt->nbufs = 0;
}

/* free the buffers allocated since mark = rt->nbufs (for host loops) */
static inline void mars_release(mars_rt *rt, int mark) {
    while (rt->nbufs > mark) ws_free(rt->c->d, rt->bufs[--rt->nbufs]);
}

static inline void mars_launch(mars_rt *rt, ws_kernel *k, unsigned grid, unsigned block, void **args) {
    if (rt->c->failed || grid == 0) return;
    wl_launch(rt->c, k, wl_dim(grid, 1), wl_dim(block, 1), args);
    rt->launches++;
}

static inline int mars_get_int(mars_rt *rt, ws_devptr p, int i) {
    int v = 0;
    wl_download(rt->c, &v, p + (ws_devptr)i * sizeof(int), sizeof v);
    return v;
}

/* out = exclusive scan of in (n ints; out may equal in) */
static inline void mars_scan(mars_rt *rt, ws_devptr out, ws_devptr in, int n) {
    int blocks = (n + MARS_SCAN_ELEMS - 1) / MARS_SCAN_ELEMS;
    if (n <= 0 || rt->c->failed) return;
    ws_devptr sums = mars_alloc(rt, (size_t)blocks * sizeof(int));
    void *a[] = {&out, &in, &sums, &n};
    mars_launch(rt, rt->scanBlocks, (unsigned)blocks, MARS_SCAN_ELEMS / 2, a);
    if (blocks > 1) {
        mars_scan(rt, sums, sums, blocks);
        void *b[] = {&out, &sums, &n};
        mars_launch(rt, rt->scanAdd, (unsigned)blocks, MARS_SCAN_ELEMS / 2, b);
    }
}

/* count pass -> three scans -> totals -> emit pass, for map or reduce */
static inline void mars_two_pass(mars_rt *rt, int tasks, int threads, ws_kernel *kcount,
                                 ws_kernel *kemit, void **count_args_head, int nhead,
                                 mars_records *out) {
    memset(out, 0, sizeof *out);
    if (rt->c->failed) return;
    ws_devptr kb = mars_alloc(rt, (size_t)tasks * sizeof(int));
    ws_devptr vb = mars_alloc(rt, (size_t)tasks * sizeof(int));
    ws_devptr cnt = mars_alloc(rt, (size_t)tasks * sizeof(int));
    void *args[16];
    for (int i = 0; i < nhead; i++) args[i] = count_args_head[i];
    args[nhead] = &kb;
    args[nhead + 1] = &vb;
    args[nhead + 2] = &cnt;
    unsigned grid = (unsigned)(tasks / threads);
    mars_launch(rt, kcount, grid, (unsigned)threads, args);
    int lastK = mars_get_int(rt, kb, tasks - 1), lastV = mars_get_int(rt, vb, tasks - 1);
    int lastC = mars_get_int(rt, cnt, tasks - 1);
    mars_scan(rt, kb, kb, tasks);
    mars_scan(rt, vb, vb, tasks);
    mars_scan(rt, cnt, cnt, tasks);
    out->keyBytes = mars_get_int(rt, kb, tasks - 1) + lastK;
    out->valBytes = mars_get_int(rt, vb, tasks - 1) + lastV;
    out->count = mars_get_int(rt, cnt, tasks - 1) + lastC;
    out->keys = mars_alloc(rt, (size_t)out->keyBytes);
    out->vals = mars_alloc(rt, (size_t)out->valBytes);
    out->index = mars_alloc(rt, (size_t)out->count * sizeof(mars_int4));
    args[nhead] = &kb;
    args[nhead + 1] = &vb;
    args[nhead + 2] = &cnt;
    args[nhead + 3] = &out->keys;
    args[nhead + 4] = &out->vals;
    args[nhead + 5] = &out->index;
    mars_launch(rt, kemit, grid, (unsigned)threads, args);
}

/* Map: blocks of `threads` threads, each block owning recordsPerTask *
   threads consecutive input records. */
static inline void mars_map(mars_rt *rt, mars_records *in, int recordsPerTask, int threads,
                            ws_devptr user, mars_records *out) {
    int chunk = recordsPerTask * threads;
    int blocks = (in->count + chunk - 1) / chunk;
    if (blocks < 1) blocks = 1;
    void *head[] = {&in->keys, &in->vals, &in->index, &in->count, &recordsPerTask, &user};
    mars_two_pass(rt, blocks * threads, threads, rt->mapCount, rt->map, head, 6, out);
}

/* Sort: bitonic sort of the record order by key, then the index is
   gathered into sorted order (keys and values stay where they are). */
static inline void mars_sort(mars_rt *rt, mars_records *recs) {
    int n = recs->count, npad = 1;
    if (rt->c->failed || n < 2) return;
    while (npad < n) npad <<= 1;
    int *perm = wl_host_alloc(rt->c, (size_t)npad * sizeof(int));
    if (!perm) return;
    for (int i = 0; i < npad; i++) perm[i] = i < n ? i : -1;
    ws_devptr dperm = mars_upload(rt, perm, (size_t)npad * sizeof(int));
    free(perm);
    const unsigned threads = 256, grid = (unsigned)((npad + 255) / 256);
    for (int k = 2; k <= npad && !rt->c->failed; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            void *a[] = {&recs->keys, &recs->index, &dperm, &j, &k};
            mars_launch(rt, rt->bitonic, grid, npad < 256 ? (unsigned)npad : threads, a);
        }
    ws_devptr sorted = mars_alloc(rt, (size_t)n * sizeof(mars_int4));
    void *g[] = {&recs->index, &dperm, &sorted, &n};
    mars_launch(rt, rt->gather, (unsigned)(n + 255) / 256, 256, g);
    recs->index = sorted;
}

/* Group sorted records into runs of equal keys; returns the group count
   and the device array of int2 ranges. */
static inline int mars_group(mars_rt *rt, mars_records *recs, ws_devptr *ranges) {
    int n = recs->count;
    *ranges = 0;
    if (rt->c->failed || n == 0) return 0;
    ws_devptr flags = mars_alloc(rt, (size_t)n * sizeof(int));
    ws_devptr before = mars_alloc(rt, (size_t)n * sizeof(int));
    void *a[] = {&recs->keys, &recs->index, &n, &flags};
    mars_launch(rt, rt->mark, (unsigned)(n + 255) / 256, 256, a);
    mars_scan(rt, before, flags, n);
    int groups = mars_get_int(rt, before, n - 1) + mars_get_int(rt, flags, n - 1);
    *ranges = mars_alloc(rt, (size_t)groups * sizeof(mars_int2));
    void *b[] = {&flags, &before, &n, ranges};
    mars_launch(rt, rt->writeGroups, (unsigned)(n + 255) / 256, 256, b);
    return groups;
}

static inline void mars_reduce(mars_rt *rt, mars_records *sorted, ws_devptr ranges, int groups,
                               int groupsPerTask, int threads, ws_devptr user, mars_records *out) {
    int chunk = groupsPerTask * threads;
    int blocks = (groups + chunk - 1) / chunk;
    if (blocks < 1) blocks = 1;
    void *head[] = {&sorted->keys, &sorted->vals, &sorted->index, &ranges, &groups, &groupsPerTask, &user};
    mars_two_pass(rt, blocks * threads, threads, rt->redCount, rt->red, head, 7, out);
}

/* host copies of a record set */
typedef struct {
    char *keys, *vals;
    mars_int4 *index;
    int count;
} mars_host_records;

static inline void mars_fetch(mars_rt *rt, const mars_records *r, mars_host_records *h) {
    memset(h, 0, sizeof *h);
    h->keys = wl_host_alloc(rt->c, (size_t)r->keyBytes);
    h->vals = wl_host_alloc(rt->c, (size_t)r->valBytes);
    h->index = wl_host_alloc(rt->c, (size_t)r->count * sizeof(mars_int4));
    h->count = r->count;
    wl_download(rt->c, h->keys, r->keys, (size_t)r->keyBytes);
    wl_download(rt->c, h->vals, r->vals, (size_t)r->valBytes);
    wl_download(rt->c, h->index, r->index, (size_t)r->count * sizeof(mars_int4));
}

static inline void mars_host_free(mars_host_records *h) {
    free(h->keys);
    free(h->vals);
    free(h->index);
    memset(h, 0, sizeof *h);
}

#endif
