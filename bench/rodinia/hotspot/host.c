/* hotspot: transient thermal simulation of a chip on a rows x cols grid
 * (Rodinia HotSpot). The host launches one pyramid step of `pyramid` time
 * steps at a time, swapping the two temperature buffers, until the requested
 * number of steps is done. Temperature and power maps are random. */
#include "host_util.h"

extern const char ws_bench_rodinia_hotspot_ptx[], ws_bench_rodinia_hotspot_ptxinfo[];

#define BLOCK 16
/* chip constants of the original model */
#define MAX_PD 3.0e6
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100.0
#define FACTOR_CHIP 0.5
#define T_CHIP 0.0005
#define CHIP_HEIGHT 0.016
#define CHIP_WIDTH 0.016
#define AMBIENT 80.0f

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 512 x 512, pyramid height 2, 2 steps (Rodinia's default run; no
       size in the specs, seed001 lists a 2 MB footprint = the two 512^2 maps).
       small: 64 x 64 with 5 steps, so the last launch does a shorter pyramid;
       long (sampled simulation): 1024 x 1024 with 10 steps, five launches of
       86 x 86 = 7396 CTAs each (123 waves of 60 CTAs on the GTX480) */
    const int n = in == WS_INPUT_LONG ? 1024 : in == WS_INPUT_PAPER ? 512 : 64;
    const int pyramid = 2, total = in == WS_INPUT_LONG ? 10 : in == WS_INPUT_PAPER ? 2 : 5;
    const size_t cells = (size_t)n * n, bytes = cells * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, "hotspot");
    float *temp = wl_host_alloc(&c, bytes), *power = wl_host_alloc(&c, bytes);
    float *out = wl_host_alloc(&c, bytes), *ref = wl_host_alloc(&c, bytes), *nxt = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0105);
        for (size_t i = 0; i < cells; i++) temp[i] = 323.0f + 20.0f * ws_rng_float(&r);
        for (size_t i = 0; i < cells; i++) power[i] = 0.01f * ws_rng_float(&r);
    }
    double gh = CHIP_HEIGHT / n, gw = CHIP_WIDTH / n;
    float cap = (float)(FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * gw * gh);
    float rx = (float)(gw / (2.0 * K_SI * T_CHIP * gh));
    float ry = (float)(gh / (2.0 * K_SI * T_CHIP * gw));
    float rz = (float)(T_CHIP / (K_SI * gh * gw));
    double max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
    float dt = (float)(PRECISION / max_slope);

    int border = pyramid; /* ghost cells on each side: pyramid * expand rate 2 / 2 */
    int inner = BLOCK - 2 * pyramid;
    unsigned bcols = (unsigned)(n / inner + (n % inner ? 1 : 0));
    unsigned brows = bcols;

    ws_devptr dpow = wl_upload(&c, power, bytes);
    ws_devptr dt0 = wl_upload(&c, temp, bytes);
    ws_devptr dt1 = wl_alloc(&c, bytes);
    ws_kernel *k = wl_kernel(&c, "_Z13calculateTempiPKfS0_Pfiiiifffff");
    ws_devptr buf[2] = {dt0, dt1};
    int src = 1, dst = 0, launches = 0;
    for (int t = 0; t < total && !c.failed; t += pyramid) {
        int tmp = src;
        src = dst;
        dst = tmp;
        int steps = pyramid < total - t ? pyramid : total - t;
        int cols = n, rows = n;
        void *args[] = {&steps, &dpow, &buf[src], &buf[dst], &cols, &rows, &border, &border,
                        &cap, &rx, &ry, &rz, &dt};
        wl_launch(&c, k, wl_dim(bcols, brows), wl_dim(BLOCK, BLOCK), args);
        launches++;
    }
    wl_download(&c, out, buf[dst], bytes);

    if (!c.failed) {
        /* reference: plain step-by-step stencil with insulated edges */
        memcpy(ref, temp, bytes);
        float k_dt = dt / cap, gx = 1.0f / rx, gy = 1.0f / ry, gz = 1.0f / rz;
        for (int t = 0; t < total; t++) {
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    int ny0 = y > 0 ? y - 1 : y, ny1 = y < n - 1 ? y + 1 : y;
                    int nx0 = x > 0 ? x - 1 : x, nx1 = x < n - 1 ? x + 1 : x;
                    float cc = ref[y * n + x];
                    nxt[y * n + x] = cc + k_dt * (power[y * n + x] +
                                                  (ref[ny1 * n + x] + ref[ny0 * n + x] - 2.0f * cc) * gy +
                                                  (ref[y * n + nx1] + ref[y * n + nx0] - 2.0f * cc) * gx +
                                                  (AMBIENT - cc) * gz);
                }
            float *sw = ref;
            ref = nxt;
            nxt = sw;
        }
        for (size_t i = 0; i < cells; i++) wl_expect_near(&c, "temp", (long)i, out[i], ref[i], 1e-5, 1e-4);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "grid=%dx%d steps=%d pyramid=%d launches=%d", n, n, total, pyramid,
             launches);
    free(temp);
    free(power);
    free(out);
    free(ref);
    free(nxt);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_hotspot = {
    .name = "hotspot",
    .suite = "rodinia",
    .description = "2-D thermal stencil with pyramid (ghost-zone) shared-memory tiles",
    .ptx = ws_bench_rodinia_hotspot_ptx,
    .ptxinfo = ws_bench_rodinia_hotspot_ptxinfo,
    .run = run,
    .long_input = "1024 x 1024, 10 steps: five launches of 7396 CTAs",
};
