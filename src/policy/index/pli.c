/* PLI (seed 003 §2.2): polynomial-modulus indexing, the same function as
 * PRIC but over the whole block address by default (seed 003's trees use
 * A[31:7]; higher bits only permute the sets of a working set). */
#include <stdlib.h>

#include "policy/index/gf2.h"

static void *pli_create(const ws_cache_geom *g, const char *args, char *err, size_t errlen) {
    return ws_polyidx_create(g, args, 64, "pli", err, errlen);
}

const ws_index_policy ws_index_pli = {
    .name = "pli",
    .code = 0,
    .doc = "polynomial modulus: block address mod irreducible P(x) over GF(2); "
           "args [POLY][:ADDR_BITS], default x^5+x^2+1 (32 sets), x^6+x+1 (64), all bits",
    .create = pli_create,
    .destroy = free,
    .set_index = ws_polyidx_set,
};
