// reduce: sum of n values. Each thread accumulates a grid-strided slice,
// the block combines the partial sums in shared memory down to one warp,
// that warp finishes with register shuffles, and thread 0 adds the block's
// sum to the result with one atomic.
#define BLOCK 256

template <typename T>
__device__ __forceinline__ T warpSum(T v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

template <typename T>
__global__ void blockReduce(const T *in, T *result, int n)
{
    __shared__ T partial[BLOCK];

    T sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    partial[threadIdx.x] = sum;
    __syncthreads();

    // Tree in shared memory until 64 values are left...
    for (int stride = blockDim.x / 2; stride >= 32; stride >>= 1) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    // ...then the first warp finishes in registers.
    if (threadIdx.x < 32) {
        sum = warpSum(partial[threadIdx.x]);
        if (threadIdx.x == 0)
            atomicAdd(result, sum);
    }
}

template __global__ void blockReduce<int>(const int *, int *, int);
template __global__ void blockReduce<float>(const float *, float *, int);
