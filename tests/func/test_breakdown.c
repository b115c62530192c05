/* GPGPU-Sim's statistic breakdowns on hand-written kernels whose numbers are
 * known: thread-level memory instruction counts (gpgpu_n_*_insn) and the
 * occupancy limiter. The regex-level checks on whole workloads are in
 * tests/tools/test_gpgpusim_stats.py. */
#include <stdlib.h>
#include <string.h>

#include "stats_util.h"
#include "test.h"
#include "warpsim/warpsim.h"

/* memcount: per thread 2 ld.param, 1 ld.global, 1 ld.global guarded by
 * tid.x < 16, 1 atom.global (a load for GPGPU-Sim), 1 st.global, 1
 * st.shared and 1 ld.shared. regheavy: nothing, with registers from ptxas. */
static const char *const g_ptx =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry memcount(.param .u64 p_out, .param .u64 p_in)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<8>;\n"
    "  .shared .align 4 .b8 sm[1024];\n"
    "  ld.param.u64 %rd1, [p_out];\n  ld.param.u64 %rd2, [p_in];\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n  add.s64 %rd5, %rd1, %rd3;\n"
    "  ld.global.u32 %r5, [%rd4];\n  mov.u32 %r6, 0;\n"
    "  setp.lt.u32 %p1, %r1, 16;\n  @%p1 ld.global.u32 %r6, [%rd4+4];\n"
    "  atom.global.add.u32 %r7, [%rd2], 1;\n"
    "  mul.wide.u32 %rd6, %r1, 4;\n  mov.u64 %rd7, sm;\n  add.s64 %rd7, %rd7, %rd6;\n"
    "  st.shared.u32 [%rd7], %r5;\n  ld.shared.u32 %r8, [%rd7];\n"
    "  add.s32 %r9, %r8, %r6;\n  st.global.u32 [%rd5], %r9;\n  ret;\n}\n"
    ".visible .entry regheavy(.param .u64 p)\n{\n  ret;\n}\n";

static const char *const g_ptxas =
    "ptxas info    : Compiling entry function 'regheavy' for 'sm_75'\n"
    "ptxas info    : Used 63 registers, 356 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function 'memcount' for 'sm_75'\n"
    "ptxas info    : Used 10 registers, 1024 bytes smem, 368 bytes cmem[0]\n";

/* Run one kernel on a fresh timing-mode device (default preset gtx480) and
 * return its text report. */
static char *run(const char *kernel, unsigned grid, unsigned block) {
    char *rep = NULL;
    size_t len = 0;
    FILE *rf = open_memstream(&rep, &len);
    ws_device *d = ws_test_timing_device(NULL, NULL, rf);
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    ws_devptr in = 0, out = 0;
    size_t n = (size_t)grid * block + 1;
    CHECK(d && ws_module_load(d, g_ptx, strlen(g_ptx), "breakdown.ptx", g_ptxas, &m) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, kernel, &k) == WS_OK);
    CHECK(ws_malloc(d, n * 4, &in) == WS_OK && ws_malloc(d, n * 4, &out) == WS_OK);
    CHECK(ws_memset(d, in, 0, n * 4) == WS_OK);
    void *args[] = {&out, &in};
    if (k) CHECK(ws_launch(d, k, (ws_dim3){grid, 1, 1}, (ws_dim3){block, 1, 1}, 0, args) == WS_OK);
    ws_device_destroy(d);
    fclose(rf);
    return rep;
}

static double stat1(const char *rep, const char *name) {
    double v = -1;
    CHECK_MSG(ws_test_stat(rep, 1, name, &v, 1) == 1, "%s: not once in the report", name);
    return v;
}

TEST(breakdown_mem_insn_hand_count) {
    char *rep = run("memcount", 2, 64);
    const unsigned threads = 128, guarded = 2 * 16; /* tid.x < 16 in each CTA */
    CHECK_MSG(rep != NULL, "no report");
    if (!rep) return;
    /* loads: the plain one, the guarded one's true lanes, the atomic */
    CHECK_MSG(stat1(rep, "gpgpu_n_load_insn") == threads + guarded + threads, "%.0f loads",
              stat1(rep, "gpgpu_n_load_insn"));
    CHECK(stat1(rep, "gpgpu_n_store_insn") == threads);
    CHECK(stat1(rep, "gpgpu_n_shmem_insn") == 2 * threads);
    CHECK(stat1(rep, "gpgpu_n_param_mem_insn") == 2 * threads);
    CHECK(stat1(rep, "gpgpu_n_tex_insn") == 0);
    CHECK(stat1(rep, "gpgpu_n_const_mem_insn") == 0);
    /* per kernel too, and GPGPU-Sim's padding of the first name */
    CHECK(stat1(rep, "gpgpu_n_load_insn_kernel") == threads + guarded + threads);
    CHECK(strstr(rep, "\ngpgpu_n_load_insn  = ") != NULL);
    free(rep);
}

TEST(breakdown_occupancy_limiter) {
    /* 63 registers (64 after rounding) x 256 threads: 2 CTAs in 32768 registers, where
       threads (1536) would allow 6 and CTA slots 8 */
    char *rep = run("regheavy", 64, 256);
    CHECK(rep && strstr(rep, "warpsim_cta_limited_by = regs\n"));
    CHECK(rep && stat1(rep, "warpsim_ctas_per_sm") == 2);
    CHECK(rep && stat1(rep, "warpsim_regs_per_thread") == 63);
    free(rep);
    /* 10 registers: threads limit (1536 / 256 = 6 CTAs) */
    rep = run("memcount", 128, 256);
    CHECK(rep && strstr(rep, "warpsim_cta_limited_by = threads\n"));
    CHECK(rep && stat1(rep, "warpsim_ctas_per_sm") == 6);
    CHECK(rep && stat1(rep, "warpsim_smem_per_cta") == 1024);
    free(rep);
    /* too few CTAs to fill 15 SMs: the grid limits */
    rep = run("regheavy", 4, 256);
    CHECK(rep && strstr(rep, "warpsim_cta_limited_by = grid\n"));
    free(rep);
}
