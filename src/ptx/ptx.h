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

/* Read a ptxas "info" sidecar (the stderr of `ptxas -v`, see bench/README)
 * and store registers/shared/local/const bytes into the module's functions.
 * Unknown function names are ignored. Returns 0, or -1 with *diag filled. */
int ws_ptx_apply_ptxas_info(ws_module *m, const char *text, ws_diag *diag);

/* Print the IR of one function in PTX-like syntax (for `warpsim ptx-check -v`
 * and debugging). */
#include <stdio.h>
void ws_ptx_dump_func(FILE *out, const ws_module *m, const ws_func *f);

#endif
