/* `warpsim analyze FILE.ptx KERNEL --grid X,Y,Z --block X,Y,Z [--param V]...`
 * runs the static kernel analyzer (src/analysis/kanalyze.h) on one launch
 * and prints the reorder configuration, the per-warp accesses, N_coal and,
 * with --l1d, the L1D miss-rate estimate under warp reordering. Exit
 * status: 0 analyzable, 1 not analyzable (the reason on stdout), 2 usage. */
#include "cli/analyze.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kanalyze.h"
#include "analysis/llc.h"
#include "analysis/wcet.h"
#include "config/config.h"
#include "ptx/ptx.h"
#include "util/readfile.h"

static const char USAGE[] =
    "usage: warpsim analyze FILE.ptx KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [options]\n"
    "  the static kernel analyzer (warp-based load/store reordering, WCET): follows every\n"
    "  warp of every block with the values known before the run and prints the reorder\n"
    "  configuration, each warp's global accesses (coalesced 128 B blocks) and N_coal;\n"
    "  a kernel whose branches or addresses depend on loaded data is not analyzable:\n"
    "  the construct and PTX line are printed and the exit status is 1\n"
    "  --param V        the next kernel parameter's value (integers; pointers as device\n"
    "                   addresses, default 0); repeat in declaration order\n"
    "  --l1d CONFIG     also estimate the L1D miss rate under -l1d_warp_reorder with this\n"
    "                   L1D (GPGPU-Sim syntax, e.g. 32:128:4,L:L:m:N,A:32:8,8); repeatable\n"
    "  --sms N          SMs (15), --max-cta N  CTAs per SM (8): the static block mapping\n"
    "  --wcet L_BASE    also the WCET bound (pure round robin, Eqs. 5.1-5.7) with the\n"
    "                   default (GTX480) configuration's latencies and L_BASE cycles of base\n"
    "                   global-memory latency (1: perfect memory), for avg/max N_coal and\n"
    "                   avg/max competing SMs\n"
    "  --summary        no per-access list\n";

static int dims(const char *s, uint32_t d[3]) {
    d[0] = d[1] = d[2] = 1;
    char *end;
    for (int i = 0; i < 3; i++) {
        errno = 0;
        unsigned long v = strtoul(s, &end, 0);
        if (errno || end == s || v == 0 || v > 0xFFFFFFFFul) return -1;
        d[i] = (uint32_t)v;
        if (!*end) return 0;
        if (*end != ',') return -1;
        s = end + 1;
    }
    return -1;
}

int ws_cli_analyze(int argc, char **argv) {
    const char *file = NULL, *kernel = NULL, *l1d[8];
    int nl1d = 0, nparams = 0, summary = 0;
    unsigned long long pv[64];
    uint32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
    unsigned long sms = 15, max_cta = 8;
    long long wcet_base = -1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(USAGE, stdout);
            return 0;
        } else if (!strcmp(a, "--summary")) {
            summary = 1;
        } else if (!strcmp(a, "--grid") || !strcmp(a, "--block")) {
            if (!v || dims(v, !strcmp(a, "--grid") ? grid : block)) {
                fprintf(stderr, "warpsim analyze: %s wants X[,Y[,Z]] (positive), got '%s'\n", a,
                        v ? v : "");
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--param")) {
            char *end;
            errno = 0;
            if (!v || nparams == 64) {
                fprintf(stderr, "warpsim analyze: --param wants a value (at most 64)\n");
                return 2;
            }
            pv[nparams] = strtoull(v, &end, 0);
            if (errno || *end || end == v) {
                long long s = strtoll(v, &end, 0);
                if (*end || end == v) {
                    fprintf(stderr, "warpsim analyze: --param wants an integer, got '%s'\n", v);
                    return 2;
                }
                pv[nparams] = (unsigned long long)s;
            }
            nparams++;
            i++;
        } else if (!strcmp(a, "--wcet")) {
            char *end;
            wcet_base = v ? strtoll(v, &end, 0) : -1;
            if (!v || *end || wcet_base < 1) {
                fprintf(stderr, "warpsim analyze: --wcet wants the base memory latency (>= 1)\n");
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--l1d")) {
            if (!v || nl1d == 8) {
                fprintf(stderr, "warpsim analyze: --l1d wants a cache configuration (at most 8)\n");
                return 2;
            }
            l1d[nl1d++] = v;
            i++;
        } else if (!strcmp(a, "--sms") || !strcmp(a, "--max-cta")) {
            char *end;
            unsigned long n = v ? strtoul(v, &end, 0) : 0;
            if (!v || *end || n == 0 || n > 4096) {
                fprintf(stderr, "warpsim analyze: %s wants a count from 1 to 4096\n", a);
                return 2;
            }
            *(!strcmp(a, "--sms") ? &sms : &max_cta) = n;
            i++;
        } else if (a[0] == '-') {
            fprintf(stderr, "warpsim analyze: unknown option '%s' (see `warpsim analyze --help`)\n", a);
            return 2;
        } else if (!file) {
            file = a;
        } else if (!kernel) {
            kernel = a;
        } else {
            fprintf(stderr, "warpsim analyze: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (!file || !kernel || !grid[0] || !block[0]) {
        fputs(USAGE, stderr);
        return 2;
    }
    size_t len;
    char *text = ws_read_file_capped(file, WS_PTX_FILE_MAX, &len);
    if (!text) {
        char e[600];
        ws_read_file_error(e, sizeof e, "PTX file", file, WS_PTX_FILE_MAX);
        fprintf(stderr, "warpsim analyze: %s\n", e);
        return 2;
    }
    ws_diag d;
    ws_module *m = ws_ptx_parse(text, len, file, &d);
    free(text);
    if (!m) {
        fprintf(stderr, "%s\n", d.msg);
        return 2;
    }
    uint32_t fi = UINT32_MAX;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && !strcmp(m->funcs[i].name, kernel)) fi = i;
    if (fi == UINT32_MAX) {
        fprintf(stderr, "warpsim analyze: %s has no kernel named '%s' (kernels:", file, kernel);
        for (uint32_t i = 0; i < m->nfuncs; i++)
            if (m->funcs[i].is_entry) fprintf(stderr, " %s", m->funcs[i].name);
        fprintf(stderr, ")\n");
        ws_module_free(m);
        return 2;
    }
    const ws_func *f = &m->funcs[fi];
    if ((uint32_t)nparams > f->nparams) {
        fprintf(stderr, "warpsim analyze: %d --param values, but %s has %u parameters\n", nparams,
                kernel, f->nparams);
        ws_module_free(m);
        return 2;
    }
    uint8_t *params = calloc(f->param_size + 8, 1);
    for (int i = 0; i < nparams && params; i++) {
        const ws_symbol *s = &m->syms[f->params[i]];
        uint64_t sz = s->size < 8 ? s->size : 8;
        memcpy(params + s->offset, &pv[i], sz); /* little-endian host, as the simulator */
    }
    ws_ka_launch l = {m, fi, {grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}, params, 0};
    ws_ka_result r;
    int rc = params ? ws_ka_analyze(&l, &r) : -1;
    if (rc) {
        fprintf(stderr, "warpsim analyze: out of host memory\n");
        free(params);
        ws_module_free(m);
        return 2;
    }
    if (summary || !r.ok) {
        if (r.ok) printf("analyzable: %zu global accesses, N_coal max %u avg %.2f\n", r.nacc,
                         r.ncoal_max, r.ncoal_avg);
        else printf("%s\n", r.why);
    } else {
        ws_ka_print(stdout, &r);
    }
    for (int i = 0; i < nl1d && r.ok; i++) {
        uint64_t acc, miss;
        char e[200];
        if (ws_ka_estimate_l1(&r, (unsigned)sms, (unsigned)max_cta, l1d[i], &acc, &miss, e,
                              sizeof e)) {
            fprintf(stderr, "warpsim analyze: --l1d %s: %s\n", l1d[i], e);
            rc = 2;
            continue;
        }
        printf("l1d %s: %llu accesses, %llu misses, estimated miss rate %.4f\n", l1d[i],
               (unsigned long long)acc, (unsigned long long)miss,
               acc ? (double)miss / (double)acc : 0.0);
    }
    if (wcet_base > 0 && r.ok) {
        ws_config cfg;
        ws_config_init(&cfg);
        char sb[32], e[300];
        snprintf(sb, sizeof sb, "%lu", sms);
        ws_config_set(&cfg, "gpgpu_n_clusters", sb, e, sizeof e);
        ws_wcet_model wm;
        ws_wcet_result wr;
        if (ws_wcet_model_from_config(&wm, &cfg, (uint64_t)wcet_base, (unsigned)max_cta, e,
                                      sizeof e) ||
            (wm.perfect_memory = wcet_base == 1, 0) ||
            ws_wcet_kernel(&r, m, &wm, &cfg, &wr, e, sizeof e)) {
            fprintf(stderr, "warpsim analyze: --wcet: %s\n", e);
            rc = 2;
        } else {
            printf("wcet: N_coal avg %u max %u, competing SMs avg %u max %u\n", wr.ncoal_avg,
                   wr.ncoal_max, wr.ncomp_avg, wr.ncomp_max);
            printf("wcet: avg/avg %llu, avg/max %llu, max/avg %llu, max/max %llu cycles\n",
                   (unsigned long long)wr.bound[0][0], (unsigned long long)wr.bound[0][1],
                   (unsigned long long)wr.bound[1][0], (unsigned long long)wr.bound[1][1]);
        }
        ws_config_free(&cfg);
    }
    int status = rc ? 2 : r.ok ? 0 : 1;
    ws_ka_free(&r);
    free(params);
    ws_module_free(m);
    return status;
}

/* ---- warpsim llc-analyze ---------------------------------------------------------- */
static const char LLC_USAGE[] =
    "usage: warpsim llc-analyze TRACE --sets N --ways A [--quota Q]... [--actual MISSES]\n"
    "                           [--kernel K]\n"
    "  the shared-LLC reuse-distance analyses on a recorded LLC access trace: lines\n"
    "  'CORE LINE-ADDRESS [SET]' (each core's accesses in its order; '#' comments), set =\n"
    "  SET if given, else line / 128 mod N; with --kernel K, the lines 'KERNEL CORE\n"
    "  LINE-ADDRESS SET' of -llc_access_trace for kernel K. Prints the misses\n"
    "  the Simple method and the Access Interval method (quota Q per core per interval,\n"
    "  default 2) predict, as counts and miss rates; with --actual, the overestimation\n";

int ws_cli_llc(int argc, char **argv) {
    const char *file = NULL;
    unsigned long sets = 0, ways = 0, quota[8];
    int nq = 0;
    long long actual = -1, kernel = -1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(LLC_USAGE, stdout);
            return 0;
        } else if (!strcmp(a, "--sets") || !strcmp(a, "--ways") || !strcmp(a, "--quota")) {
            unsigned long n = v ? strtoul(v, &end, 0) : 0;
            if (!v || *end || !n || n > (1ul << 24) || (!strcmp(a, "--quota") && nq == 8)) {
                fprintf(stderr, "warpsim llc-analyze: %s wants a positive count\n", a);
                return 2;
            }
            if (!strcmp(a, "--sets")) sets = n;
            else if (!strcmp(a, "--ways")) ways = n;
            else quota[nq++] = n;
            i++;
        } else if (!strcmp(a, "--kernel")) {
            kernel = v ? strtoll(v, &end, 0) : -1;
            if (!v || *end || kernel < 0) {
                fprintf(stderr, "warpsim llc-analyze: --kernel wants a launch number\n");
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--actual")) {
            actual = v ? strtoll(v, &end, 0) : -1;
            if (!v || *end || actual < 0) {
                fprintf(stderr, "warpsim llc-analyze: --actual wants a miss count\n");
                return 2;
            }
            i++;
        } else if (a[0] == '-' || file) {
            fprintf(stderr, "warpsim llc-analyze: unexpected argument '%s'\n", a);
            return 2;
        } else {
            file = a;
        }
    }
    if (!file || !sets || !ways) {
        fputs(LLC_USAGE, stderr);
        return 2;
    }
    if (!nq) quota[nq++] = 2;
    size_t len;
    char *text = ws_read_file_capped(file, WS_PTX_FILE_MAX, &len);
    if (!text) {
        char e[600];
        ws_read_file_error(e, sizeof e, "LLC trace", file, WS_PTX_FILE_MAX);
        fprintf(stderr, "warpsim llc-analyze: %s\n", e);
        return 2;
    }
    enum { MAXC = 1024 };
    uint64_t **lines = calloc(MAXC, sizeof *lines);
    size_t *n = calloc(MAXC, sizeof *n), *cap = calloc(MAXC, sizeof *cap), total = 0;
    unsigned ncores = 0, ln = 0;
    int rc = 0;
    for (char *p = text; p && *p && lines && n && cap && !rc; ln++) {
        char *nl = strchr(p, '\n');
        if (nl) *nl = 0;
        char *h = strchr(p, '#');
        if (h) *h = 0;
        unsigned c;
        unsigned long long addr, set = 0, kk = 0;
        int got = kernel >= 0 ? sscanf(p, "%llu %u %llx %llu", &kk, &c, &addr, &set) - 1
                              : sscanf(p, "%u %llx %llu", &c, &addr, &set);
        if (kernel >= 0 && got == 3 && kk != (unsigned long long)kernel) got = -2; /* another kernel */
        if (got == -2) {
            /* skipped */
        } else if (got >= 2) {
            if (c >= MAXC) {
                fprintf(stderr, "%s:%u: core %u (at most %d cores)\n", file, ln + 1, c, MAXC);
                rc = 2;
                break;
            }
            if (n[c] == cap[c]) {
                size_t nc = cap[c] ? 2 * cap[c] : 1024;
                uint64_t *q = realloc(lines[c], nc * sizeof *q);
                if (!q) {
                    rc = 2;
                    break;
                }
                lines[c] = q;
                cap[c] = nc;
            }
            /* a key per line whose residue is its set: same set <=> same key mod sets */
            lines[c][n[c]++] = got == 3 ? (addr / 128) * sets + set % sets : addr / 128;
            total++;
            if (c + 1 > ncores) ncores = c + 1;
        } else {
            char *q = p;
            while (*q == ' ' || *q == '\t' || *q == '\r') q++;
            if (*q) {
                fprintf(stderr, "%s:%u: want 'CORE LINE-ADDRESS', got '%s'\n", file, ln + 1, q);
                rc = 2;
            }
        }
        p = nl ? nl + 1 : NULL;
    }
    if (!rc && lines && n) {
        ws_llc_trace t = {ncores, (const uint64_t *const *)lines, n};
        int64_t sm = ws_llc_simple(&t, (uint32_t)sets, (uint32_t)ways);
        printf("accesses %zu cores %u sets %lu ways %lu\n", total, ncores, sets, ways);
        printf("simple misses %lld rate %.4f", (long long)sm, total ? (double)sm / total : 0.0);
        if (actual > 0) printf(" overestimation %.4f", (double)sm / (double)actual - 1);
        printf("\n");
        for (int q = 0; q < nq; q++) {
            int64_t ai = ws_llc_access_interval(&t, (uint32_t)sets, (uint32_t)ways, (uint32_t)quota[q]);
            printf("access_interval quota %lu misses %lld rate %.4f", quota[q], (long long)ai,
                   total ? (double)ai / total : 0.0);
            if (actual > 0) printf(" overestimation %.4f", (double)ai / (double)actual - 1);
            printf("\n");
        }
    }
    for (unsigned c = 0; lines && c < MAXC; c++) free(lines[c]);
    free(lines);
    free(n);
    free(cap);
    free(text);
    return rc;
}
