/* Worker threads for the parallel phase of a core cycle (par.h).
 *
 * Each thread has a slot, on its own cache lines, holding one word: the
 * run's number (high half), the end of the thread's share of the items and
 * the next unclaimed one (low halves). A run gives thread t the t-th
 * contiguous share, so an SM is simulated by the same host core cycle
 * after cycle and its state stays in that core's cache; a thread that has
 * finished its share takes items from the others' (one at a time, from
 * their next unclaimed one), so a thread that the host does not schedule
 * delays the run by at most the item it holds. A claim is a compare-and-
 * swap that also checks the run, so a thread that wakes late cannot take
 * an item of a later run. Each thread adds what it ran to `finished` once
 * per run, and the caller waits for the total: a few shared-line transfers
 * per run, not a few per item. A core cycle lasts microseconds, so waiting
 * is a spin first; a worker that saw no run for a while sleeps on a
 * condition variable (`sleepers` tells the caller to wake it). */
#include "timing/par.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SPIN = 4000, YIELDS = 400, LINE = 128 /* two lines: the adjacent-line prefetch */ };

typedef struct slot {
    _Alignas(LINE) _Atomic uint64_t work; /* run << 32 | end << 16 | next */
    char pad[LINE - sizeof(uint64_t)];
} slot;

struct ws_par {
    slot *s;                      /* [n]: 0 is the caller's */
    unsigned n;
    pthread_t *tid;
    unsigned started;
    ws_par_fn fn;                 /* the run's (read after a successful claim) */
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

/* Claim and run items of run r from slot v until none is left there. */
static uint32_t drain_slot(ws_par *p, unsigned v, uint32_t r) {
    _Atomic uint64_t *sw = &p->s[v].work;
    uint32_t done = 0;
    uint64_t w = atomic_load_explicit(sw, memory_order_acquire);
    for (;;) {
        if (run_of(w) != r || next_of(w) >= end_of(w)) return done;
        if (!atomic_compare_exchange_weak_explicit(sw, &w, w + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;
        p->fn(p->ctx, next_of(w)); /* the run cannot end before this item is finished */
        done++;
        w = atomic_load_explicit(sw, memory_order_acquire);
    }
}

/* Thread t's share of run r, then whatever is left in the others' shares. */
static void drain(ws_par *p, unsigned t, uint32_t r) {
    uint32_t done = 0;
    for (unsigned i = 0; i < p->n; i++) done += drain_slot(p, (t + i) % p->n, r);
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
    free(p->s);
    free(p);
}

ws_par *ws_par_create(unsigned n, char *err, size_t errlen) {
    ws_par *p = n >= 2 ? aligned_alloc(LINE, (sizeof *p + LINE - 1) / LINE * LINE) : NULL;
    if (p) memset(p, 0, sizeof *p);
    if (!p || !(p->tid = calloc(n - 1, sizeof *p->tid)) ||
        !(p->s = aligned_alloc(LINE, n * sizeof *p->s))) {
        snprintf(err, errlen, n < 2 ? "worker threads: need at least 2" : "out of host memory");
        if (p) free(p->tid);
        free(p);
        return NULL;
    }
    for (unsigned i = 0; i < n; i++) atomic_init(&p->s[i].work, 0);
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

void ws_par_run(ws_par *p, uint32_t n, ws_par_fn fn, void *ctx) {
    if (n > WS_PAR_MAX_ITEMS) abort(); /* the callers' item counts are bounded (par.h) */
    p->fn = fn;
    p->ctx = ctx;
    atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
    uint64_t r = ++p->run;
    if (!r) r = ++p->run; /* 0 is the workers' "seen nothing yet" */
    /* thread t's share: items [n*t/T, n*(t+1)/T); the release stores publish fn and ctx */
    for (unsigned t = p->n; t-- > 0;) {
        uint64_t lo = (uint64_t)n * t / p->n, hi = (uint64_t)n * (t + 1) / p->n;
        atomic_store_explicit(&p->s[t].work, r << 32 | hi << 16 | lo, memory_order_release);
    }
    atomic_thread_fence(memory_order_seq_cst); /* the run is visible before `sleepers` is read */
    wake(p);
    drain(p, 0, (uint32_t)r);
    for (unsigned i = 0; atomic_load_explicit(&p->finished, memory_order_acquire) != n; i++) {
        if (i < SPIN) cpu_relax();
        else sched_yield();
    }
}
