/* similarityscore: the Mars SimilarityScore application: pairwise cosine
 * similarity of N documents with DIM non-negative float features (about a
 * third of them zero), one map record per pair (a < b), then a bitonic sort
 * of the (score, pair) records by score, highest first; 256 threads per
 * block, RECORDS_PER_TASK pairs per thread. Checked: every pair appears
 * once, its score is within 1e-5 of a double reference, and the scores are
 * in non-increasing order.
 * paper: 1024 documents x 128 features = 523,776 pairs (with the pair
 *        records this is about the 23 MB input the CIAO paper gives for SS).
 * small: 90 documents x 32 features = 4,005 pairs. */
#include "../mars_text.h"

extern const char ws_bench_mars_similarityscore_ptx[], ws_bench_mars_similarityscore_ptxinfo[];

typedef struct {
    uint64_t features;
    int32_t dim, pad;
} sim_params;

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int N = in == WS_INPUT_PAPER ? 1024 : 90, DIM = in == WS_INPUT_PAPER ? 128 : 32;
    const int recordsPerTask = in == WS_INPUT_PAPER ? 4 : 1;
    const int pairs = N * (N - 1) / 2;
    wl_ctx c;
    wl_init(&c, d, m, out, "similarityscore");
    mars_rt rt;
    mars_init(&rt, &c, 1, 0);

    float *feat = wl_host_alloc(&c, (size_t)N * DIM * sizeof(float));
    int32_t *pairKeys = wl_host_alloc(&c, (size_t)pairs * 2 * sizeof(int32_t));
    mars_int4 *idx = wl_host_alloc(&c, (size_t)pairs * sizeof(mars_int4));
    unsigned char *seen = wl_host_alloc(&c, (size_t)pairs);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0305);
        for (int i = 0; i < N * DIM; i++) feat[i] = ws_rng_below(&r, 3) == 0 ? 0.0f : ws_rng_float(&r);
        for (int i = 0; i < N; i++) feat[(size_t)i * DIM + (size_t)(i % DIM)] += 0.5f; /* no zero vector */
        int k = 0;
        for (int a = 0; a < N; a++)
            for (int b = a + 1; b < N; b++, k++) {
                pairKeys[2 * k] = a;
                pairKeys[2 * k + 1] = b;
                idx[k] = (mars_int4){k * 8, 8, 0, 0};
            }
    }
    ws_devptr dfeat = mars_upload(&rt, feat, (size_t)N * DIM * sizeof(float));
    sim_params sp = {dfeat, DIM, 0};
    ws_devptr dparams = mars_upload(&rt, &sp, sizeof sp);
    mars_records input = {0}, inter;
    input.keys = mars_upload(&rt, pairKeys, (size_t)pairs * 8);
    input.vals = input.keys;
    input.index = mars_upload(&rt, idx, (size_t)pairs * sizeof(mars_int4));
    input.count = pairs;
    input.keyBytes = pairs * 8;
    mars_map(&rt, &input, recordsPerTask, 256, dparams, &inter);
    mars_sort(&rt, &inter);
    mars_host_records hi;
    mars_fetch(&rt, &inter, &hi);

    float best = 0.0f;
    if (!c.failed) {
        wl_expect_i64(&c, "records", 0, hi.count, pairs);
        float prev = 2.0f;
        for (int i = 0; i < hi.count; i++) {
            float s;
            int32_t p[2];
            memcpy(&s, hi.keys + hi.index[i].x, sizeof s);
            memcpy(p, hi.vals + hi.index[i].z, sizeof p);
            if (i == 0) best = s;
            if (!(s <= prev)) wl_mismatch(&c, "score order", i, "%g after %g", s, prev);
            prev = s;
            if (p[0] < 0 || p[0] >= p[1] || p[1] >= N) {
                wl_mismatch(&c, "pair", i, "%g, %g (invalid)", p[0], p[1]);
                continue;
            }
            long k = (long)p[0] * (2L * N - p[0] - 1) / 2 + (p[1] - p[0] - 1);
            if (seen[k]++) wl_mismatch(&c, "pair repeated", k, "%g, %g", p[0], p[1]);
            double dot = 0, na = 0, nb = 0;
            const float *a = feat + (size_t)p[0] * DIM, *b = feat + (size_t)p[1] * DIM;
            for (int j = 0; j < DIM; j++) {
                dot += (double)a[j] * b[j];
                na += (double)a[j] * a[j];
                nb += (double)b[j] * b[j];
            }
            wl_expect_near(&c, "score", k, s, dot / sqrt(na * nb), 0.0, 1e-5);
        }
    }

    char summary[96];
    snprintf(summary, sizeof summary, "docs=%d dim=%d pairs=%d best=%.4f launches=%d", N, DIM, pairs,
             best, rt.launches);
    mars_host_free(&hi);
    free(feat);
    free(pairKeys);
    free(idx);
    free(seen);
    mars_free(&rt);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_mars_similarityscore = {
    .name = "similarityscore",
    .suite = "mars",
    .description = "Mars SimilarityScore: map cosine similarity per document pair -> sort by score",
    .ptx = ws_bench_mars_similarityscore_ptx,
    .ptxinfo = ws_bench_mars_similarityscore_ptxinfo,
    .run = run,
};
