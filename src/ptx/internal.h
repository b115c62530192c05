/* Internal interfaces between the PTX front-end files. */
#ifndef WARPSIM_PTX_INTERNAL_H
#define WARPSIM_PTX_INTERNAL_H

#include <stddef.h>

#include "ptx/ir.h"

/* Build basic blocks and immediate post-dominators of f and set
 * ws_inst.reconv of every BRA (cfg.c). Returns 0, or -1 with err set. */
int ws_cfg_build(ws_func *f, char *err, size_t errsz);

#endif
