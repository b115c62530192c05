/* Timing of the tensor-core instructions (mma.sync, wmma.mma). One mma
 * occupies its unit for its initiation interval, the multiply-adds it does
 * divided by the rate (-warpsim_tensor_macs_per_cycle, f16 multiply-adds per
 * cycle; tf32 runs at half that rate, 8-bit integers at twice, f64 at 1/16,
 * the ratios of NVIDIA's A100 tensor cores), and its result is ready
 * -warpsim_tensor_latency cycles after that. wmma.load and wmma.store are
 * memory instructions of the LD/ST unit. */
#include "timing/sm/sm_internal.h"
#include "ptx/mma.h"

/* Cost of a multiply-add relative to f16's, in quarters. */
static int64_t quarters(ws_type a) {
    switch (a) {
    case WS_T_S8: case WS_T_U8: case WS_T_E4M3: case WS_T_E5M2: return 2;
    case WS_T_S4: case WS_T_U4: case WS_T_B1: return 1; /* b1 at s4's rate: a floor of one quarter */
    case WS_T_B32: return 8; /* tf32 */
    case WS_T_F64: return 64;
    default: return 4;
    }
}

void sm_tensor_timing(const ws_config *c, const ws_inst *in, int64_t *lat, int64_t *ii) {
    ws_mma_dims d = ws_mma_dims_of(in->cmp);
    int64_t q = (int64_t)d.m * d.n * d.k * quarters((ws_type)in->stype);
    int64_t rate = c->tensor_macs * 4;
    int64_t i = (q + rate - 1) / rate;
    *ii = i < 1 ? 1 : i;
    *lat = c->tensor_latency + *ii;
}

int64_t sm_tensor_max_latency(const ws_config *c) {
    /* the most expensive forms: 4096 f16 multiply-adds, 2048 tf32, 256 f64 */
    int64_t q = 4096 * 4, rate = c->tensor_macs * 4;
    return c->tensor_latency + (q + rate - 1) / rate;
}
