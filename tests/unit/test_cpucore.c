/* The CPU core on the shared LLC: the version-1 trace format and its
 * refusals (file and line named), the core's timing rule (due cycles, one
 * access a cycle, its MSHR limit, the port latency both ways, replies per
 * sector), the generator's footprint, read fraction and determinism, and
 * the options' refusals. */
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "test.h"
#include "timing/cpucore.h"

TEST(cpu_trace_format_v1) {
    ws_cpu_access *a;
    size_t n;
    char err[256];
    const char *ok = "warpsim-cpu-llc-trace 1\n# a comment\n\n0 0x1000 R\n5 4096 W  # same line\n"
                     "5 0x2080 r\n";
    /* lower-case r is refused: the kinds are R and W */
    CHECK(ws_cpu_trace_parse(ok, "t", &a, &n, err, sizeof err) == -1);
    CHECK_MSG(strstr(err, "t:6: want 'CYCLE ADDRESS R|W'"), "%s", err);
    const char *good = "warpsim-cpu-llc-trace 1\n# a comment\n\n0 0x1000 R\n5 4096 W  # same line\n"
                       "9 0x2080 R";
    CHECK(ws_cpu_trace_parse(good, "t", &a, &n, err, sizeof err) == 0);
    CHECK_EQ_U64(n, 3);
    if (n == 3) {
        CHECK(a[0].cycle == 0 && a[0].addr == 0x1000 && !a[0].write);
        CHECK(a[1].cycle == 5 && a[1].addr == 4096 && a[1].write);
        CHECK(a[2].cycle == 9 && a[2].addr == 0x2080 && !a[2].write);
    }
    free(a);
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"0 0x1000 R\n", "t:1: want the header 'warpsim-cpu-llc-trace 1'"},
        {"warpsim-cpu-llc-trace 2\n", "t:1: want the header"},
        {"", "t: empty"},
        {"warpsim-cpu-llc-trace 1\n0 0x1000\n", "t:2: want 'CYCLE ADDRESS R|W'"},
        {"warpsim-cpu-llc-trace 1\n0 0x1000 R extra\n", "t:2: want 'CYCLE ADDRESS R|W'"},
        {"warpsim-cpu-llc-trace 1\nx 0x1000 R\n", "t:2: cycle 'x' is not a decimal count"},
        {"warpsim-cpu-llc-trace 1\n1 0xZZ R\n", "t:2: address '0xZZ' is not a number"},
        {"warpsim-cpu-llc-trace 1\n9 0x80 R\n3 0x80 R\n", "t:3: cycle 3 is before the previous"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        a = NULL;
        CHECK(ws_cpu_trace_parse(bad[i].text, "t", &a, &n, err, sizeof err) == -1);
        CHECK_MSG(strstr(err, bad[i].want), "case %zu: %s", i, err);
        CHECK(a == NULL && n == 0);
    }
}

static ws_cpucore *make(ws_config *c, ws_mreq_pool *pool, ws_addrdec *ad, const char *const *kv,
                        char *err, size_t errlen) {
    ws_mreq_pool_init(pool);
    ws_config_init(c);
    for (size_t i = 0; kv[i]; i += 2)
        if (ws_config_set(c, kv[i], kv[i + 1], err, errlen)) return NULL;
    if (ws_addrdec_init(ad, c, err, errlen)) return NULL;
    return ws_cpucore_create(c, 15, pool, ad, err, errlen);
}

TEST(cpu_core_timing_rule) {
    ws_config c;
    ws_mreq_pool pool;
    ws_addrdec ad;
    char err[256] = "";
    const char *kv[] = {"cpu_llc_source", "stream", "cpu_llc_rate", "0.5", "cpu_llc_mshr", "2",
                        "cpu_llc_latency", "8", "cpu_llc_footprint", "512", "cpu_llc_read_frac",
                        "1", "cpu_llc_base", "0x10000", NULL};
    ws_cpucore *cpu = make(&c, &pool, &ad, kv, err, sizeof err);
    CHECK_MSG(cpu, "%s", err);
    if (!cpu) return;
    CHECK(ws_cpucore_peek(cpu, 0, false) == NULL); /* the GPU idle: the core waits */
    ws_mreq *r0 = ws_cpucore_peek(cpu, 0, true);   /* access 0 is due at 0 / 0.5 */
    CHECK(r0 && r0->addr == 0x10000 && !r0->is_write && r0->sm == 15 && r0->data_size == 128);
    ws_cpucore_pop(cpu, 0);
    CHECK(ws_cpucore_peek(cpu, 1, true) == NULL); /* access 1 is due at 2 */
    ws_mreq *r1 = ws_cpucore_peek(cpu, 2, true);
    CHECK(r1 && r1->addr == 0x10080);
    ws_cpucore_pop(cpu, 2);
    CHECK(ws_cpucore_peek(cpu, 4, true) == NULL); /* due, but both MSHRs are in use */
    CHECK_EQ_U64(ws_cpucore_counts_get(cpu)->stall, 1);
    /* the port: 8 cycles to the slice */
    CHECK(ws_cpucore_port_top(cpu, 7) == NULL);
    CHECK(ws_cpucore_port_top(cpu, 8) == r0);
    ws_cpucore_port_pop(cpu);
    CHECK(ws_cpucore_port_top(cpu, 9) == NULL);
    CHECK(ws_cpucore_port_top(cpu, 10) == r1);
    ws_cpucore_port_pop(cpu);
    /* r0 hits, answered at 20: back at the core at 28 */
    r0->l2_waited = false;
    ws_cpucore_reply(cpu, r0, 20);
    ws_cpucore_cycle(cpu, 27);
    CHECK_EQ_U64(ws_cpucore_counts_get(cpu)->hit, 0);
    ws_cpucore_cycle(cpu, 28);
    CHECK_EQ_U64(ws_cpucore_counts_get(cpu)->hit, 1);
    CHECK_EQ_U64(ws_cpucore_counts_get(cpu)->lat_sum, 28);
    /* r1 misses at a sectored L2: four 32 B sector replies, done at the last */
    for (int s = 0; s < 4; s++) {
        ws_mreq *q = ws_mreq_alloc(&pool);
        *q = *r1;
        q->data_size = 32;
        q->l2_waited = s == 2;
        ws_cpucore_reply(cpu, q, 30 + (uint64_t)s);
    }
    ws_mreq_free(&pool, r1);
    ws_cpucore_cycle(cpu, 40);
    CHECK(ws_cpucore_busy(cpu) && ws_cpucore_counts_get(cpu)->miss == 0);
    ws_cpucore_cycle(cpu, 41);
    CHECK(!ws_cpucore_busy(cpu));
    CHECK_EQ_U64(ws_cpucore_counts_get(cpu)->miss, 1);
    CHECK_EQ_U64(ws_cpucore_counts_get(cpu)->lat_sum, 28 + 39);
    /* the stream wraps over its 4-line footprint */
    uint64_t want[] = {0x10100, 0x10180, 0x10000};
    for (int i = 0; i < 3; i++) {
        ws_mreq *q = ws_cpucore_peek(cpu, 100, true);
        CHECK(q && q->addr == want[i]);
        ws_cpucore_pop(cpu, 100);
        if (i == 1) { /* free both MSHRs */
            ws_mreq *x;
            while ((x = ws_cpucore_port_top(cpu, 1000))) {
                ws_cpucore_port_pop(cpu);
                ws_cpucore_reply(cpu, x, 1000);
            }
            ws_cpucore_cycle(cpu, 1008);
        }
    }
    CHECK_EQ_U64(ws_cpucore_counts_get(cpu)->acc, 5);
    ws_cpucore_destroy(cpu);
    ws_mreq_pool_destroy(&pool);
    ws_config_free(&c);
}

/* n accesses of a random generator, ignoring timing (MSHRs freed at once). */
static void gen(const char *seed, uint64_t *addr, bool *wr, int n) {
    ws_config c;
    ws_mreq_pool pool;
    ws_addrdec ad;
    char err[256] = "";
    const char *kv[] = {"cpu_llc_source", "random", "cpu_llc_rate", "1", "cpu_llc_footprint",
                        "65536", "cpu_llc_read_frac", "0.7", "cpu_llc_seed", seed,
                        "cpu_llc_latency", "0", NULL};
    ws_cpucore *cpu = make(&c, &pool, &ad, kv, err, sizeof err);
    CHECK_MSG(cpu, "%s", err);
    for (int i = 0; cpu && i < n; i++) {
        uint64_t now = (uint64_t)i;
        ws_mreq *r = ws_cpucore_peek(cpu, now, true);
        if (!r) break;
        addr[i] = r->addr;
        wr[i] = r->is_write;
        ws_cpucore_pop(cpu, now);
        ws_mreq *x = ws_cpucore_port_top(cpu, now);
        ws_cpucore_port_pop(cpu);
        ws_cpucore_reply(cpu, x, now);
        ws_cpucore_cycle(cpu, now);
    }
    ws_cpucore_destroy(cpu);
    ws_mreq_pool_destroy(&pool);
    ws_config_free(&c);
}

TEST(cpu_generator_random_footprint_reads_seed) {
    enum { N = 20000 };
    static uint64_t a[N], b[N];
    static bool wa[N], wb[N];
    memset(a, 0, sizeof a);
    gen("7", a, wa, N);
    gen("7", b, wb, N);
    CHECK(!memcmp(a, b, sizeof a) && !memcmp(wa, wb, sizeof wa)); /* deterministic */
    int reads = 0, inside = 0, distinct = 0;
    static bool seen[512];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < N; i++) {
        reads += !wa[i];
        uint64_t off = a[i] - 0x400000000ull;
        inside += a[i] >= 0x400000000ull && off < 65536 && off % 128 == 0;
        if (off < 65536 && !seen[off / 128]) seen[off / 128] = true, distinct++;
    }
    CHECK_EQ_U64(inside, N);
    CHECK_EQ_U64(distinct, 512); /* every line of the footprint */
    CHECK_MSG(reads > N * 0.68 && reads < N * 0.72, "reads %d of %d", reads, N);
    gen("8", b, wb, N);
    CHECK(memcmp(a, b, sizeof a)); /* another seed, another stream */
}

TEST(cpu_core_options_refused) {
    static const struct {
        const char *kv[5], *want;
    } bad[] = {
        {{"cpu_llc_source", "bogus", NULL}, "not one of none, stream, random, trace"},
        {{"cpu_llc_source", "trace", NULL}, "needs -cpu_llc_trace FILE"},
        {{"cpu_llc_source", "stream", "cpu_llc_trace", "x.trace", NULL}, "needs -cpu_llc_source trace"},
        {{"cpu_llc_trace", "x.trace", NULL}, "needs -cpu_llc_source trace"},
        {{"cpu_llc_source", "trace", "cpu_llc_trace", "/nonexistent/x.trace", NULL},
         "-cpu_llc_trace"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ws_config c;
        ws_mreq_pool pool;
        ws_addrdec ad;
        char err[256] = "";
        ws_cpucore *cpu = make(&c, &pool, &ad, bad[i].kv, err, sizeof err);
        CHECK(!cpu);
        CHECK_MSG(strstr(err, bad[i].want), "case %zu: %s", i, err);
        ws_cpucore_destroy(cpu);
        ws_mreq_pool_destroy(&pool);
        ws_config_free(&c);
    }
    /* the ranges, before any run */
    ws_config c;
    char err[256];
    ws_config_init(&c);
    CHECK(ws_config_set(&c, "cpu_llc_rate", "0", err, sizeof err) != 0);
    CHECK(ws_config_set(&c, "cpu_llc_rate", "1.5", err, sizeof err) != 0);
    CHECK(ws_config_set(&c, "cpu_llc_read_frac", "-0.1", err, sizeof err) != 0);
    CHECK(ws_config_set(&c, "cpu_llc_mshr", "0", err, sizeof err) != 0);
    CHECK(ws_config_set(&c, "cpu_llc_footprint", "64", err, sizeof err) != 0);
    CHECK(ws_config_set(&c, "cpu_llc_mshr", "300", err, sizeof err) != 0);
    ws_config_free(&c);
}
