/* warpsim embedding API.
 *
 * A narrow C interface to a simulated GPU: open a device, allocate and copy
 * memory, load PTX modules, launch kernels, read statistics. The CUDA runtime
 * and driver shims (libcudart.so.13, libcuda.so.1) and the bundled workloads
 * are written on top of it; so can any other host program.
 *
 * Every call that can fail returns a ws_status; ws_device_last_error() gives
 * the human-readable reason of the last failure on that device. */
#ifndef WARPSIM_WARPSIM_H
#define WARPSIM_WARPSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ws_status {
    WS_OK = 0,
    WS_ERR_INVALID_VALUE,     /* bad argument (null pointer, zero-sized grid, ...) */
    WS_ERR_OUT_OF_MEMORY,     /* device memory exhausted */
    WS_ERR_INVALID_PTX,       /* the PTX did not parse or validate */
    WS_ERR_UNSUPPORTED,       /* PTX feature or instruction warpsim does not implement */
    WS_ERR_NOT_FOUND,         /* no such kernel / symbol */
    WS_ERR_INVALID_CONFIG,    /* launch configuration exceeds device limits */
    WS_ERR_ILLEGAL_ADDRESS,   /* kernel touched unallocated/freed/out-of-range memory */
    WS_ERR_MISALIGNED,        /* kernel made a misaligned access */
    WS_ERR_TRAP,              /* kernel executed trap / failed assertion */
    WS_ERR_DEADLOCK,          /* a barrier that can never complete, or a stalled pipeline */
    WS_ERR_LAUNCH_FAILURE,    /* other failure during a kernel */
    WS_ERR_CONFIG,            /* bad simulator configuration value */
    WS_ERR_IO,                /* file could not be read or written */
    WS_STATUS_COUNT
} ws_status;

const char *ws_status_name(ws_status s);  /* "WS_ERR_ILLEGAL_ADDRESS" */

typedef uint64_t ws_devptr;               /* a device (global, generic) address */

typedef struct ws_device ws_device;
typedef struct ws_module_handle ws_module_handle;
typedef struct ws_kernel ws_kernel;

/* Device options. Zero-initialise and set what you need; ws_device_options_init
 * fills the defaults. */
typedef struct ws_device_options {
    int functional_only;        /* 1: no timing model (fast); 0: cycle-level timing */
    const char *config_file;    /* GPGPU-Sim style config file, or NULL */
    const char *preset;         /* named preset (e.g. "gtx480"), or NULL for the default */
    const char *const *config_overrides; /* NULL-terminated "-option value" strings, or NULL */
    const char *overrides_source; /* names them in messages while the
                                     device is created ("--set"; NULL: "override") */
    FILE *report;               /* where per-kernel reports go (NULL: stdout) */
    int quiet;                  /* 1: no per-kernel report */
    const char *stats_dir;      /* if set, JSON stats are written there */
    uint64_t max_insn;          /* stop simulating once this many thread instructions
                                   (gpu_tot_sim_insn) have run, like GPGPU-Sim's
                                   -gpgpu_max_insn; later launches are skipped (0: no cap) */
    const char *dump_ptx_dir;   /* if set, every loaded module's PTX is written there as
                                   DIR/<module name>[.ptx], so that the line numbers of
                                   its errors can be looked up */
} ws_device_options;

void ws_device_options_init(ws_device_options *o);

ws_status ws_device_create(const ws_device_options *o, ws_device **out);
void ws_device_destroy(ws_device *d);
/* Reason of the most recent failure on this device ("" if none). */
const char *ws_device_last_error(const ws_device *d);

/* Device properties (what cudaGetDeviceProperties reports). */
typedef struct ws_device_props {
    char name[64];
    int cc_major, cc_minor;
    int num_sms;
    int warp_size;
    int max_threads_per_block, max_threads_per_sm;
    int max_block_dim[3], max_grid_dim[3];
    int regs_per_block, regs_per_sm;
    size_t shared_per_block, shared_per_sm, const_mem, total_global_mem;
    int clock_khz, mem_clock_khz, mem_bus_width;
    int l2_size;
    int max_blocks_per_sm;
} ws_device_props;
void ws_device_get_props(const ws_device *d, ws_device_props *p);

/* ---- memory ---- */
ws_status ws_malloc(ws_device *d, size_t size, ws_devptr *out);
ws_status ws_free(ws_device *d, ws_devptr p);
ws_status ws_memcpy_htod(ws_device *d, ws_devptr dst, const void *src, size_t n);
ws_status ws_memcpy_dtoh(ws_device *d, void *dst, ws_devptr src, size_t n);
ws_status ws_memcpy_dtod(ws_device *d, ws_devptr dst, ws_devptr src, size_t n);
ws_status ws_memset(ws_device *d, ws_devptr dst, int value, size_t n);
/* Is [p, p+n) inside one live allocation? (n = 0: is p inside one?) */
int ws_is_device_ptr(const ws_device *d, ws_devptr p, size_t n);

/* ---- modules and kernels ---- */
/* Load PTX text (NUL-terminated or len bytes). `name` is used in messages.
 * `ptxas_info` (may be NULL) is the text of `ptxas -v` for this PTX: it gives
 * per-kernel register counts used for occupancy. */
ws_status ws_module_load(ws_device *d, const char *ptx, size_t len, const char *name,
                         const char *ptxas_info, ws_module_handle **out);
ws_status ws_module_load_file(ws_device *d, const char *path, ws_module_handle **out);
void ws_module_unload(ws_device *d, ws_module_handle *m);
ws_status ws_module_get_kernel(ws_module_handle *m, const char *name, ws_kernel **out);
/* Address and size of a module-scope .global/.const variable. Const variables
 * are readable/writable through ws_memcpy_* at the returned address too. */
ws_status ws_module_get_global(ws_module_handle *m, const char *name, ws_devptr *addr,
                               size_t *size);

typedef struct ws_kernel_attrs {
    int num_regs;            /* ptxas registers per thread (or an estimate) */
    size_t shared_bytes;     /* static shared memory */
    size_t local_bytes;      /* per-thread local memory */
    size_t const_bytes;
    size_t param_bytes;
    int max_threads_per_block;
    int num_params;
    unsigned cluster_dims[3];  /* __cluster_dims__ (.reqnctapercluster); 0 when not given */
} ws_kernel_attrs;
void ws_kernel_get_attrs(const ws_kernel *k, ws_kernel_attrs *a);
const char *ws_kernel_name(const ws_kernel *k);
/* A kernel whose code (or a function it calls) has an instruction warpsim
 * does not implement loads but cannot be launched (WS_ERR_UNSUPPORTED): the
 * problem ("file:line:col: error: unsupported instruction '...' (line N)"),
 * or NULL when the kernel can run. */
const char *ws_kernel_unsupported(const ws_kernel *k);
/* Parameter layout, so a host can build a param buffer from void *args[]. */
int ws_kernel_num_params(const ws_kernel *k);
void ws_kernel_param_layout(const ws_kernel *k, int i, size_t *offset, size_t *size);

/* ---- texture objects ---- */
/* A texture object is a handle (what cudaTextureObject_t holds) to a
 * descriptor of texels in device memory: kernels pass it as a .u64 and read
 * through it with tex.1d/2d/3d. Texels are stored pitch-linear at `addr`:
 * texel (x, y, z) is at addr + z*pitch*height + y*pitch + x*texel_bytes.
 * The memory is not copied: the texture sees later writes to it. */
typedef uint64_t ws_texobj;

typedef enum ws_tex_res {
    WS_TEX_RES_LINEAR = 0,  /* 1-D linear memory (tex1Dfetch): width texels */
    WS_TEX_RES_PITCH2D,     /* 2-D pitched linear memory: width x height, pitch */
    WS_TEX_RES_ARRAY        /* a 1-D, 2-D or 3-D array (height/depth 0 = fewer dims) */
} ws_tex_res;
typedef enum ws_tex_kind { WS_TEX_SIGNED = 0, WS_TEX_UNSIGNED, WS_TEX_FLOAT } ws_tex_kind;
typedef enum ws_tex_address {
    WS_TEX_WRAP = 0, WS_TEX_CLAMP, WS_TEX_MIRROR, WS_TEX_BORDER
} ws_tex_address;             /* wrap and mirror need normalized coordinates (else: clamp) */
typedef enum ws_tex_filter { WS_TEX_POINT = 0, WS_TEX_LINEAR } ws_tex_filter;

typedef struct ws_tex_desc {
    ws_tex_res res;
    ws_devptr addr;           /* texel (0,0,0); aligned to the texel size */
    unsigned channels;        /* 1, 2 or 4 */
    unsigned bits;            /* per channel: 8, 16 or 32 (16-bit float = half) */
    ws_tex_kind kind;
    size_t width, height, depth; /* texels; height/depth 0 for fewer dimensions */
    size_t pitch;             /* bytes from one row to the next (0: width * texel bytes) */
    ws_tex_address address[3];
    ws_tex_filter filter;     /* linear needs a float result (float texels or read_normalized) */
    int normalized_coords;    /* coordinates in [0, 1) instead of [0, N) */
    int read_normalized;      /* 8/16-bit integers read as floats in [0, 1] / [-1, 1] */
    float border[4];          /* WS_TEX_BORDER: the value outside the texture */
    int layered;              /* an array of layers (tex.a1d / tex.a2d): the last extent
                                 (height of a 1-D, depth of a 2-D array) counts layers */
    int cubemap;              /* a cube map (tex.cube): a width x width array of 6 faces
                                 (depth 6) in the order +x, -x, +y, -y, +z, -z; with layered,
                                 6 faces per cube (depth 6 x cubes, tex.acube) */
    /* Mipmaps (tex.level, tex.grad): levels 0 or 1 is one level (addr). Level
       k (k >= 1) has its texels at level_addr[k], rows level_pitch[k] apart
       (0: packed), and each extent halved k times (at least 1; layer counts
       and cube faces stay). mip_filter picks the nearest level or blends
       the two around the level of detail, which is biased by lod_bias and
       clamped to [min_lod, max_lod] and the levels there are (as CUDA's
       mipmap clamps: max_lod 0 reads level 0). Plain tex reads level 0. */
#define WS_TEX_MAX_LEVELS 16
    unsigned levels;
    ws_devptr level_addr[WS_TEX_MAX_LEVELS];
    size_t level_pitch[WS_TEX_MAX_LEVELS];
    ws_tex_filter mip_filter;
    float lod_bias, min_lod, max_lod;
} ws_tex_desc;

/* Create a texture object over existing device memory (the whole extent
 * must lie in one live allocation). WS_ERR_INVALID_VALUE with the reason
 * in ws_device_last_error for a bad descriptor. */
ws_status ws_texture_create(ws_device *d, const ws_tex_desc *desc, ws_texobj *out);
ws_status ws_texture_destroy(ws_device *d, ws_texobj t);
ws_status ws_texture_get_desc(const ws_device *d, ws_texobj t, ws_tex_desc *out);

/* ---- launching ---- */
typedef struct ws_dim3 { uint32_t x, y, z; } ws_dim3;

/* Launch a kernel and run it to completion. `args` follows cudaLaunchKernel:
 * args[i] points to the value of parameter i. On failure (illegal address,
 * barrier deadlock, trap, ...) the status says which and the message names
 * the kernel, CTA, thread, PC and address where that applies. */
ws_status ws_launch(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                    size_t dyn_shared, void **args);
/* Same with a ready-made parameter buffer of the kernel's param size. */
ws_status ws_launch_packed(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block,
                           size_t dyn_shared, const void *params, size_t params_size);
/* Thread-block clusters (sm_90): the same with `cluster` CTAs per cluster in
 * x, y, z (cudaLaunchAttributeClusterDimension); all 0 takes the kernel's
 * __cluster_dims__ (.reqnctapercluster) or none. The grid must be a whole
 * number of clusters of at most WS_MAX_CLUSTER_SIZE CTAs. ws_launch and
 * ws_launch_packed are these with cluster (0,0,0). */
#define WS_MAX_CLUSTER_SIZE 8
/* A cooperative launch (cudaLaunchCooperativeKernel): every CTA of the grid
 * is resident at once, so cooperative groups' grid sync works (its
 * workspace is in %envreg1/2). The timing model refuses a grid that does
 * not fit on the GPU at once. */
ws_status ws_launch_cooperative(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, size_t dyn_shared,
                                void **args);
ws_status ws_launch_cluster(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster,
                            size_t dyn_shared, void **args);
ws_status ws_launch_packed_cluster(ws_device *d, ws_kernel *k, ws_dim3 grid, ws_dim3 block, ws_dim3 cluster,
                                   size_t dyn_shared, const void *params, size_t params_size);

/* ---- device-side printf and assert ---- */
/* What kernels print (printf, failed assert) stays in the device until the
 * host synchronises, as in CUDA: ws_device_print_output writes it to `out`
 * (CUDA: stdout), says on stderr when the buffer overflowed, and empties it.
 * ws_device_destroy writes what is left to stdout. */
void ws_device_print_output(ws_device *d, FILE *out);
/* Bytes of printf output kept between two flushes (cudaLimitPrintfFifoSize;
 * default 1 MiB); output beyond it is dropped and counted. */
ws_status ws_device_set_printf_limit(ws_device *d, size_t bytes);
size_t ws_device_printf_limit(const ws_device *d);
/* Bytes of the heap behind device-side malloc (cudaLimitMallocHeapSize;
   8 MiB by default). Settable until a kernel first calls malloc
   (WS_ERR_INVALID_VALUE after). */
ws_status ws_device_set_malloc_heap_limit(ws_device *d, size_t bytes);
size_t ws_device_malloc_heap_limit(const ws_device *d);

/* ---- time and statistics ---- */
/* Simulated time so far in core cycles (functional mode: 0 cycles, counts only). */
uint64_t ws_device_cycles(const ws_device *d);
/* Simulated time in nanoseconds at the modelled core clock. */
double ws_device_time_ns(const ws_device *d);

typedef struct ws_run_totals {
    uint64_t kernels;
    uint64_t warp_insts;     /* warp instructions executed */
    uint64_t thread_insts;   /* thread instructions: lanes active at issue */
    uint64_t cycles;         /* simulated core cycles (timing mode) */
    uint64_t thread_insts_exec; /* lanes whose guard predicate held (GPGPU-Sim's gpu_sim_insn) */
    int capped;              /* a cap stopped the run: results are incomplete */
    uint64_t skipped_launches; /* launches after the cap, not simulated */
    uint64_t failed_launches; /* launches that returned an error (fault, bad configuration) */
    uint64_t io_errors;      /* output files (stats.json, config.txt, timeseries.csv) that
                                could not be written */
    int capped_by_cycles;    /* that cap was -gpgpu_max_cycle (else the instruction cap) */
} ws_run_totals;
void ws_device_totals(const ws_device *d, ws_run_totals *t);
/* The message of the first failed launch ("" if none). */
const char *ws_device_first_failure(const ws_device *d);
/* Flush the output files (the time series) and report whether every write
 * of this device's outputs succeeded: WS_OK, or WS_ERR_IO with the first
 * failure in ws_device_last_error. Call it before deciding a run's exit
 * status; ws_device_destroy flushes and closes them too. */
ws_status ws_device_flush(ws_device *d);

#ifdef __cplusplus
}
#endif
#endif
