// lib: Monte Carlo LIBOR market model, portfolio of swaptions (Giles' LIBOR
// code, the ISPASS-2009 "LIB" application). One thread per path: each thread
// evolves NN forward rates over NMAT time steps in per-thread (local-memory)
// arrays, then values a portfolio of NOPT swaptions. Two kernels:
//   pathcalcPortfolioValue   value only (forward sweep)
//   pathcalcPortfolioAdjoint value plus its sensitivity to the initial rates
//                            by reverse (adjoint) differentiation; it keeps
//                            every step's rates in a per-thread L2 array.
// Model parameters live in constant memory. The original fixes the path's
// Brownian increments to a constant; here each path draws them from its own
// in-register linear congruential stream so that paths differ.

#define NN 80
#define NMAT 40
#define NOPT 15
#define L2_SIZE (NN * (NMAT + 1))

__constant__ int maturities[NOPT];
__constant__ float delta;
__constant__ float swaprates[NOPT];
__constant__ float lambda[NN];

__device__ void make_z(int path, float *z)
{
    unsigned s = (unsigned)path * 2654435761u + 12345u;
    for (int i = 0; i < NMAT; i++) {
        s = s * 1664525u + 1013904223u;
        z[i] = (float)(s >> 8) * (2.0f / 16777216.0f) - 1.0f;
    }
}

// forward sweep of the rates over all time steps
__device__ void path_calc(float *L, const float *z)
{
    float sqez, lam, con1, v, vrat;
    for (int n = 0; n < NMAT; n++) {
        sqez = sqrtf(delta) * z[n];
        v = 0.0f;
        for (int i = n + 1; i < NN; i++) {
            lam = lambda[i - n - 1];
            con1 = delta * lam;
            v += con1 * L[i] / (1.0f + delta * L[i]);
            vrat = expf(con1 * v + lam * (sqez - 0.5f * con1));
            L[i] = L[i] * vrat;
        }
    }
}

// forward sweep that also records the rates after every step (L2[step][i])
__device__ void path_calc_store(float *L, const float *z, float *L2)
{
    float sqez, lam, con1, v, vrat;
    for (int i = 0; i < NN; i++)
        L2[i] = L[i];
    for (int n = 0; n < NMAT; n++) {
        sqez = sqrtf(delta) * z[n];
        v = 0.0f;
        for (int i = n + 1; i < NN; i++) {
            lam = lambda[i - n - 1];
            con1 = delta * lam;
            v += con1 * L[i] / (1.0f + delta * L[i]);
            vrat = expf(con1 * v + lam * (sqez - 0.5f * con1));
            L[i] = L[i] * vrat;
        }
        for (int i = 0; i < NN; i++)
            L2[i + (n + 1) * NN] = L[i];
    }
}

// reverse sweep: turns dv/dL(final) in L_b into dv/dL(initial)
__device__ void path_calc_adjoint(float *L_b, const float *L2)
{
    for (int n = NMAT - 1; n >= 0; n--) {
        float v1 = 0.0f;
        for (int i = NN - 1; i > n; i--) {
            float lnew = L2[i + (n + 1) * NN], lold = L2[i + n * NN];
            v1 += lambda[i - n - 1] * lnew * L_b[i];
            float faci = delta / (1.0f + delta * lold);
            L_b[i] = L_b[i] * lnew / lold + v1 * lambda[i - n - 1] * faci * faci;
        }
    }
}

__device__ float portfolio(const float *L)
{
    float B[NMAT], S[NMAT];
    float b = 1.0f, s = 0.0f;
    for (int m = 0; m < NN - NMAT; m++) {
        int n = m + NMAT;
        b = b / (1.0f + delta * L[n]);
        s = s + delta * b;
        B[m] = b;
        S[m] = s;
    }
    float v = 0.0f;
    for (int i = 0; i < NOPT; i++) {
        int m = maturities[i] - 1;
        float swapval = B[m] + swaprates[i] * S[m] - 1.0f;
        if (swapval < 0.0f)
            v += -100.0f * swapval;
    }
    for (int n = 0; n < NMAT; n++)
        v = v / (1.0f + delta * L[n]);
    return v;
}

// value and dv/dL of the final rates
__device__ float portfolio_adjoint(const float *L, float *L_b)
{
    float B[NMAT], S[NMAT], B_b[NMAT], S_b[NMAT];
    float b = 1.0f, s = 0.0f;
    for (int m = 0; m < NN - NMAT; m++) {
        int n = m + NMAT;
        b = b / (1.0f + delta * L[n]);
        s = s + delta * b;
        B[m] = b;
        S[m] = s;
        B_b[m] = 0.0f;
        S_b[m] = 0.0f;
    }
    float v = 0.0f;
    for (int i = 0; i < NOPT; i++) {
        int m = maturities[i] - 1;
        float swapval = B[m] + swaprates[i] * S[m] - 1.0f;
        if (swapval < 0.0f) {
            v += -100.0f * swapval;
            S_b[m] += -100.0f * swaprates[i];
            B_b[m] += -100.0f;
        }
    }
    for (int m = NN - NMAT - 1; m >= 0; m--) {
        int n = m + NMAT;
        B_b[m] += delta * S_b[m];
        L_b[n] = -B_b[m] * B[m] * (delta / (1.0f + delta * L[n]));
        if (m > 0) {
            S_b[m - 1] += S_b[m];
            B_b[m - 1] += B_b[m] / (1.0f + delta * L[n]);
        }
    }
    b = 1.0f;
    for (int n = 0; n < NMAT; n++)
        b = b / (1.0f + delta * L[n]);
    v = b * v;
    for (int n = 0; n < NMAT; n++)
        L_b[n] = -v * delta / (1.0f + delta * L[n]);
    for (int n = NMAT; n < NN; n++)
        L_b[n] = b * L_b[n];
    return v;
}

__global__ void pathcalcPortfolioValue(float *d_v, int npath)
{
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    const int threadN = blockDim.x * gridDim.x;
    float L[NN], z[NMAT];
    for (int path = tid; path < npath; path += threadN) {
        make_z(path, z);
        for (int i = 0; i < NN; i++)
            L[i] = 0.05f;
        path_calc(L, z);
        d_v[path] = portfolio(L);
    }
}

__global__ void pathcalcPortfolioAdjoint(float *d_v, float *d_Lb, int npath)
{
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    const int threadN = blockDim.x * gridDim.x;
    float L[NN], L_b[NN], z[NMAT], L2[L2_SIZE];
    for (int path = tid; path < npath; path += threadN) {
        make_z(path, z);
        for (int i = 0; i < NN; i++)
            L[i] = 0.05f;
        path_calc_store(L, z, L2);
        d_v[path] = portfolio_adjoint(L, L_b);
        path_calc_adjoint(L_b, L2);
        d_Lb[path] = L_b[NN - 1];
    }
}
