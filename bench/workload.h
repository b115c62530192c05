/* Bundled workloads: each lives in bench/<suite>/<name>/ with its kernel
 * source (kernel.cu), the committed PTX (kernel.ptx) and ptxas info
 * (kernel.ptxinfo), and a host program (host.c) written against the
 * embedding API. The PTX is compiled into the binary (ws_bench_<suite>_<name>_ptx).
 * A workload generates its input deterministically, runs its kernels, and
 * checks the output against a CPU reference. Registered in bench/registry.c. */
#ifndef WARPSIM_BENCH_WORKLOAD_H
#define WARPSIM_BENCH_WORKLOAD_H

#include <stdio.h>

#include "warpsim/warpsim.h"

/* long: a few workloads have a much longer input (many CTA waves or
   launches) for sampled simulation (docs/sampling.md); see long_input. */
typedef enum { WS_INPUT_SMALL = 0, WS_INPUT_PAPER = 1, WS_INPUT_LONG = 2 } ws_input_size;

/* Result of a workload run. */
typedef enum {
    WS_WL_PASS = 0,      /* output matches the CPU reference */
    WS_WL_MISMATCH = 1,  /* output differs (details written to log) */
    WS_WL_ERROR = 2      /* the simulation failed (status in log) */
} ws_wl_result;

typedef struct ws_workload {
    const char *name;        /* "vectoradd" */
    const char *suite;       /* "micro", "polybench", "rodinia", ... */
    const char *description; /* one line */
    const char *ptx;         /* embedded PTX text */
    const char *ptxinfo;     /* embedded ptxas -v output */
    /* Run on device d with module m loaded from ptx. Writes a one-line
       summary and any mismatch details to log. */
    ws_wl_result (*run)(ws_device *d, ws_module_handle *m, ws_input_size in, FILE *log);
    const char *long_input;  /* what --input long is; NULL: the workload has none */
} ws_workload;

/* Workloads are grouped in suites; each suite's table lives in
 * bench/<suite>/suite.c (adding a workload there is one line) and
 * bench/registry.c lists the suites. */
typedef struct ws_suite {
    const char *name;                      /* "micro", "polybench", ... */
    const char *description;
    const ws_workload *const *workloads;   /* NULL-terminated */
} ws_suite;

/* All suites, NULL-terminated. */
const ws_suite *const *ws_suites(void);
/* By "suite/name", or by bare name when only one suite has it (else NULL). */
const ws_workload *ws_workload_find(const char *name);
/* Number of workloads over all suites, and the i-th one (suite order). */
size_t ws_workload_count(void);
const ws_workload *ws_workload_at(size_t i);

/* Load the workload's module and run it (helper used by the CLI and tests). */
ws_wl_result ws_workload_run(const ws_workload *w, ws_device *d, ws_input_size in, FILE *log);

/* Helpers for host code. */
/* Deterministic generator (xorshift64*): same sequence on every machine. */
typedef struct { unsigned long long s; } ws_rng;
static inline void ws_rng_seed(ws_rng *r, unsigned long long seed) { r->s = seed ? seed : 0x9E3779B97F4A7C15ull; }
static inline unsigned long long ws_rng_next(ws_rng *r) {
    r->s ^= r->s >> 12; r->s ^= r->s << 25; r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}
static inline float ws_rng_float(ws_rng *r) { /* [0, 1) */
    return (float)(ws_rng_next(r) >> 40) * (1.0f / 16777216.0f);
}
static inline unsigned ws_rng_below(ws_rng *r, unsigned n) { return (unsigned)(ws_rng_next(r) % n); }

#endif
