/* warpsim PTX intermediate representation.
 *
 * The parser (src/ptx/parser.c) turns PTX text into one ws_module. Every
 * operand is resolved once: registers become slot numbers, labels become
 * instruction indices, symbols become indices into the module's symbol
 * table, immediates are stored as the bit pattern of the instruction type.
 * The functional engine (src/exec/) never looks at a string.
 *
 * Ownership: a ws_module owns everything reachable from it and is freed
 * with ws_module_free(). */
#ifndef WARPSIM_PTX_IR_H
#define WARPSIM_PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- types ------------------------------------------------------------ */
typedef enum {
    WS_T_NONE = 0,
    WS_T_PRED,
    WS_T_B8, WS_T_B16, WS_T_B32, WS_T_B64, WS_T_B128,
    WS_T_U8, WS_T_U16, WS_T_U32, WS_T_U64,
    WS_T_S8, WS_T_S16, WS_T_S32, WS_T_S64,
    WS_T_F16, WS_T_F16X2, WS_T_BF16, WS_T_BF16X2,
    WS_T_F32, WS_T_F64,
    WS_T_E4M3, WS_T_E5M2, /* fp8 elements of mma.sync (not accepted elsewhere) */
    WS_T_S4, WS_T_U4, WS_T_B1, /* sub-byte elements of wmma / mma.sync (size 0: bits in ptx/mma.h) */
    WS_T_COUNT
} ws_type;

/* Size in bytes of a scalar of type t (pred: 1). Inline, as the two tests
   below: the functional engine asks them for every instruction it steps. */
static inline unsigned ws_type_size(ws_type t) {
    static const uint8_t size[WS_T_COUNT] = {
        [WS_T_PRED] = 1, [WS_T_B8] = 1, [WS_T_B16] = 2, [WS_T_B32] = 4, [WS_T_B64] = 8, [WS_T_B128] = 16,
        [WS_T_U8] = 1, [WS_T_U16] = 2, [WS_T_U32] = 4, [WS_T_U64] = 8,
        [WS_T_S8] = 1, [WS_T_S16] = 2, [WS_T_S32] = 4, [WS_T_S64] = 8,
        [WS_T_F16] = 2, [WS_T_F16X2] = 4, [WS_T_BF16] = 2, [WS_T_BF16X2] = 4, [WS_T_F32] = 4, [WS_T_F64] = 8,
        [WS_T_E4M3] = 1, [WS_T_E5M2] = 1, /* s4 u4 b1: 0 */
    };
    return (unsigned)t < WS_T_COUNT ? size[t] : 0;
}
/* sN (consecutive in ws_type) */
static inline bool ws_type_is_signed(ws_type t) { return (unsigned)t - WS_T_S8 <= WS_T_S64 - WS_T_S8; }
/* f16 f16x2 bf16 bf16x2 f32 f64 (consecutive) */
static inline bool ws_type_is_float(ws_type t) { return (unsigned)t - WS_T_F16 <= WS_T_F64 - WS_T_F16; }
const char *ws_type_name(ws_type t); /* "u32", ... */

/* ---- state spaces ---------------------------------------------------- */
typedef enum {
    WS_SPACE_NONE = 0, /* no space given: generic addressing */
    WS_SPACE_REG,
    WS_SPACE_GLOBAL,
    WS_SPACE_SHARED,   /* .shared / .shared::cta */
    WS_SPACE_CONST,
    WS_SPACE_LOCAL,
    WS_SPACE_PARAM,    /* kernel params (read-only, per launch) or frame params, see ws_symbol */
    WS_SPACE_TEX,
    WS_SPACE_COUNT
} ws_space;
const char *ws_space_name(ws_space s);

/* ---- opcodes ---------------------------------------------------------- */
#define WS_OPCODES(X)                                                        \
    /* integer / float arithmetic */                                         \
    X(ABS) X(ADD) X(ADDC) X(SUB) X(SUBC) X(MUL) X(MAD) X(MADC) X(MUL24)      \
    X(MAD24) X(SAD) X(FMA) X(DIV) X(REM) X(NEG) X(MIN) X(MAX) X(COPYSIGN)    \
    X(TESTP)                                                                 \
    /* SFU-class */                                                          \
    X(RCP) X(SQRT) X(RSQRT) X(SIN) X(COS) X(LG2) X(EX2) X(TANH)              \
    /* bit manipulation */                                                   \
    X(AND) X(OR) X(XOR) X(NOT) X(CNOT) X(LOP3) X(SHL) X(SHR) X(SHF) X(BFE)   \
    X(BFI) X(BREV) X(POPC) X(CLZ) X(BFIND) X(PRMT) X(DP4A) X(DP2A)           \
    /* compare / select */                                                   \
    X(SETP) X(SET) X(SELP) X(SLCT)                                           \
    /* data movement / conversion */                                         \
    X(MOV) X(CVT) X(CVTA) X(LD) X(LDU) X(ST) X(PREFETCH) X(ISSPACEP)         \
    /* atomics */                                                            \
    X(ATOM) X(RED)                                                           \
    /* synchronisation */                                                    \
    X(BAR) X(MEMBAR) X(FENCE)                                                \
    /* control */                                                            \
    X(BRA) X(CALL) X(RET) X(EXIT) X(TRAP) X(NANOSLEEP)                       \
    /* warp-level */                                                         \
    X(VOTE) X(SHFL) X(ACTIVEMASK) X(MATCH) X(REDUX)                          \
    /* texture */                                                            \
    X(TEX)                                                                   \
    /* added later, kept last so that earlier opcode numbers stay stable */  \
    X(BMSK) X(SZEXT) X(FNS)                                                 \
    /* video: vadd ... vset, and with inst.vec = 2 / 4 their SIMD forms */   \
    X(VADD) X(VSUB) X(VABSDIFF) X(VMIN) X(VMAX) X(VSET) X(VAVRG)             \
    /* tensor core: wmma.load/store/mma and mma.sync (see WS_MMA_* below) */ \
    X(WMMA) X(MMA)                                                           \
    /* asynchronous copies and mbarriers (see WS_CPA_* / WS_MBAR_* below) */ \
    X(CP_ASYNC) X(MBARRIER)                                                  \
    /* video: shifts and multiply-add (scalar only) */                       \
    X(VSHL) X(VSHR) X(VMAD)                                                  \
    /* performance-monitor event (no functional effect) */                    \
    X(PMEVENT)                                                               \
    /* dynamic per-thread stack (alloca, stacksave, stackrestore) */          \
    X(ALLOCA) X(STACKSAVE) X(STACKRESTORE)                                   \
    /* programmatic dependent launch: no effect, launches run one at a time */ \
    X(GRIDDEPCONTROL)                                                        \
    /* surfaces: suld.b, sust.b, suq (see WS_SURF_* below) */                \
    X(SULD) X(SUST) X(SUQ)                                                   \
    /* texture gather: tld4.{r,g,b,a}.2d (see WS_TEX_* below) */             \
    X(TLD4)                                                                  \
    /* thread-block clusters: mapa (distributed shared memory), getctarank */ \
    X(MAPA) X(GETCTARANK)                                                    \
    /* elect.sync d|p, membermask: one leader lane */                         \
    X(ELECT)                                                                 \
    /* surface reduction: sured.b.OP.GEOM.TYPE.MODE (see SULD / SUST below) */ \
    X(SURED)                                                                 \
    /* texture query: txq{.level}.QUERY.b32 (the WS_SUQ_* queries) */         \
    X(TXQ)                                                                   \
    /* warp-wide 8x8 b16 matrix moves (see WS_OP_LDMATRIX below) */          \
    X(LDMATRIX) X(STMATRIX) X(MOVMATRIX)

typedef enum {
#define WS_OP_ENUM(n) WS_OP_##n,
    WS_OPCODES(WS_OP_ENUM)
#undef WS_OP_ENUM
    WS_OP_COUNT
} ws_opcode;
const char *ws_opcode_name(ws_opcode op); /* lower-case PTX name */

/* Rounding modifier (.rn .rz .rm .rp for floats, .rni .rzi .rmi .rpi for
 * float->int / float round-to-integral in cvt). */
typedef enum {
    WS_RND_NONE = 0, WS_RND_RN, WS_RND_RZ, WS_RND_RM, WS_RND_RP,
    WS_RND_RNI, WS_RND_RZI, WS_RND_RMI, WS_RND_RPI, WS_RND_RNA
} ws_rnd;

/* Comparison for setp/set/slct-like ops. */
typedef enum {
    WS_CMP_NONE = 0,
    WS_CMP_EQ, WS_CMP_NE, WS_CMP_LT, WS_CMP_LE, WS_CMP_GT, WS_CMP_GE,
    WS_CMP_LO, WS_CMP_LS, WS_CMP_HI, WS_CMP_HS,             /* unsigned */
    WS_CMP_EQU, WS_CMP_NEU, WS_CMP_LTU, WS_CMP_LEU, WS_CMP_GTU, WS_CMP_GEU,
    WS_CMP_NUM, WS_CMP_NAN                                   /* float only */
} ws_cmp;

/* Boolean combine of setp/set (".and", ".or", ".xor" with a third pred). */
typedef enum { WS_BOOL_NONE = 0, WS_BOOL_AND, WS_BOOL_OR, WS_BOOL_XOR } ws_boolop;

/* ws_inst.sub: an op-specific sub-operation. The meaning depends on op. */
enum {
    /* MUL, MAD, MUL24, MAD24: which part of the product */
    WS_MUL_DEFAULT = 0, WS_MUL_LO, WS_MUL_HI, WS_MUL_WIDE,
};
enum { /* ATOM, RED, REDUX */
    WS_ATOM_NONE = 0, WS_ATOM_ADD, WS_ATOM_MIN, WS_ATOM_MAX, WS_ATOM_INC,
    WS_ATOM_DEC, WS_ATOM_CAS, WS_ATOM_EXCH, WS_ATOM_AND, WS_ATOM_OR,
    WS_ATOM_XOR
};
enum { /* SHFL */ WS_SHFL_UP = 1, WS_SHFL_DOWN, WS_SHFL_BFLY, WS_SHFL_IDX };
enum { /* VOTE */ WS_VOTE_ALL = 1, WS_VOTE_ANY, WS_VOTE_UNI, WS_VOTE_BALLOT };
enum { /* MATCH */ WS_MATCH_ANY = 1, WS_MATCH_ALL };
enum { /* SHF */ WS_SHF_L = 1, WS_SHF_R };
/* Video ops: inst.boolop holds the secondary operation (.add .min .max),
 * inst.vec the SIMD width (1 = scalar, 2, 4), inst.cmp vset's comparison;
 * vshl/vshr: flags WS_F_WRAP for .wrap (else .clamp); vmad: sub WS_VMAD_*.
 * Operand selectors live in the operands' imm (0 = the default):
 *   scalar a/b (.asel/.bsel) and d (.dsel, merge into c): WS_VSEL_B0 + k for
 *   .bk, WS_VSEL_H0 + k for .hk;
 *   SIMD a/b: WS_VSEL_LIST | digit of element i at bits 3i..3i+2 (the
 *   element of {b, a} it takes: .h10 / .b3210 is a's default, .h32 / .b7654
 *   b's); SIMD d (.mask): WS_VSEL_MASK | bit i for each element written.
 * vmad's negated operands ({-}a) have the operand's neg = 1. */
enum { WS_VOP2_ADD = 1, WS_VOP2_MIN, WS_VOP2_MAX };
enum { WS_VSEL_B0 = 1, WS_VSEL_H0 = 5, WS_VSEL_LIST = 0x8000, WS_VSEL_MASK = 0x100 };
enum { WS_VMAD_PO = 1, WS_VMAD_SHR7 = 2, WS_VMAD_SHR15 = 4 };
static inline bool ws_op_is_video(unsigned op) {
    return (op >= WS_OP_VADD && op <= WS_OP_VAVRG) || (op >= WS_OP_VSHL && op <= WS_OP_VMAD);
}
/* WMMA / MMA (src/ptx/mma.h has the shapes and fragment sizes):
 *   sub = WS_MMA_LOAD_A/B/C, WS_MMA_STORE_D or WS_MMA_MMA (mma.sync: always MMA);
 *   cmp = the shape (ws_mma_shape), boolop = layouts (WS_MMA_ACOL / WS_MMA_BCOL;
 *   a load or store: both bits for .col), flags WS_F_SAT = .satfinite;
 *   types: type = D (a load/store: its fragment's type), stype = A, ttype = B,
 *   scope = C, as ws_type (tf32 is WS_T_B32: PTX keeps it in .b32 registers).
 *   The fragment registers are in call_args (ncall_args of them): a load's or
 *   store's fragment, or mma's D, A, B, C fragments one after the other.
 *   load: src[0] = address, src[1] = stride (absent: the shape's leading
 *   dimension); store: dst[0] = address, src[0] = stride. */
enum { WS_MMA_LOAD_A = 1, WS_MMA_LOAD_B, WS_MMA_LOAD_C, WS_MMA_STORE_D, WS_MMA_MMA };
enum { WS_MMA_ACOL = 1, WS_MMA_BCOL = 2 };
/* CP_ASYNC (cp.async...; src/exec/exec_async.c), by sub:
 *   COPY: cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size}:
 *     src[0] dst, src[1] src, src[2] cp-size (immediate 4, 8 or 16), src[3]
 *     src-size (absent: cp-size); cacheop = .ca / .cg;
 *   COMMIT, WAIT_GROUP (src[0] = N), WAIT_ALL;
 *   MBAR_ARRIVE: cp.async.mbarrier.arrive[.noinc].shared.b64 [mbar] (src[0];
 *     flags WS_F_NOINC);
 *   BULK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
 *     [dst], [src], size, [mbar] (src[0..3]).
 * MBARRIER (mbarrier.OP.shared.b64), by sub: INIT [m], count; ARRIVE state,
 * [m]{, count} (flags WS_F_EXPECT_TX: arrive.expect_tx state, [m], txcount);
 * ARRIVE_DROP likewise; TEST_WAIT / TRY_WAIT p, [m], state (flags
 * WS_F_PARITY: .parity, the operand is a phase parity; try_wait may have a
 * time limit operand, ignored); EXPECT_TX / COMPLETE_TX [m], txcount; INVAL
 * [m]; PENDING_COUNT d, state. */
enum { WS_CPA_COPY = 1, WS_CPA_COMMIT, WS_CPA_WAIT_GROUP, WS_CPA_WAIT_ALL, WS_CPA_MBAR_ARRIVE, WS_CPA_BULK };
enum { WS_MBAR_INIT = 1, WS_MBAR_ARRIVE, WS_MBAR_ARRIVE_DROP, WS_MBAR_TEST_WAIT, WS_MBAR_TRY_WAIT,
       WS_MBAR_EXPECT_TX, WS_MBAR_COMPLETE_TX, WS_MBAR_INVAL, WS_MBAR_PENDING_COUNT };
/* CVT: sub = WS_CVT_TF32 is cvt.{rna,rn,rz}.tf32.f32 (type b32, stype f32). */
enum { WS_CVT_TF32 = 1 };
/* BRA: sub = WS_BRA_IDX is brx.idx: src[0] = the index, call_args[0] = the
 * number of targets of its .branchtargets table, call_args[1..] = their pcs. */
enum { WS_BRA_IDX = 1 };
enum { /* PRMT modes: .f4e .b4e .rc8 .ecl .ecr .rc16; 0 = default */
    WS_PRMT_DEFAULT = 0, WS_PRMT_F4E, WS_PRMT_B4E, WS_PRMT_RC8, WS_PRMT_ECL,
    WS_PRMT_ECR, WS_PRMT_RC16
};
enum { /* BAR: bar.sync / barrier.sync (aligned or not), bar.arrive, bar.red */
    WS_BAR_SYNC = 1, WS_BAR_ARRIVE, WS_BAR_RED_POPC, WS_BAR_RED_AND, WS_BAR_RED_OR,
    WS_BAR_WARP_SYNC, /* bar.warp.sync membermask (__syncwarp) */
    WS_BAR_CLUSTER_ARRIVE, WS_BAR_CLUSTER_WAIT /* barrier.cluster.arrive / .wait (sm_90) */
};
enum { /* TESTP */
    WS_TESTP_FINITE = 1, WS_TESTP_INFINITE, WS_TESTP_NUMBER, WS_TESTP_NOTANUMBER,
    WS_TESTP_NORMAL, WS_TESTP_SUBNORMAL
};
enum { /* MEMBAR / FENCE scope */ WS_SCOPE_CTA = 1, WS_SCOPE_GPU, WS_SCOPE_SYS };
/* TEX: geometry (.1d .2d .3d) is the number of coordinates used. The form is
 * tex.GEOM.v4.DTYPE.CTYPE {d0,d1,d2,d3}, [texobj, {coords}]: type = DTYPE
 * (f32 s32 u32), stype = CTYPE (s32: texel indices, f32: filtered
 * coordinates), space = WS_SPACE_TEX, dst[0] = 4-element VEC, src[0] = the
 * .u64 register holding the texture object handle, src[1] = coordinate VEC
 * (1, 2, or 4 elements for .3d, the 4th ignored). */
enum { WS_TEX_1D = 1, WS_TEX_2D, WS_TEX_3D };
/* Layered geometries: tex.a1d {layer, x}, tex.a2d {layer, x, y, _}; the
 * layer is an s32 index (clamped to the layers there are). */
enum { WS_TEX_A1D = 4, WS_TEX_A2D = 5 };
/* Cube maps: tex.cube {x, y, z, _}, a direction (f32); layered cube maps:
 * tex.acube {layer, x, y, z} (the layer an s32 index of 6-face cubes). */
enum { WS_TEX_CUBE = 6, WS_TEX_ACUBE = 7 };
/* TEX boolop: tex.level (src[2] = the level of detail) and tex.grad
 * (src[2], src[3] = the x and y gradient vectors). Every texture has one
 * mipmap level in warpsim, so both read level 0 like plain tex. */
enum { WS_TEX_LOD_NONE = 0, WS_TEX_LOD_LEVEL, WS_TEX_LOD_GRAD };
/* TLD4 (tld4.COMP.2d.v4.DTYPE.f32, texture gather): as TEX .2d with
 * boolop = the component 0..3 (.r .g .b .a); the four texels of the
 * bilinear footprint, counter-clockwise from the lower left. */
/* SULD / SUST (src/exec/exec_surf.c): unformatted surface access through a
 * surface object. sub = geometry (WS_TEX_1D..3D, WS_TEX_A1D {layer, x},
 * WS_TEX_A2D {layer, x, y, _}; cube maps are .a2d with layer = face, or
 * 6 * cube + face when layered), boolop = out-of-range
 * mode (WS_SURF_TRAP / CLAMP / ZERO), type = .b8 .b16 .b32 .b64, vec = 1,
 * 2, 4; cacheop as on ld/st. The first coordinate is a byte offset, the
 * others are row and slice indices (s32).
 *   suld.b.GEOM{.vN}.TYPE.MODE d, [surf, {coords}]: dst[0] = REG or VEC,
 *     src[0] = the .u64 handle register, src[1] = coordinate REG or VEC;
 *   sust.b.GEOM{.vN}.TYPE.MODE [surf, {coords}], c: src[0] = handle,
 *     src[1] = coordinates, src[2] = value REG or VEC (elements may be
 *     immediates, as on st).
 * SURED: sured.b.OP.GEOM.TYPE.MODE [surf, {coords}], c: as sust with one
 *   value; cmp = the reduction WS_ATOM_ADD / MIN / MAX / AND / OR, type =
 *   .u32 .s32 .u64 .s64 .b32 .b64 (min/max compare by its signedness).
 * SUQ: suq.QUERY.b32 d, [surf]: sub = WS_SUQ_*, src[0] = handle. */
enum { WS_SURF_TRAP = 0, WS_SURF_CLAMP, WS_SURF_ZERO };
/* sust.p (formatted store; type .b32): flags WS_F_SURF_P. The first
 * coordinate is an element index; value k is channel k (R, G, B, A), read
 * as f32 for float and normalized formats, else as an integer, and
 * converted to the surface's format. */
enum { WS_SUQ_WIDTH = 1, WS_SUQ_HEIGHT, WS_SUQ_DEPTH, WS_SUQ_CHANNEL_DATA_TYPE, WS_SUQ_CHANNEL_ORDER,
       WS_SUQ_ARRAY_SIZE, WS_SUQ_MEMORY_LAYOUT, /* suq and txq */
       WS_SUQ_NORMALIZED_COORDS, WS_SUQ_FILTER_MODE, WS_SUQ_ADDR_MODE_0, WS_SUQ_ADDR_MODE_1,
       WS_SUQ_ADDR_MODE_2, WS_SUQ_NUM_MIPMAP_LEVELS, WS_SUQ_NUM_SAMPLES, /* txq only */
       WS_SUQ_COUNT };
/* LDMATRIX / STMATRIX / MOVMATRIX (src/exec/exec_matrix.c):
 *   ldmatrix.sync.aligned.m8n8.xN{.trans}.shared{::cta}.b16 d, [a]: vec = N
 *     (1, 2, 4) 8x8 matrices of b16, dst[0] = REG or N-VEC, src[0] = MEM;
 *   stmatrix.sync.aligned.m8n8.xN{.trans}.shared{::cta}.b16 [a], r: src[0] =
 *     MEM, src[1] = REG or N-VEC;
 *   movmatrix.sync.aligned.m8n8.trans.b16 d, a.
 * boolop = 1 for .trans; space = WS_SPACE_SHARED. */
/* TXQ: txq.QUERY.b32 d, [tex] or txq.level.QUERY.b32 d, [tex, lod] (width,
 * height, depth of a level): sub = WS_SUQ_*, boolop = 1 for .level,
 * src[0] = handle, src[1] = the level register. */
/* TRAP: sub = WS_TRAP_UNSUPPORTED stands in for an unsupported instruction the
 * parser skipped (its problem has the same line); executing it faults. */
enum { WS_TRAP_UNSUPPORTED = 1, WS_TRAP_BRKPT /* brkpt: no debugger to stop in */ };

/* ws_inst.flags bits */
enum {
    WS_F_SAT      = 1u << 0,  /* .sat */
    WS_F_FTZ      = 1u << 1,  /* .ftz */
    WS_F_APPROX   = 1u << 2,  /* .approx */
    WS_F_FULL     = 1u << 3,  /* .full (div.full.f32) */
    WS_F_UNI      = 1u << 4,  /* .uni on bra/call/ret */
    WS_F_VOLATILE = 1u << 5,  /* ld/st .volatile (or .relaxed/.acquire/...) */
    WS_F_CC       = 1u << 6,  /* .cc: writes the carry flag (add.cc, sub.cc, mad.cc) */
    WS_F_WRAP     = 1u << 7,  /* shf.wrap (otherwise clamp) */
    WS_F_SHIFTAMT = 1u << 8,  /* bfind.shiftamt */
    WS_F_NC       = 1u << 9,  /* ld.global.nc */
    WS_F_SYNC     = 1u << 10, /* .sync forms of vote/shfl/bar (membermask operand present) */
    WS_F_ALIGNED  = 1u << 11, /* bar.sync / barrier.sync.aligned */
    WS_F_RELU     = 1u << 12, /* .relu on f16 ops / cvt */
    WS_F_NAN      = 1u << 13, /* min/max .NaN */
    WS_F_ABS      = 1u << 14, /* .abs variants */
    WS_F_CACHEOP  = 1u << 15, /* a cache operator (.ca .cg .cs .lu .cv .wb .wt) was given; see inst.cacheop */
    /* bmsk / szext use WS_F_WRAP for .wrap (otherwise .clamp) */
    /* cp.async / mbarrier reuse bits that their instructions cannot have: */
    WS_F_NOINC    = WS_F_SHIFTAMT, /* cp.async.mbarrier.arrive.noinc */
    WS_F_PARITY   = WS_F_SHIFTAMT, /* mbarrier.test_wait/try_wait.parity */
    WS_F_EXPECT_TX = WS_F_WRAP,    /* mbarrier.arrive.expect_tx */
    WS_F_SURF_P   = WS_F_SHIFTAMT, /* sust.p (formatted) */
};

/* Cache operators on ld/st (recorded for the timing model). */
typedef enum {
    WS_CACHE_DEFAULT = 0, WS_CACHE_CA, WS_CACHE_CG, WS_CACHE_CS, WS_CACHE_LU,
    WS_CACHE_CV, WS_CACHE_WB, WS_CACHE_WT
} ws_cacheop;

/* Special registers (%tid.x etc.). */
typedef enum {
    WS_SREG_NONE = 0,
    WS_SREG_TID_X, WS_SREG_TID_Y, WS_SREG_TID_Z,
    WS_SREG_NTID_X, WS_SREG_NTID_Y, WS_SREG_NTID_Z,
    WS_SREG_CTAID_X, WS_SREG_CTAID_Y, WS_SREG_CTAID_Z,
    WS_SREG_NCTAID_X, WS_SREG_NCTAID_Y, WS_SREG_NCTAID_Z,
    WS_SREG_LANEID, WS_SREG_WARPID, WS_SREG_NWARPID, WS_SREG_SMID,
    WS_SREG_NSMID, WS_SREG_GRIDID, WS_SREG_CLOCK, WS_SREG_CLOCK_HI,
    WS_SREG_CLOCK64, WS_SREG_GLOBALTIMER, WS_SREG_GLOBALTIMER_LO,
    WS_SREG_GLOBALTIMER_HI,
    WS_SREG_LANEMASK_EQ, WS_SREG_LANEMASK_LT, WS_SREG_LANEMASK_LE,
    WS_SREG_LANEMASK_GT, WS_SREG_LANEMASK_GE,
    WS_SREG_DYNAMIC_SMEM_SIZE, WS_SREG_TOTAL_SMEM_SIZE,
    /* thread-block clusters (sm_90) */
    WS_SREG_CLUSTERID_X, WS_SREG_CLUSTERID_Y, WS_SREG_CLUSTERID_Z,
    WS_SREG_NCLUSTERID_X, WS_SREG_NCLUSTERID_Y, WS_SREG_NCLUSTERID_Z,
    WS_SREG_CLUSTER_CTAID_X, WS_SREG_CLUSTER_CTAID_Y, WS_SREG_CLUSTER_CTAID_Z,
    WS_SREG_CLUSTER_NCTAID_X, WS_SREG_CLUSTER_NCTAID_Y, WS_SREG_CLUSTER_NCTAID_Z,
    WS_SREG_CLUSTER_CTARANK, WS_SREG_CLUSTER_NCTARANK, WS_SREG_IS_EXPLICIT_CLUSTER,
    WS_SREG_ENVREG0, /* %envreg0..31 follow */
    WS_SREG_COUNT = WS_SREG_ENVREG0 + 32
} ws_sreg;

/* ---- operands ---------------------------------------------------------- */
typedef enum {
    WS_OPND_NONE = 0,
    WS_OPND_REG,    /* value register: reg = slot */
    WS_OPND_PRED,   /* predicate register: reg = predicate slot; neg = '!' prefix */
    WS_OPND_IMM,    /* immediate: imm = bit pattern in the instruction's type */
    WS_OPND_SREG,   /* special register: reg = ws_sreg */
    WS_OPND_MEM,    /* [base + imm]: base is a register (reg != WS_NOREG), a symbol
                       (sym != WS_NOSYM) or neither (absolute address); imm = offset */
    WS_OPND_VEC,    /* {a, b, c, d}: vecn slots in vreg[] (WS_NOREG for '_') */
    WS_OPND_SYM,    /* address of a variable as a value (mov r, var; or var+imm) */
    WS_OPND_LABEL,  /* branch target: imm = instruction index */
    WS_OPND_FUNC,   /* call target / function address: imm = function index */
} ws_opnd_kind;

#define WS_NOREG 0xFFFFu
#define WS_NOSYM 0xFFFFFFFFu
#define WS_RELOC_FUNC 0x80000000u

typedef struct ws_operand {
    uint8_t kind;     /* ws_opnd_kind */
    uint8_t neg;      /* PRED source: logical not. */
    uint8_t vecn;     /* VEC: element count (2 or 4; 8 for some b128 forms) */
    uint8_t vec_is_pred; /* VEC of predicates (rare) */
    uint16_t reg;     /* REG/PRED slot; MEM base register or WS_NOREG; SREG id */
    uint16_t vreg[4]; /* VEC element slots */
    uint16_t bcast;   /* IMM source: 1 + its entry in the function's imm_lanes, 0 = none (in padding) */
    uint32_t sym;     /* MEM/SYM: symbol index in ws_module.syms or WS_NOSYM */
    uint8_t base32;   /* MEM: the base register is declared 32 bits wide or less (in padding) */
    int64_t imm;      /* IMM bits; MEM/SYM byte offset; LABEL target pc; FUNC index */
} ws_operand;

/* A VEC source of mov or st may hold immediates ({%r1, 0}): bit k of `neg`
 * marks element k as one. Its value is a 32-bit pattern, the low half in
 * vreg[k] and the high half in bits 16k..16k+15 of imm, sign-extended to 64
 * bits (the parser refuses 64-bit immediates that do not fit). */
static inline bool ws_vec_is_imm(const ws_operand *o, unsigned k) { return o->neg >> k & 1; }
static inline uint64_t ws_vec_imm(const ws_operand *o, unsigned k)
{
    uint32_t v = (uint32_t)(uint16_t)((uint64_t)o->imm >> (16 * k)) << 16 | o->vreg[k];
    return (uint64_t)(int64_t)(int32_t)v;
}

/* ---- instructions ------------------------------------------------------ */
#define WS_MAX_DST 2
#define WS_MAX_SRC 4

typedef struct ws_inst {
    uint16_t op;       /* ws_opcode */
    uint8_t type;      /* main type: destination / operation type (ws_type) */
    uint8_t stype;     /* second type: cvt source type, setp/set/slct compare type,
                          atom/red value type = type, prmt/shfl = b32 */
    uint8_t rnd;       /* ws_rnd */
    uint8_t space;     /* ws_space for ld/st/ldu/atom/red/cvta/prefetch/isspacep;
                          cvta: the named space (and flags WS_F_... via to_generic) */
    uint8_t cmp;       /* ws_cmp (setp, set, slct: not used) */
    uint8_t boolop;    /* ws_boolop */
    uint8_t sub;       /* op-specific sub-operation, see the enums above */
    uint8_t vec;       /* vector width of ld/st (1, 2, 4) */
    uint8_t cacheop;   /* ws_cacheop */
    uint8_t scope;     /* membar/fence/atom scope (WS_SCOPE_*; 0 = default) */
    uint8_t to_generic;/* cvta: 1 = space->generic (cvta.global), 0 = generic->space (cvta.to.global) */
    uint8_t ndst, nsrc;
    uint16_t flags;    /* WS_F_* */
    uint16_t guard;    /* guard predicate slot, WS_NOREG if unguarded */
    uint8_t guard_neg; /* @!p */
    uint8_t ttype;     /* third type: btype of video ops (vadd.dtype.atype.btype; vset: type u32) */
    uint8_t fast;      /* the functional engine's fast kind of this form, decided on its first
                          step (src/exec/cta.c; 0: not yet; in padding) */
    ws_operand dst[WS_MAX_DST]; /* dst[1] is the second destination (setp p|q, shfl r|p) */
    ws_operand src[WS_MAX_SRC];
    int32_t reconv;    /* BRA: reconvergence pc = first instruction of the immediate
                          post-dominator of the branch's block; -1 = function exit */
    uint32_t line;     /* source line in the PTX file (1-based) */
    /* CALL only: argument and return symbols (call-site .param variables). */
    uint32_t *call_args; uint8_t ncall_args;
    uint32_t *call_rets; uint8_t ncall_rets;
} ws_inst;

/* ---- variables / symbols ----------------------------------------------- */
typedef struct ws_symbol {
    char *name;
    uint8_t space;      /* ws_space */
    uint8_t type;       /* element type as declared (b8 for byte arrays) */
    bool is_extern;     /* .extern (e.g. dynamic .extern .shared) */
    bool is_frame;      /* per-thread storage in the owning function's frame:
                           .local variables, a .func's own params/return values and
                           call-site .param declarations. offset is within the frame. */
    bool is_kernel_param; /* a .entry parameter: offset is within the param buffer */
    int32_t func;       /* owning function index, or -1 for module scope */
    uint32_t align;     /* bytes */
    uint64_t size;      /* bytes (0 for an unsized extern array) */
    uint64_t offset;    /* SHARED: byte offset in the CTA's shared memory (static part);
                           GLOBAL/CONST: byte offset in the module's global/const image;
                           frame symbols: offset in the function frame;
                           kernel params: offset in the param buffer */
    uint8_t *init;      /* the first init_len initial bytes, or NULL = zero */
    uint64_t init_len;  /* bytes in init; the rest of the variable starts zero (a
                           short list leaves a huge array's tail unstored) */
    /* Symbols whose initialisers hold addresses of other variables (generic
       addresses of globals, function pointers) are listed here to be patched
       once addresses are known. */
    struct ws_reloc { uint64_t at; uint32_t sym; int64_t addend; } *relocs;
    /* reloc.sym with WS_RELOC_FUNC set: the low bits are a function index
       (function-pointer tables), not a symbol index. Each reloc writes an
       8-byte generic address (4 bytes when address_size is 32) at `at`. */
    uint32_t nrelocs;
} ws_symbol;

/* ---- functions --------------------------------------------------------- */
/* .extern functions the engine implements itself (ws_func.builtin). The
 * parser names them once, so a call never compares strings. */
enum { WS_BUILTIN_NONE = 0, WS_BUILTIN_VPRINTF, WS_BUILTIN_ASSERTFAIL, WS_BUILTIN_MALLOC, WS_BUILTIN_FREE };
int ws_builtin_of(const char *name); /* WS_BUILTIN_* for an .extern .func name */

typedef struct ws_param {
    uint32_t sym;       /* index into ws_module.syms */
} ws_param;

typedef struct ws_func {
    char *name;
    bool is_entry;      /* .entry (kernel) vs .func */
    bool is_extern;     /* declaration only (.extern .func, e.g. vprintf) */
    bool has_body;
    uint8_t builtin;    /* WS_BUILTIN_*: an .extern the engine implements (vprintf, __assertfail) */
    uint32_t line;

    ws_inst *insts;
    uint32_t ninsts;

    uint32_t nregs;     /* value register slots (each 64 bits per lane) */
    uint32_t npreds;    /* predicate slots */
    uint32_t unsupported; /* 1 + index in the module's problems of the first unsupported
                             instruction in the body (parsed with defer_unsupported); 0 = none.
                             (Here, in padding: ws_func's size matters to the hot loop.) */
    uint8_t *reg_type;  /* declared ws_type per value slot */
    char **reg_name;    /* name per value slot (for messages) */
    char **pred_name;   /* name per predicate slot */

    uint32_t *params; uint32_t nparams; /* symbol indices, in declaration order */
    uint32_t *rets;   uint32_t nrets;   /* .func return values */
    uint32_t param_size;    /* kernel: bytes of the param buffer (aligned layout) */
    uint32_t frame_size;    /* bytes of per-thread frame (locals + func params + call-site params) */
    uint32_t static_shared; /* bytes of static shared memory the kernel uses
                               (module-scope shared + its own), before the dynamic part */
    uint32_t dyn_shared_align; /* alignment of the extern shared array (0 = none used) */

    /* Performance tuning directives (0 = not given). */
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
    /* Thread-block clusters (sm_90): .reqnctapercluster (0 = not given;
       a launch then names its cluster shape, or has none), .explicitcluster. */
    uint32_t reqnctapercluster[3];
    bool explicit_cluster;

    /* Control flow: basic blocks in instruction order. */
    uint32_t nblocks;
    uint32_t *block_start;  /* first instruction index of each block */
    uint32_t *inst_block;   /* block index of each instruction */
    int32_t *ipdom;         /* immediate post-dominator block of each block, -1 = exit */

    /* Resources from ptxas (filled from the .ptxinfo sidecar; -1 = unknown). */
    int ptxas_regs, ptxas_smem, ptxas_lmem, ptxas_cmem;

    /* Each distinct immediate source value, WS_IMM_LANES equal lanes apiece
       (ws_func_prepare), so that the engine points at them instead of
       filling a warp-wide temporary per use. */
    uint64_t *imm_lanes;
    uint32_t nimm_lanes;
} ws_func;

#define WS_IMM_LANES 32      /* the warp size */
#define WS_IMM_LANES_MAX 256 /* entries per function at most; later values are filled per use */
/* The fields the engine reads instead of recomputing per use, filled once a function
   is parsed: f->imm_lanes, each immediate source's bcast and each memory operand's
   base32. False when out of memory. */
bool ws_func_prepare(ws_func *f);

/* A problem the parser went on after (ws_parse_opts in ptx.h). */
typedef struct ws_problem {
    char *msg;          /* "file:line:col: error: ..." */
    uint32_t line;
    int32_t func;       /* the function it is in, -1 at module scope */
} ws_problem;

typedef struct ws_module {
    char *filename;
    uint32_t version_major, version_minor; /* .version */
    char target[32];                       /* .target (e.g. "sm_75") */
    uint32_t address_size;                 /* 32 or 64 */

    ws_func *funcs; uint32_t nfuncs;
    ws_symbol *syms; uint32_t nsyms;

    uint64_t global_size;   /* bytes of the module's .global image */
    uint64_t const_size;    /* bytes of the module's .const image */
    uint64_t shared_size;   /* bytes of module-scope .shared variables */
    ws_problem *problems; uint32_t nproblems; /* statements skipped (see ws_parse_opts) */
} ws_module;

/* Layout rules the parser applies (the engine relies on them):
 * - Kernel params: packed in declaration order, each at its alignment
 *   (.align N, else its type size); func->param_size = end of the last one.
 * - .global / .const variables (module or function scope): each at its
 *   alignment in the module's global / const image (global_size, const_size).
 * - .shared: module-scope variables (and those declared inside a .func)
 *   occupy [0, module->shared_size). A kernel's own .shared variables follow,
 *   from shared_size upwards; func->static_shared = end of them (every kernel
 *   sees all module-scope shared variables).
 * - Dynamic shared memory: every .extern .shared symbol has size 0 and
 *   offset 0; its real offset depends on the running kernel:
 *       align_up(kernel->static_shared, kernel->dyn_shared_align)
 *   where dyn_shared_align = the largest alignment of any .extern .shared
 *   declaration in the module (0 if there is none). All extern shared
 *   arrays alias the same address, as in CUDA.
 * - Frame symbols (is_frame): a .func's return values then params, then its
 *   .local variables and call-site .param declarations in order of
 *   appearance, each at its alignment; a `{ }` scope's call-site params are
 *   released at the closing brace (later scopes reuse the bytes).
 *   func->frame_size = high-water mark. Kernels have no param frame symbols.
 * - Registers: every declaration gets its own slot, also inside `{ }`
 *   scopes (%r<5> declares %r0..%r4). A '_' sink operand is WS_OPND_NONE.
 * - Immediates: integers are stored sign-extended; for a float operand type
 *   (f32/f64) the bits of that type (0f/0d literals converted if needed).
 * - Types: the first type modifier goes to inst.type, the second to
 *   inst.stype (cvt.f32.s32: type f32, stype s32; set.u32.f32; slct.f32.s32;
 *   dp4a.u32.s32); with one type, stype = type. mul/mad.wide: type is the
 *   source type. setp: type = stype = compare type.
 * - CALL: src[0] is WS_OPND_FUNC (direct) or WS_OPND_REG (indirect through a
 *   function pointer); call_args / call_rets list the caller's call-site
 *   .param symbols; the callee's params/rets are its f->params / f->rets.
 * - A function whose body does not end in ret/exit/bra gets an implicit
 *   trailing RET. */

/* The first unsupported instruction a kernel (or any function it may call
 * or take the address of) contains: an index into m->problems, or -1. */
int ws_module_func_unsupported(const ws_module *m, uint32_t func);

/* Lookup helpers (linear; for load time, not the hot path). */
int ws_module_find_func(const ws_module *m, const char *name);   /* -1 if none */
int ws_module_find_symbol(const ws_module *m, const char *name); /* module scope; -1 if none */
void ws_module_free(ws_module *m);

#endif
