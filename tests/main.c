/* Test runner: runs every registered test (or those whose name contains one
 * of the command-line arguments) and ends with "N passed, N failed". */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    const char *name, *file;
    ws_test_fn fn;
} test_entry;

static test_entry *g_tests;   /* filled by constructors before main() */
static int g_ntests, g_cap;
static int g_current_failed;

void ws_test_register(const char *name, const char *file, ws_test_fn fn) {
    if (g_ntests == g_cap) {
        g_cap = g_cap ? 2 * g_cap : 256;
        g_tests = realloc(g_tests, (size_t)g_cap * sizeof *g_tests);
        if (!g_tests) abort();
    }
    g_tests[g_ntests++] = (test_entry){name, file, fn};
}

void ws_test_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    fprintf(stdout, "    %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    g_current_failed = 1;
}

const char *ws_test_root(void) {
    const char *r = getenv("WARPSIM_ROOT");
    return r ? r : ".";
}

char *ws_test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) b[n] = 0;
    if (b && len) *len = (size_t)n;
    return b;
}

void ws_test_stderr_begin(ws_test_stderr *c) {
    snprintf(c->path, sizeof c->path, "/tmp/warpsim-stderr-XXXXXX");
    int fd = mkstemp(c->path);
    fflush(stderr);
    c->saved = fd >= 0 ? dup(2) : -1;
    if (fd >= 0) {
        dup2(fd, 2);
        close(fd);
    }
}

char *ws_test_stderr_end(ws_test_stderr *c) {
    fflush(stderr);
    if (c->saved >= 0) {
        dup2(c->saved, 2);
        close(c->saved);
    }
    char *s = ws_test_read_file(c->path, NULL);
    unlink(c->path);
    return s ? s : calloc(1, 1);
}

static int cmp_tests(const void *a, const void *b) {
    const test_entry *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    return c ? c : strcmp(x->name, y->name);
}

int main(int argc, char **argv) {
    int passed = 0, failed = 0;
    qsort(g_tests, (size_t)g_ntests, sizeof *g_tests, cmp_tests);
    for (int i = 0; i < g_ntests; i++) {
        int selected = argc < 2;
        for (int a = 1; a < argc; a++)
            if (strstr(g_tests[i].name, argv[a]) || strstr(g_tests[i].file, argv[a])) selected = 1;
        if (!selected) continue;
        g_current_failed = 0;
        clock_t t0 = clock();
        g_tests[i].fn();
        double ms = 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (g_current_failed) {
            failed++;
            printf("FAIL %s (%s)\n", g_tests[i].name, g_tests[i].file);
        } else {
            passed++;
            printf("ok   %s (%.0f ms)\n", g_tests[i].name, ms);
        }
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    free(g_tests);
    return failed ? 1 : 0;
}
