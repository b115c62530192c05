/* Video instructions: vadd vsub vabsdiff vmin vmax vset vshl vshr vmad on
 * 32-bit words and vadd ... vset on 2 half-words / 4 bytes (vadd2, vavrg4,
 * vset4, ...), after the PTX ISA's pseudo-code:
 * - scalar: a and b are a word, or the byte / half-word their selector
 *   names, sign- or zero-extended by their type; the result (exact in 64
 *   bits) is clamped with .sat to the width of d's selector (a word without
 *   one) and d's signedness, then either goes through the secondary
 *   operation with c (.add .min .max) or, with a selector on d, is merged into
 *   c's selected byte / half-word (c's other bits kept);
 * - SIMD: element i of a and b is the element of the 64-bit {b, a} their
 *   selector names (defaults a's own elements and b's); .sat clamps each
 *   result to the element width; .add sums the written elements into c,
 *   otherwise elements outside d's mask come from c;
 * - vshl / vshr shift a by b (.clamp: at most 32, .wrap: modulo 32), vshr
 *   arithmetically for a signed a; vmad computes {-}a*b + {-}c (+1 with .po)
 *   in 128 bits, signed when a, b or a negation is, then .shr7 / .shr15 and
 *   .sat to 32 bits. */
#include "exec/exec_internal.h"

/* Element i (of width w bits) of v, sign- or zero-extended. */
static int64_t elem(uint64_t v, unsigned w, unsigned i, bool sg) {
    uint64_t e = (v >> (w * i)) & ((1ull << w) - 1);
    return sg && (e >> (w - 1) & 1) ? (int64_t)e - (int64_t)(1ull << w) : (int64_t)e;
}

static bool vcmp(unsigned cmp, int64_t a, int64_t b) {
    switch (cmp) {
    case WS_CMP_EQ: return a == b;
    case WS_CMP_NE: return a != b;
    case WS_CMP_LT: return a < b;
    case WS_CMP_LE: return a <= b;
    case WS_CMP_GT: return a > b;
    default: return a >= b; /* WS_CMP_GE */
    }
}

/* The primary operation on extended values (exact in 64 bits). */
static int64_t vop(const ws_inst *in, int64_t a, int64_t b) {
    switch ((ws_opcode)in->op) {
    case WS_OP_VADD: return a + b;
    case WS_OP_VSUB: return a - b;
    case WS_OP_VABSDIFF: return a > b ? a - b : b - a;
    case WS_OP_VMIN: return a < b ? a : b;
    case WS_OP_VMAX: return a > b ? a : b;
    case WS_OP_VAVRG: { /* rounds up for sums >= 0, down (floor) below */
        int64_t s = a + b;
        return s >= 0 ? (s + 1) / 2 : -((1 - s) / 2);
    }
    default: return vcmp(in->cmp, a, b);
    }
}

static int64_t clamp(int64_t v, unsigned w, bool sg) {
    int64_t lo = sg ? -(int64_t)(1ull << (w - 1)) : 0, hi = sg ? (int64_t)(1ull << (w - 1)) - 1 : (int64_t)((1ull << w) - 1);
    return v < lo ? lo : v > hi ? hi : v;
}

/* A scalar operand through its selector (0: the word). */
static int64_t scalar_sel(uint64_t v, int64_t sel, bool sg) {
    if (sel >= WS_VSEL_H0) return elem(v, 16, (unsigned)(sel - WS_VSEL_H0), sg);
    if (sel >= WS_VSEL_B0) return elem(v, 8, (unsigned)(sel - WS_VSEL_B0), sg);
    return elem(v, 32, 0, sg);
}

static unsigned sel_width(int64_t sel) { return sel >= WS_VSEL_H0 ? 16 : sel >= WS_VSEL_B0 ? 8 : 32; }

/* The primary operation with the shifts (b is the u32 shift amount). */
static int64_t vop_scalar(const ws_inst *in, int64_t a, int64_t b) {
    if (in->op == WS_OP_VSHL || in->op == WS_OP_VSHR) {
        uint64_t sh = (uint64_t)(uint32_t)b;
        sh = in->flags & WS_F_WRAP ? sh & 31 : sh > 32 ? 32 : sh;
        return in->op == WS_OP_VSHL ? (int64_t)((uint64_t)a << sh) : a >> sh; /* a is sign-extended */
    }
    return vop(in, a, b);
}

/* vmad's 128-bit multiply-add (the ISA's pseudo-code). */
static uint32_t vmad(const ws_inst *in, int64_t a, int64_t b, uint64_t c, bool as, bool bs) {
    bool na = in->src[0].neg, nb = in->src[1].neg, nc = in->src[2].neg;
    bool sgn = as || bs || (na ^ nb) || nc;
    __int128 t = (__int128)a * b, lsb = 0;
    uint32_t cw = (uint32_t)c;
    if (in->sub & WS_VMAD_PO) lsb = 1;
    else if (na ^ nb) t = ~t, lsb = 1;
    else if (nc) cw = ~cw, lsb = 1;
    t += (sgn ? (__int128)(int32_t)cw : (__int128)cw) + lsb;
    if (in->sub & WS_VMAD_SHR7) t >>= 7;
    else if (in->sub & WS_VMAD_SHR15) t >>= 15;
    if (in->flags & WS_F_SAT) {
        __int128 lo = sgn ? INT32_MIN : 0, hi = sgn ? INT32_MAX : UINT32_MAX;
        t = t < lo ? lo : t > hi ? hi : t;
    }
    return (uint32_t)(uint64_t)t;
}

ws_status ws_exec_video(ws_xctx *x) {
    const ws_inst *in = x->in;
    bool ds = in->type == WS_T_S32, as = in->stype == WS_T_S32, bs = in->ttype == WS_T_S32;
    bool sat = in->flags & WS_F_SAT;
    unsigned n = in->vec, w = 32 / n;
    if (n > 1 && in->nsrc < 3) return ws_unsupported(x, "SIMD video instructions need operand c");
    if (in->boolop && in->nsrc < 3) return ws_unsupported(x, "missing operand c");
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE];
    const uint64_t *A = ws_src(x, &in->src[0], ta), *B = ws_src(x, &in->src[1], tb);
    const uint64_t *C = in->nsrc > 2 ? ws_src(x, &in->src[2], tc) : NULL;
    if (!A || !B || (in->nsrc > 2 && !C)) return ws_unsupported(x, "operand kind");
    uint64_t *D = ws_dst(x, &in->dst[0]);
    /* selectors of register operands (an immediate's imm is its value) */
    int64_t asel = in->src[0].kind == WS_OPND_REG ? in->src[0].imm : 0;
    int64_t bsel = in->src[1].kind == WS_OPND_REG ? in->src[1].imm : 0, dsel = in->dst[0].imm;
    WS_FOR_LANES(l, x->mask) {
        if (n == 1) {
            int64_t a = scalar_sel(A[l], asel, as), b = scalar_sel(B[l], bsel, bs);
            if (in->op == WS_OP_VMAD) {
                D[l] = vmad(in, a, b, C[l], as, bs);
                continue;
            }
            int64_t t = vop_scalar(in, a, b);
            if (dsel) { /* merge into c's selected field */
                unsigned dw = sel_width(dsel), pos = dw * (unsigned)(dsel - (dw == 16 ? WS_VSEL_H0 : WS_VSEL_B0));
                if (sat) t = clamp(t, dw, ds);
                uint32_t fm = (uint32_t)((1ull << dw) - 1) << pos;
                D[l] = ((uint32_t)C[l] & ~fm) | (((uint32_t)t << pos) & fm);
                continue;
            }
            t = sat ? clamp(t, 32, ds) : elem((uint64_t)t, 32, 0, ds);
            if (in->boolop) {
                int64_t c = elem(C[l], 32, 0, ds);
                t = in->boolop == WS_VOP2_ADD ? t + c : in->boolop == WS_VOP2_MIN ? (t < c ? t : c) : (t > c ? t : c);
            }
            D[l] = (uint32_t)t;
            continue;
        }
        uint64_t ab = (uint32_t)A[l] | (uint64_t)(uint32_t)B[l] << 32; /* {b, a} */
        uint32_t mask = dsel ? (uint32_t)(dsel & 0xF) : (1u << n) - 1;
        uint32_t d = in->boolop == WS_VOP2_ADD ? (uint32_t)C[l] : 0;
        for (unsigned i = 0; i < n; i++) {
            unsigned ai = asel ? (unsigned)(asel >> (3 * i) & 7) : i, bi = bsel ? (unsigned)(bsel >> (3 * i) & 7) : n + i;
            int64_t t = vop(in, elem(ab, w, ai, as), elem(ab, w, bi, bs));
            if (sat) t = clamp(t, w, ds);
            uint32_t em = (uint32_t)((1ull << w) - 1);
            if (in->boolop == WS_VOP2_ADD) d += mask >> i & 1 ? (uint32_t)t : 0;
            else d |= ((mask >> i & 1 ? (uint32_t)t : (uint32_t)(C[l] >> (w * i))) & em) << (w * i);
        }
        D[l] = d;
    }
    return WS_OK;
}
