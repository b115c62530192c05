/* Float, conversion and f16/bf16 semantics of the functional engine. */
#include <math.h>

#include "exec/exec_internal.h"
#include "ptx/ptx.h"
#include "test_exec_util.h"

#define E1(body, a, b, c) wx_eval1(body, (uint64_t)(a), (uint64_t)(b), (uint64_t)(c))
#define F(x) wx_f32(x)
#define OF32(reg) "mov.b32 %r9, " reg "; cvt.u64.u32 %rd7, %r9;"
#define O32(reg) "cvt.u64.u32 %rd7, " reg ";"
#define OH(reg) "cvt.u64.u16 %rd7, " reg ";"

static const float SUB = 1e-40f; /* an f32 subnormal */

TEST(exec_float_basic_and_nan) {
    CHECK_EQ_U64(E1("add.f32 %f9, %f1, %f2;" OF32("%f9"), F(1.5f), F(2.25f), 0), F(3.75f));
    CHECK_EQ_U64(E1("fma.rn.f32 %f9, %f1, %f2, %f3;" OF32("%f9"), F(2), F(3), F(1)), F(7));
    CHECK_EQ_U64(E1("sub.f32 %f9, %f1, %f2;" OF32("%f9"), F(INFINITY), F(INFINITY), 0), 0x7FFFFFFFu);
    CHECK_EQ_U64(E1("neg.f32 %f9, %f1;" OF32("%f9"), F(0.0f), 0, 0), 0x80000000u);
    CHECK_EQ_U64(E1("abs.f32 %f9, %f1;" OF32("%f9"), F(-2.0f), 0, 0), F(2.0f));
    CHECK_EQ_U64(E1("add.f64 %fd9, %fd1, %fd2; mov.b64 %rd7, %fd9;", wx_f64(0.1), wx_f64(0.2), 0), wx_f64(0.1 + 0.2));
    CHECK_EQ_U64(E1("div.rn.f64 %fd9, %fd1, %fd2; mov.b64 %rd7, %fd9;", wx_f64(1), wx_f64(3), 0), wx_f64(1.0 / 3));
    CHECK_EQ_U64(E1("div.rn.f32 %f9, %f1, %f2;" OF32("%f9"), F(1), F(0), 0), F(INFINITY));
    CHECK_EQ_U64(E1("sqrt.rn.f32 %f9, %f1;" OF32("%f9"), F(-1), 0, 0), 0x7FFFFFFFu);
    CHECK_EQ_U64(E1("rcp.rn.f32 %f9, %f1;" OF32("%f9"), F(4), 0, 0), F(0.25f));
    CHECK_EQ_U64(E1("copysign.f32 %f9, %f1, %f2;" OF32("%f9"), F(-1), F(3), 0), F(-3));
}

TEST(exec_float_minmax_nan_and_zero) {
    CHECK_EQ_U64(E1("min.f32 %f9, %f1, %f2;" OF32("%f9"), F(NAN), F(2), 0), F(2));
    CHECK_EQ_U64(E1("max.f32 %f9, %f1, %f2;" OF32("%f9"), F(3), F(NAN), 0), F(3));
    CHECK_EQ_U64(E1("min.f32 %f9, %f1, %f2;" OF32("%f9"), F(NAN), F(NAN), 0), 0x7FFFFFFFu);
    CHECK_EQ_U64(E1("min.f32 %f9, %f1, %f2;" OF32("%f9"), F(0.0f), F(-0.0f), 0), 0x80000000u);
    CHECK_EQ_U64(E1("max.f32 %f9, %f1, %f2;" OF32("%f9"), F(-0.0f), F(0.0f), 0), 0);
    CHECK_EQ_U64(E1("max.NaN.f32 %f9, %f1, %f2;" OF32("%f9"), F(3), F(NAN), 0), 0x7FFFFFFFu);
    CHECK_EQ_U64(E1("min.f64 %fd9, %fd1, %fd2; mov.b64 %rd7, %fd9;", wx_f64(NAN), wx_f64(-1), 0), wx_f64(-1));
}

TEST(exec_float_rounding_modes) {
    /* 1 + 2^-24 is halfway between 1 and the next float: rn ties to even (1), rp rounds up */
    float one_up = nextafterf(1.0f, 2.0f);
    CHECK_EQ_U64(E1("add.rn.f32 %f9, %f1, %f2;" OF32("%f9"), F(1), F(0x1p-24f), 0), F(1));
    CHECK_EQ_U64(E1("add.rp.f32 %f9, %f1, %f2;" OF32("%f9"), F(1), F(0x1p-24f), 0), F(one_up));
    CHECK_EQ_U64(E1("add.rz.f32 %f9, %f1, %f2;" OF32("%f9"), F(-1), F(-0x1p-23f * 1.5f), 0), F(-nextafterf(1.0f, 2.0f)));
    CHECK_EQ_U64(E1("add.rm.f32 %f9, %f1, %f2;" OF32("%f9"), F(-1), F(-0x1p-24f), 0), F(-one_up));
    /* 3 * float(1/3) = 1 + 2^-25 (approximately): rz -> 1, rp -> next float up */
    CHECK_EQ_U64(E1("mul.rz.f32 %f9, %f1, %f2;" OF32("%f9"), F(3), F(1.0f / 3), 0), F(1.0f));
    CHECK_EQ_U64(E1("mul.rp.f32 %f9, %f1, %f2;" OF32("%f9"), F(3), F(1.0f / 3), 0), F(one_up));
    CHECK_EQ_U64(E1("div.rp.f32 %f9, %f1, %f2;" OF32("%f9"), F(1), F(3), 0), 0x3eaaaaabu);
    CHECK_EQ_U64(E1("div.rz.f32 %f9, %f1, %f2;" OF32("%f9"), F(1), F(3), 0), 0x3eaaaaaau);
    CHECK_EQ_U64(E1("div.rm.f32 %f9, %f1, %f2;" OF32("%f9"), F(-1), F(3), 0), 0xbeaaaaabu);
    CHECK_EQ_U64(E1("fma.rz.f64 %fd9, %fd1, %fd2, %fd3; mov.b64 %rd7, %fd9;", wx_f64(1), wx_f64(1), wx_f64(0x1p-60)),
                 wx_f64(1));
    CHECK_EQ_U64(E1("fma.rp.f64 %fd9, %fd1, %fd2, %fd3; mov.b64 %rd7, %fd9;", wx_f64(1), wx_f64(1), wx_f64(0x1p-60)),
                 wx_f64(nextafter(1.0, 2.0)));
}

TEST(exec_float_ftz_and_sat) {
    CHECK_EQ_U64(E1("add.f32 %f9, %f1, %f2;" OF32("%f9"), F(SUB), F(0), 0), F(SUB));
    CHECK_EQ_U64(E1("add.ftz.f32 %f9, %f1, %f2;" OF32("%f9"), F(SUB), F(0), 0), 0);
    CHECK_EQ_U64(E1("add.ftz.f32 %f9, %f1, %f2;" OF32("%f9"), F(-SUB), F(-0.0f), 0), 0x80000000u);
    CHECK_EQ_U64(E1("mul.ftz.f32 %f9, %f1, %f2;" OF32("%f9"), F(0x1p-100f), F(0x1p-30f), 0), 0);
    CHECK_EQ_U64(E1("mul.f32 %f9, %f1, %f2;" OF32("%f9"), F(0x1p-100f), F(0x1p-30f), 0), F(0x1p-130f));
    CHECK_EQ_U64(E1("add.sat.f32 %f9, %f1, %f2;" OF32("%f9"), F(0.75f), F(0.5f), 0), F(1));
    CHECK_EQ_U64(E1("add.sat.f32 %f9, %f1, %f2;" OF32("%f9"), F(-0.75f), F(0.5f), 0), 0);
    CHECK_EQ_U64(E1("mul.sat.f32 %f9, %f1, %f2;" OF32("%f9"), F(INFINITY), F(0), 0), 0); /* NaN -> 0 */
    CHECK_EQ_U64(E1("testp.subnormal.f32 %p1, %f1; selp.u32 %r9, 1, 0, %p1;" O32("%r9"), F(SUB), 0, 0), 1);
    CHECK_EQ_U64(E1("testp.notanumber.f32 %p1, %f1; selp.u32 %r9, 1, 0, %p1;" O32("%r9"), F(1), 0, 0), 0);
}

TEST(exec_float_setp_unordered) {
    CHECK_EQ_U64(E1("setp.lt.f32 %p1, %f1, %f2; selp.u32 %r9, 1, 0, %p1;" O32("%r9"), F(NAN), F(1), 0), 0);
    CHECK_EQ_U64(E1("setp.ltu.f32 %p1, %f1, %f2; selp.u32 %r9, 1, 0, %p1;" O32("%r9"), F(NAN), F(1), 0), 1);
    CHECK_EQ_U64(E1("setp.ne.f32 %p1, %f1, %f2; selp.u32 %r9, 1, 0, %p1;" O32("%r9"), F(NAN), F(NAN), 0), 0);
    CHECK_EQ_U64(E1("setp.neu.f32 %p1, %f1, %f2; selp.u32 %r9, 1, 0, %p1;" O32("%r9"), F(NAN), F(NAN), 0), 1);
    CHECK_EQ_U64(E1("setp.nan.f32 %p1, %f1, %f2; selp.u32 %r9, 1, 0, %p1;" O32("%r9"), F(1), F(NAN), 0), 1);
    CHECK_EQ_U64(E1("setp.num.f32 %p1, %f1, %f2; selp.u32 %r9, 1, 0, %p1;" O32("%r9"), F(1), F(2), 0), 1);
    CHECK_EQ_U64(E1("setp.eq.f32 %p1, %f1, %f2; selp.u32 %r9, 1, 0, %p1;" O32("%r9"), F(0.0f), F(-0.0f), 0), 1);
    CHECK_EQ_U64(E1("set.gt.f32.f32 %f9, %f1, %f2;" OF32("%f9"), F(2), F(1), 0), F(1));
}

/* Packed halves compared half by half (cuda_fp16's __hbgt2 / __hgt2):
   setp's p the low half, q the high; set's halves all ones (.u32) or 1.0
   (.f16x2); a NaN half is unordered. f16 0x4000 = 2, 0x3C00 = 1, 0x7E00 NaN. */
TEST(exec_float_packed_half_compare) {
    uint64_t a = 0x40003C00, b = 0x3C004000; /* a = {1, 2}, b = {2, 1} (low, high) */
    CHECK_EQ_U64(E1("set.gt.u32.f16x2 %r9, %r1, %r2;" O32("%r9"), a, b, 0), 0xFFFF0000u);
    CHECK_EQ_U64(E1("set.lt.f16x2.f16x2 %r9, %r1, %r2;" O32("%r9"), a, b, 0), 0x00003C00u);
    CHECK_EQ_U64(E1("setp.gt.f16x2 %p1|%p2, %r1, %r2; selp.u32 %r9, 1, 0, %p1; selp.u32 %r8, 2, 0, %p2;"
                    "add.u32 %r9, %r9, %r8;" O32("%r9"), a, b, 0), 2);
    CHECK_EQ_U64(E1("set.neu.u32.f16x2 %r9, %r1, %r2;" O32("%r9"), 0x7E003C00, 0x7E003C00, 0), 0xFFFF0000u);
    CHECK_EQ_U64(E1("set.ge.u32.bf16x2 %r9, %r1, %r2;" O32("%r9"), 0x3F804000, 0x40003F80, 0), 0x0000FFFFu);
    CHECK_EQ_U64(E1("mov.u32 %r9, WARP_SZ;" O32("%r9"), 0, 0, 0), 32);
}

TEST(exec_float_sfu_approx) {
    CHECK(fabsf(wx_tof32(E1("sin.approx.f32 %f9, %f1;" OF32("%f9"), F(1.0f), 0, 0)) - sinf(1.0f)) < 1e-6f);
    CHECK(fabsf(wx_tof32(E1("ex2.approx.ftz.f32 %f9, %f1;" OF32("%f9"), F(3.0f), 0, 0)) - 8.0f) < 1e-5f);
    CHECK(fabsf(wx_tof32(E1("lg2.approx.f32 %f9, %f1;" OF32("%f9"), F(8.0f), 0, 0)) - 3.0f) < 1e-6f);
    CHECK_EQ_U64(E1("lg2.approx.f32 %f9, %f1;" OF32("%f9"), F(0.0f), 0, 0), F(-INFINITY));
    CHECK(fabsf(wx_tof32(E1("rsqrt.approx.f32 %f9, %f1;" OF32("%f9"), F(4.0f), 0, 0)) - 0.5f) < 1e-6f);
    CHECK(fabsf(wx_tof32(E1("tanh.approx.f32 %f9, %f1;" OF32("%f9"), F(0.5f), 0, 0)) - tanhf(0.5f)) < 1e-5f);
    CHECK_EQ_U64(E1("div.approx.f32 %f9, %f1, %f2;" OF32("%f9"), F(1), F(4), 0), F(0.25f));
    CHECK_EQ_U64(E1("div.full.f32 %f9, %f1, %f2;" OF32("%f9"), F(3), F(4), 0), F(0.75f));
}

TEST(exec_cvt_float_int_saturation) {
    CHECK_EQ_U64(E1("cvt.rzi.s32.f32 %r9, %f1;" O32("%r9"), F(NAN), 0, 0), 0);
    CHECK_EQ_U64(E1("cvt.rzi.s32.f32 %r9, %f1;" O32("%r9"), F(3e9f), 0, 0), 0x7FFFFFFFu);
    CHECK_EQ_U64(E1("cvt.rzi.s32.f32 %r9, %f1;" O32("%r9"), F(-3e9f), 0, 0), 0x80000000u);
    CHECK_EQ_U64(E1("cvt.rzi.u32.f32 %r9, %f1;" O32("%r9"), F(-5.0f), 0, 0), 0);
    CHECK_EQ_U64(E1("cvt.rzi.u32.f32 %r9, %f1;" O32("%r9"), F(INFINITY), 0, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("cvt.rni.s32.f32 %r9, %f1;" O32("%r9"), F(2.5f), 0, 0), 2);
    CHECK_EQ_U64(E1("cvt.rni.s32.f32 %r9, %f1;" O32("%r9"), F(-3.5f), 0, 0), (uint32_t)-4);
    CHECK_EQ_U64(E1("cvt.rmi.s32.f32 %r9, %f1;" O32("%r9"), F(-0.5f), 0, 0), (uint32_t)-1);
    CHECK_EQ_U64(E1("cvt.rpi.s32.f32 %r9, %f1;" O32("%r9"), F(0.25f), 0, 0), 1);
    CHECK_EQ_U64(E1("cvt.rzi.s64.f64 %rd7, %fd1;", wx_f64(1e300), 0, 0), (uint64_t)INT64_MAX);
    CHECK_EQ_U64(E1("cvt.rzi.u64.f64 %rd7, %fd1;", wx_f64(1e300), 0, 0), UINT64_MAX);
    CHECK_EQ_U64(E1("cvt.rzi.s64.f64 %rd7, %fd1;", wx_f64(-1e300), 0, 0), (uint64_t)INT64_MIN);
    CHECK_EQ_U64(E1("cvt.rzi.s8.f32 %r9, %f1; cvt.u64.u32 %rd7, %r9;", F(200.0f), 0, 0), 127);
    CHECK_EQ_U64(E1("cvt.rn.f32.s32 %f9, %r1;" OF32("%f9"), (uint32_t)-3, 0, 0), F(-3.0f));
    CHECK_EQ_U64(E1("cvt.rn.f32.u32 %f9, %r1;" OF32("%f9"), 0xFFFFFFFFu, 0, 0), F(4294967296.0f));
    CHECK_EQ_U64(E1("cvt.rz.f32.u32 %f9, %r1;" OF32("%f9"), 0xFFFFFFFFu, 0, 0), F(4294967040.0f));
    CHECK_EQ_U64(E1("cvt.rn.f64.s64 %fd9, %rd4; mov.b64 %rd7, %fd9;", (uint64_t)-7, 0, 0), wx_f64(-7));
    CHECK_EQ_U64(E1("cvt.rn.f32.f64 %f9, %fd1;" OF32("%f9"), wx_f64(1.0 + 0x1p-30), 0, 0), F(1));
    CHECK_EQ_U64(E1("cvt.rp.f32.f64 %f9, %fd1;" OF32("%f9"), wx_f64(1.0 + 0x1p-30), 0, 0), F(nextafterf(1, 2)));
    CHECK_EQ_U64(E1("cvt.f64.f32 %fd9, %f1; mov.b64 %rd7, %fd9;", F(0.1f), 0, 0), wx_f64((double)0.1f));
    CHECK_EQ_U64(E1("cvt.rni.f32.f32 %f9, %f1;" OF32("%f9"), F(2.5f), 0, 0), F(2.0f));
    CHECK_EQ_U64(E1("cvt.ftz.f32.f32 %f9, %f1;" OF32("%f9"), F(SUB), 0, 0), 0);
    CHECK_EQ_U64(E1("cvt.sat.f32.f32 %f9, %f1;" OF32("%f9"), F(7.0f), 0, 0), F(1.0f));
}

TEST(exec_cvt_f16_bf16_rounding) {
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(1.0f), 0, 0), 0x3C00);
    /* 1 + 2^-11 is a tie between 1 and 1+2^-10: rn -> even (1), rp -> up */
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(1.0f + 0x1p-11f), 0, 0), 0x3C00);
    CHECK_EQ_U64(E1("cvt.rp.f16.f32 %h9, %f1;" OH("%h9"), F(1.0f + 0x1p-11f), 0, 0), 0x3C01);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(1.0f + 0x1p-11f + 0x1p-20f), 0, 0), 0x3C01);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(65520.0f), 0, 0), 0x7C00);
    CHECK_EQ_U64(E1("cvt.rz.f16.f32 %h9, %f1;" OH("%h9"), F(1e6f), 0, 0), 0x7BFF);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(0x1p-24f), 0, 0), 0x0001);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(0x1p-26f), 0, 0), 0x0000);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(-0.0f), 0, 0), 0x8000);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(NAN), 0, 0), 0x7FFF);
    CHECK_EQ_U64(E1("cvt.f32.f16 %f9, %h1;" OF32("%f9"), 0x0001, 0, 0), F(0x1p-24f));
    CHECK_EQ_U64(E1("cvt.f32.f16 %f9, %h1;" OF32("%f9"), 0xFC00, 0, 0), F(-INFINITY));
    CHECK_EQ_U64(E1("cvt.rn.bf16.f32 %h9, %f1;" OH("%h9"), F(1.0f + 0x1p-8f), 0, 0), 0x3F80);
    CHECK_EQ_U64(E1("cvt.rn.bf16.f32 %h9, %f1;" OH("%h9"), F(1.0f + 0x1p-8f + 0x1p-12f), 0, 0), 0x3F81);
    CHECK_EQ_U64(E1("cvt.f32.bf16 %f9, %h1;" OF32("%f9"), 0x4049, 0, 0), 0x40490000u);
    CHECK_EQ_U64(E1("cvt.rn.f16x2.f32 %r9, %f1, %f2;" O32("%r9"), F(1.0f), F(2.0f), 0), 0x3C004000u);
    CHECK_EQ_U64(E1("cvt.rni.s32.f16 %r9, %h1;" O32("%r9"), 0x3E00 /* 1.5 */, 0, 0), 2);
    CHECK_EQ_U64(E1("cvt.rn.f16.s32 %h9, %r1;" OH("%h9"), 2049, 0, 0), 0x6800); /* 2048: tie to even */
}

/* Values far beyond the half types' range overflow as IEEE 754 says (to
 * infinity, or to the largest finite value in the modes that round towards
 * zero): an earlier rounding helper cast the scaled value to an integer out of
 * range and returned 0 (cvt.rn.f16.f32 of 1e30 gave 0x0000). */
TEST(exec_cvt_half_overflow_edges) {
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(1e30f), 0, 0), 0x7C00);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(-1e30f), 0, 0), 0xFC00);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(3e38f), 0, 0), 0x7C00);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(65536.0f), 0, 0), 0x7C00);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(65504.0f), 0, 0), 0x7BFF);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(65519.0f), 0, 0), 0x7BFF);
    CHECK_EQ_U64(E1("cvt.rz.f16.f32 %h9, %f1;" OH("%h9"), F(1e30f), 0, 0), 0x7BFF);
    CHECK_EQ_U64(E1("cvt.rm.f16.f32 %h9, %f1;" OH("%h9"), F(1e30f), 0, 0), 0x7BFF);
    CHECK_EQ_U64(E1("cvt.rm.f16.f32 %h9, %f1;" OH("%h9"), F(-1e30f), 0, 0), 0xFC00);
    CHECK_EQ_U64(E1("cvt.rp.f16.f32 %h9, %f1;" OH("%h9"), F(1e30f), 0, 0), 0x7C00);
    CHECK_EQ_U64(E1("cvt.rp.f16.f32 %h9, %f1;" OH("%h9"), F(-1e30f), 0, 0), 0xFBFF);
    CHECK_EQ_U64(E1("cvt.rn.f16.f64 %h9, %fd1;" OH("%h9"), wx_f64(1e200), 0, 0), 0x7C00);
    CHECK_EQ_U64(E1("cvt.rn.f16.f64 %h9, %fd1;" OH("%h9"), wx_f64(-1e200), 0, 0), 0xFC00);
    CHECK_EQ_U64(E1("cvt.rn.f16.f64 %h9, %fd1;" OH("%h9"), wx_f64(1e-200), 0, 0), 0x0000);
    CHECK_EQ_U64(E1("cvt.rn.f16.u64 %h9, %rd4;" OH("%h9"), UINT64_MAX, 0, 0), 0x7C00);
    CHECK_EQ_U64(E1("cvt.rn.f16.s32 %h9, %r1;" OH("%h9"), (uint32_t)-100000, 0, 0), 0xFC00);
    CHECK_EQ_U64(E1("cvt.rz.f16.s32 %h9, %r1;" OH("%h9"), 100000, 0, 0), 0x7BFF);
    CHECK_EQ_U64(E1("cvt.sat.f16.f32 %h9, %f1;" OH("%h9"), F(1e30f), 0, 0), 0x3C00);
    CHECK_EQ_U64(E1("cvt.rn.f16.f32 %h9, %f1;" OH("%h9"), F(INFINITY), 0, 0), 0x7C00);
    /* bf16 has f32's exponent range: only f64 inputs (or f32 rounding up) overflow */
    CHECK_EQ_U64(E1("cvt.rn.bf16.f64 %h9, %fd1;" OH("%h9"), wx_f64(1e200), 0, 0), 0x7F80);
    CHECK_EQ_U64(E1("cvt.rn.bf16.f64 %h9, %fd1;" OH("%h9"), wx_f64(-1e200), 0, 0), 0xFF80);
    CHECK_EQ_U64(E1("cvt.rz.bf16.f64 %h9, %fd1;" OH("%h9"), wx_f64(1e200), 0, 0), 0x7F7F);
    CHECK_EQ_U64(E1("cvt.rn.bf16.f32 %h9, %f1;" OH("%h9"), F(3.4028235e38f), 0, 0), 0x7F80);
    CHECK_EQ_U64(E1("cvt.rz.bf16.f32 %h9, %f1;" OH("%h9"), F(3.4028235e38f), 0, 0), 0x7F7F);
    CHECK_EQ_U64(E1("cvt.rn.bf16.f32 %h9, %f1;" OH("%h9"), F(NAN), 0, 0), 0x7FFF);
}

#ifdef __FLT16_MAX__
/* Round-to-nearest f32 -> f16 against the compiler's own IEEE conversion on
 * a spread of bit patterns covering every exponent, both signs, and
 * the overflow, subnormal and tie regions. */
TEST(exec_cvt_f16_matches_ieee) {
    uint32_t seed = 12345;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 1664525u + 1013904223u;
        uint32_t bits = seed;
        float f;
        memcpy(&f, &bits, 4);
        if (f != f) continue; /* NaN payloads: canonical 0x7FFF, tested above */
        _Float16 h = (_Float16)f;
        uint16_t want;
        memcpy(&want, &h, 2);
        uint16_t got = ws_double_to_f16((double)f, WS_RND_RN);
        CHECK_MSG(got == want, "f32 0x%08x: got 0x%04x, IEEE 0x%04x", bits, got, want);
        if (got != want) return;
    }
}
#endif

TEST(exec_f16_arith) {
    CHECK_EQ_U64(E1("add.f16 %h9, %h1, %h2;" OH("%h9"), 0x3C00, 0x3C00, 0), 0x4000);
    CHECK_EQ_U64(E1("mul.rn.f16 %h9, %h1, %h2;" OH("%h9"), 0x4000, 0x4200, 0), 0x4600);
    CHECK_EQ_U64(E1("fma.rn.f16 %h9, %h1, %h2, %h3;" OH("%h9"), 0x4000, 0x4000, 0x3C00), 0x4500);
    CHECK_EQ_U64(E1("neg.f16 %h9, %h1;" OH("%h9"), 0x3C00, 0, 0), 0xBC00);
    CHECK_EQ_U64(E1("abs.f16 %h9, %h1;" OH("%h9"), 0xBC00, 0, 0), 0x3C00);
    CHECK_EQ_U64(E1("min.f16 %h9, %h1, %h2;" OH("%h9"), 0x7E00, 0x3C00, 0), 0x3C00);
    CHECK_EQ_U64(E1("add.f16x2 %r9, %r1, %r2;" O32("%r9"), 0x3C004000u, 0x3C003C00u, 0), 0x40004200u);
    CHECK_EQ_U64(E1("add.f16 %h9, %h1, %h2;" OH("%h9"), 0x7BFF, 0x7BFF, 0), 0x7C00);
    CHECK_EQ_U64(E1("add.bf16 %h9, %h1, %h2;" OH("%h9"), 0x3F80, 0x3F80, 0), 0x4000);
    CHECK_EQ_U64(E1("fma.rn.bf16 %h9, %h1, %h2, %h3;" OH("%h9"), 0x4000, 0x4040, 0x3F80), 0x40E0);
}

/* Forms that would give wrong answers are refused: mixed precision
 * (add.f32.f16, PTX 8.6) by the parser, redux on floats when executed. */
TEST(exec_float_refuses_unimplemented_forms) {
    uint64_t a = 0x3C00, b = 0x4000, c = 0, out = 0;
    ws_fault f;
    ws_diag d;
    const char *src = WX_HEAD ".visible .entry k()\n{\n.reg .f32 %f<4>;\n.reg .b16 %h<4>;\n"
                      "add.rn.f32.f16 %f1, %h1, %f2;\nret;\n}\n";
    ws_module *m = ws_ptx_parse(src, strlen(src), "t.ptx", &d);
    CHECK(m == NULL && strstr(d.msg, "mixed-precision") != NULL);
    ws_module_free(m);
    CHECK_EQ_I64(wx_eval("redux.sync.min.f32 %f4, %f1, 0xffffffff;", 1, &a, &b, &c, &out, &f), WS_ERR_UNSUPPORTED);
}
