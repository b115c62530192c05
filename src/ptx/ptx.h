/* PTX front end: text -> ws_module (see ir.h). */
#ifndef WARPSIM_PTX_PTX_H
#define WARPSIM_PTX_PTX_H

#include "ptx/ir.h"

/* A diagnostic: "file:line:col: error: message". */
typedef struct ws_diag {
    char msg[512];
    uint32_t line, col;
} ws_diag;

/* Parse a whole PTX module. Returns NULL and fills *diag on error: malformed
 * input names the line, column and what was expected; an unsupported
 * instruction or directive names itself and its line. `filename` is used in
 * messages only. Builds CFGs and immediate post-dominators (reconvergence
 * points) of every function. */
ws_module *ws_ptx_parse(const char *text, size_t len, const char *filename, ws_diag *diag);

/* How far ws_ptx_parse_ex goes on after a problem inside a function body.
 * A skipped statement is listed in the module's problems (and passed to
 * report, when set, as it is found). */
typedef struct ws_parse_opts {
    /* An unsupported instruction does not fail the parse: it is replaced by a
     * trap that names it (WS_TRAP_UNSUPPORTED) and its function is marked
     * (ws_func.unsupported), so that only the kernels reaching it are
     * refused (ws_module_func_unsupported). Used when modules are loaded. */
    bool defer_unsupported;
    /* Any error in a function-body statement skips the statement (to its ';')
     * and parsing goes on, so that all problems are found (ptx-check). The
     * module is then only good for listing them. */
    bool keep_going;
    void (*report)(void *ctx, const ws_problem *problem);
    void *ctx;
} ws_parse_opts;
/* ws_ptx_parse with options (NULL: ws_ptx_parse's behaviour, the first
 * problem fails the parse). An error that cannot be skipped still returns
 * NULL with *diag filled (it is not passed to report). */
ws_module *ws_ptx_parse_ex(const char *text, size_t len, const char *filename,
                           const ws_parse_opts *opts, ws_diag *diag);

/* Read a ptxas "info" sidecar (the stderr of `ptxas -v`, see bench/README)
 * and store registers/shared/local/const bytes into the module's functions.
 * Unknown function names are ignored. Returns 0, or -1 with *diag filled. */
int ws_ptx_apply_ptxas_info(ws_module *m, const char *text, ws_diag *diag);

/* Print the IR of one function in PTX-like syntax (for `warpsim ptx-check -v`
 * and debugging). */
#include <stdio.h>
void ws_ptx_dump_func(FILE *out, const ws_module *m, const ws_func *f);

#endif
