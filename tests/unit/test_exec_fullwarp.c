/* Full-warp fast paths of the functional engine (all 32 lanes active: counted
 * or vector lane loops, values read once per instruction) give what the
 * per-lane path gives: each body runs once on a full warp and once per lane
 * on a one-thread CTA (a one-lane mask, the general path). */
#include "test_exec_util.h"

static const uint64_t fw_vals[] = {
    0, 1, 2, 31, 32, 33, 63, 64, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0xFFFFFFFEu,
    0x100000000ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, UINT64_MAX,
    0x3F800000u /* 1.0f */, 0xBF800000u /* -1.0f */, 0x7F800000u /* inf */, 0x7FC00001u /* nan */,
    0x00000001u /* denormal */, 0x40490FDBu /* pi */, 0xC2F6E979u, 0x12345678u,
    0xFFFF8000u, 0x8000u, 0x7FFFu, 0xDEADBEEFCAFEF00Dull, 5, 7, 100, 0x42280000u /* 42.0f */};

/* body on n threads (lanes 0..n-1) vs lane by lane; lane i gets (vals[i], vals[(i*7+3)%32],
   vals[(i*13+5)%32]) */
static void nw_check(const char *body, int n) {
    uint64_t a[32], b[32], c[32], out[32] = {0};
    for (int i = 0; i < 32; i++) {
        a[i] = fw_vals[i];
        b[i] = fw_vals[(i * 7 + 3) % 32];
        c[i] = fw_vals[(i * 13 + 5) % 32];
    }
    ws_fault f;
    ws_status st = wx_eval(body, n, a, b, c, out, &f);
    if (st != WS_OK) ws_test_fail(__FILE__, __LINE__, "eval of '%s' failed: %s %s", body, ws_status_name(st), f.msg);
    for (int i = 0; i < n; i++) {
        uint64_t one = wx_eval1(body, a[i], b[i], c[i]);
        if (one != out[i])
            ws_test_fail(__FILE__, __LINE__, "'%s' (%d threads) lane %d: %llx, one lane %llx", body, n, i,
                         (unsigned long long)out[i], (unsigned long long)one);
    }
}

/* body on a full warp vs lane by lane */
static void fw_check(const char *body) { nw_check(body, 32); }

TEST(exec_fullwarp_int) {
    fw_check("add.s32 %r9, %r1, %r2; cvt.u64.u32 %rd7, %r9;");
    fw_check("add.s64 %rd7, %rd4, %rd5;");
    fw_check("sub.u32 %r9, %r1, %r2; cvt.u64.u32 %rd7, %r9;");
    fw_check("sub.s64 %rd7, %rd4, %rd5;");
    fw_check("add.s64 %rd4, %rd4, %rd4; sub.s64 %rd7, %rd4, %rd5;"); /* destination = source */
    fw_check("add.s32 %r9, %r1, 7; cvt.u64.u32 %rd7, %r9;");          /* immediate operand */
    fw_check("shl.b32 %r9, %r1, %r2; cvt.u64.u32 %rd7, %r9;");
    fw_check("shl.b64 %rd7, %rd4, %r2;");
    fw_check("mov.u64 %rd7, %rd5;");
    fw_check("mov.u32 %r9, 12345; cvt.u64.u32 %rd7, %r9;");
}

/* mul/mad .lo and .wide (exec_int.c's mul_lo_lanes) */
TEST(exec_fullwarp_mul_mad) {
    static const char *ty[] = {"s16", "u16", "s32", "u32", "s64", "u64"};
    char body[200];
    for (unsigned t = 0; t < sizeof ty / sizeof *ty; t++) {
        bool is64 = ty[t][1] == '6', is16 = ty[t][1] == '1';
        const char *A = is64 ? "%rd4" : is16 ? "%h1" : "%r1", *B = is64 ? "%rd5" : is16 ? "%h2" : "%r2",
                   *C = is64 ? "%rd6" : is16 ? "%h3" : "%r3", *D = is64 ? "%rd7" : is16 ? "%h4" : "%r9";
        const char *out = is64 ? "" : is16 ? "cvt.u64.u16 %rd7, %h4;" : "cvt.u64.u32 %rd7, %r9;";
        snprintf(body, sizeof body, "mul.lo.%s %s, %s, %s; %s", ty[t], D, A, B, out);
        fw_check(body);
        snprintf(body, sizeof body, "mad.lo.%s %s, %s, %s, %s; %s", ty[t], D, A, B, C, out);
        fw_check(body);
        snprintf(body, sizeof body, "mul.%s %s, %s, %s; %s", ty[t], D, A, B, out); /* no .lo: the same */
        if (is64) fw_check(body);
        if (is64) continue;
        const char *W = is16 ? "%r9" : "%rd7", *WC = is16 ? "%r3" : "%rd6";
        const char *wout = is16 ? "cvt.u64.u32 %rd7, %r9;" : "";
        snprintf(body, sizeof body, "mul.wide.%s %s, %s, %s; %s", ty[t], W, A, B, wout);
        fw_check(body);
        snprintf(body, sizeof body, "mad.wide.%s %s, %s, %s, %s; %s", ty[t], W, A, B, WC, wout);
        fw_check(body);
    }
    fw_check("mad.lo.s32 %r1, %r1, %r2, %r1; cvt.u64.u32 %rd7, %r1;"); /* destination = sources */
    fw_check("mul.lo.u32 %r9, %r1, 7; cvt.u64.u32 %rd7, %r9;");         /* immediate operand */
}

/* mul_lo_lanes on a partial warp (20 threads: lanes 0..19 active), against the
   rule computed here: operands extended from the type's width, the product (and
   for mad the addend) kept to the result's width rb */
TEST(exec_partialwarp_mul_mad) {
    static const char *ty[] = {"s16", "u16", "s32", "u32", "s64", "u64"};
    static const unsigned tbits[] = {16, 16, 32, 32, 64, 64};
    char body[200];
    uint64_t a[32], b[32], c[32];
    for (int i = 0; i < 32; i++) {
        a[i] = fw_vals[i];
        b[i] = fw_vals[(i * 7 + 3) % 32];
        c[i] = fw_vals[(i * 13 + 5) % 32];
    }
    for (unsigned t = 0; t < 6; t++)
        for (unsigned form = 0; form < 4; form++) { /* mul.lo mad.lo mul.wide mad.wide */
            bool is64 = tbits[t] == 64, is16 = tbits[t] == 16, wide = form >= 2, mad = form & 1;
            if (wide && is64) continue;
            const char *A = is64 ? "%rd4" : is16 ? "%h1" : "%r1", *B = is64 ? "%rd5" : is16 ? "%h2" : "%r2";
            const char *C = wide ? (is16 ? "%r3" : "%rd6") : is64 ? "%rd6" : is16 ? "%h3" : "%r3";
            const char *D = wide ? (is16 ? "%r9" : "%rd7") : is64 ? "%rd7" : is16 ? "%h4" : "%r9";
            const char *out = wide ? (is16 ? "cvt.u64.u32 %rd7, %r9;" : "")
                                   : is64 ? "" : is16 ? "cvt.u64.u16 %rd7, %h4;" : "cvt.u64.u32 %rd7, %r9;";
            if (mad)
                snprintf(body, sizeof body, "mad.%s.%s %s, %s, %s, %s; %s", wide ? "wide" : "lo", ty[t], D, A, B, C, out);
            else snprintf(body, sizeof body, "mul.%s.%s %s, %s, %s; %s", wide ? "wide" : "lo", ty[t], D, A, B, out);
            uint64_t got[32] = {0};
            ws_fault f;
            ws_status st = wx_eval(body, 20, a, b, c, got, &f);
            if (st != WS_OK) {
                ws_test_fail(__FILE__, __LINE__, "eval of '%s' failed: %s %s", body, ws_status_name(st), f.msg);
                continue;
            }
            unsigned bits = tbits[t], sh = 64 - bits, rb = wide ? 2 * bits : bits;
            bool sg = ty[t][0] == 's';
            uint64_t rm = rb >= 64 ? ~0ull : (1ull << rb) - 1;
            for (int i = 0; i < 20; i++) {
                uint64_t ea = sg ? (uint64_t)((int64_t)(a[i] << sh) >> sh) : (a[i] << sh) >> sh;
                uint64_t eb = sg ? (uint64_t)((int64_t)(b[i] << sh) >> sh) : (b[i] << sh) >> sh;
                uint64_t p = ea * eb, want = ((mad ? (p & rm) + (c[i] & rm) : p) & rm);
                if (got[i] != want)
                    ws_test_fail(__FILE__, __LINE__, "'%s' lane %d: %llx, want %llx", body, i,
                                 (unsigned long long)got[i], (unsigned long long)want);
            }
        }
}

/* Partial warps against lane by lane: n threads (lanes 0..n-1, one run: WS_FOR_MASK's
   counted loop, the kernel's ld.param fills), and guards that leave scattered lanes
   (the lane-by-lane loop), through the add/sub entry, not, setp and mad.lo. */
TEST(exec_partialwarp_lane_loops) {
    static const char *body[] = {
        "add.s32 %r9, %r1, %r2; cvt.u64.u32 %rd7, %r9;",
        "sub.s64 %rd7, %rd4, %rd5;",
        "add.s64 %rd4, %rd4, %rd4; sub.s64 %rd7, %rd4, %rd5;",
        "not.b32 %r9, %r1; cvt.u64.u32 %rd7, %r9;",
        "setp.ge.s32 %p1, %r1, %r2; selp.u64 %rd7, 1, 2, %p1;",
        "mad.lo.s32 %r9, %r1, %r2, %r3; cvt.u64.u32 %rd7, %r9;",
        "and.b64 %rd10, %rd6, 1; setp.ne.u64 %p5, %rd10, 0; mov.u32 %r9, 77;"
        " @%p5 add.s32 %r9, %r1, %r2; cvt.u64.u32 %rd7, %r9;",
        "and.b64 %rd10, %rd6, 2; setp.ne.u64 %p5, %rd10, 0; @%p5 sub.s64 %rd7, %rd4, %rd5;",
        "and.b64 %rd10, %rd6, 4; setp.eq.u64 %p5, %rd10, 0; mov.u32 %r9, 77;"
        " @%p5 mad.lo.u32 %r9, %r1, %r2, %r3; cvt.u64.u32 %rd7, %r9;",
    };
    static const int n[] = {1, 5, 16, 20, 31};
    for (unsigned k = 0; k < sizeof body / sizeof *body; k++)
        for (unsigned j = 0; j < sizeof n / sizeof *n; j++) nw_check(body[k], n[j]);
}

TEST(exec_fullwarp_setp) {
    static const char *cmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
    static const char *ty[] = {"s32", "u32", "s64", "u64", "s16", "b32"};
    char body[200];
    for (unsigned t = 0; t < sizeof ty / sizeof *ty; t++)
        for (unsigned k = 0; k < sizeof cmp / sizeof *cmp; k++) {
            bool is64 = ty[t][1] == '6', is16 = ty[t][1] == '1';
            if (ty[t][0] == 'b' && k >= 2) continue; /* bit types: eq, ne only */
            const char *A = is64 ? "%rd4" : is16 ? "%h1" : "%r1", *B = is64 ? "%rd5" : is16 ? "%h2" : "%r2";
            snprintf(body, sizeof body, "setp.%s.%s %%p1, %s, %s; selp.u64 %%rd7, 1, 2, %%p1;", cmp[k], ty[t], A, B);
            fw_check(body);
        }
    fw_check("setp.lt.s32 %p1, %r1, %r2; setp.gt.and.u32 %p2, %r1, 5, %p1; selp.u64 %rd7, 1, 2, %p2;");
}

TEST(exec_fullwarp_float) {
    static const char *op[] = {"add", "sub", "mul", "div.rn", "div.approx", "div.full"};
    char body[160];
    for (unsigned k = 0; k < sizeof op / sizeof *op; k++) {
        snprintf(body, sizeof body, "%s.f32 %%f4, %%f1, %%f2; mov.b32 %%r9, %%f4; cvt.u64.u32 %%rd7, %%r9;", op[k]);
        fw_check(body);
    }
    fw_check("sub.f32 %f1, %f1, %f1; mov.b32 %r9, %f1; cvt.u64.u32 %rd7, %r9;");
    fw_check("fma.rn.f32 %f4, %f1, %f2, %f3; mov.b32 %r9, %f4; cvt.u64.u32 %rd7, %r9;");
    fw_check("mad.rn.f32 %f4, %f1, %f2, %f3; mov.b32 %r9, %f4; cvt.u64.u32 %rd7, %r9;");
    fw_check("fma.rn.f32 %f1, %f1, %f2, %f1; mov.b32 %r9, %f1; cvt.u64.u32 %rd7, %r9;"); /* destination = sources */
}

TEST(exec_fullwarp_mem_sreg) {
    /* 32-bit global loads and stores (the input buffers are per-thread u64s) */
    fw_check("ld.global.u32 %r9, [%rd2+4]; cvt.u64.u32 %rd7, %r9;");
    fw_check("ld.global.s32 %r9, [%rd2]; cvt.s64.s32 %rd7, %r9;");
    fw_check("st.global.u32 [%rd3], %r1; ld.global.u64 %rd7, [%rd3];");
    /* shared: each thread its own slot */
    fw_check(".shared .align 8 .b8 fw_sm[256]; mov.u32 %r9, fw_sm; shl.b32 %r10, %r0, 3; add.s32 %r9, %r9, %r10;"
             "st.shared.u32 [%r9], %r1; ld.shared.s32 %r11, [%r9]; cvt.s64.s32 %rd7, %r11;");
    fw_check(".shared .align 8 .b8 fw_sm[256]; mov.u32 %r9, fw_sm; shl.b32 %r10, %r0, 3; add.s32 %r9, %r9, %r10;"
             "st.shared.u32 [%r9], %r2; ld.shared.u32 %r11, [%r9]; cvt.u64.u32 %rd7, %r11;");
    fw_check("mov.u32 %r9, %ctaid.x; mov.u32 %r10, %nctaid.x; add.s32 %r9, %r9, %r10; cvt.u64.u32 %rd7, %r9;");
    /* a negative offset wraps the 32-bit base modulo 2^32 (exec_mem.c's addrs32_full) */
    fw_check(".shared .align 8 .b8 fw_sm[256]; mov.u32 %r9, fw_sm; shl.b32 %r10, %r0, 3; add.s32 %r9, %r9, %r10;"
             "add.s32 %r9, %r9, 12; st.shared.u32 [%r9+-12], %r1; ld.shared.u32 %r11, [%r9+-12]; cvt.u64.u32 %rd7, %r11;");
    /* %tid.x and %ntid.x depend on the CTA: checked directly */
    uint64_t a[32] = {0}, out[32];
    ws_fault f;
    CHECK(wx_eval("mov.u32 %r9, %tid.x; mov.u32 %r10, %ntid.x; mul.lo.u32 %r10, %r10, 100; add.s32 %r9, %r9, %r10;"
                  "cvt.u64.u32 %rd7, %r9;", 32, a, a, a, out, &f) == WS_OK);
    for (int i = 0; i < 32; i++) CHECK_EQ_U64(out[i], 3200u + (uint64_t)i);
}

/* The full-warp shared and global accesses check every lane before any has effect
   (one OR and one maximum over the warp): the last address that fits runs, one lane
   past the end or misaligned leaves the instruction to the per-lane path, which faults. */
TEST(exec_fullwarp_mem_bounds) {
    const char *sh = ".shared .align 8 .b8 fw_sm[256]; mov.u32 %r9, fw_sm; shl.b32 %r10, %r0, 3;"
                     "add.s32 %r9, %r9, %r10; add.s32 %r9, %r9, %r1; ld.shared.u32 %r11, [%r9];"
                     "cvt.u64.u32 %rd7, %r11;";
    uint64_t a[32] = {0}, out[32];
    ws_fault f;
    a[31] = 4; /* lane 31 reads bytes 252..255 */
    CHECK(wx_eval(sh, 32, a, a, a, out, &f) == WS_OK);
    a[31] = 8; /* 256..259: past the end */
    CHECK(wx_eval(sh, 32, a, a, a, out, &f) != WS_OK);
    a[31] = 0;
    a[5] = 2; /* misaligned */
    CHECK(wx_eval(sh, 32, a, a, a, out, &f) != WS_OK);
    /* global: %rd2 is the thread's own u64 of a 32-thread buffer; lane 31 reads its
       high half (the buffer's last 4 bytes), then a misaligned word */
    const char *gl = "add.s64 %rd10, %rd2, %rd4; ld.global.u32 %r9, [%rd10]; cvt.u64.u32 %rd7, %r9;";
    uint64_t z[32] = {0};
    z[31] = 4;
    CHECK(wx_eval(gl, 32, z, z, z, out, &f) == WS_OK);
    z[31] = 1;
    CHECK(wx_eval(gl, 32, z, z, z, out, &f) != WS_OK);
}

/* ld.const and ld.param with a base register (exec_ro_space: every lane checked
   first, then the loads without the per-lane space decoding) read what the
   table holds: each thread reads a word chosen by its input, as u32, s16
   (sign-extended), v2.u32 and u64, in a full warp and in a partial one; a kernel
   parameter's words read through a register equal the parameter read by name.
   The last word that fits runs; one past the end and a misaligned address fault
   (the per-lane path says why). */
static uint32_t ro_word(uint64_t i) { return (uint32_t)(0x80007FF3u * (unsigned)(i + 1)); }

static const char *ro_kernel(char *buf, size_t n, const char *ld) {
    char init[64 * 12] = {0};
    size_t k = 0;
    for (int i = 0; i < 64; i++)
        k += (size_t)snprintf(init + k, sizeof init - k, "%s%u", i ? ", " : "", ro_word((uint64_t)i));
    snprintf(buf, n,
             WX_HEAD ".const .align 8 .u32 rt[64] = {%s};\n"
             ".visible .entry k(.param .u64 po, .param .u64 pa, .param .u64 p2, .param .u64 p3)\n{\n"
             ".reg .b32 %%r<16>;\n.reg .b64 %%rd<16>;\n.reg .b16 %%h<4>;\n"
             "ld.param.u64 %%rd1, [po];\nld.param.u64 %%rd2, [pa];\nmov.u32 %%r0, %%tid.x;\n"
             "mul.wide.u32 %%rd9, %%r0, 8;\nadd.s64 %%rd1, %%rd1, %%rd9;\nadd.s64 %%rd2, %%rd2, %%rd9;\n"
             "ld.global.u64 %%rd4, [%%rd2];\nmov.u64 %%rd5, rt;\nadd.s64 %%rd5, %%rd5, %%rd4;\n"
             "mov.u64 %%rd6, pa;\nadd.s64 %%rd6, %%rd6, %%rd4;\nmov.u64 %%rd7, 0;\n%s\n"
             "st.global.u64 [%%rd1], %%rd7;\nret;\n}\n",
             init, ld);
    return buf;
}

static ws_status ro_run(const char *ld, int n, const uint64_t *off, uint64_t *out, ws_fault *f) {
    static char ptx[4096];
    wx_buf b[4] = {{NULL, out, (size_t)n * 8}, {off, NULL, (size_t)n * 8}, {NULL, NULL, 8}, {NULL, NULL, 8}};
    wx_cfg cfg = {0};
    cfg.block[0] = (uint32_t)n;
    return wx_launch(ro_kernel(ptx, sizeof ptx, ld), &cfg, b, 4, f, NULL);
}

static uint64_t ro_expect(unsigned v, uint64_t off) {
    uint64_t w0 = ro_word(off / 4), w1 = ro_word(off / 4 + 1);
    switch (v) {
    case 0: return w0;
    case 1: return (uint64_t)(int64_t)(int16_t)(w0 >> 16);
    case 2: return w0 * 3 + w1;
    case 3: return w0 | w1 << 32;
    default: return 0; /* the parameter's word minus the same word read by name */
    }
}

TEST(exec_fullwarp_const_param_loads) {
    static const char *lds[] = {
        "ld.const.u32 %r1, [%rd5];\ncvt.u64.u32 %rd7, %r1;",
        "ld.const.s16 %h1, [%rd5+2];\ncvt.s64.s16 %rd7, %h1;",
        "ld.const.v2.u32 {%r1, %r2}, [%rd5];\nmul.wide.u32 %rd7, %r1, 3;\ncvt.u64.u32 %rd8, %r2;\n"
        "add.s64 %rd7, %rd7, %rd8;",
        "ld.const.u64 %rd7, [%rd5];",
        /* a word of parameter pa (byte 0 or 4) against pa read by name, shifted */
        "ld.param.u32 %r1, [%rd6];\nld.param.u64 %rd10, [pa];\ncvt.u32.u64 %r3, %rd4;\n"
        "shl.b32 %r3, %r3, 3;\nshr.b64 %rd11, %rd10, %r3;\ncvt.u32.u64 %r4, %rd11;\n"
        "sub.s32 %r5, %r1, %r4;\ncvt.u64.u32 %rd7, %r5;",
    };
    uint64_t off[32], out[32];
    ws_fault f;
    for (unsigned v = 0; v < sizeof lds / sizeof *lds; v++) {
        bool param = v == 4;
        for (int n = 32; n > 0; n -= 27) { /* a full warp, then 5 lanes */
            for (int i = 0; i < 32; i++)
                off[i] = param ? 4 * (uint64_t)(i % 2) : 8 * (uint64_t)((i * 7 + 3) % 32);
            if (ro_run(lds[v], n, off, out, &f) != WS_OK)
                ws_test_fail(__FILE__, __LINE__, "load %u: %s", v, f.msg);
            for (int i = 0; i < n; i++) CHECK_EQ_U64(out[i], ro_expect(v, off[i]));
        }
        if (param) continue;
        /* the table's last word (v2 and u64: its last 8 bytes) fits; then past it, misaligned */
        for (int n = 32; n > 0; n -= 25) {
            for (int i = 0; i < 32; i++) off[i] = 0;
            off[n - 1] = v >= 2 ? 248 : 252;
            CHECK_EQ_I64(ro_run(lds[v], n, off, out, &f), WS_OK);
            CHECK_EQ_U64(out[n - 1], ro_expect(v, off[n - 1]));
            off[n - 1] = 256;
            CHECK(ro_run(lds[v], n, off, out, &f) == WS_ERR_ILLEGAL_ADDRESS);
            off[n - 1] = v >= 2 ? 4 : 1;
            CHECK(ro_run(lds[v], n, off, out, &f) == WS_ERR_MISALIGNED);
        }
    }
}

/* cvta to and from the generic windows, 64- and 32-bit (exec_conv.c's counted loop) */
TEST(exec_fullwarp_cvta) {
    fw_check("cvta.to.global.u64 %rd7, %rd4;");
    fw_check("cvta.global.u64 %rd7, %rd4;");
    fw_check("cvta.shared.u64 %rd7, %rd4;");
    fw_check("cvta.to.shared.u64 %rd7, %rd4;");
    fw_check("cvta.local.u64 %rd7, %rd5;");
    fw_check("cvta.to.local.u64 %rd7, %rd6;");
    fw_check("cvta.shared.u32 %r9, %r1; cvt.u64.u32 %rd7, %r9;");
    fw_check("cvta.to.shared.u32 %r9, %r2; cvt.u64.u32 %rd7, %r9;");
    fw_check("cvta.to.global.u64 %rd4, %rd4; mov.u64 %rd7, %rd4;"); /* destination = source */
}

/* A constant load through a 32-bit base register (the full warp's 32-bit address loop
   in exec_ro_space): words anywhere in the table, its last word, then one past it and
   a misaligned address, which the per-lane path faults on. */
TEST(exec_fullwarp_const_load_32bit_base) {
    const char *ld = "cvt.u32.u64 %r9, %rd5;\nld.const.u32 %r1, [%r9+-4];\ncvt.u64.u32 %rd7, %r1;";
    uint64_t off[32], out[32];
    ws_fault f;
    for (int n = 32; n > 0; n -= 27) {
        for (int i = 0; i < 32; i++) off[i] = 4 + 8 * (uint64_t)((i * 7 + 3) % 32);
        if (ro_run(ld, n, off, out, &f) != WS_OK) ws_test_fail(__FILE__, __LINE__, "%s", f.msg);
        for (int i = 0; i < n; i++) CHECK_EQ_U64(out[i], ro_expect(0, off[i] - 4));
        for (int i = 0; i < 32; i++) off[i] = 4;
        off[n - 1] = 256;
        CHECK_EQ_I64(ro_run(ld, n, off, out, &f), WS_OK);
        CHECK_EQ_U64(out[n - 1], ro_expect(0, 252));
        off[n - 1] = 260;
        CHECK(ro_run(ld, n, off, out, &f) == WS_ERR_ILLEGAL_ADDRESS);
        off[n - 1] = 6;
        CHECK(ro_run(ld, n, off, out, &f) == WS_ERR_MISALIGNED);
    }
}

/* mov of a special register fills the destination directly (exec_conv.c): the lanes a
   guard leaves out keep their value, for %tid (a per-lane table), %ctaid (one value
   for the warp) and %laneid (computed per lane). */
TEST(exec_fullwarp_mov_sreg_guarded) {
    static const char *sreg[] = {"%tid.x", "%ctaid.x", "%laneid", "%ntid.x"};
    char body[256];
    uint64_t a[32] = {0}, out[32];
    ws_fault f;
    for (unsigned k = 0; k < 4; k++) {
        snprintf(body, sizeof body,
                 "mov.u32 %%r9, 1000; and.b32 %%r10, %%r0, 1; setp.eq.u32 %%p1, %%r10, 1;"
                 "@%%p1 mov.u32 %%r9, %s; cvt.u64.u32 %%rd7, %%r9;", sreg[k]);
        CHECK(wx_eval(body, 32, a, a, a, out, &f) == WS_OK);
        for (int i = 0; i < 32; i++) {
            uint64_t want = i % 2 == 0 ? 1000 : k == 1 ? 0 : k == 3 ? 32 : (uint64_t)i;
            CHECK_EQ_U64(out[i], want);
        }
    }
}

/* atom/red on the explicit shared space (the checked whole-instruction path) against the
   same instruction through a generic address (cvta: the lane-by-lane path with
   ws_atom_apply): the values returned and the bins' final contents. Lanes of a 32-thread
   CTA hit 8 bins in lane order; `guard` masks some lanes off, `alias` makes the
   destination the value operand. */
static void atom_shared_vs_generic(const char *op, const char *type, bool wide, bool guard, bool alias) {
    char ptx[2][2048];
    const char *r = wide ? "%rd" : "%r";
    for (int g = 0; g < 2; g++) {
        char addr[64], inst[256];
        if (g) snprintf(addr, sizeof addr, "cvta.shared.u64 %%rd20, %%rd21;\nmov.u64 %%rd22, %%rd20;");
        else snprintf(addr, sizeof addr, "mov.u64 %%rd22, %%rd21;");
        const char *dst = alias ? (wide ? "%rd12" : "%r12") : (wide ? "%rd13" : "%r13");
        if (!strcmp(op, "cas"))
            snprintf(inst, sizeof inst, "%satom%s.cas.%s %s, [%%rd22], %s12, %s14;\n", guard ? "@%p1 " : "",
                     g ? "" : ".shared", type, dst, r, r);
        else
            snprintf(inst, sizeof inst, "%satom%s.%s.%s %s, [%%rd22], %s12;\n", guard ? "@%p1 " : "",
                     g ? "" : ".shared", op, type, dst, r);
        snprintf(ptx[g], sizeof ptx[g], WX_HEAD
                 ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po, .param .u64 pf)\n{\n"
                 ".reg .b32 %%r<32>;\n.reg .b64 %%rd<32>;\n.reg .pred %%p<4>;\n"
                 ".shared .align 8 .b8 bins[64];\n"
                 "mov.u32 %%r0, %%tid.x;\nmul.wide.u32 %%rd1, %%r0, 8;\n"
                 "ld.param.u64 %%rd2, [pa];\nadd.s64 %%rd2, %%rd2, %%rd1;\nld.global.u64 %%rd3, [%%rd2];\n"
                 "ld.param.u64 %%rd4, [pb];\nadd.s64 %%rd4, %%rd4, %%rd1;\nld.global.u64 %%rd12, [%%rd4];\n"
                 "ld.global.u64 %%rd14, [%%rd4+256];\ncvt.u32.u64 %%r12, %%rd12;\ncvt.u32.u64 %%r14, %%rd14;\n"
                 "and.b32 %%r2, %%r0, 3;\nsetp.ne.u32 %%p1, %%r2, 1;\n"
                 "mov.u64 %%rd5, bins;\nadd.s64 %%rd21, %%rd5, %%rd3;\n%s\n"
                 "mov.u64 %%rd13, 0;\nmov.u32 %%r13, 0;\n%s"
                 "%s"
                 "ld.param.u64 %%rd6, [po];\nadd.s64 %%rd6, %%rd6, %%rd1;\n%s\n"
                 "bar.sync 0;\nsetp.lt.u32 %%p2, %%r0, 8;\n@!%%p2 bra D;\n"
                 "ld.shared.u64 %%rd7, [%%rd5];\nld.param.u64 %%rd8, [pf];\nadd.s64 %%rd8, %%rd8, %%rd1;\n"
                 "mul.wide.u32 %%rd9, %%r0, 8;\nadd.s64 %%rd10, %%rd5, %%rd9;\nld.shared.u64 %%rd11, [%%rd10];\n"
                 "st.global.u64 [%%rd8], %%rd11;\nD:\nret;\n}\n",
                 addr, inst, wide ? "" : (alias ? "cvt.u64.u32 %rd13, %r12;\n" : "cvt.u64.u32 %rd13, %r13;\n"),
                 wide ? (alias ? "st.global.u64 [%rd6], %rd12;" : "st.global.u64 [%rd6], %rd13;")
                      : "st.global.u64 [%rd6], %rd13;");
    }
    unsigned esz = wide ? 8 : 4;
    uint64_t a[32], b[64];
    for (int i = 0; i < 32; i++) {
        a[i] = (uint64_t)((i * 5 + 3) % 8) * esz; /* bins 0..7 (of 8 bytes: 4-byte types use the low half) */
        b[i] = fw_vals[(i * 7 + 3) % 32] % (i & 1 ? 4 : UINT64_MAX);
        b[32 + i] = fw_vals[(i * 13 + 5) % 32];
    }
    uint64_t out[2][32], fin[2][8];
    for (int g = 0; g < 2; g++) {
        memset(out[g], 0, sizeof out[g]);
        memset(fin[g], 0, sizeof fin[g]);
        wx_buf bufs[4] = {{a, NULL, sizeof a}, {b, NULL, sizeof b}, {NULL, out[g], sizeof out[g]},
                          {NULL, fin[g], sizeof fin[g]}};
        wx_cfg cfg = {0};
        cfg.block[0] = 32;
        ws_fault f;
        ws_status st = wx_launch(ptx[g], &cfg, bufs, 4, &f, NULL);
        if (st != WS_OK)
            ws_test_fail(__FILE__, __LINE__, "atom.%s.%s (%s): %s %s", op, type, g ? "generic" : "shared",
                         ws_status_name(st), f.msg);
    }
    for (int i = 0; i < 32; i++)
        if (out[0][i] != out[1][i])
            ws_test_fail(__FILE__, __LINE__, "atom.%s.%s guard %d alias %d lane %d: shared %llx, generic %llx", op,
                         type, guard, alias, i, (unsigned long long)out[0][i], (unsigned long long)out[1][i]);
    for (int i = 0; i < 8; i++)
        if (fin[0][i] != fin[1][i])
            ws_test_fail(__FILE__, __LINE__, "atom.%s.%s guard %d alias %d bin %d: shared %llx, generic %llx", op,
                         type, guard, alias, i, (unsigned long long)fin[0][i], (unsigned long long)fin[1][i]);
}

TEST(exec_atom_shared_matches_generic) {
    static const char *ops[] = {"add", "min", "max", "inc", "dec", "cas", "exch", "and", "or", "xor"};
    static const char *t32[] = {"u32", "s32", "b32"}, *t64[] = {"u64", "s64", "b64"};
    for (unsigned o = 0; o < sizeof ops / sizeof *ops; o++)
        for (int w = 0; w < 2; w++)
            for (int ti = 0; ti < 3; ti++) {
                const char *t = (w ? t64 : t32)[ti];
                bool bit = t[0] == 'b', arith = !strcmp(ops[o], "add") || !strcmp(ops[o], "min") ||
                                                !strcmp(ops[o], "max") || !strcmp(ops[o], "inc") ||
                                                !strcmp(ops[o], "dec");
                bool logic = !strcmp(ops[o], "and") || !strcmp(ops[o], "or") || !strcmp(ops[o], "xor");
                if ((bit && arith) || (!bit && (logic || !strcmp(ops[o], "cas") || !strcmp(ops[o], "exch"))))
                    continue; /* PTX's type rules for each op */
                if (w && (!strcmp(ops[o], "inc") || !strcmp(ops[o], "dec"))) continue;
                for (int guard = 0; guard < 2; guard++)
                    for (int alias = 0; alias < 2; alias++) atom_shared_vs_generic(ops[o], t, w, guard, alias);
            }
}

/* The fast kinds (ws_inst.fast: add/sub, mul/mad .lo/.wide and integer setp on registers
   or a register and an immediate, and mov of a special register, run from the step without
   dispatch's decoding) against the general path: the same instruction with an
   immediate first source (not a fast form), or a special register read by add, on a
   full warp, a run of lanes and scattered lanes. */
static void fast_vs_general(const char *fast, const char *general) {
    static const int n[] = {32, 20, 5};
    uint64_t a[32], b[32], c[32];
    for (int i = 0; i < 32; i++) {
        a[i] = fw_vals[i];
        b[i] = fw_vals[(i * 7 + 3) % 32];
        c[i] = fw_vals[(i * 13 + 5) % 32];
    }
    for (unsigned j = 0; j < sizeof n / sizeof *n; j++) {
        uint64_t got[32] = {0}, want[32] = {0};
        ws_fault f;
        if (wx_eval(fast, n[j], a, b, c, got, &f) != WS_OK ||
            wx_eval(general, n[j], a, b, c, want, &f) != WS_OK) {
            ws_test_fail(__FILE__, __LINE__, "eval of '%s' / '%s' failed: %s", fast, general, f.msg);
            return;
        }
        for (int i = 0; i < n[j]; i++)
            if (got[i] != want[i])
                ws_test_fail(__FILE__, __LINE__, "'%s' (%d threads) lane %d: %llx, general %llx", fast,
                             n[j], i, (unsigned long long)got[i], (unsigned long long)want[i]);
    }
}

/* Each form (fmt: its two sources as %s) with a constant K: general (K, x) against the
   fast (R, x) after mov R, K, and for a commutative op (not sub) also (x, K). */
static void fast_forms(const char *const *forms, unsigned n, const char *x, const char *mov,
                       const char *reg) {
    static const char *k[] = {"0", "1", "7", "-1", "32767", "-2147483648"};
    char body[400], fast[500], general[400], m[80];
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < sizeof k / sizeof *k; j++) {
            snprintf(general, sizeof general, forms[i], k[j], x);
            snprintf(m, sizeof m, mov, k[j]);
            snprintf(body, sizeof body, forms[i], reg, x);
            snprintf(fast, sizeof fast, "%s %s", m, body);
            fast_vs_general(fast, general);
            if (strstr(forms[i], "sub.")) continue;
            snprintf(fast, sizeof fast, forms[i], x, k[j]);
            fast_vs_general(fast, general);
        }
}

TEST(exec_fast_kinds_match_general) {
    static const char *f32[] = {
        "add.s32 %%r9, %s, %s; cvt.u64.u32 %%rd7, %%r9;",
        "sub.u32 %%r9, %s, %s; cvt.u64.u32 %%rd7, %%r9;",
        "and.b64 %%rd10, %%rd6, 1; setp.ne.u64 %%p5, %%rd10, 0; mov.u32 %%r9, 77;"
        " @%%p5 add.s32 %%r9, %s, %s; cvt.u64.u32 %%rd7, %%r9;",
        "mul.lo.s32 %%r9, %s, %s; cvt.u64.u32 %%rd7, %%r9;",
        "mad.lo.u32 %%r9, %s, %s, %%r3; cvt.u64.u32 %%rd7, %%r9;",
        "mul.wide.s32 %%rd7, %s, %s;",
        "mad.wide.u32 %%rd7, %s, %s, %%rd6;",
        "and.b64 %%rd10, %%rd6, 4; setp.eq.u64 %%p5, %%rd10, 0; mov.u32 %%r9, 77;"
        " @%%p5 mad.lo.s32 %%r9, %s, %s, %%r2; cvt.u64.u32 %%rd7, %%r9;",
    };
    static const char *f64[] = {
        "add.s64 %%rd7, %s, %s;",
        "sub.s64 %%rd7, %s, %s;",
        "and.b64 %%rd12, %%rd6, 2; setp.ne.u64 %%p5, %%rd12, 0; mov.u64 %%rd7, 77; @%%p5 sub.s64 %%rd7, %s, %s;",
        "mul.lo.u64 %%rd7, %s, %s;",
        "mad.lo.s64 %%rd7, %s, %s, %%rd6;",
    };
    static const char *f16[] = {
        "add.u16 %%h4, %s, %s; cvt.u64.u16 %%rd7, %%h4;",
        "mul.lo.s16 %%h4, %s, %s; cvt.u64.u16 %%rd7, %%h4;",
    };
    fast_forms(f32, sizeof f32 / sizeof *f32, "%r1", "mov.u32 %%r10, %s;", "%r10");
    fast_forms(f64, sizeof f64 / sizeof *f64, "%rd4", "mov.u64 %%rd10, %s;", "%rd10");
    fast_forms(f16, sizeof f16 / sizeof *f16, "%h1", "mov.u16 %%h10, %s;", "%h10");
    /* setp of an integer type, a register or an immediate second source, one or two
       destinations, against .and with a true predicate (the general path) */
    static const char *cmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
    static const char *ty[] = {"s32", "u32", "s64", "u64", "s16", "b32"};
    for (unsigned t = 0; t < sizeof ty / sizeof *ty; t++)
        for (unsigned q = 0; q < sizeof cmp / sizeof *cmp; q++)
            for (unsigned imm = 0; imm < 2; imm++) {
                bool is64 = ty[t][1] == '6', is16 = ty[t][1] == '1';
                if (ty[t][0] == 'b' && q >= 2) continue; /* bit types: eq, ne only */
                const char *A = is64 ? "%rd4" : is16 ? "%h1" : "%r1";
                const char *B = imm ? "-5" : is64 ? "%rd5" : is16 ? "%h2" : "%r2";
                char f[300], g[300];
                snprintf(f, sizeof f, "setp.%s.%s %%p1|%%p2, %s, %s; selp.u64 %%rd7, 1, 2, %%p1;"
                         " selp.u64 %%rd8, 4, 0, %%p2; add.s64 %%rd7, %%rd7, %%rd8;", cmp[q], ty[t], A, B);
                snprintf(g, sizeof g, "setp.eq.s32 %%p6, %%r0, %%r0; setp.%s.and.%s %%p1|%%p2, %s, %s, %%p6;"
                         " selp.u64 %%rd7, 1, 2, %%p1; selp.u64 %%rd8, 4, 0, %%p2; add.s64 %%rd7, %%rd7, %%rd8;",
                         cmp[q], ty[t], A, B);
                fast_vs_general(f, g);
            }
    /* sub with an immediate second source: x - K is x + (-K) */
    fast_vs_general("sub.s32 %r9, %r1, 7; cvt.u64.u32 %rd7, %r9;", "add.s32 %r9, -7, %r1; cvt.u64.u32 %rd7, %r9;");
    fast_vs_general("sub.s64 %rd7, %rd4, -2147483648;", "add.s64 %rd7, 2147483648, %rd4;");
    fast_vs_general("mov.u32 %r9, %tid.x; cvt.u64.u32 %rd7, %r9;", "add.u32 %r9, %tid.x, 0; cvt.u64.u32 %rd7, %r9;");
    fast_vs_general("mov.u32 %r9, %ntid.x; mov.u32 %r10, %ctaid.x; add.s32 %r9, %r9, %r10; cvt.u64.u32 %rd7, %r9;",
                    "add.u32 %r9, %ntid.x, 0; add.u32 %r10, %ctaid.x, 0; add.s32 %r9, %r9, %r10; cvt.u64.u32 %rd7, %r9;");
}
