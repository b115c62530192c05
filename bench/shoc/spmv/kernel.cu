// spmv: y = A x for a sparse matrix A in CSR form (values, column indices,
// row delimiters), two SHOC variants:
//  - scalar: one thread per row walks the row's nonzeros alone, so lanes of
//    a warp read far-apart rows and diverge on unequal row lengths;
//  - vector: one warp per row; lanes take nonzeros lane, lane + 32, ...
//    (coalesced) and the warp sums its partials in shared memory.
#define BLOCK_SIZE 128
#define WARP_SIZE 32

__global__ void spmvCsrScalarKernel(const float *val, const float *vec, const int *cols,
                                    const int *rowDelimiters, int dim, float *out)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < dim) {
        float t = 0.0f;
        const int start = rowDelimiters[row];
        const int end = rowDelimiters[row + 1];
        for (int j = start; j < end; j++)
            t += val[j] * vec[cols[j]];
        out[row] = t;
    }
}

__global__ void spmvCsrVectorKernel(const float *val, const float *vec, const int *cols,
                                    const int *rowDelimiters, int dim, float *out)
{
    volatile __shared__ float partial[BLOCK_SIZE];
    const int t = threadIdx.x;
    const int lane = t & (WARP_SIZE - 1);
    const int warpsPerBlock = blockDim.x / WARP_SIZE;
    const int row = blockIdx.x * warpsPerBlock + t / WARP_SIZE;

    if (row < dim) {
        const int start = rowDelimiters[row];
        const int end = rowDelimiters[row + 1];
        float sum = 0.0f;
        for (int j = start + lane; j < end; j += WARP_SIZE)
            sum += val[j] * vec[cols[j]];
        partial[t] = sum;
        __syncwarp();
        // warp tree reduction (the whole warp shares the row, so it is
        // converged here)
        for (int off = WARP_SIZE / 2; off > 0; off >>= 1) {
            if (lane < off)
                partial[t] += partial[t + off];
            __syncwarp();
        }
        if (lane == 0)
            out[row] = partial[t];
    }
}
