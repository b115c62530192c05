/* memcheck: accesses outside every allocation, counted per site (function,
 * pc, nearest allocation) so that a stencil's edge reads make one report
 * line and one summary line each, not one per thread. Only the slow path of
 * global accesses (exec_mem.c) calls in here; the report text is built
 * there, where the kernel, CTA and thread are known. */
#include <stdlib.h>

#include "exec/exec_internal.h"

typedef struct mc_site {
    uint32_t func, pc, alloc;
    uint64_t count;
    char desc[WS_MEMCHECK_DESC];
} mc_site;

struct ws_memcheck {
    int mode;
    FILE *out;
    mc_site *sites;        /* this kernel's, in the order first seen */
    uint32_t nsites, cap_sites;
    uint32_t *slot;        /* open addressing: site index + 1, 0 = empty */
    uint32_t nslots;       /* a power of two, at least twice nsites */
    uint64_t bad;          /* this kernel's bad accesses */
    uint64_t total_bad, kernels, bad_kernels;
};

ws_memcheck *ws_memcheck_create(int mode, FILE *out) {
    ws_memcheck *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->mode = mode;
    m->out = out;
    return m;
}

void ws_memcheck_destroy(ws_memcheck *m) {
    if (!m) return;
    free(m->sites);
    free(m->slot);
    free(m);
}

int ws_memcheck_mode(const ws_memcheck *m) { return m ? m->mode : 0; }
FILE *ws_memcheck_out(const ws_memcheck *m) { return m->out; }

static uint32_t site_hash(uint32_t func, uint32_t pc, uint32_t alloc) {
    uint64_t k = ((uint64_t)func << 32 | pc) * 0x9E3779B97F4A7C15ull ^ (uint64_t)alloc * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(k >> 32);
}

static bool grow_slots(ws_memcheck *m) {
    uint32_t n = m->nslots ? 2 * m->nslots : 64;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s) return false;
    for (uint32_t i = 0; i < m->nsites; i++) {
        const mc_site *t = &m->sites[i];
        uint32_t h = site_hash(t->func, t->pc, t->alloc) & (n - 1);
        while (s[h]) h = (h + 1) & (n - 1);
        s[h] = i + 1;
    }
    free(m->slot);
    m->slot = s;
    m->nslots = n;
    return true;
}

char *ws_memcheck_count(ws_memcheck *m, uint32_t func, uint32_t pc, uint32_t alloc) {
    m->bad++;
    if (2 * (m->nsites + 1) > m->nslots && !grow_slots(m)) return NULL;
    uint32_t h = site_hash(func, pc, alloc) & (m->nslots - 1);
    for (; m->slot[h]; h = (h + 1) & (m->nslots - 1)) {
        mc_site *t = &m->sites[m->slot[h] - 1];
        if (t->func == func && t->pc == pc && t->alloc == alloc) {
            t->count++;
            return NULL;
        }
    }
    if (m->nsites == m->cap_sites) {
        uint32_t nc = m->cap_sites ? 2 * m->cap_sites : 16;
        mc_site *p = realloc(m->sites, nc * sizeof *p);
        if (!p) return NULL; /* counted, not listed */
        m->sites = p;
        m->cap_sites = nc;
    }
    mc_site *t = &m->sites[m->nsites];
    *t = (mc_site){func, pc, alloc, 1, ""};
    m->slot[h] = ++m->nsites;
    return t->desc;
}

/* Sites listed per kernel; the rest are only counted. */
#define MC_LIST_MAX 32

uint64_t ws_memcheck_end_kernel(ws_memcheck *m, const char *kernel) {
    if (!m) return 0;
    uint64_t bad = m->bad;
    m->kernels++;
    if (bad) {
        m->bad_kernels++;
        m->total_bad += bad;
        for (uint32_t i = 0; i < m->nsites && i < MC_LIST_MAX; i++)
            fprintf(m->out, "memcheck:   %llu x %s\n", (unsigned long long)m->sites[i].count,
                    m->sites[i].desc);
        if (m->nsites > MC_LIST_MAX)
            fprintf(m->out, "memcheck:   ... and %u more sites\n", m->nsites - MC_LIST_MAX);
        fprintf(m->out, "memcheck: %llu bad access%s in kernel %s (%u site%s)\n",
                (unsigned long long)bad, bad == 1 ? "" : "es", kernel, m->nsites,
                m->nsites == 1 ? "" : "s");
    }
    m->bad = 0;
    m->nsites = 0;
    if (m->slot) memset(m->slot, 0, m->nslots * sizeof *m->slot);
    return bad;
}

void ws_memcheck_summary(const ws_memcheck *m) {
    if (!m) return;
    fprintf(m->out, "memcheck: %llu bad access%s in %llu of %llu kernel launch%s\n",
            (unsigned long long)m->total_bad, m->total_bad == 1 ? "" : "es",
            (unsigned long long)m->bad_kernels, (unsigned long long)m->kernels,
            m->kernels == 1 ? "" : "es");
}
