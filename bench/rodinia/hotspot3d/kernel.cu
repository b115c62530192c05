// hotspot3d: 3-D thermal stencil (7 points) on nx x ny x nz cells. A 2-D
// grid of 64x4 blocks covers one xy layer; each thread walks up the z column
// and keeps the cell below, the cell itself and the cell above in registers,
// so every layer is read once from memory for the centre values. Edges reuse
// the centre cell.

#define AMBIENT 80.0f

__global__ void stencil3d(const float *power, const float *tIn, float *tOut, float sdc,
                          int nx, int ny, int nz, float ce, float cw, float cn, float cs,
                          float ct, float cb, float cc)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int layer = nx * ny;

    int w = i == 0 ? c : c - 1;
    int e = i == nx - 1 ? c : c + 1;
    int n = j == 0 ? c : c - nx;
    int s = j == ny - 1 ? c : c + nx;

    float below, mid, above;
    below = mid = tIn[c];
    above = tIn[c + layer];
    tOut[c] = cc * mid + cw * tIn[w] + ce * tIn[e] + cs * tIn[s] + cn * tIn[n] + cb * below +
              ct * above + sdc * power[c] + ct * AMBIENT;
    c += layer;
    w += layer;
    e += layer;
    s += layer;
    n += layer;

    for (int k = 1; k < nz - 1; ++k) {
        below = mid;
        mid = above;
        above = tIn[c + layer];
        tOut[c] = cc * mid + cw * tIn[w] + ce * tIn[e] + cs * tIn[s] + cn * tIn[n] + cb * below +
                  ct * above + sdc * power[c] + ct * AMBIENT;
        c += layer;
        w += layer;
        e += layer;
        s += layer;
        n += layer;
    }
    below = mid;
    mid = above;
    tOut[c] = cc * mid + cw * tIn[w] + ce * tIn[e] + cs * tIn[s] + cn * tIn[n] + cb * below +
              ct * above + sdc * power[c] + ct * AMBIENT;
}
