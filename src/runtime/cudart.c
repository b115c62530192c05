/* libcudart.so.13 replacement: runs unmodified programs built with
 * `nvcc -cudart shared` on the simulator (LD_LIBRARY_PATH=build/lib).
 *
 * What nvcc's host code calls: __cudaRegisterFatBinary/Function/Var at load
 * time, then per launch __cudaPushCallConfiguration (the <<<...>>>),
 * __cudaPopCallConfiguration, __cudaGetKernel and __cudaLaunchKernel. The
 * fat binary's PTX (see fatbin.c) is loaded on first use.
 *
 * Semantics:
 * - One simulated device (device 0). Work runs at call time, in call order,
 *   so every stream is trivially ordered and async calls are synchronous.
 * - Kernel faults (illegal address, misaligned access, trap) are sticky, as
 *   in CUDA: the launch itself returns cudaSuccess (it is asynchronous in
 *   CUDA), and every later call returns the fault (700, 716, 710, 719).
 *   The simulator's message (kernel, CTA, thread, pc, address) goes to stderr.
 * - Managed memory (cudaMallocManaged): a device allocation whose address is
 *   also mapped in the host (mmap at the same virtual address), so the one
 *   pointer works on both sides. The host copy is authoritative between
 *   launches; it is copied to the device before each launch and back after.
 *   __managed__ variables get a host buffer synchronised the same way.
 * - Events record simulated time (ws_device_time_ns): functional mode has no
 *   cycles, so elapsed times are 0 ms until the timing model lands.
 * - Options come from WARPSIM_* environment variables (see shim.h).
 * - Stream, event and kernel handles are checked against the live ones
 *   (g.handles): a destroyed or made-up one gives cudaErrorInvalidResourceHandle
 *   as in CUDA. The default streams 0, cudaStreamLegacy and
 *   cudaStreamPerThread are always valid; cudaDeviceReset destroys the rest.
 * - The shim is process-global by nature (CUDA's API is); host threads must
 *   not call it concurrently. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/cudart_types.h"
#include "runtime/fatbin.h"
#include "runtime/handles.h"
#include "runtime/shim.h"
#include "warpsim/warpsim.h"

#define EXPORT __attribute__((visibility("default")))

typedef int cudaError_t;
typedef struct { unsigned x, y, z; } dim3;
typedef void *cudaStream_t;
typedef void *cudaEvent_t;

enum {
    cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3, cudaErrorMissingConfiguration = 52,
    cudaErrorInvalidConfiguration = 9, cudaErrorInvalidPitchValue = 12, cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidChannelDescriptor = 20,
    cudaErrorInvalidDevicePointer = 17, cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98, cudaErrorNoDevice = 100, cudaErrorInvalidDevice = 101,
    cudaErrorNoKernelImageForDevice = 209, cudaErrorInvalidPtx = 218,
    cudaErrorInvalidResourceHandle = 400, cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700, cudaErrorLaunchOutOfResources = 701,
    cudaErrorAssert = 710, cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713, cudaErrorMisalignedAddress = 716, cudaErrorLaunchFailure = 719,
    cudaErrorInvalidClusterSize = 912,
    cudaErrorNotSupported = 801, cudaErrorUnknown = 999,
};

/* ---- process state ------------------------------------------------------- */
typedef struct fatbin_rec {
    const void *wrapper;
    ws_module_handle *mod;      /* loaded on first use */
    cudaError_t load_err;       /* sticky load failure */
    unsigned index;             /* 1-based registration order: names the module */
    unsigned arch;              /* the loaded PTX's target (75: compute_75) */
    struct fatbin_rec *next;
} fatbin_rec;

typedef struct func_rec {
    const void *host_fun;
    char *name;
    fatbin_rec *fb;
    ws_kernel *k;
    struct func_rec *next;
} func_rec;

typedef struct var_rec {
    const void *host_var;
    char *name;
    fatbin_rec *fb;
    size_t size;
    void *managed_host;         /* __managed__: host buffer, NULL otherwise */
    ws_devptr dev;              /* resolved address (0 until resolved) */
    struct var_rec *next;
} var_rec;

typedef struct managed_rec {    /* cudaMallocManaged */
    ws_devptr base, user;
    size_t size, map_size;
    struct managed_rec *next;
} managed_rec;

typedef struct host_rec {       /* page-locked host memory: cudaMallocHost, cudaHostAlloc, cudaHostRegister */
    void *p;
    size_t size;
    int registered;             /* cudaHostRegister (the program owns the memory) */
    struct host_rec *next;
} host_rec;

typedef struct array_rec {      /* cudaMallocArray: a cudaArray_t points to one */
    ws_devptr base;
    ws_cuda_channel_desc desc;
    size_t width, height, depth; /* texels; 0 for fewer dimensions (layered: depth = layers) */
    size_t pitch;               /* bytes from one row to the next */
    unsigned texel;             /* bytes per texel */
    unsigned flags;             /* ARRAY_LAYERED, ARRAY_SURFACE, ARRAY_GATHER */
    unsigned mipmapped;         /* cudaMallocMipmappedArray's: its levels (level 0 is this array) */
    struct array_rec *level[WS_TEX_MAX_LEVELS]; /* mipmapped: the levels' arrays (level[0] = this) */
    struct array_rec *next;
} array_rec;

typedef struct tex_rec {        /* a texture or surface object, with the descriptors it was made from */
    unsigned long long handle;
    int surface;                /* cudaCreateSurfaceObject made it (tex unused) */
    ws_cuda_resource_desc res;
    ws_cuda_texture_desc tex;
    struct tex_rec *next;
} tex_rec;

typedef struct launch_cfg { dim3 grid, block; size_t shmem; cudaStream_t stream; } launch_cfg;

static struct {
    ws_device *dev;
    int dev_failed;
    cudaError_t last_error;     /* returned and cleared by cudaGetLastError */
    cudaError_t sticky;         /* kernel fault: returned by every later call */
    fatbin_rec *fatbins;
    func_rec *funcs;
    var_rec *vars;
    managed_rec *managed;
    host_rec *pinned;
    array_rec *arrays;
    tex_rec *texs;
    launch_cfg cfg[16];
    int ncfg;
    ws_handles handles;         /* live streams, events and kernel handles */
} g;

static cudaError_t set_err(cudaError_t e) {
    if (e != cudaSuccess) g.last_error = e;
    return e;
}

static ws_device *dev(void) {
    if (!g.dev && !g.dev_failed) {
        if (ws_shim_open_device(&g.dev) != WS_OK) {
            g.dev = NULL;
            g.dev_failed = 1;
        } else {
            ws_shim_check_outputs_at_exit(&g.dev);
        }
    }
    return g.dev;
}

/* Common prologue: the device must exist and no sticky fault be pending. */
#define ENTER()                                                          \
    do {                                                                 \
        if (g.sticky) return set_err(g.sticky);                          \
        if (!dev()) return set_err(cudaErrorInitializationError);       \
    } while (0)

static void say(const char *what) { fprintf(stderr, "warpsim: %s\n", what); }

static cudaError_t from_ws(ws_status s) {
    switch (s) {
    case WS_OK: return cudaSuccess;
    case WS_ERR_INVALID_VALUE: return cudaErrorInvalidValue;
    case WS_ERR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case WS_ERR_INVALID_PTX: case WS_ERR_UNSUPPORTED: return cudaErrorInvalidPtx;
    case WS_ERR_NOT_FOUND: return cudaErrorInvalidDeviceFunction;
    case WS_ERR_INVALID_CONFIG: return cudaErrorInvalidConfiguration;
    case WS_ERR_ILLEGAL_ADDRESS: return cudaErrorIllegalAddress;
    case WS_ERR_MISALIGNED: return cudaErrorMisalignedAddress;
    case WS_ERR_TRAP: return cudaErrorAssert;
    case WS_ERR_DEADLOCK: case WS_ERR_LAUNCH_FAILURE: return cudaErrorLaunchFailure;
    case WS_ERR_CONFIG: case WS_ERR_IO: return cudaErrorInitializationError;
    default: return cudaErrorUnknown;
    }
}

/* Memory-API failure: the simulator's reason to stderr, CUDA's code back. */
static cudaError_t mem_fail(ws_status s) {
    say(ws_device_last_error(g.dev));
    if (s == WS_ERR_OUT_OF_MEMORY) return set_err(cudaErrorMemoryAllocation);
    return set_err(cudaErrorInvalidValue);
}

/* ---- managed memory --------------------------------------------------------- */
static const managed_rec *find_managed(const void *p) {
    uintptr_t a = (uintptr_t)p;
    for (managed_rec *m = g.managed; m; m = m->next)
        if (a >= m->user && a < m->user + (m->size ? m->size : 1)) return m;
    return NULL;
}

static int load_fatbin(fatbin_rec *fb);

static void managed_to_device(void) {
    for (managed_rec *m = g.managed; m; m = m->next)
        ws_memcpy_htod(g.dev, m->user, (const void *)(uintptr_t)m->user, m->size);
    for (var_rec *v = g.vars; v; v = v->next)
        if (v->managed_host && v->dev) ws_memcpy_htod(g.dev, v->dev, v->managed_host, v->size);
}

static void managed_to_host(void) {
    for (managed_rec *m = g.managed; m; m = m->next)
        ws_memcpy_dtoh(g.dev, (void *)(uintptr_t)m->user, m->user, m->size);
    for (var_rec *v = g.vars; v; v = v->next)
        if (v->managed_host && v->dev) ws_memcpy_dtoh(g.dev, v->managed_host, v->dev, v->size);
}

/* ---- registration ---------------------------------------------------------- */
EXPORT void **__cudaRegisterFatBinary(void *fatCubin) {
    fatbin_rec *fb = calloc(1, sizeof *fb);
    if (!fb) {
        say("out of memory registering a fat binary");
        abort();
    }
    fb->wrapper = fatCubin;
    fb->index = g.fatbins ? g.fatbins->index + 1 : 1;
    fb->next = g.fatbins;
    g.fatbins = fb;
    return (void **)fb;
}

static int resolve_var(var_rec *v) {
    if (v->dev) return 0;
    if (load_fatbin(v->fb) != 0) return -1;
    size_t sz = 0;
    if (ws_module_get_global(v->fb->mod, v->name, &v->dev, &sz) != WS_OK) {
        say(ws_device_last_error(g.dev));
        return -1;
    }
    return 0;
}

EXPORT void __cudaRegisterFatBinaryEnd(void **handle) {
    /* __managed__ variables need their host copies before main() runs. */
    for (var_rec *v = g.vars; v; v = v->next)
        if (v->managed_host && v->fb == (fatbin_rec *)handle && dev() && resolve_var(v) == 0)
            ws_memcpy_dtoh(g.dev, v->managed_host, v->dev, v->size);
}

EXPORT void __cudaUnregisterFatBinary(void **handle) {
    /* Called from atexit handlers: keep modules alive, the process is ending
       and other translation units may still be in use. */
    (void)handle;
}

EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, void *tid, void *bid,
                                   void *bDim, void *gDim, int *wSize) {
    func_rec *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(deviceName ? deviceName : deviceFun))) {
        say("out of memory registering a kernel");
        abort();
    }
    f->host_fun = hostFun;
    f->fb = (fatbin_rec *)handle;
    f->next = g.funcs;
    g.funcs = f;
    /* the record is the handle __cudaGetKernel hands out */
    if (ws_handles_add(&g.handles, f, WS_HANDLE_FUNCTION, NULL) != 0) {
        say("out of memory registering a kernel");
        abort();
    }
}

static var_rec *add_var(void **handle, const void *host_var, const char *name, size_t size) {
    var_rec *v = calloc(1, sizeof *v);
    if (!v || !(v->name = strdup(name))) {
        say("out of memory registering a variable");
        abort();
    }
    v->host_var = host_var;
    v->fb = (fatbin_rec *)handle;
    v->size = size;
    v->next = g.vars;
    g.vars = v;
    return v;
}

EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global) {
    add_var(handle, hostVar, deviceName, size);
}

EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                                     const char *deviceName, int ext, size_t size, int constant,
                                     int global) {
    var_rec *v = add_var(handle, hostVarPtrAddress, deviceName, size);
    v->managed_host = calloc(1, size ? size : 1);
    if (!v->managed_host) {
        say("out of memory registering a __managed__ variable");
        abort();
    }
    *hostVarPtrAddress = v->managed_host;
}

EXPORT char __cudaInitModule(void **handle) { return 1; }

EXPORT void __cudaRegisterTexture(void **h, const void *hv, const void **da, const char *dn, int dim,
                                  int norm, int ext) {}
EXPORT void __cudaRegisterSurface(void **h, const void *hv, const void **da, const char *dn, int dim,
                                  int ext) {}

static int load_fatbin(fatbin_rec *fb) {
    if (fb->mod) return 0;
    if (fb->load_err) return -1;
    if (!dev()) {
        fb->load_err = cudaErrorInitializationError;
        return -1;
    }
    char err[1024];
    unsigned arch = 0;
    char *ptx = ws_fatbin_extract_ptx(fb->wrapper, &arch, err, sizeof err);
    if (!ptx) {
        say(err);
        fb->load_err = cudaErrorNoKernelImageForDevice;
        return -1;
    }
    fb->arch = arch;
    char name[128];
    ws_shim_module_name(name, sizeof name, fb->index, arch);
    ws_status s = ws_module_load(g.dev, ptx, strlen(ptx), name, NULL, &fb->mod);
    free(ptx);
    if (s != WS_OK) {
        say(ws_device_last_error(g.dev));
        fb->load_err = from_ws(s);
        fb->mod = NULL;
        return -1;
    }
    return 0;
}

/* By host stub, or by the kernel handle cudaGetKernel returned (CUDA takes
   a cudaKernel_t wherever it takes an entry function). */
static func_rec *find_func(const void *host_fun) {
    for (func_rec *f = g.funcs; f; f = f->next)
        if (f->host_fun == host_fun) return f;
    if (host_fun && ws_handles_has(&g.handles, host_fun, WS_HANDLE_FUNCTION))
        return (func_rec *)host_fun;
    return NULL;
}

/* The kernel behind a registered host stub; loads its module on first use. */
static cudaError_t get_kernel(func_rec *f, ws_kernel **out) {
    if (!f) return cudaErrorInvalidDeviceFunction;
    if (!f->k) {
        if (load_fatbin(f->fb) != 0) return f->fb->load_err;
        if (ws_module_get_kernel(f->fb->mod, f->name, &f->k) != WS_OK) {
            say(ws_device_last_error(g.dev));
            return cudaErrorInvalidDeviceFunction;
        }
    }
    *out = f->k;
    return cudaSuccess;
}

/* ---- launches ---------------------------------------------------------------- */
EXPORT unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, void *stream) {
    if (g.ncfg == (int)(sizeof g.cfg / sizeof g.cfg[0])) return 1;
    g.cfg[g.ncfg++] = (launch_cfg){grid, block, shmem, stream};
    return 0;
}

EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, void *stream) {
    if (g.ncfg == 0) return set_err(cudaErrorMissingConfiguration);
    launch_cfg c = g.cfg[--g.ncfg];
    *grid = c.grid;
    *block = c.block;
    *shmem = c.shmem;
    if (stream) *(cudaStream_t *)stream = c.stream;
    return cudaSuccess;
}

EXPORT cudaError_t __cudaGetKernel(void **out, const void *hostFun) {
    func_rec *f = find_func(hostFun);
    if (!f) return set_err(cudaErrorInvalidDeviceFunction);
    if (out) *out = f;  /* the handle is our record; the module loads at launch */
    return cudaSuccess;
}

/* The legacy default stream (0), cudaStreamLegacy (0x1), cudaStreamPerThread
   (0x2) or a stream created and not yet destroyed. */
static int valid_stream(cudaStream_t s) {
    return (uintptr_t)s <= 2 || ws_handles_has(&g.handles, s, WS_HANDLE_STREAM);
}

/* A bad handle gives cudaErrorInvalidResourceHandle, unless a sticky kernel
   fault takes precedence (it is returned by every call). */
static cudaError_t bad_handle(void) {
    return set_err(g.sticky ? g.sticky : cudaErrorInvalidResourceHandle);
}
#define CHECK_HANDLE(ok)                  \
    do {                                  \
        if (!(ok)) return bad_handle();   \
    } while (0)
#define CHECK_STREAM(s) CHECK_HANDLE(valid_stream(s))
#define CHECK_EVENT(e) CHECK_HANDLE(ws_handles_has(&g.handles, e, WS_HANDLE_EVENT))

/* cluster: CTAs per thread-block cluster (cudaLaunchKernelEx's attribute);
   all 0: the kernel's __cluster_dims__ or none. */
static cudaError_t launch_in(func_rec *f, dim3 grid, dim3 block, dim3 cluster, int coop, void **args,
                             size_t shmem, cudaStream_t stream) {
    ENTER();
    CHECK_STREAM(stream);
    ws_kernel *k = NULL;
    cudaError_t e = get_kernel(f, &k);
    if (e != cudaSuccess) return set_err(e);
    managed_to_device();
    ws_status s = coop ? ws_launch_cooperative(g.dev, k, (ws_dim3){grid.x, grid.y, grid.z},
                                               (ws_dim3){block.x, block.y, block.z}, shmem, args)
                       : ws_launch_cluster(g.dev, k, (ws_dim3){grid.x, grid.y, grid.z},
                                           (ws_dim3){block.x, block.y, block.z},
                                           (ws_dim3){cluster.x, cluster.y, cluster.z}, shmem, args);
    managed_to_host();
    if (s == WS_OK) return cudaSuccess;
    fprintf(stderr, "warpsim: %s\n", ws_device_last_error(g.dev));
    e = from_ws(s);
    if (s == WS_ERR_INVALID_CONFIG || s == WS_ERR_INVALID_VALUE || s == WS_ERR_OUT_OF_MEMORY ||
        (s == WS_ERR_UNSUPPORTED && ws_kernel_unsupported(k))) {
        if (s == WS_ERR_OUT_OF_MEMORY) e = cudaErrorLaunchOutOfResources;
        return set_err(e);  /* caught before running: not sticky */
    }
    /* A fault inside the kernel: asynchronous in CUDA, so the launch succeeds
       and the error surfaces from the next call (and stays). */
    g.sticky = e;
    set_err(e);
    return cudaSuccess;
}

static cudaError_t launch(func_rec *f, dim3 grid, dim3 block, void **args, size_t shmem,
                          cudaStream_t stream) {
    return launch_in(f, grid, block, (dim3){0, 0, 0}, 0, args, shmem, stream);
}

/* The <<<>>> path: `kernel` is what __cudaGetKernel returned, the stream
   what __cudaPushCallConfiguration was given. */
EXPORT cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args,
                                      size_t shmem, cudaStream_t stream) {
    if (!ws_handles_has(&g.handles, kernel, WS_HANDLE_FUNCTION)) return bad_handle();
    return launch(kernel, grid, block, args, shmem, stream);
}

EXPORT cudaError_t __cudaLaunchKernel_ptsz(void *kernel, dim3 grid, dim3 block, void **args,
                                           size_t shmem, cudaStream_t stream) {
    return __cudaLaunchKernel(kernel, grid, block, args, shmem, stream);
}

EXPORT cudaError_t cudaGetKernel(void **out, const void *func) {
    if (!out) return set_err(cudaErrorInvalidValue);
    return __cudaGetKernel(out, func);
}

EXPORT cudaError_t cudaFuncGetName(const char **name, const void *func) {
    if (!name) return set_err(cudaErrorInvalidValue);
    func_rec *f = find_func(func);
    if (!f) return set_err(cudaErrorInvalidDeviceFunction);
    *name = f->name;
    return cudaSuccess;
}

EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                                    size_t shmem, cudaStream_t stream) {
    func_rec *f = find_func(func);
    if (!f) return set_err(cudaErrorInvalidDeviceFunction);
    return launch(f, grid, block, args, shmem, stream);
}

EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                         size_t shmem, cudaStream_t stream) {
    return cudaLaunchKernel(func, grid, block, args, shmem, stream);
}

typedef struct {
    dim3 gridDim, blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    void *attrs;
    unsigned numAttrs;
} launch_config_t;

/* cudaLaunchAttribute: an id, padding to 8 bytes, a 64-byte value union. */
typedef struct {
    int id;
    char pad[4];
    union { char bytes[64]; struct { unsigned x, y, z; } dim; } val;
} launch_attr_t;
enum { LAUNCH_ATTR_COOPERATIVE = 2, LAUNCH_ATTR_CLUSTER_DIMENSION = 4 };

/* Whether a launch configuration asks for a cooperative launch. */
static int config_coop(const launch_config_t *cfg) {
    const launch_attr_t *a = cfg->attrs;
    int coop = 0;
    for (unsigned i = 0; a && i < cfg->numAttrs; i++)
        if (a[i].id == LAUNCH_ATTR_COOPERATIVE) memcpy(&coop, a[i].val.bytes, sizeof coop);
    return coop != 0;
}

/* The cluster shape a launch configuration names ({0,0,0}: none). */
static dim3 config_cluster(const launch_config_t *cfg) {
    dim3 c = {0, 0, 0};
    const launch_attr_t *a = cfg->attrs;
    for (unsigned i = 0; a && i < cfg->numAttrs; i++)
        if (a[i].id == LAUNCH_ATTR_CLUSTER_DIMENSION) c = (dim3){a[i].val.dim.x, a[i].val.dim.y, a[i].val.dim.z};
    return c;
}

EXPORT cudaError_t cudaLaunchKernelExC(const launch_config_t *cfg, const void *func, void **args) {
    if (!cfg) return set_err(cudaErrorInvalidValue);
    func_rec *f = find_func(func);
    if (!f) return set_err(cudaErrorInvalidDeviceFunction);
    return launch_in(f, cfg->gridDim, cfg->blockDim, config_cluster(cfg), config_coop(cfg), args,
                     cfg->dynamicSmemBytes, cfg->stream);
}

EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const launch_config_t *cfg, const void *func,
                                            void **args) {
    return cudaLaunchKernelExC(cfg, func, args);
}

EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                               size_t shmem, cudaStream_t stream) {
    func_rec *f = find_func(func);
    if (!f) return set_err(cudaErrorInvalidDeviceFunction);
    return launch_in(f, grid, block, (dim3){0, 0, 0}, 1, args, shmem, stream);
}

/* ---- memory ------------------------------------------------------------------ */
EXPORT cudaError_t cudaMalloc(void **p, size_t size) {
    ENTER();
    if (!p) return set_err(cudaErrorInvalidValue);
    ws_devptr a = 0;
    ws_status s = ws_malloc(g.dev, size, &a);
    if (s != WS_OK) return mem_fail(s);
    *p = (void *)(uintptr_t)a;
    return cudaSuccess;
}

EXPORT cudaError_t cudaMallocManaged(void **p, size_t size, unsigned flags) {
    ENTER();
    if (!p) return set_err(cudaErrorInvalidValue);
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t map_size = (size ? size + pg - 1 : pg) / pg * pg;
    managed_rec *m = calloc(1, sizeof *m);
    if (!m) return set_err(cudaErrorMemoryAllocation);
    ws_status s = ws_malloc(g.dev, map_size + pg, &m->base);
    if (s != WS_OK) {
        free(m);
        return mem_fail(s);
    }
    /* Page-aligned inside the allocation so that the host mapping at the same
       address never overlaps another managed block. */
    m->user = (m->base + pg - 1) / pg * pg;
    m->size = size;
    m->map_size = map_size;
    void *h = mmap((void *)(uintptr_t)m->user, map_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (h == MAP_FAILED || h != (void *)(uintptr_t)m->user) {
        if (h != MAP_FAILED) munmap(h, map_size);
        fprintf(stderr, "warpsim: cudaMallocManaged: cannot map host memory at device address "
                        "0x%llx: %s\n", (unsigned long long)m->user, strerror(errno));
        ws_free(g.dev, m->base);
        free(m);
        return set_err(cudaErrorMemoryAllocation);
    }
    m->next = g.managed;
    g.managed = m;
    *p = h;
    return cudaSuccess;
}

EXPORT cudaError_t cudaFree(void *p) {
    ENTER();
    if (!p) return cudaSuccess;
    for (managed_rec **pm = &g.managed; *pm; pm = &(*pm)->next)
        if ((*pm)->user == (uintptr_t)p) {
            managed_rec *m = *pm;
            *pm = m->next;
            munmap(p, m->map_size);
            ws_free(g.dev, m->base);
            free(m);
            return cudaSuccess;
        }
    ws_status s = ws_free(g.dev, (ws_devptr)(uintptr_t)p);
    if (s != WS_OK) {
        say(ws_device_last_error(g.dev));
        return set_err(cudaErrorInvalidDevicePointer);
    }
    return cudaSuccess;
}

/* Stream-ordered allocation: work runs at call time, so the allocation is
   made (and freed) at once. One memory pool per device, the default one. */
static int g_mem_pool;  /* its address is the device's cudaMemPool_t */
static unsigned long long g_pool_release_threshold;

EXPORT cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t s) {
    CHECK_STREAM(s);
    return cudaMalloc(p, size);
}
EXPORT cudaError_t cudaFreeAsync(void *p, cudaStream_t s) {
    CHECK_STREAM(s);
    return cudaFree(p);
}
EXPORT cudaError_t cudaMallocFromPoolAsync(void **p, size_t size, void *pool, cudaStream_t s) {
    if (pool != &g_mem_pool) return set_err(cudaErrorInvalidValue);
    return cudaMallocAsync(p, size, s);
}
EXPORT cudaError_t cudaDeviceGetDefaultMemPool(void **pool, int d) {
    if (!pool) return set_err(cudaErrorInvalidValue);
    if (d != 0) return set_err(cudaErrorInvalidDevice);
    *pool = &g_mem_pool;
    return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceGetMemPool(void **pool, int d) {
    return cudaDeviceGetDefaultMemPool(pool, d);
}
/* cudaMemPoolAttr: 1-3 reuse flags (int), 4 release threshold and 5-8 usage
   counters (unsigned long long). Freed memory returns to the device at once,
   so the pool holds nothing and reuse policies are accepted as they are. */
EXPORT cudaError_t cudaMemPoolSetAttribute(void *pool, int attr, void *value) {
    if (pool != &g_mem_pool || !value || attr < 1 || attr > 8) return set_err(cudaErrorInvalidValue);
    if (attr == 4) g_pool_release_threshold = *(unsigned long long *)value;
    return cudaSuccess;
}
EXPORT cudaError_t cudaMemPoolGetAttribute(void *pool, int attr, void *value) {
    if (pool != &g_mem_pool || !value || attr < 1 || attr > 8) return set_err(cudaErrorInvalidValue);
    if (attr <= 3) *(int *)value = 1;
    else *(unsigned long long *)value = attr == 4 ? g_pool_release_threshold : 0;
    return cudaSuccess;
}
EXPORT cudaError_t cudaMemPoolTrimTo(void *pool, size_t keep) {
    return pool == &g_mem_pool ? cudaSuccess : set_err(cudaErrorInvalidValue);
}

/* Managed memory is copied to the device before each launch and back after
   it, so prefetches and advice have nothing to do. */
typedef struct {
    int type, id;
} mem_location;
EXPORT cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, mem_location loc, unsigned flags,
                                        cudaStream_t s) {
    CHECK_STREAM(s);
    return p ? cudaSuccess : set_err(cudaErrorInvalidValue);
}
EXPORT cudaError_t cudaMemPrefetchAsync_ptsz(const void *p, size_t n, mem_location loc,
                                             unsigned flags, cudaStream_t s) {
    return cudaMemPrefetchAsync(p, n, loc, flags, s);
}
EXPORT cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, mem_location loc) {
    return p ? cudaSuccess : set_err(cudaErrorInvalidValue);
}

static cudaError_t add_pinned(void *p, size_t size, int registered) {
    host_rec *h = calloc(1, sizeof *h);
    if (!h) return set_err(cudaErrorMemoryAllocation);
    *h = (host_rec){p, size, registered, g.pinned};
    g.pinned = h;
    return cudaSuccess;
}

/* The page-locked block holding p (its link in the list, for removal). */
static host_rec **find_pinned(const void *p) {
    for (host_rec **h = &g.pinned; *h; h = &(*h)->next)
        if ((uintptr_t)p >= (uintptr_t)(*h)->p && (uintptr_t)p - (uintptr_t)(*h)->p < ((*h)->size ? (*h)->size : 1))
            return h;
    return NULL;
}

EXPORT cudaError_t cudaMallocHost(void **p, size_t size) {
    if (!p) return set_err(cudaErrorInvalidValue);
    if (posix_memalign(p, 4096, size ? size : 1) != 0) return set_err(cudaErrorMemoryAllocation);
    cudaError_t e = add_pinned(*p, size, 0);
    if (e != cudaSuccess) free(*p);
    return e;
}

EXPORT cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags) { return cudaMallocHost(p, size); }

EXPORT cudaError_t cudaFreeHost(void *p) {
    if (!p) return cudaSuccess;
    host_rec **h = find_pinned(p);
    if (!h || (*h)->p != p || (*h)->registered) return set_err(cudaErrorInvalidValue);
    host_rec *r = *h;
    *h = r->next;
    free(r);
    free(p);
    return cudaSuccess;
}

/* Registration only records the range (for cudaPointerGetAttributes): the
   simulated device does not read host memory. */
EXPORT cudaError_t cudaHostRegister(void *p, size_t size, unsigned flags) {
    if (!p || !size) return set_err(cudaErrorInvalidValue);
    if (find_pinned(p)) return set_err(cudaErrorHostMemoryAlreadyRegistered);
    return add_pinned(p, size, 1);
}

EXPORT cudaError_t cudaHostUnregister(void *p) {
    host_rec **h = p ? find_pinned(p) : NULL;
    if (!h || (*h)->p != p || !(*h)->registered) return set_err(cudaErrorHostMemoryNotRegistered);
    host_rec *r = *h;
    *h = r->next;
    free(r);
    return cudaSuccess;
}

/* CUDA's layout (driver_types.h): type, device, devicePointer, hostPointer, reserved. */
typedef struct cuda_ptr_attrs {
    int type; /* 0 unregistered host, 1 page-locked host, 2 device, 3 managed */
    int device;
    void *devicePointer, *hostPointer;
    long reserved[8];
} cuda_ptr_attrs;

EXPORT cudaError_t cudaPointerGetAttributes(cuda_ptr_attrs *a, const void *p) {
    ENTER();
    if (!a) return set_err(cudaErrorInvalidValue);
    memset(a, 0, sizeof *a);
    if (find_managed(p)) {
        *a = (cuda_ptr_attrs){3, 0, (void *)p, (void *)p, {0}};
    } else if (p && ws_is_device_ptr(g.dev, (ws_devptr)(uintptr_t)p, 1)) {
        *a = (cuda_ptr_attrs){2, 0, (void *)p, NULL, {0}};
    } else if (p && find_pinned(p)) { /* no device alias: zero-copy access is not simulated */
        *a = (cuda_ptr_attrs){1, 0, NULL, (void *)p, {0}};
    } else { /* what CUDA 11+ reports for memory it does not know */
        *a = (cuda_ptr_attrs){0, -2, NULL, (void *)p, {0}};
    }
    return cudaSuccess;
}

EXPORT cudaError_t cudaHostGetDevicePointer(void **pdev, void *host, unsigned flags) {
    return set_err(cudaErrorNotSupported);  /* zero-copy host memory is not simulated */
}

enum { H2H = 0, H2D = 1, D2H = 2, D2D = 3, DEFAULT = 4 };

/* Is p a plain device pointer (not managed, whose host copy is authoritative)? */
static int is_dev(const void *p, size_t n) {
    return !find_managed(p) && ws_is_device_ptr(g.dev, (ws_devptr)(uintptr_t)p, n);
}

static cudaError_t do_memcpy(void *dst, const void *src, size_t n, int kind) {
    ws_shim_sync_output(g.dev); /* copies wait for the kernels before them */
    ENTER();
    if (n == 0) return cudaSuccess;
    if (!dst || !src) return set_err(cudaErrorInvalidValue);
    if (kind < H2H || kind > DEFAULT) return set_err(cudaErrorInvalidMemcpyDirection);
    int ddev = is_dev(dst, n), sdev = is_dev(src, n);
    /* Trust the pointers (unified addressing) but refuse a direction that
       names a device side the pointer is not on, or a host side that is one. */
    int want_ddev = kind == H2D || kind == D2D, want_sdev = kind == D2H || kind == D2D;
    if (kind != DEFAULT) {
        int dman = find_managed(dst) != NULL, sman = find_managed(src) != NULL;
        if ((want_ddev && !ddev && !dman) || (want_sdev && !sdev && !sman) ||
            (!want_ddev && ddev) || (!want_sdev && sdev)) {
            fprintf(stderr, "warpsim: cudaMemcpy kind %d does not match the pointers (dst %p is %s, "
                            "src %p is %s)\n", kind, dst, ddev ? "device" : "host", src,
                    sdev ? "device" : "host");
            return set_err(cudaErrorInvalidValue);
        }
    }
    ws_status s = WS_OK;
    if (ddev && sdev) s = ws_memcpy_dtod(g.dev, (uintptr_t)dst, (uintptr_t)src, n);
    else if (ddev) s = ws_memcpy_htod(g.dev, (uintptr_t)dst, src, n);
    else if (sdev) s = ws_memcpy_dtoh(g.dev, dst, (uintptr_t)src, n);
    else memmove(dst, src, n);
    return s == WS_OK ? cudaSuccess : mem_fail(s);
}

EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind) {
    return do_memcpy(dst, src, n, kind);
}
EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, cudaStream_t s) {
    CHECK_STREAM(s);
    return do_memcpy(dst, src, n, kind);
}
EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n, int kind,
                                        cudaStream_t s) {
    return cudaMemcpyAsync(dst, src, n, kind, s);
}
EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t n, int kind) {
    return do_memcpy(dst, src, n, kind);
}

static cudaError_t do_memset(void *p, int v, size_t n) {
    ENTER();
    if (n == 0) return cudaSuccess;
    if (find_managed(p)) {
        memset(p, v, n);
        return cudaSuccess;
    }
    ws_status s = ws_memset(g.dev, (uintptr_t)p, v, n);
    return s == WS_OK ? cudaSuccess : mem_fail(s);
}

EXPORT cudaError_t cudaMemset(void *p, int v, size_t n) { return do_memset(p, v, n); }
EXPORT cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) {
    CHECK_STREAM(s);
    return do_memset(p, v, n);
}

/* ---- pitched memory, arrays and texture objects ------------------------------ */
/* Pitched rows start 512 bytes apart at least, the textureAlignment
   cudaGetDeviceProperties reports. */
#define PITCH_ALIGN 512
/* A cudaArray is pitch-linear device memory here (hardware's layout is
   opaque and tiled); its rows are padded to texturePitchAlignment. */
#define ARRAY_PITCH_ALIGN 32

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static cudaError_t copy_rows(char *dst, size_t dpitch, const char *src, size_t spitch,
                             size_t width, size_t height, int kind) {
    if (width > dpitch || width > spitch) return set_err(cudaErrorInvalidPitchValue);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = do_memcpy(dst + r * dpitch, src + r * spitch, width, kind);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

EXPORT cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height) {
    ENTER();
    if (!p || !pitch) return set_err(cudaErrorInvalidValue);
    size_t pt = round_up(width ? width : 1, PITCH_ALIGN);
    ws_devptr a = 0;
    ws_status s = ws_malloc(g.dev, pt * (height ? height : 1), &a);
    if (s != WS_OK) return mem_fail(s);
    *p = (void *)(uintptr_t)a;
    *pitch = pt;
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, int kind) {
    ENTER();
    return copy_rows(dst, dpitch, src, spitch, width, height, kind);
}
EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, int kind, cudaStream_t st) {
    CHECK_STREAM(st);
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

EXPORT cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t width, size_t height) {
    ENTER();
    if (width > pitch) return set_err(cudaErrorInvalidPitchValue);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = do_memset((char *)p + r * pitch, v, width);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

EXPORT ws_cuda_channel_desc cudaCreateChannelDesc(int x, int y, int z, int w, int f) {
    ws_cuda_channel_desc d = {x, y, z, w, f};
    return d;
}

/* CUDA's channel format as warpsim's; *norm: the kind itself reads as
   normalized floats (the (Un)signedNormalized{8,16}X{1,2,4} kinds). */
static cudaError_t channel_format(const ws_cuda_channel_desc *c, ws_tex_desc *t, int *norm) {
    *norm = 0;
    if (c->f >= 5 && c->f <= 16) {
        int k = (c->f - 5) % 6; /* 8X1 8X2 8X4 16X1 16X2 16X4 */
        t->channels = k % 3 == 0 ? 1 : k % 3 == 1 ? 2 : 4;
        t->bits = k < 3 ? 8 : 16;
        t->kind = c->f <= 10 ? WS_TEX_UNSIGNED : WS_TEX_SIGNED;
        *norm = 1;
        return cudaSuccess;
    }
    if (c->f < 0 || c->f > 2) {
        fprintf(stderr, "warpsim: channel format kind %d is not supported (signed, unsigned, float "
                        "and the 8/16-bit normalized kinds are)\n", c->f);
        return set_err(cudaErrorInvalidChannelDescriptor);
    }
    const int b[4] = {c->x, c->y, c->z, c->w};
    unsigned n = 0;
    while (n < 4 && b[n] > 0) n++;
    int ok = (n == 1 || n == 2 || n == 4) && (b[0] == 8 || b[0] == 16 || b[0] == 32) &&
             !(c->f == 2 && b[0] == 8);
    for (unsigned i = 0; i < 4; i++) ok &= i < n ? b[i] == b[0] : b[i] == 0;
    if (!ok) {
        fprintf(stderr, "warpsim: channel descriptor {%d,%d,%d,%d} kind %d: 1, 2 or 4 channels of "
                        "8, 16 or 32 bits (floats: 16 or 32) are supported\n", c->x, c->y, c->z,
                c->w, c->f);
        return set_err(cudaErrorInvalidChannelDescriptor);
    }
    t->channels = n;
    t->bits = (unsigned)b[0];
    t->kind = c->f == 0 ? WS_TEX_SIGNED : c->f == 1 ? WS_TEX_UNSIGNED : WS_TEX_FLOAT;
    return cudaSuccess;
}

static array_rec *find_array(const void *a) {
    for (array_rec *r = g.arrays; r; r = r->next)
        if (r == a) return r;
    return NULL;
}

/* cudaArray flags. */
enum { ARRAY_LAYERED = 1, ARRAY_SURFACE = 2, ARRAY_CUBEMAP = 4, ARRAY_GATHER = 8 };

/* width x height x depth texels (0: fewer dimensions; layered: depth
   counts the layers of a 1-D or 2-D array). */
static cudaError_t alloc_array(void **array, const ws_cuda_channel_desc *desc, size_t width, size_t height,
                               size_t depth, unsigned flags, const char *who) {
    if (!array || !desc || !width) return set_err(cudaErrorInvalidValue);
    if (flags & ~(unsigned)(ARRAY_LAYERED | ARRAY_SURFACE | ARRAY_GATHER | ARRAY_CUBEMAP)) {
        fprintf(stderr, "warpsim: %s: flags 0x%x: array kinds other than layered, cubemap, surface "
                        "load/store and texture gather are not supported\n", who, flags);
        return set_err(cudaErrorNotSupported);
    }
    /* cube maps: 6 square faces; layered: 6 per cube */
    if (flags & ARRAY_CUBEMAP && (width != height || !depth || depth % 6 || (!(flags & ARRAY_LAYERED) && depth != 6)))
        return set_err(cudaErrorInvalidValue);
    if ((flags & ARRAY_LAYERED) ? !depth : (depth && !height)) return set_err(cudaErrorInvalidValue);
    ws_tex_desc t;
    int norm;
    cudaError_t e = channel_format(desc, &t, &norm);
    if (e != cudaSuccess) return e;
    array_rec *r = calloc(1, sizeof *r);
    if (!r) return set_err(cudaErrorMemoryAllocation);
    r->desc = *desc;
    r->width = width;
    r->height = height;
    r->depth = depth;
    r->flags = flags;
    r->texel = t.channels * t.bits / 8;
    r->pitch = round_up(width * r->texel, ARRAY_PITCH_ALIGN);
    ws_status s = ws_malloc(g.dev, r->pitch * (height ? height : 1) * (depth ? depth : 1), &r->base);
    if (s != WS_OK) {
        free(r);
        return mem_fail(s);
    }
    r->next = g.arrays;
    g.arrays = r;
    *array = r;
    return cudaSuccess;
}

EXPORT cudaError_t cudaMallocArray(void **array, const ws_cuda_channel_desc *desc, size_t width,
                                   size_t height, unsigned flags) {
    ENTER();
    if (flags & ARRAY_LAYERED) return set_err(cudaErrorInvalidValue); /* cudaMalloc3DArray's */
    return alloc_array(array, desc, width, height, 0, flags, "cudaMallocArray");
}

EXPORT cudaError_t cudaMalloc3DArray(void **array, const ws_cuda_channel_desc *desc, ws_cuda_extent ext,
                                     unsigned flags) {
    ENTER();
    return alloc_array(array, desc, ext.width, ext.height, ext.depth, flags, "cudaMalloc3DArray");
}

/* A mipmapped array is its level 0's array (the same handle) with the
   other levels' arrays beside it: extents halved per level (at least 1;
   layers and cube faces stay). The level count is clamped to
   1 + floor(log2(largest extent)), as CUDA does. */
EXPORT cudaError_t cudaFreeArray(void *array);
EXPORT cudaError_t cudaMallocMipmappedArray(void **mm, const ws_cuda_channel_desc *desc, ws_cuda_extent ext,
                                            unsigned levels, unsigned flags) {
    ENTER();
    if (!levels) return set_err(cudaErrorInvalidValue);
    int h_layers = (flags & ARRAY_LAYERED) && !ext.height, d_layers = (flags & (ARRAY_LAYERED | ARRAY_CUBEMAP)) && !h_layers;
    size_t big = ext.width;
    if (!h_layers && ext.height > big) big = ext.height;
    if (!d_layers && ext.depth > big) big = ext.depth;
    unsigned most = 1;
    while (most < WS_TEX_MAX_LEVELS && big >> most) most++;
    if (levels > most) levels = most;
    cudaError_t e = alloc_array(mm, desc, ext.width, ext.height, ext.depth, flags, "cudaMallocMipmappedArray");
    if (e != cudaSuccess) return e;
    array_rec *r = *mm;
    r->mipmapped = 1;
    r->level[0] = r;
    for (unsigned k = 1; k < levels; k++) {
        size_t w = ext.width >> k ? ext.width >> k : 1;
        size_t h = ext.height && !h_layers ? (ext.height >> k ? ext.height >> k : 1) : ext.height;
        size_t dp = ext.depth && !d_layers ? (ext.depth >> k ? ext.depth >> k : 1) : ext.depth;
        void *lv = NULL;
        if ((e = alloc_array(&lv, desc, w, h, dp, flags, "cudaMallocMipmappedArray")) != cudaSuccess) {
            for (unsigned j = 1; j < k; j++) cudaFreeArray(r->level[j]);
            cudaFreeArray(r);
            return e;
        }
        r->level[k] = lv;
        r->mipmapped = k + 1;
    }
    return cudaSuccess;
}

static array_rec *find_mipmapped(const void *mm) {
    array_rec *r = find_array(mm);
    return r && r->mipmapped ? r : NULL;
}

EXPORT cudaError_t cudaGetMipmappedArrayLevel(void **level, const void *mm, unsigned lev) {
    ENTER();
    array_rec *r = find_mipmapped(mm);
    if (!level) return set_err(cudaErrorInvalidValue);
    if (!r) return set_err(cudaErrorInvalidResourceHandle);
    if (lev >= r->mipmapped) return set_err(cudaErrorInvalidValue);
    *level = r->level[lev];
    return cudaSuccess;
}

EXPORT cudaError_t cudaFreeMipmappedArray(void *mm) {
    ENTER();
    if (!mm) return cudaSuccess;
    array_rec *r = find_mipmapped(mm);
    if (!r) return set_err(cudaErrorInvalidResourceHandle);
    for (unsigned k = 1; k < r->mipmapped; k++) cudaFreeArray(r->level[k]);
    return cudaFreeArray(mm);
}

/* cudaMemcpy3DParms, cudaPos, cudaPitchedPtr as CUDA lays them out. */
typedef struct { size_t x, y, z; } ws_cuda_pos;
typedef struct { void *ptr; size_t pitch, xsize, ysize; } ws_cuda_pitched_ptr;
typedef struct {
    void *srcArray;
    ws_cuda_pos srcPos;
    ws_cuda_pitched_ptr srcPtr;
    void *dstArray;
    ws_cuda_pos dstPos;
    ws_cuda_pitched_ptr dstPtr;
    ws_cuda_extent extent;
    int kind;
} ws_cuda_memcpy3d_parms;

/* Where row (y, z) of a copy side starts; array positions and widths are in
   texels, pitched pointers' in bytes. NULL when the box does not fit the array. */
static char *copy_side(void *array, const ws_cuda_pos *pos, const ws_cuda_pitched_ptr *pp,
                       const ws_cuda_extent *ext, size_t y, size_t z, size_t *row_bytes) {
    if (array) {
        const array_rec *r = find_array(array);
        if (!r) return NULL;
        size_t rows = r->height ? r->height : 1, slices = r->depth ? r->depth : 1;
        size_t h = ext->height ? ext->height : 1, d = ext->depth ? ext->depth : 1;
        if (pos->x + ext->width > r->width || pos->y + h > rows || pos->z + d > slices) return NULL;
        *row_bytes = ext->width * r->texel;
        return (char *)(uintptr_t)(r->base + ((pos->z + z) * rows + pos->y + y) * r->pitch + pos->x * r->texel);
    }
    *row_bytes = ext->width;
    return (char *)pp->ptr + ((pos->z + z) * pp->ysize + pos->y + y) * pp->pitch + pos->x;
}

EXPORT cudaError_t cudaMemcpy3D(const ws_cuda_memcpy3d_parms *p) {
    ENTER();
    if (!p || (!p->srcArray && !p->srcPtr.ptr) || (!p->dstArray && !p->dstPtr.ptr))
        return set_err(cudaErrorInvalidValue);
    size_t h = p->extent.height ? p->extent.height : 1, d = p->extent.depth ? p->extent.depth : 1;
    for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < h; y++) {
            size_t sb = 0, db = 0;
            char *src = copy_side(p->srcArray, &p->srcPos, &p->srcPtr, &p->extent, y, z, &sb);
            char *dst = copy_side(p->dstArray, &p->dstPos, &p->dstPtr, &p->extent, y, z, &db);
            if (!src || !dst) return set_err(cudaErrorInvalidValue);
            /* an array side sets the width in texels; a pointer-only copy in bytes */
            size_t n = p->srcArray ? sb : db;
            cudaError_t e = do_memcpy(dst, src, n, p->kind);
            if (e != cudaSuccess) return e;
        }
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemcpy3DAsync(const ws_cuda_memcpy3d_parms *p, cudaStream_t st) {
    CHECK_STREAM(st);
    return cudaMemcpy3D(p);
}

/* The texture descriptor's extent of an array (layered: ws_tex_desc's
   convention, the last extent counts layers). */
static void array_extent(const array_rec *a, ws_tex_desc *t) {
    t->width = a->width;
    t->height = a->height;
    t->depth = a->depth;
    t->cubemap = (a->flags & ARRAY_CUBEMAP) != 0;
    if (a->flags & ARRAY_LAYERED) {
        t->layered = 1;
        if (!a->height) {
            t->height = a->depth;
            t->depth = 0;
        }
    }
}

EXPORT cudaError_t cudaFreeArray(void *array) {
    ENTER();
    if (!array) return cudaSuccess;
    for (array_rec **pr = &g.arrays; *pr; pr = &(*pr)->next)
        if (*pr == array) {
            array_rec *r = *pr;
            *pr = r->next;
            ws_free(g.dev, r->base);
            free(r);
            return cudaSuccess;
        }
    return set_err(cudaErrorInvalidResourceHandle);
}

EXPORT cudaError_t cudaGetChannelDesc(ws_cuda_channel_desc *desc, const void *array) {
    ENTER();
    const array_rec *r = find_array(array);
    if (!desc) return set_err(cudaErrorInvalidValue);
    if (!r) return set_err(cudaErrorInvalidResourceHandle);
    *desc = r->desc;
    return cudaSuccess;
}

EXPORT cudaError_t cudaArrayGetInfo(ws_cuda_channel_desc *desc, ws_cuda_extent *ext,
                                    unsigned *flags, void *array) {
    ENTER();
    const array_rec *r = find_array(array);
    if (!r) return set_err(cudaErrorInvalidResourceHandle);
    if (desc) *desc = r->desc;
    if (ext) {
        ext->width = r->width;
        ext->height = r->height;
        ext->depth = r->depth;
    }
    if (flags) *flags = r->flags;
    return cudaSuccess;
}

/* Address of byte wOffset of row hOffset of an array, after checking that
   width x height bytes from there lie inside it. */
static cudaError_t array_at(const void *array, size_t wOffset, size_t hOffset, size_t width,
                            size_t height, char **at) {
    const array_rec *r = find_array(array);
    if (!r) return set_err(cudaErrorInvalidResourceHandle);
    size_t rows = r->height ? r->height : 1, row = r->width * r->texel;
    if (wOffset > row || width > row - wOffset || hOffset > rows || height > rows - hOffset)
        return set_err(cudaErrorInvalidValue);
    *at = (char *)(uintptr_t)(r->base + hOffset * r->pitch + wOffset);
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemcpy2DToArray(void *dst, size_t wOffset, size_t hOffset, const void *src,
                                       size_t spitch, size_t width, size_t height, int kind) {
    ENTER();
    char *at;
    cudaError_t e = array_at(dst, wOffset, hOffset, width, height, &at);
    if (e != cudaSuccess) return e;
    return copy_rows(at, find_array(dst)->pitch, src, spitch, width, height, kind);
}

EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, const void *src, size_t wOffset,
                                         size_t hOffset, size_t width, size_t height, int kind) {
    ENTER();
    char *at;
    cudaError_t e = array_at(src, wOffset, hOffset, width, height, &at);
    if (e != cudaSuccess) return e;
    return copy_rows(dst, dpitch, at, find_array(src)->pitch, width, height, kind);
}

/* Deprecated, still exported: count bytes from (wOffset, hOffset) on, row after row. */
EXPORT cudaError_t cudaMemcpyToArray(void *dst, size_t wOffset, size_t hOffset, const void *src,
                                     size_t count, int kind) {
    ENTER();
    const array_rec *r = find_array(dst);
    if (!r) return set_err(cudaErrorInvalidResourceHandle);
    size_t row = r->width * r->texel;
    const char *s = src;
    while (count) {
        size_t n = wOffset < row ? row - wOffset : 0;
        if (n > count) n = count;
        char *at;
        cudaError_t e = array_at(dst, wOffset, hOffset, n, 1, &at);
        if (e != cudaSuccess) return e;
        if (!n) return set_err(cudaErrorInvalidValue);
        if ((e = do_memcpy(at, s, n, kind)) != cudaSuccess) return e;
        s += n;
        count -= n;
        wOffset = 0;
        hOffset++;
    }
    return cudaSuccess;
}

static tex_rec *find_tex(unsigned long long h, int surface) {
    for (tex_rec *t = g.texs; t; t = t->next)
        if (t->handle == h && t->surface == surface) return t;
    return NULL;
}

static cudaError_t add_tex_rec(const ws_tex_desc *t, const ws_cuda_resource_desc *rd,
                               const ws_cuda_texture_desc *td, unsigned long long *obj) {
    tex_rec *r = calloc(1, sizeof *r);
    if (!r) return set_err(cudaErrorMemoryAllocation);
    ws_texobj h = 0;
    ws_status s = ws_texture_create(g.dev, t, &h);
    if (s != WS_OK) {
        free(r);
        say(ws_device_last_error(g.dev));
        return set_err(s == WS_ERR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation : cudaErrorInvalidValue);
    }
    r->handle = h;
    r->res = *rd;
    if (td) r->tex = *td;
    r->surface = td == NULL;
    r->next = g.texs;
    g.texs = r;
    *obj = h;
    return cudaSuccess;
}

static cudaError_t remove_tex_rec(unsigned long long obj, int surface) {
    for (tex_rec **pt = &g.texs; *pt; pt = &(*pt)->next)
        if ((*pt)->handle == obj && (*pt)->surface == surface) {
            tex_rec *t = *pt;
            *pt = t->next;
            ws_texture_destroy(g.dev, obj);
            free(t);
            return cudaSuccess;
        }
    return set_err(cudaErrorInvalidValue);
}

/* A surface object is a handle of the device's texture object table over
   the array (suld/sust read its extent; the sampling state is unused). */
EXPORT cudaError_t cudaCreateSurfaceObject(unsigned long long *obj, const ws_cuda_resource_desc *rd) {
    ENTER();
    if (!obj || !rd) return set_err(cudaErrorInvalidValue);
    if (rd->resType != 0) { /* cudaResourceTypeArray only, as in CUDA */
        say("cudaCreateSurfaceObject: the resource must be a cudaArray");
        return set_err(cudaErrorInvalidValue);
    }
    const array_rec *a = find_array(rd->res.array.array);
    if (!a) return set_err(cudaErrorInvalidResourceHandle);
    if (!(a->flags & ARRAY_SURFACE)) {
        say("cudaCreateSurfaceObject: the array was not allocated with cudaArraySurfaceLoadStore");
        return set_err(cudaErrorInvalidValue);
    }
    ws_tex_desc t;
    memset(&t, 0, sizeof t);
    int norm = 0;
    cudaError_t e = channel_format(&a->desc, &t, &norm);
    if (e != cudaSuccess) return e;
    t.res = WS_TEX_RES_ARRAY;
    t.addr = a->base;
    array_extent(a, &t);
    t.pitch = a->pitch;
    t.read_normalized = norm; /* sust.p converts to the normalized kinds */
    return add_tex_rec(&t, rd, NULL, obj);
}

EXPORT cudaError_t cudaDestroySurfaceObject(unsigned long long obj) {
    ENTER();
    if (!obj) return cudaSuccess;
    return remove_tex_rec(obj, 1);
}

EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(ws_cuda_resource_desc *rd, unsigned long long obj) {
    ENTER();
    const tex_rec *t = find_tex(obj, 1);
    if (!rd || !t) return set_err(cudaErrorInvalidValue);
    *rd = t->res;
    return cudaSuccess;
}

EXPORT cudaError_t cudaCreateTextureObject(unsigned long long *obj, const ws_cuda_resource_desc *rd,
                                           const ws_cuda_texture_desc *td, const void *view) {
    ENTER();
    if (!obj || !rd || !td) return set_err(cudaErrorInvalidValue);
    if (view) {
        say("cudaCreateTextureObject: resource views are not supported");
        return set_err(cudaErrorNotSupported);
    }
    ws_tex_desc t;
    memset(&t, 0, sizeof t);
    int norm = 0;
    cudaError_t e = cudaSuccess;
    switch (rd->resType) {
    case 0: { /* cudaResourceTypeArray */
        const array_rec *a = find_array(rd->res.array.array);
        if (!a) return set_err(cudaErrorInvalidResourceHandle);
        e = channel_format(&a->desc, &t, &norm);
        t.res = WS_TEX_RES_ARRAY;
        t.addr = a->base;
        array_extent(a, &t);
        t.pitch = a->pitch;
        break;
    }
    case 2: /* cudaResourceTypeLinear */
        e = channel_format(&rd->res.linear.desc, &t, &norm);
        t.res = WS_TEX_RES_LINEAR;
        t.addr = (uintptr_t)rd->res.linear.devPtr;
        t.width = e == cudaSuccess ? rd->res.linear.sizeInBytes / (t.channels * t.bits / 8) : 0;
        break;
    case 3: /* cudaResourceTypePitch2D */
        e = channel_format(&rd->res.pitch2D.desc, &t, &norm);
        t.res = WS_TEX_RES_PITCH2D;
        t.addr = (uintptr_t)rd->res.pitch2D.devPtr;
        t.width = rd->res.pitch2D.width;
        t.height = rd->res.pitch2D.height;
        t.pitch = rd->res.pitch2D.pitchInBytes;
        break;
    case 1: { /* cudaResourceTypeMipmappedArray (cudaMallocMipmappedArray) */
        const array_rec *a = find_mipmapped(rd->res.mipmap.mipmap);
        if (!a) return set_err(cudaErrorInvalidResourceHandle);
        e = channel_format(&a->desc, &t, &norm);
        t.res = WS_TEX_RES_ARRAY;
        t.addr = a->base;
        array_extent(a, &t);
        t.pitch = a->pitch;
        t.levels = a->mipmapped;
        for (unsigned k = 0; k < a->mipmapped; k++) {
            t.level_addr[k] = a->level[k]->base;
            t.level_pitch[k] = a->level[k]->pitch;
        }
        if (td->mipmapFilterMode < 0 || td->mipmapFilterMode > 1) return set_err(cudaErrorInvalidValue);
        t.mip_filter = td->mipmapFilterMode ? WS_TEX_LINEAR : WS_TEX_POINT;
        t.lod_bias = td->mipmapLevelBias;
        t.min_lod = td->minMipmapLevelClamp;
        t.max_lod = td->maxMipmapLevelClamp;
        break;
    }
    default:
        return set_err(cudaErrorInvalidValue);
    }
    if (e != cudaSuccess) return e;
    if (rd->flags) return set_err(cudaErrorInvalidValue);
    if (td->sRGB) {
        say("cudaCreateTextureObject: sRGB conversion is not supported");
        return set_err(cudaErrorNotSupported);
    }
    for (int k = 0; k < 3; k++) {
        if (td->addressMode[k] < 0 || td->addressMode[k] > 3) return set_err(cudaErrorInvalidValue);
        t.address[k] = (ws_tex_address)td->addressMode[k]; /* same numbering */
    }
    if (td->filterMode < 0 || td->filterMode > 1 || td->readMode < 0 || td->readMode > 1)
        return set_err(cudaErrorInvalidValue);
    t.filter = td->filterMode ? WS_TEX_LINEAR : WS_TEX_POINT;
    t.read_normalized = norm || (td->readMode == 1 && t.kind != WS_TEX_FLOAT);
    t.normalized_coords = td->normalizedCoords != 0;
    memcpy(t.border, td->borderColor, sizeof t.border);
    return add_tex_rec(&t, rd, td, obj);
}

EXPORT cudaError_t cudaDestroyTextureObject(unsigned long long obj) {
    ENTER();
    if (!obj) return cudaSuccess;
    return remove_tex_rec(obj, 0);
}

EXPORT cudaError_t cudaGetTextureObjectResourceDesc(ws_cuda_resource_desc *rd, unsigned long long obj) {
    ENTER();
    const tex_rec *t = find_tex(obj, 0);
    if (!rd || !t) return set_err(cudaErrorInvalidValue);
    *rd = t->res;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGetTextureObjectTextureDesc(ws_cuda_texture_desc *td, unsigned long long obj) {
    ENTER();
    const tex_rec *t = find_tex(obj, 0);
    if (!td || !t) return set_err(cudaErrorInvalidValue);
    *td = t->tex;
    return cudaSuccess;
}

static var_rec *find_var(const void *sym) {
    for (var_rec *v = g.vars; v; v = v->next)
        if (v->host_var == sym) return v;
    return NULL;
}

/* Device address of [offset, offset+n) of a registered variable. */
static cudaError_t symbol_addr(const void *sym, size_t n, size_t offset, var_rec **out) {
    ENTER();
    var_rec *v = find_var(sym);
    if (!v) {
        say("symbol is not a registered __device__/__constant__ variable");
        return set_err(cudaErrorInvalidSymbol);
    }
    if (resolve_var(v) != 0) return set_err(cudaErrorInvalidSymbol);
    if (offset > v->size || n > v->size - offset) {
        fprintf(stderr, "warpsim: %zu bytes at offset %zu exceed symbol %s (%zu bytes)\n", n, offset,
                v->name, v->size);
        return set_err(cudaErrorInvalidValue);
    }
    *out = v;
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t offset,
                                      int kind) {
    var_rec *v;
    cudaError_t e = symbol_addr(sym, n, offset, &v);
    if (e != cudaSuccess) return e;
    if (v->managed_host) {
        memcpy((char *)v->managed_host + offset, src, n);
        return cudaSuccess;
    }
    return do_memcpy((void *)(uintptr_t)(v->dev + offset), src, n, kind == D2D ? D2D : DEFAULT);
}

EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t offset,
                                        int kind) {
    var_rec *v;
    cudaError_t e = symbol_addr(sym, n, offset, &v);
    if (e != cudaSuccess) return e;
    if (v->managed_host) {
        memcpy(dst, (char *)v->managed_host + offset, n);
        return cudaSuccess;
    }
    return do_memcpy(dst, (const void *)(uintptr_t)(v->dev + offset), n, kind == D2D ? D2D : DEFAULT);
}

EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n,
                                           size_t offset, int kind, cudaStream_t s) {
    CHECK_STREAM(s);
    return cudaMemcpyToSymbol(sym, src, n, offset, kind);
}

EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t offset,
                                             int kind, cudaStream_t s) {
    CHECK_STREAM(s);
    return cudaMemcpyFromSymbol(dst, sym, n, offset, kind);
}

EXPORT cudaError_t cudaGetSymbolAddress(void **p, const void *sym) {
    var_rec *v;
    cudaError_t e = symbol_addr(sym, 0, 0, &v);
    if (e != cudaSuccess) return e;
    *p = v->managed_host ? v->managed_host : (void *)(uintptr_t)v->dev;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *sym) {
    var_rec *v;
    cudaError_t e = symbol_addr(sym, 0, 0, &v);
    if (e != cudaSuccess) return e;
    *size = v->size;
    return cudaSuccess;
}

EXPORT cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total) {
    ENTER();
    ws_device_props p;
    ws_device_get_props(g.dev, &p);
    if (free_b) *free_b = p.total_global_mem;  /* allocations are not tracked per byte here */
    if (total) *total = p.total_global_mem;
    return cudaSuccess;
}

/* ---- device ------------------------------------------------------------------- */
EXPORT cudaError_t cudaGetDeviceCount(int *n) {
    if (!n) return set_err(cudaErrorInvalidValue);
    *n = dev() ? 1 : 0;
    return *n ? cudaSuccess : set_err(cudaErrorNoDevice);
}

EXPORT cudaError_t cudaGetDevice(int *d) {
    if (!d) return set_err(cudaErrorInvalidValue);
    *d = 0;
    return cudaSuccess;
}

EXPORT cudaError_t cudaSetDevice(int d) {
    if (d != 0) return set_err(cudaErrorInvalidDevice);
    ENTER();
    return cudaSuccess;
}

EXPORT cudaError_t cudaInitDevice(int d, unsigned df, unsigned f) { return cudaSetDevice(d); }
EXPORT cudaError_t cudaSetDeviceFlags(unsigned flags) { return cudaSuccess; }
EXPORT cudaError_t cudaGetDeviceFlags(unsigned *flags) {
    if (flags) *flags = 0;
    return cudaSuccess;
}

EXPORT cudaError_t cudaGetDeviceProperties(ws_cuda_device_prop *prop, int d) {
    if (!prop) return set_err(cudaErrorInvalidValue);
    if (d != 0) return set_err(cudaErrorInvalidDevice);
    if (!dev()) return set_err(cudaErrorInitializationError);
    ws_device_props p;
    ws_device_get_props(g.dev, &p);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "%s", p.name);
    memcpy(prop->uuid, "warpsim-device-0", 16);
    prop->totalGlobalMem = p.total_global_mem;
    prop->sharedMemPerBlock = p.shared_per_block;
    prop->regsPerBlock = p.regs_per_block;
    prop->warpSize = p.warp_size;
    prop->memPitch = 0x7fffffff;
    prop->maxThreadsPerBlock = p.max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        prop->maxThreadsDim[i] = p.max_block_dim[i];
        prop->maxGridSize[i] = p.max_grid_dim[i];
    }
    prop->totalConstMem = p.const_mem;
    prop->major = p.cc_major;
    prop->minor = p.cc_minor;
    prop->textureAlignment = 512;
    prop->texturePitchAlignment = 32;
    prop->multiProcessorCount = p.num_sms;
    prop->canMapHostMemory = 1;
    prop->surfaceAlignment = 512;
    prop->asyncEngineCount = 1;
    prop->unifiedAddressing = 1;
    prop->memoryBusWidth = p.mem_bus_width;
    prop->l2CacheSize = p.l2_size;
    prop->maxThreadsPerMultiProcessor = p.max_threads_per_sm;
    prop->globalL1CacheSupported = 1;
    prop->localL1CacheSupported = 1;
    prop->sharedMemPerMultiprocessor = p.shared_per_sm;
    prop->regsPerMultiprocessor = p.regs_per_sm;
    prop->managedMemory = 1;
    prop->sharedMemPerBlockOptin = p.shared_per_block;
    prop->maxBlocksPerMultiProcessor = p.max_blocks_per_sm;
    prop->cooperativeLaunch = 1;
    prop->clusterLaunch = 1;
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceGetAttribute(int *v, int attr, int d) {
    if (!v) return set_err(cudaErrorInvalidValue);
    if (d != 0) return set_err(cudaErrorInvalidDevice);
    if (!dev()) return set_err(cudaErrorInitializationError);
    ws_device_props p;
    ws_device_get_props(g.dev, &p);
    if (ws_shim_device_attr(&p, attr, v) != 0) {
        *v = 0;  /* unknown attribute: "not supported" is the safe answer */
    }
    return cudaSuccess;
}

/* One device: no peers; any wanted properties choose device 0. */
EXPORT cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int peer) {
    if (!can) return set_err(cudaErrorInvalidValue);
    if (d != 0 || peer != 0) return set_err(cudaErrorInvalidDevice);
    *can = 0;
    return cudaSuccess;
}
EXPORT cudaError_t cudaChooseDevice(int *d, const void *prop) {
    if (!d || !prop) return set_err(cudaErrorInvalidValue);
    *d = 0;
    return cudaSuccess;
}

EXPORT cudaError_t cudaDriverGetVersion(int *v) {
    if (!v) return set_err(cudaErrorInvalidValue);
    *v = 13000;
    return cudaSuccess;
}

EXPORT cudaError_t cudaRuntimeGetVersion(int *v) {
    if (!v) return set_err(cudaErrorInvalidValue);
    *v = 13000;
    return cudaSuccess;
}

EXPORT cudaError_t cudaDeviceSynchronize(void) {
    ws_shim_sync_output(g.dev); /* also after a fault: the output before it is shown */
    ENTER();
    return cudaSuccess;  /* work already ran at call time */
}
EXPORT cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

EXPORT cudaError_t cudaDeviceReset(void) {
    /* Frees everything; the next call opens a fresh device. Registered
       kernels and variables stay registered and reload on use. */
    for (managed_rec *m = g.managed, *n; m; m = n) {
        n = m->next;
        munmap((void *)(uintptr_t)m->user, m->map_size);
        free(m);
    }
    g.managed = NULL;
    for (fatbin_rec *fb = g.fatbins; fb; fb = fb->next) {
        fb->mod = NULL;
        fb->load_err = cudaSuccess;
    }
    for (func_rec *f = g.funcs; f; f = f->next) f->k = NULL;
    for (var_rec *v = g.vars; v; v = v->next) v->dev = 0;
    for (array_rec *a = g.arrays, *n; a; a = n) {
        n = a->next;
        free(a);
    }
    g.arrays = NULL;
    for (tex_rec *t = g.texs, *n; t; t = n) {
        n = t->next;
        free(t);
    }
    g.texs = NULL;
    /* streams and events belong to the device: their handles die with it */
    ws_handles_drop(&g.handles, WS_HANDLE_STREAM, NULL, free);
    ws_handles_drop(&g.handles, WS_HANDLE_EVENT, NULL, free);
    ws_device_destroy(g.dev);
    g.dev = NULL;
    g.dev_failed = 0;
    g.sticky = cudaSuccess;
    g.last_error = cudaSuccess;
    return cudaSuccess;
}
EXPORT cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }

EXPORT cudaError_t cudaDeviceSetCacheConfig(int c) { return cudaSuccess; }
EXPORT cudaError_t cudaDeviceGetCacheConfig(int *c) {
    if (c) *c = 0;
    return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceSetLimit(int limit, size_t v) {
    ENTER();
    return ws_shim_set_limit(g.dev, limit, v) == WS_OK ? cudaSuccess : set_err(cudaErrorInvalidValue);
}
EXPORT cudaError_t cudaDeviceGetLimit(size_t *v, int limit) {
    ENTER();
    if (v) *v = ws_shim_get_limit(g.dev, limit);
    return cudaSuccess;
}

/* ---- streams and events ---------------------------------------------------------- */
/* Handles are records registered in g.handles while alive: a destroyed or
   made-up handle is refused with cudaErrorInvalidResourceHandle, as CUDA does,
   instead of being dereferenced. */
EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) {
    return set_err(from_ws(ws_handles_create(&g.handles, s, WS_HANDLE_STREAM, flags)));
}
EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, 0); }
EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int prio) {
    return cudaStreamCreateWithFlags(s, flags);
}
/* The default streams (0, cudaStreamLegacy, cudaStreamPerThread) are not
   registered, so destroying one is refused too. */
EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s) {
    return ws_handles_destroy(&g.handles, s, WS_HANDLE_STREAM) ? cudaSuccess : bad_handle();
}
EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    CHECK_STREAM(s);
    return cudaDeviceSynchronize();
}
EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) { return cudaStreamSynchronize(s); }
EXPORT cudaError_t cudaStreamQuery(cudaStream_t s) {
    CHECK_STREAM(s);
    return g.sticky ? set_err(g.sticky) : cudaSuccess;  /* work ran at call time */
}
EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned f) {
    CHECK_STREAM(s);
    CHECK_EVENT(e);
    return g.sticky ? set_err(g.sticky) : cudaSuccess;
}

EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags) {
    CHECK_STREAM(s);
    if (!flags) return set_err(cudaErrorInvalidValue);
    *flags = (uintptr_t)s <= 2 ? 0 : ((ws_handle_rec *)s)->flags;
    return cudaSuccess;
}
/* Work runs at call time in call order, so priorities cannot matter: the
   range is CUDA's "no prioritisation" answer (0, 0) and every stream has 0. */
EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio) {
    CHECK_STREAM(s);
    if (!prio) return set_err(cudaErrorInvalidValue);
    *prio = 0;
    return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
    if (least) *least = 0;
    if (greatest) *greatest = 0;
    return cudaSuccess;
}
EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t s, int *d) {
    CHECK_STREAM(s);
    if (!d) return set_err(cudaErrorInvalidValue);
    *d = 0;
    return cudaSuccess;
}
/* The work before it has run already: the callback runs now, in order. */
EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t s, void (*fn)(void *), void *data) {
    CHECK_STREAM(s);
    if (!fn) return set_err(cudaErrorInvalidValue);
    if (g.sticky) return set_err(g.sticky);
    fn(data);
    return cudaSuccess;
}

/* Stream capture (CUDA graphs) is not simulated: no stream is ever capturing,
   which CUB and Thrust check before they allocate or synchronise. */
EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status) {
    CHECK_STREAM(s);
    if (!status) return set_err(cudaErrorInvalidValue);
    *status = 0;  /* cudaStreamCaptureStatusNone */
    return cudaSuccess;
}
EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status, unsigned long long *id,
                                            void **graph, const void **deps, const void **edges,
                                            size_t *ndeps) {
    CHECK_STREAM(s);
    if (!status) return set_err(cudaErrorInvalidValue);
    *status = 0;
    if (id) *id = 0;
    if (graph) *graph = NULL;
    if (deps) *deps = NULL;
    if (edges) *edges = NULL;
    if (ndeps) *ndeps = 0;
    return cudaSuccess;
}
EXPORT cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t s, int *status,
                                                 unsigned long long *id, void **graph,
                                                 const void **deps, const void **edges,
                                                 size_t *ndeps) {
    return cudaStreamGetCaptureInfo(s, status, id, graph, deps, edges, ndeps);
}
EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode) {
    static int current;  /* cudaStreamCaptureModeGlobal */
    if (!mode) return set_err(cudaErrorInvalidValue);
    int old = current;
    current = *mode;
    *mode = old;
    return cudaSuccess;
}

EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags) {
    return set_err(from_ws(ws_handles_create(&g.handles, e, WS_HANDLE_EVENT, flags)));
}
EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }
EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e) {
    return ws_handles_destroy(&g.handles, e, WS_HANDLE_EVENT) ? cudaSuccess : bad_handle();
}
EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
    CHECK_EVENT(e);
    CHECK_STREAM(s);
    ENTER();
    ws_handle_rec *r = e;
    r->t_ns = ws_device_time_ns(g.dev);  /* simulated time, not host time */
    r->recorded = 1;
    return cudaSuccess;
}
EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s) { return cudaEventRecord(e, s); }
EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned f) {
    return cudaEventRecord(e, s);
}
/* An event never recorded is complete (CUDA: "an empty set of work"). */
EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e) {
    CHECK_EVENT(e);
    return cudaDeviceSynchronize();
}
EXPORT cudaError_t cudaEventQuery(cudaEvent_t e) {
    CHECK_EVENT(e);
    return g.sticky ? set_err(g.sticky) : cudaSuccess;
}
/* CUDA's rules: either event never recorded, or created with
   cudaEventDisableTiming, gives cudaErrorInvalidResourceHandle. */
EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
    CHECK_EVENT(a);
    CHECK_EVENT(b);
    if (!ms) return set_err(cudaErrorInvalidValue);
    return ws_handles_elapsed(a, b, ms) == 0 ? cudaSuccess : bad_handle();
}
EXPORT cudaError_t cudaEventElapsedTime_v2(float *ms, cudaEvent_t a, cudaEvent_t b) {
    return cudaEventElapsedTime(ms, a, b);
}

/* ---- errors --------------------------------------------------------------------- */
EXPORT cudaError_t cudaGetLastError(void) {
    cudaError_t e = g.last_error;
    g.last_error = g.sticky;  /* sticky faults cannot be cleared */
    return e;
}

EXPORT cudaError_t cudaPeekAtLastError(void) { return g.last_error; }

static const struct { int code; const char *name, *text; } errs[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of (simulated) device memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError",
     "the simulated device could not be initialised"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid launch configuration (grid/block size or shared memory beyond device limits)"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidClusterSize, "cudaErrorInvalidClusterSize", "invalid cluster size"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidChannelDescriptor, "cudaErrorInvalidChannelDescriptor",
     "invalid channel descriptor"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration",
     "kernel launch without a launch configuration"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no simulated device is available"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no PTX for the kernel in the program (build with -gencode arch=compute_XX,code=compute_XX)"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "the embedded PTX could not be loaded"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "a kernel accessed an illegal memory address"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorAssert, "cudaErrorAssert", "a kernel trapped (device-side assert or trap)"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "a kernel made a misaligned memory access"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported by warpsim"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

EXPORT const char *cudaGetErrorName(cudaError_t e) {
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (errs[i].code == e) return errs[i].name;
    return "cudaErrorUnknown";
}

EXPORT const char *cudaGetErrorString(cudaError_t e) {
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++)
        if (errs[i].code == e) return errs[i].text;
    return "unrecognized error code";
}

/* ---- functions and occupancy ---------------------------------------------------- */
EXPORT cudaError_t cudaFuncGetAttributes(ws_cuda_func_attributes *a, const void *func) {
    ENTER();
    if (!a) return set_err(cudaErrorInvalidValue);
    ws_kernel *k;
    cudaError_t e = get_kernel(find_func(func), &k);
    if (e != cudaSuccess) return set_err(e);
    ws_kernel_attrs ka;
    ws_kernel_get_attrs(k, &ka);
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = ka.shared_bytes;
    a->constSizeBytes = ka.const_bytes;
    a->localSizeBytes = ka.local_bytes;
    a->maxThreadsPerBlock = ka.max_threads_per_block;
    a->numRegs = ka.num_regs;
    /* CUB picks its tuning policy by ptxVersion and fails with
       cudaErrorInvalidDeviceFunction when no policy was compiled for it */
    func_rec *f = find_func(func);
    a->ptxVersion = f->fb->arch ? (int)f->fb->arch : 75;
    ws_device_props p;  /* the PTX is "JIT-compiled" for the device */
    ws_device_get_props(g.dev, &p);
    a->binaryVersion = p.cc_major * 10 + p.cc_minor;
    a->maxDynamicSharedSizeBytes = (int)(48 * 1024 - ka.shared_bytes);
    a->preferredShmemCarveout = -1;
    return cudaSuccess;
}

EXPORT cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value) { return cudaSuccess; }
EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, int c) { return cudaSuccess; }
EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *func, int c) { return cudaSuccess; }

/* CTAs per SM, limited by threads, CTA slots, registers and shared memory. */
EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func,
                                                                          int block, size_t dyn,
                                                                          unsigned flags) {
    ENTER();
    if (!n || block <= 0) return set_err(cudaErrorInvalidValue);
    ws_kernel *k;
    cudaError_t e = get_kernel(find_func(func), &k);
    if (e != cudaSuccess) return set_err(e);
    ws_kernel_attrs ka;
    ws_device_props p;
    ws_kernel_get_attrs(k, &ka);
    ws_device_get_props(g.dev, &p);
    int warps = (block + 31) / 32;
    int by_threads = p.max_threads_per_sm / (warps * 32);
    int r = by_threads < p.max_blocks_per_sm ? by_threads : p.max_blocks_per_sm;
    if (ka.num_regs > 0) {
        /* without ptxas numbers num_regs counts the PTX's virtual registers,
           far above what ptxas allocates; launches are not refused for it,
           so neither is one resident CTA (callers divide by this count) */
        int by_regs = p.regs_per_sm / (ka.num_regs * warps * 32);
        if (by_regs < 1) by_regs = 1;
        if (by_regs < r) r = by_regs;
    }
    size_t smem = ka.shared_bytes + dyn;
    if (smem > 0) {
        int by_smem = (int)(p.shared_per_sm / smem);
        if (by_smem < r) r = by_smem;
    }
    *n = r > 0 ? r : 0;
    return cudaSuccess;
}

EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int block,
                                                                 size_t dyn) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, block, dyn, 0);
}

/* The timing model places a whole cluster on one SM (docs/timing.md): as many
   clusters as fit on an SM, on every SM. The shape comes from the
   configuration's attribute, else the kernel's __cluster_dims__. */
EXPORT cudaError_t cudaOccupancyMaxActiveClusters(int *n, const void *func, const launch_config_t *cfg) {
    ENTER();
    if (!n || !cfg) return set_err(cudaErrorInvalidValue);
    ws_kernel *k;
    cudaError_t e = get_kernel(find_func(func), &k);
    if (e != cudaSuccess) return set_err(e);
    dim3 c = config_cluster(cfg);
    if (!c.x) {
        ws_kernel_attrs ka;
        ws_kernel_get_attrs(k, &ka);
        c = (dim3){ka.cluster_dims[0], ka.cluster_dims[1], ka.cluster_dims[2]};
    }
    uint64_t size = (uint64_t)c.x * c.y * c.z;
    if (!size || size > WS_MAX_CLUSTER_SIZE) return set_err(cudaErrorInvalidClusterSize);
    int per_sm = 0;
    int block = (int)(cfg->blockDim.x * cfg->blockDim.y * cfg->blockDim.z);
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, block, cfg->dynamicSmemBytes);
    if (e != cudaSuccess) return e;
    ws_device_props p;
    ws_device_get_props(g.dev, &p);
    *n = (int)((uint64_t)per_sm / size * (uint64_t)p.num_sms);
    return cudaSuccess;
}
