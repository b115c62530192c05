// conv3d (PolyBench/GPU 3DCONV): a stencil over the interior of an
// ni x nj x nk row-major float volume, one plane i per launch (the host loops
// over i = 1 .. ni-2). One thread per output element of the plane: x runs
// along k (contiguous), y along j; the host launches 32x8 blocks.
//
// The stencil reads the same eleven neighbours as the original: the centre
// column (j-1, j, j+1 at k) of plane i, the (j-1, k-1) corner of planes i-1
// and i+1, and the k+1 column (j-1 .. j+1) of planes i-1 and i+1 (the corner
// j-1 only once per plane).

__global__ void conv3d_plane(int ni, int nj, int nk, const float *A, float *B, int i)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < 1 || j < 1 || k < 1 || i >= ni - 1 || j >= nj - 1 || k >= nk - 1)
        return;
    const int plane = nj * nk;
    const float *p0 = A + (i - 1) * plane;  // plane before
    const float *p1 = A + i * plane;        // this plane
    const float *p2 = A + (i + 1) * plane;  // plane after
    const int c = j * nk + k;               // offset of (j, k) within a plane
    B[i * plane + c] = 0.5f * p0[c - nk - 1] - 0.25f * p2[c - nk - 1]
                     + 0.75f * p1[c - nk] + 1.5f * p1[c] - 0.625f * p1[c + nk]
                     - 0.375f * p0[c - nk + 1] + 0.125f * p2[c - nk + 1]
                     + 0.875f * p0[c + 1] - 1.25f * p2[c + 1]
                     + 0.3125f * p0[c + nk + 1] - 0.0625f * p2[c + nk + 1];
}
