/* Which value registers a kernel's warps must have zeroed at entry.
 *
 * Registers start at zero so that runs are deterministic (cta.c), but most of
 * a kernel's registers are written before anything reads them, and zeroing
 * them all cost a large share of short-CTA, many-kernel programs (a warp of a
 * 50-register kernel clears 12.8 KB). Each thread runs along a path of the
 * kernel's control-flow graph and an instruction touches only the registers of
 * the lanes that run it; so a register written, on every path from the entry
 * to an instruction that reads it, by an unguarded instruction that sets the
 * whole 64-bit slot from its sources alone, holds a value of the thread's own
 * making whenever that thread reads it: its old contents can never be seen
 * (a forward "written on all paths" analysis over the basic blocks). Every
 * other register is zeroed as before: one read where it may not have been
 * written, one touched by an instruction not known here to write it whole,
 * and every register operand of the instructions that read other lanes'
 * registers (shfl, the warp-wide matrix instructions, ...), whose lanes may
 * not have written them (lanes that exited or never existed). */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"

/* Unguarded, these write dst[0] (a REG operand) fully for every lane they run on,
   from their sources only, or fault (which ends the run): ws_exec_int / ws_exec_float /
   ws_exec_conv / ws_exec_mem each assign the whole slot. */
static bool writes_whole(const ws_inst *in) {
    switch ((ws_opcode)in->op) {
    case WS_OP_MOV: case WS_OP_CVT: case WS_OP_CVTA: case WS_OP_LD: case WS_OP_LDU:
    case WS_OP_ADD: case WS_OP_SUB: case WS_OP_MUL: case WS_OP_MAD: case WS_OP_FMA:
    case WS_OP_SHL: case WS_OP_SHR: case WS_OP_AND: case WS_OP_OR: case WS_OP_XOR:
    case WS_OP_NOT: case WS_OP_NEG: case WS_OP_MIN: case WS_OP_MAX: case WS_OP_SELP:
        return in->ndst == 1 && in->dst[0].kind == WS_OPND_REG && in->dst[0].reg != WS_NOREG;
    default:
        return false;
    }
}

/* Instructions that read registers of other lanes (or of the whole warp). */
static bool cross_lane(const ws_inst *in) {
    switch ((ws_opcode)in->op) {
    case WS_OP_SHFL: case WS_OP_MATCH: case WS_OP_REDUX: case WS_OP_VOTE: case WS_OP_ELECT:
    case WS_OP_ACTIVEMASK: case WS_OP_WMMA: case WS_OP_MMA: case WS_OP_LDMATRIX:
    case WS_OP_STMATRIX: case WS_OP_MOVMATRIX:
        return true;
    default:
        return false;
    }
}

static void mention(uint8_t *seen, uint32_t nregs, const ws_operand *o) {
    switch (o->kind) {
    case WS_OPND_REG: case WS_OPND_MEM:
        if (o->reg != WS_NOREG && o->reg < nregs) seen[o->reg] = 1;
        break;
    case WS_OPND_VEC:
        if (o->vec_is_pred) break;
        for (unsigned k = 0; k < o->vecn && k < 4; k++)
            if (o->vreg[k] != WS_NOREG && o->vreg[k] < nregs) seen[o->vreg[k]] = 1;
        break;
    default: /* predicates are zeroed anyway; immediates, symbols, labels name none */
        break;
    }
}

/* The registers an instruction reads, or touches without being known to write them
   whole, into `use`; the one it writes whole (unguarded) into *def (UINT32_MAX: none). */
static void inst_regs(const ws_inst *in, uint8_t *use, uint32_t nr, uint32_t *def) {
    for (unsigned i = 0; i < in->nsrc && i < WS_MAX_SRC; i++) mention(use, nr, &in->src[i]);
    *def = UINT32_MAX;
    if (writes_whole(in) && in->guard == WS_NOREG) *def = in->dst[0].reg;
    else
        for (unsigned i = 0; i < in->ndst && i < WS_MAX_DST; i++) mention(use, nr, &in->dst[i]);
}

static bool targets_ok(const ws_inst *in, uint32_t n) {
    uint32_t nt = in->sub == WS_BRA_IDX ? in->call_args[0] : 1;
    for (uint32_t j = 0; j < nt; j++) {
        int64_t t = in->sub == WS_BRA_IDX ? (int64_t)in->call_args[1 + j] : in->src[0].imm;
        if (t < 0 || (uint64_t)t >= n) return false;
    }
    return true;
}

/* into: what is written on every path so far, and on this one too */
static bool meet(uint64_t *into, const uint64_t *cur, size_t words) {
    bool changed = false;
    for (size_t k = 0; k < words; k++) {
        uint64_t v = into[k] & cur[k];
        changed |= v != into[k];
        into[k] = v;
    }
    return changed;
}

uint32_t *ws_entry_zero_runs(const ws_func *f) {
    uint32_t nr = f->nregs, n = f->ninsts, nb = f->nblocks;
    if (!nb || !f->block_start || !f->inst_block) return NULL; /* (zero them all) */
    size_t words = (nr + 63) / 64 ? (nr + 63) / 64 : 1;
    uint64_t *in_set = malloc((size_t)nb * words * sizeof *in_set);
    uint64_t *cur = malloc(words * sizeof *cur);
    uint8_t *zero = calloc(nr ? nr : 1, 1), *use = calloc(nr ? nr : 1, 1);
    uint32_t *runs = NULL;
    if (!in_set || !cur || !zero || !use) goto out;
    for (uint32_t pc = 0; pc < n; pc++)
        if (f->insts[pc].op == WS_OP_BRA && !targets_ok(&f->insts[pc], n)) goto out;
    /* written on every path into each block: all at first (top), none at the entry */
    memset(in_set, 0xff, (size_t)nb * words * sizeof *in_set);
    memset(in_set, 0, words * sizeof *in_set);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t b = 0; b < nb; b++) {
            memcpy(cur, in_set + (size_t)b * words, words * sizeof *cur);
            uint32_t first = f->block_start[b], end = b + 1 < nb ? f->block_start[b + 1] : n;
            for (uint32_t pc = first; pc < end; pc++) {
                uint32_t d;
                inst_regs(&f->insts[pc], use, nr, &d);
                if (d < nr) cur[d / 64] |= 1ull << (d % 64);
            }
            /* successors, as ws_cfg_build finds them: branch targets, the fall-through
               unless an unguarded bra/ret/exit/trap ends the block */
            const ws_inst *last = &f->insts[end - 1];
            bool stops = last->guard == WS_NOREG &&
                         (last->op == WS_OP_BRA || last->op == WS_OP_RET ||
                          last->op == WS_OP_EXIT || last->op == WS_OP_TRAP);
            if (!stops && b + 1 < nb) changed |= meet(in_set + (size_t)(b + 1) * words, cur, words);
            uint32_t nt = last->op != WS_OP_BRA ? 0 : last->sub == WS_BRA_IDX ? last->call_args[0] : 1;
            for (uint32_t j = 0; j < nt; j++) {
                int64_t t = last->sub == WS_BRA_IDX ? (int64_t)last->call_args[1 + j] : last->src[0].imm;
                changed |= meet(in_set + (size_t)f->inst_block[t] * words, cur, words);
            }
        }
    }
    /* a register read where it may not have been written is zeroed */
    for (uint32_t b = 0; b < nb; b++) {
        memcpy(cur, in_set + (size_t)b * words, words * sizeof *cur);
        uint32_t first = f->block_start[b], end = b + 1 < nb ? f->block_start[b + 1] : n;
        for (uint32_t pc = first; pc < end; pc++) {
            const ws_inst *in = &f->insts[pc];
            uint32_t d;
            memset(use, 0, nr);
            inst_regs(in, use, nr, &d);
            if (cross_lane(in) && d < nr) use[d] = 1;
            for (uint32_t r = 0; r < nr; r++)
                if (use[r] && (cross_lane(in) || !(cur[r / 64] >> (r % 64) & 1))) zero[r] = 1;
            if (d < nr) cur[d / 64] |= 1ull << (d % 64);
        }
    }
    /* runs of registers to zero: {n, first0, count0, first1, count1, ...} */
    uint32_t nrun = 0;
    for (uint32_t r = 0; r < nr; r++)
        if (zero[r] && (r == 0 || !zero[r - 1])) nrun++;
    runs = malloc((1 + 2 * (size_t)nrun) * sizeof *runs);
    if (runs) {
        runs[0] = nrun;
        uint32_t k = 1;
        for (uint32_t r = 0; r < nr; r++) {
            if (!zero[r]) continue;
            if (r == 0 || !zero[r - 1]) {
                runs[k++] = r;
                runs[k++] = 0;
            }
            runs[k - 1]++;
        }
    }
out:
    free(in_set);
    free(cur);
    free(zero);
    free(use);
    return runs;
}
