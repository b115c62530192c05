/* Floating-point instructions: f32/f64 arithmetic with rounding modes, .ftz
 * and .sat; PTX min/max NaN rules; SFU ops; f16/bf16 (scalar and x2).
 *
 * Rounding modes other than .rn run the operation under fesetround with
 * volatile operands so the compiler cannot move or fold it across the mode
 * change. Approximate SFU ops (sin cos lg2 ex2 tanh, rsqrt, div.approx,
 * rcp.approx) use the correctly rounded (or libm, <= 1-2 ulp) result, which
 * is at least as accurate as the hardware's documented error bounds.
 * NaN results are the canonical NaN (f32 0x7fffffff, f16/bf16 0x7fff). */
#include <fenv.h>
#include <math.h>

#include "exec/exec_internal.h"

#define CANON_NAN32 0x7FFFFFFFull
#define CANON_NAN64 0x7FFFFFFFFFFFFFFFull

static int fe_mode(unsigned rnd) {
    switch (rnd) {
    case WS_RND_RZ: return FE_TOWARDZERO;
    case WS_RND_RM: return FE_DOWNWARD;
    case WS_RND_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static inline float ftz32(float f) { return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f; }
static inline double ftz64(double f) { return fpclassify(f) == FP_SUBNORMAL ? copysign(0.0, f) : f; }

/* PTX min/max: a NaN operand is ignored; -0 < +0. */
#define MINMAX_BODY(T, isnanf_, signbit_)                                               \
    if (isnanf_(a) || isnanf_(b)) {                                                      \
        if (propagate_nan || (isnanf_(a) && isnanf_(b))) return (T)NAN;                \
        return isnanf_(a) ? b : a;                                                      \
    }                                                                                    \
    if (a == b) return (is_max ? (signbit_(a) ? b : a) : (signbit_(a) ? a : b));       \
    return is_max ? (a > b ? a : b) : (a < b ? a : b);

static float minmax32(float a, float b, bool is_max, bool propagate_nan) { MINMAX_BODY(float, isnan, signbit) }
static double minmax64(double a, double b, bool is_max, bool propagate_nan) { MINMAX_BODY(double, isnan, signbit) }

static bool needs_third(unsigned op) { return op == WS_OP_FMA || op == WS_OP_MAD; }
static bool unary(unsigned op) {
    switch (op) {
    case WS_OP_ABS: case WS_OP_NEG: case WS_OP_RCP: case WS_OP_SQRT: case WS_OP_RSQRT: case WS_OP_SIN:
    case WS_OP_COS: case WS_OP_LG2: case WS_OP_EX2: case WS_OP_TANH: case WS_OP_TESTP: return true;
    default: return false;
    }
}

/* One lane of a generic f32 op. Returns false if op is not a float op. */
static bool f32_lane(unsigned op, uint16_t flags, float a, float b, float c, float *r) {
    volatile float va = a, vb = b, vc = c; /* keep ops inside the rounding-mode window */
    bool nanflag = flags & WS_F_NAN;
    switch (op) {
    case WS_OP_ADD: *r = va + vb; break;
    case WS_OP_SUB: *r = va - vb; break;
    case WS_OP_MUL: *r = va * vb; break;
    case WS_OP_FMA: case WS_OP_MAD: *r = fmaf(va, vb, vc); break;
    case WS_OP_DIV: *r = va / vb; break;
    case WS_OP_MIN: *r = minmax32(a, b, false, nanflag); break;
    case WS_OP_MAX: *r = minmax32(a, b, true, nanflag); break;
    case WS_OP_RCP: *r = 1.0f / va; break;
    case WS_OP_SQRT: *r = sqrtf(va); break;
    case WS_OP_RSQRT: *r = 1.0f / sqrtf(va); break;
    case WS_OP_SIN: *r = sinf(a); break;
    case WS_OP_COS: *r = cosf(a); break;
    case WS_OP_LG2: *r = log2f(a); break;
    case WS_OP_EX2: *r = exp2f(a); break;
    case WS_OP_TANH: *r = tanhf(a); break;
    case WS_OP_COPYSIGN: *r = copysignf(b, a); break;
    default: return false;
    }
    return true;
}

static bool f64_lane(unsigned op, uint16_t flags, double a, double b, double c, double *r) {
    volatile double va = a, vb = b, vc = c;
    bool nanflag = flags & WS_F_NAN;
    switch (op) {
    case WS_OP_ADD: *r = va + vb; break;
    case WS_OP_SUB: *r = va - vb; break;
    case WS_OP_MUL: *r = va * vb; break;
    case WS_OP_FMA: case WS_OP_MAD: *r = fma(va, vb, vc); break;
    case WS_OP_DIV: *r = va / vb; break;
    case WS_OP_MIN: *r = minmax64(a, b, false, nanflag); break;
    case WS_OP_MAX: *r = minmax64(a, b, true, nanflag); break;
    case WS_OP_RCP: *r = 1.0 / va; break;
    case WS_OP_SQRT: *r = sqrt(va); break;
    case WS_OP_RSQRT: *r = 1.0 / sqrt(va); break;
    case WS_OP_SIN: *r = sin(a); break;
    case WS_OP_COS: *r = cos(a); break;
    case WS_OP_LG2: *r = log2(a); break;
    case WS_OP_EX2: *r = exp2(a); break;
    case WS_OP_TANH: *r = tanh(a); break;
    case WS_OP_COPYSIGN: *r = copysign(b, a); break;
    default: return false;
    }
    return true;
}

static bool testp(unsigned sub, double v) {
    int k = fpclassify(v);
    switch (sub) {
    case WS_TESTP_FINITE: return isfinite(v);
    case WS_TESTP_INFINITE: return isinf(v);
    case WS_TESTP_NUMBER: return !isnan(v);
    case WS_TESTP_NOTANUMBER: return isnan(v);
    case WS_TESTP_NORMAL: return k == FP_NORMAL;
    case WS_TESTP_SUBNORMAL: return k == FP_SUBNORMAL;
    default: return false;
    }
}

/* ---- f16 / bf16 ---------------------------------------------------------------- */
static double half_dec(uint16_t h, bool bf) { return bf ? ws_bf16_to_double(h) : ws_f16_to_double(h); }

static bool half_lane(unsigned op, uint16_t flags, unsigned rnd, bool bf, uint16_t ha, uint16_t hb, uint16_t hc,
                      uint16_t *out) {
    double a = half_dec(ha, bf), b = half_dec(hb, bf), c = half_dec(hc, bf), r;
    bool ftz = flags & WS_F_FTZ;
    if (ftz) {
        double lim = bf ? ldexp(1.0, -126) : ldexp(1.0, -14);
        if (fabs(a) < lim) a = copysign(0.0, a);
        if (fabs(b) < lim) b = copysign(0.0, b);
        if (fabs(c) < lim) c = copysign(0.0, c);
    }
    switch (op) {
    case WS_OP_NEG: *out = ha ^ 0x8000; return true; /* sign-bit ops are exact */
    case WS_OP_ABS: *out = ha & 0x7FFF; return true;
    case WS_OP_ADD: r = a + b; break;  /* exact in double for 16-bit formats */
    case WS_OP_SUB: r = a - b; break;
    case WS_OP_MUL: r = a * b; break;
    case WS_OP_FMA: case WS_OP_MAD: r = fma(a, b, c); break;
    case WS_OP_MIN: r = minmax64(a, b, false, flags & WS_F_NAN); break;
    case WS_OP_MAX: r = minmax64(a, b, true, flags & WS_F_NAN); break;
    case WS_OP_EX2: r = exp2(a); break;
    case WS_OP_TANH: r = tanh(a); break;
    case WS_OP_RCP: r = 1.0 / a; break;
    case WS_OP_SQRT: r = sqrt(a); break;
    case WS_OP_RSQRT: r = 1.0 / sqrt(a); break;
    case WS_OP_SIN: r = sin(a); break;
    case WS_OP_COS: r = cos(a); break;
    case WS_OP_LG2: r = log2(a); break;
    default: return false;
    }
    if (flags & WS_F_SAT) r = isnan(r) ? 0.0 : r < 0 ? 0.0 : r > 1 ? 1.0 : r;
    if ((flags & WS_F_RELU) && !isnan(r) && r < 0) r = 0.0;
    int mode = rnd == WS_RND_NONE ? WS_RND_RN : (int)rnd;
    uint16_t h = bf ? ws_double_to_bf16(r, mode) : ws_double_to_f16(r, mode);
    if (ftz && (h & 0x7FFF) != 0 && ((h >> (bf ? 7 : 10)) & (bf ? 0xFF : 0x1F)) == 0) h &= 0x8000;
    *out = h;
    return true;
}

static ws_status exec_half(ws_xctx *x, const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D) {
    const ws_inst *in = x->in;
    ws_type t = (ws_type)in->type;
    bool bf = t == WS_T_BF16 || t == WS_T_BF16X2;
    int n = (t == WS_T_F16X2 || t == WS_T_BF16X2) ? 2 : 1;
    if (in->op == WS_OP_TESTP || in->op == WS_OP_COPYSIGN) return ws_unsupported(x, NULL);
    WS_FOR_LANES(l, x->mask) {
        uint64_t r = 0;
        for (int k = 0; k < n; k++) {
            uint16_t o;
            if (!half_lane(in->op, in->flags, in->rnd, bf, (uint16_t)(A[l] >> (16 * k)),
                           B ? (uint16_t)(B[l] >> (16 * k)) : 0, C ? (uint16_t)(C[l] >> (16 * k)) : 0, &o))
                return ws_unsupported(x, NULL);
            r |= (uint64_t)o << (16 * k);
        }
        D[l] = r;
    }
    return WS_OK;
}

/* The form's kernel and operand count (false: not such a form, whatever the mask). */
static inline bool f32_regs_form(const ws_inst *in, ws_simd_op *k, unsigned *need) {
    if (in->type != WS_T_F32 || (in->flags & (WS_F_FTZ | WS_F_SAT)) ||
        fe_mode(in->rnd) != FE_TONEAREST)
        return false;
    *need = 2;
    switch (in->op) {
    case WS_OP_ADD: *k = WS_SIMD_ADD; break;
    case WS_OP_SUB: *k = WS_SIMD_SUB; break;
    case WS_OP_MUL: *k = WS_SIMD_MUL; break;
    case WS_OP_DIV: *k = WS_SIMD_DIV; break;
    case WS_OP_FMA: case WS_OP_MAD: *k = WS_SIMD_FMA; *need = 3; break;
    default: return false;
    }
    return !(in->nsrc < *need || in->src[0].kind != WS_OPND_REG || in->src[1].kind != WS_OPND_REG ||
             (*need > 2 && in->src[2].kind != WS_OPND_REG) || in->dst[0].kind != WS_OPND_REG ||
             in->dst[0].reg == WS_NOREG);
}
/* add/sub/mul/div/fma/mad.f32 of a full warp, round to nearest, no ftz or sat, on
   register operands: the whole-warp kernel with the operands read as below (ws_src
   and ws_dst of a register are the register), without the general path's decoding
   of the form (~40 host instructions a call). False: not so, or no AVX2 kernel
   (nothing done). */
static inline bool f32_full_regs(ws_xctx *x, const ws_inst *in) {
    ws_simd_op k;
    unsigned need;
    if (x->mask != ~0u || !f32_regs_form(in, &k, &need)) return false;
    ws_warp *w = x->w;
    return ws_simd_f32_full(k, ws_reg(w, in->dst[0].reg), ws_reg(w, in->src[0].reg),
                            ws_reg(w, in->src[1].reg), need > 2 ? ws_reg(w, in->src[2].reg) : NULL);
}

/* WS_FK_F32: such a form (any mask), which ws_exec_float would run. */
bool ws_f32_form(const ws_inst *in) {
    ws_simd_op k;
    unsigned need;
    return f32_regs_form(in, &k, &need);
}
/* A full warp's kernel (f32_full_regs, the form known); otherwise (or without AVX2)
   the general path. */
ws_status ws_exec_f32(ws_xctx *x) {
    const ws_inst *in = x->in;
    if (x->mask == ~0u) {
        ws_simd_op k;
        switch (in->op) {
        case WS_OP_ADD: k = WS_SIMD_ADD; break;
        case WS_OP_SUB: k = WS_SIMD_SUB; break;
        case WS_OP_MUL: k = WS_SIMD_MUL; break;
        case WS_OP_DIV: k = WS_SIMD_DIV; break;
        default: k = WS_SIMD_FMA; break;
        }
        ws_warp *w = x->w;
        if (ws_simd_f32_full(k, ws_reg(w, in->dst[0].reg), ws_reg(w, in->src[0].reg),
                             ws_reg(w, in->src[1].reg),
                             k == WS_SIMD_FMA ? ws_reg(w, in->src[2].reg) : NULL))
            return WS_OK;
    }
    return ws_exec_float(x);
}

ws_status ws_exec_float(ws_xctx *x) {
    const ws_inst *in = x->in;
    if (f32_full_regs(x, in)) return WS_OK;
    ws_type t = (ws_type)in->type;
    unsigned op = in->op;
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE];
    unsigned need = unary(op) ? 1 : needs_third(op) ? 3 : 2;
    const uint64_t *A = in->nsrc > 0 ? ws_src(x, &in->src[0], ta) : NULL;
    const uint64_t *B = in->nsrc > 1 && need > 1 ? ws_src(x, &in->src[1], tb) : NULL;
    const uint64_t *C = in->nsrc > 2 && need > 2 ? ws_src(x, &in->src[2], tc) : NULL;
    if (!A || (need > 1 && !B) || (need > 2 && !C)) return ws_unsupported(x, "missing or unsupported operand");
    uint32_t M = x->mask;
    if (op == WS_OP_TESTP) {
        uint32_t p = 0;
        if (t != WS_T_F32 && t != WS_T_F64) return ws_unsupported(x, NULL);
        WS_FOR_LANES(l, M) {
            bool v = t == WS_T_F32 ? (in->sub == WS_TESTP_SUBNORMAL ? fpclassify(ws_f32(A[l])) == FP_SUBNORMAL
                                      : in->sub == WS_TESTP_NORMAL ? fpclassify(ws_f32(A[l])) == FP_NORMAL
                                                                   : testp(in->sub, ws_f32(A[l])))
                                   : testp(in->sub, ws_f64(A[l]));
            if (v) p |= 1u << l;
        }
        ws_pred_write(x, &in->dst[0], p);
        return WS_OK;
    }
    uint64_t *D = ws_dst(x, &in->dst[0]);
    if (t == WS_T_F16 || t == WS_T_F16X2 || t == WS_T_BF16 || t == WS_T_BF16X2) return exec_half(x, A, B, C, D);
    bool ftz = in->flags & WS_F_FTZ, sat = in->flags & WS_F_SAT;
    int mode = fe_mode(in->rnd);
    if (t == WS_T_F32) {
        /* Fast paths for the common forms. */
        if (!ftz && !sat && mode == FE_TONEAREST) {
            switch (op) {
            case WS_OP_ADD:
                if (M == ~0u && ws_simd_f32_full(WS_SIMD_ADD, D, A, B, NULL)) return WS_OK;
                WS_FOR_MASK(l, M, float r = ws_f32(A[l]) + ws_f32(B[l]); D[l] = r == r ? ws_f32b(r) : CANON_NAN32);
                return WS_OK;
            case WS_OP_SUB:
                if (M == ~0u && ws_simd_f32_full(WS_SIMD_SUB, D, A, B, NULL)) return WS_OK;
                WS_FOR_MASK(l, M, float r = ws_f32(A[l]) - ws_f32(B[l]); D[l] = r == r ? ws_f32b(r) : CANON_NAN32);
                return WS_OK;
            case WS_OP_MUL:
                if (M == ~0u && ws_simd_f32_full(WS_SIMD_MUL, D, A, B, NULL)) return WS_OK;
                WS_FOR_MASK(l, M, float r = ws_f32(A[l]) * ws_f32(B[l]); D[l] = r == r ? ws_f32b(r) : CANON_NAN32);
                return WS_OK;
            case WS_OP_DIV: /* as f32_lane: IEEE division whatever the precision qualifier */
                if (M == ~0u && ws_simd_f32_full(WS_SIMD_DIV, D, A, B, NULL)) return WS_OK;
                WS_FOR_MASK(l, M, float r = ws_f32(A[l]) / ws_f32(B[l]); D[l] = r == r ? ws_f32b(r) : CANON_NAN32);
                return WS_OK;
            case WS_OP_FMA: case WS_OP_MAD: /* (matmul's inner loop: a counted loop on a full warp) */
                if (M == ~0u && ws_simd_f32_full(WS_SIMD_FMA, D, A, B, C)) return WS_OK;
                WS_FOR_MASK(l, M, float r = fmaf(ws_f32(A[l]), ws_f32(B[l]), ws_f32(C[l]));
                            D[l] = r == r ? ws_f32b(r) : CANON_NAN32);
                return WS_OK;
            case WS_OP_NEG: WS_FOR_LANES(l, M) D[l] = (A[l] ^ 0x80000000u) & 0xFFFFFFFFu; return WS_OK;
            case WS_OP_ABS: WS_FOR_LANES(l, M) D[l] = A[l] & 0x7FFFFFFFu; return WS_OK;
            default: break;
            }
        }
        if (mode != FE_TONEAREST) fesetround(mode);
        WS_FOR_LANES(l, M) {
            float a = ws_f32(A[l]), b = B ? ws_f32(B[l]) : 0, c = C ? ws_f32(C[l]) : 0, r;
            if (ftz) { a = ftz32(a); b = ftz32(b); c = ftz32(c); }
            if (op == WS_OP_NEG) { D[l] = ws_f32b(a) ^ 0x80000000u; continue; }
            if (op == WS_OP_ABS) { D[l] = ws_f32b(a) & 0x7FFFFFFFu; continue; }
            if (!f32_lane(op, in->flags, a, b, c, &r)) {
                fesetround(FE_TONEAREST);
                return ws_unsupported(x, NULL);
            }
            if (sat) r = isnan(r) ? 0.0f : r < 0 ? 0.0f : r > 1 ? 1.0f : r;
            if (ftz) r = ftz32(r);
            D[l] = r == r ? ws_f32b(r) : CANON_NAN32;
        }
        if (mode != FE_TONEAREST) fesetround(FE_TONEAREST);
        return WS_OK;
    }
    if (t == WS_T_F64) {
        if (!ftz && !sat && mode == FE_TONEAREST) {
            switch (op) {
            case WS_OP_ADD: WS_FOR_LANES(l, M) D[l] = ws_f64b(ws_f64(A[l]) + ws_f64(B[l])); return WS_OK;
            case WS_OP_MUL: WS_FOR_LANES(l, M) D[l] = ws_f64b(ws_f64(A[l]) * ws_f64(B[l])); return WS_OK;
            case WS_OP_FMA: case WS_OP_MAD:
                WS_FOR_LANES(l, M) D[l] = ws_f64b(fma(ws_f64(A[l]), ws_f64(B[l]), ws_f64(C[l])));
                return WS_OK;
            default: break;
            }
        }
        if (mode != FE_TONEAREST) fesetround(mode);
        WS_FOR_LANES(l, M) {
            double a = ws_f64(A[l]), b = B ? ws_f64(B[l]) : 0, c = C ? ws_f64(C[l]) : 0, r;
            if (ftz) { a = ftz64(a); b = ftz64(b); c = ftz64(c); }
            if (op == WS_OP_NEG) { D[l] = ws_f64b(a) ^ 0x8000000000000000ull; continue; }
            if (op == WS_OP_ABS) { D[l] = ws_f64b(a) & 0x7FFFFFFFFFFFFFFFull; continue; }
            if (!f64_lane(op, in->flags, a, b, c, &r)) {
                fesetround(FE_TONEAREST);
                return ws_unsupported(x, NULL);
            }
            if (sat) r = isnan(r) ? 0.0 : r < 0 ? 0.0 : r > 1 ? 1.0 : r;
            if (ftz) r = ftz64(r);
            D[l] = r == r ? ws_f64b(r) : CANON_NAN64;
        }
        if (mode != FE_TONEAREST) fesetround(FE_TONEAREST);
        return WS_OK;
    }
    return ws_unsupported(x, "type not supported for this operation");
}
