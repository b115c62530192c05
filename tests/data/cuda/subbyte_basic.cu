// Sub-byte tensor cores (sm_80): WMMA's experimental s4 / u4 (m8n8k32,
// .satfinite) and b1 (m8n8k128, bmma with AND and XOR popc) fragments, and
// mma.sync m8n8k32 s4 in inline PTX with hand-built fragments, each against
// the host. Prints PASS or FAIL.
#include <cstdio>
#include <cstring>
#include <mma.h>
using namespace nvcuda;
namespace ex = nvcuda::wmma::experimental;

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL " __VA_ARGS__); printf("\n"); fails++; } } while (0)

// s4 and u4: A 8x32 row-major, B 32x8 col-major, packed 2 per byte (low nibble first)
__global__ void int4_wmma(const unsigned char *a, const unsigned char *b, const int *c, int *d) {
    wmma::fragment<wmma::matrix_a, 8, 8, 32, ex::precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, ex::precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 32);
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
    wmma::fragment<wmma::matrix_a, 8, 8, 32, ex::precision::u4, wmma::row_major> ua;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, ex::precision::u4, wmma::col_major> ub;
    wmma::load_matrix_sync(ua, a, 32);
    wmma::load_matrix_sync(ub, b, 32);
    wmma::fill_fragment(fc, 2147483000);
    wmma::mma_sync(fc, ua, ub, fc, true); // saturates
    wmma::store_matrix_sync(d + 64, fc, 8, wmma::mem_col_major);
}

// b1: A 8x128 row-major, B 128x8 col-major, 8 per byte (bit 0 first)
__global__ void bit_wmma(const unsigned char *a, const unsigned char *b, int *d) {
    wmma::fragment<wmma::matrix_a, 8, 8, 128, ex::precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, ex::precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::load_matrix_sync(fa, a, 128);
    wmma::load_matrix_sync(fb, b, 128);
    wmma::fill_fragment(fc, 5);
    wmma::bmma_sync(fc, fa, fb, fc, ex::bmmaBitOpAND);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
    wmma::fill_fragment(fc, 0);
    wmma::bmma_sync(fc, fa, fb, fc); // XOR
    wmma::store_matrix_sync(d + 64, fc, 8, wmma::mem_row_major);
}

// mma.sync m8n8k32 s4: lane (g, t) holds A row g, k 8t..8t+7 and B column g, k 8t..8t+7
__global__ void int4_mma(const unsigned char *a, const unsigned char *b, int *d) {
    int l = threadIdx.x, g = l / 4, t = l % 4;
    unsigned ra, rb;
    memcpy(&ra, a + g * 16 + t * 4, 4);
    memcpy(&rb, b + g * 16 + t * 4, 4);
    int d0 = 0, d1 = 0;
    asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%0, %1};"
                 : "+r"(d0), "+r"(d1) : "r"(ra), "r"(rb));
    d[g * 8 + 2 * t] = d0;
    d[g * 8 + 2 * t + 1] = d1;
}

static int nib(const unsigned char *p, int e, bool sg) {
    int v = (p[e / 2] >> (4 * (e % 2))) & 15;
    return sg && v >= 8 ? v - 16 : v;
}
static int bit(const unsigned char *p, int e) { return (p[e / 8] >> (e % 8)) & 1; }

int main() {
    unsigned char A[128], B[128];
    for (int i = 0; i < 128; i++) A[i] = (unsigned char)(i * 37 + 5), B[i] = (unsigned char)(i * 91 + 3);
    int C[64];
    for (int i = 0; i < 64; i++) C[i] = i * 3 - 50;
    unsigned char *dA, *dB;
    int *dC, *dD;
    cudaMalloc(&dA, 128); cudaMalloc(&dB, 128); cudaMalloc(&dC, 256); cudaMalloc(&dD, 512);
    cudaMemcpy(dA, A, 128, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, 128, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, C, 256, cudaMemcpyHostToDevice);
    int D[128];
    int checks = 0;
    int4_wmma<<<1, 32>>>(dA, dB, dC, dD);
    cudaError_t e = cudaDeviceSynchronize();
    CHECK(e == cudaSuccess, "int4_wmma: %s", cudaGetErrorString(e));
    cudaMemcpy(D, dD, 512, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            long long s = C[i * 8 + j], u = 2147483000;
            for (int k = 0; k < 32; k++) {
                s += nib(A, i * 32 + k, true) * nib(B, j * 32 + k, true);
                u += nib(A, i * 32 + k, false) * nib(B, j * 32 + k, false);
            }
            if (u > 2147483647) u = 2147483647;
            CHECK(D[i * 8 + j] == (int)s, "s4 D[%d][%d] = %d, want %lld", i, j, D[i * 8 + j], s);
            CHECK(D[64 + j * 8 + i] == (int)u, "u4 D[%d][%d] = %d, want %lld", i, j, D[64 + j * 8 + i], u);
        }
    checks++;
    bit_wmma<<<1, 32>>>(dA, dB, dD);
    e = cudaDeviceSynchronize();
    CHECK(e == cudaSuccess, "bit_wmma: %s", cudaGetErrorString(e));
    cudaMemcpy(D, dD, 512, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int sa = 5, sx = 0;
            for (int k = 0; k < 128; k++) {
                sa += bit(A, i * 128 + k) & bit(B, j * 128 + k);
                sx += bit(A, i * 128 + k) ^ bit(B, j * 128 + k);
            }
            CHECK(D[i * 8 + j] == sa && D[64 + i * 8 + j] == sx, "b1 D[%d][%d] = %d %d, want %d %d", i, j, D[i * 8 + j],
                  D[64 + i * 8 + j], sa, sx);
        }
    checks++;
    int4_mma<<<1, 32>>>(dA, dB, dD);
    e = cudaDeviceSynchronize();
    CHECK(e == cudaSuccess, "int4_mma: %s", cudaGetErrorString(e));
    cudaMemcpy(D, dD, 256, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int s = 0;
            for (int k = 0; k < 32; k++) s += nib(A, i * 32 + k, true) * nib(B, j * 32 + k, true);
            CHECK(D[i * 8 + j] == s, "mma.sync s4 D[%d][%d] = %d, want %d", i, j, D[i * 8 + j], s);
        }
    checks++;
    if (fails) return 1;
    printf("PASS subbyte_basic: %d checks\n", checks);
    return 0;
}
