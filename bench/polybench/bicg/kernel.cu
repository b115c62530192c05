// bicg (PolyBench/GPU BICG): the two products of a BiCG step, s = A^T r and
// q = A p, for a row-major nx x ny float matrix, in two 1-D kernels launched
// with 256-thread blocks.
//   bicg_s: one thread per column j walks down the column (lanes read one
//           contiguous row piece): s[j] += r[i] A[i][j].
//   bicg_q: one thread per row i walks the row (lanes read 32 rows, ny floats
//           apart): q[i] += A[i][j] p[j].
// Both accumulate in global memory as the original does; the host zeroes s
// and q first.

__global__ void bicg_s(int nx, int ny, const float *A, const float *r, float *s)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ny)
        return;
    for (int i = 0; i < nx; i++)
        s[j] += r[i] * A[i * ny + j];
}

__global__ void bicg_q(int nx, int ny, const float *A, const float *p, float *q)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx)
        return;
    for (int j = 0; j < ny; j++)
        q[i] += A[i * ny + j] * p[j];
}
