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
    mallopt(M_TOP_PAD, (int)HEAP_STEP);
    /* a block bigger than any free chunk makes malloc extend the heap now, by
     * the block and the pad; freed, it stays there as the top chunk */
    uintptr_t before = (uintptr_t)sbrk(0);
    void *p = malloc(HEAP_STEP / 2);
    if (!p) return 0;
    uintptr_t lo = (before + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t hi = (uintptr_t)sbrk(0) & ~(HUGE_PAGE - 1);
    free(p);
    if (before == (uintptr_t)-1 || hi <= lo) return 0;
    if (madvise((void *)lo, hi - lo, MADV_HUGEPAGE)) return 0;
    return hi - lo;
}

const char *ws_host_heap_tunables(const char *existing, char *buf, size_t n) {
    static const char tun[] = "glibc.malloc.hugetlb=1";
    if (turned_off() || (existing && strstr(existing, "glibc.malloc.hugetlb"))) return NULL;
    int len = existing && *existing ? snprintf(buf, n, "%s:%s", existing, tun) : snprintf(buf, n, "%s", tun);
    return len >= 0 && (size_t)len < n ? buf : NULL;
}
