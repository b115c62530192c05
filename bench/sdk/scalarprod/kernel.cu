// scalarprod: dot products of vectorN pairs of float vectors, each
// elementN long, stored back to back. A block takes vectors blockIdx.x,
// blockIdx.x + gridDim.x, ...; for each it keeps ACCUM_N partial sums in
// shared memory (partial i sums elements i, i + ACCUM_N, ... so that
// neighbouring threads read neighbouring elements), then folds them with a
// tree reduction.
#define ACCUM_N 1024

__global__ void scalarProdKernel(float *result, const float *a, const float *b,
                                 int vectorN, int elementN)
{
    __shared__ float partial[ACCUM_N];

    for (int vec = blockIdx.x; vec < vectorN; vec += gridDim.x) {
        const int base = vec * elementN;
        const int end = base + elementN;

        for (int acc = threadIdx.x; acc < ACCUM_N; acc += blockDim.x) {
            float sum = 0.0f;
            for (int pos = base + acc; pos < end; pos += ACCUM_N)
                sum += a[pos] * b[pos];
            partial[acc] = sum;
        }

        for (int half = ACCUM_N / 2; half > 0; half >>= 1) {
            __syncthreads();
            for (int acc = threadIdx.x; acc < half; acc += blockDim.x)
                partial[acc] += partial[acc + half];
        }
        __syncthreads();
        if (threadIdx.x == 0)
            result[vec] = partial[0];
        __syncthreads();
    }
}
