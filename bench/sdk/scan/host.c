/* scan: the CUDA SDK scanLargeArray program: exclusive prefix sum of a
 * float array with the work-efficient scan. prescan_recursive follows the
 * SDK host: 256 threads per block (512 elements), a separate one-block
 * launch for a short last block, the block totals scanned recursively (one
 * totals array per level, allocated up front), then uniformAdd per level.
 * paper: 1,000,000 elements (SDK default; no size in the specs): three
 *        levels (1954 blocks -> 4 blocks -> 1 block).
 * small: 300,000 elements: also three levels, with short last blocks.
 * Inputs are small integers (0..15) stored as float, so every prefix is
 * exact in float and the check is exact. */
#include "host_util.h"

extern const char ws_bench_sdk_scan_ptx[], ws_bench_sdk_scan_ptxinfo[];

#define BLOCK_SIZE 256
#define NUM_BANKS 32
#define MAX_LEVELS 8

typedef struct {
    wl_ctx *c;
    ws_kernel *pre, *preNP2, *preSum, *preSumNP2, *add;
    ws_devptr sums[MAX_LEVELS];
} scanner;

static int is_pow2(int n) { return (n & (n - 1)) == 0; }
static int floor_pow2(int n) {
    int p = 1;
    while (p * 2 <= n) p *= 2;
    return p;
}

static void launch(scanner *s, ws_kernel *k, unsigned grid, unsigned block, size_t shared,
                   void **args) {
    if (s->c->failed) return;
    char what[96];
    snprintf(what, sizeof what, "launch of %s <<<%u, %u, %zu>>>", ws_kernel_name(k), grid, block, shared);
    wl_check(s->c, ws_launch(s->c->d, k, wl_dim(grid, 1), wl_dim(block, 1), shared, args), what);
    if (!s->c->failed) wl_after_launch(s->c);
}

/* like preallocBlockSums: one totals array per level that has several blocks */
static void alloc_sums(scanner *s, int n, int level) {
    int blocks = (n + 2 * BLOCK_SIZE - 1) / (2 * BLOCK_SIZE);
    if (blocks > 1 && level < MAX_LEVELS) {
        s->sums[level] = wl_alloc(s->c, (size_t)blocks * sizeof(float));
        alloc_sums(s, blocks, level + 1);
    }
}

static void prescan_recursive(scanner *s, ws_devptr outp, ws_devptr inp, int n, int level) {
    int numBlocks = (n + 2 * BLOCK_SIZE - 1) / (2 * BLOCK_SIZE);
    if (numBlocks < 1) numBlocks = 1;
    int numThreads = numBlocks > 1 ? BLOCK_SIZE : is_pow2(n) ? n / 2 : floor_pow2(n);
    if (numThreads < 1) numThreads = 1;
    int perBlock = numThreads * 2;
    int lastElts = n - (numBlocks - 1) * perBlock;
    int lastThreads = lastElts / 2 > 1 ? lastElts / 2 : 1;
    int np2Last = 0;
    size_t sharedLast = 0;
    if (lastElts != perBlock) {
        np2Last = 1;
        if (!is_pow2(lastElts)) lastThreads = floor_pow2(lastElts);
        sharedLast = sizeof(float) * (size_t)(2 * lastThreads + 2 * lastThreads / NUM_BANKS);
    }
    size_t shared = sizeof(float) * (size_t)(perBlock + perBlock / NUM_BANKS);
    unsigned grid = (unsigned)(numBlocks - np2Last > 1 ? numBlocks - np2Last : 1);
    ws_devptr none = 0;
    int zero = 0;

    if (numBlocks > 1) {
        if (level >= MAX_LEVELS || !s->sums[level]) {
            fprintf(s->c->log, "scan: too many levels\n");
            s->c->failed = 1;
            return;
        }
        ws_devptr sums = s->sums[level];
        void *a1[] = {&outp, &inp, &sums, &perBlock, &zero, &zero};
        launch(s, s->preSum, grid, (unsigned)numThreads, shared, a1);
        int lastIndex = numBlocks - 1, lastBase = n - lastElts;
        if (np2Last) {
            void *a2[] = {&outp, &inp, &sums, &lastElts, &lastIndex, &lastBase};
            launch(s, s->preSumNP2, 1, (unsigned)lastThreads, sharedLast, a2);
        }
        prescan_recursive(s, sums, sums, numBlocks, level + 1);
        void *a3[] = {&outp, &sums, &perBlock, &zero, &zero};
        launch(s, s->add, grid, (unsigned)numThreads, 0, a3);
        if (np2Last) {
            void *a4[] = {&outp, &sums, &lastElts, &lastIndex, &lastBase};
            launch(s, s->add, 1, (unsigned)lastThreads, 0, a4);
        }
    } else if (is_pow2(n)) {
        void *a[] = {&outp, &inp, &none, &perBlock, &zero, &zero};
        launch(s, s->pre, grid, (unsigned)numThreads, shared, a);
    } else {
        void *a[] = {&outp, &inp, &none, &n, &zero, &zero};
        launch(s, s->preNP2, grid, (unsigned)numThreads, shared, a);
    }
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int n = in == WS_INPUT_PAPER ? 1000000 : 300000;
    const size_t bytes = (size_t)n * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, out, "scan");

    float *h_in = wl_host_alloc(&c, bytes), *h_out = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0108);
        for (int i = 0; i < n; i++) h_in[i] = (float)ws_rng_below(&r, 16);
    }
    scanner s = {.c = &c};
    s.pre = wl_kernel(&c, "_Z7prescanPfPKfS_iii");
    s.preNP2 = wl_kernel(&c, "_Z10prescanNP2PfPKfS_iii");
    s.preSum = wl_kernel(&c, "_Z15prescanStoreSumPfPKfS_iii");
    s.preSumNP2 = wl_kernel(&c, "_Z18prescanStoreSumNP2PfPKfS_iii");
    s.add = wl_kernel(&c, "_Z10uniformAddPfPKfiii");
    ws_devptr dIn = wl_upload(&c, h_in, bytes), dOut = wl_alloc(&c, bytes);
    wl_set(&c, dOut, 0xff, bytes);
    alloc_sums(&s, n, 0);
    prescan_recursive(&s, dOut, dIn, n, 0);
    wl_download(&c, h_out, dOut, bytes);

    double total = 0.0;
    if (!c.failed)
        for (int i = 0; i < n; i++) {
            wl_expect_near(&c, "out", i, h_out[i], total, 0.0, 0.0);
            total += h_in[i];
        }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d total=%.0f", n, total);
    free(h_in);
    free(h_out);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_sdk_scan = {
    .name = "scan",
    .suite = "sdk",
    .description = "work-efficient exclusive scan: per-block up/down sweep, block sums, uniform add (SDK)",
    .ptx = ws_bench_sdk_scan_ptx,
    .ptxinfo = ws_bench_sdk_scan_ptxinfo,
    .run = run,
};
