/* Sampling within a kernel: the convergence criterion and the projection
 * (see wave_sample.h; user's view: docs/sampling.md). */
#include "timing/wave_sample.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

bool ws_wave_watch_init(ws_wave_watch *w, double tol, uint32_t k, uint64_t wave_size,
                        uint64_t total_ctas) {
    /* the header only: the 16 KiB of wave rings are written before any of
       their first k entries is read (a kernel's set-up cleared them all) */
    memset(w, 0, offsetof(ws_wave_watch, last));
    w->tol = tol;
    if (tol <= 0 || k < 2 || k > WS_WAVES_MAX) return false;
    w->size = wave_size;
    w->k = k;
    w->next = w->size;
    return w->size && total_ctas > (uint64_t)(w->k + 1) * w->size;
}

bool ws_wave_watch_step(ws_wave_watch *w, uint64_t done, uint64_t insn, uint64_t cycle) {
    if (done < w->next) return false;
    w->last[w->n % w->k] = cycle > w->cycle0 ? (double)(insn - w->insn0) / (double)(cycle - w->cycle0) : 0;
    w->dur[w->n % w->k] = (double)(cycle - w->cycle0);
    w->n++;
    w->cycle0 = cycle;
    w->insn0 = insn;
    w->next = done + w->size;
    if (w->n < w->k) return false;
    double mean = 0;
    for (uint32_t i = 0; i < w->k; i++) mean += w->last[i];
    mean /= w->k;
    for (uint32_t i = 0; i < w->k; i++)
        if (mean <= 0 || fabs(w->last[i] - mean) > w->tol * mean) return false;
    w->ipc = mean;
    w->wave_cycles = 0;
    for (uint32_t i = 0; i < w->k; i++) w->wave_cycles += w->dur[i] / w->k;
    return true;
}

ws_status ws_wave_finish(const ws_wave_watch *w, const ws_launch_desc *l, uint64_t first,
                         ws_gpu_result *out, ws_fault *fault) {
    ws_exec_counts c;
    ws_status s = ws_exec_grid_observed(l, first, NULL, &c, fault);
    if (s != WS_OK) return s;
    out->functional_insn = c.thread_insts_exec;
    out->warp_insts += c.warp_insts;
    out->thread_insts += c.thread_insts;
    out->thread_insts_exec += c.thread_insts_exec;
    out->ctas = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    double waves = (double)(out->ctas - first) / (double)w->size;
    double partial = (ceil(waves) - waves) * w->wave_cycles / 2;
    out->cycles += (uint64_t)((double)c.thread_insts_exec / w->ipc + partial + 0.5);
    out->projection_sigma = partial;
    return WS_OK;
}
