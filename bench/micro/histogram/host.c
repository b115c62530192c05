/* histogram: 256-bin byte histogram, per-block shared-memory counts merged
 * with global atomics. The input is skewed (a few bytes are very common) so
 * that lanes of a warp often hit the same bin. */
#include <stdint.h>

#include "host_util.h"

extern const char ws_bench_micro_histogram_ptx[], ws_bench_micro_histogram_ptxinfo[];

#define BINS 256

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    const int nbytes = in == WS_INPUT_PAPER ? (1 << 22) : (1 << 17);
    const int nwords = nbytes / 4;
    wl_ctx c;
    wl_init(&c, d, m, log, "histogram");

    uint8_t *data = wl_host_alloc(&c, (size_t)nbytes);
    uint32_t want[BINS] = {0}, got[BINS] = {0};
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0004);
        for (int i = 0; i < nbytes; i++) {
            unsigned x = ws_rng_below(&r, 100);
            /* 40% from 4 hot values, 20% from 16 warm ones, the rest uniform */
            uint8_t v = x < 40 ? (uint8_t)(0x41 + 17 * (x & 3))
                      : x < 60 ? (uint8_t)(0x80 + (x & 15))
                               : (uint8_t)ws_rng_below(&r, 256);
            data[i] = v;
            want[v]++;
        }
    }
    ws_devptr dd = wl_upload(&c, data, (size_t)nbytes);
    ws_devptr dh = wl_alloc(&c, sizeof got);
    wl_set(&c, dh, 0, sizeof got);
    int nw = nwords;
    void *args[] = {&dd, &nw, &dh};
    /* 8 words per thread on average: the grid-stride loop runs several times */
    unsigned blocks = (unsigned)((nwords + 256 * 8 - 1) / (256 * 8));
    wl_launch(&c, wl_kernel(&c, "_Z12histogram256PKjiPj"), wl_dim(blocks, 1), wl_dim(256, 1), args);
    wl_download(&c, got, dh, sizeof got);

    if (!c.failed)
        for (int b = 0; b < BINS; b++) wl_expect_i64(&c, "hist", b, got[b], want[b]);

    char summary[96];
    snprintf(summary, sizeof summary, "bytes=%d blocks=%u", nbytes, blocks);
    free(data);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_micro_histogram = {
    .name = "histogram",
    .suite = "micro",
    .description = "256-bin histogram: shared-memory atomics merged with global atomics",
    .ptx = ws_bench_micro_histogram_ptx,
    .ptxinfo = ws_bench_micro_histogram_ptxinfo,
    .run = run,
};
