/* wp: one time step of warm-rain column microphysics over an ni x nj x kte
 * grid (ISPASS-2009 WP, after the WRF WSM microphysics port). 8x8 blocks,
 * one thread per column. The atmosphere is random but physical (lapse rate,
 * hydrostatic pressure, humidity around saturation, some cloud and rain);
 * the CPU reference runs the same column code in float. */
#include "host_util.h"

extern const char ws_bench_ispass_wp_ptx[], ws_bench_ispass_wp_ptxinfo[];

#define KMAX 40
#define CP 1004.5f
#define XLV 2.5e6f
#define RV 461.6f

static float satmix(float t, float p) {
    float es = 611.2f * expf(17.67f * (t - 273.15f) / (t - 29.65f));
    return 0.622f * es / (p - es);
}

static float fallspeed(float den, float qr) { return 14.0f * powf(den * qr, 0.2f) * sqrtf(1.2f / den); }

/* the column physics of the kernel, on one column (arrays of kte levels) */
static float column_ref(float *t, float *qv, float *qc, float *qr, const float *p, const float *den,
                        const float *dz, int kte, float dt, int *steps) {
    float qs[KMAX], vt[KMAX], flux[KMAX], cond[KMAX];
    for (int k = 0; k < kte; k++) {
        qs[k] = satmix(t[k], p[k]);
        float gamma = 1.0f + XLV * XLV * qs[k] / (CP * RV * t[k] * t[k]);
        cond[k] = fmaxf((qv[k] - qs[k]) / gamma, -qc[k]);
    }
    for (int k = 0; k < kte; k++) {
        qv[k] -= cond[k];
        qc[k] += cond[k];
        t[k] += XLV / CP * cond[k];
    }
    for (int k = 0; k < kte; k++) {
        float praut = 1.0e-3f * fmaxf(qc[k] - 5.0e-4f, 0.0f) * dt;
        float pracw = 2.2f * qc[k] * powf(fmaxf(qr[k], 0.0f) * den[k], 0.875f) * dt;
        float conv = fminf(praut + pracw, qc[k]);
        qc[k] -= conv;
        qr[k] += conv;
        qs[k] = satmix(t[k], p[k]);
        float sub = fmaxf(qs[k] - qv[k], 0.0f);
        float ev = fminf(5.0e-3f * sub * sqrtf(fmaxf(qr[k], 0.0f) * den[k]) * dt, qr[k]);
        qr[k] -= ev;
        qv[k] += ev;
        t[k] -= XLV / CP * ev;
    }
    float cmax = 0.0f;
    for (int k = 0; k < kte; k++) {
        vt[k] = fallspeed(den[k], qr[k]);
        cmax = fmaxf(cmax, vt[k] * dt / dz[k]);
    }
    int nstep = (int)ceilf(cmax);
    if (nstep < 1) nstep = 1;
    *steps = nstep;
    float dts = dt / nstep, rain = 0.0f;
    for (int n = 0; n < nstep; n++) {
        if (n > 0)
            for (int k = 0; k < kte; k++) vt[k] = fallspeed(den[k], qr[k]);
        for (int k = 0; k < kte; k++) flux[k] = den[k] * qr[k] * vt[k];
        for (int k = kte - 1; k >= 0; k--) {
            float inflow = k == kte - 1 ? 0.0f : flux[k + 1];
            qr[k] = fmaxf(qr[k] + dts * (inflow - flux[k]) / (den[k] * dz[k]), 0.0f);
        }
        rain += flux[0] * dts;
    }
    return rain;
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 72 x 64 columns = grid (9,8) of 8x8 blocks, the ISPASS-2009 WP
       launch, 35 levels (no size in the specs). small: 20 x 16 columns
       (partial blocks in x), 35 levels */
    const int paper = in == WS_INPUT_PAPER;
    const int ni = paper ? 72 : 20, nj = paper ? 64 : 16, kte = 35;
    const float dt = 72.0f;
    const size_t n3 = (size_t)ni * nj * kte, n2 = (size_t)ni * nj;
    wl_ctx c;
    wl_init(&c, d, m, log, "wp");
    float *f[7], *o[4], *rain = wl_host_alloc(&c, n2 * 4);
    for (int q = 0; q < 7; q++) f[q] = wl_host_alloc(&c, n3 * 4);
    for (int q = 0; q < 4; q++) o[q] = wl_host_alloc(&c, n3 * 4);
    float *T = f[0], *QV = f[1], *QC = f[2], *QR = f[3], *P = f[4], *DEN = f[5], *DZ = f[6];
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0f10);
        for (int j = 0; j < nj; j++)
            for (int i = 0; i < ni; i++) {
                float ts = 288.0f + 12.0f * ws_rng_float(&r), z = 0.0f;
                for (int k = 0; k < kte; k++) {
                    size_t x = ((size_t)j * kte + k) * ni + i;
                    float dzk = 80.0f + 20.0f * k + 20.0f * ws_rng_float(&r);
                    float zc = z + 0.5f * dzk;
                    float t = ts - 0.0065f * zc + ws_rng_float(&r) - 0.5f;
                    float p = 101325.0f * expf(-zc / 8000.0f);
                    DZ[x] = dzk;
                    T[x] = t;
                    P[x] = p;
                    DEN[x] = p / (287.0f * t);
                    QV[x] = (0.6f + 0.5f * ws_rng_float(&r)) * satmix(t, p);
                    QC[x] = ws_rng_float(&r) < 0.4f ? 1.5e-3f * ws_rng_float(&r) : 0.0f;
                    QR[x] = ws_rng_float(&r) < 0.3f ? 3e-3f * ws_rng_float(&r) : 0.0f;
                    z += dzk;
                }
            }
    }
    ws_devptr df[7];
    for (int q = 0; q < 7; q++) df[q] = wl_upload(&c, f[q], n3 * 4);
    ws_devptr drain = wl_alloc(&c, n2 * 4);
    wl_set(&c, drain, 0, n2 * 4);
    ws_kernel *k = wl_kernel(&c, "_Z9wsmColumnPfS_S_S_PKfS1_S1_S_iiif");
    int ani = ni, anj = nj, ak = kte;
    float adt = dt;
    void *args[] = {&df[0], &df[1], &df[2], &df[3], &df[4], &df[5], &df[6], &drain, &ani, &anj, &ak, &adt};
    wl_launch(&c, k, wl_dim((unsigned)(ni + 7) / 8, (unsigned)(nj + 7) / 8), wl_dim(8, 8), args);
    for (int q = 0; q < 4; q++) wl_download(&c, o[q], df[q], n3 * 4);
    wl_download(&c, rain, drain, n2 * 4);

    /* float column code against itself with fused multiply-adds and the
       device's expf / powf: temperature to 1e-5 relative, mixing ratios to
       1e-4 relative plus 1e-9, rain to 1e-4 relative plus 1e-7 */
    int maxsteps = 0;
    if (!c.failed)
        for (int j = 0; j < nj; j++)
            for (int i = 0; i < ni; i++) {
                float t[KMAX], qv[KMAX], qc[KMAX], qr[KMAX], p[KMAX], den[KMAX], dz[KMAX];
                for (int kk = 0; kk < kte; kk++) {
                    size_t x = ((size_t)j * kte + kk) * ni + i;
                    t[kk] = T[x], qv[kk] = QV[x], qc[kk] = QC[x], qr[kk] = QR[x];
                    p[kk] = P[x], den[kk] = DEN[x], dz[kk] = DZ[x];
                }
                int steps = 0;
                float rr = column_ref(t, qv, qc, qr, p, den, dz, kte, dt, &steps);
                if (steps > maxsteps) maxsteps = steps;
                for (int kk = 0; kk < kte; kk++) {
                    size_t x = ((size_t)j * kte + kk) * ni + i;
                    wl_expect_near(&c, "t", (long)x, o[0][x], t[kk], 1e-5, 0.0);
                    wl_expect_near(&c, "qv", (long)x, o[1][x], qv[kk], 1e-4, 1e-9);
                    wl_expect_near(&c, "qc", (long)x, o[2][x], qc[kk], 1e-4, 1e-9);
                    wl_expect_near(&c, "qr", (long)x, o[3][x], qr[kk], 1e-4, 1e-9);
                }
                wl_expect_near(&c, "rain", (long)j * ni + i, rain[j * ni + i], rr, 1e-4, 1e-7);
            }

    char summary[96];
    snprintf(summary, sizeof summary, "columns=%dx%d levels=%d max-substeps=%d", ni, nj, kte, maxsteps);
    for (int q = 0; q < 7; q++) free(f[q]);
    for (int q = 0; q < 4; q++) free(o[q]);
    free(rain);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_ispass_wp = {
    .name = "wp",
    .suite = "ispass",
    .description = "weather microphysics, one thread per column, per-thread local arrays",
    .ptx = ws_bench_ispass_wp_ptx,
    .ptxinfo = ws_bench_ispass_wp_ptxinfo,
    .run = run,
};
