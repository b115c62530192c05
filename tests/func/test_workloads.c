/* Every bundled workload runs on its small input on a functional-only
 * device and matches its CPU reference. */
#include <stdlib.h>

#include "test.h"
#include "workload.h"

static void run_one(const ws_workload *w) {
    const char *name = w->name;
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 1;
    o.quiet = 1;
    ws_device *d = NULL;
    ws_status s = ws_device_create(&o, &d);
    CHECK_MSG(s == WS_OK && d, "ws_device_create: %s", ws_status_name(s));
    if (s != WS_OK || !d) return;

    /* Keep the workload's log; print it only when the run fails. */
    char *buf = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&buf, &len);
    CHECK(log != NULL);
    if (!log) {
        ws_device_destroy(d);
        return;
    }
    ws_wl_result r = ws_workload_run(w, d, WS_INPUT_SMALL, log);
    fclose(log);
    CHECK_MSG(r == WS_WL_PASS, "%s (small) returned %d, log:\n%s", name, (int)r, buf ? buf : "");
    free(buf);
    ws_device_destroy(d);
}

/* Every workload of a suite on its small input; each failure names the
 * workload and shows its log. */
static void run_suite(const char *suite) {
    int n = 0;
    for (const ws_suite *const *s = ws_suites(); *s; s++) {
        if (strcmp((*s)->name, suite)) continue;
        for (const ws_workload *const *w = (*s)->workloads; *w; w++, n++) run_one(*w);
    }
    CHECK_MSG(n > 0, "suite %s has no workloads", suite);
}

TEST(workloads_micro_small) { run_suite("micro"); }
TEST(workloads_polybench_small) { run_suite("polybench"); }
TEST(workloads_rodinia_small) { run_suite("rodinia"); }
TEST(workloads_sdk_small) { run_suite("sdk"); }
TEST(workloads_shoc_small) { run_suite("shoc"); }
TEST(workloads_mars_small) { run_suite("mars"); }
TEST(workloads_ispass_small) { run_suite("ispass"); }

/* The registry lists every workload once, each complete and findable. */
TEST(workload_registry) {
    size_t count = ws_workload_count();
    for (size_t i = 0; i < count; i++) {
        const ws_workload *w = ws_workload_at(i);
        CHECK(w->name && w->suite && w->description && w->run);
        CHECK_MSG(w->ptx && strstr(w->ptx, ".entry"), "%s: no embedded PTX", w->name);
        CHECK_MSG(w->ptxinfo && strstr(w->ptxinfo, "registers"), "%s: no ptxas info", w->name);
        char qual[128];
        snprintf(qual, sizeof qual, "%s/%s", w->suite, w->name);
        CHECK_MSG(ws_workload_find(qual) == w, "%s: not found by its name, or registered twice", qual);
    }
    CHECK(count >= 7);
    CHECK(ws_workload_at(count) == NULL);
    CHECK(ws_workload_find("no-such-workload") == NULL);
}

/* A sample of workloads from every suite through the timing model (the
 * whole suite takes minutes there: tools/run_all.sh). They cover constant
 * memory written by the host (aes, cp, mergesort), multi-kernel programs
 * (leukocyte, mergesort, spmv), shared-memory tiles (convsep, gemm). */
static void run_timing(const char *name) {
    const ws_workload *w = ws_workload_find(name);
    CHECK_MSG(w != NULL, "no workload %s", name);
    if (!w) return;
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.quiet = 1;
    ws_device *d = NULL;
    CHECK(ws_device_create(&o, &d) == WS_OK);
    if (!d) return;
    char *buf = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&buf, &len);
    ws_wl_result r = ws_workload_run(w, d, WS_INPUT_SMALL, log);
    fclose(log);
    CHECK_MSG(r == WS_WL_PASS, "%s (small, timing) returned %d, log:\n%s", name, (int)r, buf ? buf : "");
    free(buf);
    ws_device_destroy(d);
}

TEST(workloads_timing_sample) {
    const char *names[] = {"rodinia/backprop", "rodinia/nn", "sdk/scalarprod", "shoc/spmv",
                           "mars/stringmatch", "ispass/aes", "ispass/cp", "polybench/gemm",
                           "sdk/convsep", "rodinia/mergesort", "rodinia/leukocyte"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) run_timing(names[i]);
}
