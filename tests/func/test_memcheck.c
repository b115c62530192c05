/* Accesses outside allocations: like a GPU by default (device memory is
 * mapped in 2 MiB regions, so a read just past an allocation succeeds and
 * returns what is there; an access outside every region faults), exact
 * with -warpsim_map_granularity 1, and reported like compute-sanitizer with
 * -warpsim_memcheck 1 (report, go on) or 2 (stop at the first). Every case
 * runs functionally and on the timing model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "warpsim/warpsim.h"

/* Line numbers matter: reports name them (peek's load is line 13). */
static const char *const MC_PTX =
    ".version 7.5\n"                                                      /* 1 */
    ".target sm_75\n"                                                     /* 2 */
    ".address_size 64\n"                                                  /* 3 */
    ".visible .entry peek(.param .u64 src, .param .u64 dst, .param .s64 off) {\n" /* 4 */
    "  .reg .b32 %r<4>; .reg .b64 %rd<8>;\n"                              /* 5 */
    "  ld.param.u64 %rd1, [src];\n"                                       /* 6 */
    "  ld.param.u64 %rd2, [dst];\n"                                       /* 7 */
    "  ld.param.s64 %rd3, [off];\n"                                       /* 8 */
    "  mov.u32 %r1, %tid.x;\n"                                            /* 9 */
    "  mul.wide.u32 %rd4, %r1, 4;\n"                                      /* 10 */
    "  add.s64 %rd5, %rd1, %rd3;\n"                                       /* 11 */
    "  add.s64 %rd5, %rd5, %rd4;\n"                                       /* 12 */
    "  ld.global.u32 %r2, [%rd5];\n"                                      /* 13 */
    "  add.s64 %rd6, %rd2, %rd4;\n"                                       /* 14 */
    "  st.global.u32 [%rd6], %r2;\n"                                      /* 15 */
    "  ret;\n"                                                            /* 16 */
    "}\n"                                                                 /* 17 */
    ".visible .entry poke(.param .u64 p, .param .u32 v) {\n"              /* 18 */
    "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"                              /* 19 */
    "  ld.param.u64 %rd1, [p];\n"                                         /* 20 */
    "  ld.param.u32 %r1, [v];\n"                                          /* 21 */
    "  st.global.u32 [%rd1], %r1;\n"                                      /* 22 */
    "  atom.global.add.u32 %r2, [%rd1+4], %r1;\n"                         /* 23 */
    "  ret;\n"                                                            /* 24 */
    "}\n";

typedef struct mc_env {
    ws_device *d;
    ws_kernel *peek, *poke;
    ws_devptr out, a; /* with_bufs: 128 bytes for peek's results, then 1024 */
} mc_env;

/* A device with the overrides in sets (NULL-terminated, may be NULL). */
static int env_open(mc_env *e, int functional, const char *const *sets, int with_bufs) {
    memset(e, 0, sizeof *e);
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.functional_only = functional;
    o.config_overrides = sets;
    if (ws_device_create(&o, &e->d) != WS_OK) {
        CHECK_MSG(0, "device with %s", sets && sets[0] ? sets[0] : "defaults");
        return 0;
    }
    ws_module_handle *m = NULL;
    ws_status s = ws_module_load(e->d, MC_PTX, 0, "mc.ptx", NULL, &m);
    CHECK_MSG(s == WS_OK, "load: %s", ws_device_last_error(e->d));
    if (s != WS_OK || ws_module_get_kernel(m, "peek", &e->peek) != WS_OK ||
        ws_module_get_kernel(m, "poke", &e->poke) != WS_OK) {
        CHECK(0);
        ws_device_destroy(e->d);
        return 0;
    }
    if (with_bufs) {
        CHECK(ws_malloc(e->d, 128, &e->out) == WS_OK);
        CHECK(ws_malloc(e->d, 1024, &e->a) == WS_OK);
    }
    return 1;
}

/* Each case on the functional engine and on the timing model. */
#define BOTH_MODES(name)                                \
    TEST(memcheck_##name##_functional) { name(1); } \
    TEST(memcheck_##name##_timing) { name(0); }

/* 32 threads per CTA read the u32s at src+off, src+off+4, ... into dst. */
static ws_status peek(mc_env *e, ws_devptr src, int64_t off, ws_devptr dst, unsigned ctas) {
    void *args[] = {&src, &dst, &off};
    return ws_launch(e->d, e->peek, (ws_dim3){ctas, 1, 1}, (ws_dim3){32, 1, 1}, 0, args);
}

/* One thread stores v at p and adds v to the u32 at p+4. */
static ws_status poke(mc_env *e, ws_devptr p, uint32_t v) {
    void *args[] = {&p, &v};
    return ws_launch(e->d, e->poke, (ws_dim3){1, 1, 1}, (ws_dim3){1, 1, 1}, 0, args);
}

static int count_of(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay ? strstr(hay, needle) : NULL; p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* Default mapping: a read past the end of the last allocation (beyond its
 * 256-byte padding too) returns zeros; a read past the end of one
 * allocation returns its neighbour's bytes; a write past the end lands and
 * reads back. */
static void default_reads_past_end(int functional) {
    mc_env e;
    if (!env_open(&e, functional, NULL, 0)) return;
    ws_devptr out, x, y;
    CHECK(ws_malloc(e.d, 128, &out) == WS_OK);
    CHECK(ws_malloc(e.d, 1000, &x) == WS_OK); /* padded to 1024 */
    CHECK(ws_malloc(e.d, 128, &y) == WS_OK);
    CHECK_EQ_U64(y, x + 1024); /* the bump allocator packs them */
    uint32_t pat[32], got[32];
    for (int i = 0; i < 32; i++) pat[i] = 0xA5000000u + (uint32_t)i;
    CHECK(ws_memcpy_htod(e.d, y, pat, sizeof pat) == WS_OK);

    /* 300 bytes past y's end (its padding ends at +256): nothing was ever there */
    ws_status s = peek(&e, y, 128 + 300, out, 1);
    CHECK_MSG(s == WS_OK, "%s", ws_device_last_error(e.d));
    CHECK(ws_memcpy_dtoh(e.d, got, out, sizeof got) == WS_OK);
    int zeros = 1;
    for (int i = 0; i < 32; i++) zeros &= got[i] == 0;
    CHECK_MSG(zeros, "read past the end: got 0x%x 0x%x ...", got[0], got[1]);

    /* past x's end: y's data, as on a GPU */
    s = peek(&e, x, 1024, out, 1);
    CHECK_MSG(s == WS_OK, "%s", ws_device_last_error(e.d));
    CHECK(ws_memcpy_dtoh(e.d, got, out, sizeof got) == WS_OK);
    CHECK(!memcmp(got, pat, sizeof got));

    /* a write and an atomic past y's end land there */
    CHECK(poke(&e, y + 1024, 7) == WS_OK);
    CHECK(poke(&e, y + 1024, 5) == WS_OK); /* word +4 gets 7 + 5 */
    CHECK(peek(&e, y, 1024, out, 1) == WS_OK);
    CHECK(ws_memcpy_dtoh(e.d, got, out, sizeof got) == WS_OK);
    CHECK_EQ_U64(got[0], 5);
    CHECK_EQ_U64(got[1], 12);
    /* host copies stay exact, as cudaMemcpy checks its range */
    CHECK(ws_memcpy_dtoh(e.d, got, y + 1024, 4) == WS_ERR_ILLEGAL_ADDRESS);
    ws_device_destroy(e.d);
}
BOTH_MODES(default_reads_past_end)

/* Outside every mapped region: the fault of old, precise. */
static void far_outside_faults(int functional) {
    mc_env e;
    if (!env_open(&e, functional, NULL, 1)) return;
    ws_devptr out = e.out, a = e.a;
    ws_status s = peek(&e, a, 64 << 20, out, 1);
    CHECK_MSG(s == WS_ERR_ILLEGAL_ADDRESS, "got %s", ws_status_name(s));
    char want[160];
    snprintf(want, sizeof want,
             "kernel peek: illegal address 0x%llx (global load of 4 bytes) at CTA (0,0,0) thread (0,0,0) pc 7 "
             "in peek (mc.ptx:13)", (unsigned long long)(a + (64 << 20)));
    CHECK_STR_CONTAINS(ws_device_last_error(e.d), want);
    ws_device_destroy(e.d);
}
BOTH_MODES(far_outside_faults)

/* A freed allocation alone in its region is unmapped: use after free
 * faults. One that shares its region with a live allocation stays mapped. */
static void use_after_free(int functional) {
    mc_env e;
    if (!env_open(&e, functional, NULL, 0)) return;
    ws_devptr lone, pad, out, shared;
    CHECK(ws_malloc(e.d, 256, &lone) == WS_OK);
    CHECK(ws_free(e.d, lone) == WS_OK);
    ws_status s = poke(&e, lone, 1);
    CHECK_MSG(s == WS_ERR_ILLEGAL_ADDRESS, "got %s", ws_status_name(s));
    char want[96];
    snprintf(want, sizeof want, "illegal address 0x%llx (global store of 4 bytes)", (unsigned long long)lone);
    CHECK_STR_CONTAINS(ws_device_last_error(e.d), want);

    /* in the same 2 MiB region as `out`, which stays live */
    CHECK(ws_malloc(e.d, 2 << 20, &pad) == WS_OK); /* ends in the next region */
    CHECK(ws_malloc(e.d, 128, &out) == WS_OK);
    CHECK(ws_malloc(e.d, 256, &shared) == WS_OK);
    CHECK(ws_free(e.d, pad) == WS_OK);
    CHECK(ws_free(e.d, shared) == WS_OK);
    s = peek(&e, shared, 0, out, 1);
    CHECK_MSG(s == WS_OK, "freed but mapped: %s", ws_device_last_error(e.d));
    ws_device_destroy(e.d);
}
BOTH_MODES(use_after_free)

/* -warpsim_map_granularity 1: the first byte past an allocation faults. */
static void exact_granularity(int functional) {
    static const char *const sets[] = {"-warpsim_map_granularity 1", NULL};
    mc_env e;
    if (!env_open(&e, functional, sets, 1)) return;
    ws_devptr out = e.out, a = e.a;
    CHECK(peek(&e, a, 1024 - 128, out, 1) == WS_OK); /* the last 128 bytes: fine */
    ws_status s = peek(&e, a, 1024 - 124, out, 1);
    CHECK_MSG(s == WS_ERR_ILLEGAL_ADDRESS, "got %s", ws_status_name(s));
    char want[160];
    snprintf(want, sizeof want, "illegal address 0x%llx (global load of 4 bytes) at CTA (0,0,0) thread (31,0,0)",
             (unsigned long long)(a + 1024));
    CHECK_STR_CONTAINS(ws_device_last_error(e.d), want);
    ws_device_destroy(e.d);
}
BOTH_MODES(exact_granularity)

/* Granularities that are not powers of two (or too small) are refused. */
TEST(memcheck_bad_granularity_refused) {
    static const char *const sets[] = {"-warpsim_map_granularity 3000", NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.config_overrides = sets;
    ws_device *d = NULL;
    ws_test_stderr cap;
    ws_test_stderr_begin(&cap);
    ws_status s = ws_device_create(&o, &d);
    char *err = ws_test_stderr_end(&cap);
    CHECK_EQ_I64(s, WS_ERR_CONFIG);
    CHECK_STR_CONTAINS(err, "-warpsim_map_granularity: 3000 is not 0, 1 or a power of two from 256");
    free(err);
    ws_device_destroy(d);
}

/* -warpsim_memcheck 1: each site reported once with its nearest allocation,
 * counted, summed up per kernel; the kernel's results are those without
 * memcheck. */
static void reports(int functional) {
    static const char *const sets[] = {"-warpsim_memcheck 1", NULL};
    uint32_t plain[32], checked[32];
    for (int pass = 0; pass < 2; pass++) {
        mc_env e;
        if (!env_open(&e, functional, pass ? sets : NULL, 1)) return;
        ws_devptr out = e.out, a = e.a;
        uint32_t pat[256];
        for (int i = 0; i < 256; i++) pat[i] = 0x1000u + (uint32_t)i;
        CHECK(ws_memcpy_htod(e.d, a, pat, sizeof pat) == WS_OK);
        ws_test_stderr cap;
        ws_test_stderr_begin(&cap);
        /* lanes 16..31 of both CTAs read past the end: 32 bad accesses, one site */
        ws_status s = peek(&e, a, 1024 - 64, out, 2);
        /* before the allocation (another site), then a store and an atomic */
        ws_status s2 = peek(&e, a, -64, out, 1); /* nearer a than out's end */
        ws_status s3 = poke(&e, a + 1024 + 8, 3);
        char *err = ws_test_stderr_end(&cap);
        CHECK_MSG(s == WS_OK && s2 == WS_OK && s3 == WS_OK, "%s", ws_device_last_error(e.d));
        CHECK(ws_memcpy_dtoh(e.d, pass ? checked : plain, out, sizeof plain) == WS_OK);
        if (!pass) {
            CHECK_MSG(!strstr(err, "memcheck"), "memcheck off, yet: %s", err);
        } else {
            char want[400];
            snprintf(want, sizeof want,
                     "memcheck: kernel peek: invalid global load of 4 bytes at 0x%llx (0 bytes after the "
                     "end of the allocation at 0x%llx of 1024 bytes) at CTA (0,0,0) thread (16,0,0) pc 7 in "
                     "peek (mc.ptx:13)\n", (unsigned long long)(a + 1024), (unsigned long long)a);
            CHECK_STR_CONTAINS(err, want);
            CHECK_EQ_I64(count_of(err, "invalid global load of 4 bytes"), 2); /* once per site */
            snprintf(want, sizeof want,
                     "memcheck:   32 x pc 7 in peek (mc.ptx:13): global load of 4 bytes near the allocation "
                     "at 0x%llx of 1024 bytes\nmemcheck: 32 bad accesses in kernel peek (1 site)\n",
                     (unsigned long long)a);
            CHECK_STR_CONTAINS(err, want);
            snprintf(want, sizeof want, "at 0x%llx (64 bytes before the allocation at 0x%llx of 1024 bytes)",
                     (unsigned long long)(a - 64), (unsigned long long)a);
            CHECK_STR_CONTAINS(err, want);
            CHECK_STR_CONTAINS(err, "memcheck: 16 bad accesses in kernel peek (1 site)\n");
            snprintf(want, sizeof want, "invalid global store of 4 bytes at 0x%llx (8 bytes after the end",
                     (unsigned long long)(a + 1032));
            CHECK_STR_CONTAINS(err, want);
            snprintf(want, sizeof want, "invalid global atomic of 4 bytes at 0x%llx (12 bytes after the end",
                     (unsigned long long)(a + 1036));
            CHECK_STR_CONTAINS(err, want);
            CHECK_STR_CONTAINS(err, "(mc.ptx:23)");
            CHECK_STR_CONTAINS(err, "memcheck: 2 bad accesses in kernel poke (2 sites)\n");
        }
        free(err);
        ws_test_stderr_begin(&cap);
        ws_device_destroy(e.d);
        err = ws_test_stderr_end(&cap);
        if (pass) CHECK_STR_CONTAINS(err, "memcheck: 50 bad accesses in 3 of 3 kernel launches\n");
        free(err);
    }
    CHECK(!memcmp(plain, checked, sizeof plain));
}
BOTH_MODES(reports)

/* -warpsim_memcheck 2 stops the kernel at the first bad access; with
 * memcheck, an unmapped access and a use after free name the allocation. */
static void stops(int functional) {
    static const char *const sets[] = {"-warpsim_memcheck 2", NULL};
    mc_env e;
    if (!env_open(&e, functional, sets, 1)) return;
    ws_devptr out = e.out, a = e.a, gone;
    ws_test_stderr cap;
    ws_test_stderr_begin(&cap);
    ws_status s = peek(&e, a, 1024 - 64, out, 1);
    char *err = ws_test_stderr_end(&cap);
    CHECK_MSG(s == WS_ERR_ILLEGAL_ADDRESS, "got %s", ws_status_name(s));
    char want[300];
    snprintf(want, sizeof want,
             "kernel peek: invalid global load of 4 bytes at 0x%llx (0 bytes after the end of the allocation "
             "at 0x%llx of 1024 bytes; -warpsim_memcheck 2 stops at the first) at CTA (0,0,0) thread (16,0,0)",
             (unsigned long long)(a + 1024), (unsigned long long)a);
    CHECK_STR_CONTAINS(ws_device_last_error(e.d), want);
    CHECK_EQ_I64(count_of(err, "memcheck: kernel peek: invalid global load"), 1);
    CHECK_STR_CONTAINS(err, "memcheck: 1 bad access in kernel peek (1 site)\n");
    free(err);

    /* unmapped: the fault names the nearest allocation */
    ws_test_stderr_begin(&cap);
    s = peek(&e, a, 64 << 20, out, 1);
    free(ws_test_stderr_end(&cap));
    CHECK_EQ_I64(s, WS_ERR_ILLEGAL_ADDRESS);
    snprintf(want, sizeof want, "illegal address 0x%llx (global load of 4 bytes; %llu bytes after the end of "
             "the allocation at 0x%llx of 1024 bytes)", (unsigned long long)(a + (64 << 20)),
             (unsigned long long)(64 << 20) - 1024, (unsigned long long)a);
    CHECK_STR_CONTAINS(ws_device_last_error(e.d), want);

    CHECK(ws_malloc(e.d, 512, &gone) == WS_OK);
    CHECK(ws_free(e.d, gone) == WS_OK);
    ws_test_stderr_begin(&cap);
    s = poke(&e, gone + 16, 1);
    free(ws_test_stderr_end(&cap));
    CHECK_EQ_I64(s, WS_ERR_ILLEGAL_ADDRESS);
    snprintf(want, sizeof want, "16 bytes into the freed allocation at 0x%llx of 512 bytes: use after free",
             (unsigned long long)gone);
    CHECK_STR_CONTAINS(ws_device_last_error(e.d), want);
    ws_test_stderr_begin(&cap);
    ws_device_destroy(e.d);
    free(ws_test_stderr_end(&cap));
}
BOTH_MODES(stops)

/* Shared and local accesses outside the CTA's shared memory / the thread's
 * local memory always fault (there is nothing there); with memcheck the
 * report also says how far past the end the access is and which shared
 * variable is nearest. */
static void shared_local(int functional) {
    static const char *const sets[] = {"-warpsim_memcheck 1", NULL};
    static const char *const ptx =
        ".version 7.5\n.target sm_75\n.address_size 64\n"
        ".visible .entry sh(.param .u32 n) {\n"
        "  .reg .b32 %r<6>; .reg .pred %p<2>;\n  .shared .align 4 .b32 buf[64];\n"
        "  ld.param.u32 %r1, [n];\n  mov.u32 %r2, %tid.x;\n  setp.ge.u32 %p1, %r2, %r1;\n"
        "  @%p1 bra DONE;\n  mov.u32 %r3, buf;\n  shl.b32 %r4, %r2, 2;\n  add.u32 %r3, %r3, %r4;\n"
        "  st.shared.u32 [%r3], %r2;\nDONE:\n  ret;\n}\n"
        ".visible .entry lo(.param .u32 i) {\n"
        "  .reg .b32 %r<4>; .reg .b64 %rd<4>;\n  .local .align 4 .b32 arr[4];\n"
        "  ld.param.u32 %r1, [i];\n  mov.u64 %rd1, arr;\n  mul.wide.u32 %rd2, %r1, 4;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n  ld.local.u32 %r2, [%rd3];\n  ret;\n}\n";
    for (int mc = 0; mc < 2; mc++) {
        ws_device_options o;
        ws_device_options_init(&o);
        o.quiet = 1;
        o.functional_only = functional;
        o.config_overrides = mc ? sets : NULL;
        ws_device *d;
        if (ws_device_create(&o, &d) != WS_OK) {
            CHECK(0);
            return;
        }
        ws_module_handle *m = NULL;
        ws_kernel *ksh = NULL, *klo = NULL;
        CHECK(ws_module_load(d, ptx, 0, "sl.ptx", NULL, &m) == WS_OK);
        if (!m || ws_module_get_kernel(m, "sh", &ksh) != WS_OK || ws_module_get_kernel(m, "lo", &klo) != WS_OK) {
            CHECK(0);
            ws_device_destroy(d);
            return;
        }
        uint32_t n = 64;
        void *args[] = {&n};
        CHECK_EQ_I64(ws_launch(d, ksh, (ws_dim3){1, 1, 1}, (ws_dim3){96, 1, 1}, 0, args), WS_OK);
        n = 66; /* threads 64 and 65 store past the end */
        ws_test_stderr cap;
        ws_test_stderr_begin(&cap);
        ws_status s = ws_launch(d, ksh, (ws_dim3){1, 1, 1}, (ws_dim3){96, 1, 1}, 0, args);
        char *err = ws_test_stderr_end(&cap);
        CHECK_EQ_I64(s, WS_ERR_ILLEGAL_ADDRESS);
        if (mc) {
            CHECK_STR_CONTAINS(ws_device_last_error(d), "illegal address 0x100 (shared store of 4 bytes; 0 bytes "
                               "past the end of the CTA's 256 bytes of shared memory; nearest variable 'buf' at 0-255)");
            CHECK_STR_CONTAINS(err, "memcheck: kernel sh: invalid shared store of 4 bytes at 0x100 (0 bytes past the "
                               "end of the CTA's 256 bytes of shared memory; nearest variable 'buf' at 0-255) at CTA "
                               "(0,0,0) thread (64,0,0)");
            CHECK_STR_CONTAINS(err, "shared store of 4 bytes outside the CTA's shared memory\n");
        } else {
            CHECK_STR_CONTAINS(ws_device_last_error(d), "illegal address 0x100 (shared store of 4 bytes) at CTA "
                               "(0,0,0) thread (64,0,0)");
            CHECK_MSG(!err || !strstr(err, "memcheck"), "memcheck off, yet: %s", err);
        }
        free(err);
        ws_test_stderr_begin(&cap); /* (the run's memcheck summary) */
        ws_device_destroy(d); /* a fault is sticky: a fresh device for the local case */
        free(ws_test_stderr_end(&cap));
        if (ws_device_create(&o, &d) != WS_OK || ws_module_load(d, ptx, 0, "sl.ptx", NULL, &m) != WS_OK ||
            ws_module_get_kernel(m, "lo", &klo) != WS_OK) {
            CHECK(0);
            return;
        }
        uint32_t i = 1 << 20;
        void *largs[] = {&i};
        ws_test_stderr_begin(&cap);
        s = ws_launch(d, klo, (ws_dim3){1, 1, 1}, (ws_dim3){1, 1, 1}, 0, largs);
        err = ws_test_stderr_end(&cap);
        CHECK_EQ_I64(s, WS_ERR_ILLEGAL_ADDRESS);
        if (mc) CHECK_STR_CONTAINS(err, "memcheck: kernel lo: invalid local load of 4 bytes at 0x400000 (");
        CHECK_STR_CONTAINS(ws_device_last_error(d), "illegal address 0x400000 (local load of 4 bytes");
        free(err);
        ws_test_stderr_begin(&cap);
        ws_device_destroy(d);
        free(ws_test_stderr_end(&cap));
    }
}
BOTH_MODES(shared_local)
