// scan: exclusive prefix sum of a large float array, work-efficient
// (Blelloch) scan. Each block scans 2 * blockDim.x elements in shared
// memory: an up-sweep builds partial sums in a balanced tree, the root is
// saved as the block's total and cleared, and a down-sweep distributes the
// prefixes. Shared-memory indices are padded by index / NUM_BANKS to spread
// the tree's strided accesses over the banks. The block totals are scanned
// the same way (recursively, on the host side), then uniformAdd adds each
// block's scanned total to all of its elements. A last block shorter than
// 2 * blockDim.x ("non-power-of-two") pads with zeros and guards its stores.
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define BANK_PAD(i) ((i) >> LOG_NUM_BANKS)

template <bool isNP2>
__device__ void loadChunk(float *s_data, const float *g_idata, int n, int baseIndex, int &ai,
                          int &bi, int &mem_ai, int &mem_bi, int &padA, int &padB)
{
    const int thid = threadIdx.x;
    mem_ai = baseIndex + thid;
    mem_bi = mem_ai + blockDim.x;
    ai = thid;
    bi = thid + blockDim.x;
    padA = BANK_PAD(ai);
    padB = BANK_PAD(bi);
    s_data[ai + padA] = g_idata[mem_ai];
    if (isNP2)
        s_data[bi + padB] = bi < n ? g_idata[mem_bi] : 0.0f;
    else
        s_data[bi + padB] = g_idata[mem_bi];
}

template <bool isNP2>
__device__ void storeChunk(float *g_odata, const float *s_data, int n, int ai, int bi,
                           int mem_ai, int mem_bi, int padA, int padB)
{
    __syncthreads();
    g_odata[mem_ai] = s_data[ai + padA];
    if (isNP2) {
        if (bi < n)
            g_odata[mem_bi] = s_data[bi + padB];
    } else {
        g_odata[mem_bi] = s_data[bi + padB];
    }
}

// up-sweep: returns the stride reached at the root
__device__ int upSweep(float *s_data)
{
    const int thid = threadIdx.x;
    int stride = 1;
    for (int d = blockDim.x; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = stride * (2 * thid + 1) - 1;
            int b = a + stride;
            a += BANK_PAD(a);
            b += BANK_PAD(b);
            s_data[b] += s_data[a];
        }
        stride <<= 1;
    }
    return stride;
}

template <bool storeSum>
__device__ void clearRoot(float *s_data, float *g_blockSums, int blockIndex)
{
    if (threadIdx.x == 0) {
        int root = (blockDim.x << 1) - 1;
        root += BANK_PAD(root);
        if (storeSum)
            g_blockSums[blockIndex] = s_data[root];
        s_data[root] = 0.0f;
    }
}

__device__ void downSweep(float *s_data, int stride)
{
    const int thid = threadIdx.x;
    for (int d = 1; d <= blockDim.x; d <<= 1) {
        stride >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = stride * (2 * thid + 1) - 1;
            int b = a + stride;
            a += BANK_PAD(a);
            b += BANK_PAD(b);
            float t = s_data[a];
            s_data[a] = s_data[b];
            s_data[b] += t;
        }
    }
}

template <bool storeSum, bool isNP2>
__device__ void prescanBody(float *g_odata, const float *g_idata, float *g_blockSums, int n,
                            int blockIndex, int baseIndex)
{
    extern __shared__ float s_data[];
    int ai, bi, mem_ai, mem_bi, padA, padB;
    const int base = baseIndex == 0 ? blockIdx.x * (blockDim.x << 1) : baseIndex;
    loadChunk<isNP2>(s_data, g_idata, n, base, ai, bi, mem_ai, mem_bi, padA, padB);
    int stride = upSweep(s_data);
    clearRoot<storeSum>(s_data, g_blockSums, blockIndex == 0 ? blockIdx.x : blockIndex);
    downSweep(s_data, stride);
    storeChunk<isNP2>(g_odata, s_data, n, ai, bi, mem_ai, mem_bi, padA, padB);
}

__global__ void prescan(float *g_odata, const float *g_idata, float *g_blockSums, int n,
                        int blockIndex, int baseIndex)
{
    prescanBody<false, false>(g_odata, g_idata, g_blockSums, n, blockIndex, baseIndex);
}

__global__ void prescanNP2(float *g_odata, const float *g_idata, float *g_blockSums, int n,
                           int blockIndex, int baseIndex)
{
    prescanBody<false, true>(g_odata, g_idata, g_blockSums, n, blockIndex, baseIndex);
}

__global__ void prescanStoreSum(float *g_odata, const float *g_idata, float *g_blockSums, int n,
                                int blockIndex, int baseIndex)
{
    prescanBody<true, false>(g_odata, g_idata, g_blockSums, n, blockIndex, baseIndex);
}

__global__ void prescanStoreSumNP2(float *g_odata, const float *g_idata, float *g_blockSums,
                                   int n, int blockIndex, int baseIndex)
{
    prescanBody<true, true>(g_odata, g_idata, g_blockSums, n, blockIndex, baseIndex);
}

// Adds the scanned total of block (blockIdx.x + blockOffset) to the
// 2 * blockDim.x elements of that block; n bounds the block's elements.
__global__ void uniformAdd(float *g_data, const float *uniforms, int n, int blockOffset,
                           int baseIndex)
{
    __shared__ float uni;
    if (threadIdx.x == 0)
        uni = uniforms[blockIdx.x + blockOffset];
    const int address = blockIdx.x * (blockDim.x << 1) + baseIndex + threadIdx.x;
    __syncthreads();
    if (threadIdx.x < n)
        g_data[address] += uni;
    if (threadIdx.x + blockDim.x < n)
        g_data[address + blockDim.x] += uni;
}
