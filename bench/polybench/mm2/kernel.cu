// mm2 (PolyBench/GPU 2MM): two chained matrix products on row-major float
// matrices, C = A.B then E = C.D, one kernel each. One thread per output
// element: x -> column j, y -> row i; the host launches 32x8 blocks. Each
// thread walks the shared dimension k and adds into its output element in
// global memory (as the original does), so every step loads a row element,
// a column element and stores the running sum.

// C (ni x nj) += A (ni x nk) . B (nk x nj)
__global__ void mm2_ab(int ni, int nj, int nk, const float *A, const float *B, float *C)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nj)
        return;
    for (int k = 0; k < nk; k++)
        C[i * nj + j] += A[i * nk + k] * B[k * nj + j];
}

// E (ni x nl) += C (ni x nj) . D (nj x nl)
__global__ void mm2_cd(int ni, int nl, int nj, const float *C, const float *D, float *E)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ni || j >= nl)
        return;
    for (int k = 0; k < nj; k++)
        E[i * nl + j] += C[i * nj + k] * D[k * nl + j];
}
