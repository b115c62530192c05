// montecarlo: Monte Carlo pricing of European call options. Three kernels:
//  1. randomKernel: RNG_COUNT independent generators (xorshift128, seeded
//     per thread) each write nPerRng uniforms in (0, 1], generator t's
//     samples at t, t + RNG_COUNT, t + 2 RNG_COUNT, ...;
//  2. boxMullerKernel: every generator thread turns its consecutive pairs
//     of uniforms into pairs of standard normals in place;
//  3. monteCarloOneBlockPerOption: block b prices option b over all paths:
//     each thread sums the payoff (and its square) over paths tid,
//     tid + blockDim.x, ..., then a shared-memory tree reduces both sums.
// All options share the same normal samples; option parameters are in
// constant memory.
#define RNG_COUNT 4096
#define MAX_OPTIONS 1024
#define MC_THREADS 256

struct OptionData {
    float S;        // spot price
    float X;        // strike
    float MuByT;    // (r - v^2 / 2) T
    float VBySqrtT; // v sqrt(T)
};

__constant__ OptionData c_OptionData[MAX_OPTIONS];

__device__ inline unsigned int seedMix(unsigned int x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__global__ void randomKernel(float *d_Random, int nPerRng, unsigned int seed)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= RNG_COUNT)
        return;
    // xorshift128 state; never all zero since w gets the low bit set
    unsigned int x = seedMix(seed ^ (tid * 4 + 0));
    unsigned int y = seedMix(seed ^ (tid * 4 + 1));
    unsigned int z = seedMix(seed ^ (tid * 4 + 2));
    unsigned int w = seedMix(seed ^ (tid * 4 + 3)) | 1u;
    for (int i = 0; i < nPerRng; i++) {
        unsigned int t = x ^ (x << 11);
        x = y;
        y = z;
        z = w;
        w = w ^ (w >> 19) ^ t ^ (t >> 8);
        d_Random[i * RNG_COUNT + tid] = (float)((w >> 8) + 1) * (1.0f / 16777216.0f);
    }
}

__global__ void boxMullerKernel(float *d_Random, int nPerRng)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= RNG_COUNT)
        return;
    for (int i = 0; i < nPerRng; i += 2) {
        float u1 = d_Random[i * RNG_COUNT + tid];
        float u2 = d_Random[(i + 1) * RNG_COUNT + tid];
        float r = sqrtf(-2.0f * __logf(u1));
        float s, c;
        __sincosf(6.28318530717958647692f * u2, &s, &c);
        d_Random[i * RNG_COUNT + tid] = r * c;
        d_Random[(i + 1) * RNG_COUNT + tid] = r * s;
    }
}

__device__ inline float endCallValue(float S, float X, float r, float MuByT, float VBySqrtT)
{
    float callValue = S * __expf(MuByT + VBySqrtT * r) - X;
    return callValue > 0.0f ? callValue : 0.0f;
}

__global__ void monteCarloOneBlockPerOption(float2 *d_Result, const float *d_Samples, int pathN)
{
    __shared__ float s_Sum[MC_THREADS];
    __shared__ float s_Sum2[MC_THREADS];
    const int opt = blockIdx.x;
    const float S = c_OptionData[opt].S;
    const float X = c_OptionData[opt].X;
    const float MuByT = c_OptionData[opt].MuByT;
    const float VBySqrtT = c_OptionData[opt].VBySqrtT;

    float sum = 0.0f, sum2 = 0.0f;
    for (int pos = threadIdx.x; pos < pathN; pos += blockDim.x) {
        float v = endCallValue(S, X, d_Samples[pos], MuByT, VBySqrtT);
        sum += v;
        sum2 += v * v;
    }
    s_Sum[threadIdx.x] = sum;
    s_Sum2[threadIdx.x] = sum2;
    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        __syncthreads();
        if (threadIdx.x < half) {
            s_Sum[threadIdx.x] += s_Sum[threadIdx.x + half];
            s_Sum2[threadIdx.x] += s_Sum2[threadIdx.x + half];
        }
    }
    if (threadIdx.x == 0)
        d_Result[opt] = make_float2(s_Sum[0], s_Sum2[0]);
}
