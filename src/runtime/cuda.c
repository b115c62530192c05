/* libcuda.so.1 replacement: the driver API subset a plain C host program
 * needs (init, device queries, one context, PTX modules, memory, launches,
 * streams and events).
 * Exports the versioned names cuda.h maps to (cuMemAlloc -> cuMemAlloc_v2,
 * cuCtxCreate -> cuCtxCreate_v4, ...) as well as the plain ones.
 *
 * One simulated device; launches run at call time. Kernel faults are sticky
 * as in CUDA: later calls return CUDA_ERROR_ILLEGAL_ADDRESS & co., and the
 * simulator's message goes to stderr. Options come from the WARPSIM_*
 * environment variables (see shim.h). Module, function, stream and event
 * handles are checked against the live ones (g.handles): a destroyed or
 * made-up one gives CUDA_ERROR_INVALID_HANDLE. The shim is process-global;
 * host threads must not call it concurrently. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/cudart_types.h"
#include "runtime/fatbin.h"
#include "runtime/handles.h"
#include "runtime/shim.h"
#include "warpsim/warpsim.h"

#define EXPORT __attribute__((visibility("default")))

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef ws_module_handle *CUmodule;
typedef ws_kernel *CUfunction;
typedef unsigned long long CUdeviceptr;
typedef void *CUstream;
typedef void *CUevent;

enum {
    CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3, CUDA_ERROR_NO_DEVICE = 100, CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200, CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209, CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222, CUDA_ERROR_FILE_NOT_FOUND = 301,
    CUDA_ERROR_INVALID_HANDLE = 400, CUDA_ERROR_NOT_FOUND = 500, CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CUDA_ERROR_ASSERT = 710, CUDA_ERROR_MISALIGNED_ADDRESS = 716, CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_NOT_SUPPORTED = 801, CUDA_ERROR_UNKNOWN = 999,
};

typedef struct tex_rec {        /* a texture object and the descriptors it was made from */
    unsigned long long handle;
    ws_cu_resource_desc res;
    ws_cu_texture_desc tex;
    struct tex_rec *next;
} tex_rec;

static struct {
    int initialised;
    unsigned nmodules;          /* modules loaded from memory: names them */
    ws_device *dev;
    int nctx;
    CUresult sticky;
    tex_rec *texs;
    ws_handles handles;         /* live modules, functions, streams and events */
} g;

static int live(const void *h, ws_handle_kind kind) { return ws_handles_has(&g.handles, h, kind); }

/* The legacy default stream (0), CU_STREAM_LEGACY (0x1), CU_STREAM_PER_THREAD
   (0x2) or a stream created and not yet destroyed. */
static int valid_stream(CUstream s) { return (uintptr_t)s <= 2 || live(s, WS_HANDLE_STREAM); }

/* Unloading frees a module's kernels: their handles go with it. */
static void unload_module(void *m) {
    ws_handles_drop(&g.handles, WS_HANDLE_FUNCTION, m, NULL);
    if (g.dev) ws_module_unload(g.dev, m);
}

/* A context handle: any non-null token; there is one device-wide state. */
static char ctx_token;

static void say(const char *m) { fprintf(stderr, "warpsim: %s\n", m); }

#define ENTER()                                                 \
    do {                                                        \
        if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;  \
        if (g.sticky) return g.sticky;                          \
        if (!g.dev) return CUDA_ERROR_INVALID_CONTEXT;          \
    } while (0)

static CUresult from_ws(ws_status s) {
    switch (s) {
    case WS_OK: return CUDA_SUCCESS;
    case WS_ERR_INVALID_VALUE: case WS_ERR_INVALID_CONFIG: return CUDA_ERROR_INVALID_VALUE;
    case WS_ERR_OUT_OF_MEMORY: return CUDA_ERROR_OUT_OF_MEMORY;
    case WS_ERR_INVALID_PTX: case WS_ERR_UNSUPPORTED: return CUDA_ERROR_INVALID_PTX;
    case WS_ERR_NOT_FOUND: return CUDA_ERROR_NOT_FOUND;
    case WS_ERR_ILLEGAL_ADDRESS: return CUDA_ERROR_ILLEGAL_ADDRESS;
    case WS_ERR_MISALIGNED: return CUDA_ERROR_MISALIGNED_ADDRESS;
    case WS_ERR_TRAP: return CUDA_ERROR_ASSERT;
    case WS_ERR_DEADLOCK: case WS_ERR_LAUNCH_FAILURE: return CUDA_ERROR_LAUNCH_FAILED;
    case WS_ERR_IO: return CUDA_ERROR_FILE_NOT_FOUND;
    default: return CUDA_ERROR_UNKNOWN;
    }
}

/* A failed call: print the simulator's reason, return the driver code. */
static CUresult fail(ws_status s) {
    say(ws_device_last_error(g.dev));
    return from_ws(s);
}

EXPORT CUresult cuInit(unsigned flags) {
    if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
    g.initialised = 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDriverGetVersion(int *v) {
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    *v = 13000;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetCount(int *n) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    *n = 1;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGet(CUdevice *d, int ordinal) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!d) return CUDA_ERROR_INVALID_VALUE;
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *d = 0;
    return CUDA_SUCCESS;
}

/* Device properties without needing a context (they are fixed). */
static void props(ws_device_props *p) {
    ws_device *tmp = NULL;
    if (g.dev) {
        ws_device_get_props(g.dev, p);
        return;
    }
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    if (ws_device_create(&o, &tmp) == WS_OK) {
        ws_device_get_props(tmp, p);
        ws_device_destroy(tmp);
    } else {
        memset(p, 0, sizeof *p);
    }
}

EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    ws_device_props p;
    props(&p);
    snprintf(name, (size_t)len, "%s", p.name);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    ws_device_props p;
    props(&p);
    if (ws_shim_device_attr(&p, attr, v) != 0) *v = 0;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice d) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
    ws_device_props p;
    props(&p);
    *major = p.cc_major;
    *minor = p.cc_minor;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!bytes) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    ws_device_props p;
    props(&p);
    *bytes = p.total_global_mem;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuDeviceTotalMem(size_t *bytes, CUdevice d) { return cuDeviceTotalMem_v2(bytes, d); }

static CUresult ctx_create(CUcontext *ctx, CUdevice d) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!ctx) return CUDA_ERROR_INVALID_VALUE;
    if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
    if (!g.dev) {
        if (ws_shim_open_device(&g.dev) != WS_OK) {
            g.dev = NULL;
            return CUDA_ERROR_NOT_INITIALIZED;
        }
        ws_shim_check_outputs_at_exit(&g.dev);
    }
    g.nctx++;
    *ctx = &ctx_token;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxCreate_v4(CUcontext *ctx, void *params, unsigned flags, CUdevice d) {
    return ctx_create(ctx, d);
}
EXPORT CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned flags, CUdevice d) { return ctx_create(ctx, d); }
EXPORT CUresult cuCtxCreate(CUcontext *ctx, unsigned flags, CUdevice d) { return ctx_create(ctx, d); }

EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d) { return ctx_create(ctx, d); }

static CUresult ctx_destroy(CUcontext ctx) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (ctx != &ctx_token || g.nctx == 0) return CUDA_ERROR_INVALID_CONTEXT;
    if (--g.nctx == 0) {  /* last context: all device state goes */
        for (tex_rec *t = g.texs, *n; t; t = n) {
            n = t->next;
            free(t);
        }
        g.texs = NULL;
        /* every handle dies with the device (modules with it, in the device) */
        ws_handles_drop(&g.handles, WS_HANDLE_STREAM, NULL, free);
        ws_handles_drop(&g.handles, WS_HANDLE_EVENT, NULL, free);
        ws_handles_drop(&g.handles, WS_HANDLE_ANY, NULL, NULL);
        ws_device_destroy(g.dev);
        g.dev = NULL;
        g.sticky = CUDA_SUCCESS;
    }
    return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx) { return ctx_destroy(ctx); }
EXPORT CUresult cuCtxDestroy(CUcontext ctx) { return ctx_destroy(ctx); }
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) { return ctx_destroy(&ctx_token); }

EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) { return CUDA_SUCCESS; }
EXPORT CUresult cuCtxGetCurrent(CUcontext *ctx) {
    if (!ctx) return CUDA_ERROR_INVALID_VALUE;
    *ctx = g.dev ? &ctx_token : NULL;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuCtxSynchronize(void) {
    ws_shim_sync_output(g.dev);
    ENTER();
    return CUDA_SUCCESS;  /* launches run at call time */
}

EXPORT CUresult cuCtxGetLimit(size_t *v, int limit) {
    ENTER();
    if (!v) return CUDA_ERROR_INVALID_VALUE;
    *v = ws_shim_get_limit(g.dev, limit);
    return CUDA_SUCCESS;
}
EXPORT CUresult cuCtxSetLimit(int limit, size_t v) {
    ENTER();
    return ws_shim_set_limit(g.dev, limit, v) == WS_OK ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* ---- modules ------------------------------------------------------------------- */
/* A module just loaded (status s) becomes a live handle. */
static CUresult loaded(ws_status s, CUmodule *m) {
    if (s != WS_OK) return fail(s);
    if (ws_handles_add(&g.handles, *m, WS_HANDLE_MODULE, NULL) != 0) {
        ws_module_unload(g.dev, *m);
        *m = NULL;
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleLoad(CUmodule *m, const char *path) {
    ENTER();
    if (!m || !path) return CUDA_ERROR_INVALID_VALUE;
    return loaded(ws_module_load_file(g.dev, path, m), m);
}

EXPORT CUresult cuModuleLoadData(CUmodule *m, const void *image) {
    ENTER();
    if (!m || !image) return CUDA_ERROR_INVALID_VALUE;
    uint32_t magic;
    memcpy(&magic, image, 4);
    if (magic == WS_FATBIN_MAGIC || magic == WS_FATBIN_WRAPPER_MAGIC) {
        char err[1024];
        unsigned arch;
        char *ptx = ws_fatbin_extract_ptx(image, &arch, err, sizeof err);
        if (!ptx) {
            say(err);
            return CUDA_ERROR_NO_BINARY_FOR_GPU;
        }
        char name[128];
        ws_shim_module_name(name, sizeof name, ++g.nmodules, arch);
        ws_status s = ws_module_load(g.dev, ptx, strlen(ptx), name, NULL, m);
        free(ptx);
        return loaded(s, m);
    }
    if (memcmp(image, "\177ELF", 4) == 0) {
        say("cuModuleLoadData: a cubin (ELF) image has no PTX; warpsim needs PTX text");
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    const char *ptx = image;
    char name[128];
    ws_shim_module_name(name, sizeof name, ++g.nmodules, 0);
    return loaded(ws_module_load(g.dev, ptx, strlen(ptx), name, NULL, m), m);
}

EXPORT CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, void *opts,
                                   void **vals) {
    return cuModuleLoadData(m, image);  /* JIT options do not apply */
}

EXPORT CUresult cuModuleLoadFatBinary(CUmodule *m, const void *fatbin) {
    return cuModuleLoadData(m, fatbin);
}

EXPORT CUresult cuModuleUnload(CUmodule m) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    if (!ws_handles_remove(&g.handles, m, WS_HANDLE_MODULE)) return CUDA_ERROR_INVALID_HANDLE;
    unload_module(m);
    return CUDA_SUCCESS;
}

EXPORT CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
    ENTER();
    if (!live(m, WS_HANDLE_MODULE)) return CUDA_ERROR_INVALID_HANDLE;
    if (!f || !name) return CUDA_ERROR_INVALID_VALUE;
    ws_status s = ws_module_get_kernel(m, name, f);
    if (s != WS_OK) return fail(s);
    /* owned by its module, so that unloading the module retires it */
    return ws_handles_add(&g.handles, *f, WS_HANDLE_FUNCTION, m) == 0 ? CUDA_SUCCESS
                                                                       : CUDA_ERROR_OUT_OF_MEMORY;
}

EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dp, size_t *bytes, CUmodule m, const char *name) {
    ENTER();
    if (!live(m, WS_HANDLE_MODULE)) return CUDA_ERROR_INVALID_HANDLE;
    if (!name) return CUDA_ERROR_INVALID_VALUE;
    ws_devptr a = 0;
    size_t sz = 0;
    ws_status s = ws_module_get_global(m, name, &a, &sz);
    if (s != WS_OK) return fail(s);
    if (dp) *dp = a;
    if (bytes) *bytes = sz;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuModuleGetGlobal(CUdeviceptr *dp, size_t *bytes, CUmodule m, const char *name) {
    return cuModuleGetGlobal_v2(dp, bytes, m, name);
}

/* ---- memory ------------------------------------------------------------------------ */
EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dp, size_t n) {
    ENTER();
    if (!dp || n == 0) return CUDA_ERROR_INVALID_VALUE;
    ws_devptr a;
    ws_status s = ws_malloc(g.dev, n, &a);
    if (s != WS_OK) return fail(s);
    *dp = a;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuMemAlloc(CUdeviceptr *dp, size_t n) { return cuMemAlloc_v2(dp, n); }

EXPORT CUresult cuMemFree_v2(CUdeviceptr p) {
    ENTER();
    ws_status s = ws_free(g.dev, p);
    return s == WS_OK ? CUDA_SUCCESS : fail(s);
}
EXPORT CUresult cuMemFree(CUdeviceptr p) { return cuMemFree_v2(p); }

/* Copy failures are argument errors in the driver API. */
static CUresult copy_result(ws_status s) {
    if (s == WS_OK) return CUDA_SUCCESS;
    say(ws_device_last_error(g.dev));
    return s == WS_ERR_OUT_OF_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
    ENTER();
    return copy_result(ws_memcpy_htod(g.dev, dst, src, n));
}
EXPORT CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
    ws_shim_sync_output(g.dev);
    ENTER();
    return copy_result(ws_memcpy_dtoh(g.dev, dst, src, n));
}
EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
    ENTER();
    return copy_result(ws_memcpy_dtod(g.dev, dst, src, n));
}
EXPORT CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n) { return cuMemcpyHtoD_v2(dst, src, n); }
EXPORT CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n) { return cuMemcpyDtoH_v2(dst, src, n); }
EXPORT CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) { return cuMemcpyDtoD_v2(dst, src, n); }

EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n) {
    ENTER();
    return copy_result(ws_memset(g.dev, dst, v, n));
}
EXPORT CUresult cuMemsetD8(CUdeviceptr dst, unsigned char v, size_t n) { return cuMemsetD8_v2(dst, v, n); }

EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned v, size_t n) {
    ENTER();
    if (n == 0) return CUDA_SUCCESS;
    if (dst % 4) return CUDA_ERROR_INVALID_VALUE;
    if (n > SIZE_MAX / 4) return CUDA_ERROR_INVALID_VALUE;
    uint32_t *buf = malloc(n * 4);
    if (!buf) return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) buf[i] = v;
    CUresult r = copy_result(ws_memcpy_htod(g.dev, dst, buf, n * 4));
    free(buf);
    return r;
}
EXPORT CUresult cuMemsetD32(CUdeviceptr dst, unsigned v, size_t n) { return cuMemsetD32_v2(dst, v, n); }

EXPORT CUresult cuMemGetInfo_v2(size_t *free_b, size_t *total) {
    ENTER();
    ws_device_props p;
    ws_device_get_props(g.dev, &p);
    if (free_b) *free_b = p.total_global_mem;
    if (total) *total = p.total_global_mem;
    return CUDA_SUCCESS;
}

/* ---- launches ------------------------------------------------------------------------ */
#define LAUNCH_PARAM_END ((void *)0)
#define LAUNCH_PARAM_BUFFER_POINTER ((void *)1)
#define LAUNCH_PARAM_BUFFER_SIZE ((void *)2)

EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shmem, CUstream stream,
                               void **params, void **extra) {
    ENTER();
    if (!live(f, WS_HANDLE_FUNCTION) || !valid_stream(stream)) return CUDA_ERROR_INVALID_HANDLE;
    ws_dim3 grid = {gx, gy, gz}, block = {bx, by, bz};
    ws_status s;
    if (params) {
        s = ws_launch(g.dev, f, grid, block, shmem, params);
    } else if (extra) {
        const void *buf = NULL;
        size_t size = 0;
        for (void **e = extra; *e != LAUNCH_PARAM_END; e += 2) {
            if (e[0] == LAUNCH_PARAM_BUFFER_POINTER) buf = e[1];
            else if (e[0] == LAUNCH_PARAM_BUFFER_SIZE) size = *(const size_t *)e[1];
            else return CUDA_ERROR_INVALID_VALUE;
        }
        s = ws_launch_packed(g.dev, f, grid, block, shmem, buf, size);
    } else {
        s = ws_launch_packed(g.dev, f, grid, block, shmem, NULL, 0);
    }
    if (s == WS_OK) return CUDA_SUCCESS;
    CUresult r = fail(s);
    if (s == WS_ERR_INVALID_CONFIG || s == WS_ERR_INVALID_VALUE ||
        (s == WS_ERR_UNSUPPORTED && ws_kernel_unsupported(f)))
        return r; /* refused before running: not sticky */
    g.sticky = r;  /* a fault inside the kernel: sticky, reported from here on */
    return r;
}

/* ---- streams and events ---------------------------------------------------------------- */
/* Work runs at call time, so streams only need to exist: a destroyed or
   made-up stream or event is refused with CUDA_ERROR_INVALID_HANDLE. */
static CUresult create(void **out, ws_handle_kind kind, unsigned flags) {
    ENTER();
    return from_ws(ws_handles_create(&g.handles, out, kind, flags));
}

static CUresult destroy(void *h, ws_handle_kind kind) {
    if (!g.initialised) return CUDA_ERROR_NOT_INITIALIZED;
    return ws_handles_destroy(&g.handles, h, kind) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

EXPORT CUresult cuStreamCreate(CUstream *s, unsigned flags) {
    return create(s, WS_HANDLE_STREAM, flags);
}
EXPORT CUresult cuStreamCreateWithPriority(CUstream *s, unsigned flags, int prio) {
    return cuStreamCreate(s, flags);
}
EXPORT CUresult cuStreamDestroy_v2(CUstream s) { return destroy(s, WS_HANDLE_STREAM); }
EXPORT CUresult cuStreamDestroy(CUstream s) { return cuStreamDestroy_v2(s); }

EXPORT CUresult cuStreamSynchronize(CUstream s) {
    ws_shim_sync_output(g.dev);
    ENTER();
    return valid_stream(s) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
EXPORT CUresult cuStreamQuery(CUstream s) { return cuStreamSynchronize(s); }
EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) {
    ENTER();
    return valid_stream(s) && live(e, WS_HANDLE_EVENT) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

EXPORT CUresult cuEventCreate(CUevent *e, unsigned flags) {
    return create(e, WS_HANDLE_EVENT, flags);
}
EXPORT CUresult cuEventDestroy_v2(CUevent e) { return destroy(e, WS_HANDLE_EVENT); }
EXPORT CUresult cuEventDestroy(CUevent e) { return cuEventDestroy_v2(e); }

EXPORT CUresult cuEventRecord(CUevent e, CUstream s) {
    ENTER();
    if (!live(e, WS_HANDLE_EVENT) || !valid_stream(s)) return CUDA_ERROR_INVALID_HANDLE;
    ws_handle_rec *r = e;
    r->t_ns = ws_device_time_ns(g.dev);  /* simulated time */
    r->recorded = 1;
    return CUDA_SUCCESS;
}
EXPORT CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned flags) {
    return cuEventRecord(e, s);
}

/* An event never recorded is complete. */
EXPORT CUresult cuEventQuery(CUevent e) {
    ENTER();
    return live(e, WS_HANDLE_EVENT) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
EXPORT CUresult cuEventSynchronize(CUevent e) {
    ws_shim_sync_output(g.dev);
    return cuEventQuery(e);
}

/* Either event never recorded, or created with CU_EVENT_DISABLE_TIMING:
   CUDA_ERROR_INVALID_HANDLE, as the driver documents. */
EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b) {
    ENTER();
    if (!live(a, WS_HANDLE_EVENT) || !live(b, WS_HANDLE_EVENT)) return CUDA_ERROR_INVALID_HANDLE;
    if (!ms) return CUDA_ERROR_INVALID_VALUE;
    return ws_handles_elapsed(a, b, ms) == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
    return cuEventElapsedTime_v2(ms, a, b);
}

/* Asynchronous copies and sets: synchronous here, once the stream checks out. */
#define ASYNC(call, s) (valid_stream(s) ? (call) : g.sticky ? g.sticky : CUDA_ERROR_INVALID_HANDLE)
EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s) {
    return ASYNC(cuMemcpyHtoD_v2(dst, src, n), s);
}
EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s) {
    return ASYNC(cuMemcpyDtoH_v2(dst, src, n), s);
}
EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
    return ASYNC(cuMemcpyDtoD_v2(dst, src, n), s);
}
EXPORT CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream s) {
    return ASYNC(cuMemsetD8_v2(dst, v, n), s);
}
EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t n, CUstream s) {
    return ASYNC(cuMemsetD32_v2(dst, v, n), s);
}
EXPORT CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s) {
    return cuMemcpyHtoDAsync_v2(dst, src, n, s);
}
EXPORT CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s) {
    return cuMemcpyDtoHAsync_v2(dst, src, n, s);
}
EXPORT CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
    return cuMemcpyDtoDAsync_v2(dst, src, n, s);
}

/* ---- texture objects ------------------------------------------------------------------ */
/* CUarray_format -> bits and kind; 0 for an unknown format. */
static unsigned cu_format(int f, ws_tex_kind *kind) {
    switch (f) {
    case WS_CU_AD_FORMAT_UNSIGNED_INT8: *kind = WS_TEX_UNSIGNED; return 8;
    case WS_CU_AD_FORMAT_UNSIGNED_INT16: *kind = WS_TEX_UNSIGNED; return 16;
    case WS_CU_AD_FORMAT_UNSIGNED_INT32: *kind = WS_TEX_UNSIGNED; return 32;
    case WS_CU_AD_FORMAT_SIGNED_INT8: *kind = WS_TEX_SIGNED; return 8;
    case WS_CU_AD_FORMAT_SIGNED_INT16: *kind = WS_TEX_SIGNED; return 16;
    case WS_CU_AD_FORMAT_SIGNED_INT32: *kind = WS_TEX_SIGNED; return 32;
    case WS_CU_AD_FORMAT_HALF: *kind = WS_TEX_FLOAT; return 16;
    case WS_CU_AD_FORMAT_FLOAT: *kind = WS_TEX_FLOAT; return 32;
    default: return 0;
    }
}

EXPORT CUresult cuTexObjectCreate(unsigned long long *obj, const ws_cu_resource_desc *rd,
                                  const ws_cu_texture_desc *td, const void *view) {
    ENTER();
    if (!obj || !rd || !td) return CUDA_ERROR_INVALID_VALUE;
    if (view || rd->resType == 0 || rd->resType == 1) {
        say(view ? "cuTexObjectCreate: resource views are not supported"
                 : "cuTexObjectCreate: CUDA arrays are not supported by the driver-API shim "
                   "(linear and pitch-2D resources are)");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (rd->resType != 2 && rd->resType != 3) return CUDA_ERROR_INVALID_VALUE;
    ws_tex_desc t;
    memset(&t, 0, sizeof t);
    int lin = rd->resType == 2;
    t.res = lin ? WS_TEX_RES_LINEAR : WS_TEX_RES_PITCH2D;
    t.bits = cu_format(lin ? rd->res.linear.format : rd->res.pitch2D.format, &t.kind);
    t.channels = lin ? rd->res.linear.numChannels : rd->res.pitch2D.numChannels;
    if (!t.bits || !t.channels || td->flags & WS_CU_TRSF_SRGB) return CUDA_ERROR_INVALID_VALUE;
    t.addr = lin ? rd->res.linear.devPtr : rd->res.pitch2D.devPtr;
    if (lin) {
        t.width = rd->res.linear.sizeInBytes / (t.channels * t.bits / 8);
    } else {
        t.width = rd->res.pitch2D.width;
        t.height = rd->res.pitch2D.height;
        t.pitch = rd->res.pitch2D.pitchInBytes;
    }
    for (int k = 0; k < 3; k++) {
        if (td->addressMode[k] < 0 || td->addressMode[k] > 3) return CUDA_ERROR_INVALID_VALUE;
        t.address[k] = (ws_tex_address)td->addressMode[k]; /* same numbering */
    }
    if (td->filterMode < 0 || td->filterMode > 1) return CUDA_ERROR_INVALID_VALUE;
    t.filter = td->filterMode ? WS_TEX_LINEAR : WS_TEX_POINT;
    /* the driver API promotes 8/16-bit integers to normalized floats unless told not to */
    t.read_normalized = t.kind != WS_TEX_FLOAT && t.bits < 32 &&
                        !(td->flags & WS_CU_TRSF_READ_AS_INTEGER);
    t.normalized_coords = (td->flags & WS_CU_TRSF_NORMALIZED_COORDINATES) != 0;
    memcpy(t.border, td->borderColor, sizeof t.border);
    tex_rec *r = calloc(1, sizeof *r);
    if (!r) return CUDA_ERROR_OUT_OF_MEMORY;
    ws_texobj h = 0;
    ws_status s = ws_texture_create(g.dev, &t, &h);
    if (s != WS_OK) {
        free(r);
        return fail(s);
    }
    r->handle = h;
    r->res = *rd;
    r->tex = *td;
    r->next = g.texs;
    g.texs = r;
    *obj = h;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuTexObjectDestroy(unsigned long long obj) {
    ENTER();
    for (tex_rec **pt = &g.texs; *pt; pt = &(*pt)->next)
        if ((*pt)->handle == obj) {
            tex_rec *t = *pt;
            *pt = t->next;
            ws_texture_destroy(g.dev, obj);
            free(t);
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_INVALID_VALUE;
}

static const tex_rec *find_tex(unsigned long long obj) {
    for (const tex_rec *t = g.texs; t; t = t->next)
        if (t->handle == obj) return t;
    return NULL;
}

EXPORT CUresult cuTexObjectGetResourceDesc(ws_cu_resource_desc *rd, unsigned long long obj) {
    ENTER();
    const tex_rec *t = find_tex(obj);
    if (!rd || !t) return CUDA_ERROR_INVALID_VALUE;
    *rd = t->res;
    return CUDA_SUCCESS;
}

EXPORT CUresult cuTexObjectGetTextureDesc(ws_cu_texture_desc *td, unsigned long long obj) {
    ENTER();
    const tex_rec *t = find_tex(obj);
    if (!td || !t) return CUDA_ERROR_INVALID_VALUE;
    *td = t->tex;
    return CUDA_SUCCESS;
}

/* ---- errors ----------------------------------------------------------------------------- */
static const struct { int code; const char *name, *text; } errs[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of (simulated) device memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "cuInit has not been called"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no simulated device"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "invalid module image"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "no current context (call cuCtxCreate)"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU", "the image holds no PTX warpsim can run"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "the PTX could not be loaded"},
    {CUDA_ERROR_FILE_NOT_FOUND, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "a kernel accessed an illegal memory address"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "a kernel trapped (device-side assert or trap)"},
    {CUDA_ERROR_MISALIGNED_ADDRESS, "CUDA_ERROR_MISALIGNED_ADDRESS", "a kernel made a misaligned memory access"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported by warpsim"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

EXPORT CUresult cuGetErrorName(CUresult e, const char **s) {
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (errs[i].code == e) {
            *s = errs[i].name;
            return CUDA_SUCCESS;
        }
    *s = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuGetErrorString(CUresult e, const char **s) {
    if (!s) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (errs[i].code == e) {
            *s = errs[i].text;
            return CUDA_SUCCESS;
        }
    *s = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}
