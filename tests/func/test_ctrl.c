/* Control flow real CUDA programs produce: indirect calls whose targets
 * differ between the lanes of a warp (tests/data/ptx/ctrl.cu), run on a
 * functional-only device and on the timing model, checked against the CPU. */
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

TEST(ctrl_indirect_call_divergent_targets) {
    int (*const tab[3])(int, int) = {op_add, op_mul, op_xor};
    enum { N = 200 }; /* 7 warps, the last one partial */
    int sel[N], in[N], out[N], want[N];
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
    for (int functional = 1; functional >= 0; functional--) {
        ws_device *d = open_dev(functional);
        if (!d) continue;
        ws_module_handle *m = NULL;
        ws_kernel *k = NULL;
        CHECK(ws_module_load(d, ptx, len, "ctrl.ptx", NULL, &m) == WS_OK);
        CHECK(m && ws_module_get_kernel(m, "fptr", &k) == WS_OK);
        ws_devptr ds = 0, di = 0, dout = 0;
        CHECK(ws_malloc(d, sizeof sel, &ds) == WS_OK && ws_malloc(d, sizeof in, &di) == WS_OK &&
              ws_malloc(d, sizeof out, &dout) == WS_OK);
        CHECK(ws_memcpy_htod(d, ds, sel, sizeof sel) == WS_OK && ws_memcpy_htod(d, di, in, sizeof in) == WS_OK);
        int n = N;
        void *args[] = {&ds, &di, &dout, &n};
        ws_dim3 grid = {2, 1, 1}, block = {128, 1, 1};
        CHECK(ws_launch(d, k, grid, block, 0, args) == WS_OK);
        memset(out, 0, sizeof out);
        CHECK(ws_memcpy_dtoh(d, out, dout, sizeof out) == WS_OK);
        int bad = 0;
        for (int i = 0; i < N && bad < 5; i++)
            if (out[i] != want[i])
                CHECK_MSG(bad++ < 0, "%s: out[%d] = %d, want %d", functional ? "functional" : "timing", i,
                          out[i], want[i]);
        ws_device_destroy(d);
    }
    free(ptx);
}
