// syrk (PolyBench/GPU SYRK): C = alpha A.A^T + beta C for a row-major n x m
// float A and the full n x n C. One thread per element of C: x -> column j,
// y -> row i; the host launches 32x8 blocks. At each step k the lanes of a
// warp (consecutive j) read A[j][k] from 32 different rows, m floats apart,
// and all read the same A[i][k]. The sum is kept in C in global memory, as
// the original does.

__global__ void syrk(int n, int m, float alpha, float beta, const float *A, float *C)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    C[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
        C[i * n + j] += alpha * A[i * m + k] * A[j * m + k];
}
