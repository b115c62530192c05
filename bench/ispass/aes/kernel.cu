// aes: AES-128 encryption in ECB mode, laid out as in Manavski's CUDA AES
// (the ISPASS-2009 "AES" application): blocks of 256 threads encrypt 1 KiB
// of the input, every thread owning one 32-bit column of a 16-byte AES block
// (four neighbouring threads share a block). Each block first copies the
// four T-tables and the S-box from global memory into shared memory; the
// expanded key lives in constant memory. The state moves between rounds
// through two shared-memory stage buffers.
//
// Words are little-endian: byte r of column word c is state row r.

#define THREADS 256

__constant__ unsigned roundKey[44];

__global__ void aesEncrypt128(const unsigned *tables, const unsigned *in, unsigned *out, int nwords)
{
    __shared__ unsigned T0[256], T1[256], T2[256], T3[256];
    __shared__ unsigned char sbox[256];
    __shared__ unsigned stage[2][THREADS];

    int tid = threadIdx.x;
    T0[tid] = tables[tid];
    T1[tid] = tables[256 + tid];
    T2[tid] = tables[512 + tid];
    T3[tid] = tables[768 + tid];
    sbox[tid] = (unsigned char)tables[1024 + tid];

    int g = blockIdx.x * THREADS + tid;
    int col = tid & 3;
    int base = tid & ~3;
    stage[0][tid] = (g < nwords ? in[g] : 0u) ^ roundKey[col];
    __syncthreads();

    int cur = 0;
    for (int round = 1; round < 10; round++) {
        unsigned a = stage[cur][base + col];
        unsigned b = stage[cur][base + ((col + 1) & 3)];
        unsigned c = stage[cur][base + ((col + 2) & 3)];
        unsigned d = stage[cur][base + ((col + 3) & 3)];
        unsigned v = T0[a & 0xff] ^ T1[(b >> 8) & 0xff] ^ T2[(c >> 16) & 0xff] ^ T3[d >> 24];
        stage[cur ^ 1][tid] = v ^ roundKey[round * 4 + col];
        cur ^= 1;
        __syncthreads();
    }

    // last round: SubBytes + ShiftRows, no MixColumns
    unsigned a = stage[cur][base + col];
    unsigned b = stage[cur][base + ((col + 1) & 3)];
    unsigned c = stage[cur][base + ((col + 2) & 3)];
    unsigned d = stage[cur][base + ((col + 3) & 3)];
    unsigned v = (unsigned)sbox[a & 0xff] | ((unsigned)sbox[(b >> 8) & 0xff] << 8) |
                 ((unsigned)sbox[(c >> 16) & 0xff] << 16) | ((unsigned)sbox[d >> 24] << 24);
    if (g < nwords)
        out[g] = v ^ roundKey[40 + col];
}
