// covar (PolyBench/GPU COVAR): the m x m covariance matrix of n samples of m
// variables, in three kernels. Like the original, the arrays are 1-based:
// data is (n+1) x (m+1) row-major (row i = sample i, column j = variable j;
// row 0 and column 0 unused), symmat is (m+1) x (m+1) and mean has m+1
// entries, so every row is m+1 floats long.
//   covar_mean   (256x1 blocks) one thread per column j: mean[j]
//   covar_reduce (32x8 blocks)  one thread per element: data -= mean
//   covar_covar  (256x1 blocks) one thread per column j1: row j1 of the
//                upper triangle (diagonal included) and its mirror.
// Per-thread sums are kept in global memory, as the original does.

__global__ void covar_mean(int m, int n, float float_n, const float *data, float *mean)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j > m)
        return;
    mean[j] = 0.0f;
    for (int i = 1; i <= n; i++)
        mean[j] += data[i * (m + 1) + j];
    mean[j] /= float_n;
}

__global__ void covar_reduce(int m, int n, const float *mean, float *data)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i > n || j > m)
        return;
    data[i * (m + 1) + j] -= mean[j];
}

__global__ void covar_covar(int m, int n, const float *data, float *symmat)
{
    const int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j1 > m)
        return;
    for (int j2 = j1; j2 <= m; j2++) {
        symmat[j1 * (m + 1) + j2] = 0.0f;
        for (int i = 1; i <= n; i++)
            symmat[j1 * (m + 1) + j2] += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
        symmat[j2 * (m + 1) + j1] = symmat[j1 * (m + 1) + j2];
    }
}
