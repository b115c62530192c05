// atax (PolyBench/GPU ATAX): y = A^T (A x) for a row-major nx x ny float
// matrix, in two 1-D kernels launched with 256-thread blocks.
//   atax_rows: one thread per row i walks the row: tmp[i] += A[i][j] x[j].
//              The lanes of a warp read 32 different rows at the same column,
//              ny floats apart.
//   atax_cols: one thread per column j walks down the column:
//              y[j] += A[i][j] tmp[i]; the lanes read one contiguous row piece.
// Both accumulate in global memory as the original does; the host zeroes
// tmp and y first.

__global__ void atax_rows(int nx, int ny, const float *A, const float *x, float *tmp)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx)
        return;
    for (int j = 0; j < ny; j++)
        tmp[i] += A[i * ny + j] * x[j];
}

__global__ void atax_cols(int nx, int ny, const float *A, const float *tmp, float *y)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ny)
        return;
    for (int i = 0; i < nx; i++)
        y[j] += A[i * ny + j] * tmp[i];
}
