/* The GPU's run-wide inputs and outputs for the time-predictability and
 * profiling studies (Huangfu's dissertation; docs/bypass.md, reorder.md,
 * wcet.md): the bypass list read at creation, and what is written after
 * every kernel (the bypass profile, the L1D access traces, the analyzer's
 * verdict with its L1D estimate and WCET bounds). Kept out of gpu.c's run
 * loop; each returns 0, or -1 with the fault filled (err for the open). */
#include "timing/gpu_hooks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/kanalyze.h"
#include "analysis/wcet.h"
#include "timing/mem/cache.h"

/* Profile-based L1D bypassing: check the options and read the list. */
int ws_l1bp_open(const ws_config *c, uint32_t n_sms, ws_l1blist **out, char *err,
                 size_t errlen) {
    *out = NULL;
    if (strcmp(c->l1d_bypass_unit, "bytes") && strcmp(c->l1d_bypass_unit, "sectors")) {
        snprintf(err, errlen, "option -l1d_bypass_unit: '%s' (allowed: bytes, sectors)",
                 c->l1d_bypass_unit);
        return -1;
    }
    if (c->l1d_bypass_profile && *c->l1d_bypass_profile) {
        /* an unwritable path is refused now, not after the first kernel */
        char tmp[4200];
        snprintf(tmp, sizeof tmp, "%s.tmp", c->l1d_bypass_profile);
        FILE *f = fopen(tmp, "w");
        if (!f) {
            snprintf(err, errlen, "option -l1d_bypass_profile: cannot write %s: %s", tmp,
                     strerror(errno));
            return -1;
        }
        fclose(f);
        unlink(tmp);
    }
    if (!c->l1d_bypass_list || !*c->l1d_bypass_list) return 0;
    ws_cache_cfg cc;
    char e[400];
    if (ws_cache_cfg_parse(c->cache_dl1, &cc, e, sizeof e)) return 0; /* the SM reports it */
    if (cc.line_size != 128) {
        snprintf(err, errlen, "option -l1d_bypass_list: the L1D's lines are %u B; lists are of "
                 "128 B lines", cc.line_size);
        return -1;
    }
    if (!(*out = ws_l1blist_load(c->l1d_bypass_list, n_sms, 128, e, sizeof e))) {
        snprintf(err, errlen, "option -l1d_bypass_list: %s", e);
        return -1;
    }
    return 0;
}

/* -l1d_bypass_profile: the lists so far, rewritten after every kernel so the
   file is complete whenever the program ends. */
int ws_l1bp_write_sms(const ws_config *c, ws_sm *const *sms, uint32_t n, ws_fault *fault) {
    if (!c->l1d_bypass_profile || !*c->l1d_bypass_profile) return 0;
    ws_l1prof **p = malloc(n * sizeof *p);
    char e[400];
    int rc = -1;
    if (!p) {
        snprintf(e, sizeof e, "out of host memory");
    } else {
        for (uint32_t i = 0; i < n; i++) p[i] = ws_sm_l1prof(sms[i]);
        rc = ws_l1prof_write(c->l1d_bypass_profile, p, n, 128, c->l1d_bypass_unit, e,
                             sizeof e);
    }
    free(p);
    if (rc) {
        fault->code = WS_ERR_IO;
        snprintf(fault->msg, sizeof fault->msg, "-l1d_bypass_profile: %s", e);
    }
    return rc;
}

/* -warpsim_analyze FILE: the static analyzer on this launch (as the kernel
   ran: its parameters, shape, SM count and CTAs per SM) and its L1D
   miss-rate estimate, appended to FILE. */
int ws_analyze_write(const ws_config *c, ws_sm *const *sms, uint32_t n, uint64_t kernel,
                     const ws_launch_desc *l, const uint64_t *hit_lines, size_t nhit,
                     bool have_hits, uint64_t held, ws_fault *fault) {
    const char *path = c->analyze_out;
    const ws_func *kf = &l->img->mod->funcs[l->func];
    if (!path || !*path) return 0;
    ws_ka_launch kl = {l->img->mod, l->func, {l->grid[0], l->grid[1], l->grid[2]},
                       {l->block[0], l->block[1], l->block[2]}, l->params, 0};
    ws_ka_result r;
    int oom = ws_ka_analyze(&kl, &r);
    FILE *f = fopen(path, kernel > 1 ? "a" : "w");
    int bad = !f || oom;
    if (f) {
        unsigned mc = ws_sm_max_ctas(sms[0]);
        fprintf(f, "kernel %llu %s grid %u,%u,%u block %u,%u,%u sms %u max_cta %u\n",
                (unsigned long long)kernel, kf->name, l->grid[0], l->grid[1], l->grid[2],
                l->block[0], l->block[1], l->block[2], n, mc);
        if (!r.ok) {
            fprintf(f, "analyzable 0 %s\n", r.why);
        } else {
            uint64_t acc = 0, miss = 0;
            char e[200];
            fprintf(f, "analyzable 1 accesses %zu ncoal_max %u ncoal_avg %.4f\n", r.nacc,
                    r.ncoal_max, r.ncoal_avg);
            if (ws_ka_estimate_l1(&r, n, mc, c->cache_dl1, &acc, &miss, e, sizeof e))
                fprintf(f, "l1d_estimate none %s\n", e);
            else
                fprintf(f, "l1d_estimate accesses %llu misses %llu\n", (unsigned long long)acc,
                        (unsigned long long)miss);
            /* WCET with the kernel's longest measured memory latency as L_base
               (profiled, as the shared-LLC chapter does), or 1 with perfect memory */
            uint64_t lmax = 0;
            for (uint32_t i = 0; i < n; i++)
                if (ws_sm_max_mf_latency(sms[i]) > lmax) lmax = ws_sm_max_mf_latency(sms[i]);
            ws_wcet_model wm;
            ws_wcet_result wr;
            if (ws_wcet_model_from_config(&wm, c, c->perfect_memory ? 1 : lmax, mc, e,
                                          sizeof e) == 0) {
                wm.perfect_memory = c->perfect_memory;
                if (ws_wcet_kernel(&r, l->img->mod, &wm, c, &wr, e, sizeof e) == 0)
                    fprintf(f, "wcet l_base %llu ncoal %u %u ncomp %u %u avg_avg %llu avg_max %llu "
                            "max_avg %llu max_max %llu\n", (unsigned long long)wm.l_base,
                            wr.ncoal_avg, wr.ncoal_max, wr.ncomp_avg, wr.ncomp_max,
                            (unsigned long long)wr.bound[0][0], (unsigned long long)wr.bound[0][1],
                            (unsigned long long)wr.bound[1][0], (unsigned long long)wr.bound[1][1]);
                else
                    fprintf(f, "wcet none %s\n", e);
                if (have_hits && !c->perfect_memory) {
                    /* cache-aware (Sec. 6.5): the profiled longest LLC-hit and LLC-miss
                       latencies; a miss is never charged less than a hit */
                    ws_wcet_llc llc = {hit_lines, nhit, 0, 0, held};
                    for (uint32_t i = 0; i < n; i++) {
                        uint64_t h = ws_sm_max_mf_latency_l2(sms[i], false);
                        uint64_t m = ws_sm_max_mf_latency_l2(sms[i], true);
                        if (h > llc.l_hit) llc.l_hit = h;
                        if (m > llc.l_miss) llc.l_miss = m;
                    }
                    if (llc.l_hit > llc.l_miss) llc.l_miss = llc.l_hit;
                    if (!llc.l_hit) llc.l_hit = llc.l_miss;
                    wm.llc = &llc;
                    if (ws_wcet_kernel(&r, l->img->mod, &wm, c, &wr, e, sizeof e) == 0)
                        fprintf(f, "wcet_llc method %s l_hit %llu l_miss %llu held %llu "
                                "hit_accesses %llu of %zu avg_avg %llu avg_max %llu max_avg %llu "
                                "max_max %llu\n",
                                c->llc_access_interval ? "access_interval" : "simple",
                                (unsigned long long)llc.l_hit, (unsigned long long)llc.l_miss,
                                (unsigned long long)held,
                                (unsigned long long)wr.hit_acc, r.nacc,
                                (unsigned long long)wr.bound[0][0],
                                (unsigned long long)wr.bound[0][1],
                                (unsigned long long)wr.bound[1][0],
                                (unsigned long long)wr.bound[1][1]);
                    else
                        fprintf(f, "wcet_llc none %s\n", e);
                }
            }
        }
        if (fflush(f) || ferror(f)) bad = 1;
        if (fclose(f)) bad = 1;
    }
    ws_ka_free(&r);
    if (bad) {
        fault->code = WS_ERR_IO;
        snprintf(fault->msg, sizeof fault->msg, "-warpsim_analyze: cannot write %s", path);
    }
    return bad;
}

/* -l1d_access_trace: append this kernel's per-SM L1D access sequences. The
   first kernel of the GPU starts the file afresh. */
int ws_l1trace_write_sms(const ws_config *c, ws_sm *const *sms, uint32_t n, uint64_t kernel,
                         ws_fault *fault) {
    const char *path = c->l1d_access_trace;
    if (!path || !*path) return 0;
    FILE *f = fopen(path, kernel > 1 ? "a" : "w");
    int bad = !f;
    for (uint32_t i = 0; i < n && f; i++) {
        const uint64_t *a;
        size_t n = ws_sm_l1trace(sms[i], &a, true);
        for (size_t k = 0; k < n; k++)
            fprintf(f, "%llu %u %c 0x%llx\n", (unsigned long long)kernel, i,
                    a[k] & 1 ? 'W' : 'R', (unsigned long long)(a[k] & ~1ull));
    }
    if (f && (fflush(f) || ferror(f))) bad = 1;
    if (f && fclose(f)) bad = 1;
    if (bad) {
        fault->code = WS_ERR_IO;
        snprintf(fault->msg, sizeof fault->msg, "-l1d_access_trace: cannot write %s: %s", path,
                 strerror(errno));
    }
    return bad;
}

