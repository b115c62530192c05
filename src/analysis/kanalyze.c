/* The static kernel analyzer: a warp-wide interpreter of the integer part
 * of PTX over values that are either known (per lane) or unknown, with the
 * place an unknown value came from, so that a refusal can name it. See
 * kanalyze.h for what it records and when it refuses. */
#include "analysis/kanalyze.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "timing/mem/cache.h"
#include "timing/mem/coalesce.h"

/* Where an unknown value came from: the PTX line and what happened there. */
typedef struct {
    uint32_t line;
    const char *what;
} origin;

typedef struct {
    int32_t pc, rpc;
    uint32_t mask;
} stk;

typedef struct {
    const ws_ka_launch *l;
    const ws_func *f;
    ws_ka_result *r;
    uint64_t *R;     /* [nregs * 32] */
    uint32_t *K;     /* [nregs]: lanes whose value is known */
    origin *RO;      /* [nregs]: where its unknown lanes came from */
    uint32_t *P, *PK; /* [npreds]: value and known lanes */
    origin *PO;
    stk *st;
    unsigned sp, cap;
    uint32_t tid[32][3];
    uint32_t ctaid[3];
    uint32_t e, n;   /* reordering key of the next access */
    uint32_t *pc_count; /* per ld/st pc: executions in this warp (loop_free) */
    bool oom;
} ka;

static void refuse(ka *k, const ws_inst *in, const char *fmt, ...) {
    if (!k->r->ok) return;
    k->r->ok = false;
    char b[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    snprintf(k->r->why, sizeof k->r->why, "not analyzable: %s (%s at PTX line %u of %s)", b,
             in ? ws_opcode_name((ws_opcode)in->op) : "?", in ? in->line : 0, k->f->name);
}

static const char *origin_text(origin o, char *buf, size_t n) {
    if (!o.what) snprintf(buf, n, "unknown");
    else snprintf(buf, n, "%s at line %u", o.what, o.line);
    return buf;
}

/* ---- values ------------------------------------------------------------------ */
static uint64_t norm(uint64_t v, unsigned t) {
    switch (ws_type_size((ws_type)t)) {
    case 1: return v & 0xFF;
    case 2: return v & 0xFFFF;
    case 4: return v & 0xFFFFFFFFu;
    default: return v;
    }
}

static int64_t sx(uint64_t v, unsigned t) {
    switch (ws_type_size((ws_type)t)) {
    case 1: return (int8_t)v;
    case 2: return (int16_t)v;
    case 4: return (int32_t)v;
    default: return (int64_t)v;
    }
}

/* A source operand's lanes: values in out[], known lanes returned in *kn. */
static bool src(ka *k, const ws_inst *in, const ws_operand *o, unsigned t, uint64_t *out,
                uint32_t *kn, origin *og) {
    *kn = 0;
    og->line = in->line;
    og->what = NULL;
    switch (o->kind) {
    case WS_OPND_REG:
        memcpy(out, k->R + (size_t)o->reg * 32, 32 * sizeof *out);
        for (int l = 0; l < 32; l++) out[l] = norm(out[l], t);
        *kn = k->K[o->reg];
        *og = k->RO[o->reg];
        return true;
    case WS_OPND_IMM:
        for (int l = 0; l < 32; l++) out[l] = norm((uint64_t)o->imm, t);
        *kn = ~0u;
        return true;
    case WS_OPND_SREG: {
        const ws_ka_launch *l = k->l;
        unsigned s = o->reg;
        for (int i = 0; i < 32; i++) {
            uint64_t v = 0;
            if (s >= WS_SREG_TID_X && s <= WS_SREG_TID_Z) v = k->tid[i][s - WS_SREG_TID_X];
            else if (s >= WS_SREG_NTID_X && s <= WS_SREG_NTID_Z) v = l->block[s - WS_SREG_NTID_X];
            else if (s >= WS_SREG_CTAID_X && s <= WS_SREG_CTAID_Z) v = k->ctaid[s - WS_SREG_CTAID_X];
            else if (s >= WS_SREG_NCTAID_X && s <= WS_SREG_NCTAID_Z) v = l->grid[s - WS_SREG_NCTAID_X];
            else if (s == WS_SREG_LANEID) v = (uint64_t)i;
            else {
                og->what = "a special register whose value depends on the run (%smid, %clock, ...)";
                return true;
            }
            out[i] = norm(v, t);
        }
        *kn = ~0u;
        return true;
    }
    case WS_OPND_SYM:
        og->what = "the address of a variable";
        return true;
    default:
        og->what = "an operand the analyzer does not evaluate";
        return true;
    }
}

static void dst(ka *k, const ws_operand *o, unsigned t, uint32_t mask, const uint64_t *v,
                uint32_t kn, origin og) {
    if (o->kind == WS_OPND_VEC) {
        for (unsigned e = 0; e < o->vecn; e++) {
            uint16_t reg = o->vreg[e];
            if (reg == WS_NOREG) continue;
            k->K[reg] &= ~mask;
            k->RO[reg] = og.what ? og : (origin){0, "a vector load"};
        }
        return;
    }
    if (o->kind != WS_OPND_REG) return;
    uint64_t *D = k->R + (size_t)o->reg * 32;
    for (int l = 0; l < 32; l++)
        if (mask >> l & 1) D[l] = norm(v[l], t);
    k->K[o->reg] = (k->K[o->reg] & ~mask) | (kn & mask);
    if ((~kn & mask) && og.what) k->RO[o->reg] = og;
}

static void dst_unknown(ka *k, const ws_inst *in, uint32_t mask, const char *what) {
    static const uint64_t zero[32];
    for (unsigned d = 0; d < in->ndst; d++) {
        if (in->dst[d].kind == WS_OPND_PRED) {
            k->PK[in->dst[d].reg] &= ~mask;
            k->PO[in->dst[d].reg] = (origin){in->line, what};
        } else {
            dst(k, &in->dst[d], in->type, mask, zero, 0, (origin){in->line, what});
        }
    }
}

static void pred_write(ka *k, const ws_operand *o, uint32_t mask, uint32_t v, uint32_t kn,
                       origin og) {
    if (o->kind != WS_OPND_PRED) return;
    k->P[o->reg] = (k->P[o->reg] & ~mask) | (v & mask);
    k->PK[o->reg] = (k->PK[o->reg] & ~mask) | (kn & mask);
    if (~kn & mask) k->PO[o->reg] = og;
}

/* ---- integer arithmetic ------------------------------------------------------------ */
static bool cmp_one(unsigned c, unsigned t, uint64_t a, uint64_t b) {
    bool s = ws_type_is_signed((ws_type)t);
    int64_t x = sx(a, t), y = sx(b, t);
    switch (c) {
    case WS_CMP_EQ: return a == b;
    case WS_CMP_NE: return a != b;
    case WS_CMP_LT: return s ? x < y : a < b;
    case WS_CMP_LE: return s ? x <= y : a <= b;
    case WS_CMP_GT: return s ? x > y : a > b;
    case WS_CMP_GE: return s ? x >= y : a >= b;
    case WS_CMP_LO: return a < b;
    case WS_CMP_LS: return a <= b;
    case WS_CMP_HI: return a > b;
    case WS_CMP_HS: return a >= b;
    default: return false;
    }
}

static uint32_t boolop(unsigned op, uint32_t v, uint32_t c) {
    switch (op) {
    case WS_BOOL_AND: return v & c;
    case WS_BOOL_OR: return v | c;
    case WS_BOOL_XOR: return v ^ c;
    default: return v;
    }
}

/* One arithmetic result per lane; false for an operation not evaluated. */
static bool arith(const ws_inst *in, unsigned t, uint64_t a, uint64_t b, uint64_t c,
                  uint64_t *out) {
    bool s = ws_type_is_signed((ws_type)t);
    unsigned bits = 8 * ws_type_size((ws_type)t);
    int64_t x = sx(a, t), y = sx(b, t);
    switch ((ws_opcode)in->op) {
    case WS_OP_ADD: *out = a + b; return true;
    case WS_OP_SUB: *out = a - b; return true;
    case WS_OP_MUL24:
    case WS_OP_MAD24:
    case WS_OP_MUL:
    case WS_OP_MAD: {
        uint64_t p;
        if (in->op == WS_OP_MUL24 || in->op == WS_OP_MAD24) {
            if (in->sub == WS_MUL_HI) return false;
            p = s ? (uint64_t)((int64_t)(int32_t)((uint32_t)a << 8) / 256 *
                               ((int64_t)(int32_t)((uint32_t)b << 8) / 256))
                  : (a & 0xFFFFFF) * (b & 0xFFFFFF);
        } else if (in->sub == WS_MUL_WIDE) {
            p = s ? (uint64_t)(x * y) : a * b; /* wide: 2x the type, fits 64 bits for 32-bit types */
        } else if (in->sub == WS_MUL_HI) {
            if (bits == 64) return false;
            p = (s ? (uint64_t)(x * y) : a * b) >> bits;
        } else {
            p = a * b;
        }
        *out = (in->op == WS_OP_MAD || in->op == WS_OP_MAD24) ? p + c : p;
        return true;
    }
    case WS_OP_SHL: *out = b >= bits ? 0 : a << b; return true;
    case WS_OP_SHR:
        if (s) *out = (uint64_t)(b >= bits ? (x < 0 ? -1 : 0) : x >> b);
        else *out = b >= bits ? 0 : a >> b;
        return true;
    case WS_OP_AND: *out = a & b; return true;
    case WS_OP_OR: *out = a | b; return true;
    case WS_OP_XOR: *out = a ^ b; return true;
    case WS_OP_NOT: *out = ~a; return true;
    case WS_OP_CNOT: *out = a == 0; return true;
    case WS_OP_NEG: *out = (uint64_t)-x; return true;
    case WS_OP_ABS: *out = (uint64_t)(x < 0 ? -x : x); return true;
    case WS_OP_MIN: *out = s ? (uint64_t)(x < y ? x : y) : (a < b ? a : b); return true;
    case WS_OP_MAX: *out = s ? (uint64_t)(x > y ? x : y) : (a > b ? a : b); return true;
    case WS_OP_DIV:
        if (!b) return false;
        *out = s ? (uint64_t)(x / y) : a / b;
        return true;
    case WS_OP_REM:
        if (!b) return false;
        *out = s ? (uint64_t)(x % y) : a % b;
        return true;
    default: return false;
    }
}

/* ---- memory ------------------------------------------------------------------------ */
static bool grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return false;
    *p = q;
    *cap = nc;
    return true;
}

typedef struct {
    size_t acc_cap, addr_cap, trace_cap;
} caps;

static void record(ka *k, caps *cp, const ws_inst *in, uint32_t pc, uint32_t mask,
                   const uint64_t *addr) {
    ws_ka_result *r = k->r;
    unsigned size = ws_type_size((ws_type)in->type) * (in->vec ? in->vec : 1);
    ws_mem_txn tx[WS_MAX_TRANSACTIONS];
    ws_coalesce_in ci = {addr, mask, size ? size : 4, false, false};
    bool l1 = in->cacheop != WS_CACHE_CG; /* .cg loads skip the L1D */
    unsigned ntx = l1 ? ws_coalesce(&ci, tx) : 0;
    uint64_t blk[32];
    unsigned nb = 0;
    for (int l = 0; l < 32; l++) { /* Alg. 3: thread order, one entry per 128 B block */
        if (!(mask >> l & 1)) continue;
        uint64_t b = addr[l] & ~(uint64_t)127;
        unsigned j = 0;
        while (j < nb && blk[j] != b) j++;
        if (j == nb) blk[nb++] = b;
    }
    if (!grow((void **)&r->acc, &cp->acc_cap, r->nacc + 1, sizeof *r->acc) ||
        !grow((void **)&r->addr, &cp->addr_cap, r->naddr + nb + ntx, sizeof *r->addr)) {
        k->oom = true;
        return;
    }
    ws_ka_access *a = &r->acc[r->nacc++];
    a->pc = pc;
    a->line = in->line;
    a->kind = in->op == WS_OP_ST ? 'S' : 'L';
    a->e = k->e;
    a->n = k->n++;
    a->nblk = nb;
    a->ntx = ntx;
    a->at = r->naddr;
    memcpy(r->addr + r->naddr, blk, nb * sizeof *blk);
    for (unsigned i = 0; i < ntx; i++) r->addr[r->naddr + nb + i] = tx[i].addr & ~(uint64_t)127;
    r->naddr += nb + ntx;
    for (size_t i = 0; i < r->nldst; i++)
        if (r->ldst_pcs[i] == pc && ++k->pc_count[i] > 1) r->loop_free = false;
}

/* A load or store of warp lanes `mask`. */
static void exec_mem(ka *k, caps *cp, const ws_inst *in, uint32_t pc, uint32_t mask) {
    const ws_operand *mo = in->op == WS_OP_ST ? &in->dst[0] : &in->src[0];
    for (unsigned i = 0; i < in->nsrc && mo->kind != WS_OPND_MEM; i++) mo = &in->src[i];
    unsigned space = in->space;
    bool is_ld = in->op != WS_OP_ST;
    char ob[160];
    if (space == WS_SPACE_PARAM && is_ld && mo->kind == WS_OPND_MEM && mo->reg == WS_NOREG &&
        mo->sym != WS_NOSYM && k->l->mod->syms[mo->sym].is_kernel_param) {
        /* a kernel parameter: its value is known */
        uint64_t off = k->l->mod->syms[mo->sym].offset + (uint64_t)mo->imm;
        unsigned sz = ws_type_size((ws_type)in->type);
        unsigned nv = in->dst[0].kind == WS_OPND_VEC ? in->dst[0].vecn : 1;
        if (off + (uint64_t)sz * nv > k->f->param_size) {
            refuse(k, in, "a parameter read past the parameter buffer");
            return;
        }
        for (unsigned e = 0; e < nv; e++) {
            uint64_t v = 0;
            memcpy(&v, k->l->params + off + (uint64_t)e * sz, sz);
            uint64_t vals[32];
            for (int l = 0; l < 32; l++) vals[l] = v;
            ws_operand one = in->dst[0];
            if (one.kind == WS_OPND_VEC) {
                if (one.vreg[e] == WS_NOREG) continue;
                one.kind = WS_OPND_REG;
                one.reg = one.vreg[e];
            }
            dst(k, &one, in->type, mask, vals, ~0u, (origin){0, NULL});
        }
        return;
    }
    if (space == WS_SPACE_LOCAL) {
        refuse(k, in, "local memory (spilled registers or a local array): its L1D accesses "
                      "are not modelled");
        return;
    }
    bool global = space == WS_SPACE_GLOBAL, maybe = space == WS_SPACE_NONE;
    if (!global && !maybe) { /* shared, const, param of a call, texture: no L1D order */
        if (is_ld) dst_unknown(k, in, mask, "a value loaded from memory");
        return;
    }
    /* the address */
    uint64_t addr[32] = {0};
    uint32_t kn = ~0u;
    origin og = {in->line, NULL};
    if (mo->kind != WS_OPND_MEM) {
        refuse(k, in, "an address operand the analyzer does not evaluate");
        return;
    }
    if (mo->sym != WS_NOSYM) {
        refuse(k, in, "an access to a named variable (its address is known only when loaded)");
        return;
    }
    if (mo->reg != WS_NOREG) {
        ws_operand ro = {.kind = WS_OPND_REG, .reg = mo->reg};
        src(k, in, &ro, WS_T_U64, addr, &kn, &og);
    }
    if (~kn & mask) {
        refuse(k, in, "a global address that depends on %s", origin_text(og, ob, sizeof ob));
        return;
    }
    for (int l = 0; l < 32; l++) addr[l] += (uint64_t)mo->imm;
    if (maybe) { /* generic: which window? */
        uint32_t g = 0;
        for (int l = 0; l < 32; l++)
            if ((mask >> l & 1) && addr[l] < WS_GENERIC_PARAM_BASE) g |= 1u << l;
        if (g != mask && g) {
            refuse(k, in, "a generic access mixing global and other spaces");
            return;
        }
        if (!g) {
            bool local = false;
            for (int l = 0; l < 32; l++)
                if ((mask >> l & 1) && addr[l] >= WS_GENERIC_LOCAL_BASE &&
                    addr[l] < WS_GENERIC_LOCAL_BASE + WS_GENERIC_WINDOW_SIZE)
                    local = true;
            if (local) {
                refuse(k, in, "local memory through a generic address");
                return;
            }
            if (is_ld) dst_unknown(k, in, mask, "a value loaded from memory");
            return;
        }
    }
    record(k, cp, in, pc, mask, addr);
    if (is_ld) dst_unknown(k, in, mask, "a value loaded from global memory");
}

/* ---- one warp ------------------------------------------------------------------------ */
static bool push(ka *k, int32_t pc, int32_t rpc, uint32_t mask) {
    if (k->sp == k->cap) {
        unsigned nc = k->cap ? 2 * k->cap : 16;
        stk *n = realloc(k->st, nc * sizeof *n);
        if (!n) return false;
        k->st = n;
        k->cap = nc;
    }
    k->st[k->sp++] = (stk){pc, rpc, mask};
    return true;
}

static bool is_int_op(unsigned op) {
    switch ((ws_opcode)op) {
    case WS_OP_ADD: case WS_OP_SUB: case WS_OP_MUL: case WS_OP_MAD: case WS_OP_MUL24:
    case WS_OP_MAD24: case WS_OP_SHL: case WS_OP_SHR: case WS_OP_AND: case WS_OP_OR:
    case WS_OP_XOR: case WS_OP_NOT: case WS_OP_CNOT: case WS_OP_NEG: case WS_OP_ABS:
    case WS_OP_MIN: case WS_OP_MAX: case WS_OP_DIV: case WS_OP_REM:
        return true;
    default: return false;
    }
}

static void exec_inst(ka *k, caps *cp, const ws_inst *in, uint32_t pc, uint32_t active) {
    stk *top = &k->st[k->sp - 1];
    /* the guard */
    uint32_t mask = active, unk = 0;
    char ob[160];
    if (in->guard != WS_NOREG) {
        uint32_t g = k->P[in->guard] ^ (in->guard_neg ? ~0u : 0u);
        unk = active & ~k->PK[in->guard];
        mask = active & g & k->PK[in->guard];
        bool matters = in->op == WS_OP_BRA || in->op == WS_OP_EXIT || in->op == WS_OP_RET ||
                       in->op == WS_OP_BAR ||
                       ((in->op == WS_OP_LD || in->op == WS_OP_LDU || in->op == WS_OP_ST) &&
                        in->space != WS_SPACE_SHARED && in->space != WS_SPACE_PARAM &&
                        in->space != WS_SPACE_CONST);
        if (unk && matters) {
            refuse(k, in, "a guard predicate that depends on %s",
                   origin_text(k->PO[in->guard], ob, sizeof ob));
            return;
        }
    }
    top->pc = (int32_t)pc + 1;
    switch ((ws_opcode)in->op) {
    case WS_OP_BRA: {
        if (in->sub == WS_BRA_IDX) {
            refuse(k, in, "an indexed branch (brx.idx)");
            return;
        }
        int32_t target = -1;
        for (unsigned i = 0; i < in->nsrc; i++)
            if (in->src[i].kind == WS_OPND_LABEL) target = (int32_t)in->src[i].imm;
        if (target < 0) {
            refuse(k, in, "a branch without a label");
            return;
        }
        uint32_t t = mask, n = active & ~mask;
        if (!n) {
            top->pc = target;
        } else if (t) { /* diverges: as the functional engine does */
            int32_t r = in->reconv;
            if (top->rpc == r) {
                top->pc = (int32_t)pc + 1;
                top->mask = n;
            } else {
                top->pc = r;
                if (r != (int32_t)pc + 1 && !push(k, (int32_t)pc + 1, r, n)) k->oom = true;
            }
            if (!push(k, target, r, t)) k->oom = true;
        }
        return;
    }
    case WS_OP_EXIT:
    case WS_OP_RET:
        for (unsigned i = 0; i < k->sp; i++) k->st[i].mask &= ~mask;
        return;
    case WS_OP_CALL:
        refuse(k, in, "a function call");
        return;
    case WS_OP_BAR:
        if (in->sub != WS_BAR_WARP_SYNC && mask) { /* a new epoch of the reordering key */
            k->e++;
            k->n = 0;
        }
        return;
    case WS_OP_TRAP:
        if (mask) refuse(k, in, "a trap");
        return;
    case WS_OP_LD:
    case WS_OP_LDU:
    case WS_OP_ST:
        if (mask) exec_mem(k, cp, in, pc, mask);
        if (unk) dst_unknown(k, in, unk, "a guard that depends on an unknown value");
        return;
    default: break;
    }
    if (!mask && !unk) return;
    unsigned t = in->type;
    uint64_t A[32], B[32], C[32], D[32];
    uint32_t ka_ = 0, kb = ~0u, kc = ~0u;
    origin oa = {0, NULL}, ob_ = {0, NULL}, oc = {0, NULL};
    if ((ws_opcode)in->op == WS_OP_SETP) {
        unsigned ct = in->stype ? in->stype : t;
        if (ws_type_is_float((ws_type)ct) || in->nsrc < 2) {
            dst_unknown(k, in, mask | unk, "a floating-point comparison");
            return;
        }
        src(k, in, &in->src[0], ct, A, &ka_, &oa);
        src(k, in, &in->src[1], ct, B, &kb, &ob_);
        uint32_t v = 0, c = ~0u, kcp = ~0u;
        origin pc_og = {0, NULL};
        for (int l = 0; l < 32; l++)
            if (cmp_one(in->cmp, ct, A[l], B[l])) v |= 1u << l;
        if (in->boolop && in->nsrc > 2 && in->src[2].kind == WS_OPND_PRED) {
            c = k->P[in->src[2].reg] ^ (in->src[2].neg ? ~0u : 0u);
            kcp = k->PK[in->src[2].reg];
            pc_og = k->PO[in->src[2].reg];
        }
        uint32_t kn = ka_ & kb & kcp;
        origin og = ~ka_ & mask ? oa : ~kb & mask ? ob_ : pc_og;
        pred_write(k, &in->dst[0], mask, boolop(in->boolop, v, c), kn, og);
        if (in->ndst > 1) pred_write(k, &in->dst[1], mask, boolop(in->boolop, ~v, c), kn, og);
        if (unk) dst_unknown(k, in, unk, "a guard that depends on an unknown value");
        return;
    }
    if (t == WS_T_PRED && in->ndst >= 1 && in->dst[0].kind == WS_OPND_PRED) {
        /* predicate logic: and, or, xor, not, mov */
        uint32_t v[2] = {0, 0}, kn = ~0u;
        origin og = {in->line, "a predicate operation the analyzer does not evaluate"};
        bool ok = in->op == WS_OP_AND || in->op == WS_OP_OR || in->op == WS_OP_XOR ||
                  in->op == WS_OP_NOT || in->op == WS_OP_MOV;
        for (unsigned i = 0; i < in->nsrc && i < 2 && ok; i++) {
            const ws_operand *o = &in->src[i];
            if (o->kind == WS_OPND_PRED) {
                v[i] = k->P[o->reg] ^ (o->neg ? ~0u : 0u);
                if (~k->PK[o->reg] & mask) og = k->PO[o->reg];
                kn &= k->PK[o->reg];
            } else if (o->kind == WS_OPND_IMM) {
                v[i] = o->imm ? ~0u : 0u;
            } else {
                ok = false;
            }
        }
        if (!ok) {
            dst_unknown(k, in, mask | unk, "a predicate operation the analyzer does not evaluate");
            return;
        }
        uint32_t r = in->op == WS_OP_AND ? v[0] & v[1] : in->op == WS_OP_OR ? v[0] | v[1]
                     : in->op == WS_OP_XOR ? v[0] ^ v[1] : in->op == WS_OP_NOT ? ~v[0] : v[0];
        pred_write(k, &in->dst[0], mask, r, kn, og);
        if (unk) dst_unknown(k, in, unk, "a guard that depends on an unknown value");
        return;
    }
    if (ws_type_is_float((ws_type)t) || ((ws_opcode)in->op == WS_OP_CVT &&
                                          ws_type_is_float((ws_type)in->stype))) {
        dst_unknown(k, in, mask | unk, "a floating-point value");
        return;
    }
    switch ((ws_opcode)in->op) {
    case WS_OP_MOV:
        if (in->dst[0].kind == WS_OPND_PRED || in->src[0].kind == WS_OPND_VEC ||
            in->dst[0].kind == WS_OPND_VEC) {
            dst_unknown(k, in, mask | unk, "a predicate or vector move");
            return;
        }
        src(k, in, &in->src[0], t, A, &ka_, &oa);
        dst(k, &in->dst[0], t, mask, A, ka_, oa);
        break;
    case WS_OP_CVT: {
        unsigned st = in->stype ? in->stype : t;
        src(k, in, &in->src[0], st, A, &ka_, &oa);
        for (int l = 0; l < 32; l++)
            D[l] = ws_type_is_signed((ws_type)st) ? (uint64_t)sx(A[l], st) : A[l];
        dst(k, &in->dst[0], t, mask, D, ka_, oa);
        break;
    }
    case WS_OP_CVTA: {
        src(k, in, &in->src[0], t, A, &ka_, &oa);
        uint64_t base = in->space == WS_SPACE_SHARED ? WS_GENERIC_SHARED_BASE
                        : in->space == WS_SPACE_LOCAL ? WS_GENERIC_LOCAL_BASE
                        : in->space == WS_SPACE_CONST ? WS_GENERIC_CONST_BASE
                        : in->space == WS_SPACE_PARAM ? WS_GENERIC_PARAM_BASE : 0;
        for (int l = 0; l < 32; l++) D[l] = in->to_generic ? A[l] + base : A[l] - base;
        dst(k, &in->dst[0], t, mask, D, ka_, oa);
        break;
    }
    case WS_OP_SELP: {
        src(k, in, &in->src[0], t, A, &ka_, &oa);
        src(k, in, &in->src[1], t, B, &kb, &ob_);
        uint32_t c = 0, kp = 0;
        origin po = {in->line, "an operand the analyzer does not evaluate"};
        if (in->nsrc > 2 && in->src[2].kind == WS_OPND_PRED) {
            c = k->P[in->src[2].reg] ^ (in->src[2].neg ? ~0u : 0u);
            kp = k->PK[in->src[2].reg];
            po = k->PO[in->src[2].reg];
        }
        uint32_t kn = 0;
        for (int l = 0; l < 32; l++) {
            bool p = c >> l & 1;
            D[l] = p ? A[l] : B[l];
            if ((kp >> l & 1) && ((p ? ka_ : kb) >> l & 1)) kn |= 1u << l;
        }
        dst(k, &in->dst[0], t, mask, D, kn, ~kp & mask ? po : ~ka_ & mask ? oa : ob_);
        break;
    }
    default:
        if (!is_int_op(in->op) || in->ndst != 1 || in->dst[0].kind != WS_OPND_REG) {
            dst_unknown(k, in, mask | unk, ws_opcode_name((ws_opcode)in->op));
            return;
        }
        {
            /* operand types: shifts take a u32 amount, wide products read half-width */
            unsigned ta = t, tb = t;
            if (in->sub == WS_MUL_WIDE && (in->op == WS_OP_MUL || in->op == WS_OP_MAD)) {
                ta = tb = t;
            }
            if (in->op == WS_OP_SHL || in->op == WS_OP_SHR) tb = WS_T_U32;
            if (in->nsrc > 0) src(k, in, &in->src[0], ta, A, &ka_, &oa);
            if (in->nsrc > 1) src(k, in, &in->src[1], tb, B, &kb, &ob_);
            if (in->nsrc > 2) src(k, in, &in->src[2], t, C, &kc, &oc);
            unsigned tw = t;
            if (in->sub == WS_MUL_WIDE && (in->op == WS_OP_MUL || in->op == WS_OP_MAD)) {
                /* the destination is twice as wide; the addend of mad.wide too */
                tw = ws_type_is_signed((ws_type)t) ? WS_T_S64 : WS_T_U64;
                if (in->nsrc > 2) src(k, in, &in->src[2], tw, C, &kc, &oc);
            }
            uint32_t kn = ka_ & kb & kc;
            for (int l = 0; l < 32; l++) {
                if (!(mask >> l & 1)) continue;
                if (!arith(in, t, A[l], B[l], C[l], &D[l])) {
                    dst_unknown(k, in, mask | unk, ws_opcode_name((ws_opcode)in->op));
                    return;
                }
            }
            origin og = ~ka_ & mask ? oa : ~kb & mask ? ob_ : oc;
            dst(k, &in->dst[0], tw, mask, D, kn, og);
        }
        break;
    }
    if (unk) dst_unknown(k, in, unk, "a guard that depends on an unknown value");
}

static void run_warp(ka *k, caps *cp, uint64_t block, uint32_t warp) {
    const ws_ka_launch *l = k->l;
    const ws_func *f = k->f;
    uint32_t nthreads = l->block[0] * l->block[1] * l->block[2], lanes = 0;
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t t = warp * 32 + i;
        if (t >= nthreads) break;
        lanes |= 1u << i;
        k->tid[i][0] = t % l->block[0];
        k->tid[i][1] = t / l->block[0] % l->block[1];
        k->tid[i][2] = t / (l->block[0] * l->block[1]);
    }
    k->ctaid[0] = (uint32_t)(block % l->grid[0]);
    k->ctaid[1] = (uint32_t)(block / l->grid[0] % l->grid[1]);
    k->ctaid[2] = (uint32_t)(block / ((uint64_t)l->grid[0] * l->grid[1]));
    memset(k->K, 0, f->nregs * sizeof *k->K);
    memset(k->PK, 0, f->npreds * sizeof *k->PK);
    for (uint32_t i = 0; i < f->nregs; i++) k->RO[i] = (origin){f->line, "an uninitialised register"};
    for (uint32_t i = 0; i < f->npreds; i++) k->PO[i] = (origin){f->line, "an uninitialised predicate"};
    memset(k->pc_count, 0, (k->r->nldst + 1) * sizeof *k->pc_count);
    k->e = k->n = 0;
    k->sp = 0;
    if (!push(k, 0, -1, lanes)) {
        k->oom = true;
        return;
    }
    uint64_t steps = 0, max = l->max_steps ? l->max_steps : 50000000ull;
    while (k->sp && k->r->ok && !k->oom) {
        stk *top = &k->st[k->sp - 1];
        if (!top->mask || top->pc == top->rpc || top->pc < 0 || (uint32_t)top->pc >= f->ninsts) {
            k->sp--;
            continue;
        }
        if (++steps > max) {
            refuse(k, &f->insts[top->pc], "more than %" PRIu64 " warp instructions (a loop whose "
                   "bound the analyzer cannot see, or a very long kernel)", max);
            return;
        }
        ws_ka_result *r = k->r;
        if (r->ntrace >= WS_KA_MAX_TRACE) { /* the traces of all warps are kept: bound them */
            refuse(k, &f->insts[top->pc], "more than %u warp instructions over all warps (a "
                   "launch too large to analyze)", (unsigned)WS_KA_MAX_TRACE);
            return;
        }
        if (!grow((void **)&r->trace, &cp->trace_cap, r->ntrace + 1, sizeof *r->trace)) {
            k->oom = true;
            return;
        }
        r->trace[r->ntrace++] = (uint32_t)top->pc;
        exec_inst(k, cp, &f->insts[top->pc], (uint32_t)top->pc, top->mask);
    }
}

int ws_ka_analyze(const ws_ka_launch *l, ws_ka_result *r) {
    memset(r, 0, sizeof *r);
    r->ok = true;
    r->loop_free = true;
    r->func = l->func;
    memcpy(r->grid, l->grid, sizeof r->grid);
    memcpy(r->block, l->block, sizeof r->block);
    ka k = {0};
    k.l = l;
    k.r = r;
    k.f = &l->mod->funcs[l->func];
    const ws_func *f = k.f;
    caps cp = {0};
    uint64_t nblocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint32_t nthreads = l->block[0] * l->block[1] * l->block[2], wpb = (nthreads + 31) / 32;
    if (f->unsupported) {
        snprintf(r->why, sizeof r->why, "not analyzable: %s has an unsupported instruction",
                 f->name);
        r->ok = false;
        return 0;
    }
    /* Alg. 1: the static list of global ld/st pcs */
    r->ldst_pcs = malloc((f->ninsts + 1) * sizeof *r->ldst_pcs);
    k.pc_count = calloc(f->ninsts + 1, sizeof *k.pc_count);
    k.R = malloc(((size_t)f->nregs + 1) * 32 * sizeof *k.R);
    k.K = calloc(f->nregs + 1, sizeof *k.K);
    k.RO = calloc(f->nregs + 1, sizeof *k.RO);
    k.P = calloc(f->npreds + 1, sizeof *k.P);
    k.PK = calloc(f->npreds + 1, sizeof *k.PK);
    k.PO = calloc(f->npreds + 1, sizeof *k.PO);
    r->warps = malloc((nblocks * wpb + 1) * sizeof *r->warps);
    if (!r->ldst_pcs || !k.pc_count || !k.R || !k.K || !k.RO || !k.P || !k.PK || !k.PO ||
        !r->warps) {
        k.oom = true;
        goto out;
    }
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const ws_inst *in = &f->insts[pc];
        if ((in->op == WS_OP_LD || in->op == WS_OP_LDU || in->op == WS_OP_ST) &&
            (in->space == WS_SPACE_GLOBAL || in->space == WS_SPACE_NONE))
            r->ldst_pcs[r->nldst++] = pc;
    }
    uint64_t sum = 0;
    for (uint64_t b = 0; b < nblocks && r->ok && !k.oom; b++)
        for (uint32_t w = 0; w < wpb && r->ok && !k.oom; w++) {
            ws_ka_warp *kw = &r->warps[r->nwarps++];
            kw->block = b;
            kw->warp = w;
            kw->first = r->nacc;
            kw->tfirst = r->ntrace;
            run_warp(&k, &cp, b, w);
            kw->count = r->nacc - kw->first;
            kw->tcount = r->ntrace - kw->tfirst;
        }
    for (size_t i = 0; i < r->nacc; i++) {
        sum += r->acc[i].nblk;
        if (r->acc[i].nblk > r->ncoal_max) r->ncoal_max = r->acc[i].nblk;
    }
    r->ncoal_avg = r->nacc ? (double)sum / (double)r->nacc : 0;
out:
    free(k.pc_count);
    free(k.R);
    free(k.K);
    free(k.RO);
    free(k.P);
    free(k.PK);
    free(k.PO);
    free(k.st);
    if (k.oom) {
        r->ok = false;
        snprintf(r->why, sizeof r->why, "out of host memory");
        return -1;
    }
    return 0;
}

void ws_ka_free(ws_ka_result *r) {
    free(r->warps);
    free(r->acc);
    free(r->addr);
    free(r->ldst_pcs);
    free(r->trace);
    memset(r, 0, sizeof *r);
}

/* ---- output ---------------------------------------------------------------------------- */
static void print_blocks(FILE *f, const ws_ka_result *r, const ws_ka_access *a) {
    fprintf(f, "[[");
    for (uint32_t i = 0; i < a->nblk; i++)
        fprintf(f, "%s%" PRIu64, i ? ", " : "", r->addr[a->at + i]);
    fprintf(f, "], %c]", a->kind);
}

void ws_ka_print(FILE *f, const ws_ka_result *r) {
    if (!r->ok) {
        fprintf(f, "%s\n", r->why);
        return;
    }
    if (r->loop_free) { /* the paper's reorder configuration */
        fprintf(f, "-num_pcs %zu\n-pc_addr [", r->nldst);
        for (size_t i = 0; i < r->nldst; i++) fprintf(f, "%s%u", i ? ", " : "", 8 * r->ldst_pcs[i]);
        fprintf(f, "]\n-grid [%u, %u, %u]\n-block [%u, %u, %u]\n", r->grid[0], r->grid[1],
                r->grid[2], r->block[0], r->block[1], r->block[2]);
        uint64_t cur = UINT64_MAX;
        for (size_t w = 0; w < r->nwarps; w++) {
            const ws_ka_warp *kw = &r->warps[w];
            if (kw->block != cur) {
                cur = kw->block;
                fprintf(f, "Block [%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]\n", cur % r->grid[0],
                        cur / r->grid[0] % r->grid[1], cur / ((uint64_t)r->grid[0] * r->grid[1]));
            }
            fprintf(f, "Warp%u [", kw->warp);
            for (size_t i = 0; i < r->nldst; i++) {
                bool has = false;
                for (size_t a = kw->first; a < kw->first + kw->count; a++)
                    has |= r->acc[a].pc == r->ldst_pcs[i];
                fprintf(f, "%s%d", i ? ", " : "", has);
            }
            fprintf(f, "]\nWarp%u [", kw->warp);
            for (size_t i = 0; i < r->nldst; i++) {
                const ws_ka_access *hit = NULL;
                for (size_t a = kw->first; a < kw->first + kw->count; a++)
                    if (r->acc[a].pc == r->ldst_pcs[i]) hit = &r->acc[a];
                if (i) fprintf(f, ", ");
                if (hit) print_blocks(f, r, hit);
                else fprintf(f, "None");
            }
            fprintf(f, "]\n");
        }
    }
    fprintf(f, "# accesses: block warp epoch index pc line blocks (N_coal max %u, avg %.2f)\n",
            r->ncoal_max, r->ncoal_avg);
    for (size_t w = 0; w < r->nwarps; w++) {
        const ws_ka_warp *kw = &r->warps[w];
        for (size_t a = kw->first; a < kw->first + kw->count; a++) {
            const ws_ka_access *x = &r->acc[a];
            fprintf(f, "access %" PRIu64 " %u %u %u %u %u ", kw->block, kw->warp, x->e, x->n,
                    8 * x->pc, x->line);
            print_blocks(f, r, x);
            fputc('\n', f);
        }
    }
}

/* ---- the per-SM order and the estimator ------------------------------------------------- */
typedef struct {
    uint64_t sm, wave, e, n, block, warp;
    size_t idx;
} okey;

static int okey_cmp(const void *a, const void *b) {
    const okey *x = a, *y = b;
#define C(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
    C(sm); C(wave); C(e); C(n); C(block); C(warp);
#undef C
    return 0;
}

int ws_ka_l1_sequence(const ws_ka_result *r, unsigned n_sms, unsigned max_cta, size_t **order,
                      size_t **sm_first) {
    if (!n_sms) n_sms = 1;
    if (!max_cta) max_cta = 1;
    okey *k = malloc((r->nacc + 1) * sizeof *k);
    *order = malloc((r->nacc + 1) * sizeof **order);
    *sm_first = calloc(n_sms + 1, sizeof **sm_first);
    if (!k || !*order || !*sm_first) {
        free(k);
        free(*order);
        free(*sm_first);
        *order = *sm_first = NULL;
        return -1;
    }
    size_t m = 0;
    for (size_t w = 0; w < r->nwarps; w++) {
        const ws_ka_warp *kw = &r->warps[w];
        for (size_t a = kw->first; a < kw->first + kw->count; a++) {
            okey *o = &k[m++];
            o->sm = kw->block % n_sms;
            o->wave = kw->block / n_sms / max_cta;
            o->e = r->acc[a].e;
            o->n = r->acc[a].n;
            o->block = kw->block;
            o->warp = kw->warp;
            o->idx = a;
        }
    }
    qsort(k, m, sizeof *k, okey_cmp);
    for (size_t i = 0; i < m; i++) {
        (*order)[i] = k[i].idx;
        (*sm_first)[k[i].sm + 1]++;
    }
    for (unsigned s = 0; s < n_sms; s++) (*sm_first)[s + 1] += (*sm_first)[s];
    free(k);
    return 0;
}

int ws_ka_estimate_l1(const ws_ka_result *r, unsigned n_sms, unsigned max_cta,
                      const char *cache_cfg, uint64_t *accesses, uint64_t *misses, char *err,
                      size_t errlen) {
    ws_cache_cfg cc;
    char e[200];
    *accesses = *misses = 0;
    if (ws_cache_cfg_parse(cache_cfg, &cc, e, sizeof e)) {
        snprintf(err, errlen, "%s", e);
        return -1;
    }
    size_t *order, *first;
    if (ws_ka_l1_sequence(r, n_sms, max_cta, &order, &first)) {
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    int rc = 0;
    uint64_t now = 0;
    for (unsigned s = 0; s < (n_sms ? n_sms : 1) && !rc; s++) {
        ws_cache *c = ws_cache_create("L1D", &cc, NULL, e, sizeof e);
        if (!c) {
            snprintf(err, errlen, "%s", e);
            rc = -1;
            break;
        }
        int token = 0;
        for (size_t i = first[s]; i < first[s + 1]; i++) {
            const ws_ka_access *a = &r->acc[order[i]];
            for (uint32_t t = 0; t < a->ntx; t++) {
                uint64_t line = r->addr[a->at + a->nblk + t];
                ws_fail_kind fk;
                ws_cache_status st = ws_cache_access(c, line, a->kind == 'S' ? WS_ACC_WRITE
                                                                             : WS_ACC_READ,
                                                     false, &token, ++now, &fk);
                if (st == WS_CACHE_RESERVATION_FAIL) continue; /* cannot happen: fills are immediate */
                (*accesses)++;
                if (st == WS_CACHE_MISS || st == WS_CACHE_SECTOR_MISS) (*misses)++;
                /* the fill comes back at once: the estimate orders accesses, not time */
                while (ws_cache_has_miss(c)) {
                    const ws_cache_out *o = ws_cache_peek_miss(c);
                    uint64_t blk = o->addr;
                    int kind = o->kind;
                    ws_cache_pop_miss(c);
                    if (kind == WS_OUT_READ_LINE) ws_cache_fill(c, blk, ++now);
                }
                while (ws_cache_pop_ready(c)) {
                }
            }
        }
        ws_cache_destroy(c);
    }
    free(order);
    free(first);
    return rc;
}
