/* The simulator's own (host) heap: fewer page faults for short runs.
 *
 * A short simulation (tens of milliseconds) touches 10-20 MB of freshly
 * allocated memory once: the run's pools, per-SM tables and PTX images. Each
 * first touch of a 4 KiB page is a page fault, and on a virtual machine a
 * fault can cost 10 us: measured, faults took half of histogram's time.
 * The heap is extended 64 MiB at a time from a 2 MiB boundary and advised
 * for transparent huge pages, so one fault maps 2 MiB where the kernel
 * allows it ("madvise" or "always" in
 * /sys/kernel/mm/transparent_hugepage/enabled). The simulated GPU's global
 * memory is not advised: it saved little time and costs 2 MiB per touched
 * block for sparse device heaps. */
#ifndef WARPSIM_UTIL_HOSTHEAP_H
#define WARPSIM_UTIL_HOSTHEAP_H

#include <stddef.h>

/* Environment variable that turns the tuning off ("0"). */
#define WS_HOST_THP_ENV "WARPSIM_HOST_THP"

/* Call once, early, in a process that runs a simulation (before its
 * threads start): malloc keeps blocks up to 64 MiB on its main heap (reused
 * across kernels, never returned mid-run), grows that heap 64 MiB at a time,
 * and the reserved part is advised for huge pages. Returns the bytes
 * advised: 0 when turned off, when the heap could not be reserved (as under
 * a sanitizer's allocator) or the kernel refused the advice. */
size_t ws_host_heap_tune(void);

/* The GLIBC_TUNABLES value that gives a separate program (one run under the
 * CUDA runtime shim) glibc's own huge-page heap, given the value it already
 * has (NULL or empty: none), into buf. Returns buf, or NULL when the tuning
 * is turned off, the value already names the tunable, or buf is too small. */
const char *ws_host_heap_tunables(const char *existing, char *buf, size_t n);

#endif
