/* libFuzzer harness for the PTX front end (src/ptx): lexing, parsing,
 * validation and the CFG / post-dominator build that ws_ptx_parse does, then
 * the IR dump of every function (what `warpsim ptx-check -v` prints).
 * Seeded from the committed PTX (bench/, tests/data/ptx) by `make fuzz`. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* An exact-size copy, not NUL-terminated: the parser takes a length. */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    memcpy(text, data, size);
    ws_diag diag = {0};
    ws_module *m = ws_ptx_parse(text, size, "fuzz.ptx", &diag);
    if (m) {
        FILE *sink = fopen("/dev/null", "w");
        for (uint32_t i = 0; sink && i < m->nfuncs; i++) ws_ptx_dump_func(sink, m, &m->funcs[i]);
        if (sink) fclose(sink);
        ws_module_free(m);
    } else if (!memchr(diag.msg, '\0', sizeof diag.msg) || !diag.msg[0]) {
        abort();  /* a failure must say why */
    }
    free(text);
    return 0;
}
