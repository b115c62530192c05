/* Integer and bit-manipulation instructions (and logic on predicates).
 *
 * Values in registers are raw 64-bit patterns; each op reads its operands at
 * its own width (ws_ext) where the upper bits matter (div, min, shifts, ...),
 * and wrapping ops (add, mul.lo, and, ...) just compute in 64 bits.
 * Division by zero (undefined in PTX) is defined here as: quotient = all
 * ones, remainder = the dividend; INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0. */
#include "exec/exec_internal.h"
#include "util/bits.h"

/* add/sub of a full warp, four lanes at a time (GCC/Clang vector types; SSE2
 * on plain x86-64). A destination is either one of the sources or disjoint
 * from both (a register slot or a temporary), so each group reads its lanes
 * before writing them, as the lane loop does. */
typedef uint64_t u64x4 __attribute__((vector_size(32)));
static inline void addsub_full(uint64_t *D, const uint64_t *A, const uint64_t *B, bool sub) {
    if (ws_simd_addsub_full(D, A, B, sub)) return;
    for (int l = 0; l < WS_WARP_SIZE; l += 4) {
        u64x4 a, b;
        memcpy(&a, A + l, sizeof a);
        memcpy(&b, B + l, sizeof b);
        a = sub ? a - b : a + b;
        memcpy(D + l, &a, sizeof a);
    }
}

static inline uint64_t lowmask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* mul.lo/.wide and mad.lo/.wide (C non-NULL; no carry in or out) of the lanes
   in M: the lane loop below without its per-lane branches, the operands'
   extension decided once (rb: the product's bits the addition keeps). A full
   warp takes counted loops (which the compiler can unroll), a partial one
   (divergent code, a grid's last warp) its active lanes. Each lane reads its
   sources before writing its destination, as the lane loop. */
#define MUL_LO_LANES(M, stmt) WS_FOR_MASK(l, M, stmt)
static void mul_lo_lanes(uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                         unsigned bits, bool sg, unsigned rb, uint32_t M) {
    unsigned sh = 64 - bits;
    uint64_t rm = lowmask(rb);
    if (C && bits == 32 && rb == 32) { /* mad.lo of 32 bits: a product's low word depends only
                                          on the operands' low words, either extension */
        MUL_LO_LANES(M, D[l] = (uint64_t)((uint32_t)A[l] * (uint32_t)B[l]) + (uint32_t)C[l]);
        return;
    }
#define SX(v) ((uint64_t)((int64_t)((v) << sh) >> sh))
#define ZX(v) (((v) << sh) >> sh)
    if (sg) {
        if (C) MUL_LO_LANES(M, D[l] = ((SX(A[l]) * SX(B[l])) & rm) + (C[l] & rm));
        else MUL_LO_LANES(M, D[l] = SX(A[l]) * SX(B[l]));
    } else {
        if (C) MUL_LO_LANES(M, D[l] = ((ZX(A[l]) * ZX(B[l])) & rm) + (C[l] & rm));
        else MUL_LO_LANES(M, D[l] = ZX(A[l]) * ZX(B[l]));
    }
#undef SX
#undef ZX
}

static uint64_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode) {
    static const uint8_t tab[6][4][4] = {
        /* f4e */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
        /* b4e */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
        /* rc8 */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
        /* ecl */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
        /* ecr */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
        /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
    }; /* [mode][c&3][result byte 0..3] = source byte */
    uint64_t src = (uint64_t)b << 32 | a;
    uint32_t d = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t byte;
        if (mode == WS_PRMT_DEFAULT) {
            uint32_t sel = (c >> (4 * i)) & 0xF;
            byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xFF;
            if (sel & 8) byte = (byte & 0x80) ? 0xFF : 0;
        } else {
            byte = (uint32_t)(src >> (8 * tab[mode - 1][c & 3][i])) & 0xFF;
        }
        d |= byte << (8 * i);
    }
    return d;
}

static uint64_t brev64(uint64_t v) {
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(v);
}

static ws_status exec_pred_logic(ws_xctx *x) {
    const ws_inst *in = x->in;
    uint32_t a = in->nsrc > 0 ? ws_pred_src(x, &in->src[0]) : 0;
    uint32_t b = in->nsrc > 1 ? ws_pred_src(x, &in->src[1]) : 0, d;
    switch ((ws_opcode)in->op) {
    case WS_OP_AND: d = a & b; break;
    case WS_OP_OR: d = a | b; break;
    case WS_OP_XOR: d = a ^ b; break;
    case WS_OP_NOT: case WS_OP_CNOT: d = ~a; break;
    default: return ws_unsupported(x, "not defined on predicates");
    }
    ws_pred_write(x, &in->dst[0], d);
    return WS_OK;
}

/* add/sub (no .cc or .sat) on a register and a register or immediate source and a
   register destination, of an integer type of 1 to 64 bits (WS_FK_INT_ADDSUB): what
   ws_exec_int does then (ws_src and ws_dst of a register are the register, ws_src of
   an immediate its value in every lane; a third source would be read there, so none
   may be present), without its decoding of the form. A full warp or any other mask
   (gaussian's partial warps), as that path. */
bool ws_int_addsub_form(const ws_inst *in) {
    if ((in->op != WS_OP_ADD && in->op != WS_OP_SUB) || ws_type_is_float((ws_type)in->type) ||
        (in->flags & (WS_F_SAT | WS_F_CC)) || in->nsrc != 2 || in->type == WS_T_PRED)
        return false;
    unsigned bits = ws_type_size((ws_type)in->type) * 8;
    return !(bits == 0 || bits > 64 || in->src[0].kind != WS_OPND_REG ||
             (in->src[1].kind != WS_OPND_REG && in->src[1].kind != WS_OPND_IMM) ||
             in->dst[0].kind != WS_OPND_REG || in->dst[0].reg == WS_NOREG);
}
void ws_exec_int_addsub(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    uint64_t *D = ws_reg(w, in->dst[0].reg);
    const uint64_t *A = ws_reg(w, in->src[0].reg);
    uint32_t M = x->mask;
    bool sub = in->op == WS_OP_SUB;
    if (in->src[1].kind == WS_OPND_IMM) { /* a - v is a + (0 - v), modulo 2^64 */
        uint64_t v = sub ? 0 - (uint64_t)in->src[1].imm : (uint64_t)in->src[1].imm;
        if (M != ~0u || !ws_simd_addimm_full(D, A, v)) WS_FOR_MASK(l, M, D[l] = A[l] + v);
        return;
    }
    const uint64_t *B = ws_reg(w, in->src[1].reg);
    if (M == ~0u) addsub_full(D, A, B, sub);
    else if (sub) WS_FOR_MASK(l, M, D[l] = A[l] - B[l]);
    else WS_FOR_MASK(l, M, D[l] = A[l] + B[l]);
}

/* mul.lo/.wide and mad.lo/.wide without a carry, of an integer type of 1 to 64 bits
   (.wide: at most 32), on register sources (two, or three for mad; the second may be
   an immediate) and a register destination (WS_FK_INT_MUL): ws_exec_int's call of
   mul_lo_lanes for them. */
bool ws_int_mul_form(const ws_inst *in) {
    ws_type t = (ws_type)in->type;
    if ((in->op != WS_OP_MUL && in->op != WS_OP_MAD) || ws_type_is_float(t) || t == WS_T_PRED ||
        (in->flags & WS_F_CC))
        return false;
    unsigned bits = ws_type_size(t) * 8, part = in->sub == WS_MUL_DEFAULT ? WS_MUL_LO : in->sub;
    unsigned need = in->op == WS_OP_MAD ? 3 : 2;
    if (bits == 0 || bits > 64 || (part != WS_MUL_LO && part != WS_MUL_WIDE) ||
        (part == WS_MUL_WIDE && bits > 32) || in->nsrc != need)
        return false;
    for (unsigned i = 0; i < need; i++)
        if (in->src[i].kind != WS_OPND_REG && (i != 1 || in->src[i].kind != WS_OPND_IMM)) return false;
    return in->dst[0].kind == WS_OPND_REG && in->dst[0].reg != WS_NOREG;
}
void ws_exec_int_mul(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    ws_type t = (ws_type)in->type;
    unsigned bits = ws_type_size(t) * 8;
    bool wide = in->sub == WS_MUL_WIDE;
    uint64_t tb[WS_WARP_SIZE];
    uint64_t *D = ws_reg(w, in->dst[0].reg);
    const uint64_t *A = ws_reg(w, in->src[0].reg), *B = ws_src(x, &in->src[1], tb);
    const uint64_t *C = in->op == WS_OP_MAD ? ws_reg(w, in->src[2].reg) : NULL;
    /* a full warp of 32 bits: mul_lo_lanes' result from the vector kernel (mad.lo: rb 32) */
    if (bits == 32 && x->mask == ~0u && ws_simd_mul32_full(D, A, B, C, ws_type_is_signed(t), C && !wide))
        return;
    mul_lo_lanes(D, A, B, C, bits, ws_type_is_signed(t), wide ? 2 * bits : bits, x->mask);
}

ws_status ws_exec_int(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    ws_type t = (ws_type)in->type;
    if (t == WS_T_PRED) return exec_pred_logic(x);
    unsigned bits = ws_type_size(t) * 8;
    bool sg = ws_type_is_signed(t);
    if (bits == 0 || bits > 64) return ws_unsupported(x, "type not supported for this operation");
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE], td[WS_WARP_SIZE];
    const uint64_t *A = in->nsrc > 0 ? ws_src(x, &in->src[0], ta) : NULL;
    const uint64_t *B = in->nsrc > 1 ? ws_src(x, &in->src[1], tb) : NULL;
    const uint64_t *C = in->nsrc > 2 ? ws_src(x, &in->src[2], tc) : NULL;
    const uint64_t *E = in->nsrc > 3 ? ws_src(x, &in->src[3], td) : NULL;
    uint64_t *D = ws_dst(x, &in->dst[0]);
    uint32_t M = x->mask;
    uint64_t lm = lowmask(bits);
    int64_t smax = (int64_t)(lm >> 1), smin = -smax - 1;
    bool sat = in->flags & WS_F_SAT, cc = in->flags & WS_F_CC;
    unsigned need;
    switch ((ws_opcode)in->op) {
    case WS_OP_ABS: case WS_OP_NEG: case WS_OP_NOT: case WS_OP_CNOT: case WS_OP_BREV: case WS_OP_POPC:
    case WS_OP_CLZ: case WS_OP_BFIND: need = 1; break;
    case WS_OP_MAD: case WS_OP_MADC: case WS_OP_MAD24: case WS_OP_SAD: case WS_OP_BFE: case WS_OP_SHF:
    case WS_OP_PRMT: case WS_OP_DP4A: case WS_OP_DP2A: need = 3; break;
    case WS_OP_LOP3: case WS_OP_BFI: need = 4; break;
    case WS_OP_FNS: need = 3; break;
    default: need = 2; break;
    }
    if ((need > 0 && !A) || (need > 1 && !B) || (need > 2 && !C) || (need > 3 && !E))
        return ws_unsupported(x, "missing or unsupported operand");
    if (in->op == WS_OP_PRMT) {
        unsigned mode = in->sub;
        if (mode > WS_PRMT_RC16) return ws_unsupported(x, "prmt mode");
        WS_FOR_LANES(l, M) D[l] = prmt((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l], mode);
        return WS_OK;
    }
    switch ((ws_opcode)in->op) {
    case WS_OP_ADD: case WS_OP_ADDC:
        if (in->op == WS_OP_ADD && !cc && !sat) {
            if (M == ~0u) addsub_full(D, A, B, false); else WS_FOR_MASK(l, M, D[l] = A[l] + B[l]);
            return WS_OK;
        }
        if (sat) {
            if (t != WS_T_S32) return ws_unsupported(x, ".sat needs .s32");
            WS_FOR_LANES(l, M) {
                int64_t s = (int64_t)(int32_t)A[l] + (int32_t)B[l];
                D[l] = (uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
            }
            return WS_OK;
        } else {
            uint32_t ncc = 0, cin = in->op == WS_OP_ADDC ? w->cc : 0;
            WS_FOR_LANES(l, M) {
                uint64_t a = A[l] & lm, b = B[l] & lm, ci = cin >> l & 1, s = a + b + ci;
                bool co = bits == 64 ? (s < a || (ci && s == a)) : (s >> bits) & 1;
                D[l] = s;
                ncc |= (uint32_t)co << l;
            }
            if (cc) w->cc = (w->cc & ~M) | ncc;
        }
        return WS_OK;
    case WS_OP_SUB: case WS_OP_SUBC:
        if (in->op == WS_OP_SUB && !cc && !sat) {
            if (M == ~0u) addsub_full(D, A, B, true); else WS_FOR_MASK(l, M, D[l] = A[l] - B[l]);
            return WS_OK;
        }
        if (sat) {
            if (t != WS_T_S32) return ws_unsupported(x, ".sat needs .s32");
            WS_FOR_LANES(l, M) {
                int64_t s = (int64_t)(int32_t)A[l] - (int32_t)B[l];
                D[l] = (uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
            }
        } else { /* CC.CF holds the borrow in sub chains */
            uint32_t ncc = 0, cin = in->op == WS_OP_SUBC ? w->cc : 0;
            WS_FOR_LANES(l, M) {
                uint64_t a = A[l] & lm, b = B[l] & lm, ci = cin >> l & 1;
                bool bo = a < b || (ci && a == b);
                D[l] = a - b - ci;
                ncc |= (uint32_t)bo << l;
            }
            if (cc) w->cc = (w->cc & ~M) | ncc;
        }
        return WS_OK;
    case WS_OP_MUL: case WS_OP_MAD: case WS_OP_MADC: {
        bool mad = in->op != WS_OP_MUL;
        unsigned part = in->sub == WS_MUL_DEFAULT ? WS_MUL_LO : in->sub;
        if (part == WS_MUL_WIDE && bits > 32) return ws_unsupported(x, ".wide needs a 16- or 32-bit type");
        if (!cc && in->op != WS_OP_MADC && (part == WS_MUL_LO || part == WS_MUL_WIDE)) {
            mul_lo_lanes(D, A, B, mad ? C : NULL, bits, sg, part == WS_MUL_WIDE ? 2 * bits : bits, M);
            return WS_OK;
        }
        uint32_t ncc = 0, cin = in->op == WS_OP_MADC ? w->cc : 0;
        WS_FOR_LANES(l, M) {
            uint64_t p, a = ws_ext(A[l], bits, sg), b = ws_ext(B[l], bits, sg);
            if (part == WS_MUL_LO) p = a * b;
            else if (part == WS_MUL_WIDE) p = a * b; /* sign-extended inputs: exact in 64 bits */
            else if (bits == 64) p = sg ? (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64)
                                        : (uint64_t)(((unsigned __int128)a * b) >> 64);
            else if (sg) p = (uint64_t)(((int64_t)a * (int64_t)b) >> bits);
            else p = (a * b) >> bits;
            if (!mad) { D[l] = p; continue; }
            if (sat && part == WS_MUL_HI && t == WS_T_S32) {
                int64_t s = (int64_t)(int32_t)p + (int32_t)C[l];
                D[l] = (uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
                continue;
            }
            unsigned rb = part == WS_MUL_WIDE ? 2 * bits : bits;
            uint64_t rm = lowmask(rb), pa = p & rm, c = C[l] & rm, ci = cin >> l & 1, s = pa + c + ci;
            D[l] = s;
            if (cc) ncc |= (uint32_t)(rb == 64 ? (s < pa || (ci && s == pa)) : (s >> rb) & 1) << l;
        }
        if (cc) w->cc = (w->cc & ~M) | ncc;
        return WS_OK;
    }
    case WS_OP_MUL24: case WS_OP_MAD24:
        if (bits != 32) return ws_unsupported(x, "mul24 needs .u32/.s32");
        WS_FOR_LANES(l, M) {
            int64_t a = sg ? (int64_t)ws_ext(A[l], 24, true) : (int64_t)(A[l] & 0xFFFFFF);
            int64_t b = sg ? (int64_t)ws_ext(B[l], 24, true) : (int64_t)(B[l] & 0xFFFFFF);
            uint64_t p = (uint64_t)(a * b);
            uint64_t r = in->sub == WS_MUL_HI ? (p >> 16) : p;
            if (in->op == WS_OP_MAD24) r += C[l];
            if (sat && sg && in->op == WS_OP_MAD24) {
                int64_t s = (int64_t)(int32_t)(in->sub == WS_MUL_HI ? (p >> 16) : p) + (int32_t)C[l];
                r = (uint64_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
            }
            D[l] = r;
        }
        return WS_OK;
    case WS_OP_SAD:
        WS_FOR_LANES(l, M) {
            uint64_t a = ws_ext(A[l], bits, sg), b = ws_ext(B[l], bits, sg);
            bool gt = sg ? (int64_t)a > (int64_t)b : a > b;
            D[l] = C[l] + (gt ? a - b : b - a);
        }
        return WS_OK;
    case WS_OP_DIV:
        WS_FOR_LANES(l, M) {
            uint64_t a = ws_ext(A[l], bits, sg), b = ws_ext(B[l], bits, sg);
            if ((b & lm) == 0) D[l] = ~0ull;
            else if (!sg) D[l] = a / b;
            else if ((int64_t)b == -1) D[l] = 0 - a; /* INT_MIN / -1 wraps to INT_MIN */
            else D[l] = (uint64_t)((int64_t)a / (int64_t)b);
        }
        return WS_OK;
    case WS_OP_REM:
        WS_FOR_LANES(l, M) {
            uint64_t a = ws_ext(A[l], bits, sg), b = ws_ext(B[l], bits, sg);
            if ((b & lm) == 0) D[l] = a;
            else if (!sg) D[l] = a % b;
            else if ((int64_t)b == -1) D[l] = 0;
            else D[l] = (uint64_t)((int64_t)a % (int64_t)b);
        }
        return WS_OK;
    case WS_OP_ABS:
        WS_FOR_LANES(l, M) { uint64_t a = ws_ext(A[l], bits, true); D[l] = (int64_t)a < 0 ? 0 - a : a; }
        return WS_OK;
    case WS_OP_NEG: WS_FOR_MASK(l, M, D[l] = 0 - A[l]); return WS_OK;
    case WS_OP_MIN: case WS_OP_MAX: {
        bool mx = in->op == WS_OP_MAX, relu = in->flags & WS_F_RELU;
        WS_FOR_LANES(l, M) {
            uint64_t a = ws_ext(A[l], bits, sg), b = ws_ext(B[l], bits, sg);
            bool lt = sg ? (int64_t)a < (int64_t)b : a < b;
            uint64_t r = (lt != mx) ? a : b;
            if (relu && sg && (int64_t)r < 0) r = 0;
            D[l] = r;
        }
        return WS_OK;
    }
    case WS_OP_AND: WS_FOR_MASK(l, M, D[l] = A[l] & B[l]); return WS_OK;
    case WS_OP_OR: WS_FOR_MASK(l, M, D[l] = A[l] | B[l]); return WS_OK;
    case WS_OP_XOR: WS_FOR_MASK(l, M, D[l] = A[l] ^ B[l]); return WS_OK;
    case WS_OP_NOT: WS_FOR_MASK(l, M, D[l] = ~A[l]); return WS_OK;
    case WS_OP_CNOT: WS_FOR_MASK(l, M, D[l] = (A[l] & lm) == 0); return WS_OK;
    case WS_OP_LOP3: {
        uint32_t lut = (uint32_t)E[__builtin_ctz(M)] & 0xFF;
        WS_FOR_LANES(l, M) {
            uint64_t a = A[l], b = B[l], c = C[l], r = 0;
            for (int i = 0; i < 8; i++)
                if (lut >> i & 1) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
            D[l] = r;
        }
        return WS_OK;
    }
    case WS_OP_SHL:
        WS_FOR_MASK(l, M, D[l] = (uint32_t)B[l] >= bits ? 0 : A[l] << (uint32_t)B[l]);
        return WS_OK;
    case WS_OP_SHR:
        WS_FOR_LANES(l, M) {
            uint32_t s = (uint32_t)B[l];
            uint64_t a = ws_ext(A[l], bits, sg);
            if (s >= bits) s = sg ? 63 : 64;
            D[l] = s >= 64 ? 0 : sg ? (uint64_t)((int64_t)a >> s) : a >> s;
        }
        return WS_OK;
    case WS_OP_SHF: {
        bool left = in->sub == WS_SHF_L, wrap = in->flags & WS_F_WRAP;
        if (bits != 32) return ws_unsupported(x, "shf needs .b32");
        WS_FOR_LANES(l, M) {
            uint32_t n = (uint32_t)C[l];
            n = wrap ? (n & 31) : (n > 32 ? 32 : n);
            uint64_t v = (B[l] & 0xFFFFFFFFull) << 32 | (A[l] & 0xFFFFFFFFull);
            D[l] = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
        }
        return WS_OK;
    }
    case WS_OP_BFE:
        WS_FOR_LANES(l, M) {
            uint32_t pos = (uint32_t)B[l] & 0xFF, len = (uint32_t)C[l] & 0xFF;
            uint64_t a = ws_ext(A[l], bits, sg), r;
            if (len == 0) r = 0;
            else if (sg) {
                r = (uint64_t)((int64_t)a >> (pos > 63 ? 63 : pos));
                if (len < 64) r = ws_ext(r, len, true);
            } else {
                r = pos > 63 ? 0 : a >> pos;
                r &= lowmask(len);
            }
            D[l] = r;
        }
        return WS_OK;
    case WS_OP_BFI:
        WS_FOR_LANES(l, M) {
            uint32_t pos = (uint32_t)C[l] & 0xFF, len = (uint32_t)E[l] & 0xFF;
            uint64_t b = B[l];
            if (len == 0 || pos >= bits) { D[l] = b; continue; }
            uint64_t m = (lowmask(len) << pos) & lm; /* the field ends at the msb */
            D[l] = (b & ~m) | ((A[l] << pos) & m);
        }
        return WS_OK;
    case WS_OP_BREV:
        WS_FOR_MASK(l, M, D[l] = brev64(A[l]) >> (64 - bits));
        return WS_OK;
    case WS_OP_POPC: WS_FOR_MASK(l, M, D[l] = (uint64_t)ws_popc64(A[l] & lm)); return WS_OK;
    case WS_OP_CLZ:
        WS_FOR_LANES(l, M) {
            uint64_t a = A[l] & lm;
            D[l] = a ? (uint64_t)(__builtin_clzll(a) - (64 - (int)bits)) : bits;
        }
        return WS_OK;
    case WS_OP_BFIND:
        WS_FOR_LANES(l, M) {
            uint64_t a = ws_ext(A[l], bits, sg);
            if (sg && (int64_t)a < 0) a = ~a;
            a &= lm;
            if (!a) { D[l] = 0xFFFFFFFFu; continue; }
            uint32_t pos = 63u - (uint32_t)__builtin_clzll(a);
            D[l] = (in->flags & WS_F_SHIFTAMT) ? bits - 1 - pos : pos;
        }
        return WS_OK;
    case WS_OP_DP4A: {
        bool as = ws_type_is_signed(t), bs = in->stype ? ws_type_is_signed((ws_type)in->stype) : as;
        WS_FOR_LANES(l, M) {
            int64_t s = (as || bs) ? (int64_t)(int32_t)C[l] : (int64_t)(uint32_t)C[l];
            for (int i = 0; i < 4; i++) {
                int64_t a = as ? (int8_t)(A[l] >> (8 * i)) : (uint8_t)(A[l] >> (8 * i));
                int64_t b = bs ? (int8_t)(B[l] >> (8 * i)) : (uint8_t)(B[l] >> (8 * i));
                s += a * b;
            }
            D[l] = (uint32_t)s;
        }
        return WS_OK;
    }
    case WS_OP_DP2A: {
        bool as = ws_type_is_signed(t), bs = in->stype ? ws_type_is_signed((ws_type)in->stype) : as;
        int hi = in->sub == WS_MUL_HI ? 2 : 0;
        WS_FOR_LANES(l, M) {
            int64_t s = (as || bs) ? (int64_t)(int32_t)C[l] : (int64_t)(uint32_t)C[l];
            for (int i = 0; i < 2; i++) {
                int64_t a = as ? (int16_t)(A[l] >> (16 * i)) : (uint16_t)(A[l] >> (16 * i));
                int64_t b = bs ? (int8_t)(B[l] >> (8 * (i + hi))) : (uint8_t)(B[l] >> (8 * (i + hi)));
                s += a * b;
            }
            D[l] = (uint32_t)s;
        }
        return WS_OK;
    }
    case WS_OP_BMSK: /* a ones from bit a; .clamp: a >= 32 gives 0, b >= 32 all bits from a */
        WS_FOR_LANES(l, M) {
            uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], a1 = a & 31, b1 = b & 31, sum = a1 + b1;
            uint32_t m0 = ~0u << a1, m1 = sum >= 32 ? 0 : ~0u << sum;
            bool wrap = in->flags & WS_F_WRAP;
            if (!wrap && a >= 32) m0 = 0;
            if (!wrap && b >= 32) m1 = 0;
            else if (b1 == 0 && sum < 32) m1 = ~0u;
            D[l] = m0 & ~m1;
        }
        return WS_OK;
    case WS_OP_SZEXT: /* extend the low N = b bits (.wrap: b % 32, .clamp: N >= 32 keeps a) */
        if (bits != 32) return ws_unsupported(x, "szext needs .u32/.s32");
        WS_FOR_LANES(l, M) {
            uint32_t a = (uint32_t)A[l], b = (uint32_t)B[l], b1 = b & 31;
            bool big = b >= 32 && !(in->flags & WS_F_WRAP);
            uint32_t m = big ? 0 : ~0u << b1;
            bool sb = !big && b1 && sg && (a >> (b1 - 1) & 1);
            D[l] = (a & ~m) | (sb ? m : 0);
        }
        return WS_OK;
    case WS_OP_FNS: /* the |offset|-th set bit of mask from base, upwards or downwards */
        WS_FOR_LANES(l, M) {
            uint32_t mask = (uint32_t)A[l], base = (uint32_t)B[l], d = 0xFFFFFFFFu;
            int32_t off = (int32_t)C[l];
            if (base > 31) { D[l] = d; continue; } /* undefined in PTX: not found */
            if (off == 0) {
                if (mask >> base & 1) d = base;
            } else {
                uint32_t cnt = off > 0 ? (uint32_t)off - 1 : (uint32_t)(-(int64_t)off) - 1;
                for (int32_t pos = (int32_t)base; pos >= 0 && pos < 32; pos += off > 0 ? 1 : -1)
                    if (mask >> pos & 1) {
                        if (cnt == 0) { d = (uint32_t)pos; break; }
                        cnt--;
                    }
            }
            D[l] = d;
        }
        return WS_OK;
    default:
        if (ws_op_is_video(in->op)) return ws_exec_video(x);
        break;
    }
    (void)smin;
    return ws_unsupported(x, NULL);
}
