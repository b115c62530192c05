/* Scoreboard: per warp, the registers (value and predicate) that an issued
 * instruction will write. An instruction may not issue while any register it
 * reads or writes (guard and address registers included) is reserved: RAW
 * and WAW hazards, as GPGPU-Sim's Scoreboard::checkCollision. Registers
 * written by global/local loads are also marked "long" for the two-level
 * scheduler. Bitmaps indexed by scoreboard id (value slot, or predicate
 * slot + sm->sb_preds_at). */
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

void sm_sb_release(ws_sm *sm, sm_warp *w, const sm_inst *in) {
    for (unsigned i = 0; i < in->ndst; i++) {
        unsigned r = in->dst[i];
        uint64_t m = 1ull << (r & 63);
        if (!(w->sb[r >> 6] & m)) continue;
        w->sb[r >> 6] &= ~m;
        w->sb_long[r >> 6] &= ~m;
        w->n_reserved--;
    }
    if (!sm) return;
    /* A warp the walk stopped (its head unchanged since: a fill, an issue or a flush ends
       the stop) would stop there again after a release unless the stop was the scoreboard
       and the head no longer collides: an empty ibuffer stays empty, and a head that
       passed the scoreboard still does and waits for its ID_OC register as before. Then
       the stop and its scheduler's memo hold. Not when the release may end a wait (memory
       barrier, atomic) or owe an issue, nor when the views carry the scoreboard's long
       bits (two-level, throttles): those take sm_view_unblock as before. */
    unsigned wi = in->warp;
    uint8_t blk = sm->wblk[wi];
    if (blk && !sm->views_add && !in->is_atomic && !w->membar && !w->n_atomic && !sm->owes &&
        (blk != SM_BLK_SCOREBOARD || sm_sb_hit(w, w->ib[w->ib_next].dec)))
        return;
    sm_view_unblock(sm, wi, in->is_atomic); /* a memory barrier may end; atomics finish here too */
}
