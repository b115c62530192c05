// matmul_naive: C (hA x wB) = A (hA x wA) * B (wA x wB), row-major floats.
// One thread per element of C on 16x16 blocks; every thread walks a row of A
// and a column of B straight from global memory (no reuse through shared
// memory), so a warp reads one A element (broadcast) and 16-32 consecutive B
// elements per step.
__global__ void matrixMulNaive(float *C, const float *A, const float *B, int wA, int wB)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;

    const float *a = A + row * wA;
    const float *b = B + col;
    float acc = 0.0f;
    for (int k = 0; k < wA; ++k)
        acc += a[k] * b[k * wB];
    C[row * wB + col] = acc;
}
