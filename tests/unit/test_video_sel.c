/* Video instructions with operand selectors, destination selectors (merge
 * into c) and SIMD masks, and vshl / vshr / vmad, against a model written
 * from the PTX ISA's pseudo-code: the model reads the selector text itself. */
#include <stdio.h>
#include <string.h>

#include "test_exec_util.h"

static int64_t ext(uint64_t v, int w, int i, int sg) {
    uint64_t e = (v >> (w * i)) & ((1ull << w) - 1);
    return sg && (e >> (w - 1)) ? (int64_t)e - (int64_t)(1ull << w) : (int64_t)e;
}
static int64_t sat(int64_t t, int w, int sg) {
    int64_t lo = sg ? -(1ll << (w - 1)) : 0, hi = sg ? (1ll << (w - 1)) - 1 : (1ll << w) - 1;
    return t < lo ? lo : t > hi ? hi : t;
}

/* A scalar selector ("", "b2", "h1"): its element of v. */
static int64_t part(uint32_t v, const char *sel, int sg) {
    if (!*sel) return ext(v, 32, 0, sg);
    return ext(v, sel[0] == 'h' ? 16 : 8, sel[1] - '0', sg);
}

typedef struct scase {
    const char *op;            /* "add" "sub" "min" "max" "absdiff" "shl" "shr" */
    int ds, as, bs, sat, wrap;
    const char *dsel, *asel, *bsel, *op2;
} scase;

static scase sc;

static uint32_t scalar_m(uint32_t a, uint32_t b, uint32_t c) {
    int64_t x = part(a, sc.asel, sc.as), y = part(b, sc.bsel, sc.bs), t;
    if (!strcmp(sc.op, "add")) t = x + y;
    else if (!strcmp(sc.op, "sub")) t = x - y;
    else if (!strcmp(sc.op, "min")) t = x < y ? x : y;
    else if (!strcmp(sc.op, "max")) t = x > y ? x : y;
    else if (!strcmp(sc.op, "absdiff")) t = x > y ? x - y : y - x;
    else {
        uint64_t n = (uint64_t)(uint32_t)y;
        n = sc.wrap ? n & 31 : n > 32 ? 32 : n;
        t = !strcmp(sc.op, "shl") ? (int64_t)((uint64_t)x << n) : x >> n;
    }
    if (*sc.dsel) { /* merge */
        int w = sc.dsel[0] == 'h' ? 16 : 8, pos = w * (sc.dsel[1] - '0');
        if (sc.sat) t = sat(t, w, sc.ds);
        uint32_t fm = (uint32_t)((1ull << w) - 1) << pos;
        return (c & ~fm) | (((uint32_t)t << pos) & fm);
    }
    t = sc.sat ? sat(t, 32, sc.ds) : ext((uint32_t)t, 32, 0, sc.ds);
    int64_t cc = ext(c, 32, 0, sc.ds);
    if (!strcmp(sc.op2, "add")) t += cc;
    else if (!strcmp(sc.op2, "min")) t = t < cc ? t : cc;
    else if (!strcmp(sc.op2, "max")) t = t > cc ? t : cc;
    return (uint32_t)t;
}

/* SIMD: selectors name elements of {b, a}, highest element's digit first. */
typedef struct vcase2 {
    const char *op; int n, ds, as, bs, sat, add;
    const char *mask, *asel, *bsel; /* "" = default */
} vcase2;
static vcase2 vv;

static uint32_t simd_m(uint32_t a, uint32_t b, uint32_t c) {
    int n = vv.n, w = 32 / n;
    uint64_t ab = a | (uint64_t)b << 32;
    uint32_t d = vv.add ? c : 0;
    for (int i = 0; i < n; i++) {
        int ai = *vv.asel ? vv.asel[n - i] - '0' : i, bi = *vv.bsel ? vv.bsel[n - i] - '0' : n + i;
        int64_t x = ext(ab, w, ai, vv.as), y = ext(ab, w, bi, vv.bs), t;
        if (!strcmp(vv.op, "add")) t = x + y;
        else if (!strcmp(vv.op, "sub")) t = x - y;
        else if (!strcmp(vv.op, "min")) t = x < y ? x : y;
        else t = x > y ? x - y : y - x; /* absdiff */
        if (vv.sat) t = sat(t, w, vv.ds);
        int on = !*vv.mask || strchr(vv.mask + 1, '0' + i);
        uint32_t em = (uint32_t)((1ull << w) - 1);
        if (vv.add) d += on ? (uint32_t)t : 0;
        else d |= ((on ? (uint32_t)t : c >> (w * i)) & em) << (w * i);
    }
    return d;
}

static void run(const char *body, uint32_t (*f)(uint32_t, uint32_t, uint32_t)) {
    enum { M = 96 };
    static uint64_t a[M], b[M], c[M], out[M];
    static const uint32_t edge[8] = {0, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x7F7F8080u, 0x80FF017Fu,
                                     0x00010000u, 0xFFFF0001u};
    for (int i = 0; i < M; i++) {
        a[i] = i < 64 ? edge[i % 8] : (uint32_t)(0x9E3779B9u * (uint32_t)i);
        b[i] = i < 64 ? edge[i / 8] : (uint32_t)(0x85EBCA6Bu * (uint32_t)(i + 7));
        if (strstr(body, "vsh") && i % 3 == 0) b[i] = (uint32_t)i % 40; /* useful shift amounts */
        c[i] = (uint32_t)(0xC2B2AE35u * (uint32_t)(i + 1));
    }
    ws_fault fault;
    ws_status s = wx_eval(body, M, a, b, c, out, &fault);
    CHECK_MSG(s == WS_OK, "%s: %s", body, s == WS_OK ? "" : fault.msg);
    int bad = 0;
    for (int i = 0; s == WS_OK && i < M && bad < 4; i++) {
        uint32_t want = f((uint32_t)a[i], (uint32_t)b[i], (uint32_t)c[i]);
        if ((uint32_t)out[i] != want) {
            bad++;
            CHECK_MSG(0, "%s a=%#x b=%#x c=%#x: got %#x, want %#x", body, (uint32_t)a[i], (uint32_t)b[i],
                      (uint32_t)c[i], (uint32_t)out[i], want);
        }
    }
}

static const char *ty(int sg) { return sg ? "s32" : "u32"; }

TEST(exec_video_scalar_selectors_and_shifts) {
    static const scase cases[] = {
        {"add", 1, 1, 1, 0, 0, "", "b0", "h1", ""},
        {"sub", 0, 1, 0, 1, 0, "", "b3", "b1", ""},
        {"min", 1, 1, 1, 0, 0, "", "h1", "", "add"},
        {"absdiff", 0, 0, 1, 1, 0, "", "h0", "b2", "max"},
        {"add", 1, 1, 1, 1, 0, "b1", "b0", "b3", ""},    /* saturated to a byte, merged into c's byte 1 */
        {"max", 0, 0, 0, 0, 0, "h1", "h0", "h1", ""},
        {"sub", 1, 0, 1, 1, 0, "h0", "", "b2", ""},
        {"shl", 0, 0, 0, 0, 0, "", "", "", ""},
        {"shl", 1, 1, 0, 1, 1, "", "b1", "", ""},        /* .wrap, .sat */
        {"shr", 1, 1, 0, 0, 0, "", "h1", "", ""},        /* arithmetic */
        {"shr", 0, 0, 0, 0, 1, "b2", "", "", ""},
        {"shl", 0, 1, 0, 0, 0, "", "", "", "add"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        sc = cases[k];
        char body[200], mode[16] = "";
        bool sh = !strcmp(sc.op, "shl") || !strcmp(sc.op, "shr");
        if (sh) snprintf(mode, sizeof mode, ".%s", sc.wrap ? "wrap" : "clamp");
        bool c = *sc.dsel || *sc.op2;
        snprintf(body, sizeof body, "v%s.%s.%s.%s%s%s%s%s %%r9%s%s, %%r1%s%s, %%r2%s%s%s;\ncvt.u64.u32 %%rd7, %%r9;",
                 sc.op, ty(sc.ds), ty(sc.as), sh ? "u32" : ty(sc.bs), sc.sat ? ".sat" : "", mode,
                 *sc.op2 ? "." : "", sc.op2, *sc.dsel ? "." : "", sc.dsel, *sc.asel ? "." : "", sc.asel,
                 *sc.bsel ? "." : "", sc.bsel, c ? ", %r3" : "");
        if (sh) sc.bs = 0;
        run(body, scalar_m);
    }
}

TEST(exec_video_simd_selectors_and_masks) {
    static const vcase2 cases[] = {
        {"add", 2, 1, 1, 1, 0, 0, "", "h01", "h23"},      /* a's halves swapped */
        {"sub", 2, 0, 0, 0, 1, 0, "h1", "h32", "h10"},    /* b - a, high half only: low half from c */
        {"min", 2, 1, 1, 0, 0, 1, "h0", "h22", "h31"},    /* .add of the masked element */
        {"add", 4, 0, 0, 0, 1, 0, "b31", "b0123", "b7654"},
        {"absdiff", 4, 1, 1, 1, 0, 0, "b20", "b4567", "b3210"},
        {"sub", 4, 1, 1, 1, 0, 1, "b3210", "b7531", "b6420"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        vv = cases[k];
        char body[200];
        snprintf(body, sizeof body, "v%s%d.%s.%s.%s%s%s %%r9%s%s, %%r1%s%s, %%r2%s%s, %%r3;\ncvt.u64.u32 %%rd7, %%r9;",
                 vv.op, vv.n, ty(vv.ds), ty(vv.as), ty(vv.bs), vv.sat ? ".sat" : "", vv.add ? ".add" : "",
                 *vv.mask ? "." : "", vv.mask, *vv.asel ? "." : "", vv.asel, *vv.bsel ? "." : "", vv.bsel);
        run(body, simd_m);
    }
}

/* vmad from the ISA's pseudo-code, in 128 bits. */
static int vm_as, vm_bs, vm_na, vm_nb, vm_nc, vm_po, vm_scale, vm_sat;
static uint32_t vmad_m(uint32_t a, uint32_t b, uint32_t c) {
    int64_t x = ext(a, 32, 0, vm_as), y = ext(b, 32, 0, vm_bs);
    int sgn = vm_as || vm_bs || (vm_na ^ vm_nb) || vm_nc;
    __int128 t = (__int128)x * y, lsb = 0;
    if (vm_po) lsb = 1;
    else if (vm_na ^ vm_nb) t = ~t, lsb = 1;
    else if (vm_nc) c = ~c, lsb = 1;
    t = t + (sgn ? (__int128)(int32_t)c : (__int128)c) + lsb;
    if (vm_scale) t >>= vm_scale;
    if (vm_sat) {
        __int128 lo = sgn ? INT32_MIN : 0, hi = sgn ? INT32_MAX : UINT32_MAX;
        t = t < lo ? lo : t > hi ? hi : t;
    }
    return (uint32_t)(uint64_t)t;
}

TEST(exec_video_vmad) {
    static const int cases[][8] = { /* as bs na nb nc po scale sat */
        {0, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 0, 0, 0, 0, 0, 1}, {0, 1, 1, 0, 0, 0, 7, 0}, {1, 0, 0, 0, 1, 0, 15, 1},
        {0, 0, 0, 0, 0, 1, 0, 1}, {1, 1, 1, 1, 0, 0, 0, 0}, {0, 0, 0, 1, 0, 0, 15, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const int *v = cases[k];
        vm_as = v[0], vm_bs = v[1], vm_na = v[2], vm_nb = v[3], vm_nc = v[4], vm_po = v[5], vm_scale = v[6],
        vm_sat = v[7];
        char body[200];
        snprintf(body, sizeof body, "vmad.s32.%s.%s%s%s%s %%r9, %s%%r1, %s%%r2, %s%%r3;\ncvt.u64.u32 %%rd7, %%r9;",
                 ty(vm_as), ty(vm_bs), vm_po ? ".po" : "", vm_sat ? ".sat" : "",
                 vm_scale == 7 ? ".shr7" : vm_scale == 15 ? ".shr15" : "", vm_na ? "-" : "", vm_nb ? "-" : "",
                 vm_nc ? "-" : "");
        run(body, vmad_m);
    }
}

/* sm_90's packed 16-bit integer add/sub/min/max: each half on its own,
   wrapping (run as the video SIMD forms). */
TEST(exec_packed_s16x2_u16x2) {
    CHECK_EQ_U64(wx_eval1("add.s16x2 %r9, %r1, %r2;\ncvt.u64.u32 %rd7, %r9;", 0x7FFF0001u, 0x00010002u, 0), 0x80000003u);
    CHECK_EQ_U64(wx_eval1("sub.u16x2 %r9, %r1, %r2;\ncvt.u64.u32 %rd7, %r9;", 0x00010005u, 0x00020001u, 0), 0xFFFF0004u);
    CHECK_EQ_U64(wx_eval1("max.s16x2 %r9, %r1, %r2;\ncvt.u64.u32 %rd7, %r9;", 0xFFFF0005u, 0x0001FFF0u, 0), 0x00010005u);
    CHECK_EQ_U64(wx_eval1("min.u16x2 %r9, %r1, %r2;\ncvt.u64.u32 %rd7, %r9;", 0xFFFF0005u, 0x0001FFF0u, 0), 0x00010005u);
    /* no-ops: programmatic dependent launch, performance-monitor events */
    CHECK_EQ_U64(wx_eval1("griddepcontrol.wait;\ngriddepcontrol.launch_dependents;\npmevent 3;\n"
                          "cvt.u64.u32 %rd7, %r1;", 42, 0, 0), 42);
}
