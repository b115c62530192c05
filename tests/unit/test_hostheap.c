/* Host heap tuning (src/util/hostheap.c): the heap is reserved ahead and
 * advised for huge pages, mid-size blocks come from that heap, the tuning
 * can be turned off, and a program run under the shim is given glibc's
 * huge-page tunable without losing the tunables it already has. The tuning
 * runs in a child process, so this test process's heap stays as it was. */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "util/hostheap.h"

/* The first mapping of this process that carries the huge-page advice
 * ("hg" among its VmFlags): 1 and its bounds, or 0. */
static int advised_mapping(uintptr_t *lo, uintptr_t *hi) {
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return 0;
    char line[512];
    unsigned long a = 0, b = 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long x, y;
        char c;
        if (sscanf(line, "%lx-%lx %c", &x, &y, &c) == 3) {
            a = x;
            b = y;
        } else if (!strncmp(line, "VmFlags:", 8) && strstr(line, " hg")) {
            found = 1;
        }
    }
    fclose(f);
    *lo = a;
    *hi = b;
    return found;
}

/* In a child: 0 when the rules hold, else the number of the broken one.
 * used: first leave large free chunks in the heap, as a process that ran
 * other work before has (the test runner's other tests in this process). */
static int child_checks(int used) {
    if (used) {
        /* glibc raises its mmap threshold to a freed mapped block's size, so
           the next blocks of that size come from the heap */
        void *volatile m = malloc((size_t)30 << 20); /* (volatile: kept by the compiler) */
        free(m);
        void *volatile b[3];
        for (int i = 0; i < 3; i++) b[i] = malloc((size_t)28 << 20);
        void *volatile guard = malloc(64); /* keeps them from the top chunk (and a trim) */
        (void)guard;
        for (int i = 0; i < 3; i++) free(b[i]);
    }
    size_t advised = ws_host_heap_tune();
#ifdef UNDER_ASAN
    (void)advised;
    (void)advised_mapping;
    return 0; /* the sanitizer's allocator has no brk heap to advise */
#else
    if (access("/sys/kernel/mm/transparent_hugepage", F_OK)) return 0; /* no THP in this kernel */
    if (advised < ((size_t)2 << 20)) return 1;
    /* the advised part of the heap starts on a 2 MiB boundary (a huge page
     * covers only whole aligned blocks) and is as large as reported */
    uintptr_t lo, hi;
    if (!advised_mapping(&lo, &hi)) return 2;
    if (lo & (((uintptr_t)2 << 20) - 1) || hi - lo < advised) return 3;
    /* a 16 MiB block comes from the heap (glibc would mmap it by default) */
    char *p = malloc((size_t)16 << 20);
    extern char end; /* the brk heap lies between the program's end and sbrk(0) */
    int on_heap = p && p >= &end && p < (char *)sbrk(0);
    free(p);
    if (!on_heap) return 4;
    return 0;
#endif
}

/* The exit status of fn(arg) run in a child process (-1: no child, or it
 * did not exit). */
static int in_child(int (*fn)(int), int arg) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) _exit(fn(arg));
    int st = 0;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

TEST(hostheap_reserves_and_advises_the_heap) { CHECK_EQ_U64((uint64_t)in_child(child_checks, 0), 0); }

/* A heap that already holds free chunks larger than the probe block (the
 * test runner's process after other tests) is advised all the same. */
TEST(hostheap_advises_a_heap_with_large_free_chunks) {
    CHECK_EQ_U64((uint64_t)in_child(child_checks, 1), 0);
}

static int turned_off_checks(int unused) {
    (void)unused;
    setenv(WS_HOST_THP_ENV, "0", 1);
    char buf[64];
    return ws_host_heap_tune() != 0 || ws_host_heap_tunables(NULL, buf, sizeof buf) != NULL;
}

TEST(hostheap_turned_off_by_environment) { CHECK_EQ_U64((uint64_t)in_child(turned_off_checks, 0), 0); }

TEST(hostheap_tunables_for_a_program) {
    char buf[128];
    const char *t = ws_host_heap_tunables(NULL, buf, sizeof buf);
    CHECK(t && !strcmp(t, "glibc.malloc.hugetlb=1"));
    t = ws_host_heap_tunables("", buf, sizeof buf);
    CHECK(t && !strcmp(t, "glibc.malloc.hugetlb=1"));
    t = ws_host_heap_tunables("glibc.malloc.check=3", buf, sizeof buf);
    CHECK(t && !strcmp(t, "glibc.malloc.check=3:glibc.malloc.hugetlb=1"));
    /* the user's own choice of the tunable stands */
    CHECK(ws_host_heap_tunables("glibc.malloc.hugetlb=0", buf, sizeof buf) == NULL);
    /* too small a buffer: nothing, not a truncated value */
    CHECK(ws_host_heap_tunables("glibc.malloc.check=3", buf, 20) == NULL);
}
