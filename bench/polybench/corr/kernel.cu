// corr (PolyBench/GPU CORR): the m x m correlation matrix of n samples of m
// variables, in four kernels. Like the original, the arrays are 1-based:
// data is (n+1) x (m+1) row-major (row i = sample i, column j = variable j;
// row 0 and column 0 unused), symmat is (m+1) x (m+1), mean and stddev have
// m+1 entries, so every row is m+1 floats long.
//   corr_mean   (256x1 blocks) one thread per column j: mean[j]
//   corr_std    (256x1 blocks) one thread per column j: stddev[j]
//   corr_reduce (32x8 blocks)  one thread per element: centre and scale
//   corr_corr   (256x1 blocks) one thread per column j1 < m: row j1 of the
//               upper triangle and its mirror; the host sets symmat[m][m].
// Per-thread sums are kept in global memory, as the original does.

__global__ void corr_mean(int m, int n, float float_n, const float *data, float *mean)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j > m)
        return;
    mean[j] = 0.0f;
    for (int i = 1; i <= n; i++)
        mean[j] += data[i * (m + 1) + j];
    mean[j] /= float_n;
}

__global__ void corr_std(int m, int n, float float_n, float eps, const float *data,
                         const float *mean, float *stddev)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j > m)
        return;
    stddev[j] = 0.0f;
    for (int i = 1; i <= n; i++)
        stddev[j] += (data[i * (m + 1) + j] - mean[j]) * (data[i * (m + 1) + j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = sqrtf(stddev[j]);
    // A (near-)constant variable would divide by zero below.
    if (stddev[j] <= eps)
        stddev[j] = 1.0f;
}

__global__ void corr_reduce(int m, int n, float sqrt_n, const float *mean, const float *stddev,
                            float *data)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    const int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i > n || j > m)
        return;
    data[i * (m + 1) + j] -= mean[j];
    data[i * (m + 1) + j] /= sqrt_n * stddev[j];
}

__global__ void corr_corr(int m, int n, const float *data, float *symmat)
{
    const int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j1 >= m)
        return;
    symmat[j1 * (m + 1) + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 <= m; j2++) {
        symmat[j1 * (m + 1) + j2] = 0.0f;
        for (int i = 1; i <= n; i++)
            symmat[j1 * (m + 1) + j2] += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
        symmat[j2 * (m + 1) + j1] = symmat[j1 * (m + 1) + j2];
    }
}
