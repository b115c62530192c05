// Device-side malloc/free across launches, alloca, and the heap limit. Built with:
//   nvcc -O2 -cudart shared -gencode arch=compute_75,code=compute_75 --no-compress -o devheap devheap.cu
#include <cstdio>

__device__ int *g_blocks[256];

__global__ void make(int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(n * sizeof(int));
    if (p) for (int i = 0; i < n; i++) p[i] = t * 1000 + i;
    g_blocks[t] = p;
}

__global__ void use_and_free(int n, long long *sum, int *nulls) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = g_blocks[t];
    if (!p) { atomicAdd(nulls, 1); return; }
    int *tmp = (int *)alloca(n * sizeof(int)); // a variable-length stack array
    for (int i = 0; i < n; i++) tmp[n - 1 - i] = p[i];
    long long s = 0;
    for (int i = 0; i < n; i++) s += tmp[i] * (long long)(i + 1);
    atomicAdd((unsigned long long *)sum, (unsigned long long)s);
    free(p);
}

int main() {
    size_t lim = 0;
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 * 1024);
    cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
    long long *sum; int *nulls;
    cudaMalloc(&sum, sizeof *sum);
    cudaMalloc(&nulls, sizeof *nulls);
    cudaMemset(sum, 0, sizeof *sum);
    cudaMemset(nulls, 0, sizeof *nulls);
    const int n = 20;
    make<<<2, 128>>>(n);
    use_and_free<<<2, 128>>>(n, sum, nulls);
    long long got = 0; int gn = 0;
    cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost);
    cudaMemcpy(&gn, nulls, sizeof gn, cudaMemcpyDeviceToHost);
    long long want = 0;
    for (int t = 0; t < 256; t++)
        for (int i = 0; i < n; i++) want += (long long)(t * 1000 + (n - 1 - i)) * (i + 1);
    // the blocks were freed: the same sizes fit again, and a too-large one does not
    make<<<2, 128>>>(n);
    use_and_free<<<2, 128>>>(n, sum, nulls);
    long long got2 = 0;
    cudaMemcpy(&got2, sum, sizeof got2, cudaMemcpyDeviceToHost);
    make<<<1, 1>>>(1 << 20);
    use_and_free<<<1, 1>>>(1, sum, nulls);
    cudaMemcpy(&gn, nulls, sizeof gn, cudaMemcpyDeviceToHost);
    cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20); // too late: the heap is in use
    printf("limit %zu nulls %d sum %s second %s late-set %d\n", lim, gn, got == want ? "ok" : "BAD",
           got2 == 2 * want ? "ok" : "BAD", (int)e);
    return got == want && got2 == 2 * want && gn == 1 ? 0 : 1;
}
