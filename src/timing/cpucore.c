/* The CPU core as a source of shared-LLC traffic (see cpucore.h). */
#include "timing/cpucore.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/readfile.h"

enum { SRC_TRACE, SRC_STREAM, SRC_RANDOM };

/* An outstanding access: its request and its sectors' replies so far. */
typedef struct cpu_slot {
    bool used;
    bool missed;          /* some sector did not hit in the L2 */
    uint32_t got;         /* data bytes answered (a sectored L2 answers per sector) */
    uint64_t t_sent;
} cpu_slot;

/* A reply on its way back over the port. */
typedef struct cpu_ret {
    uint64_t ready;
    cpu_slot *slot;
    uint32_t bytes;
    bool missed;
} cpu_ret;

typedef ws_cpucore_counts cpu_tot;

/* One kernel's values, in the order of cpu_stats. */
typedef struct cpu_vals {
    uint64_t acc, rd, wr, hit, miss;
    double miss_rate, lat_avg;
    uint64_t lat_max, stall;
} cpu_vals;

struct ws_cpucore {
    uint16_t id;
    int src;
    ws_mreq_pool *pool;
    const ws_addrdec *ad;
    /* the accesses */
    ws_cpu_access *tr;
    size_t ntr;
    uint64_t k;               /* next access (index into the trace or the generator's count) */
    double rate, read_frac;
    uint64_t lines, base, rng;
    /* the core */
    ws_mreq *pend;            /* the next access, built, not yet sent */
    cpu_slot *slot;
    uint32_t nslot, used;
    uint64_t latency;
    ws_mreq_fifo port;        /* sent, crossing the port to the slice (t_node: arrival) */
    cpu_ret *ret;             /* replies crossing back, in arrival order */
    uint32_t ret_head, ret_len, ret_cap;
    cpu_tot tot, tot0;
    uint64_t lat_max;         /* this kernel's */
};

/* ---- the trace file ---- */
int ws_cpu_trace_parse(const char *text, const char *name, ws_cpu_access **out, size_t *n,
                       char *err, size_t errlen) {
    *out = NULL;
    *n = 0;
    size_t cap = 0, ln = 0;
    bool header = false;
    uint64_t last = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        ln++;
        char line[256];
        if (len >= sizeof line) {
            snprintf(err, errlen, "%s:%zu: line longer than %zu characters", name, ln,
                     sizeof line - 1);
            goto fail;
        }
        memcpy(line, p, len);
        line[len] = 0;
        p = nl ? nl + 1 : NULL;
        char *h = strchr(line, '#');
        if (h && !(ln == 1 && h == line)) *h = 0; /* the header may not be a comment */
        char *s = line;
        while (isspace((unsigned char)*s)) s++;
        size_t e = strlen(s);
        while (e && isspace((unsigned char)s[e - 1])) s[--e] = 0;
        if (!header) {
            if (strcmp(s, "warpsim-cpu-llc-trace 1")) {
                snprintf(err, errlen,
                         "%s:%zu: want the header 'warpsim-cpu-llc-trace 1' (trace format "
                         "version 1), got '%.80s'", name, ln, s);
                goto fail;
            }
            header = true;
            continue;
        }
        if (!*s) continue;
        char rw[8], extra[8];
        char cyc[32], addr[32];
        if (sscanf(s, "%31s %31s %7s %7s", cyc, addr, rw, extra) != 3 ||
            (strcmp(rw, "R") && strcmp(rw, "W"))) {
            snprintf(err, errlen, "%s:%zu: want 'CYCLE ADDRESS R|W', got '%.80s'", name, ln, s);
            goto fail;
        }
        char *end;
        errno = 0;
        uint64_t c = strtoull(cyc, &end, 10);
        if (*end || errno || cyc[0] == '-') {
            snprintf(err, errlen, "%s:%zu: cycle '%s' is not a decimal count", name, ln, cyc);
            goto fail;
        }
        errno = 0;
        uint64_t a = strtoull(addr, &end, 0);
        if (*end || errno || addr[0] == '-') {
            snprintf(err, errlen, "%s:%zu: address '%s' is not a number (decimal or 0x hex)",
                     name, ln, addr);
            goto fail;
        }
        if (c < last) {
            snprintf(err, errlen, "%s:%zu: cycle %" PRIu64 " is before the previous line's %" PRIu64
                     " (cycles must not decrease)", name, ln, c, last);
            goto fail;
        }
        last = c;
        if (*n == cap) {
            size_t nc = cap ? 2 * cap : 1024;
            ws_cpu_access *q = realloc(*out, nc * sizeof *q);
            if (!q) {
                snprintf(err, errlen, "out of host memory");
                goto fail;
            }
            *out = q;
            cap = nc;
        }
        (*out)[(*n)++] = (ws_cpu_access){c, a, rw[0] == 'W'};
    }
    if (!header) {
        snprintf(err, errlen, "%s: empty (want the header 'warpsim-cpu-llc-trace 1')", name);
        goto fail;
    }
    return 0;
fail:
    free(*out);
    *out = NULL;
    *n = 0;
    return -1;
}

/* xorshift64*: the generator's stream, from the seed alone. */
static uint64_t rnd(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

ws_cpucore *ws_cpucore_create(const ws_config *cfg, uint16_t id, ws_mreq_pool *pool,
                              const ws_addrdec *ad, char *err, size_t errlen) {
    err[0] = 0;
    const char *s = cfg->cpu_llc_source ? cfg->cpu_llc_source : "none";
    bool has_trace = cfg->cpu_llc_trace && *cfg->cpu_llc_trace;
    int src;
    if (!strcmp(s, "none")) {
        if (has_trace)
            snprintf(err, errlen, "option -cpu_llc_trace needs -cpu_llc_source trace");
        return NULL;
    } else if (!strcmp(s, "trace")) {
        src = SRC_TRACE;
    } else if (!strcmp(s, "stream")) {
        src = SRC_STREAM;
    } else if (!strcmp(s, "random")) {
        src = SRC_RANDOM;
    } else {
        snprintf(err, errlen, "option -cpu_llc_source: '%s' is not one of none, stream, random, "
                 "trace", s);
        return NULL;
    }
    if (src == SRC_TRACE && !has_trace) {
        snprintf(err, errlen, "option -cpu_llc_source trace needs -cpu_llc_trace FILE");
        return NULL;
    }
    if (src != SRC_TRACE && has_trace) {
        snprintf(err, errlen, "option -cpu_llc_trace needs -cpu_llc_source trace (it is %s)", s);
        return NULL;
    }
    ws_cpucore *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->id = id;
    c->src = src;
    c->pool = pool;
    c->ad = ad;
    c->rate = cfg->cpu_llc_rate;
    c->read_frac = cfg->cpu_llc_read_frac;
    c->lines = (uint64_t)cfg->cpu_llc_footprint / 128;
    if (!c->lines) c->lines = 1;
    c->base = (uint64_t)cfg->cpu_llc_base & ~(uint64_t)127;
    c->rng = (uint64_t)cfg->cpu_llc_seed * 0x9E3779B97F4A7C15ull + 1; /* never 0 */
    c->latency = (uint64_t)cfg->cpu_llc_latency;
    c->nslot = (uint32_t)cfg->cpu_llc_mshr;
    c->ret_cap = c->nslot * 4 + 4; /* at most four sector replies per access */
    c->slot = calloc(c->nslot, sizeof *c->slot);
    c->ret = calloc(c->ret_cap, sizeof *c->ret);
    if (!c->slot || !c->ret) {
        snprintf(err, errlen, "out of memory");
        ws_cpucore_destroy(c);
        return NULL;
    }
    if (src == SRC_TRACE) {
        size_t len;
        char *text = ws_read_file_capped(cfg->cpu_llc_trace, WS_PTX_FILE_MAX, &len);
        if (!text) {
            char e[600];
            ws_read_file_error(e, sizeof e, "CPU LLC trace", cfg->cpu_llc_trace, WS_PTX_FILE_MAX);
            snprintf(err, errlen, "option -cpu_llc_trace: %s", e);
            ws_cpucore_destroy(c);
            return NULL;
        }
        char e[400];
        int rc = ws_cpu_trace_parse(text, cfg->cpu_llc_trace, &c->tr, &c->ntr, e, sizeof e);
        free(text);
        if (rc) {
            snprintf(err, errlen, "option -cpu_llc_trace: %s", e);
            ws_cpucore_destroy(c);
            return NULL;
        }
    }
    return c;
}

void ws_cpucore_destroy(ws_cpucore *c) {
    if (!c) return;
    if (c->pend) ws_mreq_free(c->pool, c->pend);
    ws_mreq *r;
    while ((r = ws_mreq_fifo_pop(&c->port))) ws_mreq_free(c->pool, r);
    free(c->tr);
    free(c->slot);
    free(c->ret);
    free(c);
}

void ws_cpucore_kernel_start(ws_cpucore *c) {
    c->tot0 = c->tot;
    c->lat_max = 0;
}

bool ws_cpucore_has_work(const ws_cpucore *c) {
    return c->pend || c->src != SRC_TRACE || c->k < c->ntr;
}

/* Is the next access due at cycle now? (Generator: access k at k / rate.) */
static bool is_due(const ws_cpucore *c, uint64_t now) {
    if (c->src == SRC_TRACE) return c->k < c->ntr && c->tr[c->k].cycle <= now;
    return (double)c->k <= (double)now * c->rate;
}

/* The next access, when due. */
static bool next_due(ws_cpucore *c, uint64_t now, uint64_t *addr, bool *write) {
    if (!is_due(c, now)) return false;
    if (c->src == SRC_TRACE) {
        *addr = c->tr[c->k].addr;
        *write = c->tr[c->k].write;
        return true;
    }
    uint64_t line = c->src == SRC_STREAM ? c->k % c->lines : rnd(&c->rng) % c->lines;
    *addr = c->base + 128 * line;
    *write = (double)(rnd(&c->rng) >> 11) * 0x1.0p-53 >= c->read_frac;
    return true;
}

ws_mreq *ws_cpucore_peek(ws_cpucore *c, uint64_t now, bool gpu_working) {
    if (!gpu_working) return NULL;
    if (c->used == c->nslot) {
        if (c->pend || is_due(c, now)) c->tot.stall++;
        return NULL;
    }
    if (c->pend) return c->pend;
    uint64_t a;
    bool w;
    if (!next_due(c, now, &a, &w)) return NULL;
    c->k++;
    ws_mreq *r = ws_mreq_alloc(c->pool);
    r->addr = a & ~(uint64_t)127;
    r->data_size = 128;
    r->is_write = w;
    r->access = w ? WS_MA_GLOBAL_W : WS_MA_GLOBAL_R;
    r->sm = c->id;
    r->sectors = 0xF;
    memset(r->bytes, 0xFF, sizeof r->bytes);
    ws_addrdec_decode(c->ad, r);
    c->pend = r;
    return r;
}

void ws_cpucore_pop(ws_cpucore *c, uint64_t now) {
    ws_mreq *r = c->pend;
    if (!r) return;
    c->pend = NULL;
    cpu_slot *s = NULL;
    for (uint32_t i = 0; i < c->nslot && !s; i++)
        if (!c->slot[i].used) s = &c->slot[i];
    *s = (cpu_slot){true, false, 0, now};
    c->used++;
    r->origin = s;
    r->t_created = now;
    r->t_node = now + c->latency;
    ws_mreq_fifo_push(&c->port, r);
    c->tot.acc++;
    if (r->is_write) c->tot.wr++;
    else c->tot.rd++;
}

void ws_cpucore_stalled(ws_cpucore *c) { c->tot.stall++; }

ws_mreq *ws_cpucore_port_top(const ws_cpucore *c, uint64_t now) {
    ws_mreq *r = c->port.head;
    return r && r->t_node <= now ? r : NULL;
}

void ws_cpucore_port_pop(ws_cpucore *c) { ws_mreq_fifo_pop(&c->port); }

void ws_cpucore_reply(ws_cpucore *c, ws_mreq *r, uint64_t now) {
    /* replies arrive in order of their time: a ring sized for every sector
       of every outstanding access */
    cpu_ret *x = &c->ret[(c->ret_head + c->ret_len++) % c->ret_cap];
    *x = (cpu_ret){now + c->latency, r->origin, r->data_size, r->l2_waited};
    ws_mreq_free(c->pool, r);
}

void ws_cpucore_cycle(ws_cpucore *c, uint64_t now) {
    while (c->ret_len && c->ret[c->ret_head].ready <= now) {
        cpu_ret *x = &c->ret[c->ret_head];
        c->ret_head = (c->ret_head + 1) % c->ret_cap;
        c->ret_len--;
        cpu_slot *s = x->slot;
        s->got += x->bytes;
        s->missed |= x->missed;
        if (s->got < 128) continue; /* more sectors to come */
        uint64_t lat = now - s->t_sent;
        c->tot.lat_sum += lat;
        if (lat > c->lat_max) c->lat_max = lat;
        if (s->missed) c->tot.miss++;
        else c->tot.hit++;
        s->used = false;
        c->used--;
    }
}

bool ws_cpucore_busy(const ws_cpucore *c) { return c->used > 0; }
const ws_cpucore_counts *ws_cpucore_counts_get(const ws_cpucore *c) { return &c->tot; }
uint16_t ws_cpucore_id(const ws_cpucore *c) { return c->id; }

#define CV(f) WS_SRC_U64, offsetof(cpu_vals, f)
#define CD(f) WS_SRC_F64, offsetof(cpu_vals, f)
#define S(nm, u, d, ...) {nm, .unit = u, .desc = d, .when = "-cpu_llc_source not none", __VA_ARGS__}
static const ws_stat_decl cpu_stats[] = {
    S("cpu_llc_accesses", "accesses", "line accesses the CPU core sent to the shared LLC (L2)",
      .src = CV(acc)),
    S("cpu_llc_reads", "accesses", "of which line reads", .src = CV(rd)),
    S("cpu_llc_writes", "accesses", "of which line write-backs", .src = CV(wr)),
    S("cpu_llc_hits", "accesses", "CPU accesses answered that hit in the LLC (every sector)",
      .src = CV(hit)),
    S("cpu_llc_misses", "accesses", "CPU accesses answered that missed in the LLC (some sector)",
      .src = CV(miss)),
    S("cpu_llc_miss_rate", "ratio", "cpu_llc_misses / (cpu_llc_hits + cpu_llc_misses)",
      .src = CD(miss_rate), .agg = WS_AGG_WMEAN, .den_name = "cpu_llc_accesses"),
    S("cpu_llc_avg_latency", "cycles", "mean CPU access latency, send to reply back at the core",
      .src = CD(lat_avg), .agg = WS_AGG_WMEAN, .den_name = "cpu_llc_accesses"),
    S("cpu_llc_max_latency", "cycles", "longest CPU access latency", .src = CV(lat_max),
      .agg = WS_AGG_MAX),
    S("cpu_llc_stall_cycles", "cycles",
      "cycles a due CPU access waited (its MSHRs full or its interval quota used)",
      .src = CV(stall)),
};
#undef S
#undef CV
#undef CD
const ws_stat_table ws_cpucore_stat_table = {"CPU core on the shared LLC (-cpu_llc_source)",
                                             cpu_stats, sizeof cpu_stats / sizeof cpu_stats[0]};

void ws_cpucore_add_stats(ws_cpucore *c, ws_kernel_stats *ks) {
    cpu_vals v = {0};
    v.acc = c->tot.acc - c->tot0.acc;
    v.rd = c->tot.rd - c->tot0.rd;
    v.wr = c->tot.wr - c->tot0.wr;
    v.hit = c->tot.hit - c->tot0.hit;
    v.miss = c->tot.miss - c->tot0.miss;
    uint64_t done = v.hit + v.miss;
    v.miss_rate = done ? (double)v.miss / (double)done : 0.0;
    v.lat_avg = done ? (double)(c->tot.lat_sum - c->tot0.lat_sum) / (double)done : 0.0;
    v.lat_max = c->lat_max;
    v.stall = c->tot.stall - c->tot0.stall;
    ws_kstats_add_table(ks, &ws_cpucore_stat_table, &v);
}
