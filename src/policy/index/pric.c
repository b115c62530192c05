/* PRIC (seed 000 §2.4): set = line address mod an irreducible polynomial
 * over GF(2), over the thesis's 27 address bits A[26:7] by default, so the
 * 32-set baseline is exactly the printed XOR trees of Poly(37). */
#include <stdlib.h>

#include "policy/index/gf2.h"

static const ws_param_def pric_params[] = WS_POLYIDX_PARAMS("27");

static void *pric_create(const ws_cache_geom *g, ws_params *p, char *err, size_t errlen) {
    uint64_t poly = (uint64_t)ws_param_int(p, "poly");
    return ws_polyidx_create(g, poly, (unsigned)ws_param_int(p, "abits"), "pric", err, errlen);
}

const ws_index_policy ws_index_pric = {
    .name = "pric",
    .code = 0,
    .doc = "pseudo-random interleaving: line address mod irreducible P(x) over GF(2); "
           "pric[:POLY][:ABITS], default Poly(37)/x^6+x+1, 27 address bits",
    .params = pric_params,
    .nparams = sizeof pric_params / sizeof pric_params[0],
    .create = pric_create,
    .destroy = free,
    .set_index = ws_polyidx_set,
};
