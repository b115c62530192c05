/* The runtime shim's texture API as an nvcc-built program calls it, written
 * in C against CUDA's own headers (so the structs have the real layout) and
 * linked with warpsim's libcudart.so.13; built by tests/func/test_shim.c.
 * It registers the texture workload's PTX the way nvcc's host code does
 * (fat binary wrapper, __cudaRegisterFunction), then uses linear, pitch-2D
 * and cudaArray textures, the descriptor queries and the error codes.
 * Usage: tex_host KERNEL.ptx. Prints PASS on success. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);

static int failures;
#define CK(call, want)                                                                   \
    do {                                                                                 \
        cudaError_t r_ = (call);                                                         \
        if (r_ != (want)) {                                                              \
            printf("FAIL line %d: %s -> %d (%s), want %d\n", __LINE__, #call, (int)r_,    \
                   cudaGetErrorName(r_), (int)(want));                                   \
            failures++;                                                                  \
        }                                                                                \
    } while (0)
#define OK(call) CK(call, cudaSuccess)
#define EXPECT(cond)                                                                     \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            printf("FAIL line %d: %s\n", __LINE__, #cond);                               \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

/* A fat binary with one uncompressed PTX entry (what nvcc --no-compress emits). */
static uint8_t *make_fatbin(const char *ptx) {
    size_t n = strlen(ptx) + 1, padded = (n + 7) & ~(size_t)7;
    uint8_t *fb = calloc(1, 16 + 80 + padded);
    uint32_t magic = 0xBA55ED50u, hs = 80, arch = 75;
    uint16_t ver = 1, fhs = 16, kind = 1;
    uint64_t body = 80 + padded, ps = padded, flags = 0x11;
    memcpy(fb, &magic, 4);
    memcpy(fb + 4, &ver, 2);
    memcpy(fb + 6, &fhs, 2);
    memcpy(fb + 8, &body, 8);
    uint8_t *e = fb + 16;
    memcpy(e, &kind, 2);
    memcpy(e + 4, &hs, 4);
    memcpy(e + 8, &ps, 8);
    memcpy(e + 28, &arch, 4);
    memcpy(e + 40, &flags, 8);
    memcpy(e + 80, ptx, n);
    return fb;
}

/* Host-side stubs whose addresses identify the kernels, as nvcc's are. */
static void gather1d_stub(void) {}
static void resample2d_stub(void) {}

static double bilinear(const float *img, int w, int h, size_t pitchf, float u, float v) {
    double x = (double)u * w - 0.5, y = (double)v * h - 0.5, fx = floor(x), fy = floor(y);
    double a = floor((x - fx) * 256 + 0.5) / 256, b = floor((y - fy) * 256 + 0.5) / 256;
    long x0 = (long)fx, y0 = (long)fy;
    long xs[2] = {x0 < 0 ? 0 : x0 >= w ? w - 1 : x0, x0 + 1 < 0 ? 0 : x0 + 1 >= w ? w - 1 : x0 + 1};
    long ys[2] = {y0 < 0 ? 0 : y0 >= h ? h - 1 : y0, y0 + 1 < 0 ? 0 : y0 + 1 >= h ? h - 1 : y0 + 1};
    double r0 = (1 - a) * img[ys[0] * pitchf + xs[0]] + a * img[ys[0] * pitchf + xs[1]];
    double r1 = (1 - a) * img[ys[1] * pitchf + xs[0]] + a * img[ys[1] * pitchf + xs[1]];
    return (1 - b) * r0 + b * r1;
}

/* Resample a w x h image to 2w x 2h through texture t and compare. */
static void resample_check(cudaTextureObject_t t, const float *img, int w, int h, size_t pitchf,
                           const char *what) {
    int ow = 2 * w, oh = 2 * h;
    float sx = 1.25f / ow, sy = 1.25f / oh, ox = -0.125f, oy = -0.125f;
    float *d_out = NULL, *out = malloc((size_t)ow * oh * sizeof *out);
    OK(cudaMalloc((void **)&d_out, (size_t)ow * oh * sizeof *out));
    void *args[] = {&t, &d_out, &ow, &oh, &sx, &sy, &ox, &oy};
    dim3 grid = {(unsigned)(ow + 15) / 16, (unsigned)(oh + 7) / 8, 1}, block = {16, 8, 1};
    OK(cudaLaunchKernel((const void *)resample2d_stub, grid, block, args, 0, 0));
    OK(cudaMemcpy(out, d_out, (size_t)ow * oh * sizeof *out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < oh; y++)
        for (int x = 0; x < ow; x++) {
            float u = fmaf((float)x + 0.5f, sx, ox), v = fmaf((float)y + 0.5f, sy, oy);
            double want = bilinear(img, w, h, pitchf, u, v);
            if (fabs(out[y * ow + x] - want) > 1e-5 && bad++ < 4)
                printf("FAIL %s (%d,%d): %g, want %g\n", what, x, y, out[y * ow + x], want);
        }
    failures += bad;
    OK(cudaFree(d_out));
    free(out);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) { printf("FAIL cannot read %s\n", argv[1]); return 1; }
    static char ptx[1 << 16];
    size_t n = fread(ptx, 1, sizeof ptx - 1, f);
    fclose(f);
    ptx[n] = 0;
    struct { uint32_t magic, version; const void *data; void *unused; } wrapper = {
        0x466243b1u, 1, make_fatbin(ptx), NULL};
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, (const char *)gather1d_stub, "_Z8gather1dyPKiPfi",
                           "_Z8gather1dyPKiPfi", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h, (const char *)resample2d_stub, "_Z10resample2dyPfiiffff",
                           "_Z10resample2dyPfiiffff", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);

    /* image: 37 x 21 floats */
    const int w = 37, hh = 21;
    float img[21 * 37];
    for (int i = 0; i < w * hh; i++) img[i] = (float)sin(i * 0.37) + 0.01f * (float)(i % 7);
    struct cudaChannelFormatDesc cf = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    EXPECT(cf.x == 32 && cf.y == 0 && cf.f == cudaChannelFormatKindFloat);

    /* a cudaArray texture: bilinear, normalized, clamp */
    cudaArray_t arr = NULL;
    OK(cudaMallocArray(&arr, &cf, (size_t)w, (size_t)hh, 0));
    OK(cudaMemcpy2DToArray(arr, 0, 0, img, w * sizeof(float), w * sizeof(float), (size_t)hh,
                           cudaMemcpyHostToDevice));
    struct cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    struct cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t tarr = 0;
    OK(cudaCreateTextureObject(&tarr, &rd, &td, NULL));
    EXPECT(tarr != 0);
    resample_check(tarr, img, w, hh, (size_t)w, "array");
    struct cudaChannelFormatDesc back;
    struct cudaExtent ext;
    unsigned fl = 9;
    OK(cudaGetChannelDesc(&back, arr));
    OK(cudaArrayGetInfo(&back, &ext, &fl, arr));
    EXPECT(back.x == 32 && ext.width == (size_t)w && ext.height == (size_t)hh && fl == 0);
    float row[37];
    OK(cudaMemcpy2DFromArray(row, sizeof row, arr, 0, 5, sizeof row, 1, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(row, img + 5 * w, sizeof row) == 0);

    /* a pitch-2D texture over cudaMallocPitch memory */
    float *dp = NULL;
    size_t pitch = 0;
    OK(cudaMallocPitch((void **)&dp, &pitch, w * sizeof(float), (size_t)hh));
    EXPECT(pitch >= w * sizeof(float) && pitch % 32 == 0);
    OK(cudaMemcpy2D(dp, pitch, img, w * sizeof(float), w * sizeof(float), (size_t)hh,
                    cudaMemcpyHostToDevice));
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypePitch2D;
    rd.res.pitch2D.devPtr = dp;
    rd.res.pitch2D.desc = cf;
    rd.res.pitch2D.width = (size_t)w;
    rd.res.pitch2D.height = (size_t)hh;
    rd.res.pitch2D.pitchInBytes = pitch;
    cudaTextureObject_t tp = 0;
    OK(cudaCreateTextureObject(&tp, &rd, &td, NULL));
    resample_check(tp, img, w, hh, (size_t)w, "pitch2D");
    struct cudaResourceDesc rback;
    struct cudaTextureDesc tback;
    OK(cudaGetTextureObjectResourceDesc(&rback, tp));
    EXPECT(rback.resType == cudaResourceTypePitch2D && rback.res.pitch2D.devPtr == dp &&
           rback.res.pitch2D.pitchInBytes == pitch && rback.res.pitch2D.desc.x == 32);
    OK(cudaGetTextureObjectTextureDesc(&tback, tp));
    EXPECT(tback.filterMode == cudaFilterModeLinear && tback.normalizedCoords == 1);

    /* a linear texture: tex1Dfetch gather */
    enum { N = 300 };
    float table[N], got[N];
    int idx[N];
    for (int i = 0; i < N; i++) {
        table[i] = (float)i * 0.5f;
        idx[i] = (i * 37) % N;
    }
    float *dt = NULL, *dg = NULL;
    int *di = NULL;
    OK(cudaMalloc((void **)&dt, sizeof table));
    OK(cudaMalloc((void **)&di, sizeof idx));
    OK(cudaMalloc((void **)&dg, sizeof got));
    OK(cudaMemcpy(dt, table, sizeof table, cudaMemcpyHostToDevice));
    OK(cudaMemcpy(di, idx, sizeof idx, cudaMemcpyHostToDevice));
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = dt;
    rd.res.linear.desc = cf;
    rd.res.linear.sizeInBytes = sizeof table;
    memset(&td, 0, sizeof td);
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tl = 0;
    OK(cudaCreateTextureObject(&tl, &rd, &td, NULL));
    int nn = N;
    void *ga[] = {&tl, &di, &dg, &nn};
    dim3 g1 = {(N + 127) / 128, 1, 1}, b1 = {128, 1, 1};
    OK(cudaLaunchKernel((const void *)gather1d_stub, g1, b1, ga, 0, 0));
    OK(cudaMemcpy(got, dg, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        if (got[i] != table[idx[i]]) { printf("FAIL gather[%d] = %g\n", i, got[i]); failures++; break; }

    /* bad descriptors and handles: CUDA error codes, no crash */
    cudaTextureObject_t tx = 0;
    struct cudaChannelFormatDesc bad = cudaCreateChannelDesc(24, 0, 0, 0, cudaChannelFormatKindFloat);
    rd.res.linear.desc = bad;
    CK(cudaCreateTextureObject(&tx, &rd, &td, NULL), cudaErrorInvalidChannelDescriptor);
    rd.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
    td.filterMode = cudaFilterModeLinear; /* integers need normalized-float reads to filter */
    CK(cudaCreateTextureObject(&tx, &rd, &td, NULL), cudaErrorInvalidValue);
    td.filterMode = cudaFilterModePoint;
    rd.res.linear.sizeInBytes = 1 << 20; /* beyond the allocation */
    CK(cudaCreateTextureObject(&tx, &rd, &td, NULL), cudaErrorInvalidValue);
    CK(cudaCreateTextureObject(NULL, &rd, &td, NULL), cudaErrorInvalidValue);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = (cudaArray_t)(uintptr_t)0x1234;
    CK(cudaCreateTextureObject(&tx, &rd, &td, NULL), cudaErrorInvalidResourceHandle);
    CK(cudaDestroyTextureObject(987654), cudaErrorInvalidValue);
    CK(cudaGetTextureObjectResourceDesc(&rback, 987654), cudaErrorInvalidValue);
    CK(cudaMemcpy2DToArray(arr, 4, 0, img, w * sizeof(float), w * sizeof(float), 1,
                           cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CK(cudaFreeArray((cudaArray_t)(uintptr_t)0x1234), cudaErrorInvalidResourceHandle);
    CK(cudaMemcpy2D(dp, 4, img, 4, 8, 2, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
    CK(cudaGetLastError(), cudaErrorInvalidPitchValue);
    CK(cudaGetLastError(), cudaSuccess);

    OK(cudaDestroyTextureObject(tarr));
    OK(cudaDestroyTextureObject(tp));
    OK(cudaFreeArray(arr));
    OK(cudaFree(dp));
    /* a destroyed texture in a kernel: a sticky illegal-address fault */
    OK(cudaDestroyTextureObject(tl));
    cudaLaunchKernel((const void *)gather1d_stub, g1, b1, ga, 0, 0);
    CK(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    printf("%s\n", failures ? "FAILED" : "PASS");
    return failures ? 1 : 0;
}
