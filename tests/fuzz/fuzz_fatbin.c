/* libFuzzer harness for the fat binary reader (src/runtime/fatbin.c): every
 * input is a fat binary of exactly `size` bytes, the way a corrupt file or a
 * truncated image reaches ws_fatbin_ptx_from_data. Not part of `make test`;
 * `make fuzz FUZZ_SECONDS=N` builds it with clang and runs it, seeded from
 * the fat binaries of tests/data/driver/nvcc13 and tests/data/fatbin. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;  /* length 0 means "unknown" to the reader */
    /* A private copy of exactly `size` bytes so that ASan sees any read past
       the end (libFuzzer's own buffer is exact too; this keeps it so). */
    uint8_t *copy = malloc(size);
    if (!copy) return 0;
    memcpy(copy, data, size);
    char err[256];
    unsigned arch = 0;
    char *ptx = ws_fatbin_ptx_from_data(copy, size, &arch, err, sizeof err);
    /* Success: a NUL-terminated string. Failure: a message. */
    if (ptx) (void)strlen(ptx);
    else if (!memchr(err, '\0', sizeof err) || !err[0]) abort();
    free(ptx);
    free(copy);
    return 0;
}
