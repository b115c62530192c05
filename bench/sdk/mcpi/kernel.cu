// mcpi: Monte Carlo estimate of pi. Every thread owns a generator state
// (xorwow, kept in global memory between kernels as an array of structs);
// it draws points (x, y) in the unit square for sims tid, tid + threads,
// ..., counts those inside the quarter circle, and the block sums the
// counts in shared memory. One count per block goes back to the host.
struct RngState {
    unsigned int d;
    unsigned int v[5];
};

__device__ inline unsigned int hashSeed(unsigned int x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__device__ inline unsigned int xorwowNext(RngState &s)
{
    unsigned int t = s.v[0] ^ (s.v[0] >> 2);
    s.v[0] = s.v[1];
    s.v[1] = s.v[2];
    s.v[2] = s.v[3];
    s.v[3] = s.v[4];
    s.v[4] = (s.v[4] ^ (s.v[4] << 4)) ^ (t ^ (t << 1));
    s.d += 362437u;
    return s.v[4] + s.d;
}

__device__ inline float uniform01(RngState &s)
{
    return (float)(xorwowNext(s) >> 8) * (1.0f / 16777216.0f);
}

__global__ void initRNG(RngState *states, unsigned int seed)
{
    const unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    RngState s;
    s.d = hashSeed(seed + tid);
    for (int i = 0; i < 5; i++)
        s.v[i] = hashSeed(seed ^ (tid * 5u + i + 1u) * 0x9e3779b9u);
    s.v[4] |= 1u;
    states[tid] = s;
}

__global__ void computeValue(unsigned int *results, RngState *states, unsigned int numSims)
{
    extern __shared__ unsigned int sdata[];
    const unsigned int bid = blockIdx.x;
    const unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int step = gridDim.x * blockDim.x;

    RngState s = states[tid];
    unsigned int inside = 0;
    for (unsigned int i = tid; i < numSims; i += step) {
        float x = uniform01(s);
        float y = uniform01(s);
        if (__fmaf_rn(x, x, y * y) <= 1.0f)
            inside++;
    }
    states[tid] = s;

    sdata[threadIdx.x] = inside;
    for (unsigned int half = blockDim.x / 2; half > 0; half >>= 1) {
        __syncthreads();
        if (threadIdx.x < half)
            sdata[threadIdx.x] += sdata[threadIdx.x + half];
    }
    if (threadIdx.x == 0)
        results[bid] = sdata[0];
}
