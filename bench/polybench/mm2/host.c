/* mm2 (PolyBench/GPU 2MM): C = A.B, then E = C.D, square n x n float
 * matrices, two 2-D launches (32x8 blocks, one thread per output element). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_mm2_ptx[], ws_bench_polybench_mm2_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: 2048 (specs: seed003 §4, "PolyBench/GPU default sizes ... 2MM 2048") */
    const int n = in == WS_INPUT_PAPER ? 2048 : 128;
    const size_t nn = (size_t)n * n;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "mm2");

    float *A = pb_floats(&c, &h, nn), *B = pb_floats(&c, &h, nn), *D = pb_floats(&c, &h, nn);
    float *C = pb_floats(&c, &h, nn), *E = pb_floats(&c, &h, nn);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed1003);
        pb_fill(A, nn, &r, -1.0f, 1.0f);
        pb_fill(B, nn, &r, -1.0f, 1.0f);
        pb_fill(D, nn, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, nn), dB = pb_upload(&c, B, nn), dD = pb_upload(&c, D, nn);
    ws_devptr dC = pb_zeros(&c, nn), dE = pb_zeros(&c, nn);
    ws_kernel *k1 = wl_kernel(&c, "_Z6mm2_abiiiPKfS0_Pf");
    ws_kernel *k2 = wl_kernel(&c, "_Z6mm2_cdiiiPKfS0_Pf");
    int sz = n;
    void *args1[] = {&sz, &sz, &sz, &dA, &dB, &dC};
    void *args2[] = {&sz, &sz, &sz, &dC, &dD, &dE};
    wl_launch(&c, k1, pb_grid2(n, n), pb_block2(), args1);
    wl_launch(&c, k2, pb_grid2(n, n), pb_block2(), args2);
    pb_download(&c, C, dC, nn);
    pb_download(&c, E, dE, nn);

    /* Reference E from the reference C; magnitudes |A||B| and (|A||B|)|D|. */
    float *wantC = pb_floats(&c, &h, nn), *wantE = pb_floats(&c, &h, nn);
    float *magC = pb_floats(&c, &h, nn), *magE = pb_floats(&c, &h, nn);
    if (!c.failed) {
        pb_matmul_acc(n, n, n, A, B, wantC);
        pb_absmatmul_acc(n, n, n, A, B, magC);
        pb_matmul_acc(n, n, n, wantC, D, wantE);
        pb_absmatmul_acc(n, n, n, magC, D, magE);
        pb_expect(&c, "C", C, wantC, magC, nn, PB_TOL, 0.0);
        pb_expect(&c, "E", E, wantE, magE, nn, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d", n);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_mm2 = {
    .name = "mm2",
    .suite = "polybench",
    .description = "2MM: C = A.B, E = C.D, one thread per element (128 / 2048)",
    .ptx = ws_bench_polybench_mm2_ptx,
    .ptxinfo = ws_bench_polybench_mm2_ptxinfo,
    .run = run,
};
