/* libFuzzer harness for PTX -> functional engine (src/exec) through the
 * embedding API: load the input as a PTX module on a fresh functional device
 * and launch every kernel on a tiny grid, under an instruction cap and a
 * small hang limit. Faults (illegal address, trap, deadlock, ...) are fine;
 * crashes and sanitizer reports are findings. Seeded like fuzz_ptx. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "warpsim/warpsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { BUF_BYTES = 1 << 16, MAX_PARAM_BYTES = 4096 };

/* Parameters: pointer-sized ones point at a zeroed device buffer (so loads and
   stores have somewhere to go), others hold a small count. */
static void fill_params(const ws_kernel *k, ws_devptr buf, uint8_t *params) {
    for (int i = 0; i < ws_kernel_num_params(k); i++) {
        size_t off, sz;
        ws_kernel_param_layout(k, i, &off, &sz);
        if (off > MAX_PARAM_BYTES || sz > MAX_PARAM_BYTES - off) continue;
        if (sz == 8) memcpy(params + off, &buf, 8);
        else if (sz == 4) memcpy(params + off, &(uint32_t){64}, 4);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;  /* length 0 means "NUL-terminated" to ws_module_load */
    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data, size);
    /* The kernel names, from the front end (the API loads by name). */
    ws_diag diag = {0};
    ws_module *ir = ws_ptx_parse(text, size, "fuzz.ptx", &diag);
    if (!ir) { free(text); return 0; }
    static const char *const overrides[] = {"-warpsim_hang_insns 20000", NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.max_insn = 200000;
    o.config_overrides = overrides;
    ws_device *d = NULL;
    ws_module_handle *m = NULL;
    ws_devptr buf = 0;
    if (ws_device_create(&o, &d) != WS_OK) abort();
    if (ws_malloc(d, BUF_BYTES, &buf) != WS_OK || ws_memset(d, buf, 0, BUF_BYTES) != WS_OK) abort();
    if (ws_module_load(d, text, size, "fuzz.ptx", NULL, &m) == WS_OK) {
        for (uint32_t f = 0; f < ir->nfuncs; f++) {
            ws_kernel *k = NULL;
            if (!ir->funcs[f].is_entry || ws_module_get_kernel(m, ir->funcs[f].name, &k) != WS_OK)
                continue;
            ws_kernel_attrs a;
            ws_kernel_get_attrs(k, &a);
            if (a.param_bytes > MAX_PARAM_BYTES) continue;
            uint8_t params[MAX_PARAM_BYTES] = {0};
            fill_params(k, buf, params);
            (void)ws_launch_packed(d, k, (ws_dim3){2, 1, 1}, (ws_dim3){64, 1, 1}, 256, params,
                                   a.param_bytes);
        }
    }
    ws_device_destroy(d);
    ws_module_free(ir);
    free(text);
    return 0;
}
