/* Worker threads for the parallel phase of a core cycle (-warpsim_threads).
 *
 * ws_par_run_shares(p, bounds, fn, ctx) calls fn(ctx, i) once for every
 * item i < bounds[T] (T threads) and returns when all are done. Thread t
 * (the caller is thread 0) runs the items [bounds[t], bounds[t+1]), its
 * share, so that an item keeps running on the same host core from run to
 * run (its state stays in that core's cache); the caller chooses the
 * shares so that they take about as long. A thread done with its share
 * leaves the others' to them while they make progress, and takes their
 * items one at a time from one that does not (not scheduled by the host:
 * on a machine busy with other work the caller simply does more of them
 * itself). Items must touch disjoint state, so that which thread ran an
 * item does not matter (timing/gpu.c: an item is one SM's cycle, or the
 * interconnect's, or one memory partition's). ws_par_run(p, n, fn, ctx)
 * runs n items in equal shares.
 * Between runs the workers spin briefly, then yield, then sleep, so that a
 * serial stretch (a kernel boundary, the host program) costs no CPU. */
#ifndef WARPSIM_TIMING_PAR_H
#define WARPSIM_TIMING_PAR_H

#include <stddef.h>
#include <stdint.h>

typedef struct ws_par ws_par;
enum { WS_PAR_MAX_ITEMS = 0xFFFF, /* items of one run */
       WS_PAR_MAX_THREADS = 256 /* -warpsim_threads' range */ };
typedef void (*ws_par_fn)(void *ctx, uint32_t item);

/* n >= 2 threads (the caller and n - 1 workers); NULL and err on failure. */
ws_par *ws_par_create(unsigned n, char *err, size_t errlen);
void ws_par_destroy(ws_par *p);
unsigned ws_par_threads(const ws_par *p);
void ws_par_run(ws_par *p, uint32_t n, ws_par_fn fn, void *ctx);
/* bounds: ws_par_threads(p) + 1 ascending entries, bounds[0] = 0 */
void ws_par_run_shares(ws_par *p, const uint32_t *bounds, ws_par_fn fn, void *ctx);
/* Per thread, since the last call: the time spent on its own share (in
 * ticks of a host clock: only to compare the threads) and how many items
 * of its share other threads ran; for rebalancing the shares. Between
 * runs only. */
void ws_par_take_times(ws_par *p, uint64_t *t, uint64_t *lost);
/* The host clock of those times. */
uint64_t ws_par_ticks(void);

#endif
