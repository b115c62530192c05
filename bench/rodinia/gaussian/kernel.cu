// gaussian: forward elimination of A x = b without pivoting, one pivot
// column per host iteration t:
//   fan1  one thread per row below the pivot computes its multiplier
//         m[row][t] = a[row][t] / a[t][t]  (1-D blocks of 512 threads)
//   fan2  a 2-D grid of 4x4 blocks updates the trailing rows:
//         a[row][col] -= m[row][t] * a[t][col], and column 0 of each row
//         also updates b. x indexes rows below the pivot, y the columns.
// Matrices are n x n row-major.

__global__ void fan1(float *m, const float *a, int n, int t)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n - 1 - t)
        return;
    int row = r + t + 1;
    m[n * row + t] = a[n * row + t] / a[n * t + t];
}

__global__ void fan2(const float *m, float *a, float *b, int n, int t)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= n - 1 - t)
        return;
    if (col >= n - t)
        return;
    int row = r + 1 + t;
    a[n * row + (col + t)] -= m[n * row + t] * a[n * t + (col + t)];
    if (col == 0)
        b[row] -= m[n * row + (col + t)] * b[t];
}
