/* Scoreboard: per warp, the registers (value and predicate) that an issued
 * instruction will write. An instruction may not issue while any register it
 * reads or writes (guard and address registers included) is reserved: RAW
 * and WAW hazards, as GPGPU-Sim's Scoreboard::checkCollision. Registers
 * written by global/local loads are also marked "long" for the two-level
 * scheduler. Bitmaps indexed by scoreboard id (value slot, or predicate
 * slot + sm->sb_preds_at). The reservation at issue and the release at writeback are
 * inline in sm_internal.h (sm_sb_reserve, sm_sb_release), as is the walk's test
 * (sm_sb_hit). */
#include "timing/sm/sm_internal.h"

static inline bool bit(const uint64_t *m, unsigned i) { return m[i >> 6] >> (i & 63) & 1; }

static inline bool sb_collides(const sm_warp *w, const sm_dec *d) {
    if (!w->n_reserved) return false;
    if (d->sb_one) return (w->sb[0] & d->sb_bits) != 0; /* every id in the first word */
    if (d->sb_two) return ((w->sb[d->sb_wa] & d->sb_ma) | (w->sb[d->sb_wb] & d->sb_mb)) != 0;
    for (unsigned i = 0; i < d->ndst; i++)
        if (bit(w->sb, d->dst[i])) return true;
    for (unsigned i = 0; i < d->nsrc; i++)
        if (bit(w->sb, d->src[i])) return true;
    return false;
}

bool sm_sb_collides(const sm_warp *w, const sm_dec *d) { return sb_collides(w, d); }

bool sm_sb_longop_dep(const sm_warp *w, const sm_dec *d) {
    if (!w->n_reserved) return false;
    for (unsigned i = 0; i < d->nsrc; i++)
        if (bit(w->sb_long, d->src[i])) return true;
    return false;
}

