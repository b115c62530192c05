/* Whole-warp kernels with AVX2 and FMA, where the host has them.
 *
 * The build targets plain x86-64 (SSE2), where fma.f32 is a library call per
 * lane and the compiler declines to vectorize the lane loops. These functions
 * are compiled for AVX2+FMA and taken only when the CPU has both (asked at
 * each call: one load and a test); elsewhere they answer false and the caller
 * runs its own lane loop. Every result is the one that loop gives: IEEE
 * single precision rounds the same in vector and scalar form (round to
 * nearest, no flush: the default MXCSR the scalar code also runs under),
 * fmaf is the fused operation these instructions compute, and NaNs are
 * replaced by the same canonical NaN. A destination is one of the sources or
 * disjoint from them (register slots), and each group of lanes is read
 * before it is written, as in the lane loop. The address kernels compute a
 * full warp's lane addresses and their alignment and bounds test in integer
 * arithmetic, exactly. */
#include "exec/exec_internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WS_SIMD_X86 1
#endif

#ifdef WS_SIMD_X86
static inline bool have_avx2_fma(void) {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/* The low words of lanes p[0..7] as floats, in the order 0 1 4 5 2 3 6 7 (what
   store8 undoes). (AVX2 alone: inline in the integer kernels too.) */
__attribute__((target("avx2"))) static inline __m256 load8(const uint64_t *p) {
    __m256 x = _mm256_loadu_ps((const float *)p), y = _mm256_loadu_ps((const float *)(p + 4));
    return _mm256_shuffle_ps(x, y, _MM_SHUFFLE(2, 0, 2, 0));
}

/* Lanes p[0..7] from load8's order, zero-extended, NaNs canonical (0x7FFFFFFF). */
__attribute__((target("avx2,fma"))) static inline void store8(uint64_t *p, __m256 r) {
    const __m256 canon = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)), zero = _mm256_setzero_ps();
    r = _mm256_blendv_ps(canon, r, _mm256_cmp_ps(r, r, _CMP_ORD_Q));
    _mm256_storeu_ps((float *)p, _mm256_unpacklo_ps(r, zero));
    _mm256_storeu_ps((float *)(p + 4), _mm256_unpackhi_ps(r, zero));
}

#define F32_LOOP(expr)                                                                             \
    for (int l = 0; l < WS_WARP_SIZE; l += 8) {                                                    \
        __m256 a = load8(A + l), b = load8(B + l);                                                 \
        store8(D + l, expr);                                                                       \
    }

__attribute__((target("avx2,fma"))) static void f32_avx2(ws_simd_op op, uint64_t *D, const uint64_t *A,
                                                       const uint64_t *B, const uint64_t *C) {
    switch (op) {
    case WS_SIMD_ADD: F32_LOOP(_mm256_add_ps(a, b)); break;
    case WS_SIMD_SUB: F32_LOOP(_mm256_sub_ps(a, b)); break;
    case WS_SIMD_MUL: F32_LOOP(_mm256_mul_ps(a, b)); break;
    case WS_SIMD_DIV: F32_LOOP(_mm256_div_ps(a, b)); break;
    case WS_SIMD_FMA: F32_LOOP(_mm256_fmadd_ps(a, b, load8(C + l))); break;
    }
}

/* The addresses of a full warp with a 64-bit base and whether one is misaligned or
   outside [lo, lo + last]: unsigned 64-bit order is the signed order of the values
   with their top bit flipped. Flipping the top bit is adding 2^63 modulo 2^64, so
   (b + off - lo) with it flipped is b plus one constant. Unrolled (8 groups). */
__attribute__((target("avx2"))) static bool addrs64_avx2(const uint64_t *b, uint64_t off, uint64_t *ad,
                                                       uint64_t lo, uint64_t last, uint32_t size) {
    const __m256i vo = _mm256_set1_epi64x((long long)off),
                  vk = _mm256_set1_epi64x((long long)(off - lo + (1ull << 63))),
                  vlast = _mm256_set1_epi64x((long long)(last ^ (1ull << 63)));
    __m256i any = _mm256_setzero_si256(), over = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int l = 0; l < WS_WARP_SIZE; l += 4) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(b + l)), a = _mm256_add_epi64(v, vo);
        _mm256_storeu_si256((__m256i *)(ad + l), a);
        any = _mm256_or_si256(any, a);
        over = _mm256_or_si256(over, _mm256_cmpgt_epi64(_mm256_add_epi64(v, vk), vlast));
    }
    return !_mm256_testz_si256(any, _mm256_set1_epi64x(size - 1)) || !_mm256_testz_si256(over, over);
}

/* The same with a 32-bit base: the base's low word plus off modulo 2^32, zero-extended
   (below 2^32, so that the signed comparison with last <= UINT32_MAX is the unsigned one). */
__attribute__((target("avx2"))) static bool addrs32_avx2(const uint64_t *b, uint32_t off, uint64_t *ad,
                                                       uint32_t last, uint32_t size) {
    const __m256i vo = _mm256_set1_epi64x(off), low = _mm256_set1_epi64x(0xFFFFFFFFll),
                  vlast = _mm256_set1_epi64x(last);
    __m256i any = _mm256_setzero_si256(), over = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int l = 0; l < WS_WARP_SIZE; l += 4) {
        __m256i a = _mm256_and_si256(_mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(b + l)), vo), low);
        _mm256_storeu_si256((__m256i *)(ad + l), a);
        any = _mm256_or_si256(any, a);
        over = _mm256_or_si256(over, _mm256_cmpgt_epi64(a, vlast));
    }
    return !_mm256_testz_si256(any, _mm256_set1_epi64x(size - 1)) || !_mm256_testz_si256(over, over);
}

/* A full warp's 32-bit loads from the host addresses hb + ad[l] (every lane's access checked
   by the caller), zero-extended into D: four lanes a gather (the addresses are 64-bit
   indices from hb, added modulo 2^64 as the scalar loop adds them). */
__attribute__((target("avx2"))) static void load32_avx2(uint64_t *D, uintptr_t hb, const uint64_t *ad) {
#pragma GCC unroll 8
    for (int l = 0; l < WS_WARP_SIZE; l += 4) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(ad + l));
        __m128i v = _mm256_i64gather_epi32((const int *)hb, a, 1);
        _mm256_storeu_si256((__m256i *)(D + l), _mm256_cvtepu32_epi64(v));
    }
}

/* A full warp's 32-bit stores to consecutive words from host address p (lane l's address
   a[l] is a[0] + 4 l; false, nothing written, when not so): the low words of v packed into
   one 128-byte store, which is the lanes' stores in any order (no two share a word). */
__attribute__((target("avx2"))) static bool store32_seq_avx2(uint8_t *p, const uint64_t *a,
                                                           const uint64_t *v) {
    __m256i e = _mm256_add_epi64(_mm256_set1_epi64x((long long)a[0]), _mm256_setr_epi64x(0, 4, 8, 12));
    const __m256i inc = _mm256_set1_epi64x(16);
    __m256i d = _mm256_setzero_si256();
#pragma GCC unroll 8
    for (int l = 0; l < WS_WARP_SIZE; l += 4) {
        d = _mm256_or_si256(d, _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(a + l)), e));
        e = _mm256_add_epi64(e, inc);
    }
    if (!_mm256_testz_si256(d, d)) return false;
    const __m256i low = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7); /* each lane's low word first */
#pragma GCC unroll 4
    for (int l = 0; l < WS_WARP_SIZE; l += 8) {
        __m256i x = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(v + l)), low),
                y = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(v + l + 4)), low);
        _mm256_storeu_si256((__m256i *)(p + 4 * l), _mm256_permute2x128_si256(x, y, 0x20));
    }
    return true;
}

/* A full warp's comparison of 32-bit integers (the low words of A and B: the extension
   to 64 bits keeps both orders, so these are exec_conv.c's compare results): eight lanes
   a vector in load8's order, signed (unsigned: the top bits flipped first). Bit l is lane
   l's. */
__attribute__((target("avx2"))) static uint32_t cmp32_avx2(ws_simd_cmp op, bool sgn, const uint64_t *A,
                                                         const uint64_t *B) {
    const __m256i flip = _mm256_set1_epi32(sgn ? 0 : INT32_MIN);
    uint32_t r = 0;
#define CMP32_LOOP(expr)                                                                           \
    _Pragma("GCC unroll 4") for (int l = 0; l < WS_WARP_SIZE; l += 8) {                            \
        __m256i a = _mm256_castps_si256(load8(A + l)), b = _mm256_castps_si256(load8(B + l));      \
        r |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(expr)) << l;                         \
    }
    switch (op) {
    case WS_SIMD_EQ: case WS_SIMD_NE: CMP32_LOOP(_mm256_cmpeq_epi32(a, b)); break;
    case WS_SIMD_LT: case WS_SIMD_GE:
        CMP32_LOOP(_mm256_cmpgt_epi32(_mm256_xor_si256(b, flip), _mm256_xor_si256(a, flip)));
        break;
    default: CMP32_LOOP(_mm256_cmpgt_epi32(_mm256_xor_si256(a, flip), _mm256_xor_si256(b, flip)));
    }
#undef CMP32_LOOP
    /* each byte's bits are lanes 0 1 4 5 2 3 6 7 of its group: swap the middle pairs */
    r = (r & 0xC3C3C3C3u) | (r & 0x0C0C0C0Cu) << 2 | (r & 0x30303030u) >> 2;
    return op == WS_SIMD_NE || op == WS_SIMD_LE || op == WS_SIMD_GE ? ~r : r;
}

/* add/sub of 64-bit lanes (exec_int.c's addsub_full, which wraps as they do) */
__attribute__((target("avx2"))) static void addsub_avx2(uint64_t *D, const uint64_t *A, const uint64_t *B,
                                                      bool sub) {
    if (sub) {
        for (int l = 0; l < WS_WARP_SIZE; l += 4)
            _mm256_storeu_si256((__m256i *)(D + l), _mm256_sub_epi64(_mm256_loadu_si256((const __m256i *)(A + l)),
                                                                     _mm256_loadu_si256((const __m256i *)(B + l))));
    } else {
        for (int l = 0; l < WS_WARP_SIZE; l += 4)
            _mm256_storeu_si256((__m256i *)(D + l), _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(A + l)),
                                                                     _mm256_loadu_si256((const __m256i *)(B + l))));
    }
}

/* mul/mad .lo/.wide of 32 bits, a full warp (exec_int.c's mul_lo_lanes for bits 32):
   the product of the lanes' low words is exact in 64 bits, signed (sign-extended
   operands) or unsigned; mad.lo (lo) adds the low words of it and of C, mad.wide all of
   both. */
__attribute__((target("avx2"))) static void mul32_avx2(uint64_t *D, const uint64_t *A, const uint64_t *B,
                                                     const uint64_t *C, bool sg, bool lo) {
    const __m256i low = _mm256_set1_epi64x(0xFFFFFFFFll);
    for (int l = 0; l < WS_WARP_SIZE; l += 4) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(A + l)), b = _mm256_loadu_si256((const __m256i *)(B + l));
        __m256i p = sg && !lo ? _mm256_mul_epi32(a, b) : _mm256_mul_epu32(a, b);
        if (C) {
            __m256i c = _mm256_loadu_si256((const __m256i *)(C + l));
            p = lo ? _mm256_add_epi64(_mm256_and_si256(p, low), _mm256_and_si256(c, low)) : _mm256_add_epi64(p, c);
        }
        _mm256_storeu_si256((__m256i *)(D + l), p);
    }
}

/* D = A + v in every 64-bit lane (exec_int.c's immediate add/sub) */
__attribute__((target("avx2"))) static void addimm_avx2(uint64_t *D, const uint64_t *A, uint64_t v) {
    const __m256i vv = _mm256_set1_epi64x((long long)v);
    for (int l = 0; l < WS_WARP_SIZE; l += 4)
        _mm256_storeu_si256((__m256i *)(D + l), _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(A + l)), vv));
}
#endif

bool ws_simd_addimm_full(uint64_t *D, const uint64_t *A, uint64_t v) {
#ifdef WS_SIMD_X86
    if (__builtin_cpu_supports("avx2")) {
        addimm_avx2(D, A, v);
        return true;
    }
#endif
    (void)D, (void)A, (void)v;
    return false;
}

bool ws_simd_mul32_full(uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C, bool sg,
                        bool lo) {
#ifdef WS_SIMD_X86
    if (__builtin_cpu_supports("avx2")) {
        mul32_avx2(D, A, B, C, sg, lo);
        return true;
    }
#endif
    (void)D, (void)A, (void)B, (void)C, (void)sg, (void)lo;
    return false;
}

bool ws_simd_addsub_full(uint64_t *D, const uint64_t *A, const uint64_t *B, bool sub) {
#ifdef WS_SIMD_X86
    if (__builtin_cpu_supports("avx2")) {
        addsub_avx2(D, A, B, sub);
        return true;
    }
#endif
    (void)D, (void)A, (void)B, (void)sub;
    return false;
}

bool ws_simd_load32_full(uint64_t *D, uintptr_t hb, const uint64_t *ad) {
#ifdef WS_SIMD_X86
    if (__builtin_cpu_supports("avx2")) {
        load32_avx2(D, hb, ad);
        return true;
    }
#endif
    (void)D, (void)hb, (void)ad;
    return false;
}

bool ws_simd_store32_seq(uint8_t *p, const uint64_t *a, const uint64_t *v) {
#ifdef WS_SIMD_X86
    if (__builtin_cpu_supports("avx2")) return store32_seq_avx2(p, a, v);
#endif
    (void)p, (void)a, (void)v;
    return false;
}

int ws_simd_addrs64_full(const uint64_t *b, uint64_t off, uint64_t *ad, uint64_t lo, uint64_t last,
                         uint32_t size) {
#ifdef WS_SIMD_X86
    if (__builtin_cpu_supports("avx2")) return addrs64_avx2(b, off, ad, lo, last, size);
#endif
    (void)b, (void)off, (void)ad, (void)lo, (void)last, (void)size;
    return -1;
}

int ws_simd_addrs32_full(const uint64_t *b, uint32_t off, uint64_t *ad, uint32_t last, uint32_t size) {
#ifdef WS_SIMD_X86
    if (__builtin_cpu_supports("avx2")) return addrs32_avx2(b, off, ad, last, size);
#endif
    (void)b, (void)off, (void)ad, (void)last, (void)size;
    return -1;
}

bool ws_simd_cmp32_full(ws_simd_cmp op, bool sgn, const uint64_t *A, const uint64_t *B, uint32_t *r) {
#ifdef WS_SIMD_X86
    if (__builtin_cpu_supports("avx2")) {
        *r = cmp32_avx2(op, sgn, A, B);
        return true;
    }
#endif
    (void)op, (void)sgn, (void)A, (void)B, (void)r;
    return false;
}

bool ws_simd_f32_full(ws_simd_op op, uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C) {
#ifdef WS_SIMD_X86
    if (!have_avx2_fma()) return false;
    f32_avx2(op, D, A, B, C);
    return true;
#else
    (void)op, (void)D, (void)A, (void)B, (void)C;
    return false;
#endif
}
