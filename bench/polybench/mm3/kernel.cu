// mm3 (PolyBench/GPU 3MM): E = A.B, F = C.D, G = E.F on row-major float
// matrices, one kernel per product. One thread per output element: x ->
// column, y -> row; the host launches 32x8 blocks. Each thread adds into its
// output element in global memory at every step of the shared dimension, as
// the original does.

// out (rows x cols) += left (rows x inner) . right (inner x cols)
__device__ __forceinline__ void product_element(int rows, int cols, int inner, const float *left,
                                                const float *right, float *out)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols)
        return;
    for (int k = 0; k < inner; k++)
        out[row * cols + col] += left[row * inner + k] * right[k * cols + col];
}

// E (ni x nj) += A (ni x nk) . B (nk x nj)
__global__ void mm3_e(int ni, int nj, int nk, const float *A, const float *B, float *E)
{
    product_element(ni, nj, nk, A, B, E);
}

// F (nj x nl) += C (nj x nm) . D (nm x nl)
__global__ void mm3_f(int nj, int nl, int nm, const float *C, const float *D, float *F)
{
    product_element(nj, nl, nm, C, D, F);
}

// G (ni x nl) += E (ni x nj) . F (nj x nl)
__global__ void mm3_g(int ni, int nl, int nj, const float *E, const float *F, float *G)
{
    product_element(ni, nl, nj, E, F, G);
}
