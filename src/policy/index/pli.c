/* PLI (seed 003 §2.2): polynomial-modulus indexing, the same function as
 * PRIC but over the whole block address by default (seed 003's trees use
 * A[31:7]; higher bits only permute the sets of a working set). */
#include <stdlib.h>

#include "policy/index/gf2.h"

static const ws_param_def pli_params[] = WS_POLYIDX_PARAMS("64");

static void *pli_create(const ws_cache_geom *g, ws_params *p, char *err, size_t errlen) {
    uint64_t poly = (uint64_t)ws_param_int(p, "poly");
    return ws_polyidx_create(g, poly, (unsigned)ws_param_int(p, "abits"), "pli", err, errlen);
}

const ws_index_policy ws_index_pli = {
    .name = "pli",
    .code = 0,
    .doc = "polynomial modulus: block address mod irreducible P(x) over GF(2); "
           "pli[:POLY][:ABITS], default x^5+x^2+1 (32 sets), x^6+x+1 (64), all bits",
    .params = pli_params,
    .nparams = sizeof pli_params / sizeof pli_params[0],
    .create = pli_create,
    .destroy = free,
    .set_index = ws_polyidx_set,
};
