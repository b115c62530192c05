/* A minimal test harness: tests register themselves at load time and the
 * runner (tests/main.c) prints one line per failure and a closing
 * "N passed, N failed" line.
 *
 *   TEST(parser_rejects_bad_opcode) {
 *       CHECK(x == 1);
 *       CHECK_EQ_U64(a, b);
 *   }
 */
#ifndef WARPSIM_TEST_H
#define WARPSIM_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef void (*ws_test_fn)(void);
void ws_test_register(const char *name, const char *file, ws_test_fn fn);
void ws_test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Directory of the repository (for tests that read bench/ or tests/data). */
const char *ws_test_root(void);
/* A whole file, NUL-terminated (malloc'd; the caller frees it), its length in
 * *len when len is not NULL; NULL when it cannot be read. */
char *ws_test_read_file(const char *path, size_t *len);
/* Catch what the code under test writes to stderr (notices, progress):
 * begin sends stderr to a temporary file; end restores it and returns what
 * was written (malloc'd, NUL-terminated; "" if nothing). */
typedef struct ws_test_stderr { int saved; char path[64]; } ws_test_stderr;
void ws_test_stderr_begin(ws_test_stderr *c);
char *ws_test_stderr_end(ws_test_stderr *c);

#define TEST(name)                                                        \
    static void test_##name(void);                                        \
    __attribute__((constructor)) static void test_register_##name(void) { \
        ws_test_register(#name, __FILE__, test_##name);                   \
    }                                                                     \
    static void test_##name(void)

#define CHECK(cond)                                                       \
    do {                                                                  \
        if (!(cond)) ws_test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
    } while (0)

#define CHECK_MSG(cond, ...)                                              \
    do {                                                                  \
        if (!(cond)) ws_test_fail(__FILE__, __LINE__, __VA_ARGS__);       \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                \
    do {                                                                  \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                  \
        if (a_ != b_)                                                     \
            ws_test_fail(__FILE__, __LINE__, "%s == %s: 0x%" PRIx64       \
                         " != 0x%" PRIx64, #a, #b, a_, b_);               \
    } while (0)

#define CHECK_EQ_I64(a, b)                                                \
    do {                                                                  \
        int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                     \
        if (a_ != b_)                                                     \
            ws_test_fail(__FILE__, __LINE__, "%s == %s: %" PRId64         \
                         " != %" PRId64, #a, #b, a_, b_);                 \
    } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                   \
    do {                                                                  \
        const char *h_ = (hay), *n_ = (needle);                           \
        if (!h_ || !strstr(h_, n_))                                       \
            ws_test_fail(__FILE__, __LINE__, "\"%s\" does not contain \"%s\"", \
                         h_ ? h_ : "(null)", n_);                         \
    } while (0)

/* UNDER_ASAN is defined in a build under AddressSanitizer (gcc or clang). */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#endif
