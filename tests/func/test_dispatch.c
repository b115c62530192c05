/* CTA dispatch order (docs/timing.md, "warpsim against GPGPU-Sim itself"):
 * each cycle every core cluster may take one CTA (its cores in turn; one core
 * per cluster here, as on the GTX480), visiting the clusters round robin from
 * the one after the cluster that received the last CTA in an earlier cycle; the first
 * CTA of the first launch goes to SM 0, and later launches go on from where
 * the last one stopped. So CTA i of a launch lands on SM (start + i) mod n,
 * which decides which CTAs share an L1D (GPGPU-Sim's order). */
#include <stdint.h>

#include "test.h"
#include "warpsim/warpsim.h"

static const char *const SMID_PTX =
    ".version 7.5\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry where(.param .u64 out) {\n"
    "  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<5>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n"
    "  @%p1 bra $L_done;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %smid;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r3;\n"
    "$L_done:\n"
    "  ret;\n"
    "}\n";

TEST(cta_dispatch_round_robin_from_sm0) {
    /* 4 SMs, room for every CTA at once: the order alone places them */
    static const char *const sets[] = {"-gpgpu_n_clusters 4", "-gpgpu_n_cores_per_cluster 1",
                                       NULL};
    ws_device_options o;
    ws_device_options_init(&o);
    o.quiet = 1;
    o.functional_only = 0;
    o.preset = "gtx480";
    o.config_overrides = sets;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    if (!d) return;
    ws_module_handle *m = NULL;
    ws_kernel *k = NULL;
    CHECK(ws_module_load(d, SMID_PTX, 0, "dispatch.ptx", NULL, &m) == WS_OK);
    CHECK(m && ws_module_get_kernel(m, "where", &k) == WS_OK);
    ws_devptr buf = 0;
    CHECK(ws_malloc(d, 64, &buf) == WS_OK);
    if (!k || !buf) {
        ws_device_destroy(d);
        return;
    }
    void *args[] = {&buf};
    uint32_t sm[10] = {0};
    /* 10 CTAs: cycle 1 gives CTAs 0-3 to SMs 0-3, cycle 2 CTAs 4-7, cycle 3
       CTAs 8 and 9 to SMs 0 and 1 */
    CHECK(ws_launch(d, k, (ws_dim3){10, 1, 1}, (ws_dim3){32, 1, 1}, 0, args) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, sm, buf, sizeof sm) == WS_OK);
    for (uint32_t i = 0; i < 10; i++) CHECK_EQ_U64(sm[i], i % 4);
    /* the next launch starts after SM 1 */
    CHECK(ws_launch(d, k, (ws_dim3){3, 1, 1}, (ws_dim3){32, 1, 1}, 0, args) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, sm, buf, 3 * sizeof sm[0]) == WS_OK);
    CHECK_EQ_U64(sm[0], 2);
    CHECK_EQ_U64(sm[1], 3);
    CHECK_EQ_U64(sm[2], 0);
    ws_device_destroy(d);
}
