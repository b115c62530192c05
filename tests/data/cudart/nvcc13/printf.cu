// Device-side printf, assert-free. Built with:
//   nvcc -O2 -cudart shared -gencode arch=compute_75,code=compute_75 --no-compress -o printf printf.cu
// Prints one line per thread (2 blocks x 40 threads) with many conversions,
// plus a line from a divergent branch, then a host marker after the
// synchronisation, then overflows a small printf FIFO;
// tests/func/test_cuda_features.c computes the expected text.
#include <cstdio>

__global__ void conv(const char *name, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    float f = 0.5f * t + 0.25f;
    double e = 1234.5 * (t + 1);
    long long big = 1000000000000LL * (t - 20);
    printf("t=%d u=%u x=%x X=%#X f=%.3f e=%e g=%g s=%s c=%c lld=%lld w=[%5d] l=[%-4d] z=[%05.1f] p=%p\n",
           t, (unsigned)(t * 3u), t * 17, t * 255, f, e, f / 7.0f, name, 'A' + (t % 26), big, t, t,
           f, (void *)0);
    if (t % 3 == 1) printf("odd branch %d of %s\n", t, name);
}

__global__ void simple() { printf("hello from block %d thread %d\n", blockIdx.x, threadIdx.x); }

int main() {
    const char host_name[] = "warp";
    char *name;
    cudaMalloc(&name, sizeof host_name);
    cudaMemcpy(name, host_name, sizeof host_name, cudaMemcpyHostToDevice);
    conv<<<2, 40>>>(name, 70);
    cudaError_t e = cudaDeviceSynchronize();
    printf("host: after sync %d\n", (int)e);
    simple<<<2, 2>>>();
    cudaDeviceSynchronize();
    // a small FIFO: 4 of the 32 lines (30 bytes each) fit, the rest is dropped
    cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 120);
    size_t limit = 0;
    cudaDeviceGetLimit(&limit, cudaLimitPrintfFifoSize);
    printf("host: limit %zu\n", limit);
    simple<<<4, 8>>>();
    cudaDeviceSynchronize();
    printf("host: done\n");
    return 0;
}
