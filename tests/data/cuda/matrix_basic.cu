// CUTLASS-style tensor-core code in inline PTX (sm_90): ldmatrix (.x4, .x2,
// .trans) feeding mma.sync m16n8k16 f16, stmatrix and movmatrix, and fp8
// mma.sync m16n8k32 (e4m3 and e5m2, sm_89), each against the host.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL " __VA_ARGS__); printf("\n"); fails++; } } while (0)

// D (16x8 f32) = A (16x16 f16, row-major) * B (16x8 f16, given as its 8x16 transpose Bt).
// Also: stmatrix.trans of A's fragments into At, movmatrix of A's first fragment.
__global__ void gemm_tile(const __half *A, const __half *Bt, float *D, __half *At, unsigned *mv) {
    __shared__ __align__(16) __half sa[16 * 16], sb[8 * 16], st[16 * 16];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) sa[i] = A[i];
    for (int i = t; i < 128; i += 32) sb[i] = Bt[i];
    __syncthreads();
    // A: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15)
    unsigned a[4], b[2];
    unsigned arow = (t % 16), acol = (t / 16) * 8;
    unsigned aaddr = (unsigned)__cvta_generic_to_shared(&sa[arow * 16 + acol]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(aaddr));
    // B from Bt (n x k row-major = B col-major): matrices (n 0-7, k 0-7), (n 0-7, k 8-15)
    unsigned brow = t % 8, bcol = ((t / 8) % 2) * 8;
    unsigned baddr = (unsigned)__cvta_generic_to_shared(&sb[brow * 16 + bcol]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(baddr));
    float d[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    int g = t / 4, q = t % 4;
    D[g * 8 + 2 * q] = d[0];
    D[g * 8 + 2 * q + 1] = d[1];
    D[(g + 8) * 8 + 2 * q] = d[2];
    D[(g + 8) * 8 + 2 * q + 1] = d[3];
    // the same four matrices stored transposed at the transposed places: st = A^T
    unsigned saddr = (unsigned)__cvta_generic_to_shared(&st[arow * 16 + acol]);
    // matrix (r0, c0) of A goes to (c0, r0) of A^T: swap the middle two
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(saddr), "r"(a[0]), "r"(a[2]), "r"(a[1]), "r"(a[3]) : "memory");
    unsigned m;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(m) : "r"(a[0]));
    mv[t] = m;
    __syncthreads();
    for (int i = t; i < 256; i += 32) At[i] = st[i];
}

// fp8: D (16x8 f32) = A (16x32) * B (32x8) + C, fragments built by hand per the ISA's layout.
__global__ void fp8_mma(const unsigned char *A, const unsigned char *B, const float *C, float *D, int e5) {
    int t = threadIdx.x, g = t / 4, q = t % 4;
    unsigned a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
    for (int i = 0; i < 16; i++) {
        int r = g + 8 * ((i >> 2) & 1), c = 4 * q + (i & 3) + 16 * (i >> 3);
        a[i / 4] |= (unsigned)A[r * 32 + c] << (8 * (i % 4));
    }
    for (int i = 0; i < 8; i++) {
        int r = 4 * q + (i & 3) + 16 * (i >> 2), c = g;
        b[i / 4] |= (unsigned)B[r * 8 + c] << (8 * (i % 4));
    }
    float d[4];
    for (int i = 0; i < 4; i++) d[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)];
    if (e5)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * q + (i & 1)] = d[i];
}

static double fp8(unsigned b, bool e4) { // the OCP FP8 formats
    unsigned mb = e4 ? 3 : 2, eb = e4 ? 4 : 5, bias = e4 ? 7 : 15;
    unsigned m = b & ((1u << mb) - 1), e = (b >> mb) & ((1u << eb) - 1);
    double s = (b & 0x80) ? -1 : 1;
    if (!e) return s * ldexp((double)m, 1 - (int)bias - (int)mb);
    return s * ldexp((double)((1u << mb) | m), (int)e - (int)bias - (int)mb);
}

int main() {
    int checks = 0;
    {
        __half hA[256], hBt[128];
        float fA[256], fBt[128];
        for (int i = 0; i < 256; i++) { fA[i] = (float)((i * 7) % 11 - 5); hA[i] = __float2half(fA[i]); }
        for (int i = 0; i < 128; i++) { fBt[i] = (float)((i * 5) % 9 - 4); hBt[i] = __float2half(fBt[i]); }
        __half *dA, *dBt, *dAt;
        float *dD;
        unsigned *dmv;
        cudaMalloc(&dA, 512); cudaMalloc(&dBt, 256); cudaMalloc(&dAt, 512); cudaMalloc(&dD, 512); cudaMalloc(&dmv, 128);
        cudaMemcpy(dA, hA, 512, cudaMemcpyHostToDevice);
        cudaMemcpy(dBt, hBt, 256, cudaMemcpyHostToDevice);
        gemm_tile<<<1, 32>>>(dA, dBt, dD, dAt, dmv);
        cudaError_t e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "gemm_tile: %s", cudaGetErrorString(e));
        float D[128];
        __half At[256];
        unsigned mv[32];
        cudaMemcpy(D, dD, 512, cudaMemcpyDeviceToHost);
        cudaMemcpy(At, dAt, 512, cudaMemcpyDeviceToHost);
        cudaMemcpy(mv, dmv, 128, cudaMemcpyDeviceToHost);
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 8; j++) {
                float s = 0;
                for (int k = 0; k < 16; k++) s += fA[i * 16 + k] * fBt[j * 16 + k];
                CHECK(D[i * 8 + j] == s, "ldmatrix+mma D[%d][%d] = %g, want %g", i, j, D[i * 8 + j], s);
            }
        checks++;
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 16; j++)
                CHECK(__half2float(At[i * 16 + j]) == fA[j * 16 + i], "stmatrix.trans At[%d][%d]", i, j);
        for (int t = 0; t < 32; t++) { // movmatrix of A's top-left 8x8: lane t gets A[2(t%4)][t/4], A[2(t%4)+1][t/4]
            int r = t / 4, c = 2 * (t % 4);
            unsigned short lo, hi;
            memcpy(&lo, &hA[c * 16 + r], 2);
            memcpy(&hi, &hA[(c + 1) * 16 + r], 2);
            CHECK(mv[t] == ((unsigned)lo | (unsigned)hi << 16), "movmatrix lane %d: 0x%08x", t, mv[t]);
        }
        checks++;
    }
    for (int e5 = 0; e5 < 2; e5++) {
        unsigned char A[512], B[256];
        float C[128], D[128];
        for (int i = 0; i < 512; i++) A[i] = (unsigned char)((i * 37 + 11) & 0xFF);
        for (int i = 0; i < 256; i++) B[i] = (unsigned char)((i * 53 + 7) & 0xFF);
        // keep away from NaN and infinity encodings and huge exponents: clear the top exponent bit
        for (int i = 0; i < 512; i++) A[i] &= e5 ? 0xBF : 0xBF;
        for (int i = 0; i < 256; i++) B[i] &= 0xBF;
        for (int i = 0; i < 128; i++) C[i] = (float)(i % 13) - 6.0f;
        unsigned char *dA, *dB;
        float *dC, *dD;
        cudaMalloc(&dA, 512); cudaMalloc(&dB, 256); cudaMalloc(&dC, 512); cudaMalloc(&dD, 512);
        cudaMemcpy(dA, A, 512, cudaMemcpyHostToDevice);
        cudaMemcpy(dB, B, 256, cudaMemcpyHostToDevice);
        cudaMemcpy(dC, C, 512, cudaMemcpyHostToDevice);
        fp8_mma<<<1, 32>>>(dA, dB, dC, dD, e5);
        cudaError_t e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "fp8_mma: %s", cudaGetErrorString(e));
        cudaMemcpy(D, dD, 512, cudaMemcpyDeviceToHost);
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 8; j++) {
                double s = 0;
                for (int k = 0; k < 32; k++) s += fp8(A[i * 32 + k], !e5) * fp8(B[k * 8 + j], true);
                float want = (float)(s + C[i * 8 + j]);
                CHECK(D[i * 8 + j] == want, "fp8 (%s) D[%d][%d] = %.9g, want %.9g", e5 ? "e5m2" : "e4m3", i, j,
                      D[i * 8 + j], want);
            }
        checks++;
    }
    if (fails) return 1;
    printf("PASS matrix_basic: %d checks\n", checks);
    return 0;
}
