/* Worker threads for the parallel phase of a core cycle (par.h).
 *
 * One word holds the run's number (high half) and the next unclaimed item
 * (low half): a thread claims an item with a compare-and-swap that also
 * checks the run, so a worker that wakes late cannot take an item of a
 * later run by mistake. A core cycle lasts microseconds, so waiting is a
 * spin first; a worker that saw no run for a while sleeps on a condition
 * variable (`sleepers` tells the caller to wake it). */
#include "timing/par.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { SPIN = 4000, YIELDS = 400 };

struct ws_par {
    unsigned n;
    pthread_t *tid;
    unsigned started;
    ws_par_fn fn;                 /* the run's (read after a successful claim) */
    void *ctx;
    _Atomic uint32_t items;       /* the run's item count */
    _Atomic uint64_t work;        /* run << 32 | next item */
    _Atomic uint32_t finished;    /* items of the run done */
    _Atomic unsigned sleepers;
    _Atomic int stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
};

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static inline uint32_t run_of(uint64_t w) { return (uint32_t)(w >> 32); }

/* Wait until a run other than `seen` starts (or stop); returns its number. */
static uint32_t wait_run(ws_par *p, uint32_t seen) {
    uint32_t r;
    for (unsigned i = 0; i < SPIN + YIELDS; i++) {
        if ((r = run_of(atomic_load_explicit(&p->work, memory_order_acquire))) != seen ||
            atomic_load_explicit(&p->stop, memory_order_relaxed))
            return r;
        if (i < SPIN) cpu_relax();
        else sched_yield();
    }
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add(&p->sleepers, 1);
    while ((r = run_of(atomic_load(&p->work))) == seen && !atomic_load(&p->stop))
        pthread_cond_wait(&p->cv, &p->mu);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->mu);
    return r;
}

/* Claim and run items of run r until none is left; returns how many ran. */
static uint32_t drain(ws_par *p, uint32_t r) {
    uint32_t done = 0;
    for (;;) {
        uint64_t w = atomic_load_explicit(&p->work, memory_order_acquire);
        uint32_t n = atomic_load_explicit(&p->items, memory_order_relaxed);
        if (run_of(w) != r || (uint32_t)w >= n) return done;
        if (!atomic_compare_exchange_weak_explicit(&p->work, &w, w + 1, memory_order_acq_rel,
                                                   memory_order_relaxed))
            continue;
        p->fn(p->ctx, (uint32_t)w); /* the run cannot end before this item is finished */
        atomic_fetch_add_explicit(&p->finished, 1, memory_order_release);
        done++;
    }
}

static void *worker(void *arg) {
    ws_par *p = arg;
    uint32_t seen = 0;
    for (;;) {
        seen = wait_run(p, seen);
        if (atomic_load_explicit(&p->stop, memory_order_acquire)) return NULL;
        drain(p, seen);
    }
}

static void wake(ws_par *p) {
    if (atomic_load(&p->sleepers)) { /* sequentially consistent with the store that started the run */
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
    free(p);
}

ws_par *ws_par_create(unsigned n, char *err, size_t errlen) {
    ws_par *p = calloc(1, sizeof *p);
    if (!p || n < 2 || !(p->tid = calloc(n - 1, sizeof *p->tid))) {
        snprintf(err, errlen, n < 2 ? "worker threads: need at least 2" : "out of host memory");
        free(p);
        return NULL;
    }
    p->n = n;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (unsigned i = 1; i < n; i++) {
        if (pthread_create(&p->tid[i - 1], NULL, worker, p)) {
            snprintf(err, errlen, "-warpsim_threads %u: cannot start worker thread %u", n, i);
            ws_par_destroy(p);
            return NULL;
        }
        p->started++;
    }
    return p;
}

unsigned ws_par_threads(const ws_par *p) { return p->n; }

void ws_par_run(ws_par *p, uint32_t n, ws_par_fn fn, void *ctx) {
    p->fn = fn;
    p->ctx = ctx;
    atomic_store_explicit(&p->items, n, memory_order_relaxed);
    atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
    uint32_t r = run_of(atomic_load_explicit(&p->work, memory_order_relaxed)) + 1;
    atomic_store(&p->work, (uint64_t)r << 32); /* publishes fn, ctx, items */
    wake(p);
    drain(p, r);
    for (unsigned i = 0; atomic_load_explicit(&p->finished, memory_order_acquire) != n; i++) {
        if (i < SPIN) cpu_relax();
        else sched_yield();
    }
}
