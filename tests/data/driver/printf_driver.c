/* Device printf and unsupported instructions through the driver API, built
 * by tests/func/test_shim.c against warpsim's libcuda.so.1. Usage:
 * printf_driver PTXDIR (tests/data/ptx). Prints PASS on success; the test
 * checks the printf lines and the dropped-output note around it. */
#include <stdio.h>
#include <string.h>

#include "cu_api.h"

#define CK(call)                                                 \
    do {                                                         \
        CUresult r_ = (call);                                    \
        if (r_) {                                                \
            printf("FAIL %s -> %d\n", #call, r_);                \
            return 1;                                            \
        }                                                        \
    } while (0)

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    char path[1024];
    CUdevice dev;
    CUcontext ctx;
    CUmodule pm, um;
    CUfunction simple, bad, good;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate_v4(&ctx, NULL, 0, dev));
    snprintf(path, sizeof path, "%s/printf.ptx", argv[1]);
    CK(cuModuleLoad(&pm, path));
    CK(cuModuleGetFunction(&simple, pm, "_Z6simplev"));
    /* 2 lines of 30 bytes fit in 60: the last two overwrite the first two */
    size_t limit = 0;
    CK(cuCtxSetLimit(1, 60));
    CK(cuCtxGetLimit(&limit, 1));
    CK(cuLaunchKernel(simple, 1, 1, 1, 4, 1, 1, 0, NULL, NULL, NULL));
    printf("host: before sync\n");
    CK(cuCtxSynchronize());
    printf("host: after sync, limit %zu\n", limit);
    /* a kernel reaching an unsupported instruction is refused, not sticky */
    snprintf(path, sizeof path, "%s/unsupported.ptx", argv[1]);
    CK(cuModuleLoad(&um, path));
    CK(cuModuleGetFunction(&bad, um, "bad"));
    CK(cuModuleGetFunction(&good, um, "good"));
    CUdeviceptr out;
    unsigned h[32];
    CK(cuMemAlloc_v2(&out, sizeof h));
    void *args[] = {&out};
    CUresult r = cuLaunchKernel(bad, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
    printf("bad launch -> %d\n", r);
    CK(cuLaunchKernel(good, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
    CK(cuMemcpyDtoH_v2(h, out, sizeof h));
    int errs = r != 218; /* CUDA_ERROR_INVALID_PTX */
    for (unsigned i = 0; i < 32; i++) errs += h[i] != 3 * i;
    printf(errs ? "FAIL\n" : "PASS\n");
    return errs != 0;
}
