/* Data movement, conversion and comparison: mov (incl. vector pack/unpack),
 * cvt between all integer/float/f16/bf16 types, setp/set/selp/slct, cvta,
 * isspacep. Float->int cvt saturates as PTX defines (NaN -> 0, clamp to the
 * destination range); f16/bf16 rounding is exact for every mode. */
#include <fenv.h>
#include <math.h>

#include "exec/exec_internal.h"

/* ---- small floats ------------------------------------------------------------ */
double ws_f16_to_double(uint16_t h) {
    int s = h >> 15, e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v;
    if (e == 0) v = ldexp(m, -24);
    else if (e == 31) v = m ? NAN : INFINITY;
    else v = ldexp(1024 + m, e - 25);
    return s ? -v : v;
}

double ws_bf16_to_double(uint16_t h) { return (double)ws_f32((uint64_t)h << 16); }

uint32_t ws_round_small(double x, int ebits, int mbits, int rnd) {
    uint32_t sign = signbit(x) ? 1u << (ebits + mbits) : 0;
    uint32_t expmax = (1u << ebits) - 1;
    if (isnan(x)) return (expmax << mbits) | ((1u << mbits) - 1); /* canonical NaN 0x7fff */
    uint32_t maxfin = ((expmax - 1) << mbits) | ((1u << mbits) - 1), inf = expmax << mbits;
    bool neg = sign != 0;
    double a = fabs(x);
    if (isinf(a)) return sign | inf;
    if (a == 0) return sign;
    int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias, e;
    frexp(a, &e);
    int ex = e - 1;
    if (ex < emin) ex = emin;
    /* At or above 2^(bias+1) every mode overflows. Decide it here: scaling
       such a value to the significand and casting it to an integer would be
       out of range (undefined; it gave 0 for 1e30). */
    bool overflow = ex > bias;
    double s = overflow ? 0 : ldexp(a, mbits - ex), ip = floor(s), fr = s - ip;
    uint64_t q = (uint64_t)ip; /* s < 2^(mbits+1): in range */
    bool up;
    switch (rnd) {
    case WS_RND_RZ: case WS_RND_RZI: up = false; break;
    case WS_RND_RM: case WS_RND_RMI: up = neg && fr > 0; break;
    case WS_RND_RP: case WS_RND_RPI: up = !neg && fr > 0; break;
    case WS_RND_RNA: up = fr >= 0.5; break;
    default: up = fr > 0.5 || (fr == 0.5 && (q & 1)); break;
    }
    q += up;
    if (q >> (mbits + 1)) { q >>= 1; ex++; }
    uint32_t biased = 0;
    if (q >= (1ull << mbits)) { biased = (uint32_t)(ex + bias); q -= 1ull << mbits; }
    if (overflow || biased >= expmax || q >> mbits) {
        switch (rnd) {
        case WS_RND_RZ: case WS_RND_RZI: return sign | maxfin;
        case WS_RND_RM: case WS_RND_RMI: return sign | (neg ? inf : maxfin);
        case WS_RND_RP: case WS_RND_RPI: return sign | (neg ? maxfin : inf);
        default: return sign | inf;
        }
    }
    return sign | biased << mbits | (uint32_t)q;
}

uint16_t ws_double_to_f16(double x, int rnd) { return (uint16_t)ws_round_small(x, 5, 10, rnd); }
uint16_t ws_double_to_bf16(double x, int rnd) { return (uint16_t)ws_round_small(x, 8, 7, rnd); }

static bool is_half(ws_type t) { return t == WS_T_F16 || t == WS_T_BF16; }
static bool is_intlike(ws_type t) { return !ws_type_is_float(t) && t != WS_T_PRED && t != WS_T_NONE && t != WS_T_B128; }

/* Value of a float-typed register as a double (exact). */
static double fval(ws_type t, uint64_t v) {
    switch (t) {
    case WS_T_F16: return ws_f16_to_double((uint16_t)v);
    case WS_T_BF16: return ws_bf16_to_double((uint16_t)v);
    case WS_T_F32: return ws_f32(v);
    default: return ws_f64(v);
    }
}

static int fe_mode(unsigned rnd) {
    switch (rnd) {
    case WS_RND_RZ: return FE_TOWARDZERO;
    case WS_RND_RM: return FE_DOWNWARD;
    case WS_RND_RP: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

static double round_integral(double v, unsigned rnd) {
    switch (rnd) {
    case WS_RND_RNI: return nearbyint(v); /* ties to even in the default mode */
    case WS_RND_RMI: return floor(v);
    case WS_RND_RPI: return ceil(v);
    default: return trunc(v);
    }
}

/* Encode a double as float type t with rounding mode rnd (an exact double
 * from an integer or wider float). */
static uint64_t fenc(ws_type t, double v, unsigned rnd, bool ftz) {
    switch (t) {
    case WS_T_F16: {
        uint16_t h = ws_double_to_f16(v, rnd ? (int)rnd : WS_RND_RN);
        if (ftz && !((h >> 10) & 0x1F)) h &= 0x8000;
        return h;
    }
    case WS_T_BF16: {
        uint16_t h = ws_double_to_bf16(v, rnd ? (int)rnd : WS_RND_RN);
        if (ftz && !((h >> 7) & 0xFF)) h &= 0x8000;
        return h;
    }
    case WS_T_F32: {
        int m = fe_mode(rnd);
        if (m != FE_TONEAREST) fesetround(m);
        volatile double vv = v;
        volatile float f = (float)vv;
        if (m != FE_TONEAREST) fesetround(FE_TONEAREST);
        float r = f;
        if (ftz && fpclassify(r) == FP_SUBNORMAL) r = copysignf(0.0f, r);
        return r == r ? ws_f32b(r) : 0x7FFFFFFFu;
    }
    default: {
        if (ftz && fpclassify(v) == FP_SUBNORMAL) v = copysign(0.0, v);
        return ws_f64b(v);
    }
    }
}

static ws_status exec_cvt(ws_xctx *x, const uint64_t *A, const uint64_t *B, uint64_t *D) {
    const ws_inst *in = x->in;
    ws_type dt = (ws_type)in->type, st = (ws_type)in->stype;
    if (!st) st = dt;
    unsigned db = ws_type_size(dt) * 8, sb = ws_type_size(st) * 8;
    bool dsg = ws_type_is_signed(dt), ssg = ws_type_is_signed(st);
    bool sat = in->flags & WS_F_SAT, ftz = in->flags & WS_F_FTZ, relu = in->flags & WS_F_RELU;
    unsigned rnd = in->rnd;
    uint32_t M = x->mask;
    if (dt == WS_T_F16X2 || dt == WS_T_BF16X2) { /* pack two converted floats: d = {a -> hi, b -> lo} */
        if (!B || !ws_type_is_float(st)) return ws_unsupported(x, "cvt to a packed type needs two float sources");
        ws_type et = dt == WS_T_F16X2 ? WS_T_F16 : WS_T_BF16;
        WS_FOR_LANES(l, M) {
            double a = fval(st, A[l]), b = fval(st, B[l]);
            if (relu) { if (a < 0) a = 0; if (b < 0) b = 0; }
            if (sat) { a = isnan(a) ? 0 : fmin(fmax(a, 0), 1); b = isnan(b) ? 0 : fmin(fmax(b, 0), 1); }
            D[l] = fenc(et, a, rnd, ftz) << 16 | fenc(et, b, rnd, ftz);
        }
        return WS_OK;
    }
    if (db == 0 || sb == 0 || db > 64 || sb > 64 || dt == WS_T_F16X2 || st == WS_T_F16X2 || st == WS_T_BF16X2)
        return ws_unsupported(x, "conversion between these types");
    bool dfl = ws_type_is_float(dt), sfl = ws_type_is_float(st);
    if (!dfl && !sfl) { /* integer -> integer */
        int64_t lo = dsg ? (db == 64 ? INT64_MIN : -(1ll << (db - 1))) : 0;
        uint64_t hi = dsg ? (db == 64 ? (uint64_t)INT64_MAX : (1ull << (db - 1)) - 1)
                          : (db == 64 ? ~0ull : (1ull << db) - 1);
        WS_FOR_LANES(l, M) {
            uint64_t v = ws_ext(A[l], sb, ssg);
            if (sat) {
                if (ssg && (int64_t)v < lo) v = (uint64_t)lo;
                else if (ssg ? ((int64_t)v >= 0 && (uint64_t)v > hi) : v > hi) v = hi;
            }
            D[l] = v;
        }
        return WS_OK;
    }
    if (!dfl) { /* float -> integer: round, NaN -> 0, saturate */
        double lo = dsg ? -ldexp(1.0, (int)db - 1) : 0.0, hi = dsg ? ldexp(1.0, (int)db - 1) : ldexp(1.0, (int)db);
        WS_FOR_LANES(l, M) {
            double v = fval(st, A[l]);
            if (ftz && st == WS_T_F32 && fpclassify((float)v) == FP_SUBNORMAL) v = 0;
            v = round_integral(v, rnd);
            uint64_t r;
            if (isnan(v)) r = 0;
            else if (dsg) r = v <= lo ? (uint64_t)(db == 64 ? INT64_MIN : -(1ll << (db - 1)))
                            : v >= hi ? (db == 64 ? (uint64_t)INT64_MAX : (1ull << (db - 1)) - 1)
                            : (uint64_t)(int64_t)v;
            else r = v <= 0 ? 0 : v >= hi ? (db == 64 ? ~0ull : (1ull << db) - 1) : (uint64_t)v;
            D[l] = r;
        }
        return WS_OK;
    }
    if (!sfl) { /* integer -> float */
        int m = fe_mode(rnd);
        WS_FOR_LANES(l, M) {
            uint64_t v = ws_ext(A[l], sb, ssg);
            uint64_t r;
            if (dt == WS_T_F32 || dt == WS_T_F64) {
                if (m != FE_TONEAREST) fesetround(m);
                volatile uint64_t vu = v;
                volatile int64_t vs = (int64_t)v;
                if (dt == WS_T_F32) {
                    volatile float f = ssg ? (float)vs : (float)vu;
                    float ff = f;
                    if (sat) ff = ff < 0 ? 0.0f : ff > 1 ? 1.0f : ff;
                    r = ws_f32b(ff);
                } else {
                    volatile double d = ssg ? (double)vs : (double)vu;
                    double dd = d;
                    if (sat) dd = dd < 0 ? 0.0 : dd > 1 ? 1.0 : dd;
                    r = ws_f64b(dd);
                }
                if (m != FE_TONEAREST) fesetround(FE_TONEAREST);
            } else {
                double d = ssg ? (double)(int64_t)v : (double)v; /* exact below 2^53 */
                if (sat) d = d < 0 ? 0.0 : d > 1 ? 1.0 : d;
                r = fenc(dt, d, rnd, false);
            }
            D[l] = r;
        }
        return WS_OK;
    }
    /* float -> float */
    bool integral = rnd == WS_RND_RNI || rnd == WS_RND_RZI || rnd == WS_RND_RMI || rnd == WS_RND_RPI;
    WS_FOR_LANES(l, M) {
        double v = fval(st, A[l]);
        if (ftz && (st == WS_T_F32 || st == WS_T_F64) && fpclassify(st == WS_T_F32 ? (float)v : v) == FP_SUBNORMAL)
            v = copysign(0.0, v);
        if (integral) v = round_integral(v, rnd);
        if (relu && !isnan(v) && v < 0) v = 0;
        if (sat) v = isnan(v) ? 0.0 : v < 0 ? 0.0 : v > 1 ? 1.0 : v;
        if (isnan(v)) {
            D[l] = dt == WS_T_F32 ? 0x7FFFFFFFu : dt == WS_T_F64 ? 0x7FFFFFFFFFFFFFFFull : 0x7FFF;
            continue;
        }
        D[l] = fenc(dt, v, integral ? WS_RND_RN : rnd, ftz);
    }
    return WS_OK;
}

/* ---- comparisons ----------------------------------------------------------------- */
static inline __attribute__((always_inline)) uint32_t compare(ws_xctx *x, ws_type t, unsigned cmp, const uint64_t *A,
                                                              const uint64_t *B, bool *ok) {
    uint32_t r = 0, M = x->mask;
    *ok = true;
    if (ws_type_is_float(t)) {
        if (t == WS_T_F16X2 || t == WS_T_BF16X2) { *ok = false; return 0; }
        bool ftz = x->in->flags & WS_F_FTZ;
        WS_FOR_LANES(l, M) {
            double a = fval(t, A[l]), b = fval(t, B[l]);
            if (ftz && t == WS_T_F32) {
                if (fpclassify((float)a) == FP_SUBNORMAL) a = copysign(0.0, a);
                if (fpclassify((float)b) == FP_SUBNORMAL) b = copysign(0.0, b);
            }
            bool un = isnan(a) || isnan(b), v;
            switch (cmp) {
            case WS_CMP_EQ: v = !un && a == b; break;
            case WS_CMP_NE: v = !un && a != b; break;
            case WS_CMP_LT: case WS_CMP_LO: v = !un && a < b; break;
            case WS_CMP_LE: case WS_CMP_LS: v = !un && a <= b; break;
            case WS_CMP_GT: case WS_CMP_HI: v = !un && a > b; break;
            case WS_CMP_GE: case WS_CMP_HS: v = !un && a >= b; break;
            case WS_CMP_EQU: v = un || a == b; break;
            case WS_CMP_NEU: v = un || a != b; break;
            case WS_CMP_LTU: v = un || a < b; break;
            case WS_CMP_LEU: v = un || a <= b; break;
            case WS_CMP_GTU: v = un || a > b; break;
            case WS_CMP_GEU: v = un || a >= b; break;
            case WS_CMP_NUM: v = !un; break;
            case WS_CMP_NAN: v = un; break;
            default: *ok = false; return 0;
            }
            r |= (uint32_t)v << l;
        }
        return r;
    }
    unsigned bits = ws_type_size(t) * 8;
    if (bits == 0 || bits > 64) { *ok = false; return 0; }
    bool sg = ws_type_is_signed(t);
    /* One lane loop per comparison (the switch hoisted out of it); signed
     * orderings compare the sign-extended values, the rest the zero-extended. */
#define CMP_BODY(S, E, N)                                                                \
    {                                                                                    \
        uint64_t a = ws_ext(A[l], N, S), b = ws_ext(B[l], N, S);                         \
        r |= (uint32_t)(E) << l;                                                         \
    }
#define CMP_LANES(S, E, N) WS_FOR_MASK(l, M, CMP_BODY(S, E, N));
    /* 32-bit operands (the common case) with the width a constant. */
#define CMP_LOOP(S, E)                                                                   \
    if (bits == 32) { CMP_LANES(S, E, 32) } else { CMP_LANES(S, E, bits) }               \
    break
    switch (cmp) {
    case WS_CMP_EQ: CMP_LOOP(false, a == b);
    case WS_CMP_NE: CMP_LOOP(false, a != b);
    case WS_CMP_LT: if (sg) { CMP_LOOP(true, (int64_t)a < (int64_t)b); } else { CMP_LOOP(false, a < b); }
    case WS_CMP_LE: if (sg) { CMP_LOOP(true, (int64_t)a <= (int64_t)b); } else { CMP_LOOP(false, a <= b); }
    case WS_CMP_GT: if (sg) { CMP_LOOP(true, (int64_t)a > (int64_t)b); } else { CMP_LOOP(false, a > b); }
    case WS_CMP_GE: if (sg) { CMP_LOOP(true, (int64_t)a >= (int64_t)b); } else { CMP_LOOP(false, a >= b); }
    case WS_CMP_LO: CMP_LOOP(sg, a < b);
    case WS_CMP_LS: CMP_LOOP(sg, a <= b);
    case WS_CMP_HI: CMP_LOOP(sg, a > b);
    case WS_CMP_HS: CMP_LOOP(sg, a >= b);
    default: *ok = false; return 0;
    }
#undef CMP_LOOP
#undef CMP_LANES
#undef CMP_BODY
    return r;
}

static uint32_t boolop(unsigned op, uint32_t v, uint32_t c) {
    switch (op) {
    case WS_BOOL_AND: return v & c;
    case WS_BOOL_OR: return v | c;
    case WS_BOOL_XOR: return v ^ c;
    default: return v;
    }
}

/* Is a generic address inside the window of space s? */
static bool in_space(uint64_t a, unsigned s) {
    switch (s) {
    case WS_SPACE_SHARED: return a - WS_GENERIC_SHARED_BASE < WS_GENERIC_WINDOW_SIZE;
    case WS_SPACE_LOCAL: return a - WS_GENERIC_LOCAL_BASE < WS_GENERIC_WINDOW_SIZE;
    case WS_SPACE_CONST: return a - WS_GENERIC_CONST_BASE < WS_GENERIC_WINDOW_SIZE;
    case WS_SPACE_PARAM: return a - WS_GENERIC_PARAM_BASE < WS_GENERIC_WINDOW_SIZE;
    case WS_SPACE_GLOBAL:
        return !in_space(a, WS_SPACE_SHARED) && !in_space(a, WS_SPACE_LOCAL) && !in_space(a, WS_SPACE_CONST) &&
               !in_space(a, WS_SPACE_PARAM);
    default: return false;
    }
}

static uint64_t window(unsigned s) {
    switch (s) {
    case WS_SPACE_SHARED: return WS_GENERIC_SHARED_BASE;
    case WS_SPACE_LOCAL: return WS_GENERIC_LOCAL_BASE;
    case WS_SPACE_CONST: return WS_GENERIC_CONST_BASE;
    case WS_SPACE_PARAM: return WS_GENERIC_PARAM_BASE;
    default: return 0;
    }
}

/* cvt.{rna,rn,rz}[.satfinite].tf32.f32: an f32 rounded to tf32's 10
 * mantissa bits, kept as an f32 bit pattern with the low 13 bits zero. A NaN
 * gives the canonical NaN; .satfinite turns an overflow to infinity into the
 * largest finite tf32 of the same sign. */
uint32_t ws_f32_to_tf32(uint32_t u, int rnd, bool satfinite) {
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0x7FFFFFFFu;
    bool inf_in = (u & 0x7FFFFFFFu) == 0x7F800000u;
    if (rnd == WS_RND_RN) u += 0xFFFu + (u >> 13 & 1);
    else if (rnd != WS_RND_RZ) u += 0x1000u; /* .rna: half away from zero */
    u &= 0xFFFFE000u;
    if (satfinite && !inf_in && (u & 0x7FFFFFFFu) == 0x7F800000u) u = (u & 0x80000000u) | 0x7F7FE000u;
    return u;
}

__attribute__((noinline)) static ws_status exec_cvt_tf32(ws_xctx *x, const uint64_t *A, uint64_t *D) {
    const ws_inst *in = x->in;
    if (in->stype != WS_T_F32) return ws_unsupported(x, "cvt to tf32 from a type other than f32");
    bool sat = in->flags & WS_F_SAT;
    WS_FOR_LANES(l, x->mask) D[l] = ws_f32_to_tf32((uint32_t)A[l], in->rnd, sat);
    return WS_OK;
}


/* set / setp on .f16x2 / .bf16x2: the halves compared one by one; setp's p
   gets the low half's result and q the high one's; set's d each half all
   ones (integer d) or 1.0 (packed-half d). Out of line: rare. */
static __attribute__((noinline)) ws_status set_packed_half(ws_xctx *x, ws_type ct, const uint64_t *A,
                                                           const uint64_t *B, uint32_t c) {
    const ws_inst *in = x->in;
    ws_type t = (ws_type)in->type, h = ct == WS_T_F16X2 ? WS_T_F16 : WS_T_BF16;
    uint32_t M = x->mask;
    bool ok;
    uint64_t al[WS_WARP_SIZE], bl[WS_WARP_SIZE], ah[WS_WARP_SIZE], bh[WS_WARP_SIZE];
    WS_FOR_LANES(l, M) al[l] = A[l] & 0xFFFF, bl[l] = B[l] & 0xFFFF, ah[l] = A[l] >> 16 & 0xFFFF,
        bh[l] = B[l] >> 16 & 0xFFFF;
    uint32_t lo = boolop(in->boolop, compare(x, h, in->cmp, al, bl, &ok), c);
    uint32_t hi = boolop(in->boolop, compare(x, h, in->cmp, ah, bh, &ok), c);
    if (in->op == WS_OP_SETP) {
        ws_pred_write(x, &in->dst[0], lo);
        if (in->ndst > 1) ws_pred_write(x, &in->dst[1], hi);
        return WS_OK;
    }
    uint64_t one = t == WS_T_F16X2 ? 0x3C00 : t == WS_T_BF16X2 ? 0x3F80 : 0xFFFF, *D = ws_dst(x, &in->dst[0]);
    WS_FOR_MASK(l, M, D[l] = ((lo >> l & 1) ? one : 0) | ((hi >> l & 1) ? one << 16 : 0));
    return WS_OK;
}

/* setp of an integer type (1 to 64 bits) with an integer comparison and no boolean
   op, on a register and a register or immediate, into predicates (WS_FK_SETP_INT):
   ws_exec_conv's comparison and writes for it (no boolean op: no third source is read,
   and the result is the comparison). */
bool ws_setp_int_form(const ws_inst *in) {
    ws_type ct = in->stype ? (ws_type)in->stype : (ws_type)in->type;
    unsigned bits = ws_type_size(ct) * 8;
    return in->op == WS_OP_SETP && !ws_type_is_float(ct) && ct != WS_T_PRED && bits && bits <= 64 &&
           in->boolop == WS_BOOL_NONE && in->nsrc >= 2 && in->src[0].kind == WS_OPND_REG &&
           (in->src[1].kind == WS_OPND_REG || in->src[1].kind == WS_OPND_IMM) &&
           (in->cmp == WS_CMP_EQ || in->cmp == WS_CMP_NE || in->cmp == WS_CMP_LT ||
            in->cmp == WS_CMP_LE || in->cmp == WS_CMP_GT || in->cmp == WS_CMP_GE ||
            in->cmp == WS_CMP_LO || in->cmp == WS_CMP_LS || in->cmp == WS_CMP_HI ||
            in->cmp == WS_CMP_HS);
}
void ws_exec_setp_int(ws_xctx *x) {
    const ws_inst *in = x->in;
    uint64_t tb[WS_WARP_SIZE];
    bool ok;
    ws_type t = in->stype ? (ws_type)in->stype : (ws_type)in->type;
    const uint64_t *A = ws_reg(x->w, in->src[0].reg), *B = ws_src(x, &in->src[1], tb);
    uint32_t v;
    /* 32-bit operands: compare's result from the vector kernel (LO..HS are the unsigned
       orders of LT..GE whatever the type: sign extension keeps that order), which compares
       every lane (a register's and an immediate's 32 are all written) and keeps the mask's */
    static const uint8_t op_of[] = {[WS_CMP_EQ] = WS_SIMD_EQ, [WS_CMP_NE] = WS_SIMD_NE,
                                    [WS_CMP_LT] = WS_SIMD_LT, [WS_CMP_LE] = WS_SIMD_LE,
                                    [WS_CMP_GT] = WS_SIMD_GT, [WS_CMP_GE] = WS_SIMD_GE,
                                    [WS_CMP_LO] = WS_SIMD_LT, [WS_CMP_LS] = WS_SIMD_LE,
                                    [WS_CMP_HI] = WS_SIMD_GT, [WS_CMP_HS] = WS_SIMD_GE};
    if (ws_type_size(t) == 4 &&
        ws_simd_cmp32_full((ws_simd_cmp)op_of[in->cmp], ws_type_is_signed(t) && in->cmp <= WS_CMP_GE, A,
                           B, &v))
        v &= x->mask;
    else
        v = compare(x, t, in->cmp, A, B, &ok);
    ws_pred_write(x, &in->dst[0], v);
    if (in->ndst > 1) ws_pred_write(x, &in->dst[1], ~v);
}

/* mov of a special register (%tid.x, %ctaid.x, ...) into a register (WS_FK_MOV_SREG):
   ws_exec_conv's fill straight into the destination, without its decoding. */
bool ws_mov_sreg_form(const ws_inst *in) {
    return in->op == WS_OP_MOV && in->nsrc >= 1 && in->type != WS_T_PRED &&
           in->src[0].kind == WS_OPND_SREG && in->dst[0].kind == WS_OPND_REG &&
           in->dst[0].reg != WS_NOREG;
}
void ws_exec_mov_sreg(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_src(x, &in->src[0], ws_reg(x->w, in->dst[0].reg));
}

ws_status ws_exec_conv(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    ws_type t = (ws_type)in->type;
    uint32_t M = x->mask;
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE];
    switch ((ws_opcode)in->op) {
    case WS_OP_MOV: {
        const ws_operand *s = &in->src[0], *d = &in->dst[0];
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        if (t == WS_T_PRED || d->kind == WS_OPND_PRED) {
            ws_pred_write(x, d, ws_pred_src(x, s));
            return WS_OK;
        }
        if (s->kind == WS_OPND_VEC) { /* pack {a, b, ...} into one register */
            unsigned eb = ws_type_size(t) * 8 / (s->vecn ? s->vecn : 1);
            if (eb == 0 || ws_type_size(t) > 8 || s->vecn > 4) return ws_unsupported(x, "vector pack");
            uint64_t *D = ws_dst(x, d), em = eb >= 64 ? ~0ull : (1ull << eb) - 1;
            WS_FOR_LANES(l, M) {
                uint64_t v = 0;
                for (unsigned k = 0; k < s->vecn; k++)
                    if (ws_vec_is_imm(s, k)) v |= (ws_vec_imm(s, k) & em) << (k * eb);
                    else if (s->vreg[k] != WS_NOREG) v |= (ws_reg(w, s->vreg[k])[l] & em) << (k * eb);
                D[l] = v;
            }
            return WS_OK;
        }
        if (s->kind == WS_OPND_SREG && d->kind != WS_OPND_VEC) {
            /* a special register (%tid.x, %ctaid.x, ...) filled straight into the destination:
               ws_src writes only the active lanes of its buffer and never reads it */
            ws_src(x, s, ws_dst(x, d));
            return WS_OK;
        }
        const uint64_t *A = ws_src(x, s, ta);
        if (!A) return ws_unsupported(x, "operand kind");
        if (d->kind == WS_OPND_VEC) { /* unpack */
            unsigned eb = ws_type_size(t) * 8 / (d->vecn ? d->vecn : 1);
            if (eb == 0 || ws_type_size(t) > 8 || d->vecn > 4) return ws_unsupported(x, "vector unpack");
            uint64_t em = eb >= 64 ? ~0ull : (1ull << eb) - 1;
            uint64_t src[WS_WARP_SIZE];
            memcpy(src, A, sizeof src); /* a destination may alias the source */
            for (unsigned k = 0; k < d->vecn; k++) {
                if (d->vreg[k] == WS_NOREG) continue;
                uint64_t *D = ws_reg(w, d->vreg[k]);
                WS_FOR_MASK(l, M, D[l] = (src[l] >> (k * eb)) & em);
            }
            return WS_OK;
        }
        uint64_t *D = ws_dst(x, d);
        if (M == ~0u && D != A) memcpy(D, A, WS_WARP_SIZE * sizeof *D); /* distinct slots never overlap */
        else if (D != A) WS_FOR_MASK(l, M, D[l] = A[l]);
        return WS_OK;
    }
    case WS_OP_CVT: {
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        const uint64_t *A = ws_src(x, &in->src[0], ta);
        const uint64_t *B = in->nsrc > 1 ? ws_src(x, &in->src[1], tb) : NULL;
        if (!A) return ws_unsupported(x, "operand kind");
        if (in->sub == WS_CVT_TF32) return exec_cvt_tf32(x, A, ws_dst(x, &in->dst[0]));
        return exec_cvt(x, A, B, ws_dst(x, &in->dst[0]));
    }
    case WS_OP_SETP: case WS_OP_SET: {
        ws_type ct = in->stype ? (ws_type)in->stype : t;
        if (in->op == WS_OP_SETP) ct = in->stype ? (ws_type)in->stype : t;
        if (in->nsrc < 2) return ws_unsupported(x, "missing operand");
        const uint64_t *A = ws_src(x, &in->src[0], ta), *B = ws_src(x, &in->src[1], tb);
        if (!A || !B) return ws_unsupported(x, "operand kind");
        bool ok;
        uint32_t c = in->boolop && in->nsrc > 2 ? ws_pred_src(x, &in->src[2]) : ~0u;
        if (ct == WS_T_F16X2 || ct == WS_T_BF16X2) return set_packed_half(x, ct, A, B, c);
        uint32_t v = compare(x, ct, in->cmp, A, B, &ok);
        if (!ok) return ws_unsupported(x, "comparison for this type");
        if (in->op == WS_OP_SETP) {
            ws_pred_write(x, &in->dst[0], boolop(in->boolop, v, c));
            if (in->ndst > 1) ws_pred_write(x, &in->dst[1], boolop(in->boolop, ~v, c));
            return WS_OK;
        }
        uint32_t r = boolop(in->boolop, v, c);
        uint64_t *D = ws_dst(x, &in->dst[0]);
        uint64_t one = t == WS_T_F32 ? 0x3F800000u : t == WS_T_F64 ? 0x3FF0000000000000ull
                       : t == WS_T_F16 ? 0x3C00 : ~0ull;
        if (in->dst[0].kind == WS_OPND_PRED) { ws_pred_write(x, &in->dst[0], r); return WS_OK; }
        WS_FOR_MASK(l, M, D[l] = (r >> l & 1) ? one : 0);
        return WS_OK;
    }
    case WS_OP_SELP: {
        if (in->nsrc < 3) return ws_unsupported(x, "missing operand");
        const uint64_t *A = ws_src(x, &in->src[0], ta), *B = ws_src(x, &in->src[1], tb);
        if (!A || !B) return ws_unsupported(x, "operand kind");
        uint32_t c = ws_pred_src(x, &in->src[2]);
        uint64_t *D = ws_dst(x, &in->dst[0]);
        WS_FOR_MASK(l, M, D[l] = (c >> l & 1) ? A[l] : B[l]);
        return WS_OK;
    }
    case WS_OP_SLCT: {
        if (in->nsrc < 3) return ws_unsupported(x, "missing operand");
        const uint64_t *A = ws_src(x, &in->src[0], ta), *B = ws_src(x, &in->src[1], tb),
                       *C = ws_src(x, &in->src[2], tc);
        if (!A || !B || !C) return ws_unsupported(x, "operand kind");
        ws_type ct = in->stype ? (ws_type)in->stype : WS_T_S32;
        uint64_t *D = ws_dst(x, &in->dst[0]);
        WS_FOR_LANES(l, M) {
            bool ge;
            if (ct == WS_T_F32) {
                float f = ws_f32(C[l]);
                if ((in->flags & WS_F_FTZ) && fpclassify(f) == FP_SUBNORMAL) f = 0;
                ge = f >= 0.0f;
            } else {
                ge = (int64_t)ws_ext(C[l], ws_type_size(ct) * 8, true) >= 0;
            }
            D[l] = ge ? A[l] : B[l];
        }
        return WS_OK;
    }
    case WS_OP_CVTA: {
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        const uint64_t *A = ws_src(x, &in->src[0], ta);
        if (!A) return ws_unsupported(x, "operand kind");
        uint64_t base = window(in->space), *D = ws_dst(x, &in->dst[0]);
        bool narrow = ws_type_size(t) == 4;
        uint64_t delta = in->to_generic ? base : 0 - base, keep = narrow ? 0xFFFFFFFFull : ~0ull;
        /* (a counted loop on a full warp: the per-lane branches decided once) */
        WS_FOR_MASK(l, M, D[l] = (A[l] + delta) & keep);
        return WS_OK;
    }
    case WS_OP_ISSPACEP: {
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        const uint64_t *A = ws_src(x, &in->src[0], ta);
        if (!A) return ws_unsupported(x, "operand kind");
        uint32_t p = 0;
        WS_FOR_LANES(l, M) if (in_space(A[l], in->space)) p |= 1u << l;
        ws_pred_write(x, &in->dst[0], p);
        return WS_OK;
    }
    default: break;
    }
    (void)is_half; (void)is_intlike;
    return ws_unsupported(x, NULL);
}
