/* backprop: one training step of a 3-layer network (inputs -> 16 hidden ->
 * 1 output) as the Rodinia CUDA program runs it: the GPU computes the input
 * layer's forward pass (per-block partial sums) and the input weight update;
 * the host adds the partial sums, runs the small hidden->output layer and
 * computes the error terms in between. */
#include "host_util.h"

extern const char ws_bench_rodinia_backprop_ptx[], ws_bench_rodinia_backprop_ptxinfo[];

#define TILE 16
#define HIDDEN 16
#define ETA 0.3f
#define MOMENTUM 0.3f

static float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

/* Host part between the two kernels: hidden activations from the partial
 * sums, output layer, error terms, hidden->output weight update. Returns the
 * hidden deltas (HIDDEN + 1, index 0 unused). */
static void middle(const float *partial, int blocks, const float *w_in_bias /* row 0 */,
                   float *hidden, float *who, float *who_prev, float target, float *hdelta) {
    hidden[0] = 1.0f;
    for (int j = 1; j <= HIDDEN; j++) {
        float sum = 0.0f;
        for (int b = 0; b < blocks; b++) sum += partial[b * HIDDEN + j - 1];
        sum += w_in_bias[j];
        hidden[j] = squash(sum);
    }
    float osum = 0.0f;
    for (int j = 0; j <= HIDDEN; j++) osum += who[j * 2 + 1] * hidden[j];
    float out = squash(osum);
    float odelta = out * (1.0f - out) * (target - out);
    for (int j = 1; j <= HIDDEN; j++)
        hdelta[j] = hidden[j] * (1.0f - hidden[j]) * (odelta * who[j * 2 + 1]);
    hdelta[0] = 0.0f;
    for (int j = 0; j <= HIDDEN; j++) {
        float ch = ETA * odelta * hidden[j] + MOMENTUM * who_prev[j * 2 + 1];
        who[j * 2 + 1] += ch;
        who_prev[j * 2 + 1] = ch;
    }
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 65536 input units (Rodinia's default run; seed001 lists a 5 MB
       footprint, which is this size's weight matrices) */
    const int n = in == WS_INPUT_PAPER ? 65536 : 4096;
    const int blocks = n / TILE, stride = HIDDEN + 1;
    const size_t nw = (size_t)(n + 1) * stride;
    wl_ctx c;
    wl_init(&c, d, m, log, "backprop");

    float *units = wl_host_alloc(&c, (size_t)(n + 1) * sizeof(float));
    float *w = wl_host_alloc(&c, nw * sizeof(float));
    float *w_out = wl_host_alloc(&c, nw * sizeof(float));
    float *prev_out = wl_host_alloc(&c, nw * sizeof(float));
    float *partial = wl_host_alloc(&c, (size_t)blocks * HIDDEN * sizeof(float));
    float who[(HIDDEN + 1) * 2], who_prev[(HIDDEN + 1) * 2] = {0};
    float hidden[HIDDEN + 1], hdelta[HIDDEN + 1];
    const float target = 0.1f;
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0101);
        units[0] = 1.0f; /* bias unit */
        for (int i = 1; i <= n; i++) units[i] = ws_rng_float(&r);
        for (size_t i = 0; i < nw; i++) w[i] = (ws_rng_float(&r) - 0.5f) * 0.02f;
        for (int i = 0; i < (HIDDEN + 1) * 2; i++) who[i] = ws_rng_float(&r) - 0.5f;
    }

    ws_devptr dunits = wl_upload(&c, units, (size_t)(n + 1) * sizeof(float));
    ws_devptr dw = wl_upload(&c, w, nw * sizeof(float));
    ws_devptr dpartial = wl_alloc(&c, (size_t)blocks * HIDDEN * sizeof(float));
    ws_devptr ddelta = wl_alloc(&c, (HIDDEN + 1) * sizeof(float));
    ws_devptr dprev = wl_alloc(&c, nw * sizeof(float));
    wl_set(&c, dprev, 0, nw * sizeof(float));
    ws_kernel *kf = wl_kernel(&c, "_Z12layerForwardPKfPfS1_ii");
    ws_kernel *ka = wl_kernel(&c, "_Z13adjustWeightsPKfiS0_iPfS1_");
    int nn = n, hid = HIDDEN;
    void *args_f[] = {&dunits, &dw, &dpartial, &nn, &hid};
    wl_launch(&c, kf, wl_dim(1, (unsigned)blocks), wl_dim(TILE, TILE), args_f);
    wl_download(&c, partial, dpartial, (size_t)blocks * HIDDEN * sizeof(float));
    if (!c.failed) middle(partial, blocks, w, hidden, who, who_prev, target, hdelta);
    if (!c.failed) {
        wl_check(&c, ws_memcpy_htod(d, ddelta, hdelta, sizeof hdelta), "memcpy host to device");
        /* the forward kernel overwrote the weights with products: upload again */
        wl_check(&c, ws_memcpy_htod(d, dw, w, nw * sizeof(float)), "memcpy host to device");
    }
    void *args_a[] = {&ddelta, &hid, &dunits, &nn, &dw, &dprev};
    wl_launch(&c, ka, wl_dim(1, (unsigned)blocks), wl_dim(TILE, TILE), args_a);
    wl_download(&c, w_out, dw, nw * sizeof(float));
    wl_download(&c, prev_out, dprev, nw * sizeof(float));

    if (!c.failed) {
        /* reference in double from the inputs */
        for (int j = 1; j <= HIDDEN; j++) {
            double sum = w[j], mag = fabs(w[j]);
            for (int i = 1; i <= n; i++) {
                sum += (double)w[(size_t)i * stride + j] * units[i];
                mag += fabs((double)w[(size_t)i * stride + j] * units[i]);
            }
            double h = 1.0 / (1.0 + exp(-sum));
            wl_expect_near(&c, "hidden", j, hidden[j], h, 0.0, 1e-5 * mag + 1e-6);
        }
        for (int b = 0; b < blocks; b++)
            for (int j = 0; j < HIDDEN; j++) {
                double s = 0.0, mag = 0.0;
                for (int t = 0; t < TILE; t++) {
                    double p = (double)w[(size_t)(b * TILE + t + 1) * stride + j + 1] * units[b * TILE + t + 1];
                    s += p;
                    mag += fabs(p);
                }
                wl_expect_near(&c, "partial", (long)b * HIDDEN + j, partial[b * HIDDEN + j], s, 0.0,
                               1e-6 * mag + 1e-9);
            }
        /* weight update from the deltas the host used */
        for (int i = 0; i <= n; i++)
            for (int j = 0; j < stride; j++) {
                size_t k = (size_t)i * stride + j;
                double ch = j == 0 ? 0.0 : ETA * (double)hdelta[j] * (i == 0 ? 1.0 : units[i]);
                wl_expect_near(&c, "prev", (long)k, prev_out[k], ch, 1e-5, 1e-9);
                wl_expect_near(&c, "weight", (long)k, w_out[k], w[k] + ch, 1e-5, 1e-9);
            }
    }

    char summary[64];
    snprintf(summary, sizeof summary, "inputs=%d hidden=%d", n, HIDDEN);
    free(units);
    free(w);
    free(w_out);
    free(prev_out);
    free(partial);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_rodinia_backprop = {
    .name = "backprop",
    .suite = "rodinia",
    .description = "neural-network training step: forward pass with shared-memory reduction, weight update",
    .ptx = ws_bench_rodinia_backprop_ptx,
    .ptxinfo = ws_bench_rodinia_backprop_ptxinfo,
    .run = run,
};
