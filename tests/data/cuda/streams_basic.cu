// CUB and Thrust on a created stream with stream-ordered temporary storage:
// cub::DeviceScan, DeviceSelect::If, DeviceHistogram, thrust::reduce_by_key,
// thrust::copy_if and thrust::unique with thrust::cuda::par.on(stream),
// checked against the host.
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/copy.h>
#include <thrust/unique.h>
#include <cstdio>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 3000;
    // values in [0, 64), scattered by a multiplicative hash
    std::vector<int> h(n);
    for (int i = 0; i < n; i++) h[i] = (int)(((unsigned)i * 2654435761u) >> 26);
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    int *din, *dout, *dcount;
    CK(cudaMallocAsync(&din, n * 4, st));
    CK(cudaMallocAsync(&dout, n * 4, st));
    CK(cudaMallocAsync(&dcount, 64 * 4, st));
    CK(cudaMemcpyAsync(din, h.data(), n * 4, cudaMemcpyHostToDevice, st));

    // exclusive scan
    void *tmp = nullptr;
    size_t tb = 0;
    CK(cub::DeviceScan::ExclusiveSum(tmp, tb, din, dout, n, st));
    CK(cudaMallocAsync(&tmp, tb, st));
    CK(cub::DeviceScan::ExclusiveSum(tmp, tb, din, dout, n, st));
    CK(cudaFreeAsync(tmp, st));
    std::vector<int> got(n);
    CK(cudaMemcpyAsync(got.data(), dout, n * 4, cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    for (int i = 0, acc = 0; i < n; acc += h[i], i++)
        if (got[i] != acc) { printf("FAIL exclusive scan at %d\n", i); return 1; }

    // select odd values
    tmp = nullptr; tb = 0;
    CK(cub::DeviceSelect::If(tmp, tb, din, dout, dcount, n, is_odd(), st));
    CK(cudaMallocAsync(&tmp, tb, st));
    CK(cub::DeviceSelect::If(tmp, tb, din, dout, dcount, n, is_odd(), st));
    CK(cudaFreeAsync(tmp, st));
    int nsel = 0;
    CK(cudaMemcpyAsync(&nsel, dcount, 4, cudaMemcpyDeviceToHost, st));
    CK(cudaMemcpyAsync(got.data(), dout, n * 4, cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    int k = 0;
    for (int i = 0; i < n; i++)
        if (h[i] & 1) {
            if (k >= nsel || got[k] != h[i]) { printf("FAIL select at %d\n", k); return 1; }
            k++;
        }
    if (k != nsel) { printf("FAIL select count %d != %d\n", nsel, k); return 1; }

    // histogram: 64 bins over [0, 64)
    tmp = nullptr; tb = 0;
    CK(cub::DeviceHistogram::HistogramEven(tmp, tb, din, dcount, 65, 0, 64, n, st));
    CK(cudaMallocAsync(&tmp, tb, st));
    CK(cub::DeviceHistogram::HistogramEven(tmp, tb, din, dcount, 65, 0, 64, n, st));
    CK(cudaFreeAsync(tmp, st));
    std::vector<int> hist(64), want(64, 0);
    for (int v : h) want[v]++;
    CK(cudaMemcpyAsync(hist.data(), dcount, 64 * 4, cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    for (int b = 0; b < 64; b++)
        if (hist[b] != want[b]) { printf("FAIL histogram bin %d: %d != %d\n", b, hist[b], want[b]); return 1; }

    // Thrust on the stream: keys are runs of i / 7, values h
    auto pol = thrust::cuda::par.on(st);
    thrust::device_vector<int> keys(n), vals(h.begin(), h.end()), ok(n), ov(n);
    thrust::host_vector<int> hk(n);
    for (int i = 0; i < n; i++) hk[i] = i / 7;
    keys = hk;
    auto ends = thrust::reduce_by_key(pol, keys.begin(), keys.end(), vals.begin(), ok.begin(), ov.begin());
    int nk = (int)(ends.first - ok.begin());
    thrust::host_vector<int> hok(ok.begin(), ok.begin() + nk), hov(ov.begin(), ov.begin() + nk);
    if (nk != (n + 6) / 7) { printf("FAIL reduce_by_key count %d\n", nk); return 1; }
    for (int r = 0; r < nk; r++) {
        int sum = 0;
        for (int i = r * 7; i < n && i < r * 7 + 7; i++) sum += h[i];
        if (hok[r] != r || hov[r] != sum) { printf("FAIL reduce_by_key run %d\n", r); return 1; }
    }
    thrust::device_vector<int> odd(n);
    int nodd = (int)(thrust::copy_if(pol, vals.begin(), vals.end(), odd.begin(), is_odd()) - odd.begin());
    if (nodd != nsel) { printf("FAIL copy_if %d != %d\n", nodd, nsel); return 1; }
    int nu = (int)(thrust::unique(pol, keys.begin(), keys.end()) - keys.begin());
    if (nu != nk) { printf("FAIL unique %d != %d\n", nu, nk); return 1; }

    CK(cudaFreeAsync(din, st));
    CK(cudaFreeAsync(dout, st));
    CK(cudaFreeAsync(dcount, st));
    CK(cudaStreamSynchronize(st));
    CK(cudaStreamDestroy(st));
    printf("PASS streams n=%d\n", n);
    return 0;
}
