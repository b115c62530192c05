/* Recursive-descent parser for the PTX that nvcc emits (ISA up to 9.x).
 *
 * One pass over a token array (lexer.c). Names are resolved through a
 * scoped table: module scope, function scope, and one level per `{ }`
 * block (nvcc reuses call-site names such as param0 in every block).
 * Labels live in a per-function table and are patched at the end of the
 * body. Layout rules are documented in ir.h. Errors longjmp out of the
 * parser; everything allocated so far hangs off the module or the parser
 * state and is freed on the way out. */
#include "ptx/ptx.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/internal.h"
#include "ptx/mma.h"
#include "ptx/lexer.h"

/* ---- scoped name table ---------------------------------------------- */
enum { B_REG, B_PRED, B_SYM, B_FUNC, B_LABEL, B_PROTO };

typedef struct {
    const char *name; /* owned elsewhere (symbol, function, register names) */
    uint32_t hash;
    uint8_t kind;
    uint32_t depth;
    uint32_t idx;
    int32_t next; /* next binding in the same bucket (older) */
} binding;

#define NBUCKETS 16384u

typedef struct {
    int32_t heads[NBUCKETS];
    binding *b;
    uint32_t n, cap;
} nametab;

static uint32_t hash_name(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static void tab_init(nametab *t)
{
    for (uint32_t i = 0; i < NBUCKETS; i++) t->heads[i] = -1;
    t->b = NULL;
    t->n = t->cap = 0;
}

static binding *tab_find(const nametab *t, const char *s, size_t len)
{
    uint32_t h = hash_name(s, len);
    for (int32_t i = t->heads[h & (NBUCKETS - 1)]; i >= 0; i = t->b[i].next) {
        const binding *b = &t->b[i];
        if (b->hash == h && strncmp(b->name, s, len) == 0 && b->name[len] == 0)
            return &t->b[i];
    }
    return NULL;
}

/* Bindings are pushed and popped LIFO, so a popped binding is always the
 * head of its bucket. */
static void tab_pop_to(nametab *t, uint32_t n)
{
    while (t->n > n) {
        binding *b = &t->b[--t->n];
        t->heads[b->hash & (NBUCKETS - 1)] = b->next;
    }
}

/* ---- parser state ------------------------------------------------------ */
typedef struct {
    uint32_t inst;
    uint8_t src;
    uint32_t tok; /* token of the label reference (for messages) */
} label_fix;

typedef struct {
    uint32_t nbind;
    uint64_t frame_cur;
} scope_save;

typedef struct {
    const ws_token *t;
    size_t pos, n;
    const char *file;
    ws_diag *diag;
    jmp_buf jb;
    ws_module *m;
    uint32_t cap_funcs, cap_syms;
    nametab *names, *labels;
    uint32_t depth;
    scope_save *scopes;
    uint32_t nscopes, cap_scopes;
    /* function being parsed */
    int32_t cf;
    uint32_t cap_insts, cap_regs, cap_preds;
    label_fix *fix;
    uint32_t nfix, cap_fix;
    /* .branchtargets tables of the function (token of the name, then the
       tokens of its labels in btab_toks) and the brx.idx that use them */
    struct { uint32_t name, first, n; } *btabs;
    uint32_t nbtabs, cap_btabs;
    uint32_t *btab_toks;
    uint32_t nbtab_toks, cap_btab_toks;
    struct { uint32_t inst, tok; } *bxfix;
    uint32_t nbxfix, cap_bxfix;
    uint64_t frame_cur, frame_max;
    uint32_t max_extern_shared_align;
    /* allocations in flight, freed if an error unwinds the parse */
    void *pend[2];
    /* initialiser addresses of names not yet declared: patched at the end */
    struct { uint32_t sym, reloc, tok; } *rfix;
    uint32_t nrfix, cap_rfix;
    uint32_t *pend_args, *pend_rets;
    uint8_t *pend_init; /* initialiser buffer being filled */
    ws_parse_opts opt;
    bool err_unsupported; /* the error being raised is an unsupported instruction */
    uint32_t *pend_idx; /* param symbol indices being filled (instantiate_params) */
} P;

#define CUR(p) (&(p)->t[(p)->pos])
#define FN(p) (&(p)->m->funcs[(p)->cf])

static _Noreturn void fail_at(P *p, const ws_token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void vdiag_at(P *p, const ws_token *t, const char *fmt, va_list ap)
{
    char body[400];
    vsnprintf(body, sizeof body, fmt, ap);
    snprintf(p->diag->msg, sizeof p->diag->msg, "%s:%u:%u: error: %s", p->file, t->line, t->col,
             body);
    p->diag->line = t->line;
    p->diag->col = t->col;
}

static void diag_at(P *p, const ws_token *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void diag_at(P *p, const ws_token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag_at(p, t, fmt, ap);
    va_end(ap);
}

static _Noreturn void fail_at(P *p, const ws_token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag_at(p, t, fmt, ap);
    va_end(ap);
    longjmp(p->jb, 1);
}

/* fail_at for an instruction warpsim does not implement (which
   defer_unsupported turns into a trap instead of a failed parse). */
#define UNSUPPORTED_AT(p, ...) ((p)->err_unsupported = true, fail_at(p, __VA_ARGS__))

/* The problem in p->diag was skipped: keep it in the module, tell report. */
static void add_problem(P *p)
{
    ws_module *m = p->m;
    ws_problem *np = realloc(m->problems, (m->nproblems + 1) * sizeof *np);
    char *msg = strdup(p->diag->msg);
    if (!np || !msg) {
        free(msg);
        if (np) m->problems = np;
        snprintf(p->diag->msg, sizeof p->diag->msg, "%s: error: out of memory", p->file);
        longjmp(p->jb, 1);
    }
    m->problems = np;
    m->problems[m->nproblems++] = (ws_problem){msg, p->diag->line, p->cf};
    if (p->opt.report) p->opt.report(p->opt.ctx, &m->problems[m->nproblems - 1]);
}

static _Noreturn void fail_expected(P *p, const char *what)
{
    char found[64];
    ws_tok_describe(CUR(p), found, sizeof found);
    fail_at(p, CUR(p), "expected %s, found %s", what, found);
}

static void *xrealloc(P *p, void *ptr, size_t n)
{
    void *r = realloc(ptr, n ? n : 1);
    if (!r) fail_at(p, CUR(p), "out of memory");
    return r;
}

static char *xstrndup(P *p, const char *s, size_t n)
{
    char *r = xrealloc(p, NULL, n + 1);
    memcpy(r, s, n);
    r[n] = 0;
    return r;
}

#define GROW(p, arr, n, cap)                                                   \
    do {                                                                       \
        if ((n) >= (cap)) {                                                    \
            (cap) = (cap) ? (cap) * 2 : 16;                                    \
            (arr) = xrealloc((p), (arr), (size_t)(cap) * sizeof *(arr));       \
        }                                                                      \
    } while (0)

/* ---- token helpers ----------------------------------------------------- */
static bool tok_is(const ws_token *t, int kind, const char *s)
{
    return t->kind == kind && strlen(s) == t->len && memcmp(t->text, s, t->len) == 0;
}
static bool is_punct(P *p, char c) { return CUR(p)->kind == TK_PUNCT && CUR(p)->text[0] == c; }
static bool is_dir(P *p, const char *s) { return tok_is(CUR(p), TK_DIR, s); }
static const ws_token *advance(P *p)
{
    const ws_token *t = CUR(p);
    if (t->kind != TK_EOF) p->pos++;
    return t;
}
static bool accept_punct(P *p, char c)
{
    if (is_punct(p, c)) {
        p->pos++;
        return true;
    }
    return false;
}
static void expect_punct(P *p, char c)
{
    if (!accept_punct(p, c)) {
        char what[8];
        snprintf(what, sizeof what, "'%c'", c);
        fail_expected(p, what);
    }
}
static const ws_token *expect_ident(P *p, const char *what)
{
    if (CUR(p)->kind != TK_IDENT) fail_expected(p, what);
    return advance(p);
}
static uint64_t expect_uint(P *p, const char *what)
{
    if (CUR(p)->kind != TK_INT) fail_expected(p, what);
    return advance(p)->ival;
}
/* Signed integer: optional '-' then an integer literal. */
static int64_t expect_int(P *p, const char *what)
{
    bool neg = accept_punct(p, '-');
    if (CUR(p)->kind != TK_INT) fail_expected(p, what);
    uint64_t v = advance(p)->ival;
    return neg ? -(int64_t)v : (int64_t)v;
}

/* ---- names ------------------------------------------------------------- */
static void bind(P *p, const ws_token *at, const char *name, int kind, uint32_t idx)
{
    size_t len = strlen(name);
    binding *old = tab_find(p->names, name, len);
    if (old && old->depth == p->depth && kind != B_FUNC)
        fail_at(p, at, "redeclaration of '%s'", name);
    nametab *t = p->names;
    GROW(p, t->b, t->n, t->cap);
    uint32_t h = hash_name(name, len);
    binding *b = &t->b[t->n];
    b->name = name;
    b->hash = h;
    b->kind = (uint8_t)kind;
    b->depth = p->depth;
    b->idx = idx;
    b->next = t->heads[h & (NBUCKETS - 1)];
    t->heads[h & (NBUCKETS - 1)] = (int32_t)t->n;
    t->n++;
}

static void push_scope(P *p)
{
    GROW(p, p->scopes, p->nscopes, p->cap_scopes);
    p->scopes[p->nscopes].nbind = p->names->n;
    p->scopes[p->nscopes].frame_cur = p->frame_cur;
    p->nscopes++;
    p->depth++;
}

static void pop_scope(P *p)
{
    p->nscopes--;
    tab_pop_to(p->names, p->scopes[p->nscopes].nbind);
    p->frame_cur = p->scopes[p->nscopes].frame_cur;
    p->depth--;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static uint32_t new_sym(P *p, const ws_token *at, const char *name, size_t len, int space,
                        int type, uint32_t align, uint64_t size, int32_t func)
{
    ws_module *m = p->m;
    GROW(p, m->syms, m->nsyms, p->cap_syms);
    ws_symbol *s = &m->syms[m->nsyms];
    memset(s, 0, sizeof *s);
    s->name = xstrndup(p, name, len);
    m->nsyms++;
    s->space = (uint8_t)space;
    s->type = (uint8_t)type;
    s->align = align ? align : 1;
    s->size = size;
    s->func = func;
    bind(p, at, s->name, B_SYM, m->nsyms - 1);
    return m->nsyms - 1;
}

static void frame_place(P *p, ws_symbol *s)
{
    s->is_frame = true;
    s->offset = align_up(p->frame_cur, s->align);
    p->frame_cur = s->offset + s->size;
    if (p->frame_cur > p->frame_max) p->frame_max = p->frame_cur;
}

/* ---- types and modifiers --------------------------------------------- */
static const char *const type_names[WS_T_COUNT] = {
    [WS_T_PRED] = "pred", [WS_T_B8] = "b8",     [WS_T_B16] = "b16",     [WS_T_B32] = "b32",
    [WS_T_B64] = "b64",   [WS_T_B128] = "b128", [WS_T_U8] = "u8",       [WS_T_U16] = "u16",
    [WS_T_U32] = "u32",   [WS_T_U64] = "u64",   [WS_T_S8] = "s8",       [WS_T_S16] = "s16",
    [WS_T_S32] = "s32",   [WS_T_S64] = "s64",   [WS_T_F16] = "f16",     [WS_T_F16X2] = "f16x2",
    [WS_T_BF16] = "bf16", [WS_T_BF16X2] = "bf16x2", [WS_T_F32] = "f32", [WS_T_F64] = "f64",
};

static int type_from(const char *s, size_t len)
{
    for (int i = 1; i < WS_T_COUNT; i++)
        if (type_names[i] && strlen(type_names[i]) == len && memcmp(type_names[i], s, len) == 0)
            return i;
    return WS_T_NONE;
}

/* Type from a directive token ".u32". */
static int dir_type(const ws_token *t)
{
    return t->kind == TK_DIR ? type_from(t->text + 1, t->len - 1) : WS_T_NONE;
}

static int space_from(const char *s, size_t len)
{
#define S(str, v) if (len == strlen(str) && memcmp(s, str, len) == 0) return v
    S("global", WS_SPACE_GLOBAL);
    S("shared", WS_SPACE_SHARED);
    S("shared::cta", WS_SPACE_SHARED);
    S("shared::cluster", WS_SPACE_SHARED); /* addresses of other CTAs carry their rank (mapa) */
    S("const", WS_SPACE_CONST);
    S("local", WS_SPACE_LOCAL);
    S("param", WS_SPACE_PARAM);
    S("param::entry", WS_SPACE_PARAM);
    S("param::func", WS_SPACE_PARAM);
    S("tex", WS_SPACE_TEX);
#undef S
    return -1;
}

/* ---- special registers -------------------------------------------------- */
static const struct { const char *name; int id; } sregs[] = {
    {"%tid.x", WS_SREG_TID_X},       {"%tid.y", WS_SREG_TID_Y},
    {"%tid.z", WS_SREG_TID_Z},       {"%ntid.x", WS_SREG_NTID_X},
    {"%ntid.y", WS_SREG_NTID_Y},     {"%ntid.z", WS_SREG_NTID_Z},
    {"%ctaid.x", WS_SREG_CTAID_X},   {"%ctaid.y", WS_SREG_CTAID_Y},
    {"%ctaid.z", WS_SREG_CTAID_Z},   {"%nctaid.x", WS_SREG_NCTAID_X},
    {"%nctaid.y", WS_SREG_NCTAID_Y}, {"%nctaid.z", WS_SREG_NCTAID_Z},
    {"%laneid", WS_SREG_LANEID},     {"%warpid", WS_SREG_WARPID},
    {"%nwarpid", WS_SREG_NWARPID},   {"%smid", WS_SREG_SMID},
    {"%nsmid", WS_SREG_NSMID},       {"%gridid", WS_SREG_GRIDID},
    {"%clock", WS_SREG_CLOCK},       {"%clock_hi", WS_SREG_CLOCK_HI},
    {"%clock64", WS_SREG_CLOCK64},   {"%globaltimer", WS_SREG_GLOBALTIMER},
    {"%globaltimer_lo", WS_SREG_GLOBALTIMER_LO}, {"%globaltimer_hi", WS_SREG_GLOBALTIMER_HI},
    {"%lanemask_eq", WS_SREG_LANEMASK_EQ}, {"%lanemask_lt", WS_SREG_LANEMASK_LT},
    {"%lanemask_le", WS_SREG_LANEMASK_LE}, {"%lanemask_gt", WS_SREG_LANEMASK_GT},
    {"%lanemask_ge", WS_SREG_LANEMASK_GE},
    {"%dynamic_smem_size", WS_SREG_DYNAMIC_SMEM_SIZE},
    {"%total_smem_size", WS_SREG_TOTAL_SMEM_SIZE},
    {"%clusterid.x", WS_SREG_CLUSTERID_X}, {"%clusterid.y", WS_SREG_CLUSTERID_Y},
    {"%clusterid.z", WS_SREG_CLUSTERID_Z}, {"%nclusterid.x", WS_SREG_NCLUSTERID_X},
    {"%nclusterid.y", WS_SREG_NCLUSTERID_Y}, {"%nclusterid.z", WS_SREG_NCLUSTERID_Z},
    {"%cluster_ctaid.x", WS_SREG_CLUSTER_CTAID_X}, {"%cluster_ctaid.y", WS_SREG_CLUSTER_CTAID_Y},
    {"%cluster_ctaid.z", WS_SREG_CLUSTER_CTAID_Z}, {"%cluster_nctaid.x", WS_SREG_CLUSTER_NCTAID_X},
    {"%cluster_nctaid.y", WS_SREG_CLUSTER_NCTAID_Y}, {"%cluster_nctaid.z", WS_SREG_CLUSTER_NCTAID_Z},
    {"%cluster_ctarank", WS_SREG_CLUSTER_CTARANK}, {"%cluster_nctarank", WS_SREG_CLUSTER_NCTARANK},
    {"%is_explicit_cluster", WS_SREG_IS_EXPLICIT_CLUSTER},
};

static int sreg_from(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof sregs / sizeof sregs[0]; i++)
        if (strlen(sregs[i].name) == len && memcmp(sregs[i].name, s, len) == 0) return sregs[i].id;
    if (len > 7 && memcmp(s, "%envreg", 7) == 0) {
        int n = 0;
        for (size_t i = 7; i < len; i++) {
            if (s[i] < '0' || s[i] > '9') return 0;
            n = n * 10 + (s[i] - '0');
            if (n > 31) return 0;
        }
        return WS_SREG_ENVREG0 + n;
    }
    return 0;
}

#define WS_WARP_SIZE_PTX 32 /* WARP_SZ */

/* ---- literal values ------------------------------------------------------ */
enum { LIT_NONE, LIT_INT, LIT_F32, LIT_F64, LIT_DEC };

static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double bits_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* The bit pattern of a literal as a value of type `type` (see ir.h). */
static int64_t lit_value(int kind, int64_t raw, bool neg, int type)
{
    double d = 0;
    bool isf = kind != LIT_INT;
    if (kind == LIT_F32) d = bits_f32((uint32_t)raw);
    else if (kind == LIT_F64) d = bits_f64((uint64_t)raw);
    else if (kind == LIT_DEC) d = bits_f64((uint64_t)raw);
    if (type == WS_T_F32) {
        if (!isf) d = (double)raw;
        if (neg) d = -d;
        if (kind == LIT_F32 && !neg) return (int64_t)(uint32_t)raw;
        return (int64_t)f32_bits((float)d);
    }
    if (type == WS_T_F64) {
        if (!isf) d = (double)raw;
        if (neg) d = -d;
        return (int64_t)f64_bits(d);
    }
    /* Integer (or bit/f16) context: hex float literals keep their bits. */
    if (kind == LIT_F32 || kind == LIT_F64) return neg ? (int64_t)(0 - (uint64_t)raw) : raw;
    if (kind == LIT_DEC) { /* a decimal with a fraction or exponent: saturate, not overflow */
        int64_t v = d != d ? 0 : d >= 0x1p63 ? INT64_MAX : d <= -0x1p63 ? INT64_MIN : (int64_t)d;
        return neg ? (int64_t)(0 - (uint64_t)v) : v;
    }
    return neg ? (int64_t)(0 - (uint64_t)raw) : raw;
}

/* Read a numeric literal (with optional leading '-') as kind + raw bits. */
static bool read_literal(P *p, int *kind, int64_t *raw, bool *neg)
{
    size_t save = p->pos;
    *neg = accept_punct(p, '-');
    const ws_token *t = CUR(p);
    switch (t->kind) {
    case TK_INT: *kind = LIT_INT; *raw = (int64_t)t->ival; break;
    case TK_F32: *kind = LIT_F32; *raw = (int64_t)t->ival; break;
    case TK_F64: *kind = LIT_F64; *raw = (int64_t)t->ival; break;
    case TK_FLOAT: *kind = LIT_DEC; *raw = (int64_t)f64_bits(t->fval); break;
    default: p->pos = save; return false;
    }
    p->pos++;
    return true;
}

/* ---- declarations ------------------------------------------------------ */
typedef struct {
    int type;
    uint32_t align; /* 0 = not given */
    uint32_t vec;   /* 1, 2, 4 */
} decl_head;

/* Attributes between the state space and the name:
 * [.align N] [.ptr [.space] [.align N]] [.v2|.v4] .type */
static decl_head parse_decl_head(P *p)
{
    decl_head h = {WS_T_NONE, 0, 1};
    for (;;) {
        const ws_token *t = CUR(p);
        if (t->kind != TK_DIR) break;
        if (is_dir(p, ".align")) {
            p->pos++;
            const ws_token *at = CUR(p);
            uint64_t a = expect_uint(p, "alignment");
            if (a == 0 || (a & (a - 1)) || a > 4096) fail_at(p, at, "bad alignment %llu", (unsigned long long)a);
            h.align = (uint32_t)a;
        } else if (is_dir(p, ".ptr") || is_dir(p, ".global") || is_dir(p, ".shared") ||
                   is_dir(p, ".const") || is_dir(p, ".local")) {
            p->pos++; /* .ptr .global .align N on kernel params: a hint only */
        } else if (is_dir(p, ".attribute")) {
            /* .attribute(.managed): a __managed__ variable is an ordinary global on
               the device; the runtime keeps its host copy in step */
            p->pos++;
            expect_punct(p, '(');
            while (CUR(p)->kind == TK_DIR || is_punct(p, ',')) p->pos++;
            expect_punct(p, ')');
        } else if (is_dir(p, ".v2") || is_dir(p, ".v4") || is_dir(p, ".v8")) {
            h.vec = (uint32_t)(t->text[2] - '0');
            p->pos++;
        } else if (dir_type(t)) {
            h.type = dir_type(t);
            p->pos++;
            break;
        } else {
            break;
        }
    }
    if (h.type == WS_T_NONE) fail_expected(p, "a type (.b8, .u32, .f32, ...)");
    return h;
}

/* Array dimensions after the name. Returns the element count; *unsized
 * is set for a trailing `[]`. */
static uint64_t parse_dims(P *p, bool *unsized)
{
    uint64_t n = 1;
    *unsized = false;
    while (accept_punct(p, '[')) {
        if (accept_punct(p, ']')) {
            *unsized = true;
            continue;
        }
        const ws_token *at = CUR(p);
        uint64_t d = expect_uint(p, "array size");
        if (d > (1ull << 40) || n * d > (1ull << 40)) fail_at(p, at, "array too large");
        n *= d;
        expect_punct(p, ']');
    }
    return n;
}

typedef struct {
    uint8_t *buf;
    uint64_t cap, n; /* bytes */
    uint32_t esize;
    int etype;
} initbuf;

static void init_put(P *p, initbuf *ib, ws_symbol *s, const ws_token *at, uint64_t bits)
{
    uint64_t need = ib->n + ib->esize;
    if (s->size && need > s->size) fail_at(p, at, "too many initialisers for '%s'", s->name);
    if (need > ib->cap) {
        uint64_t nc = ib->cap ? ib->cap * 2 : 64;
        while (nc < need) nc *= 2;
        ib->buf = p->pend_init = xrealloc(p, ib->buf, nc);
        memset(ib->buf + ib->cap, 0, nc - ib->cap);
        ib->cap = nc;
    }
    for (uint32_t i = 0; i < ib->esize; i++) ib->buf[ib->n + i] = (uint8_t)(bits >> (8 * i));
    ib->n = need;
}

static void parse_init_elem(P *p, initbuf *ib, uint32_t si)
{
    if (accept_punct(p, '{')) {
        if (!is_punct(p, '}')) {
            do parse_init_elem(p, ib, si);
            while (accept_punct(p, ','));
        }
        expect_punct(p, '}');
        return;
    }
    const ws_token *at = CUR(p);
    int kind;
    int64_t raw;
    bool neg;
    if (read_literal(p, &kind, &raw, &neg)) {
        init_put(p, ib, &p->m->syms[si], at, (uint64_t)lit_value(kind, raw, neg, ib->etype));
        return;
    }
    if (CUR(p)->kind != TK_IDENT) fail_expected(p, "an initialiser value");
    bool generic = false;
    if (tok_is(CUR(p), TK_IDENT, "generic")) {
        p->pos++;
        expect_punct(p, '(');
        generic = true;
    }
    const ws_token *nt = expect_ident(p, "a variable or function name");
    binding *b = tab_find(p->names, nt->text, nt->len);
    if (b && b->kind != B_SYM && b->kind != B_FUNC)
        fail_at(p, nt, "'%.*s' cannot be used in an initialiser", (int)nt->len, nt->text);
    if (!b) { /* forward reference (a function defined later): patched at the end */
        GROW(p, p->rfix, p->nrfix, p->cap_rfix);
        p->rfix[p->nrfix].sym = si;
        p->rfix[p->nrfix].reloc = p->m->syms[si].nrelocs;
        p->rfix[p->nrfix].tok = (uint32_t)(nt - p->t);
        p->nrfix++;
    }
    if (generic) expect_punct(p, ')');
    int64_t addend = 0;
    if (accept_punct(p, '+')) addend = expect_int(p, "an offset");
    else if (is_punct(p, '-')) addend = expect_int(p, "an offset");
    uint32_t asz = p->m->address_size == 32 ? 4 : 8;
    if (ib->esize != asz)
        fail_at(p, nt, "address initialiser needs a %u-byte element type", asz);
    ws_symbol *s = &p->m->syms[si];
    s->relocs = xrealloc(p, s->relocs, (s->nrelocs + 1) * sizeof *s->relocs);
    s->relocs[s->nrelocs].at = ib->n;
    s->relocs[s->nrelocs].sym = !b ? WS_NOSYM : b->kind == B_FUNC ? (b->idx | WS_RELOC_FUNC) : b->idx;
    s->relocs[s->nrelocs].addend = addend;
    s->nrelocs++;
    init_put(p, ib, s, nt, 0);
}

static void parse_initialiser(P *p, uint32_t si, bool unsized)
{
    ws_symbol *s = &p->m->syms[si];
    initbuf ib = {NULL, 0, 0, ws_type_size((ws_type)s->type), s->type};
    if (ib.esize == 0) fail_at(p, CUR(p), "cannot initialise a .pred variable");
    if (s->type == WS_T_B8 || s->type == WS_T_U8 || s->type == WS_T_S8) ib.etype = WS_T_U8;
    parse_init_elem(p, &ib, si);
    p->pend_init = NULL;
    s = &p->m->syms[si];
    if (unsized) s->size = ib.n;
    s->init = xrealloc(p, ib.buf, ib.n ? ib.n : 1);
    s->init_len = ib.n;
}

/* A variable declaration after its state-space directive: module scope
 * (func = -1) or inside a function body. */
static void parse_var_decl(P *p, const ws_token *spacetok, int space, int32_t func, bool is_extern)
{
    decl_head h = parse_decl_head(p);
    for (;;) {
        const ws_token *nt = expect_ident(p, "a variable name");
        bool unsized;
        uint64_t n = parse_dims(p, &unsized);
        uint32_t esz = ws_type_size((ws_type)h.type) * h.vec;
        uint32_t align = h.align ? h.align : esz;
        uint32_t si = new_sym(p, nt, nt->text, nt->len, space, h.type, align,
                              unsized ? 0 : n * esz, func);
        ws_symbol *s = &p->m->syms[si];
        s->is_extern = is_extern;
        if (accept_punct(p, '=')) {
            if (space != WS_SPACE_GLOBAL && space != WS_SPACE_CONST)
                fail_at(p, spacetok, "initialiser on a %s variable", ws_space_name((ws_space)space));
            parse_initialiser(p, si, unsized);
            s = &p->m->syms[si];
        }
        switch (space) {
        case WS_SPACE_GLOBAL:
            s->offset = align_up(p->m->global_size, s->align);
            p->m->global_size = s->offset + s->size;
            break;
        case WS_SPACE_CONST:
            s->offset = align_up(p->m->const_size, s->align);
            p->m->const_size = s->offset + s->size;
            break;
        case WS_SPACE_SHARED:
            if (is_extern || unsized) {
                s->size = 0;
                s->offset = 0;
                s->is_extern = true;
                if (s->align > p->max_extern_shared_align) p->max_extern_shared_align = s->align;
            } else if (func < 0 || !p->m->funcs[func].is_entry) {
                s->offset = align_up(p->m->shared_size, s->align);
                p->m->shared_size = s->offset + s->size;
            } /* a kernel's own: laid out at the end of the module */
            break;
        case WS_SPACE_LOCAL:
        case WS_SPACE_PARAM:
            if (func < 0)
                fail_at(p, spacetok, "module-scope %.*s variables are not supported",
                        (int)spacetok->len, spacetok->text);
            frame_place(p, s);
            break;
        default:
            fail_at(p, spacetok, "unsupported state space %.*s", (int)spacetok->len, spacetok->text);
        }
        if (!accept_punct(p, ',')) break;
    }
    expect_punct(p, ';');
}

/* .reg .T %r<N>; | .reg .T a, b; */
static void parse_reg_decl(P *p)
{
    ws_func *f = FN(p);
    decl_head h = parse_decl_head(p);
    for (;;) {
        const ws_token *nt = expect_ident(p, "a register name");
        uint64_t count = 1;
        bool range = false;
        if (accept_punct(p, '<')) {
            const ws_token *at = CUR(p);
            count = expect_uint(p, "a register count");
            if (count > 65534) fail_at(p, at, "too many registers");
            expect_punct(p, '>');
            range = true;
        }
        for (uint64_t i = 0; i < count; i++) {
            char *name;
            if (range) {
                char buf[32];
                int l = snprintf(buf, sizeof buf, "%llu", (unsigned long long)i);
                name = xrealloc(p, NULL, nt->len + (size_t)l + 1);
                memcpy(name, nt->text, nt->len);
                memcpy(name + nt->len, buf, (size_t)l + 1);
            } else {
                name = xstrndup(p, nt->text, nt->len);
            }
            f = FN(p);
            if (h.type == WS_T_PRED) {
                if (f->npreds >= WS_NOREG) { free(name); fail_at(p, nt, "too many predicate registers"); }
                GROW(p, f->pred_name, f->npreds, p->cap_preds);
                f->pred_name[f->npreds++] = name;
                bind(p, nt, name, B_PRED, f->npreds - 1);
            } else {
                if (f->nregs >= WS_NOREG) { free(name); fail_at(p, nt, "too many registers"); }
                if (f->nregs >= p->cap_regs) {
                    p->cap_regs = p->cap_regs ? p->cap_regs * 2 : 64;
                    f->reg_name = xrealloc(p, f->reg_name, p->cap_regs * sizeof *f->reg_name);
                    f->reg_type = xrealloc(p, f->reg_type, p->cap_regs);
                }
                f->reg_name[f->nregs] = name;
                f->reg_type[f->nregs] = (uint8_t)h.type;
                f->nregs++;
                bind(p, nt, name, B_REG, f->nregs - 1);
            }
        }
        if (!accept_punct(p, ',')) break;
    }
    expect_punct(p, ';');
}

/* ---- instructions --------------------------------------------------------- */
static const struct { const char *name; int op; } opnames[] = {
    {"abs", WS_OP_ABS}, {"add", WS_OP_ADD}, {"addc", WS_OP_ADDC}, {"sub", WS_OP_SUB},
    {"subc", WS_OP_SUBC}, {"mul", WS_OP_MUL}, {"mad", WS_OP_MAD}, {"madc", WS_OP_MADC},
    {"mul24", WS_OP_MUL24}, {"mad24", WS_OP_MAD24}, {"sad", WS_OP_SAD}, {"fma", WS_OP_FMA},
    {"div", WS_OP_DIV}, {"rem", WS_OP_REM}, {"neg", WS_OP_NEG}, {"min", WS_OP_MIN},
    {"max", WS_OP_MAX}, {"copysign", WS_OP_COPYSIGN}, {"testp", WS_OP_TESTP},
    {"rcp", WS_OP_RCP}, {"sqrt", WS_OP_SQRT}, {"rsqrt", WS_OP_RSQRT}, {"sin", WS_OP_SIN},
    {"cos", WS_OP_COS}, {"lg2", WS_OP_LG2}, {"ex2", WS_OP_EX2}, {"tanh", WS_OP_TANH},
    {"and", WS_OP_AND}, {"or", WS_OP_OR}, {"xor", WS_OP_XOR}, {"not", WS_OP_NOT},
    {"cnot", WS_OP_CNOT}, {"lop3", WS_OP_LOP3}, {"shl", WS_OP_SHL}, {"shr", WS_OP_SHR},
    {"shf", WS_OP_SHF}, {"bfe", WS_OP_BFE}, {"bfi", WS_OP_BFI}, {"brev", WS_OP_BREV},
    {"popc", WS_OP_POPC}, {"clz", WS_OP_CLZ}, {"bfind", WS_OP_BFIND}, {"prmt", WS_OP_PRMT},
    {"dp4a", WS_OP_DP4A}, {"dp2a", WS_OP_DP2A}, {"setp", WS_OP_SETP}, {"set", WS_OP_SET},
    {"selp", WS_OP_SELP}, {"slct", WS_OP_SLCT}, {"mov", WS_OP_MOV}, {"cvt", WS_OP_CVT},
    {"cvta", WS_OP_CVTA}, {"ld", WS_OP_LD}, {"ldu", WS_OP_LDU}, {"st", WS_OP_ST},
    {"prefetch", WS_OP_PREFETCH}, {"isspacep", WS_OP_ISSPACEP}, {"atom", WS_OP_ATOM},
    {"red", WS_OP_RED}, {"bar", WS_OP_BAR}, {"barrier", WS_OP_BAR}, {"membar", WS_OP_MEMBAR},
    {"fence", WS_OP_FENCE}, {"bra", WS_OP_BRA}, {"brx", WS_OP_BRA}, {"call", WS_OP_CALL}, {"ret", WS_OP_RET},
    {"exit", WS_OP_EXIT}, {"trap", WS_OP_TRAP}, {"nanosleep", WS_OP_NANOSLEEP},
    {"vote", WS_OP_VOTE}, {"shfl", WS_OP_SHFL}, {"activemask", WS_OP_ACTIVEMASK},
    {"match", WS_OP_MATCH}, {"redux", WS_OP_REDUX}, {"tex", WS_OP_TEX},
    {"bmsk", WS_OP_BMSK}, {"szext", WS_OP_SZEXT}, {"fns", WS_OP_FNS},
    {"vadd", WS_OP_VADD}, {"vadd2", WS_OP_VADD}, {"vadd4", WS_OP_VADD}, {"vsub", WS_OP_VSUB},
    {"vsub2", WS_OP_VSUB}, {"vsub4", WS_OP_VSUB}, {"vabsdiff", WS_OP_VABSDIFF},
    {"vabsdiff2", WS_OP_VABSDIFF}, {"vabsdiff4", WS_OP_VABSDIFF}, {"vmin", WS_OP_VMIN},
    {"vmin2", WS_OP_VMIN}, {"vmin4", WS_OP_VMIN}, {"vmax", WS_OP_VMAX}, {"vmax2", WS_OP_VMAX},
    {"vmax4", WS_OP_VMAX}, {"vavrg2", WS_OP_VAVRG}, {"vavrg4", WS_OP_VAVRG}, {"vset", WS_OP_VSET},
    {"vset2", WS_OP_VSET}, {"vset4", WS_OP_VSET}, {"wmma", WS_OP_WMMA}, {"mma", WS_OP_MMA},
    {"vshl", WS_OP_VSHL}, {"vshr", WS_OP_VSHR}, {"vmad", WS_OP_VMAD},
    {"brkpt", WS_OP_TRAP}, {"pmevent", WS_OP_PMEVENT}, {"alloca", WS_OP_ALLOCA},
    {"stacksave", WS_OP_STACKSAVE}, {"stackrestore", WS_OP_STACKRESTORE},
    {"griddepcontrol", WS_OP_GRIDDEPCONTROL},
    {"cp", WS_OP_CP_ASYNC}, {"mbarrier", WS_OP_MBARRIER},
    {"suld", WS_OP_SULD}, {"sust", WS_OP_SUST}, {"suq", WS_OP_SUQ}, {"tld4", WS_OP_TLD4},
    {"mapa", WS_OP_MAPA}, {"getctarank", WS_OP_GETCTARANK}, {"elect", WS_OP_ELECT}, {"sured", WS_OP_SURED}, {"txq", WS_OP_TXQ},
    {"ldmatrix", WS_OP_LDMATRIX}, {"stmatrix", WS_OP_STMATRIX}, {"movmatrix", WS_OP_MOVMATRIX},
};

static bool meq(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static int lookup_in(const char *s, size_t n, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (names[i] && meq(s, n, names[i])) return i;
    return -1;
}

static const char *const cmp_names[] = {
    NULL, "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};
static const char *const rnd_names[] = {NULL, "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna"};
static const char *const atom_names[] = {NULL, "add", "min", "max", "inc", "dec", "cas", "exch", "and", "or", "xor"};
static const char *const cache_names[] = {NULL, "ca", "cg", "cs", "lu", "cv", "wb", "wt"};
static const char *const testp_names[] = {NULL, "finite", "infinite", "number", "notanumber", "normal", "subnormal"};
static const char *const prmt_names[] = {NULL, "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};

/* cp.async's modifiers (ir.h): ".async" first, then the form. */
static bool cp_async_mod(ws_inst *in, const char *s, size_t n)
{
    if (meq(s, n, "async")) return !in->space && !in->sub;
    if (meq(s, n, "ca") || meq(s, n, "cg")) {
        in->cacheop = s[1] == 'a' ? WS_CACHE_CA : WS_CACHE_CG;
        in->flags |= WS_F_CACHEOP;
        if (!in->sub) in->sub = WS_CPA_COPY;
        return in->sub == WS_CPA_COPY;
    }
    if (meq(s, n, "commit_group")) { in->sub = WS_CPA_COMMIT; return true; }
    if (meq(s, n, "wait_group")) { in->sub = WS_CPA_WAIT_GROUP; return true; }
    if (meq(s, n, "wait_all")) { in->sub = WS_CPA_WAIT_ALL; return true; }
    if (meq(s, n, "mbarrier")) { in->sub = WS_CPA_MBAR_ARRIVE; return true; }
    if (meq(s, n, "arrive")) return in->sub == WS_CPA_MBAR_ARRIVE;
    if (meq(s, n, "noinc")) { in->flags |= WS_F_NOINC; return in->sub == WS_CPA_MBAR_ARRIVE; }
    if (meq(s, n, "bulk")) { in->sub = WS_CPA_BULK; return true; }
    if (meq(s, n, "mbarrier::complete_tx::bytes")) return in->sub == WS_CPA_BULK;
    if (meq(s, n, "shared") || meq(s, n, "shared::cta") || meq(s, n, "shared::cluster")) {
        if (!in->space) in->space = WS_SPACE_SHARED; /* the destination's (mbarrier's) space */
        return true;
    }
    if (meq(s, n, "global")) return in->space == WS_SPACE_SHARED;
    if (meq(s, n, "b64")) return true;
    /* prefetch-size hints; L2::cache_hint takes an operand and is refused */
    return meq(s, n, "L2::64B") || meq(s, n, "L2::128B") || meq(s, n, "L2::256B");
}

static bool mbarrier_mod(ws_inst *in, const char *s, size_t n)
{
    static const char *const ops[] = {NULL, "init", "arrive", "arrive_drop", "test_wait", "try_wait",
                                      "expect_tx", "complete_tx", "inval", "pending_count"};
    if (meq(s, n, "expect_tx") && (in->sub == WS_MBAR_ARRIVE || in->sub == WS_MBAR_ARRIVE_DROP)) {
        in->flags |= WS_F_EXPECT_TX;
        return true;
    }
    int v = lookup_in(s, n, ops, 10);
    if (v > 0) {
        if (in->sub) return false;
        in->sub = (uint8_t)v;
        return true;
    }
    if (meq(s, n, "parity")) { in->flags |= WS_F_PARITY; return in->sub == WS_MBAR_TEST_WAIT || in->sub == WS_MBAR_TRY_WAIT; }
    if (meq(s, n, "shared") || meq(s, n, "shared::cta") || meq(s, n, "shared::cluster")) {
        in->space = WS_SPACE_SHARED; /* another CTA's mbarrier carries its rank (mapa) */
        return true;
    }
    if (meq(s, n, "b64")) { in->type = WS_T_B64; return true; }
    /* memory order and scope: execution is sequentially consistent */
    return meq(s, n, "relaxed") || meq(s, n, "release") || meq(s, n, "acquire") || meq(s, n, "cta") ||
           meq(s, n, "cluster");
}

/* Apply one dotted modifier `s` (without the dot) to inst. Returns false
 * if it is not a modifier of this instruction. */
/* A surface instruction's geometry (.1d ... .a2d) or out-of-range mode
 * (.trap/.clamp/.zero), shared by suld, sust and sured. */
static bool surf_geom_or_mode(const char *s, size_t n, ws_inst *in) {
    if (meq(s, n, "1d")) { in->sub = WS_TEX_1D; return true; }
    if (meq(s, n, "2d")) { in->sub = WS_TEX_2D; return true; }
    if (meq(s, n, "3d")) { in->sub = WS_TEX_3D; return true; }
    if (meq(s, n, "a1d")) { in->sub = WS_TEX_A1D; return true; }
    if (meq(s, n, "a2d")) { in->sub = WS_TEX_A2D; return true; }
    if (meq(s, n, "trap")) { in->boolop = WS_SURF_TRAP; return true; }
    if (meq(s, n, "clamp")) { in->boolop = WS_SURF_CLAMP; return true; }
    if (meq(s, n, "zero")) { in->boolop = WS_SURF_ZERO; return true; }
    return false;
}

static bool apply_mod(ws_inst *in, const char *s, size_t n, int *ntypes)
{
    int op = in->op, v;
    if ((op == WS_OP_ADD || op == WS_OP_SUB || op == WS_OP_MIN || op == WS_OP_MAX) && *ntypes == 0 &&
        (meq(s, n, "s16x2") || meq(s, n, "u16x2"))) {
        /* packed 16-bit integers (sm_90): the video SIMD form with the same
           wrap-around and comparisons (vadd2 ... without .sat, c = 0) */
        in->op = (uint16_t)(op == WS_OP_ADD ? WS_OP_VADD : op == WS_OP_SUB ? WS_OP_VSUB
                            : op == WS_OP_MIN ? WS_OP_VMIN : WS_OP_VMAX);
        in->type = in->stype = in->ttype = s[0] == 's' ? WS_T_S32 : WS_T_U32;
        in->vec = 2;
        *ntypes = 3;
        return true;
    }
    if (op == WS_OP_GRIDDEPCONTROL) { /* sub: 1 .wait, 2 .launch_dependents (for the dump) */
        in->sub = meq(s, n, "wait") ? 1 : meq(s, n, "launch_dependents") ? 2 : 0;
        return in->sub != 0;
    }
    if (op == WS_OP_CVT && *ntypes == 0 && meq(s, n, "tf32")) { /* kept in a .b32 register */
        in->sub = WS_CVT_TF32;
        in->type = WS_T_B32;
        (*ntypes)++;
        return true;
    }
    if (op == WS_OP_CVT && meq(s, n, "satfinite")) { in->flags |= WS_F_SAT; return true; }
    int t = type_from(s, n);
    if (t) {
        if (*ntypes == 0) in->type = (uint8_t)t;
        else if (*ntypes == 1) in->stype = (uint8_t)t;
        else if (*ntypes == 2 && ws_op_is_video((unsigned)op)) in->ttype = (uint8_t)t;
        else return false;
        (*ntypes)++;
        return true;
    }
    if (ws_op_is_video((unsigned)op)) {
        if (op == WS_OP_VSET && (v = lookup_in(s, n, cmp_names, 7)) > 0) { in->cmp = (uint8_t)v; return true; }
        if (meq(s, n, "add")) { in->boolop = WS_VOP2_ADD; return true; }
        if (meq(s, n, "min")) { in->boolop = WS_VOP2_MIN; return true; }
        if (meq(s, n, "max")) { in->boolop = WS_VOP2_MAX; return true; }
        if (meq(s, n, "sat")) { in->flags |= WS_F_SAT; return true; }
        if (op == WS_OP_VSHL || op == WS_OP_VSHR) {
            if (meq(s, n, "clamp")) return true;
            if (meq(s, n, "wrap")) { in->flags |= WS_F_WRAP; return true; }
        }
        if (op == WS_OP_VMAD) {
            if (meq(s, n, "po")) { in->sub |= WS_VMAD_PO; return true; }
            if (meq(s, n, "shr7")) { in->sub |= WS_VMAD_SHR7; return true; }
            if (meq(s, n, "shr15")) { in->sub |= WS_VMAD_SHR15; return true; }
        }
        return false;
    }
    if ((op == WS_OP_SETP || op == WS_OP_SET) && (v = lookup_in(s, n, cmp_names, 19)) > 0) {
        if (in->cmp) {
            if (v == WS_CMP_LO || v == WS_CMP_HI) return false;
        }
        in->cmp = (uint8_t)v;
        return true;
    }
    if (op == WS_OP_SETP || op == WS_OP_SET) {
        if (meq(s, n, "and")) { in->boolop = WS_BOOL_AND; return true; }
        if (meq(s, n, "or")) { in->boolop = WS_BOOL_OR; return true; }
        if (meq(s, n, "xor")) { in->boolop = WS_BOOL_XOR; return true; }
    }
    if ((v = lookup_in(s, n, rnd_names, 10)) > 0) { in->rnd = (uint8_t)v; return true; }
    switch (op) {
    case WS_OP_MUL: case WS_OP_MAD: case WS_OP_MUL24: case WS_OP_MAD24: case WS_OP_MADC:
        if (meq(s, n, "lo")) { in->sub = WS_MUL_LO; return true; }
        if (meq(s, n, "hi")) { in->sub = WS_MUL_HI; return true; }
        if (meq(s, n, "wide")) { in->sub = WS_MUL_WIDE; return true; }
        break;
    case WS_OP_DP2A: /* which half of b's bytes pairs with a's halves */
        if (meq(s, n, "lo")) { in->sub = WS_MUL_LO; return true; }
        if (meq(s, n, "hi")) { in->sub = WS_MUL_HI; return true; }
        break;
    case WS_OP_ATOM: case WS_OP_RED: case WS_OP_REDUX:
        if ((v = lookup_in(s, n, atom_names, 11)) > 0) { in->sub = (uint8_t)v; return true; }
        if (meq(s, n, "noftz")) return true;
        break;
    case WS_OP_SHFL:
        if (meq(s, n, "up")) { in->sub = WS_SHFL_UP; return true; }
        if (meq(s, n, "down")) { in->sub = WS_SHFL_DOWN; return true; }
        if (meq(s, n, "bfly")) { in->sub = WS_SHFL_BFLY; return true; }
        if (meq(s, n, "idx")) { in->sub = WS_SHFL_IDX; return true; }
        break;
    case WS_OP_VOTE:
        if (meq(s, n, "all")) { in->sub = WS_VOTE_ALL; return true; }
        if (meq(s, n, "any")) { in->sub = WS_VOTE_ANY; return true; }
        if (meq(s, n, "uni")) { in->sub = WS_VOTE_UNI; return true; }
        if (meq(s, n, "ballot")) { in->sub = WS_VOTE_BALLOT; return true; }
        break;
    case WS_OP_MATCH:
        if (meq(s, n, "any")) { in->sub = WS_MATCH_ANY; return true; }
        if (meq(s, n, "all")) { in->sub = WS_MATCH_ALL; return true; }
        break;
    case WS_OP_SHF:
        if (meq(s, n, "l")) { in->sub = WS_SHF_L; return true; }
        if (meq(s, n, "r")) { in->sub = WS_SHF_R; return true; }
        if (meq(s, n, "clamp")) return true;
        break;
    case WS_OP_PRMT:
        if ((v = lookup_in(s, n, prmt_names, 7)) > 0) { in->sub = (uint8_t)v; return true; }
        break;
    case WS_OP_TESTP:
        if ((v = lookup_in(s, n, testp_names, 7)) > 0) { in->sub = (uint8_t)v; return true; }
        break;
    case WS_OP_BAR:
        if (meq(s, n, "sync")) { if (!in->sub) in->sub = WS_BAR_SYNC; return true; }
        if (meq(s, n, "arrive")) {
            if (in->sub != WS_BAR_CLUSTER_ARRIVE) in->sub = WS_BAR_ARRIVE;
            return true;
        }
        if (meq(s, n, "red")) { in->sub = WS_BAR_RED_POPC; return true; }
        if (meq(s, n, "popc")) { in->sub = WS_BAR_RED_POPC; return true; }
        if (meq(s, n, "and")) { in->sub = WS_BAR_RED_AND; return true; }
        if (meq(s, n, "or")) { in->sub = WS_BAR_RED_OR; return true; }
        if (meq(s, n, "warp")) { in->sub = WS_BAR_WARP_SYNC; return true; }
        if (meq(s, n, "aligned")) { in->flags |= WS_F_ALIGNED; return true; }
        /* barrier.cluster.{arrive,wait}: .cluster comes first; ordering
           qualifiers have no effect (execution is sequentially consistent) */
        if (meq(s, n, "cluster") && !in->sub) { in->sub = WS_BAR_CLUSTER_ARRIVE; return true; }
        if (in->sub == WS_BAR_CLUSTER_ARRIVE || in->sub == WS_BAR_CLUSTER_WAIT) {
            if (meq(s, n, "wait")) { in->sub = WS_BAR_CLUSTER_WAIT; return true; }
            return meq(s, n, "relaxed") || meq(s, n, "release") || meq(s, n, "acquire");
        }
        break;
    case WS_OP_LDMATRIX: case WS_OP_STMATRIX: case WS_OP_MOVMATRIX:
        if (meq(s, n, "sync") || meq(s, n, "aligned") || meq(s, n, "m8n8")) return true;
        if (meq(s, n, "trans")) { in->boolop = 1; return true; }
        if (op != WS_OP_MOVMATRIX && (meq(s, n, "x1") || meq(s, n, "x2") || meq(s, n, "x4"))) {
            in->vec = (uint8_t)(s[1] - '0');
            return true;
        }
        if (op != WS_OP_MOVMATRIX && (meq(s, n, "shared") || meq(s, n, "shared::cta"))) {
            in->space = WS_SPACE_SHARED;
            return true;
        }
        if (meq(s, n, "b16")) break; /* the type, below */
        return false; /* .m16n16, .b8, sub-byte forms (sm_100a) */
    case WS_OP_MAPA: case WS_OP_GETCTARANK:
        if (meq(s, n, "shared::cluster")) { in->space = WS_SPACE_SHARED; return true; }
        if (meq(s, n, "u32") || meq(s, n, "u64")) break; /* the type, below */
        return false;
    case WS_OP_MEMBAR: case WS_OP_FENCE:
        if (meq(s, n, "gl")) { in->scope = WS_SCOPE_GPU; return true; }
        if (meq(s, n, "sc") || meq(s, n, "acq_rel")) return true;
        /* fence.mbarrier_init.release.cluster, fence.proxy.{async,alias}{.global,
           .shared::{cta,cluster}}: orderings between proxies, which have no
           functional effect here (one memory, sequentially consistent) */
        if (op == WS_OP_FENCE && (meq(s, n, "mbarrier_init") || meq(s, n, "release") || meq(s, n, "acquire") ||
                                  meq(s, n, "proxy") || meq(s, n, "async") || meq(s, n, "alias") ||
                                  meq(s, n, "global") || meq(s, n, "shared::cta") || meq(s, n, "shared::cluster")))
            return true;
        break;
    case WS_OP_CVTA:
        if (meq(s, n, "to")) { in->to_generic = 0; return true; }
        break;
    case WS_OP_PREFETCH:
        if (meq(s, n, "L1") || meq(s, n, "L2")) return true;
        break;
    case WS_OP_CP_ASYNC: return cp_async_mod(in, s, n);
    case WS_OP_MBARRIER: return mbarrier_mod(in, s, n);
    case WS_OP_TLD4:
        if (n == 1 && memchr("rgba", s[0], 4)) { /* the component gathered */
            in->boolop = (uint8_t)((const char *)memchr("rgba", s[0], 4) - "rgba");
            return true;
        }
        if (meq(s, n, "2d")) { in->sub = WS_TEX_2D; return true; }
        if (meq(s, n, "a2d")) { in->sub = WS_TEX_A2D; return true; }
        if (meq(s, n, "cube")) { in->sub = WS_TEX_CUBE; return true; }
        if (meq(s, n, "acube")) { in->sub = WS_TEX_ACUBE; return true; }
        if (meq(s, n, "v4")) { in->vec = 4; return true; }
        return false;
    case WS_OP_TEX:
        if (meq(s, n, "1d")) { in->sub = WS_TEX_1D; return true; }
        if (meq(s, n, "2d")) { in->sub = WS_TEX_2D; return true; }
        if (meq(s, n, "3d")) { in->sub = WS_TEX_3D; return true; }
        if (meq(s, n, "level")) { in->boolop = WS_TEX_LOD_LEVEL; return true; }
        if (meq(s, n, "grad")) { in->boolop = WS_TEX_LOD_GRAD; return true; }
        if (meq(s, n, "cube")) { in->sub = WS_TEX_CUBE; return true; }
        if (meq(s, n, "acube")) { in->sub = WS_TEX_ACUBE; return true; }
        if (meq(s, n, "a1d")) { in->sub = WS_TEX_A1D; return true; }
        if (meq(s, n, "a2d")) { in->sub = WS_TEX_A2D; return true; }
        if (meq(s, n, "v4")) { in->vec = 4; return true; }
        return false; /* no generic modifiers (.sat, .ftz, ...) apply to tex */
    case WS_OP_SULD: case WS_OP_SUST:
        if (meq(s, n, "b")) return true;
        if (meq(s, n, "p") && in->op == WS_OP_SUST) { in->flags |= WS_F_SURF_P; return true; }
        if (surf_geom_or_mode(s, n, in)) return true;
        if (meq(s, n, "v2") || meq(s, n, "v4")) { in->vec = (uint8_t)(s[1] - '0'); return true; }
        if ((v = lookup_in(s, n, cache_names, 8)) > 0) {
            in->cacheop = (uint8_t)v;
            in->flags |= WS_F_CACHEOP;
            return true;
        }
        if (meq(s, n, "b8") || meq(s, n, "b16") || meq(s, n, "b32") || meq(s, n, "b64")) break;
        return false;
    case WS_OP_SURED:
        if (meq(s, n, "b")) return true;
        if (meq(s, n, "add")) { in->cmp = WS_ATOM_ADD; return true; }
        if (meq(s, n, "min")) { in->cmp = WS_ATOM_MIN; return true; }
        if (meq(s, n, "max")) { in->cmp = WS_ATOM_MAX; return true; }
        if (meq(s, n, "and")) { in->cmp = WS_ATOM_AND; return true; }
        if (meq(s, n, "or")) { in->cmp = WS_ATOM_OR; return true; }
        if (surf_geom_or_mode(s, n, in)) return true;
        if (meq(s, n, "u32") || meq(s, n, "s32") || meq(s, n, "u64") || meq(s, n, "s64") || meq(s, n, "b32") ||
            meq(s, n, "b64"))
            break;
        return false; /* sured.p among them */
    case WS_OP_SUQ: case WS_OP_TXQ: {
        static const char *const q[] = {NULL, "width", "height", "depth", "channel_data_type", "channel_order",
                                        "array_size", "memory_layout", "normalized_coords", "filter_mode",
                                        "addr_mode_0", "addr_mode_1", "addr_mode_2", "num_mipmap_levels",
                                        "num_samples"};
        int lim = op == WS_OP_SUQ ? WS_SUQ_MEMORY_LAYOUT + 1 : WS_SUQ_COUNT;
        if ((v = lookup_in(s, n, q, lim)) > 0 && (op == WS_OP_SUQ || v != WS_SUQ_MEMORY_LAYOUT)) {
            in->sub = (uint8_t)v;
            return true;
        }
        if (op == WS_OP_TXQ && meq(s, n, "level")) { in->boolop = 1; return true; }
        if (meq(s, n, "b32")) break;
        return false;
    }
    default:
        break;
    }
    if (op == WS_OP_LD || op == WS_OP_LDU || op == WS_OP_ST || op == WS_OP_ATOM ||
        op == WS_OP_RED || op == WS_OP_CVTA || op == WS_OP_PREFETCH || op == WS_OP_ISSPACEP) {
        if ((v = space_from(s, n)) >= 0) {
            in->space = (uint8_t)v;
            if (op == WS_OP_CVTA && in->to_generic == 1 && in->space && !in->rnd) {}
            return true;
        }
        if (meq(s, n, "v2") || meq(s, n, "v4") || meq(s, n, "v8")) {
            in->vec = (uint8_t)(s[1] - '0');
            return true;
        }
        if ((v = lookup_in(s, n, cache_names, 8)) > 0) {
            in->cacheop = (uint8_t)v;
            in->flags |= WS_F_CACHEOP;
            return true;
        }
        if (meq(s, n, "nc")) { in->flags |= WS_F_NC; return true; }
        if (meq(s, n, "volatile") || meq(s, n, "relaxed") || meq(s, n, "acquire") ||
            meq(s, n, "release") || meq(s, n, "acq_rel") || meq(s, n, "mmio")) {
            in->flags |= WS_F_VOLATILE;
            return true;
        }
        if (meq(s, n, "weak")) return true;
        /* Eviction / prefetch-size hints (L1::no_allocate, L2::128B): timing
           hints without operands. L2::cache_hint takes an operand: refused. */
        if (n > 4 && (s[0] == 'L') && s[2] == ':' && !meq(s, n, "L2::cache_hint")) return true;
    }
    if (meq(s, n, "cta")) { in->scope = WS_SCOPE_CTA; return true; }
    if (meq(s, n, "gpu") || meq(s, n, "cluster")) { in->scope = WS_SCOPE_GPU; return true; }
    if (meq(s, n, "sys")) { in->scope = WS_SCOPE_SYS; return true; }
    if (meq(s, n, "sat")) { in->flags |= WS_F_SAT; return true; }
    if (meq(s, n, "ftz")) { in->flags |= WS_F_FTZ; return true; }
    if (meq(s, n, "approx")) { in->flags |= WS_F_APPROX; return true; }
    if (meq(s, n, "full")) { in->flags |= WS_F_FULL; return true; }
    if (meq(s, n, "uni") && (op == WS_OP_BRA || op == WS_OP_CALL || op == WS_OP_RET)) {
        in->flags |= WS_F_UNI;
        return true;
    }
    if (meq(s, n, "cc") && (op == WS_OP_ADD || op == WS_OP_SUB || op == WS_OP_MAD ||
                            op == WS_OP_ADDC || op == WS_OP_SUBC || op == WS_OP_MADC)) {
        in->flags |= WS_F_CC;
        return true;
    }
    if (meq(s, n, "wrap") && (op == WS_OP_SHF || op == WS_OP_BMSK || op == WS_OP_SZEXT)) {
        in->flags |= WS_F_WRAP;
        return true;
    }
    if (meq(s, n, "clamp") && (op == WS_OP_BMSK || op == WS_OP_SZEXT)) return true;
    if (meq(s, n, "shiftamt") && op == WS_OP_BFIND) { in->flags |= WS_F_SHIFTAMT; return true; }
    if (meq(s, n, "sync") && (op == WS_OP_VOTE || op == WS_OP_SHFL || op == WS_OP_MATCH ||
                              op == WS_OP_REDUX || op == WS_OP_ELECT)) {
        in->flags |= WS_F_SYNC;
        return true;
    }
    if (meq(s, n, "aligned")) { in->flags |= WS_F_ALIGNED; return true; }
    if (meq(s, n, "relu")) { in->flags |= WS_F_RELU; return true; }
    if (meq(s, n, "NaN")) { in->flags |= WS_F_NAN; return true; }
    if (meq(s, n, "abs")) { in->flags |= WS_F_ABS; return true; }
    return false;
}

typedef struct {
    int kind;
    int64_t raw;
    bool neg;
} litinfo;

static ws_operand reg_operand(P *p, const ws_token *t, bool want_value)
{
    ws_operand o;
    memset(&o, 0, sizeof o);
    o.reg = WS_NOREG;
    o.sym = WS_NOSYM;
    binding *b = tab_find(p->names, t->text, t->len);
    if (b && b->kind == B_REG) {
        o.kind = WS_OPND_REG;
        o.reg = (uint16_t)b->idx;
        return o;
    }
    if (b && b->kind == B_PRED && !want_value) {
        o.kind = WS_OPND_PRED;
        o.reg = (uint16_t)b->idx;
        return o;
    }
    fail_at(p, t, "%s '%.*s'", b ? "expected a register, found" : "undefined register",
            (int)t->len, t->text);
}

/* One operand. `label_ok`: an unknown identifier is a branch label. */
/* Type of one element of a vector source: the instruction's for ld/st, a
 * slice of a mov's (mov.b64 d, {a, b}: b32). */
static int vec_elem_type(const ws_inst *in)
{
    if (in->op != WS_OP_MOV) return in->type;
    static const uint8_t bn[9] = {0, WS_T_B8, WS_T_B16, 0, WS_T_B32, 0, 0, 0, WS_T_B64};
    unsigned n = ws_type_size((ws_type)in->type) / 2; /* vecn is not known yet: 2 is the common case */
    return n <= 8 && bn[n] ? bn[n] : in->type;
}

static ws_operand parse_operand(P *p, ws_inst *in, int srcidx, litinfo *lit, bool label_ok)
{
    ws_operand o;
    memset(&o, 0, sizeof o);
    o.reg = WS_NOREG;
    o.sym = WS_NOSYM;
    lit->kind = LIT_NONE;
    const ws_token *t = CUR(p);
    if (accept_punct(p, '[')) {
        o.kind = WS_OPND_MEM;
        const ws_token *bt = CUR(p);
        if (bt->kind == TK_IDENT) {
            p->pos++;
            binding *b = tab_find(p->names, bt->text, bt->len);
            if (!b) fail_at(p, bt, "undefined identifier '%.*s'", (int)bt->len, bt->text);
            if (b->kind == B_REG) o.reg = (uint16_t)b->idx;
            else if (b->kind == B_SYM) o.sym = b->idx;
            else fail_at(p, bt, "expected a register or variable in address, found '%.*s'", (int)bt->len, bt->text);
            if (accept_punct(p, '+')) o.imm = expect_int(p, "an address offset");
            else if (is_punct(p, '-')) o.imm = expect_int(p, "an address offset");
        } else if (bt->kind == TK_INT) {
            o.imm = (int64_t)advance(p)->ival;
            if (accept_punct(p, '+')) o.imm += expect_int(p, "an address offset");
        } else {
            fail_expected(p, "a register, variable or address in '[ ]'");
        }
        expect_punct(p, ']');
        return o;
    }
    if (accept_punct(p, '{')) {
        o.kind = WS_OPND_VEC;
        int n = 0;
        do {
            const ws_token *et = CUR(p);
            if (n >= 4) fail_at(p, et, "vector operand with more than 4 elements is not supported");
            if (tok_is(et, TK_IDENT, "_")) {
                p->pos++;
                o.vreg[n++] = WS_NOREG;
                continue;
            }
            int lk;
            int64_t raw;
            bool lneg;
            /* an immediate element: only mov and st read them (ir.h) */
            if (srcidx >= 0 && (in->op == WS_OP_MOV || in->op == WS_OP_ST) && read_literal(p, &lk, &raw, &lneg)) {
                uint64_t v = (uint64_t)lit_value(lk, raw, lneg, vec_elem_type(in));
                if (ws_type_size((ws_type)vec_elem_type(in)) == 8 && v != (uint64_t)(int64_t)(int32_t)v)
                    fail_at(p, et, "a 64-bit immediate in a vector operand must fit in 32 bits");
                o.neg |= (uint8_t)(1u << n);
                o.imm |= (int64_t)((uint64_t)(uint16_t)(v >> 16) << (16 * n));
                o.vreg[n++] = (uint16_t)v;
                continue;
            }
            if (et->kind != TK_IDENT) fail_expected(p, "a register in vector operand");
            p->pos++;
            ws_operand r = reg_operand(p, et, false);
            if (r.kind == WS_OPND_PRED) o.vec_is_pred = 1;
            o.vreg[n++] = r.reg;
        } while (accept_punct(p, ','));
        expect_punct(p, '}');
        o.vecn = (uint8_t)n;
        return o;
    }
    if (accept_punct(p, '!')) {
        const ws_token *rt = expect_ident(p, "a predicate register after '!'");
        binding *b = tab_find(p->names, rt->text, rt->len);
        if (!b || b->kind != B_PRED)
            fail_at(p, rt, "expected a predicate register after '!', found '%.*s'", (int)rt->len, rt->text);
        o.kind = WS_OPND_PRED;
        o.reg = (uint16_t)b->idx;
        o.neg = 1;
        return o;
    }
    if (read_literal(p, &lit->kind, &lit->raw, &lit->neg)) {
        o.kind = WS_OPND_IMM;
        return o;
    }
    if (t->kind != TK_IDENT) fail_expected(p, "an operand");
    p->pos++;
    if (tok_is(t, TK_IDENT, "_")) {
        o.kind = WS_OPND_NONE;
        return o;
    }
    binding *b = tab_find(p->names, t->text, t->len);
    if (!b && tok_is(t, TK_IDENT, "WARP_SZ")) { /* the ISA's predefined constant (cuda_fp16.h's shuffles) */
        o.kind = WS_OPND_IMM;
        lit->kind = LIT_INT;
        lit->raw = WS_WARP_SIZE_PTX;
        lit->neg = false;
        return o;
    }
    if (b) {
        switch (b->kind) {
        case B_REG: o.kind = WS_OPND_REG; o.reg = (uint16_t)b->idx; return o;
        case B_PRED: o.kind = WS_OPND_PRED; o.reg = (uint16_t)b->idx; return o;
        case B_SYM:
            o.kind = WS_OPND_SYM;
            o.sym = b->idx;
            if (accept_punct(p, '+')) o.imm = expect_int(p, "an offset");
            else if (is_punct(p, '-')) o.imm = expect_int(p, "an offset");
            return o;
        case B_FUNC: o.kind = WS_OPND_FUNC; o.imm = b->idx; return o;
        default: break;
        }
    }
    if (t->text[0] == '%') {
        int sr = sreg_from(t->text, t->len);
        if (sr) {
            o.kind = WS_OPND_SREG;
            o.reg = (uint16_t)sr;
            return o;
        }
    }
    if (label_ok) {
        o.kind = WS_OPND_LABEL;
        GROW(p, p->fix, p->nfix, p->cap_fix);
        p->fix[p->nfix].inst = FN(p)->ninsts;
        p->fix[p->nfix].src = (uint8_t)srcidx;
        p->fix[p->nfix].tok = (uint32_t)(t - p->t);
        p->nfix++;
        return o;
    }
    fail_at(p, t, "undefined %s '%.*s'", t->text[0] == '%' ? "register" : "identifier", (int)t->len,
            t->text);
}

static uint32_t param_sym(P *p)
{
    const ws_token *t = expect_ident(p, "a .param variable");
    binding *b = tab_find(p->names, t->text, t->len);
    if (!b || b->kind != B_SYM || p->m->syms[b->idx].space != WS_SPACE_PARAM)
        fail_at(p, t, "expected a .param variable, found '%.*s'", (int)t->len, t->text);
    return b->idx;
}

/* call[.uni] [(rets),] target [, (args)] [, prototype]; */
static void parse_call(P *p, ws_inst *in)
{
    uint32_t rets[32], args[256];
    uint32_t nr = 0, na = 0;
    if (accept_punct(p, '(')) {
        if (!is_punct(p, ')')) {
            do {
                if (nr >= 32) fail_at(p, CUR(p), "too many return values");
                rets[nr++] = param_sym(p);
            } while (accept_punct(p, ','));
        }
        expect_punct(p, ')');
        expect_punct(p, ',');
    }
    const ws_token *tt = expect_ident(p, "a function name");
    binding *b = tab_find(p->names, tt->text, tt->len);
    ws_operand o;
    memset(&o, 0, sizeof o);
    o.reg = WS_NOREG;
    o.sym = WS_NOSYM;
    if (b && b->kind == B_FUNC) {
        o.kind = WS_OPND_FUNC;
        o.imm = b->idx;
    } else if (b && b->kind == B_REG) {
        o.kind = WS_OPND_REG; /* indirect call through a function pointer */
        o.reg = (uint16_t)b->idx;
    } else {
        fail_at(p, tt, "undefined function '%.*s'", (int)tt->len, tt->text);
    }
    if (accept_punct(p, ',')) {
        if (accept_punct(p, '(')) {
            if (!is_punct(p, ')')) {
                do {
                    if (na >= 256) fail_at(p, CUR(p), "too many call arguments");
                    args[na++] = param_sym(p);
                } while (accept_punct(p, ','));
            }
            expect_punct(p, ')');
            if (accept_punct(p, ',')) expect_ident(p, "a call prototype");
        } else {
            expect_ident(p, "'(' or a call prototype");
        }
    }
    in->src[0] = o;
    in->nsrc = 1;
    if (nr) {
        in->call_rets = p->pend_rets = xrealloc(p, NULL, nr * sizeof *rets);
        memcpy(in->call_rets, rets, nr * sizeof *rets);
        in->ncall_rets = (uint8_t)nr;
    }
    if (na) {
        in->call_args = p->pend_args = xrealloc(p, NULL, na * sizeof *args);
        memcpy(in->call_args, args, na * sizeof *args);
        in->ncall_args = (uint8_t)(na > 255 ? 255 : na);
    }
}

/* tex.GEOM.v4.D.C {d,d,d,d}, [texobj, {coords}]; (see WS_TEX_* in ir.h).
 * Texture references, separate samplers, predicate destinations and
 * lod/grad/offset operands are refused with the instruction and line. */
static void parse_tex(P *p, const ws_token *ot, ws_inst *in)
{
#define TEX_FAIL(at, ...) UNSUPPORTED_AT(p, at, "unsupported instruction '%.*s' (line %u): " __VA_ARGS__)
#define TEX_ARGS (int)ot->len, ot->text, ot->line
    if (!in->sub) TEX_FAIL(ot, "expected a geometry (.1d, .2d, .3d, .a1d or .a2d; tld4: .2d)", TEX_ARGS);
    if (in->vec != 4) TEX_FAIL(ot, "expected .v4 (the only vector form warpsim has)", TEX_ARGS);
    if (in->type != WS_T_F32 && in->type != WS_T_S32 && in->type != WS_T_U32)
        TEX_FAIL(ot, "destination type must be .f32, .s32 or .u32", TEX_ARGS);
    if (in->stype != WS_T_F32 && in->stype != WS_T_S32)
        TEX_FAIL(ot, "coordinate type must be .s32 or .f32", TEX_ARGS);
    in->space = WS_SPACE_TEX;
    litinfo li;
    const ws_token *at = CUR(p);
    ws_operand d = parse_operand(p, in, -1, &li, false);
    if (d.kind != WS_OPND_VEC || d.vecn != 4 || d.vec_is_pred)
        TEX_FAIL(at, "expected a destination vector of four registers", TEX_ARGS);
    if (is_punct(p, '|')) TEX_FAIL(CUR(p), "a predicate destination is not supported", TEX_ARGS);
    in->dst[0] = d;
    in->ndst = 1;
    expect_punct(p, ',');
    expect_punct(p, '[');
    const ws_token *ht = CUR(p);
    if (ht->kind != TK_IDENT) fail_expected(p, "a texture object register");
    binding *b = tab_find(p->names, ht->text, ht->len);
    if (!b || b->kind != B_REG)
        TEX_FAIL(ht, "'%.*s' is not a register: warpsim supports texture objects (a .u64 register "
                 "holding the handle), not texture references", TEX_ARGS, (int)ht->len, ht->text);
    p->pos++;
    memset(&in->src[0], 0, sizeof in->src[0]);
    in->src[0].kind = WS_OPND_REG;
    in->src[0].reg = (uint16_t)b->idx;
    in->src[0].sym = WS_NOSYM;
    expect_punct(p, ',');
    at = CUR(p);
    if (!is_punct(p, '{'))
        TEX_FAIL(at, "expected the coordinate vector '{...}' (separate samplers are not supported)",
                 TEX_ARGS);
    ws_operand c = parse_operand(p, in, 1, &li, false);
    /* coordinates used, and how many the vector has (.3d and .a2d: four) */
    unsigned used = in->sub == WS_TEX_A1D ? 2 : in->sub == WS_TEX_A2D || in->sub == WS_TEX_CUBE ? 3
                    : in->sub == WS_TEX_ACUBE ? 4 : in->sub;
    unsigned want = in->sub == WS_TEX_3D || in->sub == WS_TEX_A2D || in->sub == WS_TEX_CUBE ? 4 : used;
    if (c.vec_is_pred || !(c.vecn == want || (want == 4 && c.vecn == 3 && used < 4)))
        TEX_FAIL(at, "expected %u coordinate register(s) for .%s", TEX_ARGS, want,
                 in->sub == WS_TEX_A1D ? "a1d" : in->sub == WS_TEX_A2D ? "a2d" : in->sub == WS_TEX_CUBE ? "cube"
                 : in->sub == WS_TEX_ACUBE ? "acube" : in->sub == WS_TEX_1D ? "1d" : in->sub == WS_TEX_2D ? "2d" : "3d");
    for (unsigned k = 0; k < c.vecn; k++)
        if (c.vreg[k] == WS_NOREG && k < used)
            TEX_FAIL(at, "coordinate %u is '_'", TEX_ARGS, k);
    in->src[1] = c;
    in->nsrc = 2;
    expect_punct(p, ']');
    /* tex.level: the level of detail; tex.grad: two gradient vectors */
    for (unsigned k = 0; k < (unsigned)in->boolop && in->op == WS_OP_TEX; k++) {
        expect_punct(p, ',');
        at = CUR(p);
        ws_operand e = parse_operand(p, in, 2 + (int)k, &li, false);
        bool ok = in->boolop == WS_TEX_LOD_LEVEL ? e.kind == WS_OPND_REG : e.kind == WS_OPND_VEC && !e.vec_is_pred;
        if (!ok)
            TEX_FAIL(at, "expected %s", TEX_ARGS,
                     in->boolop == WS_TEX_LOD_LEVEL ? "a level-of-detail register" : "a gradient vector");
        in->src[in->nsrc++] = e;
    }
    if (is_punct(p, ','))
        TEX_FAIL(CUR(p), "extra operands (offsets, depth compare) are not supported", TEX_ARGS);
#undef TEX_ARGS
#undef TEX_FAIL
}

/* The handle register and coordinates of a surface access: [surf, {x, y, z}]
 * (a 1-D access may give x bare). 3-D coordinates come as four registers,
 * the last unused. */
static void parse_surf_addr(P *p, const ws_token *ot, ws_inst *in)
{
#define SU_FAIL(at, ...) UNSUPPORTED_AT(p, at, "unsupported instruction '%.*s' (line %u): " __VA_ARGS__)
#define SU_ARGS (int)ot->len, ot->text, ot->line
    expect_punct(p, '[');
    const ws_token *ht = CUR(p);
    if (ht->kind != TK_IDENT) fail_expected(p, "a surface object register");
    binding *b = tab_find(p->names, ht->text, ht->len);
    if (!b || b->kind != B_REG)
        SU_FAIL(ht, "'%.*s' is not a register: warpsim supports surface objects (a .u64 register "
                "holding the handle), not surface references", SU_ARGS, (int)ht->len, ht->text);
    p->pos++;
    in->src[0] = (ws_operand){.kind = WS_OPND_REG, .reg = (uint16_t)b->idx, .sym = WS_NOSYM};
    if (in->op == WS_OP_SUQ || in->op == WS_OP_TXQ) {
        in->nsrc = 1;
        if (in->op == WS_OP_TXQ && in->boolop) { /* txq.level: [tex, lod] */
            expect_punct(p, ',');
            const ws_token *lt = expect_ident(p, "a level-of-detail register");
            in->src[1] = reg_operand(p, lt, false);
            in->nsrc = 2;
        }
        expect_punct(p, ']');
        return;
    }
    expect_punct(p, ',');
    litinfo li;
    const ws_token *at = CUR(p);
    ws_operand c = parse_operand(p, in, 1, &li, false);
    /* coordinates used (.a1d: {layer, x}; .a2d: {layer, x, y, _}) and given */
    unsigned used = in->sub == WS_TEX_A1D ? 2 : in->sub == WS_TEX_A2D ? 3 : in->sub;
    unsigned want = in->sub == WS_TEX_3D || in->sub == WS_TEX_A2D ? 4 : used;
    bool ok = c.kind == WS_OPND_VEC ? !c.vec_is_pred && (c.vecn == want || (want == 4 && c.vecn == 3))
                                    : c.kind == WS_OPND_REG && in->sub == WS_TEX_1D;
    if (!ok)
        SU_FAIL(at, "expected %u coordinate register(s) for .%s", SU_ARGS, want,
                in->sub == WS_TEX_A1D ? "a1d" : in->sub == WS_TEX_A2D ? "a2d"
                : in->sub == WS_TEX_1D ? "1d" : in->sub == WS_TEX_2D ? "2d" : "3d");
    if (c.kind == WS_OPND_REG) c = (ws_operand){.kind = WS_OPND_VEC, .vecn = 1, .vreg = {c.reg}, .reg = WS_NOREG, .sym = WS_NOSYM};
    for (unsigned k = 0; k < used; k++)
        if (c.vreg[k] == WS_NOREG) SU_FAIL(at, "coordinate %u is '_'", SU_ARGS, k);
    in->src[1] = c;
    in->nsrc = 2;
    expect_punct(p, ']');
}

/* A surface access's value: a register or a vector of in->vec registers. */
static ws_operand parse_surf_value(P *p, const ws_token *ot, ws_inst *in, int srcidx)
{
    litinfo li;
    const ws_token *at = CUR(p);
    ws_operand v = parse_operand(p, in, srcidx, &li, false);
    bool ok = v.kind == WS_OPND_VEC ? !v.vec_is_pred && v.vecn == in->vec : v.kind == WS_OPND_REG && in->vec == 1;
    if (!ok) SU_FAIL(at, "expected %u value register(s)", SU_ARGS, (unsigned)in->vec);
    if (v.kind == WS_OPND_REG) v = (ws_operand){.kind = WS_OPND_VEC, .vecn = 1, .vreg = {v.reg}, .reg = WS_NOREG, .sym = WS_NOSYM};
    return v;
}

/* suld.b / sust.b / suq (see WS_SURF_* in ir.h). */
static void parse_surf(P *p, const ws_token *ot, ws_inst *in)
{
    if (in->op == WS_OP_SUQ || in->op == WS_OP_TXQ) {
        if (!in->sub) SU_FAIL(ot, "expected a query (.width, .height, .channel_order, ...)", SU_ARGS);
        if (in->boolop && in->sub > WS_SUQ_DEPTH) SU_FAIL(ot, "txq.level queries .width, .height or .depth", SU_ARGS);
        in->type = WS_T_B32;
        const ws_token *dt = expect_ident(p, "a destination register");
        in->dst[0] = reg_operand(p, dt, false);
        in->ndst = 1;
        if (in->dst[0].kind != WS_OPND_REG) fail_at(p, dt, "expected a destination register");
        expect_punct(p, ',');
        parse_surf_addr(p, ot, in);
        return;
    }
    if (!in->sub) SU_FAIL(ot, "expected a geometry (.1d, .2d, .3d, .a1d or .a2d)", SU_ARGS);
    if (in->op == WS_OP_SURED) {
        if (!in->cmp) SU_FAIL(ot, "expected a reduction (.add, .min, .max, .and, .or)", SU_ARGS);
        bool bits = in->type == WS_T_B32 || in->type == WS_T_B64;
        if (bits != (in->cmp == WS_ATOM_AND || in->cmp == WS_ATOM_OR) ||
            (in->cmp == WS_ATOM_ADD && in->type == WS_T_S64))
            SU_FAIL(ot, "the type does not fit the reduction (.add: .u32 .s32 .u64; .min/.max: .u32 .s32 "
                    ".u64 .s64; .and/.or: .b32 .b64)", SU_ARGS);
        in->space = WS_SPACE_GLOBAL;
        parse_surf_addr(p, ot, in);
        expect_punct(p, ',');
        in->src[2] = parse_surf_value(p, ot, in, 2);
        in->nsrc = 3;
        return;
    }
    if (in->type != WS_T_B8 && in->type != WS_T_B16 && in->type != WS_T_B32 && in->type != WS_T_B64)
        SU_FAIL(ot, "expected a type .b8, .b16, .b32 or .b64", SU_ARGS);
    if ((in->flags & WS_F_SURF_P) && in->type != WS_T_B32) SU_FAIL(ot, "sust.p stores .b32 values", SU_ARGS);
    in->space = WS_SPACE_GLOBAL; /* the timing model sees a global access */
    if (in->op == WS_OP_SULD) {
        in->dst[0] = parse_surf_value(p, ot, in, -1);
        in->ndst = 1;
        expect_punct(p, ',');
        parse_surf_addr(p, ot, in);
    } else {
        parse_surf_addr(p, ot, in);
        expect_punct(p, ',');
        in->src[2] = parse_surf_value(p, ot, in, 2);
        in->nsrc = 3;
    }
#undef SU_ARGS
#undef SU_FAIL
}

static bool op_has_dst(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_ST: case WS_OP_RED: case WS_OP_BRA: case WS_OP_CALL: case WS_OP_RET:
    case WS_OP_EXIT: case WS_OP_TRAP: case WS_OP_NANOSLEEP: case WS_OP_PREFETCH: case WS_OP_PMEVENT:
    case WS_OP_STACKRESTORE: case WS_OP_GRIDDEPCONTROL:
    case WS_OP_MEMBAR: case WS_OP_FENCE: case WS_OP_STMATRIX:
        return false;
    case WS_OP_BAR:
        return in->sub == WS_BAR_RED_POPC || in->sub == WS_BAR_RED_AND || in->sub == WS_BAR_RED_OR;
    case WS_OP_CP_ASYNC:
        return false;
    case WS_OP_MBARRIER:
        return !(in->sub == WS_MBAR_INIT || in->sub == WS_MBAR_EXPECT_TX || in->sub == WS_MBAR_COMPLETE_TX ||
                 in->sub == WS_MBAR_INVAL);
    default:
        return true;
    }
}

/* Type against which an immediate source operand is interpreted. */
static int src_imm_type(const ws_inst *in, int i)
{
    switch (in->op) {
    case WS_OP_CVT: return in->stype;
    case WS_OP_SETP: case WS_OP_SET: return i < 2 ? in->stype : WS_T_PRED;
    case WS_OP_SLCT: return i < 2 ? in->type : in->stype;
    case WS_OP_SHL: case WS_OP_SHR: return i == 1 ? WS_T_U32 : in->type;
    case WS_OP_SZEXT: return i == 1 ? WS_T_U32 : in->type;
    case WS_OP_FNS: return i == 2 ? WS_T_S32 : WS_T_U32;
    case WS_OP_SHF: case WS_OP_BFE: case WS_OP_BFI: case WS_OP_LOP3: case WS_OP_PRMT:
    case WS_OP_SHFL: case WS_OP_VOTE: case WS_OP_MATCH: case WS_OP_REDUX: case WS_OP_BAR:
    case WS_OP_NANOSLEEP:
        return in->op == WS_OP_BFI && i < 2 ? in->type : WS_T_U32;
    case WS_OP_SELP: return i < 2 ? in->type : WS_T_PRED;
    case WS_OP_TESTP: case WS_OP_COPYSIGN: return in->type;
    default: return in->type;
    }
}

static void video_form(P *p, const ws_token *ot, ws_inst *in, const char *s, size_t blen, int ntypes);
static void parse_mma(P *p, const ws_token *ot, ws_inst *in);
static void parse_video(P *p, const ws_token *ot, ws_inst *in);

static void parse_instruction(P *p, uint16_t guard, bool guard_neg)
{
    const ws_token *ot = advance(p);
    const char *s = ot->text, *end = ot->text + ot->len;
    const char *dot = memchr(s, '.', ot->len);
    size_t blen = dot ? (size_t)(dot - s) : ot->len;
    int op = -1;
    for (size_t i = 0; i < sizeof opnames / sizeof opnames[0]; i++)
        if (meq(s, blen, opnames[i].name)) { op = opnames[i].op; break; }
    if (op < 0)
        UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u)", (int)ot->len, ot->text, ot->line);

    ws_func *f = FN(p);
    GROW(p, f->insts, f->ninsts, p->cap_insts);
    ws_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.guard = guard;
    in.guard_neg = guard_neg;
    in.line = ot->line;
    in.reconv = -1;
    in.vec = 1;
    if (op == WS_OP_CVTA) in.to_generic = 1;
    if (op == WS_OP_TRAP && meq(s, blen, "brkpt")) in.sub = WS_TRAP_BRKPT;
    if (op == WS_OP_BAR && meq(s, blen, "bar")) in.flags |= WS_F_ALIGNED;
    int ntypes = 0;
    bool brx = op == WS_OP_BRA && meq(s, blen, "brx");
    if (op == WS_OP_WMMA || op == WS_OP_MMA) { /* its own modifiers and operand lists */
        parse_mma(p, ot, &in);
        f = FN(p);
        f->insts[f->ninsts++] = in;
        p->pend_args = NULL; /* now owned by the module */
        return;
    }
    for (const char *q = dot; q && q < end;) {
        const char *ms = q + 1;
        const char *me = memchr(ms, '.', (size_t)(end - ms));
        if (!me) me = end;
        if (brx && meq(ms, (size_t)(me - ms), "idx")) {
            in.sub = WS_BRA_IDX;
            q = me < end ? me : NULL;
            continue;
        }
        /* "shared::cta" contains no dot, so splitting on dots is enough. */
        if (!apply_mod(&in, ms, (size_t)(me - ms), &ntypes)) {
            if (op == WS_OP_TEX || op == WS_OP_TLD4)
                UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u): modifier '.%.*s' is not "
                        "supported (warpsim has tex{.level,.grad}.{1d,2d,3d,a1d,a2d,cube}.v4.{f32,s32,u32}.{s32,f32} "
                        "and tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32; .cube with .v4.{f32,s32,u32}.f32)",
                        (int)ot->len, ot->text, ot->line, (int)(me - ms), ms);
            if (op == WS_OP_SULD || op == WS_OP_SUST || op == WS_OP_SUQ || op == WS_OP_SURED || op == WS_OP_TXQ)
                UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u): modifier '.%.*s' is not "
                        "supported (warpsim has suld.b/sust.b.{1d,2d,3d}{.v2,.v4}.{b8,b16,b32,b64}"
                        ".{trap,clamp,zero}, sust.p with .b32 and suq.{width,height,depth}.b32)",
                        (int)ot->len, ot->text, ot->line, (int)(me - ms), ms);
            UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u): unknown modifier '.%.*s'",
                    (int)ot->len, ot->text, ot->line, (int)(me - ms), ms);
        }
        q = me < end ? me : NULL;
    }
    bool packed16 = op != in.op; /* add.s16x2 and the like became vadd2 ... */
    op = in.op;
    if (ntypes == 1) in.stype = in.type;
    /* add.f32.f16 and the like (PTX 8.6) would need the half operands widened */
    if (ntypes == 2 && ws_type_is_float((ws_type)in.type) &&
        (op == WS_OP_ADD || op == WS_OP_SUB || op == WS_OP_MUL || op == WS_OP_FMA || op == WS_OP_MAD))
        UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u): mixed-precision form", (int)ot->len,
                       ot->text, ot->line);
    if (ws_op_is_video((unsigned)op)) video_form(p, ot, &in, s, blen, ntypes);
    if (packed16) in.vec = 2;
    if (op == WS_OP_BAR && !in.sub) in.sub = WS_BAR_SYNC;
    if (op == WS_OP_BAR && in.sub == WS_BAR_WARP_SYNC) in.flags &= (uint16_t)~WS_F_ALIGNED;
    if ((op == WS_OP_LDMATRIX || op == WS_OP_STMATRIX || op == WS_OP_MOVMATRIX) &&
        (in.type != WS_T_B16 || (op != WS_OP_MOVMATRIX && (in.vec != 1 && in.vec != 2 && in.vec != 4)) ||
         (op == WS_OP_MOVMATRIX && !in.boolop)))
        UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u): warpsim has ldmatrix/stmatrix"
                       ".sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared.b16 and movmatrix.sync.aligned.m8n8.trans.b16",
                       (int)ot->len, ot->text, ot->line);
    if (op == WS_OP_MEMBAR && !in.scope)
        fail_at(p, ot, "expected a scope (.cta, .gl, .sys) on '%.*s'", (int)ot->len, ot->text);
    if ((op == WS_OP_SETP || op == WS_OP_SET) && !in.cmp)
        fail_at(p, ot, "expected a comparison (.eq, .lt, ...) on '%.*s'", (int)ot->len, ot->text);
    if ((op == WS_OP_ATOM || op == WS_OP_RED) && !in.sub)
        fail_at(p, ot, "expected an atomic operation (.add, .cas, ...) on '%.*s'", (int)ot->len, ot->text);

    litinfo lits[WS_MAX_DST + WS_MAX_SRC];
    int nlit = 0;
    if (brx) {
        if (in.sub != WS_BRA_IDX) fail_at(p, ot, "expected brx.idx");
        litinfo li;
        in.src[0] = parse_operand(p, &in, 0, &li, false);
        if (li.kind != LIT_NONE) in.src[0].imm = lit_value(li.kind, li.raw, li.neg, WS_T_U32);
        in.nsrc = 1;
        expect_punct(p, ',');
        const ws_token *tt = expect_ident(p, "a .branchtargets table");
        expect_punct(p, ';');
        GROW(p, p->bxfix, p->nbxfix, p->cap_bxfix);
        p->bxfix[p->nbxfix].inst = FN(p)->ninsts;
        p->bxfix[p->nbxfix].tok = (uint32_t)(tt - p->t);
        p->nbxfix++;
        f = FN(p);
        f->insts[f->ninsts++] = in;
        return;
    } else if (op == WS_OP_CALL) {
        parse_call(p, &in);
    } else if (op == WS_OP_TEX || op == WS_OP_TLD4) {
        if (op == WS_OP_TEX && in.sub == WS_TEX_CUBE && in.stype != WS_T_F32)
            UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u): tex.cube takes .f32 coordinates",
                           (int)ot->len, ot->text, ot->line);
        if (op == WS_OP_TLD4 && in.stype != WS_T_F32)
            UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u): tld4 takes .f32 coordinates",
                           (int)ot->len, ot->text, ot->line);
        parse_tex(p, ot, &in);
    } else if (op == WS_OP_SULD || op == WS_OP_SUST || op == WS_OP_SUQ || op == WS_OP_SURED || op == WS_OP_TXQ) {
        parse_surf(p, ot, &in);
    } else if (ws_op_is_video((unsigned)op)) {
        parse_video(p, ot, &in);
        if (packed16) { /* d, a, b: merge nothing from c */
            if (in.nsrc != 2 || in.dst[0].imm || in.src[0].imm || in.src[1].imm)
                fail_at(p, ot, "'%.*s' expects d, a, b", (int)ot->len, ot->text);
            in.src[2] = (ws_operand){.kind = WS_OPND_IMM, .reg = WS_NOREG, .sym = WS_NOSYM};
            in.nsrc = 3;
        }
    } else if (!is_punct(p, ';')) {
        bool hasdst = op_has_dst(&in);
        int idx = 0;
        do {
            const ws_token *at = CUR(p);
            litinfo li;
            bool isdst = hasdst && idx == 0;
            int si = isdst ? -1 : in.nsrc;
            if (!isdst && in.nsrc >= WS_MAX_SRC) fail_at(p, at, "too many operands");
            ws_operand o = parse_operand(p, &in, si, &li, op == WS_OP_BRA && !isdst);
            if (isdst) {
                if (o.kind == WS_OPND_IMM || o.kind == WS_OPND_SYM || o.kind == WS_OPND_SREG)
                    fail_at(p, at, "expected a destination register");
                in.dst[0] = o;
                in.ndst = 1;
                if (accept_punct(p, '|')) {
                    const ws_token *t2 = expect_ident(p, "a second destination register");
                    in.dst[1] = reg_operand(p, t2, false);
                    in.ndst = 2;
                }
            } else {
                lits[nlit] = li;
                lits[nlit].kind = li.kind;
                in.src[in.nsrc] = o;
                if (li.kind != LIT_NONE)
                    in.src[in.nsrc].imm = lit_value(li.kind, li.raw, li.neg, src_imm_type(&in, in.nsrc));
                nlit++;
                in.nsrc++;
            }
            idx++;
        } while (accept_punct(p, ','));
    }
    (void)lits;
    expect_punct(p, ';');
    if (op == WS_OP_BRA && (in.nsrc != 1 || in.src[0].kind != WS_OPND_LABEL))
        fail_at(p, ot, "bra needs one label operand (indirect branches are not supported)");
    f = FN(p);
    f->insts[f->ninsts++] = in;
    p->pend_args = p->pend_rets = NULL; /* now owned by the module */
}

/* A video operand's selector (ir.h) from its text after the dot: role 0 is
 * d, 1 and 2 are a and b. -1 if it is not one this form has. */
static int video_sel(const ws_inst *in, int role, const char *s, size_t n)
{
    if (n < 2 || (s[0] != 'b' && s[0] != 'h')) return -1;
    unsigned nd = (unsigned)(n - 1);
    for (unsigned k = 1; k < n; k++)
        if (s[k] < '0' || s[k] > '7') return -1;
    bool half = s[0] == 'h';
    if (in->vec == 1) { /* one byte or half-word */
        unsigned v = (unsigned)(s[1] - '0');
        if (nd != 1 || v > (half ? 1u : 3u) || (in->op >= WS_OP_VSHL && in->op != WS_OP_VMAD && role == 2))
            return -1;
        return (half ? WS_VSEL_H0 : WS_VSEL_B0) + (int)v;
    }
    if (half != (in->vec == 2)) return -1;
    if (role == 0) { /* mask: the elements written, any order of distinct digits */
        unsigned m = 0;
        for (unsigned k = 1; k < n; k++) {
            unsigned v = (unsigned)(s[k] - '0');
            if (v >= in->vec || (m >> v & 1)) return -1;
            m |= 1u << v;
        }
        return WS_VSEL_MASK | (int)m;
    }
    if (nd != in->vec) return -1;
    int sel = WS_VSEL_LIST;
    for (unsigned i = 0; i < nd; i++) { /* the last digit is element 0 */
        unsigned v = (unsigned)(s[n - 1 - i] - '0');
        if (v >= 2 * in->vec) return -1;
        sel |= (int)(v << (3 * i));
    }
    return sel;
}

/* Video operands: d[.dsel or .mask], {-}a[.asel], {-}b[.bsel][, {-}c]. */
static void parse_video(P *p, const ws_token *ot, ws_inst *in)
{
    int idx = 0;
    do {
        const ws_token *at = CUR(p);
        bool neg = false;
        if (in->op == WS_OP_VMAD && idx > 0 && is_punct(p, '-') && p->t[p->pos + 1].kind == TK_IDENT) {
            p->pos++;
            neg = true;
            at = CUR(p);
        }
        ws_operand o;
        const char *dot = at->kind == TK_IDENT ? memchr(at->text, '.', at->len) : NULL;
        if (dot) {
            p->pos++;
            ws_token rt = *at;
            rt.len = (uint32_t)(dot - at->text);
            o = reg_operand(p, &rt, true);
            int sel = video_sel(in, idx > 2 ? 3 : idx, dot + 1, (size_t)(at->text + at->len - dot - 1));
            if (sel < 0 || idx > 2)
                UNSUPPORTED_AT(p, at, "unsupported instruction '%.*s' (line %u): selector '%.*s' on operand %d",
                               (int)ot->len, ot->text, ot->line, (int)(at->text + at->len - dot), dot, idx);
            o.imm = sel;
        } else {
            litinfo li;
            o = parse_operand(p, in, idx ? in->nsrc : -1, &li, false);
            if (li.kind != LIT_NONE) o.imm = lit_value(li.kind, li.raw, li.neg, in->type);
            else if (o.kind != WS_OPND_REG) fail_at(p, at, "expected a register or an immediate");
        }
        if (neg && o.kind != WS_OPND_REG) fail_at(p, at, "expected a register after '-'");
        o.neg = neg;
        if (idx == 0) {
            if (o.kind != WS_OPND_REG) fail_at(p, at, "expected a destination register");
            in->dst[0] = o, in->ndst = 1;
        } else {
            if (in->nsrc >= 3) fail_at(p, at, "too many operands");
            in->src[in->nsrc++] = o;
        }
        idx++;
    } while (accept_punct(p, ','));
    if (in->ndst != 1 || in->nsrc < 2) fail_at(p, ot, "'%.*s' expects d, a, b[, c]", (int)ot->len, ot->text);
    if (in->dst[0].imm && in->nsrc < 3)
        fail_at(p, ot, "'%.*s': a destination selector merges into c, which is missing", (int)ot->len, ot->text);
    if (in->dst[0].imm && in->boolop && in->vec == 1)
        fail_at(p, ot, "'%.*s': a merge (d.sel) and a secondary operation exclude each other", (int)ot->len,
                ot->text);
    bool negs = in->src[0].neg || in->src[1].neg || (in->nsrc > 2 && in->src[2].neg);
    if (in->op == WS_OP_VMAD && (in->nsrc < 3 || (negs && (in->sub & WS_VMAD_PO)) ||
                                 ((in->src[0].neg ^ in->src[1].neg) && in->src[2].neg)))
        UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u): vmad needs c, and negates either the "
                       "product or c (none with .po)", (int)ot->len, ot->text, ot->line);
}

/* wmma.* and mma.sync (mma.h): the modifiers, then fragments '{...}' of up
 * to 8 registers, an address and a stride. The fragment registers go to
 * call_args (ir.h). */
static void parse_mma(P *p, const ws_token *ot, ws_inst *in)
{
    const char *dot = memchr(ot->text, '.', ot->len);
    const char *why = dot ? ws_mma_decode(in, in->op == WS_OP_WMMA, dot, (size_t)(ot->text + ot->len - dot))
                          : "no modifiers";
    if (why)
        UNSUPPORTED_AT(p, ot, "unsupported instruction '%.*s' (line %u): %s", (int)ot->len, ot->text, ot->line,
                       why);
    uint32_t regs[64], nr = 0;
    unsigned nfrags = 0, nmem = 0;
    bool mma = in->sub == WS_MMA_MMA, store = in->sub == WS_MMA_STORE_D;
    do {
        const ws_token *at = CUR(p);
        if (accept_punct(p, '{')) {
            unsigned want = mma ? ws_mma_frag_regs(in, nfrags == 0 ? WS_FRAG_D : nfrags - 1)
                                : ws_mma_frag_regs(in, ws_mma_ldst_frag(in));
            unsigned k = 0;
            do {
                const ws_token *rt = expect_ident(p, "a fragment register");
                ws_operand r = reg_operand(p, rt, true);
                if (k >= want || nr >= 64) fail_at(p, rt, "expected %u registers in this fragment", want);
                regs[nr++] = r.reg;
                k++;
            } while (accept_punct(p, ','));
            expect_punct(p, '}');
            if (k != want) fail_at(p, at, "expected %u registers in this fragment, found %u", want, k);
            nfrags++;
            continue;
        }
        litinfo li;
        ws_operand o = parse_operand(p, in, in->nsrc, &li, false);
        if (o.kind == WS_OPND_MEM && !mma && !nmem++) {
            if (store) in->dst[0] = o, in->ndst = 1;
            else in->src[in->nsrc++] = o;
        } else if ((o.kind == WS_OPND_REG || o.kind == WS_OPND_IMM) && !mma && nmem && in->nsrc < 2) {
            if (li.kind != LIT_NONE) o.imm = lit_value(li.kind, li.raw, li.neg, WS_T_U32);
            in->src[in->nsrc++] = o;
        } else {
            fail_at(p, at, "unexpected operand");
        }
    } while (accept_punct(p, ','));
    expect_punct(p, ';');
    if (nfrags != (mma ? 4u : 1u) || (!mma && !nmem))
        fail_at(p, ot, "'%.*s' expects %s", (int)ot->len, ot->text,
                mma ? "four fragments (D, A, B, C)" : "a fragment and an address");
    in->call_args = p->pend_args = xrealloc(p, NULL, nr * sizeof *regs);
    memcpy(in->call_args, regs, nr * sizeof *regs);
    in->ncall_args = (uint8_t)nr;
}

/* ---- functions -------------------------------------------------------- */
typedef struct {
    const ws_token *name;
    decl_head h;
    uint64_t size;
} pdecl;

/* ( .param .T name [N], ... ) — also .reg params of old-style .func. */
static pdecl *parse_param_list(P *p, int slot, uint32_t *count)
{
    pdecl *v = NULL;
    uint32_t n = 0, cap = 0;
    expect_punct(p, '(');
    if (!is_punct(p, ')')) {
        do {
            if (!is_dir(p, ".param") && !is_dir(p, ".reg")) fail_expected(p, "'.param'");
            p->pos++;
            if (n >= cap) {
                cap = cap ? cap * 2 : 8;
                v = xrealloc(p, v, cap * sizeof *v);
                p->pend[slot] = v; /* freed by ws_ptx_parse if an error unwinds */
            }
            pdecl d;
            d.h = parse_decl_head(p);
            d.name = expect_ident(p, "a parameter name");
            bool unsized;
            d.size = parse_dims(p, &unsized) * ws_type_size((ws_type)d.h.type) * d.h.vec;
            v[n++] = d;
        } while (accept_punct(p, ','));
    }
    expect_punct(p, ')');
    *count = n;
    return v;
}

/* Create (or, for a re-declared function, reuse) the param symbols. */
static uint32_t *instantiate_params(P *p, pdecl *d, uint32_t n, uint32_t *old, uint32_t oldn,
                                    bool kernel, uint32_t *param_size)
{
    uint32_t *idx = p->pend_idx = n ? xrealloc(p, NULL, n * sizeof *idx) : NULL;
    uint64_t off = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t esz = ws_type_size((ws_type)d[i].h.type) * d[i].h.vec;
        uint32_t align = d[i].h.align ? d[i].h.align : esz;
        uint32_t si;
        if (old && oldn == n) {
            si = old[i];
            ws_symbol *s = &p->m->syms[si];
            free(s->name);
            s->name = xstrndup(p, d[i].name->text, d[i].name->len);
            s->type = (uint8_t)d[i].h.type;
            s->align = align ? align : 1;
            s->size = d[i].size;
            bind(p, d[i].name, s->name, B_SYM, si);
        } else {
            si = new_sym(p, d[i].name, d[i].name->text, d[i].name->len, WS_SPACE_PARAM,
                         d[i].h.type, align, d[i].size, p->cf);
        }
        idx[i] = si;
        ws_symbol *s = &p->m->syms[si];
        if (kernel) {
            s->is_kernel_param = true;
            s->offset = align_up(off, s->align);
            off = s->offset + s->size;
        } else {
            frame_place(p, s);
        }
    }
    if (param_size) *param_size = (uint32_t)off;
    p->pend_idx = NULL; /* now the caller's */
    return idx;
}

static void skip_line(P *p, uint32_t line)
{
    while (CUR(p)->kind != TK_EOF && CUR(p)->line == line) p->pos++;
}

/* One statement of a function body: a directive, a label or an instruction. */
static void parse_statement(P *p)
{
    const ws_token *t = CUR(p);
    if (t->kind == TK_DIR) {
        p->pos++;
        if (tok_is(t, TK_DIR, ".reg")) {
            parse_reg_decl(p);
        } else if (tok_is(t, TK_DIR, ".local") || tok_is(t, TK_DIR, ".shared") ||
                   tok_is(t, TK_DIR, ".param") || tok_is(t, TK_DIR, ".global") ||
                   tok_is(t, TK_DIR, ".const")) {
            parse_var_decl(p, t, space_from(t->text + 1, t->len - 1), p->cf, false);
        } else if (tok_is(t, TK_DIR, ".pragma")) {
            while (CUR(p)->kind == TK_STRING || is_punct(p, ',')) p->pos++;
            expect_punct(p, ';');
        } else if (tok_is(t, TK_DIR, ".loc") || tok_is(t, TK_DIR, ".file")) {
            skip_line(p, t->line);
        } else {
            fail_at(p, t, "unsupported directive '%.*s' in function body (line %u)", (int)t->len,
                    t->text, t->line);
        }
        return;
    }
    if (t->kind == TK_IDENT && p->t[p->pos + 1].kind == TK_PUNCT && p->t[p->pos + 1].text[0] == ':') {
        p->pos += 2;
        if (is_dir(p, ".branchtargets")) { /* a brx.idx table: labels resolved at the end */
            p->pos++;
            GROW(p, p->btabs, p->nbtabs, p->cap_btabs);
            p->btabs[p->nbtabs].name = (uint32_t)(t - p->t);
            p->btabs[p->nbtabs].first = p->nbtab_toks;
            uint32_t n = 0;
            do {
                const ws_token *lt = expect_ident(p, "a label");
                GROW(p, p->btab_toks, p->nbtab_toks, p->cap_btab_toks);
                p->btab_toks[p->nbtab_toks++] = (uint32_t)(lt - p->t);
                n++;
            } while (accept_punct(p, ','));
            expect_punct(p, ';');
            p->btabs[p->nbtabs++].n = n;
            return;
        }
        if (is_dir(p, ".calltargets")) {
            /* The functions an indirect call may reach: each must be one; the
               call goes where its register points, as the ISA leaves a target
               outside the list undefined. */
            p->pos++;
            do {
                const ws_token *ft = expect_ident(p, "a function name");
                binding *b = tab_find(p->names, ft->text, ft->len);
                if (!b || b->kind != B_FUNC)
                    fail_at(p, ft, "'%.*s' in .calltargets is not a function", (int)ft->len, ft->text);
            } while (accept_punct(p, ','));
            expect_punct(p, ';');
            return;
        }
        if (is_dir(p, ".callprototype")) {
            /* Indirect-call prototype: only its name matters. */
            while (!is_punct(p, ';') && CUR(p)->kind != TK_EOF) p->pos++;
            expect_punct(p, ';');
            return;
        }
        binding *old = tab_find(p->labels, t->text, t->len);
        if (old) fail_at(p, t, "label '%.*s' defined twice", (int)t->len, t->text);
        nametab *lt = p->labels;
        GROW(p, lt->b, lt->n, lt->cap);
        uint32_t h = hash_name(t->text, t->len);
        binding *b = &lt->b[lt->n];
        /* Label names point into the source text, which outlives the parse;
           they are compared by length, so store a NUL-terminated copy. */
        b->name = xstrndup(p, t->text, t->len);
        b->hash = h;
        b->kind = B_LABEL;
        b->depth = 0;
        b->idx = FN(p)->ninsts;
        b->next = lt->heads[h & (NBUCKETS - 1)];
        lt->heads[h & (NBUCKETS - 1)] = (int32_t)lt->n;
        lt->n++;
        return;
    }
    uint16_t guard = WS_NOREG;
    bool gneg = false;
    if (accept_punct(p, '@')) {
        gneg = accept_punct(p, '!');
        const ws_token *gt = expect_ident(p, "a guard predicate");
        binding *b = tab_find(p->names, gt->text, gt->len);
        if (!b || b->kind != B_PRED)
            fail_at(p, gt, "expected a predicate register as guard, found '%.*s'", (int)gt->len, gt->text);
        guard = (uint16_t)b->idx;
    }
    if (CUR(p)->kind != TK_IDENT) fail_expected(p, "an instruction");
    parse_instruction(p, guard, gneg);
}

/* Run parse_statement; false when it raised an error (p->jb restored). */
static bool try_statement(P *p)
{
    jmp_buf outer;
    memcpy(outer, p->jb, sizeof outer);
    if (setjmp(p->jb)) {
        memcpy(p->jb, outer, sizeof outer);
        return false;
    }
    parse_statement(p);
    memcpy(p->jb, outer, sizeof outer);
    return true;
}

typedef struct { size_t pos; uint32_t nfix, nrfix; } stmt_mark; /* where a statement began */

/* A statement failed (message in p->diag): skip it when the options allow,
   undoing what it left half done; false to let the error end the parse. */
static bool skip_statement(P *p, stmt_mark mk)
{
    bool unsup = p->err_unsupported;
    if (!(unsup && p->opt.defer_unsupported) && !p->opt.keep_going) return false;
    p->nfix = mk.nfix; /* label and initialiser references of the skipped statement */
    p->nrfix = mk.nrfix;
    free(p->pend_args);
    free(p->pend_rets);
    free(p->pend_init);
    p->pend_args = p->pend_rets = NULL;
    p->pend_init = NULL;
    add_problem(p);
    if (unsup) { /* a trap in its place, so that nothing runs it by accident */
        ws_func *f = FN(p);
        GROW(p, f->insts, f->ninsts, p->cap_insts);
        ws_inst *in = &f->insts[f->ninsts++];
        memset(in, 0, sizeof *in);
        in->op = WS_OP_TRAP;
        in->sub = WS_TRAP_UNSUPPORTED;
        in->guard = WS_NOREG;
        in->reconv = -1;
        in->vec = 1;
        in->line = p->diag->line;
        if (!f->unsupported) f->unsupported = p->m->nproblems;
    }
    /* from the statement's start to its ';', over braces inside it (vector
       operands, initialisers); a '}' it did not open ends the block */
    int depth = 0;
    for (p->pos = mk.pos; CUR(p)->kind != TK_EOF; p->pos++) {
        if (is_punct(p, '{')) depth++;
        else if (is_punct(p, '}') && depth-- == 0) break;
        else if (is_punct(p, ';') && depth == 0) { p->pos++; break; }
    }
    return true;
}

static void parse_body(P *p)
{
    uint32_t base_depth = p->depth;
    for (;;) {
        const ws_token *t = CUR(p);
        if (t->kind == TK_EOF) fail_expected(p, "'}'");
        if (accept_punct(p, '{')) {
            push_scope(p);
            continue;
        }
        if (accept_punct(p, '}')) {
            if (p->depth == base_depth) return;
            pop_scope(p);
            continue;
        }
        if (!p->opt.defer_unsupported && !p->opt.keep_going) {
            parse_statement(p);
            continue;
        }
        stmt_mark mk = {p->pos, p->nfix, p->nrfix};
        p->err_unsupported = false;
        if (!try_statement(p) && !skip_statement(p, mk)) longjmp(p->jb, 1);
    }
}

static bool tok_eq(const ws_token *a, const ws_token *b)
{
    return a->len == b->len && !memcmp(a->text, b->text, a->len);
}

/* Video instructions: the SIMD width from the name (vadd4), the types in
 * (dtype, atype, btype) order, and the forms warpsim runs: no operand
 * selectors (a.b0, d.h1 ...) and no masks (the defaults). */
static void video_form(P *p, const ws_token *ot, ws_inst *in, const char *s, size_t blen, int ntypes)
{
    char last = s[blen - 1];
    in->vec = last == '2' ? 2 : last == '4' ? 4 : 1;
    if (in->op == WS_OP_VSET) { /* vset.atype.btype.cmp: the result is u32 */
        in->ttype = in->stype;
        in->stype = in->type;
        in->type = WS_T_U32;
        ntypes++;
    }
    bool ok = ntypes == 3 && (in->op != WS_OP_VSET || in->cmp);
    for (int k = 0; k < 3; k++) {
        int t = k == 0 ? in->type : k == 1 ? in->stype : in->ttype;
        ok = ok && (t == WS_T_U32 || t == WS_T_S32);
    }
    if (!ok) fail_at(p, ot, "expected '%.*s' with .u32/.s32 types%s", (int)ot->len, ot->text,
                     in->op == WS_OP_VSET ? " and a comparison" : "");
    if (in->op >= WS_OP_VSHL && (in->vec > 1 || (in->op != WS_OP_VMAD && in->ttype != WS_T_U32)))
        fail_at(p, ot, "'%.*s': vshl/vshr/vmad have no SIMD forms, and vshl/vshr shift by a .u32", (int)ot->len,
                ot->text);
    if ((in->op == WS_OP_VMAD && in->boolop) || ((in->sub & WS_VMAD_SHR7) && (in->sub & WS_VMAD_SHR15)))
        fail_at(p, ot, "'%.*s': vmad takes no secondary operation, and one scale", (int)ot->len, ot->text);
    if ((in->vec > 1 && in->boolop > WS_VOP2_ADD) || (in->boolop == WS_VOP2_ADD && (in->flags & WS_F_SAT) && in->vec > 1))
        fail_at(p, ot, "'%.*s': SIMD video instructions take only .add, and not with .sat", (int)ot->len, ot->text);
}

/* Give each brx.idx of f its table: call_args[0] = the number of targets,
 * then their instruction indices. */
static void resolve_brx(P *p, ws_func *f)
{
    for (uint32_t i = 0; i < p->nbxfix; i++) {
        const ws_token *nt = &p->t[p->bxfix[i].tok];
        uint32_t k = 0;
        while (k < p->nbtabs && !tok_eq(&p->t[p->btabs[k].name], nt)) k++;
        if (k == p->nbtabs) fail_at(p, nt, "undefined .branchtargets table '%.*s'", (int)nt->len, nt->text);
        uint32_t n = p->btabs[k].n;
        ws_inst *in = &f->insts[p->bxfix[i].inst];
        in->call_args = xrealloc(p, NULL, (n + 1) * sizeof *in->call_args);
        in->call_args[0] = n;
        for (uint32_t j = 0; j < n; j++) {
            const ws_token *lt = &p->t[p->btab_toks[p->btabs[k].first + j]];
            binding *b = tab_find(p->labels, lt->text, lt->len);
            if (!b) fail_at(p, lt, "undefined label '%.*s'", (int)lt->len, lt->text);
            in->call_args[1 + j] = b->idx;
        }
    }
    p->nbxfix = p->nbtabs = p->nbtab_toks = 0;
}

static void free_labels(P *p)
{
    for (uint32_t i = 0; i < p->labels->n; i++) free((char *)p->labels->b[i].name);
    tab_pop_to(p->labels, 0);
}

static bool is_terminator(const ws_inst *in)
{
    return (in->op == WS_OP_BRA && in->guard == WS_NOREG) || in->op == WS_OP_RET ||
           in->op == WS_OP_EXIT;
}

static void parse_function(P *p, const ws_token *kw, bool is_entry, bool is_extern)
{
    pdecl *rets = NULL, *params = NULL;
    uint32_t nrets = 0, nparams = 0;
    if (!is_entry && is_punct(p, '(')) rets = parse_param_list(p, 0, &nrets);
    const ws_token *nt = CUR(p);
    if (nt->kind != TK_IDENT) fail_expected(p, "a function name");
    p->pos++;
    if (is_punct(p, '(')) params = parse_param_list(p, 1, &nparams);

    ws_module *m = p->m;
    binding *fb = tab_find(p->names, nt->text, nt->len);
    int32_t fi;
    if (fb && fb->kind == B_FUNC) {
        fi = (int32_t)fb->idx;
        if (m->funcs[fi].has_body) {
            fail_at(p, nt, "function '%.*s' defined twice", (int)nt->len, nt->text);
        }
    } else {
        if (fb) {
            fail_at(p, nt, "'%.*s' is already declared as a variable", (int)nt->len, nt->text);
        }
        GROW(p, m->funcs, m->nfuncs, p->cap_funcs);
        fi = (int32_t)m->nfuncs++;
        ws_func *f = &m->funcs[fi];
        memset(f, 0, sizeof *f);
        f->name = xstrndup(p, nt->text, nt->len);
        f->ptxas_regs = f->ptxas_smem = f->ptxas_lmem = f->ptxas_cmem = -1;
        bind(p, nt, f->name, B_FUNC, (uint32_t)fi);
    }
    ws_func *f = &m->funcs[fi];
    f->is_entry = is_entry;
    f->is_extern = is_extern;
    f->builtin = is_extern ? (uint8_t)ws_builtin_of(f->name) : WS_BUILTIN_NONE;
    f->line = kw->line;
    p->cf = fi;
    p->cap_insts = 0;
    p->cap_regs = 0;
    p->cap_preds = 0;
    p->frame_cur = p->frame_max = 0;
    push_scope(p);
    uint32_t *ri = instantiate_params(p, rets, nrets, f->rets, f->nrets, false, NULL);
    f = &m->funcs[fi];
    free(f->rets);
    f->rets = ri;
    f->nrets = nrets;
    uint32_t psize = 0;
    uint32_t *pi = instantiate_params(p, params, nparams, f->params, f->nparams, is_entry, &psize);
    f = &m->funcs[fi];
    free(f->params);
    f->params = pi;
    f->nparams = nparams;
    f->param_size = psize;
    free(rets);
    free(params);
    p->pend[0] = p->pend[1] = NULL;

    /* Performance directives. */
    for (;;) {
        const ws_token *t = CUR(p);
        if (is_dir(p, ".maxntid") || is_dir(p, ".reqntid")) {
            p->pos++;
            uint32_t *dst = tok_is(t, TK_DIR, ".maxntid") ? f->maxntid : f->reqntid;
            dst[0] = dst[1] = dst[2] = 1;
            int k = 0;
            do {
                if (k >= 3) fail_at(p, CUR(p), "too many dimensions");
                dst[k++] = (uint32_t)expect_uint(p, "a thread count");
            } while (accept_punct(p, ','));
        } else if (is_dir(p, ".minnctapersm")) {
            p->pos++;
            f->minnctapersm = (uint32_t)expect_uint(p, "a CTA count");
        } else if (is_dir(p, ".maxnreg")) {
            p->pos++;
            f->maxnreg = (uint32_t)expect_uint(p, "a register count");
        } else if (is_dir(p, ".maxnctapersm")) {
            p->pos++;
            expect_uint(p, "a CTA count");
        } else if (is_dir(p, ".noreturn")) {
            p->pos++;
        } else if (is_dir(p, ".explicitcluster")) {
            p->pos++;
            f->explicit_cluster = true;
        } else if (is_dir(p, ".reqnctapercluster")) {
            p->pos++;
            uint32_t *dst = f->reqnctapercluster;
            dst[0] = dst[1] = dst[2] = 1;
            int k = 0;
            do {
                if (k >= 3) fail_at(p, CUR(p), "too many dimensions");
                const ws_token *ct = CUR(p);
                dst[k] = (uint32_t)expect_uint(p, "a CTA count");
                if (!dst[k++]) fail_at(p, ct, "a cluster dimension must be at least 1");
            } while (accept_punct(p, ','));
        } else if (is_dir(p, ".maxclusterrank")) {
            p->pos++; /* a bound the launch must respect; launches name their shape */
            expect_uint(p, "a CTA count");
        } else if (is_dir(p, ".pragma")) {
            p->pos++;
            while (CUR(p)->kind == TK_STRING || is_punct(p, ',')) p->pos++;
            expect_punct(p, ';');
        } else {
            break;
        }
    }
    if (accept_punct(p, ';')) {
        pop_scope(p);
        f->frame_size = (uint32_t)p->frame_max;
        return;
    }
    if (!is_punct(p, '{')) fail_expected(p, "'{' or ';'");
    const ws_token *open = advance(p);
    if (is_extern) fail_at(p, open, ".extern function '%s' has a body", f->name);
    push_scope(p);
    parse_body(p);
    pop_scope(p);
    pop_scope(p);
    f = &m->funcs[fi];
    f->has_body = true;
    /* Falling off the end of a body returns. Also covers labels at the end. */
    bool need_ret = f->ninsts == 0 || !is_terminator(&f->insts[f->ninsts - 1]);
    for (uint32_t i = 0; i < p->labels->n && !need_ret; i++)
        if (p->labels->b[i].idx == f->ninsts) need_ret = true;
    if (need_ret) {
        GROW(p, f->insts, f->ninsts, p->cap_insts);
        ws_inst *in = &f->insts[f->ninsts++];
        memset(in, 0, sizeof *in);
        in->op = WS_OP_RET;
        in->guard = WS_NOREG;
        in->reconv = -1;
        in->vec = 1;
        in->line = p->t[p->pos - 1].line;
    }
    for (uint32_t i = 0; i < p->nfix; i++) {
        const ws_token *lt = &p->t[p->fix[i].tok];
        binding *b = tab_find(p->labels, lt->text, lt->len);
        if (!b && p->opt.keep_going) { /* listed; the branch keeps target 0 */
            diag_at(p, lt, "undefined label '%.*s'", (int)lt->len, lt->text);
            add_problem(p);
            continue;
        }
        if (!b) fail_at(p, lt, "undefined label '%.*s'", (int)lt->len, lt->text);
        f->insts[p->fix[i].inst].src[p->fix[i].src].imm = b->idx;
    }
    p->nfix = 0;
    resolve_brx(p, f);
    free_labels(p);
    f->frame_size = (uint32_t)p->frame_max;
    char err[256];
    if (ws_cfg_build(f, err, sizeof err)) fail_at(p, open, "%s", err);
    if (!ws_func_prepare(f)) fail_at(p, open, "out of memory");
}

/* ---- module ---------------------------------------------------------------- */
static void skip_section(P *p)
{
    /* .section name { ... } with nested braces */
    while (!is_punct(p, '{') && CUR(p)->kind != TK_EOF) p->pos++;
    int depth = 0;
    do {
        if (CUR(p)->kind == TK_EOF) fail_expected(p, "'}' closing .section");
        if (is_punct(p, '{')) depth++;
        else if (is_punct(p, '}')) depth--;
        p->pos++;
    } while (depth > 0);
}

static void parse_module(P *p)
{
    ws_module *m = p->m;
    while (CUR(p)->kind != TK_EOF) {
        const ws_token *t = CUR(p);
        if (t->kind != TK_DIR) fail_expected(p, "a directive");
        p->pos++;
        if (tok_is(t, TK_DIR, ".version")) {
            const ws_token *v = CUR(p);
            if (v->kind != TK_FLOAT && v->kind != TK_INT) fail_expected(p, "a version number");
            p->pos++;
            unsigned a = 0, b = 0;
            /* token text is not NUL-terminated: the module may end right after it */
            char vb[32];
            snprintf(vb, sizeof vb, "%.*s", (int)v->len, v->text);
            if (sscanf(vb, "%u.%u", &a, &b) < 1) fail_at(p, v, "malformed version");
            m->version_major = a;
            m->version_minor = b;
            if (a > 9) fail_at(p, v, "unsupported PTX version %u.%u (warpsim reads up to 9.x)", a, b);
        } else if (tok_is(t, TK_DIR, ".target")) {
            const ws_token *tt = expect_ident(p, "a target name");
            snprintf(m->target, sizeof m->target, "%.*s", (int)tt->len, tt->text);
            while (accept_punct(p, ',')) expect_ident(p, "a target option");
        } else if (tok_is(t, TK_DIR, ".address_size")) {
            const ws_token *at = CUR(p);
            uint64_t a = expect_uint(p, "32 or 64");
            if (a != 32 && a != 64) fail_at(p, at, "expected 32 or 64, found %llu", (unsigned long long)a);
            m->address_size = (uint32_t)a;
        } else if (tok_is(t, TK_DIR, ".file")) {
            expect_uint(p, "a file number");
            if (CUR(p)->kind != TK_STRING) fail_expected(p, "a file name string");
            p->pos++;
            while (accept_punct(p, ',')) expect_uint(p, "a number");
        } else if (tok_is(t, TK_DIR, ".loc")) {
            skip_line(p, t->line);
        } else if (tok_is(t, TK_DIR, ".section")) {
            skip_section(p);
        } else if (tok_is(t, TK_DIR, ".pragma")) {
            while (CUR(p)->kind == TK_STRING || is_punct(p, ',')) p->pos++;
            expect_punct(p, ';');
        } else {
            /* [linkage] (.entry | .func | state-space variable) */
            bool is_extern = false;
            const ws_token *k = t;
            while (tok_is(k, TK_DIR, ".visible") || tok_is(k, TK_DIR, ".weak") ||
                   tok_is(k, TK_DIR, ".extern") || tok_is(k, TK_DIR, ".common")) {
                if (tok_is(k, TK_DIR, ".extern")) is_extern = true;
                k = CUR(p);
                if (k->kind != TK_DIR) fail_expected(p, "'.entry', '.func' or a state space");
                p->pos++;
            }
            if (tok_is(k, TK_DIR, ".entry") || tok_is(k, TK_DIR, ".func")) {
                parse_function(p, k, tok_is(k, TK_DIR, ".entry"), is_extern);
            } else if (tok_is(k, TK_DIR, ".global") || tok_is(k, TK_DIR, ".const") ||
                       tok_is(k, TK_DIR, ".shared")) {
                parse_var_decl(p, k, space_from(k->text + 1, k->len - 1), -1, is_extern);
            } else {
                fail_at(p, k, "unsupported directive '%.*s' (line %u)", (int)k->len, k->text, k->line);
            }
        }
    }
    for (uint32_t i = 0; i < p->nrfix; i++) {
        const ws_token *nt = &p->t[p->rfix[i].tok];
        binding *b = tab_find(p->names, nt->text, nt->len);
        if (!b || (b->kind != B_SYM && b->kind != B_FUNC))
            fail_at(p, nt, "undefined symbol '%.*s' in initialiser", (int)nt->len, nt->text);
        m->syms[p->rfix[i].sym].relocs[p->rfix[i].reloc].sym =
            b->kind == B_FUNC ? (b->idx | WS_RELOC_FUNC) : b->idx;
    }
    /* Kernel-own shared variables follow the module-scope ones (see ir.h). */
    for (uint32_t fi = 0; fi < m->nfuncs; fi++) {
        ws_func *f = &m->funcs[fi];
        if (!f->is_entry) continue;
        uint64_t off = m->shared_size;
        for (uint32_t i = 0; i < m->nsyms; i++) {
            ws_symbol *s = &m->syms[i];
            if (s->space != WS_SPACE_SHARED || s->func != (int32_t)fi || s->is_extern) continue;
            s->offset = align_up(off, s->align);
            off = s->offset + s->size;
        }
        f->static_shared = (uint32_t)off;
        f->dyn_shared_align = p->max_extern_shared_align;
    }
}

ws_module *ws_ptx_parse(const char *text, size_t len, const char *filename, ws_diag *diag)
{
    return ws_ptx_parse_ex(text, len, filename, NULL, diag);
}

ws_module *ws_ptx_parse_ex(const char *text, size_t len, const char *filename,
                           const ws_parse_opts *opts, ws_diag *diag)
{
    ws_diag dummy;
    if (!diag) diag = &dummy;
    memset(diag, 0, sizeof *diag);
    if (!filename) filename = "<ptx>";
    ws_lexed lx;
    char msg[300];
    uint32_t line = 0, col = 0;
    if (ws_lex(text, len, &lx, msg, sizeof msg, &line, &col)) {
        snprintf(diag->msg, sizeof diag->msg, "%s:%u:%u: error: %s", filename, line, col, msg);
        diag->line = line;
        diag->col = col;
        return NULL;
    }
    P *p = calloc(1, sizeof *p);
    ws_module *m = calloc(1, sizeof *m);
    nametab *names = malloc(sizeof *names), *labels = malloc(sizeof *labels);
    if (!p || !m || !names || !labels) {
        free(p); free(m); free(names); free(labels);
        ws_lexed_free(&lx);
        snprintf(diag->msg, sizeof diag->msg, "%s: error: out of memory", filename);
        return NULL;
    }
    tab_init(names);
    tab_init(labels);
    p->t = lx.toks;
    p->n = lx.ntoks;
    p->file = filename;
    p->diag = diag;
    p->m = m;
    p->names = names;
    p->labels = labels;
    p->cf = -1;
    if (opts) p->opt = *opts;
    m->address_size = 64;
    m->filename = strdup(filename);
    ws_module *result = NULL;
    if (setjmp(p->jb) == 0) {
        parse_module(p);
        result = m;
    } else {
        /* Keep function bodies consistent for ws_module_free: the register
           name arrays may be partially filled but counts match. */
        ws_module_free(m);
    }
    free_labels(p);
    free(p->pend[0]);
    free(p->pend[1]);
    free(p->pend_args);
    free(p->pend_rets);
    free(p->rfix);
    free(p->pend_init);
    free(p->pend_idx);
    free(names->b);
    free(labels->b);
    free(names);
    free(labels);
    free(p->scopes);
    free(p->fix);
    free(p->btabs);
    free(p->btab_toks);
    free(p->bxfix);
    free(p);
    ws_lexed_free(&lx);
    return result;
}
