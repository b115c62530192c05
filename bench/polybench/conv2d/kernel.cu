// conv2d (PolyBench/GPU 2DCONV): a 3x3 stencil over the interior of an
// ni x nj row-major float image. One thread per output pixel: x runs along a
// row (column j), y down the rows (row i); the host launches 32x8 blocks.
// The border rows and columns of B are not written.

// Stencil weights, row by row (the row above, the row itself, the row below).
#define W_UL  0.25f
#define W_U  -0.50f
#define W_UR  0.75f
#define W_L  -0.125f
#define W_C   0.625f
#define W_R  -0.875f
#define W_DL  0.375f
#define W_D   0.0625f
#define W_DR -0.3125f

__global__ void conv2d(int ni, int nj, const float *A, float *B)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || j < 1 || i >= ni - 1 || j >= nj - 1)
        return;
    const float *up = A + (i - 1) * nj;
    const float *mid = A + i * nj;
    const float *down = A + (i + 1) * nj;
    B[i * nj + j] = W_UL * up[j - 1] + W_U * up[j] + W_UR * up[j + 1]
                  + W_L * mid[j - 1] + W_C * mid[j] + W_R * mid[j + 1]
                  + W_DL * down[j - 1] + W_D * down[j] + W_DR * down[j + 1];
}
