/* Integer instructions against CPU models written from the PTX ISA text
 * (its pseudo-code and tables), over input sweeps that include the edge
 * cases: zero, widths and positions at and past the register width, signs. */
#include <stdlib.h>

#include "ptx/ptx.h"
#include "test_exec_util.h"

#define O32(reg) "cvt.u64.u32 %rd7, " reg ";"

typedef uint32_t (*model3)(uint32_t a, uint32_t b, uint32_t c);

/* Run body on n threads with inputs a, b, c; compare out (low 32 bits) with model. */
static void sweep(const char *body, int n, const uint64_t *a, const uint64_t *b, const uint64_t *c, model3 f) {
    uint64_t *out = calloc((size_t)n, 8);
    ws_fault fault;
    ws_status s = wx_eval(body, n, a, b, c, out, &fault);
    CHECK_MSG(s == WS_OK, "%s: %s", body, s == WS_OK ? "" : fault.msg);
    int bad = 0;
    for (int i = 0; s == WS_OK && i < n && bad < 4; i++) {
        uint32_t want = f((uint32_t)a[i], (uint32_t)b[i], (uint32_t)c[i]);
        if ((uint32_t)out[i] != want) {
            bad++;
            CHECK_MSG(0, "%s a=%#x b=%#x c=%#x: got %#x, want %#x", body, (uint32_t)a[i], (uint32_t)b[i],
                      (uint32_t)c[i], (uint32_t)out[i], want);
        }
    }
    free(out);
}

/* Inputs: every pair of (value from vals) x (amount 0..40 and a few large). */
enum { NV = 6, NB = 44, N = NV * NB };
static uint64_t A[N], B[N], C[N];
static void fill(void) {
    static const uint32_t vals[NV] = {0, 0xFFFFFFFFu, 0x80000000u, 0x12345678u, 0x0000FF00u, 0xAAAAAAAAu};
    for (int i = 0; i < N; i++) {
        A[i] = vals[i / NB];
        int k = i % NB;
        B[i] = k <= 40 ? (uint32_t)k : k == 41 ? 255u : k == 42 ? 256u : 0xFFFFFFFFu;
        C[i] = (uint32_t)(i * 7 % 45);
    }
}

/* ---- models from the ISA pseudo-code ------------------------------------ */
static uint32_t bmsk_m(uint32_t a, uint32_t b, int clamp) {
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
    int sum_ovf = sum >= 32, pos_ovf = 0, wid_ovf = 0;
    if (clamp) {
        if (a >= 32) { pos_ovf = 1; mask0 = 0; }
        if (b >= 32) wid_ovf = 1;
    }
    if (sum_ovf || pos_ovf || wid_ovf) mask1 = 0;
    else if (b1 == 0) mask1 = ~0u;
    return mask0 & ~mask1;
}
static uint32_t bmsk_clamp(uint32_t a, uint32_t b, uint32_t c) { (void)c; return bmsk_m(a, b, 1); }
static uint32_t bmsk_wrap(uint32_t a, uint32_t b, uint32_t c) { (void)c; return bmsk_m(a, b, 0); }
/* bmsk's a is the position: sweep it over B's amounts, width over C */
static uint32_t bmsk_clamp_bc(uint32_t a, uint32_t b, uint32_t c) { (void)a; return bmsk_m(b, c, 1); }

static uint32_t szext_m(uint32_t a, uint32_t b, int clamp, int sgn) {
    uint32_t b1 = b & 0x1f;
    int too_large = b >= 32 && clamp;
    uint32_t mask = too_large ? 0 : ~0u << b1, sign_pos = (b1 - 1) & 0x1f;
    int sign_bit = (b1 == 0 || too_large || !sgn) ? 0 : (a >> sign_pos) & 1;
    return (a & ~mask) | (sign_bit ? mask : 0);
}
static uint32_t szext_cs(uint32_t a, uint32_t b, uint32_t c) { (void)c; return szext_m(a, b, 1, 1); }
static uint32_t szext_cu(uint32_t a, uint32_t b, uint32_t c) { (void)c; return szext_m(a, b, 1, 0); }
static uint32_t szext_ws(uint32_t a, uint32_t b, uint32_t c) { (void)c; return szext_m(a, b, 0, 1); }
static uint32_t szext_wu(uint32_t a, uint32_t b, uint32_t c) { (void)c; return szext_m(a, b, 0, 0); }

static uint32_t fns_m(uint32_t mask, uint32_t base, uint32_t offset) {
    int32_t off = (int32_t)offset;
    uint32_t d = 0xffffffffu;
    if (base > 31) return d; /* undefined in the ISA; warpsim: not found */
    if (off == 0) return (mask >> base & 1) ? base : d;
    int pos = (int)base, inc = off > 0 ? 1 : -1;
    int64_t count = (off > 0 ? (int64_t)off : -(int64_t)off) - 1;
    while (pos >= 0 && pos < 32) {
        if (mask >> pos & 1) {
            if (count == 0) return (uint32_t)pos;
            count--;
        }
        pos += inc;
    }
    return d;
}

/* bfe: d[i] = a[pos+i] for i < len and pos+i <= msb, else the sign bit
   (a[min(pos+len-1, msb)] for .s32, 0 for .u32 or len 0). */
static uint32_t bfe_m(uint32_t a, uint32_t b, uint32_t c, int sgn) {
    uint32_t pos = b & 0xff, len = c & 0xff, msb = 31, d = 0;
    uint32_t top = pos + len - 1 < msb ? pos + len - 1 : msb;
    uint32_t sbit = (!sgn || len == 0) ? 0 : (a >> top) & 1;
    for (uint32_t i = 0; i <= msb; i++) {
        uint32_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
        d |= bit << i;
    }
    return d;
}
static uint32_t bfe_u(uint32_t a, uint32_t b, uint32_t c) { return bfe_m(a, b, c, 0); }
static uint32_t bfe_s(uint32_t a, uint32_t b, uint32_t c) { return bfe_m(a, b, c, 1); }

/* bfi.b32 f, a, b, c, d with a = 0xdeadbeef fixed: f = b; f[pos+i] = a[i]. */
static uint32_t bfi_m(uint32_t b, uint32_t c, uint32_t d) {
    uint32_t a = 0xdeadbeefu, pos = c & 0xff, len = d & 0xff, f = b;
    for (uint32_t i = 0; i < len && pos + i <= 31; i++) f = (f & ~(1u << (pos + i))) | ((a >> i) & 1) << (pos + i);
    return f;
}

static uint32_t brev_m(uint32_t a, uint32_t b, uint32_t c) {
    (void)b, (void)c;
    uint32_t d = 0;
    for (int i = 0; i < 32; i++) d |= ((a >> i) & 1) << (31 - i);
    return d;
}

/* bfind: position of the most significant non-sign bit; .shiftamt: 31 - it. */
static uint32_t bfind_m(uint32_t a, int sgn, int shiftamt) {
    if (sgn && (a >> 31)) a = ~a;
    if (!a) return 0xffffffffu;
    int pos = 31;
    while (!(a >> pos & 1)) pos--;
    return shiftamt ? (uint32_t)(31 - pos) : (uint32_t)pos;
}
static uint32_t bfind_u(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return bfind_m(a, 0, 0); }
static uint32_t bfind_s(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return bfind_m(a, 1, 0); }
static uint32_t bfind_us(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return bfind_m(a, 0, 1); }
static uint32_t bfind_ss(uint32_t a, uint32_t b, uint32_t c) { (void)b, (void)c; return bfind_m(a, 1, 1); }

/* dp4a / dp2a: bytes (halves of a for dp2a) extended per their type, summed into c. */
static int32_t ext8(uint32_t v, int i, int sgn) { return sgn ? (int8_t)(v >> 8 * i) : (int32_t)(uint8_t)(v >> 8 * i); }
static int32_t ext16(uint32_t v, int i, int sgn) {
    return sgn ? (int16_t)(v >> 16 * i) : (int32_t)(uint16_t)(v >> 16 * i);
}
#define DP4A(name, as, bs)                                                                  \
    static uint32_t name(uint32_t a, uint32_t b, uint32_t c) {                              \
        uint32_t s = c;                                                                     \
        for (int i = 0; i < 4; i++) s += (uint32_t)(ext8(a, i, as) * ext8(b, i, bs));       \
        return s;                                                                           \
    }
DP4A(dp4a_uu, 0, 0)
DP4A(dp4a_us, 0, 1)
DP4A(dp4a_su, 1, 0)
DP4A(dp4a_ss, 1, 1)
#define DP2A(name, as, bs, hi)                                                              \
    static uint32_t name(uint32_t a, uint32_t b, uint32_t c) {                              \
        uint32_t s = c;                                                                     \
        for (int i = 0; i < 2; i++) s += (uint32_t)(ext16(a, i, as) * ext8(b, i + 2 * hi, bs)); \
        return s;                                                                           \
    }
DP2A(dp2a_lo_us, 0, 1, 0)
DP2A(dp2a_hi_su, 1, 0, 1)
DP2A(dp2a_hi_ss, 1, 1, 1)
DP2A(dp2a_lo_uu, 0, 0, 0)

/* prmt modes from the ISA's tables: for selector c[1:0], result bytes
   d.b3 d.b2 d.b1 d.b0 as source byte numbers of {b, a}. */
static const char *const prmt_tab[6][4] = {
    {"3210", "4321", "5432", "6543"}, /* f4e */
    {"5670", "6701", "7012", "0123"}, /* b4e */
    {"0000", "1111", "2222", "3333"}, /* rc8 */
    {"3210", "3211", "3222", "3333"}, /* ecl */
    {"0000", "1110", "2210", "3210"}, /* ecr */
    {"1010", "3232", "1010", "3232"}, /* rc16 */
};
static int prmt_mode;
static uint32_t prmt_m(uint32_t a, uint32_t b, uint32_t c) {
    uint64_t src = (uint64_t)b << 32 | a;
    const char *s = prmt_tab[prmt_mode][c & 3];
    uint32_t d = 0;
    for (int k = 0; k < 4; k++) d |= (uint32_t)(src >> 8 * (s[k] - '0') & 0xff) << 8 * (3 - k);
    return d;
}

/* ---- tests ------------------------------------------------------------------ */
TEST(exec_int_isa_bmsk) {
    fill();
    sweep("bmsk.clamp.b32 %r9, %r1, %r2;" O32("%r9"), N, B, C, C, bmsk_clamp);
    sweep("bmsk.wrap.b32 %r9, %r1, %r2;" O32("%r9"), N, B, C, C, bmsk_wrap);
    sweep("bmsk.clamp.b32 %r9, %r2, %r3;" O32("%r9"), N, A, B, C, bmsk_clamp_bc);
    CHECK_EQ_U64(wx_eval1("bmsk.wrap.b32 %r9, 1, 2;" O32("%r9"), 0, 0, 0), 6); /* the ISA's example */
}

TEST(exec_int_isa_szext) {
    fill();
    sweep("szext.clamp.s32 %r9, %r1, %r2;" O32("%r9"), N, A, B, C, szext_cs);
    sweep("szext.clamp.u32 %r9, %r1, %r2;" O32("%r9"), N, A, B, C, szext_cu);
    sweep("szext.wrap.s32 %r9, %r1, %r2;" O32("%r9"), N, A, B, C, szext_ws);
    sweep("szext.wrap.u32 %r9, %r1, %r2;" O32("%r9"), N, A, B, C, szext_wu);
    CHECK_EQ_U64(wx_eval1("szext.wrap.u32 %r9, 0xffffffff, 0;" O32("%r9"), 0, 0, 0), 0);
}

TEST(exec_int_isa_fns) {
    fill();
    uint64_t off[N];
    for (int i = 0; i < N; i++) off[i] = (uint32_t)((int32_t)(i % 23) - 11 + (i % 97 == 0 ? 40 : 0));
    uint64_t base[N];
    for (int i = 0; i < N; i++) base[i] = (uint32_t)(i * 5 % 33); /* 32: past the end */
    sweep("fns.b32 %r9, %r1, %r2, %r3;" O32("%r9"), N, A, base, off, fns_m);
    /* the ISA's examples */
    CHECK_EQ_U64(wx_eval1("fns.b32 %r9, 0xaaaaaaaa, 3, 1;" O32("%r9"), 0, 0, 0), 3);
    CHECK_EQ_U64(wx_eval1("fns.b32 %r9, 0xaaaaaaaa, 3, -1;" O32("%r9"), 0, 0, 0), 3);
    CHECK_EQ_U64(wx_eval1("fns.b32 %r9, 0xaaaaaaaa, 2, 1;" O32("%r9"), 0, 0, 0), 3);
    CHECK_EQ_U64(wx_eval1("fns.b32 %r9, 0xaaaaaaaa, 2, -1;" O32("%r9"), 0, 0, 0), 1);
}

TEST(exec_int_isa_bfe_bfi_past_width) {
    fill();
    sweep("bfe.u32 %r9, %r1, %r2, %r3;" O32("%r9"), N, A, B, C, bfe_u);
    sweep("bfe.s32 %r9, %r1, %r2, %r3;" O32("%r9"), N, A, B, C, bfe_s);
    sweep("bfi.b32 %r9, 0xdeadbeef, %r1, %r2, %r3;" O32("%r9"), N, A, B, C, bfi_m);
    /* a field that runs past the msb is cut there */
    CHECK_EQ_U64(wx_eval1("bfi.b32 %r9, %r1, %r2, 28, 8;" O32("%r9"), 0xFF, 0, 0), 0xF0000000u);
    CHECK_EQ_U64(wx_eval1("bfi.b64 %rd7, %rd4, %rd5, 60, 8;", 0xFF, 1, 0), 0xF000000000000001ull);
}

/* A list of instruction bodies and their models, swept over one input set. */
typedef struct { const char *body; model3 f; } vcheck;
static void sweep_list(const vcheck *v, size_t nv, int n, const uint64_t *a, const uint64_t *b, const uint64_t *c) {
    for (size_t i = 0; i < nv; i++) sweep(v[i].body, n, a, b, c, v[i].f);
}

TEST(exec_int_isa_brev_bfind) {
    fill();
    static const vcheck v[] = {
        {"brev.b32 %r9, %r1;" O32("%r9"), brev_m},
        {"bfind.u32 %r9, %r1;" O32("%r9"), bfind_u},
        {"bfind.s32 %r9, %r1;" O32("%r9"), bfind_s},
        {"bfind.shiftamt.u32 %r9, %r1;" O32("%r9"), bfind_us},
        {"bfind.shiftamt.s32 %r9, %r1;" O32("%r9"), bfind_ss},
    };
    sweep_list(v, sizeof v / sizeof v[0], N, A, B, C);
    sweep_list(v, sizeof v / sizeof v[0], N, C, B, C); /* small values */
    CHECK_EQ_U64(wx_eval1("brev.b64 %rd7, %rd4;", 1, 0, 0), 0x8000000000000000ull);
    CHECK_EQ_U64(wx_eval1("bfind.shiftamt.u64 %r9, %rd4;" O32("%r9"), 0, 0, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(wx_eval1("bfind.shiftamt.u64 %r9, %rd4;" O32("%r9"), 1, 0, 0), 63);
}

TEST(exec_int_isa_dp4a_dp2a) {
    enum { M = 64 };
    uint64_t a[M], b[M], c[M];
    for (int i = 0; i < M; i++) {
        a[i] = (uint32_t)(0x9E3779B9u * (uint32_t)(i + 1));
        b[i] = (uint32_t)(0x85EBCA6Bu * (uint32_t)(i + 3)) ^ (i & 1 ? 0x80808080u : 0);
        c[i] = (uint32_t)(i * 1000003u) ^ (i & 2 ? 0x80000000u : 0);
    }
#define DP(op) op " %r9, %r1, %r2, %r3;" O32("%r9")
    static const vcheck v[] = {
        {DP("dp4a.u32.u32"), dp4a_uu},    {DP("dp4a.u32.s32"), dp4a_us},    {DP("dp4a.s32.u32"), dp4a_su},
        {DP("dp4a.s32.s32"), dp4a_ss},    {DP("dp2a.lo.u32.s32"), dp2a_lo_us}, {DP("dp2a.hi.s32.u32"), dp2a_hi_su},
        {DP("dp2a.hi.s32.s32"), dp2a_hi_ss}, {DP("dp2a.lo.u32.u32"), dp2a_lo_uu},
    };
#undef DP
    sweep_list(v, sizeof v / sizeof v[0], M, a, b, c);
}

TEST(exec_int_isa_prmt_modes) {
    static const char *const names[6] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    uint64_t a[16], b[16], c[16];
    for (int i = 0; i < 16; i++) {
        a[i] = 0x33221100u + (uint32_t)i * 0x04040404u;
        b[i] = 0x77665544u ^ (uint32_t)i << 4;
        c[i] = (uint32_t)i * 0x11u; /* only c[1:0] matters in these modes */
    }
    for (prmt_mode = 0; prmt_mode < 6; prmt_mode++) {
        char body[128];
        snprintf(body, sizeof body, "prmt.b32.%s %%r9, %%r1, %%r2, %%r3;%s", names[prmt_mode], O32("%r9"));
        sweep(body, 16, a, b, c, prmt_m);
    }
}

/* Vector operands that mix registers and immediates, and the read-only
 * loads (ld.global.nc, ldu). */
TEST(exec_vec_immediates_and_nc_loads) {
    CHECK_EQ_U64(wx_eval1("mov.b64 %rd7, {%r1, 0};", 0x89ABCDEFu, 0, 0), 0x89ABCDEFull);
    CHECK_EQ_U64(wx_eval1("mov.b64 %rd7, {-1, %r1};", 5, 0, 0), 0x5FFFFFFFFull);
    CHECK_EQ_U64(wx_eval1("mov.b32 %r9, {%h1, 0x1234};" O32("%r9"), 0xBEEF, 0, 0), 0x1234BEEFu);
    CHECK_EQ_U64(wx_eval1("st.global.v2.u32 [%rd1], {%r1, 7};\nld.global.u64 %rd7, [%rd1];", 3, 0, 0),
                 0x700000003ull);
    CHECK_EQ_U64(wx_eval1("st.global.v2.f32 [%rd1], {%f1, 0f3F800000};\nld.global.u64 %rd7, [%rd1];", 0, 0, 0),
                 0x3F80000000000000ull);
    CHECK_EQ_U64(wx_eval1("st.global.v4.u16 [%rd1], {%h1, 0, 0xFFFF, %h2};\nld.global.u64 %rd7, [%rd1];", 0x1111,
                          0x2222, 0),
                 0x2222FFFF00001111ull);
    CHECK_EQ_U64(wx_eval1("ld.global.nc.u64 %rd7, [%rd2];", 77, 0, 0), 77);
    CHECK_EQ_U64(wx_eval1("ldu.global.u64 %rd7, [%rd2];", 78, 0, 0), 78);
    CHECK_EQ_U64(wx_eval1("ld.global.nc.v2.u32 {%r9, %r10}, [%rd2];\nadd.u32 %r9, %r9, %r10;" O32("%r9"),
                          0x500000004ull, 0, 0), 9);
}

/* ---- video instructions (default selectors and masks) -------------------- */
/* Model of the ISA pseudo-code: operands extended per atype/btype, the
   operation exact, .sat clamps to the destination type's (element) range,
   then the secondary operation (.add .min .max) or, for SIMD forms without
   .add, the merge of all elements. */
typedef struct { const char *name; int op, simd, ds, as, bs, sat, op2, cmp; } vcase;
enum { V_ADD, V_SUB, V_ABSDIFF, V_MIN, V_MAX, V_SET, V_AVRG };
static vcase vc;
static int64_t vext(uint32_t v, int w, int i, int sg) {
    uint64_t e = (v >> (w * i)) & ((1ull << w) - 1);
    return sg && (e >> (w - 1)) ? (int64_t)e - (int64_t)(1ull << w) : (int64_t)e;
}
static int64_t vop_m(int64_t a, int64_t b) {
    switch (vc.op) {
    case V_ADD: return a + b;
    case V_SUB: return a - b;
    case V_ABSDIFF: return a > b ? a - b : b - a;
    case V_MIN: return a < b ? a : b;
    case V_MAX: return a > b ? a : b;
    case V_AVRG: return (a + b) >= 0 ? (a + b + 1) >> 1 : (a + b) >> 1; /* the ISA's text; >> floors */
    default: /* eq ne lt le gt ge */
        return vc.cmp == 0 ? a == b : vc.cmp == 1 ? a != b : vc.cmp == 2 ? a < b : vc.cmp == 3 ? a <= b
             : vc.cmp == 4 ? a > b : a >= b;
    }
}
static int64_t vsat(int64_t t, int w, int sg) {
    int64_t lo = sg ? -(1ll << (w - 1)) : 0, hi = sg ? (1ll << (w - 1)) - 1 : (1ll << w) - 1;
    return t < lo ? lo : t > hi ? hi : t;
}
static uint32_t video_m(uint32_t a, uint32_t b, uint32_t c) {
    int n = vc.simd ? vc.simd : 1, w = 32 / n;
    if (n == 1) {
        int64_t t = vop_m(vext(a, 32, 0, vc.as), vext(b, 32, 0, vc.bs));
        t = vc.sat ? vsat(t, 32, vc.ds) : vext((uint32_t)t, 32, 0, vc.ds);
        int64_t cc = vext(c, 32, 0, vc.ds);
        if (vc.op2 == 1) t += cc;
        if (vc.op2 == 2) t = t < cc ? t : cc;
        if (vc.op2 == 3) t = t > cc ? t : cc;
        return (uint32_t)t;
    }
    uint32_t d = vc.op2 == 1 ? c : 0;
    for (int i = 0; i < n; i++) {
        int64_t t = vop_m(vext(a, w, i, vc.as), vext(b, w, i, vc.bs));
        if (vc.sat) t = vsat(t, w, vc.ds);
        if (vc.op2 == 1) d += (uint32_t)t;
        else d |= ((uint32_t)t & (uint32_t)((1ull << w) - 1)) << (w * i);
    }
    return d;
}

TEST(exec_video_scalar_and_simd) {
    static const vcase cases[] = {
        {"vadd.s32.s32.s32.sat", V_ADD, 0, 1, 1, 1, 1, 0, 0},
        {"vadd.u32.u32.s32", V_ADD, 0, 0, 0, 1, 0, 0, 0},
        {"vsub.u32.s32.u32.sat", V_SUB, 0, 0, 1, 0, 1, 0, 0},
        {"vabsdiff.s32.u32.u32.add", V_ABSDIFF, 0, 1, 0, 0, 0, 1, 0},
        {"vmin.s32.s32.s32.max", V_MIN, 0, 1, 1, 1, 0, 3, 0},
        {"vmax.u32.u32.u32.sat.min", V_MAX, 0, 0, 0, 0, 1, 2, 0},
        {"vset.s32.u32.lt", V_SET, 0, 0, 1, 0, 0, 0, 2},
        {"vset.u32.u32.ge.add", V_SET, 0, 0, 0, 0, 0, 1, 5},
        {"vadd4.u32.u32.u32.sat", V_ADD, 4, 0, 0, 0, 1, 0, 0},
        {"vadd4.s32.s32.s32.sat", V_ADD, 4, 1, 1, 1, 1, 0, 0},
        {"vsub4.s32.s32.s32", V_SUB, 4, 1, 1, 1, 0, 0, 0},
        {"vabsdiff4.u32.u32.u32.add", V_ABSDIFF, 4, 0, 0, 0, 0, 1, 0},
        {"vmin4.s32.s32.s32", V_MIN, 4, 1, 1, 1, 0, 0, 0},
        {"vmax4.u32.u32.u32", V_MAX, 4, 0, 0, 0, 0, 0, 0},
        {"vset4.u32.u32.ne", V_SET, 4, 0, 0, 0, 0, 0, 1},
        {"vset4.s32.s32.gt.add", V_SET, 4, 0, 1, 1, 0, 1, 4},
        {"vadd2.s32.s32.s32.sat", V_ADD, 2, 1, 1, 1, 1, 0, 0},
        {"vsub2.u32.u32.u32.sat", V_SUB, 2, 0, 0, 0, 1, 0, 0},
        {"vabsdiff2.s32.s32.s32.add", V_ABSDIFF, 2, 1, 1, 1, 0, 1, 0},
        {"vmax2.s32.u32.s32", V_MAX, 2, 1, 0, 1, 0, 0, 0},
        {"vset2.u32.s32.le", V_SET, 2, 0, 0, 1, 0, 0, 3},
        {"vavrg4.u32.u32.u32", V_AVRG, 4, 0, 0, 0, 0, 0, 0},
        {"vavrg4.s32.s32.s32.sat", V_AVRG, 4, 1, 1, 1, 1, 0, 0},
        {"vavrg2.s32.s32.u32.add", V_AVRG, 2, 1, 1, 0, 0, 1, 0},
        {"vavrg2.u32.s32.s32.sat", V_AVRG, 2, 0, 1, 1, 1, 0, 0},
    };
    enum { M = 96 };
    uint64_t a[M], b[M], c[M];
    static const uint32_t edge[8] = {0, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x7F7F8080u, 0x80FF017Fu, 0x00010000u,
                                     0xFFFF0001u};
    for (int i = 0; i < M; i++) {
        a[i] = i < 64 ? edge[i % 8] : (uint32_t)(0x9E3779B9u * (uint32_t)i);
        b[i] = i < 64 ? edge[i / 8] : (uint32_t)(0x85EBCA6Bu * (uint32_t)(i + 7));
        c[i] = (uint32_t)(0xC2B2AE35u * (uint32_t)(i + 1));
    }
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        vc = cases[k];
        char body[128];
        snprintf(body, sizeof body, "%s %%r9, %%r1, %%r2%s;%s", vc.name,
                 vc.simd || vc.op2 ? ", %r3" : "", O32("%r9"));
        sweep(body, M, a, b, c, video_m);
    }
}

TEST(exec_video_bad_selectors_are_refused) {
    /* (selectors themselves: tests/unit/test_video_sel.c) */
    static const char *const bad[] = {"vadd.s32.s32.s32 %r1, %r2.b4, %r3;", "vadd2.s32.s32.s32 %r1, %r2.h8, %r3, %r0;",
                                      "vadd4.s32.s32.s32 %r1, %r2.b321, %r3, %r0;",
                                      "vadd2.s32.s32.s32 %r1.h00, %r2, %r3, %r0;"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ws_diag d;
        char src[256];
        snprintf(src, sizeof src, WX_HEAD ".visible .entry k()\n{\n.reg .b32 %%r<4>;\n%s\nret;\n}\n", bad[i]);
        ws_module *m = ws_ptx_parse(src, strlen(src), "t.ptx", &d);
        CHECK_MSG(m == NULL && strstr(d.msg, "selector"), "%s: %s", bad[i], m ? "accepted" : d.msg);
        ws_module_free(m);
    }
}
