// srad: speckle-reducing anisotropic diffusion (the two-kernel "v2" form).
// Both kernels use 16x16 blocks over a rows x cols image (a multiple of 16).
//   sradPrepare  stages the block's tile and its four halo strips in shared
//                memory, computes the four directional differences and the
//                diffusion coefficient of every pixel; differences and the
//                coefficient go to global arrays.
//   sradUpdate   stages the coefficients of the tile, the strip below and the
//                strip to the right, and moves every pixel by the divergence.
// Image edges use the pixel itself as its missing neighbour. Halo strips are
// loaded by every thread row from the neighbouring tile's edge row/column.

#define BLOCK 16

__global__ void sradPrepare(float *dE, float *dW, float *dN, float *dS, const float *J, float *C,
                            int cols, int rows, float q0sqr)
{
    __shared__ float tile[BLOCK][BLOCK];
    __shared__ float coef[BLOCK][BLOCK];
    __shared__ float up[BLOCK][BLOCK];
    __shared__ float down[BLOCK][BLOCK];
    __shared__ float left[BLOCK][BLOCK];
    __shared__ float right[BLOCK][BLOCK];

    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int base = cols * BLOCK * by + BLOCK * bx;  // top-left pixel of the tile
    int idx = base + cols * ty + tx;

    // the row above and the row below the tile (clamped at the image edge)
    if (by == 0)
        up[ty][tx] = J[BLOCK * bx + tx];
    else
        up[ty][tx] = J[base - cols + tx];
    if (by == gridDim.y - 1)
        down[ty][tx] = J[base + cols * (BLOCK - 1) + tx];
    else
        down[ty][tx] = J[base + cols * BLOCK + tx];
    __syncthreads();
    // the columns left and right of the tile
    if (bx == 0)
        left[ty][tx] = J[cols * BLOCK * by + cols * ty];
    else
        left[ty][tx] = J[base + cols * ty - 1];
    if (bx == gridDim.x - 1)
        right[ty][tx] = J[base + cols * ty + BLOCK - 1];
    else
        right[ty][tx] = J[base + cols * ty + BLOCK];
    __syncthreads();
    tile[ty][tx] = J[idx];
    __syncthreads();

    float jc = tile[ty][tx];
    float n = (ty == 0 ? up[ty][tx] : tile[ty - 1][tx]) - jc;
    float s = (ty == BLOCK - 1 ? down[ty][tx] : tile[ty + 1][tx]) - jc;
    float w = (tx == 0 ? left[ty][tx] : tile[ty][tx - 1]) - jc;
    float e = (tx == BLOCK - 1 ? right[ty][tx] : tile[ty][tx + 1]) - jc;

    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float cval = 1.0f / (1.0f + den);
    coef[ty][tx] = cval < 0.0f ? 0.0f : (cval > 1.0f ? 1.0f : cval);
    __syncthreads();

    C[idx] = coef[ty][tx];
    dE[idx] = e;
    dW[idx] = w;
    dS[idx] = s;
    dN[idx] = n;
}

__global__ void sradUpdate(const float *dE, const float *dW, const float *dN, const float *dS,
                           float *J, const float *C, int cols, int rows, float lambda, float q0sqr)
{
    __shared__ float below[BLOCK][BLOCK];
    __shared__ float beside[BLOCK][BLOCK];
    __shared__ float ctile[BLOCK][BLOCK];
    __shared__ float result[BLOCK][BLOCK];
    __shared__ float tile[BLOCK][BLOCK];

    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int base = cols * BLOCK * by + BLOCK * bx;
    int idx = base + cols * ty + tx;

    tile[ty][tx] = J[idx];
    __syncthreads();
    if (by == gridDim.y - 1)
        below[ty][tx] = C[base + cols * (BLOCK - 1) + tx];
    else
        below[ty][tx] = C[base + cols * BLOCK + tx];
    __syncthreads();
    if (bx == gridDim.x - 1)
        beside[ty][tx] = C[base + cols * ty + BLOCK - 1];
    else
        beside[ty][tx] = C[base + cols * ty + BLOCK];
    __syncthreads();
    ctile[ty][tx] = C[idx];
    __syncthreads();

    float cc = ctile[ty][tx];
    float cn = cc, cw = cc;
    float cs = ty == BLOCK - 1 ? below[ty][tx] : ctile[ty + 1][tx];
    float ce = tx == BLOCK - 1 ? beside[ty][tx] : ctile[ty][tx + 1];
    float div = cn * dN[idx] + cs * dS[idx] + cw * dW[idx] + ce * dE[idx];
    result[ty][tx] = tile[ty][tx] + 0.25f * lambda * div;
    __syncthreads();
    J[idx] = result[ty][tx];
}
