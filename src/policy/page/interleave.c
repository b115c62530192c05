/* interleave: pages alternate between the nodes in allocation order (the
 * NUMA operating systems' round robin; half of the pages in each node). */
#include "policy/page/page.h"

static int g_interleave_state;

static void *il_create(ws_params *p, const ws_page_env *env, char *err, size_t errlen) {
    return &g_interleave_state;
}
static void il_destroy(void *st) {}
static unsigned il_place(void *st, double r, uint64_t placed) {
    return placed % 2 ? WS_NODE_CPU : WS_NODE_GPU;
}
static double il_ratio(const void *st) { return 0.5; }

const ws_page_policy ws_page_interleave = {
    .name = "interleave",
    .doc = "round robin by page over GPU and CPU memory, in allocation order",
    .create = il_create,
    .destroy = il_destroy,
    .place = il_place,
    .gpu_ratio = il_ratio,
};
