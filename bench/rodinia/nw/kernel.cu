// nw: Needleman-Wunsch global alignment score matrix, (n+1) x (n+1) ints
// with row 0 and column 0 holding the gap penalties. The matrix is cut into
// 16x16 tiles and processed along anti-diagonals of tiles: the host launches
// one kernel per tile diagonal, one 16-thread block per tile. A block loads
// its tile's substitution scores, the row above and the column to the left
// into shared memory, sweeps the tile's own cell anti-diagonals (growing,
// then shrinking) with a barrier after each, and writes the tile back.
//   nwUpperLeft   tile diagonals that start in the first tile column
//   nwLowerRight  the remaining diagonals, ending at the last tile

#define TB 16

__device__ __forceinline__ int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

__device__ void nwTile(const int *ref, int *score, int cols, int penalty, int tileX, int tileY)
{
    __shared__ int s[TB + 1][TB + 1];
    __shared__ int r[TB][TB];
    int tx = threadIdx.x;
    int corner = cols * TB * tileY + TB * tileX;  // cell above-left of the tile
    int first = corner + cols + 1;               // first cell of the tile

    if (tx == 0)
        s[0][0] = score[corner];
    for (int ty = 0; ty < TB; ty++)
        r[ty][tx] = ref[first + tx + cols * ty];
    __syncthreads();
    s[tx + 1][0] = score[corner + cols * (tx + 1)];
    __syncthreads();
    s[0][tx + 1] = score[corner + tx + 1];
    __syncthreads();

    // upper-left half of the tile, anti-diagonal d has d + 1 cells
    for (int d = 0; d < TB; d++) {
        if (tx <= d) {
            int x = tx + 1, y = d - tx + 1;
            s[y][x] = max3(s[y - 1][x - 1] + r[y - 1][x - 1], s[y][x - 1] - penalty,
                           s[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    // lower-right half
    for (int d = TB - 2; d >= 0; d--) {
        if (tx <= d) {
            int x = tx + TB - d, y = TB - tx;
            s[y][x] = max3(s[y - 1][x - 1] + r[y - 1][x - 1], s[y][x - 1] - penalty,
                           s[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int ty = 0; ty < TB; ty++)
        score[first + tx + cols * ty] = s[ty + 1][tx + 1];
}

__global__ void nwUpperLeft(const int *ref, int *score, int cols, int penalty, int diag, int tiles)
{
    int b = blockIdx.x;
    nwTile(ref, score, cols, penalty, b, diag - 1 - b);
}

__global__ void nwLowerRight(const int *ref, int *score, int cols, int penalty, int diag, int tiles)
{
    int b = blockIdx.x;
    nwTile(ref, score, cols, penalty, b + tiles - diag, tiles - b - 1);
}
