/* Invalid stream, event and kernel handles through warpsim's libcudart.so.13,
 * from a plain C program with its own declarations (no CUDA headers; built by
 * tests/func/test_shim.c). A bogus handle, a destroyed one and one of the
 * wrong kind must each give cudaErrorInvalidResourceHandle (400), never
 * cudaSuccess or a crash; the default streams (0, cudaStreamLegacy,
 * cudaStreamPerThread) must keep working.
 * Usage: handles_host VECADD.ptx. Prints PASS on success. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int cudaError_t;
typedef void *cudaStream_t, *cudaEvent_t;
typedef struct { unsigned x, y, z; } dim3;

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, void *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, void *stream);
cudaError_t __cudaGetKernel(void **out, const void *hostFun);
cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t shmem,
                               cudaStream_t stream);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                             cudaStream_t stream);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, cudaStream_t s);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, int kind, cudaStream_t s);
cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t offset,
                                    int kind, cudaStream_t s);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t offset,
                                      int kind, cudaStream_t s);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s);
cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamGetPriority(cudaStream_t s, int *prio);
cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status);
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, int *status, unsigned long long *id,
                                     void **graph, const void **deps, const void **edges,
                                     size_t *ndeps);
cudaError_t cudaLaunchHostFunc(cudaStream_t s, void (*fn)(void *), void *data);
struct mem_location { int type, id; };
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, struct mem_location loc, unsigned flags,
                                 cudaStream_t s);
cudaError_t cudaGetKernel(void **k, const void *func);
cudaError_t cudaFuncGetName(const char **name, const void *func);
cudaError_t cudaDeviceGetDefaultMemPool(void **pool, int d);
cudaError_t cudaMallocFromPoolAsync(void **p, size_t n, void *pool, cudaStream_t s);
cudaError_t cudaMemPoolSetAttribute(void *pool, int attr, void *value);
cudaError_t cudaMemPoolGetAttribute(void *pool, int attr, void *value);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceReset(void);
const char *cudaGetErrorName(cudaError_t e);

enum { OK = 0, INVALID_VALUE = 1, INVALID_DEVICE_FUNCTION = 98, INVALID_HANDLE = 400 };
enum { H2D = 1, D2H = 2 };

static int failures;
static void expect(int line, const char *call, cudaError_t got, cudaError_t want) {
    if (got == want) return;
    printf("FAIL line %d: %s -> %d (%s), want %d\n", line, call, got, cudaGetErrorName(got), want);
    failures++;
}
#define CK(call, want) expect(__LINE__, #call, (call), (want))

/* nvcc's fat binary layout: 16-byte header, one 64-byte PTX entry header,
   the NUL-terminated PTX (uncompressed, as --no-compress writes it). */
struct fatbin {
    uint32_t magic;
    uint16_t version, header_size;
    uint64_t body_size;
    uint16_t kind, entry_version;
    uint32_t entry_header_size;
    uint64_t payload_size;
    uint32_t compressed_size, unused0;
    uint16_t ptx_minor, ptx_major;
    uint32_t arch, name_offset, name_size;
    uint64_t flags, unused1, decompressed_size;
    char ptx[];
};

static struct fatbin *fatbin_of(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    size_t padded = (n + 8) & ~(size_t)7;
    struct fatbin *fb = calloc(1, sizeof *fb + padded);
    if (!fb) return NULL;
    fb->magic = 0xBA55ED50u;
    fb->version = 1;
    fb->header_size = 16;
    fb->body_size = 64 + padded;
    fb->kind = 1;
    fb->entry_version = 0x101;
    fb->entry_header_size = 64;
    fb->payload_size = padded;
    fb->arch = 75;
    fb->flags = 0x11;
    memcpy(fb->ptx, text, n);
    return fb;
}

/* Host stubs whose addresses name the kernels, as nvcc's do. */
static void vecadd_stub(void) {}
static void unregistered_stub(void) {}
static int some_symbol;

static void count_call(void *n) { ++*(int *)n; }

/* Every stream-taking call with stream s must give `want`. */
static void stream_calls(cudaStream_t s, cudaError_t want, float *d, cudaEvent_t ev) {
    float host[4] = {1, 2, 3, 4};
    int n = 4;
    void *args[] = {&d, &d, &d, &n};
    dim3 one = {1, 1, 1}, four = {4, 1, 1};
    CK(cudaLaunchKernel((const void *)vecadd_stub, one, four, args, 0, s), want);
    /* the <<<>>> path: push, pop, launch through the kernel handle */
    void *k = NULL;
    CK(__cudaGetKernel(&k, (const void *)vecadd_stub), OK);
    CK((cudaError_t)__cudaPushCallConfiguration(one, four, 0, s), OK);
    dim3 g, b;
    size_t shmem;
    cudaStream_t popped = NULL;
    CK(__cudaPopCallConfiguration(&g, &b, &shmem, &popped), OK);
    CK(__cudaLaunchKernel(k, g, b, args, shmem, popped), want);
    CK(cudaStreamSynchronize(s), want);
    CK(cudaStreamQuery(s), want);
    CK(cudaStreamWaitEvent(s, ev, 0), want);
    CK(cudaEventRecord(ev, s), want);
    CK(cudaMemcpyAsync(d, host, sizeof host, H2D, s), want);
    CK(cudaMemcpyAsync(host, d, sizeof host, D2H, s), want);
    CK(cudaMemsetAsync(d, 0, sizeof host, s), want);
    CK(cudaMemcpy2DAsync(d, sizeof host, host, sizeof host, sizeof host, 1, H2D, s), want);
    CK(cudaMemcpyToSymbolAsync(&some_symbol, &n, sizeof n, 0, H2D, s), want);
    CK(cudaMemcpyFromSymbolAsync(&n, &some_symbol, sizeof n, 0, D2H, s), want);
    /* stream-ordered allocation, queries, capture state, host callbacks */
    void *p = NULL;
    CK(cudaMallocAsync(&p, 256, s), want);
    CK(cudaFreeAsync(p, s), want);
    unsigned flags = 7;
    int prio = 7, capturing = 7, calls = 0;
    unsigned long long id = 7;
    CK(cudaStreamGetFlags(s, &flags), want);
    CK(cudaStreamGetPriority(s, &prio), want);
    CK(cudaStreamIsCapturing(s, &capturing), want);
    CK(cudaStreamGetCaptureInfo(s, &capturing, &id, NULL, NULL, NULL, NULL), want);
    CK(cudaLaunchHostFunc(s, count_call, &calls), want);
    CK(cudaMemPrefetchAsync(d, sizeof host, (struct mem_location){1, 0}, 0, s), want);
    if (want == OK && (prio || capturing || id || calls != 1)) {
        printf("FAIL stream %p: priority %d, capturing %d, id %llu, host calls %d\n", s, prio,
               capturing, id, calls);
        failures++;
    }
}

/* Every event-taking call with event e must give `want`. */
static void event_calls(cudaEvent_t e, cudaError_t want, cudaEvent_t good) {
    float ms = -1;
    CK(cudaEventRecord(e, 0), want);
    CK(cudaEventSynchronize(e), want);
    CK(cudaEventQuery(e), want);
    CK(cudaEventElapsedTime(&ms, e, good), want);
    CK(cudaEventElapsedTime(&ms, good, e), want);
    CK(cudaStreamWaitEvent(0, e, 0), want);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    struct fatbin *fb = fatbin_of(argv[1]);
    if (!fb) return 2;
    struct { uint32_t magic, version; const void *data; void *unused; } wrapper = {
        0x466243b1u, 1, fb, NULL};
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, (const char *)vecadd_stub, "vecadd", "vecadd", -1, 0, 0, 0, 0, 0);
    __cudaRegisterVar(h, (char *)&some_symbol, "counter", "counter", 0, sizeof some_symbol, 0, 0);
    __cudaRegisterFatBinaryEnd(h);

    float *d = NULL;
    CK(cudaMalloc((void **)&d, 4 * sizeof(float)), OK);
    cudaStream_t s = NULL, dead = NULL;
    cudaEvent_t ev = NULL, ev2 = NULL, gone = NULL, notiming = NULL;
    CK(cudaStreamCreate(&s), OK);
    CK(cudaStreamCreate(&dead), OK);
    CK(cudaEventCreate(&ev), OK);
    CK(cudaEventCreate(&ev2), OK);
    CK(cudaEventCreate(&gone), OK);
    CK(cudaEventCreateWithFlags(&notiming, 2 /* cudaEventDisableTiming */), OK);

    /* valid: the default streams and a live one */
    stream_calls(NULL, OK, d, ev);
    stream_calls((cudaStream_t)0x1, OK, d, ev);  /* cudaStreamLegacy */
    stream_calls((cudaStream_t)0x2, OK, d, ev);  /* cudaStreamPerThread */
    stream_calls(s, OK, d, ev);

    /* a destroyed stream, a made-up one, and an event posing as a stream */
    CK(cudaStreamDestroy(dead), OK);
    stream_calls(dead, INVALID_HANDLE, d, ev);
    stream_calls((cudaStream_t)0x1234560, INVALID_HANDLE, d, ev);
    stream_calls(ev, INVALID_HANDLE, d, ev);
    CK(cudaGetLastError(), INVALID_HANDLE);  /* the error was recorded */
    CK(cudaGetLastError(), OK);
    CK(cudaStreamDestroy(dead), INVALID_HANDLE);     /* twice */
    CK(cudaStreamDestroy(NULL), INVALID_HANDLE);     /* the default streams */
    CK(cudaStreamDestroy((cudaStream_t)0x2), INVALID_HANDLE);
    CK(cudaStreamDestroy(ev), INVALID_HANDLE);

    /* events: live, destroyed, made-up, a stream posing as an event, null */
    float ms = -1;
    CK(cudaEventQuery(ev2), OK);                     /* never recorded: complete */
    CK(cudaEventSynchronize(ev2), OK);
    CK(cudaEventElapsedTime(&ms, ev, ev2), INVALID_HANDLE);  /* ev2 never recorded */
    CK(cudaEventRecord(ev2, s), OK);
    CK(cudaEventElapsedTime(&ms, ev, ev2), OK);
    CK(cudaEventElapsedTime(NULL, ev, ev2), INVALID_VALUE);
    CK(cudaEventRecord(notiming, 0), OK);
    CK(cudaEventElapsedTime(&ms, ev, notiming), INVALID_HANDLE);  /* cudaEventDisableTiming */
    event_calls(ev, OK, ev2);
    CK(cudaEventDestroy(gone), OK);
    event_calls(gone, INVALID_HANDLE, ev2);
    event_calls((cudaEvent_t)0x7654320, INVALID_HANDLE, ev2);
    event_calls(s, INVALID_HANDLE, ev2);
    event_calls(NULL, INVALID_HANDLE, ev2);
    CK(cudaEventDestroy(gone), INVALID_HANDLE);
    CK(cudaEventDestroy(NULL), INVALID_HANDLE);
    CK(cudaEventDestroy(s), INVALID_HANDLE);

    /* kernel handles: a made-up one on the <<<>>> path, an unknown host stub */
    int n = 4;
    void *args[] = {&d, &d, &d, &n};
    dim3 one = {1, 1, 1};
    CK(__cudaLaunchKernel((void *)0x4444440, one, one, args, 0, NULL), INVALID_HANDLE);
    CK(__cudaLaunchKernel(s, one, one, args, 0, NULL), INVALID_HANDLE);
    CK(cudaLaunchKernel((const void *)unregistered_stub, one, one, args, 0, NULL),
       INVALID_DEVICE_FUNCTION);

    /* the handle of cudaGetKernel names and launches the kernel */
    void *kh = NULL;
    const char *kname = NULL;
    CK(cudaGetKernel(&kh, (const void *)vecadd_stub), OK);
    CK(cudaFuncGetName(&kname, kh), OK);
    CK(cudaFuncGetName(&kname, (const void *)unregistered_stub), INVALID_DEVICE_FUNCTION);
    CK(cudaGetKernel(&kh, (const void *)unregistered_stub), INVALID_DEVICE_FUNCTION);
    if (!kname || strcmp(kname, "vecadd")) {
        printf("FAIL cudaFuncGetName: %s\n", kname ? kname : "(null)");
        failures++;
    }
    CK(cudaGetLastError(), INVALID_DEVICE_FUNCTION);

    /* stream flags; the default memory pool and its release threshold */
    cudaStream_t nb = NULL;
    unsigned flags = 0;
    CK(cudaStreamCreateWithFlags(&nb, 1 /* cudaStreamNonBlocking */), OK);
    CK(cudaStreamGetFlags(nb, &flags), OK);
    CK(cudaStreamDestroy(nb), OK);
    void *pool = NULL, *pp = NULL;
    unsigned long long thr = 1 << 20, got = 0;
    CK(cudaDeviceGetDefaultMemPool(&pool, 0), OK);
    CK(cudaMemPoolSetAttribute(pool, 4 /* cudaMemPoolAttrReleaseThreshold */, &thr), OK);
    CK(cudaMemPoolGetAttribute(pool, 4, &got), OK);
    CK(cudaMallocFromPoolAsync(&pp, 64, pool, s), OK);
    CK(cudaFreeAsync(pp, s), OK);
    CK(cudaMallocFromPoolAsync(&pp, 64, &pool, s), INVALID_VALUE);
    if (flags != 1 || got != thr) {
        printf("FAIL stream flags %u, pool threshold %llu\n", flags, got);
        failures++;
    }

    /* the kernel still runs on a live stream, and computes */
    float a[4] = {1, 2, 3, 4}, out[4] = {0};
    float *da = NULL, *dc = NULL;
    CK(cudaMalloc((void **)&da, sizeof a), OK);
    CK(cudaMalloc((void **)&dc, sizeof a), OK);
    CK(cudaMemcpyAsync(da, a, sizeof a, H2D, s), OK);
    void *vargs[] = {&da, &da, &dc, &n};
    dim3 four = {4, 1, 1};
    CK(cudaLaunchKernel((const void *)vecadd_stub, one, four, vargs, 0, s), OK);
    CK(cudaStreamSynchronize(s), OK);
    CK(cudaMemcpy(out, dc, sizeof out, D2H), OK);
    for (int i = 0; i < 4; i++)
        if (out[i] != 2 * a[i]) {
            printf("FAIL vecadd[%d] = %g, want %g\n", i, out[i], 2 * a[i]);
            failures++;
        }

    /* a device reset destroys every stream and event */
    CK(cudaDeviceReset(), OK);
    CK(cudaStreamSynchronize(s), INVALID_HANDLE);
    CK(cudaEventQuery(ev), INVALID_HANDLE);
    CK(cudaStreamSynchronize(NULL), OK);
    CK(cudaStreamCreate(&s), OK);
    CK(cudaStreamQuery(s), OK);
    CK(cudaStreamDestroy(s), OK);

    free(fb);
    printf(failures ? "%d failures\n" : "PASS\n", failures);
    return failures != 0;
}
