/* .calltargets: an indirect call naming the functions it may reach runs
 * like any indirect call; a name that is not a function is refused. */
#include <string.h>

#include "ptx/ptx.h"
#include "test_exec_util.h"

TEST(exec_calltargets_indirect_call) {
    static const char *const ptx =
        WX_HEAD
        ".func (.param .b32 r) twice(.param .b32 x)\n{\n.reg .b32 %r<3>;\nld.param.b32 %r1, [x];\n"
        "add.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n"
        ".func (.param .b32 r) square(.param .b32 x)\n{\n.reg .b32 %r<3>;\nld.param.b32 %r1, [x];\n"
        "mul.lo.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n"
        ".visible .entry k(.param .u64 po)\n{\n.reg .b32 %r<6>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n"
        "ld.param.u64 %rd1, [po];\nmov.u32 %r0, %tid.x;\nand.b32 %r1, %r0, 1;\nsetp.eq.u32 %p1, %r1, 0;\n"
        "mov.u64 %rd2, twice;\nmov.u64 %rd3, square;\nselp.b64 %rd4, %rd2, %rd3, %p1;\n"
        "targets: .calltargets twice, square;\n"
        "{\n.param .b32 a;\nst.param.b32 [a], %r0;\n.param .b32 ret;\n"
        "call (ret), %rd4, (a), targets;\nld.param.b32 %r2, [ret];\n}\n"
        "mul.wide.u32 %rd5, %r0, 4;\nadd.s64 %rd6, %rd1, %rd5;\nst.global.u32 [%rd6], %r2;\nret;\n}\n";
    uint32_t out[32];
    wx_buf b[1] = {{NULL, out, sizeof out}};
    wx_cfg cfg = {0};
    cfg.block[0] = 32;
    ws_fault f;
    CHECK_EQ_I64(wx_launch(ptx, &cfg, b, 1, &f, NULL), WS_OK);
    unsigned bad = 0;
    for (uint32_t t = 0; t < 32; t++) bad += out[t] != (t % 2 ? t * t : 2 * t);
    CHECK_EQ_U64(bad, 0);
    /* a label or variable is not a call target */
    ws_diag d;
    const char *src = WX_HEAD ".visible .entry k()\n{\nL: .calltargets nothere;\nret;\n}\n";
    ws_module *m = ws_ptx_parse(src, strlen(src), "t.ptx", &d);
    CHECK(m == NULL && strstr(d.msg, "'nothere' in .calltargets is not a function"));
    ws_module_free(m);
}

/* brkpt stops the launch (no debugger); a kernel with an instruction warpsim
   does not run (wgmma) is refused at launch while the module loads, and
   its neighbour's cluster directives are kept. */
TEST(exec_brkpt_and_deferred_refusal) {
    ws_fault f;
    wx_cfg cfg = {0};
    cfg.block[0] = 1;
    const char *bp = WX_HEAD ".visible .entry k()\n{\nbrkpt;\nret;\n}\n";
    CHECK_EQ_I64(wx_launch(bp, &cfg, NULL, 0, &f, NULL), WS_ERR_TRAP);
    CHECK_STR_CONTAINS(f.msg, "brkpt executed (no debugger to stop in)");
    ws_diag d;
    ws_parse_opts o = {0};
    o.defer_unsupported = true;
    const char *cl = WX_HEAD ".visible .entry k()\n{\n.reg .b32 %r<2>;\n.reg .pred %p<2>;\n"
                     "wgmma.fence.sync.aligned;\nret;\n}\n"
                     ".visible .entry ok()\n.explicitcluster\n.reqnctapercluster 2, 3\n{\nret;\n}\n";
    ws_module *m = ws_ptx_parse_ex(cl, strlen(cl), "t.ptx", &o, &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (m) {
        CHECK(m->nproblems == 1 && strstr(m->problems[0].msg, "'wgmma.fence.sync.aligned'"));
        CHECK(ws_module_func_unsupported(m, 0) == 0 && ws_module_func_unsupported(m, 1) < 0);
        const ws_func *ok = &m->funcs[1];
        CHECK(ok->explicit_cluster && ok->reqnctapercluster[0] == 2 && ok->reqnctapercluster[1] == 3 &&
              ok->reqnctapercluster[2] == 1);
        ws_module_free(m);
    }
}
