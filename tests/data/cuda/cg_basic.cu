// Cooperative groups: tiled_partition<16> tiles with cg::reduce,
// cg::inclusive_scan, shuffles and ballots, and a thread-block sync.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void tiles(const int *in, int *scan, int *sums, int *maxs, int *misc, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int sum = cg::reduce(tile, v, cg::plus<int>());
    int mx = cg::reduce(tile, v, cg::greater<int>());
    int inc = cg::inclusive_scan(tile, v);
    if (i < n) scan[i] = inc;
    int t = i / 16;
    if (tile.thread_rank() == 0) {
        sums[t] = sum;
        maxs[t] = mx;
    }
    // shuffle from the tile's last lane and a ballot of positive values
    int last = tile.shfl(v, 15);
    unsigned pos = tile.ballot(v > 0);
    block.sync();
    if (tile.thread_rank() == 1) misc[2 * t] = last, misc[2 * t + 1] = (int)pos;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2048;
    n = (n + 255) / 256 * 256;
    int nt = n / 16;
    std::vector<int> h(n);
    unsigned s = 99u;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        h[i] = (int)((s >> 10) % 1000u) - 500;
    }
    int *din, *dscan, *dsum, *dmax, *dmisc;
    cudaMalloc(&din, n * 4); cudaMalloc(&dscan, n * 4);
    cudaMalloc(&dsum, nt * 4); cudaMalloc(&dmax, nt * 4); cudaMalloc(&dmisc, nt * 8);
    cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice);
    tiles<<<n / 256, 256>>>(din, dscan, dsum, dmax, dmisc, n);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("FAIL launch: %s\n", cudaGetErrorString(e)); return 1; }
    std::vector<int> sc(n), su(nt), mx(nt), mi(2 * nt);
    cudaMemcpy(sc.data(), dscan, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(su.data(), dsum, nt * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(mx.data(), dmax, nt * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(mi.data(), dmisc, nt * 8, cudaMemcpyDeviceToHost);
    for (int t = 0; t < nt; t++) {
        int acc = 0, m = -1000000;
        unsigned pos = 0;
        for (int k = 0; k < 16; k++) {
            int v = h[t * 16 + k];
            acc += v;
            m = v > m ? v : m;
            if (v > 0) pos |= 1u << k;
            if (sc[t * 16 + k] != acc) { printf("FAIL scan at %d\n", t * 16 + k); return 1; }
        }
        if (su[t] != acc) { printf("FAIL reduce sum tile %d: %d != %d\n", t, su[t], acc); return 1; }
        if (mx[t] != m) { printf("FAIL reduce max tile %d: %d != %d\n", t, mx[t], m); return 1; }
        if (mi[2 * t] != h[t * 16 + 15]) { printf("FAIL shfl tile %d\n", t); return 1; }
        if ((unsigned)mi[2 * t + 1] != pos) { printf("FAIL ballot tile %d: %x != %x\n", t, mi[2 * t + 1], pos); return 1; }
    }
    printf("PASS cg n=%d\n", n);
    return 0;
}
