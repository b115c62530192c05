// gesummv (PolyBench/GPU GESUMMV): y = alpha A x + beta B x for row-major
// n x n float matrices, one 1-D kernel launched with 256-thread blocks. One
// thread per row i walks row i of both A and B (the lanes of a warp read 32
// rows of each, n floats apart), accumulating A x in tmp[i] and B x in y[i]
// in global memory as the original does; the host zeroes tmp and y first.

__global__ void gesummv(int n, float alpha, float beta, const float *A, const float *B,
                        const float *x, float *tmp, float *y)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int j = 0; j < n; j++) {
        tmp[i] += A[i * n + j] * x[j];
        y[i] += B[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
}
