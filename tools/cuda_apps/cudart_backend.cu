/* The part of warpsim's embedding API that bundled workloads use, on top of
 * the CUDA runtime API, so that a workload's own host.c and kernel.cu build
 * into an ordinary CUDA program (`make cuda-apps`). Such a program runs on
 * a real GPU, under warpsim's libcudart shim and under any simulator that
 * takes nvcc-built programs (GPGPU-Sim): one source, three targets.
 *
 * Kernels and __device__/__constant__ variables are found by their PTX
 * (mangled) names in tables that tools/cuda_apps/gen_table.py writes beside
 * the kernel source and then this file, so that the program is one
 * translation unit (nvcc 13 gives kernel stubs internal linkage: the names
 * are not in the symbol table). Device variables are handed to the host code
 * as handles (WL_SYM_BASE + index << 40 + offset) that the copies turn into
 * cudaMemcpyTo/FromSymbol: GPGPU-Sim 4.2 has no cudaGetSymbolAddress. The one
 * workload of the
 * program is WL_SYM (set by tools/cuda_apps/build.sh); argv[1] "paper" runs
 * the paper input. Texture objects are not offered (micro/texture). */
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

struct ws_device {
    char err[512];
    ws_run_totals totals;
};
struct ws_module_handle {
    ws_device *dev;
};
struct ws_kernel {
    void (*launch)(dim3, dim3, size_t, void **);
    char name[256];
};

static ws_status fail(ws_device *d, cudaError_t r, const char *what, ...) {
    va_list ap;
    va_start(ap, what);
    int k = vsnprintf(d->err, sizeof d->err, what, ap);
    va_end(ap);
    if (k >= 0 && (size_t)k < sizeof d->err)
        snprintf(d->err + k, sizeof d->err - (size_t)k, ": %s (%s)", cudaGetErrorName(r),
                 cudaGetErrorString(r));
    return r == cudaErrorIllegalAddress    ? WS_ERR_ILLEGAL_ADDRESS
           : r == cudaErrorMemoryAllocation ? WS_ERR_OUT_OF_MEMORY
                                            : WS_ERR_LAUNCH_FAILURE;
}

extern "C" {

/* wl_kernels and wl_globals: defined by the generated file that includes this one */
#define WL_SYM_BASE (1ull << 62)
#define WL_SYM_SHIFT 40
static bool is_sym(ws_devptr p) { return p >= WL_SYM_BASE; }
static const void *sym_of(ws_devptr p) { return wl_globals[(p - WL_SYM_BASE) >> WL_SYM_SHIFT].addr; }
static size_t sym_off(ws_devptr p) { return (size_t)((p - WL_SYM_BASE) & ((1ull << WL_SYM_SHIFT) - 1)); }
static const struct wl_sym *lookup(const struct wl_sym *t, const char *name) {
    for (; t->name; t++)
        if (!strcmp(t->name, name)) return t;
    return NULL;
}

const char *ws_status_name(ws_status s) {
    static const char *const n[] = {"WS_OK", "WS_ERR_INVALID_VALUE", "WS_ERR_OUT_OF_MEMORY",
                                    "WS_ERR_INVALID_PTX", "WS_ERR_UNSUPPORTED", "WS_ERR_NOT_FOUND",
                                    "WS_ERR_INVALID_CONFIG", "WS_ERR_ILLEGAL_ADDRESS",
                                    "WS_ERR_MISALIGNED", "WS_ERR_TRAP", "WS_ERR_DEADLOCK",
                                    "WS_ERR_LAUNCH_FAILURE", "WS_ERR_CONFIG", "WS_ERR_IO"};
    return (unsigned)s < sizeof n / sizeof n[0] ? n[s] : "WS_ERR_UNKNOWN";
}
const char *ws_device_last_error(const ws_device *d) { return d ? d->err : "no device"; }
void ws_device_totals(const ws_device *d, ws_run_totals *t) { *t = d->totals; }

ws_status ws_malloc(ws_device *d, size_t size, ws_devptr *out) {
    void *p = NULL;
    cudaError_t r = cudaMalloc(&p, size ? size : 1);
    if (r) return fail(d, r, "cudaMalloc(%zu)", size);
    *out = (ws_devptr)(uintptr_t)p;
    return WS_OK;
}
ws_status ws_free(ws_device *d, ws_devptr p) {
    cudaError_t r = cudaFree((void *)(uintptr_t)p);
    return r ? fail(d, r, "cudaFree") : WS_OK;
}
ws_status ws_memcpy_htod(ws_device *d, ws_devptr dst, const void *src, size_t n) {
    cudaError_t r = is_sym(dst) ? cudaMemcpyToSymbol(sym_of(dst), src, n, sym_off(dst),
                                                     cudaMemcpyHostToDevice)
                                : cudaMemcpy((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice);
    return r ? fail(d, r, "cudaMemcpy host to device (%zu)", n) : WS_OK;
}
ws_status ws_memcpy_dtoh(ws_device *d, void *dst, ws_devptr src, size_t n) {
    cudaError_t r = is_sym(src) ? cudaMemcpyFromSymbol(dst, sym_of(src), n, sym_off(src),
                                                       cudaMemcpyDeviceToHost)
                                : cudaMemcpy(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost);
    return r ? fail(d, r, "cudaMemcpy device to host (%zu)", n) : WS_OK;
}
ws_status ws_memcpy_dtod(ws_device *d, ws_devptr dst, ws_devptr src, size_t n) {
    cudaError_t r = cudaMemcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n,
                               cudaMemcpyDeviceToDevice);
    return r ? fail(d, r, "cudaMemcpy device to device (%zu)", n) : WS_OK;
}
ws_status ws_memset(ws_device *d, ws_devptr dst, int value, size_t n) {
    cudaError_t r = cudaMemset((void *)(uintptr_t)dst, value, n);
    return r ? fail(d, r, "cudaMemset(%zu)", n) : WS_OK;
}

ws_status ws_texture_create(ws_device *d, const ws_tex_desc *t, ws_texobj *out) {
    (void)t;
    (void)out;
    snprintf(d->err, sizeof d->err, "texture objects are not offered by the CUDA-runtime build");
    return WS_ERR_UNSUPPORTED;
}
ws_status ws_texture_destroy(ws_device *d, ws_texobj h) {
    (void)d;
    (void)h;
    return WS_ERR_INVALID_VALUE;
}

ws_status ws_module_get_kernel(ws_module_handle *m, const char *name, ws_kernel **out) {
    const struct wl_sym *fn = lookup(wl_kernels, name);
    if (!fn) {
        snprintf(m->dev->err, sizeof m->dev->err, "kernel %s: not in the program's table", name);
        return WS_ERR_NOT_FOUND;
    }
    ws_kernel *k = (ws_kernel *)calloc(1, sizeof *k);
    if (!k) return WS_ERR_OUT_OF_MEMORY;
    k->launch = fn->launch;
    snprintf(k->name, sizeof k->name, "%s", name);
    *out = k; /* kernels live as long as the process: a few per workload */
    return WS_OK;
}
ws_status ws_module_get_global(ws_module_handle *m, const char *name, ws_devptr *addr,
                               size_t *size) {
    const struct wl_sym *sym = lookup(wl_globals, name);
    if (!sym) return fail(m->dev, cudaErrorInvalidSymbol, "device variable %s", name);
    if (addr) *addr = WL_SYM_BASE + ((ws_devptr)(sym - wl_globals) << WL_SYM_SHIFT);
    if (size) *size = sym->size;
    return WS_OK;
}
const char *ws_kernel_name(const ws_kernel *k) { return k->name; }

ws_status ws_launch(ws_device *d, ws_kernel *k, ws_dim3 g, ws_dim3 b, size_t dyn_shared,
                    void **args) {
    k->launch(dim3(g.x, g.y, g.z), dim3(b.x, b.y, b.z), dyn_shared, args);
    cudaError_t r = cudaGetLastError();
    if (!r) r = cudaDeviceSynchronize();
    if (r) return fail(d, r, "launch of %s", k->name);
    d->totals.kernels++;
    return WS_OK;
}

extern const ws_workload WL_SYM;

} /* extern "C" */

int main(int argc, char **argv) {
    ws_device dev;
    memset(&dev, 0, sizeof dev);
    ws_module_handle mod = {&dev};
    ws_input_size in = argc > 1 && !strcmp(argv[1], "paper") ? WS_INPUT_PAPER : WS_INPUT_SMALL;
    ws_wl_result r = WL_SYM.run(&dev, &mod, in, stdout);
    printf("%s/%s: %s\n", WL_SYM.suite, WL_SYM.name,
           r == WS_WL_PASS ? "PASS" : r == WS_WL_MISMATCH ? "MISMATCH" : "ERROR");
    return (int)r;
}
