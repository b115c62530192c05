/* Memory spaces, generic addressing, faults and the stepping interface. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "test_exec_util.h"

#define KHEAD WX_HEAD ".visible .entry k(.param .u64 po, .param .u64 pa)\n{\n" \
    ".reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n.reg .pred %p<8>;\n.reg .f32 %f<8>;\n" \
    "ld.param.u64 %rd1, [po];\nld.param.u64 %rd9, [pa];\nmov.u32 %r0, %tid.x;\n" \
    "mul.wide.u32 %rd2, %r0, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"

TEST(exec_gmem_alloc_free_valid) {
    ws_gmem *g = ws_gmem_create(1 << 20);
    uint64_t a, b;
    CHECK_EQ_I64(ws_gmem_alloc(g, 100, &a), WS_OK);
    CHECK_EQ_I64(ws_gmem_alloc(g, 10, &b), WS_OK);
    CHECK_EQ_U64(a, WS_GLOBAL_HEAP_BASE);
    CHECK_EQ_U64(b, WS_GLOBAL_HEAP_BASE + 256);
    CHECK(ws_gmem_valid(g, a, 100));
    CHECK(!ws_gmem_valid(g, a, 101));       /* past the end, same chunk */
    CHECK(!ws_gmem_valid(g, a + 200, 4));
    CHECK(!ws_gmem_valid(g, a - 4, 4));
    CHECK_EQ_I64(ws_gmem_free(g, a + 4), WS_ERR_INVALID_VALUE);
    CHECK_EQ_I64(ws_gmem_free(g, a), WS_OK);
    CHECK(!ws_gmem_valid(g, a, 4));
    CHECK_EQ_I64(ws_gmem_free(g, a), WS_ERR_INVALID_VALUE);
    CHECK_EQ_I64(ws_gmem_write(g, a, "x", 1), WS_ERR_ILLEGAL_ADDRESS);
    CHECK_EQ_I64(ws_gmem_alloc(g, 2 << 20, &a), WS_ERR_OUT_OF_MEMORY);
    ws_gmem_destroy(g);
}

/* Mapping regions: mapped while a live allocation touches them, set before
 * or after allocations; nearest allocation for memcheck. */
TEST(exec_gmem_mapping_regions) {
    ws_gmem *g = ws_gmem_create(8 << 20);
    uint64_t a, big, c, n;
    ws_gmem_near nr;
    CHECK_EQ_I64(ws_gmem_alloc(g, 100, &a), WS_OK);
    CHECK(!ws_gmem_mapped(g, a + 200, 4)); /* exact until a granularity is set */
    CHECK_EQ_I64(ws_gmem_set_map_granularity(g, 3000), WS_ERR_INVALID_VALUE);
    CHECK_EQ_I64(ws_gmem_set_map_granularity(g, 128), WS_ERR_INVALID_VALUE);
    CHECK_EQ_I64(ws_gmem_set_map_granularity(g, 1 << 20), WS_OK); /* a is counted now */
    CHECK(ws_gmem_mapped(g, a + 200, 4));
    CHECK(ws_gmem_mapped(g, a + (1 << 20) - 4, 4));
    CHECK(!ws_gmem_mapped(g, a + (1 << 20) - 2, 4)); /* runs into region 1 */
    CHECK(!ws_gmem_mapped(g, a - 4, 4));             /* below the heap */
    CHECK(!ws_gmem_mapped(g, WS_GLOBAL_HEAP_BASE + (8 << 20), 4)); /* past the device */
    CHECK_EQ_I64(ws_gmem_alloc(g, (1 << 20) + 1000, &big), WS_OK); /* regions 0 and 1 */
    CHECK_EQ_I64(ws_gmem_alloc(g, 64, &c), WS_OK);                 /* region 1 */
    CHECK_EQ_I64(ws_gmem_free(g, a), WS_OK);
    CHECK(ws_gmem_mapped(g, a, 4)); /* big still touches region 0 */
    CHECK_EQ_I64(ws_gmem_free(g, big), WS_OK);
    CHECK(!ws_gmem_mapped(g, a, 4)); /* region 0: nothing live */
    CHECK(ws_gmem_mapped(g, big + (1 << 20), 4)); /* region 1: c */
    /* nearest: inside a freed one, after the end of c, before c */
    CHECK(ws_gmem_nearest(g, a + 8, &nr));
    CHECK(nr.base == a && !nr.live && nr.size == 100);
    CHECK(ws_gmem_nearest(g, c + 64, &nr));
    CHECK(nr.base == c && nr.live);
    CHECK(ws_gmem_nearest(g, c - 16, &nr)); /* in big's padding: big is freed, c is nearest */
    CHECK(nr.base == c && nr.live && nr.index == 2);
    CHECK_EQ_I64(ws_gmem_alloc(g, 64, &n), WS_OK);
    CHECK(ws_gmem_nearest(g, c + 200, &nr)); /* 136 past c's end, 56 before n */
    CHECK_EQ_U64(nr.base, n);
    CHECK_EQ_I64(ws_gmem_set_map_granularity(g, 1), WS_OK);
    CHECK(!ws_gmem_mapped(g, c + 64, 4));
    ws_gmem_destroy(g);
}

TEST(exec_illegal_address_message) {
    const char *ptx = KHEAD "setp.eq.u32 %p1, %r0, 3;\n@%p1 add.s64 %rd3, %rd3, 4096;\n"
                            "ld.global.u32 %r1, [%rd3];\nret;\n}\n";
    wx_buf b[2] = {{NULL, NULL, 64}, {NULL, NULL, 64}};
    wx_cfg cfg = {0};
    cfg.block[0] = 8;
    cfg.grid[0] = 1;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_ERR_ILLEGAL_ADDRESS);
    CHECK_EQ_I64(f.code, WS_ERR_ILLEGAL_ADDRESS);
    CHECK_STR_CONTAINS(f.msg, "kernel k");
    CHECK_STR_CONTAINS(f.msg, "illegal address 0xc000100c");
    CHECK_STR_CONTAINS(f.msg, "global load of 4 bytes");
    CHECK_STR_CONTAINS(f.msg, "CTA (0,0,0)");
    CHECK_STR_CONTAINS(f.msg, "thread (3,0,0)");
    CHECK_STR_CONTAINS(f.msg, "pc 7");
    CHECK_STR_CONTAINS(f.msg, "snippet.ptx:17");
    /* a null pointer store */
    const char *ptx2 = KHEAD "mov.u64 %rd4, 0;\nst.global.u32 [%rd4], %r0;\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(ptx2, &cfg, b, 2, &f, NULL), WS_ERR_ILLEGAL_ADDRESS);
    CHECK_STR_CONTAINS(f.msg, "illegal address 0x0 (global store of 4 bytes)");
}

TEST(exec_misaligned_access) {
    const char *ptx = KHEAD "ld.global.u32 %r1, [%rd1+2];\nret;\n}\n";
    wx_buf b[2] = {{NULL, NULL, 64}, {NULL, NULL, 64}};
    wx_cfg cfg = {0};
    cfg.block[0] = 1;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_ERR_MISALIGNED);
    CHECK_STR_CONTAINS(f.msg, "misaligned");
    const char *ptx2 = KHEAD "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1+8];\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(ptx2, &cfg, b, 2, &f, NULL), WS_ERR_MISALIGNED);
}

TEST(exec_dynamic_shared_and_generic) {
    /* static shared word + extern dynamic array; each thread writes dsm[tid], reads dsm[(tid+1)%n] via
       a generic pointer */
    const char *ptx = WX_HEAD ".extern .shared .align 16 .b8 dsm[];\n"
        ".visible .entry k(.param .u64 po, .param .u64 pa)\n{\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
        ".reg .pred %p<4>;\n.shared .align 4 .u32 st0;\n"
        "ld.param.u64 %rd1, [po];\nmov.u32 %r0, %tid.x;\nmov.u32 %r9, %ntid.x;\n"
        "st.shared.u32 [st0], 5;\nmov.u32 %r1, dsm;\nshl.b32 %r2, %r0, 2;\nadd.s32 %r3, %r1, %r2;\n"
        "st.shared.u32 [%r3], %r0;\nbar.sync 0;\nadd.s32 %r4, %r0, 1;\nrem.u32 %r4, %r4, %r9;\n"
        "shl.b32 %r5, %r4, 2;\nmov.u64 %rd4, dsm;\ncvta.shared.u64 %rd5, %rd4;\ncvt.u64.u32 %rd6, %r5;\n"
        "add.s64 %rd7, %rd5, %rd6;\nld.u32 %r6, [%rd7];\nld.shared.u32 %r7, [st0];\nmad.lo.s32 %r6, %r7, 1000, %r6;\n"
        "isspacep.shared %p1, %rd7;\nselp.u32 %r8, 100000, 0, %p1;\nadd.s32 %r6, %r6, %r8;\n"
        "cvta.to.shared.u64 %rd8, %rd7;\ncvt.u32.u64 %r10, %rd8;\nsub.s32 %r10, %r10, %r1;\n"
        "mul.wide.u32 %rd2, %r0, 8;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.v2.u32 [%rd3], {%r6, %r10};\nret;\n}\n";
    uint32_t out[64 * 2];
    wx_buf b[2] = {{NULL, out, sizeof out}, {NULL, NULL, 64}};
    wx_cfg cfg = {0};
    cfg.block[0] = 64;
    cfg.dyn_shared = 256;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_OK);
    for (uint32_t t = 0; t < 64; t++) {
        CHECK_EQ_U64(out[2 * t], 100000 + 5000 + (t + 1) % 64);
        CHECK_EQ_U64(out[2 * t + 1], ((t + 1) % 64) * 4);
    }
    /* too little dynamic shared memory: the access past the end faults */
    cfg.dyn_shared = 128;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_ERR_ILLEGAL_ADDRESS);
    CHECK_STR_CONTAINS(f.msg, "shared store");
}

TEST(exec_const_local_param_spaces) {
    const char *ptx = WX_HEAD ".const .align 4 .u32 tab[4] = {10, 20, 30, 40};\n"
        ".global .align 8 .u64 gptr = generic(tab);\n"
        ".visible .entry k(.param .u64 po, .param .u64 pa, .param .u32 scal)\n{\n.reg .b32 %r<32>;\n"
        ".reg .b64 %rd<16>;\n.local .align 4 .b8 arr[64];\n"
        "ld.param.u64 %rd1, [po];\nld.param.u32 %r20, [scal];\nmov.u32 %r0, %tid.x;\nand.b32 %r1, %r0, 3;\n"
        "shl.b32 %r2, %r1, 2;\nmov.u32 %r3, tab;\nadd.s32 %r3, %r3, %r2;\ncvt.u64.u32 %rd10, %r3;\n"
        "ld.const.u32 %r4, [%rd10];\n"
        "mov.u64 %rd4, arr;\ncvt.u64.u32 %rd5, %r2;\nadd.s64 %rd6, %rd4, %rd5;\nst.local.u32 [%rd6], %r0;\n"
        "ld.local.u32 %r5, [%rd6];\ncvta.local.u64 %rd7, %rd6;\nld.u32 %r6, [%rd7];\n"
        "ld.global.u64 %rd11, [gptr];\nld.u32 %r7, [%rd11+8];\n"
        "add.s32 %r8, %r4, %r20;\nmul.wide.u32 %rd2, %r0, 16;\nadd.s64 %rd3, %rd1, %rd2;\n"
        "st.global.v4.u32 [%rd3], {%r8, %r5, %r6, %r7};\nret;\n}\n";
    uint32_t out[8 * 4];
    uint64_t sc = 7;
    wx_buf b[2] = {{NULL, out, sizeof out}, {NULL, NULL, 64}};
    wx_cfg cfg = {0};
    cfg.block[0] = 8;
    cfg.scalars = &sc;
    cfg.nscalars = 1;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_OK);
    for (uint32_t t = 0; t < 8; t++) {
        CHECK_EQ_U64(out[4 * t], 10 * ((t & 3) + 1) + 7);
        CHECK_EQ_U64(out[4 * t + 1], t);
        CHECK_EQ_U64(out[4 * t + 2], t);
        CHECK_EQ_U64(out[4 * t + 3], 30);
    }
}

TEST(exec_warp_step_reports_addresses) {
    const char *ptx = KHEAD "ld.global.nc.u32 %r1, [%rd3];\nst.global.u32 [%rd3+64], %r1;\nret;\n}\n";
    ws_diag d;
    ws_module *m = ws_ptx_parse(ptx, strlen(ptx), "s.ptx", &d);
    CHECK(m != NULL);
    if (!m) return;
    ws_gmem *g = ws_gmem_create(1 << 20);
    ws_image *img;
    char err[128];
    CHECK_EQ_I64(ws_image_create(g, m, &img, err, sizeof err), WS_OK);
    uint64_t buf;
    ws_gmem_alloc(g, 256, &buf);
    uint8_t params[16];
    memcpy(params, &buf, 8);
    memcpy(params + 8, &buf, 8);
    ws_launch_desc l = {0};
    l.img = img;
    l.func = 0;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 40; l.block[1] = l.block[2] = 1;
    l.params = params;
    l.gmem = g;
    uint32_t id[3] = {0, 0, 0};
    ws_cta *c = ws_cta_create(&l, id, 0);
    CHECK(c && ws_cta_num_warps(c) == 2);
    ws_step st;
    ws_fault f;
    int n = 0, saw_ld = 0, saw_st = 0;
    while (ws_warp_step(c, 1, &st, &f) == WS_STEP_OK) {
        n++;
        if (st.inst->op == WS_OP_LD && st.inst->space == WS_SPACE_GLOBAL) {
            saw_ld = 1;
            CHECK_EQ_U64(st.active, 0xFF);
            CHECK_EQ_U64(st.access_size, 4);
            CHECK_EQ_U64(st.mem_space, WS_SPACE_GLOBAL);
            CHECK_EQ_U64(st.addr[5], buf + 4 * 37);
        }
        if (st.inst->op == WS_OP_ST) {
            saw_st = 1;
            CHECK(st.is_store);
            CHECK_EQ_U64(st.addr[0], buf + 4 * 32 + 64);
        }
    }
    CHECK(saw_ld && saw_st && n > 5);
    CHECK_EQ_I64(ws_warp_pc(c, 1), -1);
    CHECK(!ws_cta_done(c));
    while (ws_warp_step(c, 0, &st, &f) == WS_STEP_OK) {}
    CHECK(ws_cta_done(c));
    ws_cta_destroy(c);
    ws_image_destroy(img, g);
    ws_gmem_destroy(g);
    ws_module_free(m);
}

/* A 32-bit shared address register that went "below zero" plus a positive
 * offset wraps modulo 2^32 (nvcc emits this for s[d - tx + 1][tx + 1]). */
TEST(exec_shared_address_wraps_32bit) {
    const char *ptx = WX_HEAD
        ".shared .align 4 .b8 buf[16];\n"
        ".visible .entry wrap32(.param .u64 out)\n{\n"
        ".reg .b32 %r<6>;\n.reg .b64 %rd<3>;\n"
        "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\n"
        "mov.u32 %r1, buf;\nmov.u32 %r2, 7;\nst.shared.u32 [%r1+4], %r2;\nbar.sync 0;\n"
        "add.s32 %r3, %r1, -64;\nld.shared.u32 %r4, [%r3+68];\n"
        "st.global.u32 [%rd2], %r4;\nret;\n}\n";
    uint32_t out = 0;
    wx_buf b[1] = {{NULL, &out, 4}};
    wx_cfg cfg = {0};
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, NULL), WS_OK);
    CHECK_EQ_U64(out, 7);
}

/* Global loads and stores take one allocation lookup per instruction when all
 * lanes fall in one allocation, and loads with one address for every lane
 * (ld.param) read once (exec_mem.c): the same values as lane by lane. Here one
 * load spans two allocations (odd lanes read pa, even lanes po), a generic
 * load sign-extends, a vector load has the same address in every lane, and a
 * store writes back; the out-of-allocation case is exec_illegal_address_message. */
TEST(exec_global_loads_across_allocations_and_uniform) {
    const char *ptx = KHEAD
        "and.b32 %r1, %r0, 1;\nsetp.eq.u32 %p1, %r1, 1;\nselp.b64 %rd4, %rd9, %rd1, %p1;\n"
        "add.s64 %rd5, %rd4, %rd2;\nld.global.u32 %r2, [%rd5];\n"
        "ld.s16 %r3, [%rd3];\n"
        "ld.global.v2.u32 {%r4, %r5}, [%rd9];\n"
        "add.s32 %r6, %r4, %r5;\nadd.s32 %r7, %r2, %r3;\nadd.s32 %r7, %r7, %r6;\n"
        "st.global.u32 [%rd3+128], %r7;\nret;\n}\n";
    uint32_t po[64] = {0}, pa[32], out[64];
    for (uint32_t t = 0; t < 32; t++) {
        po[t] = 0xFFF0u + t;
        pa[t] = 1000 + t;
    }
    wx_buf b[2] = {{po, out, sizeof po}, {pa, NULL, sizeof pa}};
    wx_cfg cfg = {0};
    cfg.block[0] = 32;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 2, &f, NULL), WS_OK);
    for (uint32_t t = 0; t < 32; t++) {
        int32_t want = (int32_t)((t & 1) ? pa[t] : po[t]) + (int16_t)(po[t] & 0xFFFF) +
                       (int32_t)(pa[0] + pa[1]);
        CHECK_EQ_I64((int32_t)out[32 + t], want);
        CHECK_EQ_U64(out[t], po[t]);
    }
}
