/* Loads, stores and atomics in every state space.
 *
 * Each access is resolved per lane to a host pointer: global through the
 * chunk map (checked against live allocations; outside them, the mapped
 * regions of gmem.c and memcheck), shared/local/const/param
 * against their sizes; generic addresses first through the windows of
 * exec.h. Misaligned accesses (address not a multiple of the access size,
 * vector width included) fault with WS_ERR_MISALIGNED. Atomics run lane by
 * lane in lane order so results are deterministic. */
#include <math.h>
#include <stdio.h>

#include "exec/exec_internal.h"
#include "util/bits.h"

enum { MS_GLOBAL = 1, MS_SHARED, MS_LOCAL, MS_CONST, MS_PARAMBUF, MS_GENERIC };

static const char *ms_name(int ms) {
    switch (ms) {
    case MS_GLOBAL: return "global";
    case MS_SHARED: return "shared";
    case MS_LOCAL: return "local";
    case MS_CONST: return "const";
    case MS_PARAMBUF: return "param";
    default: return "generic";
    }
}

static unsigned ms_space(int ms) {
    switch (ms) {
    case MS_GLOBAL: return WS_SPACE_GLOBAL;
    case MS_SHARED: return WS_SPACE_SHARED;
    case MS_LOCAL: return WS_SPACE_LOCAL;
    case MS_CONST: return WS_SPACE_CONST;
    case MS_PARAMBUF: return WS_SPACE_PARAM;
    default: return WS_SPACE_NONE;
    }
}

/* Per-instruction address plan: lane address = base[lane] (masked) + off. (plan is
   inlined into its two callers: the call cost ~18 host instructions a memory instruction) */
typedef struct {
    int ms;
    const uint64_t *base; /* NULL: no register */
    uint64_t bmask;       /* 32-bit base registers are read zero-extended */
    uint64_t off;
} addr_plan;

static inline __attribute__((always_inline)) ws_status plan(ws_xctx *x, const ws_operand *o, addr_plan *p) {
    const ws_inst *in = x->in;
    if (o->kind != WS_OPND_MEM) return ws_unsupported(x, "expected a memory operand");
    const ws_module *m = x->c->mod;
    const ws_symbol *s = o->sym != WS_NOSYM ? &m->syms[o->sym] : NULL;
    switch (in->space) {
    case WS_SPACE_GLOBAL: p->ms = MS_GLOBAL; break;
    case WS_SPACE_SHARED: p->ms = MS_SHARED; break;
    case WS_SPACE_LOCAL: p->ms = MS_LOCAL; break;
    case WS_SPACE_CONST: p->ms = MS_CONST; break;
    case WS_SPACE_PARAM:
        p->ms = s ? (s->is_kernel_param ? MS_PARAMBUF : MS_LOCAL) : (x->f->is_entry ? MS_PARAMBUF : MS_LOCAL);
        break;
    case WS_SPACE_NONE: p->ms = MS_GENERIC; break;
    default: return ws_unsupported(x, "state space");
    }
    p->off = (uint64_t)o->imm;
    if (s) p->off += ws_sym_addr(x, o->sym, p->ms == MS_GENERIC);
    p->base = NULL;
    p->bmask = ~0ull;
    if (o->reg != WS_NOREG) {
        p->base = ws_reg(x->w, o->reg);
        if (o->base32) p->bmask = 0xFFFFFFFFull; /* ws_func_prepare: the register's declared width */
    }
    return WS_OK;
}

/* A 32-bit base register addresses a 32-bit space: base + offset wraps
 * modulo 2^32 as on hardware (nvcc folds negative terms into such bases). */
static inline uint64_t lane_addr(const addr_plan *p, uint32_t l) {
    if (!p->base) return p->off;
    if (p->bmask != ~0ull) return (uint32_t)(p->base[l] + p->off);
    return p->base[l] + p->off;
}

/* lane_addr for the active lanes, with the base's kind decided once per
 * instruction rather than per lane. */
static inline void lane_addrs(const addr_plan *p, uint32_t M, uint64_t *restrict ad) {
    const uint64_t *restrict b = p->base, off = p->off; /* (ad: a local array or the step record) */
    if (!b) WS_FOR_MASK(l, M, ad[l] = off);
    else if (p->bmask != ~0ull) WS_FOR_MASK(l, M, ad[l] = (uint32_t)(b[l] + off));
    else WS_FOR_MASK(l, M, ad[l] = b[l] + off);
}

/* Whether some active lane's access is misaligned or lies past last above lo (unsigned:
   below lo wraps high). The whole warp's case folds the lanes into one OR and one
   maximum (what the per-lane test ORs together, answered at the end). */
static inline bool lanes_bad(const uint64_t *ad, uint32_t M, uint64_t lo, uint64_t last,
                             uint32_t size) {
    uint64_t bad = 0;
    if (M == ~0u) {
        uint64_t any = 0, hi = 0;
#pragma GCC unroll 8
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
            uint64_t d = ad[l] - lo;
            any |= ad[l];
            hi = d > hi ? d : hi;
        }
        return (any & (size - 1)) || hi > last;
    }
    WS_FOR_MASK(l, M, bad |= (ad[l] & (size - 1)) | (uint64_t)(ad[l] - lo > last));
    return bad != 0;
}

/* Where an address outside allocations lies, for memcheck's reports. */
/* lane_addrs and lanes_bad(ad, ~0u, 0, last, size) in one loop for a full warp
   with a 32-bit base register (shared memory's usual addressing): the address
   is the base's low word plus the offset's, modulo 2^32, and the test works on
   32-bit words (what lanes_bad's 64-bit ones hold then: last <= UINT32_MAX). */
static inline bool addrs32_full(const uint64_t *restrict b, uint32_t off, uint64_t *restrict ad,
                                uint32_t last, uint32_t size) {
    int v = ws_simd_addrs32_full(b, off, ad, last, size);
    if (v >= 0) return v;
    uint32_t any = 0, over = 0;
    for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
        uint32_t a = (uint32_t)b[l] + off;
        ad[l] = a;
        any |= a;
        over |= (uint32_t)(a > last);
    }
    return (any & (size - 1)) || over;
}

/* lane_addrs and lanes_bad(ad, ~0u, lo, last, size) in one loop for a full warp
   with a 64-bit base register (global memory's usual addressing). */
static inline bool addrs64_full(const uint64_t *restrict b, uint64_t off, uint64_t *restrict ad,
                                uint64_t lo, uint64_t last, uint32_t size) {
    int v = ws_simd_addrs64_full(b, off, ad, lo, last, size);
    if (v >= 0) return v;
    uint64_t any = 0, hi = 0;
#pragma GCC unroll 8
    for (unsigned l = 0; l < WS_WARP_SIZE; l++) {
        uint64_t a = b[l] + off, d = a - lo;
        ad[l] = a;
        any |= a;
        hi = d > hi ? d : hi;
    }
    return (any & (size - 1)) || hi > last;
}

static void describe_near(char *buf, size_t n, uint64_t a, uint32_t size, const ws_gmem_near *nr) {
    if (!nr) {
        snprintf(buf, n, "no allocation is live");
        return;
    }
    unsigned long long b = nr->base, s = nr->size;
    if (!nr->live)
        snprintf(buf, n, "%llu bytes into the freed allocation at 0x%llx of %llu bytes: use after free",
                 (unsigned long long)a - b, b, s);
    else if (a < b)
        snprintf(buf, n, "%llu bytes before the allocation at 0x%llx of %llu bytes", b - a, b, s);
    else if (a < b + s)
        snprintf(buf, n, "%llu bytes into the allocation at 0x%llx of %llu bytes, running %llu bytes past its end",
                 (unsigned long long)a - b, b, s, (unsigned long long)(a + size - (b + s)));
    else
        snprintf(buf, n, "%llu bytes after the end of the allocation at 0x%llx of %llu bytes",
                 (unsigned long long)a - (b + s), b, s);
}

/* A global access outside every live allocation (the rare path, through
 * lane_miss). Inside a mapped region it goes ahead, as on a GPU; memcheck
 * reports it (once per site) first. Returns the host pointer, or NULL with
 * the fault filled. */
static uint8_t *global_outside(ws_xctx *x, uint64_t a, uint32_t size,
                                                         uint32_t lane, const char *what) {
    ws_gmem *g = x->c->l.gmem;
    ws_memcheck *mc = x->c->l.memcheck;
    bool mapped = ws_gmem_mapped(g, a, size);
    if (!mc) {
        if (mapped) return ws_gmem_host(g, a);
        ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, lane, "illegal address 0x%llx (global %s of %u bytes)",
                (unsigned long long)a, what, size);
        return NULL;
    }
    ws_gmem_near nr;
    bool has = ws_gmem_nearest(g, a, &nr);
    char rel[200];
    describe_near(rel, sizeof rel, a, size, has ? &nr : NULL);
    const ws_module *m = x->c->mod;
    const char *file = m->filename ? m->filename : "ptx";
    unsigned line = x->in ? x->in->line : 0;
    char *desc = ws_memcheck_count(mc, x->w->func, x->pc, has ? nr.index : UINT32_MAX);
    if (desc) {
        if (has)
            snprintf(desc, WS_MEMCHECK_DESC, "pc %u in %s (%s:%u): global %s of %u bytes near the %sallocation at 0x%llx of %llu bytes",
                     x->pc, x->f->name, file, line, what, size, nr.live ? "" : "freed ",
                     (unsigned long long)nr.base, (unsigned long long)nr.size);
        else
            snprintf(desc, WS_MEMCHECK_DESC, "pc %u in %s (%s:%u): global %s of %u bytes, no allocation live",
                     x->pc, x->f->name, file, line, what, size);
        ws_fault rep = {0};
        ws_xctx y = *x;
        y.fault = &rep; /* the fault's format, printed instead of stopping */
        ws_fail(&y, WS_ERR_ILLEGAL_ADDRESS, lane, "%s global %s of %u bytes at 0x%llx (%s)",
                mapped ? "invalid" : "unmapped", what, size, (unsigned long long)a, rel);
        fprintf(ws_memcheck_out(mc), "memcheck: %s\n", rep.msg);
    }
    if (!mapped)
        ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, lane, "illegal address 0x%llx (global %s of %u bytes; %s)",
                (unsigned long long)a, what, size, rel);
    else if (ws_memcheck_mode(mc) == 2)
        ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, lane,
                "invalid global %s of %u bytes at 0x%llx (%s; -warpsim_memcheck 2 stops at the first)",
                what, size, (unsigned long long)a, rel);
    else
        return ws_gmem_host(g, a);
    return NULL;
}

/* A shared or local access outside the CTA's shared memory / the thread's
 * local memory with memcheck on: one report per site, naming the nearest
 * shared variable, then the fault (there is no memory to go on with; a GPU
 * faults too). a is the offset in the space. */
static void space_outside(ws_xctx *x, int ms, uint64_t a, uint32_t size, uint32_t lane, const char *what) {
    ws_cta *c = x->c;
    const ws_module *m = c->mod;
    uint64_t limit = ms == MS_SHARED ? c->shared_size : x->w->local_stride;
    char rel[200];
    int n = snprintf(rel, sizeof rel, "%llu bytes %s the %s's %llu bytes of %s memory",
                     (unsigned long long)(a >= limit ? a - limit : 0), a >= limit ? "past the end of" : "before",
                     ms == MS_SHARED ? "CTA" : "thread", (unsigned long long)limit, ms_name(ms));
    if (a + size > limit && a < limit) /* starts inside, runs past the end */
        n = snprintf(rel, sizeof rel, "running %llu bytes past the end of the %s's %llu bytes of %s memory",
                     (unsigned long long)(a + size - limit), ms == MS_SHARED ? "CTA" : "thread",
                     (unsigned long long)limit, ms_name(ms));
    if (ms == MS_SHARED) { /* the shared variable nearest to a */
        const char *best = NULL;
        uint64_t bd = UINT64_MAX, bs = 0, be = 0;
        for (uint32_t i = 0; i < m->nsyms; i++) {
            const ws_symbol *s = &m->syms[i];
            if (s->space != WS_SPACE_SHARED || (s->func >= 0 && s->func != (int32_t)c->l.func && !s->is_extern))
                continue;
            uint64_t b = s->is_extern ? c->dyn_shared_base : c->l.img->sym_addr[i];
            uint64_t e = s->is_extern ? c->shared_size : b + s->size;
            uint64_t d = a >= e ? a - e : a < b ? b - a : 0;
            if (d < bd) bd = d, best = s->name, bs = b, be = e;
        }
        if (best && n > 0 && (size_t)n < sizeof rel)
            snprintf(rel + n, sizeof rel - (size_t)n, "; nearest variable '%s' at %llu-%llu", best,
                     (unsigned long long)bs, (unsigned long long)(be ? be - 1 : 0));
    }
    ws_memcheck *mc = c->l.memcheck;
    const char *file = m->filename ? m->filename : "ptx";
    unsigned line = x->in ? x->in->line : 0;
    char *desc = ws_memcheck_count(mc, x->w->func, x->pc, ms == MS_SHARED ? UINT32_MAX - 1 : UINT32_MAX - 2);
    if (desc) {
        snprintf(desc, WS_MEMCHECK_DESC, "pc %u in %s (%s:%u): %s %s of %u bytes outside the %s's %s memory",
                 x->pc, x->f->name, file, line, ms_name(ms), what, size, ms == MS_SHARED ? "CTA" : "thread",
                 ms_name(ms));
        ws_fault rep = {0};
        ws_xctx y = *x;
        y.fault = &rep;
        ws_fail(&y, WS_ERR_ILLEGAL_ADDRESS, lane, "invalid %s %s of %u bytes at 0x%llx (%s)", ms_name(ms), what,
                size, (unsigned long long)a, rel);
        fprintf(ws_memcheck_out(mc), "memcheck: %s\n", rep.msg);
    }
    ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, lane, "illegal address 0x%llx (%s %s of %u bytes; %s)",
            (unsigned long long)a, ms_name(ms), what, size, rel);
}

/* Host pointer for one lane's access, or NULL with the fault filled. */
static uint8_t *lane_ptr(ws_xctx *x, int ms, uint64_t addr, uint32_t size, uint32_t lane, bool write,
                         const char *what, int *resolved, uint64_t *raddr) {
    ws_cta *c = x->c;
    uint64_t a = addr;
    if (ms == MS_GENERIC) {
        if (a - WS_GENERIC_SHARED_BASE < WS_GENERIC_WINDOW_SIZE) { ms = MS_SHARED; a -= WS_GENERIC_SHARED_BASE; }
        else if (a - WS_GENERIC_LOCAL_BASE < WS_GENERIC_WINDOW_SIZE) { ms = MS_LOCAL; a -= WS_GENERIC_LOCAL_BASE; }
        else if (a - WS_GENERIC_CONST_BASE < WS_GENERIC_WINDOW_SIZE) { ms = MS_CONST; a -= WS_GENERIC_CONST_BASE; }
        else if (a - WS_GENERIC_PARAM_BASE < WS_GENERIC_WINDOW_SIZE) { ms = MS_PARAMBUF; a -= WS_GENERIC_PARAM_BASE; }
        else ms = MS_GLOBAL;
    }
    if (resolved) *resolved = ms;
    if (raddr) *raddr = a;
    if (size && (addr & (size - 1))) {
        ws_fail(x, WS_ERR_MISALIGNED, lane, "misaligned address 0x%llx (%s %s of %u bytes)",
                (unsigned long long)addr, ms_name(ms), what, size);
        return NULL;
    }
    uint8_t *p = NULL;
    const char *ro = NULL;
    switch (ms) {
    case MS_GLOBAL: p = ws_gmem_ptr(c->l.gmem, a, size); break;
    case MS_SHARED: if (a < c->shared_size && size <= c->shared_size - a) p = c->shared + a; break;
    case MS_LOCAL:
        if (a < x->w->local_stride && size <= x->w->local_stride - a)
            p = x->w->local + (size_t)lane * x->w->local_stride + a;
        break;
    case MS_CONST:
        if (write) { ro = "const"; break; }
        if (a < c->mod->const_size && size <= c->mod->const_size - a) p = c->l.img->const_mem + a;
        break;
    case MS_PARAMBUF:
        if (write) { ro = "kernel param"; break; }
        if (c->l.params && a < c->kfunc->param_size && size <= c->kfunc->param_size - a)
            p = (uint8_t *)(uintptr_t)c->l.params + a;
        break;
    default: break;
    }
    if (!p) {
        if (ro)
            ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, lane, "store to read-only %s space at 0x%llx", ro,
                    (unsigned long long)addr);
        else
            ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, lane, "illegal address 0x%llx (%s %s of %u bytes)",
                    (unsigned long long)addr, ms_name(ms), what, size);
    }
    return p;
}

/* lane_ptr found no memory for lane's access. It ran without the fault
 * (x->fault NULL in the loops below), so that a global access outside
 * allocations that turns out to be mapped costs no message: there may be
 * many (stencil edges). They are handled here rather than in lane_ptr,
 * whose code every access runs (any change there costs the common case:
 * callgrind); the address is computed again from the plan for the same
 * reason. Anything else runs lane_ptr again, with the fault, to describe it.
 * Returns the host pointer, or NULL with *fault filled. */
static __attribute__((noinline, cold)) uint8_t *lane_miss(ws_xctx *x, ws_fault *fault, const addr_plan *p,
                                                          uint32_t size, uint32_t lane, bool write,
                                                          const char *what, int rs, uint64_t ra) {
    uint8_t *hp = NULL;
    x->fault = fault;
    if (rs == MS_SHARED && ra >> WS_DSMEM_RANK_SHIFT && !(ra & (size - 1)))
        hp = ws_dsmem_ptr(x, ra, size, lane); /* another CTA of the cluster (cluster.c) */
    else if (rs == MS_GLOBAL && !(ra & (size - 1))) hp = global_outside(x, ra, size, lane, what);
    else if ((rs == MS_SHARED || rs == MS_LOCAL) && x->c->l.memcheck && !(ra & (size - 1)))
        space_outside(x, rs, ra, size, lane, what);
    else lane_ptr(x, p->ms, lane_addr(p, lane), size, lane, write, what, &rs, &ra);
    x->fault = NULL;
    return hp;
}

const uint8_t *ws_generic_read_ptr(ws_xctx *x, uint64_t addr, uint32_t size, uint32_t lane) {
    /* non-null out-pointers like every other caller's, so that the compiler
       keeps specialising lane_ptr for the hot load/store path */
    int ms;
    uint64_t a;
    return lane_ptr(x, MS_GENERIC, addr, size, lane, false, "read", &ms, &a);
}

uint8_t *ws_mem_elem_ptr(ws_xctx *x, unsigned space, uint64_t addr, uint32_t size, uint32_t lane, bool write,
                         unsigned *resolved) {
    int ms = space == WS_SPACE_GLOBAL ? MS_GLOBAL : space == WS_SPACE_SHARED ? MS_SHARED : MS_GENERIC;
    const char *what = write ? "store" : "load";
    ws_fault *f = x->fault;
    int rs;
    uint64_t ra;
    x->fault = NULL; /* as the ld/st loops: see lane_miss */
    uint8_t *hp = lane_ptr(x, ms, addr, size, lane, write, what, &rs, &ra);
    if (!hp) {
        addr_plan pl = {ms, NULL, ~0ull, addr};
        hp = lane_miss(x, f, &pl, size, lane, write, what, rs, ra);
    }
    x->fault = f;
    *resolved = ms_space(rs);
    return hp;
}

/* wrote: memory changed (the hang detector's progress). */
static void record(ws_xctx *x, int ms, uint32_t size, bool store, bool atomic, bool wrote) {
    x->c->counts.mem_writes += wrote;
    if (!x->st) return;
    x->st->mem_space = (uint8_t)ms_space(ms);
    x->st->access_size = size;
    x->st->is_store = store;
    x->st->is_atomic = atomic;
    x->st->wrote = wrote;
}

/* Where the fast paths put the active lanes' addresses: straight into the
   step record under the timing model (which reads them there), else local.
   When a fast path declines, the path that takes over writes every active
   lane's address again (or faults, and the record is not read). */
static inline uint64_t *step_addrs(ws_xctx *x, uint64_t *local) { return x->st ? x->st->addr : local; }

/* Element k of a vector operand as a scalar one ('_' is NONE). Out of line:
   it keeps the per-lane loop of ws_exec_mem as tight as without immediates. */
__attribute__((noinline)) static ws_operand vec_elem(const ws_operand *vo, unsigned k) {
    if (ws_vec_is_imm(vo, k)) return (ws_operand){.kind = WS_OPND_IMM, .imm = (int64_t)ws_vec_imm(vo, k)};
    return (ws_operand){.kind = vo->vreg[k] == WS_NOREG ? WS_OPND_NONE : WS_OPND_REG, .reg = vo->vreg[k]};
}

/* ld/st.shared when every lane's access is aligned and inside the CTA's shared
   memory (checked first, for all lanes, so that nothing has happened when one is not:
   a load may overwrite its own address register). Returns WS_ERR_UNSUPPORTED to
   leave the instruction to the general loop (faults, distributed shared memory).
   The same effects as that loop, without its per-lane space decoding. */
static ws_status exec_shared(ws_xctx *x, const addr_plan *p, uint32_t size, unsigned esz,
                             unsigned n, bool is_st, bool sg, uint64_t *const *dst,
                             const uint64_t *const *src) {
    const ws_cta *c = x->c;
    uint32_t M = x->mask;
    if (c->shared_size < size) return WS_ERR_UNSUPPORTED;
    uint64_t lim = c->shared_size - size; /* the last address an access fits at */
    uint64_t adl[WS_WARP_SIZE], *ad = step_addrs(x, adl);
    bool bad;
    if (M == ~0u && p->base && p->bmask != ~0ull && lim <= UINT32_MAX) {
        bad = addrs32_full(p->base, (uint32_t)p->off, ad, (uint32_t)lim, size);
    } else {
        lane_addrs(p, M, ad);
        bad = lanes_bad(ad, M, 0, lim, size);
    }
    if (bad) return WS_ERR_UNSUPPORTED;
    uint8_t *sh = c->shared;
    if (n == 1 && esz == 4 && !is_st && dst[0]) { /* the common ld.shared.{u,s,f,b}32 */
        uint64_t *d = dst[0];
        if (sg) WS_FOR_MASK(l, M, d[l] = (uint64_t)(int64_t)(int32_t)ws_load_n(sh + ad[l], 4));
        else if (M == ~0u) {
#pragma GCC unroll 4
            for (uint32_t l = 0; l < WS_WARP_SIZE; l++) d[l] = ws_load_n(sh + ad[l], 4);
        } else WS_FOR_MASK(l, M, d[l] = ws_load_n(sh + ad[l], 4));
        record(x, MS_SHARED, size, false, false, false);
        return WS_OK;
    }
    WS_FOR_LANES(l, M) {
        uint8_t *hp = sh + ad[l];
        for (unsigned k = 0; k < n; k++) {
            if (is_st) ws_store_n(hp + k * esz, src[k][l], esz);
            else if (dst[k]) dst[k][l] = sg ? ws_ext(ws_load_n(hp + k * esz, esz), esz * 8, true) : ws_load_n(hp + k * esz, esz);
        }
    }
    record(x, MS_SHARED, size, is_st, false, is_st);
    return WS_OK;
}

/* ld.const / ld.param (kernel parameters) with a base register, when every
   lane's access is aligned and inside the space (checked first for all lanes,
   as exec_shared): the general loop's pointers, values and record without its
   per-lane space decoding (kmeans reads its centres this way, a lane at a
   time). WS_ERR_UNSUPPORTED leaves the instruction to that loop, which says
   why one does not fit. */
static ws_status exec_ro_space(ws_xctx *x, const addr_plan *p, uint32_t size, unsigned esz,
                               unsigned n, bool sg, uint64_t *const *dst) {
    const ws_cta *c = x->c;
    uint32_t M = x->mask;
    const uint8_t *mem;
    uint64_t limit;
    if (p->ms == MS_CONST) {
        mem = c->l.img->const_mem;
        limit = c->mod->const_size;
    } else {
        mem = (const uint8_t *)(uintptr_t)c->l.params;
        limit = mem ? c->kfunc->param_size : 0;
    }
    if (!M || limit < size) return WS_ERR_UNSUPPORTED;
    uint64_t adl[WS_WARP_SIZE], *ad = step_addrs(x, adl), last = limit - size;
    bool bad;
    if (M == ~0u && p->base && p->bmask == ~0ull) /* a full warp: the shared and global paths' loops */
        bad = addrs64_full(p->base, p->off, ad, 0, last, size);
    else if (M == ~0u && p->base && last <= UINT32_MAX)
        bad = addrs32_full(p->base, (uint32_t)p->off, ad, (uint32_t)last, size);
    else {
        lane_addrs(p, M, ad);
        bad = lanes_bad(ad, M, 0, last, size);
    }
    if (bad) return WS_ERR_UNSUPPORTED;
    if (n == 1 && dst[0]) { /* the common scalar load */
        uint64_t *d = dst[0];
        if (sg) WS_FOR_MASK(l, M, d[l] = ws_ext(ws_load_n(mem + ad[l], esz), esz * 8, true));
        else if (M == ~0u && esz == 4) { /* (kmeans' centres) */
            if (!ws_simd_load32_full(d, (uintptr_t)mem, ad)) {
#pragma GCC unroll 4
                for (uint32_t l = 0; l < WS_WARP_SIZE; l++) d[l] = ws_load_n(mem + ad[l], 4);
            }
        } else WS_FOR_MASK(l, M, d[l] = ws_load_n(mem + ad[l], esz));
    } else {
        WS_FOR_LANES(l, M) {
            const uint8_t *hp = mem + ad[l];
            for (unsigned k = 0; k < n; k++)
                if (dst[k]) dst[k][l] = sg ? ws_ext(ws_load_n(hp + k * esz, esz), esz * 8, true) : ws_load_n(hp + k * esz, esz);
        }
    }
    record(x, p->ms, size, false, false, false);
    return WS_OK;
}

/* ld/st of global memory (the global space, or generic addresses in the
   global heap) when every lane's access is aligned and inside the live
   allocation of the first active lane: one allocation lookup per instruction
   instead of lane_ptr per lane (most of a functional run's time on
   memory-bound kernels, which sampled simulation runs functionally). Checked
   for all lanes first, as exec_shared; WS_ERR_UNSUPPORTED leaves the
   instruction to the general loop. The same pointers, values and order of
   effects as that loop (an address inside a live allocation is global: the
   generic windows lie far above the heap). */
/* The heap when every active lane's access fits (its addresses in ad), else NULL (inline
   in its two callers, as plan). */
static inline __attribute__((always_inline)) uint8_t *global_lanes(ws_xctx *x, const addr_plan *p, uint32_t size,
                                                                   uint64_t *ad) {
    const ws_gmem *g = x->c->l.gmem;
    uint32_t M = x->mask;
    if (!M || !g) return NULL;
    uint64_t a0 = lane_addr(p, (uint32_t)__builtin_ctz(M)), off0 = a0 - WS_GLOBAL_HEAP_BASE;
    if (a0 < WS_GLOBAL_HEAP_BASE || off0 >= g->top) return NULL;
    uint32_t o = g->chunk_owner[off0 >> 8];
    if (!o || g->allocs[o - 1].size < size) return NULL;
    /* lane l fits iff ad[l] - lo <= last (unsigned: below lo wraps high) */
    uint64_t lo = g->allocs[o - 1].base, last = g->allocs[o - 1].size - size;
    if (M == ~0u && p->base && p->bmask == ~0ull) {
        if (addrs64_full(p->base, p->off, ad, lo, last, size)) return NULL;
        return g->heap;
    }
    lane_addrs(p, M, ad);
    if (lanes_bad(ad, M, lo, last, size)) return NULL;
    return g->heap;
}

static ws_status exec_global(ws_xctx *x, const addr_plan *p, uint32_t size, unsigned esz,
                             unsigned n, bool is_st, bool sg, uint64_t *const *dst,
                             const uint64_t *const *src) {
    uint32_t M = x->mask;
    uint64_t adl[WS_WARP_SIZE], *ad = step_addrs(x, adl);
    uint8_t *heap = global_lanes(x, p, size, ad);
    if (!heap) return WS_ERR_UNSUPPORTED;
    if (n == 1 && !is_st && dst[0] && esz == 4 && !sg) { /* ld.global.{u,f,b}32 */
        uint64_t *d = dst[0];
        if (M == ~0u) {
            /* the heap's host address less the heap base, in integers (a pointer would
               leave its object): one load and one store a lane */
            uintptr_t hb = (uintptr_t)heap - (uintptr_t)WS_GLOBAL_HEAP_BASE;
            if (!ws_simd_load32_full(d, hb, ad)) {
#pragma GCC unroll 4
                for (uint32_t l = 0; l < WS_WARP_SIZE; l++) d[l] = ws_load_n((const uint8_t *)(hb + (uintptr_t)ad[l]), 4);
            }
        } else WS_FOR_MASK(l, M, d[l] = ws_load_n(heap + (ad[l] - WS_GLOBAL_HEAP_BASE), 4));
    } else if (n == 1 && is_st && esz == 4) { /* st.global.32, lanes in order as below */
        const uint64_t *v = src[0];
        WS_FOR_MASK(l, M, ws_store_n(heap + (ad[l] - WS_GLOBAL_HEAP_BASE), v[l], 4));
    } else if (n == 1 && !is_st && dst[0]) { /* the common scalar load */
        uint64_t *d = dst[0];
        WS_FOR_LANES(l, M) {
            uint64_t v = ws_load_n(heap + (ad[l] - WS_GLOBAL_HEAP_BASE), esz);
            d[l] = sg ? ws_ext(v, esz * 8, true) : v;
        }
    } else {
        WS_FOR_LANES(l, M) {
            uint8_t *hp = heap + (ad[l] - WS_GLOBAL_HEAP_BASE);
            for (unsigned k = 0; k < n; k++) {
                if (is_st) ws_store_n(hp + k * esz, src[k][l], esz);
                else if (dst[k]) dst[k][l] = sg ? ws_ext(ws_load_n(hp + k * esz, esz), esz * 8, true) : ws_load_n(hp + k * esz, esz);
            }
        }
    }
    record(x, MS_GLOBAL, size, is_st, false, is_st);
    return WS_OK;
}

/* d[l] = v for the lanes of M: a full warp in a counted loop (vector stores; lane by
   lane, ld.param's address fill was ~7 host instructions a lane). */
static inline void fill_lanes(uint64_t *restrict d, uint32_t M, uint64_t v) {
    if (M == ~0u) { /* 16 two-lane stores, unrolled (the loop was half of them again) */
#pragma GCC unroll 16
        for (uint32_t l = 0; l < WS_WARP_SIZE; l++) d[l] = v;
    } else WS_FOR_MASK(l, M, d[l] = v);
}

/* A load whose address is the same for every lane (no base register: ld.param
   of kernel parameters, constants, globals by symbol): one lane_ptr and one
   read for the warp. A local address differs per lane and anything that
   fails goes to the general loop (WS_ERR_UNSUPPORTED), which says why. */
static ws_status exec_uniform_load(ws_xctx *x, const addr_plan *p, uint32_t size, unsigned esz,
                                   unsigned n, bool sg, uint64_t *const *dst) {
    uint32_t M = x->mask;
    if (!M) return WS_ERR_UNSUPPORTED;
    ws_fault *fault = x->fault;
    x->fault = NULL; /* as the general loop: no message for a miss */
    int rs;
    uint64_t ra;
    uint8_t *hp = lane_ptr(x, p->ms, p->off, size, (uint32_t)__builtin_ctz(M), false, "load", &rs, &ra);
    x->fault = fault;
    if (!hp || rs == MS_LOCAL) return WS_ERR_UNSUPPORTED;
    for (unsigned k = 0; k < n; k++) {
        if (!dst[k]) continue;
        uint64_t v = ws_load_n(hp + k * esz, esz), *d = dst[k];
        if (sg) v = ws_ext(v, esz * 8, true);
        fill_lanes(d, M, v);
    }
    if (x->st) fill_lanes(x->st->addr, M, ra);
    record(x, rs, size, false, false, false);
    return WS_OK;
}

/* A store under the timing model: its global-memory part goes to the SM's
   log (exec.h, wlog.c). Out of line, so that ws_exec_mem's loop stays as
   tight as before for loads. */
static __attribute__((noinline)) ws_status exec_st_logged(ws_xctx *x, const addr_plan *p, uint32_t size,
                                                          unsigned esz, unsigned n,
                                                          const uint64_t *const *src) {
    ws_wlog *wl = x->c->l.wlog;
    int ms0 = p->ms;
    if (p->ms == MS_GLOBAL || p->ms == MS_GENERIC) { /* every lane in one allocation: as exec_global */
        uint64_t adl[WS_WARP_SIZE], *ad = step_addrs(x, adl);
        uint8_t *heap = global_lanes(x, p, size, ad);
        if (heap) {
            if (n == 1 && x->mask == ~0u) { /* a full warp's scalar store: one entry, two copies */
                size_t at;
                uint64_t *wd = ws_wlog_words(wl, 2 * WS_WARP_SIZE, &at);
                memcpy(wd, ad, WS_WARP_SIZE * sizeof *wd);
                memcpy(wd + WS_WARP_SIZE, src[0], WS_WARP_SIZE * sizeof *wd);
                ws_wlog_ent *e = ws_wlog_add(wl);
                e->hp = heap;
                e->b = at;
                e->kind = WL_STORE_WARP;
                e->size = (uint8_t)esz;
                record(x, MS_GLOBAL, size, true, false, true);
                return WS_OK;
            }
            /* the same entries in the same order as one ws_wlog_add each; a store's entry
               is read for hp, b and size only (ws_wlog_commit) */
            ws_wlog_ent *e = ws_wlog_add_n(wl, (size_t)ws_popc32(x->mask) * n);
            WS_FOR_LANES(l, x->mask) {
                uint8_t *hp = heap + (ad[l] - WS_GLOBAL_HEAP_BASE);
                for (unsigned k = 0; k < n; k++, e++) {
                    e->hp = hp + k * esz;
                    e->b = src[k][l];
                    e->kind = WL_STORE;
                    e->size = (uint8_t)esz;
                }
            }
            record(x, MS_GLOBAL, size, true, false, true);
            return WS_OK;
        }
    }
    ws_fault *fault = x->fault;
    x->fault = NULL; /* for lane_ptr: see lane_miss */
    WS_FOR_LANES(l, x->mask) {
        uint64_t a = lane_addr(p, l), ra;
        int rs;
        uint8_t *hp = lane_ptr(x, p->ms, a, size, l, true, "store", &rs, &ra);
        if (!hp && !(hp = lane_miss(x, fault, p, size, l, true, "store", rs, ra))) {
            x->fault = fault;
            return fault ? fault->code : WS_ERR_ILLEGAL_ADDRESS;
        }
        if (x->st) x->st->addr[l] = ra;
        ms0 = rs;
        for (unsigned k = 0; k < n; k++) {
            if (rs == MS_GLOBAL) {
                ws_wlog_ent *e = ws_wlog_add(wl);
                *e = (ws_wlog_ent){.hp = hp + k * esz, .b = src[k][l], .kind = WL_STORE, .size = (uint8_t)esz};
            } else {
                ws_store_n(hp + k * esz, src[k][l], esz);
            }
        }
    }
    x->fault = fault;
    record(x, ms0, size, true, false, ms0 != MS_LOCAL && ms0 != MS_PARAMBUF);
    return WS_OK;
}

/* The common form, a scalar register value at [register + offset] in the global, shared
   or generic space: the calls that ws_exec_mem's general path makes for it, in its order
   (that path's operand set-up, plan and chain of space tests cost about 60 host
   instructions a memory instruction). False when exec_shared or exec_global declines:
   the general path then runs from the start (all they did is the step record's addresses,
   which it writes again); else true with *r the status (a logged store's too, whatever it
   is: it is never run twice). */
static inline __attribute__((always_inline)) bool exec_scalar_reg(ws_xctx *x, const ws_inst *in,
                                                                 const ws_operand *mo,
                                                                 const ws_operand *vo, bool is_st,
                                                                 unsigned esz, ws_status *r) {
    addr_plan p;
    switch (in->space) {
    case WS_SPACE_GLOBAL: p.ms = MS_GLOBAL; break;
    case WS_SPACE_SHARED: p.ms = MS_SHARED; break;
    case WS_SPACE_NONE: p.ms = MS_GENERIC; break;
    default: return false;
    }
    p.base = ws_reg(x->w, mo->reg); /* plan's fields without a symbol */
    p.bmask = mo->base32 ? 0xFFFFFFFFull : ~0ull;
    p.off = (uint64_t)mo->imm;
    uint64_t *v = ws_reg(x->w, vo->reg);
    uint64_t *const dst[1] = {is_st ? NULL : v};
    const uint64_t *const src[1] = {is_st ? v : NULL};
    bool sg = ws_type_is_signed((ws_type)in->type);
    if (p.ms == MS_SHARED) *r = exec_shared(x, &p, esz, esz, 1, is_st, sg, dst, src);
    else if (is_st && x->c->l.wlog) {
        *r = exec_st_logged(x, &p, esz, esz, 1, src);
        return true;
    } else *r = exec_global(x, &p, esz, esz, 1, is_st, sg, dst, src);
    return *r != WS_ERR_UNSUPPORTED;
}

/* ld.param of a kernel parameter by its symbol into a register (gaussian: most of its
   loads): plan's offset and exec_uniform_load's lane_ptr tests, read and fills, inline.
   False, nothing done, when any of them would not pass (the general path then says why). */
static inline __attribute__((always_inline)) bool exec_param_load(ws_xctx *x, const ws_inst *in,
                                                                 const ws_operand *mo,
                                                                 const ws_operand *vo) {
    const ws_cta *c = x->c;
    const ws_symbol *s = &c->mod->syms[mo->sym];
    uint32_t M = x->mask;
    unsigned esz = ws_type_size((ws_type)in->type);
    if (!s->is_kernel_param || s->is_frame || s->space != WS_SPACE_PARAM || !M || !esz || esz > 8)
        return false;
    uint64_t a = (uint64_t)mo->imm + c->l.img->sym_addr[mo->sym]; /* (ws_sym_addr's, not generic) */
    const uint8_t *params = (const uint8_t *)(uintptr_t)c->l.params;
    uint64_t lim = c->kfunc->param_size;
    if ((a & (esz - 1)) || !params || a >= lim || esz > lim - a) return false;
    uint64_t v = ws_load_n(params + a, esz);
    if (ws_type_is_signed((ws_type)in->type)) v = ws_ext(v, esz * 8, true);
    fill_lanes(ws_reg(x->w, vo->reg), M, v);
    if (x->st) fill_lanes(x->st->addr, M, a);
    record(x, MS_PARAMBUF, esz, false, false, false);
    return true;
}

ws_status ws_exec_mem(ws_xctx *x) {
    const ws_inst *in = x->in;
    bool is_st = in->op == WS_OP_ST;
    const ws_operand *mo, *vo;
    if (is_st) {
        if (in->dst[0].kind == WS_OPND_MEM) { mo = &in->dst[0]; vo = &in->src[0]; }
        else { mo = &in->src[0]; vo = &in->src[1]; }
    } else {
        mo = &in->src[0];
        vo = &in->dst[0];
    }
    if (vo->kind == WS_OPND_REG && vo->reg != WS_NOREG && mo->kind == WS_OPND_MEM) {
        if (mo->sym == WS_NOSYM && mo->reg != WS_NOREG) {
            unsigned esz = ws_type_size((ws_type)in->type);
            if (esz && esz <= 8) {
                ws_status r;
                if (exec_scalar_reg(x, in, mo, vo, is_st, esz, &r)) return r;
            }
        } else if (!is_st && mo->reg == WS_NOREG && mo->sym != WS_NOSYM && in->space == WS_SPACE_PARAM &&
                   exec_param_load(x, in, mo, vo))
            return WS_OK;
    }
    ws_warp *w = x->w;
    ws_type t = (ws_type)in->type;
    unsigned esz = ws_type_size(t);
    if (esz == 0 || esz > 8) return ws_unsupported(x, "access type");
    unsigned n = vo->kind == WS_OPND_VEC ? vo->vecn : 1;
    if (n == 0 || n > 4) return ws_unsupported(x, "vector width");
    uint32_t size = esz * n;
    addr_plan p;
    if (plan(x, mo, &p) != WS_OK) return WS_ERR_UNSUPPORTED;
    bool sg = ws_type_is_signed(t);
    const char *what = is_st ? "store" : "load";
    int ms0 = p.ms;
    uint32_t M = x->mask;
    /* value operands */
    uint64_t *dst[4] = {0};
    const uint64_t *src[4] = {0};
    uint64_t tmp[4][WS_WARP_SIZE];
    for (unsigned k = 0; k < n; k++) {
        ws_operand ve; /* a vector's element k; a scalar operand is used in place (not copied) */
        const ws_operand *el = vo->kind == WS_OPND_VEC ? (ve = vec_elem(vo, k), &ve) : vo;
        if (is_st) {
            if (el->kind == WS_OPND_NONE) { memset(tmp[k], 0, sizeof tmp[k]); src[k] = tmp[k]; continue; }
            src[k] = ws_src(x, el, tmp[k]);
            if (!src[k]) return ws_unsupported(x, "store operand");
        } else {
            dst[k] = el->kind == WS_OPND_REG ? ws_reg(w, el->reg) : NULL;
        }
    }
    if (p.ms == MS_SHARED) { /* the explicit shared space: no per-lane lane_ptr */
        ws_status r = exec_shared(x, &p, size, esz, n, is_st, sg, dst, src);
        if (r != WS_ERR_UNSUPPORTED) return r;
    }
    if (!is_st && !p.base && p.ms != MS_LOCAL) {
        ws_status r = exec_uniform_load(x, &p, size, esz, n, sg, dst);
        if (r != WS_ERR_UNSUPPORTED) return r;
    }
    if (!is_st && p.base && (p.ms == MS_CONST || p.ms == MS_PARAMBUF)) {
        ws_status r = exec_ro_space(x, &p, size, esz, n, sg, dst);
        if (r != WS_ERR_UNSUPPORTED) return r;
    }
    if (is_st && x->c->l.wlog) return exec_st_logged(x, &p, size, esz, n, src);
    if (p.ms == MS_GLOBAL || p.ms == MS_GENERIC) {
        ws_status r = exec_global(x, &p, size, esz, n, is_st, sg, dst, src);
        if (r != WS_ERR_UNSUPPORTED) return r;
    }
    ws_fault *fault = x->fault;
    x->fault = NULL; /* for lane_ptr: see lane_miss */
    WS_FOR_LANES(l, M) {
        uint64_t a = lane_addr(&p, l), ra;
        int rs;
        uint8_t *hp = lane_ptr(x, p.ms, a, size, l, is_st, what, &rs, &ra);
        if (!hp && !(hp = lane_miss(x, fault, &p, size, l, is_st, what, rs, ra))) {
            x->fault = fault;
            return fault ? fault->code : WS_ERR_ILLEGAL_ADDRESS;
        }
        if (x->st) x->st->addr[l] = ra;
        ms0 = rs;
        for (unsigned k = 0; k < n; k++) {
            if (is_st) ws_store_n(hp + k * esz, src[k][l], esz);
            else if (dst[k]) dst[k][l] = sg ? ws_ext(ws_load_n(hp + k * esz, esz), esz * 8, true) : ws_load_n(hp + k * esz, esz);
        }
    }
    x->fault = fault;
    /* a thread's own local memory cannot let another warp progress */
    record(x, ms0, size, is_st, false, is_st && ms0 != MS_LOCAL && ms0 != MS_PARAMBUF);
    return WS_OK;
}

/* ---- atomics -------------------------------------------------------------------- */
/* Inline in this file (the shared-memory loop below runs it per lane, with op and type
   constant where it can); wlog.c calls the external definition. */
inline __attribute__((always_inline)) uint64_t ws_atom_apply(unsigned op, ws_type t, uint64_t old, uint64_t b,
                                                               uint64_t c, bool *ok) {
    unsigned bits = ws_type_size(t) * 8;
    bool sg = ws_type_is_signed(t);
    *ok = true;
    switch (t) {
    case WS_T_F32: {
        float o = ws_f32(old), v = ws_f32(b);
        if (op == WS_ATOM_ADD) return ws_f32b(o + v);
        if (op == WS_ATOM_MIN) return ws_f32b(isnan(o) ? v : isnan(v) ? o : fminf(o, v));
        if (op == WS_ATOM_MAX) return ws_f32b(isnan(o) ? v : isnan(v) ? o : fmaxf(o, v));
        if (op == WS_ATOM_EXCH) return b;
        if (op == WS_ATOM_CAS) return old == (b & 0xFFFFFFFFu) ? c : old;
        break;
    }
    case WS_T_F64: {
        double o = ws_f64(old), v = ws_f64(b);
        if (op == WS_ATOM_ADD) return ws_f64b(o + v);
        if (op == WS_ATOM_MIN) return ws_f64b(isnan(o) ? v : isnan(v) ? o : fmin(o, v));
        if (op == WS_ATOM_MAX) return ws_f64b(isnan(o) ? v : isnan(v) ? o : fmax(o, v));
        if (op == WS_ATOM_EXCH) return b;
        if (op == WS_ATOM_CAS) return old == b ? c : old;
        break;
    }
    case WS_T_F16: case WS_T_BF16: {
        bool bf = t == WS_T_BF16;
        double o = bf ? ws_bf16_to_double((uint16_t)old) : ws_f16_to_double((uint16_t)old);
        double v = bf ? ws_bf16_to_double((uint16_t)b) : ws_f16_to_double((uint16_t)b);
        if (op == WS_ATOM_ADD) return bf ? ws_double_to_bf16(o + v, WS_RND_RN) : ws_double_to_f16(o + v, WS_RND_RN);
        if (op == WS_ATOM_EXCH) return b;
        if (op == WS_ATOM_CAS) return old == (b & 0xFFFF) ? c : old;
        break;
    }
    case WS_T_F16X2: case WS_T_BF16X2: {
        if (op != WS_ATOM_ADD) break;
        bool bf = t == WS_T_BF16X2;
        uint64_t r = 0;
        for (int k = 0; k < 2; k++) {
            uint16_t ho = (uint16_t)(old >> (16 * k)), hb = (uint16_t)(b >> (16 * k));
            double s = bf ? ws_bf16_to_double(ho) + ws_bf16_to_double(hb) : ws_f16_to_double(ho) + ws_f16_to_double(hb);
            r |= (uint64_t)(bf ? ws_double_to_bf16(s, WS_RND_RN) : ws_double_to_f16(s, WS_RND_RN)) << (16 * k);
        }
        return r;
    }
    default: {
        if (bits == 0 || bits > 64) break;
        uint64_t lm = bits == 64 ? ~0ull : (1ull << bits) - 1;
        uint64_t o = ws_ext(old, bits, sg), v = ws_ext(b, bits, sg);
        bool lt = sg ? (int64_t)o < (int64_t)v : o < v;
        switch (op) {
        case WS_ATOM_ADD: return o + v;
        case WS_ATOM_MIN: return lt ? o : v;
        case WS_ATOM_MAX: return lt ? v : o;
        case WS_ATOM_INC: return (o & lm) >= (v & lm) ? 0 : o + 1;
        case WS_ATOM_DEC: return ((o & lm) == 0 || (o & lm) > (v & lm)) ? v : o - 1;
        case WS_ATOM_CAS: return (o & lm) == (v & lm) ? c : old;
        case WS_ATOM_EXCH: return b;
        case WS_ATOM_AND: return o & v;
        case WS_ATOM_OR: return o | v;
        case WS_ATOM_XOR: return o ^ v;
        default: break;
        }
    }
    }
    *ok = false;
    return 0;
}

/* An integer atom/red (ADD to XOR) on the explicit shared space when every active lane's
   access is aligned and inside the CTA's shared memory (checked first, for all lanes, as
   exec_shared: nothing has happened when one is not). The general loop's effects, in its
   lane order, without lane_ptr per lane and with ws_atom_apply inline (histograms' bins).
   WS_ERR_UNSUPPORTED leaves the instruction to that loop. */
/* The lanes of atom_shared in lane order (ok is true: an integer type and an op from ADD
   to XOR, atom_shared's conditions). */
static inline __attribute__((always_inline)) bool atom_shared_lanes(uint8_t *sh, const uint64_t *ad, uint32_t M,
                                                                     unsigned op, ws_type t, const uint64_t *B,
                                                                     const uint64_t *C, uint64_t *D) {
    bool changed = false, ok, sg = ws_type_is_signed(t);
    unsigned esz = ws_type_size(t);
    WS_FOR_LANES(l, M) {
        uint8_t *hp = sh + ad[l];
        uint64_t old = ws_load_n(hp, esz), nv = ws_atom_apply(op, t, old, B[l], C ? C[l] : 0, &ok);
        ws_store_n(hp, nv, esz);
        changed |= nv != old;
        if (D) D[l] = sg ? ws_ext(old, esz * 8, true) : old;
    }
    return changed;
}

static ws_status atom_shared(ws_xctx *x, const addr_plan *p, ws_type t, unsigned esz, const uint64_t *B,
                             const uint64_t *C, uint64_t *D) {
    ws_cta *c = x->c;
    uint32_t M = x->mask;
    if (c->shared_size < esz) return WS_ERR_UNSUPPORTED;
    uint64_t adl[WS_WARP_SIZE], *ad = step_addrs(x, adl);
    lane_addrs(p, M, ad);
    if (lanes_bad(ad, M, 0, c->shared_size - esz, esz)) return WS_ERR_UNSUPPORTED;
    unsigned op = x->in->sub;
    bool changed;
    if (op == WS_ATOM_ADD && t == WS_T_U32) /* the common forms: op and type constant in the loop */
        changed = atom_shared_lanes(c->shared, ad, M, WS_ATOM_ADD, WS_T_U32, B, C, D);
    else if (op == WS_ATOM_ADD && t == WS_T_S32)
        changed = atom_shared_lanes(c->shared, ad, M, WS_ATOM_ADD, WS_T_S32, B, C, D);
    else changed = atom_shared_lanes(c->shared, ad, M, op, t, B, C, D);
    record(x, MS_SHARED, esz, true, true, changed);
    return WS_OK;
}

ws_status ws_exec_atom(ws_xctx *x) {
    const ws_inst *in = x->in;
    ws_type t = (ws_type)in->type;
    unsigned esz = ws_type_size(t);
    if (esz == 0 || esz > 8 || in->vec > 1) return ws_unsupported(x, "atomic type or vector form");
    const ws_operand *mo, *bo, *co = NULL;
    uint64_t *D = NULL;
    unsigned si;
    if (in->dst[0].kind == WS_OPND_MEM) { mo = &in->dst[0]; si = 0; } /* red [a], b */
    else if (in->src[0].kind == WS_OPND_MEM) {
        mo = &in->src[0];
        si = 1;
        if (in->op == WS_OP_ATOM) D = ws_dst(x, &in->dst[0]);
    } else return ws_unsupported(x, "expected a memory operand");
    if (in->nsrc < si + 1) return ws_unsupported(x, "missing operand");
    bo = &in->src[si];
    if (in->sub == WS_ATOM_CAS) {
        if (in->nsrc < si + 2) return ws_unsupported(x, "cas needs two values");
        co = &in->src[si + 1];
    }
    uint64_t tb[WS_WARP_SIZE], tc[WS_WARP_SIZE];
    const uint64_t *B = ws_src(x, bo, tb), *C = co ? ws_src(x, co, tc) : NULL;
    if (!B || (co && !C)) return ws_unsupported(x, "atomic operand");
    addr_plan p;
    if (plan(x, mo, &p) != WS_OK) return WS_ERR_UNSUPPORTED;
    if (p.ms == MS_CONST || p.ms == MS_PARAMBUF) return ws_unsupported(x, "atomic on a read-only space");
    if (p.ms == MS_SHARED && !ws_type_is_float(t) && in->sub >= WS_ATOM_ADD && in->sub <= WS_ATOM_XOR) {
        ws_status r = atom_shared(x, &p, t, esz, B, C, D); /* (ws_atom_apply's integer branch) */
        if (r != WS_ERR_UNSUPPORTED) return r;
    }
    int ms0 = p.ms;
    bool changed = false; /* a failed compare-and-swap is no progress */
    ws_wlog *wl = x->c->l.wlog;
    bool logged = false;
    ws_fault *fault = x->fault;
    x->fault = NULL; /* for lane_ptr: see lane_miss */
    WS_FOR_LANES(l, x->mask) {
        uint64_t a = lane_addr(&p, l), ra;
        int rs;
        uint8_t *hp = lane_ptr(x, p.ms, a, esz, l, true, "atomic", &rs, &ra);
        if (!hp && !(hp = lane_miss(x, fault, &p, esz, l, true, "atomic", rs, ra))) {
            x->fault = fault;
            return fault ? fault->code : WS_ERR_ILLEGAL_ADDRESS;
        }
        if (x->st) x->st->addr[l] = ra;
        ms0 = rs;
        bool ok;
        if (wl && rs == MS_GLOBAL) { /* deferred to the cycle's commit (exec.h, wlog.c) */
            ws_atom_apply(in->sub, t, 0, 0, 0, &ok); /* defined or not depends on op and type only */
            if (!ok) {
                x->fault = fault;
                return ws_unsupported(x, "atomic operation for this type");
            }
            ws_wlog_ent *e = ws_wlog_add(wl);
            *e = (ws_wlog_ent){.hp = hp, .b = B[l], .c = C ? C[l] : 0, .dst = D ? &D[l] : NULL,
                               .kind = WL_ATOM, .size = (uint8_t)esz, .op = (uint8_t)in->sub,
                               .type = (uint8_t)t};
            logged = true;
            continue;
        }
        uint64_t old = ws_load_n(hp, esz);
        uint64_t nv = ws_atom_apply(in->sub, t, old, B[l], C ? C[l] : 0, &ok);
        if (!ok) {
            x->fault = fault;
            return ws_unsupported(x, "atomic operation for this type");
        }
        ws_store_n(hp, nv, esz);
        changed |= nv != old;
        if (D) D[l] = ws_type_is_signed(t) ? ws_ext(old, esz * 8, true) : old;
    }
    x->fault = fault;
    if (logged) { /* its progress is counted when it is applied */
        ws_wlog_ent *e = ws_wlog_add(wl);
        *e = (ws_wlog_ent){.dst = &x->c->counts.mem_writes, .kind = WL_ATOM_END};
    }
    record(x, ms0, esz, true, true, changed);
    return WS_OK;
}
