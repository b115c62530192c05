/* pathfinder: shortest top-to-bottom path cost through a rows x cols grid of
 * random step costs 0..9, moving down one row and at most one column per
 * step. The first row seeds the costs; the host launches one pyramid of
 * `pyramid` rows at a time over 256-thread blocks, swapping the two cost
 * rows, until every row is done. */
#include "host_util.h"

extern const char ws_bench_rodinia_pathfinder_ptx[], ws_bench_rodinia_pathfinder_ptxinfo[];

#define BLOCK 256

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 100000 columns x 100 rows, pyramid height 20 (Rodinia's default
       run; no size in the specs). small: 3000 x 30, so the second launch
       does a shorter pyramid of 9 rows */
    const int paper = in == WS_INPUT_PAPER;
    const int cols = paper ? 100000 : 3000, rows = paper ? 100 : 30, pyramid = 20;
    const size_t cells = (size_t)rows * cols;
    wl_ctx c;
    wl_init(&c, d, m, log, "pathfinder");
    int *data = wl_host_alloc(&c, cells * sizeof(int));
    int *out = wl_host_alloc(&c, (size_t)cols * sizeof(int));
    int *ref = wl_host_alloc(&c, (size_t)cols * sizeof(int)), *nxt = wl_host_alloc(&c, (size_t)cols * sizeof(int));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0111);
        for (size_t i = 0; i < cells; i++) data[i] = (int)ws_rng_below(&r, 10);
    }

    int border = pyramid; /* halo of one column per row of the pyramid */
    int inner = BLOCK - 2 * pyramid;
    unsigned blocks = (unsigned)(cols / inner + (cols % inner ? 1 : 0));

    /* rows 1.. are the walls; row 0 starts the costs */
    ws_devptr dwall = wl_upload(&c, data ? data + cols : NULL, cells * sizeof(int) - (size_t)cols * sizeof(int));
    ws_devptr dres[2];
    dres[0] = wl_upload(&c, data, (size_t)cols * sizeof(int));
    dres[1] = wl_alloc(&c, (size_t)cols * sizeof(int));
    ws_kernel *k = wl_kernel(&c, "_Z8pathStepiPKiS0_Piiiii");
    int src = 1, dst = 0, launches = 0;
    for (int t = 0; t < rows - 1 && !c.failed; t += pyramid) {
        int tmp = src;
        src = dst;
        dst = tmp;
        int steps = pyramid < rows - 1 - t ? pyramid : rows - 1 - t;
        int cc = cols, rr = rows, start = t;
        void *args[] = {&steps, &dwall, &dres[src], &dres[dst], &cc, &rr, &start, &border};
        wl_launch(&c, k, wl_dim(blocks, 1), wl_dim(BLOCK, 1), args);
        launches++;
    }
    wl_download(&c, out, dres[dst], (size_t)cols * sizeof(int));

    if (!c.failed) {
        memcpy(ref, data, (size_t)cols * sizeof(int));
        for (int r = 1; r < rows; r++) {
            const int *w = data + (size_t)r * cols;
            for (int x = 0; x < cols; x++) {
                int best = ref[x];
                if (x > 0 && ref[x - 1] < best) best = ref[x - 1];
                if (x < cols - 1 && ref[x + 1] < best) best = ref[x + 1];
                nxt[x] = best + w[x];
            }
            int *sw = ref;
            ref = nxt;
            nxt = sw;
        }
        for (int x = 0; x < cols; x++) wl_expect_i64(&c, "cost", x, out[x], ref[x]);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "grid=%dx%d pyramid=%d launches=%d", rows, cols, pyramid, launches);
    free(data);
    free(out);
    free(ref);
    free(nxt);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_pathfinder = {
    .name = "pathfinder",
    .suite = "rodinia",
    .description = "dynamic-programming min path over rows, pyramid shared-memory tiling (256-thread blocks)",
    .ptx = ws_bench_rodinia_pathfinder_ptx,
    .ptxinfo = ws_bench_rodinia_pathfinder_ptxinfo,
    .run = run,
};
