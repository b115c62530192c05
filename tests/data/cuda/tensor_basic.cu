// Tensor cores through the WMMA API (and, for sm_80, mma.sync in inline PTX),
// each result checked against the same product on the host. The inputs are
// small integers, so every product and sum is exact and the host's order of
// evaluation does not matter. Prints "PASS tensor_basic: N checks" (N counts
// the forms this build has: the compute_75 build has f16 and 8-bit WMMA, the
// compute_80 build adds bf16, tf32, f64 and mma.sync) or "FAIL <what>".
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

static int g_checks = 0, g_fail = 0;

#define CK(call)                                                                   \
    do {                                                                           \
        cudaError_t e_ = (call);                                                   \
        if (e_ != cudaSuccess) {                                                   \
            printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_));                \
            exit(1);                                                               \
        }                                                                          \
    } while (0)

static void expect(const char *what, const double *got, const double *want, int n)
{
    g_checks++;
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("FAIL %s: element %d is %g, expected %g\n", what, i, got[i], want[i]);
            g_fail++;
            return;
        }
}

// D = A*B + C on the host; A is MxK, B KxN, C and D MxN, all row-major.
static void host_mma(int M, int N, int K, const double *A, const double *B, const double *C, double *D)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = C ? C[i * N + j] : 0;
            for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
            D[i * N + j] = s;
        }
}

// Element (r, c) of an R x C matrix stored row- or column-major with leading dimension ld.
static int at(bool col, int r, int c, int ld) { return col ? c * ld + r : r * ld + c; }

// ---- f16 inputs, f32 accumulator: all layout combinations, loads of C,
// element-wise work on fragments, stores in both layouts ------------------------
template <int M, int N, int K, typename ALay, typename BLay>
__global__ void wmma_f16_f32(const half *a, const half *b, const float *c, float *d, int lda, int ldb,
                             int ldc, int ldd, bool d_col)
{
    wmma::fragment<wmma::matrix_a, M, N, K, half, ALay> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, half, BLay> fb;
    wmma::fragment<wmma::accumulator, M, N, K, float> fc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, ldc, wmma::mem_row_major);
    for (int i = 0; i < fc.num_elements; i++) fc.x[i] *= 2.0f; // D = A*B + 2C
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, ldd, d_col ? wmma::mem_col_major : wmma::mem_row_major);
}

// f16 accumulator, C loaded column-major; A col-major, B row-major
template <int M, int N, int K>
__global__ void wmma_f16_f16(const half *a, const half *b, const half *c, half *d)
{
    wmma::fragment<wmma::matrix_a, M, N, K, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, half> fc;
    wmma::load_matrix_sync(fa, a, M);
    wmma::load_matrix_sync(fb, b, N);
    wmma::load_matrix_sync(fc, c, M, wmma::mem_col_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

// 8-bit integers (signed or unsigned), s32 accumulator starting at zero
template <int M, int N, int K, typename T>
__global__ void wmma_i8(const T *a, const T *b, int *d)
{
    wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, int> fc;
    wmma::fill_fragment(fc, 7);
    wmma::load_matrix_sync(fa, a, K);
    wmma::load_matrix_sync(fb, b, K);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

// A tiled GEMM (64x64x64): one warp per 16x16 tile of D, the K loop staging
// A and B through shared memory.
__global__ void wmma_gemm(const half *a, const half *b, float *d, int n)
{
    __shared__ half sa[16 * 16], sb[16 * 16];
    int ti = blockIdx.y * 16, tj = blockIdx.x * 16, lane = threadIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int k0 = 0; k0 < n; k0 += 16) {
        for (int e = lane; e < 256; e += 32) {
            sa[e] = a[(ti + e / 16) * n + k0 + e % 16];
            sb[e] = b[(k0 + e / 16) * n + tj + e % 16];
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, sa, 16);
        wmma::load_matrix_sync(fb, sb, 16);
        wmma::mma_sync(fc, fa, fb, fc);
        __syncwarp();
    }
    wmma::store_matrix_sync(d + ti * n + tj, fc, n, wmma::mem_row_major);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define HAVE_SM80 1
#endif

__global__ void sm80_flag(int *f)
{
#if __CUDA_ARCH__ >= 800
    *f = 1;
#else
    *f = 0;
#endif
}

// bf16 in every shape (A col-major for m8n32k16)
template <int M, int N, int K, typename ALay>
__global__ void wmma_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *d, int lda)
{
#if __CUDA_ARCH__ >= 800
    wmma::fragment<wmma::matrix_a, M, N, K, __nv_bfloat16, ALay> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, float> fc;
    wmma::fill_fragment(fc, 0.5f);
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, N);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
#endif
}

// tf32: the inputs are floats with low mantissa bits set, which
// __float_to_tf32 rounds away (cvt.rna.tf32.f32) before the product.
__global__ void wmma_tf32(const float *a, const float *b, float *d)
{
#if __CUDA_ARCH__ >= 800
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
#endif
}

__global__ void wmma_f64(const double *a, const double *b, const double *c, double *d)
{
#if __CUDA_ARCH__ >= 800
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fa, a, 4);
    wmma::load_matrix_sync(fb, b, 4);
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_col_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_col_major);
#endif
}

// mma.sync with the fragment layouts of the PTX ISA, written out here from
// its tables: groupID g = lane / 4, threadID_in_group t = lane % 4.
__device__ unsigned pack_h2(half lo, half hi)
{
    return (unsigned)__half_as_ushort(lo) | (unsigned)__half_as_ushort(hi) << 16;
}

// m16n8k16, f16 inputs, f32 accumulator
__global__ void mma_m16n8k16_f16(const half *A, const half *B, const float *C, float *D)
{
#if __CUDA_ARCH__ >= 800
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a[4], b[2];
    float c[4], d[4];
    for (int r = 0; r < 4; r++) { // a0,a1: (g, 2t..) a2,a3: (g+8, ..) a4..a7: cols + 8
        int row = g + 8 * (r & 1), col = 2 * t + 8 * (r >> 1);
        a[r] = pack_h2(A[row * 16 + col], A[row * 16 + col + 1]);
    }
    for (int r = 0; r < 2; r++) {
        int k = 2 * t + 8 * r;
        b[r] = pack_h2(B[k * 8 + g], B[(k + 1) * 8 + g]);
    }
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%11,%12,%13};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
                   "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
#endif
}

// m16n8k8 tf32 (A: a0 (g,t) a1 (g+8,t) a2 (g,t+4) a3 (g+8,t+4); B: b0 (t,g) b1 (t+4,g))
__global__ void mma_m16n8k8_tf32(const float *A, const float *B, float *D)
{
#if __CUDA_ARCH__ >= 800
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a[4], b[2];
    float d[4];
    for (int i = 0; i < 4; i++) a[i] = __float_as_uint(A[(g + 8 * (i & 1)) * 8 + t + 4 * (i >> 1)]);
    for (int i = 0; i < 2; i++) b[i] = __float_as_uint(B[(t + 4 * i) * 8 + g]);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%10,%10,%10};"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(0.0f));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
#endif
}

// m16n8k32 s8 (A: a0..a3 (g, 4t..), a4..a7 (g+8, ..), a8..15 cols + 16; B: b0..3 (4t.., g), b4..7 rows + 16)
__global__ void mma_m16n8k32_s8(const signed char *A, const signed char *B, int *D)
{
#if __CUDA_ARCH__ >= 800
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned a[4], b[2];
    int d[4];
    for (int r = 0; r < 4; r++) {
        int row = g + 8 * (r & 1), col = 4 * t + 16 * (r >> 1);
        unsigned v = 0;
        for (int j = 0; j < 4; j++) v |= (unsigned)(unsigned char)A[row * 32 + col + j] << (8 * j);
        a[r] = v;
    }
    for (int r = 0; r < 2; r++) {
        unsigned v = 0;
        for (int j = 0; j < 4; j++) v |= (unsigned)(unsigned char)B[(4 * t + j + 16 * r) * 8 + g] << (8 * j);
        b[r] = v;
    }
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%10,%10,%10};"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(0));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = d[i];
#endif
}

// m8n8k4 f64 (A: (g, t); B: (t, g); C/D: (g, 2t + i))
__global__ void mma_m8n8k4_f64(const double *A, const double *B, const double *C, double *D)
{
#if __CUDA_ARCH__ >= 800
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    double a = A[g * 4 + t], b = B[t * 8 + g], c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1], d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(d0), "=d"(d1)
                 : "d"(a), "d"(b), "d"(c0), "d"(c1));
    D[g * 8 + 2 * t] = d0;
    D[g * 8 + 2 * t + 1] = d1;
#endif
}

// ---- host -------------------------------------------------------------------
template <typename T> static T *dev(const T *h, int n)
{
    T *p;
    CK(cudaMalloc(&p, n * sizeof(T)));
    if (h) CK(cudaMemcpy(p, h, n * sizeof(T), cudaMemcpyHostToDevice));
    else CK(cudaMemset(p, 0, n * sizeof(T)));
    return p;
}

template <typename T> static void back(double *out, const T *d, int n)
{
    T *h = (T *)malloc(n * sizeof(T));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) out[i] = (double)h[i];
    free(h);
}
static void back_h(double *out, const half *d, int n)
{
    half *h = (half *)malloc(n * sizeof(half));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, n * sizeof(half), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) out[i] = (double)__half2float(h[i]);
    free(h);
}

static unsigned g_seed = 12345;
static int rnd(int lo, int hi) // inclusive
{
    g_seed = g_seed * 1103515245u + 12345u;
    return lo + (int)((g_seed >> 16) % (unsigned)(hi - lo + 1));
}

// Random small integers in an R x C matrix, as doubles (row-major) and as T
// stored in the given layout with leading dimension ld.
template <typename T> static void fill(int R, int C, bool col, int ld, double *m, T *s, int lo, int hi)
{
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int v = rnd(lo, hi);
            m[r * C + c] = v;
            s[at(col, r, c, ld)] = (T)v;
        }
}
static void fill_h(int R, int C, bool col, int ld, double *m, half *s)
{
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int v = rnd(-4, 4);
            m[r * C + c] = v;
            s[at(col, r, c, ld)] = __float2half((float)v);
        }
}

template <int M, int N, int K, typename ALay, typename BLay>
static void test_f16_f32(const char *name, bool d_col)
{
    const bool acol = std::is_same<ALay, wmma::col_major>::value, bcol = std::is_same<BLay, wmma::col_major>::value;
    const int lda = (acol ? M : K) + 8, ldb = (bcol ? K : N) + 8, ldc = N + 4, ldd = (d_col ? M : N) + 4;
    static double Am[M * K], Bm[K * N], Cm[M * N], Dm[M * N], got[M * N];
    static half As[64 * 64], Bs[64 * 64];
    static float Cs[64 * 64];
    fill_h(M, K, acol, lda, Am, As);
    fill_h(K, N, bcol, ldb, Bm, Bs);
    fill(M, N, false, ldc, Cm, Cs, -50, 50);
    for (int i = 0; i < M * N; i++) Cm[i] *= 2;
    host_mma(M, N, K, Am, Bm, Cm, Dm);
    half *a = dev(As, 64 * 64), *b = dev(Bs, 64 * 64);
    float *c = dev(Cs, 64 * 64), *d = dev<float>(NULL, 64 * 64);
    wmma_f16_f32<M, N, K, ALay, BLay><<<1, 32>>>(a, b, c, d, lda, ldb, ldc, ldd, d_col);
    static double all[64 * 64];
    back(all, d, 64 * 64);
    for (int r = 0; r < M; r++)
        for (int cc = 0; cc < N; cc++) got[r * N + cc] = all[at(d_col, r, cc, ldd)];
    expect(name, got, Dm, M * N);
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d);
}

template <int M, int N, int K> static void test_f16_f16(const char *name)
{
    static double Am[M * K], Bm[K * N], Cm[M * N], Dm[M * N], got[M * N];
    static half As[M * K], Bs[K * N], Cs[M * N];
    fill_h(M, K, true, M, Am, As);
    fill_h(K, N, false, N, Bm, Bs);
    fill_h(M, N, true, M, Cm, Cs);
    host_mma(M, N, K, Am, Bm, Cm, Dm);
    half *a = dev(As, M * K), *b = dev(Bs, K * N), *c = dev(Cs, M * N), *d = dev<half>(NULL, M * N);
    wmma_f16_f16<M, N, K><<<1, 32>>>(a, b, c, d);
    back_h(got, d, M * N);
    expect(name, got, Dm, M * N);
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d);
}

template <int M, int N, int K, typename T> static void test_i8(const char *name, int lo, int hi)
{
    static double Am[M * K], Bm[K * N], Cm[M * N], Dm[M * N], got[M * N];
    static T As[M * K], Bs[K * N];
    fill(M, K, false, K, Am, As, lo, hi);
    fill(K, N, true, K, Bm, Bs, lo, hi);
    for (int i = 0; i < M * N; i++) Cm[i] = 7;
    host_mma(M, N, K, Am, Bm, Cm, Dm);
    T *a = dev(As, M * K), *b = dev(Bs, K * N);
    int *d = dev<int>(NULL, M * N);
    wmma_i8<M, N, K, T><<<1, 32>>>(a, b, d);
    back(got, d, M * N);
    expect(name, got, Dm, M * N);
    cudaFree(a), cudaFree(b), cudaFree(d);
}

static void test_gemm(void)
{
    const int n = 64;
    static double Am[n * n], Bm[n * n], Dm[n * n], got[n * n];
    static half As[n * n], Bs[n * n];
    fill_h(n, n, false, n, Am, As);
    fill_h(n, n, false, n, Bm, Bs);
    host_mma(n, n, n, Am, Bm, NULL, Dm);
    half *a = dev(As, n * n), *b = dev(Bs, n * n);
    float *d = dev<float>(NULL, n * n);
    wmma_gemm<<<dim3(n / 16, n / 16), 32>>>(a, b, d, n);
    back(got, d, n * n);
    expect("wmma gemm 64x64x64 through shared memory", got, Dm, n * n);
    cudaFree(a), cudaFree(b), cudaFree(d);
}

template <int M, int N, int K, typename ALay> static void test_bf16(const char *name)
{
    const bool acol = std::is_same<ALay, wmma::col_major>::value;
    static double Am[M * K], Bm[K * N], Cm[M * N], Dm[M * N], got[M * N];
    static __nv_bfloat16 As[M * K], Bs[K * N];
    for (int r = 0; r < M; r++)
        for (int c = 0; c < K; c++) {
            int v = rnd(-8, 8);
            Am[r * K + c] = v;
            As[at(acol, r, c, acol ? M : K)] = __float2bfloat16((float)v);
        }
    for (int r = 0; r < K; r++)
        for (int c = 0; c < N; c++) {
            int v = rnd(-8, 8);
            Bm[r * N + c] = v;
            Bs[r * N + c] = __float2bfloat16((float)v);
        }
    for (int i = 0; i < M * N; i++) Cm[i] = 0.5;
    host_mma(M, N, K, Am, Bm, Cm, Dm);
    __nv_bfloat16 *a = dev(As, M * K), *b = dev(Bs, K * N);
    float *d = dev<float>(NULL, M * N);
    wmma_bf16<M, N, K, ALay><<<1, 32>>>(a, b, d, acol ? M : K);
    back(got, d, M * N);
    expect(name, got, Dm, M * N);
    cudaFree(a), cudaFree(b), cudaFree(d);
}

// A float whose tf32 rounding (to nearest, ties away) is v: v plus bits below tf32's precision.
static float tf32_noisy(int v, int noise)
{
    float f = (float)v;
    unsigned u;
    memcpy(&u, &f, 4);
    if (v) u += (unsigned)(noise & 0xFFF); // less than half of tf32's last place
    memcpy(&f, &u, 4);
    return f;
}

static void test_tf32(void)
{
    static double Am[16 * 8], Bm[8 * 16], Dm[16 * 16], got[16 * 16];
    static float As[16 * 8], Bs[8 * 16];
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++) {
            int v = rnd(-100, 100);
            Am[r * 8 + c] = v;
            As[r * 8 + c] = tf32_noisy(v, rnd(0, 4095));
        }
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 16; c++) {
            int v = rnd(-100, 100);
            Bm[r * 16 + c] = v;
            Bs[c * 8 + r] = tf32_noisy(v, rnd(0, 4095)); // col-major, ld 8
        }
    host_mma(16, 16, 8, Am, Bm, NULL, Dm);
    float *a = dev(As, 128), *b = dev(Bs, 128), *d = dev<float>(NULL, 256);
    wmma_tf32<<<1, 32>>>(a, b, d);
    back(got, d, 256);
    expect("wmma m16n16k8 tf32", got, Dm, 256);
    cudaFree(a), cudaFree(b), cudaFree(d);
}

static void test_f64(void)
{
    static double Am[32], Bm[32], Cm[64], Dm[64], got[64], Cs[64], all[64];
    static double Bs[32];
    fill(8, 4, false, 4, Am, Am, -9, 9);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 8; c++) Bm[r * 8 + c] = Bs[c * 4 + r] = rnd(-9, 9);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) Cm[r * 8 + c] = Cs[c * 8 + r] = rnd(-99, 99) + 0.25;
    host_mma(8, 8, 4, Am, Bm, Cm, Dm);
    double *a = dev(Am, 32), *b = dev(Bs, 32), *c = dev(Cs, 64), *d = dev<double>(NULL, 64);
    wmma_f64<<<1, 32>>>(a, b, c, d);
    back(all, d, 64);
    for (int r = 0; r < 8; r++)
        for (int cc = 0; cc < 8; cc++) got[r * 8 + cc] = all[cc * 8 + r];
    expect("wmma m8n8k4 f64", got, Dm, 64);
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d);
}

static void test_mma_sync(void)
{
    { // m16n8k16 f16 -> f32
        static double Am[256], Bm[128], Cm[128], Dm[128], got[128];
        static half As[256], Bs[128];
        static float Cs[128];
        fill_h(16, 16, false, 16, Am, As);
        fill_h(16, 8, false, 8, Bm, Bs);
        fill(16, 8, false, 8, Cm, Cs, -20, 20);
        host_mma(16, 8, 16, Am, Bm, Cm, Dm);
        half *a = dev(As, 256), *b = dev(Bs, 128);
        float *c = dev(Cs, 128), *d = dev<float>(NULL, 128);
        mma_m16n8k16_f16<<<1, 32>>>(a, b, c, d);
        back(got, d, 128);
        expect("mma.sync m16n8k16 f16", got, Dm, 128);
        cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d);
    }
    { // m16n8k8 tf32
        static double Am[128], Bm[64], Dm[128], got[128];
        static float As[128], Bs[64];
        for (int i = 0; i < 128; i++) { int v = rnd(-30, 30); Am[i] = v; As[i] = tf32_noisy(v, rnd(0, 4095) & ~0x7FF); }
        for (int i = 0; i < 64; i++) { int v = rnd(-30, 30); Bm[i] = v; Bs[i] = (float)v; }
        host_mma(16, 8, 8, Am, Bm, NULL, Dm);
        float *a = dev(As, 128), *b = dev(Bs, 64), *d = dev<float>(NULL, 128);
        mma_m16n8k8_tf32<<<1, 32>>>(a, b, d);
        back(got, d, 128);
        expect("mma.sync m16n8k8 tf32 (low mantissa bits ignored)", got, Dm, 128);
        cudaFree(a), cudaFree(b), cudaFree(d);
    }
    { // m16n8k32 s8
        static double Am[512], Bm[256], Dm[128], got[128];
        static signed char As[512], Bs[256];
        fill(16, 32, false, 32, Am, As, -128, 127);
        fill(32, 8, false, 8, Bm, Bs, -128, 127);
        host_mma(16, 8, 32, Am, Bm, NULL, Dm);
        signed char *a = dev(As, 512), *b = dev(Bs, 256);
        int *d = dev<int>(NULL, 128);
        mma_m16n8k32_s8<<<1, 32>>>(a, b, d);
        back(got, d, 128);
        expect("mma.sync m16n8k32 s8", got, Dm, 128);
        cudaFree(a), cudaFree(b), cudaFree(d);
    }
    { // m8n8k4 f64
        static double Am[32], Bm[32], Cm[64], Dm[64], got[64];
        fill(8, 4, false, 4, Am, Am, -9, 9);
        fill(4, 8, false, 8, Bm, Bm, -9, 9);
        fill(8, 8, false, 8, Cm, Cm, -99, 99);
        host_mma(8, 8, 4, Am, Bm, Cm, Dm);
        double *a = dev(Am, 32), *b = dev(Bm, 32), *c = dev(Cm, 64), *d = dev<double>(NULL, 64);
        mma_m8n8k4_f64<<<1, 32>>>(a, b, c, d);
        back(got, d, 64);
        expect("mma.sync m8n8k4 f64", got, Dm, 64);
        cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d);
    }
}

int main()
{
    test_f16_f32<16, 16, 16, wmma::row_major, wmma::col_major>("wmma m16n16k16 f16 row.col", false);
    test_f16_f32<16, 16, 16, wmma::col_major, wmma::row_major>("wmma m16n16k16 f16 col.row, D col-major", true);
    test_f16_f32<32, 8, 16, wmma::row_major, wmma::row_major>("wmma m32n8k16 f16 row.row", false);
    test_f16_f32<8, 32, 16, wmma::col_major, wmma::col_major>("wmma m8n32k16 f16 col.col, D col-major", true);
    test_f16_f16<16, 16, 16>("wmma m16n16k16 f16 accumulator");
    test_f16_f16<32, 8, 16>("wmma m32n8k16 f16 accumulator");
    test_i8<16, 16, 16, signed char>("wmma m16n16k16 s8", -128, 127);
    test_i8<32, 8, 16, unsigned char>("wmma m32n8k16 u8", 0, 255);
    test_i8<8, 32, 16, signed char>("wmma m8n32k16 s8", -128, 127);
    test_gemm();
    int *flag = dev<int>(NULL, 1), sm80 = 0;
    sm80_flag<<<1, 1>>>(flag);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&sm80, flag, sizeof sm80, cudaMemcpyDeviceToHost));
    if (sm80) {
        test_bf16<16, 16, 16, wmma::row_major>("wmma m16n16k16 bf16");
        test_bf16<8, 32, 16, wmma::col_major>("wmma m8n32k16 bf16 col.row");
        test_tf32();
        test_f64();
        test_mma_sync();
    }
    CK(cudaGetLastError());
    if (g_fail) return 1;
    printf("PASS tensor_basic: %d checks\n", g_checks);
    return 0;
}
