// Thrust on device vectors: sort, reduce, inclusive_scan, transform,
// each checked against the same computation on the host.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/functional.h>
#include <algorithm>
#include <cstdio>
#include <vector>

struct affine {
    int a, b;
    __host__ __device__ int operator()(int x) const { return a * x + b; }
};

static int fail(const char *what) {
    printf("FAIL %s\n", what);
    return 1;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 3000;
    std::vector<int> h(n);
    unsigned s = 12345u;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        h[i] = (int)((s >> 8) % 100000u) - 50000;
    }
    thrust::device_vector<int> d(h.begin(), h.end());

    // transform
    thrust::device_vector<int> t(n);
    thrust::transform(d.begin(), d.end(), t.begin(), affine{3, -7});
    thrust::host_vector<int> ht = t;
    for (int i = 0; i < n; i++)
        if (ht[i] != 3 * h[i] - 7) return fail("transform");

    // reduce (sum and max)
    long long sum = thrust::reduce(d.begin(), d.end(), 0LL, thrust::plus<long long>());
    long long want = 0;
    for (int v : h) want += v;
    if (sum != want) return fail("reduce");
    int mx = thrust::reduce(d.begin(), d.end(), -1000000, thrust::maximum<int>());
    if (mx != *std::max_element(h.begin(), h.end())) return fail("reduce max");

    // inclusive_scan
    thrust::device_vector<int> sc(n);
    thrust::inclusive_scan(d.begin(), d.end(), sc.begin());
    thrust::host_vector<int> hs = sc;
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += h[i];
        if (hs[i] != acc) return fail("inclusive_scan");
    }

    // sort
    thrust::sort(d.begin(), d.end());
    thrust::host_vector<int> hd = d;
    std::vector<int> ref = h;
    std::sort(ref.begin(), ref.end());
    for (int i = 0; i < n; i++)
        if (hd[i] != ref[i]) return fail("sort");

    // sort with a comparator (merge sort path)
    thrust::device_vector<int> g(h.begin(), h.end());
    thrust::sort(g.begin(), g.end(), thrust::greater<int>());
    thrust::host_vector<int> hg = g;
    for (int i = 0; i < n; i++)
        if (hg[i] != ref[n - 1 - i]) return fail("sort greater");

    printf("PASS thrust n=%d\n", n);
    return 0;
}
