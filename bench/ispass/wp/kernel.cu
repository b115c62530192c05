// wp: column microphysics of a weather model (the ISPASS-2009 "WP"
// application, a WRF single-moment microphysics port). One thread per
// (i, j) column, 8x8 blocks; each thread copies its column into a dozen
// per-thread arrays (local memory), then runs the physics level by level:
// saturation, condensation / evaporation of cloud water, autoconversion and
// accretion into rain, rain evaporation, and rain sedimentation in as many
// sub-steps as the column's fastest fall speed needs (so the sub-step count
// differs between columns). Fields are laid out [j][k][i] with i fastest,
// so neighbouring threads touch neighbouring words.

#define KMAX 40

#define CP 1004.5f
#define XLV 2.5e6f
#define RV 461.6f

__device__ __forceinline__ float satmix(float t, float p)
{
    float es = 611.2f * expf(17.67f * (t - 273.15f) / (t - 29.65f));
    return 0.622f * es / (p - es);
}

__device__ __forceinline__ float fallspeed(float den, float qr)
{
    return 14.0f * powf(den * qr, 0.2f) * sqrtf(1.2f / den);
}

__global__ void wsmColumn(float *T, float *QV, float *QC, float *QR, const float *P, const float *DEN,
                          const float *DZ, float *RAIN, int ni, int nj, int kte, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj)
        return;

    float t[KMAX], qv[KMAX], qc[KMAX], qr[KMAX], p[KMAX], den[KMAX], dz[KMAX];
    float qs[KMAX], vt[KMAX], flux[KMAX], cond[KMAX], evap[KMAX];

    for (int k = 0; k < kte; k++) {
        int x = (j * kte + k) * ni + i;
        t[k] = T[x];
        qv[k] = QV[x];
        qc[k] = QC[x];
        qr[k] = QR[x];
        p[k] = P[x];
        den[k] = DEN[x];
        dz[k] = DZ[x];
    }

    // saturation adjustment of cloud water
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

    // warm-rain conversion: autoconversion, accretion, rain evaporation
    for (int k = 0; k < kte; k++) {
        float praut = 1.0e-3f * fmaxf(qc[k] - 5.0e-4f, 0.0f) * dt;
        float pracw = 2.2f * qc[k] * powf(fmaxf(qr[k], 0.0f) * den[k], 0.875f) * dt;
        float conv = fminf(praut + pracw, qc[k]);
        qc[k] -= conv;
        qr[k] += conv;
        qs[k] = satmix(t[k], p[k]);
        float sub = fmaxf(qs[k] - qv[k], 0.0f);
        evap[k] = fminf(5.0e-3f * sub * sqrtf(fmaxf(qr[k], 0.0f) * den[k]) * dt, qr[k]);
        qr[k] -= evap[k];
        qv[k] += evap[k];
        t[k] -= XLV / CP * evap[k];
    }

    // sedimentation: sub-steps keep the fall Courant number below one
    float cmax = 0.0f;
    for (int k = 0; k < kte; k++) {
        vt[k] = fallspeed(den[k], qr[k]);
        cmax = fmaxf(cmax, vt[k] * dt / dz[k]);
    }
    int nstep = (int)ceilf(cmax);
    if (nstep < 1)
        nstep = 1;
    float dts = dt / nstep, rain = 0.0f;
    for (int n = 0; n < nstep; n++) {
        if (n > 0)
            for (int k = 0; k < kte; k++)
                vt[k] = fallspeed(den[k], qr[k]);
        for (int k = 0; k < kte; k++)
            flux[k] = den[k] * qr[k] * vt[k];
        for (int k = kte - 1; k >= 0; k--) {
            float in = k == kte - 1 ? 0.0f : flux[k + 1];
            qr[k] = fmaxf(qr[k] + dts * (in - flux[k]) / (den[k] * dz[k]), 0.0f);
        }
        rain += flux[0] * dts;
    }

    for (int k = 0; k < kte; k++) {
        int x = (j * kte + k) * ni + i;
        T[x] = t[k];
        QV[x] = qv[k];
        QC[x] = qc[k];
        QR[x] = qr[k];
    }
    RAIN[j * ni + i] += rain;
}
