/* The bandwidth- and latency-aware placement model (BLPP chapter, Eqs. 1-6)
 * and the profile file that carries its counters from a profiling run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/page/page.h"

/* Eq. 1 is t = max(p*D/BG, (1-p)*D/BC); both terms are equal (Eq. 2) at
   p = BG / (BG + BC). */
double ws_blpp_p_bw(double bw_gpu, double bw_cpu) {
    double s = bw_gpu + bw_cpu;
    return s > 0 ? bw_gpu / s : 1.0;
}

double ws_blpp_lat_gpu(const ws_blpp_lat *l, double m_l1d, double m_l2) {
    return l->l1d + m_l1d * (l->l2 + m_l2 * l->mem);
}

double ws_blpp_r_lat(const ws_blpp_lat *l, double bw_gpu, double bw_cpu, double m_l1d,
                     double m_l2) {
    double p = ws_blpp_p_bw(bw_gpu, bw_cpu), lg = ws_blpp_lat_gpu(l, m_l1d, m_l2);
    /* CPU pages are not cached (selective caching): L_C is the node's own latency */
    return lg > 0 ? (p * lg + (1 - p) * l->cpu) / lg : 1.0;
}

double ws_blpp_p_opt(const ws_blpp_lat *l, double bw_gpu, double bw_cpu,
                     const ws_page_counters *c, double theta_l, double theta_b) {
    double r = ws_blpp_r_lat(l, bw_gpu, bw_cpu, c->l1d_miss_rate, c->l2_miss_rate);
    return r < theta_l && c->bm_gbps > theta_b ? ws_blpp_p_bw(bw_gpu, bw_cpu) : 1.0;
}

void ws_blpp_cfg_read(ws_blpp_cfg *c, ws_params *p, const ws_page_env *env) {
    c->lat.l1d = ws_param_double(p, "l1d");
    c->lat.l2 = ws_param_double(p, "l2");
    c->lat.mem = ws_param_double(p, "mem");
    c->lat.cpu = ws_param_double(p, "cpu");
    c->theta_l = ws_param_double(p, "theta_l");
    c->theta_b = ws_param_double(p, "theta_b");
    c->bw_gpu = env->bw_gpu;
    c->bw_cpu = env->bw_cpu;
    c->measured = ws_param_enum(p, "lat") == 1;
}

double ws_blpp_decide(const ws_blpp_cfg *m, const ws_page_counters *c) {
    ws_blpp_lat l = m->lat;
    if (m->measured) { /* what the run measured replaces the set; the rest stays */
        if (c->lat_l2 > 0) l.l2 = c->lat_l2;
        if (c->lat_mem > 0) l.mem = c->lat_mem;
        if (c->lat_cpu > 0) l.cpu = c->lat_cpu;
    }
    return ws_blpp_p_opt(&l, m->bw_gpu, m->bw_cpu, c, m->theta_l, m->theta_b);
}

int ws_page_profile_read(const char *path, ws_page_counters *c, char *err, size_t errlen) {
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "profile %s: %s", path, strerror(errno));
        return -1;
    }
    static const char *const keys[6] = {"l1d_miss_rate", "l2_miss_rate", "bm_gbps",
                                        "lat_l2", "lat_mem", "lat_cpu"};
    double *dst[6] = {&c->l1d_miss_rate, &c->l2_miss_rate, &c->bm_gbps,
                      &c->lat_l2, &c->lat_mem, &c->lat_cpu};
    c->lat_l2 = c->lat_mem = c->lat_cpu = 0;
    int seen = 0, line = 0;
    char buf[256];
    while (fgets(buf, sizeof buf, f)) {
        line++;
        char key[64], extra[2];
        double v;
        char *h = strchr(buf, '#');
        if (h) *h = 0;
        int n = sscanf(buf, "%63s %lf %1s", key, &v, extra);
        if (n <= 0) continue; /* blank or comment */
        int k = 0;
        while (k < 6 && strcmp(key, keys[k])) k++;
        if (n != 2 || k == 6 || !(v >= 0)) {
            snprintf(err, errlen, "profile %s:%d: expected 'KEY VALUE' with KEY one of "
                     "l1d_miss_rate, l2_miss_rate, bm_gbps, lat_l2, lat_mem, lat_cpu and "
                     "VALUE >= 0", path, line);
            fclose(f);
            return -1;
        }
        *dst[k] = v;
        seen |= 1 << k;
    }
    fclose(f);
    if ((seen & 7) != 7) {
        snprintf(err, errlen, "profile %s: needs l1d_miss_rate, l2_miss_rate and bm_gbps", path);
        return -1;
    }
    return 0;
}

int ws_page_profile_write(const char *path, const ws_page_counters *c, char *err, size_t errlen) {
    /* written whole to a temporary name, then renamed: a reader never sees half a file */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "profile %s: %s", tmp, strerror(errno));
        return -1;
    }
    fprintf(f, "# warpsim page-placement profile (-hm_profile_out): the counters of the "
               "BLPP model\nl1d_miss_rate %.6f\nl2_miss_rate %.6f\nbm_gbps %.4f\n",
            c->l1d_miss_rate, c->l2_miss_rate, c->bm_gbps);
    /* measured latencies, where the run had them (-hm_enable) */
    if (c->lat_l2 > 0) fprintf(f, "lat_l2 %.2f\n", c->lat_l2);
    if (c->lat_mem > 0) fprintf(f, "lat_mem %.2f\n", c->lat_mem);
    if (c->lat_cpu > 0) fprintf(f, "lat_cpu %.2f\n", c->lat_cpu);
    if (fclose(f) || rename(tmp, path)) {
        snprintf(err, errlen, "profile %s: %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
