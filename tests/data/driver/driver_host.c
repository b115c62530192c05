/* A plain C driver-API host program, built by tests/func/test_shim_driver.c
 * against warpsim's libcuda.so.1 with the declarations of cu_api.h (no CUDA
 * headers). Usage: driver_host PTXFILE. Prints PASS on success. */
#include <stdio.h>
#include <stdlib.h>

#include "cu_api.h"

#define CK(call)                                                            \
    do {                                                                    \
        CUresult r_ = (call);                                               \
        if (r_) {                                                           \
            const char *n_ = "?";                                           \
            cuGetErrorName(r_, &n_);                                        \
            printf("FAIL %s -> %d %s\n", #call, r_, n_);                    \
            return 1;                                                       \
        }                                                                   \
    } while (0)

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    enum { N = 1000 };
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction vadd, rg;
    int count = 0, major = 0;
    char name[128];
    size_t mem = 0;
    CK(cuInit(0));
    CK(cuDeviceGetCount(&count));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDeviceGetName(name, sizeof name, dev));
    CK(cuDeviceGetAttribute(&major, 75, dev));
    CK(cuDeviceTotalMem_v2(&mem, dev));
    CK(cuCtxCreate_v4(&ctx, NULL, 0, dev));
    CK(cuModuleLoad(&mod, argv[1]));
    CK(cuModuleGetFunction(&vadd, mod, "vecadd"));
    CK(cuModuleGetFunction(&rg, mod, "readglobal"));

    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) { a[i] = (float)i; b[i] = 0.5f * (float)i; c[i] = -1; }
    CUdeviceptr da, db, dc, dg;
    size_t gsz = 0;
    CK(cuMemAlloc_v2(&da, sizeof a));
    CK(cuMemAlloc_v2(&db, sizeof b));
    CK(cuMemAlloc_v2(&dc, sizeof c));
    CK(cuMemcpyHtoD_v2(da, a, sizeof a));
    CK(cuMemcpyHtoD_v2(db, b, sizeof b));
    CK(cuMemsetD32_v2(dc, 0, N));
    int n = N;
    void *args[] = {&da, &db, &dc, &n};
    CK(cuLaunchKernel(vadd, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH_v2(c, dc, sizeof c));
    int errs = 0;
    for (int i = 0; i < N; i++) if (c[i] != a[i] + b[i]) errs++;

    unsigned seven = 0, out[32];
    CK(cuModuleGetGlobal_v2(&dg, &gsz, mod, "counter"));
    CK(cuMemcpyDtoH_v2(&seven, dg, 4));
    unsigned hundred = 100;
    CK(cuMemcpyHtoD_v2(dg, &hundred, 4));
    void *args2[] = {&dc};
    CK(cuLaunchKernel(rg, 1, 1, 1, 32, 1, 1, 0, NULL, args2, NULL));
    CK(cuMemcpyDtoH_v2(out, dc, sizeof out));
    for (unsigned i = 0; i < 32; i++) if (out[i] != 100 + i) errs++;

    /* A launch configuration beyond the device's limits must be refused. */
    CUresult bad = cuLaunchKernel(vadd, 1, 1, 1, 2048, 1, 1, 0, NULL, args, NULL);

    CK(cuMemFree_v2(da));
    CK(cuMemFree_v2(db));
    CK(cuMemFree_v2(dc));
    CK(cuModuleUnload(mod));
    CK(cuCtxDestroy_v2(ctx));
    int ok = errs == 0 && count == 1 && major == 7 && gsz == 4 && seven == 7 && bad == 1 &&
             mem == (1536ull << 20);
    printf("driver: device '%s' cc %d.x, %zu MiB, errors=%d, global=%u (size %zu), bad-config=%d %s\n",
           name, major, mem >> 20, errs, seven, gsz, bad, ok ? "PASS" : "FAIL");
    return !ok;
}
