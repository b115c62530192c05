/* Coalescing rules (see src/timing/mem/coalesce.h). */
#include "test.h"
#include "timing/mem/coalesce.h"

static unsigned run(uint64_t base, int stride, uint32_t size, uint32_t active, bool local,
                    ws_mem_txn *t) {
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = base + (uint64_t)((int64_t)i * stride);
    ws_coalesce_in in = {a, active, size, local, false};
    return ws_coalesce(&in, t);
}

TEST(coalesce_unit_stride_words_one_line) {
    ws_mem_txn t[WS_MAX_TRANSACTIONS];
    CHECK_EQ_I64(run(0x1000, 4, 4, 0xFFFFFFFF, false, t), 1);
    CHECK_EQ_U64(t[0].addr, 0x1000);
    CHECK_EQ_I64(t[0].size, 128);
    CHECK_EQ_U64(t[0].lanes, 0xFFFFFFFF);
    CHECK_EQ_I64(t[0].sectors, 0xF);
}

TEST(coalesce_misaligned_stride_two_lines_ascending) {
    ws_mem_txn t[WS_MAX_TRANSACTIONS];
    /* 32 words starting 64 B into a line: upper half of line 0, lower of line 1 */
    CHECK_EQ_I64(run(0x1040, 4, 4, 0xFFFFFFFF, false, t), 2);
    CHECK_EQ_U64(t[0].addr, 0x1040);
    CHECK_EQ_I64(t[0].size, 64);
    CHECK_EQ_U64(t[0].lanes, 0x0000FFFF);
    CHECK_EQ_U64(t[1].addr, 0x1080);
    CHECK_EQ_I64(t[1].size, 64);
}

TEST(coalesce_half_and_quarter_reduction) {
    ws_mem_txn t[WS_MAX_TRANSACTIONS];
    CHECK_EQ_I64(run(0x2000, 4, 4, 0x000000FF, false, t), 1); /* bytes 0..31 */
    CHECK_EQ_I64(t[0].size, 32);
    CHECK_EQ_U64(t[0].addr, 0x2000);
    CHECK_EQ_I64(run(0x2020, 4, 4, 0x000000FF, false, t), 1); /* bytes 32..63 */
    CHECK_EQ_I64(t[0].size, 32);
    CHECK_EQ_U64(t[0].addr, 0x2020);
    CHECK_EQ_I64(run(0x2010, 4, 4, 0x000000FF, false, t), 1); /* bytes 16..47: lower half */
    CHECK_EQ_I64(t[0].size, 64);
    CHECK_EQ_U64(t[0].addr, 0x2000);
    CHECK_EQ_I64(run(0x2060, 4, 4, 0x000000FF, false, t), 1); /* bytes 96..127 */
    CHECK_EQ_I64(t[0].size, 32);
    CHECK_EQ_U64(t[0].addr, 0x2060);
}

TEST(coalesce_divergent_stride_one_per_lane) {
    ws_mem_txn t[WS_MAX_TRANSACTIONS];
    CHECK_EQ_I64(run(0x10000, 16384, 4, 0xFFFFFFFF, false, t), 32);
    for (int i = 0; i < 32; i++) {
        CHECK_EQ_I64(t[i].size, 32);
        CHECK_EQ_U64(t[i].lanes, 1u << i);
    }
    /* negative stride still comes out in ascending order */
    CHECK_EQ_I64(run(0x100000, -128, 4, 0xFFFFFFFF, false, t), 32);
    CHECK(t[0].addr < t[1].addr && t[0].lanes == 0x80000000u);
}

TEST(coalesce_byte_and_short_segments) {
    ws_mem_txn t[WS_MAX_TRANSACTIONS];
    CHECK_EQ_I64(run(0x3000, 1, 1, 0xFFFFFFFF, false, t), 1); /* 32 bytes in one 32 B segment */
    CHECK_EQ_I64(t[0].size, 32);
    CHECK_EQ_I64(run(0x3000, 2, 2, 0xFFFFFFFF, false, t), 1); /* 64 bytes: one 64 B segment */
    CHECK_EQ_I64(t[0].size, 64);
    CHECK_EQ_I64(run(0x3000, 4, 2, 0xFFFFFFFF, false, t), 2); /* 128 bytes: two 64 B segments */
}

TEST(coalesce_vector_and_local_split) {
    ws_mem_txn t[WS_MAX_TRANSACTIONS];
    /* v4.f32 (16 B per lane), unit stride: 512 B = 4 lines */
    CHECK_EQ_I64(run(0x4000, 16, 16, 0xFFFFFFFF, false, t), 4);
    CHECK_EQ_U64(t[3].lanes, 0xFF000000u);
    /* local v4: split into words; lanes' frames 4 B apart per word (interleaved) */
    CHECK_EQ_I64(run(0x4000, 4, 8, 0x3, true, t), 1);
    CHECK_EQ_I64(t[0].size, 32);
    /* an unaligned 8-byte access crossing a 128 B boundary touches two lines */
    uint64_t a[32] = {0x507C};
    ws_coalesce_in in = {a, 1, 8, false, false};
    CHECK_EQ_I64(ws_coalesce(&in, t), 2);
}

TEST(coalesce_sectored_uses_32B_segments) {
    ws_mem_txn t[WS_MAX_TRANSACTIONS];
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = 0x6000 + 4u * i;
    ws_coalesce_in in = {a, 0xFFFFFFFF, 4, false, true};
    CHECK_EQ_I64(ws_coalesce(&in, t), 4);
    CHECK_EQ_I64(t[2].size, 32);
    CHECK_EQ_U64(t[2].addr, 0x6040);
}
