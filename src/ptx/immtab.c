/* Operand fields filled once per function after parsing, for the engine's
 * per-instruction paths:
 * - Broadcast immediates: every distinct immediate source value of a function
 *   kept once as WS_IMM_LANES equal lanes. The operand reader returns a
 *   pointer to a register's lanes; for an immediate it used to fill a
 *   warp-wide temporary at each use (about 40 host instructions), which this
 *   table replaces with a pointer. The operand's bcast field names its entry.
 * - A memory operand's base32: its base register's declared width is 32 bits
 *   or less (the address wraps modulo 2^32), looked up here instead of in the
 *   register type table at each access. */
#include "ptx/ir.h"

#include <stdlib.h>

static void mark_base32(const ws_func *f, ws_operand *o) {
    if (o->kind == WS_OPND_MEM)
        o->base32 = o->reg != WS_NOREG && f->reg_type && o->reg < f->nregs &&
                    ws_type_size((ws_type)f->reg_type[o->reg]) <= 4;
}

bool ws_func_prepare(ws_func *f) {
    int64_t vals[WS_IMM_LANES_MAX];
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->ninsts; i++) {
        ws_inst *in = &f->insts[i];
        for (unsigned k = 0; k < in->ndst && k < WS_MAX_DST; k++) mark_base32(f, &in->dst[k]);
        for (unsigned k = 0; k < in->nsrc && k < WS_MAX_SRC; k++) mark_base32(f, &in->src[k]);
        for (unsigned k = 0; k < in->nsrc && k < WS_MAX_SRC; k++) {
            ws_operand *o = &in->src[k];
            if (o->kind != WS_OPND_IMM) continue;
            uint32_t j = 0;
            while (j < n && vals[j] != o->imm) j++; /* few distinct values per function */
            if (j == n) {
                if (n == WS_IMM_LANES_MAX) continue; /* bcast stays 0: filled per use */
                vals[n++] = o->imm;
            }
            o->bcast = (uint16_t)(j + 1);
        }
    }
    free(f->imm_lanes);
    f->imm_lanes = NULL;
    f->nimm_lanes = 0;
    if (n == 0) return true;
    f->imm_lanes = malloc((size_t)n * WS_IMM_LANES * sizeof *f->imm_lanes);
    if (!f->imm_lanes) return false;
    for (uint32_t j = 0; j < n; j++)
        for (unsigned l = 0; l < WS_IMM_LANES; l++) f->imm_lanes[(size_t)j * WS_IMM_LANES + l] = (uint64_t)vals[j];
    f->nimm_lanes = n;
    return true;
}
