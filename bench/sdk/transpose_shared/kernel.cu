// transpose_shared: out (width x height) = transpose of in (height x width),
// row-major floats, through a 32x32 tile in shared memory. Blocks of 32x8
// threads; each thread moves 4 elements, 8 rows apart. The tile is read row
// by row from `in` and written row by row to `out` (its columns become rows),
// so both global accesses are coalesced. One float of padding per tile row
// puts the column reads of the tile in 32 different banks. Dimensions are
// multiples of 32.
#define TILE 32
#define ROWS 8

__global__ void transposeShared(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS)
        tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * width + x];

    __syncthreads();

    // the block's tile lands at the mirrored tile position of out
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS)
        out[(y + r) * height + x] = tile[threadIdx.x][threadIdx.y + r];
}
