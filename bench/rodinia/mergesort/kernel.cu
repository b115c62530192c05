// mergesort: the two-phase float sort of Rodinia's hybrid sort.
//
// Phase 1, bucket sort by splitters. A 1024-bin histogram of the keys lets
// the host choose 1023 splitters that cut the keys into 1024 buckets of about
// equal size. `bucketCount` (32-thread blocks, each over a band of 4096 keys
// with a grid stride) finds every key's bucket by binary search over the
// splitters and takes a slot in its block's per-bucket counter in shared
// memory; `bucketPrefix` (one thread per bucket) turns the per-block counts
// into per-block offsets; `bucketScatter` writes each key into its bucket.
// Every bucket starts at a multiple of 4 floats; the padding holds a key
// larger than any input.
//
// Phase 2, mergesort inside the buckets on float4. `sortQuads` sorts each
// float4; each `mergePass` doubles the sorted run length: one thread merges
// two neighbouring runs of a bucket 4 keys at a time (a bitonic merge of two
// sorted quads keeps the lower four for output and the upper four for the
// next step). Bucket geometry lives in constant memory. `packBuckets` drops
// the padding.

#define DIVISIONS 1024
#define HIST_BINS 1024
#define BUCKET_THREADS 32
#define SLOT_SHIFT 10

__constant__ int cQuadStart[DIVISIONS];   // first float4 of each bucket
__constant__ int cQuadCount[DIVISIONS];   // float4s in each bucket (padding included)
__constant__ int cKeyCount[DIVISIONS];    // keys in each bucket
__constant__ int cOutStart[DIVISIONS];    // first key of each bucket in the result

__global__ void keyHistogram(const float *keys, unsigned *hist, int n, float lo, float scale)
{
    __shared__ unsigned bins[HIST_BINS];
    for (int i = threadIdx.x; i < HIST_BINS; i += blockDim.x)
        bins[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int b = (int)((keys[i] - lo) * scale);
        b = b < 0 ? 0 : (b > HIST_BINS - 1 ? HIST_BINS - 1 : b);
        atomicAdd(&bins[b], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < HIST_BINS; i += blockDim.x)
        if (bins[i])
            atomicAdd(&hist[i], bins[i]);
}

__global__ void bucketCount(const float *keys, int *slot, unsigned *blockCounts,
                            const float *__restrict__ splitters, int n)
{
    __shared__ unsigned count[DIVISIONS];
    for (int i = threadIdx.x; i < DIVISIONS; i += BUCKET_THREADS)
        count[i] = 0;
    __syncthreads();

    for (int i = blockIdx.x * BUCKET_THREADS + threadIdx.x; i < n; i += gridDim.x * BUCKET_THREADS) {
        float k = keys[i];
        // largest bucket whose splitter is <= k (splitters[0] is the minimum)
        int lo = 0, hi = DIVISIONS - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >> 1;
            if (splitters[mid] <= k)
                lo = mid;
            else
                hi = mid - 1;
        }
        unsigned at = atomicAdd(&count[lo], 1u);
        slot[i] = (int)((at << SLOT_SHIFT) | (unsigned)lo);
    }
    __syncthreads();

    for (int i = threadIdx.x; i < DIVISIONS; i += BUCKET_THREADS)
        blockCounts[blockIdx.x * DIVISIONS + i] = count[i];
}

__global__ void bucketPrefix(unsigned *blockCounts, unsigned *bucketSizes, int blocks)
{
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= DIVISIONS)
        return;
    unsigned run = 0;
    for (int k = 0; k < blocks; k++) {
        unsigned c = blockCounts[k * DIVISIONS + b];
        blockCounts[k * DIVISIONS + b] = run;
        run += c;
    }
    bucketSizes[b] = run;
}

__global__ void bucketScatter(const float *keys, const int *slot, float *bucketed,
                              const unsigned *blockCounts, const unsigned *bucketStart, int n)
{
    __shared__ unsigned base[DIVISIONS];
    for (int i = threadIdx.x; i < DIVISIONS; i += BUCKET_THREADS)
        base[i] = bucketStart[i] + blockCounts[blockIdx.x * DIVISIONS + i];
    __syncthreads();

    for (int i = blockIdx.x * BUCKET_THREADS + threadIdx.x; i < n; i += gridDim.x * BUCKET_THREADS) {
        unsigned s = (unsigned)slot[i];
        bucketed[base[s & (DIVISIONS - 1)] + (s >> SLOT_SHIFT)] = keys[i];
    }
}

__device__ __forceinline__ void orderPair(float &a, float &b)
{
    float lo = fminf(a, b);
    b = fmaxf(a, b);
    a = lo;
}

__device__ __forceinline__ float4 sortQuad(float4 q)
{
    orderPair(q.x, q.y);
    orderPair(q.z, q.w);
    orderPair(q.x, q.z);
    orderPair(q.y, q.w);
    orderPair(q.y, q.z);
    return q;
}

// a and b sorted: on return a holds the four smallest of the eight keys and
// b the four largest, both sorted
__device__ __forceinline__ void mergeQuads(float4 &a, float4 &b)
{
    // compare a with b reversed: both halves become bitonic
    float l0 = fminf(a.x, b.w), h0 = fmaxf(a.x, b.w);
    float l1 = fminf(a.y, b.z), h1 = fmaxf(a.y, b.z);
    float l2 = fminf(a.z, b.y), h2 = fmaxf(a.z, b.y);
    float l3 = fminf(a.w, b.x), h3 = fmaxf(a.w, b.x);
    orderPair(l0, l2);
    orderPair(l1, l3);
    orderPair(l0, l1);
    orderPair(l2, l3);
    orderPair(h0, h2);
    orderPair(h1, h3);
    orderPair(h0, h1);
    orderPair(h2, h3);
    a = make_float4(l0, l1, l2, l3);
    b = make_float4(h0, h1, h2, h3);
}

__global__ void sortQuads(float4 *data, int quads)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < quads)
        data[i] = sortQuad(data[i]);
}

// runQuads: length of the sorted runs on input (float4s); each thread of a
// bucket's `threadsPerBucket` merges runs 2t and 2t+1 of that bucket
__global__ void mergePass(const float4 *__restrict__ in, float4 *out, int runQuads, int threadsPerBucket)
{
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    const int bucket = gid / threadsPerBucket;
    if (bucket >= DIVISIONS)
        return;
    const int t = gid - bucket * threadsPerBucket;
    const int len = cQuadCount[bucket];
    int a = t * 2 * runQuads;
    if (a >= len)
        return;
    const float4 *src = in + cQuadStart[bucket];
    float4 *dst = out + cQuadStart[bucket];
    const int aEnd = min(a + runQuads, len);
    const int bEnd = min(a + 2 * runQuads, len);
    int b = aEnd;
    int o = a;

    if (b == bEnd) {   // lone run at the end of the bucket
        for (; a < aEnd; a++)
            dst[a] = src[a];
        return;
    }

    float4 low = src[a++];
    float4 high = src[b++];
    mergeQuads(low, high);
    dst[o++] = low;
    float4 nextA = a < aEnd ? src[a] : make_float4(0.f, 0.f, 0.f, 0.f);
    float4 nextB = b < bEnd ? src[b] : make_float4(0.f, 0.f, 0.f, 0.f);
    while (a < aEnd || b < bEnd) {
        // take the quad whose smallest key is smaller
        bool takeA = b >= bEnd || (a < aEnd && nextA.x <= nextB.x);
        if (takeA) {
            low = nextA;
            if (++a < aEnd)
                nextA = src[a];
        } else {
            low = nextB;
            if (++b < bEnd)
                nextB = src[b];
        }
        mergeQuads(low, high);
        dst[o++] = low;
    }
    dst[o] = high;
}

__global__ void packBuckets(const float *bucketed, float *result)
{
    const int bucket = blockIdx.y;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < cKeyCount[bucket])
        result[cOutStart[bucket] + i] = bucketed[cQuadStart[bucket] * 4 + i];
}
