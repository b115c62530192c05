/* Integer and bit-manipulation semantics of the functional engine. */
#include <limits.h>

#include "test_exec_util.h"

#define E1(body, a, b, c) wx_eval1(body, (uint64_t)(a), (uint64_t)(b), (uint64_t)(c))
#define O32(reg) "cvt.u64.u32 %rd7, " reg ";"

TEST(exec_int_add_sub_wrap) {
    CHECK_EQ_U64(E1("add.s32 %r9, %r1, %r2;" O32("%r9"), INT_MAX, 1, 0), 0x80000000u);
    CHECK_EQ_U64(E1("sub.u32 %r9, %r1, %r2;" O32("%r9"), 0, 1, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("add.s64 %rd7, %rd4, %rd5;", UINT64_MAX, 2, 0), 1);
    CHECK_EQ_U64(E1("add.sat.s32 %r9, %r1, %r2;" O32("%r9"), INT_MAX, 5, 0), INT_MAX);
    CHECK_EQ_U64(E1("sub.sat.s32 %r9, %r1, %r2;" O32("%r9"), (uint32_t)INT_MIN, 5, 0), 0x80000000u);
}

TEST(exec_int_mul_div_rem) {
    CHECK_EQ_U64(E1("mul.hi.u32 %r9, %r1, %r2;" O32("%r9"), 0xFFFFFFFFu, 0xFFFFFFFFu, 0), 0xFFFFFFFEu);
    CHECK_EQ_U64(E1("mul.hi.s32 %r9, %r1, %r2;" O32("%r9"), (uint32_t)-2, 3, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("mul.wide.s32 %rd7, %r1, %r2;", (uint32_t)-3, 5, 0), (uint64_t)-15);
    CHECK_EQ_U64(E1("mul.wide.u32 %rd7, %r1, %r2;", 0xFFFFFFFFu, 2, 0), 0x1FFFFFFFEull);
    CHECK_EQ_U64(E1("mul.hi.u64 %rd7, %rd4, %rd5;", UINT64_MAX, UINT64_MAX, 0), UINT64_MAX - 1);
    CHECK_EQ_U64(E1("mul.hi.s64 %rd7, %rd4, %rd5;", (uint64_t)-1, 5, 0), UINT64_MAX);
    CHECK_EQ_U64(E1("mad.lo.s32 %r9, %r1, %r2, %r3;" O32("%r9"), 7, 6, 100), 142);
    CHECK_EQ_U64(E1("mad.wide.u32 %rd7, %r1, %r2, %rd6;", 0x80000000u, 4, 1), 0x200000001ull);
    CHECK_EQ_U64(E1("mad.hi.sat.s32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF), 0x7FFFFFFFu);
    /* division by zero is defined here: quotient all ones, remainder = dividend */
    CHECK_EQ_U64(E1("div.u32 %r9, %r1, %r2;" O32("%r9"), 7, 0, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("rem.u32 %r9, %r1, %r2;" O32("%r9"), 7, 0, 0), 7);
    CHECK_EQ_U64(E1("div.s32 %r9, %r1, %r2;" O32("%r9"), (uint32_t)INT_MIN, (uint32_t)-1, 0), 0x80000000u);
    CHECK_EQ_U64(E1("rem.s32 %r9, %r1, %r2;" O32("%r9"), (uint32_t)INT_MIN, (uint32_t)-1, 0), 0);
    CHECK_EQ_U64(E1("div.s32 %r9, %r1, %r2;" O32("%r9"), (uint32_t)-7, 2, 0), (uint32_t)-3);
    CHECK_EQ_U64(E1("rem.s32 %r9, %r1, %r2;" O32("%r9"), (uint32_t)-7, 2, 0), (uint32_t)-1);
    CHECK_EQ_U64(E1("div.s64 %rd7, %rd4, %rd5;", (uint64_t)INT64_MIN, (uint64_t)-1, 0), (uint64_t)INT64_MIN);
    CHECK_EQ_U64(E1("div.u64 %rd7, %rd4, %rd5;", 100, 0, 0), UINT64_MAX);
    CHECK_EQ_U64(E1("mul24.lo.u32 %r9, %r1, %r2;" O32("%r9"), 0xFF000002u, 3, 0), 6);
    CHECK_EQ_U64(E1("mul24.hi.u32 %r9, %r1, %r2;" O32("%r9"), 0xFFFFFF, 0xFFFFFF, 0),
                 (uint32_t)((0xFFFFFFull * 0xFFFFFFull) >> 16));
    CHECK_EQ_U64(E1("mad24.lo.s32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x00FFFFFF, 2, 1), (uint32_t)-1);
    CHECK_EQ_U64(E1("sad.s32 %r9, %r1, %r2, %r3;" O32("%r9"), (uint32_t)-5, 5, 1), 11);
    CHECK_EQ_U64(E1("sad.u32 %r9, %r1, %r2, %r3;" O32("%r9"), 3, 10, 0), 7);
}

TEST(exec_int_carry_chains) {
    /* 128-bit add: (2^64-1, 1) + (1, 2) = (0, 4) */
    CHECK_EQ_U64(E1("add.cc.u64 %rd10, %rd4, %rd5; addc.u64 %rd7, %rd6, 2;", UINT64_MAX, 1, 1), 4);
    CHECK_EQ_U64(E1("add.cc.u32 %r9, %r1, %r2; addc.cc.u32 %r10, 0, 0; addc.u32 %r11, 0, 0;" O32("%r10"),
                    0xFFFFFFFFu, 1, 0), 1);
    /* 64-bit sub via 32-bit halves: 0x1_00000000 - 1 */
    CHECK_EQ_U64(E1("sub.cc.u32 %r9, 0, 1; subc.u32 %r10, 1, 0; mov.b64 %rd7, {%r9, %r10};", 0, 0, 0),
                 0xFFFFFFFFull);
    CHECK_EQ_U64(E1("mad.lo.cc.u32 %r9, %r1, %r2, %r3; madc.hi.u32 %r10, %r1, %r2, 0;" O32("%r10"),
                    0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu), 0xFFFFFFFFu);
}

TEST(exec_int_abs_neg_minmax) {
    CHECK_EQ_U64(E1("abs.s32 %r9, %r1;" O32("%r9"), (uint32_t)INT_MIN, 0, 0), 0x80000000u);
    CHECK_EQ_U64(E1("abs.s32 %r9, %r1;" O32("%r9"), (uint32_t)-9, 0, 0), 9);
    CHECK_EQ_U64(E1("neg.s32 %r9, %r1;" O32("%r9"), 5, 0, 0), (uint32_t)-5);
    CHECK_EQ_U64(E1("min.s32 %r9, %r1, %r2;" O32("%r9"), (uint32_t)-1, 1, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("min.u32 %r9, %r1, %r2;" O32("%r9"), (uint32_t)-1, 1, 0), 1);
    CHECK_EQ_U64(E1("max.s64 %rd7, %rd4, %rd5;", (uint64_t)-1, 1, 0), 1);
    CHECK_EQ_U64(E1("max.u16 %h9, %h1, %h2; cvt.u64.u16 %rd7, %h9;", 0xFFFF, 1, 0), 0xFFFF);
    CHECK_EQ_U64(E1("min.s16 %h9, %h1, %h2; cvt.s64.s16 %rd7, %h9;", 0xFFFF, 1, 0), (uint64_t)-1);
}

TEST(exec_int_shifts_clamp) {
    CHECK_EQ_U64(E1("shl.b32 %r9, %r1, %r2;" O32("%r9"), 1, 31, 0), 0x80000000u);
    CHECK_EQ_U64(E1("shl.b32 %r9, %r1, %r2;" O32("%r9"), 1, 32, 0), 0);
    CHECK_EQ_U64(E1("shl.b32 %r9, %r1, %r2;" O32("%r9"), 1, 1000, 0), 0);
    CHECK_EQ_U64(E1("shr.u32 %r9, %r1, %r2;" O32("%r9"), 0x80000000u, 40, 0), 0);
    CHECK_EQ_U64(E1("shr.s32 %r9, %r1, %r2;" O32("%r9"), 0x80000000u, 40, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("shr.s32 %r9, %r1, %r2;" O32("%r9"), 0x80000000u, 4, 0), 0xF8000000u);
    CHECK_EQ_U64(E1("shr.u64 %rd7, %rd4, %r2;", 0x8000000000000000ull, 63, 0), 1);
    CHECK_EQ_U64(E1("shr.s64 %rd7, %rd4, %r2;", 0x8000000000000000ull, 64, 0), UINT64_MAX);
    CHECK_EQ_U64(E1("shl.b64 %rd7, %rd4, 64;", 1, 0, 0), 0);
    CHECK_EQ_U64(E1("shf.l.wrap.b32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x80000000u, 0x1, 33), 0x3);
    CHECK_EQ_U64(E1("shf.l.clamp.b32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x80000000u, 0x1, 33), 0x80000000u);
    CHECK_EQ_U64(E1("shf.r.wrap.b32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x1, 0x3, 1), 0x80000000u);
    CHECK_EQ_U64(E1("shf.r.clamp.b32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x1, 0x3, 40), 0x3);
}

TEST(exec_int_bitfield_ops) {
    CHECK_EQ_U64(E1("bfe.u32 %r9, %r1, 4, 8;" O32("%r9"), 0xABCD, 0, 0), 0xBC);
    CHECK_EQ_U64(E1("bfe.s32 %r9, %r1, 4, 8;" O32("%r9"), 0x0F80, 0, 0), 0xFFFFFFF8u);
    CHECK_EQ_U64(E1("bfe.u32 %r9, %r1, 0, 0;" O32("%r9"), 0xFFFF, 0, 0), 0);
    CHECK_EQ_U64(E1("bfe.s32 %r9, %r1, 40, 4;" O32("%r9"), 0x80000000u, 0, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("bfe.u32 %r9, %r1, 28, 8;" O32("%r9"), 0xF0000000u, 0, 0), 0xF);
    CHECK_EQ_U64(E1("bfi.b32 %r9, %r1, %r2, 8, 4;" O32("%r9"), 0xF5, 0xFFFF0000u, 0), 0xFFFF0500u);
    CHECK_EQ_U64(E1("brev.b32 %r9, %r1;" O32("%r9"), 1, 0, 0), 0x80000000u);
    CHECK_EQ_U64(E1("brev.b64 %rd7, %rd4;", 3, 0, 0), 0xC000000000000000ull);
    CHECK_EQ_U64(E1("popc.b64 %r9, %rd4;" O32("%r9"), UINT64_MAX, 0, 0), 64);
    CHECK_EQ_U64(E1("clz.b32 %r9, %r1;" O32("%r9"), 0, 0, 0), 32);
    CHECK_EQ_U64(E1("clz.b32 %r9, %r1;" O32("%r9"), 0x00010000, 0, 0), 15);
    CHECK_EQ_U64(E1("clz.b64 %r9, %rd4;" O32("%r9"), 1, 0, 0), 63);
    CHECK_EQ_U64(E1("bfind.u32 %r9, %r1;" O32("%r9"), 0, 0, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("bfind.u32 %r9, %r1;" O32("%r9"), 0x100, 0, 0), 8);
    CHECK_EQ_U64(E1("bfind.s32 %r9, %r1;" O32("%r9"), (uint32_t)-1, 0, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("bfind.s32 %r9, %r1;" O32("%r9"), (uint32_t)-256, 0, 0), 7);
    CHECK_EQ_U64(E1("bfind.shiftamt.u32 %r9, %r1;" O32("%r9"), 0x100, 0, 0), 23);
    CHECK_EQ_U64(E1("lop3.b32 %r9, %r1, %r2, %r3, 0x96;" O32("%r9"), 0xF0F0, 0xFF00, 0x1234), 0xF0F0 ^ 0xFF00 ^ 0x1234);
    CHECK_EQ_U64(E1("lop3.b32 %r9, %r1, %r2, %r3, 0x80;" O32("%r9"), 0xF0F0, 0xFF00, 0xFFFF), 0xF000);
    CHECK_EQ_U64(E1("cnot.b32 %r9, %r1;" O32("%r9"), 0, 0, 0), 1);
    CHECK_EQ_U64(E1("cnot.b32 %r9, %r1;" O32("%r9"), 5, 0, 0), 0);
    CHECK_EQ_U64(E1("not.b32 %r9, %r1;" O32("%r9"), 0, 0, 0), 0xFFFFFFFFu);
}

TEST(exec_int_prmt_all_modes) {
    uint32_t a = 0x33221100u, b = 0x77665544u;
    CHECK_EQ_U64(E1("prmt.b32 %r9, %r1, %r2, %r3;" O32("%r9"), a, b, 0x3210), a);
    CHECK_EQ_U64(E1("prmt.b32 %r9, %r1, %r2, %r3;" O32("%r9"), a, b, 0x7654), b);
    CHECK_EQ_U64(E1("prmt.b32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x80, 0, 0x8880), 0xFFFFFF80u);
    CHECK_EQ_U64(E1("prmt.b32.f4e %r9, %r1, %r2, %r3;" O32("%r9"), a, b, 1), 0x44332211u);
    CHECK_EQ_U64(E1("prmt.b32.b4e %r9, %r1, %r2, %r3;" O32("%r9"), a, b, 0), 0x55667700u);
    CHECK_EQ_U64(E1("prmt.b32.rc8 %r9, %r1, %r2, %r3;" O32("%r9"), a, b, 2), 0x22222222u);
    CHECK_EQ_U64(E1("prmt.b32.ecl %r9, %r1, %r2, %r3;" O32("%r9"), a, b, 1), 0x33221111u);
    CHECK_EQ_U64(E1("prmt.b32.ecr %r9, %r1, %r2, %r3;" O32("%r9"), a, b, 1), 0x11111100u);
    CHECK_EQ_U64(E1("prmt.b32.rc16 %r9, %r1, %r2, %r3;" O32("%r9"), a, b, 1), 0x33223322u);
}

TEST(exec_int_dp4a) {
    CHECK_EQ_U64(E1("dp4a.u32.u32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x01020304u, 0x01010101u, 10), 20);
    CHECK_EQ_U64(E1("dp4a.s32.s32 %r9, %r1, %r2, %r3;" O32("%r9"), 0xFFFFFFFFu, 0x02020202u, 0), (uint32_t)-8);
    /* dp2a: a's 16-bit halves times bytes 0,1 (.lo) or 2,3 (.hi) of b */
    CHECK_EQ_U64(E1("dp2a.lo.u32.u32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x00030002u, 0x05040706u, 1),
                 1 + 2 * 6 + 3 * 7);
    CHECK_EQ_U64(E1("dp2a.hi.u32.u32 %r9, %r1, %r2, %r3;" O32("%r9"), 0x00030002u, 0x05040706u, 1),
                 1 + 2 * 4 + 3 * 5);
    CHECK_EQ_U64(E1("dp2a.lo.s32.s32 %r9, %r1, %r2, %r3;" O32("%r9"), 0xFFFF0001u, 0x0000FF02u, 0),
                 (uint32_t)(1 * 2 + -1 * -1));
}

TEST(exec_int_setp_selp_slct) {
    CHECK_EQ_U64(E1("setp.lt.s32 %p1, %r1, %r2; selp.u32 %r9, 1, 2, %p1;" O32("%r9"), (uint32_t)-1, 0, 0), 1);
    CHECK_EQ_U64(E1("setp.lt.u32 %p1, %r1, %r2; selp.u32 %r9, 1, 2, %p1;" O32("%r9"), (uint32_t)-1, 0, 0), 2);
    CHECK_EQ_U64(E1("setp.hi.u32 %p1, %r1, %r2; selp.u32 %r9, 1, 2, %p1;" O32("%r9"), (uint32_t)-1, 0, 0), 1);
    CHECK_EQ_U64(E1("setp.eq.s32 %p1|%p2, %r1, %r2; selp.u32 %r9, 1, 2, %p2;" O32("%r9"), 3, 3, 0), 2);
    CHECK_EQ_U64(E1("setp.ne.s32 %p3, %r3, 0; setp.gt.s32.and %p1, %r1, %r2, %p3; selp.u32 %r9, 1, 2, %p1;" O32("%r9"),
                    5, 3, 0), 2);
    CHECK_EQ_U64(E1("setp.ne.s32 %p3, %r3, 0; setp.gt.s32.or %p1, %r1, %r2, !%p3; selp.u32 %r9, 1, 2, %p1;" O32("%r9"),
                    1, 3, 0), 1);
    CHECK_EQ_U64(E1("set.lt.u32.s32 %r9, %r1, %r2;" O32("%r9"), 1, 2, 0), 0xFFFFFFFFu);
    CHECK_EQ_U64(E1("slct.u32.s32 %r9, %r1, %r2, %r3;" O32("%r9"), 7, 8, (uint32_t)-1), 8);
    CHECK_EQ_U64(E1("slct.u32.s32 %r9, %r1, %r2, %r3;" O32("%r9"), 7, 8, 0), 7);
    CHECK_EQ_U64(E1("setp.ne.s32 %p1, %r1, 0; setp.ne.s32 %p2, %r2, 0; xor.pred %p3, %p1, %p2; "
                    "selp.u32 %r9, 1, 0, %p3;" O32("%r9"), 1, 1, 0), 0);
    CHECK_EQ_U64(E1("setp.ne.s32 %p1, %r1, 0; not.pred %p3, %p1; selp.u32 %r9, 1, 0, %p3;" O32("%r9"), 0, 0, 0), 1);
}

TEST(exec_int_mov_pack_cvt) {
    CHECK_EQ_U64(E1("mov.b64 %rd7, {%r1, %r2};", 0x11111111u, 0x22222222u, 0), 0x2222222211111111ull);
    CHECK_EQ_U64(E1("mov.b64 {%r9, %r10}, %rd4;" O32("%r10"), 0x1234567887654321ull, 0, 0), 0x12345678u);
    CHECK_EQ_U64(E1("mov.b32 {%h9, %h10}, %r1; cvt.u64.u16 %rd7, %h10;", 0xBEEF1234u, 0, 0), 0xBEEF);
    CHECK_EQ_U64(E1("cvt.s64.s32 %rd7, %r1;", 0xFFFFFFFEu, 0, 0), (uint64_t)-2);
    CHECK_EQ_U64(E1("cvt.u64.u32 %rd7, %r1;", 0xFFFFFFFEu, 0, 0), 0xFFFFFFFEu);
    CHECK_EQ_U64(E1("cvt.s32.s8 %r9, %r1;" O32("%r9"), 0x80, 0, 0), 0xFFFFFF80u);
    CHECK_EQ_U64(E1("cvt.sat.u8.s32 %r9, %r1;" O32("%r9"), (uint32_t)-5, 0, 0), 0);
    CHECK_EQ_U64(E1("cvt.sat.u8.s32 %r9, %r1;" O32("%r9"), 300, 0, 0), 255);
    CHECK_EQ_U64(E1("cvt.sat.s8.s32 %r9, %r1;" O32("%r9"), (uint32_t)-300, 0, 0), 0xFFFFFF80u);
    CHECK_EQ_U64(E1("cvt.sat.s32.u32 %r9, %r1;" O32("%r9"), 0xFFFFFFFFu, 0, 0), 0x7FFFFFFFu);
    CHECK_EQ_U64(E1("cvt.sat.u32.s64 %r9, %rd4;" O32("%r9"), (uint64_t)-1, 0, 0), 0);
    CHECK_EQ_U64(E1("mov.u32 %r9, %laneid;" O32("%r9"), 0, 0, 0), 0);
    CHECK_EQ_U64(E1("mov.u32 %r9, %lanemask_lt;" O32("%r9"), 0, 0, 0), 0);
    CHECK_EQ_U64(E1("mov.u32 %r9, %ntid.x;" O32("%r9"), 0, 0, 0), 1);
}
