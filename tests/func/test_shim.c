/* Shim tests: the driver-API shim with a plain C host program (cc only), the
 * cudaDeviceProp layout against CUDA's header (when installed), and the
 * reference apps built with nvcc under the runtime shim (when nvcc exists). */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/cudart_types.h"
#include "test.h"

/* Run a shell command; returns its exit status and its output (malloc'd). */
static int run_cmd(const char *cmd, char **out) {
    FILE *p = popen(cmd, "r");
    if (!p) { *out = NULL; return -1; }
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += r;
        if (cap - n < 1024) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) { free(buf); buf = NULL; }
            buf = nb;
        }
    }
    if (buf) buf[n] = '\0';
    int st = pclose(p);
    *out = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *build_dir(void) {
    const char *b = getenv("WARPSIM_BUILD");
    return b ? b : "build";
}

static int exists(const char *p) { struct stat st; return stat(p, &st) == 0; }

/* Environment for a program run under the shims (tolerant of an ASan-built
   shim loaded into an uninstrumented program). */
/* Functional mode keeps these fast; shim_timing_mode covers the timing path. */
#define SHIM_ENV "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 WARPSIM_QUIET=1 WARPSIM_FUNCTIONAL=1 "

TEST(shim_driver_api_program) {
    char lib[1024], cmd[4096], *out = NULL;
    snprintf(lib, sizeof lib, "%s/lib/libcuda.so.1", build_dir());
    if (!exists(lib)) {
        CHECK_MSG(0, "%s is missing (run make)", lib);
        return;
    }
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -O1 -o %s/driver_host %s/tests/data/driver/driver_host.c %s 2>&1 && "
             SHIM_ENV "LD_LIBRARY_PATH=%s/lib %s/driver_host %s/tests/data/driver/vecadd.ptx 2>&1",
             build_dir(), ws_test_root(), lib, build_dir(), build_dir(), ws_test_root());
    int rc = run_cmd(cmd, &out);
    CHECK_MSG(rc == 0, "driver host exited %d: %s", rc, out ? out : "");
    CHECK_STR_CONTAINS(out, "PASS");
    free(out);
}

/* Builds tests/data/SRC (a plain C host program with its own declarations)
   with cc against the shim library LIB of the build and runs it on the
   vecadd PTX; returns its exit status and output. */
static int run_host_program(const char *src, const char *lib, char **out) {
    char cmd[4096], bin[1024];
    const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    snprintf(bin, sizeof bin, "%s/%.*s", build_dir(), (int)(strlen(base) - 2), base);
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -O1 -o %s %s/tests/data/%s %s/lib/%s 2>&1 && " SHIM_ENV
             "LD_LIBRARY_PATH=%s/lib %s %s/tests/data/driver/vecadd.ptx 2>&1",
             bin, ws_test_root(), src, build_dir(), lib, build_dir(), bin, ws_test_root());
    return run_cmd(cmd, out);
}

/* Destroyed, made-up and wrong-kind handles give the invalid-handle error
   (400) from every call that takes one: streams, events and kernels in the
   runtime API (launches on both paths, async copies and sets, stream and
   event calls), and CUmodule, CUfunction, CUstream and CUevent in the driver
   API. */
TEST(shim_invalid_handles) {
    static const char *const progs[][2] = {{"cudart/handles_host.c", "libcudart.so.13"},
                                           {"driver/handles_driver.c", "libcuda.so.1"}};
    for (size_t i = 0; i < 2; i++) {
        char *out = NULL;
        int rc = run_host_program(progs[i][0], progs[i][1], &out);
        CHECK_MSG(rc == 0 && out && strstr(out, "PASS"), "%s exited %d: %s", progs[i][0], rc,
                  out ? out : "");
        free(out);
    }
}

/* Our cudaDeviceProp / cudaFuncAttributes and the texture structs of the
   runtime and driver APIs must match CUDA 13's layout. */
#define PROP_FIELDS(X)                                                         \
    X(name) X(uuid) X(luid) X(totalGlobalMem) X(sharedMemPerBlock) X(regsPerBlock) \
    X(warpSize) X(maxThreadsPerBlock) X(maxThreadsDim) X(maxGridSize)          \
    X(totalConstMem) X(major) X(minor) X(multiProcessorCount)                  \
    X(maxTextureCubemapLayered) X(surfaceAlignment) X(memoryBusWidth)          \
    X(l2CacheSize) X(maxThreadsPerMultiProcessor) X(sharedMemPerMultiprocessor) \
    X(regsPerMultiprocessor) X(managedMemory) X(sharedMemPerBlockOptin)        \
    X(maxBlocksPerMultiProcessor) X(reservedSharedMemPerBlock)                 \
    X(hostNumaMultinodeIpcSupported) X(reserved)
#define FUNC_FIELDS(X)                                                         \
    X(sharedSizeBytes) X(localSizeBytes) X(maxThreadsPerBlock) X(numRegs)      \
    X(maxDynamicSharedSizeBytes) X(nonPortableClusterSizeAllowed) X(reserved)
#define CHAN_FIELDS(X) X(x) X(y) X(z) X(w) X(f)
#define RES_FIELDS(X)                                                          \
    X(resType) X(res.array.array) X(res.linear.devPtr) X(res.linear.desc)      \
    X(res.linear.sizeInBytes) X(res.pitch2D.desc) X(res.pitch2D.width)         \
    X(res.pitch2D.height) X(res.pitch2D.pitchInBytes) X(flags)
#define TEXD_FIELDS(X)                                                         \
    X(addressMode) X(filterMode) X(readMode) X(sRGB) X(borderColor)            \
    X(normalizedCoords) X(maxAnisotropy) X(mipmapFilterMode)                   \
    X(maxMipmapLevelClamp) X(seamlessCubemap)
#define CURES_FIELDS(X)                                                        \
    X(resType) X(res.linear.devPtr) X(res.linear.format) X(res.linear.numChannels) \
    X(res.linear.sizeInBytes) X(res.pitch2D.width) X(res.pitch2D.pitchInBytes) X(flags)
#define CUTEX_FIELDS(X)                                                        \
    X(addressMode) X(filterMode) X(flags) X(maxAnisotropy) X(mipmapFilterMode) \
    X(maxMipmapLevelClamp) X(borderColor) X(reserved)

TEST(shim_cuda_struct_layout) {
    const char *hdr = "/usr/local/cuda/include/driver_types.h";
    if (!exists(hdr)) {
        printf("    skipped: %s not found\n", hdr);
        return;
    }
    char src[1024], bin[1024], cmd[4096], *out = NULL;
    snprintf(src, sizeof src, "%s/layout_probe.c", build_dir());
    snprintf(bin, sizeof bin, "%s/layout_probe", build_dir());
    FILE *f = fopen(src, "w");
    if (!f) { CHECK(0); return; }
    fprintf(f, "#include <stdio.h>\n#include <stddef.h>\n#include <driver_types.h>\n"
               "#include <texture_types.h>\n#include <cuda.h>\nint main(void){\n");
    fprintf(f, "printf(\"%%zu \", sizeof(struct cudaDeviceProp));\n");
#define P(fl) fprintf(f, "printf(\"%%zu \", offsetof(struct cudaDeviceProp, " #fl "));\n");
    PROP_FIELDS(P)
#undef P
    fprintf(f, "printf(\"%%zu \", sizeof(struct cudaFuncAttributes));\n");
#define P(fl) fprintf(f, "printf(\"%%zu \", offsetof(struct cudaFuncAttributes, " #fl "));\n");
    FUNC_FIELDS(P)
#undef P
    fprintf(f, "printf(\"%%zu \", sizeof(struct cudaChannelFormatDesc));\n");
#define P(fl) fprintf(f, "printf(\"%%zu \", offsetof(struct cudaChannelFormatDesc, " #fl "));\n");
    CHAN_FIELDS(P)
#undef P
    fprintf(f, "printf(\"%%zu \", sizeof(struct cudaResourceDesc));\n");
#define P(fl) fprintf(f, "printf(\"%%zu \", offsetof(struct cudaResourceDesc, " #fl "));\n");
    RES_FIELDS(P)
#undef P
    fprintf(f, "printf(\"%%zu \", sizeof(struct cudaTextureDesc));\n");
#define P(fl) fprintf(f, "printf(\"%%zu \", offsetof(struct cudaTextureDesc, " #fl "));\n");
    TEXD_FIELDS(P)
#undef P
    fprintf(f, "printf(\"%%zu \", sizeof(CUDA_RESOURCE_DESC));\n");
#define P(fl) fprintf(f, "printf(\"%%zu \", offsetof(CUDA_RESOURCE_DESC, " #fl "));\n");
    CURES_FIELDS(P)
#undef P
    fprintf(f, "printf(\"%%zu \", sizeof(CUDA_TEXTURE_DESC));\n");
#define P(fl) fprintf(f, "printf(\"%%zu \", offsetof(CUDA_TEXTURE_DESC, " #fl "));\n");
    CUTEX_FIELDS(P)
#undef P
    fprintf(f, "return 0;}\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -I/usr/local/cuda/include -o %s %s 2>&1 && %s", bin, src, bin);
    int rc = run_cmd(cmd, &out);
    CHECK_MSG(rc == 0, "layout probe failed: %s", out ? out : "");
    char mine[4096];
    size_t n = 0;
    n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", sizeof(ws_cuda_device_prop));
#define P(fl) n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", offsetof(ws_cuda_device_prop, fl));
    PROP_FIELDS(P)
#undef P
    n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", sizeof(ws_cuda_func_attributes));
#define P(fl) n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", offsetof(ws_cuda_func_attributes, fl));
    FUNC_FIELDS(P)
#undef P
    n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", sizeof(ws_cuda_channel_desc));
#define P(fl) n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", offsetof(ws_cuda_channel_desc, fl));
    CHAN_FIELDS(P)
#undef P
    n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", sizeof(ws_cuda_resource_desc));
#define P(fl) n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", offsetof(ws_cuda_resource_desc, fl));
    RES_FIELDS(P)
#undef P
    n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", sizeof(ws_cuda_texture_desc));
#define P(fl) n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", offsetof(ws_cuda_texture_desc, fl));
    TEXD_FIELDS(P)
#undef P
    n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", sizeof(ws_cu_resource_desc));
#define P(fl) n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", offsetof(ws_cu_resource_desc, fl));
    CURES_FIELDS(P)
#undef P
    n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", sizeof(ws_cu_texture_desc));
#define P(fl) n += (size_t)snprintf(mine + n, sizeof mine - n, "%zu ", offsetof(ws_cu_texture_desc, fl));
    CUTEX_FIELDS(P)
#undef P
    if (rc == 0) CHECK_MSG(out && strcmp(out, mine) == 0, "CUDA: %s\nours: %s", out, mine);
    free(out);
}

/* The texture API (cudaMallocArray, cudaMallocPitch, cudaCreateTextureObject,
   descriptor queries, error codes) from a C program compiled against CUDA's
   headers, running the texture workload's kernels through the runtime shim,
   functionally and on the timing model. */
TEST(shim_texture_objects) {
    const char *inc = "/usr/local/cuda/include";
    char hdr[1024];
    snprintf(hdr, sizeof hdr, "%s/cuda_runtime_api.h", inc);
    if (!exists(hdr)) {
        printf("    skipped: %s not found\n", hdr);
        return;
    }
    char cmd[8192], *out = NULL;
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -O1 -I%s -o %s/tex_host %s/tests/data/cudart/tex_host.c -L%s/lib "
             "-l:libcudart.so.13 -lm 2>&1",
             inc, build_dir(), ws_test_root(), build_dir());
    int rc = run_cmd(cmd, &out);
    CHECK_MSG(rc == 0, "building tex_host failed: %s", out ? out : "");
    free(out);
    if (rc != 0) return;
    for (int timing = 0; timing < 2; timing++) {
        snprintf(cmd, sizeof cmd,
                 "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 WARPSIM_QUIET=1 %s "
                 "LD_LIBRARY_PATH=%s/lib %s/tex_host %s/bench/micro/texture/kernel.ptx 2>&1",
                 timing ? "" : "WARPSIM_FUNCTIONAL=1", build_dir(), build_dir(), ws_test_root());
        rc = run_cmd(cmd, &out);
        CHECK_MSG(rc == 0 && out && strstr(out, "PASS"), "tex_host (%s) exited %d: %s",
                  timing ? "timing" : "functional", rc, out ? out : "");
        /* bad descriptors are explained on stderr */
        CHECK_STR_CONTAINS(out, "channel descriptor {24,0,0,0}");
        CHECK_STR_CONTAINS(out, "invalid texture object handle");
        free(out);
    }
}

/* Driver-API texture objects through libcuda.so.1 from a plain C program. */
TEST(shim_driver_texture_objects) {
    char cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -O1 -I%s/src -o %s/tex_driver %s/tests/data/driver/tex_driver.c "
             "%s/lib/libcuda.so.1 2>&1 && " SHIM_ENV "LD_LIBRARY_PATH=%s/lib %s/tex_driver "
             "%s/bench/micro/texture/kernel.ptx 2>&1",
             ws_test_root(), build_dir(), ws_test_root(), build_dir(), build_dir(), build_dir(),
             ws_test_root());
    int rc = run_cmd(cmd, &out);
    CHECK_MSG(rc == 0 && out && strstr(out, "PASS"), "tex_driver exited %d: %s", rc, out ? out : "");
    CHECK_STR_CONTAINS(out, "CUDA arrays are not supported by the driver-API shim");
    free(out);
}

/* The reference apps, built by nvcc (compressed and --no-compress fat
   binaries), run unmodified under libcudart.so.13 from the build. */
TEST(shim_reference_apps_nvcc) {
    char *out = NULL;
    const char *nvcc = getenv("NVCC");
    if (!nvcc || !*nvcc) nvcc = exists("/usr/local/cuda/bin/nvcc") ? "/usr/local/cuda/bin/nvcc" : "nvcc";
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", nvcc);
    if (run_cmd(cmd, &out) != 0) {
        free(out);
        printf("    skipped: nvcc is absent\n");
        return;
    }
    free(out);
    /* An nvcc that cannot build host programs (e.g. a PTX-only install) is
       as good as none for this test. */
    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/nvcc-apps && printf 'int main(){return 0;}\\n' > %s/nvcc-apps/probe.cu && "
             "%s -cudart shared -o %s/nvcc-apps/probe %s/nvcc-apps/probe.cu 2>&1",
             build_dir(), build_dir(), nvcc, build_dir(), build_dir());
    if (run_cmd(cmd, &out) != 0) {
        printf("    skipped: %s cannot build host programs: %.200s\n", nvcc, out ? out : "");
        free(out);
        return;
    }
    free(out);
    const char *apps[] = {"vectoradd", "matmul", "misc"};
    const char *variants[][2] = {{"z", ""}, {"nc", "--no-compress"}};
    char cache[1024];
    snprintf(cache, sizeof cache, "%s/nvcc-apps", build_dir());
    mkdir(cache, 0777);
    for (size_t a = 0; a < 3; a++)
        for (size_t v = 0; v < 2; v++) {
            char src[1024], bin[2048];
            snprintf(src, sizeof src, "%s/tests/data/ptx/%s.cu",
                     ws_test_root(), apps[a]);
            snprintf(bin, sizeof bin, "%s/%s_%s", cache, apps[a], variants[v][0]);
            struct stat ss, bs;
            if (stat(src, &ss) != 0) {
                CHECK_MSG(0, "reference app %s is missing", src);
                continue;
            }
            if (stat(bin, &bs) != 0 || bs.st_mtime < ss.st_mtime) {  /* cached build */
                snprintf(cmd, sizeof cmd,
                         "%s -O2 -cudart shared -gencode arch=compute_75,code=compute_75 %s -o %s %s 2>&1",
                         nvcc, variants[v][1], bin, src);
                int rc = run_cmd(cmd, &out);
                CHECK_MSG(rc == 0, "nvcc %s failed: %s", apps[a], out ? out : "");
                free(out);
                if (rc != 0) continue;
            }
            snprintf(cmd, sizeof cmd, SHIM_ENV "LD_LIBRARY_PATH=%s/lib %s 2>&1", build_dir(), bin);
            int rc = run_cmd(cmd, &out);
            CHECK_MSG(rc == 0, "%s exited %d: %s", bin, rc, out ? out : "");
            CHECK_MSG(out && strstr(out, "PASS"), "%s printed no PASS: %s", bin, out ? out : "");
            free(out);
        }
}

/* Programs built by the real nvcc 13 (committed binaries: -O2 -cudart shared
   -gencode arch=compute_75,code=compute_75, default zstd-compressed fat binary
   and --no-compress), so the runtime shim is exercised without nvcc. */
TEST(shim_prebuilt_nvcc13_apps) {
    const char *apps[] = {"vectoradd_z", "vectoradd_nc", "matmul_z", "matmul_nc", "misc_z", "misc_nc"};
    for (size_t i = 0; i < sizeof apps / sizeof apps[0]; i++) {
        char cmd[4096], *out = NULL;
        snprintf(cmd, sizeof cmd, SHIM_ENV "LD_LIBRARY_PATH=%s/lib %s/tests/data/driver/nvcc13/%s 2>&1",
                 build_dir(), ws_test_root(), apps[i]);
        int rc = run_cmd(cmd, &out);
        CHECK_MSG(rc == 0, "%s exited %d: %s", apps[i], rc, out ? out : "");
        CHECK_MSG(out && strstr(out, "PASS"), "%s printed no PASS: %s", apps[i], out ? out : "");
        free(out);
    }
}

/* Under the shim the timing model runs by default (GPGPU-Sim's behaviour),
   reads its options from the environment and reports cycles. */
TEST(shim_timing_mode) {
    char cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 WARPSIM_PRESET=gtx480-v4 "
             "WARPSIM_SET='-gpgpu_scheduler lrr' LD_LIBRARY_PATH=%s/lib "
             "%s/tests/data/driver/nvcc13/vectoradd_z 4096 2>&1",
             build_dir(), ws_test_root());
    int rc = run_cmd(cmd, &out);
    CHECK_MSG(rc == 0, "exited %d: %s", rc, out ? out : "");
    CHECK_STR_CONTAINS(out, "warpsim_mode = performance");
    CHECK_STR_CONTAINS(out, "gpu_sim_cycle = ");
    CHECK_STR_CONTAINS(out, "PASS");
    free(out);
    /* a bad override is refused with the option's name */
    snprintf(cmd, sizeof cmd,
             "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 WARPSIM_SET='-gpgpu_n_mem zero' "
             "LD_LIBRARY_PATH=%s/lib %s/tests/data/driver/nvcc13/vectoradd_z 4096 2>&1",
             build_dir(), ws_test_root());
    rc = run_cmd(cmd, &out);
    CHECK(rc != 0);
    CHECK_STR_CONTAINS(out, "gpgpu_n_mem");
    free(out);
}

/* ---- CUDA features in nvcc 13 programs (tests/data/cudart/nvcc13) ---------- */
static int run_cudart_app(const char *name, const char *env, char **out) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, SHIM_ENV "%s LD_LIBRARY_PATH=%s/lib %s/tests/data/cudart/nvcc13/%s 2>&1",
             env, build_dir(), ws_test_root(), name);
    return run_cmd(cmd, out);
}

/* What printf.cu prints, computed here with the host's printf. Functional
   mode's order: CTA after CTA, a warp's printf calls in program order, each
   call's active lanes in lane order (so a warp's divergent-branch lines
   follow all its first lines). */
static char *printf_expected(void) {
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    if (!o) return NULL;
    for (int b = 0; b < 2; b++)
        for (int w = 0; w < 2; w++) {
            int lo = b * 40 + w * 32, hi = b * 40 + (w ? 40 : 32);
            for (int t = lo; t < hi && t < 70; t++) {
                float f = 0.5f * (float)t + 0.25f;
                fprintf(o, "t=%d u=%u x=%x X=%#X f=%.3f e=%e g=%g s=%s c=%c lld=%lld w=[%5d] l=[%-4d] "
                        "z=[%05.1f] p=%p\n", t, (unsigned)t * 3u, t * 17, t * 255, (double)f,
                        1234.5 * (t + 1), (double)(f / 7.0f), "warp", 'A' + t % 26,
                        1000000000000LL * (t - 20), t, t, (double)f, (void *)0);
            }
            for (int t = lo; t < hi && t < 70; t++)
                if (t % 3 == 1) fprintf(o, "odd branch %d of warp\n", t);
        }
    fprintf(o, "host: after sync 0\n");
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 2; t++) fprintf(o, "hello from block %d thread %d\n", b, t);
    fprintf(o, "host: limit 120\n");
    /* of the 32 lines only the last 4 fit: the earlier ones are overwritten */
    for (int t = 4; t < 8; t++) fprintf(o, "hello from block 3 thread %d\n", t);
    fprintf(o, "host: done\n");
    fclose(o);
    return text;
}

static int cmp_lines(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of text sorted (text is modified). */
static char **sorted_lines(char *text, size_t *n) {
    size_t cap = 64;
    char **v = malloc(cap * sizeof *v);
    *n = 0;
    for (char *s = strtok(text, "\n"); s && v; s = strtok(NULL, "\n")) {
        if (*n == cap) {
            char **nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) { free(v); return NULL; }
            v = nv;
        }
        v[(*n)++] = s;
    }
    if (v) qsort(v, *n, sizeof *v, cmp_lines);
    return v;
}

/* printf with %d %u %x %X %f %e %g %s %c %p %lld, flags, width and precision
   from 2 blocks x 2 warps and a divergent branch; output at the
   synchronisation, in functional mode's documented order; a full FIFO drops
   output and says so. The timing model gives the same lines (its order
   across warps differs, so they are compared sorted). */
TEST(shim_device_printf) {
    char *out = NULL, *want = printf_expected();
    int rc = run_cudart_app("printf", "", &out);
    CHECK_MSG(rc == 0, "printf exited %d: %s", rc, out ? out : "");
    CHECK_STR_CONTAINS(out, "warpsim: device printf buffer full (120 bytes, cudaLimitPrintfFifoSize): "
                            "the output of 28 earlier printf calls was overwritten, as in CUDA's "
                            "circular buffer\n");
    /* stderr's note aside, stdout is exactly the expected text */
    char *note = out ? strstr(out, "warpsim: device printf buffer full") : NULL;
    if (note) memmove(note, strchr(note, '\n') + 1, strlen(strchr(note, '\n') + 1) + 1);
    CHECK_MSG(out && want && !strcmp(out, want), "printf output differs:\n--- got\n%s\n--- want\n%s",
              out ? out : "", want ? want : "");
    free(out);
    out = NULL;
    rc = run_cudart_app("printf", "WARPSIM_FUNCTIONAL=0", &out);
    CHECK_MSG(rc == 0, "printf (timing) exited %d: %s", rc, out ? out : "");
    size_t ng = 0, nw = 0;
    char **g = out ? sorted_lines(out, &ng) : NULL, **w = want ? sorted_lines(want, &nw) : NULL;
    /* the timing model fills the small FIFO with other threads' lines */
    size_t same = 0;
    for (size_t i = 0, j = 0; g && w && i < ng && j < nw;) {
        int c = strcmp(g[i], w[j]);
        if (!c) { same++; i++; j++; }
        else if (c < 0) i++;
        else j++;
    }
    CHECK_MSG(same >= nw - 4, "timing-mode printf: %zu of %zu expected lines", same, nw);
    free(g);
    free(w);
    free(out);
    free(want);
}

/* assert on one thread: CUDA's message (on stderr), then cudaErrorAssert
   (710) from the synchronisation and every later call. */
TEST(shim_device_assert) {
    char *out = NULL;
    int rc = run_cudart_app("assert", "", &out);
    CHECK_MSG(rc == 0, "assert exited %d: %s", rc, out ? out : "");
    CHECK_STR_CONTAINS(out, "assert.cu:9: void check(int *): block: [0,0,0], thread: [5,0,0] "
                            "Assertion `v[t] != 5` failed.\n");
    CHECK_STR_CONTAINS(out, "sync=710 again=710");
    CHECK_STR_CONTAINS(out, "assertion `v[t] != 5` failed (assert.cu:9) at CTA (0,0,0) thread (5,0,0)");
    free(out);
    /* as in CUDA, the assertion message goes to stderr */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, SHIM_ENV "LD_LIBRARY_PATH=%s/lib %s/tests/data/cudart/nvcc13/assert 2>/dev/null",
             build_dir(), ws_test_root());
    rc = run_cmd(cmd, &out);
    CHECK(rc == 0);
    CHECK_MSG(out && !strstr(out, "Assertion"), "assertion message on stdout: %s", out ? out : "");
    free(out);
}

/* __managed__ variables: host reads see device writes after the
   synchronisation, kernels see host writes. */
TEST(shim_managed_variables) {
    char *out = NULL;
    int rc = run_cudart_app("managed", "", &out);
    CHECK_MSG(rc == 0, "managed exited %d: %s", rc, out ? out : "");
    CHECK_STR_CONTAINS(out, "after launch 3: counter=192 table[0]=8");
    CHECK_STR_CONTAINS(out, "PASS");
    free(out);
}

/* The same through the driver API (printf_driver.c): output at
   cuCtxSynchronize, cuCtxSetLimit's FIFO size, and a kernel with an
   unsupported instruction refused (CUDA_ERROR_INVALID_PTX) while the
   module's other kernel runs. */
TEST(shim_driver_printf_and_unsupported) {
    char cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -O1 -o %s/printf_driver %s/tests/data/driver/printf_driver.c "
             "%s/lib/libcuda.so.1 2>&1 && " SHIM_ENV "LD_LIBRARY_PATH=%s/lib %s/printf_driver "
             "%s/tests/data/ptx 2>&1",
             build_dir(), ws_test_root(), build_dir(), build_dir(), build_dir(), ws_test_root());
    int rc = run_cmd(cmd, &out);
    CHECK_MSG(rc == 0 && out && strstr(out, "PASS"), "printf_driver exited %d: %s", rc, out ? out : "");
    CHECK_STR_CONTAINS(out, "host: before sync\nhello from block 0 thread 2\nhello from block 0 thread 3\n");
    CHECK_STR_CONTAINS(out, "(60 bytes, cudaLimitPrintfFifoSize): the output of 2 earlier printf calls was "
                            "overwritten, as in CUDA's circular buffer\n");
    CHECK_STR_CONTAINS(out, "host: after sync, limit 60\n");
    CHECK_STR_CONTAINS(out, "launch of bad refused: it calls helper, which has an unsupported instruction");
    CHECK_STR_CONTAINS(out, "bad launch -> 218");
    free(out);
}

/* Thrust, CUB and cooperative-groups programs (tests/data/cuda, built by
   nvcc 13 for compute_75 and compute_80; streams_basic runs CUB and Thrust
   on a created stream with cudaMallocAsync), each checked against the host, in
   functional and timing mode. 10000 elements take CUB's multi-tile radix
   sort (onesweep with decoupled look-back); 3000 and 4096 take the
   single-tile sort, which uses bmsk. */
TEST(shim_thrust_cub_cg_programs) {
    const char *apps[][2] = {{"thrust_basic", "10000"}, {"cub_basic", "10000"}, {"cg_basic", "2048"},
                             {"streams_basic", "3000"}, {"thrust_basic", "3000"},
                             {"cub_basic", "4096"}};
    const char *archs[] = {"75", "80"};
    for (size_t a = 0; a < sizeof apps / sizeof apps[0]; a++)
        for (size_t v = 0; v < 2; v++)
            for (int timing = 0; timing < 2; timing++) {
                char cmd[4096], *out = NULL;
                snprintf(cmd, sizeof cmd,
                         SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib "
                                  "%s/tests/data/cuda/%s_%s %s 2>&1",
                         !timing, build_dir(), ws_test_root(), apps[a][0], archs[v], apps[a][1]);
                int rc = run_cmd(cmd, &out);
                CHECK_MSG(rc == 0, "%s_%s (%s) exited %d: %s", apps[a][0], archs[v],
                          timing ? "timing" : "functional", rc, out ? out : "");
                CHECK_MSG(out && strstr(out, "PASS"), "%s_%s (%s) printed no PASS: %s", apps[a][0],
                          archs[v], timing ? "timing" : "functional", out ? out : "");
                free(out);
            }
}

/* Built with AddressSanitizer (make asan)? */
static bool asan_build(void) {
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

/* Surfaces, texture gather, layered and 3-D arrays (tests/data/cuda
   surf_basic.cu, texarr_basic.cu): surf1D/2D/3D reads and writes (clamp and
   zero boundaries, vector elements), tex2Dgather, tex1DLayered and
   tex2DLayered, tex3D, texCubemap, tex2DLod/tex2DGrad on a one-level
   mipmapped array, cudaMalloc3DArray and cudaMemcpy3D, each against the
   host, and the API's checks, in functional and timing mode. */
TEST(shim_surface_and_texture_array_programs) {
    const char *apps[][2] = {{"surf_basic", "PASS surfaces 37x19"}, {"texarr_basic", "PASS gather, layered and 3-D"}};
    const char *archs[] = {"75", "80"};
    for (size_t a = 0; a < 2; a++)
        for (size_t v = 0; v < 2; v++)
            for (int timing = 0; timing < 2; timing++) {
                char cmd[4096], *out = NULL;
                snprintf(cmd, sizeof cmd,
                         SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib %s/tests/data/cuda/%s_%s 2>&1",
                         !timing, build_dir(), ws_test_root(), apps[a][0], archs[v]);
                int rc = run_cmd(cmd, &out);
                /* texarr_basic's results are managed memory, which the shim maps in the
                   host at the device address; an ASan build's shadow gap holds that
                   range, so there the shim refuses the block (with this message) */
                if (asan_build() && out && strstr(out, "cannot map host memory at device address")) {
                    free(out);
                    continue;
                }
                CHECK_MSG(rc == 0 && out && strstr(out, apps[a][1]), "%s_%s (%s) exited %d: %s", apps[a][0],
                          archs[v], timing ? "timing" : "functional", rc, out ? out : "");
                free(out);
            }
}

/* Tensor cores (tests/data/cuda/tensor_basic.cu): WMMA f16 and 8-bit forms in
   every shape and layout, a tiled GEMM through shared memory, and in the
   compute_80 build bf16, tf32, f64 and mma.sync, each against the host, in
   functional and timing mode. */
TEST(shim_tensor_core_program) {
    const char *archs[] = {"75", "80"}, *want[] = {"PASS tensor_basic: 10 checks", "PASS tensor_basic: 18 checks"};
    for (size_t v = 0; v < 2; v++)
        for (int timing = 0; timing < 2; timing++) {
            char cmd[4096], *out = NULL;
            snprintf(cmd, sizeof cmd,
                     SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib %s/tests/data/cuda/tensor_basic_%s 2>&1",
                     !timing, build_dir(), ws_test_root(), archs[v]);
            int rc = run_cmd(cmd, &out);
            CHECK_MSG(rc == 0 && out && strstr(out, want[v]), "tensor_basic_%s (%s) exited %d: %s", archs[v],
                      timing ? "timing" : "functional", rc, out ? out : "");
            free(out);
        }
}

/* cp.async and mbarriers (tests/data/cuda/async_basic.cu): cuda::pipeline,
   cuda::barrier, cooperative_groups::memcpy_async and barrier phases with
   arrive_and_drop; built for the default target (libcu++'s fallbacks: a
   spin-wait with nanosleep), sm_80 (cp.async, mbarrier.test_wait) and sm_90
   (cp.async.bulk, expect_tx, try_wait), in functional and timing mode. */
TEST(shim_async_copy_program) {
    const char *archs[] = {"75", "80", "90"};
    for (size_t v = 0; v < 3; v++)
        for (int timing = 0; timing < 2; timing++) {
            char cmd[4096], *out = NULL;
            snprintf(cmd, sizeof cmd,
                     SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib %s/tests/data/cuda/async_basic_%s 2>&1",
                     !timing, build_dir(), ws_test_root(), archs[v]);
            int rc = run_cmd(cmd, &out);
            CHECK_MSG(rc == 0 && out && strstr(out, "PASS async_basic: 5 checks"), "async_basic_%s (%s) exited %d: %s",
                      archs[v], timing ? "timing" : "functional", rc, out ? out : "");
            free(out);
        }
}

/* Layered (1-D, 2-D) and cube-map (plain and layered) surfaces, layered
   cube-map textures (texCubemapLayered: tex.acube) and sured in inline PTX
   (tests/data/cuda/surf2_basic.cu), against the host, for compute_75 and
   compute_80, in functional and timing mode. */
TEST(shim_layered_surfaces_and_reductions) {
    const char *archs[] = {"75", "80"};
    for (size_t v = 0; v < 2; v++)
        for (int timing = 0; timing < 2; timing++) {
            char cmd[4096], *out = NULL;
            snprintf(cmd, sizeof cmd,
                     SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib %s/tests/data/cuda/surf2_basic_%s 2>&1",
                     !timing, build_dir(), ws_test_root(), archs[v]);
            int rc = run_cmd(cmd, &out);
            CHECK_MSG(rc == 0 && out && strstr(out, "PASS surf2_basic: 5 checks"), "surf2_basic_%s (%s) exited %d: %s",
                      archs[v], timing ? "timing" : "functional", rc, out ? out : "");
            free(out);
        }
}

/* Mipmapped textures (tests/data/cuda/mip_basic.cu): five levels filled
   through cudaGetMipmappedArrayLevel, tex2DLod with point and linear
   mipmap filtering, biases and level clamps, tex2DGrad, against the host's
   model, in functional and timing mode. */
TEST(shim_mipmapped_textures) {
    const char *archs[] = {"75", "80"};
    for (size_t v = 0; v < 2; v++)
        for (int timing = 0; timing < 2; timing++) {
            char cmd[4096], *out = NULL;
            snprintf(cmd, sizeof cmd,
                     SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib %s/tests/data/cuda/mip_basic_%s 2>&1",
                     !timing, build_dir(), ws_test_root(), archs[v]);
            int rc = run_cmd(cmd, &out);
            CHECK_MSG(rc == 0 && out && strstr(out, "PASS mip_basic: 6 checks"), "mip_basic_%s (%s) exited %d: %s",
                      archs[v], timing ? "timing" : "functional", rc, out ? out : "");
            free(out);
        }
}

/* CUTLASS-style inline PTX (tests/data/cuda/matrix_basic.cu, sm_90):
   ldmatrix feeding mma.sync m16n8k16, stmatrix.trans, movmatrix, fp8
   mma.sync m16n8k32 (e4m3, e5m2), against the host, in both modes. */
TEST(shim_matrix_program) {
    for (int timing = 0; timing < 2; timing++) {
        char cmd[4096], *out = NULL;
        snprintf(cmd, sizeof cmd,
                 SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib %s/tests/data/cuda/matrix_basic_90 2>&1",
                 !timing, build_dir(), ws_test_root());
        int rc = run_cmd(cmd, &out);
        CHECK_MSG(rc == 0 && out && strstr(out, "PASS matrix_basic: 4 checks"), "matrix_basic_90 (%s) exited %d: %s",
                  timing ? "timing" : "functional", rc, out ? out : "");
        free(out);
    }
}

/* Sub-byte tensor cores (tests/data/cuda/subbyte_basic.cu, sm_80): WMMA s4 /
   u4 (.satfinite) and b1 (AND / XOR popc), mma.sync m8n8k32 s4, against the
   host, in both modes. */
TEST(shim_subbyte_tensor_program) {
    for (int timing = 0; timing < 2; timing++) {
        char cmd[4096], *out = NULL;
        snprintf(cmd, sizeof cmd,
                 SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib %s/tests/data/cuda/subbyte_basic_80 2>&1",
                 !timing, build_dir(), ws_test_root());
        int rc = run_cmd(cmd, &out);
        CHECK_MSG(rc == 0 && out && strstr(out, "PASS subbyte_basic: 3 checks"), "subbyte_basic_80 (%s) exited %d: %s",
                  timing ? "timing" : "functional", rc, out ? out : "");
        free(out);
    }
}

/* Cooperative launches (tests/data/cuda/coop_basic.cu): grid.sync() across
   12 CTAs through cudaLaunchCooperativeKernel and cudaLaunchKernelEx's
   cooperative attribute, and f16x2 comparisons, against the host, for
   compute_75 and compute_80, in functional and timing mode. */
TEST(shim_cooperative_program) {
    const char *archs[] = {"75", "80"};
    for (size_t v = 0; v < 2; v++)
        for (int timing = 0; timing < 2; timing++) {
            char cmd[4096], *out = NULL;
            snprintf(cmd, sizeof cmd,
                     SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib %s/tests/data/cuda/coop_basic_%s 2>&1",
                     !timing, build_dir(), ws_test_root(), archs[v]);
            int rc = run_cmd(cmd, &out);
            CHECK_MSG(rc == 0 && out && strstr(out, "PASS coop_basic: 3 checks"), "coop_basic_%s (%s) exited %d: %s",
                      archs[v], timing ? "timing" : "functional", rc, out ? out : "");
            free(out);
        }
}

/* Thread-block clusters (tests/data/cuda/cluster_basic.cu, sm_90):
   __cluster_dims__ kernels and cudaLaunchKernelEx with the cluster attribute,
   cg::this_cluster() sync, map_shared_rank and block indices, the cluster
   registers, barrier.cluster and .shared::cluster in inline PTX, implicit
   clusters of one, cudaOccupancyMaxActiveClusters and refused shapes, in
   functional and timing mode. */
TEST(shim_cluster_program) {
    for (int timing = 0; timing < 2; timing++) {
        char cmd[4096], *out = NULL;
        snprintf(cmd, sizeof cmd,
                 SHIM_ENV "WARPSIM_FUNCTIONAL=%d LD_LIBRARY_PATH=%s/lib %s/tests/data/cuda/cluster_basic_90 2>&1",
                 !timing, build_dir(), ws_test_root());
        int rc = run_cmd(cmd, &out);
        CHECK_MSG(rc == 0 && out && strstr(out, "PASS cluster_basic: 5 checks") &&
                      strstr(out, "a cluster of 16 CTAs; at most 8 are allowed"),
                  "cluster_basic_90 (%s) exited %d: %s", timing ? "timing" : "functional", rc, out ? out : "");
        free(out);
    }
}

/* The long-run machinery's functional passes (here a sampling profile) run
   CTAs through the observed path, whose warps waiting in try_wait or
   nanosleep must park as in a plain functional run, not hang. */
TEST(shim_async_copy_program_profiled) {
    char cmd[4096], prof[64], *out = NULL;
    snprintf(prof, sizeof prof, "/tmp/warpsim-async-prof-%d.txt", (int)getpid());
    snprintf(cmd, sizeof cmd,
             SHIM_ENV "WARPSIM_SET='-warpsim_profile_out %s' LD_LIBRARY_PATH=%s/lib "
                      "%s/tests/data/cuda/async_basic_80 2>&1",
             prof, build_dir(), ws_test_root());
    int rc = run_cmd(cmd, &out);
    CHECK_MSG(rc == 0 && out && strstr(out, "PASS async_basic: 5 checks"), "profiled async_basic_80 exited %d: %s",
              rc, out ? out : "");
    free(out);
    unlink(prof);
}

/* cudaPointerGetAttributes on device, managed, page-locked (cudaMallocHost,
   cudaHostRegister) and ordinary host memory, as CUDA 11+ reports them. */
TEST(shim_pointer_attributes) {
    char *out = NULL;
    int rc = run_cudart_app("ptrattr", "", &out);
    CHECK_MSG(rc == 0, "ptrattr exited %d: %s", rc, out ? out : "");
    CHECK_STR_CONTAINS(out, "device+100: err=0 type=2 device=0 dev=p host=null\n");
    /* (under ASan the sanitizer's own mappings may hold the address a managed
       block needs: the shim says so and the block is not made) */
    if (!out || !strstr(out, "cannot map host memory"))
        CHECK_STR_CONTAINS(out, "managed: err=0 type=3 device=0 dev=p host=p\n");
    CHECK_STR_CONTAINS(out, "pinned+8: err=0 type=1 device=0 dev=null host=p\n");
    CHECK_STR_CONTAINS(out, "malloc: err=0 type=0 device=-2 dev=null host=p\n");
    CHECK_STR_CONTAINS(out, "registered: err=0 type=1 device=0 dev=null host=p\n");
    CHECK_STR_CONTAINS(out, "register=0 again=712 unregister=0 again=713\n");
    CHECK_STR_CONTAINS(out, "freed pinned: err=0 type=0 device=-2");
    free(out);
}

/* Device-side malloc/free whose blocks outlive their launch, alloca (a
   variable-length stack array), NULL when the heap is full, and
   cudaLimitMallocHeapSize settable only before the heap is used. */
/* The lines of text that do not start with any of the prefixes. */
static char *drop_lines(const char *text, const char *const *prefixes) {
    size_t n = strlen(text);
    char *out = malloc(n + 1), *o = out;
    if (!out) return NULL;
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
        bool drop = false;
        for (const char *const *p = prefixes; *p && !drop; p++) drop = !strncmp(l, *p, strlen(*p));
        if (!drop) memcpy(o, l, len), o += len;
        l += len;
    }
    *o = 0;
    return out;
}

/* Resuming from a checkpoint does not replay the device printf output of the
   launches it skips (docs/sampling.md): the resumed run prints what the
   uninterrupted one prints from the boundary on, and nothing of before. */
TEST(shim_resume_skips_the_printf_of_skipped_launches) {
    char ck[128], env[512], *a = NULL, *b = NULL;
    snprintf(ck, sizeof ck, "/tmp/warpsim_printf_%d.ckpt", (int)getpid());
    snprintf(env, sizeof env, "WARPSIM_SET='-warpsim_checkpoint_save %s\n-warpsim_checkpoint_at 1'",
             ck);
    int rc = run_cudart_app("printf", env, &a);
    CHECK_MSG(rc == 0, "printf (saving) exited %d: %s", rc, a ? a : "");
    snprintf(env, sizeof env, "WARPSIM_SET='-warpsim_checkpoint_resume %s'", ck);
    rc = run_cudart_app("printf", env, &b);
    CHECK_MSG(rc == 0, "printf (resumed) exited %d: %s", rc, b ? b : "");
    remove(ck);
    /* launch 1 (conv) printed the "t=" and "odd branch" lines */
    const char *first[] = {"t=", "odd branch", "warpsim: checkpoint written", NULL};
    const char *note[] = {"warpsim: resumed from checkpoint", NULL};
    char *x = a ? drop_lines(a, first) : NULL, *y = b ? drop_lines(b, note) : NULL;
    CHECK(a && strstr(a, "t=0 u=0 ") && b && !strstr(b, "t=0 u=0 ") && !strstr(b, "odd branch"));
    CHECK_STR_CONTAINS(b, "hello from block 0 thread 0");
    CHECK_MSG(x && y && !strcmp(x, y), "--- uninterrupted, from the boundary\n%s\n--- resumed\n%s",
              x ? x : "", y ? y : "");
    free(a), free(b), free(x), free(y);
}

/* A program that used device-side malloc before the boundary resumes from
   the checkpoint: the skipped launch reserves the heap's region where the
   checkpointed run did, and the heap's blocks come back at the boundary
   (devheap.cu checks every block's contents, and frees them). Boundaries
   after launch 1 (blocks in use), 2 (freed) and 3 (in use again); the
   resumed run is timed at 1. */
TEST(shim_resume_restores_the_device_heap) {
    char ck[128], env[512], *a = NULL, *b = NULL;
    snprintf(ck, sizeof ck, "/tmp/warpsim_devheap_%d.ckpt", (int)getpid());
    const char *note[] = {"warpsim: ", NULL};
    for (int at = 1; at <= 3; at++) {
        snprintf(env, sizeof env, "WARPSIM_SET='-warpsim_checkpoint_save %s\n-warpsim_checkpoint_at "
                 "%d'", ck, at);
        int rc = run_cudart_app("devheap", env, &a);
        CHECK_MSG(rc == 0, "devheap (saving at %d) exited %d: %s", at, rc, a ? a : "");
        snprintf(env, sizeof env, "WARPSIM_SET='-warpsim_checkpoint_resume %s'%s", ck,
                 at == 1 ? " WARPSIM_FUNCTIONAL=0" : "");
        rc = run_cudart_app("devheap", env, &b);
        CHECK_MSG(rc == 0, "devheap (resumed at %d) exited %d: %s", at, rc, b ? b : "");
        char *x = a ? drop_lines(a, note) : NULL, *y = b ? drop_lines(b, note) : NULL;
        CHECK_STR_CONTAINS(x, "sum ok second ok");
        CHECK_MSG(x && y && !strcmp(x, y), "at %d: --- uninterrupted\n%s\n--- resumed\n%s", at,
                  x ? x : "", y ? y : "");
        CHECK_STR_CONTAINS(b, "warpsim: resumed from checkpoint");
        free(a), free(b), free(x), free(y);
        a = b = NULL;
    }
    remove(ck);
}

TEST(shim_device_malloc_and_alloca) {
    for (int timing = 0; timing < 2; timing++) {
        char *out = NULL;
        int rc = run_cudart_app("devheap", timing ? "WARPSIM_FUNCTIONAL=0" : "", &out);
        CHECK_MSG(rc == 0, "devheap (%s) exited %d: %s", timing ? "timing" : "functional", rc, out ? out : "");
        CHECK_STR_CONTAINS(out, "limit 65536 nulls 1 sum ok second ok late-set 1\n");
        free(out);
    }
}
