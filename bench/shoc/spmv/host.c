/* spmv: the SHOC Spmv benchmark, CSR scalar (SPMV_S) and CSR vector
 * kernels, single precision, 128 threads per block: the scalar kernel runs
 * <<<ceil(rows/128), 128>>>, the vector kernel <<<ceil(rows/4), 128>>>.
 * The matrix is square with about 1% nonzeros placed at random (each entry
 * independently, so row lengths vary as in SHOC's generator); values and
 * the vector are random in [0, 10) and [0, 1).
 * paper: 1024 rows, SHOC's default size class 1 (no size in the specs;
 *        SHOC's other classes are 8192, 12288 and 16384 rows).
 * small: 512 rows. */
#include "host_util.h"

extern const char ws_bench_shoc_spmv_ptx[], ws_bench_shoc_spmv_ptxinfo[];

#define BLOCK_SIZE 128

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int n = in == WS_INPUT_PAPER ? 1024 : 512;
    wl_ctx c;
    wl_init(&c, d, m, out, "spmv");

    int *rows = wl_host_alloc(&c, (size_t)(n + 1) * sizeof(int));
    int cap = n * n / 50 + 64, nnz = 0;
    int *cols = wl_host_alloc(&c, (size_t)cap * sizeof(int));
    float *val = wl_host_alloc(&c, (size_t)cap * sizeof(float));
    float *x = wl_host_alloc(&c, (size_t)n * sizeof(float));
    float *y = wl_host_alloc(&c, (size_t)n * sizeof(float));
    double *ref = wl_host_alloc(&c, (size_t)n * sizeof(double));
    double *mag = wl_host_alloc(&c, (size_t)n * sizeof(double));
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0201);
        for (int i = 0; i < n; i++) {
            rows[i] = nnz;
            for (int j = 0; j < n && nnz < cap; j++)
                if (ws_rng_below(&r, 100) == 0) {
                    cols[nnz] = j;
                    val[nnz] = 10.0f * ws_rng_float(&r);
                    nnz++;
                }
        }
        rows[n] = nnz;
        for (int i = 0; i < n; i++) x[i] = ws_rng_float(&r);
        for (int i = 0; i < n; i++) {
            ref[i] = mag[i] = 0.0;
            for (int j = rows[i]; j < rows[i + 1]; j++) {
                ref[i] += (double)val[j] * x[cols[j]];
                mag[i] += fabs((double)val[j] * x[cols[j]]);
            }
        }
    }
    ws_devptr dVal = wl_upload(&c, val, (size_t)nnz * sizeof(float));
    ws_devptr dVec = wl_upload(&c, x, (size_t)n * sizeof(float));
    ws_devptr dCols = wl_upload(&c, cols, (size_t)nnz * sizeof(int));
    ws_devptr dRows = wl_upload(&c, rows, (size_t)(n + 1) * sizeof(int));
    ws_devptr dOut = wl_alloc(&c, (size_t)n * sizeof(float));
    ws_kernel *kscalar = wl_kernel(&c, "_Z19spmvCsrScalarKernelPKfS0_PKiS2_iPf");
    ws_kernel *kvector = wl_kernel(&c, "_Z19spmvCsrVectorKernelPKfS0_PKiS2_iPf");
    int dim = n;
    void *args[] = {&dVal, &dVec, &dCols, &dRows, &dim, &dOut};

    /* float sums of up to ~2% n products in two different orders: allow
       1e-5 of the sum of |products| */
    static const char *const what[2] = {"scalar", "vector"};
    for (int v = 0; v < 2 && !c.failed; v++) {
        wl_set(&c, dOut, 0xff, (size_t)n * sizeof(float));
        if (v == 0)
            wl_launch(&c, kscalar, wl_dim((unsigned)(n + BLOCK_SIZE - 1) / BLOCK_SIZE, 1), wl_dim(BLOCK_SIZE, 1), args);
        else
            wl_launch(&c, kvector, wl_dim((unsigned)(n + 3) / 4, 1), wl_dim(BLOCK_SIZE, 1), args);
        wl_download(&c, y, dOut, (size_t)n * sizeof(float));
        if (!c.failed)
            for (int i = 0; i < n; i++) wl_expect_near(&c, what[v], i, y[i], ref[i], 0.0, 1e-5 * mag[i] + 1e-6);
    }

    char summary[64];
    snprintf(summary, sizeof summary, "rows=%d nnz=%d", n, nnz);
    free(rows);
    free(cols);
    free(val);
    free(x);
    free(y);
    free(ref);
    free(mag);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_shoc_spmv = {
    .name = "spmv",
    .suite = "shoc",
    .description = "CSR sparse matrix-vector multiply, scalar (thread/row) and vector (warp/row) (SHOC)",
    .ptx = ws_bench_shoc_spmv_ptx,
    .ptxinfo = ws_bench_shoc_spmv_ptxinfo,
    .run = run,
};
