/* Tensor-core instructions: wmma.load / wmma.store / wmma.mma and mma.sync.
 *
 * Fragment layouts are in src/ptx/mma.h. The whole warp executes these
 * (.sync.aligned): a warp with lanes missing faults instead of computing
 * half a matrix.
 *
 * Arithmetic, so that results are exact against a CPU model written the
 * same way (and equal to any order of evaluation when the sums are exact):
 * - f16, bf16, tf32 inputs (tf32: the low 13 bits of each .b32 element are
 *   ignored, as the hardware does): every product is exact in double; the
 *   products are summed over k in double in order, the sum is added to C in
 *   double and rounded once to D's type (round to nearest even);
 * - s8/u8: exact in 64 bits; D wraps modulo 2^32, or with .satfinite is
 *   clamped to the s32 range;
 * - f64: D = fma(a[k], b[k], ...) chained from C over k in order.
 * A fragment that holds its matrix more than once (wmma's .f16 A and B) is
 * read back from its last copy. */
#include <math.h>

#include "exec/exec_internal.h"
#include "ptx/mma.h"

#define MMA_MAX_ELEMS 1024 /* largest matrix: 8 x 128 bits (m8n8k128 A) */

static double elem_to_double(ws_type t, uint64_t bits) {
    switch (t) {
    case WS_T_F16: return ws_f16_to_double((uint16_t)bits);
    case WS_T_BF16: return ws_bf16_to_double((uint16_t)bits);
    case WS_T_B32: return (double)ws_f32((uint32_t)bits & 0xFFFFE000u); /* tf32 */
    case WS_T_F32: return (double)ws_f32(bits);
    case WS_T_F64: return ws_f64(bits);
    case WS_T_S8: return (double)(int8_t)bits;
    case WS_T_U8: return (double)(uint8_t)bits;
    case WS_T_S32: return (double)(int32_t)bits;
    case WS_T_S4: return (double)((int)(bits & 15) - ((bits & 8) ? 16 : 0));
    case WS_T_U4: return (double)(bits & 15);
    case WS_T_B1: return (double)(bits & 1);
    case WS_T_E4M3: case WS_T_E5M2: { /* fp8: 4 or 5 exponent bits (bias 7 / 15), 3 or 2 mantissa bits */
        bool e4 = t == WS_T_E4M3;
        unsigned mb = e4 ? 3 : 2, eb = e4 ? 4 : 5, bias = e4 ? 7 : 15;
        unsigned b = (unsigned)bits & 0xFF, m = b & ((1u << mb) - 1), e = (b >> mb) & ((1u << eb) - 1);
        double sg = b & 0x80 ? -1.0 : 1.0;
        if (e4 && e == 15 && m == 7) return NAN;          /* e4m3 has no infinities */
        if (!e4 && e == 31) return m ? NAN : sg * INFINITY;
        if (!e) return sg * ldexp((double)m, 1 - (int)bias - (int)mb);
        return sg * ldexp((double)((1u << mb) | m), (int)e - (int)bias - (int)mb);
    }
    default: return 0;
    }
}

/* Element i of a fragment from its registers (regs: the fragment's slots). */
static uint64_t frag_get(ws_warp *w, const uint32_t *regs, ws_type t, unsigned per, unsigned lane, unsigned i) {
    uint64_t r = ws_reg(w, regs[i / per])[lane];
    if (per == 1) return t == WS_T_F64 ? r : (uint32_t)r;
    unsigned bits = 32 / per;
    return (r >> (bits * (i % per))) & ((1ull << bits) - 1);
}

static void frag_set(uint64_t *vals, ws_type t, unsigned per, unsigned i, uint64_t v) {
    if (per == 1) {
        vals[i] = t == WS_T_F64 ? v : (uint32_t)v;
        return;
    }
    unsigned bits = 32 / per;
    vals[i / per] |= (v & ((1ull << bits) - 1)) << (bits * (i % per));
}

static unsigned per_reg(ws_type t) {
    if (t == WS_T_S4 || t == WS_T_U4) return 8;
    if (t == WS_T_B1) return 32;
    return t == WS_T_F16 || t == WS_T_BF16 ? 2 : t == WS_T_S8 || t == WS_T_U8 || t == WS_T_E4M3 || t == WS_T_E5M2 ? 4 : 1;
}

static void mat_cols(const ws_inst *in, unsigned which, unsigned *rows, unsigned *cols) {
    ws_mma_dims d = ws_mma_dims_of(in->cmp);
    *rows = which == WS_FRAG_B ? d.k : d.m;
    *cols = which == WS_FRAG_A ? d.k : d.n;
}

static ws_status exec_ldst(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    bool store = in->sub == WS_MMA_STORE_D;
    unsigned which = ws_mma_ldst_frag(in);
    ws_type t = ws_mma_frag_type(in, which);
    unsigned esz = ws_type_size(t), n = ws_mma_frag_elems(in, which), per = per_reg(t);
    unsigned nregs = n / per, rows, cols;
    mat_cols(in, which, &rows, &cols);
    bool colmajor = in->boolop & WS_MMA_ACOL;
    const ws_operand *mo = store ? &in->dst[0] : &in->src[0];
    const ws_operand *so = store ? (in->nsrc ? &in->src[0] : NULL) : (in->nsrc > 1 ? &in->src[1] : NULL);
    uint64_t tmp[WS_WARP_SIZE];
    const uint64_t *S = so ? ws_src(x, so, tmp) : NULL;
    uint64_t vals[WS_WARP_SIZE][8];
    unsigned space = WS_SPACE_NONE;
    bool wrote = false;
    WS_FOR_LANES(l, x->mask) {
        uint64_t base = ws_opnd_addr(x, mo, l), ld = S ? (uint32_t)S[l] : colmajor ? rows : cols;
        memset(vals[l], 0, sizeof vals[l]);
        for (unsigned i = 0; i < n; i++) {
            unsigned r, c;
            ws_mma_elem_pos(in, which, l, i, &r, &c);
            uint64_t e = colmajor ? c * ld + r : r * ld + c;
            /* sub-byte elements (loads of A and B only): packed from bit 0 of each byte up */
            unsigned bits = ws_mma_type_bits(t), sh = bits < 8 ? (unsigned)(e * bits % 8) : 0;
            uint64_t a = base + (bits < 8 ? e * bits / 8 : e * esz);
            unsigned rs;
            uint8_t *p = ws_mem_elem_ptr(x, in->space, a, bits < 8 ? 1 : esz, l, store, &rs);
            if (!p) return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
            if (i == 0) {
                space = rs;
                if (x->st) x->st->addr[l] = a;
            }
            uint64_t v = 0;
            if (bits < 8) {
                frag_set(vals[l], t, per, i, (uint64_t)(*p >> sh) & ((1u << bits) - 1));
            } else if (store) {
                v = frag_get(w, in->call_args, t, per, l, i);
                wrote |= memcmp(p, &v, esz) != 0; /* little-endian host */
                memcpy(p, &v, esz);
            } else {
                memcpy(&v, p, esz);
                frag_set(vals[l], t, per, i, v);
            }
        }
    }
    if (!store)
        for (unsigned k = 0; k < nregs; k++) {
            uint64_t *R = ws_reg(w, in->call_args[k]);
            WS_FOR_LANES(l, x->mask) R[l] = vals[l][k];
        }
    x->c->counts.mem_writes += wrote;
    if (x->st) {
        /* one access per lane of its fragment's bytes from its first element:
           exact for the row-major layouts, the coalescer's view of the others */
        x->st->mem_space = (uint8_t)space;
        x->st->access_size = n * esz;
        x->st->is_store = store;
        x->st->is_atomic = false;
        x->st->wrote = wrote;
    }
    return WS_OK;
}

/* Read fragment `which` (registers from regs) into a row-major matrix. */
static void read_matrix(ws_xctx *x, const uint32_t *regs, unsigned which, double *m, uint64_t *raw) {
    const ws_inst *in = x->in;
    ws_type t = ws_mma_frag_type(in, which);
    unsigned n = ws_mma_frag_elems(in, which), per = per_reg(t), rows, cols;
    mat_cols(in, which, &rows, &cols);
    for (unsigned l = 0; l < WS_WARP_SIZE; l++)
        for (unsigned i = 0; i < n; i++) {
            unsigned r, c;
            ws_mma_elem_pos(in, which, l, i, &r, &c);
            uint64_t v = frag_get(x->w, regs, t, per, l, i);
            if (m) m[r * cols + c] = elem_to_double(t, v);
            if (raw) raw[r * cols + c] = v;
        }
}

static ws_status exec_mma(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_mma_dims d = ws_mma_dims_of(in->cmp);
    const uint32_t *rd = in->call_args, *ra = rd + ws_mma_frag_regs(in, WS_FRAG_D);
    const uint32_t *rb = ra + ws_mma_frag_regs(in, WS_FRAG_A), *rc = rb + ws_mma_frag_regs(in, WS_FRAG_B);
    double A[MMA_MAX_ELEMS], B[MMA_MAX_ELEMS], C[MMA_MAX_ELEMS];
    uint64_t Craw[MMA_MAX_ELEMS], Draw[MMA_MAX_ELEMS];
    read_matrix(x, ra, WS_FRAG_A, A, NULL);
    read_matrix(x, rb, WS_FRAG_B, B, NULL);
    read_matrix(x, rc, WS_FRAG_C, C, Craw);
    ws_type at = ws_mma_frag_type(in, WS_FRAG_A), dt = (ws_type)in->type;
    for (unsigned i = 0; i < d.m; i++)
        for (unsigned j = 0; j < d.n; j++) {
            unsigned o = i * d.n + j;
            uint64_t v;
            if (at == WS_T_B1) { /* popc of the bitwise and / xor over k, added to C */
                int64_t s = (int32_t)Craw[o];
                for (unsigned k = 0; k < d.k; k++) {
                    bool a1 = A[i * d.k + k] != 0, b1 = B[k * d.n + j] != 0;
                    s += in->rnd == WS_MMA_BOP_AND ? (a1 && b1) : (a1 != b1);
                }
                v = (uint32_t)(uint64_t)s;
            } else if (at == WS_T_S8 || at == WS_T_U8 || at == WS_T_S4 || at == WS_T_U4) {
                int64_t s = (int32_t)Craw[o];
                for (unsigned k = 0; k < d.k; k++) s += (int64_t)A[i * d.k + k] * (int64_t)B[k * d.n + j];
                if (in->flags & WS_F_SAT) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                v = (uint32_t)(uint64_t)s;
            } else if (at == WS_T_F64) {
                double s = C[o];
                for (unsigned k = 0; k < d.k; k++) s = fma(A[i * d.k + k], B[k * d.n + j], s);
                v = ws_f64b(s);
            } else {
                double s = 0;
                for (unsigned k = 0; k < d.k; k++) s += A[i * d.k + k] * B[k * d.n + j];
                s += C[o];
                v = dt == WS_T_F16 ? ws_double_to_f16(s, WS_RND_RN) : (uint32_t)ws_f32b((float)s);
            }
            Draw[o] = v;
        }
    /* D after every input is read: D may name C's registers */
    unsigned n = ws_mma_frag_elems(in, WS_FRAG_D), per = per_reg(dt), nregs = n / per;
    for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
        uint64_t vals[8] = {0};
        for (unsigned i = 0; i < n; i++) {
            unsigned r, c;
            ws_mma_elem_pos(in, WS_FRAG_D, l, i, &r, &c);
            frag_set(vals, dt, per, i, Draw[r * d.n + c]);
        }
        for (unsigned k = 0; k < nregs; k++) ws_reg(x->w, rd[k])[l] = vals[k];
    }
    return WS_OK;
}

ws_status ws_exec_mma(ws_xctx *x) {
    if (!x->mask) return WS_OK; /* guard false everywhere */
    if (x->mask != 0xFFFFFFFFu) {
        uint32_t miss = (uint32_t)__builtin_ctz(~x->mask);
        return ws_fail(x, WS_ERR_LAUNCH_FAILURE, miss,
                       "%s needs all 32 lanes of the warp (active mask 0x%08x)",
                       x->in->op == WS_OP_MMA ? "mma.sync" : "wmma", x->mask);
    }
    return x->in->sub == WS_MMA_MMA ? exec_mma(x) : exec_ldst(x);
}
