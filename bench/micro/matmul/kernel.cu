// matmul: C = A * B for square n x n row-major matrices (n a multiple of
// TILE). Each 16x16 block computes one 16x16 tile of C, staging matching
// tiles of A and B through shared memory.
#define TILE 16

__global__ void matmulTiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float tileA[TILE][TILE];
    __shared__ float tileB[TILE][TILE];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    const int tiles = n / TILE;

    float sum = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        tileA[ty][tx] = A[row * n + t * TILE + tx];
        tileB[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += tileA[ty][k] * tileB[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}
