/* Broadcast immediates: every distinct immediate source value of a function
 * kept once as WS_IMM_LANES equal lanes. An instruction's operand reader
 * returns a pointer to its registers' lanes; for an immediate it used to fill
 * a warp-wide temporary at each use (about 40 host instructions), which this
 * table replaces with a pointer. Built once per function after parsing; the
 * operand's bcast field names its entry. */
#include "ptx/ir.h"

#include <stdlib.h>

bool ws_imm_lanes_build(ws_func *f) {
    int64_t vals[WS_IMM_LANES_MAX];
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->ninsts; i++) {
        ws_inst *in = &f->insts[i];
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
