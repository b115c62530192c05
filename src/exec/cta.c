/* CTAs and warps: state, operand access, the SIMT reconvergence stack, calls,
 * barriers, and the per-instruction step shared by ws_warp_step and the fast
 * grid loop in grid.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"
#include "util/bits.h"

/* ---- faults ------------------------------------------------------------- */
static void thread_of(const ws_cta *c, const ws_warp *w, uint32_t lane, uint32_t t[3]) {
    uint32_t lin = w->id * WS_WARP_SIZE + lane;
    t[0] = lin % c->l.block[0];
    t[1] = (lin / c->l.block[0]) % c->l.block[1];
    t[2] = lin / (c->l.block[0] * c->l.block[1]);
}

ws_status ws_fail(ws_xctx *x, ws_status code, uint32_t lane, const char *fmt, ...) {
    if (!x->fault) return code;
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const ws_module *m = x->c->mod;
    char thr[64];
    if (lane < WS_WARP_SIZE) {
        uint32_t t[3];
        thread_of(x->c, x->w, lane, t);
        snprintf(thr, sizeof thr, "thread (%u,%u,%u)", t[0], t[1], t[2]);
    } else {
        snprintf(thr, sizeof thr, "warp %u", x->w->id);
    }
    x->fault->code = code;
    snprintf(x->fault->msg, sizeof x->fault->msg, "kernel %s: %s at CTA (%u,%u,%u) %s pc %u in %s (%s:%u)",
             x->c->kfunc->name, what, x->c->ctaid[0], x->c->ctaid[1], x->c->ctaid[2], thr, x->pc,
             x->f->name, m->filename ? m->filename : "ptx", x->in ? x->in->line : 0);
    return code;
}

ws_status ws_unsupported(ws_xctx *x, const char *why) {
    const ws_inst *in = x->in;
    return ws_fail(x, WS_ERR_UNSUPPORTED, UINT32_MAX, "unsupported instruction '%s%s%s'%s%s",
                   ws_opcode_name((ws_opcode)in->op), in->type ? "." : "",
                   in->type ? ws_type_name((ws_type)in->type) : "", why ? ": " : "", why ? why : "");
}

/* ---- operands ------------------------------------------------------------ */
uint64_t ws_sym_addr(ws_xctx *x, uint32_t sym, bool generic) {
    const ws_symbol *s = &x->c->mod->syms[sym];
    uint64_t a = x->c->l.img->sym_addr[sym];
    if (s->space == WS_SPACE_SHARED && s->is_extern) /* dynamic shared: after the static part */
        a = x->c->dyn_shared_base;
    if (s->is_frame) {
        a += x->w->local_base;
        return generic ? WS_GENERIC_LOCAL_BASE + a : a;
    }
    if (!generic) return a;
    switch (s->space) {
    case WS_SPACE_SHARED: return WS_GENERIC_SHARED_BASE + a;
    case WS_SPACE_CONST: return WS_GENERIC_CONST_BASE + a;
    case WS_SPACE_LOCAL: return WS_GENERIC_LOCAL_BASE + a;
    case WS_SPACE_PARAM: return WS_GENERIC_PARAM_BASE + a;
    default: return a;
    }
}

/* Cluster registers and %envregN: rare, out of line. */
static __attribute__((noinline)) uint64_t sreg_rare(ws_xctx *x, unsigned id) {
    if (id >= WS_SREG_CLUSTERID_X && id <= WS_SREG_IS_EXPLICIT_CLUSTER) return ws_cluster_sreg(x, id);
    if (id == WS_SREG_ENVREG0 + 1) return x->c->l.grid_ws >> 32; /* a cooperative launch's workspace */
    if (id == WS_SREG_ENVREG0 + 2) return (uint32_t)x->c->l.grid_ws;
    return 0; /* other %envregN */
}

static uint64_t sreg_value(ws_xctx *x, unsigned id, uint32_t lane) {
    ws_cta *c = x->c;
    ws_warp *w = x->w;
    switch (id) {
    case WS_SREG_TID_X: return w->tid[0][lane];
    case WS_SREG_TID_Y: return w->tid[1][lane];
    case WS_SREG_TID_Z: return w->tid[2][lane];
    case WS_SREG_NTID_X: return c->l.block[0];
    case WS_SREG_NTID_Y: return c->l.block[1];
    case WS_SREG_NTID_Z: return c->l.block[2];
    case WS_SREG_CTAID_X: return c->ctaid[0];
    case WS_SREG_CTAID_Y: return c->ctaid[1];
    case WS_SREG_CTAID_Z: return c->ctaid[2];
    case WS_SREG_NCTAID_X: return c->l.grid[0];
    case WS_SREG_NCTAID_Y: return c->l.grid[1];
    case WS_SREG_NCTAID_Z: return c->l.grid[2];
    case WS_SREG_LANEID: return lane;
    case WS_SREG_WARPID: return w->id;
    case WS_SREG_NWARPID: return 64;
    case WS_SREG_SMID: return c->smid;
    case WS_SREG_NSMID: return c->l.num_sms ? c->l.num_sms : 1;
    case WS_SREG_GRIDID: return 1;
    case WS_SREG_CLOCK: return (uint32_t)c->clock;
    case WS_SREG_CLOCK_HI: return (uint32_t)(c->clock >> 32);
    case WS_SREG_CLOCK64: return c->clock;
    case WS_SREG_GLOBALTIMER: return c->clock;
    case WS_SREG_GLOBALTIMER_LO: return (uint32_t)c->clock;
    case WS_SREG_GLOBALTIMER_HI: return (uint32_t)(c->clock >> 32);
    case WS_SREG_LANEMASK_EQ: return 1u << lane;
    case WS_SREG_LANEMASK_LT: return (1u << lane) - 1;
    case WS_SREG_LANEMASK_LE: return (uint32_t)((2ull << lane) - 1);
    case WS_SREG_LANEMASK_GT: return (uint32_t)~((2ull << lane) - 1);
    case WS_SREG_LANEMASK_GE: return ~((1u << lane) - 1);
    case WS_SREG_DYNAMIC_SMEM_SIZE: return c->l.dyn_shared;
    case WS_SREG_TOTAL_SMEM_SIZE: return c->shared_size;
    default: return sreg_rare(x, id); /* out of the switch: its jump table stays as it was */
    }
}

/* Out of line, so that ws_src's register path stays a leaf. */
static __attribute__((noinline)) const uint64_t *sreg_fill(ws_xctx *x, unsigned id, uint64_t *tmp) {
    uint32_t M = x->mask;
    const uint32_t *tid = NULL;
    switch (id) {
    case WS_SREG_TID_X: tid = x->w->tid[0]; break;
    case WS_SREG_TID_Y: tid = x->w->tid[1]; break;
    case WS_SREG_TID_Z: tid = x->w->tid[2]; break;
    /* the same for every lane (sreg_value's own cases): computed once */
    case WS_SREG_NTID_X: case WS_SREG_NTID_Y: case WS_SREG_NTID_Z:
    case WS_SREG_CTAID_X: case WS_SREG_CTAID_Y: case WS_SREG_CTAID_Z:
    case WS_SREG_NCTAID_X: case WS_SREG_NCTAID_Y: case WS_SREG_NCTAID_Z:
    case WS_SREG_WARPID: case WS_SREG_NWARPID: case WS_SREG_SMID: case WS_SREG_NSMID:
    case WS_SREG_GRIDID: case WS_SREG_CLOCK: case WS_SREG_CLOCK_HI: case WS_SREG_CLOCK64:
    case WS_SREG_GLOBALTIMER: case WS_SREG_GLOBALTIMER_LO: case WS_SREG_GLOBALTIMER_HI:
    case WS_SREG_DYNAMIC_SMEM_SIZE: case WS_SREG_TOTAL_SMEM_SIZE:
        if (M) {
            uint64_t v = sreg_value(x, id, (uint32_t)__builtin_ctz(M));
            WS_FOR_MASK(l, M, tmp[l] = v);
        }
        return tmp;
    default: break;
    }
    if (tid) WS_FOR_MASK(l, M, tmp[l] = tid[l]);
    else WS_FOR_LANES(l, M) tmp[l] = sreg_value(x, id, l);
    return tmp;
}

_Static_assert(WS_IMM_LANES == WS_WARP_SIZE, "a broadcast immediate is one warp's lanes");

const uint64_t *ws_src_any(ws_xctx *x, const ws_operand *o, uint64_t *tmp) {
    uint64_t v;
    switch (o->kind) {
    case WS_OPND_REG: return ws_reg(x->w, o->reg);
    case WS_OPND_IMM:
        v = (uint64_t)o->imm;
        if (o->bcast && o->bcast <= x->f->nimm_lanes) { /* the function's broadcast copy, if it is this value */
            const uint64_t *b = x->f->imm_lanes + (size_t)(o->bcast - 1) * WS_WARP_SIZE;
            if (b[0] == v) return b;
        }
        break;
    case WS_OPND_SYM: v = ws_sym_addr(x, o->sym, false) + (uint64_t)o->imm; break;
    case WS_OPND_FUNC: v = WS_FUNC_ADDR_BASE + (uint64_t)o->imm; break;
    case WS_OPND_PRED: {
        uint32_t p = x->w->preds[o->reg] ^ (o->neg ? ~0u : 0u);
        for (int l = 0; l < WS_WARP_SIZE; l++) tmp[l] = p >> l & 1;
        return tmp;
    }
    case WS_OPND_SREG: return sreg_fill(x, o->reg, tmp);
    default: return NULL;
    }
    for (int l = 0; l < WS_WARP_SIZE; l++) tmp[l] = v;
    return tmp;
}

uint64_t *ws_dst_any(ws_xctx *x, const ws_operand *o) {
    if (o->kind == WS_OPND_REG && o->reg != WS_NOREG) return ws_reg(x->w, o->reg);
    return x->w->sink;
}

uint32_t ws_pred_src(ws_xctx *x, const ws_operand *o) {
    if (o->kind == WS_OPND_PRED) return x->w->preds[o->reg] ^ (o->neg ? ~0u : 0u);
    if (o->kind == WS_OPND_IMM) return o->imm ? ~0u : 0u;
    if (o->kind == WS_OPND_SREG) { /* mov.pred p, %is_explicit_cluster */
        uint64_t t[WS_WARP_SIZE];
        const uint64_t *r = ws_src(x, o, t);
        uint32_t m = 0;
        WS_FOR_LANES(l, x->mask) if (r[l]) m |= 1u << l;
        return m;
    }
    if (o->kind == WS_OPND_REG) { /* a value register used as a boolean */
        const uint64_t *r = ws_reg(x->w, o->reg);
        uint32_t m = 0;
        WS_FOR_LANES(l, x->mask) if (r[l]) m |= 1u << l;
        return m;
    }
    return 0;
}

void ws_pred_write(ws_xctx *x, const ws_operand *o, uint32_t val) {
    if (o->kind != WS_OPND_PRED || o->reg == WS_NOREG) return;
    uint32_t *p = &x->w->preds[o->reg];
    *p = (*p & ~x->mask) | (val & x->mask);
}

/* ---- CTA setup ------------------------------------------------------------ */
/* runs: the registers to zero (ws_entry_zero_runs), NULL: all of them. */
static bool ensure_regs(ws_warp *w, uint32_t depth, const ws_func *f, const uint32_t *runs) {
    if (depth >= w->nreg_frames) {
        uint32_t n = depth + 4;
        uint64_t **r = realloc(w->reg_frames, n * sizeof *r);
        if (r) w->reg_frames = r;
        uint32_t **p = realloc(w->pred_frames, n * sizeof *p);
        if (p) w->pred_frames = p;
        size_t *rc = realloc(w->reg_frame_cap, n * sizeof *rc);
        if (rc) w->reg_frame_cap = rc;
        size_t *pc = realloc(w->pred_frame_cap, n * sizeof *pc);
        if (pc) w->pred_frame_cap = pc;
        if (!r || !p || !rc || !pc) return false;
        for (uint32_t i = w->nreg_frames; i < n; i++) {
            w->reg_frames[i] = NULL; w->pred_frames[i] = NULL;
            w->reg_frame_cap[i] = 0; w->pred_frame_cap[i] = 0;
        }
        w->nreg_frames = n;
    }
    size_t nr = (size_t)(f->nregs ? f->nregs : 1) * WS_WARP_SIZE, np = f->npreds ? f->npreds : 1;
    if (w->reg_frame_cap[depth] < nr) {
        free(w->reg_frames[depth]);
        if (!(w->reg_frames[depth] = malloc(nr * sizeof(uint64_t)))) { w->reg_frame_cap[depth] = 0; return false; }
        w->reg_frame_cap[depth] = nr;
    }
    if (w->pred_frame_cap[depth] < np) {
        free(w->pred_frames[depth]);
        if (!(w->pred_frames[depth] = malloc(np * sizeof(uint32_t)))) { w->pred_frame_cap[depth] = 0; return false; }
        w->pred_frame_cap[depth] = np;
    }
    /* Registers start at zero so that runs are deterministic (those a kernel's warp
       writes in every lane before any read need not: regzero.c). */
    if (runs) {
        for (uint32_t i = 0; i < runs[0]; i++)
            memset(w->reg_frames[depth] + (size_t)runs[1 + 2 * i] * WS_WARP_SIZE, 0,
                   (size_t)runs[2 + 2 * i] * WS_WARP_SIZE * sizeof(uint64_t));
    } else {
        memset(w->reg_frames[depth], 0, nr * sizeof(uint64_t));
    }
    memset(w->pred_frames[depth], 0, np * sizeof(uint32_t));
    w->regs = w->reg_frames[depth];
    w->preds = w->pred_frames[depth];
    return true;
}

static bool simt_push(ws_warp *w, int32_t pc, int32_t rpc, uint32_t mask) {
    if (w->sp == w->stack_cap) {
        uint32_t n = w->stack_cap ? 2 * w->stack_cap : 16;
        ws_simt_entry *s = realloc(w->stack, n * sizeof *s);
        if (!s) return false;
        w->stack = s;
        w->stack_cap = n;
    }
    w->stack[w->sp++] = (ws_simt_entry){pc, rpc, mask, ws_popc32(mask)};
    return true;
}

/* An entry's lanes change (its count with them). */
static inline void simt_set_mask(ws_simt_entry *e, uint32_t mask) {
    e->mask = mask;
    e->nmask = ws_popc32(mask);
}

static bool local_reserve(ws_warp *w, uint64_t need) {
    if (need <= w->local_stride) return true;
    if (need > (1u << 24)) return false; /* 16 MiB per thread: runaway recursion */
    uint32_t ns = w->local_stride ? w->local_stride : 256;
    while (ns < need) ns *= 2;
    uint8_t *nl = calloc(WS_WARP_SIZE, ns);
    if (!nl) return false;
    for (int l = 0; l < WS_WARP_SIZE && w->local; l++)
        memcpy(nl + (size_t)l * ns, w->local + (size_t)l * w->local_stride, w->local_stride);
    free(w->local);
    w->local = nl;
    w->local_stride = ns;
    return true;
}

static bool cta_init(ws_cta *c, const uint32_t ctaid[3], uint32_t smid) {
    ws_cluster_leave(c); /* a reset CTA joins its next cluster anew */
    memcpy(c->ctaid, ctaid, sizeof c->ctaid);
    c->smid = smid;
    c->clock = 0;
    c->ndone = 0;
    memset(c->bars, 0, sizeof c->bars);
    memset(c->shared, 0, c->shared_size);
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ws_warp *w = &c->warps[i];
        w->id = i;
        uint32_t n = c->nthreads - i * WS_WARP_SIZE;
        w->lanes = n >= 32 ? ~0u : (1u << n) - 1;
        w->exited = 0;
        w->state = WS_WARP_RUN;
        w->bar_inst = NULL;
        w->sp = 0;
        w->nframes = 0;
        w->func = c->l.func;
        w->ninsts = c->mod->funcs[w->func].ninsts;
        w->local_base = 0;
        c->alloca_ext[i] = 0;
        w->cc = 0;
        const uint32_t *runs = c->l.img->zero_runs ? c->l.img->zero_runs[c->l.func] : NULL;
        if (!ensure_regs(w, 0, c->kfunc, runs)) return false;
        if (w->local) memset(w->local, 0, (size_t)w->local_stride * WS_WARP_SIZE);
        if (!simt_push(w, 0, -1, w->lanes)) return false;
    }
    return true;
}

/* The warps' %tid values: they depend only on the block's shape, so a CTA
   reused for another CTA of the same shape keeps them (ws_cta_recycle). */
static void set_tids(ws_cta *c) {
    uint32_t bx = c->l.block[0], by = c->l.block[1], x = 0, y = 0, z = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ws_warp *w = &c->warps[i];
        for (uint32_t l = 0; l < WS_WARP_SIZE; l++) { /* lin % bx, lin / bx % by, lin / (bx * by) */
            w->tid[0][l] = x;
            w->tid[1][l] = y;
            w->tid[2][l] = z;
            if (++x == bx) { x = 0; if (++y == by) { y = 0; z++; } }
        }
    }
    memcpy(c->tid_block, c->l.block, sizeof c->tid_block);
}

/* The launch-derived sizes of a CTA: thread and warp counts, shared layout. */
static void cta_set_shape(ws_cta *c, const ws_launch_desc *l, uint64_t nt) {
    c->l = *l;
    c->mod = l->img->mod;
    c->kfunc = &c->mod->funcs[l->func];
    c->nthreads = (uint32_t)nt;
    c->nwarps = (c->nthreads + WS_WARP_SIZE - 1) / WS_WARP_SIZE;
    uint32_t al = c->kfunc->dyn_shared_align > 1 ? c->kfunc->dyn_shared_align : 1;
    c->dyn_shared_base = (c->kfunc->static_shared + al - 1) / al * al;
    c->shared_size = c->dyn_shared_base + l->dyn_shared;
}

ws_cta *ws_cta_create(const ws_launch_desc *l, const uint32_t ctaid[3], uint32_t smid) {
    if (!l || !l->img || !l->img->mod || l->func >= l->img->mod->nfuncs) return NULL;
    uint64_t nt = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (nt == 0 || nt > 4096) return NULL;
    ws_cta *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    cta_set_shape(c, l, nt);
    c->shared = calloc(c->shared_size ? c->shared_size : 1, 1);
    c->shared_cap = c->shared_size ? c->shared_size : 1;
    c->warps = calloc(c->nwarps, sizeof *c->warps);
    c->alloca_ext = calloc(c->nwarps, sizeof *c->alloca_ext);
    c->warps_cap = c->nwarps;
    if (!c->shared || !c->warps || !c->alloca_ext) { ws_cta_destroy(c); return NULL; }
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (!local_reserve(&c->warps[i], (c->kfunc->frame_size + 15u) & ~15u)) { ws_cta_destroy(c); return NULL; }
    set_tids(c);
    if (!cta_init(c, ctaid, smid)) { ws_cta_destroy(c); return NULL; }
    return c;
}

/* A finished CTA's object made into a new CTA of launch l, as ws_cta_create
   would make it, keeping its allocations (warps, register frames, SIMT and
   call stacks, local and shared memory) and growing only what l needs more
   of. Returns NULL (and c is destroyed) when l is invalid or memory runs
   out. c may come from another launch: nothing of its old launch is read. */
ws_cta *ws_cta_recycle(ws_cta *c, const ws_launch_desc *l, const uint32_t ctaid[3], uint32_t smid) {
    if (!c) return ws_cta_create(l, ctaid, smid);
    if (!l || !l->img || !l->img->mod || l->func >= l->img->mod->nfuncs) { ws_cta_destroy(c); return NULL; }
    uint64_t nt = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (nt == 0 || nt > 4096) { ws_cta_destroy(c); return NULL; }
    ws_cluster_leave(c);
    cta_set_shape(c, l, nt);
    if (c->shared_size > c->shared_cap) {
        free(c->shared);
        c->shared = malloc(c->shared_size); /* cta_init zeroes it */
        c->shared_cap = c->shared ? c->shared_size : 0;
    }
    bool grew = false;
    if (c->nwarps > c->warps_cap) { /* new warps start as calloc'd ones */
        ws_warp *nw = realloc(c->warps, c->nwarps * sizeof *nw);
        if (nw) {
            memset(nw + c->warps_cap, 0, (c->nwarps - c->warps_cap) * sizeof *nw);
            c->warps = nw;
            c->warps_cap = c->nwarps;
        }
        uint32_t *ae = realloc(c->alloca_ext, c->nwarps * sizeof *ae);
        if (ae) c->alloca_ext = ae;
        free(c->cl_arrived); /* sized for the old warp count; ws_cluster_join allocates it */
        c->cl_arrived = NULL;
        if (!nw || !ae) { c->nwarps = c->warps_cap; ws_cta_destroy(c); return NULL; }
        grew = true;
    }
    if (!c->shared) { ws_cta_destroy(c); return NULL; }
    c->counts = (ws_exec_counts){0};
    c->state_changes = 0;
    c->parks = false;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ws_warp *w = &c->warps[i]; /* what cta_init leaves as it is: as calloc left it */
        w->bar_id = w->bar_pc = w->bar_mask = 0;
        memset(w->sink, 0, sizeof w->sink);
        if (!local_reserve(w, (c->kfunc->frame_size + 15u) & ~15u)) { ws_cta_destroy(c); return NULL; }
    }
    if (grew || memcmp(c->tid_block, l->block, sizeof c->tid_block)) set_tids(c);
    if (!cta_init(c, ctaid, smid)) { ws_cta_destroy(c); return NULL; }
    return c;
}

void ws_cta_destroy(ws_cta *c) {
    if (!c) return;
    ws_cluster_leave(c);
    free(c->cl_arrived);
    for (uint32_t i = 0; c->warps && i < c->warps_cap; i++) {
        ws_warp *w = &c->warps[i];
        for (uint32_t d = 0; d < w->nreg_frames; d++) { free(w->reg_frames[d]); free(w->pred_frames[d]); }
        free(w->reg_frames); free(w->pred_frames);
        free(w->reg_frame_cap); free(w->pred_frame_cap);
        free(w->stack); free(w->frames); free(w->local);
    }
    free(c->warps);
    free(c->alloca_ext);
    free(c->shared);
    free(c);
}

unsigned ws_cta_num_warps(const ws_cta *c) { return c ? c->nwarps : 0; }

bool ws_cta_done(const ws_cta *c) { return c->ndone == c->nwarps; }

/* ---- barriers ---------------------------------------------------------------- */
static uint32_t live_threads(const ws_cta *c) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nwarps; i++)
        n += (uint32_t)ws_popc32(c->warps[i].lanes & ~c->warps[i].exited);
    return n;
}

/* Release barrier id if enough threads arrived. Returns 1 when released. */
int ws_bar_check(ws_cta *c, unsigned id) {
    ws_barrier *b = &c->bars[id];
    if (b->arrived == 0) return 0;
    uint32_t need = b->expected ? b->expected : live_threads(c);
    if (b->arrived < need) return 0;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        ws_warp *w = &c->warps[i];
        if (w->state != WS_WARP_BAR || w->bar_id != id) continue;
        w->state = WS_WARP_RUN;
        c->state_changes++;
        const ws_inst *in = w->bar_inst;
        if (in) { /* bar.red result */
            uint32_t m = w->bar_mask;
            if (in->sub == WS_BAR_RED_POPC) {
                uint64_t *d = in->dst[0].kind == WS_OPND_REG ? ws_reg(w, in->dst[0].reg) : w->sink;
                WS_FOR_LANES(l, m) d[l] = b->red_popc;
            } else if (in->dst[0].kind == WS_OPND_PRED) {
                bool v = in->sub == WS_BAR_RED_AND ? b->red_and : b->red_or;
                uint32_t *p = &w->preds[in->dst[0].reg];
                *p = (*p & ~m) | (v ? m : 0);
            }
            w->bar_inst = NULL;
        }
    }
    memset(b, 0, sizeof *b);
    return 1;
}

static void bar_check_all(ws_cta *c) {
    for (unsigned id = 0; id < WS_NUM_BARRIERS; id++) ws_bar_check(c, id);
    if (c->cluster) ws_cluster_bar_check(c->cluster); /* exited threads no longer count */
}

static ws_status exec_bar(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    if (in->nsrc < 1) return ws_unsupported(x, "barrier without an id");
    uint64_t tmp[WS_WARP_SIZE], tmp2[WS_WARP_SIZE];
    const uint64_t *a = ws_src(x, &in->src[0], tmp);
    if (!a) return ws_unsupported(x, "bad barrier operand");
    uint32_t first = (uint32_t)__builtin_ctz(x->mask);
    uint32_t id = (uint32_t)a[first];
    if (id >= WS_NUM_BARRIERS) return ws_fail(x, WS_ERR_LAUNCH_FAILURE, first, "barrier id %u out of range (0..15)", id);
    bool is_red = in->sub >= WS_BAR_RED_POPC;
    uint32_t nval = in->nsrc - (is_red ? 1 : 0); /* operands before the predicate */
    uint32_t count = 0;
    if (nval >= 2) {
        const uint64_t *b = ws_src(x, &in->src[1], tmp2);
        if (!b) return ws_unsupported(x, "bad barrier count operand");
        count = (uint32_t)b[first];
        if (count == 0 || count % WS_WARP_SIZE)
            return ws_fail(x, WS_ERR_LAUNCH_FAILURE, first, "barrier %u thread count %u is not a positive multiple of 32",
                           id, count);
    }
    ws_barrier *bar = &x->c->bars[id];
    if (count) bar->expected = count;
    bar->arrived += (uint32_t)ws_popc32(x->mask);
    if (x->mask != (w->lanes & ~w->exited)) bar->partial = true;
    if (in->sub == WS_BAR_ARRIVE) {
        ws_bar_check(x->c, id);
        return WS_OK;
    }
    if (is_red) {
        uint32_t p = ws_pred_src(x, &in->src[in->nsrc - 1]) & x->mask;
        if (bar->nwaiting == 0 && bar->arrived == (uint32_t)ws_popc32(x->mask)) {
            bar->red_and = true;
            bar->red_or = false;
        }
        bar->red_popc += (uint32_t)ws_popc32(p);
        if (p != x->mask) bar->red_and = false;
        if (p) bar->red_or = true;
        w->bar_inst = in;
        w->bar_mask = x->mask;
    }
    bar->nwaiting++;
    w->state = WS_WARP_BAR;
    x->c->state_changes++;
    w->bar_id = id;
    w->bar_pc = x->pc;
    ws_bar_check(x->c, id);
    return WS_OK;
}

/* ---- SIMT stack, calls, exit ----------------------------------------------- */
static void do_exit(ws_cta *c, ws_warp *w, uint32_t m) {
    w->exited |= m;
    for (uint32_t i = 0; i < w->sp; i++) simt_set_mask(&w->stack[i], w->stack[i].mask & ~m);
    for (uint32_t i = 0; i < w->nframes; i++) w->frames[i].ret_mask &= ~m;
    bar_check_all(c);
}

static void do_ret(ws_cta *c, ws_warp *w, uint32_t m) {
    if (w->nframes == 0) { do_exit(c, w, m); return; }
    ws_callframe *fr = &w->frames[w->nframes - 1];
    for (uint32_t i = fr->simt_base; i < w->sp; i++) simt_set_mask(&w->stack[i], w->stack[i].mask & ~m);
    fr->ret_mask |= m;
}

/* Pop the top SIMT entry; popping a callee's base entry returns from it. */
static void simt_pop(ws_cta *c, ws_warp *w) {
    w->sp--;
    if (w->nframes && w->sp == w->frames[w->nframes - 1].simt_base) {
        ws_callframe *fr = &w->frames[w->nframes - 1];
        const ws_module *m = c->mod;
        const ws_func *callee = &m->funcs[w->func];
        const ws_inst *call = fr->call;
        uint32_t rm = fr->ret_mask & ~w->exited;
        const uint64_t *sa = c->l.img->sym_addr;
        for (uint32_t i = 0; i < call->ncall_rets && i < callee->nrets; i++) {
            uint64_t sz = m->syms[callee->rets[i]].size, dz = m->syms[call->call_rets[i]].size;
            if (dz < sz) sz = dz;
            uint64_t so = w->local_base + sa[callee->rets[i]], dof = fr->caller_local + sa[call->call_rets[i]];
            WS_FOR_LANES(l, rm) {
                uint8_t *base = w->local + (size_t)l * w->local_stride;
                memmove(base + dof, base + so, sz);
            }
        }
        w->func = fr->caller_func;
        w->ninsts = c->mod->funcs[w->func].ninsts;
        w->local_base = fr->caller_local;
        c->alloca_ext[w->id] = fr->caller_alloca;
        w->nframes--;
        w->regs = w->reg_frames[w->nframes];
        w->preds = w->pred_frames[w->nframes];
    }
}

/* Divergent indirect call: the lanes whose target is lane ctz(mask)'s (same)
 * call now; the others run the call again afterwards, one target group at a
 * time, and all meet at the instruction after the call. The top entry is
 * already at pc + 1 (the meeting point). */
static bool split_call(ws_xctx *x, uint32_t same) {
    ws_warp *w = x->w;
    ws_simt_entry *top = &w->stack[w->sp - 1];
    uint32_t rest = x->mask & ~same;
    int32_t after = (int32_t)x->pc + 1;
    x->mask = same;
    if (top->rpc == after) { /* already a group waiting to meet at pc + 1: reuse its entry */
        top->pc = (int32_t)x->pc;
        simt_set_mask(top, rest);
        return true;
    }
    return simt_push(w, (int32_t)x->pc, after, rest);
}

static ws_status exec_call(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    const ws_module *m = x->c->mod;
    int64_t fi = -1;
    for (unsigned i = 0; i < in->nsrc && fi < 0; i++) {
        const ws_operand *o = &in->src[i];
        if (o->kind == WS_OPND_FUNC) fi = o->imm;
        else if (o->kind == WS_OPND_REG) { /* indirect call through a function address */
            const uint64_t *r = ws_reg(w, o->reg);
            uint64_t v = r[__builtin_ctz(x->mask)];
            uint32_t same = 0;
            WS_FOR_LANES(l, x->mask) same |= (uint32_t)(r[l] == v) << l;
            if (same != x->mask && !split_call(x, same))
                return ws_fail(x, WS_ERR_OUT_OF_MEMORY, UINT32_MAX, "out of host memory");
            if (v < WS_FUNC_ADDR_BASE || v - WS_FUNC_ADDR_BASE >= m->nfuncs)
                return ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, (uint32_t)__builtin_ctz(x->mask),
                               "indirect call to 0x%llx, which is not a function", (unsigned long long)v);
            fi = (int64_t)(v - WS_FUNC_ADDR_BASE);
        }
    }
    if (fi < 0 || (uint64_t)fi >= m->nfuncs) return ws_unsupported(x, "call without a target function");
    const ws_func *callee = &m->funcs[fi];
    if (callee->builtin && !callee->has_body) return ws_exec_builtin(x, callee);
    if (!callee->has_body || callee->is_extern) {
        char why[200];
        snprintf(why, sizeof why, "call to external function '%s' (no body in this module)", callee->name);
        return ws_unsupported(x, why);
    }
    if (w->nframes >= 4096) return ws_fail(x, WS_ERR_LAUNCH_FAILURE, UINT32_MAX, "call stack overflow (depth 4096)");
    uint32_t caller_frame = m->funcs[w->func].frame_size;
    uint32_t nl = (w->local_base + caller_frame + x->c->alloca_ext[w->id] + 15u) & ~15u;
    if (!local_reserve(w, (uint64_t)nl + callee->frame_size))
        return ws_fail(x, WS_ERR_OUT_OF_MEMORY, UINT32_MAX, "per-thread local memory exhausted by calls");
    const uint64_t *sa = x->c->l.img->sym_addr;
    for (uint32_t i = 0; i < in->ncall_args && i < callee->nparams; i++) {
        uint64_t sz = m->syms[callee->params[i]].size, ssz = m->syms[in->call_args[i]].size;
        if (ssz < sz) sz = ssz;
        uint64_t so = w->local_base + sa[in->call_args[i]], dof = nl + sa[callee->params[i]];
        WS_FOR_LANES(l, x->mask) {
            uint8_t *base = w->local + (size_t)l * w->local_stride;
            memmove(base + dof, base + so, sz);
        }
    }
    if (w->nframes == w->frames_cap) {
        uint32_t n = w->frames_cap ? 2 * w->frames_cap : 8;
        ws_callframe *f = realloc(w->frames, n * sizeof *f);
        if (!f) return ws_fail(x, WS_ERR_OUT_OF_MEMORY, UINT32_MAX, "out of host memory");
        w->frames = f;
        w->frames_cap = n;
    }
    if (!ensure_regs(w, w->nframes + 1, callee, NULL))
        return ws_fail(x, WS_ERR_OUT_OF_MEMORY, UINT32_MAX, "out of host memory");
    w->frames[w->nframes++] = (ws_callframe){w->func, w->sp, w->local_base, 0, x->c->alloca_ext[w->id], in};
    w->func = (uint32_t)fi;
    w->ninsts = x->c->mod->funcs[fi].ninsts;
    w->local_base = nl;
    x->c->alloca_ext[w->id] = 0;
    if (!simt_push(w, 0, -1, x->mask)) return ws_fail(x, WS_ERR_OUT_OF_MEMORY, UINT32_MAX, "out of host memory");
    return WS_OK;
}

/* brx.idx: lanes pick a target from the table by index; each group of lanes
 * with one target gets its own SIMT entry, like the sides of a divergent bra,
 * and all meet at the branch's reconvergence point. */
static ws_status exec_brx(ws_xctx *x, uint32_t issued) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    const uint32_t *tab = in->call_args, n = tab[0];
    uint64_t tmp[WS_WARP_SIZE];
    const uint64_t *ix = ws_src(x, &in->src[0], tmp);
    WS_FOR_LANES(l, x->mask)
        if ((uint32_t)ix[l] >= n) /* undefined in PTX; a fault is the useful answer */
            return ws_fail(x, WS_ERR_LAUNCH_FAILURE, l, "brx.idx index %u is past the end of its %u-entry "
                           ".branchtargets table", (uint32_t)ix[l], n);
    uint32_t left = x->mask, fall = issued & ~x->mask;
    if (!left) return WS_OK;
    ws_simt_entry *top = &w->stack[w->sp - 1];
    int32_t t0 = (int32_t)tab[1 + (uint32_t)ix[__builtin_ctz(left)]];
    uint32_t g0 = 0;
    WS_FOR_LANES(l, left) g0 |= (uint32_t)((int32_t)tab[1 + (uint32_t)ix[l]] == t0) << l;
    if (g0 == left && !fall) { top->pc = t0; return WS_OK; }
    int32_t r = in->reconv;
    if (top->rpc == r) { /* same reconvergence point: reuse the entry for the fall-through lanes */
        top->pc = (int32_t)x->pc + 1;
        simt_set_mask(top, fall);
    } else {
        top->pc = r;
        if (fall && r != (int32_t)x->pc + 1 && !simt_push(w, (int32_t)x->pc + 1, r, fall))
            return ws_fail(x, WS_ERR_OUT_OF_MEMORY, UINT32_MAX, "out of host memory");
    }
    /* push the groups in reverse lane order so the lowest lane's group runs first */
    uint32_t groups[WS_WARP_SIZE], tgt[WS_WARP_SIZE], ng = 0;
    groups[ng] = g0;
    tgt[ng++] = (uint32_t)t0;
    for (left &= ~g0; left; left &= ~groups[ng++]) {
        uint32_t t = tab[1 + (uint32_t)ix[__builtin_ctz(left)]], g = 0;
        WS_FOR_LANES(l, left) g |= (uint32_t)(tab[1 + (uint32_t)ix[l]] == t) << l;
        groups[ng] = g;
        tgt[ng] = t;
    }
    while (ng--)
        if (!simt_push(w, (int32_t)tgt[ng], r, groups[ng]))
            return ws_fail(x, WS_ERR_OUT_OF_MEMORY, UINT32_MAX, "out of host memory");
    return WS_OK;
}

static ws_status exec_bra(ws_xctx *x, uint32_t issued) {
    const ws_inst *in = x->in;
    ws_warp *w = x->w;
    if (in->sub == WS_BRA_IDX) return exec_brx(x, issued);
    int32_t target = -1;
    for (unsigned i = 0; i < in->nsrc; i++)
        if (in->src[i].kind == WS_OPND_LABEL) target = (int32_t)in->src[i].imm;
    if (target < 0) return ws_unsupported(x, "branch without a label target");
    uint32_t t = x->mask, n = issued & ~x->mask;
    ws_simt_entry *top = &w->stack[w->sp - 1];
    if (n == 0) { top->pc = target; return WS_OK; }
    if (t == 0) return WS_OK;
    int32_t r = in->reconv;
    if (top->rpc == r) { /* same reconvergence point: reuse the entry (keeps loops bounded) */
        top->pc = (int32_t)x->pc + 1;
        simt_set_mask(top, n);
    } else {
        top->pc = r;
        if (r != (int32_t)x->pc + 1 && !simt_push(w, (int32_t)x->pc + 1, r, n))
            return ws_fail(x, WS_ERR_OUT_OF_MEMORY, UINT32_MAX, "out of host memory");
    }
    if (!simt_push(w, target, r, t)) return ws_fail(x, WS_ERR_OUT_OF_MEMORY, UINT32_MAX, "out of host memory");
    return WS_OK;
}

/* ---- one warp instruction --------------------------------------------------- */
/* The trap the parser put in place of an unsupported instruction: launches
   refuse kernels that reach one, so only an indirect call gets here. */
static ws_status unsupported_stand_in(ws_xctx *x) {
    const ws_module *m = x->c->mod;
    for (uint32_t i = 0; i < m->nproblems; i++)
        if (m->problems[i].line == x->in->line)
            return ws_fail(x, WS_ERR_UNSUPPORTED, UINT32_MAX, "%s", m->problems[i].msg);
    return ws_unsupported(x, NULL);
}

/* alloca / stacksave / stackrestore: a stack above the current frame in each
 * thread's local memory. The warp's lanes share one extent (the largest
 * request: each lane's memory is its own, so the offsets may coincide);
 * calls place their frames above it, ret restores the caller's. Addresses
 * are in the local state space, as the ISA says. */
static ws_status exec_alloca(ws_xctx *x) {
    ws_warp *w = x->w;
    uint32_t *ext = &x->c->alloca_ext[w->id];
    const ws_inst *in = x->in;
    uint64_t top = (uint64_t)w->local_base + x->f->frame_size;
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE];
    if (in->op == WS_OP_STACKSAVE) {
        uint64_t *D = ws_dst(x, &in->dst[0]);
        WS_FOR_LANES(l, x->mask) D[l] = top + *ext;
        return WS_OK;
    }
    if (in->op == WS_OP_STACKRESTORE) {
        const uint64_t *A = in->nsrc ? ws_src(x, &in->src[0], ta) : NULL;
        if (!A) return ws_unsupported(x, "stackrestore operand");
        uint64_t v = A[__builtin_ctz(x->mask)];
        if (v < top || v > top + *ext)
            return ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, (uint32_t)__builtin_ctz(x->mask),
                           "stackrestore to 0x%llx, outside this function's alloca stack", (unsigned long long)v);
        *ext = (uint32_t)(v - top);
        return WS_OK;
    }
    const uint64_t *S = in->nsrc > 0 ? ws_src(x, &in->src[0], ta) : NULL;
    const uint64_t *AL = in->nsrc > 1 ? ws_src(x, &in->src[1], tb) : NULL;
    if (!S) return ws_unsupported(x, "alloca size");
    uint64_t need = 0, align = AL ? AL[__builtin_ctz(x->mask)] : 8;
    if (!align || (align & (align - 1)) || align > 4096) return ws_unsupported(x, "alloca alignment");
    WS_FOR_LANES(l, x->mask) {
        uint64_t n = ws_type_size((ws_type)in->type) == 4 ? (uint32_t)S[l] : S[l];
        if (n > need) need = n;
    }
    uint64_t at = (top + *ext + align - 1) & ~(align - 1);
    if (at + need > (1u << 24) || !local_reserve(w, at + need))
        return ws_fail(x, WS_ERR_LAUNCH_FAILURE, (uint32_t)__builtin_ctz(x->mask),
                       "alloca of %llu bytes: per-thread local memory exhausted", (unsigned long long)need);
    *ext = (uint32_t)(at + need - top);
    uint64_t *D = ws_dst(x, &in->dst[0]);
    WS_FOR_LANES(l, x->mask) D[l] = at;
    return WS_OK;
}

static ws_status dispatch(ws_xctx *x, uint32_t issued) {
    const ws_inst *in = x->in;
    switch ((ws_opcode)in->op) {
    case WS_OP_BRA: return exec_bra(x, issued);
    case WS_OP_CALL: return x->mask ? exec_call(x) : WS_OK;
    case WS_OP_RET: if (x->mask) do_ret(x->c, x->w, x->mask); return WS_OK;
    case WS_OP_EXIT: if (x->mask) do_exit(x->c, x->w, x->mask); return WS_OK;
    case WS_OP_TRAP:
        if (!x->mask) return WS_OK;
        if (in->sub == WS_TRAP_UNSUPPORTED) return unsupported_stand_in(x);
        if (in->sub == WS_TRAP_BRKPT)
            return ws_fail(x, WS_ERR_TRAP, (uint32_t)__builtin_ctz(x->mask), "brkpt executed (no debugger to stop in)");
        return ws_fail(x, WS_ERR_TRAP, (uint32_t)__builtin_ctz(x->mask), "trap executed");
    case WS_OP_BAR:
        /* bar.warp.sync: lanes of one warp already execute together here, and
         * the SIMT stack cannot wait for diverged lanes; only check the mask. */
        if (x->in->sub == WS_BAR_WARP_SYNC) return x->mask ? ws_warp_check_members(x, 0) : WS_OK;
        if (x->in->sub >= WS_BAR_CLUSTER_ARRIVE) return x->mask ? ws_exec_cluster_bar(x) : WS_OK;
        return x->mask ? exec_bar(x) : WS_OK;
    case WS_OP_NANOSLEEP:
        if (x->c->parks && x->mask) x->w->state = WS_WARP_SLEEP; /* the others run */
        return WS_OK;
    case WS_OP_MEMBAR: case WS_OP_FENCE: case WS_OP_PREFETCH: case WS_OP_PMEVENT: case WS_OP_GRIDDEPCONTROL:
        return WS_OK; /* no functional effect: execution is sequentially consistent */
    default: break;
    }
    if (!x->mask) return WS_OK;
    switch ((ws_opcode)in->op) {
    case WS_OP_LD: case WS_OP_LDU: case WS_OP_ST: return ws_exec_mem(x);
    case WS_OP_ATOM: case WS_OP_RED: return ws_exec_atom(x);
    case WS_OP_TEX: case WS_OP_TLD4: return ws_exec_tex(x);
    case WS_OP_SULD: case WS_OP_SUST: case WS_OP_SUQ: case WS_OP_SURED: case WS_OP_TXQ: return ws_exec_surf(x);
    case WS_OP_WMMA: case WS_OP_MMA: return ws_exec_mma(x);
    case WS_OP_LDMATRIX: case WS_OP_STMATRIX: case WS_OP_MOVMATRIX: return ws_exec_matrix(x);
    case WS_OP_CP_ASYNC: case WS_OP_MBARRIER: return ws_exec_async(x);
    case WS_OP_ALLOCA: case WS_OP_STACKSAVE: case WS_OP_STACKRESTORE: return exec_alloca(x);
    case WS_OP_MAPA: case WS_OP_GETCTARANK: return ws_exec_mapa(x);
    case WS_OP_VOTE: case WS_OP_SHFL: case WS_OP_ACTIVEMASK: case WS_OP_MATCH: case WS_OP_REDUX:
    case WS_OP_ELECT:
        return ws_exec_warp(x);
    case WS_OP_CVT: case WS_OP_MOV: case WS_OP_SELP: case WS_OP_SLCT: case WS_OP_SETP: case WS_OP_SET:
    case WS_OP_CVTA: case WS_OP_ISSPACEP:
        return ws_exec_conv(x);
    case WS_OP_RCP: case WS_OP_SQRT: case WS_OP_RSQRT: case WS_OP_SIN: case WS_OP_COS: case WS_OP_LG2:
    case WS_OP_EX2: case WS_OP_TANH: case WS_OP_TESTP: case WS_OP_COPYSIGN: case WS_OP_FMA:
        return ws_exec_float(x);
    default:
        return ws_type_is_float((ws_type)in->type) ? ws_exec_float(x) : ws_exec_int(x);
    }
}

/* Pop finished SIMT entries and return from finished calls until the top
 * entry is an instruction to execute; false when the warp has exited. The
 * step does this first anyway, so doing it early changes nothing. */
/* The warp's last thread exited (once per warp: out of warp_settle's loop). */
static __attribute__((noinline)) void warp_finished(ws_cta *c, ws_warp *w) {
    w->state = WS_WARP_DONE;
    c->state_changes++;
    c->ndone++;
    bar_check_all(c);
}

static __attribute__((noinline)) bool warp_settle_loop(ws_cta *c, ws_warp *w) {
    const ws_module *m = c->mod;
    for (;;) {
        if (w->sp == 0) {
            if (w->state != WS_WARP_DONE) warp_finished(c, w);
            return false;
        }
        ws_simt_entry *e = &w->stack[w->sp - 1];
        if (e->mask == 0 || (e->rpc >= 0 && e->pc == e->rpc)) { simt_pop(c, w); continue; }
        const ws_func *f = &m->funcs[w->func];
        if (e->pc < 0 || (uint32_t)e->pc >= f->ninsts) { /* fell off the end: implicit ret */
            do_ret(c, w, e->mask);
            continue;
        }
        return true;
    }
}

/* The common case inline: the top entry is an instruction to execute (the
   timing model asks ws_warp_next before each step, which settles the warp). */
/* warp_settle_loop's stops, folded: a pc in [0, ninsts) differs from a
   negative rpc, and a negative pc is not below ninsts unsigned. */
static inline bool warp_settle(ws_cta *c, ws_warp *w) {
    if (w->sp) {
        const ws_simt_entry *e = &w->stack[w->sp - 1];
        if (e->mask && e->pc != e->rpc && (uint32_t)e->pc < w->ninsts) return true;
    }
    return warp_settle_loop(c, w);
}

bool ws_warp_next(ws_cta *c, unsigned warp, uint32_t *func, uint32_t *pc) {
    if (!c || warp >= c->nwarps) return false;
    ws_warp *w = &c->warps[warp];
    if (w->state == WS_WARP_DONE || !warp_settle(c, w)) return false;
    *func = w->func;
    *pc = (uint32_t)w->stack[w->sp - 1].pc;
    return true;
}

/* The fast kind of `in` (ws_inst.fast), decided on its first step from its fields.
   The threads of a parallel run share the module: each stores the same value, a
   relaxed atomic store (and load in the step). */
static __attribute__((noinline)) unsigned fast_kind_decide(const ws_inst *in) {
    unsigned k = ws_int_addsub_form(in) ? WS_FK_INT_ADDSUB
                 : ws_int_mul_form(in)  ? WS_FK_INT_MUL
                 : ws_mov_sreg_form(in) ? WS_FK_MOV_SREG
                 : ws_f32_form(in)      ? WS_FK_F32
                 : ws_setp_int_form(in) ? WS_FK_SETP_INT
                                        : WS_FK_GENERAL;
    __atomic_store_n((uint8_t *)&in->fast, (uint8_t)k, __ATOMIC_RELAXED);
    return k;
}

/* A fast kind's step: what dispatch does for these forms (none is in its first switch;
   no lane executing: nothing), without its two switches and the callee's decoding. */
static inline ws_status fast_step(ws_xctx *x, unsigned k) {
    if (!x->mask) return WS_OK;
    switch (k) {
    case WS_FK_INT_ADDSUB: ws_exec_int_addsub(x); return WS_OK;
    case WS_FK_INT_MUL: ws_exec_int_mul(x); return WS_OK;
    case WS_FK_MOV_SREG: ws_exec_mov_sreg(x); return WS_OK;
    case WS_FK_SETP_INT: ws_exec_setp_int(x); return WS_OK;
    default: return ws_exec_f32(x);
    }
}

/* Execute the next instruction of warp w. */
ws_step_result ws_cta_step_warp(ws_cta *c, ws_warp *w, ws_step *st, ws_fault *fault) {
    if (w->state == WS_WARP_DONE) return WS_STEP_DONE;
    if (w->state == WS_WARP_BAR) return WS_STEP_BARRIER;
    const ws_module *m = c->mod;
    const ws_func *f;
    ws_simt_entry *e;
    if (!warp_settle(c, w)) return WS_STEP_DONE;
    e = &w->stack[w->sp - 1];
    f = &m->funcs[w->func];
    uint32_t pc = (uint32_t)e->pc, issued = e->mask, nissued = e->nmask;
    const ws_inst *in = &f->insts[pc];
    uint32_t mask = issued;
    if (in->guard != WS_NOREG) mask &= w->preds[in->guard] ^ (in->guard_neg ? ~0u : 0u);
    e->pc = (int32_t)pc + 1;
    c->clock++;
    c->counts.warp_insts++;
    /* (the entry's count; a guard that leaves every lane on: no bit count) */
    c->counts.thread_insts += nissued;
    c->counts.thread_insts_exec += mask == issued ? nissued : ws_popc32(mask);
    ws_xctx x = {c, w, f, in, pc, mask, st, fault};
    if (st) {
        st->inst = in;
        st->pc = pc;
        st->active = mask;
        st->issued_mask = issued;
        st->mem_space = WS_SPACE_NONE;
        st->is_store = st->is_atomic = st->wrote = 0;
        st->access_size = 0;
    }
    unsigned k = __atomic_load_n(&in->fast, __ATOMIC_RELAXED);
    if (__builtin_expect(k == WS_FK_UNDECIDED, 0)) k = fast_kind_decide(in);
    if ((k == WS_FK_GENERAL ? dispatch(&x, issued) : fast_step(&x, k)) != WS_OK) return WS_STEP_FAULT;
    if (st) { /* the next place, when ws_warp_next_inline's test holds (the caller asks no more) */
        const ws_simt_entry *t = w->sp ? &w->stack[w->sp - 1] : NULL;
        st->next_ok = t && w->state != WS_WARP_DONE && t->mask && t->pc != t->rpc &&
                      (uint32_t)t->pc < w->ninsts;
        st->next_func = w->func;
        st->next_pc = t ? (uint32_t)t->pc : 0;
    }
    return WS_STEP_OK;
}

ws_step_result ws_warp_step(ws_cta *c, unsigned warp, ws_step *out, ws_fault *fault) {
    if (!c || warp >= c->nwarps) return WS_STEP_DONE;
    if (out) out->addr = out->addr_own;
    return ws_cta_step_warp(c, &c->warps[warp], out, fault);
}

ws_step_result ws_warp_step_to(ws_cta *c, unsigned warp, ws_step *out, uint64_t *addr,
                               ws_fault *fault) {
    if (!c || warp >= c->nwarps) return WS_STEP_DONE;
    out->addr = addr;
    return ws_cta_step_warp(c, &c->warps[warp], out, fault);
}

int32_t ws_warp_pc(const ws_cta *c, unsigned warp) {
    if (!c || warp >= c->nwarps) return -1;
    const ws_warp *w = &c->warps[warp];
    if (w->state == WS_WARP_DONE || w->sp == 0) return -1;
    return w->stack[w->sp - 1].pc;
}

/* Reinitialise a CTA for the next ctaid of the same launch (grid.c). */
bool ws_cta_reset(ws_cta *c, const uint32_t ctaid[3], uint32_t smid) { return cta_init(c, ctaid, smid); }

static uint32_t line_of(const ws_func *f, uint32_t pc) { return pc < f->ninsts ? f->insts[pc].line : 0; }

/* A message naming the waiting warps of a CTA that can make no progress. */
void ws_cta_deadlock(ws_cta *c, ws_fault *fault) {
    fault->code = WS_ERR_DEADLOCK;
    int n = snprintf(fault->msg, sizeof fault->msg, "kernel %s: barrier deadlock in CTA (%u,%u,%u):",
                     c->kfunc->name, c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    const ws_func *f = c->kfunc;
    for (uint32_t i = 0; i < c->nwarps && n < (int)sizeof fault->msg - 80; i++) {
        ws_warp *w = &c->warps[i];
        if (w->state == WS_WARP_MBAR) {
            n += snprintf(fault->msg + n, sizeof fault->msg - (size_t)n, " warp %u waits on an mbarrier;", i);
            continue;
        }
        if (w->state != WS_WARP_BAR) continue;
        if (w->bar_id == WS_CLUSTER_BAR_ID) {
            const ws_cluster *cl = c->cluster;
            n += snprintf(fault->msg + n, sizeof fault->msg - (size_t)n,
                          " warp %u waits at the cluster barrier (line %u; %u threads of the cluster arrived);",
                          i, line_of(&c->mod->funcs[w->func], w->bar_pc), cl ? cl->arrived : 0);
            continue;
        }
        const ws_barrier *b = &c->bars[w->bar_id];
        const ws_func *wf = &c->mod->funcs[w->func];
        (void)f;
        n += snprintf(fault->msg + n, sizeof fault->msg - (size_t)n,
                      " warp %u waits at barrier %u (pc %u, line %u; %u of %u threads arrived%s);", i, w->bar_id,
                      w->bar_pc, w->bar_pc < wf->ninsts ? wf->insts[w->bar_pc].line : 0, b->arrived,
                      b->expected ? b->expected : live_threads(c), b->partial ? ", divergent arrival" : "");
    }
    uint32_t ex = 0;
    for (uint32_t i = 0; i < c->nwarps; i++) ex += c->warps[i].state == WS_WARP_DONE;
    if (n < (int)sizeof fault->msg - 40)
        snprintf(fault->msg + n, sizeof fault->msg - (size_t)n, " %u warp(s) exited", ex);
}

/* ---- where stuck warps are ------------------------------------------------ */

/* The innermost loop around pc: the shortest backward branch that jumps
 * over it. Linear in the function's size; only for reports. */
static bool loop_around(const ws_func *f, uint32_t pc, uint32_t *head, uint32_t *tail) {
    bool found = false;
    for (uint32_t b = pc; b < f->ninsts; b++) {
        const ws_inst *in = &f->insts[b];
        if (in->op != WS_OP_BRA || in->nsrc < 1 || in->src[0].kind != WS_OPND_LABEL) continue;
        uint32_t t = (uint32_t)in->src[0].imm;
        if (t > pc) continue;
        if (!found || b - t < *tail - *head) { *head = t; *tail = b; found = true; }
    }
    return found;
}


void ws_where_add(ws_where_tally *t, const ws_cta *c, unsigned warp) {
    char here[80];
    const ws_warp *w = &c->warps[warp];
    const ws_func *f = &c->mod->funcs[w->func];
    if (w->state == WS_WARP_DONE || w->sp == 0) {
        snprintf(here, sizeof here, "exited");
    } else if (w->state == WS_WARP_BAR && w->bar_id == WS_CLUSTER_BAR_ID) {
        snprintf(here, sizeof here, "the cluster barrier at line %u of %s", line_of(f, w->bar_pc), f->name);
    } else if (w->state == WS_WARP_BAR) {
        snprintf(here, sizeof here, "barrier %u at line %u of %s", w->bar_id, line_of(f, w->bar_pc),
                 f->name);
    } else {
        uint32_t pc = (uint32_t)w->stack[w->sp - 1].pc, head = 0, tail = 0;
        if (loop_around(f, pc, &head, &tail))
            snprintf(here, sizeof here, "line %u in the loop of lines %u-%u of %s", line_of(f, pc),
                     line_of(f, head), line_of(f, tail), f->name);
        else
            snprintf(here, sizeof here, "line %u of %s", line_of(f, pc), f->name);
    }
    for (uint32_t i = 0; i < t->n; i++)
        if (!strcmp(t->where[i], here)) { t->count[i]++; return; }
    if (t->n == WS_WHERE_MAX) { t->others++; return; }
    memcpy(t->where[t->n], here, sizeof here);
    t->count[t->n++] = 1;
}

void ws_where_format(const ws_where_tally *t, char *buf, size_t n) {
    size_t o = 0;
    if (n) buf[0] = 0;
    for (uint32_t i = 0; i < t->n && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%u warp%s at %s", i ? "; " : "", t->count[i],
                              t->count[i] == 1 ? "" : "s", t->where[i]);
    if (t->others && o < n) snprintf(buf + o, n - o, "; %u warps elsewhere", t->others);
}

void ws_hang_message(const char *kernel, uint64_t quiet, const ws_where_tally *t,
                     const char *hint, ws_fault *fault) {
    char where[400];
    ws_where_format(t, where, sizeof where);
    fault->code = WS_ERR_DEADLOCK;
    snprintf(fault->msg, sizeof fault->msg,
             "kernel %s: hung: %llu warp instructions without a memory write or a warp exit%s: %s",
             kernel, (unsigned long long)quiet, hint, where);
}
