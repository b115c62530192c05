/* The table of bundled workloads, and the helper that loads a workload's
 * embedded PTX and runs it. Adding a workload: one extern and one line in
 * the table (see bench/README.md). */
#include <string.h>

#include "workload.h"

extern const ws_workload ws_workload_vectoradd, ws_workload_matmul, ws_workload_reduce,
    ws_workload_histogram, ws_workload_bfs, ws_workload_funcs, ws_workload_dpsolve;

static const ws_workload *const workloads[] = {
    &ws_workload_vectoradd,
    &ws_workload_matmul,
    &ws_workload_reduce,
    &ws_workload_histogram,
    &ws_workload_bfs,
    &ws_workload_funcs,
    &ws_workload_dpsolve,
    NULL,
};

const ws_workload *const *ws_workload_all(void) { return workloads; }

const ws_workload *ws_workload_find(const char *name) {
    if (!name) return NULL;
    for (const ws_workload *const *w = workloads; *w; w++)
        if (strcmp((*w)->name, name) == 0) return *w;
    return NULL;
}

ws_wl_result ws_workload_run(const ws_workload *w, ws_device *d, ws_input_size in, FILE *log) {
    if (!log) log = stderr;
    if (!w || !d || !w->ptx || !w->run) {
        fprintf(log, "ws_workload_run: %s\n", !w ? "no workload" : !d ? "no device" : "incomplete workload");
        return WS_WL_ERROR;
    }
    if (in != WS_INPUT_SMALL && in != WS_INPUT_PAPER) {
        fprintf(log, "%s: unknown input size %d\n", w->name, (int)in);
        return WS_WL_ERROR;
    }
    ws_module_handle *m = NULL;
    ws_status s = ws_module_load(d, w->ptx, strlen(w->ptx), w->name, w->ptxinfo, &m);
    if (s != WS_OK) {
        fprintf(log, "%s: loading the module failed: %s: %s\n", w->name, ws_status_name(s),
                ws_device_last_error(d));
        return WS_WL_ERROR;
    }
    ws_wl_result r = w->run(d, m, in, log);
    ws_module_unload(d, m);
    return r;
}
