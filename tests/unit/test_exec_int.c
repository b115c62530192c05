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
