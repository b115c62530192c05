/* The hang detector: a kernel whose warps spin forever (on a flag nobody
 * sets, on a lock nobody releases) stops with a report of where the warps
 * are, in both modes; a long loop that keeps writing memory does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "warpsim/warpsim.h"

/* Line numbers matter: the report names the spin loop's lines (8-11). */
static const char *const HANG_PTX =
    ".version 7.5\n"                                                   /* 1 */
    ".target sm_75\n"                                                  /* 2 */
    ".address_size 64\n"                                               /* 3 */
    ".visible .entry spin(.param .u64 flag) {\n"                       /* 4 */
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"         /* 5 */
    "  ld.param.u64 %rd1, [flag];\n"                                   /* 6 */
    "  cvta.to.global.u64 %rd2, %rd1;\n"                               /* 7 */
    "$L_wait:\n"                                                       /* 8 */
    "  ld.volatile.global.u32 %r1, [%rd2];\n"                          /* 9 */
    "  setp.eq.u32 %p1, %r1, 0;\n"                                     /* 10 */
    "  @%p1 bra $L_wait;\n"                                            /* 11 */
    "  ret;\n"                                                         /* 12 */
    "}\n"                                                              /* 13 */
    ".visible .entry lock(.param .u64 l) {\n"                          /* 14 */
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"         /* 15 */
    "  ld.param.u64 %rd1, [l];\n"                                      /* 16 */
    "  cvta.to.global.u64 %rd2, %rd1;\n"                               /* 17 */
    "$L_try:\n"                                                        /* 18 */
    "  atom.global.cas.b32 %r1, [%rd2], 0, 1;\n"                       /* 19 */
    "  setp.ne.u32 %p1, %r1, 0;\n"                                     /* 20 */
    "  @%p1 bra $L_try;\n"                                             /* 21 */
    "  ret;\n"                                                         /* 22 */
    "}\n"                                                              /* 23 */
    ".visible .entry busy(.param .u64 out, .param .u32 n) {\n"         /* 24 */
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"         /* 25 */
    "  ld.param.u64 %rd1, [out];\n"                                    /* 26 */
    "  ld.param.u32 %r2, [n];\n"                                       /* 27 */
    "  cvta.to.global.u64 %rd2, %rd1;\n"                               /* 28 */
    "  mov.u32 %r1, 0;\n"                                              /* 29 */
    "$L_loop:\n"                                                       /* 30 */
    "  add.u32 %r1, %r1, 1;\n"                                         /* 31 */
    "  st.global.u32 [%rd2], %r1;\n"                                   /* 32 */
    "  setp.lt.u32 %p1, %r1, %r2;\n"                                   /* 33 */
    "  @%p1 bra $L_loop;\n"                                            /* 34 */
    "  ret;\n"                                                         /* 35 */
    "}\n";

/* A quiet device with these overrides and the kernels named in `names`
 * (NULL-terminated) of `ptx`; NULL after a failed check. */
static ws_device *open_with(int functional, const char *const *sets, const char *ptx,
                            const char *const *names, ws_kernel **k) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.functional_only = functional;
    o.config_overrides = sets;
    ws_device *d = NULL;
    if (ws_device_create(&o, &d) != WS_OK) {
        CHECK_MSG(0, "cannot create the device");
        return NULL;
    }
    ws_module_handle *m = NULL;
    ws_status s = ws_module_load(d, ptx, 0, "test.ptx", NULL, &m);
    for (size_t i = 0; names[i] && s == WS_OK; i++) s = ws_module_get_kernel(m, names[i], &k[i]);
    if (s != WS_OK) {
        CHECK_MSG(0, "load: %s", ws_device_last_error(d));
        ws_device_destroy(d);
        return NULL;
    }
    return d;
}

static void hang_case(int functional) {
    static const char *const sets[] = {"-warpsim_hang_insns 20000", "-warpsim_hang_cycles 40000",
                                       NULL};
    static const char *const names[] = {"spin", "lock", "busy", NULL};
    ws_kernel *k[3];
    ws_device *d = open_with(functional, sets, HANG_PTX, names, k);
    if (!d) return;
    ws_kernel *spin = k[0], *lock = k[1], *busy = k[2];
    ws_status s;
    ws_devptr buf;
    CHECK(ws_malloc(d, 64, &buf) == WS_OK);
    uint32_t zero[16] = {0}, one = 1;
    CHECK(ws_memcpy_htod(d, buf, zero, sizeof zero) == WS_OK);

    /* a flag nobody sets */
    void *a1[] = {&buf};
    s = ws_launch(d, spin, (ws_dim3){2, 1, 1}, (ws_dim3){64, 1, 1}, 0, a1);
    CHECK_MSG(s == WS_ERR_DEADLOCK, "spin: got %s", ws_status_name(s));
    const char *e = ws_device_last_error(d);
    CHECK_STR_CONTAINS(e, "spin");
    CHECK_STR_CONTAINS(e, "hung");
    CHECK_STR_CONTAINS(e, "in the loop of lines 9-11");
    CHECK_STR_CONTAINS(e, functional ? "-warpsim_hang_insns" : "-warpsim_hang_cycles");

    /* a lock nobody releases: failed compare-and-swaps write nothing */
    CHECK(ws_memcpy_htod(d, buf, &one, 4) == WS_OK);
    s = ws_launch(d, lock, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, a1);
    CHECK_MSG(s == WS_ERR_DEADLOCK, "lock: got %s", ws_status_name(s));
    CHECK_STR_CONTAINS(ws_device_last_error(d), "in the loop of lines 19-21");

    /* far more instructions than the limit, but every iteration stores */
    uint32_t n = 30000;
    void *a2[] = {&buf, &n};
    s = ws_launch(d, busy, (ws_dim3){1, 1, 1}, (ws_dim3){32, 1, 1}, 0, a2);
    CHECK_MSG(s == WS_OK, "busy: %s", ws_device_last_error(d));
    uint32_t got = 0;
    CHECK(ws_memcpy_dtoh(d, &got, buf, 4) == WS_OK);
    CHECK_EQ_U64(got, n);
    ws_device_destroy(d);
}

TEST(hang_detected_functional) { hang_case(1); }
TEST(hang_detected_timing) { hang_case(0); }

/* A barrier that can never complete (it expects 64 threads; the second warp
 * exits instead): both modes name the barrier and its line. */
static const char *const BAR_PTX =
    ".version 7.5\n"                                                   /* 1 */
    ".target sm_75\n"                                                  /* 2 */
    ".address_size 64\n"                                               /* 3 */
    ".visible .entry halfbar() {\n"                                    /* 4 */
    "  .reg .pred %p<2>; .reg .b32 %r<2>;\n"                           /* 5 */
    "  mov.u32 %r1, %tid.x;\n"                                         /* 6 */
    "  setp.ge.u32 %p1, %r1, 32;\n"                                    /* 7 */
    "  @%p1 bra $L_out;\n"                                             /* 8 */
    "  bar.sync 1, 64;\n"                                              /* 9 */
    "$L_out:\n"                                                        /* 10 */
    "  ret;\n"                                                         /* 11 */
    "}\n";

static void barrier_case(int functional) {
    static const char *const sets[] = {"-warpsim_watchdog_cycles 2000", NULL};
    static const char *const names[] = {"halfbar", NULL};
    ws_kernel *k;
    ws_device *d = open_with(functional, sets, BAR_PTX, names, &k);
    if (!d) return;
    ws_status s = ws_launch(d, k, (ws_dim3){1, 1, 1}, (ws_dim3){64, 1, 1}, 0, NULL);
    CHECK_MSG(s == WS_ERR_DEADLOCK, "got %s", ws_status_name(s));
    const char *e = ws_device_last_error(d);
    CHECK_STR_CONTAINS(e, "halfbar");
    CHECK_STR_CONTAINS(e, "barrier 1");
    CHECK_STR_CONTAINS(e, "line 9");
    ws_device_destroy(d);
}

TEST(barrier_deadlock_functional) { barrier_case(1); }
TEST(barrier_deadlock_timing) { barrier_case(0); }

/* Progress lines reach a batch log (stderr not a terminal) with -q too:
 * kernel, cycle, instructions, rate, CTAs done of total and an ETA. */
TEST(progress_lines_in_batch_logs) {
    static const char *const sets[] = {"-warpsim_progress 0.000001", NULL};
    static const char *const names[] = {"busy", NULL};
    ws_kernel *k;
    ws_device *d = open_with(0, sets, HANG_PTX, names, &k);
    if (!d) return;
    ws_devptr buf;
    CHECK(ws_malloc(d, 64, &buf) == WS_OK);
    uint32_t n = 3000;
    void *args[] = {&buf, &n};
    ws_test_stderr cap;
    ws_test_stderr_begin(&cap);
    ws_status s = ws_launch(d, k, (ws_dim3){4, 1, 1}, (ws_dim3){32, 1, 1}, 0, args);
    char *err = ws_test_stderr_end(&cap);
    CHECK(s == WS_OK);
    CHECK_STR_CONTAINS(err, "warpsim: kernel busy (launch 1): cycle 4096, ");
    CHECK_STR_CONTAINS(err, "M insts, ");
    CHECK_STR_CONTAINS(err, "K cycles/s, CTAs 0/4 done (0.0%), ETA ?\n");
    CHECK(strchr(err, '\r') == NULL); /* not a terminal: whole lines */
    free(err);
    ws_device_destroy(d);
}
