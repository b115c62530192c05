// histogram: 256-bin histogram of n bytes. Each block counts into a private
// shared-memory histogram (shared atomics), then merges its non-zero bins
// into the global histogram with global atomics.
#define BINS 256

__global__ void histogram256(const unsigned int *data, int nwords, unsigned int *hist)
{
    __shared__ unsigned int local[BINS];

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    // Four bytes per word: one load, four shared-memory atomics.
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += gridDim.x * blockDim.x) {
        unsigned int w = data[i];
        atomicAdd(&local[w & 0xffu], 1u);
        atomicAdd(&local[(w >> 8) & 0xffu], 1u);
        atomicAdd(&local[(w >> 16) & 0xffu], 1u);
        atomicAdd(&local[w >> 24], 1u);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned int count = local[b];
        if (count != 0)
            atomicAdd(&hist[b], count);
    }
}
