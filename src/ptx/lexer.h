/* PTX lexer: text -> token array (internal to src/ptx). */
#ifndef WARPSIM_PTX_LEXER_H
#define WARPSIM_PTX_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    TK_EOF = 0,
    TK_IDENT,  /* ld.global.u32, %r1, %tid.x, $L__BB0_2, _Z3fooi, shared::cta forms */
    TK_DIR,    /* .reg .u32 .shared::cta ... (text includes the dot) */
    TK_INT,    /* ival holds the bits; is_unsigned for a U suffix */
    TK_F32,    /* 0fXXXXXXXX: ival = the 32 bits */
    TK_F64,    /* 0dXXXXXXXXXXXXXXXX: ival = the 64 bits */
    TK_FLOAT,  /* decimal float literal: fval */
    TK_STRING, /* "...": text includes the quotes */
    TK_PUNCT   /* one character: text[0] */
} ws_tok_kind;

typedef struct ws_token {
    uint8_t kind;
    bool is_unsigned;
    uint32_t len;
    const char *text;   /* points into the source */
    uint32_t line, col; /* 1-based */
    uint64_t ival;
    double fval;
} ws_token;

typedef struct ws_lexed {
    ws_token *toks;
    size_t ntoks; /* includes the final TK_EOF */
} ws_lexed;

/* Tokenise the whole text. Returns 0, or -1 with msg (the message text,
 * without file prefix) and the line and column set. */
int ws_lex(const char *text, size_t len, ws_lexed *out, char *msg, size_t msgsz,
           uint32_t *line, uint32_t *col);
void ws_lexed_free(ws_lexed *l);

/* Human-readable description of a token for "found X" messages. */
void ws_tok_describe(const ws_token *t, char *buf, size_t n);

#endif
