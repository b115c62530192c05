/* local: every page in GPU memory (the baseline of the placement study). */
#include "policy/page/page.h"

static int g_local_state; /* a non-NULL state: the policy has none */

static void *local_create(ws_params *p, const ws_page_env *env, char *err, size_t errlen) {
    return &g_local_state;
}
static void local_destroy(void *st) {}
static unsigned local_place(void *st, double r, uint64_t placed) { return WS_NODE_GPU; }
static double local_ratio(const void *st) { return 1.0; }

const ws_page_policy ws_page_local = {
    .name = "local",
    .doc = "all pages in GPU memory",
    .create = local_create,
    .destroy = local_destroy,
    .place = local_place,
    .gpu_ratio = local_ratio,
};
