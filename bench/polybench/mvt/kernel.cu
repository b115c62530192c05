// mvt (PolyBench/GPU MVT): x1 += A y1 and x2 += A^T y2 for a row-major n x n
// float matrix, two 1-D kernels launched with 256-thread blocks; one thread
// per output element i in both.
//   mvt_rows: thread i walks row i (lanes read 32 rows, n floats apart).
//   mvt_cols: thread i walks column i (lanes read one contiguous row piece).
// Both accumulate in global memory as the original does.

__global__ void mvt_rows(int n, const float *A, const float *y1, float *x1)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int j = 0; j < n; j++)
        x1[i] += A[i * n + j] * y1[j];
}

__global__ void mvt_cols(int n, const float *A, const float *y2, float *x2)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int j = 0; j < n; j++)
        x2[i] += A[j * n + i] * y2[j];
}
