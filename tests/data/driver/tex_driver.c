/* Driver-API texture objects through warpsim's libcuda.so.1, from plain C
 * (structs from src/runtime/cudart_types.h, whose layout tests/func/
 * test_shim.c checks against cuda.h). Runs the texture workload's gather
 * kernel over a linear texture and checks the error codes of bad
 * descriptors. Usage: tex_driver KERNEL.ptx. Prints PASS on success. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart_types.h"

#include "cu_api.h"

CUresult cuTexObjectCreate(unsigned long long *, const ws_cu_resource_desc *,
                           const ws_cu_texture_desc *, const void *);
CUresult cuTexObjectDestroy(unsigned long long);
CUresult cuTexObjectGetResourceDesc(ws_cu_resource_desc *, unsigned long long);

static int failures;
#define CK(call, want)                                                                   \
    do {                                                                                 \
        CUresult r_ = (call);                                                            \
        if (r_ != (want)) {                                                              \
            printf("FAIL line %d: %s -> %d, want %d\n", __LINE__, #call, r_, (int)(want)); \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CK(cuInit(0), 0);
    CK(cuDeviceGet(&dev, 0), 0);
    CK(cuCtxCreate_v4(&ctx, NULL, 0, dev), 0);
    CK(cuModuleLoad(&mod, argv[1]), 0);
    CK(cuModuleGetFunction(&fn, mod, "_Z8gather1dyPKiPfi"), 0);
    enum { N = 200 };
    float table[N], got[N];
    int idx[N];
    for (int i = 0; i < N; i++) {
        table[i] = (float)i + 0.25f;
        idx[i] = (i * 7 + 3) % N;
    }
    CUdeviceptr dt, di, dg;
    CK(cuMemAlloc_v2(&dt, sizeof table), 0);
    CK(cuMemAlloc_v2(&di, sizeof idx), 0);
    CK(cuMemAlloc_v2(&dg, sizeof got), 0);
    CK(cuMemcpyHtoD_v2(dt, table, sizeof table), 0);
    CK(cuMemcpyHtoD_v2(di, idx, sizeof idx), 0);
    ws_cu_resource_desc rd;
    ws_cu_texture_desc td;
    memset(&rd, 0, sizeof rd);
    memset(&td, 0, sizeof td);
    rd.resType = 2; /* CU_RESOURCE_TYPE_LINEAR */
    rd.res.linear.devPtr = dt;
    rd.res.linear.format = WS_CU_AD_FORMAT_FLOAT;
    rd.res.linear.numChannels = 1;
    rd.res.linear.sizeInBytes = sizeof table;
    td.addressMode[0] = 1; /* clamp */
    unsigned long long tex = 0;
    CK(cuTexObjectCreate(&tex, &rd, &td, NULL), 0);
    int n = N;
    void *args[] = {&tex, &di, &dg, &n};
    CK(cuLaunchKernel(fn, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, args, NULL), 0);
    CK(cuMemcpyDtoH_v2(got, dg, sizeof got), 0);
    for (int i = 0; i < N; i++)
        if (got[i] != table[idx[i]]) {
            printf("FAIL gather[%d] = %g, want %g\n", i, got[i], table[idx[i]]);
            failures++;
            break;
        }
    ws_cu_resource_desc back;
    CK(cuTexObjectGetResourceDesc(&back, tex), 0);
    if (back.res.linear.devPtr != dt || back.res.linear.sizeInBytes != sizeof table) failures++;
    /* bad descriptors: error codes */
    unsigned long long bad = 0;
    rd.res.linear.format = 0x77;
    CK(cuTexObjectCreate(&bad, &rd, &td, NULL), 1);     /* CUDA_ERROR_INVALID_VALUE */
    rd.res.linear.format = WS_CU_AD_FORMAT_FLOAT;
    rd.res.linear.numChannels = 3;
    CK(cuTexObjectCreate(&bad, &rd, &td, NULL), 1);
    rd.resType = 0; /* arrays: not supported by the shim */
    CK(cuTexObjectCreate(&bad, &rd, &td, NULL), 801);
    CK(cuTexObjectDestroy(tex), 0);
    CK(cuTexObjectDestroy(tex), 1);
    CK(cuCtxDestroy_v2(ctx), 0);
    printf("%s\n", failures ? "FAILED" : "PASS");
    return failures ? 1 : 0;
}
