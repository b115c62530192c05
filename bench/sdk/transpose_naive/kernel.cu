// transpose_naive: out (width x height) = transpose of in (height x width),
// row-major floats. One thread per element on 16x16 blocks: a warp reads a
// contiguous stretch of a row of `in` (coalesced) and writes down a column of
// `out`, one element per row of the output (a stride of `height` floats), so
// the writes are not coalesced.
__global__ void transposeNaive(float *out, const float *in, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[x * height + y] = in[y * width + x];
}
