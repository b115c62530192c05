/* Hand-written PTX lexer. Identifiers keep their dotted suffixes together
 * ("ld.global.v4.f32", "%tid.x") so the parser splits instruction
 * modifiers itself; directives are a dot and one word (".reg"). */
#include "ptx/lexer.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool id_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%'; }
static bool id_cont(int c) { return isalnum(c) || c == '_' || c == '$'; }

typedef struct {
    const char *s, *end;
    uint32_t line, col;
} lexpos;

static int push(ws_lexed *out, size_t *cap, ws_token t)
{
    if (out->ntoks == *cap) {
        size_t nc = *cap ? *cap * 2 : 1024;
        ws_token *n = realloc(out->toks, nc * sizeof *n);
        if (!n) return -1;
        out->toks = n;
        *cap = nc;
    }
    out->toks[out->ntoks++] = t;
    return 0;
}

/* Scan the rest of a (dotted) word: identifier characters, '.' followed by
 * an identifier character, and "::" followed by one (shared::cta,
 * L1::no_allocate). `dots` = false for directives. */
static const char *scan_word(const char *p, const char *end, bool dots)
{
    for (;;) {
        if (p < end && id_cont((unsigned char)*p)) {
            p++;
        } else if (dots && p + 1 < end && *p == '.' && id_cont((unsigned char)p[1])) {
            p++;
        } else if (p + 2 < end && p[0] == ':' && p[1] == ':' && id_cont((unsigned char)p[2])) {
            p += 2;
        } else {
            return p;
        }
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Lex a number starting at p. Returns the end, or NULL with msg set. */
static const char *lex_number(const char *p, const char *end, ws_token *t, char *msg, size_t msgsz)
{
    const char *start = p;
    if (p + 1 < end && p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        int ndig = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
        uint64_t v = 0;
        const char *q = p + 2;
        int i;
        for (i = 0; i < ndig && q < end && hexval((unsigned char)*q) >= 0; i++, q++)
            v = v << 4 | (uint64_t)hexval((unsigned char)*q);
        if (i != ndig || (q < end && id_cont((unsigned char)*q))) {
            snprintf(msg, msgsz, "malformed %s float literal (expected %d hex digits after '%.2s')",
                     ndig == 8 ? "single-precision" : "double-precision", ndig, p);
            return NULL;
        }
        t->kind = ndig == 8 ? TK_F32 : TK_F64;
        t->ival = v;
        return q;
    }
    if (p + 1 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X' || p[1] == 'b' || p[1] == 'B')) {
        int base = (p[1] == 'x' || p[1] == 'X') ? 16 : 2;
        uint64_t v = 0;
        const char *q = p + 2;
        int n = 0;
        for (; q < end; q++, n++) {
            int d = hexval((unsigned char)*q);
            if (d < 0 || d >= base) break;
            if (v >> (base == 16 ? 60 : 63)) {
                snprintf(msg, msgsz, "integer literal out of range");
                return NULL;
            }
            v = v * (uint64_t)base + (uint64_t)d;
        }
        if (n == 0) {
            snprintf(msg, msgsz, "malformed integer literal");
            return NULL;
        }
        t->kind = TK_INT;
        t->ival = v;
        p = q;
    } else {
        const char *q = p;
        while (q < end && isdigit((unsigned char)*q)) q++;
        bool isfloat = false;
        if (q < end && *q == '.' && !(q + 1 < end && isalpha((unsigned char)q[1]) && q[1] != 'e' && q[1] != 'E')) {
            isfloat = true;
            q++;
            while (q < end && isdigit((unsigned char)*q)) q++;
        }
        if (q < end && (*q == 'e' || *q == 'E')) {
            const char *r = q + 1;
            if (r < end && (*r == '+' || *r == '-')) r++;
            if (r < end && isdigit((unsigned char)*r)) {
                isfloat = true;
                q = r;
                while (q < end && isdigit((unsigned char)*q)) q++;
            }
        }
        char buf[128];
        size_t n = (size_t)(q - start);
        if (n >= sizeof buf) {
            snprintf(msg, msgsz, "numeric literal too long");
            return NULL;
        }
        memcpy(buf, start, n);
        buf[n] = 0;
        if (isfloat) {
            t->kind = TK_FLOAT;
            t->fval = strtod(buf, NULL);
            p = q;
        } else {
            errno = 0;
            int base = (n > 1 && buf[0] == '0') ? 8 : 10;
            char *e;
            t->ival = strtoull(buf, &e, base);
            if (errno || *e) {
                snprintf(msg, msgsz, "malformed integer literal '%s'", buf);
                return NULL;
            }
            t->kind = TK_INT;
            p = q;
        }
    }
    if (t->kind == TK_INT && p < end && (*p == 'U' || *p == 'u')) {
        t->is_unsigned = true;
        p++;
    }
    if (p < end && id_cont((unsigned char)*p)) {
        snprintf(msg, msgsz, "malformed numeric literal '%.*s'", (int)(p - start + 1), start);
        return NULL;
    }
    return p;
}

int ws_lex(const char *text, size_t len, ws_lexed *out, char *msg, size_t msgsz,
           uint32_t *line_out, uint32_t *col_out)
{
    const char *p = text, *end = text + len, *linestart = text;
    uint32_t line = 1;
    size_t cap = 0;
    out->toks = NULL;
    out->ntoks = 0;
#define FAIL_AT(ptr, ...)                                         \
    do {                                                          \
        snprintf(msg, msgsz, __VA_ARGS__);                        \
        *line_out = line;                                         \
        *col_out = (uint32_t)((ptr) - linestart) + 1;             \
        goto fail;                                                \
    } while (0)
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n') {
            line++;
            p++;
            linestart = p;
            continue;
        }
        if (isspace(c)) {
            p++;
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n') p++;
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '*') {
            const char *s = p;
            uint32_t sl = line;
            const char *sls = linestart;
            p += 2;
            while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n') {
                    line++;
                    linestart = p + 1;
                }
                p++;
            }
            if (p + 1 >= end) {
                line = sl;
                linestart = sls;
                FAIL_AT(s, "unterminated /* comment");
            }
            p += 2;
            continue;
        }
        ws_token t;
        memset(&t, 0, sizeof t);
        t.text = p;
        t.line = line;
        t.col = (uint32_t)(p - linestart) + 1;
        if (id_start(c)) {
            const char *q = scan_word(p + 1, end, true);
            t.kind = TK_IDENT;
            p = q;
        } else if (c == '.' && p + 1 < end && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
            t.kind = TK_DIR;
            p = scan_word(p + 1, end, false);
        } else if (isdigit(c)) {
            const char *q = lex_number(p, end, &t, msg, msgsz);
            if (!q) {
                *line_out = line;
                *col_out = t.col;
                goto fail;
            }
            p = q;
        } else if (c == '"') {
            const char *q = p + 1;
            while (q < end && *q != '"' && *q != '\n') {
                if (*q == '\\' && q + 1 < end) q++;
                q++;
            }
            if (q >= end || *q != '"') FAIL_AT(p, "unterminated string literal");
            t.kind = TK_STRING;
            p = q + 1;
        } else if (strchr("{}()[]<>;:,+-=!@|*/", c)) {
            t.kind = TK_PUNCT;
            p++;
        } else {
            FAIL_AT(p, "unexpected character '%c'", isprint(c) ? c : '?');
        }
        t.len = (uint32_t)(p - t.text);
        if (push(out, &cap, t)) FAIL_AT(p, "out of memory");
    }
    {
        ws_token t;
        memset(&t, 0, sizeof t);
        t.kind = TK_EOF;
        t.text = end;
        t.line = line;
        t.col = (uint32_t)(end - linestart) + 1;
        if (push(out, &cap, t)) FAIL_AT(p, "out of memory");
    }
    return 0;
fail:
    free(out->toks);
    out->toks = NULL;
    out->ntoks = 0;
    return -1;
#undef FAIL_AT
}

void ws_lexed_free(ws_lexed *l)
{
    free(l->toks);
    l->toks = NULL;
    l->ntoks = 0;
}

void ws_tok_describe(const ws_token *t, char *buf, size_t n)
{
    if (t->kind == TK_EOF) {
        snprintf(buf, n, "end of file");
        return;
    }
    int l = t->len > 40 ? 40 : (int)t->len;
    snprintf(buf, n, "'%.*s'%s", l, t->text, t->len > 40 ? "..." : "");
}
