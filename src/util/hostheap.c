/* Host heap tuning (see hostheap.h for why). */
#define _DEFAULT_SOURCE
#include "util/hostheap.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HEAP_STEP ((size_t)64 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define PROBES 64      /* blocks of HEAP_STEP / 2 taken at most to find the heap's end */
#define CHUNK_HEAD 64 /* room below the boundary for malloc's top-chunk header (16-aligned) */

static int turned_off(void) {
    const char *v = getenv(WS_HOST_THP_ENV);
    return v && !strcmp(v, "0");
}

size_t ws_host_heap_tune(void) {
    if (turned_off()) return 0;
    /* blocks below the threshold come from the heap (not one mmap each, which
     * would fault again on every kernel's per-kernel tables); no trimming, so
     * freed memory is reused rather than unmapped and faulted in again */
    mallopt(M_MMAP_THRESHOLD, (int)HEAP_STEP);
    mallopt(M_TRIM_THRESHOLD, (int)(8 * HEAP_STEP));
    /* malloc's own first block (its per-thread cache) goes below the boundary
     * (volatile: the compiler would drop a malloc freed at once) */
    void *volatile first = malloc(1);
    free(first);
    mallopt(M_TOP_PAD, (int)HEAP_STEP);
    /* The heap's new top chunk starts just below a huge-page boundary: the
     * bytes up to it are taken by sbrk here and never touched (glibc sees a
     * foreign sbrk and starts a new top chunk after them). The chunk's header
     * then lies in the page below the boundary, and the 2 MiB block above it
     * is still untouched when advised: a block with a 4 KiB page already in
     * it would fault in 4 KiB pages to the end (as would the bytes below a
     * boundary, where the first allocations go). */
    uintptr_t before = (uintptr_t)sbrk(0);
    if (before == (uintptr_t)-1) return 0;
    uintptr_t lo = (before + CHUNK_HEAD + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (sbrk((intptr_t)(lo - CHUNK_HEAD - before)) == (void *)-1) return 0;
    /* a block bigger than any free chunk makes malloc extend the heap now, by
     * the block and the pad; freed, it stays there as the top chunk. A
     * process that ran other work first may hold larger free chunks: blocks
     * are taken (and held) until one extends the heap */
    void *held[PROBES];
    unsigned n = 0;
    uintptr_t hi = 0;
    while (n < PROBES && (held[n] = malloc(HEAP_STEP / 2))) {
        n++;
        if ((hi = (uintptr_t)sbrk(0) & ~(HUGE_PAGE - 1)) > lo) break;
    }
    while (n) free(held[--n]);
    if (hi <= lo) return 0;
    if (madvise((void *)lo, hi - lo, MADV_HUGEPAGE)) return 0;
    /* the first touch of a block must be a write: a read maps the shared huge
     * zero page, and a write to that faults in 4 KiB pages to the block's end.
     * Small allocations begin in this block; the top chunk's header, written
     * as the heap's end moves on, is the first touch of each later one */
    *(volatile char *)lo = 0;
    return hi - lo;
}

const char *ws_host_heap_tunables(const char *existing, char *buf, size_t n) {
    static const char tun[] = "glibc.malloc.hugetlb=1";
    if (turned_off() || (existing && strstr(existing, "glibc.malloc.hugetlb"))) return NULL;
    int len = existing && *existing ? snprintf(buf, n, "%s:%s", existing, tun) : snprintf(buf, n, "%s", tun);
    return len >= 0 && (size_t)len < n ? buf : NULL;
}
