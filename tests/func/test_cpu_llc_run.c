/* The CPU core on the shared LLC end to end (lud: loops and barriers):
 * its accesses are answered and counted, take LLC capacity from the GPU,
 * change no GPU result and repeat exactly; a trace file's accesses are all
 * sent, and re-reads of its lines hit; under access-interval throttling
 * with the CPU core as one more core the run completes (no deadlock), the
 * recorded LLC trace holds the CPU's accesses as core 15, and the Access
 * Interval estimate over that mixed trace is never below the measured LLC
 * misses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/llc.h"
#include "stats_util.h"
#include "test.h"

/* The sum over kernels of a per-kernel stat, or the last value of a
   cumulative one. */
static double sum(const char *rep, const char *name) {
    double v[256], s = 0;
    size_t n = ws_test_stat(rep, 1, name, v, 256);
    for (size_t i = 0; i < n && i < 256; i++) s += v[i];
    return s;
}
static double last(const char *rep, const char *name) {
    double v[256];
    size_t n = ws_test_stat(rep, 1, name, v, 256);
    return n ? v[n < 256 ? n - 1 : 255] : -1;
}

static char *run(const char *const *sets) {
    char *log = NULL;
    char *rep = ws_test_timing_report_set("rodinia/lud", NULL, sets, NULL, &log);
    free(log);
    return rep;
}

TEST(cpu_llc_traffic_competes_and_repeats) {
    char *base = run(NULL);
    /* a streaming CPU core over 4 MB (the L2 holds 768 KB), as fast as it can */
    const char *cpu[] = {"-cpu_llc_source stream", "-cpu_llc_rate 1", "-cpu_llc_mshr 64",
                         "-cpu_llc_footprint 4194304", NULL};
    char *a = run(cpu), *b = run(cpu);
    /* deterministic: every kernel's cycles, L2 and CPU counts repeat */
    static const char *const same[] = {"gpu_sim_cycle", "L2_total_cache_misses",
                                       "L2_total_cache_accesses", "cpu_llc_accesses",
                                       "cpu_llc_misses", "cpu_llc_avg_latency",
                                       "cpu_llc_stall_cycles"};
    for (size_t i = 0; a && b && i < sizeof same / sizeof same[0]; i++) {
        double va[64], vb[64];
        size_t na = ws_test_stat(a, 1, same[i], va, 64), nb = ws_test_stat(b, 1, same[i], vb, 64);
        CHECK_MSG(na == nb && na > 0 && !memcmp(va, vb, (na < 64 ? na : 64) * sizeof *va),
                  "%s differs between two runs", same[i]);
    }
    if (a && base) {
        double acc = sum(a, "cpu_llc_accesses"), hit = sum(a, "cpu_llc_hits"),
               miss = sum(a, "cpu_llc_misses");
        CHECK_MSG(acc > 1000, "CPU accesses %.0f", acc);
        CHECK_MSG(hit + miss == acc, "%.0f hits + %.0f misses of %.0f", hit, miss, acc);
        CHECK(sum(a, "cpu_llc_reads") + sum(a, "cpu_llc_writes") == acc);
        CHECK(last(a, "gpu_tot_sim_insn") == last(base, "gpu_tot_sim_insn"));
        CHECK(last(a, "L2_total_cache_accesses") >= last(base, "L2_total_cache_accesses") + acc);
        /* the GPU's lines are evicted: its own misses (all L2 misses but the CPU's) grow */
        double gpu_miss = last(a, "L2_total_cache_misses") - miss;
        CHECK_MSG(gpu_miss > last(base, "L2_total_cache_misses"), "GPU L2 misses %.0f, alone %.0f",
                  gpu_miss, last(base, "L2_total_cache_misses"));
        CHECK(sum(a, "cpu_llc_max_latency") > 0 && last(a, "cpu_llc_avg_latency") > 8);
        CHECK(!strstr(base, "cpu_llc_accesses")); /* off: not reported */
    }
    free(a);
    free(b);
    free(base);
}

TEST(cpu_llc_trace_replayed) {
    char path[128], set[200];
    snprintf(path, sizeof path, "/tmp/warpsim-cpu-%d.trace", (int)getpid());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fprintf(f, "warpsim-cpu-llc-trace 1\n");
    for (int i = 0; i < 200; i++) /* 100 lines, then each again */
        fprintf(f, "%d 0x%llx %c\n", i, 0x500000000ull + 128ull * (unsigned)(i % 100),
                i % 7 == 3 ? 'W' : 'R');
    fclose(f);
    snprintf(set, sizeof set, "-cpu_llc_trace %s", path);
    const char *sets[] = {"-cpu_llc_source trace", set, NULL};
    char *rep = run(sets);
    CHECK(rep && sum(rep, "cpu_llc_accesses") == 200);
    CHECK(rep && sum(rep, "cpu_llc_writes") == 29); /* i % 7 == 3 */
    CHECK_MSG(rep && sum(rep, "cpu_llc_hits") >= 100, "hits %.0f", rep ? sum(rep, "cpu_llc_hits") : 0);
    free(rep);
    /* a malformed line stops the run before it starts, naming the line */
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "warpsim-cpu-llc-trace 1\n0 0x100 R\n1 0x180 X\n");
        fclose(f);
    }
    ws_device_options o;
    ws_device_options_init(&o);
    o.functional_only = 0;
    o.config_overrides = sets;
    ws_device *d = NULL;
    ws_test_stderr c;
    ws_test_stderr_begin(&c);
    ws_status s = ws_device_create(&o, &d);
    char *msg = ws_test_stderr_end(&c);
    CHECK(s != WS_OK);
    const char *why = d ? ws_device_last_error(d) : msg;
    CHECK_STR_CONTAINS(why ? why : "", ":3: want 'CYCLE ADDRESS R|W'");
    ws_device_destroy(d);
    free(msg);
    unlink(path);
}

/* Each kernel's LLC trace ("KERNEL CORE LINE SET") as per-core key lists
   (llc-analyze's keys: same set <=> same key mod sets). */
typedef struct ktrace {
    uint64_t *v[16];
    size_t n[16], cap[16];
} ktrace;

TEST(llc_access_interval_with_cpu_core) {
    char path[128], set[200];
    snprintf(path, sizeof path, "/tmp/warpsim-llccpu-%d.trace", (int)getpid());
    snprintf(set, sizeof set, "-llc_access_trace %s", path);
    const char *sets[] = {"-cpu_llc_source random", "-cpu_llc_rate 0.1",
                          "-cpu_llc_footprint 1048576", "-llc_access_interval 2", set, NULL};
    char *rep = run(sets); /* lud checks its output: the throttled run completed */
    char *tr = ws_test_read_file(path, NULL);
    CHECK(rep && tr);
    if (!rep || !tr) {
        free(rep);
        free(tr);
        return;
    }
    enum { SETS = 6 * 64, WAYS = 16, MAXK = 64 };
    static ktrace k[MAXK];
    memset(k, 0, sizeof k);
    size_t cpu_lines = 0;
    unsigned nk = 0;
    for (char *p = tr; p && *p;) {
        unsigned long long kk, line, s;
        unsigned c;
        if (sscanf(p, "%llu %u %llx %llu", &kk, &c, &line, &s) == 4 && kk >= 1 && kk <= MAXK &&
            c < 16) {
            ktrace *t = &k[kk - 1];
            if (t->n[c] == t->cap[c]) {
                t->cap[c] = t->cap[c] ? 2 * t->cap[c] : 256;
                t->v[c] = realloc(t->v[c], t->cap[c] * sizeof *t->v[c]);
            }
            t->v[c][t->n[c]++] = (line / 128) * SETS + s % SETS;
            cpu_lines += c == 15;
            if (kk > nk) nk = (unsigned)kk;
        }
        p = strchr(p, '\n');
        if (p) p++;
    }
    CHECK_MSG(cpu_lines > 100 && cpu_lines == (size_t)sum(rep, "cpu_llc_accesses"),
              "CPU lines in the trace %zu, accesses %.0f", cpu_lines, sum(rep, "cpu_llc_accesses"));
    int64_t est = 0;
    for (unsigned i = 0; i < nk; i++) {
        ws_llc_trace t = {16, (const uint64_t *const *)k[i].v, k[i].n};
        int64_t ai = ws_llc_access_interval(&t, SETS, WAYS, 2);
        CHECK(ai >= 0 && ai <= ws_llc_simple(&t, SETS, WAYS));
        est += ai;
        for (int c = 0; c < 16; c++) free(k[i].v[c]);
    }
    double measured = last(rep, "L2_total_cache_misses");
    CHECK_MSG(est >= measured && measured > 0, "Access Interval %lld misses, measured %.0f",
              (long long)est, measured);
    free(rep);
    free(tr);
    unlink(path);
}
