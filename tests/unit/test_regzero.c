/* Registers a kernel's warps zero at entry (src/exec/regzero.c): only those
 * some path may read before writing them whole, and the operands of
 * cross-lane instructions; and kernels that read registers they never wrote
 * still see zero. */
#include "exec/exec_internal.h"
#include "test_exec_util.h"
#include "test_ptx_util.h"

static ws_module *parse_body(const char *body, ws_diag *d) {
    char buf[4096];
    snprintf(buf, sizeof buf, PTX_HEADER
             ".visible .entry k()\n{\n .reg .pred %%p<4>;\n .reg .b32 %%r<8>;\n%s}\n", body);
    return ptxt_parse_str(buf, d);
}

/* bit r of the result: register slot r is zeroed (slots < 32) */
static uint32_t zeroed(const ws_func *f) {
    uint32_t *runs = ws_entry_zero_runs(f), m = 0;
    CHECK(runs != NULL);
    if (!runs) return ~0u;
    for (uint32_t i = 0; i < runs[0]; i++)
        for (uint32_t r = runs[1 + 2 * i]; r < runs[1 + 2 * i] + runs[2 + 2 * i]; r++)
            if (r < 32) m |= 1u << r;
    free(runs);
    return m;
}

/* the slot of %rN in this test's kernels */
static unsigned slot(const ws_func *f, const char *name) {
    for (unsigned r = 0; r < f->nregs; r++)
        if (f->reg_name[r] && !strcmp(f->reg_name[r], name)) return r;
    CHECK_MSG(false, "no register %s", name);
    return 31;
}

TEST(regzero_read_before_write_and_branches) {
    ws_diag d;
    ws_module *m = parse_body(
        " mov.u32 %r0, %tid.x;\n"        /* written first: kept */
        " add.s32 %r1, %r1, 1;\n"        /* r1 read first: zeroed */
        " setp.eq.s32 %p1, %r0, 0;\n"
        " @%p1 bra ELSE;\n"
        " mov.u32 %r2, 1;\n mov.u32 %r3, 1;\n"
        " bra.uni END;\n"
        "ELSE:\n mov.u32 %r2, 2;\n"      /* r2 written on both arms: kept */
        "END:\n add.s32 %r4, %r2, %r3;\n" /* r3 only on one arm: zeroed */
        " @%p1 mov.u32 %r5, 7;\n"        /* guarded write, then read: zeroed */
        " add.s32 %r6, %r5, %r4;\n"
        " ret;\n", &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    uint32_t z = zeroed(f);
    CHECK(!(z >> slot(f, "%r0") & 1));
    CHECK(z >> slot(f, "%r1") & 1);
    CHECK(!(z >> slot(f, "%r2") & 1));
    CHECK(z >> slot(f, "%r3") & 1);
    CHECK(!(z >> slot(f, "%r4") & 1));
    CHECK(z >> slot(f, "%r5") & 1);
    CHECK(!(z >> slot(f, "%r6") & 1));
    CHECK(!(z >> slot(f, "%r7") & 1)); /* never read: nothing can see it */
    ws_module_free(m);
}

TEST(regzero_loops_and_cross_lane) {
    ws_diag d;
    ws_module *m = parse_body(
        " mov.u32 %r1, 0;\n"
        "LOOP:\n add.s32 %r1, %r1, 1;\n"     /* written before the loop: kept */
        " add.s32 %r2, %r2, %r1;\n"          /* carried, never set first: zeroed */
        " setp.lt.s32 %p1, %r1, 5;\n"
        " @%p1 bra LOOP;\n"
        " mov.u32 %r3, %tid.x;\n"
        " shfl.sync.idx.b32 %r4, %r3, 0, 31, -1;\n" /* another lane's r3: zeroed */
        " ret;\n", &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = &m->funcs[0];
    uint32_t z = zeroed(f);
    CHECK(!(z >> slot(f, "%r1") & 1));
    CHECK(z >> slot(f, "%r2") & 1);
    CHECK(z >> slot(f, "%r3") & 1);
    CHECK(z >> slot(f, "%r4") & 1);
    ws_module_free(m);
}

/* Run end to end: registers read before any write still read zero, in full and
   partial warps and on the path that skipped a write. */
TEST(regzero_unwritten_registers_read_zero) {
    const char *ptx = WX_HEAD
        ".visible .entry k(.param .u64 po)\n{\n"
        ".reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
        "ld.param.u64 %rd1, [po];\nmov.u32 %r0, %tid.x;\nmul.wide.u32 %rd2, %r0, 8;\n"
        "add.s64 %rd3, %rd1, %rd2;\n"
        "add.s32 %r1, %r9, 5;\n"                         /* r9 never written: 0 + 5 */
        "and.b32 %r2, %r0, 1;\nsetp.eq.s32 %p1, %r2, 0;\n"
        "@%p1 bra SKIP;\nmov.u32 %r10, 100;\n"           /* odd lanes only */
        "SKIP:\nadd.s32 %r3, %r10, %r1;\n"               /* even lanes: 0 + 5 */
        "st.global.v2.u32 [%rd3], {%r1, %r3};\nret;\n}\n";
    for (unsigned nthreads = 32; nthreads >= 20; nthreads -= 12) {
        uint32_t out[64];
        memset(out, 0xee, sizeof out);
        wx_buf b[1] = {{NULL, out, sizeof out}};
        wx_cfg cfg = {0};
        cfg.block[0] = nthreads;
        ws_fault f;
        CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, NULL), WS_OK);
        for (unsigned t = 0; t < nthreads; t++) {
            CHECK_EQ_U64(out[2 * t], 5);
            CHECK_EQ_U64(out[2 * t + 1], t & 1 ? 105 : 5);
        }
    }
}
