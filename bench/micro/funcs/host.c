/* funcs: out-of-line device functions (several parameters, return values,
 * recursion) and a per-thread array in local memory (insertion sort of 16
 * ints per thread). */
#include <stdint.h>

#include "host_util.h"

extern const char ws_bench_micro_funcs_ptx[], ws_bench_micro_funcs_ptxinfo[];

#define ROW 16       /* must match ROW in kernel.cu */
#define MAX_ORDER 12 /* recursion depth stays small: fib(12) makes 465 calls */

/* CPU versions of the device functions (same arithmetic). */
static int spread_score(int lo, int mid, int hi, int weight, int salt) {
    int spread = hi - lo;
    int skew = (mid - lo) - (hi - mid);
    return spread * weight + skew + ((lo ^ hi ^ salt) & 63);
}

static float blend(float a, float b, float t, int steps) {
    float acc = a;
    for (int s = 0; s < steps; ++s) acc = acc + t * (b - acc);
    return acc;
}

static int fib(int k) {
    int a = 0, b = 1;
    for (int i = 0; i < k; i++) {
        int t = a + b;
        a = b;
        b = t;
    }
    return a;
}

static int cmp_int(const void *x, const void *y) {
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    const int rows = in == WS_INPUT_PAPER ? 32768 : 2048;
    const int n = rows;  /* threads of callMix */
    const size_t vals = (size_t)rows * ROW;
    wl_ctx c;
    wl_init(&c, d, m, log, "funcs");

    int *data = wl_host_alloc(&c, vals * sizeof(int));
    int *sorted = wl_host_alloc(&c, vals * sizeof(int));
    int *score = wl_host_alloc(&c, (size_t)rows * sizeof(int));
    int *order = wl_host_alloc(&c, (size_t)n * sizeof(int));
    float *x = wl_host_alloc(&c, (size_t)n * sizeof(float));
    int *fibs = wl_host_alloc(&c, (size_t)n * sizeof(int));
    float *mixed = wl_host_alloc(&c, (size_t)n * sizeof(float));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0006);
        /* Small value range: many duplicates, which the sort must keep. */
        for (size_t i = 0; i < vals; i++) data[i] = (int)ws_rng_below(&r, 2000) - 1000;
        for (int i = 0; i < n; i++) {
            order[i] = (int)ws_rng_below(&r, MAX_ORDER + 1);
            x[i] = ws_rng_float(&r) * 4.0f - 2.0f;
        }
    }
    ws_devptr din = wl_upload(&c, data, vals * sizeof(int));
    ws_devptr dout = wl_alloc(&c, vals * sizeof(int));
    ws_devptr dscore = wl_alloc(&c, (size_t)rows * sizeof(int));
    ws_devptr dorder = wl_upload(&c, order, (size_t)n * sizeof(int));
    ws_devptr dx = wl_upload(&c, x, (size_t)n * sizeof(float));
    ws_devptr dfib = wl_alloc(&c, (size_t)n * sizeof(int));
    ws_devptr dmixed = wl_alloc(&c, (size_t)n * sizeof(float));

    int nrows = rows, nn = n;
    void *args_sort[] = {&din, &dout, &dscore, &nrows};
    void *args_mix[] = {&dorder, &dx, &dfib, &dmixed, &nn};
    wl_launch(&c, wl_kernel(&c, "_Z8sortRowsPKiPiS1_i"), wl_dim((unsigned)(rows + 127) / 128, 1),
              wl_dim(128, 1), args_sort);
    wl_launch(&c, wl_kernel(&c, "_Z7callMixPKiPKfPiPfi"), wl_dim((unsigned)(n + 127) / 128, 1),
              wl_dim(128, 1), args_mix);
    wl_download(&c, sorted, dout, vals * sizeof(int));
    wl_download(&c, score, dscore, (size_t)rows * sizeof(int));
    wl_download(&c, fibs, dfib, (size_t)n * sizeof(int));
    wl_download(&c, mixed, dmixed, (size_t)n * sizeof(float));

    if (!c.failed) {
        for (int r = 0; r < rows; r++) {
            int *row = data + (size_t)r * ROW;  /* sort the input in place as the reference */
            qsort(row, ROW, sizeof(int), cmp_int);
            for (int i = 0; i < ROW; i++)
                wl_expect_i64(&c, "sorted", (long)r * ROW + i, sorted[(size_t)r * ROW + i], row[i]);
            wl_expect_i64(&c, "score", r, score[r],
                          spread_score(row[0], row[ROW / 2], row[ROW - 1], (r & 7) + 1, r));
        }
        for (int i = 0; i < n; i++) {
            wl_expect_i64(&c, "fib", i, fibs[i], fib(order[i]));
            /* the device may fuse t * (b - acc) + acc into one fma */
            wl_expect_near(&c, "mixed", i, mixed[i], blend(x[i], 1.0f - x[i], 0.25f, order[i]),
                           1e-5, 1e-6);
        }
    }

    char summary[64];
    snprintf(summary, sizeof summary, "rows=%d", rows);
    free(data);
    free(sorted);
    free(score);
    free(order);
    free(x);
    free(fibs);
    free(mixed);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_micro_funcs = {
    .name = "funcs",
    .suite = "micro",
    .description = "__noinline__ and recursive device calls, local-memory insertion sort",
    .ptx = ws_bench_micro_funcs_ptx,
    .ptxinfo = ws_bench_micro_funcs_ptxinfo,
    .run = run,
};
