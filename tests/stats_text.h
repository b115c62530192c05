/* Reading statistics back from a text report or stats.json in tests. */
#ifndef WARPSIM_TESTS_STATS_TEXT_H
#define WARPSIM_TESTS_STATS_TEXT_H

#include <stdlib.h>
#include <string.h>

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
static inline size_t ws_test_json_stat(const char *json, const char *name, double *out, size_t max) {
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

#endif
