/* lib: LIBOR market model Monte Carlo, swaption portfolio value and its
 * adjoint sensitivity (ISPASS-2009 LIB). Blocks of 64 threads, one path per
 * thread; the value kernel runs first, then the adjoint kernel. The CPU
 * reference repeats every path in double precision. */
#include "host_util.h"

extern const char ws_bench_ispass_lib_ptx[], ws_bench_ispass_lib_ptxinfo[];

#define NN 80
#define NMAT 40
#define NOPT 15
#define THREADS 64

static const int mats[NOPT] = {4, 4, 4, 8, 8, 8, 20, 20, 20, 28, 28, 28, 40, 40, 40};
static const float rates[NOPT] = {.045f, .05f, .055f, .045f, .05f, .055f, .045f, .05f,
                                  .055f, .045f, .05f, .055f, .045f, .05f, .055f};
static const float dlt = 0.25f;

static void make_z(int path, double *z) {
    unsigned s = (unsigned)path * 2654435761u + 12345u;
    for (int i = 0; i < NMAT; i++) {
        s = s * 1664525u + 1013904223u;
        z[i] = (double)((float)(s >> 8) * (2.0f / 16777216.0f) - 1.0f);
    }
}

/* value and dv/dL0[NN-1] of one path; *tie = smallest |swap value| seen */
static void ref_path(int path, const float *lam, double *value, double *lb_last, double *tie) {
    double z[NMAT], L[NN], L2[NN * (NMAT + 1)], Lb[NN];
    double B[NMAT], S[NMAT], Bb[NMAT], Sb[NMAT], d = dlt;
    make_z(path, z);
    for (int i = 0; i < NN; i++) L2[i] = L[i] = 0.05f;
    for (int n = 0; n < NMAT; n++) {
        double sqez = sqrt(d) * z[n], v = 0.0;
        for (int i = n + 1; i < NN; i++) {
            double l = lam[i - n - 1], con1 = d * l;
            v += con1 * L[i] / (1.0 + d * L[i]);
            L[i] *= exp(con1 * v + l * (sqez - 0.5 * con1));
        }
        for (int i = 0; i < NN; i++) L2[i + (n + 1) * NN] = L[i];
    }
    double b = 1.0, s = 0.0, v = 0.0;
    for (int m = 0; m < NN - NMAT; m++) {
        b /= 1.0 + d * L[m + NMAT];
        s += d * b;
        B[m] = b;
        S[m] = s;
        Bb[m] = Sb[m] = 0.0;
    }
    *tie = 1e30;
    for (int i = 0; i < NOPT; i++) {
        int m = mats[i] - 1;
        double sv = B[m] + (double)rates[i] * S[m] - 1.0;
        if (fabs(sv) < *tie) *tie = fabs(sv);
        if (sv < 0.0) {
            v -= 100.0 * sv;
            Sb[m] -= 100.0 * rates[i];
            Bb[m] -= 100.0;
        }
    }
    for (int m = NN - NMAT - 1; m >= 0; m--) {
        int n = m + NMAT;
        Bb[m] += d * Sb[m];
        Lb[n] = -Bb[m] * B[m] * d / (1.0 + d * L[n]);
        if (m > 0) {
            Sb[m - 1] += Sb[m];
            Bb[m - 1] += Bb[m] / (1.0 + d * L[n]);
        }
    }
    b = 1.0;
    for (int n = 0; n < NMAT; n++) b /= 1.0 + d * L[n];
    v *= b;
    for (int n = 0; n < NMAT; n++) Lb[n] = -v * d / (1.0 + d * L[n]);
    for (int n = NMAT; n < NN; n++) Lb[n] *= b;
    for (int n = NMAT - 1; n >= 0; n--) {
        double v1 = 0.0;
        for (int i = NN - 1; i > n; i--) {
            double lnew = L2[i + (n + 1) * NN], lold = L2[i + n * NN], l = lam[i - n - 1];
            v1 += l * lnew * Lb[i];
            double faci = d / (1.0 + d * lold);
            Lb[i] = Lb[i] * lnew / lold + v1 * l * faci * faci;
        }
    }
    *value = v;
    *lb_last = Lb[NN - 1];
}

static int put_const(wl_ctx *c, const char *name, const void *src, size_t n) {
    ws_devptr p = 0;
    size_t sz = 0;
    if (c->failed) return 1;
    if (ws_module_get_global(c->m, name, &p, &sz) != WS_OK || sz != n) {
        fprintf(c->log, "lib: constant '%s' not found\n", name);
        c->failed = 1;
        return 1;
    }
    return wl_check(c, ws_memcpy_htod(c->d, p, src, n), name);
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 64 blocks of 64 threads = 4096 paths, the ISPASS-2009 LIB launch
       (no size in the specs). small: 2 blocks = 128 paths */
    const unsigned blocks = in == WS_INPUT_PAPER ? 64 : 2;
    const int npath = (int)blocks * THREADS;
    wl_ctx c;
    wl_init(&c, d, m, log, "lib");
    float lam[NN];
    for (int i = 0; i < NN; i++) lam[i] = 0.2f;
    float *v1 = wl_host_alloc(&c, (size_t)npath * sizeof(float));
    float *v2 = wl_host_alloc(&c, (size_t)npath * sizeof(float));
    float *lb = wl_host_alloc(&c, (size_t)npath * sizeof(float));
    put_const(&c, "maturities", mats, sizeof mats);
    put_const(&c, "delta", &dlt, sizeof dlt);
    put_const(&c, "swaprates", rates, sizeof rates);
    put_const(&c, "lambda", lam, sizeof lam);
    ws_devptr dv1 = wl_alloc(&c, (size_t)npath * sizeof(float));
    ws_devptr dv2 = wl_alloc(&c, (size_t)npath * sizeof(float));
    ws_devptr dlb = wl_alloc(&c, (size_t)npath * sizeof(float));
    ws_kernel *kv = wl_kernel(&c, "_Z22pathcalcPortfolioValuePfi");
    ws_kernel *ka = wl_kernel(&c, "_Z24pathcalcPortfolioAdjointPfS_i");
    int np = npath;
    void *av[] = {&dv1, &np};
    void *aa[] = {&dv2, &dlb, &np};
    wl_launch(&c, kv, wl_dim(blocks, 1), wl_dim(THREADS, 1), av);
    wl_launch(&c, ka, wl_dim(blocks, 1), wl_dim(THREADS, 1), aa);
    wl_download(&c, v1, dv1, (size_t)npath * sizeof(float));
    wl_download(&c, v2, dv2, (size_t)npath * sizeof(float));
    wl_download(&c, lb, dlb, (size_t)npath * sizeof(float));

    /* float paths against double: 1e-4 relative plus 1e-5 of the largest
       value; the sensitivity jumps where a swaption is at the money, so
       paths within 1e-5 of that are not compared for it */
    double vsum = 0.0;
    if (!c.failed) {
        double vmax = 1e-30, lmax = 1e-30;
        double *rv = wl_host_alloc(&c, (size_t)npath * sizeof(double));
        double *rl = wl_host_alloc(&c, (size_t)npath * sizeof(double));
        double *tie = wl_host_alloc(&c, (size_t)npath * sizeof(double));
        if (!c.failed) {
            for (int p = 0; p < npath; p++) {
                ref_path(p, lam, &rv[p], &rl[p], &tie[p]);
                if (fabs(rv[p]) > vmax) vmax = fabs(rv[p]);
                if (fabs(rl[p]) > lmax) lmax = fabs(rl[p]);
                vsum += rv[p];
            }
            for (int p = 0; p < npath; p++) {
                wl_expect_near(&c, "value", p, v1[p], rv[p], 1e-4, 1e-5 * vmax);
                wl_expect_near(&c, "value(adjoint kernel)", p, v2[p], rv[p], 1e-4, 1e-5 * vmax);
                if (tie[p] > 1e-5) wl_expect_near(&c, "dv/dL", p, lb[p], rl[p], 1e-3, 1e-4 * lmax);
            }
        }
        free(rv);
        free(rl);
        free(tie);
    }

    char summary[96];
    snprintf(summary, sizeof summary, "paths=%d mean value=%.4f", npath, vsum / npath);
    free(v1);
    free(v2);
    free(lb);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_ispass_lib = {
    .name = "lib",
    .suite = "ispass",
    .description = "LIBOR Monte Carlo swaptions, one path per thread, value and adjoint kernels",
    .ptx = ws_bench_ispass_lib_ptx,
    .ptxinfo = ws_bench_ispass_lib_ptxinfo,
    .run = run,
};
