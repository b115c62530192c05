/* blackscholes: the CUDA SDK BlackScholes program. OPT_N options (stock price
 * in [5, 30], strike in [1, 100], expiry in [0.25, 10] years), riskless rate
 * 0.02, volatility 0.30; the kernel runs <<<480, 128>>> with a grid-stride
 * loop and the host repeats the launch NUM_ITERATIONS times as the SDK's
 * timing loop does.
 * paper: OPT_N = 4,000,000 (SDK default; no size in the specs), but 4
 *        iterations instead of the SDK's 512 (every iteration is the same
 *        kernel on the same data; 512 would take minutes functionally).
 * small: 65,536 options, 2 iterations. */
#include "host_util.h"

extern const char ws_bench_sdk_blackscholes_ptx[], ws_bench_sdk_blackscholes_ptxinfo[];

static double cnd_ref(double d) {
    const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978,
                 a5 = 1.330274429, inv_sqrt_2pi = 0.39894228040143267794;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double tail = inv_sqrt_2pi * exp(-0.5 * d * d) * k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    return d > 0 ? 1.0 - tail : tail;
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int optN = in == WS_INPUT_PAPER ? 4000000 : 65536;
    const int iterations = in == WS_INPUT_PAPER ? 4 : 2;
    const float riskFree = 0.02f, volatility = 0.30f;
    const size_t bytes = (size_t)optN * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, out, "blackscholes");

    float *S = wl_host_alloc(&c, bytes), *X = wl_host_alloc(&c, bytes), *T = wl_host_alloc(&c, bytes);
    float *call = wl_host_alloc(&c, bytes), *put = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0101);
        for (int i = 0; i < optN; i++) {
            S[i] = 5.0f + 25.0f * ws_rng_float(&r);
            X[i] = 1.0f + 99.0f * ws_rng_float(&r);
            T[i] = 0.25f + 9.75f * ws_rng_float(&r);
        }
    }
    ws_devptr dCall = wl_alloc(&c, bytes), dPut = wl_alloc(&c, bytes);
    ws_devptr dS = wl_upload(&c, S, bytes), dX = wl_upload(&c, X, bytes), dT = wl_upload(&c, T, bytes);
    wl_set(&c, dCall, 0xff, bytes);
    wl_set(&c, dPut, 0xff, bytes);
    ws_kernel *k = wl_kernel(&c, "_Z18blackScholesKernelPfS_PKfS1_S1_ffi");
    float rf = riskFree, vol = volatility;
    int n = optN;
    void *args[] = {&dCall, &dPut, &dS, &dX, &dT, &rf, &vol, &n};
    for (int it = 0; it < iterations && !c.failed; it++)
        wl_launch(&c, k, wl_dim(480, 1), wl_dim(128, 1), args);
    wl_download(&c, call, dCall, bytes);
    wl_download(&c, put, dPut, bytes);

    /* Reference in double. The device uses __expf/__logf and float
       arithmetic; prices reach ~30, so allow 1e-4 relative + 2e-4 absolute. */
    if (!c.failed)
        for (int i = 0; i < optN; i++) {
            double s = S[i], x = X[i], t = T[i], sq = sqrt(t);
            double d1 = (log(s / x) + (riskFree + 0.5 * volatility * volatility) * t) / (volatility * sq);
            double d2 = d1 - volatility * sq;
            double n1 = cnd_ref(d1), n2 = cnd_ref(d2), disc = exp(-riskFree * t);
            wl_expect_near(&c, "call", i, call[i], s * n1 - x * disc * n2, 1e-4, 2e-4);
            wl_expect_near(&c, "put", i, put[i], x * disc * (1.0 - n2) - s * (1.0 - n1), 1e-4, 2e-4);
        }

    char summary[64];
    snprintf(summary, sizeof summary, "options=%d iterations=%d", optN, iterations);
    free(S);
    free(X);
    free(T);
    free(call);
    free(put);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_sdk_blackscholes = {
    .name = "blackscholes",
    .suite = "sdk",
    .description = "Black-Scholes option pricing, grid-stride loop <<<480,128>>> (SDK)",
    .ptx = ws_bench_sdk_blackscholes_ptx,
    .ptxinfo = ws_bench_sdk_blackscholes_ptxinfo,
    .run = run,
};
