// fastwalsh: fast Walsh-Hadamard transform of batches of 2^log2N floats,
// used for a dyadic convolution. Large strides run as radix-4 butterfly
// passes over global memory (fwtBatch2Kernel, one launch per pair of
// strides); once a sub-transform fits a block's shared memory, one launch
// of fwtBatch1Kernel finishes all remaining strides in shared memory.

// One radix-4 butterfly over elements i0, i0+s, i0+2s, i0+3s (strides 2s and s).
__device__ inline void butterfly4(float &d0, float &d1, float &d2, float &d3)
{
    float a = d0 + d2, b = d0 - d2;
    float c = d1 + d3, e = d1 - d3;
    d0 = a + c;
    d1 = a - c;
    d2 = b + e;
    d3 = b - e;
}

// One block transforms one batch of N = 2^log2N elements (blockDim.x = N/4)
// held in dynamic shared memory.
__global__ void fwtBatch1Kernel(float *dst, const float *src, int log2N)
{
    extern __shared__ float sdata[];
    const int N = 1 << log2N;
    const int base = blockIdx.x << log2N;

    for (int pos = threadIdx.x; pos < N; pos += blockDim.x)
        sdata[pos] = src[base + pos];

    for (int stride = N >> 2; stride > 0; stride >>= 2) {
        const int lo = threadIdx.x & (stride - 1);
        const int i0 = ((threadIdx.x - lo) << 2) + lo;
        __syncthreads();
        float d0 = sdata[i0], d1 = sdata[i0 + stride];
        float d2 = sdata[i0 + 2 * stride], d3 = sdata[i0 + 3 * stride];
        butterfly4(d0, d1, d2, d3);
        sdata[i0] = d0;
        sdata[i0 + stride] = d1;
        sdata[i0 + 2 * stride] = d2;
        sdata[i0 + 3 * stride] = d3;
    }

    // odd log2N: one radix-2 pass with stride 1 is left
    if (log2N & 1) {
        __syncthreads();
        for (int pos = threadIdx.x; pos < N / 2; pos += blockDim.x) {
            const int i0 = pos << 1;
            float d0 = sdata[i0], d1 = sdata[i0 + 1];
            sdata[i0] = d0 + d1;
            sdata[i0 + 1] = d0 - d1;
        }
    }

    __syncthreads();
    for (int pos = threadIdx.x; pos < N; pos += blockDim.x)
        dst[base + pos] = sdata[pos];
}

// One radix-4 pass with the given stride over global memory; blockIdx.y
// selects the batch, each thread does one butterfly.
__global__ void fwtBatch2Kernel(float *dst, const float *src, int stride)
{
    const int pos = blockIdx.x * blockDim.x + threadIdx.x;
    const int N = blockDim.x * gridDim.x * 4;
    const float *in = src + blockIdx.y * N;
    float *out = dst + blockIdx.y * N;

    const int lo = pos & (stride - 1);
    const int i0 = ((pos - lo) << 2) + lo;
    float d0 = in[i0], d1 = in[i0 + stride];
    float d2 = in[i0 + 2 * stride], d3 = in[i0 + 3 * stride];
    butterfly4(d0, d1, d2, d3);
    out[i0] = d0;
    out[i0 + stride] = d1;
    out[i0 + 2 * stride] = d2;
    out[i0 + 3 * stride] = d3;
}

// Pointwise product of the two spectra, with the 1/N of the inverse transform.
__global__ void modulateKernel(float *a, const float *b, int N)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int numThreads = blockDim.x * gridDim.x;
    const float rcpN = 1.0f / (float)N;
    for (int pos = tid; pos < N; pos += numThreads)
        a[pos] *= b[pos] * rcpN;
}
