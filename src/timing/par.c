/* Worker threads for the parallel phase of a core cycle (par.h).
 *
 * Each thread has a slot, on its own cache lines, holding one word: the
 * run's number (high half), the end of the thread's share of the items and
 * the next unclaimed one (low halves). A run gives thread t the share that
 * the caller chose, the same cycle after cycle, so that an SM is simulated
 * by the same host core and its state stays in that core's cache. A thread
 * that has finished its share leaves the others' alone while their owners
 * move on (help_slot), and takes an item of a share whose owner does not,
 * so that a thread that the host does not schedule delays the run by at
 * most the item it holds and a short wait. A claim is a compare-and-swap
 * that also checks the run, so a thread that wakes late cannot take an
 * item of a later run. Each thread adds what it ran to `finished` once or
 * twice per run, and the caller waits for the total: a few shared-line
 * transfers per run, not a few per item. A core cycle lasts microseconds,
 * so waiting is a spin first; a worker that saw no run for a while sleeps
 * on a condition variable (`sleepers` tells the caller to wake it). */
#include "timing/par.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

enum { SPIN = 4000, YIELDS = 400, STEAL_WAIT = 64, LINE = 128 /* two lines: the adjacent-line prefetch */ };

typedef struct slot {
    _Alignas(LINE) _Atomic uint64_t work; /* run << 32 | end << 16 | next */
    _Atomic uint64_t own;                 /* ticks spent on its own share (ws_par_take_times) */
    _Atomic uint64_t lost;                /* items of its share that others ran */
    char pad[LINE - 3 * sizeof(uint64_t)];
} slot;

struct ws_par {
    slot *s;                      /* [n]: 0 is the caller's */
    unsigned n;
    pthread_t *tid;
    uint8_t *away;                /* [t * away_stride + v]: thread t saw thread v away (help_slot) */
    size_t away_stride;           /* whole lines per thread */
    unsigned started;
    ws_par_fn fn;                 /* the run's (read after a successful claim) */
    _Atomic uint32_t items;       /* the run's item count */
    void *ctx;
    uint32_t run;                 /* the caller's: the last run's number */
    _Alignas(LINE) _Atomic uint32_t finished; /* items of the run done */
    _Alignas(LINE) _Atomic unsigned sleepers;
    _Atomic int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

typedef struct worker_arg {
    ws_par *p;
    unsigned self;
} worker_arg;

/* A cheap clock for the shares' times (only compared with each other). */
static inline uint64_t ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline uint32_t run_of(uint64_t w) { return (uint32_t)(w >> 32); }
static inline uint32_t end_of(uint64_t w) { return (uint32_t)(w >> 16) & 0xFFFF; }
static inline uint32_t next_of(uint64_t w) { return (uint32_t)w & 0xFFFF; }

/* Wait until a run other than `seen` shows in slot t (or stop); returns it. */
static uint32_t wait_run(ws_par *p, unsigned t, uint32_t seen) {
    _Atomic uint64_t *w = &p->s[t].work;
    uint32_t r;
    for (unsigned i = 0; i < SPIN + YIELDS; i++) {
        if ((r = run_of(atomic_load_explicit(w, memory_order_acquire))) != seen ||
            atomic_load_explicit(&p->stop, memory_order_relaxed))
            return r;
        if (i < SPIN) cpu_relax();
        else sched_yield();
    }
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->sleepers, 1);
    while ((r = run_of(atomic_load(w))) == seen && !atomic_load(&p->stop))
        pthread_cond_wait(&p->cv, &p->mu);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->mu);
    return r;
}

/* Claim one item of run r from slot v and run it; false when none is left. */
static bool claim(ws_par *p, unsigned v, uint32_t r) {
    _Atomic uint64_t *sw = &p->s[v].work;
    uint64_t w = atomic_load_explicit(sw, memory_order_acquire);
    for (;;) {
        if (run_of(w) != r || next_of(w) >= end_of(w)) return false;
        if (atomic_compare_exchange_weak_explicit(sw, &w, w + 1, memory_order_acq_rel,
                                                  memory_order_acquire))
            break;
    }
    p->fn(p->ctx, next_of(w)); /* the run cannot end before it is finished */
    return true;
}

/* What is left in slot v of run r once thread t's own share is done.
 * Its owner keeps its items while it makes progress: an item that moves to
 * another host core brings its unit's state along, which costs more than
 * the wait for a share a little longer than this one. So the helper looks
 * at the slot only every STEAL_WAIT spins (a look takes the owner's line
 * away from it), and takes one item when the owner has not started (not
 * woken, not scheduled) or has not moved since the last look. An owner
 * that did not move at all while its items were taken is likely still
 * away in the next run (the host runs something else on its core): there
 * the helper takes its items without waiting, until it sees it move. */
static uint32_t help_slot(ws_par *p, unsigned t, unsigned v, uint32_t r) {
    _Atomic uint64_t *sw = &p->s[v].work;
    uint8_t *away = &p->away[t * p->away_stride + v];
    uint32_t done = 0, seen = UINT32_MAX;
    bool moved = false;
    for (;;) {
        uint64_t w = atomic_load_explicit(sw, memory_order_acquire);
        if (run_of(w) != r || next_of(w) >= end_of(w)) break;
        if (seen != UINT32_MAX && next_of(w) != seen) moved = true;
        if ((*away && !moved) || next_of(w) == seen || (next_of(w) == 0 && seen == UINT32_MAX)) {
            if (claim(p, v, r)) {
                done++;
                atomic_fetch_add_explicit(&p->s[v].lost, 1, memory_order_relaxed);
            }
            seen = next_of(w) + 1; /* the owner has to move past this too */
            if (*away && !moved) continue;
        } else {
            seen = next_of(w);
        }
        for (unsigned i = 0; i < STEAL_WAIT; i++) {
            if (atomic_load_explicit(&p->finished, memory_order_relaxed) + done ==
                atomic_load_explicit(&p->items, memory_order_relaxed))
                break;
            cpu_relax();
        }
    }
    *away = done && !moved;
    return done;
}

/* Thread t's share of run r, then help with the others'. */
static void drain(ws_par *p, unsigned t, uint32_t r) {
    uint32_t done = 0;
    uint64_t t0 = ticks();
    while (claim(p, t, r)) done++;
    if (done) {
        _Atomic uint64_t *own = &p->s[t].own;
        atomic_store_explicit(own, atomic_load_explicit(own, memory_order_relaxed) + (ticks() - t0),
                              memory_order_relaxed);
        atomic_fetch_add_explicit(&p->finished, done, memory_order_release);
    }
    done = 0;
    for (unsigned i = 1; i < p->n; i++) done += help_slot(p, t, (t + i) % p->n, r);
    if (done) atomic_fetch_add_explicit(&p->finished, done, memory_order_release);
}

static void *worker(void *arg) {
    worker_arg a = *(worker_arg *)arg;
    free(arg);
    uint32_t seen = 0;
    for (;;) {
        seen = wait_run(a.p, a.self, seen);
        if (atomic_load_explicit(&a.p->stop, memory_order_acquire)) return NULL;
        drain(a.p, a.self, seen);
    }
}

static void wake(ws_par *p) {
    if (atomic_load(&p->sleepers)) { /* sequentially consistent with the stores that started the run */
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

void ws_par_destroy(ws_par *p) {
    if (!p) return;
    atomic_store(&p->stop, 1);
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->started; i++) pthread_join(p->tid[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->tid);
    free(p->away);
    free(p->s);
    free(p);
}

ws_par *ws_par_create(unsigned n, char *err, size_t errlen) {
    bool ok = n >= 2 && n <= WS_PAR_MAX_THREADS;
    ws_par *p = ok ? aligned_alloc(LINE, (sizeof *p + LINE - 1) / LINE * LINE) : NULL;
    if (p) memset(p, 0, sizeof *p);
    size_t stride = (n + LINE - 1) / LINE * LINE;
    if (!p || !(p->tid = calloc(n - 1, sizeof *p->tid)) ||
        !(p->away = aligned_alloc(LINE, n * stride)) ||
        !(p->s = aligned_alloc(LINE, n * sizeof *p->s))) {
        snprintf(err, errlen, ok ? "out of host memory" : "worker threads: need 2 to 256");
        if (p) free(p->tid), free(p->away);
        free(p);
        return NULL;
    }
    for (unsigned i = 0; i < n; i++) atomic_init(&p->s[i].work, 0), atomic_init(&p->s[i].own, 0),
                                   atomic_init(&p->s[i].lost, 0);
    memset(p->away, 0, n * stride);
    p->away_stride = stride;
    p->n = n;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (unsigned i = 1; i < n; i++) {
        worker_arg *a = malloc(sizeof *a);
        if (a) *a = (worker_arg){p, i};
        if (!a || pthread_create(&p->tid[i - 1], NULL, worker, a)) {
            free(a);
            snprintf(err, errlen, "-warpsim_threads %u: cannot start worker thread %u", n, i);
            ws_par_destroy(p);
            return NULL;
        }
        p->started++;
    }
    return p;
}

unsigned ws_par_threads(const ws_par *p) { return p->n; }

uint64_t ws_par_ticks(void) { return ticks(); }

void ws_par_take_times(ws_par *p, uint64_t *t, uint64_t *lost) {
    for (unsigned i = 0; i < p->n; i++) {
        t[i] = atomic_exchange_explicit(&p->s[i].own, 0, memory_order_relaxed);
        lost[i] = atomic_exchange_explicit(&p->s[i].lost, 0, memory_order_relaxed);
    }
}

void ws_par_run_shares(ws_par *p, const uint32_t *bounds, ws_par_fn fn, void *ctx) {
    uint32_t n = bounds[p->n];
    if (n > WS_PAR_MAX_ITEMS) abort(); /* the callers' item counts are bounded (par.h) */
    p->fn = fn;
    p->ctx = ctx;
    atomic_store_explicit(&p->items, n, memory_order_relaxed);
    atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
    uint64_t r = ++p->run;
    if (!r) r = ++p->run; /* 0 is the workers' "seen nothing yet" */
    /* thread t's share: items [bounds[t], bounds[t+1]); the release stores publish fn and ctx */
    for (unsigned t = p->n; t-- > 0;)
        atomic_store_explicit(&p->s[t].work, r << 32 | (uint64_t)bounds[t + 1] << 16 | bounds[t],
                              memory_order_release);
    atomic_thread_fence(memory_order_seq_cst); /* the run is visible before `sleepers` is read */
    wake(p);
    drain(p, 0, (uint32_t)r);
    for (unsigned i = 0; atomic_load_explicit(&p->finished, memory_order_acquire) != n; i++) {
        if (i < SPIN) cpu_relax();
        else sched_yield();
    }
}

void ws_par_run(ws_par *p, uint32_t n, ws_par_fn fn, void *ctx) {
    uint32_t b[WS_PAR_MAX_THREADS + 1];
    for (unsigned t = 0; t <= p->n; t++) b[t] = (uint32_t)((uint64_t)n * t / p->n);
    ws_par_run_shares(p, b, fn, ctx);
}
