// Mipmapped textures: cudaMallocMipmappedArray of 5 levels (32 x 16 floats),
// each level filled through cudaGetMipmappedArrayLevel, read with tex2DLod
// (point and linear mipmap filtering, bias and level clamps) and tex2DGrad
// (level of detail from the gradients), against the host's model of the
// CUDA programming guide's rules. Prints PASS or FAIL.
#include <cmath>
#include <cstdio>
#include <vector>

enum { W = 32, H = 16, NL = 5, N = 64 };

__global__ void bylod(cudaTextureObject_t t, const float4 *q, float *o) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) o[i] = tex2DLod<float>(t, q[i].x, q[i].y, q[i].z);
}

__global__ void bygrad(cudaTextureObject_t t, const float4 *q, float *o) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) o[i] = tex2DGrad<float>(t, q[i].x, q[i].y, make_float2(q[i].z, 0.0f), make_float2(0.0f, q[i].w));
}

static float texel(int k, float u, float v) { // point sample of level k at normalized (u, v), clamped
    int w = W >> k ? W >> k : 1, h = H >> k ? H >> k : 1;
    int x = (int)floorf(u * w), y = (int)floorf(v * h);
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
    return (float)(1000 * k + y * w + x);
}

// The level of detail after bias and clamps, then point or linear selection.
static float model(float lod, float bias, float lo, float hi, bool linear, float u, float v) {
    lod += bias;
    if (hi > NL - 1) hi = NL - 1;
    lod = lod < lo ? lo : lod > hi ? hi : lod;
    if (lod < 0) lod = 0;
    if (!linear) return texel((int)floorf(lod + 0.5f), u, v);
    int k = (int)floorf(lod);
    float f = lod - (float)k;
    if (k >= NL - 1 || f == 0) return texel(k >= NL - 1 ? NL - 1 : k, u, v);
    return (1.0f - f) * texel(k, u, v) + f * texel(k + 1, u, v);
}

static int fails = 0;

static cudaTextureObject_t make(cudaMipmappedArray_t mm, bool linear, float bias, float lo, float hi) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = mm;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.normalizedCoords = 1;
    td.mipmapFilterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.mipmapLevelBias = bias;
    td.minMipmapLevelClamp = lo;
    td.maxMipmapLevelClamp = hi;
    cudaTextureObject_t t = 0;
    cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, NULL);
    if (e != cudaSuccess) { printf("FAIL texture object: %s\n", cudaGetErrorString(e)); fails++; }
    return t;
}

int main() {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mm;
    cudaError_t e = cudaMallocMipmappedArray(&mm, &fd, make_cudaExtent(W, H, 0), NL, 0);
    if (e != cudaSuccess) { printf("FAIL cudaMallocMipmappedArray: %s\n", cudaGetErrorString(e)); return 1; }
    for (int k = 0; k < NL; k++) {
        int w = W >> k ? W >> k : 1, h = H >> k ? H >> k : 1;
        std::vector<float> lv(w * h);
        for (int i = 0; i < w * h; i++) lv[i] = (float)(1000 * k + i);
        cudaArray_t a;
        e = cudaGetMipmappedArrayLevel(&a, mm, k);
        if (e == cudaSuccess) e = cudaMemcpy2DToArray(a, 0, 0, lv.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) { printf("FAIL level %d: %s\n", k, cudaGetErrorString(e)); return 1; }
    }
    cudaArray_t none;
    if (cudaGetMipmappedArrayLevel(&none, mm, NL) == cudaSuccess) { printf("FAIL level %d exists\n", NL); fails++; }
    cudaGetLastError();
    std::vector<float4> q(N);
    for (int i = 0; i < N; i++) // texel centres of level 4 (2 x 1) and off-centre spots; lods in quarters
        q[i] = make_float4((float)((i * 7) % 32) / 32.0f + 1.0f / 64, (float)((i * 5) % 16) / 16.0f + 1.0f / 32,
                           -0.75f + 0.25f * (float)(i % 27), 0);
    float4 *dq;
    float *dout;
    cudaMalloc(&dq, sizeof(float4) * N);
    cudaMalloc(&dout, sizeof(float) * N);
    cudaMemcpy(dq, q.data(), sizeof(float4) * N, cudaMemcpyHostToDevice);
    struct { bool linear; float bias, lo, hi; } cfg[] = {
        {false, 0, 0, 100}, {true, 0, 0, 100}, {false, 1.0f, 1.0f, 2.0f}, {true, -0.5f, 0.5f, 3.25f}, {false, 0, 0, 0}};
    std::vector<float> got(N);
    int checks = 0;
    for (auto &c : cfg) {
        cudaTextureObject_t t = make(mm, c.linear, c.bias, c.lo, c.hi);
        bylod<<<1, N>>>(t, dq, dout);
        e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("FAIL bylod: %s\n", cudaGetErrorString(e)); return 1; }
        cudaMemcpy(got.data(), dout, sizeof(float) * N, cudaMemcpyDeviceToHost);
        for (int i = 0; i < N; i++) {
            float want = model(q[i].z, c.bias, c.lo, c.hi, c.linear, q[i].x, q[i].y);
            if (got[i] != want) {
                printf("FAIL tex2DLod (linear %d bias %g clamp %g..%g) lod %g at (%g,%g): %g, want %g\n", c.linear,
                       c.bias, c.lo, c.hi, q[i].z, q[i].x, q[i].y, got[i], want);
                fails++;
            }
        }
        checks++;
        cudaDestroyTextureObject(t);
    }
    // gradients: the longer of (gx W, gy H) texels of level 0, powers of 2 and between
    for (int i = 0; i < N; i++) {
        float rho = ldexpf(1.0f, i % 6 - 1) * (i % 3 == 2 ? 1.5f : 1.0f);
        q[i].z = (i & 1) ? rho / W : 0.5f / W;
        q[i].w = (i & 1) ? 0.5f / H : rho / H;
    }
    cudaMemcpy(dq, q.data(), sizeof(float4) * N, cudaMemcpyHostToDevice);
    cudaTextureObject_t t = make(mm, false, 0, 0, 100);
    bygrad<<<1, N>>>(t, dq, dout);
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("FAIL bygrad: %s\n", cudaGetErrorString(e)); return 1; }
    cudaMemcpy(got.data(), dout, sizeof(float) * N, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++) {
        float gx = q[i].z * W, gy = q[i].w * H, rho = gx > gy ? gx : gy;
        float want = model(log2f(rho), 0, 0, 100, false, q[i].x, q[i].y);
        if (got[i] != want) {
            printf("FAIL tex2DGrad rho %g: %g, want %g\n", rho, got[i], want);
            fails++;
        }
    }
    checks++;
    cudaDestroyTextureObject(t);
    cudaFreeMipmappedArray(mm);
    if (fails) return 1;
    printf("PASS mip_basic: %d checks\n", checks);
    return 0;
}
