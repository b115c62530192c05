/* Stores under the timing model go to the SM's write log; when every active
 * lane's access lies in one allocation they are logged without the per-lane
 * address decoding (src/exec/exec_mem.c, exec_st_logged). The memory a run
 * leaves must be what the functional engine leaves: full warps, partial warps,
 * vector stores, a warp whose lanes reach into a second allocation (the
 * per-lane path), and a lane past every allocation (the same fault). */
#include "test.h"
#include "warpsim/warpsim.h"

static const char g_st_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry st(.param .u64 p_buf, .param .u32 p_off, .param .u32 p_n)\n"
    "{\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<8>;\n"
    "    .reg .pred %p<2>;\n"
    "    ld.param.u64 %rd1, [p_buf];\n"
    "    ld.param.u32 %r5, [p_off];\n"
    "    ld.param.u32 %r6, [p_n];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    setp.ge.u32 %p1, %r1, %r6;\n"       /* lanes >= n do not store */
    "    @%p1 bra done;\n"
    "    add.u32 %r2, %r1, %r5;\n"
    "    mul.wide.u32 %rd3, %r2, 8;\n"
    "    add.u64 %rd4, %rd1, %rd3;\n"
    "    add.u32 %r3, %r1, 100;\n"
    "    mul.lo.u32 %r4, %r1, 7;\n"
    "    st.global.v2.u32 [%rd4], {%r3, %r4};\n"
    "    st.global.u16 [%rd4+2], %r1;\n"
    "done:\n"
    "    ret;\n"
    "}\n";

/* Runs the kernel (one CTA of 64 threads) on a fresh device; returns the launch
   status and the first buffer's 128 u64 words. */
static ws_status run_st(int timing, uint32_t off, uint32_t n, uint64_t *out) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = !timing;
    o.quiet = 1;
    ws_device *d = NULL;
    ws_status st = ws_device_create(&o, &d);
    CHECK(st == WS_OK);
    if (st != WS_OK) return st;
    static const char info[] = "ptxas info    : Compiling entry function 'st' for 'sm_70'\n"
                               "ptxas info    : Used 8 registers, used 0 barriers\n";
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    ws_devptr buf = 0, next = 0;
    CHECK(ws_module_load(d, g_st_ptx, sizeof g_st_ptx - 1, "st.ptx", info, &m) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "st", &k) == WS_OK);
    CHECK(ws_malloc(d, 128 * 8, &buf) == WS_OK && ws_malloc(d, 128 * 8, &next) == WS_OK);
    ws_memset(d, buf, 0, 128 * 8);
    ws_memset(d, next, 0, 128 * 8);
    void *args[] = {&buf, &off, &n};
    ws_dim3 grid = {1, 1, 1}, block = {64, 1, 1};
    st = k ? ws_launch(d, k, grid, block, 0, args) : WS_ERR_INVALID_VALUE;
    if (st == WS_OK) CHECK(ws_memcpy_dtoh(d, out, buf, 128 * 8) == WS_OK);
    ws_device_destroy(d);
    return st;
}

TEST(st_logged_matches_functional) {
    /* (offset, storing threads): in the buffer, partial warps, into the next
       allocation or past it (the allocator's layout decides which: both engines
       must agree either way) */
    const uint32_t cases[][2] = {{0, 64}, {3, 64}, {0, 45}, {64, 64}, {100, 64}, {0, 1}};
    for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
        uint64_t f[128] = {0}, t[128] = {0};
        ws_status sf = run_st(0, cases[c][0], cases[c][1], f);
        ws_status stt = run_st(1, cases[c][0], cases[c][1], t);
        CHECK_MSG(sf == stt, "case %u: functional %d, timing %d", c, (int)sf, (int)stt);
        if (sf == WS_OK && stt == WS_OK && memcmp(f, t, sizeof f))
            CHECK_MSG(0, "case %u: the memory differs", c);
    }
}
