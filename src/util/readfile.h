/* Reading a whole input file into memory, with a size cap.
 *
 * Inputs may be huge or endless (/dev/zero, a FIFO, a mistyped path to a
 * disk image): reading stops at the cap instead of growing without bound. */
#ifndef WARPSIM_UTIL_READFILE_H
#define WARPSIM_UTIL_READFILE_H

#include <stddef.h>

/* Caps on what is read into memory (documented in README.md). */
#define WS_CONFIG_FILE_MAX ((size_t)16 << 20)  /* config and .icnt files: 16 MiB */
#define WS_PTX_FILE_MAX    ((size_t)256 << 20) /* PTX (and .ptxinfo) files: 256 MiB */

/* The file's bytes, NUL-terminated (malloc'd), length in *len if len is not
 * NULL. NULL on failure with errno set: EFBIG when the file holds more than
 * `limit` bytes (at most limit + 1 bytes are read and limit + 1 allocated). */
char *ws_read_file_capped(const char *path, size_t limit, size_t *len);

/* "cannot read KIND 'PATH': REASON" into buf, where REASON names the limit
 * for EFBIG; call right after ws_read_file_capped failed (uses errno). */
void ws_read_file_error(char *buf, size_t n, const char *kind, const char *path, size_t limit);

#endif
