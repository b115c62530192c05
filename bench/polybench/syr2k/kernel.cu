// syr2k (PolyBench/GPU SYR2K): C = alpha (A.B^T + B.A^T) + beta C for
// row-major n x m float A and B and the full n x n C. One thread per element
// of C: x -> column j, y -> row i; the host launches 32x8 blocks. At each
// step k the lanes of a warp read A[j][k] and B[j][k] from 32 different rows
// each. The sum is kept in C in global memory, as the original does.

__global__ void syr2k(int n, int m, float alpha, float beta, const float *A, const float *B,
                      float *C)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    C[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
        C[i * n + j] += alpha * A[i * m + k] * B[j * m + k] + alpha * B[i * m + k] * A[j * m + k];
}
