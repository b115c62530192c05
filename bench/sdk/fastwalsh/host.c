/* fastwalsh: the CUDA SDK fastWalshTransform program: dyadic convolution of
 * a 2^log2Data float signal with a 2^log2Kernel kernel (zero-padded to the
 * signal length) by transforming both, multiplying pointwise and
 * transforming back. Each transform runs fwtBatch2Kernel <<<(N/1024, 1), 256>>>
 * for strides N/4, N/16, ... while more than 2^11 elements remain, then
 * fwtBatch1Kernel <<<batches, 512, 8 KiB>>> in shared memory;
 * modulateKernel runs <<<128, 256>>>.
 * paper: log2Data = 23, log2Kernel = 7 (SDK default; no size in the specs).
 * small: log2Data = 15, log2Kernel = 7 (two global passes per transform). */
#include "host_util.h"

extern const char ws_bench_sdk_fastwalsh_ptx[], ws_bench_sdk_fastwalsh_ptxinfo[];

#define ELEMENTARY_LOG2N 11
#define FWT_THREADS 256

static void launch_dyn(wl_ctx *c, ws_kernel *k, ws_dim3 grid, ws_dim3 block, size_t shared,
                       void **args) {
    if (c->failed) return;
    wl_check(c, ws_launch(c->d, k, grid, block, shared, args), ws_kernel_name(k));
    if (!c->failed) wl_after_launch(c);
}

static void fwt_gpu(wl_ctx *c, ws_kernel *k1, ws_kernel *k2, ws_devptr data, int batches,
                    int log2N) {
    int N = 1 << log2N;
    ws_dim3 grid = {(unsigned)(N / (4 * FWT_THREADS)), (unsigned)batches, 1};
    for (; log2N > ELEMENTARY_LOG2N; log2N -= 2, N >>= 2, batches <<= 2) {
        int stride = N / 4;
        void *args[] = {&data, &data, &stride};
        launch_dyn(c, k2, grid, wl_dim(FWT_THREADS, 1), 0, args);
    }
    int l2 = log2N;
    void *args[] = {&data, &data, &l2};
    launch_dyn(c, k1, wl_dim((unsigned)batches, 1), wl_dim((unsigned)(N / 4), 1),
               (size_t)N * sizeof(float), args);
}

static ws_wl_result run(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *out) {
    const int log2Data = in == WS_INPUT_PAPER ? 23 : 15, log2Kernel = 7;
    const int dataN = 1 << log2Data, kernelN = 1 << log2Kernel;
    const size_t bytes = (size_t)dataN * sizeof(float);
    wl_ctx c;
    wl_init(&c, d, m, out, "fastwalsh");

    float *data = wl_host_alloc(&c, bytes), *kern = wl_host_alloc(&c, (size_t)kernelN * sizeof(float));
    float *result = wl_host_alloc(&c, bytes);
    if (!c.failed) {
        ws_rng r;
        ws_rng_seed(&r, 0x5eed0104);
        for (int i = 0; i < kernelN; i++) kern[i] = ws_rng_float(&r);
        for (int i = 0; i < dataN; i++) data[i] = ws_rng_float(&r);
    }
    ws_devptr dData = wl_upload(&c, data, bytes), dKernel = wl_alloc(&c, bytes);
    wl_set(&c, dKernel, 0, bytes);
    if (!c.failed)
        wl_check(&c, ws_memcpy_htod(d, dKernel, kern, (size_t)kernelN * sizeof(float)), "memcpy kernel");
    ws_kernel *k1 = wl_kernel(&c, "_Z15fwtBatch1KernelPfPKfi");
    ws_kernel *k2 = wl_kernel(&c, "_Z15fwtBatch2KernelPfPKfi");
    ws_kernel *kmod = wl_kernel(&c, "_Z14modulateKernelPfPKfi");

    fwt_gpu(&c, k1, k2, dData, 1, log2Data);
    fwt_gpu(&c, k1, k2, dKernel, 1, log2Data);
    int n = dataN;
    void *margs[] = {&dData, &dKernel, &n};
    wl_launch(&c, kmod, wl_dim(128, 1), wl_dim(256, 1), margs);
    fwt_gpu(&c, k1, k2, dData, 1, log2Data);
    wl_download(&c, result, dData, bytes);

    /* Reference: direct dyadic convolution in double. Each transform adds
       float rounding of order log2N * 2^-24 times the spectrum's scale, so
       compare element-wise against 1e-5 of the largest result, and the L2
       relative error against 1e-6. */
    double num = 0.0, den = 0.0, err_l2 = 0.0;
    if (!c.failed) {
        double *ref = malloc(bytes / sizeof(float) * sizeof(double));
        double maxref = 0.0;
        if (!ref) {
            fprintf(out, "fastwalsh: out of host memory\n");
            c.failed = 1;
        } else {
            for (int i = 0; i < dataN; i++) {
                double s = 0.0;
                for (int j = 0; j < kernelN; j++) s += (double)data[i ^ j] * kern[j];
                ref[i] = s;
                if (fabs(s) > maxref) maxref = fabs(s);
            }
            for (int i = 0; i < dataN; i++) {
                wl_expect_near(&c, "result", i, result[i], ref[i], 0.0, 1e-5 * maxref);
                num += (result[i] - ref[i]) * (result[i] - ref[i]);
                den += ref[i] * ref[i];
            }
            err_l2 = sqrt(num / den);
            if (!(err_l2 < 1e-6)) wl_mismatch(&c, "L2 error", 0, "%.3g, limit %.3g", err_l2, 1e-6);
            free(ref);
        }
    }

    char summary[96];
    snprintf(summary, sizeof summary, "log2Data=%d log2Kernel=%d L2err=%.2g", log2Data, log2Kernel,
             err_l2);
    free(data);
    free(kern);
    free(result);
    return wl_finish(&c, summary);
}

const ws_workload ws_workload_sdk_fastwalsh = {
    .name = "fastwalsh",
    .suite = "sdk",
    .description = "fast Walsh transform dyadic convolution: global radix-4 + shared-memory passes (SDK)",
    .ptx = ws_bench_sdk_fastwalsh_ptx,
    .ptxinfo = ws_bench_sdk_fastwalsh_ptxinfo,
    .run = run,
};
