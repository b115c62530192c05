// assert() on one device thread. Built with:
//   nvcc -O2 -cudart shared -gencode arch=compute_75,code=compute_75 --no-compress -o assert assert.cu
// Expects cudaDeviceSynchronize to return cudaErrorAssert (710), sticky.
#include <cassert>
#include <cstdio>

__global__ void check(int *v) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    assert(v[t] != 5);
    v[t] += 1;
}

int main() {
    int h[64];
    for (int i = 0; i < 64; i++) h[i] = i;
    int *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    check<<<2, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaError_t again = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("sync=%d again=%d\n", (int)e, (int)again);
    return e == cudaErrorAssert && again == cudaErrorAssert ? 0 : 1;
}
