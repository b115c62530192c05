// gemm (PolyBench/GPU GEMM): C = alpha A.B + beta C on row-major float
// matrices. One thread per element of C: x -> column j, y -> row i; the host
// launches 32x8 blocks. The thread scales its element, then adds one product
// term per step of k into it in global memory, as the original does.

__global__ void gemm(int ni, int nj, int nk, float alpha, float beta, const float *A,
                     const float *B, float *C)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj)
        return;
    C[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
        C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
}
