// leukocyte (detection stage): scores every pixel of a frame as the centre of
// a circular cell and keeps the local maxima.
//
// `gicovScore`: one block per interior row, one thread per interior column.
// For each of NCIRCLES radii the thread samples the image gradient at
// NPOINTS points of the circle (offsets and angles in constant memory),
// projects it on the outward normal, and takes mean^2 / variance of the
// projections (running mean and variance); the pixel's score is the best
// circle's. `dilateMax`: one thread per pixel, the maximum of the score image
// under a disc-shaped structuring element (constant memory). Images are
// column-major (pixel (row, col) at col * rows + row), so a warp's threads,
// one column apart, read addresses `rows` floats apart.

#define NPOINTS 150
#define NCIRCLES 7
#define STREL_RAD 12
#define STREL_DIM (2 * STREL_RAD + 1)

__constant__ float cSin[NPOINTS];
__constant__ float cCos[NPOINTS];
__constant__ int cOffRow[NCIRCLES * NPOINTS];
__constant__ int cOffCol[NCIRCLES * NPOINTS];
__constant__ float cStrel[STREL_DIM * STREL_DIM];

__global__ void gicovScore(const float *__restrict__ gradX, const float *__restrict__ gradY, float *gicov,
                           int rows, int margin)
{
    const int row = blockIdx.x + margin;
    const int col = threadIdx.x + margin;

    float best = 0.0f;
    for (int k = 0; k < NCIRCLES; k++) {
        float mean = 0.0f, m2 = 0.0f;
        for (int n = 0; n < NPOINTS; n++) {
            const int r = row + cOffRow[k * NPOINTS + n];
            const int c = col + cOffCol[k * NPOINTS + n];
            const int at = c * rows + r;
            const float p = gradX[at] * cCos[n] + gradY[at] * cSin[n];
            const float delta = p - mean;
            mean += delta / (float)(n + 1);
            m2 += delta * (p - mean);
        }
        const float var = m2 / (float)(NPOINTS - 1);
        const float g = mean * mean / var;
        if (g > best)
            best = g;
    }
    gicov[col * rows + row] = best;
}

__global__ void dilateMax(const float *__restrict__ img, float *out, int rows, int cols)
{
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= rows * cols)
        return;
    const int row = id % rows;
    const int col = id / rows;

    float best = 0.0f;
    for (int ec = 0; ec < STREL_DIM; ec++) {
        const int c = col - STREL_RAD + ec;
        for (int er = 0; er < STREL_DIM; er++) {
            if (cStrel[ec * STREL_DIM + er] == 0.0f)
                continue;
            const int r = row - STREL_RAD + er;
            if (r >= 0 && r < rows && c >= 0 && c < cols) {
                const float v = img[c * rows + r];
                best = v > best ? v : best;
            }
        }
    }
    out[id] = best;
}
