// lud: in-place LU decomposition (no pivoting) of an n x n row-major matrix
// in 16x16 blocks. For each block step at `offset` the host launches
//   ludDiagonal   one block of 16 threads factors the diagonal block in
//                 shared memory (thread = column for U rows, row for L);
//   ludPerimeter  32 threads per block: the first 16 solve a block of the
//                 block row (U), the last 16 a block of the block column (L);
//   ludInternal   16x16 threads per trailing block subtract the product of
//                 the matching L and U perimeter blocks.

#define BS 16

__global__ void ludDiagonal(float *a, int n, int offset)
{
    __shared__ float blk[BS][BS];
    int t = threadIdx.x;
    int p = offset * n + offset;
    for (int i = 0; i < BS; i++) {
        blk[i][t] = a[p + t];
        p += n;
    }
    __syncthreads();
    for (int i = 0; i < BS - 1; i++) {
        if (t > i) {
            // L entry of row t, column i
            for (int j = 0; j < i; j++)
                blk[t][i] -= blk[t][j] * blk[j][i];
            blk[t][i] /= blk[i][i];
        }
        __syncthreads();
        if (t > i) {
            // U entry of row i + 1, column t
            for (int j = 0; j < i + 1; j++)
                blk[i + 1][t] -= blk[i + 1][j] * blk[j][t];
        }
        __syncthreads();
    }
    // row 0 is unchanged
    p = (offset + 1) * n + offset;
    for (int i = 1; i < BS; i++) {
        a[p + t] = blk[i][t];
        p += n;
    }
}

__global__ void ludPerimeter(float *a, int n, int offset)
{
    __shared__ float dia[BS][BS];
    __shared__ float row[BS][BS];
    __shared__ float col[BS][BS];
    int blk = blockIdx.x + 1;  // which block along the row / column
    int p;

    if (threadIdx.x < BS) {
        int t = threadIdx.x;
        p = offset * n + offset;
        for (int i = 0; i < BS / 2; i++) {
            dia[i][t] = a[p + t];
            p += n;
        }
        p = offset * n + offset;
        for (int i = 0; i < BS; i++) {
            row[i][t] = a[p + blk * BS + t];
            p += n;
        }
    } else {
        int t = threadIdx.x - BS;
        p = (offset + BS / 2) * n + offset;
        for (int i = BS / 2; i < BS; i++) {
            dia[i][t] = a[p + t];
            p += n;
        }
        p = (offset + blk * BS) * n + offset;
        for (int i = 0; i < BS; i++) {
            col[i][t] = a[p + t];
            p += n;
        }
    }
    __syncthreads();

    if (threadIdx.x < BS) {
        // forward substitution with unit-lower L of the diagonal block
        int t = threadIdx.x;
        for (int i = 1; i < BS; i++)
            for (int j = 0; j < i; j++)
                row[i][t] -= dia[i][j] * row[j][t];
    } else {
        // solve against U of the diagonal block, one row of the L block per thread
        int t = threadIdx.x - BS;
        for (int i = 0; i < BS; i++) {
            for (int j = 0; j < i; j++)
                col[t][i] -= col[t][j] * dia[j][i];
            col[t][i] /= dia[i][i];
        }
    }
    __syncthreads();

    if (threadIdx.x < BS) {
        int t = threadIdx.x;
        p = (offset + 1) * n + offset;
        for (int i = 1; i < BS; i++) {
            a[p + blk * BS + t] = row[i][t];
            p += n;
        }
    } else {
        int t = threadIdx.x - BS;
        p = (offset + blk * BS) * n + offset;
        for (int i = 0; i < BS; i++) {
            a[p + t] = col[i][t];
            p += n;
        }
    }
}

__global__ void ludInternal(float *a, int n, int offset)
{
    __shared__ float row[BS][BS];
    __shared__ float col[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r0 = offset + (blockIdx.y + 1) * BS;
    int c0 = offset + (blockIdx.x + 1) * BS;

    row[ty][tx] = a[(offset + ty) * n + c0 + tx];
    col[ty][tx] = a[(r0 + ty) * n + offset + tx];
    __syncthreads();
    float sum = 0.0f;
    for (int i = 0; i < BS; i++)
        sum += col[ty][i] * row[i][tx];
    a[(r0 + ty) * n + c0 + tx] -= sum;
}
