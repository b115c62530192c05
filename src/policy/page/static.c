/* static:P: a fixed fraction P of the pages in GPU memory, chosen at random
 * page by page (the static-best study sweeps P). */
#include <stdlib.h>

#include "policy/page/page.h"

static const ws_param_def static_params[] = {
    WS_DOUBLE("p", "0.5", 0, 1, "fraction of pages placed in GPU memory"),
};

static void *st_create(ws_params *p, const ws_page_env *env, char *err, size_t errlen) {
    double *st = malloc(sizeof *st);
    if (st) *st = ws_param_double(p, "p");
    return st;
}
static void st_destroy(void *st) { free(st); }
static unsigned st_place(void *st, double r, uint64_t placed) {
    return r < *(const double *)st ? WS_NODE_GPU : WS_NODE_CPU;
}
static double st_ratio(const void *st) { return *(const double *)st; }

const ws_page_policy ws_page_static = {
    .name = "static",
    .doc = "a fixed fraction p of the pages in GPU memory, at random",
    WS_PARAMS(static_params),
    .create = st_create,
    .destroy = st_destroy,
    .place = st_place,
    .gpu_ratio = st_ratio,
};
