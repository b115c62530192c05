/* Control flow real CUDA programs produce: indirect calls whose targets
 * differ between the lanes of a warp (tests/data/ptx/ctrl.cu) and a jump
 * table (brx.idx, hand-written: nvcc 13 emits compare chains for switches),
 * run on a functional-only device and on the timing model, checked against
 * the CPU. */
#include <stdbool.h>
#include <stdlib.h>

#include "test.h"
#include "warpsim/warpsim.h"

static int op_add(int a, int b) { return a + b * 3; }
static int op_mul(int a, int b) { return (int)((unsigned)a * (unsigned)b) - 7; }
static int op_xor(int a, int b) { return (a ^ b) + (a >> 2); }

static ws_device *open_dev(int functional) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = functional;
    o.quiet = 1;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    return d;
}

/* Launch kernel kname of ptx on 2 CTAs of 128 threads, on a functional-only
 * device and on the timing model: params are the nin input arrays (n
 * 32-bit values each), the output array, then n if with_n; the output must
 * equal want. */
static void run_both(const char *ptx, size_t len, const char *kname, const uint32_t *const *ins, int nin, bool with_n,
                     const uint32_t *want, int n) {
    size_t bytes = (size_t)n * 4;
    uint32_t *out = malloc(bytes);
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) continue;
        ws_module_handle *m = NULL;
        ws_kernel *k = NULL;
        CHECK(ws_module_load(d, ptx, len, kname, NULL, &m) == WS_OK);
        CHECK(m && ws_module_get_kernel(m, kname, &k) == WS_OK);
        ws_devptr dp[4] = {0};
        void *args[5];
        int na = 0;
        for (int i = 0; i <= nin; i++) {
            CHECK(ws_malloc(d, bytes, &dp[i]) == WS_OK);
            if (i < nin) CHECK(ws_memcpy_htod(d, dp[i], ins[i], bytes) == WS_OK);
            args[na++] = &dp[i];
        }
        if (with_n) args[na++] = &n;
        ws_dim3 grid = {2, 1, 1}, block = {128, 1, 1};
        CHECK(ws_launch(d, k, grid, block, 0, args) == WS_OK);
        memset(out, 0, bytes);
        CHECK(ws_memcpy_dtoh(d, out, dp[nin], bytes) == WS_OK);
        int bad = 0;
        for (int i = 0; i < n && bad < 5; i++)
            if (out[i] != want[i])
                CHECK_MSG(bad++ < 0, "%s %s: out[%d] = %d, want %d", kname, functional ? "functional" : "timing", i,
                          (int)out[i], (int)want[i]);
        ws_device_destroy(d);
    }
    free(out);
}

TEST(ctrl_indirect_call_divergent_targets) {
    int (*const tab[3])(int, int) = {op_add, op_mul, op_xor};
    enum { N = 200 }; /* 7 warps, the last one partial */
    int sel[N], in[N], want[N];
    for (int i = 0; i < N; i++) {
        /* groups of every size, uniform warps too (warp 2 all selects 1) */
        sel[i] = (i >= 64 && i < 96) ? 1 : (i * 7 + i / 5) % 11;
        in[i] = i * 13 - 300;
        int v = tab[sel[i] % 3](in[i], i);
        want[i] = tab[(sel[i] + 1) % 3](v, 5) + 1;
    }
    size_t len = 0;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/ptx/ctrl.ptx", ws_test_root());
    char *ptx = ws_test_read_file(path, &len);
    CHECK_MSG(ptx != NULL, "cannot read %s", path);
    if (!ptx) return;
    const uint32_t *ins[2] = {(const uint32_t *)sel, (const uint32_t *)in};
    run_both(ptx, len, "fptr", ins, 2, true, (const uint32_t *)want, N);
    free(ptx);
}

/* out[i] = case (in[i] % 6) of a 6-way jump table, then + 1 after the join. */
static const char *k_switch =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry sw(.param .u64 pin, .param .u64 pout)\n{\n"
    ".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
    "mov.u32 %r3, %ntid.x;\nmad.lo.s32 %r4, %r2, %r3, %r1;\nmul.wide.u32 %rd3, %r4, 4;\n"
    "add.s64 %rd4, %rd1, %rd3;\nadd.s64 %rd5, %rd2, %rd3;\nld.global.u32 %r5, [%rd4];\nrem.u32 %r6, %r5, 6;\n"
    "$T: .branchtargets C0, C1, C2, C3, C4, C5;\nbrx.idx %r6, $T;\n"
    "C0:\nmul.lo.u32 %r7, %r5, 3;\nbra J;\nC1:\nadd.u32 %r7, %r5, 1000;\nbra J;\n"
    "C2:\nxor.b32 %r7, %r5, 0x55;\nbra J;\nC3:\nshl.b32 %r7, %r5, 2;\nbra J;\n"
    "C4:\nsub.u32 %r7, 0, %r5;\nbra J;\nC5:\nmov.u32 %r7, 77;\n"
    "J:\nadd.u32 %r7, %r7, 1;\nst.global.u32 [%rd5], %r7;\nret;\n}\n";

static uint32_t switch_cpu(uint32_t v) {
    uint32_t r;
    switch (v % 6) {
    case 0: r = v * 3; break;
    case 1: r = v + 1000; break;
    case 2: r = v ^ 0x55; break;
    case 3: r = v << 2; break;
    case 4: r = 0 - v; break;
    default: r = 77; break;
    }
    return r + 1;
}

TEST(ctrl_brx_idx_divergent_switch) {
    enum { N = 256 };
    uint32_t in[N], want[N];
    for (int i = 0; i < N; i++) in[i] = (uint32_t)(i < 32 ? 4 : i * 2654435761u >> 7); /* warp 0 uniform */
    for (int i = 0; i < N; i++) want[i] = switch_cpu(in[i]);
    const uint32_t *ins[1] = {in};
    run_both(k_switch, strlen(k_switch), "sw", ins, 1, false, want, N);
}
