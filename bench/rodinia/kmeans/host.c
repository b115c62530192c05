/* kmeans: Lloyd's k-means over npoints x 34 features (Rodinia kmeans,
 * k = 5). The GPU transposes the points once, then every iteration the host
 * writes the centres to constant memory, the GPU assigns each point to its
 * nearest centre, and the host counts changed memberships and recomputes the
 * centres; it stops when nothing changes (or after 500 iterations). Points
 * are noisy samples around a few random centres. Each iteration's
 * assignment is checked: the chosen centre must be nearest in double
 * precision (up to a rounding margin). */
#include <math.h>

#include "host_util.h"

extern const char ws_bench_rodinia_kmeans_ptx[], ws_bench_rodinia_kmeans_ptxinfo[];

#define THREADS 256
#define NFEAT 34
#define K 5
#define MAX_ITERS 500

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 494020 points x 34 features, the size of Rodinia's kdd_cup
       input (seed001 gives only a 101 MB footprint; 5 clusters as Rodinia's
       default) */
    const int n = in == WS_INPUT_PAPER ? 494020 : 2048;
    const size_t nf = (size_t)n * NFEAT, bytes = nf * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "kmeans");
    float *pts = wl_host_alloc(&c, bytes);
    int *member = wl_host_alloc(&c, (size_t)n * sizeof(int));
    int *prev = wl_host_alloc(&c, (size_t)n * sizeof(int));
    float cent[K * NFEAT];
    double sums[K * NFEAT];
    int counts[K];
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed010a);
        float blob[8][NFEAT];
        for (int b = 0; b < 8; b++)
            for (int f = 0; f < NFEAT; f++) blob[b][f] = ws_rng_float(&r);
        for (int i = 0; i < n; i++) {
            int b = (int)ws_rng_below(&r, 8);
            for (int f = 0; f < NFEAT; f++)
                pts[(size_t)i * NFEAT + f] = blob[b][f] + 0.3f * (ws_rng_float(&r) - 0.5f);
            prev[i] = -1;
        }
        /* initial centres: the first K points */
        for (int k = 0; k < K; k++)
            for (int f = 0; f < NFEAT; f++) cent[k * NFEAT + f] = pts[(size_t)k * NFEAT + f];
    }
    ws_devptr dpts = wl_upload(&c, pts, bytes);
    ws_devptr dfeat = wl_alloc(&c, bytes);
    ws_devptr dmember = wl_alloc(&c, (size_t)n * sizeof(int));
    ws_devptr dcent = 0;
    size_t csize = 0;
    if (!c.failed && ws_module_get_global(m, "centres", &dcent, &csize) != WS_OK) {
        fprintf(c.log, "kmeans: constant 'centres' not found\n");
        c.failed = 1;
    }
    ws_kernel *kt = wl_kernel(&c, "_Z15transposePointsPKfPfii");
    ws_kernel *kn = wl_kernel(&c, "_Z13nearestCentrePKfiiiPi");
    int nn = n, nfeat = NFEAT, nk = K;
    unsigned blocks = (unsigned)(n / THREADS + (n % THREADS ? 1 : 0));
    unsigned perdim = (unsigned)sqrt((double)blocks) + 1;
    void *at[] = {&dpts, &dfeat, &nn, &nfeat};
    wl_launch(&c, kt, wl_dim(blocks, 1), wl_dim(THREADS, 1), at);

    int iters = 0, delta = 0;
    long bad = 0;
    do {
        if (c.failed) break;
        wl_check(&c, ws_memcpy_htod(d, dcent, cent, sizeof cent), "memcpy to constant");
        wl_check(&c, ws_memcpy_htod(d, dmember, prev, (size_t)n * sizeof(int)), "memcpy host to device");
        void *an[] = {&dfeat, &nfeat, &nn, &nk, &dmember};
        wl_launch(&c, kn, wl_dim(perdim, perdim), wl_dim(THREADS, 1), an);
        wl_download(&c, member, dmember, (size_t)n * sizeof(int));
        if (c.failed) break;
        /* check: the chosen centre is the nearest one */
        for (int i = 0; i < n; i++) {
            double best = INFINITY, got = INFINITY;
            for (int k = 0; k < K; k++) {
                double s = 0.0;
                for (int f = 0; f < NFEAT; f++) {
                    double df = (double)pts[(size_t)i * NFEAT + f] - cent[k * NFEAT + f];
                    s += df * df;
                }
                if (s < best) best = s;
                if (k == member[i]) got = s;
            }
            if (!(got <= best * (1.0 + 1e-5) + 1e-6) && bad++ < WL_MAX_REPORTED)
                fprintf(c.log, "kmeans: iteration %d point %d: centre %d at %.9g, nearest at %.9g\n", iters, i,
                        member[i], got, best);
        }
        /* host: changed memberships and new centres */
        delta = 0;
        memset(sums, 0, sizeof sums);
        memset(counts, 0, sizeof counts);
        for (int i = 0; i < n; i++) {
            int k = member[i];
            if (k < 0 || k >= K) {
                k = 0;
                bad++;
            }
            if (member[i] != prev[i]) delta++;
            prev[i] = member[i];
            counts[k]++;
            for (int f = 0; f < NFEAT; f++) sums[k * NFEAT + f] += pts[(size_t)i * NFEAT + f];
        }
        for (int k = 0; k < K; k++)
            if (counts[k])
                for (int f = 0; f < NFEAT; f++) cent[k * NFEAT + f] = (float)(sums[k * NFEAT + f] / counts[k]);
        iters++;
    } while (delta > 0 && iters < MAX_ITERS);
    c.mismatches += bad;

    char summary[96];
    snprintf(summary, sizeof summary, "points=%d features=%d k=%d iterations=%d", n, NFEAT, K, iters);
    free(pts);
    free(member);
    free(prev);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_kmeans = {
    .name = "kmeans",
    .suite = "rodinia",
    .description = "k-means: nearest-centre kernel over feature-major points, constant-memory centres",
    .ptx = ws_bench_rodinia_kmeans_ptx,
    .ptxinfo = ws_bench_rodinia_kmeans_ptxinfo,
    .run = run,
};
