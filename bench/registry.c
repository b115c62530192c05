/* The list of workload suites, lookup, and the helper that loads a
 * workload's embedded PTX and runs it. Adding a workload: one line in its
 * suite's table, bench/<suite>/suite.c (see bench/README.md). */
#include <string.h>

#include "workload.h"

extern const ws_suite ws_suite_micro, ws_suite_polybench, ws_suite_rodinia, ws_suite_sdk,
    ws_suite_shoc, ws_suite_mars, ws_suite_ispass;

/* One line per suite. */
static const ws_suite *const suites[] = {
    &ws_suite_micro,
    &ws_suite_polybench,
    &ws_suite_rodinia,
    &ws_suite_sdk,
    &ws_suite_shoc,
    &ws_suite_mars,
    &ws_suite_ispass,
    NULL,
};

const ws_suite *const *ws_suites(void) { return suites; }

size_t ws_workload_count(void) {
    size_t n = 0;
    for (const ws_suite *const *s = suites; *s; s++)
        for (const ws_workload *const *w = (*s)->workloads; *w; w++) n++;
    return n;
}

const ws_workload *ws_workload_at(size_t i) {
    for (const ws_suite *const *s = suites; *s; s++)
        for (const ws_workload *const *w = (*s)->workloads; *w; w++)
            if (i-- == 0) return *w;
    return NULL;
}

/* "suite/name", or a bare name that only one suite uses. */
const ws_workload *ws_workload_find(const char *name) {
    if (!name) return NULL;
    const char *slash = strchr(name, '/');
    const ws_workload *found = NULL;
    for (const ws_suite *const *s = suites; *s; s++) {
        if (slash && (strlen((*s)->name) != (size_t)(slash - name) ||
                      strncmp((*s)->name, name, (size_t)(slash - name))))
            continue;
        for (const ws_workload *const *w = (*s)->workloads; *w; w++)
            if (strcmp((*w)->name, slash ? slash + 1 : name) == 0) {
                if (found) return NULL; /* ambiguous */
                found = *w;
            }
    }
    return found;
}

ws_wl_result ws_workload_run(const ws_workload *w, ws_device *d, ws_input_size in, FILE *log) {
    if (!log) log = stderr;
    if (!w || !d || !w->ptx || !w->run) {
        fprintf(log, "ws_workload_run: %s\n", !w ? "no workload" : !d ? "no device" : "incomplete workload");
        return WS_WL_ERROR;
    }
    if (in != WS_INPUT_SMALL && in != WS_INPUT_PAPER && in != WS_INPUT_LONG) {
        fprintf(log, "%s: unknown input size %d\n", w->name, (int)in);
        return WS_WL_ERROR;
    }
    if (in == WS_INPUT_LONG && !w->long_input) {
        fprintf(log, "%s/%s has no long input (--input long: rodinia/hotspot, polybench/gemm)\n",
                w->suite, w->name);
        return WS_WL_ERROR;
    }
    ws_module_handle *m = NULL;
    ws_status s = ws_module_load(d, w->ptx, strlen(w->ptx), w->name, w->ptxinfo, &m);
    if (s != WS_OK) {
        const char *why = ws_device_last_error(d);
        fprintf(log, "%s: loading the module failed: %s\n", w->name, *why ? why : ws_status_name(s));
        return WS_WL_ERROR;
    }
    ws_wl_result r = w->run(d, m, in, log);
    ws_module_unload(d, m);
    return r;
}
