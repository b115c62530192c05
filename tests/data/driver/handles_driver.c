/* Invalid handles through warpsim's libcuda.so.1, from a plain C program
 * with the declarations of cu_api.h (no CUDA headers; built by tests/func/
 * test_shim.c). A made-up, destroyed or wrong-kind CUmodule, CUfunction,
 * CUstream or CUevent must give CUDA_ERROR_INVALID_HANDLE (400), never
 * CUDA_SUCCESS or a crash; the default streams (0, CU_STREAM_LEGACY,
 * CU_STREAM_PER_THREAD) must keep working.
 * Usage: handles_driver VECADD.ptx. Prints PASS on success. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cu_api.h"

enum { OK = 0, INVALID_VALUE = 1, INVALID_HANDLE = 400 };

static int failures;
static void expect(int line, const char *call, CUresult got, CUresult want) {
    const char *name = "?";
    if (got == want) return;
    cuGetErrorName(got, &name);
    printf("FAIL line %d: %s -> %d %s, want %d\n", line, call, got, name, want);
    failures++;
}
#define CK(call, want) expect(__LINE__, #call, (call), (want))

static CUdeviceptr buf;
static int n = 4;

/* Every stream-taking call with stream s must give `want`. */
static void stream_calls(CUfunction f, CUstream s, CUevent ev, CUresult want) {
    float host[4] = {1, 2, 3, 4};
    void *args[] = {&buf, &buf, &buf, &n};
    CK(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, s, args, NULL), want);
    CK(cuStreamSynchronize(s), want);
    CK(cuStreamQuery(s), want);
    CK(cuStreamWaitEvent(s, ev, 0), want);
    CK(cuEventRecord(ev, s), want);
    CK(cuMemcpyHtoDAsync_v2(buf, host, sizeof host, s), want);
    CK(cuMemcpyDtoHAsync_v2(host, buf, sizeof host, s), want);
    CK(cuMemcpyDtoDAsync_v2(buf, buf, sizeof host, s), want);
    CK(cuMemsetD8Async(buf, 0, sizeof host, s), want);
    CK(cuMemsetD32Async(buf, 0, 4, s), want);
}

/* Every event-taking call with event e must give `want`. */
static void event_calls(CUevent e, CUevent good, CUresult want) {
    float ms;
    CK(cuEventRecord(e, NULL), want);
    CK(cuEventQuery(e), want);
    CK(cuEventSynchronize(e), want);
    CK(cuEventElapsedTime_v2(&ms, e, good), want);
    CK(cuEventElapsedTime_v2(&ms, good, e), want);
    CK(cuStreamWaitEvent(NULL, e, 0), want);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod, gone_mod;
    CUfunction f, gone_f;
    CK(cuInit(0), OK);
    CK(cuDeviceGet(&dev, 0), OK);
    CK(cuCtxCreate_v4(&ctx, NULL, 0, dev), OK);
    CK(cuModuleLoad(&mod, argv[1]), OK);
    CK(cuModuleGetFunction(&f, mod, "vecadd"), OK);
    CK(cuMemAlloc_v2(&buf, 4 * sizeof(float)), OK);

    CUstream s, dead;
    CUevent ev, ev2, gone, notiming;
    CK(cuStreamCreate(&s, 0), OK);
    CK(cuStreamCreate(&dead, 0), OK);
    CK(cuEventCreate(&ev, 0), OK);
    CK(cuEventCreate(&ev2, 0), OK);
    CK(cuEventCreate(&gone, 0), OK);
    CK(cuEventCreate(&notiming, 2 /* CU_EVENT_DISABLE_TIMING */), OK);

    /* streams: the defaults and a live one work; dead, made-up, wrong kind do not */
    stream_calls(f, NULL, ev, OK);
    stream_calls(f, (CUstream)0x1, ev, OK);  /* CU_STREAM_LEGACY */
    stream_calls(f, (CUstream)0x2, ev, OK);  /* CU_STREAM_PER_THREAD */
    stream_calls(f, s, ev, OK);
    CK(cuStreamDestroy_v2(dead), OK);
    stream_calls(f, dead, ev, INVALID_HANDLE);
    stream_calls(f, (CUstream)0x1234560, ev, INVALID_HANDLE);
    stream_calls(f, ev, ev, INVALID_HANDLE);
    CK(cuStreamDestroy_v2(dead), INVALID_HANDLE);
    CK(cuStreamDestroy_v2(NULL), INVALID_HANDLE);
    CK(cuStreamDestroy_v2(ev), INVALID_HANDLE);

    /* events */
    float ms = -1;
    CK(cuEventQuery(ev2), OK);  /* never recorded: complete */
    CK(cuEventElapsedTime_v2(&ms, ev, ev2), INVALID_HANDLE);  /* ev2 never recorded */
    CK(cuEventRecord(ev2, s), OK);
    CK(cuEventElapsedTime_v2(&ms, ev, ev2), OK);
    CK(cuEventElapsedTime_v2(NULL, ev, ev2), INVALID_VALUE);
    CK(cuEventRecord(notiming, NULL), OK);
    CK(cuEventElapsedTime_v2(&ms, ev, notiming), INVALID_HANDLE);
    event_calls(ev, ev2, OK);
    CK(cuEventDestroy_v2(gone), OK);
    event_calls(gone, ev2, INVALID_HANDLE);
    event_calls((CUevent)0x7654320, ev2, INVALID_HANDLE);
    event_calls(s, ev2, INVALID_HANDLE);
    event_calls(NULL, ev2, INVALID_HANDLE);
    CK(cuEventDestroy_v2(gone), INVALID_HANDLE);
    CK(cuEventDestroy_v2(s), INVALID_HANDLE);

    /* modules and functions: made-up, wrong kind, and those of an unloaded module */
    CUfunction tmp;
    CUdeviceptr dp;
    size_t bytes;
    void *args[] = {&buf, &buf, &buf, &n};
    CK(cuModuleGetFunction(&tmp, (CUmodule)0x5555550, "vecadd"), INVALID_HANDLE);
    CK(cuModuleGetFunction(&tmp, NULL, "vecadd"), INVALID_HANDLE);
    CK(cuModuleGetFunction(&tmp, f, "vecadd"), INVALID_HANDLE);
    CK(cuModuleGetGlobal_v2(&dp, &bytes, s, "counter"), INVALID_HANDLE);
    CK(cuLaunchKernel((CUfunction)0x6666660, 1, 1, 1, 1, 1, 1, 0, 0, args, 0), INVALID_HANDLE);
    CK(cuLaunchKernel(mod, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL), INVALID_HANDLE);
    CK(cuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL), INVALID_HANDLE);
    CK(cuModuleUnload(s), INVALID_HANDLE);
    CK(cuModuleLoad(&gone_mod, argv[1]), OK);
    CK(cuModuleGetFunction(&gone_f, gone_mod, "vecadd"), OK);
    CK(cuModuleGetGlobal_v2(&dp, &bytes, gone_mod, "counter"), OK);
    CK(cuModuleUnload(gone_mod), OK);
    CK(cuModuleUnload(gone_mod), INVALID_HANDLE);
    CK(cuModuleGetFunction(&tmp, gone_mod, "vecadd"), INVALID_HANDLE);
    CK(cuModuleGetGlobal_v2(&dp, &bytes, gone_mod, "counter"), INVALID_HANDLE);
    CK(cuLaunchKernel(gone_f, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL), INVALID_HANDLE);
    /* the other module's kernel is unaffected */
    CK(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, s, args, NULL), OK);

    /* destroying the last context retires every handle */
    CK(cuCtxDestroy_v2(ctx), OK);
    CK(cuCtxCreate_v4(&ctx, NULL, 0, dev), OK);
    CK(cuStreamQuery(s), INVALID_HANDLE);
    CK(cuEventQuery(ev), INVALID_HANDLE);
    CK(cuModuleGetFunction(&tmp, mod, "vecadd"), INVALID_HANDLE);
    CK(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, NULL, args, NULL), INVALID_HANDLE);
    CK(cuStreamQuery(NULL), OK);
    CK(cuCtxDestroy_v2(ctx), OK);

    printf(failures ? "%d failures\n" : "PASS\n", failures);
    return failures != 0;
}
