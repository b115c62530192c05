/* CFG, immediate post-dominators and reconvergence pcs on hand-analysed
 * control flow. Comments give the pc of each instruction. */
#include "test_ptx_util.h"

static ws_module *parse_body(const char *body, ws_diag *d)
{
    char buf[4096];
    snprintf(buf, sizeof buf, PTX_HEADER
             ".visible .entry k()\n{\n .reg .pred %%p<4>;\n .reg .b32 %%r<8>;\n%s}\n", body);
    return ptxt_parse_str(buf, d);
}

TEST(ptx_cfg_if_else)
{
    ws_diag d;
    ws_module *m = parse_body(
        " @%p1 bra ELSE;\n"        /* 0 */
        " add.s32 %r1, %r1, 1;\n"   /* 1 then */
        " bra.uni END;\n"           /* 2 */
        "ELSE:\n add.s32 %r1, %r1, 2;\n" /* 3 else */
        "END:\n add.s32 %r2, %r1, 0;\n"  /* 4 join */
        " ret;\n", &d);              /* 5 */
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    CHECK_EQ_U64(f->nblocks, 4);
    CHECK_EQ_U64(f->block_start[2], 3);
    CHECK_EQ_U64(f->inst_block[4], 3);
    CHECK_EQ_I64(f->insts[0].reconv, 4);
    CHECK_EQ_I64(f->insts[2].reconv, 4);
    CHECK_EQ_I64(f->ipdom[0], 3);
    CHECK_EQ_I64(f->ipdom[3], -1);
    ws_module_free(m);
}

TEST(ptx_cfg_nested_if)
{
    ws_diag d;
    ws_module *m = parse_body(
        " @%p1 bra OUT;\n"          /* 0 */
        " @%p2 bra IN;\n"           /* 1 */
        " add.s32 %r1, %r1, 1;\n"   /* 2 */
        "IN:\n add.s32 %r1, %r1, 2;\n" /* 3 inner join */
        "OUT:\n ret;\n", &d);        /* 4 outer join */
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    CHECK_EQ_I64(f->insts[0].reconv, 4);
    CHECK_EQ_I64(f->insts[1].reconv, 3);
    ws_module_free(m);
}

TEST(ptx_cfg_loop_with_break)
{
    ws_diag d;
    ws_module *m = parse_body(
        " mov.u32 %r1, 0;\n"          /* 0 */
        "LOOP:\n add.s32 %r1, %r1, 1;\n" /* 1 */
        " setp.eq.s32 %p1, %r1, 5;\n"  /* 2 */
        " @%p1 bra DONE;\n"            /* 3 break */
        " setp.lt.s32 %p2, %r1, 10;\n" /* 4 */
        " @%p2 bra LOOP;\n"            /* 5 back edge */
        "DONE:\n st.global.u32 [0], %r1;\n" /* 6 */
        " ret;\n", &d);                 /* 7 */
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    CHECK_EQ_I64(f->insts[3].src[0].imm, 6);
    CHECK_EQ_I64(f->insts[3].reconv, 6);
    CHECK_EQ_I64(f->insts[5].src[0].imm, 1);
    CHECK_EQ_I64(f->insts[5].reconv, 6);
    ws_module_free(m);
}

TEST(ptx_cfg_early_return)
{
    ws_diag d;
    ws_module *m = parse_body(
        " @%p1 bra SKIP;\n"           /* 0 */
        " @%p2 ret;\n"                /* 1 early return */
        " add.s32 %r1, %r1, 1;\n"     /* 2 */
        "SKIP:\n add.s32 %r2, %r1, 1;\n" /* 3 */
        " ret;\n", &d);                /* 4 */
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    /* some paths from 0 return early, so only the exit post-dominates it */
    CHECK_EQ_I64(f->insts[0].reconv, -1);
    CHECK_EQ_I64(f->ipdom[f->inst_block[2]], f->inst_block[3]);
    ws_module_free(m);
}

TEST(ptx_cfg_infinite_loop_and_fallthrough)
{
    ws_diag d;
    ws_module *m = parse_body(
        " @%p1 bra SPIN;\n"          /* 0 */
        " add.s32 %r1, %r1, 1;\n"    /* 1 then falls off the end: implicit ret */
        " bra.uni END;\n"            /* 2 */
        "SPIN:\n add.s32 %r2, %r2, 1;\n" /* 3 */
        " bra.uni SPIN;\n"           /* 4 never exits */
        "END:\n", &d);                /* 5 implicit ret */
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    CHECK_EQ_U64(f->ninsts, 6);
    CHECK_EQ_U64(f->insts[5].op, WS_OP_RET);
    CHECK_EQ_I64(f->insts[0].reconv, -1); /* the loop is treated as reaching the exit */
    CHECK_EQ_I64(f->insts[2].reconv, 5);
    CHECK_EQ_I64(f->insts[4].reconv, -1);
    for (uint32_t b = 0; b < f->nblocks; b++) CHECK(f->ipdom[b] < (int32_t)f->nblocks);
    ws_module_free(m);
}

TEST(ptx_cfg_reference_kernels_have_valid_reconv)
{
    ws_module *m = ptxt_load("features.ptx");
    if (!m) return;
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        const ws_func *f = &m->funcs[k];
        for (uint32_t pc = 0; pc < f->ninsts; pc++) {
            const ws_inst *in = &f->insts[pc];
            if (in->op != WS_OP_BRA) continue;
            CHECK(in->reconv >= -1 && in->reconv < (int32_t)f->ninsts);
            if (in->reconv >= 0)
                CHECK_EQ_U64(f->block_start[f->inst_block[in->reconv]], (uint32_t)in->reconv);
        }
    }
    ws_module_free(m);
}
