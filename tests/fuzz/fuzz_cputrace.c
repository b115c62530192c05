/* libFuzzer harness for the CPU core's LLC trace reader (timing/cpucore.h):
 * every input is parsed as a version-1 trace; a refusal must say why, and an
 * accepted trace must have non-decreasing cycles. Seeded from
 * tests/data/cputrace by `make fuzz`. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "timing/cpucore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    ws_cpu_access *a = NULL;
    size_t n = 0;
    char err[400] = "";
    if (ws_cpu_trace_parse(text, "fuzz.trace", &a, &n, err, sizeof err)) {
        if (!err[0] || a || n) abort();
    } else {
        for (size_t i = 1; i < n; i++)
            if (a[i].cycle < a[i - 1].cycle) abort();
    }
    free(a);
    free(text);
    return 0;
}
