/* The statistics catalog: well-formed declarations, counters that cover
 * their structs, and docs/stats.md generated from it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/catalog.h"
#include "test.h"
#include "timing/mem/partition.h"
#include "timing/sm/sm.h"

/* Contiguous, in order, and the whole struct: a counter added to the struct
   but not declared would not get its per-kernel difference. */
static void check_counters(const char *what, const ws_counter_decl *c, size_t n, size_t size) {
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK_MSG(c[i].off == at, "%s: %s at %zu, expected %zu", what, c[i].name, c[i].off, at);
        at = c[i].off + c[i].n * sizeof(uint64_t);
    }
    CHECK_MSG(ws_counters_bytes(c, n) == size, "%s: counters cover %zu of %zu bytes", what,
              ws_counters_bytes(c, n), size);
}

TEST(catalog_counters_cover_unit_structs) {
    check_counters("ws_sm_stats", ws_sm_counters, ws_sm_ncounters, sizeof(ws_sm_stats));
    check_counters("ws_mempart_stats", ws_mempart_counters, ws_mempart_ncounters,
                   sizeof(ws_mempart_stats));
    /* the difference and sum follow the declarations */
    ws_sm_stats a = {0}, b = {0}, d, acc = {0};
    a.l1d_access[1][2] = 10, b.l1d_access[1][2] = 3, a.warps_live_sum = 7;
    ws_counters_diff_add(ws_sm_counters, ws_sm_ncounters, &d, &a, &b, &acc);
    ws_counters_diff_add(ws_sm_counters, ws_sm_ncounters, &b, &a, &b, &acc); /* out = before */
    CHECK_EQ_U64(d.l1d_access[1][2], 7);
    CHECK_EQ_U64(b.l1d_access[1][2], 7);
    CHECK_EQ_U64(acc.l1d_access[1][2], 14);
    CHECK_EQ_U64(acc.warps_live_sum, 14);
}

TEST(catalog_entries_unique_described_resolvable) {
    size_t nt, count = 0;
    const ws_stat_table *const *t = ws_catalog_tables(&nt);
    CHECK(nt >= 6);
    for (size_t i = 0; i < nt; i++)
        for (size_t k = 0; k < t[i]->n; k++) {
            const ws_stat_decl *d = &t[i]->decl[k];
            if (d->hidden) continue;
            count++;
            CHECK_MSG(d->desc && *d->desc, "%s: no description", d->name);
            CHECK_MSG(d->unit && *d->unit, "%s: no unit", d->name);
            /* the name finds this declaration, in both scopes */
            int pk = -1;
            CHECK_MSG(ws_catalog_find(d->name, &pk) == d && pk == 0, "%s: found elsewhere",
                      d->name);
            if (d->text && *d->text)
                CHECK_MSG(ws_catalog_find(d->text, NULL) == d, "%s: text '%s' found elsewhere",
                          d->name, d->text);
            if (d->scope == WS_SCOPE_PROGRAM && !strchr(d->name, '*')) {
                char kn[160];
                snprintf(kn, sizeof kn, "%s%s", d->name, WS_STAT_KERNEL_SUFFIX);
                CHECK_MSG(ws_catalog_find(kn, &pk) == d && pk == 1, "%s: per kernel", kn);
            }
            /* a ratio's parts and a weighted mean's weight are reported stats */
            const char *num = ws_catalog_num(t[i], d), *den = ws_catalog_den(t[i], d);
            if (d->agg == WS_AGG_RATIO) CHECK_MSG(num && den, "%s: ratio of what", d->name);
            if (d->agg == WS_AGG_WMEAN) CHECK_MSG(den, "%s: weighted by what", d->name);
            if (num && !t[i]->decl[d->num].hidden)
                CHECK_MSG(ws_catalog_find(num, NULL), "%s: numerator %s", d->name, num);
            if (den && (d->den_name || !t[i]->decl[d->den].hidden))
                CHECK_MSG(ws_catalog_find(den, NULL), "%s: denominator %s", d->name, den);
            if (d->twin) CHECK_MSG(ws_catalog_find(d->twin, NULL), "%s: twin %s", d->name, d->twin);
            /* no other reported entry has the same name */
            for (size_t j = 0; j < nt; j++)
                for (size_t m = 0; m < t[j]->n; m++) {
                    const ws_stat_decl *o = &t[j]->decl[m];
                    if (o != d && !o->hidden)
                        CHECK_MSG(strcmp(o->name, d->name), "%s declared twice", d->name);
                }
        }
    CHECK_MSG(count > 100, "%zu stats", count);
    CHECK(ws_catalog_find("no_such_stat", NULL) == NULL);
    CHECK(ws_catalog_find("Total_core_cache_stats_breakdown[GLOBAL_ACC_R][HIT]", NULL) != NULL);
    CHECK(ws_catalog_find("L1D_cache_core_3_misses_kernel", NULL) != NULL);
}

/* docs/stats.md is generated from the catalog: WARPSIM_UPDATE_DOCS=1 rewrites it. */
TEST(stats_docs_are_current) {
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/stats.md", ws_test_root());
    size_t len = 0;
    char *doc = ws_test_read_file(path, &len);
    char *gen = NULL;
    size_t glen = 0;
    FILE *f = open_memstream(&gen, &glen);
    ws_catalog_print_markdown(f);
    fclose(f);
    bool same = doc && len == glen && !memcmp(doc, gen, glen);
    const char *upd = getenv("WARPSIM_UPDATE_DOCS");
    if (!same && upd && *upd == '1') {
        FILE *o = fopen(path, "w");
        CHECK(o != NULL);
        if (o) {
            fwrite(gen, 1, glen, o);
            fclose(o);
        }
    } else {
        CHECK_MSG(same, "docs/stats.md is stale: run WARPSIM_UPDATE_DOCS=1 make test T=stats_docs");
    }
    size_t nt;
    const ws_stat_table *const *t = ws_catalog_tables(&nt);
    for (size_t i = 0; i < nt; i++)
        for (size_t k = 0; k < t[i]->n; k++) {
            char key[200];
            snprintf(key, sizeof key, "| `%s` |", t[i]->decl[k].name);
            CHECK_MSG(t[i]->decl[k].hidden || strstr(gen, key), "%s not in docs/stats.md", key);
        }
    free(gen);
    free(doc);
}
