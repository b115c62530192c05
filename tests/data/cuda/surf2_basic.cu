// Layered and cube-map surfaces, layered cube-map textures (tex.acube) and
// surface reductions (sured, inline PTX), checked against the host.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL " __VA_ARGS__); printf("\n"); fails++; } } while (0)

// 1-D layered: every element of layer l gets 1000 l + x added, read back
// through clamp at x = -1 (clamped to 0) and zero past the end.
__global__ void layered1d(cudaSurfaceObject_t s, int w, int *out) {
    int x = threadIdx.x, l = blockIdx.x;
    int v = surf1DLayeredread<int>(s, x * 4, l);
    surf1DLayeredwrite(v + 1000 * l + x, s, x * 4, l);
    __syncthreads();
    int lo = surf1DLayeredread<int>(s, -4, l, cudaBoundaryModeClamp);
    int hi = surf1DLayeredread<int>(s, w * 4, l, cudaBoundaryModeZero);
    if (x == 0) { out[2 * l] = lo; out[2 * l + 1] = hi; }
}

// 2-D layered float2: element (x, y) of layer l doubled.
__global__ void layered2d(cudaSurfaceObject_t s) {
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    float2 v = surf2DLayeredread<float2>(s, x * 8, y, l);
    surf2DLayeredwrite(make_float2(v.x * 2, v.y * 2), s, x * 8, y, l);
}

// Cube map and layered cube map surfaces: face f (+ 6 layer) element (x, y) := code.
__global__ void cubes(cudaSurfaceObject_t c, cudaSurfaceObject_t cl) {
    int x = threadIdx.x, y = threadIdx.y, f = blockIdx.x, l = blockIdx.y;
    int code = ((l * 6 + f) * 16 + y) * 16 + x;
    if (l == 0) surfCubemapwrite(code, c, x * 4, y, f);
    surfCubemapLayeredwrite(code, cl, x * 4, y, l * 6 + f);
}

__global__ void cubes_read(cudaSurfaceObject_t c, cudaSurfaceObject_t cl, int *out) {
    int x = threadIdx.x, y = threadIdx.y, f = blockIdx.x, l = blockIdx.y;
    int i = ((l * 6 + f) * blockDim.y + y) * blockDim.x + x;
    out[2 * i] = l == 0 ? surfCubemapread<int>(c, x * 4, y, f) : -1;
    out[2 * i + 1] = surfCubemapLayeredread<int>(cl, x * 4, y, l * 6 + f);
}

__global__ void acube(cudaTextureObject_t t, const float4 *dirs, int n, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 d = dirs[i];
    out[i] = texCubemapLayered<float>(t, d.x, d.y, d.z, (int)d.w);
}

// sured.b.add / min / max / and / or on a 2-D u32 surface and .b64 add (inline PTX).
__global__ void reduce(cudaSurfaceObject_t s, cudaSurfaceObject_t s64) {
    int x = threadIdx.x % 4, y = threadIdx.x / 4 % 4;
    unsigned v = threadIdx.x + 1;
    int bx = x * 4;
    asm volatile("sured.b.add.2d.u32.trap [%0, {%1, %2}], %3;" :: "l"(s), "r"(bx), "r"(y), "r"(v) : "memory");
    unsigned long long w = 1ull << 33 | v;
    int bx8 = x * 8;
    asm volatile("sured.b.add.2d.u64.trap [%0, {%1, %2}], %3;" :: "l"(s64), "r"(bx8), "r"(y), "l"(w) : "memory");
}

__global__ void reduce_ops(cudaSurfaceObject_t s) {
    // row 0: min, row 1: max, row 2: and, row 3: or, of 64 threads' values into x = 0..3
    int x = threadIdx.x % 4, bx = x * 4;
    unsigned v = (threadIdx.x * 2654435761u) >> 8;
    int r0 = 0, r1 = 1, r2 = 2, r3 = 3;
    asm volatile("sured.b.min.2d.u32.trap [%0, {%1, %2}], %3;" :: "l"(s), "r"(bx), "r"(r0), "r"(v) : "memory");
    asm volatile("sured.b.max.2d.u32.trap [%0, {%1, %2}], %3;" :: "l"(s), "r"(bx), "r"(r1), "r"(v) : "memory");
    asm volatile("sured.b.and.2d.b32.trap [%0, {%1, %2}], %3;" :: "l"(s), "r"(bx), "r"(r2), "r"(v) : "memory");
    asm volatile("sured.b.or.2d.b32.trap [%0, {%1, %2}], %3;" :: "l"(s), "r"(bx), "r"(r3), "r"(v) : "memory");
}

static cudaSurfaceObject_t surf_of(cudaArray_t a) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s = 0;
    cudaError_t e = cudaCreateSurfaceObject(&s, &rd);
    CHECK(e == cudaSuccess, "cudaCreateSurfaceObject: %s", cudaGetErrorString(e));
    return s;
}

static void copy3d(cudaArray_t a, void *host, size_t w, size_t h, size_t d, size_t elem, bool to_array) {
    cudaMemcpy3DParms p = {};
    p.extent = make_cudaExtent(w, h, d);
    if (to_array) {
        p.srcPtr = make_cudaPitchedPtr(host, w * elem, w, h);
        p.dstArray = a;
        p.kind = cudaMemcpyHostToDevice;
    } else {
        p.srcArray = a;
        p.dstPtr = make_cudaPitchedPtr(host, w * elem, w, h);
        p.kind = cudaMemcpyDeviceToHost;
    }
    cudaError_t e = cudaMemcpy3D(&p);
    CHECK(e == cudaSuccess, "cudaMemcpy3D: %s", cudaGetErrorString(e));
}

// The CUDA programming guide's cube-map face table.
static void cube_ref(float x, float y, float z, int *face, float *u, float *v) {
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, t;
    if (ax >= ay && ax >= az) { *face = x >= 0 ? 0 : 1; m = ax; s = x >= 0 ? -z : z; t = -y; }
    else if (ay >= az) { *face = y >= 0 ? 2 : 3; m = ay; s = x; t = y >= 0 ? z : -z; }
    else { *face = z >= 0 ? 4 : 5; m = az; s = z >= 0 ? x : -x; t = -y; }
    *u = (s / m + 1) / 2;
    *v = (t / m + 1) / 2;
}

int main() {
    int checks = 0;
    cudaError_t e;
    // 1-D layered ints: 32 wide, 3 layers
    {
        const int W = 32, L = 3;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<int>();
        cudaArray_t a;
        e = cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, 0, L), cudaArrayLayered | cudaArraySurfaceLoadStore);
        CHECK(e == cudaSuccess, "1-D layered array: %s", cudaGetErrorString(e));
        std::vector<int> h(W * L), back(W * L);
        for (int i = 0; i < W * L; i++) h[i] = i * 7;
        copy3d(a, h.data(), W, 1, L, 4, true);
        cudaSurfaceObject_t s = surf_of(a);
        int *d_out;
        cudaMalloc(&d_out, sizeof(int) * 2 * L);
        layered1d<<<L, W>>>(s, W, d_out);
        e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "layered1d: %s", cudaGetErrorString(e));
        copy3d(a, back.data(), W, 1, L, 4, false);
        int o[2 * L];
        cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost);
        for (int l = 0; l < L; l++) {
            for (int x = 0; x < W; x++)
                CHECK(back[l * W + x] == h[l * W + x] + 1000 * l + x, "layered1d l%d x%d: %d", l, x, back[l * W + x]);
            CHECK(o[2 * l] == h[l * W] + 1000 * l && o[2 * l + 1] == 0, "layered1d l%d clamp/zero: %d %d", l, o[2 * l], o[2 * l + 1]);
        }
        checks++;
    }
    // 2-D layered float2: 8 x 4, 2 layers
    {
        const int W = 8, H = 4, L = 2;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float2>();
        cudaArray_t a;
        e = cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, H, L), cudaArrayLayered | cudaArraySurfaceLoadStore);
        CHECK(e == cudaSuccess, "2-D layered array: %s", cudaGetErrorString(e));
        std::vector<float> h(2 * W * H * L), back(2 * W * H * L);
        for (size_t i = 0; i < h.size(); i++) h[i] = 0.5f * (float)i;
        copy3d(a, h.data(), W, H, L, 8, true);
        layered2d<<<L, dim3(W, H)>>>(surf_of(a));
        e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "layered2d: %s", cudaGetErrorString(e));
        copy3d(a, back.data(), W, H, L, 8, false);
        for (size_t i = 0; i < h.size(); i++) CHECK(back[i] == 2 * h[i], "layered2d [%zu]: %g", i, back[i]);
        checks++;
    }
    // cube map and layered cube map surfaces, 16 x 16 faces, 2 cubes
    {
        const int W = 16, L = 2;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<int>();
        cudaArray_t c, cl;
        e = cudaMalloc3DArray(&c, &cd, make_cudaExtent(W, W, 6), cudaArrayCubemap | cudaArraySurfaceLoadStore);
        CHECK(e == cudaSuccess, "cube-map surface array: %s", cudaGetErrorString(e));
        e = cudaMalloc3DArray(&cl, &cd, make_cudaExtent(W, W, 6 * L),
                              cudaArrayCubemap | cudaArrayLayered | cudaArraySurfaceLoadStore);
        CHECK(e == cudaSuccess, "layered cube-map surface array: %s", cudaGetErrorString(e));
        cudaSurfaceObject_t sc = surf_of(c), scl = surf_of(cl);
        cubes<<<dim3(6, L), dim3(W, W)>>>(sc, scl);
        int *d_out;
        cudaMalloc(&d_out, sizeof(int) * 2 * W * W * 6 * L);
        cubes_read<<<dim3(6, L), dim3(W, W)>>>(sc, scl, d_out);
        e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "cubes: %s", cudaGetErrorString(e));
        std::vector<int> o(2 * W * W * 6 * L), back(W * W * 6 * L);
        cudaMemcpy(o.data(), d_out, sizeof(int) * o.size(), cudaMemcpyDeviceToHost);
        copy3d(cl, back.data(), W, W, 6 * L, 4, false);
        for (int i = 0; i < W * W * 6 * L; i++) {
            int code = i; // ((l * 6 + f) * 16 + y) * 16 + x with 16 = W
            CHECK(o[2 * i + 1] == code && back[i] == code, "cube layered [%d]: %d %d", i, o[2 * i + 1], back[i]);
            if (i < W * W * 6) CHECK(o[2 * i] == code, "cube [%d]: %d", i, o[2 * i]);
        }
        checks++;

        // the layered cube map read as a texture (point, normalized coordinates) along directions
        cudaArray_t tc;
        cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
        e = cudaMalloc3DArray(&tc, &fd, make_cudaExtent(W, W, 6 * L), cudaArrayCubemap | cudaArrayLayered);
        CHECK(e == cudaSuccess, "layered cube-map texture array: %s", cudaGetErrorString(e));
        std::vector<float> texels(W * W * 6 * L);
        for (size_t i = 0; i < texels.size(); i++) texels[i] = (float)i;
        copy3d(tc, texels.data(), W, W, 6 * L, 4, true);
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = tc;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
        td.filterMode = cudaFilterModePoint;
        td.readMode = cudaReadModeElementType;
        td.normalizedCoords = 1;
        cudaTextureObject_t t;
        e = cudaCreateTextureObject(&t, &rd, &td, NULL);
        CHECK(e == cudaSuccess, "layered cube-map texture: %s", cudaGetErrorString(e));
        const int n = 96;
        std::vector<float4> dirs(n);
        std::vector<float> ref(n);
        for (int i = 0; i < n; i++) {
            // a major axis and two minor components off the texel edges
            int ax = i % 6, lay = (i / 6) % L;
            float a = 0.9f + 0.01f * (float)(i % 7), b = -0.83f + 0.11f * (float)(i % 13), c2 = 0.71f - 0.09f * (float)(i % 11);
            float v3[3];
            v3[ax / 2] = ax % 2 ? -a : a;
            v3[(ax / 2 + 1) % 3] = b * a;
            v3[(ax / 2 + 2) % 3] = c2 * a;
            dirs[i] = make_float4(v3[0], v3[1], v3[2], (float)lay);
            int face;
            float u, v;
            cube_ref(v3[0], v3[1], v3[2], &face, &u, &v);
            int xi = (int)floorf(u * W), yi = (int)floorf(v * W);
            xi = xi < 0 ? 0 : xi >= W ? W - 1 : xi;
            yi = yi < 0 ? 0 : yi >= W ? W - 1 : yi;
            ref[i] = texels[((lay * 6 + face) * W + yi) * W + xi];
        }
        float4 *d_dirs;
        float *d_t;
        cudaMalloc(&d_dirs, sizeof(float4) * n);
        cudaMalloc(&d_t, sizeof(float) * n);
        cudaMemcpy(d_dirs, dirs.data(), sizeof(float4) * n, cudaMemcpyHostToDevice);
        acube<<<(n + 63) / 64, 64>>>(t, d_dirs, n, d_t);
        e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "acube: %s", cudaGetErrorString(e));
        std::vector<float> got(n);
        cudaMemcpy(got.data(), d_t, sizeof(float) * n, cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; i++)
            CHECK(got[i] == ref[i], "acube dir %d (%g,%g,%g) layer %g: %g, want %g", i, dirs[i].x, dirs[i].y, dirs[i].z,
                  dirs[i].w, got[i], ref[i]);
        checks++;
    }
    // sured
    {
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<unsigned>();
        cudaChannelFormatDesc cd2 = cudaCreateChannelDesc<uint2>();
        cudaArray_t a, a64, ops;
        cudaMallocArray(&a, &cd, 4, 4, cudaArraySurfaceLoadStore);
        cudaMallocArray(&a64, &cd2, 4, 4, cudaArraySurfaceLoadStore);
        cudaMallocArray(&ops, &cd, 4, 4, cudaArraySurfaceLoadStore);
        std::vector<unsigned> z(16, 0), z64(32, 0), init(16);
        for (int i = 0; i < 16; i++) init[i] = i < 4 ? 0xffffffffu : i < 8 ? 0 : i < 12 ? 0xffffffffu : 0;
        cudaMemcpy2DToArray(a, 0, 0, z.data(), 16, 16, 4, cudaMemcpyHostToDevice);
        cudaMemcpy2DToArray(a64, 0, 0, z64.data(), 32, 32, 4, cudaMemcpyHostToDevice);
        cudaMemcpy2DToArray(ops, 0, 0, init.data(), 16, 16, 4, cudaMemcpyHostToDevice);
        reduce<<<1, 64>>>(surf_of(a), surf_of(a64));
        reduce_ops<<<1, 64>>>(surf_of(ops));
        e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "sured: %s", cudaGetErrorString(e));
        std::vector<unsigned> r(16), r64(32), ro(16);
        cudaMemcpy2DFromArray(r.data(), 16, a, 0, 0, 16, 4, cudaMemcpyDeviceToHost);
        cudaMemcpy2DFromArray(r64.data(), 32, a64, 0, 0, 32, 4, cudaMemcpyDeviceToHost);
        cudaMemcpy2DFromArray(ro.data(), 16, ops, 0, 0, 16, 4, cudaMemcpyDeviceToHost);
        unsigned long long want64[16] = {0};
        unsigned want[16] = {0}, wo[16];
        for (int i = 0; i < 16; i++) wo[i] = init[i];
        for (int t = 0; t < 64; t++) {
            int x = t % 4, y = t / 4 % 4;
            want[y * 4 + x] += t + 1;
            want64[y * 4 + x] += 1ull << 33 | (unsigned)(t + 1);
            unsigned v = ((unsigned)t * 2654435761u) >> 8;
            wo[0 * 4 + x] = v < wo[x] ? v : wo[x];
            wo[1 * 4 + x] = v > wo[4 + x] ? v : wo[4 + x];
            wo[2 * 4 + x] &= v;
            wo[3 * 4 + x] |= v;
        }
        for (int i = 0; i < 16; i++) {
            unsigned long long g64 = (unsigned long long)r64[2 * i + 1] << 32 | r64[2 * i];
            CHECK(r[i] == want[i] && g64 == want64[i], "sured.add [%d]: %u %llu, want %u %llu", i, r[i], g64, want[i], want64[i]);
            CHECK(ro[i] == wo[i], "sured min/max/and/or [%d]: %u, want %u", i, ro[i], wo[i]);
        }
        checks++;
    }
    if (fails) return 1;
    printf("PASS surf2_basic: %d checks\n", checks);
    return 0;
}
