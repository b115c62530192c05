/* Profile-based L1D bypassing: the per-SM profile of pass 1, the rule, and
 * the bypass-list file (see l1bypass.h). The profile is an open-addressing
 * table keyed by line address; it is touched once per L1D access of a
 * global load, and only when profiling. */
#include "timing/mem/l1bypass.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/readfile.h"

bool ws_l1bp_rule(uint64_t used_bytes, uint64_t fills, uint32_t line_size) {
    return fills && used_bytes < (uint64_t)line_size * fills;
}

bool ws_l1bp_rule_ur(double u, double r) { return u * (1.0 + r) < 1.0; }

/* ---- a set of line addresses with counters --------------------------------- */
typedef struct {
    uint64_t line; /* key + 1 (0: empty slot) */
    uint64_t acc, fills, used;
} slot;

typedef struct {
    slot *s;
    size_t cap, n; /* cap: a power of two */
} table;

static size_t hash(uint64_t k, size_t cap) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static slot *find(table *t, uint64_t line, bool add) {
    if (add && (t->n + 1) * 2 > t->cap) { /* keep it at most half full */
        size_t nc = t->cap ? t->cap * 2 : 1024;
        slot *ns = calloc(nc, sizeof *ns);
        if (!ns) return NULL;
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->s[i].line) continue;
            size_t h = hash(t->s[i].line, nc);
            while (ns[h].line) h = (h + 1) & (nc - 1);
            ns[h] = t->s[i];
        }
        free(t->s);
        t->s = ns;
        t->cap = nc;
    }
    if (!t->cap) return NULL;
    uint64_t key = line + 1;
    size_t h = hash(key, t->cap);
    while (t->s[h].line && t->s[h].line != key) h = (h + 1) & (t->cap - 1);
    if (t->s[h].line) return &t->s[h];
    if (!add) return NULL;
    t->s[h].line = key;
    t->n++;
    return &t->s[h];
}

/* ---- pass 1 ------------------------------------------------------------------ */
struct ws_l1prof {
    table t;
};

ws_l1prof *ws_l1prof_create(void) { return calloc(1, sizeof(ws_l1prof)); }

void ws_l1prof_destroy(ws_l1prof *p) {
    if (!p) return;
    free(p->t.s);
    free(p);
}

bool ws_l1prof_record(ws_l1prof *p, uint64_t line, uint32_t used, bool fill) {
    slot *s = find(&p->t, line, true);
    if (!s) return false;
    s->acc++;
    s->fills += fill;
    s->used += used;
    return true;
}

size_t ws_l1prof_lines(const ws_l1prof *p) { return p->t.n; }

void ws_l1prof_get(const ws_l1prof *p, size_t i, uint64_t *line, uint64_t *acc, uint64_t *fills,
                   uint64_t *used) {
    size_t k = 0;
    for (size_t j = 0; j < p->t.cap; j++) {
        if (!p->t.s[j].line) continue;
        if (k++ == i) {
            *line = p->t.s[j].line - 1;
            *acc = p->t.s[j].acc;
            *fills = p->t.s[j].fills;
            *used = p->t.s[j].used;
            return;
        }
    }
    *line = *acc = *fills = *used = 0;
}

void ws_l1prof_histogram(const ws_l1prof *p, uint64_t hist[WS_L1BP_HIST]) {
    memset(hist, 0, WS_L1BP_HIST * sizeof *hist);
    for (size_t j = 0; j < p->t.cap; j++) {
        const slot *s = &p->t.s[j];
        if (!s->line) continue;
        uint64_t hits = s->acc > s->fills ? s->acc - s->fills : 0;
        hist[hits < WS_L1BP_HIST - 1 ? hits : WS_L1BP_HIST - 1]++;
    }
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Write through a temporary file and rename, so a reader never sees half. */
static FILE *open_tmp(const char *path, char *tmp, size_t n) {
    snprintf(tmp, n, "%s.tmp", path);
    return fopen(tmp, "w");
}

static int close_tmp(FILE *f, const char *tmp, const char *path, char *err, size_t errlen) {
    int bad = fflush(f) != 0 || ferror(f);
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int ws_l1prof_write(const char *path, ws_l1prof *const *sms, unsigned n, uint32_t line_size,
                    const char *unit, char *err, size_t errlen) {
    size_t pn = strlen(path) + 16;
    char *tmp = malloc(pn), *csv = malloc(pn);
    uint64_t *lines = NULL;
    int rc = -1;
    if (!tmp || !csv) goto oom;
    FILE *f = open_tmp(path, tmp, pn);
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        goto out;
    }
    fprintf(f, "warpsim-l1d-bypass %d\n", WS_L1BP_VERSION);
    fprintf(f, "# per SM: global-load lines whose used bytes < line size * fills (U*(1+R) < 1)\n");
    fprintf(f, "line_size %" PRIu32 "\nunit %s\nsms %u\n", line_size, unit, n);
    for (unsigned s = 0; s < n; s++) {
        const table *t = &sms[s]->t;
        size_t k = 0;
        uint64_t acc = 0;
        free(lines);
        if (!(lines = malloc((t->n ? t->n : 1) * sizeof *lines))) {
            fclose(f);
            unlink(tmp);
            goto oom;
        }
        for (size_t j = 0; j < t->cap; j++) {
            const slot *e = &t->s[j];
            if (!e->line) continue;
            acc += e->acc;
            if (ws_l1bp_rule(e->used, e->fills, line_size)) lines[k++] = e->line - 1;
        }
        qsort(lines, k, sizeof *lines, cmp_u64);
        fprintf(f, "sm %u %zu # of %zu lines profiled, %" PRIu64 " accesses\n", s, k, t->n, acc);
        for (size_t j = 0; j < k; j++) fprintf(f, "0x%" PRIx64 "\n", lines[j]);
    }
    fprintf(f, "end\n");
    if (close_tmp(f, tmp, path, err, errlen)) goto out;
    /* the reuse histograms (the paper's Fig. 5): one row per SM */
    snprintf(csv, pn, "%s.reuse.csv", path);
    if (!(f = open_tmp(csv, tmp, pn))) {
        snprintf(err, errlen, "cannot write %s: %s", csv, strerror(errno));
        goto out;
    }
    fprintf(f, "sm,lines");
    for (int k = 0; k < WS_L1BP_HIST; k++)
        fprintf(f, ",reused_%d%s", k, k == WS_L1BP_HIST - 1 ? "_or_more" : "");
    fprintf(f, "\n");
    for (unsigned s = 0; s < n; s++) {
        uint64_t h[WS_L1BP_HIST];
        ws_l1prof_histogram(sms[s], h);
        fprintf(f, "%u,%zu", s, sms[s]->t.n);
        for (int k = 0; k < WS_L1BP_HIST; k++) fprintf(f, ",%" PRIu64, h[k]);
        fprintf(f, "\n");
    }
    rc = close_tmp(f, tmp, csv, err, errlen);
    goto out;
oom:
    snprintf(err, errlen, "out of memory");
out:
    free(lines);
    free(tmp);
    free(csv);
    return rc;
}

/* ---- pass 2 -------------------------------------------------------------------- */
struct ws_l1blist {
    unsigned n;
    table *t; /* [n] */
};

void ws_l1blist_destroy(ws_l1blist *b) {
    if (!b) return;
    for (unsigned i = 0; i < b->n && b->t; i++) free(b->t[i].s);
    free(b->t);
    free(b);
}

bool ws_l1blist_has(const ws_l1blist *b, unsigned sm, uint64_t line) {
    if (sm >= b->n) return false;
    return find(&b->t[sm], line, false) != NULL;
}

size_t ws_l1blist_count(const ws_l1blist *b, unsigned sm) { return sm < b->n ? b->t[sm].n : 0; }

/* Next line of text (comments and blanks skipped); NULL at the end. */
static char *next_line(char **pos, unsigned *lineno) {
    while (**pos) {
        char *l = *pos, *nl = strchr(l, '\n');
        if (nl) {
            *nl = 0;
            *pos = nl + 1;
        } else {
            *pos = l + strlen(l);
        }
        ++*lineno;
        char *h = strchr(l, '#');
        if (h) *h = 0;
        while (*l == ' ' || *l == '\t') l++;
        size_t k = strlen(l);
        while (k && (l[k - 1] == ' ' || l[k - 1] == '\t' || l[k - 1] == '\r')) l[--k] = 0;
        if (*l) return l;
    }
    return NULL;
}

ws_l1blist *ws_l1blist_load(const char *path, unsigned n_sms, uint32_t line_size, char *err,
                            size_t errlen) {
    size_t len;
    char *text = ws_read_file_capped(path, WS_PTX_FILE_MAX, &len);
    if (!text) {
        ws_read_file_error(err, errlen, "bypass list", path, WS_PTX_FILE_MAX);
        return NULL;
    }
    ws_l1blist *b = calloc(1, sizeof *b);
    char *pos = text, *l;
    unsigned ln = 0, ver = 0, sms = 0, cur = 0;
    unsigned long long ls = 0, left = 0;
    char unit[16];
    bool have_sm = false, ended = false;
    if (!b) goto oom;
    if (strlen(text) != len) {
        snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
        goto fail;
    }
    if (!(l = next_line(&pos, &ln)) || sscanf(l, "warpsim-l1d-bypass %u", &ver) != 1) {
        snprintf(err, errlen, "%s:%u: not a warpsim L1D bypass list (want 'warpsim-l1d-bypass %d')",
                 path, ln, WS_L1BP_VERSION);
        goto fail;
    }
    if (ver != WS_L1BP_VERSION) {
        snprintf(err, errlen, "%s:%u: format version %u; this warpsim reads version %d", path, ln,
                 ver, WS_L1BP_VERSION);
        goto fail;
    }
    if (!(l = next_line(&pos, &ln)) || sscanf(l, "line_size %llu", &ls) != 1 || ls != line_size) {
        snprintf(err, errlen, "%s:%u: want 'line_size %" PRIu32 "' (the L1D's line size)", path, ln,
                 line_size);
        goto fail;
    }
    if (!(l = next_line(&pos, &ln)) || sscanf(l, "unit %15s", unit) != 1 ||
        (strcmp(unit, "bytes") && strcmp(unit, "sectors"))) {
        snprintf(err, errlen, "%s:%u: want 'unit bytes' or 'unit sectors'", path, ln);
        goto fail;
    }
    if (!(l = next_line(&pos, &ln)) || sscanf(l, "sms %u", &sms) != 1 || sms != n_sms) {
        snprintf(err, errlen,
                 "%s:%u: want 'sms %u': the list must come from a GPU with as many SMs", path, ln,
                 n_sms);
        goto fail;
    }
    b->n = n_sms;
    if (!(b->t = calloc(n_sms ? n_sms : 1, sizeof *b->t))) goto oom;
    while ((l = next_line(&pos, &ln))) {
        unsigned s;
        unsigned long long cnt, a;
        char *end;
        if (!strcmp(l, "end")) {
            ended = true;
            break;
        }
        if (sscanf(l, "sm %u %llu", &s, &cnt) == 2) {
            if (have_sm && left) break;
            if (s != (have_sm ? cur + 1 : 0)) {
                snprintf(err, errlen, "%s:%u: SM %u out of order (want %u)", path, ln, s,
                         have_sm ? cur + 1 : 0);
                goto fail;
            }
            if (s >= n_sms) {
                snprintf(err, errlen, "%s:%u: SM %u, but the GPU has %u", path, ln, s, n_sms);
                goto fail;
            }
            cur = s;
            have_sm = true;
            left = cnt;
            continue;
        }
        errno = 0;
        a = strtoull(l, &end, 0);
        if (!have_sm || *end || errno || end == l || !left) {
            snprintf(err, errlen, "%s:%u: '%s': want a line address (%s)", path, ln, l,
                     !have_sm ? "after 'sm N COUNT'" : !left ? "more than the SM's COUNT" : "hex");
            goto fail;
        }
        if (a % line_size) {
            snprintf(err, errlen, "%s:%u: 0x%llx is not aligned to the %" PRIu32 " B line", path, ln,
                     a, line_size);
            goto fail;
        }
        if (!find(&b->t[cur], a, true)) goto oom;
        left--;
    }
    if (!ended || left || !have_sm || cur + 1 != n_sms) {
        snprintf(err, errlen, "%s:%u: truncated: %s", path, ln,
                 left ? "fewer line addresses than the SM's COUNT"
                      : !ended ? "no 'end' line" : "not every SM is listed");
        goto fail;
    }
    free(text);
    return b;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    free(text);
    ws_l1blist_destroy(b);
    return NULL;
}
