/* hwcheck [--input small|paper|both] [NAME...]: run bundled workloads
 * through the CUDA driver API (see cuda_backend.c) and report each one's
 * CPU-reference check and wall time. Exit status: the number of workloads
 * that did not pass (capped at 100). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "workload.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    int small = 1, paper = 0, named = 0, bad = 0, ran = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--input") && i + 1 < argc) {
            const char *v = argv[++i];
            small = !strcmp(v, "small") || !strcmp(v, "both");
            paper = !strcmp(v, "paper") || !strcmp(v, "both");
        } else {
            named = 1;
        }
    }
    ws_device *d = NULL;
    if (ws_device_create(NULL, &d) != WS_OK) return 100;
    for (size_t i = 0; i < ws_workload_count(); i++) {
        const ws_workload *w = ws_workload_at(i);
        char qual[128];
        snprintf(qual, sizeof qual, "%s/%s", w->suite, w->name);
        int want = !named;
        for (int a = 1; a < argc; a++)
            if (!strcmp(argv[a], qual) || !strcmp(argv[a], w->name)) want = 1;
        if (!want) continue;
        for (int in = 0; in < 2; in++) {
            if ((in == 0 && !small) || (in == 1 && !paper)) continue;
            char log[1 << 14];
            FILE *f = fmemopen(log, sizeof log - 1, "w");
            double t0 = now();
            ws_wl_result r = ws_workload_run(w, d, in ? WS_INPUT_PAPER : WS_INPUT_SMALL, f);
            double t = now() - t0;
            long n = ftell(f);
            fclose(f);
            log[n > 0 ? n : 0] = 0;
            ran++;
            printf("%-24s %-5s %-8s %8.3f s\n", qual, in ? "paper" : "small",
                   r == WS_WL_PASS ? "PASS" : r == WS_WL_MISMATCH ? "MISMATCH" : "ERROR", t);
            if (r != WS_WL_PASS) {
                bad++;
                printf("%s\n", log);
            }
            fflush(stdout);
        }
    }
    ws_device_destroy(d);
    printf("hwcheck: %d runs, %d passed, %d failed\n", ran, ran - bad, bad);
    return bad > 100 ? 100 : bad;
}
