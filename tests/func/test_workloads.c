/* Every bundled workload runs on its small input on a functional-only
 * device and matches its CPU reference. */
#include <stdlib.h>

#include "test.h"
#include "workload.h"

static void run_small(const char *name) {
    const ws_workload *w = ws_workload_find(name);
    CHECK_MSG(w != NULL, "workload %s is not registered", name);
    if (!w) return;
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

TEST(workload_vectoradd) { run_small("vectoradd"); }
TEST(workload_matmul) { run_small("matmul"); }
TEST(workload_reduce) { run_small("reduce"); }
TEST(workload_histogram) { run_small("histogram"); }
TEST(workload_bfs) { run_small("bfs"); }
TEST(workload_funcs) { run_small("funcs"); }
TEST(workload_dpsolve) { run_small("dpsolve"); }

/* The registry lists every workload once, each complete and findable. */
TEST(workload_registry) {
    int count = 0;
    for (const ws_workload *const *w = ws_workload_all(); *w; w++, count++) {
        CHECK((*w)->name && (*w)->suite && (*w)->description && (*w)->run);
        CHECK_MSG((*w)->ptx && strstr((*w)->ptx, ".entry"), "%s: no embedded PTX", (*w)->name);
        CHECK_MSG((*w)->ptxinfo && strstr((*w)->ptxinfo, "registers"), "%s: no ptxas info",
                  (*w)->name);
        CHECK(ws_workload_find((*w)->name) == *w);
    }
    CHECK_EQ_I64(count, 7);
    CHECK(ws_workload_find("no-such-workload") == NULL);
}
