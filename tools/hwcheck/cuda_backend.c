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

#include "runtime/cudart_types.h" /* the texture-object structs, without CUDA headers */
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
CUresult cuTexObjectCreate(unsigned long long *, const ws_cu_resource_desc *,
                           const ws_cu_texture_desc *, const void *);
CUresult cuTexObjectDestroy(unsigned long long);

typedef struct tex_rec {     /* ws_texture_get_desc answers from here */
    ws_texobj handle;
    ws_tex_desc desc;
    struct tex_rec *next;
} tex_rec;

struct ws_device {
    CUcontext ctx;
    char err[512];
    ws_run_totals totals;
    tex_rec *texs;
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
    for (tex_rec *t = d->texs, *n; t; t = n) {
        n = t->next;
        cuTexObjectDestroy(t->handle);
        free(t);
    }
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

/* Texture objects over linear and pitch-2D memory (warpsim's pitch-linear
   arrays have no driver-API counterpart). */
ws_status ws_texture_create(ws_device *d, const ws_tex_desc *t, ws_texobj *out) {
    static const int fmt[3][3] = { /* [kind][8, 16, 32 bits] */
        {WS_CU_AD_FORMAT_SIGNED_INT8, WS_CU_AD_FORMAT_SIGNED_INT16, WS_CU_AD_FORMAT_SIGNED_INT32},
        {WS_CU_AD_FORMAT_UNSIGNED_INT8, WS_CU_AD_FORMAT_UNSIGNED_INT16,
         WS_CU_AD_FORMAT_UNSIGNED_INT32},
        {0, WS_CU_AD_FORMAT_HALF, WS_CU_AD_FORMAT_FLOAT}};
    if (!t || !out || t->res == WS_TEX_RES_ARRAY || t->kind > WS_TEX_FLOAT ||
        (t->bits != 8 && t->bits != 16 && t->bits != 32)) {
        snprintf(d->err, sizeof d->err, "texture create: unsupported descriptor (arrays are not)");
        return WS_ERR_UNSUPPORTED;
    }
    ws_cu_resource_desc rd;
    ws_cu_texture_desc td;
    memset(&rd, 0, sizeof rd);
    memset(&td, 0, sizeof td);
    int f = fmt[t->kind][t->bits == 8 ? 0 : t->bits == 16 ? 1 : 2];
    size_t texel = t->channels * t->bits / 8;
    if (t->res == WS_TEX_RES_LINEAR) {
        rd.resType = 2;
        rd.res.linear.devPtr = t->addr;
        rd.res.linear.format = f;
        rd.res.linear.numChannels = t->channels;
        rd.res.linear.sizeInBytes = t->width * texel;
    } else {
        rd.resType = 3;
        rd.res.pitch2D.devPtr = t->addr;
        rd.res.pitch2D.format = f;
        rd.res.pitch2D.numChannels = t->channels;
        rd.res.pitch2D.width = t->width;
        rd.res.pitch2D.height = t->height;
        rd.res.pitch2D.pitchInBytes = t->pitch ? t->pitch : t->width * texel;
    }
    for (int k = 0; k < 3; k++) td.addressMode[k] = (int)t->address[k];
    td.filterMode = (int)t->filter;
    td.flags = (t->read_normalized ? 0u : (unsigned)WS_CU_TRSF_READ_AS_INTEGER) |
               (t->normalized_coords ? (unsigned)WS_CU_TRSF_NORMALIZED_COORDINATES : 0u);
    memcpy(td.borderColor, t->border, sizeof td.borderColor);
    tex_rec *r = calloc(1, sizeof *r);
    if (!r) return WS_ERR_OUT_OF_MEMORY;
    unsigned long long h = 0;
    CUresult e = cuTexObjectCreate(&h, &rd, &td, NULL);
    if (e) {
        free(r);
        return fail(d, e, "cuTexObjectCreate");
    }
    r->handle = h;
    r->desc = *t;
    r->next = d->texs;
    d->texs = r;
    *out = r->handle;
    return WS_OK;
}

ws_status ws_texture_destroy(ws_device *d, ws_texobj h) {
    for (tex_rec **pt = &d->texs; *pt; pt = &(*pt)->next)
        if ((*pt)->handle == h) {
            tex_rec *t = *pt;
            *pt = t->next;
            CUresult e = cuTexObjectDestroy(h);
            free(t);
            return e ? fail(d, e, "cuTexObjectDestroy") : WS_OK;
        }
    return WS_ERR_INVALID_VALUE;
}

ws_status ws_texture_get_desc(const ws_device *d, ws_texobj h, ws_tex_desc *out) {
    for (const tex_rec *t = d->texs; t; t = t->next)
        if (t->handle == h) {
            *out = t->desc;
            return WS_OK;
        }
    return WS_ERR_INVALID_VALUE;
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
