/* nn: k-nearest-neighbour search: the GPU computes the distance from a
 * query location to every record, the host selects the k smallest. Records
 * are random latitude/longitude pairs in an array of structs. */
#include "host_util.h"

extern const char ws_bench_rodinia_nn_ptx[], ws_bench_rodinia_nn_ptxinfo[];

#define THREADS 256
#define K 10
#define MAX_GRID_X 65535

typedef struct { float lat, lng; } latlong;

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 42764 records, the size of Rodinia's default record list; it
       matches seed001's 334 KB input footprint (8 bytes a record) */
    const int n = in == WS_INPUT_PAPER ? 42764 : 4096;
    const float qlat = 30.0f, qlng = 90.0f;
    wl_ctx c;
    wl_init(&c, d, m, log, "nn");
    latlong *rec = wl_host_alloc(&c, (size_t)n * sizeof(latlong));
    float *dist = wl_host_alloc(&c, (size_t)n * sizeof(float));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0104);
        for (int i = 0; i < n; i++) {
            rec[i].lat = 7.0f + ws_rng_float(&r) * 56.0f;
            rec[i].lng = ws_rng_float(&r) * 358.0f;
        }
    }
    ws_devptr drec = wl_upload(&c, rec, (size_t)n * sizeof(latlong));
    ws_devptr ddist = wl_alloc(&c, (size_t)n * sizeof(float));
    ws_kernel *k = wl_kernel(&c, "_Z6euclidPK7LatLongPfiff");
    /* blocks over a 2-D grid when one row of the grid is not enough */
    unsigned blocks = (unsigned)((n + THREADS - 1) / THREADS);
    unsigned gx = blocks, gy = 1;
    if (blocks > MAX_GRID_X) {
        gy = (blocks + MAX_GRID_X - 1) / MAX_GRID_X;
        gx = (blocks + gy - 1) / gy;
    }
    int nn = n;
    float la = qlat, lo = qlng;
    void *args[] = {&drec, &ddist, &nn, &la, &lo};
    wl_launch(&c, k, wl_dim(gx, gy), wl_dim(THREADS, 1), args);
    wl_download(&c, dist, ddist, (size_t)n * sizeof(float));

    int best[K];
    if (!c.failed) {
        for (int i = 0; i < n; i++) {
            double dl = (double)qlat - rec[i].lat, dg = (double)qlng - rec[i].lng;
            wl_expect_near(&c, "dist", i, dist[i], sqrt(dl * dl + dg * dg), 1e-6, 1e-6);
        }
        /* host selection of the k nearest (by the device's distances) */
        for (int j = 0; j < K; j++) best[j] = -1;
        for (int i = 0; i < n; i++) {
            int pos = K;
            while (pos > 0 && (best[pos - 1] < 0 || dist[best[pos - 1]] > dist[i])) pos--;
            if (pos >= K) continue;
            for (int j = K - 1; j > pos; j--) best[j] = best[j - 1];
            best[pos] = i;
        }
        for (int j = 1; j < K; j++)
            if (best[j] < 0 || dist[best[j]] < dist[best[j - 1]]) wl_expect_i64(&c, "order", j, best[j], -2);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "records=%d k=%d nearest=%.4f", n, K,
             c.failed ? 0.0 : (double)dist[best[0]]);
    free(rec);
    free(dist);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_nn = {
    .name = "nn",
    .suite = "rodinia",
    .description = "nearest neighbour: distance from a query to every lat/long record, host top-k",
    .ptx = ws_bench_rodinia_nn_ptx,
    .ptxinfo = ws_bench_rodinia_nn_ptxinfo,
    .run = run,
};
