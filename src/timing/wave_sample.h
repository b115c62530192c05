/* Sampling within a kernel (-warpsim_sample_ipc_tol, docs/sampling.md): the
 * IPC of each wave of CTAs (as many as the GPU holds at once, counted as
 * they complete) is measured; once the last -warpsim_sample_waves of them
 * agree within the tolerance of their mean, the kernel's behaviour is taken
 * as stable, dispatch stops, and after the drain the rest of the grid runs
 * functionally with its cycles projected. gpu.c drives it. */
#ifndef WARPSIM_TIMING_WAVE_SAMPLE_H
#define WARPSIM_TIMING_WAVE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/exec.h"
#include "timing/gpu.h"

#define WS_WAVES_MAX 1000
typedef struct ws_wave_watch {
    uint64_t size, next;        /* CTAs per wave; completions that end the current wave */
    uint64_t cycle0, insn0;     /* where the current wave started */
    uint32_t k, n;              /* waves that must agree; waves measured */
    double ipc, wave_cycles;    /* the converged IPC and cycles per wave (their means) */
    double last[WS_WAVES_MAX];  /* IPC of the waves, most recent at (n - 1) % k */
    double dur[WS_WAVES_MAX];   /* their cycles */
    double tol;
} ws_wave_watch;

/* Set up for a kernel of total_ctas CTAs, wave_size at a time; false when
 * there is nothing to watch (tol 0, or too few waves to leave any after k
 * waves and a drain). */
bool ws_wave_watch_init(ws_wave_watch *w, double tol, uint32_t k, uint64_t wave_size,
                        uint64_t total_ctas);
/* CTAs completed and thread instructions so far at this kernel cycle: true
 * once the last k waves' IPC agree (w->ipc is then their mean). */
bool ws_wave_watch_step(ws_wave_watch *w, uint64_t done, uint64_t insn, uint64_t cycle);
/* Run the CTAs from first on functionally and add their instructions and
 * projected cycles to out (WS_OK or the fault). The grid's last wave is
 * partial: a throughput-bound kernel runs it in proportion to its CTAs (the
 * IPC projection), a latency-bound one takes a whole wave's time; the
 * projection takes the middle and half the difference as its uncertainty. */
ws_status ws_wave_finish(const ws_wave_watch *w, const ws_launch_desc *l, uint64_t first,
                         ws_gpu_result *out, ws_fault *fault);

#endif
