/* PTX out of nvcc fat binaries (what __cudaRegisterFatBinary receives). */
#ifndef WARPSIM_RUNTIME_FATBIN_H
#define WARPSIM_RUNTIME_FATBIN_H

#include <stddef.h>

#define WS_FATBIN_WRAPPER_MAGIC 0x466243b1u  /* __fatBinC_Wrapper_t.magic */
#define WS_FATBIN_MAGIC 0xBA55ED50u          /* fat binary header */

/* Limits that keep a corrupt header from costing gigabytes: the PTX of one
   entry decompresses to at most WS_FATBIN_MAX_PTX bytes (the largest PTX
   nvcc writes for real programs is a few MiB), and a fat binary passed
   without its length (__cudaRegisterFatBinary, cuModuleLoadData) may claim
   at most WS_FATBIN_MAX_IMAGE bytes. Beyond either, the reader fails with a
   message. */
#define WS_FATBIN_MAX_PTX (256u << 20)
#define WS_FATBIN_MAX_IMAGE (1u << 30)

/* From the wrapper struct passed to __cudaRegisterFatBinary (magic, version,
 * pointer to the fat binary). Returns the PTX of the entry with the highest
 * virtual architecture as a malloc'd NUL-terminated string (*arch gets it,
 * e.g. 75), or NULL with a message in err. zstd-compressed entries (nvcc 13's
 * default) and uncompressed ones (--no-compress) are both handled. */
char *ws_fatbin_extract_ptx(const void *wrapper, unsigned *arch, char *err, size_t errlen);

/* Same, from the fat binary data itself (header magic 0xBA55ED50). `len` is
 * the number of bytes available: no read goes past them, and a corrupt or
 * truncated image gives NULL and a message, never a crash. 0 means unknown:
 * the header's sizes are then trusted (up to WS_FATBIN_MAX_IMAGE), as they
 * must be for a bare pointer. */
char *ws_fatbin_ptx_from_data(const void *data, size_t len, unsigned *arch, char *err,
                              size_t errlen);

#endif
