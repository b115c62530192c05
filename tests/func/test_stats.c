/* Program-scope statistics: GPGPU-Sim's cache, DRAM, interconnect and stall
 * counters are cumulative over the program, their per-kernel values are
 * NAME_kernel, and ratios come from summed counts (text and JSON). */
#include <math.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/report.h"
#include "stats_util.h"
#include "test.h"
#include "workload.h"
#include "tmpdir.h"

enum { MAXK = 64 };

static double tol(int text, double want) {
    double m = fabs(want) > 1 ? fabs(want) : 1;
    /* text rounds to 4 places; JSON carries doubles (sums in another order round apart) */
    return text ? 1e-3 * m : 1e-9 * m;
}

/* For one format (text or JSON), every catalogued stat aggregates as the
   catalog says: a program-scope value is the sum / max / last / ratio of the
   per-kernel values so far, and a per-kernel stat with GPGPU-Sim's own
   cumulative spelling (gpu_sim_insn -> gpu_tot_sim_insn) aggregates to it. */
static void check_catalog_aggregation(const char *what, const char *src, int text,
                                      size_t kernels) {
    size_t nt;
    const ws_stat_table *const *tables = ws_catalog_tables(&nt);
    static double kv[MAXK], cv[MAXK], num[MAXK], den[MAXK];
    char kname[160];
    size_t checked = 0;
    for (size_t t = 0; t < nt; t++)
        for (size_t i = 0; i < tables[t]->n; i++) {
            const ws_stat_decl *d = &tables[t]->decl[i];
            if (d->hidden || d->when || strchr(d->name, '*')) continue;
            if (text && d->text && !*d->text) continue; /* JSON only */
            const char *nn = ws_catalog_num(tables[t], d), *dn = ws_catalog_den(tables[t], d);
            if (d->scope == WS_SCOPE_PROGRAM) {
                snprintf(kname, sizeof kname, "%s%s", d->name, WS_STAT_KERNEL_SUFFIX);
                CHECK_MSG(ws_test_stat(src, text, kname, kv, MAXK) == kernels, "%s: %s", what,
                          kname);
                CHECK_MSG(ws_test_stat(src, text, d->name, cv, MAXK) == kernels, "%s: %s", what,
                          d->name);
                if (d->agg == WS_AGG_RATIO) {
                    if (tables[t]->decl[d->num].hidden || tables[t]->decl[d->den].hidden)
                        continue; /* dram_bw_util: its counts are not reported */
                    ws_test_stat(src, text, nn, num, MAXK);
                    ws_test_stat(src, text, dn, den, MAXK);
                    double want = den[kernels - 1] ? num[kernels - 1] / den[kernels - 1] : 0;
                    CHECK_MSG(fabs(cv[kernels - 1] - want) <= (text ? 5e-5 : 0),
                              "%s: %s = %.6f, sums give %.6f", what, d->name, cv[kernels - 1], want);
                    checked++;
                    continue;
                }
                double acc = 0;
                for (size_t k = 0; k < kernels; k++) {
                    acc = d->agg == WS_AGG_MAX ? (kv[k] > acc ? kv[k] : acc)
                          : d->agg == WS_AGG_LAST ? kv[k] : acc + kv[k];
                    CHECK_MSG(cv[k] == acc, "%s: kernel %zu: %s = %.0f, %s of %s = %.0f", what,
                              k + 1, d->name, cv[k], ws_stat_agg_name(d->agg), kname, acc);
                }
                checked++;
            } else if (d->scope == WS_SCOPE_KERNEL && (d->twin || nn)) {
                CHECK_MSG(ws_test_stat(src, text, d->name, kv, MAXK) == kernels, "%s: %s", what,
                          d->name);
                if (nn) ws_test_stat(src, text, nn, num, MAXK);
                if (dn) ws_test_stat(src, text, dn, den, MAXK);
                /* a JSON-only twin (tot_wall_time_s) is checked in JSON */
                if (d->twin && ws_test_stat(src, text, d->twin, cv, MAXK) != kernels) continue;
                double s = 0, sn = 0, sd = 0, sw = 0;
                for (size_t k = 0; k < kernels; k++) {
                    double scale = d->scale ? d->scale : 1;
                    s += kv[k];
                    if (nn) sn += num[k];
                    if (dn) sd += den[k], sw += kv[k] * den[k];
                    /* a ratio of other stats holds in each kernel too */
                    if (nn && dn && den[k])
                        CHECK_MSG(fabs(kv[k] - scale * num[k] / den[k]) <= tol(text, kv[k]),
                                  "%s: kernel %zu: %s = %g, %s / %s = %g", what, k + 1, d->name,
                                  kv[k], nn, dn, scale * num[k] / den[k]);
                    if (!d->twin) continue;
                    double want = d->agg == WS_AGG_RATIO ? (sd ? scale * sn / sd : 0)
                                  : d->agg == WS_AGG_WMEAN ? (sd ? sw / sd : 0) : s;
                    CHECK_MSG(fabs(cv[k] - want) <= tol(text, want),
                              "%s: kernel %zu: %s = %g, %s of %s gives %g", what, k + 1, d->twin,
                              cv[k], ws_stat_agg_name(d->agg), d->name, want);
                }
                checked++;
            }
        }
    CHECK_MSG(checked > 50, "%s: %zu stats checked", what, checked);
}

TEST(stats_program_scope_cumulative_multi_kernel) {
    char dir[] = "/tmp/warpsim-stats-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *log = NULL;
    char *rep = ws_test_timing_report("rodinia/bfs", NULL, dir, &log);
    char path[256];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    char *json = ws_test_read_file(path, NULL);
    CHECK(json != NULL);
    double v[MAXK];
    size_t kernels = ws_test_text_stat(rep, "kernel_name", v, MAXK);
    CHECK_MSG(kernels > 2 && kernels <= MAXK, "%zu kernels", kernels);
    if (json && kernels > 2 && kernels <= MAXK) {
        check_catalog_aggregation("text", rep, 1, kernels);
        check_catalog_aggregation("json", json, 0, kernels);
        /* the case: the whole-run miss rate is total misses / total
           accesses, not a mean of the kernels' rates */
        double acc[MAXK], miss[MAXK], rate[MAXK], krate[MAXK];
        ws_test_stat(json, 0, "L1D_total_cache_accesses_kernel", acc, MAXK);
        ws_test_stat(json, 0, "L1D_total_cache_misses_kernel", miss, MAXK);
        ws_test_stat(json, 0, "L1D_total_cache_miss_rate", rate, MAXK);
        ws_test_stat(json, 0, "L1D_total_cache_miss_rate_kernel", krate, MAXK);
        double sa = 0, sm = 0;
        for (size_t k = 0; k < kernels; k++) sa += acc[k], sm += miss[k];
        CHECK(sa > 0);
        CHECK_MSG(rate[kernels - 1] == sm / sa, "L1D_total_cache_miss_rate %.6f, sums %.6f",
                  rate[kernels - 1], sm / sa);
        CHECK(krate[kernels - 1] != rate[kernels - 1]); /* the last kernel alone differs */
    }
    /* GPGPU-Sim's own spellings */
    CHECK_STR_CONTAINS(rep, "\ntotal dram reads = ");
    CHECK_STR_CONTAINS(rep, "\ntotal dram writes = ");
    CHECK_STR_CONTAINS(rep, "\ngpu_stall_icnt2sh    = ");
    CHECK(!strstr(rep, "\ntotal_dram_reads = "));
    free(json);
    free(rep);
    free(log);
    ws_test_rmtree(dir);
}

/* The aggregation kinds, the hidden counts behind a ratio, the text spelling
   and the order (all per-kernel values first, then the totals). */
TEST(stats_add_program_aggregates) {
    static const ws_stat_decl decl[] = {
        {"a_count", .text = "a count"},
        {"a_peak", .agg = WS_AGG_MAX},
        {"a_state", .agg = WS_AGG_LAST},
        {"hits", .hidden = 1},
        {"a_rate", .agg = WS_AGG_RATIO, .num = 3, .den = 0},
    };
    uint64_t tot[5] = {0};
    const uint64_t k1[5] = {10, 7, 1, 5, 0}, k2[5] = {30, 3, 2, 3, 0};
    ws_kernel_stats s;
    ws_kstats_init(&s);
    CHECK(ws_kstats_add_program(&s, decl, 5, k1, tot) == 0);
    ws_kstats_free(&s);
    ws_kstats_init(&s);
    CHECK(ws_kstats_add_program(&s, decl, 5, k2, tot) == 0);
    CHECK_EQ_U64(s.nextra, 8);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ws_report_text(f, &s);
    fclose(f);
    CHECK_STR_CONTAINS(buf, "a_count_kernel = 30\na_peak_kernel = 3\na_state_kernel = 2\n"
                            "a_rate_kernel = 0.1000\n"
                            "a count = 40\na_peak = 7\na_state = 2\na_rate = 0.2000\n");
    CHECK(!strstr(buf, "hits"));
    char *j = NULL;
    size_t jl = 0, jc = 0;
    CHECK(ws_report_json(&s, &j, &jl, &jc) == 0);
    CHECK_STR_CONTAINS(j, "\"a_count_kernel\": 30, ");
    CHECK_STR_CONTAINS(j, "\"a_count\": 40, ");
    CHECK_STR_CONTAINS(j, "\"a_rate\": 0.20000000000000001");
    free(j);
    free(buf);
    ws_kstats_free(&s);
}

/* The text and JSON of a report (both owned by the caller). */
static void render(const ws_kernel_stats *s, char **text, char **json) {
    size_t len = 0, jl = 0, jc = 0;
    FILE *f = open_memstream(text, &len);
    ws_report_text(f, s);
    fclose(f);
    *json = NULL;
    CHECK(ws_report_json(s, json, &jl, &jc) == 0);
}

/* Records named once and copied for every kernel (ws_kstats_add_program_named)
   report what ws_kstats_add_program does, kernel after kernel, with the same
   totals; another table is named anew. */
TEST(stats_add_program_named_same_report) {
    static const ws_stat_decl a[] = {
        {"a_count", .text = "a count"},
        {"a_peak", .agg = WS_AGG_MAX},
        {"a_json", .text = ""},
        {"hits", .hidden = 1},
        {"a_rate", .agg = WS_AGG_RATIO, .num = 3, .den = 0},
        {"a_state_with_a_longer_name_than_most", .agg = WS_AGG_LAST},
    };
    static const ws_stat_decl b[] = {{"b_count"}, {"b_rate", .agg = WS_AGG_RATIO, .num = 0, .den = 0}};
    uint64_t tot_plain[6] = {0}, tot_named[6] = {0}, tb_plain[2] = {0}, tb_named[2] = {0};
    ws_kstats_named nm = {0};
    for (uint64_t k = 0; k < 4; k++) {
        const uint64_t v[6] = {10 + k, 7 * k % 5, k, 5 + k, 0, k * k};
        ws_kernel_stats p, q;
        ws_kstats_init(&p);
        ws_kstats_init(&q);
        CHECK(ws_kstats_add_u64(&p, "before", k) == 0 && ws_kstats_add_u64(&q, "before", k) == 0);
        CHECK(ws_kstats_add_program(&p, a, 6, v, tot_plain) == 0);
        CHECK(ws_kstats_add_program_named(&q, &nm, a, 6, v, tot_named) == 0);
        if (k == 3) { /* another table: named anew, then the first again */
            const uint64_t w[2] = {k + 1, 0};
            CHECK(ws_kstats_add_program(&p, b, 2, w, tb_plain) == 0);
            CHECK(ws_kstats_add_program_named(&q, &nm, b, 2, w, tb_named) == 0);
            CHECK(ws_kstats_add_program(&p, a, 6, v, tot_plain) == 0);
            CHECK(ws_kstats_add_program_named(&q, &nm, a, 6, v, tot_named) == 0);
        }
        CHECK_EQ_U64(q.nextra, p.nextra);
        char *tp, *jp, *tq, *jq;
        render(&p, &tp, &jp);
        render(&q, &tq, &jq);
        CHECK(tp && tq && !strcmp(tp, tq));
        CHECK(jp && jq && !strcmp(jp, jq));
        CHECK_STR_CONTAINS(tq, "a_rate_kernel = ");
        free(tp);
        free(jp);
        free(tq);
        free(jq);
        ws_kstats_free(&p);
        ws_kstats_free(&q);
    }
    CHECK(!memcmp(tot_plain, tot_named, sizeof tot_plain));
    ws_kstats_named_free(&nm);
    CHECK(!nm.v && !nm.n);
}

/* JSON strings: plain runs copied whole, quotes, backslashes and control
   characters escaped between them (report.c's jstr) */
TEST(stats_json_string_escapes) {
    ws_kernel_stats s;
    ws_kstats_init(&s);
    CHECK(ws_kstats_add_str(&s, "k\"ey", "a\"b\\c\nd\x01") == 0);
    CHECK(ws_kstats_add_str(&s, "plain", "") == 0);
    char *j = NULL;
    size_t jl = 0, jc = 0;
    CHECK(ws_report_json(&s, &j, &jl, &jc) == 0);
    CHECK_STR_CONTAINS(j, "\"k\\\"ey\": \"a\\\"b\\\\c\\u000ad\\u0001\"");
    CHECK_STR_CONTAINS(j, "\"plain\": \"\"");
    CHECK(j && strlen(j) == jl);
    free(j);
    ws_kstats_free(&s);
}

/* Integer values are written without printf (report.c's jkey_u64): the same
   digits as "%" PRIu64 for edge values and a spread of magnitudes */
TEST(stats_json_u64_digits) {
    uint64_t vals[64] = {0, 1, 9, 10, 99, 100, 4294967295u, 4294967296u, UINT64_MAX, UINT64_MAX - 1,
                         10000000000000000000u, 9999999999999999999u};
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (unsigned i = 12; i < 64; i++) { /* xorshift, shifted to every magnitude */
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        vals[i] = x >> (i % 64);
    }
    ws_kernel_stats s;
    ws_kstats_init(&s);
    char name[32];
    for (unsigned i = 0; i < 64; i++) {
        snprintf(name, sizeof name, "v%u", i);
        CHECK(ws_kstats_add_u64(&s, name, vals[i]) == 0);
    }
    CHECK(ws_kstats_add_u64(&s, "q\"b\\s", 7) == 0); /* a key to escape: the general path */
    char *j = NULL;
    size_t jl = 0, jc = 0;
    CHECK(ws_report_json(&s, &j, &jl, &jc) == 0);
    for (unsigned i = 0; i < 64; i++) {
        char want[64];
        snprintf(want, sizeof want, "\"v%u\": %" PRIu64 ", ", i, vals[i]);
        CHECK_STR_CONTAINS(j, want);
    }
    char want[64];
    snprintf(want, sizeof want, "\"v63\": %" PRIu64 ", \"q\\\"b\\\\s\": 7, ", vals[63]);
    CHECK_STR_CONTAINS(j, want);
    CHECK(j && strlen(j) == jl);
    free(j);
    ws_kstats_free(&s);
}

/* A text line is formatted once into a stack buffer (ws_kstats_add_line);
   lines at and around its size, and far past it, keep every character */
TEST(stats_add_line_any_length) {
    ws_kernel_stats s;
    ws_kstats_init(&s);
    static const int lens[] = {0, 1, 300, 510, 511, 512, 513, 1000, 5000};
    enum { N = sizeof lens / sizeof lens[0] };
    char *body = malloc(5001);
    CHECK(body != NULL);
    for (int i = 0; i < 5000; i++) body[i] = (char)('a' + i % 26);
    for (int i = 0; i < N; i++) CHECK(ws_kstats_add_line(&s, "%.*s|%.3f", lens[i], body, 1.0 / 3) == 0);
    CHECK(s.nextra == N);
    for (int i = 0; i < N; i++) {
        char *want = malloc((size_t)lens[i] + 16);
        CHECK(want != NULL);
        snprintf(want, (size_t)lens[i] + 16, "%.*s|%.3f", lens[i], body, 1.0 / 3);
        CHECK(s.extra[i].line && !strcmp(s.extra[i].line, want));
        free(want);
    }
    free(body);
    s.no_text_lines = 1; /* a quiet run: nothing would print them */
    CHECK(ws_kstats_add_line(&s, "L1D_cache_core[%u]: Miss_rate = %.3f", 0u, 0.5) == 0);
    CHECK(s.nextra == N);
    ws_kstats_free(&s);
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = calloc(1, 4096);
    size_t n = b ? fread(b, 1, 4095, f) : 0;
    (void)n;
    fclose(f);
    return b;
}

/* stats.json after each kernel: the new objects are appended in place of the
   closing bracket while the file is as the last write left it; a file changed
   in between, or an unknown state, is replaced whole */
TEST(stats_json_appended_per_kernel) {
    char dir[] = "/tmp/warpsim-statsjson-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], err[256];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    size_t written = 0;
    CHECK(ws_report_write_json_file(dir, "{\"a\": 1}", &written, err, sizeof err) == 0);
    CHECK(written == 8);
    char *t = slurp(path);
    CHECK(t && strcmp(t, "[{\"a\": 1}]\n") == 0);
    free(t);
    /* appended: the inode stays (a rewrite would rename a new file over it) */
    struct stat s0, s1;
    CHECK(stat(path, &s0) == 0);
    CHECK(ws_report_write_json_file(dir, "{\"a\": 1}, {\"b\": 2}", &written, err, sizeof err) == 0);
    CHECK(stat(path, &s1) == 0);
    CHECK(s0.st_ino == s1.st_ino);
    CHECK(written == 18);
    t = slurp(path);
    CHECK(t && strcmp(t, "[{\"a\": 1}, {\"b\": 2}]\n") == 0);
    free(t);
    /* someone else wrote the file: replaced whole, not appended to */
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("[{\"x\": 9}]\n", f);
        fclose(f);
    }
    CHECK(ws_report_write_json_file(dir, "{\"a\": 1}, {\"b\": 2}, {\"c\": 3}", &written, err,
                                    sizeof err) == 0);
    t = slurp(path);
    CHECK(t && strcmp(t, "[{\"a\": 1}, {\"b\": 2}, {\"c\": 3}]\n") == 0);
    free(t);
    /* a file of the right length but other contents: replaced too */
    f = fopen(path, "r+");
    CHECK(f != NULL);
    if (f) {
        fseek(f, -2, SEEK_END);
        fputs("}\n", f);
        fclose(f);
    }
    CHECK(ws_report_write_json_file(dir, "{\"a\": 1}, {\"b\": 2}, {\"c\": 3}, {\"d\": 4}", &written,
                                    err, sizeof err) == 0);
    t = slurp(path);
    CHECK(t && strcmp(t, "[{\"a\": 1}, {\"b\": 2}, {\"c\": 3}, {\"d\": 4}]\n") == 0);
    free(t);
    ws_test_rmtree(dir);
}

/* The keys of a stats.json array of flat kernel objects, each once, in buf
   (NUL-separated); returns how many. */
static size_t json_keys(const char *json, char *buf, size_t cap) {
    size_t n = 0, at = 0;
    for (const char *p = json; (p = strstr(p, "\"")); ) {
        const char *e = strchr(p + 1, '"');
        if (!e) break;
        /* a key follows '{' or ", " and is followed by ':' */
        int key = e[1] == ':' && p > json && (p[-1] == '{' || (p[-1] == ' ' && p[-2] == ','));
        if (key) {
            size_t len = (size_t)(e - p - 1);
            bool seen = false;
            for (size_t o = 0; o < at && !seen; o += strlen(buf + o) + 1)
                seen = strlen(buf + o) == len && !strncmp(buf + o, p + 1, len);
            if (!seen && at + len + 1 < cap) {
                memcpy(buf + at, p + 1, len);
                buf[at + len] = 0;
                at += len + 1;
                n++;
            }
        }
        p = e + 1;
    }
    return n;
}

/* Every stat a timing run reports (text and JSON) is in the catalog, and
   every catalogued stat reported always is there. */
static void check_covered(const char *workload, const char *const *sets) {
    char dir[] = "/tmp/warpsim-cat-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *log = NULL;
    char *rep = ws_test_timing_report_set(workload, NULL, sets, dir, &log);
    char path[256];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    char *json = ws_test_read_file(path, NULL);
    CHECK(json != NULL && rep != NULL);
    static char keys[1 << 16];
    size_t nk = json ? json_keys(json, keys, sizeof keys) : 0;
    CHECK_MSG(nk > 300, "%s: %zu JSON keys", workload, nk);
    size_t at = 0;
    for (size_t i = 0; i < nk; i++, at += strlen(keys + at) + 1)
        CHECK_MSG(ws_catalog_find(keys + at, NULL), "%s: JSON %s is not in the catalog",
                  workload, keys + at);
    /* text: "NAME = v" lines (GPGPU-Sim pads some names; gpu_total_sim_rate has no spaces) */
    size_t nl = 0;
    for (const char *p = rep; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *eol = strchr(p, '\n'), *eq = strchr(p, '=');
        if (!eq || (eol && eq > eol) || *p == '-' || *p == '#' || memchr(p, ':', (size_t)(eq - p)))
            continue;
        char name[160];
        size_t len = (size_t)(eq - p);
        while (len && p[len - 1] == ' ') len--;
        snprintf(name, sizeof name, "%.*s", (int)len, p);
        CHECK_MSG(ws_catalog_find(name, NULL), "%s: text %s is not in the catalog", workload,
                  name);
        nl++;
    }
    CHECK_MSG(nl > 200, "%s: %zu text stats", workload, nl);
    /* and the other way round */
    size_t nt;
    const ws_stat_table *const *t = ws_catalog_tables(&nt);
    for (size_t ti = 0; ti < nt; ti++)
        for (size_t i = 0; i < t[ti]->n; i++) {
            const ws_stat_decl *d = &t[ti]->decl[i];
            if (d->hidden || d->when) continue;
            bool found = false, kfound = d->scope != WS_SCOPE_PROGRAM;
            at = 0;
            for (size_t k = 0; k < nk; k++, at += strlen(keys + at) + 1) {
                int pk = 0;
                if (ws_catalog_find(keys + at, &pk) != d) continue;
                if (pk) kfound = true;
                else found = true;
            }
            CHECK_MSG(found && kfound, "%s: %s missing from stats.json", workload, d->name);
            if (!strchr(d->name, '*') && !(d->text && !*d->text)) {
                char line[200];
                snprintf(line, sizeof line, "\n%s =", d->text ? d->text : d->name);
                CHECK_MSG(strstr(rep, line) || !strcmp(d->name, "gpu_total_sim_rate") ||
                          !strcmp(d->name, "kernel_name"), "%s: text lacks %s", workload, line);
            }
        }
    free(json);
    free(rep);
    free(log);
    ws_test_rmtree(dir);
}

TEST(stats_catalog_covers_reports) {
    static const char *const dwtcs[] = {"-warpsim_throttle dwtcs", NULL};
    static const char *const awl[] = {"-warpsim_throttle awl", NULL};
    check_covered("micro/matmul", dwtcs);  /* one kernel */
    check_covered("rodinia/bfs", awl);     /* several */
    check_covered("micro/vectoradd", NULL);
}
