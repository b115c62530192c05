// lps: one Jacobi sweep of the 3-D Laplace equation (Giles' laplace3d, the
// ISPASS-2009 "LPS" application). Blocks of 32x4 threads cover an x-y tile;
// every thread owns one (i, j) column and marches up k. Three planes of the
// tile plus a one-cell x/y halo rotate through shared memory: at step k the
// block stages plane k+1, then each thread averages its six neighbours.
// Domain-boundary points keep their value (Dirichlet). Arrays are pitched:
// index = i + j*pitch + k*pitch*ny.

#define BLOCK_X 32
#define BLOCK_Y 4
#define TX (BLOCK_X + 2)
#define TY (BLOCK_Y + 2)
#define PLANE (TX * TY)

__device__ __forceinline__ void stage_plane(float *dst, const float *u, int k, int nx, int ny, int nz,
                                            int pitch, int i0, int j0)
{
    if (k >= nz)
        return;
    int tx = threadIdx.x, ty = threadIdx.y;
    size_t kbase = (size_t)k * pitch * ny;
    int i = i0 + tx, j = j0 + ty;
    if (i < nx && j < ny)
        dst[(ty + 1) * TX + tx + 1] = u[kbase + (size_t)j * pitch + i];
    // the halo ring (no corners) is fetched by the first 2*(TX + BLOCK_Y) threads
    int t = tx + ty * BLOCK_X;
    int hi = -2, hj = -2;
    if (t < TX) {
        hi = t - 1;
        hj = -1;
    } else if (t < 2 * TX) {
        hi = t - TX - 1;
        hj = BLOCK_Y;
    } else if (t < 2 * TX + BLOCK_Y) {
        hi = -1;
        hj = t - 2 * TX;
    } else if (t < 2 * TX + 2 * BLOCK_Y) {
        hi = BLOCK_X;
        hj = t - 2 * TX - BLOCK_Y;
    }
    if (hj != -2) {
        int gi = i0 + hi, gj = j0 + hj;
        if (gi >= 0 && gi < nx && gj >= 0 && gj < ny)
            dst[(hj + 1) * TX + hi + 1] = u[kbase + (size_t)gj * pitch + gi];
    }
}

__global__ void laplace3d(int nx, int ny, int nz, int pitch, const float *u1, float *u2)
{
    __shared__ float s[3 * PLANE];
    const float sixth = 1.0f / 6.0f;
    int i0 = blockIdx.x * BLOCK_X, j0 = blockIdx.y * BLOCK_Y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = i0 + tx, j = j0 + ty;
    bool active = i < nx && j < ny;
    bool edge = i == 0 || i == nx - 1 || j == 0 || j == ny - 1;
    int c = (ty + 1) * TX + tx + 1;

    stage_plane(s, u1, 0, nx, ny, nz, pitch, i0, j0);
    stage_plane(s + PLANE, u1, 1, nx, ny, nz, pitch, i0, j0);
    __syncthreads();

    for (int k = 0; k < nz; k++) {
        float *m = s + ((k + 2) % 3) * PLANE;  // plane k-1
        float *p = s + (k % 3) * PLANE;        // plane k
        float *q = s + ((k + 1) % 3) * PLANE;  // plane k+1
        if (active) {
            size_t ind = (size_t)k * pitch * ny + (size_t)j * pitch + i;
            float v;
            if (edge || k == 0 || k == nz - 1)
                v = p[c];
            else
                v = sixth * (p[c - 1] + p[c + 1] + p[c - TX] + p[c + TX] + m[c] + q[c]);
            u2[ind] = v;
        }
        __syncthreads();
        stage_plane(s + ((k + 2) % 3) * PLANE, u1, k + 2, nx, ny, nz, pitch, i0, j0);
        __syncthreads();
    }
}
