/* Malformed and unsupported PTX: every error names file:line:col and what
 * was expected or what is unsupported; lexer literal forms; ptxas info. */
#include <stdlib.h>

#include "ptx/lexer.h"
#include "test_ptx_util.h"

static void expect_error(const char *src, const char *want1, const char *want2, int line)
{
    ws_diag d;
    ws_module *m = ws_ptx_parse(src, strlen(src), "t.ptx", &d);
    if (m) {
        ws_test_fail(__FILE__, line, "parse unexpectedly succeeded (want \"%s\")", want1);
        ws_module_free(m);
        return;
    }
    if (!strstr(d.msg, want1)) ws_test_fail(__FILE__, line, "\"%s\" does not contain \"%s\"", d.msg, want1);
    if (want2 && !strstr(d.msg, want2))
        ws_test_fail(__FILE__, line, "\"%s\" does not contain \"%s\"", d.msg, want2);
}
#define EXPECT_ERROR(src, a, b) expect_error(src, a, b, __LINE__)

#define KHEAD PTX_HEADER ".visible .entry k()\n{\n .reg .b32 %r<4>;\n .reg .pred %p<2>;\n"

TEST(ptx_error_messages)
{
    /* missing ';' : line 8 (header 3 + entry 2 + 2 decls = 7 lines before) */
    EXPECT_ERROR(KHEAD " add.s32 %r1, %r2, %r3\n ret;\n}\n", "t.ptx:9:2: error: expected ';', found 'ret'", NULL);
    EXPECT_ERROR(KHEAD " add.s32 %r1, %r2, %r9;\n}\n", "t.ptx:8:20:", "undefined register '%r9'");
    EXPECT_ERROR(KHEAD " bra NOWHERE;\n}\n", "t.ptx:8:6:", "undefined label 'NOWHERE'");
    EXPECT_ERROR(KHEAD " ld.global.u32 %r1, [nosuch];\n}\n", "t.ptx:8:22:", "undefined identifier 'nosuch'");
    EXPECT_ERROR(KHEAD " call.uni nofunc, ();\n}\n", "t.ptx:8:11:", "undefined function 'nofunc'");
    EXPECT_ERROR(KHEAD " frobnicate.u32 %r1, %r2;\n}\n", "t.ptx:8:2:", "unsupported instruction 'frobnicate.u32' (line 8)");
    EXPECT_ERROR(KHEAD " brx.idx %r1, tbl;\n}\n", "t.ptx:8:15:", "undefined .branchtargets table 'tbl'");
    EXPECT_ERROR(KHEAD " add.bogus.s32 %r1, %r2, %r3;\n}\n", "unsupported instruction 'add.bogus.s32'", "'.bogus'");
    EXPECT_ERROR(KHEAD " ld.global.u32 %r1, [%r2+];\n}\n", "t.ptx:8:26: error: expected an address offset, found ']'", NULL);
    EXPECT_ERROR(KHEAD " mov.u32 %r1 %r2;\n}\n", "expected ';', found '%r2'", NULL);
    EXPECT_ERROR(KHEAD " @%r1 bra L;\nL: ret;\n}\n", "t.ptx:8:3:", "expected a predicate register as guard");
    EXPECT_ERROR(KHEAD " .maxclusterrank 2;\n}\n", "t.ptx:8:2:", "unsupported directive '.maxclusterrank'");
    EXPECT_ERROR(KHEAD " ret;\n", "expected '}', found end of file", NULL);
    EXPECT_ERROR(KHEAD " mov.f32 %r1, 0f3F80;\n}\n", "t.ptx:8:15:", "expected 8 hex digits");
    EXPECT_ERROR(KHEAD " mov.u32 %r1, 1;\n /* open\n}\n", "t.ptx:9:2:", "unterminated /* comment");
    EXPECT_ERROR(KHEAD " mov.u32 %r1, 1;\nL: ret;\nL: ret;\n}\n", "t.ptx:10:1:", "label 'L' defined twice");
    EXPECT_ERROR(KHEAD " .reg .b32 %r1;\n ret;\n}\n", "t.ptx:8:12:", "redeclaration of '%r1'");
    EXPECT_ERROR(PTX_HEADER ".global .u32 x = {1, 2};\n", "t.ptx:4:", "too many initialisers for 'x'");
    EXPECT_ERROR(PTX_HEADER ".global .u64 x = missing;\n", "t.ptx:4:18:", "undefined symbol 'missing'");
    EXPECT_ERROR(PTX_HEADER ".global x;\n", "t.ptx:4:9: error: expected a type", NULL);
    EXPECT_ERROR(PTX_HEADER ".alias a, b;\n", "t.ptx:4:1:", "unsupported directive '.alias'");
    EXPECT_ERROR(".version 10.0\n", "t.ptx:1:10:", "unsupported PTX version 10.0");
    EXPECT_ERROR(PTX_HEADER "add.s32 %r1;\n", "t.ptx:4:1: error: expected a directive, found 'add.s32'", NULL);
    EXPECT_ERROR(PTX_HEADER ".visible .entry k(.param .u32 a\n{\n}\n", "t.ptx:5:1: error: expected ')', found '{'", NULL);
    EXPECT_ERROR(KHEAD " setp.s32 %p1, %r1, %r2;\n}\n", "t.ptx:8:2:", "expected a comparison");
    EXPECT_ERROR(KHEAD " ld.global.u32 %r1, [%p1];\n}\n", "t.ptx:8:22:", "expected a register or variable in address");
}

TEST(ptx_accepts_debug_directives_and_sections)
{
    ws_diag d;
    ws_module *m = ptxt_parse_str(PTX_HEADER
        ".file 1 \"/tmp/x.cu\", 1700000000, 123\n"
        ".visible .entry k()\n{\n .reg .b32 %r<2>;\n"
        " .loc 1 5 3\n mov.u32 %r1, 1;\n .loc 1 6 3, function_name $L__info_string0, inlined_at 1 2 3\n"
        " ret;\n}\n"
        ".section .debug_str\n{\n$L__info_string0:\n.b8 95,90,0\n}\n", &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (m) CHECK_EQ_U64(m->funcs[0].ninsts, 2);
    ws_module_free(m);
}

TEST(ptx_lexer_literals)
{
    const char *src = "0f3F800000 0d4000000000000000 0x1F 017 0b101 42U 1.5e2 %tid.x ld.shared::cta.u32 .reg \"s\\\"x\"";
    ws_lexed lx;
    char msg[128];
    uint32_t line, col;
    CHECK(ws_lex(src, strlen(src), &lx, msg, sizeof msg, &line, &col) == 0);
    CHECK_EQ_U64(lx.ntoks, 12);
    if (lx.ntoks == 12) {
        CHECK_EQ_U64(lx.toks[0].kind, TK_F32);
        CHECK_EQ_U64(lx.toks[0].ival, 0x3F800000);
        CHECK_EQ_U64(lx.toks[1].kind, TK_F64);
        CHECK_EQ_U64(lx.toks[1].ival, 0x4000000000000000ull);
        CHECK_EQ_U64(lx.toks[2].ival, 31);
        CHECK_EQ_U64(lx.toks[3].ival, 15);
        CHECK_EQ_U64(lx.toks[4].ival, 5);
        CHECK(lx.toks[5].is_unsigned && lx.toks[5].ival == 42);
        CHECK(lx.toks[6].kind == TK_FLOAT && lx.toks[6].fval == 150.0);
        CHECK(lx.toks[7].kind == TK_IDENT && lx.toks[7].len == 6);
        CHECK(lx.toks[8].kind == TK_IDENT && lx.toks[8].len == 18);
        CHECK(lx.toks[9].kind == TK_DIR && lx.toks[9].len == 4);
        CHECK(lx.toks[10].kind == TK_STRING && lx.toks[10].len == 6);
        CHECK_EQ_U64(lx.toks[10].col, 87);
        CHECK_EQ_U64(lx.toks[11].kind, TK_EOF);
    }
    ws_lexed_free(&lx);
    CHECK(ws_lex("a\n  0x", 6, &lx, msg, sizeof msg, &line, &col) == -1);
    CHECK_EQ_U64(line, 2);
    CHECK_EQ_U64(col, 3);
    CHECK_STR_CONTAINS(msg, "malformed integer literal");
}

TEST(ptx_ptxas_info)
{
    ws_module *m = ptxt_load("features.ptx");
    if (!m) return;
    size_t len;
    char *info = ptxt_read("tests/data/ptx/features.ptxinfo", &len);
    CHECK(info != NULL);
    ws_diag d;
    CHECK(ws_ptx_apply_ptxas_info(m, info, &d) == 0);
    const ws_func *h = ptxt_func(m, "_Z5helloi"), *a = ptxt_func(m, "_Z7atomicsPiPjPfPd");
    CHECK(h && a);
    if (h && a) {
        CHECK_EQ_I64(h->ptxas_regs, 24);
        CHECK_EQ_I64(h->ptxas_lmem, 16);
        CHECK_EQ_I64(h->ptxas_cmem, 356);
        CHECK_EQ_I64(a->ptxas_regs, 14);
        CHECK_EQ_I64(a->ptxas_smem, 16);
        CHECK_EQ_I64(a->ptxas_cmem, 384);
    }
    /* an older format: smem before cmem, lmem in the Used line */
    CHECK(ws_ptx_apply_ptxas_info(m,
        "ptxas info    : Compiling entry function '_Z5helloi' for 'sm_20'\n"
        "ptxas info    : Used 9 registers, 48 bytes smem, 44 bytes cmem[0], 8 bytes lmem\n", &d) == 0);
    CHECK_EQ_I64(h->ptxas_regs, 9);
    CHECK_EQ_I64(h->ptxas_smem, 48);
    CHECK_EQ_I64(h->ptxas_lmem, 8);
    /* unknown functions are ignored */
    CHECK(ws_ptx_apply_ptxas_info(m,
        "ptxas info    : Compiling entry function 'nope' for 'sm_75'\n"
        "ptxas info    : Used 3 registers, 0 bytes cmem[0]\n", &d) == 0);
    free(info);
    ws_module_free(m);
}
