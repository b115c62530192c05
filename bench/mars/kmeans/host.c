/* kmeans: the Mars KMeans application: 4-dimensional integer points
 * (coordinates 0..1023, drawn around hidden cluster centers), K clusters
 * started at the first K points. Every iteration is one MapReduce job
 * (map: nearest center -> sort by cluster -> group -> reduce: integer mean)
 * and the host loop stops when no center moves (at most MAX_ITER jobs);
 * 256 threads per block. Integer arithmetic throughout, so the CPU replay
 * must give exactly the same centers after every iteration.
 * paper: 10,752 points x 4 ints = 168 KB (the input size the CIAO paper
 *        gives for KMN), K = 32.
 * small: 1,024 points, K = 16. */
#include "../mars_text.h"

extern const char ws_bench_mars_kmeans_ptx[], ws_bench_mars_kmeans_ptxinfo[];

#define DIM 4
#define MAX_ITER 30

typedef struct {
    uint64_t centers, points;
    int32_t k, pad;
} km_params;

/* one CPU iteration; returns 1 if a center moved */
static int cpu_step(const int *pts, int n, int *cent, int k, int *sum, int *cnt) {
    memset(sum, 0, (size_t)k * DIM * sizeof(int));
    memset(cnt, 0, (size_t)k * sizeof(int));
    for (int i = 0; i < n; i++) {
        int best = 0, bd = 0x7fffffff;
        for (int c = 0; c < k; c++) {
            int dist = 0;
            for (int d = 0; d < DIM; d++) {
                int df = pts[i * DIM + d] - cent[c * DIM + d];
                dist += df * df;
            }
            if (dist < bd) {
                bd = dist;
                best = c;
            }
        }
        cnt[best]++;
        for (int d = 0; d < DIM; d++) sum[best * DIM + d] += pts[i * DIM + d];
    }
    int moved = 0;
    for (int c = 0; c < k; c++)
        if (cnt[c])
            for (int d = 0; d < DIM; d++) {
                int v = sum[c * DIM + d] / cnt[c];
                moved |= v != cent[c * DIM + d];
                cent[c * DIM + d] = v;
            }
    return moved;
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int n = in == WS_INPUT_PAPER ? 10752 : 1024, K = in == WS_INPUT_PAPER ? 32 : 16;
    wl_ctx c;
    wl_init(&c, d, m, out, "kmeans");
    mars_rt rt;
    mars_init(&rt, &c, 1, 1);

    int *pts = wl_host_alloc(&c, (size_t)n * DIM * sizeof(int));
    int *ids = wl_host_alloc(&c, (size_t)n * sizeof(int));
    mars_int4 *idx = wl_host_alloc(&c, (size_t)n * sizeof(mars_int4));
    int *cent = wl_host_alloc(&c, (size_t)K * DIM * sizeof(int));
    int *want = wl_host_alloc(&c, (size_t)K * DIM * sizeof(int));
    int *sum = wl_host_alloc(&c, (size_t)K * DIM * sizeof(int));
    int *cnt = wl_host_alloc(&c, (size_t)K * sizeof(int));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0306);
        int hidden[64 * DIM];
        for (int i = 0; i < 64 * DIM; i++) hidden[i] = 64 + (int)ws_rng_below(&r, 896);
        for (int i = 0; i < n; i++) {
            int h = (int)ws_rng_below(&r, 48);
            for (int dd = 0; dd < DIM; dd++) pts[i * DIM + dd] = hidden[h * DIM + dd] + (int)ws_rng_below(&r, 129) - 64;
            ids[i] = i;
            idx[i] = (mars_int4){i * 4, 4, i * DIM * 4, DIM * 4};
        }
        memcpy(cent, pts, (size_t)K * DIM * sizeof(int));
        memcpy(want, pts, (size_t)K * DIM * sizeof(int));
    }
    ws_devptr dpts = mars_upload(&rt, pts, (size_t)n * DIM * sizeof(int));
    ws_devptr dcent = mars_upload(&rt, cent, (size_t)K * DIM * sizeof(int));
    km_params kp = {dcent, dpts, K, 0};
    ws_devptr dparams = mars_upload(&rt, &kp, sizeof kp);
    mars_records input = {0};
    input.keys = mars_upload(&rt, ids, (size_t)n * sizeof(int));
    input.vals = dpts;
    input.index = mars_upload(&rt, idx, (size_t)n * sizeof(mars_int4));
    input.count = n;
    input.keyBytes = n * 4;
    input.valBytes = n * DIM * 4;

    int iters = 0, moved = 1;
    while (!c.failed && moved && iters < MAX_ITER) {
        int mark = rt.nbufs;
        mars_records inter, output;
        mars_map(&rt, &input, 1, 256, dparams, &inter);
        mars_sort(&rt, &inter);
        ws_devptr ranges;
        int groups = mars_group(&rt, &inter, &ranges);
        mars_reduce(&rt, &inter, ranges, groups, 1, 256, dparams, &output);
        mars_host_records ho;
        mars_fetch(&rt, &output, &ho);
        moved = 0;
        for (int i = 0; i < ho.count && !c.failed; i++) {
            int cl, v[DIM];
            memcpy(&cl, ho.keys + ho.index[i].x, sizeof cl);
            memcpy(v, ho.vals + ho.index[i].z, sizeof v);
            if (cl < 0 || cl >= K) {
                wl_mismatch(&c, "cluster id", i, "%g (of %g)", cl, K);
                break;
            }
            for (int dd = 0; dd < DIM; dd++) {
                moved |= cent[cl * DIM + dd] != v[dd];
                cent[cl * DIM + dd] = v[dd];
            }
        }
        mars_host_free(&ho);
        mars_release(&rt, mark);
        if (!c.failed) wl_check(&c, ws_memcpy_htod(d, dcent, cent, (size_t)K * DIM * sizeof(int)), "memcpy centers");
        iters++;

        /* CPU replay of the same iteration */
        if (!c.failed) {
            int cpu_moved = cpu_step(pts, n, want, K, sum, cnt);
            for (int i = 0; i < K * DIM; i++) wl_expect_i64(&c, "center", (long)iters * 1000 + i, cent[i], want[i]);
            wl_expect_i64(&c, "moved", iters, moved, cpu_moved);
            if (c.mismatches) break;
        }
    }

    char summary[96];
    snprintf(summary, sizeof summary, "points=%d dim=%d k=%d iterations=%d%s launches=%d", n, DIM, K, iters,
             moved ? " (cap)" : "", rt.launches);
    free(pts);
    free(ids);
    free(idx);
    free(cent);
    free(want);
    free(sum);
    free(cnt);
    mars_free(&rt);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_mars_kmeans = {
    .name = "kmeans",
    .suite = "mars",
    .description = "Mars KMeans: map nearest center -> sort -> group -> reduce mean, host loop",
    .ptx = ws_bench_mars_kmeans_ptx,
    .ptxinfo = ws_bench_mars_kmeans_ptxinfo,
    .run = run,
};
