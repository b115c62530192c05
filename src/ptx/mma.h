/* Tensor-core instructions: shapes, the modifiers of wmma.* and mma.sync, and
 * where each element of a fragment lives (lane, register element) in its
 * matrix. Shared by the parser (operand counts) and the engine (execution).
 *
 * Fragment layouts:
 * - mma.sync: the layouts the PTX ISA documents for each shape (groupID =
 *   lane / 4, threadID_in_group = lane % 4), so that code which builds or
 *   reads fragments by hand (inline PTX, CUTLASS-style) gets the same
 *   answers as on hardware.
 * - wmma: the ISA leaves the mapping unspecified (programs may only use
 *   load, store, mma and element-wise operations). warpsim's: element i of
 *   lane l is element l*n + i (n = elements per lane) of the matrix in the
 *   order it is stored in memory for A and B (.row: row-major, .col:
 *   column-major), and of the row-major order for C and D, whatever the
 *   load's or store's layout. A fragment with more elements than its matrix
 *   (an .f16 A or B fragment of 16 elements per lane for a 16x16 matrix)
 *   holds it several times over: element e wraps modulo the matrix size. */
#ifndef WARPSIM_PTX_MMA_H
#define WARPSIM_PTX_MMA_H

#include <stdbool.h>
#include <stddef.h>

#include "ptx/ir.h"

typedef enum {
    WS_MMA_SHAPE_NONE = 0,
    /* wmma */
    WS_MMA_M16N16K16, WS_MMA_M32N8K16, WS_MMA_M8N32K16, WS_MMA_M16N16K8, WS_MMA_M8N8K4,
    /* mma.sync */
    WS_MMA_M16N8K16, WS_MMA_M16N8K8, WS_MMA_M16N8K32, WS_MMA_M16N8K4, WS_MMA_M8N8K16,
    /* sub-byte, wmma and mma.sync: s4/u4 and b1 */
    WS_MMA_M8N8K32, WS_MMA_M8N8K128,
    WS_MMA_NSHAPES
} ws_mma_shape;

typedef struct ws_mma_dims { unsigned m, n, k; } ws_mma_dims;
ws_mma_dims ws_mma_dims_of(unsigned shape);
const char *ws_mma_shape_name(unsigned shape); /* "m16n16k16" */

/* Fragments: A, B, C (accumulator input) and D (result). */
enum { WS_FRAG_A = 0, WS_FRAG_B, WS_FRAG_C, WS_FRAG_D };

/* b1 products (in->rnd of a .b1 mma): .xor.popc or .and.popc */
enum { WS_MMA_BOP_XOR = 1, WS_MMA_BOP_AND };
/* Bits of an element of type t (sub-byte types included). */
unsigned ws_mma_type_bits(ws_type t);

/* Decode the modifiers of a wmma (is_wmma) or mma instruction: the text
 * after the opcode name, dots included (".load.a.sync.aligned.row.m16n16k16
 * .global.f16"). Fills sub, cmp, boolop, the types, space and flags of in
 * (see WMMA / MMA in ir.h). Returns NULL, or why the form is refused. */
const char *ws_mma_decode(ws_inst *in, bool is_wmma, const char *mods, size_t len);

/* The fragment a load or store moves (WS_FRAG_A .. D). */
unsigned ws_mma_ldst_frag(const ws_inst *in);
/* Type of fragment `which` (ws_type; tf32 is WS_T_B32). */
ws_type ws_mma_frag_type(const ws_inst *in, unsigned which);
/* Elements per lane, and 32- or 64-bit registers per lane, of a fragment. */
unsigned ws_mma_frag_elems(const ws_inst *in, unsigned which);
unsigned ws_mma_frag_regs(const ws_inst *in, unsigned which);
/* Registers the instruction names in call_args (a load/store: its fragment;
 * mma: D, A, B, C). */
unsigned ws_mma_nregs(const ws_inst *in);
/* Row and column in its matrix (A: M x K, B: K x N, C/D: M x N) of element
 * i of lane's fragment. */
void ws_mma_elem_pos(const ws_inst *in, unsigned which, unsigned lane, unsigned i, unsigned *row,
                     unsigned *col);

#endif
