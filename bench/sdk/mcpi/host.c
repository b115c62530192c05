/* mcpi: the CUDA SDK Monte Carlo pi estimator (pseudo-random variant):
 * initRNG seeds one generator per thread, computeValue <<<grid, 128,
 * 128 * 4>>> counts the points inside the quarter circle per block, and the
 * host adds the block counts. As in the SDK the grid starts at
 * ceil(numSims / 128) blocks and is halved while above 10 blocks per SM
 * (15 SMs, the GTX480 the studies model), so each thread draws several points.
 * paper: numSims = 100,000 (SDK default; no size in the specs).
 * small: numSims = 20,000.
 * The check is exact: the CPU runs the same generators and the same
 * fused multiply-add test. */
#include <stdint.h>

#include "host_util.h"

extern const char ws_bench_sdk_mcpi_ptx[], ws_bench_sdk_mcpi_ptxinfo[];

#define PI_SEED 1234u
#define PI_THREADS 128

typedef struct { uint32_t d, v[5]; } rng_state;

static uint32_t hash_seed(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static uint32_t xorwow_next(rng_state *s) {
    uint32_t t = s->v[0] ^ (s->v[0] >> 2);
    s->v[0] = s->v[1];
    s->v[1] = s->v[2];
    s->v[2] = s->v[3];
    s->v[3] = s->v[4];
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437u;
    return s->v[4] + s->d;
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const unsigned numSims = in == WS_INPUT_PAPER ? 100000u : 20000u;
    unsigned grid = (numSims + PI_THREADS - 1) / PI_THREADS;
    while (grid > 10 * 15) grid >>= 1;
    const unsigned nthreads = grid * PI_THREADS;
    wl_ctx c;
    wl_init(&c, d, m, out, "mcpi");

    uint32_t *counts = wl_host_alloc(&c, grid * sizeof(uint32_t));
    ws_devptr dStates = wl_alloc(&c, (size_t)nthreads * sizeof(rng_state));
    ws_devptr dResults = wl_alloc(&c, grid * sizeof(uint32_t));
    wl_set(&c, dResults, 0xff, grid * sizeof(uint32_t));
    ws_kernel *kinit = wl_kernel(&c, "_Z7initRNGP8RngStatej");
    ws_kernel *kcomp = wl_kernel(&c, "_Z12computeValuePjP8RngStatej");
    unsigned seed = PI_SEED, ns = numSims;
    void *iargs[] = {&dStates, &seed};
    void *cargs[] = {&dResults, &dStates, &ns};
    wl_launch(&c, kinit, wl_dim(grid, 1), wl_dim(PI_THREADS, 1), iargs);
    if (!c.failed)
        wl_check(&c, ws_launch(d, kcomp, wl_dim(grid, 1), wl_dim(PI_THREADS, 1),
                               PI_THREADS * sizeof(uint32_t), cargs), "launch of computeValue");
    if (!c.failed) wl_after_launch(&c);
    wl_download(&c, counts, dResults, grid * sizeof(uint32_t));

    unsigned long long total = 0;
    if (!c.failed) {
        for (unsigned b = 0; b < grid; b++) {
            unsigned long long want = 0;
            for (unsigned t = b * PI_THREADS; t < (b + 1) * PI_THREADS; t++) {
                rng_state s;
                s.d = hash_seed(PI_SEED + t);
                for (unsigned i = 0; i < 5; i++) s.v[i] = hash_seed(PI_SEED ^ (t * 5u + i + 1u) * 0x9e3779b9u);
                s.v[4] |= 1u;
                for (unsigned i = t; i < numSims; i += nthreads) {
                    float x = (float)(xorwow_next(&s) >> 8) * (1.0f / 16777216.0f);
                    float y = (float)(xorwow_next(&s) >> 8) * (1.0f / 16777216.0f);
                    float yy = y * y;
                    if (fmaf(x, x, yy) <= 1.0f) want++;
                }
            }
            wl_expect_i64(&c, "blockCount", (long)b, counts[b], (long long)want);
            total += counts[b];
        }
    }

    char summary[96];
    snprintf(summary, sizeof summary, "sims=%u grid=%u pi~%.5f", numSims, grid,
             4.0 * (double)total / numSims);
    free(counts);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_sdk_mcpi = {
    .name = "mcpi",
    .suite = "sdk",
    .description = "Monte Carlo pi: per-thread xorwow generators, block-reduced hit counts (SDK)",
    .ptx = ws_bench_sdk_mcpi_ptx,
    .ptxinfo = ws_bench_sdk_mcpi_ptxinfo,
    .run = run,
};
