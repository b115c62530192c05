// CUB: DeviceRadixSort (keys and pairs), DeviceReduce (sum, max) and
// BlockScan in a kernel, each checked against the host.
#include <cub/cub.cuh>
#include <algorithm>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

template <int THREADS, int ITEMS>
__global__ void block_scan(const int *in, int *out, int *totals) {
    typedef cub::BlockScan<int, THREADS> Scan;
    __shared__ typename Scan::TempStorage tmp;
    int base = blockIdx.x * THREADS * ITEMS + threadIdx.x * ITEMS;
    int v[ITEMS];
    for (int i = 0; i < ITEMS; i++) v[i] = in[base + i];
    int total;
    Scan(tmp).InclusiveSum(v, v, total);
    for (int i = 0; i < ITEMS; i++) out[base + i] = v[i];
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    std::vector<unsigned> keys(n), vals(n);
    unsigned s = 777u;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        keys[i] = s >> 4;
        vals[i] = i;
    }
    unsigned *dk, *dv, *dk2, *dv2;
    CK(cudaMalloc(&dk, n * 4)); CK(cudaMalloc(&dv, n * 4));
    CK(cudaMalloc(&dk2, n * 4)); CK(cudaMalloc(&dv2, n * 4));
    CK(cudaMemcpy(dk, keys.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv, vals.data(), n * 4, cudaMemcpyHostToDevice));

    // radix sort pairs
    void *tmp = nullptr;
    size_t tb = 0;
    CK(cub::DeviceRadixSort::SortPairs(tmp, tb, dk, dk2, dv, dv2, n));
    CK(cudaMalloc(&tmp, tb));
    CK(cub::DeviceRadixSort::SortPairs(tmp, tb, dk, dk2, dv, dv2, n));
    std::vector<unsigned> ok(n), ov(n);
    CK(cudaMemcpy(ok.data(), dk2, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ov.data(), dv2, n * 4, cudaMemcpyDeviceToHost));
    std::vector<unsigned> ref = keys;
    std::sort(ref.begin(), ref.end());
    for (int i = 0; i < n; i++)
        if (ok[i] != ref[i] || keys[ov[i]] != ok[i]) { printf("FAIL radix sort at %d\n", i); return 1; }
    CK(cudaFree(tmp));

    // radix sort keys, descending
    tmp = nullptr; tb = 0;
    CK(cub::DeviceRadixSort::SortKeysDescending(tmp, tb, dk, dk2, n));
    CK(cudaMalloc(&tmp, tb));
    CK(cub::DeviceRadixSort::SortKeysDescending(tmp, tb, dk, dk2, n));
    CK(cudaMemcpy(ok.data(), dk2, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (ok[i] != ref[n - 1 - i]) { printf("FAIL radix sort descending at %d\n", i); return 1; }
    CK(cudaFree(tmp));

    // reductions on int values
    std::vector<int> iv(n);
    for (int i = 0; i < n; i++) iv[i] = (int)(keys[i] % 2001u) - 1000;
    int *di, *dout;
    CK(cudaMalloc(&di, n * 4)); CK(cudaMalloc(&dout, 4));
    CK(cudaMemcpy(di, iv.data(), n * 4, cudaMemcpyHostToDevice));
    tmp = nullptr; tb = 0;
    CK(cub::DeviceReduce::Sum(tmp, tb, di, dout, n));
    CK(cudaMalloc(&tmp, tb));
    CK(cub::DeviceReduce::Sum(tmp, tb, di, dout, n));
    int got, want = 0;
    for (int v : iv) want += v;
    CK(cudaMemcpy(&got, dout, 4, cudaMemcpyDeviceToHost));
    if (got != want) { printf("FAIL reduce sum %d != %d\n", got, want); return 1; }
    CK(cudaFree(tmp));
    tmp = nullptr; tb = 0;
    CK(cub::DeviceReduce::Max(tmp, tb, di, dout, n));
    CK(cudaMalloc(&tmp, tb));
    CK(cub::DeviceReduce::Max(tmp, tb, di, dout, n));
    CK(cudaMemcpy(&got, dout, 4, cudaMemcpyDeviceToHost));
    if (got != *std::max_element(iv.begin(), iv.end())) { printf("FAIL reduce max %d\n", got); return 1; }
    CK(cudaFree(tmp));

    // block scan: 128 threads x 4 items per block
    const int T = 128, I = 4, per = T * I, nb = n / per;
    int *dscan, *dtot;
    CK(cudaMalloc(&dscan, nb * per * 4)); CK(cudaMalloc(&dtot, nb * 4));
    block_scan<T, I><<<nb, T>>>(di, dscan, dtot);
    CK(cudaGetLastError());
    std::vector<int> hs(nb * per), ht(nb);
    CK(cudaMemcpy(hs.data(), dscan, nb * per * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ht.data(), dtot, nb * 4, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++) {
        int acc = 0;
        for (int i = 0; i < per; i++) {
            acc += iv[b * per + i];
            if (hs[b * per + i] != acc) { printf("FAIL block scan at %d\n", b * per + i); return 1; }
        }
        if (ht[b] != acc) { printf("FAIL block scan total %d\n", b); return 1; }
    }
    printf("PASS cub n=%d\n", n);
    return 0;
}
