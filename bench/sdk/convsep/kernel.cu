// convsep: separable 2D convolution (radius 8) of a float image as a row
// pass followed by a column pass. Each pass stages a tile plus its apron
// (halo) in shared memory; a thread computes RESULT_STEPS outputs spaced a
// block width (rows) or height (columns) apart. Out-of-image apron values
// are zero. The 17 filter taps live in constant memory.
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

__constant__ float c_Kernel[KERNEL_LENGTH];

#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1

__global__ void convolutionRowsKernel(float *dst, const float *src, int imageW, int imageH,
                                      int pitch)
{
    __shared__ float tile[ROWS_BLOCKDIM_Y]
                         [(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];
    const int tx = threadIdx.x, ty = threadIdx.y;
    // leftmost column this thread loads (one halo step left of the tile)
    const int x0 = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X + tx;
    const int y = blockIdx.y * ROWS_BLOCKDIM_Y + ty;
    const float *in = src + y * pitch + x0;
    float *out = dst + y * pitch + x0;

#pragma unroll
    for (int s = 0; s < ROWS_HALO_STEPS; s++)
        tile[ty][tx + s * ROWS_BLOCKDIM_X] = x0 + s * ROWS_BLOCKDIM_X >= 0 ? in[s * ROWS_BLOCKDIM_X] : 0.0f;
#pragma unroll
    for (int s = ROWS_HALO_STEPS; s < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; s++)
        tile[ty][tx + s * ROWS_BLOCKDIM_X] = in[s * ROWS_BLOCKDIM_X];
#pragma unroll
    for (int s = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; s < ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS; s++)
        tile[ty][tx + s * ROWS_BLOCKDIM_X] = x0 + s * ROWS_BLOCKDIM_X < imageW ? in[s * ROWS_BLOCKDIM_X] : 0.0f;
    __syncthreads();

#pragma unroll
    for (int s = ROWS_HALO_STEPS; s < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; s++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * tile[ty][tx + s * ROWS_BLOCKDIM_X + j];
        out[s * ROWS_BLOCKDIM_X] = sum;
    }
}

#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 8
#define COLUMNS_HALO_STEPS 1

__global__ void convolutionColumnsKernel(float *dst, const float *src, int imageW, int imageH,
                                         int pitch)
{
    // one padding column so that a warp's column reads fall in distinct banks
    __shared__ float tile[COLUMNS_BLOCKDIM_X]
                         [(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * COLUMNS_BLOCKDIM_X + tx;
    // topmost row this thread loads (one halo step above the tile)
    const int y0 = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + ty;
    const float *in = src + y0 * pitch + x;
    float *out = dst + y0 * pitch + x;

#pragma unroll
    for (int s = 0; s < COLUMNS_HALO_STEPS; s++)
        tile[tx][ty + s * COLUMNS_BLOCKDIM_Y] =
            y0 + s * COLUMNS_BLOCKDIM_Y >= 0 ? in[s * COLUMNS_BLOCKDIM_Y * pitch] : 0.0f;
#pragma unroll
    for (int s = COLUMNS_HALO_STEPS; s < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; s++)
        tile[tx][ty + s * COLUMNS_BLOCKDIM_Y] = in[s * COLUMNS_BLOCKDIM_Y * pitch];
#pragma unroll
    for (int s = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
         s < COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS; s++)
        tile[tx][ty + s * COLUMNS_BLOCKDIM_Y] =
            y0 + s * COLUMNS_BLOCKDIM_Y < imageH ? in[s * COLUMNS_BLOCKDIM_Y * pitch] : 0.0f;
    __syncthreads();

#pragma unroll
    for (int s = COLUMNS_HALO_STEPS; s < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; s++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_Kernel[KERNEL_RADIUS - j] * tile[tx][ty + s * COLUMNS_BLOCKDIM_Y + j];
        out[s * COLUMNS_BLOCKDIM_Y * pitch] = sum;
    }
}
