// Mars-style MapReduce runtime kernels, shared by the bench/mars workloads.
// A workload's kernel.cu defines MARS_SORT / MARS_REDUCE for the optional
// stages, includes this file, then defines its user functions:
//
//   __device__ void marsMapCount(const char *key, const char *val, int keySize, int valSize,
//                                const void *user, MarsCount &out);
//   __device__ void marsMap(const char *key, const char *val, int keySize, int valSize,
//                           const void *user, MarsEmit &out);
//   __device__ int marsCompare(const char *k1, int s1, const char *k2, int s2);     (MARS_SORT)
//   __device__ void marsReduceCount(const char *keys, const char *vals, const int4 *index,
//                                   int begin, int end, const void *user, MarsCount &out);
//   __device__ void marsReduce(const char *keys, const char *vals, const int4 *index,
//                              int begin, int end, const void *user, MarsEmit &out);
//
// Records are described by int4 {keyOffset, keySize, valOffset, valSize}
// into separate key and value byte buffers. Map and reduce run twice: the
// count pass records, per thread, how many records and bytes it will emit;
// exclusive scans of the three per-thread counts give every thread its own
// output slots; the emit pass writes there. Thread mapping: block b owns the
// chunk of recordsPerTask * blockDim.x consecutive records starting at
// b * recordsPerTask * blockDim.x, and its threads interleave over it.
// Sorting is a bitonic sort of record numbers (a permutation) by the user's
// key order, in global memory, one launch per merge step; grouping marks
// where the key changes and scans the marks into key ranges.

#define MARS_ALIGN(n) (((n) + 3) & ~3)

struct MarsCount {
    int keyBytes;
    int valBytes;
    int records;
};

struct MarsEmit {
    char *keys;
    char *vals;
    int4 *index;
    int keyPos;
    int valPos;
    int recPos;
};

__device__ inline void marsEmitCount(MarsCount &c, int keySize, int valSize)
{
    c.keyBytes += MARS_ALIGN(keySize);
    c.valBytes += MARS_ALIGN(valSize);
    c.records++;
}

__device__ inline void marsEmit(MarsEmit &e, const void *key, int keySize, const void *val,
                                int valSize)
{
    const char *k = (const char *)key;
    const char *v = (const char *)val;
    for (int i = 0; i < keySize; i++)
        e.keys[e.keyPos + i] = k[i];
    for (int i = 0; i < valSize; i++)
        e.vals[e.valPos + i] = v[i];
    e.index[e.recPos] = make_int4(e.keyPos, keySize, e.valPos, valSize);
    e.keyPos += MARS_ALIGN(keySize);
    e.valPos += MARS_ALIGN(valSize);
    e.recPos++;
}

// the workload's user functions (defined after including this file)
__device__ void marsMapCount(const char *key, const char *val, int keySize, int valSize,
                             const void *user, MarsCount &out);
__device__ void marsMap(const char *key, const char *val, int keySize, int valSize,
                        const void *user, MarsEmit &out);
#ifdef MARS_SORT
__device__ int marsCompare(const char *k1, int s1, const char *k2, int s2);
#endif
#ifdef MARS_REDUCE
__device__ void marsReduceCount(const char *keys, const char *vals, const int4 *index, int begin,
                                int end, const void *user, MarsCount &out);
__device__ void marsReduce(const char *keys, const char *vals, const int4 *index, int begin,
                           int end, const void *user, MarsEmit &out);
#endif

// ---- map ----

__global__ void marsMapperCount(const char *inKeys, const char *inVals, const int4 *inIndex,
                                int recordNum, int recordsPerTask, const void *user,
                                int *keyBytesPerTask, int *valBytesPerTask, int *countPerTask)
{
    const int task = blockIdx.x * blockDim.x + threadIdx.x;
    const int chunk = recordsPerTask * blockDim.x;
    const int begin = blockIdx.x * chunk;
    int end = begin + chunk;
    if (end > recordNum)
        end = recordNum;
    MarsCount c = {0, 0, 0};
    for (int r = begin + threadIdx.x; r < end; r += blockDim.x) {
        int4 rec = inIndex[r];
        marsMapCount(inKeys + rec.x, inVals + rec.z, rec.y, rec.w, user, c);
    }
    keyBytesPerTask[task] = c.keyBytes;
    valBytesPerTask[task] = c.valBytes;
    countPerTask[task] = c.records;
}

__global__ void marsMapper(const char *inKeys, const char *inVals, const int4 *inIndex,
                           int recordNum, int recordsPerTask, const void *user,
                           const int *keyOffsets, const int *valOffsets, const int *recOffsets,
                           char *interKeys, char *interVals, int4 *interIndex)
{
    const int task = blockIdx.x * blockDim.x + threadIdx.x;
    const int chunk = recordsPerTask * blockDim.x;
    const int begin = blockIdx.x * chunk;
    int end = begin + chunk;
    if (end > recordNum)
        end = recordNum;
    MarsEmit e;
    e.keys = interKeys;
    e.vals = interVals;
    e.index = interIndex;
    e.keyPos = keyOffsets[task];
    e.valPos = valOffsets[task];
    e.recPos = recOffsets[task];
    for (int r = begin + threadIdx.x; r < end; r += blockDim.x) {
        int4 rec = inIndex[r];
        marsMap(inKeys + rec.x, inVals + rec.z, rec.y, rec.w, user, e);
    }
}

// ---- exclusive scan of int counts (work-efficient, 512 per block) ----

#define MARS_SCAN_THREADS 256

__global__ void marsScanBlocks(int *out, const int *in, int *blockSums, int n)
{
    __shared__ int s[2 * MARS_SCAN_THREADS];
    const int t = threadIdx.x;
    const int base = blockIdx.x * 2 * MARS_SCAN_THREADS;
    s[t] = base + t < n ? in[base + t] : 0;
    s[t + MARS_SCAN_THREADS] =
        base + t + MARS_SCAN_THREADS < n ? in[base + t + MARS_SCAN_THREADS] : 0;
    int stride = 1;
    for (int d = MARS_SCAN_THREADS; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int a = stride * (2 * t + 1) - 1;
            s[a + stride] += s[a];
        }
        stride <<= 1;
    }
    if (t == 0) {
        blockSums[blockIdx.x] = s[2 * MARS_SCAN_THREADS - 1];
        s[2 * MARS_SCAN_THREADS - 1] = 0;
    }
    for (int d = 1; d <= MARS_SCAN_THREADS; d <<= 1) {
        stride >>= 1;
        __syncthreads();
        if (t < d) {
            int a = stride * (2 * t + 1) - 1;
            int tmp = s[a];
            s[a] = s[a + stride];
            s[a + stride] += tmp;
        }
    }
    __syncthreads();
    if (base + t < n)
        out[base + t] = s[t];
    if (base + t + MARS_SCAN_THREADS < n)
        out[base + t + MARS_SCAN_THREADS] = s[t + MARS_SCAN_THREADS];
}

__global__ void marsScanAdd(int *data, const int *blockSums, int n)
{
    const int base = blockIdx.x * 2 * MARS_SCAN_THREADS + threadIdx.x;
    const int add = blockSums[blockIdx.x];
    if (base < n)
        data[base] += add;
    if (base + MARS_SCAN_THREADS < n)
        data[base + MARS_SCAN_THREADS] += add;
}

#ifdef MARS_SORT
// ---- sort: bitonic merge step (j, k) over a permutation padded to 2^m
// with -1 entries, which order after every real record ----

__device__ inline int marsCompareRecords(const char *keys, const int4 *index, int a, int b)
{
    if (a < 0 || b < 0)
        return (a < 0) - (b < 0);
    int4 ra = index[a], rb = index[b];
    return marsCompare(keys + ra.x, ra.y, keys + rb.x, rb.y);
}

__global__ void marsBitonicStep(const char *keys, const int4 *index, int *perm, int j, int k)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int partner = i ^ j;
    if (partner > i) {
        int a = perm[i], b = perm[partner];
        int c = marsCompareRecords(keys, index, a, b);
        bool ascending = (i & k) == 0;
        if (ascending ? c > 0 : c < 0) {
            perm[i] = b;
            perm[partner] = a;
        }
    }
}

__global__ void marsGather(const int4 *index, const int *perm, int4 *sorted, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        sorted[i] = index[perm[i]];
}

// ---- group: flag key changes, then (after a scan) write key ranges ----

__global__ void marsMarkGroups(const char *keys, const int4 *sorted, int n, int *flags)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int f = 1;
        if (i > 0) {
            int4 a = sorted[i - 1], b = sorted[i];
            f = marsCompare(keys + a.x, a.y, keys + b.x, b.y) != 0;
        }
        flags[i] = f;
    }
}

__global__ void marsWriteGroups(const int *flags, const int *groupBefore, int n, int2 *ranges)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int g = groupBefore[i] + flags[i] - 1;
        if (flags[i])
            ranges[g].x = i;
        if (i == n - 1 || flags[i + 1])
            ranges[g].y = i + 1;
    }
}
#endif

#ifdef MARS_REDUCE
// ---- reduce: one key group per loop step, same chunking as map ----

__global__ void marsReducerCount(const char *keys, const char *vals, const int4 *sorted,
                                 const int2 *ranges, int groupNum, int groupsPerTask,
                                 const void *user, int *keyBytesPerTask, int *valBytesPerTask,
                                 int *countPerTask)
{
    const int task = blockIdx.x * blockDim.x + threadIdx.x;
    const int chunk = groupsPerTask * blockDim.x;
    const int begin = blockIdx.x * chunk;
    int end = begin + chunk;
    if (end > groupNum)
        end = groupNum;
    MarsCount c = {0, 0, 0};
    for (int g = begin + threadIdx.x; g < end; g += blockDim.x) {
        int2 r = ranges[g];
        marsReduceCount(keys, vals, sorted, r.x, r.y, user, c);
    }
    keyBytesPerTask[task] = c.keyBytes;
    valBytesPerTask[task] = c.valBytes;
    countPerTask[task] = c.records;
}

__global__ void marsReducer(const char *keys, const char *vals, const int4 *sorted,
                            const int2 *ranges, int groupNum, int groupsPerTask,
                            const void *user, const int *keyOffsets, const int *valOffsets,
                            const int *recOffsets, char *outKeys, char *outVals, int4 *outIndex)
{
    const int task = blockIdx.x * blockDim.x + threadIdx.x;
    const int chunk = groupsPerTask * blockDim.x;
    const int begin = blockIdx.x * chunk;
    int end = begin + chunk;
    if (end > groupNum)
        end = groupNum;
    MarsEmit e;
    e.keys = outKeys;
    e.vals = outVals;
    e.index = outIndex;
    e.keyPos = keyOffsets[task];
    e.valPos = valOffsets[task];
    e.recPos = recOffsets[task];
    for (int g = begin + threadIdx.x; g < end; g += blockDim.x) {
        int2 r = ranges[g];
        marsReduce(keys, vals, sorted, r.x, r.y, user, e);
    }
}
#endif
