/* Video instructions: vadd vsub vabsdiff vmin vmax vset on 32-bit words and
 * their SIMD forms on 2 half-words / 4 bytes (vadd2, vavrg4, vset4, ...),
 * with .sat and the secondary operation (.add .min .max on words, .add
 * accumulate on SIMD forms). Operand selectors and masks are not supported
 * (the parser refuses them), so every form here uses the defaults: whole
 * words, element i of a with element i of b, all elements written. */
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
    WS_FOR_LANES(l, x->mask) {
        if (n == 1) {
            int64_t t = vop(in, elem(A[l], 32, 0, as), elem(B[l], 32, 0, bs));
            t = sat ? clamp(t, 32, ds) : elem((uint64_t)t, 32, 0, ds);
            if (in->boolop) {
                int64_t c = elem(C[l], 32, 0, ds);
                t = in->boolop == WS_VOP2_ADD ? t + c : in->boolop == WS_VOP2_MIN ? (t < c ? t : c) : (t > c ? t : c);
            }
            D[l] = (uint32_t)t;
            continue;
        }
        uint32_t d = in->boolop == WS_VOP2_ADD ? (uint32_t)C[l] : 0;
        for (unsigned i = 0; i < n; i++) {
            int64_t t = vop(in, elem(A[l], w, i, as), elem(B[l], w, i, bs));
            if (sat) t = clamp(t, w, ds);
            if (in->boolop == WS_VOP2_ADD) d += (uint32_t)t;
            else d |= ((uint32_t)t & (uint32_t)((1ull << w) - 1)) << (w * i);
        }
        D[l] = d;
    }
    return WS_OK;
}
