// gramschm (PolyBench/GPU GRAMSCHM): classical Gram-Schmidt QR of a row-major
// m x n float matrix A (A = Q R), three 1-D kernels per column k (the host
// loops over k), all launched with 256-thread blocks.
//   gs_norm   one block; thread 0 alone walks column k: R[k][k] = |A[:,k]|
//   gs_q      one thread per row i: Q[i][k] = A[i][k] / R[k][k]
//   gs_update one thread per column j > k: R[k][j] = Q[:,k] . A[:,j], then
//             A[:,j] -= Q[:,k] R[k][j]; the lanes read one contiguous row
//             piece of A per step and all read the same Q[i][k].
// R[k][j] is accumulated in global memory, as the original does.

__global__ void gs_norm(int m, int n, const float *A, float *R, int k)
{
    if (blockIdx.x * blockDim.x + threadIdx.x != 0)
        return;
    float nrm = 0.0f;
    for (int i = 0; i < m; i++)
        nrm += A[i * n + k] * A[i * n + k];
    R[k * n + k] = sqrtf(nrm);
}

__global__ void gs_q(int m, int n, const float *A, const float *R, float *Q, int k)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    Q[i * n + k] = A[i * n + k] / R[k * n + k];
}

__global__ void gs_update(int m, int n, float *A, float *R, const float *Q, int k)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j <= k || j >= n)
        return;
    R[k * n + j] = 0.0f;
    for (int i = 0; i < m; i++)
        R[k * n + j] += Q[i * n + k] * A[i * n + j];
    for (int i = 0; i < m; i++)
        A[i * n + j] -= Q[i * n + k] * R[k * n + j];
}
