/* Helpers for the functional-engine tests: parse a PTX snippet, place it on a
 * fresh device memory, allocate buffers, launch, read results back. */
#ifndef WARPSIM_TEST_EXEC_UTIL_H
#define WARPSIM_TEST_EXEC_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "exec/exec.h"
#include "test.h"

#define WX_HEAD ".version 7.0\n.target sm_70\n.address_size 64\n"

typedef struct wx_buf {
    const void *init; /* initial bytes or NULL (zero) */
    void *out;        /* where to copy the final bytes, or NULL */
    size_t size;
} wx_buf;

typedef struct wx_cfg {
    const char *kernel;        /* NULL: the first .entry */
    uint32_t grid[3], block[3];/* zero entries count as 1 */
    uint32_t dyn_shared;
    uint64_t max_warp_insts;
    const uint64_t *scalars;   /* extra u64/u32 params after the buffers */
    int nscalars;
    uint32_t cluster[3];       /* CTAs per cluster; cluster[0] 0: no clusters, other zeros count as 1 */
} wx_cfg;

/* Kernel params are the buffers' device addresses, in order, then the
 * scalars. Returns the launch status; parse errors fail the test and return
 * WS_ERR_INVALID_PTX. fault / counts may be NULL. */
ws_status wx_launch(const char *ptx, const wx_cfg *cfg, wx_buf *bufs, int nbufs, ws_fault *fault,
                    ws_exec_counts *counts);

/* Run one instruction sequence per thread (n threads, one CTA): the body sees
 * a, b, c (u64 inputs of its thread) in %rd4 %rd5 %rd6, their low halves in
 * %r1 %r2 %r3 (also as f32 in %f1 %f2 %f3, as f64 in %fd1 %fd2 %fd3, as 16-bit
 * in %h1 %h2 %h3); %r0 = %tid.x. It must leave its result in %rd7 (out[tid]). */
ws_status wx_eval(const char *body, int n, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                  uint64_t *out, ws_fault *fault);
/* One-thread convenience form; returns out (0 on failure, reported). */
uint64_t wx_eval1(const char *body, uint64_t a, uint64_t b, uint64_t c);

uint32_t wx_f32(float f);
float wx_tof32(uint64_t u);
uint64_t wx_f64(double d);
double wx_tof64(uint64_t u);

#endif
