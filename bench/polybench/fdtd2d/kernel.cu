// fdtd2d (PolyBench/GPU FDTD-2D): a 2-D finite-difference time-domain
// update, three kernels per time step (the host loops over t). One thread
// per grid point: x -> column j, y -> row i; the host launches 32x8 blocks.
// Layout as in the original: hz is nx x ny, ex is nx x (ny+1) (rows one
// float longer) and ey is (nx+1) x ny (one extra row); the extra column of
// ex and row of ey are read but never written.

// ey: row 0 takes the source value of step t, the other rows the difference
// of hz down the column.
__global__ void fdtd_ey(int nx, int ny, const float *fict, const float *hz, float *ey, int t)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny)
        return;
    if (i == 0)
        ey[j] = fict[t];
    else
        ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
}

// ex: the difference of hz along the row (column 0 is not updated).
__global__ void fdtd_ex(int nx, int ny, const float *hz, float *ex)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny || j == 0)
        return;
    ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

// hz: the curl of (ex, ey) around the cell.
__global__ void fdtd_hz(int nx, int ny, const float *ex, const float *ey, float *hz)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nx || j >= ny)
        return;
    hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j]
                                              + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}
