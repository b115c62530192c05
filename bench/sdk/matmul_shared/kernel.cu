// matmul_shared: C (hA x wA) * (wA x wB) with 16x16 shared-memory tiles, the
// SDK matrixMul decomposition: block (bx, by) owns the 16x16 tile of C at
// row 16*by, column 16*bx. It walks A's tile row left to right and B's tile
// column top to bottom in lock step; each thread loads one element of each
// tile, and after a barrier accumulates a 16-term dot product from shared
// memory. Dimensions are multiples of 16.
#define BLOCK 16

__global__ void matrixMulShared(float *C, const float *A, const float *B, int wA, int wB)
{
    __shared__ float sA[BLOCK][BLOCK];
    __shared__ float sB[BLOCK][BLOCK];

    const int tx = threadIdx.x, ty = threadIdx.y;

    // first element of A's tile row, one past its last, and the strides
    const int aFirst = wA * BLOCK * blockIdx.y;
    const int aEnd = aFirst + wA;
    const int aStep = BLOCK;
    const int bFirst = BLOCK * blockIdx.x;
    const int bStep = BLOCK * wB;

    float acc = 0.0f;
    for (int a = aFirst, b = bFirst; a < aEnd; a += aStep, b += bStep) {
        sA[ty][tx] = A[a + wA * ty + tx];
        sB[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BLOCK; ++k)
            acc += sA[ty][k] * sB[k][tx];
        __syncthreads();
    }
    C[wB * BLOCK * blockIdx.y + BLOCK * blockIdx.x + wB * ty + tx] = acc;
}
