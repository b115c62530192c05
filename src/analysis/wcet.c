/* The WCET timing model (see wcet.h). */
#include "analysis/wcet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/llc.h"
#include "exec/exec.h"
#include "timing/mem/addrdec.h"
#include "timing/mem/mreq.h"

/* ---- Eqs. 5.4-5.6 ---------------------------------------------------------------- */
uint64_t ws_wcet_li_arith(const ws_wcet_unit *u, uint32_t n_warps, uint32_t l_init) {
    return n_warps <= u->c_pipeline ? 0 : l_init;
}

uint64_t ws_wcet_le_arith(const ws_wcet_unit *u, uint32_t l_init, uint32_t l_exec) {
    return (uint64_t)u->length + l_init + l_exec;
}

uint64_t ws_wcet_li_mem(const ws_wcet_unit *u, uint32_t n_warps, uint32_t ncoal, uint32_t ncomp) {
    return n_warps <= u->c_pipeline ? 0 : (uint64_t)ncoal + (uint64_t)ncoal * ncomp;
}

uint64_t ws_wcet_le_mem(const ws_wcet_unit *u, uint64_t l_base, uint32_t ncoal, uint32_t ncomp) {
    return l_base + (uint64_t)u->length * ((uint64_t)ncoal + (uint64_t)ncoal * ncomp);
}

/* ---- Eqs. 5.1-5.3: the pure round-robin walk ------------------------------------------ */
uint64_t ws_wcet_rr(const ws_wcet_warp *w, unsigned n, uint64_t start) {
    if (!n) return start;
    size_t *next = calloc(n, sizeof *next);
    uint64_t *ready = malloc(n * sizeof *ready);    /* T + LI + LE of its last segment */
    uint32_t *epoch = calloc(n, sizeof *epoch);     /* barriers arrived at */
    /* completion of the segments ending at its last two barriers: a warp is
       at most one barrier ahead of one still to pass the previous */
    uint64_t *arr = calloc(2 * (size_t)n, sizeof *arr);
    if (!next || !ready || !epoch || !arr) {
        free(next);
        free(ready);
        free(epoch);
        free(arr);
        return UINT64_MAX;
    }
    for (unsigned i = 0; i < n; i++) ready[i] = start;
    uint64_t slot = start, end = start; /* T + LI of the previous segment issued */
    for (;;) {
        bool any = false, left = false;
        for (unsigned i = 0; i < n; i++) {
            if (next[i] >= w[i].nseg) continue;
            left = true;
            uint64_t t = ready[i] > slot ? ready[i] : slot;
            if (next[i] > 0 && w[i].seg[next[i] - 1].bar) {
                /* after a barrier: every warp of the block must have completed
                   its segment before it (or finished); otherwise wait (skipped) */
                bool wait = false;
                uint64_t rel = 0;
                for (unsigned o = 0; o < n; o++) {
                    if (w[o].group != w[i].group) continue;
                    uint64_t a;
                    if (epoch[o] < epoch[i]) {
                        if (next[o] < w[o].nseg) wait = true;
                        a = ready[o]; /* finished before that barrier */
                    } else {
                        a = arr[2 * o + (epoch[o] - epoch[i]) % 2]; /* [0]: last, [1]: before */
                    }
                    if (a > rel) rel = a;
                }
                if (wait) continue;
                if (rel > t) t = rel;
            }
            const ws_wcet_seg *s = &w[i].seg[next[i]++];
            slot = t + s->li;                          /* Eq. 5.2, first term of the next */
            ready[i] = t + s->li + s->le;              /* Eq. 5.2, second term */
            if (s->bar) {
                epoch[i]++;
                arr[2 * i + 1] = arr[2 * i];
                arr[2 * i] = ready[i];
            }
            if (ready[i] > end) end = ready[i];        /* Eq. 5.3 */
            any = true;
        }
        if (!left) break;
        if (!any) { /* only barrier waits left: a kernel whose barrier never completes */
            end = UINT64_MAX;
            break;
        }
    }
    free(next);
    free(ready);
    free(epoch);
    free(arr);
    return end;
}

/* ---- parameters ------------------------------------------------------------------------ */
void ws_wcet_ncoal(const uint32_t *n, size_t count, uint32_t *max, uint32_t *avg_ceil) {
    uint64_t sum = 0;
    *max = 0;
    for (size_t i = 0; i < count; i++) {
        sum += n[i];
        if (n[i] > *max) *max = n[i];
    }
    *avg_ceil = count ? (uint32_t)((sum + count - 1) / count) : 0;
}

double ws_wcet_d2center(const double *v, unsigned p) {
    double mean = 0, d = 0;
    for (unsigned i = 0; i < p; i++) mean += v[i];
    mean /= p;
    for (unsigned i = 0; i < p && mean > 0; i++) d += (v[i] / mean - 1) * (v[i] / mean - 1);
    return sqrt(d);
}

double ws_wcet_d2vector(const double *a, const double *b, unsigned p) {
    double ma = 0, mb = 0, d = 0;
    for (unsigned i = 0; i < p; i++) {
        ma += a[i];
        mb += b[i];
    }
    ma /= p;
    mb /= p;
    for (unsigned i = 0; i < p; i++) {
        double x = ma > 0 ? a[i] / ma : 0, y = mb > 0 ? b[i] / mb : 0;
        d += (x - y) * (x - y);
    }
    return sqrt(d);
}

int ws_wcet_model_from_config(ws_wcet_model *m, const ws_config *cfg, uint64_t l_base,
                              unsigned max_cta, char *err, size_t errlen) {
    memset(m, 0, sizeof *m);
    int64_t v[8];
#define LIST(field, opt, dst)                                                                  \
    do {                                                                                       \
        int n = ws_config_int_list(cfg->field, v, 8);                                          \
        if (n < 5) {                                                                           \
            snprintf(err, errlen, "-%s: want 5 values", opt);                                  \
            return -1;                                                                         \
        }                                                                                      \
        memcpy(m->dst, v, sizeof m->dst);                                                      \
    } while (0)
    LIST(lat_int, "ptx_opcode_latency_int", lat_int);
    LIST(ii_int, "ptx_opcode_initiation_int", ii_int);
    LIST(lat_fp, "ptx_opcode_latency_fp", lat_fp);
    LIST(ii_fp, "ptx_opcode_initiation_fp", ii_fp);
    LIST(lat_dp, "ptx_opcode_latency_dp", lat_dp);
    LIST(ii_dp, "ptx_opcode_initiation_dp", ii_dp);
#undef LIST
    m->lat_sfu = (uint32_t)cfg->lat_sfu;
    m->ii_sfu = (uint32_t)cfg->ii_sfu;
    /* C_pipeline: the collector units of the class (instructions that can wait
       for operands without stalling issue); Length_pipeline: the stages
       between issue and the unit (decode, ID_OC, collector, OC_EX) and, for
       memory, the L1 latency queue before the interconnect */
    m->sp = (ws_wcet_unit){(uint32_t)cfg->oc_units_sp, 4};
    m->sfu = (ws_wcet_unit){(uint32_t)cfg->oc_units_sfu, 4};
    m->mem = (ws_wcet_unit){(uint32_t)cfg->oc_units_mem, 4 + (uint32_t)cfg->l1_latency};
    m->smem_lat = (uint32_t)cfg->shmem_latency;
    m->l_base = l_base;
    m->n_sms = (unsigned)(cfg->n_clusters * cfg->n_cores_per_cluster);
    m->max_cta = max_cta ? max_cta : 1;
    m->t_competing = 13;
    m->t_d2center = 0.5;
    return 0;
}

/* ---- one instruction: its unit, initiation and execution latency ------------------------- */
typedef enum { C_ARITH_SP, C_ARITH_SFU, C_GMEM, C_SMEM, C_OTHER } iclass;

static iclass classify(const ws_wcet_model *m, const ws_inst *in, uint32_t *init, uint32_t *exec) {
    int idx = -1;
    *init = 1;
    *exec = 1;
    switch ((ws_opcode)in->op) {
    case WS_OP_LD: case WS_OP_LDU: case WS_OP_ST: case WS_OP_ATOM: case WS_OP_RED:
    case WS_OP_TEX: case WS_OP_TLD4: case WS_OP_SULD: case WS_OP_SUST: case WS_OP_SURED:
    case WS_OP_LDMATRIX: case WS_OP_STMATRIX:
        if (in->space == WS_SPACE_SHARED) {
            *exec = m->smem_lat + 32; /* the worst bank conflict: 32 ways */
            return C_SMEM;
        }
        return C_GMEM; /* global, local, const, param, generic: may go to memory */
    case WS_OP_MEMBAR: case WS_OP_FENCE: case WS_OP_PREFETCH:
        return C_OTHER;
    case WS_OP_ADD: case WS_OP_ADDC: case WS_OP_SUB: case WS_OP_SUBC: idx = 0; break;
    case WS_OP_MIN: case WS_OP_MAX: idx = 1; break;
    case WS_OP_MUL: idx = 2; break;
    case WS_OP_MAD: case WS_OP_MADC: case WS_OP_FMA: case WS_OP_MUL24: case WS_OP_MAD24: idx = 3;
        break;
    case WS_OP_DIV: case WS_OP_REM:
        if (in->type == WS_T_F32) *exec = (uint32_t)m->lat_fp[4], *init = (uint32_t)m->ii_fp[4];
        else if (in->type == WS_T_F64) *exec = (uint32_t)m->lat_dp[4], *init = (uint32_t)m->ii_dp[4];
        else *exec = (uint32_t)m->lat_int[4], *init = (uint32_t)m->ii_int[4];
        return C_ARITH_SFU;
    case WS_OP_SQRT: case WS_OP_SIN: case WS_OP_COS: case WS_OP_EX2: case WS_OP_LG2:
    case WS_OP_RSQRT: case WS_OP_RCP: case WS_OP_TANH:
        *exec = m->lat_sfu;
        *init = m->ii_sfu;
        return C_ARITH_SFU;
    default: break;
    }
    if (idx >= 0) {
        const int64_t *L = in->type == WS_T_F32 ? m->lat_fp : in->type == WS_T_F64 ? m->lat_dp
                                                                                    : m->lat_int;
        const int64_t *I = in->type == WS_T_F32 ? m->ii_fp : in->type == WS_T_F64 ? m->ii_dp
                                                                                   : m->ii_int;
        *exec = (uint32_t)L[idx];
        *init = (uint32_t)I[idx];
        if (in->type == WS_T_F64) return C_ARITH_SFU; /* one DP unit: the slow pipe */
    }
    return C_ARITH_SP;
}

/* Registers an instruction reads and writes, as ids (predicates after values). */
static unsigned regs_of(const ws_func *f, const ws_inst *in, uint32_t *rd, unsigned *nrd,
                        uint32_t *wr) {
    unsigned nw = 0;
    *nrd = 0;
    if (in->guard != WS_NOREG) rd[(*nrd)++] = f->nregs + in->guard;
    for (unsigned i = 0; i < in->nsrc && *nrd < 12; i++) {
        const ws_operand *o = &in->src[i];
        if (o->kind == WS_OPND_REG || (o->kind == WS_OPND_MEM && o->reg != WS_NOREG))
            rd[(*nrd)++] = o->reg;
        else if (o->kind == WS_OPND_PRED) rd[(*nrd)++] = f->nregs + o->reg;
        else if (o->kind == WS_OPND_VEC)
            for (unsigned e = 0; e < o->vecn && *nrd < 12; e++)
                if (o->vreg[e] != WS_NOREG && !ws_vec_is_imm(o, e)) rd[(*nrd)++] = o->vreg[e];
    }
    for (unsigned d = 0; d < in->ndst; d++) {
        const ws_operand *o = &in->dst[d];
        if (o->kind == WS_OPND_REG) wr[nw++] = o->reg;
        else if (o->kind == WS_OPND_PRED) wr[nw++] = f->nregs + o->reg;
        else if (o->kind == WS_OPND_MEM && o->reg != WS_NOREG && *nrd < 12) rd[(*nrd)++] = o->reg;
        else if (o->kind == WS_OPND_VEC)
            for (unsigned e = 0; e < o->vecn && nw < 6; e++)
                if (o->vreg[e] != WS_NOREG) wr[nw++] = o->vreg[e];
    }
    return nw;
}

/* Cut one warp's trace into segments (greedy, see wcet.h). */
static size_t segments(const ws_ka_result *r, const ws_module *mod, const ws_wcet_model *m,
                       const ws_ka_warp *kw, uint32_t n_warps, uint32_t ncoal, uint32_t ncomp,
                       const uint8_t *acc_hit, ws_wcet_seg *out, uint8_t *written) {
    const ws_func *f = &mod->funcs[r->func];
    size_t nseg = 0, nwritten_ids = f->nregs + f->npreds + 1;
    uint64_t li = 0, le = 0, size = 0;
    uint32_t prev_pc = UINT32_MAX;
    size_t j = kw->first; /* its next global access (cache-aware latencies) */
    memset(written, 0, nwritten_ids);
    for (size_t t = 0; t < kw->tcount; t++) {
        uint32_t pc = r->trace[kw->tfirst + t];
        const ws_inst *in = &f->insts[pc];
        uint32_t rd[12], wr[6];
        unsigned nrd, nw = regs_of(f, in, rd, &nrd, wr);
        bool dep = prev_pc != UINT32_MAX && pc != prev_pc + 1; /* a new basic block */
        for (unsigned i = 0; i < nrd && !dep; i++) dep = written[rd[i]];
        for (unsigned i = 0; i < nw && !dep; i++) dep = written[wr[i]];
        if (dep && size) {
            out[nseg++] = (ws_wcet_seg){size + li, le, false};
            size = li = le = 0;
            memset(written, 0, nwritten_ids);
        }
        uint32_t init, exec;
        iclass c = classify(m, in, &init, &exec);
        uint64_t ili, ile;
        switch (c) {
        case C_GMEM:
            if (m->perfect_memory) { /* one request per cycle, each done a cycle later */
                ili = ws_wcet_li_mem(&m->mem, n_warps, ncoal, 0);
                ile = (uint64_t)m->mem.length + ncoal + 1;
            } else {
                uint64_t lb = m->l_base;
                if (m->llc) { /* the access this execution made, if it is the next one */
                    bool mine = j < kw->first + kw->count && r->acc[j].pc == pc;
                    lb = mine && acc_hit[j] ? m->llc->l_hit : m->llc->l_miss;
                    j += mine;
                }
                ili = ws_wcet_li_mem(&m->mem, n_warps, ncoal, ncomp);
                ile = ws_wcet_le_mem(&m->mem, lb, ncoal, ncomp);
            }
            break;
        case C_SMEM:
            ili = ws_wcet_li_arith(&m->mem, n_warps, 32);
            ile = ws_wcet_le_arith(&m->mem, 32, exec);
            break;
        case C_ARITH_SFU:
            ili = ws_wcet_li_arith(&m->sfu, n_warps, init);
            ile = ws_wcet_le_arith(&m->sfu, init, exec);
            break;
        default:
            ili = ws_wcet_li_arith(&m->sp, n_warps, init);
            ile = ws_wcet_le_arith(&m->sp, init, exec);
            break;
        }
        size++;
        li += ili;
        if (ile > le) le = ile;
        for (unsigned i = 0; i < nw; i++) written[wr[i]] = 1;
        bool bar = in->op == WS_OP_BAR && in->sub != WS_BAR_WARP_SYNC;
        if (in->op == WS_OP_BRA || in->op == WS_OP_EXIT || in->op == WS_OP_RET || bar ||
            in->op == WS_OP_MEMBAR) {
            out[nseg++] = (ws_wcet_seg){size + li, le, bar};
            size = li = le = 0;
            memset(written, 0, nwritten_ids);
        }
        prev_pc = pc;
    }
    if (size) out[nseg++] = (ws_wcet_seg){size + li, le, false};
    return nseg;
}

/* Alg. 6: the average over (instruction, SM) of the competing-SM estimate,
   rounded up. */
static uint32_t competing_avg(const ws_ka_result *r, const ws_wcet_model *m, const ws_config *cfg,
                              unsigned active, char *err, size_t errlen) {
    ws_addrdec ad;
    if (ws_addrdec_init(&ad, cfg, err, errlen)) return UINT32_MAX;
    unsigned np = ad.n_chan * ad.n_sub_per_chan, ns = m->n_sms;
    if (!np || active < 2) return 0;
    double *vec = calloc((size_t)r->nldst * ns * np + 1, sizeof *vec);
    if (!vec) return UINT32_MAX;
    for (size_t w = 0; w < r->nwarps; w++) {
        const ws_ka_warp *kw = &r->warps[w];
        unsigned s = (unsigned)(kw->block % ns);
        for (size_t a = kw->first; a < kw->first + kw->count; a++) {
            const ws_ka_access *x = &r->acc[a];
            size_t ii = 0;
            while (ii < r->nldst && r->ldst_pcs[ii] != x->pc) ii++;
            for (uint32_t b = 0; b < x->nblk && ii < r->nldst; b++) {
                ws_mreq q;
                memset(&q, 0, sizeof q);
                q.addr = r->addr[x->at + b];
                ws_addrdec_decode(&ad, &q);
                vec[(ii * ns + s) * np + q.subpart % np] += 1;
            }
        }
    }
    double max_d = (double)(active - 1) * sqrt(2.0), sum = 0;
    size_t cnt = 0;
    for (size_t i = 0; i < r->nldst; i++)
        for (unsigned s = 0; s < ns; s++) {
            const double *v = vec + (i * ns + s) * np;
            double tot = 0;
            for (unsigned p = 0; p < np; p++) tot += v[p];
            if (tot == 0) continue;
            double c = 0;
            for (unsigned o = 0; o < ns; o++) {
                if (o == s) continue;
                const double *u = vec + (i * ns + o) * np;
                double ut = 0;
                for (unsigned p = 0; p < np; p++) ut += u[p];
                if (ut == 0) continue;
                double t = (max_d - ws_wcet_d2vector(v, u, np)) / max_d;
                c += t > 0 ? t : 0;
            }
            /* as written in the text: kept when few competitors or an even spread */
            sum += c <= m->t_competing || ws_wcet_d2center(v, np) <= m->t_d2center ? c : 0;
            cnt++;
        }
    free(vec);
    double avg = cnt ? sum / (double)cnt : 0;
    uint32_t up = (uint32_t)ceil(avg - 1e-9);
    return up > active - 1 ? active - 1 : up;
}

static bool in_sorted(const uint64_t *v, size_t n, uint64_t x) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] == x) return true;
        if (v[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

/* Cache-aware: acc_hit[a] = 1 for a global access all of whose blocks are
   sure LLC hits from its warp's SM (static mapping: block b on SM b mod S). */
static void llc_hit_accesses(const ws_ka_result *r, const ws_wcet_llc *llc, unsigned n_sms,
                             uint8_t *acc_hit, ws_wcet_result *out) {
    for (size_t w = 0; w < r->nwarps; w++) {
        const ws_ka_warp *kw = &r->warps[w];
        unsigned sm = (unsigned)(kw->block % n_sms);
        for (size_t a = kw->first; a < kw->first + kw->count; a++) {
            const ws_ka_access *x = &r->acc[a];
            bool hit = x->nblk > 0;
            for (uint32_t b = 0; b < x->nblk && hit; b++)
                hit = in_sorted(llc->hit_lines, llc->nhit,
                                WS_LLC_HIT_KEY(r->addr[x->at + b] & ~(uint64_t)127, sm));
            acc_hit[a] = hit;
            out->hit_acc += hit;
        }
    }
}

int ws_wcet_kernel(const ws_ka_result *r, const ws_module *mod, const ws_wcet_model *m,
                   const ws_config *cfg, ws_wcet_result *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (!r->ok) {
        snprintf(err, errlen, "%s", r->why);
        return -1;
    }
    const ws_func *f = &mod->funcs[r->func];
    uint64_t nblocks = (uint64_t)r->grid[0] * r->grid[1] * r->grid[2];
    unsigned active = (unsigned)(nblocks < m->n_sms ? nblocks : m->n_sms);
    out->ncomp_max = active ? active - 1 : 0;
    uint32_t *nc = malloc((r->nacc + 1) * sizeof *nc);
    if (!nc) goto oom;
    for (size_t i = 0; i < r->nacc; i++) nc[i] = r->acc[i].nblk;
    ws_wcet_ncoal(nc, r->nacc, &out->ncoal_max, &out->ncoal_avg);
    free(nc);
    if (!out->ncoal_max) out->ncoal_max = out->ncoal_avg = 1; /* memory instructions of other spaces */
    out->ncomp_avg = competing_avg(r, m, cfg, active, err, errlen);
    if (out->ncomp_avg == UINT32_MAX) return -1;
    size_t maxtr = 0;
    for (size_t w = 0; w < r->nwarps; w++)
        if (r->warps[w].tcount > maxtr) maxtr = r->warps[w].tcount;
    size_t wpb = r->nwarps / (nblocks ? nblocks : 1);
    unsigned mc = m->max_cta;
    ws_wcet_seg *segs = malloc((maxtr + 1) * (size_t)mc * (wpb ? wpb : 1) * sizeof *segs);
    ws_wcet_warp *ww = malloc((size_t)mc * (wpb ? wpb : 1) * sizeof *ww);
    uint8_t *written = malloc(f->nregs + f->npreds + 1);
    uint8_t *acc_hit = calloc(r->nacc + 1, 1);
    if (!segs || !ww || !written || !acc_hit) {
        free(segs);
        free(ww);
        free(written);
        free(acc_hit);
        goto oom;
    }
    if (m->llc) llc_hit_accesses(r, m->llc, m->n_sms, acc_hit, out);
    for (int cm = 0; cm < 2; cm++)
        for (int pm = 0; pm < 2; pm++) {
            uint32_t ncoal = cm ? out->ncoal_max : out->ncoal_avg;
            uint32_t ncomp = pm ? out->ncomp_max : out->ncomp_avg;
            uint64_t worst = 0;
            for (unsigned s = 0; s < m->n_sms && s < nblocks; s++) {
                uint64_t t = 0;
                /* this SM's blocks s, s+S, ... in waves of max_cta */
                for (uint64_t b0 = s; b0 < nblocks; b0 += (uint64_t)m->n_sms * mc) {
                    unsigned n = 0;
                    size_t used = 0;
                    uint32_t nw = 0;
                    for (unsigned k = 0; k < mc; k++) {
                        uint64_t b = b0 + (uint64_t)k * m->n_sms;
                        if (b < nblocks) nw += (uint32_t)wpb;
                    }
                    for (unsigned k = 0; k < mc; k++) {
                        uint64_t b = b0 + (uint64_t)k * m->n_sms;
                        if (b >= nblocks) break;
                        for (size_t w = 0; w < wpb; w++) {
                            const ws_ka_warp *kw = &r->warps[b * wpb + w];
                            ww[n].seg = segs + used;
                            ww[n].nseg = segments(r, mod, m, kw, nw, ncoal, ncomp, acc_hit,
                                                  segs + used, written);
                            ww[n].group = k;
                            used += ww[n].nseg;
                            n++;
                        }
                    }
                    t = ws_wcet_rr(ww, n, t);
                    if (t == UINT64_MAX) break;
                }
                if (t > worst) worst = t;
            }
            if (m->llc && worst != UINT64_MAX) worst += m->llc->held;
            out->bound[cm][pm] = worst;
        }
    free(segs);
    free(ww);
    free(written);
    free(acc_hit);
    return 0;
oom:
    snprintf(err, errlen, "out of host memory");
    return -1;
}
