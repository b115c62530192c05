/* blpp: static bandwidth- and latency-aware placement (S-BLPP). The
 * application's counters come from a profiling run (-hm_profile, written by
 * a run with -hm_profile_out, normally under `local`); the model classifies
 * the application once (Eq. 6) and every page then goes to GPU memory with
 * the resulting probability: BG/(BG+BC) for a bandwidth-bound application
 * that tolerates the CPU latency, 1 otherwise. */
#include <stdlib.h>

#include "policy/page/page.h"

static const ws_param_def blpp_params[] = {WS_BLPP_PARAMS};

static void *blpp_create(ws_params *p, const ws_page_env *env, char *err, size_t errlen) {
    if (!env->profile || !*env->profile) {
        snprintf(err, errlen, "needs the profile file of a profiling run (-hm_profile FILE; "
                 "a run with -hm_profile_out FILE writes it)");
        return NULL;
    }
    ws_page_counters c;
    if (ws_page_profile_read(env->profile, &c, err, errlen)) return NULL;
    ws_blpp_cfg m;
    ws_blpp_cfg_read(&m, p, env);
    double *st = malloc(sizeof *st);
    if (st) *st = ws_blpp_decide(&m, &c);
    else snprintf(err, errlen, "out of memory");
    return st;
}
static void blpp_destroy(void *st) { free(st); }
static unsigned blpp_place(void *st, double r, uint64_t placed) {
    return r < *(const double *)st ? WS_NODE_GPU : WS_NODE_CPU;
}
static double blpp_ratio(const void *st) { return *(const double *)st; }

const ws_page_policy ws_page_blpp = {
    .name = "blpp",
    .doc = "S-BLPP: the ratio of the BLPP model from a profile file (-hm_profile)",
    WS_PARAMS(blpp_params),
    .create = blpp_create,
    .destroy = blpp_destroy,
    .place = blpp_place,
    .gpu_ratio = blpp_ratio,
};
