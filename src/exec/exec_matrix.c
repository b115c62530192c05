/* ldmatrix, stmatrix and movmatrix: warp-wide moves of 8x8 matrices of
 * 16-bit elements between shared memory and the mma.sync fragment layout
 * (the PTX ISA's "Warp-level matrix load/store/transpose").
 *
 * Fragment: lane t holds row t / 4, columns 2 (t % 4) and 2 (t % 4) + 1 of
 * each matrix, packed low then high in one .b32 register per matrix. Row r
 * of matrix i is 16 bytes at the address lane 8 i + r gives (lanes beyond
 * 8 N give none; .x1 and .x2 ignore theirs). .trans moves the transposed
 * matrix: lane t holds elements (2 (t % 4), t / 4) and (2 (t % 4) + 1, t / 4).
 * movmatrix.trans turns one such fragment into its transpose's. The whole
 * warp executes them (.sync.aligned): a warp with lanes missing faults. For
 * the timing model ldmatrix / stmatrix are shared-memory accesses of 16
 * bytes at each lane's row address (a lane without one repeats lane t % 8N's,
 * which the bank-conflict count takes as a broadcast). */
#include "exec/exec_internal.h"

/* Matrix element (r, c)'s lane and half in the fragment layout. */
static inline unsigned frag_lane(unsigned r, unsigned c) { return r * 4 + c / 2; }

ws_status ws_exec_matrix(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    uint32_t full = w->lanes & ~w->exited;
    if (x->mask != 0xFFFFFFFFu || full != 0xFFFFFFFFu)
        return ws_fail(x, WS_ERR_LAUNCH_FAILURE, (uint32_t)__builtin_ctz(x->mask | 1),
                       "%s needs all 32 lanes of the warp (active 0x%08x)", ws_opcode_name((ws_opcode)in->op),
                       x->mask);
    bool trans = in->boolop != 0;
    uint16_t m[4][8][8]; /* matrices: [i][row][col] */
    if (in->op == WS_OP_MOVMATRIX) {
        uint64_t ta[WS_WARP_SIZE];
        const uint64_t *A = ws_src(x, &in->src[0], ta);
        if (!A) return ws_unsupported(x, "operand");
        for (unsigned r = 0; r < 8; r++)
            for (unsigned c = 0; c < 8; c++) m[0][r][c] = (uint16_t)(A[frag_lane(r, c)] >> (16 * (c & 1)));
        uint64_t *D = ws_dst(x, &in->dst[0]);
        for (unsigned t = 0; t < WS_WARP_SIZE; t++) {
            unsigned r = t / 4, c = 2 * (t % 4);
            D[t] = (uint32_t)m[0][c][r] | (uint32_t)m[0][c + 1][r] << 16;
        }
        return WS_OK;
    }
    bool st = in->op == WS_OP_STMATRIX;
    unsigned n = in->vec;
    const ws_operand *mo = &in->src[0], *vo = st ? &in->src[1] : &in->dst[0];
    if (mo->kind != WS_OPND_MEM || (vo->kind == WS_OPND_VEC ? vo->vecn != n : n != 1))
        return ws_unsupported(x, "operands");
    uint16_t regs[4] = {vo->reg, 0, 0, 0};
    if (vo->kind == WS_OPND_VEC)
        for (unsigned i = 0; i < n; i++) regs[i] = vo->vreg[i];
    uint8_t *row[4][8];
    unsigned rs = WS_SPACE_SHARED;
    for (unsigned i = 0; i < n; i++)
        for (unsigned r = 0; r < 8; r++) {
            uint32_t l = 8 * i + r;
            uint64_t a = ws_opnd_addr(x, mo, l);
            row[i][r] = ws_mem_elem_ptr(x, in->space, a, 16, l, st, &rs);
            if (!row[i][r]) return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
            /* the timing model sees the address in the space it resolved to */
            if (x->st)
                x->st->addr[l] = rs == WS_SPACE_SHARED && a >= WS_GENERIC_SHARED_BASE ? a - WS_GENERIC_SHARED_BASE : a;
        }
    if (x->st) {
        for (uint32_t l = 8 * n; l < WS_WARP_SIZE; l++) x->st->addr[l] = x->st->addr[l % (8 * n)];
        x->st->mem_space = (uint8_t)rs;
        x->st->access_size = 16;
        x->st->is_store = st;
        x->st->is_atomic = 0;
        x->st->wrote = st;
    }
    for (unsigned i = 0; i < n; i++) {
        if (st) { /* registers -> matrix -> rows */
            const uint64_t *R = ws_reg(w, regs[i]);
            for (unsigned t = 0; t < WS_WARP_SIZE; t++) {
                unsigned r = t / 4, c = 2 * (t % 4);
                uint16_t lo = (uint16_t)R[t], hi = (uint16_t)(R[t] >> 16);
                if (trans) m[i][c][r] = lo, m[i][c + 1][r] = hi;
                else m[i][r][c] = lo, m[i][r][c + 1] = hi;
            }
            for (unsigned r = 0; r < 8; r++) memcpy(row[i][r], m[i][r], 16);
        } else { /* rows -> matrix -> registers */
            for (unsigned r = 0; r < 8; r++) memcpy(m[i][r], row[i][r], 16);
            uint64_t *D = regs[i] == WS_NOREG ? w->sink : ws_reg(w, regs[i]);
            for (unsigned t = 0; t < WS_WARP_SIZE; t++) {
                unsigned r = t / 4, c = 2 * (t % 4);
                D[t] = trans ? (uint32_t)m[i][c][r] | (uint32_t)m[i][c + 1][r] << 16
                             : (uint32_t)m[i][r][c] | (uint32_t)m[i][r][c + 1] << 16;
            }
        }
    }
    x->c->counts.mem_writes += st;
    return WS_OK;
}
