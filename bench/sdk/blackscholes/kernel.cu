// blackscholes: European call and put prices for a batch of options with the
// closed-form Black-Scholes formula, in float. Inputs and outputs are five
// separate arrays (structure of arrays); every thread prices options
// tid, tid + total threads, ... (grid-stride loop).

// Cumulative normal distribution, polynomial approximation
// (Abramowitz & Stegun 26.2.17).
__device__ inline float cndApprox(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f;
    const float a4 = -1.821255978f, a5 = 1.330274429f;
    const float inv_sqrt_2pi = 0.39894228040143267794f;

    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float tail = inv_sqrt_2pi * __expf(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - tail : tail;
}

__device__ inline void priceOne(float &call, float &put, float S, float X, float T,
                                float r, float v)
{
    float sqrtT = sqrtf(T);
    float d1 = (__logf(S / X) + (r + 0.5f * v * v) * T) / (v * sqrtT);
    float d2 = d1 - v * sqrtT;
    float nd1 = cndApprox(d1);
    float nd2 = cndApprox(d2);
    float disc = __expf(-r * T);
    call = S * nd1 - X * disc * nd2;
    put = X * disc * (1.0f - nd2) - S * (1.0f - nd1);
}

__global__ void blackScholesKernel(float *callResult, float *putResult,
                                   const float *stockPrice, const float *strikePrice,
                                   const float *yearsToExpiry, float riskFree,
                                   float volatility, int optN)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = blockDim.x * gridDim.x;
    for (int opt = tid; opt < optN; opt += stride) {
        float c, p;
        priceOne(c, p, stockPrice[opt], strikePrice[opt], yearsToExpiry[opt], riskFree,
                 volatility);
        callResult[opt] = c;
        putResult[opt] = p;
    }
}
