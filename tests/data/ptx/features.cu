// Covers: device calls, local arrays, double, atomics, shuffles, vote, switch,
// structs by value, printf, __constant__/__device__ globals with initialisers,
// dynamic shared memory. Regenerate (whenever nvcc is present):
//   nvcc -O2 -arch=sm_75 -ptx features.cu -o features.ptx   (also sm_80, sm_90)
//   ptxas -v -arch=sm_75 features.ptx -o /dev/null 2> features.ptxinfo
#include <cstdio>
#include <cuda_fp16.h>

struct Pair { int a; float b; double c; };

__constant__ float coeffs[4] = {1.0f, 2.5f, -3.0f, 0.125f};
__constant__ int ctab[2][3] = {{1, 2, 3}, {4, 5, 6}};
__device__ int counter = 7;
__device__ double dscale = 1.5;
__device__ int garr[16];
__device__ int *gptr = &counter;
__device__ int *gptrs[2] = {&counter, &garr[3]};

__device__ __noinline__ int helper(int x, int y) {
    if (x > y) return x * 3 - y;
    return y + (x << 2);
}

__device__ __noinline__ Pair make_pair(int x) {
    Pair p; p.a = x; p.b = x * 0.5f; p.c = x * 0.25; return p;
}

__device__ __noinline__ float use_pair(Pair p) { return p.a + p.b + (float)p.c; }

typedef int (*binop)(int, int);
__device__ int addop(int a, int b) { return a + b; }
__device__ int subop(int a, int b) { return a - b; }

__global__ void calls(int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r = helper(i, n - i);
    Pair p = make_pair(i);
    out[i] = r + (int)use_pair(p);
}

__global__ void locals(float *out, const int *idx, int n) {
    float arr[16];
    int i = threadIdx.x;
    for (int k = 0; k < 16; ++k) arr[k] = k * (float)i;
    out[i] = arr[idx[i] & 15] * coeffs[i & 3] + ctab[i & 1][i % 3];
}

__global__ void dbl(double *x, double a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = sqrt(x[i]) * a + 1.0 / (x[i] + dscale) + exp(x[i]);
}

__global__ void atomics(int *c, unsigned *u, float *f, double *d) {
    atomicAdd(c, 1);
    atomicMax(c + 1, threadIdx.x);
    atomicMin(c + 2, (int)threadIdx.x);
    atomicCAS(c + 3, 0, threadIdx.x);
    atomicExch(c + 4, threadIdx.x);
    atomicInc(u, 100u);
    atomicDec(u + 1, 100u);
    atomicAnd(c + 5, 0xff);
    atomicOr(c + 6, 1 << (threadIdx.x & 31));
    atomicXor(c + 7, threadIdx.x);
    atomicAdd(f, 1.0f);
    atomicAdd(d, 2.0);
    atomicAdd(&counter, 1);
    __shared__ int sc;
    if (threadIdx.x == 0) sc = 0;
    __syncthreads();
    atomicAdd(&sc, 1);
    __syncthreads();
    if (threadIdx.x == 0) c[8] = sc;
}

__global__ void warpops(int *out, const int *in) {
    int v = in[threadIdx.x];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int all = __all_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v > 5);
    int s = __shfl_sync(0xffffffffu, v, 3);
    s += __shfl_up_sync(0xffffffffu, v, 1);
    s += __shfl_xor_sync(0xffffffffu, v, 4);
    s += __shfl_down_sync(0xffffffffu, v, 2);
    unsigned m = __activemask();
    unsigned mt = __match_any_sync(0xffffffffu, v);
#if __CUDA_ARCH__ >= 800
    int red = __reduce_add_sync(0xffffffffu, v);
#else
    int red = 0;
#endif
    out[threadIdx.x] = b + all + any + s + m + mt + red + __popc(v) + __clz(v) + __ffs(v) + __brev(v);
}

__global__ void sw(int *out, const int *in, int n) {
    int i = threadIdx.x;
    int r;
    switch (in[i]) {
    case 0: r = 10; break;
    case 1: r = in[i + 1] * 3; break;
    case 2: r = helper(i, 2); break;
    case 5: r = -7; break;
    case 9: r = in[0] ^ 0x55; break;
    default: r = i;
    }
    while (r > 100) { r -= n; if (r == 50) break; }
    out[i] = r;
}

__global__ void bystruct(Pair p, float *out) {
    out[threadIdx.x] = p.a + p.b * threadIdx.x + (float)p.c;
}

__global__ void hello(int n) {
    if (threadIdx.x == 0) printf("hello %d %f\n", n, 1.5);
}

__global__ void dynshared(float *out, const float *in) {
    extern __shared__ float dyn[];
    __shared__ float fixedbuf[32];
    fixedbuf[threadIdx.x & 31] = in[threadIdx.x];
    dyn[threadIdx.x] = in[threadIdx.x] * 2.0f;
    __syncthreads();
    out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x] + fixedbuf[(threadIdx.x + 1) & 31];
}

__global__ void fptrs(int *out, int sel) {
    binop f = (sel & 1) ? addop : subop;
    out[threadIdx.x] = f(threadIdx.x, sel) + *gptr + *gptrs[1];
}

__global__ void mathk(float *o, const float *a, int n) {
    int i = threadIdx.x;
    float x = a[i];
    o[i] = sinf(x) + cosf(x) + __expf(x) + logf(x) + rsqrtf(x) + fminf(x, 1.0f) + fabsf(x) + truncf(x) + floorf(x) + copysignf(1.0f, x) + (isfinite(x) ? 1.f : 0.f) + tanhf(x);
    o[i + n] = __half2float(__float2half(x)) + __fdividef(x, 3.0f) + x / a[i + 1];
}
