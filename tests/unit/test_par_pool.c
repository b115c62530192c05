/* Worker threads of the parallel phase (src/timing/par.c): every item of a
 * run is run exactly once and the run returns only when all are done, for
 * item counts below, at and above the thread count, over many runs in a
 * row (the run number in each claim keeps a late thread out of the next
 * run). Which thread runs an item is not fixed (a thread done with its
 * share takes the others' items), so it is not checked. */
#include <stdatomic.h>

#include "test.h"
#include "timing/par.h"

enum { MAX_ITEMS = 64 };

typedef struct par_probe {
    _Atomic uint32_t count[MAX_ITEMS];
    uint32_t run;                 /* written by the caller between runs */
    _Atomic uint32_t seen_run[MAX_ITEMS];
} par_probe;

static void probe_item(void *ctx, uint32_t i) {
    par_probe *p = ctx;
    atomic_fetch_add(&p->count[i], 1);
    atomic_store(&p->seen_run[i], p->run);
    /* some items are longer, so that the others' shares get taken */
    for (volatile uint32_t k = 0; k < (i % 3) * 200; k++) {
    }
}

TEST(par_runs_every_item_once) {
    char err[128];
    CHECK(ws_par_create(1, err, sizeof err) == NULL); /* the caller alone needs no pool */
    static const unsigned threads[] = {2, 3, 4};
    static const uint32_t items[] = {0, 1, 2, 3, 5, 15, 21, 64};
    for (size_t a = 0; a < sizeof threads / sizeof threads[0]; a++) {
        ws_par *w = ws_par_create(threads[a], err, sizeof err);
        CHECK_MSG(w != NULL, "%s", err);
        if (!w) continue;
        CHECK_EQ_U64(ws_par_threads(w), threads[a]);
        static par_probe p;
        for (uint32_t run = 1; run <= 400; run++) {
            uint32_t n = items[run % (sizeof items / sizeof items[0])];
            for (uint32_t i = 0; i < MAX_ITEMS; i++) atomic_store(&p.count[i], 0);
            p.run = run;
            ws_par_run(w, n, probe_item, &p);
            /* everything is done when the run returns */
            for (uint32_t i = 0; i < MAX_ITEMS; i++) {
                uint32_t c = atomic_load(&p.count[i]);
                if (c != (i < n)) {
                    CHECK_MSG(0, "threads %u run %u items %u: item %u ran %u times", threads[a], run,
                              n, i, c);
                    break;
                }
                if (i < n && atomic_load(&p.seen_run[i]) != run) {
                    CHECK_MSG(0, "item %u of run %u saw run %u", i, run, atomic_load(&p.seen_run[i]));
                    break;
                }
            }
        }
        ws_par_destroy(w);
    }
}

/* Shares chosen by the caller (ws_par_run_shares), uneven and some empty:
 * still every item once, whatever thread ends up running it. */
TEST(par_uneven_shares_run_every_item_once) {
    char err[128];
    static const unsigned threads[] = {2, 3};
    for (size_t a = 0; a < sizeof threads / sizeof threads[0]; a++) {
        ws_par *w = ws_par_create(threads[a], err, sizeof err);
        CHECK_MSG(w != NULL, "%s", err);
        if (!w) continue;
        static par_probe p;
        for (uint32_t run = 1; run <= 300; run++) {
            uint32_t b[4] = {0};
            /* thread 0 gets 0..20 items, the others whatever is left of n */
            uint32_t n = run % 40, first = run % 21 < n ? run % 21 : n;
            b[1] = first;
            for (unsigned t = 2; t <= threads[a]; t++) b[t] = t == threads[a] ? n : (first + n) / 2;
            for (uint32_t i = 0; i < MAX_ITEMS; i++) atomic_store(&p.count[i], 0);
            p.run = run;
            ws_par_run_shares(w, b, probe_item, &p);
            for (uint32_t i = 0; i < MAX_ITEMS; i++) {
                uint32_t c = atomic_load(&p.count[i]);
                if (c != (i < n)) {
                    CHECK_MSG(0, "threads %u run %u: item %u ran %u times", threads[a], run, i, c);
                    break;
                }
            }
        }
        ws_par_destroy(w);
    }
}
