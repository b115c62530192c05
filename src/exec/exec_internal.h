/* Private state of the functional engine (not part of the exec.h contract).
 *
 * Registers are struct-of-arrays: a warp's value registers are one block of
 * nregs*32 uint64_t (slot-major, lanes contiguous) and predicates one
 * uint32_t lane mask per slot. Values are stored as raw 64-bit patterns;
 * every reader truncates / extends to its own instruction type, so writers
 * never need to normalise upper bits. */
#ifndef WARPSIM_EXEC_INTERNAL_H
#define WARPSIM_EXEC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "exec/exec.h"

#define WS_NUM_BARRIERS 16
/* bar_id of a warp waiting in barrier.cluster.wait (WS_WARP_BAR state) */
#define WS_CLUSTER_BAR_ID WS_NUM_BARRIERS
/* Shared-memory addresses in the .shared::cluster window: bits 24 and up
   hold the target CTA's rank + 1 (mapa); 0 there is the CTA's own memory,
   so every .shared::cta address is a .shared::cluster address of itself. */
#define WS_DSMEM_RANK_SHIFT 24
/* Function "addresses" (mov r, func; indirect call) live in their own range. */
#define WS_FUNC_ADDR_BASE 0x00007B0000000000ull

struct ws_gmem {
    uint8_t *heap;        /* reserved (lazily committed) host mapping of the heap */
    uint64_t capacity;    /* bytes reserved */
    uint64_t top;         /* bump pointer, bytes from the heap base */
    uint32_t *chunk_owner;/* per 256-byte chunk: allocation index + 1, 0 = not live */
    uint64_t nchunks;
    struct ws_alloc { uint64_t base, size; bool live; } *allocs; /* ascending bases */
    uint32_t nallocs, cap_allocs;
    uint64_t images_made; /* ws_image.stamp */
    /* Mapping (ws_gmem_set_map_granularity): regions of 1 << map_shift bytes
       from the heap base; one holding any live allocation is mapped. */
    unsigned map_shift;   /* 0: exact checking, no regions */
    uint32_t *region_live;/* per region: live allocations touching it */
    uint64_t nregions;
};

/* Fast inline validity check + host pointer for global memory: exact (inside
 * one live allocation). Everything else goes to ws_gmem_mapped / memcheck in
 * exec_mem.c's slow path, so the common access pays for nothing more. */
static inline uint8_t *ws_gmem_ptr(const ws_gmem *g, uint64_t addr, uint64_t size) {
    uint64_t off = addr - WS_GLOBAL_HEAP_BASE;
    if (addr < WS_GLOBAL_HEAP_BASE || off >= g->top) return NULL;
    uint32_t o = g->chunk_owner[off >> 8];
    if (!o) return NULL;
    const struct ws_alloc *a = &g->allocs[o - 1];
    if (addr + size > a->base + a->size || addr + size < addr) return NULL;
    return g->heap + off;
}

typedef struct ws_simt_entry {
    int32_t pc;     /* next instruction */
    int32_t rpc;    /* reconvergence pc (pop when pc reaches it); -1 = function exit */
    uint32_t mask;  /* lanes on this path */
    uint32_t nmask; /* mask's lane count, kept with it (the step counts lanes every instruction;
                       simt_set_mask and simt_push write both) */
} ws_simt_entry;

typedef struct ws_callframe {
    uint32_t caller_func;
    uint32_t simt_base;     /* index of the callee's base SIMT entry */
    uint32_t caller_local;  /* caller's frame base in local memory */
    uint32_t ret_mask;      /* lanes that executed ret */
    uint32_t caller_alloca; /* the caller's alloca bytes (ws_cta.alloca_ext) */
    const ws_inst *call;    /* the call instruction (for return values) */
} ws_callframe;

/* Functional mode only (grid.c runs a warp until it blocks): WS_WARP_MBAR, a
   warp whose mbarrier wait failed, parked until a phase of its CTA completes
   (exec_async.c); WS_WARP_SLEEP, a warp that executed nanosleep, parked until
   the other warps have had their turn (spin loops with back-off). */
enum { WS_WARP_RUN = 0, WS_WARP_BAR, WS_WARP_DONE, WS_WARP_MBAR, WS_WARP_SLEEP };

typedef struct ws_warp {
    uint32_t id;
    uint32_t lanes;         /* lanes that exist (partial last warp) */
    uint32_t exited;
    int state;
    /* barrier wait */
    uint32_t bar_id, bar_pc, bar_mask;
    const ws_inst *bar_inst; /* bar.red: destination written on release */
    /* SIMT stack */
    ws_simt_entry *stack; uint32_t sp, stack_cap;
    /* call stack */
    ws_callframe *frames; uint32_t nframes, frames_cap;
    uint32_t func;          /* current function */
    uint32_t ninsts;        /* its instruction count (set with func: warp_settle's test) */
    uint64_t *regs; uint32_t *preds;        /* current function's registers */
    uint64_t **reg_frames; uint32_t **pred_frames; /* per call depth, reused */
    size_t *reg_frame_cap, *pred_frame_cap; uint32_t nreg_frames;
    uint32_t local_base;    /* current frame base in per-thread local memory */
    uint8_t *local; uint32_t local_stride; /* lane l: local + l*local_stride */
    uint32_t cc;            /* carry flag per lane (add.cc/addc chains) */
    uint32_t tid[3][WS_WARP_SIZE];
    uint64_t sink[WS_WARP_SIZE]; /* destination '_' */
} ws_warp;

typedef struct ws_barrier {
    uint32_t arrived;       /* threads arrived */
    uint32_t expected;      /* 0 = all live threads of the CTA */
    uint32_t nwaiting;      /* warps waiting */
    uint32_t red_popc;
    bool red_and, red_or;
    bool partial;           /* some warp arrived with only part of its live lanes */
} ws_barrier;

struct ws_cta {
    ws_launch_desc l;
    const ws_module *mod;
    const ws_func *kfunc;
    uint32_t ctaid[3], smid;
    uint32_t nthreads, nwarps;
    ws_warp *warps;
    uint32_t *alloca_ext;   /* per warp: bytes alloca added after its current frame (the same for
                               every lane: the largest request; callees' frames start after them).
                               Here, not in ws_warp, whose size the hot loop feels */
    uint8_t *shared; uint32_t shared_size;
    uint32_t dyn_shared_base; /* offset of extern (dynamic) shared arrays */
    uint64_t clock;         /* per-CTA warp-instruction counter (%clock) */
    ws_barrier bars[WS_NUM_BARRIERS];
    uint32_t ndone;
    uint32_t state_changes; /* bumped when a warp's state (run/barrier/done) changes:
                               the timing model caches the states */
    struct ws_cluster *cluster; /* NULL: no cluster (an implicit cluster of one) */
    uint32_t crank;         /* rank in the cluster */
    uint32_t *cl_arrived;   /* per warp (cluster CTAs only): the cluster-barrier phase + 1 it
                               arrived in, 0 when it has not arrived */
    bool parks;             /* grid.c's run-until-blocked scheduler: a waiting warp (nanosleep,
                               failed try_wait) parks so the others run; the timing model,
                               which steps warps one instruction at a time, leaves it false */
    ws_exec_counts counts;
    /* ws_cta_recycle: what the allocations hold, and the block shape the warps' tids are for */
    uint32_t warps_cap, shared_cap;
    uint32_t tid_block[3];
};

/* ws_warp_next with its common case inline, for the timing model's issue stage (the
   call cost ~40 host instructions per issue): the warp's top SIMT entry is an
   instruction to execute (warp_settle's own test); anything else takes the call. */
static inline bool ws_warp_next_inline(ws_cta *c, unsigned warp, uint32_t *func, uint32_t *pc) {
    if (c && warp < c->nwarps) {
        const ws_warp *w = &c->warps[warp];
        if (w->state != WS_WARP_DONE && w->sp) {
            const ws_simt_entry *e = &w->stack[w->sp - 1];
            if (e->mask && e->pc != e->rpc && (uint32_t)e->pc < w->ninsts) {
                *func = w->func;
                *pc = (uint32_t)e->pc;
                return true;
            }
        }
    }
    return ws_warp_next(c, warp, func, pc);
}

/* Execution context of one warp instruction. */
typedef struct ws_xctx {
    ws_cta *c;
    ws_warp *w;
    const ws_func *f;
    const ws_inst *in;
    uint32_t pc;
    uint32_t mask;          /* lanes executing (after the guard) */
    ws_step *st;            /* non-NULL: record per-lane addresses */
    ws_fault *fault;
} ws_xctx;

#define WS_FOR_LANES(l, m) \
    for (uint32_t m_##l = (m), l; m_##l && ((l = (uint32_t)__builtin_ctz(m_##l)), 1); m_##l &= m_##l - 1)

/* Whether the lanes of m (not 0) are one run of consecutive lanes, [ctz, ws_lane_end):
 * the partial warps of blocks narrower than a warp and the tails past a bound (gaussian's
 * 16-thread blocks). Adding the lowest set bit clears the run and sets the bit above it
 * (wrapping to 0 for a run that ends at lane 31), so nothing is left in common with m. */
static inline bool ws_lanes_run(uint32_t m) { return ((m + (m & -m)) & m) == 0; }
static inline uint32_t ws_lane_end(uint32_t m) { return 32u - (uint32_t)__builtin_clz(m); }

/* WS_FOR_LANES for one statement, with a counted loop (which the compiler
 * can vectorize) when the whole warp is active, the common case, or when the
 * active lanes are one run (ascending lane order either way). */
#define WS_FOR_MASK(l, m, stmt)                                                                    \
    do {                                                                                           \
        uint32_t fm_##l = (m);                                                                     \
        if (fm_##l == ~0u) { for (uint32_t l = 0; l < WS_WARP_SIZE; l++) { stmt; } }               \
        else if (fm_##l && ws_lanes_run(fm_##l)) {                                                 \
            _Pragma("GCC unroll 4")                                                                \
            for (uint32_t l = (uint32_t)__builtin_ctz(fm_##l), e_##l = ws_lane_end(fm_##l);        \
                 l < e_##l; l++) { stmt; }                                                         \
        } else { WS_FOR_LANES(l, fm_##l) { stmt; } }                                               \
    } while (0)

/* Register access helpers. */
static inline uint64_t *ws_reg(ws_warp *w, unsigned slot) { return w->regs + (size_t)slot * WS_WARP_SIZE; }

/* wlog.c: the deferred-write log (exec.h). Entries in program order; an
   atomic instruction's lanes are followed by one WL_ATOM_END entry. A full
   warp's scalar global store is one WL_STORE_WARP entry: hp the heap (lane l
   writes heap + addr - WS_GLOBAL_HEAP_BASE), b the index in the log's word
   array of its 32 addresses followed by its 32 values, size the bytes;
   applied lane by lane in lane order, as 32 WL_STORE entries would be. */
enum { WL_STORE = 0, WL_ATOM, WL_ATOM_END, WL_STORE_WARP };
typedef struct ws_wlog_ent {
    uint8_t *hp;            /* host pointer of the word */
    uint64_t b, c;          /* store: the value; atomic: its operands */
    uint64_t *dst;          /* atomic: the lane's destination register (NULL: red);
                               WL_ATOM_END: the CTA's mem_writes counter */
    uint8_t kind, size, op, type;
} ws_wlog_ent;
struct ws_wlog {
    ws_wlog_ent *e;
    size_t n, cap;
    uint64_t *writes;
    uint64_t *w;            /* WL_STORE_WARP's addresses and values */
    size_t nw, wcap;
};
ws_wlog_ent *ws_wlog_grow(ws_wlog *l); /* aborts when out of memory, like the request pool */
static inline ws_wlog_ent *ws_wlog_add(ws_wlog *l) {
    return l->n < l->cap ? &l->e[l->n++] : ws_wlog_grow(l);
}
/* k consecutive entries (their fields are the caller's to fill) */
ws_wlog_ent *ws_wlog_reserve(ws_wlog *l, size_t k);
static inline ws_wlog_ent *ws_wlog_add_n(ws_wlog *l, size_t k) {
    if (l->n + k > l->cap) return ws_wlog_reserve(l, k);
    ws_wlog_ent *e = &l->e[l->n];
    l->n += k;
    return e;
}
/* k consecutive words of the word array; their index in *at */
uint64_t *ws_wlog_words_grow(ws_wlog *l, size_t k, size_t *at);
static inline uint64_t *ws_wlog_words(ws_wlog *l, size_t k, size_t *at) {
    if (l->nw + k > l->wcap) return ws_wlog_words_grow(l, k, at);
    *at = l->nw;
    l->nw += k;
    return l->w + *at;
}
/* exec_mem.c: an atomic's new value (ok false: the op is not defined for the type) */
uint64_t ws_atom_apply(unsigned op, ws_type t, uint64_t old, uint64_t b, uint64_t c, bool *ok);

/* cta.c */
ws_status ws_fail(ws_xctx *x, ws_status code, uint32_t lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
ws_status ws_unsupported(ws_xctx *x, const char *why);
/* ws_src / ws_dst: a source operand's 32 lanes (tmp when they have to be made) and a
   destination's. The register case, most operands, is inline (the call cost ~20 host
   instructions an operand); the _any forms take every kind. */
const uint64_t *ws_src_any(ws_xctx *x, const ws_operand *o, uint64_t *tmp);
uint64_t *ws_dst_any(ws_xctx *x, const ws_operand *o);
static inline const uint64_t *ws_src(ws_xctx *x, const ws_operand *o, uint64_t *tmp) {
    if (o->kind == WS_OPND_REG) return ws_reg(x->w, o->reg);
    return ws_src_any(x, o, tmp);
}
static inline uint64_t *ws_dst(ws_xctx *x, const ws_operand *o) {
    if (o->kind == WS_OPND_REG && o->reg != WS_NOREG) return ws_reg(x->w, o->reg);
    return ws_dst_any(x, o);
}
uint32_t ws_pred_src(ws_xctx *x, const ws_operand *o); /* lane mask of a PRED / IMM operand */
void ws_pred_write(ws_xctx *x, const ws_operand *o, uint32_t val);
uint64_t ws_sym_addr(ws_xctx *x, uint32_t sym, bool generic);
int ws_bar_check(ws_cta *c, unsigned id);
ws_step_result ws_cta_step_warp(ws_cta *c, ws_warp *w, ws_step *st, ws_fault *fault);
bool ws_cta_reset(ws_cta *c, const uint32_t ctaid[3], uint32_t smid);
ws_cta *ws_cta_recycle(ws_cta *c, const ws_launch_desc *l, const uint32_t ctaid[3], uint32_t smid);
void ws_cta_deadlock(ws_cta *c, ws_fault *fault);

/* exec_*.c: return WS_OK or a fault status (fault filled via ws_fail). */
ws_status ws_exec_int(ws_xctx *x);
/* Fast kinds (ws_inst.fast): forms that the step runs straight from ws_cta_step_warp,
   decided once per instruction from its fields alone (ws_*_form), doing what the
   general path (dispatch, then ws_exec_int / ws_exec_conv / ws_exec_float) does for
   them; WS_FK_GENERAL: every other form. */
enum {
    WS_FK_UNDECIDED = 0, WS_FK_GENERAL, WS_FK_INT_ADDSUB, WS_FK_INT_MUL, WS_FK_MOV_SREG, WS_FK_F32,
    WS_FK_SETP_INT
};
bool ws_int_addsub_form(const ws_inst *in);
void ws_exec_int_addsub(ws_xctx *x);
bool ws_int_mul_form(const ws_inst *in);
void ws_exec_int_mul(ws_xctx *x);
bool ws_mov_sreg_form(const ws_inst *in);
void ws_exec_mov_sreg(ws_xctx *x);
bool ws_setp_int_form(const ws_inst *in);
void ws_exec_setp_int(ws_xctx *x);
bool ws_f32_form(const ws_inst *in);
ws_status ws_exec_f32(ws_xctx *x);
ws_status ws_exec_video(ws_xctx *x); /* vadd ... vset and their SIMD forms (from ws_exec_int) */
ws_status ws_exec_float(ws_xctx *x);
/* exec_simd.c: f32 add/sub/mul/div/fma (round to nearest, no ftz/sat) of a full warp
   with AVX2+FMA; false (nothing written) where the host lacks them. */
typedef enum { WS_SIMD_ADD, WS_SIMD_SUB, WS_SIMD_MUL, WS_SIMD_DIV, WS_SIMD_FMA } ws_simd_op;
bool ws_simd_f32_full(ws_simd_op op, uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C);
/* exec_int.c's addsub_full with AVX2; false (nothing written) without */
bool ws_simd_addsub_full(uint64_t *D, const uint64_t *A, const uint64_t *B, bool sub);
/* D[l] = A[l] + v for a full warp with AVX2; false (nothing written) without */
bool ws_simd_addimm_full(uint64_t *D, const uint64_t *A, uint64_t v);
/* exec_int.c's mul_lo_lanes of a full warp for 32-bit operands (C: mad; lo: mad.lo, the
   sum of the low words) with AVX2; false (nothing written) without */
bool ws_simd_mul32_full(uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C, bool sg,
                        bool lo);
/* exec_mem.c's addrs64_full / addrs32_full (ad[l] = lane l's address; 1: some lane is
   misaligned for size or out of bounds, 0: none) with AVX2; -1 (nothing written) without. */
int ws_simd_addrs64_full(const uint64_t *b, uint64_t off, uint64_t *ad, uint64_t lo, uint64_t last,
                         uint32_t size);
int ws_simd_addrs32_full(const uint64_t *b, uint32_t off, uint64_t *ad, uint32_t last, uint32_t size);
/* exec_mem.c's full-warp ld.global.32 loop (D[l] = the 4 bytes at host address hb + ad[l],
   zero-extended; every access checked by the caller) with AVX2; false (nothing read or
   written) without. */
bool ws_simd_load32_full(uint64_t *D, uintptr_t hb, const uint64_t *ad);
/* wlog.c's full-warp 32-bit store when its lanes' addresses a[l] are a[0] + 4 l (p: a[0]'s
   host address): one packed store, with AVX2; false (nothing written) otherwise. */
bool ws_simd_store32_seq(uint8_t *p, const uint64_t *a, const uint64_t *v);
/* exec_conv.c's integer comparison of 32-bit operands (the low words), all 32 lanes
   (signed orders when sgn; == and != either way) with AVX2: *r bit l = lane l; false
   (nothing written) without. */
typedef enum { WS_SIMD_EQ, WS_SIMD_NE, WS_SIMD_LT, WS_SIMD_LE, WS_SIMD_GT, WS_SIMD_GE } ws_simd_cmp;
bool ws_simd_cmp32_full(ws_simd_cmp op, bool sgn, const uint64_t *A, const uint64_t *B, uint32_t *r);
ws_status ws_exec_conv(ws_xctx *x);
ws_status ws_exec_mem(ws_xctx *x);
ws_status ws_exec_atom(ws_xctx *x);
ws_status ws_exec_warp(ws_xctx *x);
/* Fault if an executing lane's membermask (src[mi]) does not include it. */
ws_status ws_warp_check_members(ws_xctx *x, unsigned mi);
ws_status ws_exec_tex(ws_xctx *x);
ws_status ws_exec_surf(ws_xctx *x); /* suld.b, sust.b, suq (exec_surf.c) */
/* exec_builtin.c: a call of an .extern the engine implements (vprintf, __assertfail). */
ws_status ws_exec_builtin(ws_xctx *x, const ws_func *callee);
/* exec_mem.c: host pointer for size bytes at a generic address in lane's view,
   or NULL with the fault filled (illegal or misaligned address). */
const uint8_t *ws_generic_read_ptr(ws_xctx *x, uint64_t addr, uint32_t size, uint32_t lane);

/* Helpers shared by the semantic files. */
/* Loads and stores of 1, 2, 4 or 8 bytes in host order (functional memory and the
 * timing model's store log share them). */
static inline uint64_t ws_load_n(const uint8_t *p, unsigned n) {
    switch (n) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}
static inline void ws_store_n(uint8_t *p, uint64_t v, unsigned n) {
    switch (n) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static inline uint64_t ws_ext(uint64_t v, unsigned bits, bool sgn) {
    unsigned sh = 64 - bits;
    return sgn ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
}
static inline float ws_f32(uint64_t v) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
static inline uint64_t ws_f32b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double ws_f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t ws_f64b(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* exec_conv.c: small floats */
double ws_f16_to_double(uint16_t h);
double ws_bf16_to_double(uint16_t h);
/* Round x to a float with ebits/mbits (f16: 5/10, bf16: 8/7) in mode rnd. */
uint32_t ws_round_small(double x, int ebits, int mbits, int rnd);
uint16_t ws_double_to_f16(double x, int rnd);
uint16_t ws_double_to_bf16(double x, int rnd);
uint32_t ws_f32_to_tf32(uint32_t f32_bits, int rnd, bool satfinite); /* cvt.tf32.f32 */

/* Lane's address named by a memory operand [reg/sym + imm] (a 32-bit base
   register wraps modulo 2^32; symbols in the generic window when the
   instruction has no state space). */
static inline uint64_t ws_opnd_addr(ws_xctx *x, const ws_operand *o, uint32_t lane) {
    uint64_t a = (uint64_t)o->imm;
    if (o->sym != WS_NOSYM) a += ws_sym_addr(x, o->sym, x->in->space == WS_SPACE_NONE);
    if (o->reg != WS_NOREG) {
        uint64_t r = ws_reg(x->w, o->reg)[lane];
        bool narrow = x->f->reg_type && o->reg < x->f->nregs && ws_type_size((ws_type)x->f->reg_type[o->reg]) <= 4;
        a = narrow ? (uint32_t)(r + a) : r + a;
    }
    return a;
}

/* cluster.c */
struct ws_cluster {
    uint32_t n;             /* CTAs */
    uint32_t id[3];         /* %clusterid */
    ws_cta **cta;           /* by rank; NULL before joining and once destroyed */
    uint32_t refs;          /* joined CTAs + the creator's reference */
    uint32_t arrived;       /* threads arrived in the current barrier phase */
    uint32_t phase;         /* barrier phases completed */
};
uint64_t ws_cluster_sreg(ws_xctx *x, unsigned id);
ws_status ws_exec_cluster_bar(ws_xctx *x);   /* barrier.cluster.arrive / .wait */
ws_status ws_exec_mapa(ws_xctx *x);          /* mapa, getctarank */
void ws_cluster_bar_check(ws_cluster *cl);   /* release the barrier when all live threads arrived */
void ws_cluster_leave(ws_cta *c);            /* c is destroyed or reset */
/* The other CTA's shared memory a .shared::cluster address a (rank bits set)
   names, or NULL when there is none (fault filled). */
uint8_t *ws_dsmem_ptr(ws_xctx *x, uint64_t a, uint32_t size, uint32_t lane);

/* exec_async.c: cp.async*, mbarrier.* (from cta.c's dispatch) */
ws_status ws_exec_async(ws_xctx *x);
/* exec_matrix.c: ldmatrix, stmatrix, movmatrix */
ws_status ws_exec_matrix(ws_xctx *x);
/* exec_mma.c: wmma.* and mma.sync (from cta.c's dispatch) */
ws_status ws_exec_mma(ws_xctx *x);
/* exec_mem.c: host pointer for one element a tensor-core load or store moves
   (space: the instruction's ws_space, NONE = generic), or NULL with the
   fault filled; *resolved gets the space it fell in. */
uint8_t *ws_mem_elem_ptr(ws_xctx *x, unsigned space, uint64_t addr, uint32_t size, uint32_t lane, bool write,
                         unsigned *resolved);

#endif
