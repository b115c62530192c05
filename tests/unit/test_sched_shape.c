/* A scheduler policy that declares the shape of its order (ws_sched_policy.shape, first)
 * lets the SM's issue walk follow that shape without asking for the list
 * (src/timing/sm/issue.c): the declared shape must be exactly what order() returns,
 * for any views and any sequence of issues. Checked here for every registered policy
 * that declares one, against a plain construction of the shape, over random views
 * (valid, waiting, ages with ties and occasional changes) and random issues, for
 * scheduler sizes from 1 to 64 warps. */
#include <stdint.h>
#include <string.h>

#include "policy/sched/sched.h"
#include "test.h"

static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The order the shape promises (returns its length). */
static unsigned shape_order(int shape, int f, const ws_sched_warp *w, unsigned n, uint16_t *out) {
    unsigned k = 0;
    if (shape == WS_SCHED_ROTATE) {
        for (unsigned i = 0; i < n; i++) out[k++] = (uint16_t)(((unsigned)f + i) % n);
        return k;
    }
    if (f >= 0 && (unsigned)f < n) out[k++] = (uint16_t)f;
    unsigned base = k;
    for (unsigned i = 0; i < n; i++) {
        if ((int)i == f) continue;
        /* insertion by (not eligible, age, index) */
        unsigned j = k++;
        int ei = !w[i].valid || w[i].waiting;
        while (j > base) {
            const ws_sched_warp *p = &w[out[j - 1]];
            int ep = !p->valid || p->waiting;
            if (ep < ei || (ep == ei && (p->age < w[i].age || (p->age == w[i].age && out[j - 1] < i))))
                break;
            out[j] = out[j - 1];
            j--;
        }
        out[j] = (uint16_t)i;
    }
    return k;
}

/* Issue: through `issued`, or for a policy that says where it keeps its last issued index
   (ws_sched_policy.last), at random the SM's way: a store there. */
static void issue(const ws_sched_policy *pol, ws_sched *sch, const ws_sched_warp *w, unsigned n,
                  unsigned idx, uint64_t r) {
    if (pol->last && (r >> 20 & 1)) *pol->last(sch->state) = (int)idx;
    else pol->issued(sch->state, w, n, idx);
}

TEST(sched_shape_matches_order) {
    uint64_t rs = 0x243F6A8885A308D3ull;
    unsigned checked = 0;
    for (const ws_sched_policy *const *pp = ws_sched_all(); *pp; pp++) {
        const ws_sched_policy *pol = *pp;
        if (pol->shape == WS_SCHED_ANY) continue;
        CHECK(pol->first != NULL);
        CHECK(pol->stable);
        const unsigned sizes[] = {1, 2, 3, 7, 24, 32, 48, 63, 64};
        for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            unsigned n = sizes[si];
            ws_sched sch;
            char err[256];
            CHECK_EQ_I64(ws_sched_create(&sch, pol->name, n, err, sizeof err), 0);
            ws_sched_warp w[64];
            memset(w, 0, sizeof w);
            for (unsigned i = 0; i < n; i++) {
                w[i].slot = (uint16_t)i;
                w[i].age = next_rand(&rs) % 8; /* ties */
            }
            for (unsigned step = 0; step < 400; step++) {
                for (unsigned i = 0; i < n; i++) {
                    uint64_t r = next_rand(&rs);
                    w[i].valid = (r & 7) != 0;
                    w[i].waiting = w[i].valid && (r >> 3 & 3) == 0;
                    w[i].at_bar = w[i].waiting && (r >> 5 & 1);
                    if ((r >> 8 & 31) == 0) w[i].age = 8 + step; /* a warp starts */
                }
                uint16_t got[64], want[64];
                unsigned k = pol->order(sch.state, w, n, got);
                int f = pol->first(sch.state, n);
                if (pol->shape == WS_SCHED_ROTATE) CHECK(f >= 0 && (unsigned)f < n);
                if (pol->last) { /* first() is the kept index, or the one after it */
                    int l = *pol->last(sch.state);
                    if (pol->shape == WS_SCHED_ROTATE) CHECK_EQ_I64(f, (unsigned)l + 1 == n ? 0 : l + 1);
                    else CHECK_EQ_I64(f, l);
                }
                unsigned kw = shape_order(pol->shape, f, w, n, want);
                CHECK_EQ_U64(k, n);
                CHECK_EQ_U64(kw, n);
                if (k != kw || memcmp(got, want, k * sizeof *got)) {
                    CHECK(!"order differs from its declared shape");
                    ws_sched_destroy(&sch);
                    return;
                }
                /* the walk issues from the first eligible warp, or sometimes from none */
                uint64_t r = next_rand(&rs);
                if (r & 3) {
                    for (unsigned i = 0; i < k; i++)
                        if (w[got[i]].valid && !w[got[i]].waiting) {
                            issue(pol, &sch, w, n, got[i], r);
                            break;
                        }
                } else if (r & 4) {
                    issue(pol, &sch, w, n, (unsigned)(r >> 8) % n, r); /* any warp */
                }
                checked++;
            }
            ws_sched_destroy(&sch);
        }
    }
    CHECK(checked >= 3 * 9 * 400); /* lrr, gto, oldest */
    CHECK(ws_sched_find("gto")->last && ws_sched_find("lrr")->last);
}
