/* bap: bandwidth-aware placement (Agarwal et al., "Page Placement Strategies
 * for GPUs within Heterogeneous Memory Systems", ASPLOS 2015): the fraction
 * BG / (BG + BC) of the pages in GPU memory, at random, whatever the
 * application's caching or latency sensitivity. */
#include <stdlib.h>

#include "policy/page/page.h"

static void *bap_create(ws_params *p, const ws_page_env *env, char *err, size_t errlen) {
    double *st = malloc(sizeof *st);
    if (st) *st = ws_blpp_p_bw(env->bw_gpu, env->bw_cpu);
    return st;
}
static void bap_destroy(void *st) { free(st); }
static unsigned bap_place(void *st, double r, uint64_t placed) {
    return r < *(const double *)st ? WS_NODE_GPU : WS_NODE_CPU;
}
static double bap_ratio(const void *st) { return *(const double *)st; }

const ws_page_policy ws_page_bap = {
    .name = "bap",
    .doc = "bandwidth-aware: BG/(BG+BC) of the pages in GPU memory, at random",
    .create = bap_create,
    .destroy = bap_destroy,
    .place = bap_place,
    .gpu_ratio = bap_ratio,
};
