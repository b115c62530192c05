/* montecarlo: the CUDA SDK MonteCarlo option pricer (the version with a
 * separate random-number stage): randomKernel and boxMullerKernel
 * <<<32, 128>>> fill PATH_N normal samples (4096 generators x PATH_N/4096
 * each), then monteCarloOneBlockPerOption <<<OPT_N, 256>>> prices every
 * option over all samples; the host turns the payoff sums into the
 * discounted expected value and its 95% confidence width.
 * paper: OPT_N = 256, PATH_N = 262144 (SDK default; no size in the specs).
 * small: OPT_N = 32, PATH_N = 32768. */
#include <stdint.h>

#include "host_util.h"

extern const char ws_bench_sdk_montecarlo_ptx[], ws_bench_sdk_montecarlo_ptxinfo[];

#define RNG_COUNT 4096
#define MC_SEED 0x2468aceu

typedef struct { float S, X, MuByT, VBySqrtT; } option_data;

static uint32_t seed_mix(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int optN = in == WS_INPUT_PAPER ? 256 : 32;
    const int pathN = in == WS_INPUT_PAPER ? 262144 : 32768;
    const int nPerRng = pathN / RNG_COUNT;
    const float riskFree = 0.06f, volatility = 0.10f;
    wl_ctx c;
    wl_init(&c, d, m, out, "montecarlo");

    float *S = wl_host_alloc(&c, (size_t)optN * sizeof(float));
    float *X = wl_host_alloc(&c, (size_t)optN * sizeof(float));
    float *T = wl_host_alloc(&c, (size_t)optN * sizeof(float));
    option_data *od = wl_host_alloc(&c, (size_t)optN * sizeof(option_data));
    float *samples = wl_host_alloc(&c, (size_t)pathN * sizeof(float));
    float *res = wl_host_alloc(&c, (size_t)optN * 2 * sizeof(float));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0106);
        for (int i = 0; i < optN; i++) {
            S[i] = 5.0f + 45.0f * ws_rng_float(&r);
            X[i] = 10.0f + 15.0f * ws_rng_float(&r);
            T[i] = 1.0f + 4.0f * ws_rng_float(&r);
            od[i].S = S[i];
            od[i].X = X[i];
            od[i].MuByT = (riskFree - 0.5f * volatility * volatility) * T[i];
            od[i].VBySqrtT = volatility * sqrtf(T[i]);
        }
    }
    ws_devptr dOpt = 0;
    size_t osize = 0;
    if (!c.failed && ws_module_get_global(m, "c_OptionData", &dOpt, &osize) != WS_OK) {
        fprintf(out, "montecarlo: __constant__ c_OptionData not found\n");
        c.failed = 1;
    }
    if (!c.failed)
        wl_check(&c, ws_memcpy_htod(d, dOpt, od, (size_t)optN * sizeof(option_data)), "memcpy to c_OptionData");
    ws_devptr dSamples = wl_alloc(&c, (size_t)pathN * sizeof(float));
    ws_devptr dRes = wl_alloc(&c, (size_t)optN * 2 * sizeof(float));
    wl_set(&c, dRes, 0xff, (size_t)optN * 2 * sizeof(float));
    ws_kernel *krand = wl_kernel(&c, "_Z12randomKernelPfij");
    ws_kernel *kbox = wl_kernel(&c, "_Z15boxMullerKernelPfi");
    ws_kernel *kmc = wl_kernel(&c, "_Z27monteCarloOneBlockPerOptionP6float2PKfi");
    int npr = nPerRng, pn = pathN;
    unsigned seed = MC_SEED;
    void *rargs[] = {&dSamples, &npr, &seed};
    void *bargs[] = {&dSamples, &npr};
    void *margs[] = {&dRes, &dSamples, &pn};
    wl_launch(&c, krand, wl_dim(32, 1), wl_dim(128, 1), rargs);
    wl_launch(&c, kbox, wl_dim(32, 1), wl_dim(128, 1), bargs);
    wl_launch(&c, kmc, wl_dim((unsigned)optN, 1), wl_dim(256, 1), margs);
    wl_download(&c, samples, dSamples, (size_t)pathN * sizeof(float));
    wl_download(&c, res, dRes, (size_t)optN * 2 * sizeof(float));

    double maxconf = 0.0;
    if (!c.failed) {
        /* 1. The normals: the same generator on the CPU (exact uniforms),
           Box-Muller in double; the device uses __logf/__sincosf. */
        for (int t = 0; t < RNG_COUNT; t++) {
            uint32_t x = seed_mix(MC_SEED ^ (uint32_t)(t * 4)), y = seed_mix(MC_SEED ^ (uint32_t)(t * 4 + 1));
            uint32_t z = seed_mix(MC_SEED ^ (uint32_t)(t * 4 + 2)), w = seed_mix(MC_SEED ^ (uint32_t)(t * 4 + 3)) | 1u;
            double u[2];
            for (int i = 0; i < nPerRng; i++) {
                uint32_t tt = x ^ (x << 11);
                x = y;
                y = z;
                z = w;
                w = w ^ (w >> 19) ^ tt ^ (tt >> 8);
                u[i & 1] = (double)((w >> 8) + 1) / 16777216.0;
                if (i & 1) {
                    double rr = sqrt(-2.0 * log(u[0])), ang = 6.283185307179586 * u[1];
                    wl_expect_near(&c, "sample", (long)(i - 1) * RNG_COUNT + t,
                                   samples[(size_t)(i - 1) * RNG_COUNT + t], rr * cos(ang), 1e-3, 2e-3);
                    wl_expect_near(&c, "sample", (long)i * RNG_COUNT + t,
                                   samples[(size_t)i * RNG_COUNT + t], rr * sin(ang), 1e-3, 2e-3);
                }
            }
        }
        /* 2. The payoff sums from the device's own samples, in double;
           float accumulation over pathN / 256 paths per thread: 1e-4. */
        for (int o = 0; o < optN; o++) {
            double sum = 0.0, sum2 = 0.0;
            for (int p = 0; p < pathN; p++) {
                double v = (double)od[o].S * exp((double)od[o].MuByT + (double)od[o].VBySqrtT * samples[p]) - od[o].X;
                if (v < 0) v = 0;
                sum += v;
                sum2 += v * v;
            }
            wl_expect_near(&c, "sumCall", o, res[2 * o], sum, 1e-4, 1e-3);
            wl_expect_near(&c, "sum2Call", o, res[2 * o + 1], sum2, 1e-4, 1e-3);
            /* what the SDK host prints: expected value and confidence */
            double ev = exp(-riskFree * (double)T[o]) * res[2 * o] / pathN;
            double sd = sqrt(((double)pathN * res[2 * o + 1] - (double)res[2 * o] * res[2 * o]) /
                             ((double)pathN * (pathN - 1.0)));
            double conf = exp(-riskFree * (double)T[o]) * 1.96 * sd / sqrt((double)pathN);
            if (ev < 0 || conf / (ev + 1e-9) > maxconf) maxconf = conf / (ev + 1e-9);
        }
    }

    char summary[96];
    snprintf(summary, sizeof summary, "options=%d paths=%d max_conf/value=%.2g", optN, pathN, maxconf);
    free(S);
    free(X);
    free(T);
    free(od);
    free(samples);
    free(res);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_sdk_montecarlo = {
    .name = "montecarlo",
    .suite = "sdk",
    .description = "Monte Carlo option pricing: RNG + Box-Muller + one block per option (SDK)",
    .ptx = ws_bench_sdk_montecarlo_ptx,
    .ptxinfo = ws_bench_sdk_montecarlo_ptxinfo,
    .run = run,
};
