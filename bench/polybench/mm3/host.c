/* mm3 (PolyBench/GPU 3MM): E = A.B, F = C.D, G = E.F, square n x n float
 * matrices, three 2-D launches (32x8 blocks, one thread per output element). */
#include "polybench/pb_common.h"

extern const char ws_bench_polybench_mm3_ptx[], ws_bench_polybench_mm3_ptxinfo[];

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log) {
    /* paper: PolyBench/GPU's default 512 (not in the specs) */
    const int n = in == WS_INPUT_PAPER ? 512 : 96;
    const size_t nn = (size_t)n * n;
    wl_ctx c;
    pb_host h = {0};
    wl_init(&c, d, m, log, "mm3");

    float *A = pb_floats(&c, &h, nn), *B = pb_floats(&c, &h, nn);
    float *C = pb_floats(&c, &h, nn), *D = pb_floats(&c, &h, nn);
    float *E = pb_floats(&c, &h, nn), *F = pb_floats(&c, &h, nn), *G = pb_floats(&c, &h, nn);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed1004);
        pb_fill(A, nn, &r, -1.0f, 1.0f);
        pb_fill(B, nn, &r, -1.0f, 1.0f);
        pb_fill(C, nn, &r, -1.0f, 1.0f);
        pb_fill(D, nn, &r, -1.0f, 1.0f);
    }
    ws_devptr dA = pb_upload(&c, A, nn), dB = pb_upload(&c, B, nn);
    ws_devptr dC = pb_upload(&c, C, nn), dD = pb_upload(&c, D, nn);
    ws_devptr dE = pb_zeros(&c, nn), dF = pb_zeros(&c, nn), dG = pb_zeros(&c, nn);
    ws_kernel *ke = wl_kernel(&c, "_Z5mm3_eiiiPKfS0_Pf");
    ws_kernel *kf = wl_kernel(&c, "_Z5mm3_fiiiPKfS0_Pf");
    ws_kernel *kg = wl_kernel(&c, "_Z5mm3_giiiPKfS0_Pf");
    int sz = n;
    void *argse[] = {&sz, &sz, &sz, &dA, &dB, &dE};
    void *argsf[] = {&sz, &sz, &sz, &dC, &dD, &dF};
    void *argsg[] = {&sz, &sz, &sz, &dE, &dF, &dG};
    wl_launch(&c, ke, pb_grid2(n, n), pb_block2(), argse);
    wl_launch(&c, kf, pb_grid2(n, n), pb_block2(), argsf);
    wl_launch(&c, kg, pb_grid2(n, n), pb_block2(), argsg);
    pb_download(&c, E, dE, nn);
    pb_download(&c, F, dF, nn);
    pb_download(&c, G, dG, nn);

    float *wantE = pb_floats(&c, &h, nn), *wantF = pb_floats(&c, &h, nn);
    float *wantG = pb_floats(&c, &h, nn), *magE = pb_floats(&c, &h, nn);
    float *magF = pb_floats(&c, &h, nn), *magG = pb_floats(&c, &h, nn);
    if (!c.failed) {
        pb_matmul_acc(n, n, n, A, B, wantE);
        pb_absmatmul_acc(n, n, n, A, B, magE);
        pb_matmul_acc(n, n, n, C, D, wantF);
        pb_absmatmul_acc(n, n, n, C, D, magF);
        pb_matmul_acc(n, n, n, wantE, wantF, wantG);
        pb_absmatmul_acc(n, n, n, magE, magF, magG);
        pb_expect(&c, "E", E, wantE, magE, nn, PB_TOL, 0.0);
        pb_expect(&c, "F", F, wantF, magF, nn, PB_TOL, 0.0);
        pb_expect(&c, "G", G, wantG, magG, nn, PB_TOL, 0.0);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "n=%d", n);
    pb_free(&h);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_polybench_mm3 = {
    .name = "mm3",
    .suite = "polybench",
    .description = "3MM: E = A.B, F = C.D, G = E.F, one thread per element (96 / 512)",
    .ptx = ws_bench_polybench_mm3_ptx,
    .ptxinfo = ws_bench_polybench_mm3_ptxinfo,
    .run = run,
};
