/* PRIC (seed 000 §2.4): set = line address mod an irreducible polynomial
 * over GF(2), over the thesis's 27 address bits A[26:7] by default, so the
 * 32-set baseline is exactly the printed XOR trees of Poly(37). */
#include <stdlib.h>

#include "policy/index/gf2.h"

static void *pric_create(const ws_cache_geom *g, const char *args, char *err, size_t errlen) {
    return ws_polyidx_create(g, args, 27, "pric", err, errlen);
}

const ws_index_policy ws_index_pric = {
    .name = "pric",
    .code = 0,
    .doc = "pseudo-random interleaving: line address mod irreducible P(x) over GF(2); "
           "args [POLY][:ADDR_BITS], default Poly(37)/x^6+x+1, 27 address bits",
    .create = pric_create,
    .destroy = free,
    .set_index = ws_polyidx_set,
};
