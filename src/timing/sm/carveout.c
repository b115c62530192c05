/* The unified L1D/shared-memory array of GPGPU-Sim 4's post-Fermi configs
 * (-gpgpu_adaptive_cache_config 1). At each kernel launch the shared memory
 * the SM's CTAs of that kernel use (per CTA x CTAs per SM) picks the first
 * carve-out of -gpgpu_shmem_option (KB, ascending) that holds it; the L1D
 * gets the rest of the -gpgpu_unified_l1d_size KB array. The L1D keeps its
 * sets and line size and changes its ways: the array's full share is
 * ways x unified / (size of the -gpgpu_cache:dl1 geometry), scaled by
 * 1 - carve-out / unified and rounded to nearest, as GPGPU-Sim sizes it
 * (its "Reconfigure L1 cache to N KB" lines: SM7_QV100 128 KB without shared
 * memory, 120 KB with 8 KB; SM75_RTX2060 64 KB with its smallest carve-out
 * of 32 KB out of 96). */
#include <stdio.h>
#include <stdlib.h>

#include "timing/sm/sm_internal.h"

int sm_carveout_parse(const char *spec, uint32_t *kb, unsigned max, unsigned *n, char *err,
                      size_t errlen) {
    *n = 0;
    const char *p = spec ? spec : "";
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 4096 || (*n && (uint32_t)v <= kb[*n - 1]) || *n == max ||
            (*end && *end != ',')) {
            snprintf(err, errlen,
                     "-gpgpu_shmem_option %s: expected up to %u ascending shared-memory carve-outs "
                     "in KB (0 to 4096), comma-separated",
                     spec, max);
            return -1;
        }
        kb[(*n)++] = (uint32_t)v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

uint32_t sm_carveout_ways(uint32_t ways, uint64_t l1d_bytes, uint32_t unified_kb, const uint32_t *kb,
                          unsigned n, uint64_t shmem_bytes) {
    uint64_t unified = (uint64_t)unified_kb * 1024;
    if (!n || !l1d_bytes || !unified) return ways;
    unsigned i = 0;
    while (i + 1 < n && shmem_bytes > (uint64_t)kb[i] * 1024) i++; /* the first that holds it */
    uint64_t max_ways = ways * (unified / l1d_bytes);
    double share = 1.0 - (double)kb[i] * 1024 / (double)unified;
    if (share < 0) share = 0;
    uint32_t w = (uint32_t)((double)max_ways * share + 0.5);
    return w ? w : 1; /* a carve-out of the whole array leaves the L1D one way */
}

int sm_carveout_init(ws_sm *sm, char *err, size_t errlen) {
    const ws_config *c = sm->cfg;
    sm->carve_n = 0;
    if (!c->adaptive_cache_config) return 0;
    if (sm_carveout_parse(c->shmem_option, sm->carve_kb, SM_MAX_CARVEOUTS, &sm->carve_n, err,
                          errlen))
        return -1;
    if (!sm->carve_n || !c->unified_l1d_size) {
        snprintf(err, errlen,
                 "-gpgpu_adaptive_cache_config 1 needs -gpgpu_shmem_option (carve-outs in KB) and "
                 "-gpgpu_unified_l1d_size (KB, from 1)");
        return -1;
    }
    ws_cache_cfg cc;
    char e[200];
    if (ws_cache_cfg_parse(c->cache_dl1, &cc, e, sizeof e)) {
        snprintf(err, errlen, "-gpgpu_cache:dl1: %s", e);
        return -1;
    }
    sm->carve_ways = cc.assoc;
    sm->carve_way_bytes = (uint64_t)cc.nsets * cc.line_size;
    return 0;
}

void sm_carveout_kernel_start(ws_sm *sm) {
    if (!sm->carve_n) return;
    uint64_t shmem = (uint64_t)sm->res.smem_per_cta * sm->max_cta;
    uint64_t l1d_bytes = sm->carve_way_bytes * sm->carve_ways;
    uint32_t w = sm_carveout_ways(sm->carve_ways, l1d_bytes, (uint32_t)sm->cfg->unified_l1d_size,
                                  sm->carve_kb, sm->carve_n, shmem);
    ws_cache_set_ways(sm->l1d, w); /* kept as it is while a fill is pending (none at a launch) */
}
