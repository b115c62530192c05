// Cooperative launches: cg::this_grid().sync() across 12 CTAs between the
// phases of a grid-wide computation (cudaLaunchCooperativeKernel and
// cudaLaunchKernelEx with cudaLaunchAttributeCooperative), checked against
// the host; f16x2 comparisons (__hbgt2 / __hgt2) too. Prints PASS or FAIL.
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include <cmath>
#include <cstdio>
namespace cg = cooperative_groups;

enum { NB = 12, NT = 64, N = NB * NT };

__global__ void phases(int *a, int *b, int *out) {
    cg::grid_group g = cg::this_grid();
    unsigned i = g.thread_rank();
    a[i] = (int)(i * 7 % 101);
    g.sync();
    b[i] = a[(i + NT) % N] + a[(i + N - 1) % N]; // another block's value, and a neighbour's
    g.sync();
    int s = 0;
    for (int k = 0; k < NB; k++) s += b[k * NT + i % NT];
    out[i] = s + (g.is_valid() ? 1000000 : 0) + (int)g.num_blocks() * 10000000;
}

__global__ void cmp2(const __half2 *x, const __half2 *y, unsigned *o, int *q) {
    int i = threadIdx.x;
    o[i] = __hbgt2(x[i], y[i]) ? 1 : 0;
    __half2 m = __hgt2(x[i], y[i]);
    q[i] = (int)__low2float(m) + 2 * (int)__high2float(m);
}

int main() {
    int *a, *b, *o;
    cudaMalloc(&a, N * 4); cudaMalloc(&b, N * 4); cudaMalloc(&o, N * 4);
    int fails = 0, checks = 0;
    for (int how = 0; how < 2; how++) {
        void *args[] = {&a, &b, &o};
        cudaError_t e;
        if (how == 0) {
            e = cudaLaunchCooperativeKernel((void *)phases, dim3(NB), dim3(NT), args, 0, 0);
        } else {
            cudaLaunchConfig_t cfg = {};
            cfg.gridDim = dim3(NB);
            cfg.blockDim = dim3(NT);
            cudaLaunchAttribute at[1];
            at[0].id = cudaLaunchAttributeCooperative;
            at[0].val.cooperative = 1;
            cfg.attrs = at;
            cfg.numAttrs = 1;
            e = cudaLaunchKernelEx(&cfg, phases, a, b, o);
        }
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("FAIL launch %d: %s\n", how, cudaGetErrorString(e)); return 1; }
        int h[N];
        cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
        int A[N], B[N];
        for (int i = 0; i < N; i++) A[i] = i * 7 % 101;
        for (int i = 0; i < N; i++) B[i] = A[(i + NT) % N] + A[(i + N - 1) % N];
        for (int i = 0; i < N && fails < 5; i++) {
            int s = 0;
            for (int k = 0; k < NB; k++) s += B[k * NT + i % NT];
            int want = s + 1000000 + NB * 10000000;
            if (h[i] != want) { printf("FAIL launch %d thread %d: %d, want %d\n", how, i, h[i], want); fails++; }
        }
        checks++;
    }
    __half2 x[32], y[32];
    for (int i = 0; i < 32; i++) {
        x[i] = __floats2half2_rn((float)(i % 5) - 2.0f, (float)(i % 3));
        y[i] = __floats2half2_rn((float)(i % 7) - 3.0f, i == 31 ? nanf("") : 1.0f);
    }
    __half2 *dx, *dy;
    unsigned *dob;
    int *dq;
    cudaMalloc(&dx, sizeof x); cudaMalloc(&dy, sizeof y); cudaMalloc(&dob, 128); cudaMalloc(&dq, 128);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice);
    cmp2<<<1, 32>>>(dx, dy, dob, dq);
    cudaDeviceSynchronize();
    unsigned ob[32];
    int q[32];
    cudaMemcpy(ob, dob, 128, cudaMemcpyDeviceToHost);
    cudaMemcpy(q, dq, 128, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++) {
        float xl = (float)(i % 5) - 2.0f, xh = (float)(i % 3), yl = (float)(i % 7) - 3.0f, yh = i == 31 ? 0.0f / 0.0f : 1.0f;
        bool gl = xl > yl, gh = xh > yh;
        if (ob[i] != (unsigned)(gl && gh) || q[i] != (int)gl + 2 * (int)gh) {
            printf("FAIL f16x2 compare %d: %u %d\n", i, ob[i], q[i]);
            fails++;
        }
    }
    checks++;
    if (fails) return 1;
    printf("PASS coop_basic: %d checks\n", checks);
    return 0;
}
