/* The host side shared by sdk/transpose_naive and sdk/transpose_shared: the
 * same matrix, launch and bit-exact check; the kernel and its block shape
 * differ. paper: 1024 x 1024 floats (no size in the specs); small: 320 wide
 * and `small_height` high. */
#ifndef WARPSIM_BENCH_SDK_TRANSPOSE_HOST_H
#define WARPSIM_BENCH_SDK_TRANSPOSE_HOST_H

#include "host_util.h"

typedef struct transpose_shape {
    int small_height;
    unsigned block_x, block_y;  /* threads per block */
    unsigned tile_x, tile_y;    /* matrix elements per block */
} transpose_shape;

static inline ws_wl_result transpose_run(ws_device *d, ws_module_handle *m, ws_input_size in,
                                         FILE *log, const char *name, const char *kernel,
                                         unsigned long long seed, transpose_shape s) {
    const int paper = in == WS_INPUT_PAPER;
    const int width = paper ? 1024 : 320, height = paper ? 1024 : s.small_height;
    const size_t n = (size_t)width * height, bytes = n * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, log, name);
    float *A = wl_host_alloc(&c, bytes), *T = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, seed);
        for (size_t i = 0; i < n; i++) A[i] = ws_rng_float(&r);
    }
    ws_devptr dA = wl_upload(&c, A, bytes), dT = wl_alloc(&c, bytes);
    wl_set(&c, dT, 0xff, bytes);
    ws_kernel *k = wl_kernel(&c, kernel);
    int w = width, h = height;
    void *args[] = {&dT, &dA, &w, &h};
    wl_launch(&c, k,
              wl_dim((unsigned)((width + s.tile_x - 1) / s.tile_x),
                     (unsigned)((height + s.tile_y - 1) / s.tile_y)),
              wl_dim(s.block_x, s.block_y), args);
    wl_download(&c, T, dT, bytes);

    /* a copy: exact (compared bit for bit as integers) */
    if (!c.failed)
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                unsigned got, want;
                memcpy(&got, &T[(size_t)x * height + y], 4);
                memcpy(&want, &A[(size_t)y * width + x], 4);
                wl_expect_i64(&c, "out", (long)x * height + y, got, want);
            }

    char summary[64];
    snprintf(summary, sizeof summary, "%dx%d", height, width);
    free(A);
    free(T);
    return wl_finish(&c, summary);
}

#endif
