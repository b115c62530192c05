/* bfs: level-synchronous BFS on a random graph in CSR form. Most nodes have
 * 1-8 out-edges; about 1 in 100 is a hub with hundreds, so the lanes of a
 * warp walk very different edge counts. A slice of the nodes has no
 * in-edges from the rest, so some levels stay -1 (unreachable). */
#include <stdint.h>

#include "host_util.h"

extern const char ws_bench_micro_bfs_ptx[], ws_bench_micro_bfs_ptxinfo[];

typedef struct {
    int n, m;
    int *row;  /* n + 1 offsets */
    int *adj;  /* m targets */
} graph;

static int make_graph(wl_ctx *c, graph *g, int n, unsigned long long seed) {
    ws_rng r;
    ws_rng_seed(&r, seed);
    g->n = n;
    g->row = wl_host_alloc(c, (size_t)(n + 1) * sizeof(int));
    if (c->failed) return 0;
    /* degrees first, then targets */
    g->row[0] = 0;
    for (int v = 0; v < n; v++) {
        int deg = ws_rng_below(&r, 100) == 0 ? 100 + (int)ws_rng_below(&r, 400)
                                               : 1 + (int)ws_rng_below(&r, 8);
        g->row[v + 1] = g->row[v] + deg;
    }
    g->m = g->row[n];
    g->adj = wl_host_alloc(c, (size_t)g->m * sizeof(int));
    if (c->failed) return 0;
    /* The last n/16 nodes only point among themselves and nothing points
       into them: unreachable from node 0. */
    int island = n - n / 16;
    for (int v = 0; v < n; v++)
        for (int e = g->row[v]; e < g->row[v + 1]; e++)
            g->adj[e] = v >= island ? island + (int)ws_rng_below(&r, (unsigned)(n - island))
                                    : (int)ws_rng_below(&r, (unsigned)island);
    return 1;
}

static void cpu_bfs(const graph *g, int src, int *level, int *queue) {
    for (int v = 0; v < g->n; v++) level[v] = -1;
    int head = 0, tail = 0;
    level[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++];
        for (int e = g->row[v]; e < g->row[v + 1]; e++)
            if (level[g->adj[e]] < 0) {
                level[g->adj[e]] = level[v] + 1;
                queue[tail++] = g->adj[e];
            }
    }
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    const int n = in == WS_INPUT_PAPER ? 65536 : 8192;
    const int src = 0;
    wl_ctx c;
    wl_init(&c, d, m, log, "bfs");
    graph g = {0};
    make_graph(&c, &g, n, 0x5eed0005);

    int *level = wl_host_alloc(&c, (size_t)n * sizeof(int));
    int *want = wl_host_alloc(&c, (size_t)n * sizeof(int));
    int *queue = wl_host_alloc(&c, (size_t)n * sizeof(int));
    uint8_t *mask = wl_host_alloc(&c, (size_t)n);
    if (!c.failed) {
        for (int v = 0; v < n; v++) level[v] = -1;
        level[src] = 0;
        mask[src] = 1;
    }
    ws_devptr drow = wl_upload(&c, g.row, (size_t)(n + 1) * sizeof(int));
    ws_devptr dadj = wl_upload(&c, g.adj, (size_t)g.m * sizeof(int));
    ws_devptr dlevel = wl_upload(&c, level, (size_t)n * sizeof(int));
    ws_devptr dfrontier = wl_upload(&c, mask, (size_t)n);  /* only the source */
    ws_devptr dvisited = wl_upload(&c, mask, (size_t)n);
    ws_devptr dnext = wl_alloc(&c, (size_t)n);
    wl_set(&c, dnext, 0, (size_t)n);
    ws_devptr dchanged = wl_alloc(&c, sizeof(int));
    ws_kernel *expand = wl_kernel(&c, "_Z9bfsExpandPKiS0_iPhS1_PKhPi");
    ws_kernel *advance = wl_kernel(&c, "_Z10bfsAdvanceiPhS_S_Pi");

    int nn = n;
    void *args_expand[] = {&drow, &dadj, &nn, &dfrontier, &dnext, &dvisited, &dlevel};
    void *args_advance[] = {&nn, &dfrontier, &dnext, &dvisited, &dchanged};
    const unsigned threads = 256, blocks = (unsigned)(n + 255) / 256;
    int levels = 0, changed = 1;
    /* A BFS has at most n levels; more iterations means the device never
       stops reporting changes. */
    while (!c.failed && changed) {
        if (levels > n) {
            fprintf(c.log, "bfs: no convergence after %d levels\n", levels);
            c.failed = 1;
            break;
        }
        changed = 0;
        wl_set(&c, dchanged, 0, sizeof(int));
        wl_launch(&c, expand, wl_dim(blocks, 1), wl_dim(threads, 1), args_expand);
        wl_launch(&c, advance, wl_dim(blocks, 1), wl_dim(threads, 1), args_advance);
        wl_download(&c, &changed, dchanged, sizeof changed);
        levels++;
    }
    wl_download(&c, level, dlevel, (size_t)n * sizeof(int));

    int reached = 0;
    if (!c.failed) {
        cpu_bfs(&g, src, want, queue);
        for (int v = 0; v < n; v++) {
            wl_expect_i64(&c, "level", v, level[v], want[v]);
            reached += want[v] >= 0;
        }
    }

    char summary[128];
    snprintf(summary, sizeof summary, "nodes=%d edges=%d reached=%d launches=%d", n, g.m,
             reached, 2 * levels);
    free(g.row);
    free(g.adj);
    free(level);
    free(want);
    free(queue);
    free(mask);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_micro_bfs = {
    .name = "bfs",
    .suite = "micro",
    .description = "level-synchronous BFS over a random CSR graph with hub nodes",
    .ptx = ws_bench_micro_bfs_ptx,
    .ptxinfo = ws_bench_micro_bfs_ptxinfo,
    .run = run,
};
