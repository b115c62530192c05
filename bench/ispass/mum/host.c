/* mum: exact matching of many short reads against a reference through its
 * suffix tree (MUMmerGPU, ISPASS-2009 MUM). The host builds the suffix tree
 * of a random A/C/G/T reference (terminated by '$') by inserting suffixes
 * one by one, renumbers the nodes breadth first and flattens them; reads are
 * copies of reference windows with ~2% substitutions, some from the reverse
 * strand and some random. One thread per read, 256-thread blocks. The CPU
 * repeats each walk (node and length must match exactly) and checks the
 * lengths against a brute-force longest match for a sample of positions. */
#include "host_util.h"

extern const char ws_bench_ispass_mum_ptx[], ws_bench_ispass_mum_ptxinfo[];

#define NODE_INTS 8
#define THREADS 256

typedef struct {
    int start, end;
    int child[5]; /* A C G T $ */
} tnode;

typedef struct {
    tnode *n;
    int count;
} tree;

static int new_node(tree *t, int start, int end) {
    tnode *x = &t->n[t->count];
    x->start = start;
    x->end = end;
    for (int c = 0; c < 5; c++) x->child[c] = -1;
    return t->count++;
}

/* naive suffix insertion; ref[len] == 4 ('$') */
static void build_tree(tree *t, const unsigned char *ref, int len) {
    new_node(t, 0, 0);
    for (int i = 0; i <= len; i++) {
        int cur = 0, pos = i;
        for (;;) {
            int ch = ref[pos], e = t->n[cur].child[ch];
            if (e < 0) {
                t->n[cur].child[ch] = new_node(t, pos, len + 1);
                break;
            }
            int k = t->n[e].start;
            while (k < t->n[e].end && ref[k] == ref[pos]) k++, pos++;
            if (k == t->n[e].end) {
                cur = e;
                continue;
            }
            int mid = new_node(t, t->n[e].start, k);
            t->n[e].start = k;
            t->n[mid].child[ref[k]] = e;
            t->n[cur].child[ch] = mid;
            t->n[mid].child[ref[pos]] = new_node(t, pos, len + 1);
            break;
        }
    }
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 50000 reads of 100 bp (196 blocks of 256, the ISPASS-2009 MUM
       launch) against a 20000 bp reference, minimum match 20 (no size in the
       specs). small: 320 reads of 100 bp (2 blocks, the second partial) against 4000 bp */
    const int paper = in == WS_INPUT_PAPER;
    const int rlen = paper ? 20000 : 4000, nq = paper ? 50000 : 320, qlen = 100, minmatch = 20;
    const size_t qbytes = (size_t)nq * qlen;
    wl_ctx c;
    wl_init(&c, d, m, log, "mum");
    unsigned char *ref = wl_host_alloc(&c, (size_t)rlen + 1), *qs = wl_host_alloc(&c, qbytes);
    int *addrs = wl_host_alloc(&c, (size_t)nq * 4), *lens = wl_host_alloc(&c, (size_t)nq * 4);
    tree t = {0};
    t.n = wl_host_alloc(&c, (size_t)(2 * rlen + 4) * sizeof(tnode));
    int *flat = wl_host_alloc(&c, (size_t)(2 * rlen + 4) * NODE_INTS * 4);
    int *order = wl_host_alloc(&c, (size_t)(2 * rlen + 4) * 4), *newid = wl_host_alloc(&c, (size_t)(2 * rlen + 4) * 4);
    int *out = wl_host_alloc(&c, qbytes * 2 * 4);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0a11);
        for (int i = 0; i < rlen; i++) ref[i] = (unsigned char)ws_rng_below(&r, 4);
        ref[rlen] = 4;
        for (int q = 0; q < nq; q++) {
            unsigned char *p = qs + (size_t)q * qlen;
            int kind = (int)ws_rng_below(&r, 10), at = (int)ws_rng_below(&r, (unsigned)(rlen - qlen));
            for (int i = 0; i < qlen; i++) {
                if (kind < 7) p[i] = ref[at + i];                       /* forward read */
                else if (kind < 9) p[i] = (unsigned char)(3 - ref[at + qlen - 1 - i]); /* reverse complement */
                else p[i] = (unsigned char)ws_rng_below(&r, 4);         /* unrelated */
                if (ws_rng_below(&r, 50) == 0) p[i] = (unsigned char)ws_rng_below(&r, 4);
            }
            addrs[q] = q * qlen;
            lens[q] = qlen;
        }
        build_tree(&t, ref, rlen);
        /* breadth-first numbering, children in A C G T $ order */
        int head = 0, tail = 0;
        order[tail++] = 0;
        while (head < tail) {
            int v = order[head++];
            for (int ch = 0; ch < 5; ch++)
                if (t.n[v].child[ch] >= 0) order[tail++] = t.n[v].child[ch];
        }
        for (int i = 0; i < t.count; i++) newid[order[i]] = i;
        for (int i = 0; i < t.count; i++) {
            const tnode *x = &t.n[order[i]];
            int *f = flat + (size_t)i * NODE_INTS;
            f[0] = x->start;
            f[1] = x->end;
            for (int ch = 0; ch < 4; ch++) f[2 + ch] = x->child[ch] >= 0 ? newid[x->child[ch]] : -1;
            f[6] = x->child[4] >= 0 ? newid[x->child[4]] : -1;
            f[7] = 0;
        }
    }
    ws_devptr dnodes = wl_upload(&c, flat, (size_t)t.count * NODE_INTS * 4);
    ws_devptr dref = wl_upload(&c, ref, (size_t)rlen + 1), dq = wl_upload(&c, qs, qbytes);
    ws_devptr daddr = wl_upload(&c, addrs, (size_t)nq * 4), dlen = wl_upload(&c, lens, (size_t)nq * 4);
    ws_devptr dout = wl_alloc(&c, qbytes * 8);
    wl_set(&c, dout, 0xff, qbytes * 8);
    ws_kernel *k = wl_kernel(&c, "_Z15mummergpuKernelPKiPKhS2_S0_S0_iiP4int2");
    int anq = nq, amin = minmatch;
    void *args[] = {&dnodes, &dref, &dq, &daddr, &dlen, &anq, &amin, &dout};
    wl_launch(&c, k, wl_dim((unsigned)(nq + THREADS - 1) / THREADS, 1), wl_dim(THREADS, 1), args);
    wl_download(&c, out, dout, qbytes * 8);

    long long sum = 0;
    long hits = 0;
    if (!c.failed)
        for (int q = 0; q < nq; q++) {
            const unsigned char *p = qs + addrs[q];
            for (int s = 0; s < qlen; s++) {
                long o = (long)addrs[q] + s;
                int node = -1, matched = -1;
                if (s + minmatch <= lens[q]) {
                    int rest = lens[q] - s;
                    node = 0, matched = 0;
                    while (matched < rest) {
                        int ch = flat[node * NODE_INTS + 2 + p[s + matched]];
                        if (ch < 0) break;
                        int kk = flat[ch * NODE_INTS], end = flat[ch * NODE_INTS + 1];
                        node = ch;
                        while (kk < end && matched < rest && ref[kk] == p[s + matched]) kk++, matched++;
                        if (kk < end) break;
                    }
                    sum += matched;
                    if (matched >= minmatch) hits++;
                    /* brute force for a sample: longest common prefix with any reference suffix */
                    if ((o % 997) == 0) {
                        int best = 0;
                        for (int a = 0; a < rlen; a++) {
                            int l = 0;
                            while (l < rest && a + l < rlen && ref[a + l] == p[s + l]) l++;
                            if (l > best) best = l;
                        }
                        wl_expect_i64(&c, "longest match (brute force)", o, matched, best);
                    }
                }
                wl_expect_i64(&c, "node", o, out[2 * o], node);
                wl_expect_i64(&c, "length", o, out[2 * o + 1], matched);
            }
        }

    char summary[128];
    snprintf(summary, sizeof summary, "ref=%d nodes=%d reads=%dx%d matches>=%d: %ld", rlen, t.count, nq, qlen,
             minmatch, hits);
    (void)sum;
    free(ref);
    free(qs);
    free(addrs);
    free(lens);
    free(t.n);
    free(flat);
    free(order);
    free(newid);
    free(out);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_ispass_mum = {
    .name = "mum",
    .suite = "ispass",
    .description = "MUMmerGPU-style read matching, one thread per read walking a flattened suffix tree",
    .ptx = ws_bench_ispass_mum_ptx,
    .ptxinfo = ws_bench_ispass_mum_ptxinfo,
    .run = run,
};
