/* Helpers shared by the polybench workloads' host programs.
 *
 * Launch shapes follow PolyBench/GPU: 256x1 blocks for 1-D kernels, 32x8
 * for 2-D ones (x along a row, y down the rows), grids rounded up.
 *
 * Checks: every CPU reference repeats its kernel's float operations in the
 * kernel's order, with fmaf() exactly where the PTX has fma.rn.f32 and a
 * separate multiply and add where it does not, so the results should agree
 * to the bit. The tolerance only leaves room for a few ulps: an element may
 * differ by PB_TOL times its magnitude, the sum of the absolute values of
 * the terms that made it (carried through chained kernels). Products the
 * GPU rounds separately are kept in their own statements so that no C
 * compiler contracts them into an fma. */
#ifndef WARPSIM_BENCH_POLYBENCH_PB_COMMON_H
#define WARPSIM_BENCH_POLYBENCH_PB_COMMON_H

#include "host_util.h"

#define PB_BLOCK_1D 256
#define PB_BLOCK_X 32
#define PB_BLOCK_Y 8
#define PB_TOL 1e-6

static inline unsigned pb_blocks(long n, int per) { return (unsigned)((n + per - 1) / per); }

/* Grid and block of a 1-D kernel over n threads. */
static inline ws_dim3 pb_grid1(long n) { return wl_dim(pb_blocks(n, PB_BLOCK_1D), 1); }
static inline ws_dim3 pb_block1(void) { return wl_dim(PB_BLOCK_1D, 1); }
/* Grid and block of a 2-D kernel over rows x cols threads. */
static inline ws_dim3 pb_grid2(long rows, long cols) {
    return wl_dim(pb_blocks(cols, PB_BLOCK_X), pb_blocks(rows, PB_BLOCK_Y));
}
static inline ws_dim3 pb_block2(void) { return wl_dim(PB_BLOCK_X, PB_BLOCK_Y); }

/* Host arrays of one run, freed together by pb_free. */
#define PB_MAX_HOST 32
typedef struct pb_host {
    void *p[PB_MAX_HOST];
    int n;
} pb_host;

/* n zeroed floats owned by h (NULL and c marked failed if out of memory). */
static inline float *pb_floats(wl_ctx *c, pb_host *h, size_t n) {
    if (h->n == PB_MAX_HOST) {
        if (!c->failed) fprintf(c->log, "%s: too many host arrays\n", c->name);
        c->failed = 1;
        return NULL;
    }
    float *p = wl_host_alloc(c, n * sizeof(float));
    if (p) h->p[h->n++] = p;
    return p;
}

static inline void pb_free(pb_host *h) {
    for (int i = 0; i < h->n; i++) free(h->p[i]);
    h->n = 0;
}

/* n uniform floats in [lo, hi). */
static inline void pb_fill(float *a, size_t n, ws_rng *r, float lo, float hi) {
    for (size_t i = 0; i < n; i++) a[i] = lo + (hi - lo) * ws_rng_float(r);
}

/* out (rows x cols) += left (rows x inner) . right (inner x cols), row-major,
 * each element summed over k in increasing order with fmaf (the kernels'
 * fma.rn.f32 chain; the loops run i, k, j for the cache, which does not
 * change any element's order). */
static inline void pb_matmul_acc(int rows, int cols, int inner, const float *left,
                                 const float *right, float *out) {
    for (int i = 0; i < rows; i++) {
        float *o = out + (size_t)i * cols;
        for (int k = 0; k < inner; k++) {
            const float a = left[(size_t)i * inner + k];
            const float *b = right + (size_t)k * cols;
            for (int j = 0; j < cols; j++) o[j] = fmaf(a, b[j], o[j]);
        }
    }
}

/* mag (rows x cols) += |left| . |right|: the magnitude that bounds rounding. */
static inline void pb_absmatmul_acc(int rows, int cols, int inner, const float *left,
                                    const float *right, float *mag) {
    for (int i = 0; i < rows; i++) {
        float *o = mag + (size_t)i * cols;
        for (int k = 0; k < inner; k++) {
            const float a = fabsf(left[(size_t)i * inner + k]);
            const float *b = right + (size_t)k * cols;
            for (int j = 0; j < cols; j++) o[j] += a * fabsf(b[j]);
        }
    }
}

/* Element-wise |a|. */
static inline void pb_abs(const float *a, float *out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = fabsf(a[i]);
}

/* Compare n floats: got[i] must be within rel * mag[i] + abs_tol of want[i]
 * (mag NULL: |want[i]|). */
static inline void pb_expect(wl_ctx *c, const char *what, const float *got, const float *want,
                             const float *mag, size_t n, double rel, double abs_tol) {
    if (c->failed) return;
    for (size_t i = 0; i < n; i++) {
        double scale = mag ? (double)mag[i] : fabs((double)want[i]);
        wl_expect_near(c, what, (long)i, got[i], want[i], 0.0, rel * scale + abs_tol);
    }
}

/* A device buffer of n floats filled from host memory / set to zero. */
static inline ws_devptr pb_upload(wl_ctx *c, const float *src, size_t n) {
    return wl_upload(c, src, n * sizeof(float));
}
static inline ws_devptr pb_zeros(wl_ctx *c, size_t n) {
    ws_devptr p = wl_alloc(c, n * sizeof(float));
    wl_set(c, p, 0, n * sizeof(float));
    return p;
}
static inline void pb_download(wl_ctx *c, float *dst, ws_devptr src, size_t n) {
    wl_download(c, dst, src, n * sizeof(float));
}

#endif
