/* Policy parameters: the parser (params.c) on a table of every type, and a
 * walk over every family's policies and their declared parameters. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config.h"
#include "policy/bypass/bypass.h"
#include "policy/catalog.h"
#include "policy/index/index.h"
#include "policy/page/page.h"
#include "policy/sched/sched.h"
#include "policy/throttle/throttle.h"
#include "test.h"
#include "timing/sm/sm_internal.h"

static const ws_param_def toy_params[] = {
    WS_INT("count", "4", 1, 10, "a count"),
    WS_DOUBLE("rate", "0.5", 0, 1, "a rate"),
    WS_BOOL("flag", "0", "a flag"),
    WS_ENUM("mode", "fast", "fast|slow|exact", "a mode"),
    WS_DOUBLE("frac", "0", 0, 0x1.fffffffffffffp-1, "below 1"),
};
static const ws_policy_info toy = {"toy", "a toy policy", WS_PARAMS(toy_params)};

static int parse(ws_params *p, const char *hints, const char *args, char *err, size_t n) {
    return ws_params_parse(p, &toy, hints, args, "-toy_option toy", err, n);
}

/* args must be refused with a message containing want. */
static void refused(const char *args, const char *want) {
    ws_params p;
    char err[512] = "";
    CHECK_MSG(parse(&p, NULL, args, err, sizeof err) == -1, "'%s' was accepted", args);
    CHECK_STR_CONTAINS(err, want);
}

TEST(params_defaults_and_every_type) {
    ws_params p;
    char err[512];
    CHECK(parse(&p, NULL, NULL, err, sizeof err) == 0);
    CHECK_EQ_I64(ws_param_int(&p, "count"), 4);
    CHECK(ws_param_double(&p, "rate") == 0.5);
    CHECK(!ws_param_bool(&p, "flag"));
    CHECK_EQ_U64(ws_param_enum(&p, "mode"), 0);
    CHECK_EQ_U64(p.given, 0);
    CHECK_EQ_U64(p.read, 0xf); /* what the policy read */
    CHECK(parse(&p, NULL, "", err, sizeof err) == 0 && p.given == 0); /* "toy:" */
    CHECK_MSG(parse(&p, NULL, "count=7:rate=0.25:flag=1:mode=slow", err, sizeof err) == 0, "%s",
              err);
    CHECK_EQ_I64(ws_param_int(&p, "count"), 7);
    CHECK(ws_param_double(&p, "rate") == 0.25);
    CHECK(ws_param_bool(&p, "flag"));
    CHECK_EQ_U64(ws_param_enum(&p, "mode"), 1);
    CHECK_EQ_U64(p.given, 0xf);
    /* other spellings: numbers as strtod reads them, bool words, an enum's index */
    CHECK(parse(&p, NULL, "count=1e1:flag=true:mode=2", err, sizeof err) == 0);
    CHECK_EQ_I64(ws_param_int(&p, "count"), 10);
    CHECK(ws_param_bool(&p, "flag"));
    CHECK_EQ_U64(ws_param_enum(&p, "mode"), 2);
    CHECK(parse(&p, NULL, "count=0x3:flag=false", err, sizeof err) == 0);
    CHECK_EQ_I64(ws_param_int(&p, "count"), 3);
    CHECK(!ws_param_bool(&p, "flag"));
}

TEST(params_ranges_are_inclusive) {
    ws_params p;
    char err[512];
    CHECK(parse(&p, NULL, "count=1:rate=0", err, sizeof err) == 0);
    CHECK(parse(&p, NULL, "count=10:rate=1", err, sizeof err) == 0);
    CHECK_EQ_I64(ws_param_int(&p, "count"), 10);
    CHECK(ws_param_double(&p, "rate") == 1);
    refused("count=0", "-toy_option toy: bad argument 'count=0' (count: an integer in [1, 10]; "
                       "a count)");
    refused("count=11", "count: an integer in [1, 10]");
    refused("rate=1.0001", "bad argument 'rate=1.0001' (rate: a number in [0, 1]; a rate)");
    refused("rate=-0.1", "rate: a number in [0, 1]");
    refused("frac=1", "frac: a number in [0, 1)"); /* a bound just below 1 reads as open */
    CHECK(parse(&p, NULL, "frac=0.999", err, sizeof err) == 0);
}

TEST(params_bad_values_and_unknown_keys) {
    refused("bogus=1", "-toy_option toy: bad argument 'bogus' (unknown key; keys: count rate flag "
                       "mode frac)");
    refused("count=2.5", "bad argument 'count=2.5' (count: an integer");
    refused("count=", "bad argument 'count='");
    refused("count=abc", "bad argument 'count=abc'");
    refused("rate=nan", "bad argument 'rate=nan'");
    refused("count=inf", "bad argument 'count=inf'");
    refused("flag=2", "bad argument 'flag=2' (flag: 0 or 1; a flag)");
    refused("flag=yes", "flag: 0 or 1");
    refused("mode=medium", "(mode: one of fast|slow|exact (or its index from 0); a mode)");
    refused("mode=3", "mode: one of fast|slow|exact");
    char big[300];
    memset(big, '1', sizeof big - 1);
    big[sizeof big - 1] = 0;
    refused(big, "too long");
    /* a policy without parameters says so */
    static const ws_policy_info bare = {"bare", "no parameters", NULL, 0};
    ws_params p;
    char err[256];
    CHECK(ws_params_parse(&p, &bare, NULL, NULL, "-x bare", err, sizeof err) == 0);
    CHECK(ws_params_parse(&p, &bare, NULL, "1", "-x bare", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "-x bare: bad argument '1' (more values than keys; bare takes no "
                            "arguments)");
}

TEST(params_positional_values_fill_keys_in_order) {
    ws_params p;
    char err[512];
    CHECK(parse(&p, NULL, "7:0.25", err, sizeof err) == 0);
    CHECK_EQ_I64(ws_param_int(&p, "count"), 7);
    CHECK(ws_param_double(&p, "rate") == 0.25);
    CHECK_EQ_U64(p.given, 0x3);
    CHECK(parse(&p, NULL, ":0.25", err, sizeof err) == 0); /* empty: the default */
    CHECK_EQ_I64(ws_param_int(&p, "count"), 4);
    CHECK(ws_param_double(&p, "rate") == 0.25);
    CHECK(parse(&p, NULL, "7:mode=exact", err, sizeof err) == 0);
    CHECK_EQ_U64(ws_param_enum(&p, "mode"), 2);
    CHECK(parse(&p, NULL, "2:0:1:slow:0.5", err, sizeof err) == 0);
    refused("2:0:1:slow:0.5:9", "bad argument '9' (more values than keys; keys: count rate");
    refused("count=7:0.25", "bad argument '0.25' (a value without a key after a key=value");
    refused("0", "bad argument '0' (count: an integer in [1, 10]");
}

TEST(params_a_key_given_twice_is_an_error) {
    refused("count=2:count=3", "bad argument 'count=3' (count given twice)");
    refused("2:count=3", "count given twice");
    /* the owner's hints are defaults: the spec overrides them, unknown keys are someone else's */
    ws_params p;
    char err[512];
    CHECK(parse(&p, "count=9:other=1:rate=0.125", "count=3", err, sizeof err) == 0);
    CHECK_EQ_I64(ws_param_int(&p, "count"), 3);
    CHECK(ws_param_double(&p, "rate") == 0.125);
    CHECK_EQ_U64(p.given, 0x1); /* given by the spec */
    CHECK(parse(&p, "count=99", NULL, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "count=99");
}

TEST(params_required_and_programming_errors) {
    static const ws_param_def req_params[] = {WS_INT("n", NULL, 1, 8, "how many")};
    static const ws_policy_info req = {"req", "needs n", WS_PARAMS(req_params)};
    ws_params p;
    char err[512];
    CHECK(ws_params_parse(&p, &req, NULL, NULL, "-x req", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "-x req: missing argument 'n' (req:N or req:n=N; n: an integer in "
                            "[1, 8], how many)");
    CHECK(ws_params_parse(&p, &req, NULL, "3", "-x req", err, sizeof err) == 0);
    CHECK_EQ_I64(ws_param_int(&p, "n"), 3);
    /* a default outside its range is the table's bug, reported as such */
    static const ws_param_def bad_params[] = {WS_INT("n", "9", 1, 8, "how many")};
    static const ws_policy_info bad = {"bad", "bad default", WS_PARAMS(bad_params)};
    CHECK(ws_params_parse(&p, &bad, NULL, NULL, "-x bad", err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "the default of n (9) is not valid");
    /* reading an undeclared key, or a key as another type, aborts with its name */
    for (int which = 0; which < 2; which++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            if (!freopen("/dev/null", "w", stderr)) _exit(2);
            ws_params q;
            char e[256];
            if (parse(&q, NULL, NULL, e, sizeof e)) _exit(3);
            if (which) (void)ws_param_double(&q, "count");
            else (void)ws_param_int(&q, "cuont");
            _exit(0);
        }
        int st = 0;
        CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
        CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "case %d: status %d", which, st);
    }
}

TEST(params_gpgpusim_and_documented_positional_forms) {
    char err[512];
    ws_sched s;
    const char *ok[] = {"two_level_active:6:0:1", "two_level_active:6:lrr:gto", "two_level_active",
                        "two_level_active:2", "two_level_active:n=4:outer=srr"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK_MSG(ws_sched_create(&s, ok[i], 8, err, sizeof err) == 0, "%s: %s", ok[i], err);
        ws_sched_destroy(&s);
    }
    CHECK(ws_sched_create(&s, "two_level_active:0", 8, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "-gpgpu_scheduler two_level_active: bad argument '0' (n: an integer");
    CHECK(ws_sched_create(&s, "gto:1", 8, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "gto takes no arguments");
    ws_throttle t;
    CHECK(ws_throttle_create(&t, "swl:4", 8, err, sizeof err) == 0);
    CHECK_EQ_U64(t.policy->limit(t.state), 4);
    ws_throttle_destroy(&t);
    CHECK(ws_throttle_create(&t, "swl:n=3", 8, err, sizeof err) == 0);
    CHECK_EQ_U64(t.policy->limit(t.state), 3);
    ws_throttle_destroy(&t);
    ws_throttle_ctl c;
    CHECK(ws_throttle_ctl_create(&c, "dwtcs:period=2000", 15, 2, err, sizeof err) == 0);
    CHECK_EQ_U64(c.policy->ctl_period(c.state), 2000);
    ws_throttle_ctl_destroy(&c);
    ws_bypass b;
    CHECK(ws_bypass_create(&b, "l1d_bypass", "dbsa:wait=1:period=2000", 2, err, sizeof err) == 0);
    CHECK_EQ_U64(b.period, 2000);
    ws_bypass_destroy(&b);
}

/* ---- every registry ------------------------------------------------------ */

/* The idx-th non-default value worth trying for d (false: no more): the
   first few in range and different from the default are tried in turn, as
   some values do not go with the others (ccws: vta a multiple of ways). */
static bool candidate(const ws_param_def *d, const ws_params *def, unsigned k, int idx, char *buf,
                      size_t len) {
    if (d->type == WS_PARAM_BOOL || d->type == WS_PARAM_ENUM) {
        if (idx) return false;
        int n = 1;
        for (const char *c = d->choices; c && (c = strchr(c, '|')); c++) n++;
        int64_t v = d->type == WS_PARAM_BOOL ? !def->i[k] : (def->i[k] + 1) % n;
        snprintf(buf, len, "%lld", (long long)v);
        return true;
    }
    double base = d->def ? (d->type == WS_PARAM_INT ? (double)def->i[k] : def->d[k]) : d->min;
    double tries[] = {base * 2, base / 2, base + 1, base - 1, (base + d->max) / 2, d->max, d->min};
    int seen = 0;
    for (size_t t = 0; t < sizeof tries / sizeof tries[0]; t++) {
        double v = tries[t];
        if (d->type == WS_PARAM_INT) v = floor(v);
        if (!(v >= d->min && v <= d->max) || (d->def && v == base)) continue;
        if (seen++ < idx) continue;
        if (d->type == WS_PARAM_INT) snprintf(buf, len, "%.0f", v);
        else snprintf(buf, len, "%.17g", v);
        return true;
    }
    return false;
}

/* Values that depend on the geometry the walk uses (32 sets of 128 B). */
static const char *special(const char *policy, const char *key) {
    if ((!strcmp(policy, "pric") || !strcmp(policy, "pli")) && !strcmp(key, "poly"))
        return "41"; /* x^5+x^3+1, irreducible: another degree-5 polynomial */
    return NULL;
}

/* Build every part of policy `name` of `family` from p (each hook that takes
   parameters), then free them. 0, or -1 with err. */
static int build(const char *family, const char *name, ws_params *p, char *err, size_t n) {
    void *st = NULL;
    if (!strcmp(family, "index")) {
        const ws_index_policy *ip = ws_index_find(name);
        ws_cache_geom g = {32, 128, 4, NULL};
        if (!(st = ip->create(&g, p, err, n))) return -1;
        ip->destroy(st);
    } else if (!strcmp(family, "sched")) {
        const ws_sched_policy *sp = ws_sched_find(name);
        if (!(st = sp->create(p, 24, err, n))) return -1;
        sp->destroy(st);
    } else if (!strcmp(family, "bypass")) {
        const ws_bypass_policy *bp = ws_bypass_find(name);
        if (!(st = bp->create(p, 3, err, n))) return -1;
        bp->destroy(st);
    } else if (!strcmp(family, "throttle")) {
        const ws_throttle_policy *tp = ws_throttle_find(name);
        if (!(st = tp->create(p, 24, err, n))) return -1;
        tp->destroy(st);
        if (tp->ctl_create) {
            if (!(st = tp->ctl_create(p, 15, 2, err, n))) return -1;
            tp->ctl_destroy(st);
        }
        if (tp->sm_create) {
            if (!(st = tp->sm_create(p, 48, 128, err, n))) return -1;
            tp->sm_destroy(st);
        }
    } else if (!strcmp(family, "page")) {
        /* blpp reads its counters from a profile file: give it one */
        char path[] = "/tmp/warpsim-params-profile-XXXXXX";
        int fd = mkstemp(path);
        if (fd < 0) return -1;
        close(fd);
        ws_page_counters c = {0.5, 0.5, 100, 0, 0, 0};
        ws_page_env env = {200, 80, path};
        const ws_page_policy *pp = ws_page_find(name);
        if (!ws_page_profile_write(path, &c, err, n)) st = pp->create(p, &env, err, n);
        remove(path);
        if (!st) return -1;
        pp->destroy(st);
    } else if (!strcmp(family, "reorder")) {
        /* mrpb.c reads its parameters itself: check what reaches the buffer */
        if (!p->policy.nparams) return 0;
        char spec[128];
        unsigned size, queues;
        snprintf(spec, sizeof spec, "mrpb:size=%lld:queues=%lld", (long long)p->i[0],
                 (long long)p->i[1]);
        if (sm_mrpb_parse(spec, &size, &queues, err, n)) return -1;
        if (size != (unsigned)ws_param_int(p, "size") ||
            queues != (unsigned)ws_param_int(p, "queues")) {
            snprintf(err, n, "mrpb: size %u queues %u", size, queues);
            return -1;
        }
    }
    return 0;
}

TEST(params_every_policy_parameter_is_sound_and_reaches_its_policy) {
    unsigned policies = 0, params = 0;
    for (const ws_policy_family *f = ws_policy_families; f->name; f++) {
        ws_policy_info pol;
        for (unsigned i = 0; (pol = f->info(i)).name; i++) {
            policies++;
            CHECK_MSG(pol.doc && *pol.doc, "%s: no doc", pol.name);
            CHECK_MSG(pol.nparams <= WS_PARAMS_MAX, "%s: too many parameters", pol.name);
            ws_params def;
            char err[512], spec[160];
            bool required = false;
            for (unsigned k = 0; k < pol.nparams; k++) required |= !pol.params[k].def;
            /* defaults: in range (the parser checks them) and every key read by the policy */
            if (!required) {
                CHECK_MSG(ws_params_parse(&def, &pol, NULL, NULL, pol.name, err, sizeof err) == 0,
                          "%s", err);
                CHECK_MSG(build(f->name, pol.name, &def, err, sizeof err) == 0, "%s: %s",
                          pol.name, err);
                if (strcmp(f->name, "reorder"))
                    CHECK_MSG(def.read == (1u << pol.nparams) - 1,
                              "%s reads parameters 0x%x of 0x%x", pol.name, def.read,
                              (1u << pol.nparams) - 1);
            } else {
                /* the required one from its minimum, for the comparisons below */
                snprintf(spec, sizeof spec, "%.0f", pol.params[0].min);
                CHECK_MSG(ws_params_parse(&def, &pol, NULL, spec, pol.name, err, sizeof err) == 0,
                          "%s", err);
            }
            for (unsigned k = 0; k < pol.nparams; k++) {
                const ws_param_def *d = &pol.params[k];
                params++;
                CHECK_MSG(d->key && *d->key && d->doc && *d->doc, "%s: key or doc missing",
                          pol.name);
                CHECK_MSG(d->type == WS_PARAM_ENUM ? d->choices != NULL : d->min <= d->max,
                          "%s %s: bad range", pol.name, d->key);
                for (unsigned j = 0; j < k; j++)
                    CHECK_MSG(strcmp(pol.params[j].key, d->key), "%s: key %s twice", pol.name,
                              d->key);
                /* a non-default value in range: parsed as given, accepted, read */
                char val[64];
                bool accepted = false;
                const char *sp = special(pol.name, d->key);
                for (int c = 0; !accepted && (sp ? c == 0 : candidate(d, &def, k, c, val,
                                                                      sizeof val));
                     c++) {
                    if (sp) snprintf(val, sizeof val, "%s", sp);
                    char item[96];
                    snprintf(item, sizeof item, "%s=%s", d->key, val);
                    if (required && k) /* the required first one positionally */
                        snprintf(spec, sizeof spec, "%.0f:%s", pol.params[0].min, item);
                    else
                        snprintf(spec, sizeof spec, "%s", item);
                    ws_params p;
                    if (ws_params_parse(&p, &pol, NULL, spec, pol.name, err, sizeof err)) {
                        CHECK_MSG(0, "%s:%s refused: %s", pol.name, spec, err);
                        break;
                    }
                    CHECK_MSG(p.given & (1u << k), "%s:%s not marked given", pol.name, spec);
                    if (d->type == WS_PARAM_DOUBLE)
                        CHECK_MSG(p.d[k] != def.d[k] && p.d[k] == strtod(val, NULL),
                                  "%s:%s parsed as %g", pol.name, spec, p.d[k]);
                    else
                        CHECK_MSG(d->type == WS_PARAM_INT && !d->def ?
                                      p.i[k] == (int64_t)strtod(val, NULL) :
                                      p.i[k] != def.i[k] && p.i[k] == (int64_t)strtod(val, NULL),
                                  "%s:%s parsed as %lld", pol.name, spec, (long long)p.i[k]);
                    accepted = build(f->name, pol.name, &p, err, sizeof err) == 0;
                    if (accepted && strcmp(f->name, "reorder"))
                        CHECK_MSG(p.read & (1u << k), "%s does not read %s", pol.name, d->key);
                }
                CHECK_MSG(accepted, "%s: no non-default %s accepted (last: %s)", pol.name, d->key,
                          err);
            }
        }
    }
    CHECK_MSG(policies >= 25 && params >= 46, "%u policies, %u parameters", policies, params);
}

/* `warpsim options` lists every family, policy and parameter, in table order. */
TEST(params_options_output_lists_every_policy_and_parameter) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ws_config_print_options(f);
    fclose(f);
    const char *at = strstr(text, "\nPolicies:");
    CHECK(at != NULL);
    CHECK_MSG(at && strstr(at, "\nPresets:"), "the policies come before the presets");
    for (const ws_policy_family *fam = ws_policy_families; at && fam->name; fam++) {
        char line[512];
        snprintf(line, sizeof line, "\n  %s (%s)\n", fam->name, fam->options);
        const char *next = strstr(at, line);
        CHECK_MSG(next, "family %s missing", fam->name);
        if (next) at = next;
        ws_policy_info pol;
        for (unsigned i = 0; at && (pol = fam->info(i)).name; i++) {
            snprintf(line, sizeof line, "\n    %-17s %s\n", pol.name, pol.doc);
            CHECK_MSG((next = strstr(at, line)), "policy %s missing", pol.name);
            if (next) at = next + 1;
            for (unsigned k = 0; k < pol.nparams; k++) {
                const ws_param_def *d = &pol.params[k];
                char range[160];
                ws_param_describe(d, range, sizeof range);
                snprintf(line, sizeof line, "\n        %-9s %-6s default %-10s %s: %s\n", d->key,
                         ws_param_type_name(d->type), d->def ? d->def : "(required)", range,
                         d->doc);
                CHECK_MSG((next = strstr(at, line)), "%s %s missing: %s", pol.name, d->key, line);
                if (next) at = next + 1;
            }
        }
    }
    free(text);
}

/* docs/policies.md's parameter tables are generated from the tables:
   WARPSIM_UPDATE_DOCS=1 rewrites them. */
TEST(params_policy_docs_list_every_parameter) {
    static const char begin[] = "<!-- parameters: generated from the policies' tables by "
                                "`WARPSIM_UPDATE_DOCS=1 make test T=policy_docs` -->\n",
                      end[] = "<!-- end of the generated parameters -->\n";
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/policies.md", ws_test_root());
    size_t len = 0;
    char *doc = ws_test_read_file(path, &len);
    CHECK_MSG(doc != NULL, "cannot read %s", path);
    if (!doc) return;
    char *b = strstr(doc, begin), *e = b ? strstr(b, end) : NULL;
    CHECK_MSG(b && e, "docs/policies.md lacks the generated section's markers");
    if (!b || !e) {
        free(doc);
        return;
    }
    char *gen = NULL;
    size_t glen = 0;
    FILE *f = open_memstream(&gen, &glen);
    ws_policy_print_markdown(f);
    fputc('\n', f);
    fclose(f);
    const char *have = b + strlen(begin);
    bool same = (size_t)(e - have) == glen && !memcmp(have, gen, glen);
    const char *upd = getenv("WARPSIM_UPDATE_DOCS");
    if (!same && upd && *upd == '1') {
        FILE *o = fopen(path, "w");
        CHECK(o != NULL);
        if (o) {
            fwrite(doc, 1, (size_t)(have - doc), o);
            fwrite(gen, 1, glen, o);
            fputs(e, o);
            fclose(o);
        }
    } else {
        CHECK_MSG(same, "docs/policies.md's parameter tables are stale: run "
                        "WARPSIM_UPDATE_DOCS=1 make test T=policy_docs");
    }
    /* and every key is there (the generated text is the tables', so this guards the generator) */
    for (const ws_policy_family *fam = ws_policy_families; fam->name; fam++) {
        ws_policy_info pol;
        for (unsigned i = 0; (pol = fam->info(i)).name; i++)
            for (unsigned k = 0; k < pol.nparams; k++) {
                char key[64];
                snprintf(key, sizeof key, "| `%s` |", pol.params[k].key);
                CHECK_MSG(strstr(gen, key), "%s %s not in the generated docs", pol.name,
                          pol.params[k].key);
            }
    }
    free(gen);
    free(doc);
}
