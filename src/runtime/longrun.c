/* Long programs: fast-forward, checkpoints, launch profiles and sampled
 * simulation across kernels (see longrun.h; user's view: docs/sampling.md).
 *
 * Checkpoint file (version WS_CKPT_FORMAT; integers in the writing host's
 * byte order, which an order mark checks):
 *   "WARPSIMCKPT\n", u32 format, u32 order mark 0x01020304,
 *   char[32] warpsim version, u64 boundary (launches before it),
 *   u64 modules, u64 module digest, u64 totals[7] (kernels, warp, thread,
 *   cycles, executed-thread instructions, CTAs, failed launches),
 *   u64 n, u64 launch digests[n],
 *   u64 n, n x {u64 base, u64 size, u64 live}, the live ones' bytes in order,
 *   u64 n, n x {u64 device address, u64 bytes, the bytes} (host reads),
 *   u64 heap launch (the device heap was reserved during launch number
 *   heap launch - 1; 0: not reserved), u64 heap base, u64 n, n x {u64
 *   offset, u64 size, u64 used} (its blocks; their bytes are in its
 *   allocation's),
 *   u64 FNV-1a digest of everything before it.
 * The program is identified by digests of its modules' PTX and of each
 * launch (kernel, grid, block, parameter bytes), and by its allocations. */
#include "runtime/longrun.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/catalog.h"
#include "util/readfile.h"
#include "util/version.h"

#define CKPT_MAGIC "WARPSIMCKPT\n"
#define CKPT_ORDER 0x01020304u

typedef struct dtoh_rec {
    uint64_t src, n;
    uint8_t *data;          /* save: owned copy; resume: points into the file */
} dtoh_rec;

/* The per-kernel stats this file adds (values in lr_vals). */
typedef struct lr_vals {
    uint64_t detailed, group, detailed_cycle, ff_insn;
} lr_vals;
#define D(f, nm, u, d, w)                                                                     \
    {nm, .unit = u, .desc = d, .src = WS_SRC_U64, .off = offsetof(lr_vals, f), .when = w,     \
     .agg = WS_AGG_SUM}
static const ws_stat_decl g_lr_stats[] = {
    D(detailed, "warpsim_detailed", "launches",
      "1: the launch ran on the timing model; 0: functionally (fast-forwarded, or sampled out by "
      "-warpsim_sample_kernels)", "with a fast-forward, checkpoint or sampling option"),
    D(ff_insn, "warpsim_functional_insn", "instructions",
      "thread instructions of this launch run functionally (gpu_sim_insn when warpsim_detailed "
      "= 0; within-kernel sampling: the CTAs after the stop)",
      "with a fast-forward, checkpoint or sampling option"),
    D(detailed_cycle, "warpsim_detailed_cycle", "cycles",
      "cycles simulated in detail: gpu_sim_cycle, except for a kernel whose detailed simulation "
      "stopped once its IPC converged (-warpsim_sample_ipc_tol), whose gpu_sim_cycle is then "
      "this plus its remaining instructions at that IPC",
      "with a fast-forward, checkpoint or sampling option"),
    D(group, "warpsim_sample_group", "group",
      "-warpsim_sample_kernels: the launch's group (1-based)", "with -warpsim_sample_kernels"),
};
#undef D
const ws_stat_table ws_longrun_stat_table = {"long programs (fast-forward, sampling)", g_lr_stats,
                                             sizeof g_lr_stats / sizeof g_lr_stats[0]};

/* A set of 128-byte lines (memory footprint of one launch). */
typedef struct line_set {
    uint64_t *slot;         /* line + 1; 0 = empty */
    size_t cap, n;
} line_set;

typedef struct sample_launch {
    ws_lr_features f;
    uint32_t group;
    uint8_t rep;
    uint8_t seen;           /* ran in this run */
    double cycles;          /* detailed: measured (or projected within the kernel) */
    double insts;           /* thread instructions this run executed */
    double wsigma;          /* detailed: one standard error of its within-kernel projection */
} sample_launch;

struct ws_longrun {
    ws_config cfg;
    ws_gpu *gpu;
    ws_longrun_dev dev;
    /* fast-forward */
    uint64_t ff_kernels, ff_insn;
    bool warm;
    /* checkpoint save */
    char *save_path;
    uint64_t save_at;
    bool saved;
    dtoh_rec *log;
    size_t nlog, caplog;
    /* checkpoint resume */
    char *resume_path;
    uint8_t *file;          /* the whole checkpoint */
    size_t file_len;
    uint64_t boundary;
    bool ck_ok;             /* the file was accepted */
    bool restored;
    bool refused;           /* this run is not the checkpoint's program (said once) */
    const uint8_t *ck_modules, *ck_launches, *ck_allocs, *ck_mem, *ck_dtoh;
    uint64_t ck_nlaunch, ck_nalloc, ck_ndtoh, ck_dtoh_next;
    const uint8_t *ck_dtoh_pos;
    uint64_t ck_heap_at, ck_heap_base, ck_heap_n;
    const uint8_t *ck_heap;
    uint64_t heap_at;       /* launches done when the device heap was first seen reserved */
    /* identity of the program so far */
    uint64_t nmodules, module_hash;
    uint64_t *launch_hash;
    size_t nlh, caplh;
    /* profiling pass */
    FILE *profile;
    char *profile_path;
    ws_lr_features cur;
    line_set lines;
    /* sampling across kernels */
    char *sample_path;
    sample_launch *sl;
    uint32_t nsl, ngroups;
    uint64_t launches_beyond;  /* launches past the profile's */
    uint64_t cur_index;
    lr_vals vals;
    /* sampling within kernels: the detailed launches' cycles (projections
       included) and their detailed part */
    double within_cycles, within_detailed;
    /* per kernel: the sum of its launches' standard errors (launches of one
       kernel deviate alike: see ws_lr_within_sigma) */
    struct { uint64_t kernel; double sigma; } *wk;
    uint32_t nwk, capwk;
    uint64_t cur_kernel;    /* digest of the running launch's kernel name */
    bool wk_lost;
    /* sampling across kernels: the launches past the profile's (all
       detailed), and the variance of their within-kernel projections */
    double beyond_cycles, beyond_var;
};

uint64_t ws_lr_hash(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

bool ws_longrun_wanted(const ws_config *c) {
    return c->ff_kernels > 0 || c->ff_insn > 0 || (c->ckpt_save && *c->ckpt_save) ||
           (c->ckpt_resume && *c->ckpt_resume) || (c->profile_out && *c->profile_out) ||
           (c->sample_kernels && *c->sample_kernels) || c->sample_ipc_tol > 0;
}

static char *dup_or_null(const char *s) { return s && *s ? strdup(s) : NULL; }

/* ---- features, groups, projection ------------------------------------------ */
double ws_lr_mem_intensity(const ws_lr_features *f) {
    return f->warp_insts ? (double)f->mem_insts / (double)f->warp_insts : 0;
}

double ws_lr_simd_eff(const ws_lr_features *f) {
    return f->warp_insts ? (double)f->thread_insts / (32.0 * (double)f->warp_insts) : 0;
}

static bool rel_close(double a, double b, double tol) {
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return m == 0 || fabs(a - b) <= tol * m;
}

uint32_t ws_lr_group(const ws_lr_features *f, uint32_t n, double tol, uint32_t *group) {
    uint32_t ng = 0;
    uint32_t *leader = malloc((n ? n : 1) * sizeof *leader);
    if (!leader) { /* out of memory: every launch its own group (all detailed) */
        for (uint32_t i = 0; i < n; i++) group[i] = i;
        return n;
    }
    for (uint32_t i = 0; i < n; i++) {
        const ws_lr_features *a = &f[i];
        uint32_t g = ng;
        for (uint32_t k = 0; k < ng && g == ng; k++) {
            const ws_lr_features *b = &f[leader[k]];
            if (strcmp(a->kernel, b->kernel) || memcmp(a->block, b->block, sizeof a->block)) continue;
            if (rel_close((double)a->thread_insts, (double)b->thread_insts, tol) &&
                rel_close(ws_lr_mem_intensity(a), ws_lr_mem_intensity(b), tol) &&
                rel_close((double)a->lines, (double)b->lines, tol) &&
                fabs(ws_lr_simd_eff(a) - ws_lr_simd_eff(b)) <= tol)
                g = k;
        }
        if (g == ng) leader[ng++] = i;
        group[i] = g;
    }
    free(leader);
    return ng;
}

void ws_lr_pick(const ws_lr_features *f, uint32_t n, const uint32_t *group, uint32_t ngroups,
                uint32_t k, uint8_t *rep) {
    double *mean = calloc(ngroups ? ngroups : 1, sizeof *mean);
    uint32_t *cnt = calloc(ngroups ? ngroups : 1, sizeof *cnt);
    memset(rep, 0, n);
    if (!mean || !cnt) {
        free(mean);
        free(cnt);
        for (uint32_t i = 0; i < n; i++) rep[i] = 1; /* out of memory: simulate everything */
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        mean[group[i]] += (double)f[i].thread_insts;
        cnt[group[i]]++;
    }
    for (uint32_t g = 0; g < ngroups; g++) mean[g] /= cnt[g] ? cnt[g] : 1;
    /* k rounds: each takes the nearest launch not yet taken */
    for (uint32_t g = 0; g < ngroups; g++)
        for (uint32_t r = 0; r < k && r < cnt[g]; r++) {
            int64_t best = -1;
            double bd = 0;
            for (uint32_t i = 0; i < n; i++) {
                if (group[i] != g || rep[i]) continue;
                double d = fabs((double)f[i].thread_insts - mean[g]);
                if (best < 0 || d < bd) {
                    best = i;
                    bd = d;
                }
            }
            if (best >= 0) rep[best] = 1;
        }
    free(mean);
    free(cnt);
}

void ws_lr_project(const double *rc, const double *ri, uint32_t nrep, const double *oi,
                   uint32_t nother, ws_lr_projection *out) {
    memset(out, 0, sizeof *out);
    double c = 0, i = 0;
    for (uint32_t k = 0; k < nrep; k++) {
        c += rc[k];
        i += ri[k];
    }
    out->cycles = c;
    if (!nother) return;
    /* cycles per instruction, pooled over the detailed launches */
    double cpi = i > 0 ? c / i : 0, mean_c = nrep ? c / nrep : 0, proj = 0;
    for (uint32_t k = 0; k < nother; k++) proj += i > 0 ? oi[k] * cpi : mean_c;
    /* their spread of CPI (sample standard deviation over the mean) */
    double cv = 0;
    if (nrep >= 2 && i > 0) {
        double s = 0;
        for (uint32_t k = 0; k < nrep; k++) {
            double x = ri[k] > 0 ? rc[k] / ri[k] : cpi;
            s += (x - cpi) * (x - cpi);
        }
        cv = sqrt(s / (nrep - 1)) / cpi;
    }
    if (cv < WS_LR_CV_FLOOR) cv = WS_LR_CV_FLOOR;
    out->projected = proj;
    out->cycles += proj;
    /* a group's launches share their deviation (same code, same data
       layout): the error of the projected part scales with it, not with
       its square root */
    out->sigma = cv * proj;
}

double ws_lr_within_sigma(const double *rs, const double *ri, uint32_t nrep, const double *oi,
                          uint32_t nother) {
    double sig = 0, in = 0, all = 0;
    for (uint32_t k = 0; k < nrep; k++) {
        sig += rs[k];
        in += ri[k];
    }
    all = in;
    for (uint32_t k = 0; k < nother; k++) all += oi[k];
    if (!nrep) return 0;
    /* kernels without instructions are projected at the detailed launches'
       mean cycles (ws_lr_project): the ratio is then one of launch counts */
    double scale = in > 0 ? all / in : (double)(nrep + nother) / nrep;
    return scale * sig;
}

/* ---- line set ----------------------------------------------------------- */
static void lines_clear(line_set *s) {
    if (s->slot) memset(s->slot, 0, s->cap * sizeof *s->slot);
    s->n = 0;
}

static void lines_add(line_set *s, uint64_t line) {
    if (2 * (s->n + 1) > s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 4096;
        uint64_t *ns = calloc(nc, sizeof *ns);
        if (!ns) return; /* out of memory: the footprint is undercounted */
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i]) {
                size_t h = (size_t)((s->slot[i] * 0x9e3779b97f4a7c15ull) >> 20) & (nc - 1);
                while (ns[h]) h = (h + 1) & (nc - 1);
                ns[h] = s->slot[i];
            }
        free(s->slot);
        s->slot = ns;
        s->cap = nc;
    }
    uint64_t key = line + 1;
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (s->cap - 1);
    while (s->slot[h]) {
        if (s->slot[h] == key) return;
        h = (h + 1) & (s->cap - 1);
    }
    s->slot[h] = key;
    s->n++;
}

/* ---- profile file --------------------------------------------------------- */
/* One line per launch: index kernel gx gy gz bx by bz warp_insts thread_insts
   mem_insts shared_insts lines. */
static void profile_write(ws_longrun *lr, uint64_t index) {
    const ws_lr_features *f = &lr->cur;
    fprintf(lr->profile, "%llu %s %u %u %u %u %u %u %llu %llu %llu %llu %llu\n",
            (unsigned long long)index, f->kernel, f->grid[0], f->grid[1], f->grid[2], f->block[0],
            f->block[1], f->block[2], (unsigned long long)f->warp_insts,
            (unsigned long long)f->thread_insts, (unsigned long long)f->mem_insts,
            (unsigned long long)f->shared_insts, (unsigned long long)f->lines);
}

static int profile_read(ws_longrun *lr, const char *path) {
    size_t len = 0;
    char *text = ws_read_file_capped(path, 256u << 20, &len);
    if (!text) {
        char msg[4200];
        ws_read_file_error(msg, sizeof msg, "launch profile", path, 256u << 20);
        fprintf(stderr, "warpsim: -warpsim_sample_kernels: %s\n", msg);
        return -1;
    }
    if (strncmp(text, "# warpsim launch profile", 24)) {
        fprintf(stderr, "warpsim: -warpsim_sample_kernels: %s is not a launch profile written by "
                "-warpsim_profile_out\n", path);
        free(text);
        return -1;
    }
    uint32_t cap = 0;
    int line_no = 0;
    for (char *save = NULL, *ln = strtok_r(text, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save)) {
        line_no++;
        if (ln[0] == '#') continue;
        sample_launch s;
        memset(&s, 0, sizeof s);
        unsigned long long idx, w, t, m, sh, l;
        ws_lr_features *f = &s.f;
        if (sscanf(ln, "%llu %511s %u %u %u %u %u %u %llu %llu %llu %llu %llu", &idx, f->kernel,
                   &f->grid[0], &f->grid[1], &f->grid[2], &f->block[0], &f->block[1], &f->block[2],
                   &w, &t, &m, &sh, &l) != 13 || idx != lr->nsl) {
            fprintf(stderr, "warpsim: -warpsim_sample_kernels: %s:%d: not a launch line of the "
                    "profile (index kernel grid block counts)\n", path, line_no);
            free(text);
            return -1;
        }
        f->warp_insts = w;
        f->thread_insts = t;
        f->mem_insts = m;
        f->shared_insts = sh;
        f->lines = l;
        if (lr->nsl == cap) {
            cap = cap ? 2 * cap : 256;
            sample_launch *n = realloc(lr->sl, cap * sizeof *n);
            if (!n) {
                free(text);
                return -1;
            }
            lr->sl = n;
        }
        lr->sl[lr->nsl++] = s;
    }
    free(text);
    return 0;
}

static int plan_sampling(ws_longrun *lr) {
    uint32_t n = lr->nsl;
    ws_lr_features *f = malloc((n ? n : 1) * sizeof *f);
    uint32_t *g = malloc((n ? n : 1) * sizeof *g);
    uint8_t *rep = malloc(n ? n : 1);
    if (!f || !g || !rep) {
        free(f);
        free(g);
        free(rep);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) f[i] = lr->sl[i].f;
    lr->ngroups = ws_lr_group(f, n, lr->cfg.sample_threshold, g);
    ws_lr_pick(f, n, g, lr->ngroups, (uint32_t)lr->cfg.sample_per_group, rep);
    for (uint32_t i = 0; i < n; i++) {
        lr->sl[i].group = g[i];
        lr->sl[i].rep = rep[i];
    }
    free(f);
    free(g);
    free(rep);
    return 0;
}

/* This run is not the program of the checkpoint or profile: said once, and
 * the destructor does not add that the boundary was never reached. */
static ws_status refuse(ws_longrun *lr) {
    lr->refused = true;
    return WS_ERR_INVALID_VALUE;
}

/* ---- checkpoint reading ------------------------------------------------------ */
typedef struct rd {
    const uint8_t *p, *end;
    bool bad;
} rd;

static uint64_t rd_u64(rd *r) {
    uint64_t v = 0;
    if ((size_t)(r->end - r->p) < 8) {
        r->bad = true;
        r->p = r->end;
        return 0;
    }
    memcpy(&v, r->p, 8);
    r->p += 8;
    return v;
}

static const uint8_t *rd_bytes(rd *r, uint64_t n) {
    if ((uint64_t)(r->end - r->p) < n) {
        r->bad = true;
        r->p = r->end;
        return NULL;
    }
    const uint8_t *b = r->p;
    r->p += n;
    return b;
}

static int ckpt_open(ws_longrun *lr, const char *path) {
    size_t len = 0;
    char *buf = ws_read_file_capped(path, (size_t)1 << 34, &len);
    const char *fail = NULL;
    char why[256] = "";
    if (!buf) {
        char msg[4200];
        ws_read_file_error(msg, sizeof msg, "checkpoint", path, (size_t)1 << 34);
        fprintf(stderr, "warpsim: -warpsim_checkpoint_resume: %s\n", msg);
        return -1;
    }
    lr->file = (uint8_t *)buf;
    lr->file_len = len;
    const size_t head = 12 + 4 + 4 + 32;
    uint32_t fmt = 0, order = 0;
    if (len < head + 8 || memcmp(buf, CKPT_MAGIC, 12)) {
        fail = "not a warpsim checkpoint";
    } else {
        memcpy(&fmt, buf + 12, 4);
        memcpy(&order, buf + 16, 4);
        char ver[33];
        memcpy(ver, buf + 20, 32);
        ver[32] = 0;
        if (order != CKPT_ORDER) {
            fail = "written on a host of the other byte order";
        } else if (fmt != WS_CKPT_FORMAT) {
            snprintf(why, sizeof why, "checkpoint format %u; this warpsim reads format %u", fmt,
                     WS_CKPT_FORMAT);
        } else if (strcmp(ver, WARPSIM_VERSION)) {
            snprintf(why, sizeof why, "written by warpsim %.32s; this is warpsim %s (a checkpoint is "
                     "read by the version that wrote it)", ver, WARPSIM_VERSION);
        } else {
            uint64_t sum;
            memcpy(&sum, buf + len - 8, 8);
            if (ws_lr_hash(WS_LR_HASH_INIT, buf, len - 8) != sum)
                fail = "corrupted (its checksum does not match its contents)";
        }
    }
    if (!fail && !why[0]) {
        rd r = {(const uint8_t *)buf + head, (const uint8_t *)buf + len - 8, false};
        lr->boundary = rd_u64(&r);
        r.p += 9 * 8; /* modules, digest, totals: read at the boundary */
        lr->ck_modules = (const uint8_t *)buf + head + 8;
        /* counts beyond the file's size cannot be (and would overflow below) */
        lr->ck_nlaunch = rd_u64(&r);
        if (lr->ck_nlaunch > len / 8) r.bad = true;
        lr->ck_launches = r.bad ? NULL : rd_bytes(&r, lr->ck_nlaunch * 8);
        lr->ck_nalloc = r.bad ? 0 : rd_u64(&r);
        if (lr->ck_nalloc > len / 24) r.bad = true;
        lr->ck_allocs = r.bad ? NULL : rd_bytes(&r, lr->ck_nalloc * 24);
        lr->ck_mem = r.p;
        for (uint64_t i = 0; i < lr->ck_nalloc && !r.bad && lr->ck_allocs; i++) {
            uint64_t a[3];
            memcpy(a, lr->ck_allocs + 24 * i, 24);
            if (a[2]) rd_bytes(&r, a[1]);
        }
        lr->ck_ndtoh = rd_u64(&r);
        lr->ck_dtoh = lr->ck_dtoh_pos = r.p;
        for (uint64_t i = 0; i < lr->ck_ndtoh && !r.bad; i++) {
            rd_u64(&r);
            rd_bytes(&r, rd_u64(&r));
        }
        lr->ck_heap_at = rd_u64(&r);
        lr->ck_heap_base = rd_u64(&r);
        lr->ck_heap_n = rd_u64(&r);
        if (lr->ck_heap_n > len / 24) r.bad = true;
        lr->ck_heap = r.bad ? NULL : rd_bytes(&r, lr->ck_heap_n * 24);
        if (r.bad || r.p != r.end || lr->ck_nlaunch != lr->boundary)
            fail = "corrupted (its parts do not add up to its size)";
    }
    if (fail || why[0]) {
        fprintf(stderr, "warpsim: checkpoint %s refused: %s\n", path, fail ? fail : why);
        return -1;
    }
    lr->ck_ok = true;
    return 0;
}

/* ---- checkpoint writing --------------------------------------------------------- */
static void put(FILE *f, uint64_t *h, const void *p, size_t n) {
    fwrite(p, 1, n, f);
    *h = ws_lr_hash(*h, p, n);
}

static void put64(FILE *f, uint64_t *h, uint64_t v) { put(f, h, &v, 8); }

static int ckpt_write(ws_longrun *lr, char *err, size_t errlen) {
    const char *path = lr->save_path;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write checkpoint %s: %s", tmp, strerror(errno));
        return -1;
    }
    uint64_t h = WS_LR_HASH_INIT;
    uint32_t fmt = WS_CKPT_FORMAT, order = CKPT_ORDER;
    char ver[32] = {0};
    snprintf(ver, sizeof ver, "%s", WARPSIM_VERSION);
    put(f, &h, CKPT_MAGIC, 12);
    put(f, &h, &fmt, 4);
    put(f, &h, &order, 4);
    put(f, &h, ver, 32);
    put64(f, &h, lr->save_at);
    put64(f, &h, lr->nmodules);
    put64(f, &h, lr->module_hash);
    const ws_run_totals *t = lr->dev.totals;
    uint64_t tv[7] = {t->kernels, t->warp_insts, t->thread_insts, t->cycles,
                      t->thread_insts_exec, *lr->dev.tot_ctas, t->failed_launches};
    for (int i = 0; i < 7; i++) put64(f, &h, tv[i]);
    put64(f, &h, lr->nlh);
    put(f, &h, lr->launch_hash, lr->nlh * 8);
    uint32_t na = ws_gmem_nallocs(lr->dev.gmem);
    put64(f, &h, na);
    for (uint32_t i = 0; i < na; i++) {
        uint64_t base, size;
        bool live;
        ws_gmem_alloc_info(lr->dev.gmem, i, &base, &size, &live);
        put64(f, &h, base);
        put64(f, &h, size);
        put64(f, &h, live);
    }
    uint8_t chunk[65536];
    for (uint32_t i = 0; i < na; i++) {
        uint64_t base, size;
        bool live;
        ws_gmem_alloc_info(lr->dev.gmem, i, &base, &size, &live);
        for (uint64_t o = 0; live && o < size; o += sizeof chunk) {
            uint64_t n = size - o < sizeof chunk ? size - o : sizeof chunk;
            ws_gmem_read(lr->dev.gmem, base + o, chunk, n);
            put(f, &h, chunk, n);
        }
    }
    put64(f, &h, lr->nlog);
    for (size_t i = 0; i < lr->nlog; i++) {
        put64(f, &h, lr->log[i].src);
        put64(f, &h, lr->log[i].n);
        put(f, &h, lr->log[i].data, lr->log[i].n);
    }
    uint32_t nb = ws_dev_heap_nblocks(lr->dev.heap);
    put64(f, &h, nb ? lr->heap_at : 0);
    put64(f, &h, nb ? ws_dev_heap_base(lr->dev.heap) : 0);
    put64(f, &h, nb);
    for (uint32_t i = 0; i < nb; i++) {
        uint64_t w[3];
        ws_dev_heap_block(lr->dev.heap, i, w);
        put(f, &h, w, sizeof w);
    }
    uint64_t sum = h;
    fwrite(&sum, 1, 8, f);
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path)) {
        snprintf(err, errlen, "cannot write checkpoint %s: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    fprintf(stderr, "warpsim: checkpoint written to %s at the boundary after %llu launches\n", path,
            (unsigned long long)lr->save_at);
    return 0;
}

/* The device state at the boundary, from the file, after checking that this
 * run is the checkpoint's program. */
static ws_status ckpt_restore(ws_longrun *lr, char *err, size_t errlen) {
    const char *path = lr->resume_path;
    uint64_t v[9];
    memcpy(v, lr->ck_modules, sizeof v);
    if (v[0] != lr->nmodules || v[1] != lr->module_hash) {
        snprintf(err, errlen, "checkpoint %s is of another program: the modules loaded before its "
                 "boundary differ (%llu there, %llu here, or other PTX)", path,
                 (unsigned long long)v[0], (unsigned long long)lr->nmodules);
        return refuse(lr);
    }
    uint32_t na = ws_gmem_nallocs(lr->dev.gmem);
    bool same = na == lr->ck_nalloc;
    for (uint32_t i = 0; same && i < na; i++) {
        uint64_t base, size, a[3];
        bool live;
        ws_gmem_alloc_info(lr->dev.gmem, i, &base, &size, &live);
        memcpy(a, lr->ck_allocs + 24 * i, 24);
        same = a[0] == base && a[1] == size && a[2] == (uint64_t)live;
    }
    if (!same) {
        snprintf(err, errlen, "checkpoint %s is of another program: the device allocations at its "
                 "boundary differ (%llu there, %u here, or other sizes)", path,
                 (unsigned long long)lr->ck_nalloc, na);
        return refuse(lr);
    }
    const uint8_t *m = lr->ck_mem;
    for (uint32_t i = 0; i < na; i++) {
        uint64_t a[3];
        memcpy(a, lr->ck_allocs + 24 * i, 24);
        if (!a[2]) continue;
        if (a[1] && ws_gmem_write(lr->dev.gmem, a[0], m, a[1]) != WS_OK) {
            snprintf(err, errlen, "checkpoint %s: cannot restore the allocation at 0x%llx", path,
                     (unsigned long long)a[0]);
            return refuse(lr);
        }
        m += a[1];
    }
    /* the device heap: its region was reserved when its launch was skipped */
    if (lr->ck_heap_at) {
        uint64_t *w = malloc(lr->ck_heap_n * 24 + 1);
        ws_status hs = WS_ERR_INVALID_VALUE;
        if (w && ws_dev_heap_base(lr->dev.heap) == lr->ck_heap_base) {
            memcpy(w, lr->ck_heap, lr->ck_heap_n * 24);
            hs = ws_dev_heap_set_blocks(lr->dev.heap, w, (uint32_t)lr->ck_heap_n);
        }
        free(w);
        if (hs != WS_OK) {
            snprintf(err, errlen, "checkpoint %s: cannot restore the device heap's blocks (its "
                     "region is not at 0x%llx here)", path, (unsigned long long)lr->ck_heap_base);
            return refuse(lr);
        }
        lr->heap_at = lr->ck_heap_at;
    }
    ws_run_totals *t = lr->dev.totals;
    t->kernels = v[2];
    t->warp_insts = v[3];
    t->thread_insts = v[4];
    t->cycles = v[5];
    t->thread_insts_exec = v[6];
    *lr->dev.tot_ctas = v[7];
    t->failed_launches = v[8];
    *lr->dev.launch_uid = lr->boundary;
    lr->restored = true;
    fprintf(stderr, "warpsim: resumed from checkpoint %s at the boundary after %llu launches\n", path,
            (unsigned long long)lr->boundary);
    return WS_OK;
}

/* ---- life ------------------------------------------------------------------------ */
ws_longrun *ws_longrun_create(const ws_config *cfg, ws_gpu *gpu, const ws_longrun_dev *dev) {
    ws_longrun *lr = calloc(1, sizeof *lr);
    if (!lr || ws_config_copy(&lr->cfg, cfg)) {
        free(lr);
        fprintf(stderr, "warpsim: out of host memory\n");
        return NULL;
    }
    lr->gpu = gpu;
    lr->dev = *dev;
    lr->module_hash = WS_LR_HASH_INIT;
    lr->ff_kernels = (uint64_t)cfg->ff_kernels;
    lr->ff_insn = (uint64_t)cfg->ff_insn;
    lr->warm = cfg->ff_warm;
    lr->save_path = dup_or_null(cfg->ckpt_save);
    lr->save_at = (uint64_t)cfg->ckpt_at;
    lr->resume_path = dup_or_null(cfg->ckpt_resume);
    lr->profile_path = dup_or_null(cfg->profile_out);
    lr->sample_path = dup_or_null(cfg->sample_kernels);
    const char *bad = NULL;
    if (lr->profile_path && gpu)
        bad = "-warpsim_profile_out profiles a functional run (--functional): the timing model "
              "does not show it every instruction's addresses";
    else if (lr->sample_path && !gpu)
        bad = "-warpsim_sample_kernels needs the timing model (not --functional)";
    else if (lr->sample_path && lr->profile_path)
        bad = "-warpsim_profile_out and -warpsim_sample_kernels are the two passes of a sampled "
              "run: give one per run";
    else if (lr->save_path && lr->resume_path && lr->save_at <= 0)
        bad = "a resumed run writes a checkpoint only at a later boundary (-warpsim_checkpoint_at)";
    if (bad) {
        fprintf(stderr, "warpsim: %s\n", bad);
        ws_longrun_destroy(lr);
        return NULL;
    }
    if (lr->resume_path && ckpt_open(lr, lr->resume_path)) {
        ws_longrun_destroy(lr);
        return NULL;
    }
    if (lr->resume_path && lr->save_path && lr->save_at <= lr->boundary) {
        fprintf(stderr, "warpsim: -warpsim_checkpoint_at %llu is not after the resumed boundary "
                "(%llu launches)\n", (unsigned long long)lr->save_at,
                (unsigned long long)lr->boundary);
        ws_longrun_destroy(lr);
        return NULL;
    }
    if (lr->profile_path) {
        if (!(lr->profile = fopen(lr->profile_path, "w"))) {
            fprintf(stderr, "warpsim: cannot write the launch profile %s: %s\n", lr->profile_path,
                    strerror(errno));
            ws_longrun_destroy(lr);
            return NULL;
        }
        fprintf(lr->profile, "# warpsim launch profile %s: index kernel grid(x y z) block(x y z) "
                "warp_insts thread_insts mem_insts shared_insts lines_128B\n", WARPSIM_VERSION);
    }
    if (lr->sample_path && (profile_read(lr, lr->sample_path) || plan_sampling(lr))) {
        ws_longrun_destroy(lr);
        return NULL;
    }
    return lr;
}

void ws_longrun_destroy(ws_longrun *lr) {
    if (!lr) return;
    if (lr->save_path && !lr->saved && !lr->refused)
        fprintf(stderr, "warpsim: no checkpoint written to %s: the program made %llu launches, "
                "the boundary is after %llu\n", lr->save_path,
                (unsigned long long)*lr->dev.launch_uid, (unsigned long long)lr->save_at);
    if (lr->resume_path && lr->ck_ok && !lr->restored && !lr->refused)
        fprintf(stderr, "warpsim: checkpoint %s was never reached: the program made %llu launches, "
                "its boundary is after %llu\n", lr->resume_path,
                (unsigned long long)*lr->dev.launch_uid, (unsigned long long)lr->boundary);
    free(lr->wk);
    if (lr->profile && fclose(lr->profile))
        fprintf(stderr, "warpsim: cannot write the launch profile %s: %s\n", lr->profile_path,
                strerror(errno));
    for (size_t i = 0; i < lr->nlog; i++) free(lr->log[i].data);
    free(lr->log);
    free(lr->file);
    free(lr->launch_hash);
    free(lr->lines.slot);
    free(lr->sl);
    free(lr->save_path);
    free(lr->resume_path);
    free(lr->profile_path);
    free(lr->sample_path);
    ws_config_free(&lr->cfg);
    free(lr);
}

void ws_longrun_set_gpu(ws_longrun *lr, ws_gpu *gpu) {
    if (lr) lr->gpu = gpu;
}

void ws_longrun_module(ws_longrun *lr, const char *ptx, size_t len) {
    lr->nmodules++;
    uint64_t h = ws_lr_hash(WS_LR_HASH_INIT, ptx, len);
    lr->module_hash = ws_lr_hash(lr->module_hash, &h, sizeof h);
}

/* ---- launches ------------------------------------------------------------------ */
ws_status ws_longrun_begin(ws_longrun *lr, const char *kernel, const uint32_t grid[3],
                           const uint32_t block[3], const void *params, size_t params_size,
                           ws_lr_mode *mode, char *err, size_t errlen) {
    uint64_t idx = *lr->dev.launch_uid;
    lr->cur_index = idx;
    /* the launch during which the device heap was reserved (checkpoints) */
    if (!lr->heap_at && idx && (!lr->resume_path || lr->restored) && ws_dev_heap_base(lr->dev.heap))
        lr->heap_at = idx;
    memset(&lr->vals, 0, sizeof lr->vals);
    *mode = WS_LR_DETAILED;
    lr->cur_kernel = ws_lr_hash(WS_LR_HASH_INIT, kernel, strlen(kernel));
    /* the launch's identity */
    uint64_t h = ws_lr_hash(WS_LR_HASH_INIT, kernel, strlen(kernel) + 1);
    h = ws_lr_hash(h, grid, 12);
    h = ws_lr_hash(h, block, 12);
    if (params_size) h = ws_lr_hash(h, params, params_size);
    if (lr->save_path && !lr->saved) {
        if (idx == lr->save_at) {
            if (ckpt_write(lr, err, errlen)) return WS_ERR_IO;
            lr->saved = true;
            for (size_t i = 0; i < lr->nlog; i++) free(lr->log[i].data);
            free(lr->log);
            lr->log = NULL;
            lr->nlog = lr->caplog = 0;
        } else if (lr->nlh == lr->caplh) {
            size_t nc = lr->caplh ? 2 * lr->caplh : 256;
            uint64_t *n = realloc(lr->launch_hash, nc * sizeof *n);
            if (!n) {
                snprintf(err, errlen, "out of host memory");
                return WS_ERR_OUT_OF_MEMORY;
            }
            lr->launch_hash = n;
            lr->caplh = nc;
        }
        if (!lr->saved) lr->launch_hash[lr->nlh++] = h;
    }
    if (lr->resume_path && !lr->restored) {
        if (idx < lr->boundary) {
            uint64_t want;
            memcpy(&want, lr->ck_launches + 8 * idx, 8);
            if (want != h) {
                snprintf(err, errlen, "checkpoint %s is of another program: launch %llu (kernel %s) "
                         "is not the checkpointed program's launch %llu (other kernel, grid, block or "
                         "parameters)", lr->resume_path, (unsigned long long)idx + 1, kernel,
                         (unsigned long long)idx + 1);
                return refuse(lr);
            }
            *mode = WS_LR_SKIP;
            (*lr->dev.launch_uid)++;
            /* the skipped launch reserved the device heap: so it does here, at the same
               point among the allocations */
            if (idx + 1 == lr->ck_heap_at && ws_dev_heap_reserve(lr->dev.heap, lr->dev.gmem)) {
                snprintf(err, errlen, "checkpoint %s: cannot reserve the device heap (%llu bytes) "
                         "where launch %llu reserved it", lr->resume_path,
                         (unsigned long long)ws_dev_heap_limit(lr->dev.heap),
                         (unsigned long long)idx + 1);
                return refuse(lr);
            }
            return WS_OK;
        }
        ws_status s = ckpt_restore(lr, err, errlen);
        if (s != WS_OK) return s;
    }
    if (lr->profile) {
        memset(&lr->cur, 0, sizeof lr->cur);
        snprintf(lr->cur.kernel, sizeof lr->cur.kernel, "%s", kernel);
        memcpy(lr->cur.grid, grid, sizeof lr->cur.grid);
        memcpy(lr->cur.block, block, sizeof lr->cur.block);
        lines_clear(&lr->lines);
    }
    if (!lr->gpu) return WS_OK;
    if (idx < lr->ff_kernels || (lr->ff_insn && lr->dev.totals->thread_insts_exec < lr->ff_insn))
        *mode = WS_LR_FUNCTIONAL;
    if (lr->sl) {
        if (idx < lr->nsl) {
            sample_launch *s = &lr->sl[idx];
            if (strncmp(s->f.kernel, kernel, sizeof s->f.kernel - 1) || memcmp(s->f.grid, grid, 12)) {
                snprintf(err, errlen, "-warpsim_sample_kernels: launch %llu is kernel %s with grid "
                         "(%u,%u,%u); the profile %s has %s (%u,%u,%u) there: it is another "
                         "program's or another input's", (unsigned long long)idx + 1, kernel,
                         grid[0], grid[1], grid[2], lr->sample_path, s->f.kernel, s->f.grid[0],
                         s->f.grid[1], s->f.grid[2]);
                return refuse(lr);
            }
            lr->vals.group = s->group + 1;
            if (!s->rep) *mode = WS_LR_FUNCTIONAL;
        } else {
            lr->launches_beyond++; /* not in the profile: simulated in detail */
        }
    }
    return WS_OK;
}

bool ws_longrun_profiles(const ws_longrun *lr) { return lr && lr->profile; }

/* What the observer sees of each functional instruction. */
static void observe_step(void *ctx, uint32_t sm, const ws_step *st) {
    ws_longrun *lr = ctx;
    bool global = st->mem_space == WS_SPACE_GLOBAL && st->access_size;
    if (lr->profile) {
        ws_lr_features *f = &lr->cur;
        if (global || (st->mem_space == WS_SPACE_LOCAL && st->access_size)) f->mem_insts++;
        else if (st->mem_space == WS_SPACE_SHARED && st->access_size) f->shared_insts++;
    }
    if (!global) return;
    uint64_t last = ~0ull;
    for (unsigned i = 0; i < WS_WARP_SIZE; i++) {
        if (!(st->active >> i & 1)) continue;
        uint64_t line = st->addr[i] >> 7;
        if (line == last) continue;
        last = line;
        if (lr->profile) lines_add(&lr->lines, line);
        if (lr->warm && lr->gpu) ws_gpu_warm(lr->gpu, sm, line << 7, st->is_store && !st->is_atomic);
    }
}

ws_status ws_longrun_run_functional(ws_longrun *lr, const ws_launch_desc *l, ws_exec_counts *c,
                                    ws_fault *fault) {
    bool watch = lr->profile || (lr->warm && lr->gpu);
    if (!watch) return ws_exec_grid(l, c, fault);
    ws_exec_observer obs = {observe_step, NULL, lr};
    ws_status s = ws_exec_grid_observed(l, 0, &obs, c, fault);
    if (lr->profile && s == WS_OK) {
        lr->cur.warp_insts = c->warp_insts;
        lr->cur.thread_insts = c->thread_insts_exec;
        lr->cur.lines = lr->lines.n;
        profile_write(lr, lr->cur_index);
    }
    return s;
}

void ws_longrun_end(ws_longrun *lr, ws_lr_mode mode, const ws_exec_counts *c, uint64_t cycles,
                    uint64_t detailed_cycles, uint64_t functional_insn, double sigma,
                    ws_kernel_stats *ks) {
    bool detailed = mode == WS_LR_DETAILED && lr->gpu;
    lr->vals.detailed = detailed;
    lr->vals.detailed_cycle = detailed ? detailed_cycles : 0;
    lr->vals.ff_insn = detailed ? functional_insn : c->thread_insts_exec;
    if (detailed) {
        /* one standard error of a projection within the kernel: the tolerance
           its waves' IPC met, over the projected part */
        double w = (double)(cycles - detailed_cycles) * lr->cfg.sample_ipc_tol;
        lr->within_cycles += (double)cycles;
        lr->within_detailed += (double)detailed_cycles;
        uint32_t k = 0;
        while (k < lr->nwk && lr->wk[k].kernel != lr->cur_kernel) k++;
        if (k == lr->nwk && lr->nwk == lr->capwk) {
            uint32_t nc = lr->capwk ? 2 * lr->capwk : 16;
            void *n = realloc(lr->wk, nc * sizeof *lr->wk);
            if (n) {
                lr->wk = n;
                lr->capwk = nc;
            }
        }
        if (k < lr->capwk) {
            if (k == lr->nwk) {
                lr->wk[k].kernel = lr->cur_kernel;
                lr->wk[k].sigma = 0;
                lr->nwk++;
            }
            lr->wk[k].sigma += sqrt(w * w + sigma * sigma);
        } else {
            lr->wk_lost = true; /* out of memory: that launch's error is left out (said) */
        }
        if (lr->sl && lr->cur_index >= lr->nsl) {
            lr->beyond_cycles += (double)cycles;
            lr->beyond_var += w * w + sigma * sigma;
        }
        if (lr->sl && lr->cur_index < lr->nsl) lr->sl[lr->cur_index].wsigma = sqrt(w * w + sigma * sigma);
    }
    if (lr->sl && lr->cur_index < lr->nsl) {
        sample_launch *s = &lr->sl[lr->cur_index];
        s->seen = 1;
        s->insts = (double)c->thread_insts_exec;
        if (detailed) s->cycles = (double)cycles;
    }
    if (ks) ws_kstats_add_decls(ks, g_lr_stats, lr->sl ? 4 : 3, &lr->vals);
}

ws_status ws_longrun_dtoh(ws_longrun *lr, void *dst, uint64_t src, size_t n, bool *answered,
                          char *err, size_t errlen) {
    *answered = false;
    if (lr->resume_path && !lr->restored && lr->file) {
        if (lr->ck_dtoh_next >= lr->ck_ndtoh) {
            snprintf(err, errlen, "checkpoint %s is of another program: it reads device memory more "
                     "often before the boundary than the checkpointed program did", lr->resume_path);
            return refuse(lr);
        }
        uint64_t a, len;
        memcpy(&a, lr->ck_dtoh_pos, 8);
        memcpy(&len, lr->ck_dtoh_pos + 8, 8);
        if (a != src || len != n) {
            snprintf(err, errlen, "checkpoint %s is of another program: its device-to-host copy %llu "
                     "reads %llu bytes at 0x%llx, this program %zu bytes at 0x%llx", lr->resume_path,
                     (unsigned long long)lr->ck_dtoh_next + 1, (unsigned long long)len,
                     (unsigned long long)a, n, (unsigned long long)src);
            return refuse(lr);
        }
        memcpy(dst, lr->ck_dtoh_pos + 16, n);
        lr->ck_dtoh_pos += 16 + n;
        lr->ck_dtoh_next++;
        *answered = true;
    }
    /* a later checkpoint replays these reads too, answered ones included */
    if (lr->save_path && !lr->saved) {
        if (lr->nlog == lr->caplog) {
            size_t nc = lr->caplog ? 2 * lr->caplog : 64;
            dtoh_rec *nl = realloc(lr->log, nc * sizeof *nl);
            if (!nl) {
                snprintf(err, errlen, "out of host memory (checkpoint log)");
                return WS_ERR_OUT_OF_MEMORY;
            }
            lr->log = nl;
            lr->caplog = nc;
        }
        uint8_t *copy = malloc(n ? n : 1);
        if (!copy) {
            snprintf(err, errlen, "out of host memory (checkpoint log)");
            return WS_ERR_OUT_OF_MEMORY;
        }
        if (*answered) {
            memcpy(copy, dst, n);
        } else if (ws_gmem_read(lr->dev.gmem, src, copy, n) != WS_OK) {
            free(copy);
            return WS_OK; /* the copy itself fails and says why */
        }
        lr->log[lr->nlog++] = (dtoh_rec){src, n, copy};
    }
    return WS_OK;
}

/* ---- the end of a sampled run ---------------------------------------------------- */
static int finish_within(ws_longrun *lr, FILE *out) {
    /* launches of one kernel add linearly, kernels in quadrature */
    double var = 0;
    for (uint32_t k = 0; k < lr->nwk; k++) var += lr->wk[k].sigma * lr->wk[k].sigma;
    if (lr->wk_lost) fprintf(out, "warpsim: out of host memory: some launches' projection "
                             "errors are missing from the estimate\n");
    double t = lr->within_cycles, bound = t > 0 ? 2 * sqrt(var) / t : 0;
    fprintf(out, "warpsim: sampled simulation within kernels: projected total cycles %.0f (%.0f "
            "detailed + %.0f projected), error estimate +-%.2f%% (95%%)\n", t, lr->within_detailed,
            t - lr->within_detailed, 100 * bound);
    return 0;
}

int ws_longrun_finish(ws_longrun *lr, FILE *out, const char *dir, char *err, size_t errlen) {
    if (lr && !lr->sl && lr->cfg.sample_ipc_tol > 0) return finish_within(lr, out);
    if (!lr || !lr->sl) return 0;
    uint32_t ng = lr->ngroups, seen = 0, detailed = 0;
    double total = 0, det = 0, proj = 0, var = 0;
    double *rc = malloc((lr->nsl + 1) * sizeof *rc), *ri = malloc((lr->nsl + 1) * sizeof *ri),
           *oi = malloc((lr->nsl + 1) * sizeof *oi), *rs = malloc((lr->nsl + 1) * sizeof *rs);
    ws_lr_projection *gp = calloc(ng + 1, sizeof *gp);
    if (!rc || !ri || !oi || !rs || !gp) {
        free(rc);
        free(ri);
        free(oi);
        free(rs);
        free(gp);
        snprintf(err, errlen, "out of host memory");
        return -1;
    }
    uint32_t unsampled_groups = 0;
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t nr = 0, no = 0;
        for (uint32_t i = 0; i < lr->nsl; i++) {
            const sample_launch *s = &lr->sl[i];
            if (s->group != g || !s->seen) continue;
            if (s->rep) {
                rc[nr] = s->cycles;
                rs[nr] = s->wsigma;
                ri[nr++] = s->insts;
            } else {
                oi[no++] = s->insts;
            }
        }
        if (!nr && no) unsampled_groups++; /* its detailed launches never came */
        ws_lr_project(rc, ri, nr, oi, no, &gp[g]);
        seen += nr + no;
        detailed += nr;
        total += gp[g].cycles;
        proj += gp[g].projected;
        /* the detailed launches' own projections within the kernel (when
           they stopped early), spread to the launches projected from them */
        double ws = ws_lr_within_sigma(rs, ri, nr, oi, no);
        var += gp[g].sigma * gp[g].sigma + ws * ws;
    }
    /* launches past the profile's: detailed, counted as they ran */
    total += lr->beyond_cycles;
    var += lr->beyond_var;
    det = total - proj;
    double bound = total > 0 ? 2 * sqrt(var) / total : 0; /* about 95% */
    /* the detailed launches' cycles projected within them (stopped early) */
    double inner = lr->within_cycles - lr->within_detailed;
    char split[96] = "";
    if (lr->cfg.sample_ipc_tol > 0)
        snprintf(split, sizeof split, " of which %.0f projected within kernels", inner);
    fprintf(out, "warpsim: sampled simulation: %u launches in %u groups, %u simulated in detail "
            "(%.1f%%); projected total cycles %.0f (%.0f detailed%s + %.0f projected), error "
            "estimate +-%.2f%% (95%%)%s\n", seen, ng, detailed, seen ? 100.0 * detailed / seen : 0.0,
            total, det, split, proj, 100 * bound,
            unsampled_groups ? "; some groups had no detailed launch and are not counted" : "");
    int rcode = 0;
    if (dir) {
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        if (m) {
            fprintf(m, "{\"launches\": %u, \"groups\": %u, \"detailed_launches\": %u, "
                    "\"launches_not_in_profile\": %llu, \"projected_total_cycles\": %.0f, "
                    "\"detailed_cycles\": %.0f, \"projected_within_kernels\": %.0f, "
                    "\"projected_cycles\": %.0f, \"error_estimate\": %.6f, \"group_detail\": [",
                    seen, ng, detailed, (unsigned long long)lr->launches_beyond, total, det, inner,
                    proj, bound);
            for (uint32_t g = 0; g < ng; g++) {
                const char *k = "";
                uint32_t members = 0, reps = 0;
                for (uint32_t i = 0; i < lr->nsl; i++)
                    if (lr->sl[i].group == g) {
                        k = lr->sl[i].f.kernel;
                        members++;
                        reps += lr->sl[i].rep;
                    }
                fprintf(m, "%s{\"group\": %u, \"kernel\": \"%s\", \"launches\": %u, \"detailed\": %u, "
                        "\"cycles\": %.0f, \"projected\": %.0f, \"sigma\": %.1f}", g ? ", " : "",
                        g + 1, k, members, reps, gp[g].cycles, gp[g].projected, gp[g].sigma);
            }
            fputs("]}\n", m);
            fclose(m);
        }
        if (!text) {
            snprintf(err, errlen, "cannot write sampling.json: out of memory");
            rcode = -1;
        } else if (ws_write_file_atomic(dir, "sampling.json", text, err, errlen)) {
            rcode = -1;
        }
        free(text);
    }
    free(rc);
    free(ri);
    free(oi);
    free(rs);
    free(gp);
    return rcode;
}
