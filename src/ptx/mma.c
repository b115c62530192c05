/* Tensor-core instruction forms and fragment layouts (see mma.h). */
#include "ptx/mma.h"

#include <string.h>

static const struct { const char *name; unsigned m, n, k; bool wmma; } shapes[WS_MMA_NSHAPES] = {
    [WS_MMA_M16N16K16] = {"m16n16k16", 16, 16, 16, true},
    [WS_MMA_M32N8K16] = {"m32n8k16", 32, 8, 16, true},
    [WS_MMA_M8N32K16] = {"m8n32k16", 8, 32, 16, true},
    [WS_MMA_M16N16K8] = {"m16n16k8", 16, 16, 8, true},
    [WS_MMA_M8N8K4] = {"m8n8k4", 8, 8, 4, true}, /* f64: both wmma and mma.sync */
    [WS_MMA_M16N8K16] = {"m16n8k16", 16, 8, 16, false},
    [WS_MMA_M16N8K8] = {"m16n8k8", 16, 8, 8, false},
    [WS_MMA_M16N8K32] = {"m16n8k32", 16, 8, 32, false},
    [WS_MMA_M16N8K4] = {"m16n8k4", 16, 8, 4, false},
    [WS_MMA_M8N8K16] = {"m8n8k16", 8, 8, 16, false},
    [WS_MMA_M8N8K32] = {"m8n8k32", 8, 8, 32, true},   /* s4/u4: wmma and mma.sync */
    [WS_MMA_M8N8K128] = {"m8n8k128", 8, 8, 128, true}, /* b1: wmma and mma.sync */
};

unsigned ws_mma_type_bits(ws_type t)
{
    return t == WS_T_S4 || t == WS_T_U4 ? 4 : t == WS_T_B1 ? 1 : 8 * ws_type_size(t);
}

ws_mma_dims ws_mma_dims_of(unsigned shape)
{
    ws_mma_dims d = {0, 0, 0};
    if (shape > 0 && shape < WS_MMA_NSHAPES) d = (ws_mma_dims){shapes[shape].m, shapes[shape].n, shapes[shape].k};
    return d;
}

const char *ws_mma_shape_name(unsigned shape)
{
    return shape > 0 && shape < WS_MMA_NSHAPES ? shapes[shape].name : "?";
}

static bool eq(const char *s, size_t n, const char *lit) { return strlen(lit) == n && memcmp(s, lit, n) == 0; }

static int type_of(const char *s, size_t n)
{
    static const struct { const char *name; int t; } ts[] = {
        {"f16", WS_T_F16}, {"bf16", WS_T_BF16}, {"tf32", WS_T_B32}, {"f32", WS_T_F32},
        {"f64", WS_T_F64}, {"s8", WS_T_S8}, {"u8", WS_T_U8}, {"s32", WS_T_S32},
        {"e4m3", WS_T_E4M3}, {"e5m2", WS_T_E5M2}, {"s4", WS_T_S4}, {"u4", WS_T_U4}, {"b1", WS_T_B1},
    };
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++)
        if (eq(s, n, ts[i].name)) return ts[i].t;
    return -1;
}

unsigned ws_mma_ldst_frag(const ws_inst *in)
{
    return in->sub == WS_MMA_STORE_D ? WS_FRAG_D : (unsigned)(in->sub - WS_MMA_LOAD_A);
}

ws_type ws_mma_frag_type(const ws_inst *in, unsigned which)
{
    switch (which) {
    case WS_FRAG_A: return (ws_type)in->stype;
    case WS_FRAG_B: return (ws_type)in->ttype;
    case WS_FRAG_C: return (ws_type)in->scope;
    default: return (ws_type)in->type;
    }
}

/* Is (A type, C/D types, shape) a form the ISA has? */
static const char *check_types(const ws_inst *in, bool is_wmma)
{
    ws_type a = (ws_type)in->stype, b = (ws_type)in->ttype, c = (ws_type)in->scope, d = (ws_type)in->type;
    unsigned sh = in->cmp;
    bool fp16 = a == WS_T_F16 || a == WS_T_BF16, i8 = a == WS_T_S8 || a == WS_T_U8;
    bool f8 = a == WS_T_E4M3 || a == WS_T_E5M2, i4 = a == WS_T_S4 || a == WS_T_U4;
    if (i8 ? !(b == WS_T_S8 || b == WS_T_U8) : f8 ? !(b == WS_T_E4M3 || b == WS_T_E5M2)
        : i4 ? !(b == WS_T_S4 || b == WS_T_U4) : a != b)
        return "A and B types differ";
    if (i4 || a == WS_T_B1) { /* m8n8k32 s4/u4, m8n8k128 b1 (.xor/.and.popc): A row, B col */
        if (c != WS_T_S32 || d != WS_T_S32) return "accumulator type (s32 for sub-byte inputs)";
        if (sh != (i4 ? WS_MMA_M8N8K32 : WS_MMA_M8N8K128)) return "shape for sub-byte inputs (m8n8k32, m8n8k128)";
        if ((a == WS_T_B1) != (in->rnd != 0)) return ".b1 takes .xor.popc or .and.popc (and nothing else does)";
        if (a == WS_T_B1 && in->flags & WS_F_SAT) return ".satfinite on .b1";
        if (in->sub == WS_MMA_MMA ? in->boolop != WS_MMA_BCOL
                                  : (in->sub == WS_MMA_LOAD_A && (in->boolop & WS_MMA_ACOL)) ||
                                        (in->sub == WS_MMA_LOAD_B && !(in->boolop & WS_MMA_ACOL)))
            return "sub-byte layouts (A .row, B .col)";
        return NULL;
    }
    if (f8) { /* sm_89: mma.sync.m16n8k32.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32 */
        if (is_wmma || sh != WS_MMA_M16N8K32) return "shape for fp8 inputs (m16n8k32)";
        if (c != WS_T_F32 || d != WS_T_F32) return "accumulator type (f32 for fp8 inputs)";
    } else if (fp16) {
        if (!(c == WS_T_F32 || (a == WS_T_F16 && c == WS_T_F16)) ||
            !(d == WS_T_F32 || (a == WS_T_F16 && d == WS_T_F16)))
            return "accumulator type (f16 or f32 for .f16, f32 for .bf16)";
        if (is_wmma ? !(sh == WS_MMA_M16N16K16 || sh == WS_MMA_M32N8K16 || sh == WS_MMA_M8N32K16)
                    : !(sh == WS_MMA_M16N8K16 || sh == WS_MMA_M16N8K8))
            return "shape for 16-bit inputs";
    } else if (i8) {
        if (c != WS_T_S32 || d != WS_T_S32) return "accumulator type (s32 for 8-bit inputs)";
        if (is_wmma ? !(sh == WS_MMA_M16N16K16 || sh == WS_MMA_M32N8K16 || sh == WS_MMA_M8N32K16)
                    : !(sh == WS_MMA_M16N8K32 || sh == WS_MMA_M16N8K16 || sh == WS_MMA_M8N8K16))
            return "shape for 8-bit inputs";
    } else if (a == WS_T_B32) {
        if (c != WS_T_F32 || d != WS_T_F32) return "accumulator type (f32 for .tf32)";
        if (is_wmma ? sh != WS_MMA_M16N16K8 : !(sh == WS_MMA_M16N8K8 || sh == WS_MMA_M16N8K4))
            return "shape for .tf32";
    } else if (a == WS_T_F64) {
        if (c != WS_T_F64 || d != WS_T_F64 || sh != WS_MMA_M8N8K4) return "form for .f64";
    } else {
        return "input type (sub-byte forms are not supported)";
    }
    if (in->flags & WS_F_SAT && !i8) return ".satfinite on a floating-point form";
    return NULL;
}

const char *ws_mma_decode(ws_inst *in, bool is_wmma, const char *mods, size_t len)
{
    const char *end = mods + len;
    int types[4], ntypes = 0, nlayouts = 0;
    unsigned layouts = 0;
    bool sync = false, frag_named = false;
    in->sub = is_wmma ? 0 : WS_MMA_MMA;
    for (const char *q = mods; q < end;) {
        const char *s = q + 1, *e = memchr(s, '.', (size_t)(end - s));
        if (!e) e = end;
        size_t n = (size_t)(e - s);
        int t;
        unsigned sh;
        q = e;
        for (sh = 1; sh < WS_MMA_NSHAPES; sh++)
            if (eq(s, n, shapes[sh].name)) break;
        if (sh < WS_MMA_NSHAPES) {
            if (in->cmp) return "two shapes";
            if (shapes[sh].wmma != is_wmma && sh != WS_MMA_M8N8K4 && sh != WS_MMA_M8N8K32 && sh != WS_MMA_M8N8K128)
                return "shape";
            in->cmp = (uint8_t)sh;
        } else if ((t = type_of(s, n)) >= 0) {
            if (ntypes == 4) return "too many types";
            types[ntypes++] = t;
        } else if (eq(s, n, "row") || eq(s, n, "col")) {
            if (nlayouts == 2) return "too many layouts";
            if (eq(s, n, "col")) layouts |= 1u << nlayouts;
            nlayouts++;
        } else if (eq(s, n, "sync")) {
            sync = true;
        } else if (eq(s, n, "aligned")) {
        } else if (eq(s, n, "satfinite")) {
            in->flags |= WS_F_SAT;
        } else if (eq(s, n, "rn")) { /* f64: the only rounding there is */
        } else if (eq(s, n, "xor") || eq(s, n, "and")) { /* b1 */
            in->rnd = *s == 'x' ? WS_MMA_BOP_XOR : WS_MMA_BOP_AND;
        } else if (eq(s, n, "popc")) {
        } else if (is_wmma && !in->sub && (eq(s, n, "load") || eq(s, n, "store") || eq(s, n, "mma"))) {
            in->sub = eq(s, n, "load") ? WS_MMA_LOAD_A : eq(s, n, "store") ? WS_MMA_STORE_D : WS_MMA_MMA;
        } else if (is_wmma && !frag_named && n == 1 && (in->sub == WS_MMA_LOAD_A || in->sub == WS_MMA_STORE_D)
                   && (*s == 'a' || *s == 'b' || *s == 'c' || *s == 'd')) {
            frag_named = true;
            if (in->sub == WS_MMA_LOAD_A) {
                if (*s == 'd') return "wmma.load of d";
                in->sub = (uint8_t)(WS_MMA_LOAD_A + (*s - 'a'));
            } else if (*s != 'd') {
                return "wmma.store of a, b or c";
            }
        } else if (is_wmma && (eq(s, n, "global") || eq(s, n, "shared") || eq(s, n, "shared::cta"))) {
            in->space = (uint8_t)(*s == 'g' ? WS_SPACE_GLOBAL : WS_SPACE_SHARED);
        } else {
            return "modifier";
        }
    }
    if (!sync) return "missing .sync";
    if (!in->sub) return "expected .load, .store or .mma";
    if (!in->cmp) return "missing shape";
    if (in->sub == WS_MMA_MMA) {
        if (nlayouts != 2) return "expected the layouts of A and B";
        if (!is_wmma && layouts != WS_MMA_BCOL) return "mma.sync layout (only .row.col)";
        in->boolop = (uint8_t)layouts;
        if (is_wmma && ntypes == 2) { /* .dtype.ctype: A and B are f16 */
            types[3] = types[1], types[1] = types[2] = WS_T_F16;
            ntypes = 4;
        }
        if (ntypes != 4) return "expected the D, A, B and C types";
        in->type = (uint8_t)types[0], in->stype = (uint8_t)types[1];
        in->ttype = (uint8_t)types[2], in->scope = (uint8_t)types[3];
        return check_types(in, is_wmma);
    }
    if (!frag_named) return "expected .a, .b, .c or .d";
    if (nlayouts != 1) return "expected one layout (.row or .col)";
    if (ntypes != 1) return "expected one type";
    in->boolop = layouts ? WS_MMA_ACOL | WS_MMA_BCOL : 0;
    /* the other fragments' types as a matching mma would have them, so that
       the geometry helpers see one consistent form */
    ws_type t = (ws_type)types[0];
    unsigned which = ws_mma_ldst_frag(in);
    bool acc = which >= WS_FRAG_C;
    if (acc && !(t == WS_T_F16 || t == WS_T_F32 || t == WS_T_S32 || t == WS_T_F64)) return "accumulator type";
    bool sub = t == WS_T_S4 || t == WS_T_U4 || t == WS_T_B1;
    if (!acc && !(t == WS_T_F16 || t == WS_T_BF16 || t == WS_T_B32 || t == WS_T_S8 || t == WS_T_U8 || t == WS_T_F64 || sub))
        return "input type";
    ws_type in_t = acc ? (in->cmp == WS_MMA_M8N8K32 ? WS_T_S4 : in->cmp == WS_MMA_M8N8K128 ? WS_T_B1
                          : t == WS_T_S32 ? WS_T_S8 : t == WS_T_F64 ? WS_T_F64 : in->cmp == WS_MMA_M16N16K8 ? WS_T_B32 : WS_T_F16) : t;
    ws_type acc_t = acc ? t : (t == WS_T_S8 || t == WS_T_U8 || sub) ? WS_T_S32 : t == WS_T_F64 ? WS_T_F64 : WS_T_F32;
    if (in_t == WS_T_B1) in->rnd = WS_MMA_BOP_XOR; /* a matching mma's (check_types wants one) */
    in->stype = in->ttype = (uint8_t)in_t;
    in->scope = in->type = (uint8_t)acc_t;
    if (which == WS_FRAG_A) in->stype = (uint8_t)t;
    if (which == WS_FRAG_B) in->ttype = (uint8_t)t;
    return check_types(in, true);
}

static unsigned per_reg(ws_type t)
{
    switch (t) {
    case WS_T_F16: case WS_T_BF16: return 2;
    case WS_T_S8: case WS_T_U8: case WS_T_E4M3: case WS_T_E5M2: return 4;
    case WS_T_S4: case WS_T_U4: return 8;
    case WS_T_B1: return 32;
    default: return 1;
    }
}

/* Rows x columns of a fragment's matrix. */
static void mat_dims(const ws_inst *in, unsigned which, unsigned *rows, unsigned *cols)
{
    ws_mma_dims d = ws_mma_dims_of(in->cmp);
    switch (which) {
    case WS_FRAG_A: *rows = d.m, *cols = d.k; break;
    case WS_FRAG_B: *rows = d.k, *cols = d.n; break;
    default: *rows = d.m, *cols = d.n; break;
    }
}

unsigned ws_mma_frag_elems(const ws_inst *in, unsigned which)
{
    unsigned r, c;
    mat_dims(in, which, &r, &c);
    /* wmma's .f16 A and B fragments are 8 registers whatever the shape */
    if (in->op == WS_OP_WMMA && which <= WS_FRAG_B && ws_mma_frag_type(in, which) == WS_T_F16) return 16;
    return r * c / 32;
}

unsigned ws_mma_frag_regs(const ws_inst *in, unsigned which)
{
    return ws_mma_frag_elems(in, which) / per_reg(ws_mma_frag_type(in, which));
}

unsigned ws_mma_nregs(const ws_inst *in)
{
    if (in->sub != WS_MMA_MMA) return ws_mma_frag_regs(in, ws_mma_ldst_frag(in));
    unsigned n = 0;
    for (unsigned w = 0; w < 4; w++) n += ws_mma_frag_regs(in, w);
    return n;
}

/* mma.sync's documented layouts. g = groupID, t = threadID_in_group. */
static void mma_pos(unsigned shape, ws_type ty, unsigned which, unsigned lane, unsigned i, unsigned *row,
                    unsigned *col)
{
    unsigned g = lane >> 2, t = lane & 3, r = 0, c = 0;
    bool b8 = ty == WS_T_S8 || ty == WS_T_U8, tf = ty == WS_T_B32;
    if (which >= WS_FRAG_C) {
        if (shape == WS_MMA_M8N8K16 || shape == WS_MMA_M8N8K4 || shape == WS_MMA_M8N8K32 || shape == WS_MMA_M8N8K128)
            r = g, c = 2 * t + i;
        else r = g + 8 * (i >> 1), c = 2 * t + (i & 1);
    } else if (which == WS_FRAG_A) {
        switch (shape) {
        case WS_MMA_M16N8K16:
            if (b8) r = g + 8 * (i >> 2), c = 4 * t + (i & 3);
            else r = g + 8 * ((i >> 1) & 1), c = 2 * t + (i & 1) + 8 * (i >> 2);
            break;
        case WS_MMA_M16N8K8:
            if (tf) r = g + 8 * (i & 1), c = t + 4 * (i >> 1);
            else r = g + 8 * (i >> 1), c = 2 * t + (i & 1);
            break;
        case WS_MMA_M16N8K32: r = g + 8 * ((i >> 2) & 1), c = 4 * t + (i & 3) + 16 * (i >> 3); break;
        case WS_MMA_M16N8K4: r = g + 8 * i, c = t; break;
        case WS_MMA_M8N8K16: r = g, c = 4 * t + i; break;
        case WS_MMA_M8N8K32: r = g, c = 8 * t + i; break;
        case WS_MMA_M8N8K128: r = g, c = 32 * t + i; break;
        default: r = g, c = t; break; /* m8n8k4 f64 */
        }
    } else { /* B: row = k, col = n */
        c = g;
        switch (shape) {
        case WS_MMA_M16N8K16: r = b8 ? 4 * t + i : 2 * t + (i & 1) + 8 * (i >> 1); break;
        case WS_MMA_M16N8K8: r = tf ? t + 4 * i : 2 * t + i; break;
        case WS_MMA_M16N8K32: r = 4 * t + (i & 3) + 16 * (i >> 2); break;
        case WS_MMA_M8N8K16: r = 4 * t + i; break;
        case WS_MMA_M8N8K32: r = 8 * t + i; break;
        case WS_MMA_M8N8K128: r = 32 * t + i; break;
        default: r = t; break; /* m16n8k4 tf32, m8n8k4 f64 */
        }
    }
    *row = r, *col = c;
}

void ws_mma_elem_pos(const ws_inst *in, unsigned which, unsigned lane, unsigned i, unsigned *row,
                     unsigned *col)
{
    if (in->op == WS_OP_MMA) {
        mma_pos(in->cmp, ws_mma_frag_type(in, which), which, lane, i, row, col);
        return;
    }
    unsigned rows, cols;
    mat_dims(in, which, &rows, &cols);
    unsigned e = (lane * ws_mma_frag_elems(in, which) + i) % (rows * cols);
    bool colmajor = (which == WS_FRAG_A && (in->boolop & WS_MMA_ACOL)) ||
                    (which == WS_FRAG_B && (in->boolop & WS_MMA_BCOL));
    if (colmajor) *row = e % rows, *col = e / rows;
    else *row = e / cols, *col = e % cols;
}
