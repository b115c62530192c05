/* Capped whole-file reads (see readfile.h). */
#include "util/readfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *ws_read_file_capped(const char *path, size_t limit, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    /* Read one byte past the limit so that a file of exactly `limit` bytes
       passes and a longer one (or an endless one) is refused. */
    while (n <= limit) {
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 65536;
            if (ncap > limit + 1) ncap = limit + 1;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) { free(buf); fclose(f); errno = ENOMEM; return NULL; }
            buf = nb;
            cap = ncap;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad || n > limit) {
        free(buf);
        errno = bad ? EIO : EFBIG;
        return NULL;
    }
    if (!buf && !(buf = malloc(1))) { errno = ENOMEM; return NULL; }
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

void ws_read_file_error(char *buf, size_t n, const char *kind, const char *path, size_t limit) {
    if (errno == EFBIG)
        snprintf(buf, n, "cannot read %s '%s': larger than the limit of %zu MiB", kind, path,
                 limit >> 20);
    else
        snprintf(buf, n, "cannot read %s '%s': %s", kind, path, strerror(errno));
}
