/* The device heap behind kernels' malloc/free (src/exec/heap.c): first fit,
 * 16-byte granules, merging on free, NULL when full, bad frees refused; and
 * alloca / stacksave / stackrestore in a kernel that calls a function. */
#include "test_exec_util.h"

TEST(heap_first_fit_merge_and_limits) {
    ws_gmem *g = ws_gmem_create(1 << 22);
    ws_dev_heap *h = ws_dev_heap_create(1024);
    CHECK_EQ_U64(ws_dev_heap_malloc(h, g, 0), 0);
    uint64_t a = ws_dev_heap_malloc(h, g, 100), b = ws_dev_heap_malloc(h, g, 16), c = ws_dev_heap_malloc(h, g, 1);
    CHECK(a && a % 16 == 0 && b == a + 112 && c == b + 16);
    CHECK_EQ_I64(ws_dev_heap_set_limit(h, 4096), WS_ERR_INVALID_VALUE); /* in use */
    CHECK(ws_dev_heap_free(h, a));
    CHECK(!ws_dev_heap_free(h, a));      /* twice */
    CHECK(!ws_dev_heap_free(h, b + 4));  /* not a block's start */
    CHECK(ws_dev_heap_free(h, 0));       /* free(NULL) */
    CHECK_EQ_U64(ws_dev_heap_malloc(h, g, 64), a);          /* first fit reuses the hole */
    CHECK_EQ_U64(ws_dev_heap_malloc(h, g, 2048), 0);        /* larger than the heap */
    CHECK(ws_dev_heap_free(h, a) && ws_dev_heap_free(h, b) && ws_dev_heap_free(h, c));
    CHECK_EQ_U64(ws_dev_heap_malloc(h, g, 1024), a);        /* all merged back into one block */
    CHECK_EQ_U64(ws_dev_heap_malloc(h, g, 16), 0);          /* full */
    CHECK(ws_gmem_valid(g, a, 1024));
    ws_dev_heap_destroy(h, g);
    CHECK(!ws_gmem_valid(g, a, 1024));
    ws_gmem_destroy(g);
}

/* Checkpoints: a heap's blocks, set on another heap whose region is reserved
   (as a resumed run does), give it the same state; blocks that do not tile
   the region from its start are refused. */
TEST(heap_blocks_round_trip) {
    ws_gmem *g = ws_gmem_create(1 << 22);
    ws_dev_heap *h = ws_dev_heap_create(1024), *k = ws_dev_heap_create(1024);
    uint64_t a = ws_dev_heap_malloc(h, g, 100), b = ws_dev_heap_malloc(h, g, 32);
    CHECK(ws_dev_heap_free(h, a));
    uint32_t n = ws_dev_heap_nblocks(h);
    CHECK_EQ_U64(n, 3); /* a hole, b, the rest */
    uint64_t w[9];
    for (uint32_t i = 0; i < n; i++) ws_dev_heap_block(h, i, w + 3 * i);
    CHECK_EQ_I64(ws_dev_heap_set_blocks(k, w, n), WS_ERR_INVALID_VALUE); /* not reserved */
    CHECK_EQ_I64(ws_dev_heap_reserve(k, g), WS_OK);
    CHECK(ws_dev_heap_base(k) && ws_dev_heap_base(k) != ws_dev_heap_base(h));
    uint64_t gap[9];
    memcpy(gap, w, sizeof gap);
    gap[3] += 16; /* the second block does not start where the first ends */
    CHECK_EQ_I64(ws_dev_heap_set_blocks(k, gap, n), WS_ERR_INVALID_VALUE);
    CHECK_EQ_I64(ws_dev_heap_set_blocks(k, w, n), WS_OK);
    uint64_t d = ws_dev_heap_base(k) - ws_dev_heap_base(h);
    CHECK_EQ_U64(ws_dev_heap_malloc(k, g, 64), a + d); /* first fit: the hole, as in h */
    CHECK(ws_dev_heap_free(k, b + d) && !ws_dev_heap_free(k, b + d));
    ws_dev_heap_destroy(k, g);
    ws_dev_heap_destroy(h, g);
    ws_gmem_destroy(g);
}

/* Each thread allocas t+1 words, fills them, calls a function (whose frame
   must land above the alloca'd words), then checks them; stackrestore pops
   the array and a second alloca reuses its place. */
TEST(exec_alloca_survives_calls) {
    static const char *const ptx =
        WX_HEAD
        ".func (.param .b32 r) clobber(.param .b32 x)\n{\n.reg .b32 %r<4>;\n.local .align 4 .b8 junk[64];\n"
        ".reg .b64 %rd<4>;\nld.param.b32 %r1, [x];\nmov.u64 %rd1, junk;\nst.local.u32 [%rd1], %r1;\n"
        "st.local.u32 [%rd1+60], %r1;\nst.param.b32 [r], %r1;\nret;\n}\n"
        ".visible .entry k(.param .u64 po)\n{\n.reg .b32 %r<12>;\n.reg .b64 %rd<16>;\n.reg .pred %p<4>;\n"
        "ld.param.u64 %rd1, [po];\nmov.u32 %r0, %tid.x;\nadd.u32 %r1, %r0, 1;\nmul.wide.u32 %rd2, %r1, 4;\n"
        "stacksave.u64 %rd9;\n"
        "alloca.u64 %rd3, %rd2, 16;\nmov.u32 %r2, 0;\n"
        "FILL:\nmul.wide.u32 %rd4, %r2, 4;\nadd.s64 %rd5, %rd3, %rd4;\nadd.u32 %r3, %r2, 7;\n"
        "st.local.u32 [%rd5], %r3;\nadd.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;\n@%p1 bra FILL;\n"
        "{\n.param .b32 a;\nst.param.b32 [a], 99;\n.param .b32 rv;\ncall (rv), clobber, (a);\n}\n"
        "mov.u32 %r2, 0;\nmov.u32 %r4, 0;\n"
        "SUM:\nmul.wide.u32 %rd4, %r2, 4;\nadd.s64 %rd5, %rd3, %rd4;\nld.local.u32 %r3, [%rd5];\n"
        "add.u32 %r4, %r4, %r3;\nadd.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r1;\n@%p1 bra SUM;\n"
        "stackrestore.u64 %rd9;\nalloca.u64 %rd6, 4, 16;\nsetp.eq.u64 %p2, %rd6, %rd3;\nselp.u32 %r5, 1000, 0, %p2;\n"
        "add.u32 %r4, %r4, %r5;\n"
        "mul.wide.u32 %rd7, %r0, 4;\nadd.s64 %rd8, %rd1, %rd7;\nst.global.u32 [%rd8], %r4;\nret;\n}\n";
    uint32_t out[32];
    wx_buf b[1] = {{NULL, out, sizeof out}};
    wx_cfg cfg = {0};
    cfg.block[0] = 32;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, NULL), WS_OK);
    unsigned bad = 0;
    for (uint32_t t = 0; t < 32; t++) { /* sum of 7 .. 7+t, and the second alloca at the first's address */
        uint32_t n = t + 1;
        bad += out[t] != 7 * n + n * (n - 1) / 2 + 1000;
    }
    CHECK_EQ_U64(bad, 0);
}
