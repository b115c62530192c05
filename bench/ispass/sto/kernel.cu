// sto: StoreGPU-style sliding-window hashing (the ISPASS-2009 "STO"
// application): the MD5 digest of the WINDOW-byte window starting at every
// byte offset of a buffer, as used to find content-defined chunk boundaries.
// Blocks of 128 threads; each thread hashes PER_THREAD consecutive offsets.
// A block first copies its span of the buffer (plus the window overlap) into
// shared memory with coalesced word loads, then every thread assembles each
// window's single padded MD5 block from shared-memory bytes. The first
// digest word of each window is written out.

#define THREADS 128
#define PER_THREAD 8
#define WINDOW 32
#define SPAN (THREADS * PER_THREAD + WINDOW)

__constant__ unsigned md5K[64];
__constant__ unsigned md5R[64];

__device__ __forceinline__ unsigned rotl(unsigned x, unsigned s)
{
    return (x << s) | (x >> (32 - s));
}

__device__ unsigned md5_window(const unsigned char *p)
{
    unsigned M[16];
#pragma unroll
    for (int j = 0; j < WINDOW / 4; j++)
        M[j] = (unsigned)p[4 * j] | ((unsigned)p[4 * j + 1] << 8) | ((unsigned)p[4 * j + 2] << 16) |
               ((unsigned)p[4 * j + 3] << 24);
#pragma unroll
    for (int j = WINDOW / 4; j < 16; j++)
        M[j] = 0;
    M[WINDOW / 4] = 0x80u;
    M[14] = WINDOW * 8;

    unsigned a = 0x67452301u, b = 0xefcdab89u, c = 0x98badcfeu, d = 0x10325476u;
#pragma unroll
    for (int i = 0; i < 64; i++) {
        unsigned f;
        int g;
        if (i < 16) {
            f = (b & c) | (~b & d);
            g = i;
        } else if (i < 32) {
            f = (d & b) | (~d & c);
            g = (5 * i + 1) & 15;
        } else if (i < 48) {
            f = b ^ c ^ d;
            g = (3 * i + 5) & 15;
        } else {
            f = c ^ (b | ~d);
            g = (7 * i) & 15;
        }
        f = f + a + md5K[i] + M[g];
        a = d;
        d = c;
        c = b;
        b = b + rotl(f, md5R[i]);
    }
    return a + 0x67452301u;
}

__global__ void slidingWindowMD5(const unsigned *data, int nwords, unsigned *hashes, int nwindows)
{
    __shared__ unsigned span[SPAN / 4];
    int base = blockIdx.x * THREADS * PER_THREAD;  // first offset of the block (word aligned)
    for (int w = threadIdx.x; w < SPAN / 4; w += THREADS) {
        int gw = base / 4 + w;
        span[w] = gw < nwords ? data[gw] : 0u;
    }
    __syncthreads();

    const unsigned char *bytes = (const unsigned char *)span;
    int first = threadIdx.x * PER_THREAD;
    for (int o = 0; o < PER_THREAD; o++) {
        int off = base + first + o;
        if (off < nwindows)
            hashes[off] = md5_window(bytes + first + o);
    }
}
