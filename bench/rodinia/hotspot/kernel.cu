// hotspot: transient chip temperature on a 2-D grid. One launch advances
// `steps` time steps at once (pyramid / ghost-zone tiling): every 16x16 block
// loads a tile that overlaps its neighbours by `steps` cells on each side,
// iterates in shared memory, and each step the valid region shrinks by one
// cell; the inner (16 - 2*steps)^2 cells are written back. Cells outside the
// chip read their own value (insulated edges).

#define BLOCK 16
#define AMBIENT 80.0f

#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

__global__ void calculateTemp(int steps, const float *power, const float *tempIn, float *tempOut,
                              int cols, int rows, int borderCols, int borderRows,
                              float cap, float rx, float ry, float rz, float dt)
{
    __shared__ float tIn[BLOCK][BLOCK];
    __shared__ float pw[BLOCK][BLOCK];
    __shared__ float tNext[BLOCK][BLOCK];

    float dtOverCap = dt / cap;
    float gx = 1.0f / rx, gy = 1.0f / ry, gz = 1.0f / rz;
    int tx = threadIdx.x, ty = threadIdx.y;

    // each block owns an inner tile of (BLOCK - 2*steps)^2 cells
    int inner = BLOCK - steps * 2;
    int y0 = inner * blockIdx.y - borderRows;
    int x0 = inner * blockIdx.x - borderCols;
    int y1 = y0 + BLOCK - 1, x1 = x0 + BLOCK - 1;
    int y = y0 + ty, x = x0 + tx;
    int idx = cols * y + x;

    if (IN_RANGE(y, 0, rows - 1) && IN_RANGE(x, 0, cols - 1)) {
        tIn[ty][tx] = tempIn[idx];
        pw[ty][tx] = power[idx];
    }
    __syncthreads();

    // part of the tile that lies on the chip
    int loY = y0 < 0 ? -y0 : 0;
    int hiY = y1 > rows - 1 ? BLOCK - 1 - (y1 - rows + 1) : BLOCK - 1;
    int loX = x0 < 0 ? -x0 : 0;
    int hiX = x1 > cols - 1 ? BLOCK - 1 - (x1 - cols + 1) : BLOCK - 1;

    int n = ty - 1 < loY ? loY : ty - 1;
    int s = ty + 1 > hiY ? hiY : ty + 1;
    int w = tx - 1 < loX ? loX : tx - 1;
    int e = tx + 1 > hiX ? hiX : tx + 1;

    bool done = false;
    for (int i = 0; i < steps; i++) {
        done = false;
        if (IN_RANGE(tx, i + 1, BLOCK - i - 2) && IN_RANGE(ty, i + 1, BLOCK - i - 2) &&
            IN_RANGE(tx, loX, hiX) && IN_RANGE(ty, loY, hiY)) {
            done = true;
            float c = tIn[ty][tx];
            tNext[ty][tx] = c + dtOverCap * (pw[ty][tx] + (tIn[s][tx] + tIn[n][tx] - 2.0f * c) * gy +
                                             (tIn[ty][e] + tIn[ty][w] - 2.0f * c) * gx +
                                             (AMBIENT - c) * gz);
        }
        __syncthreads();
        if (i == steps - 1)
            break;
        if (done)
            tIn[ty][tx] = tNext[ty][tx];
        __syncthreads();
    }
    if (done)
        tempOut[idx] = tNext[ty][tx];
}
