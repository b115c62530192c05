/* Helpers shared by the bundled workloads' host programs.
 *
 * A wl_ctx carries the device, module and log of one run plus every device
 * buffer it allocated. Calls are "sticky": after the first failure each
 * helper does nothing, so host code reads straight through and checks once
 * at the end (wl_failed). wl_finish frees the buffers. */
#ifndef WARPSIM_BENCH_HOST_UTIL_H
#define WARPSIM_BENCH_HOST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

#define WL_MAX_BUFS 16
#define WL_MAX_REPORTED 8   /* mismatches printed before "... and N more" */

typedef struct wl_ctx {
    ws_device *d;
    ws_module_handle *m;
    FILE *log;
    const char *name;
    ws_devptr bufs[WL_MAX_BUFS];
    int nbufs;
    int failed;        /* a call failed (message already logged), or the run was capped */
    int capped;        /* the instruction cap stopped the simulation: the host skips the rest
                          of its work (later launches, downloads, the CPU reference) */
    long mismatches;   /* counted by wl_mismatch */
} wl_ctx;

static inline void wl_init(wl_ctx *c, ws_device *d, ws_module_handle *m, FILE *log,
                           const char *name) {
    memset(c, 0, sizeof *c);
    c->d = d;
    c->m = m;
    c->log = log ? log : stderr;
    c->name = name;
}

/* Log a failed simulator call with the device's reason; returns 1 if s != WS_OK. */
static inline int wl_check(wl_ctx *c, ws_status s, const char *what) {
    if (s == WS_OK) return 0;
    const char *why = ws_device_last_error(c->d);
    /* the reason says more than the status's name; the name is the fallback */
    fprintf(c->log, "%s: %s failed: %s\n", c->name, what, why && *why ? why : ws_status_name(s));
    c->failed = 1;
    return 1;
}

/* Host allocation that reports failure through the context. */
static inline void *wl_host_alloc(wl_ctx *c, size_t n) {
    if (c->failed) return NULL;
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(c->log, "%s: out of host memory (%zu bytes)\n", c->name, n);
        c->failed = 1;
    }
    return p;
}

static inline ws_devptr wl_alloc(wl_ctx *c, size_t n) {
    ws_devptr p = 0;
    if (c->failed) return 0;
    if (c->nbufs == WL_MAX_BUFS) {
        fprintf(c->log, "%s: too many device buffers\n", c->name);
        c->failed = 1;
        return 0;
    }
    if (wl_check(c, ws_malloc(c->d, n, &p), "cudaMalloc")) return 0;
    c->bufs[c->nbufs++] = p;
    return p;
}

/* Allocate a device buffer and fill it from host memory. */
static inline ws_devptr wl_upload(wl_ctx *c, const void *src, size_t n) {
    ws_devptr p = wl_alloc(c, n);
    if (!c->failed) wl_check(c, ws_memcpy_htod(c->d, p, src, n), "memcpy host to device");
    return p;
}

static inline void wl_set(wl_ctx *c, ws_devptr p, int byte, size_t n) {
    if (!c->failed) wl_check(c, ws_memset(c->d, p, byte, n), "memset");
}

static inline void wl_download(wl_ctx *c, void *dst, ws_devptr src, size_t n) {
    if (!c->failed) wl_check(c, ws_memcpy_dtoh(c->d, dst, src, n), "memcpy device to host");
}

static inline ws_kernel *wl_kernel(wl_ctx *c, const char *name) {
    ws_kernel *k = NULL;
    if (c->failed) return NULL;
    if (ws_module_get_kernel(c->m, name, &k) != WS_OK || !k) {
        fprintf(c->log, "%s: kernel %s not found in the module\n", c->name, name);
        c->failed = 1;
        return NULL;
    }
    return k;
}

/* Call after every launch: notices the instruction cap. */
static inline void wl_after_launch(wl_ctx *c) {
    ws_run_totals t;
    ws_device_totals(c->d, &t);
    if (t.capped) c->failed = c->capped = 1;
}

static inline void wl_launch(wl_ctx *c, ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                             void **args) {
    if (c->failed) return;
    char what[160];
    snprintf(what, sizeof what, "launch of %s <<<(%u,%u,%u),(%u,%u,%u)>>>", ws_kernel_name(k),
             grid.x, grid.y, grid.z, block.x, block.y, block.z);
    wl_check(c, ws_launch(c->d, k, grid, block, 0, args), what);
    wl_after_launch(c);
}

static inline ws_dim3 wl_dim(uint32_t x, uint32_t y) {
    ws_dim3 d = {x, y, 1};
    return d;
}

/* Record one wrong output element; the first few are printed. */
static inline void wl_mismatch(wl_ctx *c, const char *what, long index, const char *fmt_got_want,
                               double got, double want) {
    if (c->mismatches++ < WL_MAX_REPORTED) {
        fprintf(c->log, "%s: mismatch %s[%ld]: got ", c->name, what, index);
        fprintf(c->log, fmt_got_want, got, want);
        fputc('\n', c->log);
    }
}

/* Integer compare helper: counts and prints mismatches. */
static inline void wl_expect_i64(wl_ctx *c, const char *what, long index, long long got,
                                 long long want) {
    if (got != want) wl_mismatch(c, what, index, "%.0f, expected %.0f", (double)got, (double)want);
}

/* Float compare with relative + absolute tolerance (NaN never matches). */
static inline void wl_expect_near(wl_ctx *c, const char *what, long index, double got,
                                  double want, double rel, double abs_tol) {
    double diff = fabs(got - want);
    if (!(diff <= abs_tol + rel * fabs(want)))
        wl_mismatch(c, what, index, "%.17g, expected %.17g", got, want);
}

/* Free the buffers and turn the run's state into a result, logging the
 * one-line summary (`summary` describes the input). */
static inline ws_wl_result wl_finish(wl_ctx *c, const char *summary) {
    for (int i = 0; i < c->nbufs; i++) ws_free(c->d, c->bufs[i]);
    c->nbufs = 0;
    if (c->capped) { /* what the cut-short run left is not checked */
        fprintf(c->log, "%s: %s capped (instruction or cycle cap): output not checked\n", c->name,
                summary);
        return WS_WL_PASS;
    }
    if (c->failed) {
        fprintf(c->log, "%s: %s ERROR\n", c->name, summary);
        return WS_WL_ERROR;
    }
    if (c->mismatches) {
        if (c->mismatches > WL_MAX_REPORTED)
            fprintf(c->log, "%s: ... and %ld more mismatches\n", c->name,
                    c->mismatches - WL_MAX_REPORTED);
        fprintf(c->log, "%s: %s FAIL (%ld mismatches)\n", c->name, summary, c->mismatches);
        return WS_WL_MISMATCH;
    }
    fprintf(c->log, "%s: %s PASS\n", c->name, summary);
    return WS_WL_PASS;
}

#endif
