/* The part of warpsim's embedding API that bundled workloads use, on top of
 * the CUDA driver API. Linked with the workloads' host code and a real
 * libcuda, it runs every bundled workload on a real GPU, so that our
 * kernels, inputs and CPU references are checked against hardware (and
 * linked with warpsim's own libcuda.so.1 it runs them on the simulator
 * through the driver-API shim). Own minimal declarations: no CUDA headers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpsim/warpsim.h"

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream;
typedef unsigned long long CUdeviceptr;

CUresult cuInit(unsigned);
CUresult cuDeviceGet(CUdevice *, int);
CUresult cuCtxCreate_v4(CUcontext *, void *, unsigned, CUdevice);
CUresult cuCtxDestroy_v2(CUcontext);
CUresult cuCtxSynchronize(void);
CUresult cuModuleLoadData(CUmodule *, const void *);
CUresult cuModuleUnload(CUmodule);
CUresult cuModuleGetFunction(CUfunction *, CUmodule, const char *);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *, size_t *, CUmodule, const char *);
CUresult cuMemAlloc_v2(CUdeviceptr *, size_t);
CUresult cuMemFree_v2(CUdeviceptr);
CUresult cuMemcpyHtoD_v2(CUdeviceptr, const void *, size_t);
CUresult cuMemcpyDtoH_v2(void *, CUdeviceptr, size_t);
CUresult cuMemcpyDtoD_v2(CUdeviceptr, CUdeviceptr, size_t);
CUresult cuMemsetD8_v2(CUdeviceptr, unsigned char, size_t);
CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, CUstream, void **, void **);
CUresult cuGetErrorName(CUresult, const char **);

struct ws_device {
    CUcontext ctx;
    char err[512];
    ws_run_totals totals;
};
struct ws_module_handle {
    CUmodule mod;
    ws_device *dev;
};
struct ws_kernel {
    CUfunction fn;
    char name[256];
};

static ws_status fail(ws_device *d, CUresult r, const char *what, ...) {
    const char *n = "?";
    cuGetErrorName(r, &n);
    va_list ap;
    va_start(ap, what);
    int k = vsnprintf(d->err, sizeof d->err, what, ap);
    va_end(ap);
    if (k >= 0 && (size_t)k < sizeof d->err)
        snprintf(d->err + k, sizeof d->err - (size_t)k, ": CUDA error %d (%s)", r, n);
    return r == 700 ? WS_ERR_ILLEGAL_ADDRESS : r == 2 ? WS_ERR_OUT_OF_MEMORY : WS_ERR_LAUNCH_FAILURE;
}

const char *ws_status_name(ws_status s) {
    static const char *const n[] = {"WS_OK", "WS_ERR_INVALID_VALUE", "WS_ERR_OUT_OF_MEMORY",
                                    "WS_ERR_INVALID_PTX", "WS_ERR_UNSUPPORTED", "WS_ERR_NOT_FOUND",
                                    "WS_ERR_INVALID_CONFIG", "WS_ERR_ILLEGAL_ADDRESS",
                                    "WS_ERR_MISALIGNED", "WS_ERR_TRAP", "WS_ERR_DEADLOCK",
                                    "WS_ERR_LAUNCH_FAILURE", "WS_ERR_CONFIG", "WS_ERR_IO"};
    return (unsigned)s < sizeof n / sizeof n[0] ? n[s] : "WS_ERR_UNKNOWN";
}

void ws_device_options_init(ws_device_options *o) { memset(o, 0, sizeof *o); }

ws_status ws_device_create(const ws_device_options *o, ws_device **out) {
    (void)o;
    ws_device *d = calloc(1, sizeof *d);
    CUdevice dev;
    if (!d) return WS_ERR_OUT_OF_MEMORY;
    CUresult r = cuInit(0);
    if (!r) r = cuDeviceGet(&dev, 0);
    if (!r) r = cuCtxCreate_v4(&d->ctx, NULL, 0, dev);
    if (r) {
        fprintf(stderr, "hwcheck: no CUDA device: error %d\n", r);
        free(d);
        return WS_ERR_LAUNCH_FAILURE;
    }
    *out = d;
    return WS_OK;
}

void ws_device_destroy(ws_device *d) {
    if (!d) return;
    cuCtxDestroy_v2(d->ctx);
    free(d);
}

const char *ws_device_last_error(const ws_device *d) { return d ? d->err : "no device"; }
void ws_device_totals(const ws_device *d, ws_run_totals *t) { *t = d->totals; }

ws_status ws_malloc(ws_device *d, size_t size, ws_devptr *out) {
    CUdeviceptr p;
    CUresult r = cuMemAlloc_v2(&p, size ? size : 1);
    if (r) return fail(d, r, "cuMemAlloc(%zu)", size);
    *out = p;
    return WS_OK;
}
ws_status ws_free(ws_device *d, ws_devptr p) {
    CUresult r = cuMemFree_v2(p);
    return r ? fail(d, r, "cuMemFree") : WS_OK;
}
ws_status ws_memcpy_htod(ws_device *d, ws_devptr dst, const void *src, size_t n) {
    CUresult r = cuMemcpyHtoD_v2(dst, src, n);
    return r ? fail(d, r, "cuMemcpyHtoD(%zu)", n) : WS_OK;
}
ws_status ws_memcpy_dtoh(ws_device *d, void *dst, ws_devptr src, size_t n) {
    CUresult r = cuMemcpyDtoH_v2(dst, src, n);
    return r ? fail(d, r, "cuMemcpyDtoH(%zu)", n) : WS_OK;
}
ws_status ws_memcpy_dtod(ws_device *d, ws_devptr dst, ws_devptr src, size_t n) {
    CUresult r = cuMemcpyDtoD_v2(dst, src, n);
    return r ? fail(d, r, "cuMemcpyDtoD(%zu)", n) : WS_OK;
}
ws_status ws_memset(ws_device *d, ws_devptr dst, int value, size_t n) {
    CUresult r = cuMemsetD8_v2(dst, (unsigned char)value, n);
    return r ? fail(d, r, "cuMemsetD8(%zu)", n) : WS_OK;
}

ws_status ws_module_load(ws_device *d, const char *ptx, size_t len, const char *name,
                         const char *ptxas_info, ws_module_handle **out) {
    (void)len;
    (void)ptxas_info;
    ws_module_handle *m = calloc(1, sizeof *m);
    if (!m) return WS_ERR_OUT_OF_MEMORY;
    CUresult r = cuModuleLoadData(&m->mod, ptx);
    if (r) {
        free(m);
        return fail(d, r, "cuModuleLoadData(%s)", name);
    }
    m->dev = d;
    *out = m;
    return WS_OK;
}
void ws_module_unload(ws_device *d, ws_module_handle *m) {
    (void)d;
    if (!m) return;
    cuModuleUnload(m->mod);
    free(m);
}
ws_status ws_module_get_kernel(ws_module_handle *m, const char *name, ws_kernel **out) {
    ws_kernel *k = calloc(1, sizeof *k);
    if (!k) return WS_ERR_OUT_OF_MEMORY;
    CUresult r = cuModuleGetFunction(&k->fn, m->mod, name);
    if (r) {
        free(k);
        return fail(m->dev, r, "cuModuleGetFunction(%s)", name);
    }
    snprintf(k->name, sizeof k->name, "%s", name);
    *out = k; /* kernels live as long as the process: a few per workload */
    return WS_OK;
}
ws_status ws_module_get_global(ws_module_handle *m, const char *name, ws_devptr *addr,
                               size_t *size) {
    CUdeviceptr p;
    size_t n;
    CUresult r = cuModuleGetGlobal_v2(&p, &n, m->mod, name);
    if (r) return fail(m->dev, r, "cuModuleGetGlobal(%s)", name);
    if (addr) *addr = p;
    if (size) *size = n;
    return WS_OK;
}
const char *ws_kernel_name(const ws_kernel *k) { return k->name; }

ws_status ws_launch(ws_device *d, ws_kernel *k, ws_dim3 g, ws_dim3 b, size_t dyn_shared,
                    void **args) {
    CUresult r = cuLaunchKernel(k->fn, g.x, g.y, g.z, b.x, b.y, b.z, (unsigned)dyn_shared, NULL,
                                args, NULL);
    if (!r) r = cuCtxSynchronize();
    if (r) return fail(d, r, "launch of %s", k->name);
    d->totals.kernels++;
    return WS_OK;
}
