// texture: reads through texture objects (CUDA 13 has no texture references).
//  - gather1d: tex1Dfetch on linear memory, a data-dependent gather;
//  - resample2d: tex2D with bilinear filtering, normalized coordinates and
//    clamp addressing on a pitch-2D texture, resampling an image to another
//    size with a margin outside [0, 1] on every side.

__global__ void gather1d(cudaTextureObject_t table, const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(table, idx[i]);
}

// Output pixel (x, y) samples the image at normalized (u, v) = (x + 0.5) * scale + offset.
__global__ void resample2d(cudaTextureObject_t image, float *out, int ow, int oh,
                           float sx, float sy, float ox, float oy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < ow && y < oh) {
        float u = (x + 0.5f) * sx + ox;
        float v = (y + 0.5f) * sy + oy;
        out[y * ow + x] = tex2D<float>(image, u, v);
    }
}
