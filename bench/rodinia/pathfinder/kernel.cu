// pathfinder: dynamic programming over a rows x cols grid of step costs.
// Row r's best cost at column x is wall[r][x] plus the smallest of the three
// best costs above it (x-1, x, x+1). One launch advances `steps` rows at once
// (pyramid tiling): each 256-thread block loads 256 consecutive costs of the
// current row into shared memory, where the blocks overlap their neighbours
// by `border` columns on each side; every row the valid part of the block
// shrinks by one column per side, and the inner 256 - 2*steps results are
// written back. Columns outside the grid are never read.

#define BLOCK 256
#define IN_RANGE(v, lo, hi) ((v) >= (lo) && (v) <= (hi))

__global__ void pathStep(int steps, const int *wall, const int *src, int *dst, int cols, int rows,
                         int startRow, int border)
{
    __shared__ int prev[BLOCK];
    __shared__ int next[BLOCK];

    const int tx = threadIdx.x;
    const int inner = BLOCK - 2 * steps;
    const int first = inner * blockIdx.x - border;   // grid column of thread 0
    const int last = first + BLOCK - 1;
    const int x = first + tx;

    // threads of the block that sit on the grid
    const int lo = first < 0 ? -first : 0;
    const int hi = last > cols - 1 ? BLOCK - 1 - (last - cols + 1) : BLOCK - 1;
    const int left = tx - 1 < lo ? lo : tx - 1;
    const int right = tx + 1 > hi ? hi : tx + 1;
    const bool onGrid = IN_RANGE(tx, lo, hi);

    if (IN_RANGE(x, 0, cols - 1))
        prev[tx] = src[x];
    __syncthreads();

    bool done = false;
    for (int i = 0; i < steps; i++) {
        done = false;
        if (IN_RANGE(tx, i + 1, BLOCK - i - 2) && onGrid) {
            done = true;
            int best = prev[left];
            int up = prev[tx];
            int r = prev[right];
            best = up < best ? up : best;
            best = r < best ? r : best;
            next[tx] = best + wall[cols * (startRow + i) + x];
        }
        __syncthreads();
        if (i == steps - 1)
            break;
        if (done)
            prev[tx] = next[tx];
        __syncthreads();
    }
    if (done)
        dst[x] = next[tx];
}
