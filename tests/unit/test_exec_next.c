/* Two shortcuts of the functional engine's interface to the timing model
 * answer what the general path answers: ws_warp_next_inline (the issue
 * stage's inline ws_warp_next) gives ws_warp_next's function, pc and result
 * before every step of a kernel that diverges, loops and exits early;
 * an immediate source points at the function's broadcast copy of its value
 * (ws_func_prepare), and one whose entry does not hold its value is
 * filled per use; a memory operand's base32 is its base register's width. */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "ptx/ptx.h"
#include "test_exec_util.h"

static const char *nx_ptx =
    WX_HEAD
    ".visible .entry nx(.param .u64 po)\n{\n"
    ".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n.shared .align 4 .b8 sh[512];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\n"
    "setp.gt.u32 %p3, %r1, 40;\n@%p3 bra DONE;\n" /* early exit of some lanes */
    "and.b32 %r3, %r1, 3;\n"
    "LOOP:\nadd.u32 %r2, %r2, %r3;\nsub.u32 %r3, %r3, 1;\nsetp.ne.u32 %p1, %r3, -1;\n"
    "setp.gt.u32 %p2, %r2, 3;\n@%p1 bra LOOP;\n" /* divergent trip counts */
    "@%p2 bra SKIP;\nadd.u32 %r4, %r2, %r2;\nadd.u32 %r2, %r4, 7;\nSKIP:\n"
    "ld.param.u64 %rd1, [po];\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "mov.u32 %r5, sh;\nshl.b32 %r6, %r1, 2;\nadd.u32 %r5, %r5, %r6;\n" /* a 32-bit base register */
    "st.shared.u32 [%r5+4], %r2;\nld.shared.u32 %r7, [%r5+4];\n"
    "st.global.u32 [%rd3], %r7;\nDONE:\nret;\n}\n";

TEST(exec_warp_next_inline_agrees) {
    ws_diag d;
    ws_module *m = ws_ptx_parse(nx_ptx, strlen(nx_ptx), "next.ptx", &d);
    CHECK(m != NULL);
    if (!m) return;
    ws_gmem *g = ws_gmem_create(1 << 20);
    ws_image *img;
    char err[128];
    CHECK_EQ_I64(ws_image_create(g, m, &img, err, sizeof err), WS_OK);
    uint64_t buf;
    CHECK_EQ_I64(ws_gmem_alloc(g, 1 << 12, &buf), WS_OK);
    uint8_t params[8];
    memcpy(params, &buf, 8);
    ws_launch_desc l = {0};
    l.img = img;
    l.params = params;
    l.gmem = g;
    l.func = 0;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 80; l.block[1] = l.block[2] = 1; /* 3 warps, the last partial */
    uint32_t id[3] = {0, 0, 0};
    ws_cta *c = ws_cta_create(&l, id, 0);
    CHECK(c != NULL);
    unsigned steps = 0, alive_seen = 0;
    for (int any = 1; c && any;) {
        any = 0;
        for (unsigned w = 0; w < ws_cta_num_warps(c); w++) {
            uint32_t f1 = 0xEEEE, p1 = 0xEEEE, f2 = 0xDDDD, p2 = 0xDDDD;
            bool a1 = ws_warp_next_inline(c, w, &f1, &p1);
            bool a2 = ws_warp_next(c, w, &f2, &p2);
            CHECK_EQ_I64(a1, a2);
            if (a1 && a2) {
                CHECK_EQ_U64(f1, f2);
                CHECK_EQ_U64(p1, p2);
                alive_seen++;
            }
            ws_step st;
            ws_fault f;
            ws_step_result r = ws_warp_step(c, w, &st, &f);
            if (r == WS_STEP_FAULT) {
                ws_test_fail(__FILE__, __LINE__, "warp %u faulted: %s", w, f.msg);
                any = 0;
                break;
            }
            if (r == WS_STEP_OK) any = 1, steps++;
        }
    }
    CHECK(steps > 30);
    CHECK(alive_seen > 30);
    if (c) {
        CHECK(ws_cta_done(c));
        uint32_t f, p;
        for (unsigned w = 0; w < ws_cta_num_warps(c); w++) CHECK(!ws_warp_next_inline(c, w, &f, &p));
        CHECK(!ws_warp_next_inline(c, ws_cta_num_warps(c), &f, &p)); /* no such warp */
        CHECK(!ws_warp_next_inline(NULL, 0, &f, &p));
    }
    uint32_t got[80];
    CHECK_EQ_I64(ws_gmem_read(g, buf, got, sizeof got), WS_OK);
    for (uint32_t t = 0; t <= 40; t++) {
        uint32_t k = t & 3, s = k * (k + 1) / 2;
        CHECK_EQ_U64(got[t], s > 3 ? s : 2 * s + 7);
    }
    ws_cta_destroy(c);
    ws_image_destroy(img, g);
    ws_gmem_destroy(g);
    ws_module_free(m);
}

TEST(exec_imm_lanes) {
    ws_diag d;
    ws_module *m = ws_ptx_parse(nx_ptx, strlen(nx_ptx), "next.ptx", &d);
    CHECK(m != NULL);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    unsigned nimm = 0, nb32 = 0;
    for (uint32_t i = 0; i < f->ninsts; i++)
        for (unsigned k = 0; k < f->insts[i].nsrc; k++) {
            const ws_operand *o = &f->insts[i].src[k];
            if (o->kind == WS_OPND_MEM) { /* base32: the base register's declared width */
                bool b32 = o->reg != WS_NOREG && ws_type_size((ws_type)f->reg_type[o->reg]) <= 4;
                CHECK_EQ_I64(o->base32, b32);
                nb32 += b32;
            }
            if (o->kind != WS_OPND_IMM) continue;
            nimm++;
            CHECK(o->bcast >= 1 && o->bcast <= f->nimm_lanes);
            if (o->bcast < 1 || o->bcast > f->nimm_lanes) continue;
            for (unsigned l = 0; l < WS_IMM_LANES; l++)
                CHECK_EQ_U64(f->imm_lanes[(o->bcast - 1) * WS_IMM_LANES + l], (uint64_t)o->imm);
        }
    CHECK(nimm >= 5);
    CHECK_EQ_U64(nb32, 2); /* the st.shared and the ld.shared */
    for (uint32_t i = 0; i < f->ninsts; i++)
        if (f->insts[i].ndst && f->insts[i].dst[0].kind == WS_OPND_MEM)
            CHECK_EQ_I64(f->insts[i].dst[0].base32, f->insts[i].dst[0].reg != WS_NOREG &&
                                                        ws_type_size((ws_type)f->reg_type[f->insts[i].dst[0].reg]) <= 4);
    CHECK(f->nimm_lanes < nimm); /* equal values share an entry (the two 3s) */
    /* ws_src: the entry itself when it holds the operand's value; otherwise (another
       value, no entry, an index past the table) a temporary filled per use */
    ws_xctx x = {.f = f, .mask = ~0u};
    uint64_t tmp[WS_WARP_SIZE];
    const uint64_t *e0 = f->imm_lanes;
    ws_operand o = {.kind = WS_OPND_IMM, .imm = (int64_t)e0[0], .bcast = 1, .sym = WS_NOSYM};
    CHECK(ws_src(&x, &o, tmp) == e0);
    const int64_t other = 0x123456789ll;
    ws_operand bad[3] = {{.kind = WS_OPND_IMM, .imm = other, .bcast = 1, .sym = WS_NOSYM},
                         {.kind = WS_OPND_IMM, .imm = other, .bcast = 0, .sym = WS_NOSYM},
                         {.kind = WS_OPND_IMM, .imm = other, .bcast = (uint16_t)(f->nimm_lanes + 1),
                          .sym = WS_NOSYM}};
    for (int i = 0; i < 3; i++) {
        memset(tmp, 0, sizeof tmp);
        const uint64_t *r = ws_src(&x, &bad[i], tmp);
        CHECK(r == tmp);
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) CHECK_EQ_U64(r[l], (uint64_t)other);
    }
    ws_module_free(m);
}
