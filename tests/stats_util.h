/* Statistics in tests: a timing run's report, and reading stats back from
 * the text report or stats.json. */
#ifndef WARPSIM_TESTS_STATS_UTIL_H
#define WARPSIM_TESTS_STATS_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/catalog.h"
#include "test.h"
#include "warpsim/warpsim.h"
#include "workload.h"

/* A timing-mode device under preset (NULL: the default) whose text report
 * goes to rf and JSON stats to stats_dir (NULL: none); NULL (a test
 * failure) if it cannot be created. */
static inline ws_device *ws_test_timing_device_set(const char *preset, const char *const *sets,
                                                   const char *stats_dir, FILE *rf) {
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.preset = preset;
    o.config_overrides = sets;
    o.report = rf;
    o.stats_dir = stats_dir;
    ws_device *d = NULL;
    ws_status s = ws_device_create(&o, &d);
    CHECK_MSG(s == WS_OK, "device: %s", ws_status_name(s));
    return s == WS_OK ? d : NULL;
}

static inline ws_device *ws_test_timing_device(const char *preset, const char *stats_dir,
                                               FILE *rf) {
    return ws_test_timing_device_set(preset, NULL, stats_dir, rf);
}

/* Run a bundled workload (small input) on the timing model under preset
 * (NULL: the default), with JSON stats in stats_dir when not NULL. Returns
 * the text report (the caller frees it); *log gets the workload's output
 * (freed by the caller). A failure to run or check is a test failure. */
static inline char *ws_test_timing_report_set(const char *workload, const char *preset,
                                              const char *const *sets, const char *stats_dir,
                                              char **log) {
    char *rep = NULL;
    size_t rlen = 0, llen = 0;
    *log = NULL;
    FILE *rf = open_memstream(&rep, &rlen), *lf = open_memstream(log, &llen);
    const ws_workload *w = ws_workload_find(workload);
    CHECK_MSG(w != NULL, "no workload %s", workload);
    ws_device *d = w ? ws_test_timing_device_set(preset, sets, stats_dir, rf) : NULL;
    ws_wl_result r = d ? ws_workload_run(w, d, WS_INPUT_SMALL, lf) : WS_WL_ERROR;
    ws_device_destroy(d);
    fclose(rf);
    fclose(lf);
    CHECK_MSG(r == WS_WL_PASS, "%s under %s: %d\n%s", workload, preset ? preset : "the default",
              (int)r, *log ? *log : "");
    return rep;
}

static inline char *ws_test_timing_report(const char *workload, const char *preset,
                                          const char *stats_dir, char **log) {
    return ws_test_timing_report_set(workload, preset, NULL, stats_dir, log);
}

/* The values of stat NAME in a text report, one per kernel in order: lines
 * "NAME = v", where NAME may be padded with spaces before the '=' (GPGPU-Sim
 * pads gpu_stall_icnt2sh) but is never a prefix of a longer name. Returns
 * how many (at most max are stored). */
static inline size_t ws_test_text_stat(const char *rep, const char *name, double *out, size_t max) {
    size_t n = 0, len = strlen(name);
    for (const char *p = rep; p && *p;) {
        if (!strncmp(p, name, len)) {
            const char *q = p + len;
            while (*q == ' ') q++;
            if (*q == '=') {
                if (n < max) out[n] = strtod(q + 1, NULL);
                n++;
            }
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    return n;
}

/* The same from a stats.json array of flat kernel objects: "NAME": v. */
static inline size_t ws_test_json_stat(const char *json, const char *name, double *out,
                                       size_t max) {
    size_t n = 0, len = strlen(name);
    for (const char *p = json; (p = strchr(p, '"'));) {
        if (!strncmp(p + 1, name, len) && p[1 + len] == '"' && p[2 + len] == ':') {
            if (n < max) out[n] = strtod(p + 3 + len, NULL);
            n++;
        }
        p++;
    }
    return n;
}

/* Stat NAME by its catalog name (the JSON key; NAME_kernel for a program-scope
 * stat's per-kernel value), one value per kernel, from a text report (text:
 * 1, under the catalog's text spelling) or stats.json (text: 0). Fails the
 * test and returns 0 when NAME is not in the catalog. */
static inline size_t ws_test_stat(const char *src, int text, const char *name, double *out,
                                  size_t max) {
    int per_kernel = 0;
    const ws_stat_decl *d = ws_catalog_find(name, &per_kernel);
    CHECK_MSG(d != NULL, "%s is not in the statistics catalog", name);
    if (!d) return 0;
    if (!text) return ws_test_json_stat(src, name, out, max);
    /* the per-kernel spelling is the JSON key's; a family member is asked for by its own name */
    const char *key = per_kernel || !d->text || !*d->text || strchr(d->name, '*') ? name : d->text;
    return ws_test_text_stat(src, key, out, max);
}

#endif
