/* bfs (Rodinia style): breadth-first search over a random undirected graph
 * (each node draws 1-5 random partners; every pair is stored both ways, so
 * the mean degree is about 6 like Rodinia's graph1MW_6). Node records are
 * {first edge, edge count}; the frontier lives in byte flags; the host
 * relaunches both kernels until the device leaves the stop flag clear. */
#include <stdbool.h>

#include "host_util.h"

extern const char ws_bench_rodinia_bfs_ptx[], ws_bench_rodinia_bfs_ptxinfo[];

#define MAX_THREADS_PER_BLOCK 512

typedef struct { int first, count; } node_rec;

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 1M nodes, Rodinia's default input graph1MW_6 (no size in the specs) */
    const int n = in == WS_INPUT_PAPER ? 1 << 20 : 8192;
    wl_ctx c;
    wl_init(&c, d, m, log, "bfs");

    /* pairs first, then CSR */
    ws_rng r;
    ws_rng_seed(&r, 0x5eed0102);
    size_t maxpairs = (size_t)n * 5;
    int *pa = wl_host_alloc(&c, maxpairs * sizeof(int)), *pb = wl_host_alloc(&c, maxpairs * sizeof(int));
    node_rec *nodes = wl_host_alloc(&c, (size_t)n * sizeof(node_rec));
    size_t np = 0;
    if (!c.failed)
        for (int v = 0; v < n; v++) {
            int k = 1 + (int)ws_rng_below(&r, 5);
            for (int i = 0; i < k; i++) {
                pa[np] = v;
                pb[np] = (int)ws_rng_below(&r, (unsigned)n);
                np++;
            }
        }
    const size_t m2 = 2 * np;
    int *edges = wl_host_alloc(&c, m2 * sizeof(int));
    int *fill = wl_host_alloc(&c, (size_t)n * sizeof(int));
    int *cost = wl_host_alloc(&c, (size_t)n * sizeof(int));
    int *want = wl_host_alloc(&c, (size_t)n * sizeof(int));
    int *queue = wl_host_alloc(&c, (size_t)n * sizeof(int));
    bool *mask = wl_host_alloc(&c, (size_t)n), *visited = wl_host_alloc(&c, (size_t)n);
    const int src = 0;
    if (!c.failed) {
        for (size_t i = 0; i < np; i++) {
            nodes[pa[i]].count++;
            nodes[pb[i]].count++;
        }
        int off = 0;
        for (int v = 0; v < n; v++) {
            nodes[v].first = off;
            fill[v] = off;
            off += nodes[v].count;
        }
        for (size_t i = 0; i < np; i++) {
            edges[fill[pa[i]]++] = pb[i];
            edges[fill[pb[i]]++] = pa[i];
        }
        for (int v = 0; v < n; v++) cost[v] = -1;
        cost[src] = 0;
        mask[src] = true;
        visited[src] = true;
    }

    ws_devptr dnodes = wl_upload(&c, nodes, (size_t)n * sizeof(node_rec));
    ws_devptr dedges = wl_upload(&c, edges, m2 * sizeof(int));
    ws_devptr dmask = wl_upload(&c, mask, (size_t)n);
    ws_devptr dupd = wl_alloc(&c, (size_t)n);
    wl_set(&c, dupd, 0, (size_t)n);
    ws_devptr dvisited = wl_upload(&c, visited, (size_t)n);
    ws_devptr dcost = wl_upload(&c, cost, (size_t)n * sizeof(int));
    ws_devptr dstop = wl_alloc(&c, 1);
    ws_kernel *k1 = wl_kernel(&c, "_Z13visitFrontierPK4NodePKiPbS4_PKbPii");
    ws_kernel *k2 = wl_kernel(&c, "_Z14commitFrontierPbS_S_S_i");

    int nn = n;
    void *a1[] = {&dnodes, &dedges, &dmask, &dupd, &dvisited, &dcost, &nn};
    void *a2[] = {&dmask, &dupd, &dvisited, &dstop, &nn};
    unsigned blocks = 1, threads = (unsigned)n;
    if (n > MAX_THREADS_PER_BLOCK) {
        blocks = (unsigned)((n + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK);
        threads = MAX_THREADS_PER_BLOCK;
    }
    int iters = 0;
    unsigned char stop;
    do {
        if (iters > n) {
            fprintf(c.log, "bfs: no convergence after %d levels\n", iters);
            c.failed = 1;
            break;
        }
        stop = 0;
        if (!c.failed) wl_check(&c, ws_memcpy_htod(d, dstop, &stop, 1), "memcpy host to device");
        wl_launch(&c, k1, wl_dim(blocks, 1), wl_dim(threads, 1), a1);
        wl_launch(&c, k2, wl_dim(blocks, 1), wl_dim(threads, 1), a2);
        wl_download(&c, &stop, dstop, 1);
        iters++;
    } while (!c.failed && stop);
    wl_download(&c, cost, dcost, (size_t)n * sizeof(int));

    int reached = 0;
    if (!c.failed) {
        for (int v = 0; v < n; v++) want[v] = -1;
        int head = 0, tail = 0;
        want[src] = 0;
        queue[tail++] = src;
        while (head < tail) {
            int v = queue[head++];
            for (int e = nodes[v].first; e < nodes[v].first + nodes[v].count; e++)
                if (want[edges[e]] < 0) {
                    want[edges[e]] = want[v] + 1;
                    queue[tail++] = edges[e];
                }
        }
        for (int v = 0; v < n; v++) {
            wl_expect_i64(&c, "cost", v, cost[v], want[v]);
            reached += want[v] >= 0;
        }
    }

    char summary[128];
    snprintf(summary, sizeof summary, "nodes=%d edges=%zu reached=%d levels=%d", n, m2, reached, iters);
    free(pa);
    free(pb);
    free(nodes);
    free(edges);
    free(fill);
    free(cost);
    free(want);
    free(queue);
    free(mask);
    free(visited);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_bfs = {
    .name = "bfs",
    .suite = "rodinia",
    .description = "Rodinia BFS: per-node mask/updating flags, two kernels per level, host stop-flag loop",
    .ptx = ws_bench_rodinia_bfs_ptx,
    .ptxinfo = ws_bench_rodinia_bfs_ptxinfo,
    .run = run,
};
