/* warpsim functional engine: device memory, loaded module images, CTAs and
 * warps, and warp-wide execution of the IR (see src/ptx/ir.h).
 *
 * The engine executes one warp instruction at a time for the warp's active
 * lanes (ws_warp_step) and reports what it did (ws_step) so that the timing
 * model can carry those facts through the pipeline without re-deriving them.
 * ws_exec_grid runs a whole grid functionally (no timing). */
#ifndef WARPSIM_EXEC_EXEC_H
#define WARPSIM_EXEC_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ptx/ir.h"
#include "warpsim/warpsim.h"

#define WS_WARP_SIZE 32

/* Address map. Global (device) memory is a bump-allocated heap starting
 * where GPGPU-Sim starts it, with allocations 256-byte aligned, so that DRAM
 * partition mapping sees the same addresses. The shared, local, const and
 * param state spaces appear in the 64-bit generic space through windows
 * (cvta adds/subtracts the window base). */
#define WS_GLOBAL_HEAP_BASE   0xC0000000ull
#define WS_ALLOC_ALIGN        256ull
#define WS_GENERIC_SHARED_BASE 0x00007E0000000000ull
#define WS_GENERIC_LOCAL_BASE  0x00007F0000000000ull
#define WS_GENERIC_CONST_BASE  0x00007D0000000000ull
#define WS_GENERIC_PARAM_BASE  0x00007C0000000000ull
#define WS_GENERIC_WINDOW_SIZE 0x0000000100000000ull /* 4 GiB each */

/* ---- global memory ---------------------------------------------------- */
typedef struct ws_gmem ws_gmem;
ws_gmem *ws_gmem_create(uint64_t capacity /* bytes, e.g. 1.5 GiB for GTX480 */);
void ws_gmem_destroy(ws_gmem *g);
/* Allocate (256-byte aligned bump allocation, never reused, like GPGPU-Sim).
 * Returns WS_OK or WS_ERR_OUT_OF_MEMORY. */
ws_status ws_gmem_alloc(ws_gmem *g, uint64_t size, uint64_t *addr);
/* Free an allocation by its base address; WS_ERR_INVALID_VALUE if p is not one. */
ws_status ws_gmem_free(ws_gmem *g, uint64_t p);
/* True when [addr, addr+size) lies inside one live allocation. */
bool ws_gmem_valid(const ws_gmem *g, uint64_t addr, uint64_t size);
/* Mapping granularity, as a GPU maps device memory in large pages: the heap
 * is cut into regions of `bytes` (a power of two from WS_ALLOC_ALIGN to
 * WS_MAP_GRANULARITY_MAX, aligned from the heap base); a region that holds
 * any byte of a live allocation is mapped, and kernel accesses anywhere in
 * it succeed (ws_gmem_mapped). 0 or 1: no regions, only allocations are
 * accessible (the default of a new ws_gmem). WS_ERR_INVALID_VALUE for other
 * sizes. Host copies stay exact (ws_gmem_valid). */
#define WS_MAP_GRANULARITY_MAX (1ull << 30)
ws_status ws_gmem_set_map_granularity(ws_gmem *g, uint64_t bytes);
/* True when every byte of [addr, addr+size) is in a mapped region. */
bool ws_gmem_mapped(const ws_gmem *g, uint64_t addr, uint64_t size);
/* Host pointer of a device address that ws_gmem_valid or ws_gmem_mapped
 * accepted. */
uint8_t *ws_gmem_host(ws_gmem *g, uint64_t addr);
/* The allocation an address outside allocations is nearest to: the one it
 * falls in (freed, or live when the access runs past its end), else the
 * nearest live one. index is its number (stable for the life of the ws_gmem);
 * false when no allocation is live or contains addr. */
typedef struct ws_gmem_near {
    uint64_t base, size;
    uint32_t index;
    bool live;
} ws_gmem_near;
bool ws_gmem_nearest(const ws_gmem *g, uint64_t addr, ws_gmem_near *out);
/* Host-side copies (checked: WS_ERR_ILLEGAL_ADDRESS when not valid). */
ws_status ws_gmem_write(ws_gmem *g, uint64_t addr, const void *src, uint64_t size);
ws_status ws_gmem_read(const ws_gmem *g, uint64_t addr, void *dst, uint64_t size);
ws_status ws_gmem_fill(ws_gmem *g, uint64_t addr, int byte, uint64_t size);

/* ---- memcheck (memcheck.c) ---------------------------------------------- */
/* Reports of kernel accesses outside every allocation, like compute-
 * sanitizer's: mode 1 reports and lets the access go ahead where memory is
 * mapped, mode 2 stops the kernel at the first. Reports and summaries go to
 * out. One per device; the launches point at it (ws_launch_desc). */
typedef struct ws_memcheck ws_memcheck;
#define WS_MEMCHECK_DESC 256 /* bytes of a site's description */
ws_memcheck *ws_memcheck_create(int mode, FILE *out);
void ws_memcheck_destroy(ws_memcheck *m);
int ws_memcheck_mode(const ws_memcheck *m); /* 0 for NULL */
FILE *ws_memcheck_out(const ws_memcheck *m);
/* Count one bad access at a site (function, pc, nearest allocation or
 * UINT32_MAX). A new site returns its description buffer (WS_MEMCHECK_DESC
 * bytes, for the summary) and is to be reported; a known one returns NULL. */
char *ws_memcheck_count(ws_memcheck *m, uint32_t func, uint32_t pc, uint32_t alloc);
/* End of a launch: each site with its count and "memcheck: N bad accesses
 * in kernel K" when there were any; returns N and starts afresh. */
uint64_t ws_memcheck_end_kernel(ws_memcheck *m, const char *kernel);
/* "memcheck: N bad accesses in K of L kernel launches" (end of the run). */
void ws_memcheck_summary(const ws_memcheck *m);

/* ---- a module placed on a device -------------------------------------- */
typedef struct ws_image {
    const ws_module *mod;
    uint64_t global_base;   /* device address of the module's .global image (0 if none) */
    uint64_t const_base;    /* device address holding the module's .const image, so
                               cudaMemcpyToSymbol works on constants too */
    uint8_t *const_mem;     /* host copy read by ld.const (refreshed from const_base
                               at each launch) */
    uint64_t *sym_addr;     /* per symbol: its address in its own state space
                               (global: device address; const: offset in const bank;
                               shared: offset in CTA shared memory; frame symbols:
                               offset in the function frame; kernel params: offset
                               in the param buffer) */
    uint32_t **zero_runs;   /* per function (kernels only, else NULL): the value registers a
                               warp zeroes at entry, as ws_entry_zero_runs gives them */
    uint32_t nzero_runs;    /* (the module's function count) */
    uint64_t stamp;         /* the gmem's count of images made when this one was: tells it from
                               an image at the address of a destroyed one (tables kept per image,
                               as the SM's decoded instructions) */
} ws_image;

/* The value registers of kernel f that a full warp must zero at entry, as runs:
   {n, first0, count0, ..., first(n-1), count(n-1)}; the others are written by every
   lane before anything reads them (regzero.c). Malloc'd; NULL: out of memory. */
uint32_t *ws_entry_zero_runs(const ws_func *f);

ws_status ws_image_create(ws_gmem *g, const ws_module *m, ws_image **out,
                          char *err, size_t errlen);
void ws_image_destroy(ws_image *img, ws_gmem *g);

/* ---- texture objects (exec_tex.c) -------------------------------------- */
/* Handles -> descriptors (ws_tex_desc of warpsim.h). Owned by the device;
 * launches see it read-only. Handles start at 1 and are never reused, so a
 * destroyed handle faults instead of reading another texture. */
#define WS_TEX_MAX_TAPS 8 /* texels one fetch reads: 2 x 2 x 2 for 3-D linear filtering */
typedef struct ws_tex_table ws_tex_table;
ws_tex_table *ws_tex_table_create(void);
void ws_tex_table_destroy(ws_tex_table *t);
/* Check desc (against live memory g) and add it. WS_ERR_INVALID_VALUE with
 * the reason in err for a bad descriptor. */
ws_status ws_tex_table_add(ws_tex_table *t, const ws_tex_desc *desc, const ws_gmem *g,
                           ws_texobj *out, char *err, size_t errlen);
ws_status ws_tex_table_remove(ws_tex_table *t, ws_texobj h);
const ws_tex_desc *ws_tex_table_get(const ws_tex_table *t, ws_texobj h); /* NULL: not live */

/* One texture fetch with tex's semantics. dims coordinates in coord[] as
 * 32-bit patterns: f32 coordinates, or s32 texel indices when is_int (no
 * filtering). out[] gets the four result words (f32 bits for float
 * results, else the integer values). The texel addresses read (border taps
 * read none) go to taps[] (WS_TEX_MAX_TAPS room), their count to *ntaps.
 * WS_ERR_ILLEGAL_ADDRESS with *bad = the texel address when a texel is not
 * in live memory (freed after the texture was created). */
/* Level k of a mipmapped texture as a one-level descriptor (k 0: d itself). */
ws_tex_desc ws_tex_level(const ws_tex_desc *d, unsigned k);
ws_status ws_tex_fetch(const ws_tex_desc *d, const ws_gmem *g, unsigned dims, int is_int,
                       const uint32_t coord[3], uint32_t out[4], uint64_t *taps, unsigned *ntaps,
                       uint64_t *bad);

/* ---- device-side printf (exec_builtin.c) -------------------------------- */
/* Text that vprintf and failed assertions produce, kept until the host
 * synchronises (CUDA prints it then: printf's to stdout, assertion messages
 * to stderr). Lines are in execution order: a call appends its active lanes'
 * text in lane order. Owned by the device; launches append to it. */
typedef struct ws_text { char *data; size_t len, cap; } ws_text;
typedef struct ws_printf_buf {
    ws_text out;       /* printf output: the kept text is out.data[start, out.len) */
    ws_text asserts;   /* assertion messages (not limited) */
    size_t limit;      /* bytes of printf output kept between flushes
                          (cudaLimitPrintfFifoSize) */
    uint64_t dropped;  /* printf calls whose output was overwritten (or alone too big) */
    /* Like CUDA's circular FIFO, a call that does not fit overwrites the
       oldest calls' output: the kept calls' lengths, oldest first, in a ring. */
    size_t start;
    size_t *recs, rec_head, nrecs, rec_cap;
} ws_printf_buf;
#define WS_PRINTF_DEFAULT_LIMIT (1u << 20) /* CUDA's default FIFO: 1 MiB */
/* Write the printf output to out and the assertion messages to stderr, say
 * there how many calls were dropped, and empty the buffer. */
void ws_printf_buf_flush(ws_printf_buf *b, FILE *out);
void ws_printf_buf_free(ws_printf_buf *b);

/* ---- device-side malloc / free (heap.c) --------------------------------- */
typedef struct ws_dev_heap ws_dev_heap;
#define WS_DEV_HEAP_DEFAULT_LIMIT (8ull << 20) /* CUDA's default cudaLimitMallocHeapSize */
ws_dev_heap *ws_dev_heap_create(uint64_t limit);
void ws_dev_heap_destroy(ws_dev_heap *h, ws_gmem *g); /* g: where its region was reserved */
/* WS_ERR_INVALID_VALUE once the heap is in use (its region is reserved). */
ws_status ws_dev_heap_set_limit(ws_dev_heap *h, uint64_t bytes);
uint64_t ws_dev_heap_limit(const ws_dev_heap *h);
/* A block of size bytes (16-byte aligned) or 0 when the heap is full. */
uint64_t ws_dev_heap_malloc(ws_dev_heap *h, ws_gmem *g, uint64_t size);
/* false when addr is not a block malloc returned (0 is fine). */
bool ws_dev_heap_free(ws_dev_heap *h, uint64_t addr);
/* Checkpoints (runtime/longrun.c): reserve the region as the first malloc
   does; its base (0: not reserved); its blocks as {offset, size, used}, and
   back (refused unless they tile the region from its start). */
ws_status ws_dev_heap_reserve(ws_dev_heap *h, ws_gmem *g);
uint64_t ws_dev_heap_base(const ws_dev_heap *h);
uint32_t ws_dev_heap_nblocks(const ws_dev_heap *h);
void ws_dev_heap_block(const ws_dev_heap *h, uint32_t i, uint64_t w[3]);
ws_status ws_dev_heap_set_blocks(ws_dev_heap *h, const uint64_t *w, uint32_t n);

/* ---- launches ---------------------------------------------------------- */
/* (The struct tag is ws_launch; the typedef is ws_launch_desc because the
   public API already has a function named ws_launch.) */
typedef struct ws_launch {
    ws_image *img;
    uint32_t func;           /* kernel index in img->mod->funcs */
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;     /* bytes of dynamic shared memory */
    const uint8_t *params;   /* param buffer, func->param_size bytes */
    ws_gmem *gmem;
    const ws_tex_table *tex; /* texture objects (NULL: none) */
    ws_printf_buf *printf_out; /* device-side printf / assert text (NULL: discarded) */
    uint32_t num_sms;        /* for %nsmid; CTAs get %smid from the dispatcher */
    uint64_t max_warp_insts; /* 0 = no cap */
    uint64_t hang_warp_insts; /* stop with a report after this many warp instructions without
                                 a memory write or a warp exit (a spin loop that can never end);
                                 0 = never */
    ws_memcheck *memcheck;   /* NULL: accesses outside allocations are not reported */
    ws_dev_heap *heap;       /* device-side malloc/free (NULL: malloc returns NULL) */
    struct ws_wlog *wlog;    /* the timing model's per-SM log: global stores and atomics are
                                deferred to the end of the core cycle (NULL: applied at once) */
    uint32_t cluster[3];     /* CTAs per thread-block cluster in x, y, z (sm_90); all 0: no
                                clusters (each CTA its own implicit cluster of one) */
    uint64_t grid_ws;        /* a cooperative launch's grid-sync workspace (%envreg2 its low,
                                %envreg1 its high word); 0: not a cooperative launch */
} ws_launch_desc;

/* Where and why a kernel failed. */
typedef struct ws_fault {
    ws_status code;
    char msg[640];  /* "kernel K: illegal address 0x... (global load of 4 bytes)
                       at CTA (x,y,z) thread (x,y,z) pc N (file:line)" */
} ws_fault;

typedef struct ws_exec_counts {
    uint64_t warp_insts;
    uint64_t thread_insts;      /* lanes active at issue (GPGPU-Sim's gpgpu_n_tot_thrd_icount) */
    uint64_t thread_insts_exec; /* lanes whose guard predicate held (GPGPU-Sim's gpu_sim_insn) */
    uint64_t mem_writes;        /* stores, reductions and atomics that changed memory: what the
                                   hang detector counts as progress */
} ws_exec_counts;

/* Run the whole grid functionally, CTA after CTA. Returns WS_OK or the fault. */
ws_status ws_exec_grid(const ws_launch_desc *l, ws_exec_counts *counts, ws_fault *fault);

/* A watcher of functional execution (grid.c): step sees every
 * executed warp instruction (addresses included) with the SM its CTA is
 * given (linear CTA index modulo num_sms); cta_done each finished CTA's
 * counts. Either may be NULL. */
struct ws_step;
typedef struct ws_exec_observer {
    void (*step)(void *ctx, uint32_t sm, const struct ws_step *st);
    void (*cta_done)(void *ctx, uint32_t sm, const ws_exec_counts *c);
    void *ctx;
} ws_exec_observer;
/* Run CTAs first_cta.. (linear order, x fastest) of the grid functionally,
 * shown to obs (NULL: none). No instruction cap. WS_OK or the fault. */
ws_status ws_exec_grid_observed(const ws_launch_desc *l, uint64_t first_cta,
                                const ws_exec_observer *obs, ws_exec_counts *counts,
                                ws_fault *fault);

/* ---- thread-block clusters (cluster.c) ----------------------------------- */
/* The CTAs of a cluster run together: they share a cluster barrier
 * (barrier.cluster) and read and write each other's shared memory
 * (mapa, ld/st/atom/red .shared::cluster). CTAs are numbered in dispatch
 * order: cluster after cluster (clusters in linear order, x fastest), and
 * inside a cluster by rank (%cluster_ctarank, x fastest); without clusters
 * this is the linear CTA order. */
typedef struct ws_cluster ws_cluster;
typedef struct ws_cta ws_cta;
/* CTAs per cluster of a launch (1 without clusters). */
uint32_t ws_launch_cluster_size(const ws_launch_desc *l);
/* The ctaid of the CTA numbered seq in dispatch order. */
void ws_launch_cta_of(const ws_launch_desc *l, uint64_t seq, uint32_t ctaid[3]);
/* A cluster (index: its linear number) whose CTAs are to join it; the caller
 * holds one reference until ws_cluster_release. NULL: out of memory. */
ws_cluster *ws_cluster_create(const ws_launch_desc *l, uint64_t index);
void ws_cluster_release(ws_cluster *cl);
/* CTA c becomes rank `rank` of cl (holding a reference until it is destroyed
 * or reset). Every CTA of a cluster joins before any of them runs. */
void ws_cluster_join(ws_cluster *cl, ws_cta *c, uint32_t rank);

/* Live and freed allocations in address order (checkpoints): 0..n-1. */
uint32_t ws_gmem_nallocs(const ws_gmem *g);
bool ws_gmem_alloc_info(const ws_gmem *g, uint32_t i, uint64_t *base, uint64_t *size, bool *live);

/* ---- deferred global writes (wlog.c) ------------------------------------ */
/* One SM's global-memory stores and atomics of one core cycle, kept in the
 * order it made them and applied after every SM has run the cycle (SMs in
 * id order), so that what a load sees does not depend on which SM ran
 * first: a load sees global memory as it was at the start of the cycle.
 * Atomics are applied then too (their old values reach their destination
 * registers at the commit, long before the reply releases the scoreboard).
 * writes (may be NULL) counts, like each CTA's mem_writes, the atomic
 * instructions that changed memory. */
typedef struct ws_wlog ws_wlog;
ws_wlog *ws_wlog_create(uint64_t *writes);
void ws_wlog_destroy(ws_wlog *l);
/* Apply the log in order and empty it. */
void ws_wlog_commit(ws_wlog *l);
bool ws_wlog_empty(const ws_wlog *l);

/* ---- per-CTA, per-warp stepping (used by the timing model) -------------- */
typedef struct ws_cta ws_cta;

ws_cta *ws_cta_create(const ws_launch_desc *l, const uint32_t ctaid[3], uint32_t smid);
void ws_cta_destroy(ws_cta *c);
unsigned ws_cta_num_warps(const ws_cta *c);

/* What one executed warp instruction did. */
typedef struct ws_step {
    const ws_inst *inst;    /* the instruction */
    uint32_t pc;            /* its index */
    uint32_t active;        /* lanes that executed it (after guard predicate) */
    uint32_t issued_mask;   /* lanes active in the warp before the guard */
    /* After WS_STEP_OK: when next_ok, the function and pc the warp executes next, as
       ws_warp_next answers now (its top SIMT entry is an instruction to execute, so
       settling would change nothing); else ask ws_warp_next */
    bool next_ok;
    uint32_t next_func, next_pc;
    /* Memory instructions: per-lane addresses (in the instruction's resolved
       state space) and access size in bytes per lane (vector width included). */
    uint8_t mem_space;      /* ws_space actually accessed (generic resolved) */
    uint8_t is_store, is_atomic;
    uint8_t wrote;          /* it changed memory (a store, or an atomic that changed a value) */
    uint32_t access_size;
    /* where the executing lanes' addresses are written: addr_own (ws_warp_step), or
       the caller's array of WS_WARP_SIZE (ws_warp_step_to: the timing model's
       instruction record, so that they need no copy); other lanes' entries untouched */
    uint64_t *addr;
    uint64_t addr_own[WS_WARP_SIZE];
    /* tex: every texel address the warp's fetches read, lane by lane (a
       lane's filter taps together; duplicates kept), for the texture cache */
    uint32_t ntex;
    uint64_t tex_addr[WS_WARP_SIZE * WS_TEX_MAX_TAPS];
} ws_step;

typedef enum {
    WS_STEP_OK = 0,       /* executed one instruction */
    WS_STEP_BARRIER,      /* the warp is waiting at a barrier (nothing executed) */
    WS_STEP_DONE,         /* the warp has exited (nothing executed) */
    WS_STEP_FAULT         /* *fault filled */
} ws_step_result;

ws_step_result ws_warp_step(ws_cta *c, unsigned warp, ws_step *out, ws_fault *fault);
/* The same, the lane addresses written to addr (WS_WARP_SIZE entries) instead of
   out->addr_own. */
ws_step_result ws_warp_step_to(ws_cta *c, unsigned warp, ws_step *out, uint64_t *addr,
                               ws_fault *fault);
/* The function and pc the warp executes next (finished SIMT paths popped,
 * finished calls returned first); false when the warp has exited. For the
 * timing model's fetch and control-hazard checks. */
bool ws_warp_next(ws_cta *c, unsigned warp, uint32_t *func, uint32_t *pc);
/* Next pc of a warp (for fetch), or -1 when done. */
int32_t ws_warp_pc(const ws_cta *c, unsigned warp);
bool ws_cta_done(const ws_cta *c);

/* Where stuck warps are, for hang and deadlock reports: distinct places
 * ("line 12 in the loop of lines 10-14", "barrier 0 at line 30", "exited")
 * with how many warps are at each. */
#define WS_WHERE_MAX 6
typedef struct ws_where_tally {
    char where[WS_WHERE_MAX][80];
    uint32_t count[WS_WHERE_MAX];
    uint32_t n, others; /* distinct places kept; warps at places beyond them */
} ws_where_tally;
void ws_where_add(ws_where_tally *t, const ws_cta *c, unsigned warp);
/* "48 warps at line 12 in the loop of lines 10-14; 2 warps exited" */
void ws_where_format(const ws_where_tally *t, char *buf, size_t n);
/* The message of a hang: `quiet` warp instructions ran without a memory
 * write or a warp exit; `hint` (may be "") follows that count. */
void ws_hang_message(const char *kernel, uint64_t quiet, const ws_where_tally *t,
                     const char *hint, ws_fault *fault);

#endif
