/* bptree: Rodinia b+tree's two GPU query kernels on a generated B+ tree of
 * order 508 stored as an array of nodes in breadth-first order (root first,
 * leaves last). Keys are sorted with random gaps (so some queries miss),
 * nodes are filled to a random 50-100 %, and every leaf slot points at the
 * record of its key. findK runs a batch of point lookups (one block per
 * query), findRangeK a batch of ranges. The CPU reference is a binary
 * search over the sorted keys. */
#include <limits.h>

#include "host_util.h"

extern const char ws_bench_rodinia_bptree_ptx[], ws_bench_rodinia_bptree_ptxinfo[];

#define ORDER 508

typedef struct {
    int location;
    int indices[ORDER + 1];
    int keys[ORDER + 1];
    int is_leaf;
    int num_keys;
} knode;

/* index of key in sorted[], or -1 */
static long find_key(const int *sorted, long n, int key) {
    long lo = 0, hi = n - 1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if (sorted[mid] == key) return mid;
        if (sorted[mid] < key) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 1M keys with 10000 point queries and 6000 range queries of
       width 3000 (Rodinia's default run with mil.txt and its command file;
       the specs give no size) */
    const int paper = in == WS_INPUT_PAPER;
    const long nkeys = paper ? 1000000 : 250000; /* small: still three levels */
    const int nq = paper ? 10000 : 256, nr = paper ? 6000 : 128, rsize = 3000;
    wl_ctx c;
    wl_init(&c, d, m, log, "bptree");
    ws_rng r;
    ws_rng_seed(&r, 0x5eed010b);

    int *keys = wl_host_alloc(&c, (size_t)nkeys * sizeof(int));
    int *recs = wl_host_alloc(&c, (size_t)nkeys * sizeof(int));
    /* node counts per level: at most nkeys / (ORDER/2) leaves, then fewer */
    long cap = nkeys / (ORDER / 2 - 1) * 2 + 16;
    knode *tmp = wl_host_alloc(&c, (size_t)cap * sizeof(knode));  /* built bottom-up */
    knode *nodes = wl_host_alloc(&c, (size_t)cap * sizeof(knode)); /* breadth-first */
    long level_start[16], level_count[16];
    int levels = 0;
    long total = 0;
    if (!c.failed) {
        int k = 1;
        for (long i = 0; i < nkeys; i++) {
            keys[i] = k;
            k += 1 + (int)ws_rng_below(&r, 3);
            recs[i] = (int)(ws_rng_next(&r) >> 33);
        }
        /* leaves: indices are record numbers */
        long i = 0;
        level_start[0] = 0;
        while (i < nkeys) {
            int fill = ORDER / 2 + (int)ws_rng_below(&r, ORDER / 2); /* 254..507 keys */
            if (nkeys - i < fill) fill = (int)(nkeys - i);
            knode *nd = &tmp[total++];
            nd->is_leaf = 1;
            nd->num_keys = fill;
            for (int s = 0; s <= ORDER; s++) {
                nd->keys[s] = s < fill ? keys[i + s] : INT_MAX;
                nd->indices[s] = s < fill ? (int)(i + s) : 0;
            }
            i += fill;
        }
        level_count[0] = total;
        levels = 1;
        /* inner levels until one node holds the rest; indices are (for now)
           positions in tmp, keys[s] is the smallest key below child s */
        while (level_count[levels - 1] > 1) {
            long first = level_start[levels - 1], cnt = level_count[levels - 1];
            level_start[levels] = total;
            long j = 0;
            while (j < cnt) {
                int fill = ORDER / 2 + (int)ws_rng_below(&r, ORDER / 2 + 1); /* 254..508 children */
                if (cnt <= ORDER) fill = (int)cnt;                           /* the root */
                if (cnt - j < fill) fill = (int)(cnt - j);
                knode *nd = &tmp[total++];
                nd->is_leaf = 0;
                nd->num_keys = fill;
                for (int s = 0; s <= ORDER; s++) {
                    nd->keys[s] = s < fill ? tmp[first + j + s].keys[0] : INT_MAX;
                    nd->indices[s] = s < fill ? (int)(first + j + s) : -1;
                }
                j += fill;
            }
            level_count[levels] = total - level_start[levels];
            levels++;
        }
        /* breadth-first numbering: level levels-1 (root) first */
        long *newpos = malloc((size_t)total * sizeof(long));
        if (!newpos) {
            c.failed = 1;
        } else {
            long pos = 0;
            for (int l = levels - 1; l >= 0; l--)
                for (long q = 0; q < level_count[l]; q++) newpos[level_start[l] + q] = pos++;
            for (long q = 0; q < total; q++) {
                knode *nd = &nodes[newpos[q]];
                *nd = tmp[q];
                nd->location = (int)newpos[q];
                if (!nd->is_leaf)
                    for (int s = 0; s <= ORDER; s++)
                        nd->indices[s] = nd->indices[s] >= 0 ? (int)newpos[nd->indices[s]] : (int)total;
            }
            free(newpos);
        }
    }
    const long height = levels - 1;
    const int maxkey = c.failed ? 0 : keys[nkeys - 1];

    int *qk = wl_host_alloc(&c, (size_t)nq * sizeof(int)), *ans = wl_host_alloc(&c, (size_t)nq * sizeof(int));
    int *rs = wl_host_alloc(&c, (size_t)nr * sizeof(int)), *re = wl_host_alloc(&c, (size_t)nr * sizeof(int));
    int *first = wl_host_alloc(&c, (size_t)nr * sizeof(int)), *len = wl_host_alloc(&c, (size_t)nr * sizeof(int));
    if (!c.failed) {
        for (int q = 0; q < nq; q++) {
            qk[q] = 1 + (int)ws_rng_below(&r, (unsigned)maxkey);
            ans[q] = -1;
        }
        for (int q = 0; q < nr; q++) {
            int s = 1 + (int)ws_rng_below(&r, (unsigned)maxkey), e = s + rsize;
            if (e > maxkey) {
                s -= e - maxkey;
                e = maxkey;
            }
            rs[q] = s;
            re[q] = e;
        }
    }

    ws_devptr dnodes = wl_upload(&c, nodes, (size_t)total * sizeof(knode));
    ws_devptr drecs = wl_upload(&c, recs, (size_t)nkeys * sizeof(int));
    ws_kernel *kk = wl_kernel(&c, "_Z5findKlPK4NodelPK6RecordPlS5_PKiPS2_");
    ws_kernel *kr = wl_kernel(&c, "_Z10findRangeKlPK4NodelPlS2_S2_S2_PKiS4_PiS5_");
    long h = height, nn = total;

    /* point queries */
    ws_devptr dcur = wl_alloc(&c, (size_t)nq * sizeof(long)), dnext = wl_alloc(&c, (size_t)nq * sizeof(long));
    wl_set(&c, dcur, 0, (size_t)nq * sizeof(long));
    wl_set(&c, dnext, 0, (size_t)nq * sizeof(long));
    ws_devptr dqk = wl_upload(&c, qk, (size_t)nq * sizeof(int));
    ws_devptr dans = wl_upload(&c, ans, (size_t)nq * sizeof(int));
    void *ak[] = {&h, &dnodes, &nn, &drecs, &dcur, &dnext, &dqk, &dans};
    wl_launch(&c, kk, wl_dim((unsigned)nq, 1), wl_dim(ORDER, 1), ak);
    wl_download(&c, ans, dans, (size_t)nq * sizeof(int));

    /* range queries */
    ws_devptr dc1 = wl_alloc(&c, (size_t)nr * sizeof(long)), dc2 = wl_alloc(&c, (size_t)nr * sizeof(long));
    ws_devptr dn1 = wl_alloc(&c, (size_t)nr * sizeof(long)), dn2 = wl_alloc(&c, (size_t)nr * sizeof(long));
    wl_set(&c, dc1, 0, (size_t)nr * sizeof(long));
    wl_set(&c, dc2, 0, (size_t)nr * sizeof(long));
    wl_set(&c, dn1, 0, (size_t)nr * sizeof(long));
    wl_set(&c, dn2, 0, (size_t)nr * sizeof(long));
    ws_devptr drs = wl_upload(&c, rs, (size_t)nr * sizeof(int)), dre = wl_upload(&c, re, (size_t)nr * sizeof(int));
    ws_devptr dfirst = wl_alloc(&c, (size_t)nr * sizeof(int)), dlen = wl_alloc(&c, (size_t)nr * sizeof(int));
    wl_set(&c, dfirst, 0, (size_t)nr * sizeof(int));
    wl_set(&c, dlen, 0, (size_t)nr * sizeof(int));
    void *ar[] = {&h, &dnodes, &nn, &dc1, &dc2, &dn1, &dn2, &drs, &dre, &dfirst, &dlen};
    wl_launch(&c, kr, wl_dim((unsigned)nr, 1), wl_dim(ORDER, 1), ar);
    wl_download(&c, first, dfirst, (size_t)nr * sizeof(int));
    wl_download(&c, len, dlen, (size_t)nr * sizeof(int));

    int hits = 0;
    if (!c.failed) {
        for (int q = 0; q < nq; q++) {
            long p = find_key(keys, nkeys, qk[q]);
            hits += p >= 0;
            wl_expect_i64(&c, "findK", q, ans[q], p >= 0 ? recs[p] : -1);
        }
        for (int q = 0; q < nr; q++) {
            long ps = find_key(keys, nkeys, rs[q]), pe = find_key(keys, nkeys, re[q]);
            long f = ps >= 0 ? ps : 0;
            wl_expect_i64(&c, "range.start", q, first[q], f);
            wl_expect_i64(&c, "range.length", q, len[q], pe >= 0 ? pe - f + 1 : 0);
        }
    }

    char summary[128];
    snprintf(summary, sizeof summary, "keys=%ld nodes=%ld height=%ld queries=%d (%d hits) ranges=%d", nkeys,
             total, height, nq, hits, nr);
    free(keys);
    free(recs);
    free(tmp);
    free(nodes);
    free(qk);
    free(ans);
    free(rs);
    free(re);
    free(first);
    free(len);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_bptree = {
    .name = "bptree",
    .suite = "rodinia",
    .description = "B+ tree (order 508) batched lookups: findK and findRangeK, one block per query",
    .ptx = ws_bench_rodinia_bptree_ptx,
    .ptxinfo = ws_bench_rodinia_bptree_ptxinfo,
    .run = run,
};
