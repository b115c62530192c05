// __managed__ variables round trip. Built with:
//   nvcc -O2 -cudart shared -gencode arch=compute_75,code=compute_75 --no-compress -o managed managed.cu
#include <cstdio>

__managed__ unsigned counter;
__managed__ int table[4] = {1, 2, 3, 4};

__global__ void bump(int by) {
    atomicAdd(&counter, (unsigned)by);
    if (threadIdx.x < 4) table[threadIdx.x] *= 2;
}

int main() {
    int bad = 0;
    if (counter != 0 || table[3] != 4) { printf("initial values wrong: %u %d\n", counter, table[3]); bad = 1; }
    unsigned expect = 0;
    for (int i = 1; i <= 3; i++) {
        bump<<<1, 32>>>(i);
        cudaDeviceSynchronize();
        expect += 32u * i;
        printf("after launch %d: counter=%u table[0]=%d\n", i, counter, table[0]);
        if (counter != expect) bad = 1;
    }
    counter = 1000;  // host write seen by the next launch
    table[1] = 7;
    bump<<<1, 32>>>(1);
    cudaDeviceSynchronize();
    printf("after host write: counter=%u table[1]=%d\n", counter, table[1]);
    if (counter != 1032 || table[1] != 14 || table[0] != 16) bad = 1;
    printf(bad ? "FAIL\n" : "PASS\n");
    return bad;
}
