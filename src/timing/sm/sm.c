/* SM top level: creation, kernels and CTA slots (occupancy), the per-cycle
 * order of the pipeline stages, the request/reply ports and statistics.
 * The stages live in fetch.c, issue.c, opcoll.c, units.c and ldst.c. */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"
#include "timing/sm/sm_internal.h"
#include "util/bits.h"

#define INST_CHUNK 256

/* ---- pools (grown in chunks; steady state allocates nothing) ---------- */
static void *chunk_alloc(ws_sm *sm, size_t bytes) {
    void *p = malloc(bytes); /* (not cleared: carve clears or links what it hands out) */
    void **nc = realloc(sm->chunks, (sm->nchunks + 1) * sizeof *nc);
    if (!p || !nc) {
        fprintf(stderr, "warpsim: out of host memory in the SM model\n");
        abort();
    }
    sm->chunks = nc;
    sm->chunks[sm->nchunks++] = p;
    return p;
}

/* The next records of a pool's chunk (*n of them, at most SM_CARVE; a new chunk of
   INST_CHUNK when it is used up), in the chunk's order. The free lists are filled a few
   records at a time, so a run touches (and clears) only about as many records as it
   has in flight at once, not the whole chunk (a short program's 15-80 SMs each made
   two chunks of 256, clearing them all: about 2% of its instructions). */
enum { SM_CARVE = 16 };
static void *carve(ws_sm *sm, void **next, unsigned *left, size_t size, unsigned *n) {
    if (!*left) {
        *next = chunk_alloc(sm, INST_CHUNK * size);
        *left = INST_CHUNK;
    }
    *n = *left < SM_CARVE ? *left : SM_CARVE;
    void *p = *next;
    *next = (char *)p + *n * size;
    *left -= *n;
    return p;
}

sm_inst *sm_inst_refill(ws_sm *sm) {
    unsigned n;
    sm_inst *c = carve(sm, &sm->inst_carve, &sm->inst_left, sizeof *c, &n);
    /* cleared as the whole chunk was: a record is handed out as it was freed, and
       some fields are written only for the instructions that use them */
    memset(c, 0, n * sizeof *c);
    for (unsigned i = n; i-- > 0;) {
        c[i].next = sm->free_inst;
        sm->free_inst = &c[i];
    }
    return sm->free_inst;
}

sm_pend *sm_pend_alloc(ws_sm *sm) {
    if (!sm->free_pend) {
        unsigned n; /* (not cleared here: every record is cleared below) */
        sm_pend *c = carve(sm, &sm->pend_carve, &sm->pend_left, sizeof *c, &n);
        for (unsigned i = n; i-- > 0;) {
            c[i].next = sm->free_pend;
            sm->free_pend = &c[i];
        }
    }
    sm_pend *p = sm->free_pend;
    sm->free_pend = p->next;
    memset(p, 0, sizeof *p);
    return p;
}

void sm_pend_free(ws_sm *sm, sm_pend *p) {
    p->next = sm->free_pend;
    sm->free_pend = p;
}

/* ---- requests towards memory ------------------------------------------- */
bool sm_outq_full(const ws_sm *sm) { return sm->outq.len >= SM_OUTQ_CAP; }

void sm_outq_push(ws_sm *sm, ws_mreq *r) {
    ws_addrdec_decode(sm->env.addrdec, r);
    ws_mreq_fifo_push(&sm->outq, r);
    sm->after_kept |= WS_SM_HAS_OUT;
    sm->st.mem_requests_out++;
    sm->st.mem_out[r->access]++;
    if (r->access == WS_MA_GLOBAL_R && !r->is_atomic)
        sm->st.gld_bytes += 32u * (unsigned)ws_popc32(r->sectors ? r->sectors : 0xF);
    sm->progressed = true;
}

/* Sectors of the 128-byte line that [addr, addr+size) touches. */
uint8_t sm_sectors_of(uint64_t addr, uint32_t size) {
    if (size >= 128) return 0xF;
    unsigned a = (unsigned)(addr & 127), b = a + (size ? size : 1) - 1;
    if (b > 127) b = 127;
    uint8_t m = 0;
    for (unsigned s = a / 32; s <= b / 32; s++) m |= (uint8_t)(1u << s);
    return m;
}

ws_mreq *sm_new_req(ws_sm *sm, uint8_t access, uint64_t addr, uint32_t size, uint16_t warp) {
    ws_mreq *r = ws_mreq_alloc(sm->env.pool);
    r->access = access;
    r->addr = addr;
    r->data_size = size;
    r->sm = (uint16_t)sm->env.sm_id;
    r->warp = warp;
    r->sectors = sm_sectors_of(addr, size);
    r->t_created = sm->now;
    return r;
}

/* ---- faults, completion -------------------------------------------------- */
static void keep_after_flags(ws_sm *sm);

void sm_set_fault(ws_sm *sm, const ws_fault *f) {
    if (sm->has_fault) return;
    sm->has_fault = true;
    sm->fault = *f;
    keep_after_flags(sm);
}

static void cta_finish(ws_sm *sm, unsigned k) {
    sm_cta *c = &sm->ctas[k];
    if (sm->ro) sm_ro_cta_done(sm, k);
    ws_cluster_leave(c->cta); /* its threads no longer count at the cluster barrier */
    c->spare = c->cta; /* the slot's next CTA reuses it (ws_cta_recycle) */
    c->cta = NULL;
    c->used = false;
    sm->n_active_ctas--;
    keep_after_flags(sm);
    sm->n_active_threads -= c->nthreads;
    sm->st.ctas_done++;
    sm->progressed = true;
}

/* A warp is finished when all its threads exited, nothing of it is in the
 * pipeline and its stores were acknowledged (GPGPU-Sim's hardware_done). */
void sm_warp_try_finish(ws_sm *sm, unsigned wi) {
    sm_warp *w = &sm->warps[wi];
    if (!w->valid || !w->func_done || w->n_inflight || w->stores_out || w->n_atomic ||
        w->n_reserved)
        return;
    w->valid = false;
    sm->gen++;
    sm_view_dirty(sm, wi);
    sm_ibuf_flush(w);
    sm_fetch_mark(sm, wi);
    sm_cta *c = &sm->ctas[w->cta];
    sm->n_live_warps--;
    if (--c->warps_left == 0) cta_finish(sm, w->cta);
}

/* ---- creation ------------------------------------------------------------- */
static int parse_pipeline(ws_sm *sm, char *err, size_t errlen) {
    long threads = 1536, wsz = 32;
    if (sscanf(sm->cfg->shader_core_pipeline, "%ld:%ld", &threads, &wsz) != 2 || wsz != 32 ||
        threads < 32) {
        snprintf(err, errlen, "-gpgpu_shader_core_pipeline %s: expected <threads>:32",
                 sm->cfg->shader_core_pipeline);
        return -1;
    }
    sm->max_threads = (uint32_t)threads;
    sm->max_warps = (uint32_t)(threads / 32);
    sm->max_ctas = (uint32_t)sm->cfg->shader_cta;
    return 0;
}

ws_sm *ws_sm_create(const ws_sm_env *env, char *err, size_t errlen) {
    ws_sm *sm = calloc(1, sizeof *sm);
    if (!sm) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    sm->env = *env;
    sm->cfg = env->cfg;
    sm->n_sms = (uint32_t)(sm->cfg->n_clusters * sm->cfg->n_cores_per_cluster);
    if (parse_pipeline(sm, err, errlen)) goto fail;
    sm->warps = calloc(sm->max_warps, sizeof *sm->warps);
    sm->ctas = calloc(sm->max_ctas, sizeof *sm->ctas);
    sm->wlog = ws_wlog_create(&sm->st.mem_writes);
    if (!sm->warps || !sm->ctas || !sm->wlog) {
        snprintf(err, errlen, "out of host memory");
        goto fail;
    }
    if (sm_fetch_init(sm, err, errlen) || sm_oc_init(sm, err, errlen) ||
        sm_carveout_init(sm, err, errlen) ||
        sm_units_init(sm, err, errlen) || sm_ldst_init(sm, err, errlen) ||
        sm_tex_init(sm, err, errlen) || sm_ro_init(sm, err, errlen) ||
        sm_l1trace_init(sm, err, errlen) || sm_replay_init(sm, err, errlen) ||
        sm_issue_init(sm, err, errlen))
        goto fail;
    return sm;
fail:
    ws_sm_destroy(sm);
    return NULL;
}

static void free_kernel_tables(ws_sm *sm) {
    if (sm->dec) {
        for (uint32_t f = 0; f < sm->ndec; f++) free(sm->dec[f]);
        free(sm->dec);
    }
    sm->dec = NULL;
    sm->ndec = 0;
    free(sm->func_base);
    sm->func_base = NULL;
    free(sm->sb_store);
    sm->sb_store = NULL;
}

void ws_sm_destroy(ws_sm *sm) {
    if (!sm) return;
    if (sm->ctas)
        for (uint32_t k = 0; k < sm->max_ctas; k++) {
            ws_cta_destroy(sm->ctas[k].cta);
            ws_cta_destroy(sm->ctas[k].spare);
        }
    /* requests still queued belong to the pool; give them back */
    ws_mreq *r;
    while ((r = ws_mreq_fifo_pop(&sm->outq))) ws_mreq_free(sm->env.pool, r);
    while ((r = ws_mreq_fifo_pop(&sm->resp))) ws_mreq_free(sm->env.pool, r);
    free_kernel_tables(sm);
    ws_wlog_destroy(sm->wlog);
    if (sm->sched)
        for (unsigned s = 0; s < sm->n_sched; s++) ws_sched_destroy(&sm->sched[s]);
    if (sm->throttle)
        for (unsigned s = 0; s < sm->n_sched; s++) ws_throttle_destroy(&sm->throttle[s]);
    free(sm->throttle);
    sm_smc_destroy(sm);
    ws_throttle_sm_destroy(&sm->throttle_sm);
    free(sm->sched);
    free(sm->ss);
    free(sm->sview);
    free(sm->sorder);
    free(sm->pview);
    free(sm->pwait);
    free(sm->vsched);
    free(sm->vbit);
    free(sm->wblk);
    if (sm->l1i) ws_cache_destroy(sm->l1i);
    if (sm->l1d) ws_cache_destroy(sm->l1d);
    ws_l1prof_destroy(sm->l1prof);
    sm_ro_destroy(sm);
    sm_l1trace_destroy(sm);
    free(sm->txbyp);
    if (sm->l1c) ws_cache_destroy(sm->l1c);
    sm_tex_destroy(sm);
    sm_hp_destroy(sm);
    free(sm->cu);
    if (sm->bankq)
        for (unsigned b = 0; b < sm->nbanks; b++) free(sm->bankq[b]);
    free(sm->bankq);
    if (sm->fu)
        for (unsigned i = 0; i < sm->nfu; i++) {
            free(sm->fu[i].fl);
            free(sm->fu[i].done_at);
        }
    free(sm->fu);
    free(sm->txq);
    free(sm->smem_pipe);
    free(sm->l1q);
    free(sm->l1q_cnt);
    free(sm->l1q_base);
    sm_mrpb_destroy(sm->mrpb);
    for (unsigned i = 0; i < sm->nchunks; i++) free(sm->chunks[i]);
    free(sm->chunks);
    free(sm->warps);
    free(sm->ctas);
    free(sm);
}

/* ---- kernels and occupancy --------------------------------------------------- */
/* Register-bank number of a register: the number in its name, as GPGPU-Sim
 * derives "arch_reg" from PTX names (%r5, %f5 and %rd5 share bank 5). */
static uint16_t name_number(const char *name, uint32_t slot) {
    if (!name) return (uint16_t)slot;
    for (const char *p = name; *p; p++)
        if (isdigit((unsigned char)*p)) return (uint16_t)strtoul(p, NULL, 10);
    return (uint16_t)slot;
}

/* CTAs per SM and what limits them: every resource whose bound is the
 * minimum (GPGPU-Sim names the ties too), or "grid" when the kernel has too
 * few CTAs to give each SM that many. */
static uint32_t compute_max_cta(const ws_sm *sm, const char **why) {
    uint32_t padded = sm->padded_threads;
    uint32_t by[4] = {sm->max_threads / padded, UINT32_MAX, UINT32_MAX, sm->max_ctas};
    if (sm->res.smem_per_cta) by[1] = (uint32_t)(sm->cfg->shmem_size / sm->res.smem_per_cta);
    if (sm->res.regs_per_thread) {
        /* per-thread count rounded up to a multiple of 4, as GPGPU-Sim does */
        uint32_t regs = (sm->res.regs_per_thread + 3) & ~3u;
        by[2] = (uint32_t)(sm->cfg->shader_registers / ((uint64_t)padded * regs));
    }
    uint32_t r = by[0];
    for (int i = 1; i < 4; i++)
        if (by[i] < r) r = by[i];
    static const char *const names[16] = {
        "", "threads", "smem", "threads smem", "regs", "threads regs", "smem regs",
        "threads smem regs", "cta_limit", "threads cta_limit", "smem cta_limit",
        "threads smem cta_limit", "regs cta_limit", "threads regs cta_limit",
        "smem regs cta_limit", "threads smem regs cta_limit"};
    unsigned mask = 0;
    for (int i = 0; i < 4; i++) mask |= (by[i] == r) ? 1u << i : 0;
    *why = names[mask];
    /* few CTAs: spread them (GPGPU-Sim limits per-SM CTAs to what keeps all SMs busy) */
    uint64_t nblocks = (uint64_t)sm->launch.grid[0] * sm->launch.grid[1] * sm->launch.grid[2];
    uint32_t cs = ws_launch_cluster_size(&sm->launch); /* clusters spread whole */
    if (nblocks < (uint64_t)r * sm->n_sms) {
        uint64_t nclusters = nblocks / cs, spread = (nclusters + sm->n_sms - 1) / sm->n_sms * cs;
        if (spread <= r) {
            r = (uint32_t)spread;
            *why = "grid";
        }
    }
    return r;
}

const char *ws_sm_cta_limiter(const ws_sm *sm) { return sm->cta_limiter; }
uint64_t ws_sm_max_mf_latency(const ws_sm *sm) { return sm->mf_lat_max; }
uint64_t ws_sm_max_mf_latency_l2(const ws_sm *sm, bool missed) {
    return sm->mf_lat_max_l2[missed];
}

uint32_t ws_sm_max_ctas(const ws_sm *sm) { return sm->max_cta; }

/* The per-function tables (global instruction index, decoded instructions,
   scoreboard storage) depend only on the module and this SM's config: a launch
   from the image the tables were made for keeps them (many-kernel programs
   launch kernels of one module again and again). The image is told from one
   at a destroyed one's address by its stamp. */
static bool kernel_tables_kept(const ws_sm *sm, const ws_launch_desc *l) {
    return sm->dec && sm->dec_img == l->img && sm->dec_stamp == l->img->stamp &&
           sm->dec_mod == l->img->mod && sm->dec_gmem == l->gmem && sm->ndec == l->img->mod->nfuncs;
}

/* Per-function tables: global instruction index, decoded instructions, the
   warps' scoreboard storage. */
static void make_kernel_tables(ws_sm *sm, const ws_launch_desc *l) {
    const ws_module *m = sm->mod;
    sm->dec_img = l->img;
    sm->dec_stamp = l->img->stamp;
    sm->dec_mod = m;
    sm->dec_gmem = l->gmem;
    sm->func_base = calloc(m->nfuncs + 1, sizeof *sm->func_base);
    sm->dec = calloc(m->nfuncs, sizeof *sm->dec);
    sm->ndec = m->nfuncs;
    uint32_t maxregs = 1, maxpreds = 1;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        sm->func_base[f + 1] = sm->func_base[f] + m->funcs[f].ninsts;
        if (m->funcs[f].nregs > maxregs) maxregs = m->funcs[f].nregs;
        if (m->funcs[f].npreds > maxpreds) maxpreds = m->funcs[f].npreds;
    }
    sm->sb_preds_at = maxregs;
    sm->sb_words = (maxregs + maxpreds + 63) / 64;
    uint16_t *names = NULL;
    size_t cap = 0;
    for (uint32_t f = 0; f < m->nfuncs; f++) {
        const ws_func *fn = &m->funcs[f];
        size_t need = (size_t)fn->nregs + fn->npreds + 1;
        if (need > cap) {
            free(names);
            names = malloc(need * sizeof *names);
            cap = need;
        }
        for (uint32_t r = 0; r < fn->nregs; r++)
            names[r] = name_number(fn->reg_name ? fn->reg_name[r] : NULL, r);
        for (uint32_t p = 0; p < fn->npreds; p++)
            names[fn->nregs + p] = name_number(fn->pred_name ? fn->pred_name[p] : NULL, p);
        sm->dec[f] = calloc(fn->ninsts ? fn->ninsts : 1, sizeof *sm->dec[f]);
        for (uint32_t pc = 0; pc < fn->ninsts; pc++)
            sm_decode_inst(sm, &fn->insts[pc], names, fn->nregs, &sm->dec[f][pc]);
    }
    free(names);
    sm->sb_store = calloc((size_t)sm->max_warps * sm->sb_words * 2, sizeof *sm->sb_store);
    for (uint32_t w = 0; w < sm->max_warps; w++) {
        sm->warps[w].sb = sm->sb_store + (size_t)w * sm->sb_words * 2;
        sm->warps[w].sb_long = sm->warps[w].sb + sm->sb_words;
    }
}

void ws_sm_start_kernel(ws_sm *sm, const ws_launch_desc *l, const ws_kernel_res *res) {
    bool kept = kernel_tables_kept(sm, l);
    if (!kept) free_kernel_tables(sm);
    for (unsigned t = 0; sm->throttle && t < sm->n_sched; t++)
        sm->throttle[t].policy->kernel_start(sm->throttle[t].state);
    sm->launch = *l;
    sm->launch.wlog = sm->wlog;
    sm->res = *res;
    sm->have_kernel = true;
    sm->gen++;
    sm->sleep_until = 0;
    sm->mod = l->img->mod;
    uint32_t threads = res->threads_per_cta ? res->threads_per_cta
                                            : l->block[0] * l->block[1] * l->block[2];
    sm->res.threads_per_cta = threads;
    sm->warps_per_cta = (threads + 31) / 32;
    sm->padded_threads = sm->warps_per_cta * 32;
    sm->max_cta = compute_max_cta(sm, &sm->cta_limiter);
    keep_after_flags(sm);
    sm->mf_lat_max = sm->mf_lat_max_l2[0] = sm->mf_lat_max_l2[1] = 0;
    sm->local_threads = sm->padded_threads * (sm->max_cta ? sm->max_cta : 1) * sm->n_sms;
    if (sm->ro) sm_ro_kernel_start(sm);

    if (kept) /* as calloc left it: take_cta zeroes a warp's part anyway */
        memset(sm->sb_store, 0, (size_t)sm->max_warps * sm->sb_words * 2 * sizeof *sm->sb_store);
    else
        make_kernel_tables(sm, l);
    for (uint32_t w = 0; w < sm->max_warps; w++) {
        sm_fetch_mark(sm, w);
        sm_view_dirty(sm, w);
    }
    ws_cache_kernel_start(sm->l1d, sm->now); /* adi: back to its initial index bits */
    if (sm->smc) sm_smc_kernel_start(sm);
    sm_tex_kernel_start(sm);
    /* -gpgpu_flush_l1_cache empties the L1D only: GPGPU-Sim keeps instruction and
       constant lines across launches (measured: rodinia/gaussian's later launches miss
       neither cache there), and its timing caches hold tags, not values */
    if (sm->cfg->flush_l1_cache) ws_cache_invalidate(sm->l1d);
    sm_carveout_kernel_start(sm); /* -gpgpu_adaptive_cache_config: the L1D's share */
}

static inline bool can_take_cta(const ws_sm *sm) { /* (ws_sm_after_cycle: every cycle) */
    return sm->have_kernel && !sm->has_fault && sm->n_active_ctas < sm->max_cta;
}
bool ws_sm_can_take_cta(const ws_sm *sm) { return can_take_cta(sm); }

unsigned ws_sm_free_ctas(const ws_sm *sm) {
    return ws_sm_can_take_cta(sm) ? sm->max_cta - sm->n_active_ctas : 0;
}

static ws_cta *take_cta(ws_sm *sm, const uint32_t ctaid[3], uint64_t now);

void ws_sm_take_cta(ws_sm *sm, const uint32_t ctaid[3], uint64_t now) { take_cta(sm, ctaid, now); }

void ws_sm_take_cluster_cta(ws_sm *sm, const uint32_t ctaid[3], uint64_t now, ws_cluster *cl, uint32_t rank) {
    ws_cta *c = take_cta(sm, ctaid, now);
    if (c) ws_cluster_join(cl, c, rank);
}

static ws_cta *take_cta(ws_sm *sm, const uint32_t ctaid[3], uint64_t now) {
    sm->sleep_until = 0;
    unsigned k = 0;
    while (k < sm->max_ctas && sm->ctas[k].used) k++;
    if (k >= sm->max_ctas) return NULL; /* the dispatcher asked ws_sm_can_take_cta first */
    ws_cta *c = ws_cta_recycle(sm->ctas[k].spare, &sm->launch, ctaid, sm->env.sm_id);
    sm->ctas[k].spare = NULL;
    if (!c) {
        ws_fault f = {WS_ERR_OUT_OF_MEMORY, "out of host memory creating a CTA"};
        sm_set_fault(sm, &f);
        return NULL;
    }
    sm_cta *ct = &sm->ctas[k];
    ct->used = true;
    ct->cta = c;
    ct->nwarps = ws_cta_num_warps(c);
    ct->warps_left = ct->nwarps;
    ct->first_warp = k * sm->warps_per_cta;
    ct->state_seen = c->state_changes;
    ct->nthreads = sm->padded_threads;
    sm->n_active_ctas++;
    keep_after_flags(sm);
    sm->n_active_threads += ct->nthreads;
    if (sm->smc) sm_smc_cta_launched(sm); /* the CTA's shared memory leaves the cache */
    sm->n_live_warps += ct->nwarps;
    if (sm->ro) sm_ro_cta_start(sm, k, ctaid);
    for (uint32_t i = 0; i < ct->nwarps; i++) {
        uint32_t wi = ct->first_warp + i;
        if (wi >= sm->max_warps) break;
        sm_warp *w = &sm->warps[wi];
        uint64_t *sb = w->sb, *sbl = w->sb_long;
        memset(w, 0, sizeof *w);
        w->sb = sb;
        w->sb_long = sbl;
        memset(sb, 0, sm->sb_words * 2 * sizeof *sb);
        w->valid = true;
        w->cta = (uint8_t)k;
        w->wid = (uint16_t)i;
        w->age = sm->next_age++;
        w->fetch_func = sm->launch.func;
        w->fetch_pc = 0;
        w->ib_depth = (uint8_t)sm->cfg->warp_buffer;
        sm_fetch_mark(sm, wi);
        sm_view_dirty(sm, wi);
    }
    sm->gen++;
    sm->progressed = true;
    return c;
}

unsigned ws_sm_active_ctas(const ws_sm *sm) { return sm->n_active_ctas; }

void ws_sm_commit(ws_sm *sm) {
    if (sm->wlog->n) ws_wlog_commit(sm->wlog);
}
/* The flags of ws_sm_after_cycle (asked after every cycle) that change only with a
   fault, a kernel or a CTA coming or going: kept there; and HAS_OUT, kept where the out
   queue changes (sm_outq_push, ws_sm_out_pop). */
static void keep_after_flags(ws_sm *sm) {
    sm->after_kept = (uint8_t)((sm->has_fault ? WS_SM_FAULTED : 0u) |
                               (can_take_cta(sm) ? WS_SM_CTA_ROOM : 0u) |
                               (sm->outq.head ? WS_SM_HAS_OUT : 0u));
}
static inline unsigned after_flags(const ws_sm *sm) {
    return (sm->wlog->n ? WS_SM_LOGGED : 0u) | (sm->progressed ? WS_SM_PROGRESSED : 0u) |
           sm->after_kept;
}
unsigned ws_sm_after_cycle(const ws_sm *sm) { return after_flags(sm); }

static inline bool sm_busy(const ws_sm *sm) {
    return sm->n_active_ctas || sm->outq.len || sm->resp.len || sm->n_pend || sm_ldst_busy(sm) ||
           (sm->tex_live && sm_tex_busy(sm));
}
bool ws_sm_busy(const ws_sm *sm) { return sm_busy(sm); }

/* ---- sleeping ------------------------------------------------------------------- */
/* The operand collector while the LD/ST unit is stuck: no register read is
 * queued, every collector unit holds a memory instruction with its operands
 * read, waiting for a full OC_EX register (the LD/ST unit takes none), no
 * other OC_EX register holds anything (a function unit could take it), and
 * ID_OC's instructions find no free collector unit. Each cycle then only
 * rotates the bank priority (once per step) and counts a blocked cycle when
 * an ID_OC instruction waits (sm_oc_cycle); *blocked says whether it does.
 * The generic and sub-core collectors are left out. */
static bool oc_stuck(const ws_sm *sm, bool *blocked) {
    if (sm->oc_generic || sm->sub_core || sm->bq_total) return false;
    if (sm->oc_ex_set & ~(1u << SM_MEM)) return false;
    if (sm->oc_ex[SM_MEM].n && !sm->ld_disp) return false;
    /* every unit in use (cu_occ: per set, its units that hold an instruction) holds a
       memory instruction with its operands read, and OC_EX's memory register is full */
    if (sm->cu_used_all && sm_regset_free(&sm->oc_ex[SM_MEM])) return false;
    for (unsigned set = 0; set <= SM_NCLASS; set++)
        for (uint64_t m = sm->cu_occ[set]; m; m &= m - 1) {
            const sm_inst *in = sm->cu[sm->cu_base[set] + (unsigned)__builtin_ctzll(m)].in;
            if (in->nrd || in->cls != SM_MEM) return false;
        }
    *blocked = false;
    for (unsigned k = 0; k < SM_NCLASS; k++) {
        if (!sm->id_oc[k].n || !sm->in_ports[k]) continue;
        if (sm->cu_used[k] < sm->cu_n[k] || sm->cu_used[SM_NCLASS] < sm->cu_n[SM_NCLASS])
            return false; /* it would take a unit */
        /* opcoll.c's oc_blocked: a unit of set k or the general set waits for OC_EX */
        *blocked |= (sm->cu_occ[k] | sm->cu_occ[SM_NCLASS]) != 0;
    }
    return true;
}

/* When every warp waits (on the scoreboard, a barrier, a fill) and nothing
 * is in the pipeline but function-unit results due later, a cycle changes
 * nothing but counters: the active cycle, each scheduler's stall (its memo,
 * issue.c) and the rotating priorities. Until the next result is due, or a
 * reply, a CTA or ws_sm_wake comes, ws_sm_cycle counts just those. Every
 * unit that acts in a cycle must appear here. The LD/ST unit and the operand
 * collector may also be stuck behind an access the L1D refuses (sm_ldst_stuck,
 * oc_stuck): then those cycles also count what the two would, and the first
 * whose L1D has changed runs in full (sm->sleep_stuck). Or the L1 latency
 * queue only moves up (sm_ldst_moving: dispatch register and head slot empty,
 * collector idle): those cycles move it, until its first entry reaches the
 * head (sm->sleep_shift). Requests in the out queue keep no SM awake: the
 * interconnect takes them after every cycle, asleep or not (gpu.c), and
 * nothing that pushes there works while the SM sleeps. Returns the first
 * cycle that must run in full after `now`, or 0 when the next one must. */
static uint64_t quiet_until(ws_sm *sm) {
    sm->sleep_stuck = sm->stuck_blocked = sm->sleep_shift = sm->stuck_recheck = false;
    /* a register read queued in the collector: the next cycle reads it (the test below
       that refuses it too, asked first as the cheapest that fails most) */
    if (sm->bq_total) return 0;
    /* (then the other tests that fail most often, cheapest first: a fetched block to
       decode, a result held for writeback, a scheduler memo that no longer holds) */
    if (sm->fb_valid || sm->next_wb || sm->next_global) return 0;
    for (unsigned s = 0; s < sm->n_sched; s++)
        if (sm->ss[s].memo_gen != sm->gen) return 0;
    /* throttle policies act on their own clock (epochs, guards): never asleep under one */
    if (!sm->memo_ok || sm->throttling || !sm->n_active_ctas || sm->has_fault) return 0;
    if (sm->resp.len ||
        ws_cache_has_miss(sm->l1d) || ws_cache_has_miss(sm->l1c) || ws_cache_has_miss(sm->l1i) ||
        ws_cache_has_ready(sm->l1d) || ws_cache_has_ready(sm->l1c) || ws_cache_has_ready(sm->l1i) ||
        (sm->tex_live && sm_tex_wants_cycle(sm)))
        return 0;
    if (sm->smem_n) return 0;
    /* (cu_used_all: the sum of cu_used; idoc_set, oc_ex_set: the pipeline registers not
       empty) */
    unsigned oc_busy = sm->bq_total | sm->cu_used_all | sm->idoc_set | sm->oc_ex_set;
    uint64_t until = UINT64_MAX;
    unsigned moving;
    if (sm->mshr_idle && (sm->ld_disp || sm->l1q_n || oc_busy)) return 0;
    if (!oc_busy && (moving = sm_ldst_moving(sm))) {
        /* the L1 queue only moves up until its first entry reaches the head */
        sm->sleep_shift = true;
        until = sm->now + moving + 1;
    } else if (sm->ld_disp || sm->l1q_n || oc_busy) {
        bool blocked = false;
        /* (oc_stuck's first tests before the LD/ST unit's longer one: both must hold) */
        if (oc_busy && (sm->oc_generic || sm->sub_core || sm->bq_total ||
                        (sm->oc_ex_set & ~(1u << SM_MEM))))
            return 0;
        if (!sm_ldst_stuck(sm) || (oc_busy && !oc_stuck(sm, &blocked))) return 0;
        sm->sleep_stuck = true;
        sm->stuck_blocked = blocked;
    }
    if (sm->mrpb && sm->mrpb->n) return 0; /* it drains into l1q */
    if (sm->ro && sm_ro_busy(sm)) return 0; /* the reordering unit releases accesses */
    if (sm_fetch_pick(sm) >= 0) return 0;
    /* or the writeback of the first result in flight: wb_due is that cycle (the writeback
       recomputes it, a dispatch lowers it; units.c) */
    uint64_t due = sm->wb_due < until ? sm->wb_due : until;
    return due > sm->now + 1 ? due : 0;
}

void ws_sm_wake(ws_sm *sm) { sm->sleep_until = 0; }

/* ---- the cycle ------------------------------------------------------------------ */
/* Would a fetch-and-decode round do nothing? No fetched block to decode (sm_decode_cycle),
   sm_fetch_cycle's first test holds (sm_fetch_none_to_start) and no L1I miss to send: the
   round changes nothing, so neither does the next. */
static inline bool fetch_round_idle(const ws_sm *sm) {
    return !sm->fb_valid && sm_fetch_none_to_start(sm) && !ws_cache_has_miss(sm->l1i);
}

/* The cycle of an SM found busy (ws_sm_step, its one caller). Returns
   WS_SM_PURE when the next cycle will be a pure sleeping one (ws_sm_skip). */
static inline unsigned busy_cycle(ws_sm *sm, uint64_t now) {
    sm->now = now;
    if (sm->hp_cycle) sm_hp_cycle(sm);
    sm->progressed = false;
    if (now < sm->sleep_until && sm->sleep_stuck) {
        /* The L1D's refusal is known to hold unless a reply was taken asleep (stuck_recheck):
           quiet_until asked it for this sleep's first cycle, and only an access or a fill
           changes the L1D; neither happens asleep but for that reply (a CTA, a wake or a
           control epoch ends the sleep). With the credit delay line every cycle asks. */
        if (!sm->stuck_recheck && !sm->hp_cycle) sm_ldst_stuck_count(sm);
        else if (!sm_ldst_stuck_cycle(sm)) sm->sleep_until = 0; /* the L1D changed: this cycle
                                                                  runs in full */
        else sm->stuck_recheck = false;
    }
    if (now < sm->sleep_until) { /* what the full cycle would do (quiet_until) */
        if (sm->resp.len) { /* (ws_sm_in_push let it in; a fill changes the L1D) */
            sm_ldst_sleep_reply(sm);
            sm->stuck_recheck = true;
        }
        if (sm->sleep_shift) sm_ldst_moving_cycle(sm);
        sm->st.oc_blocked_cycles += sm->stuck_blocked;
        sm->st.cycles_active++;
        sm->st.warps_live_sum += sm->n_live_warps;
        sm->resbus[now % SM_RESBUS_RING] = 0;
        sm->arb_prio = (sm->arb_prio + sm->oc_steps) % sm->nbanks; /* as sm_oc_cycle idle */
        for (unsigned s = 0; s < sm->n_sched; s++) (*sm->ss[s].memo_stall)++;
        sm->sched_prio = (sm->sched_prio + 1) % sm->n_sched;
        /* (the reply, if any, was taken: resp.len is 0 again; a moving queue's cycle
           stores nothing: sm_ldst_moving_cycle) */
        return !sm->sleep_stuck && now + 1 < sm->sleep_until && !sm->hp_cycle && !sm->resp.len
                   ? WS_SM_PURE
                   : 0;
    }
    /* (still busy: ws_sm_step found it so, and neither the credit delay line nor a
       stuck unit's cycle changes what sm_busy reads) */
    if (sm->n_active_ctas) {
        sm->st.cycles_active++;
        sm->st.warps_live_sum += sm->n_live_warps;
    }
    if (sm->mshr_idle) sm_mshr_idle_cycle(sm); /* the state this cycle starts from */
    sm->resbus[now % SM_RESBUS_RING] = 0;
    /* reverse pipeline order, so each stage sees last cycle's state of the next */
    if (now >= sm->wb_due) sm_units_writeback(sm); /* (its own first test, without the call) */
    sm_units_cycle(sm); /* function units and the LD/ST unit */
    sm_oc_cycle(sm);
    if (!sm->has_fault) sm_issue_cycle(sm);
    /* GPGPU-Sim 4: N rounds (at least one: options.def); a round after one that left
       nothing to do changes nothing, nor do the ones after it (fetch_round_idle) */
    sm_decode_cycle(sm);
    sm_fetch_cycle(sm);
    for (int64_t f = 1; f < sm->cfg->inst_fetch_throughput && !fetch_round_idle(sm); f++) {
        sm_decode_cycle(sm);
        sm_fetch_cycle(sm);
    }
    /* (quiet_until: 0, or a sleep of at least one cycle after this, with resp.len 0) */
    if (!(sm->sleep_until = quiet_until(sm))) return 0;
    return !sm->sleep_stuck && !sm->hp_cycle ? WS_SM_PURE : 0;
}

unsigned ws_sm_step(ws_sm *sm, uint64_t now) {
    if (!sm_busy(sm)) return sm->after_kept & WS_SM_CTA_ROOM;
    unsigned pure = busy_cycle(sm, now);
    return WS_SM_TICKED | pure | after_flags(sm);
}

/* A pure sleeping cycle (busy_cycle's sleeping branch with no stuck LD/ST
   unit, no reply and no credit delay line; a moving L1 queue's cycle,
   sm_ldst_moving_cycle, stores nothing) only counts; n of them from `from`
   on, counted at once: each changes only what is added here, by the same
   amounts, and reads none of it. */
void ws_sm_skip(ws_sm *sm, uint64_t from, uint64_t n) {
    if (!n) return;
    sm->now = from + n - 1;
    sm->progressed = false;
    sm->st.cycles_active += n;
    sm->st.warps_live_sum += n * sm->n_live_warps;
    if (n >= SM_RESBUS_RING) {
        memset(sm->resbus, 0, sizeof sm->resbus);
    } else {
        for (uint64_t c = from; c < from + n; c++) sm->resbus[c % SM_RESBUS_RING] = 0;
    }
    sm->arb_prio = (unsigned)((sm->arb_prio + n % sm->nbanks * sm->oc_steps) % sm->nbanks);
    for (unsigned s = 0; s < sm->n_sched; s++) *sm->ss[s].memo_stall += n;
    sm->sched_prio = (unsigned)((sm->sched_prio + n % sm->n_sched) % sm->n_sched);
}

uint64_t ws_sm_sleep_until(const ws_sm *sm) { return sm->sleep_until; }

void ws_sm_cycle(ws_sm *sm, uint64_t now) {
    if (sm_busy(sm)) {
        (void)ws_sm_step(sm, now);
        return;
    }
    /* an SM with nothing to do: its clock and the credit delay line move (hp.c's
       hp_tick, which makes no SM busy), as in busy_cycle's first steps */
    sm->now = now;
    if (sm->hp_cycle) sm_hp_cycle(sm);
    sm->progressed = false;
}

/* ---- ports ---------------------------------------------------------------------- */
ws_mreq *ws_sm_out_peek(ws_sm *sm) { return sm->outq.head; }
ws_mreq *ws_sm_out_pop(ws_sm *sm) {
    ws_mreq *r = ws_mreq_fifo_pop(&sm->outq);
    if (r) r->t_icnt_in = sm->now;
    if (!sm->outq.head) sm->after_kept &= (uint8_t)~WS_SM_HAS_OUT;
    return sm->outq.head;
}

/* (sm.h's inline ws_sm_in_ready reads the FIFO's length as the SM's first member) */
_Static_assert(offsetof(struct ws_sm, resp) == 0, "ws_sm_in_ready reads resp.len at the SM's start");
bool ws_sm_in_ready_for(const ws_sm *sm, const ws_mreq *r) {
    return r->access == WS_MA_INST || ws_sm_in_ready(sm);
}

void ws_sm_in_push(ws_sm *sm, ws_mreq *r, uint64_t now) {
    /* a reply that only counts leaves a sleeping SM asleep: its sleeping cycle takes it
       as the full one would (then at the head of the empty response FIFO) */
    if (now < sm->sleep_until && !sm->resp.len && sm_ldst_reply_quiet(sm, r))
        sm->sleep_replies++;
    else
        sm->sleep_until = 0;
    sm->st.mem_replies_in++;
    sm->progressed = true;
    r->t_returned = now;
    if (r->access != WS_MA_INST) { /* GPGPU-Sim's mf latency leaves instruction fetches out */
        uint64_t lat = now - r->t_created;
        sm->st.mf_lat_sum += lat;
        sm->st.mf_lat_n++;
        if (lat > sm->mf_lat_max) sm->mf_lat_max = lat;
        /* from leaving the SM: time held by access-interval throttling is counted apart */
        uint64_t net = now - (r->t_icnt_in ? r->t_icnt_in : r->t_created);
        if (net > sm->mf_lat_max_l2[r->l2_waited]) sm->mf_lat_max_l2[r->l2_waited] = net;
    }
    if (r->access == WS_MA_INST) {
        /* instruction replies go straight to the L1I (GPGPU-Sim's fetch response) */
        sm_pend *p = r->origin;
        if (p) {
            p->got |= r->sectors ? r->sectors : p->want;
            if ((p->got & p->want) == p->want) {
                sm_fetch_reply(sm, p->block);
                sm_pend_free(sm, p);
                sm->n_pend--;
            }
        }
        ws_mreq_free(sm->env.pool, r);
        return;
    }
    ws_mreq_fifo_push(&sm->resp, r);
}

/* ---- inspection ------------------------------------------------------------------- */
bool ws_sm_fault(const ws_sm *sm, ws_fault *f) {
    if (!sm->has_fault) return false;
    if (f) *f = sm->fault;
    return true;
}

bool ws_sm_progressed(const ws_sm *sm) { return sm->progressed; }

const ws_counter_decl ws_sm_counters[] = {
    WS_COUNTER(ws_sm_stats, cycles_active),
    WS_COUNTER(ws_sm_stats, warp_insts),
    WS_COUNTER(ws_sm_stats, thread_insts),
    WS_COUNTER(ws_sm_stats, thread_insts_exec),
    WS_COUNTER(ws_sm_stats, l1d_access),
    WS_COUNTER(ws_sm_stats, l1d_fail),
    WS_COUNTER(ws_sm_stats, l1d_bypass),
    WS_COUNTER(ws_sm_stats, l1i_access),
    WS_COUNTER(ws_sm_stats, l1i_miss),
    WS_COUNTER(ws_sm_stats, l1c_access),
    WS_COUNTER(ws_sm_stats, l1c_miss),
    WS_COUNTER(ws_sm_stats, l1t_access),
    WS_COUNTER(ws_sm_stats, l1t_miss),
    WS_COUNTER(ws_sm_stats, shmem_accesses),
    WS_COUNTER(ws_sm_stats, shmem_bank_conflict_cycles),
    WS_COUNTER(ws_sm_stats, stall_idle),
    WS_COUNTER(ws_sm_stats, stall_scoreboard),
    WS_COUNTER(ws_sm_stats, stall_pipeline),
    WS_COUNTER(ws_sm_stats, stall_barrier),
    WS_COUNTER(ws_sm_stats, stall_ibuffer),
    WS_COUNTER(ws_sm_stats, mem_requests_out),
    WS_COUNTER(ws_sm_stats, mem_replies_in),
    WS_COUNTER(ws_sm_stats, ctas_done),
    WS_COUNTER(ws_sm_stats, mem_writes),
    WS_COUNTER(ws_sm_stats, rf_reads),
    WS_COUNTER(ws_sm_stats, rf_writes),
    WS_COUNTER(ws_sm_stats, thread_insts_int),
    WS_COUNTER(ws_sm_stats, thread_insts_fp),
    WS_COUNTER(ws_sm_stats, thread_insts_dp),
    WS_COUNTER(ws_sm_stats, thread_insts_sfu),
    WS_COUNTER(ws_sm_stats, thread_insts_mem),
    WS_COUNTER(ws_sm_stats, issue_lanes),
    WS_COUNTER(ws_sm_stats, mem_insn),
    WS_COUNTER(ws_sm_stats, l1d_status),
    WS_COUNTER(ws_sm_stats, l1d_local),
    WS_COUNTER(ws_sm_stats, l1c_status),
    WS_COUNTER(ws_sm_stats, l1i_status),
    WS_COUNTER(ws_sm_stats, l1c_mshr_hits),
    WS_COUNTER(ws_sm_stats, l1i_mshr_hits),
    WS_COUNTER(ws_sm_stats, mem_out),
    WS_COUNTER(ws_sm_stats, mf_lat_sum),
    WS_COUNTER(ws_sm_stats, mf_lat_n),
    WS_COUNTER(ws_sm_stats, warps_live_sum),
    WS_COUNTER(ws_sm_stats, gld_bytes),
    WS_COUNTER(ws_sm_stats, l1d_list_bypass),
    WS_COUNTER(ws_sm_stats, hazard),
    WS_COUNTER(ws_sm_stats, oc_blocked_cycles),
    WS_COUNTER(ws_sm_stats, warp_insts_mem),
    WS_COUNTER(ws_sm_stats, replay_issues),
    WS_COUNTER(ws_sm_stats, replay_squashes),
    WS_COUNTER(ws_sm_stats, replay_mshr_again),
    WS_COUNTER(ws_sm_stats, hp_restrict),
    WS_COUNTER(ws_sm_stats, hp_pred),
    WS_COUNTER(ws_sm_stats, hp_tracker_errors),
    WS_COUNTER(ws_sm_stats, hp_refused),
    WS_COUNTER(ws_sm_stats, mshr_idle_demand),
    WS_COUNTER(ws_sm_stats, sched_issue),
};
const size_t ws_sm_ncounters = sizeof ws_sm_counters / sizeof ws_sm_counters[0];

#define STALL(f, d)                                                                          \
    {"warpsim_" #f, .unit = "scheduler-cycles", .desc = d, .src = WS_SRC_U64,                \
     .off = offsetof(ws_sm_stats, f)}
static const ws_stat_decl sm_stats[] = {
    /* scheduler cycles that issued nothing, by why (issue.c's order of tests) */
    STALL(stall_idle, "no issue: no warp had a valid instruction (none at a barrier or on an "
          "empty instruction buffer)"),
    STALL(stall_scoreboard, "no issue: warps had instructions, none passed the scoreboard"),
    STALL(stall_pipeline, "no issue: an instruction was ready but its pipeline register was busy"),
    STALL(stall_barrier, "no issue: no valid instruction, some warp waited at a barrier"),
    STALL(stall_ibuffer, "no issue: no valid instruction, some warp's instruction buffer was "
          "empty"),
    /* and those that issued (with the stalls above and warpsim_hp_restrict: every scheduler
       cycle of an active SM once) */
    {"warpsim_sched_issue1", .unit = "scheduler-cycles", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, sched_issue),
     .desc = "scheduler cycles that issued one instruction (a replay counts)"},
    {"warpsim_sched_issue2", .unit = "scheduler-cycles", .src = WS_SRC_U64,
     .off = offsetof(ws_sm_stats, sched_issue) + sizeof(uint64_t),
     .desc = "scheduler cycles that issued two instructions (dual issue, "
             "-gpgpu_max_insn_issue_per_warp 2)"},
};
#undef STALL
const ws_stat_table ws_sm_stat_table = {"SM issue stalls", sm_stats,
                                        sizeof sm_stats / sizeof sm_stats[0]};

const ws_sm_stats *ws_sm_get_stats(const ws_sm *sm) {
    ws_sm *m = (ws_sm *)sm; /* cache counters are copied in on demand */
    const ws_cache_stats *d = ws_cache_get_stats(sm->l1d);
    for (int dir = 0; dir < 2; dir++) {
        for (int s = 0; s < 4; s++) m->st.l1d_access[dir][s] = d->status[dir][s];
        /* a sector miss (sectored L1D: line present, sector not) is an access and a
           miss, as GPGPU-Sim counts it (and as the L2's totals do) */
        m->st.l1d_access[dir][WS_CACHE_MISS] += d->status[dir][WS_CACHE_SECTOR_MISS];
    }
    _Static_assert(WS_CACHE_NSTATUS == 6, "ws_sm_stats.l1d_status has one entry per status");
    memcpy(m->st.l1d_status, d->status, sizeof m->st.l1d_status);
    memcpy(m->st.l1d_local, d->status_local, sizeof m->st.l1d_local);
    for (int k = 0; k < WS_FAIL_NKINDS && k < 5; k++) m->st.l1d_fail[k] = d->fail[0][k] + d->fail[1][k];
    m->st.l1d_bypass = d->status[0][WS_CACHE_BYPASS] + d->status[1][WS_CACHE_BYPASS];
    const ws_cache_stats *i = ws_cache_get_stats(sm->l1i);
    m->st.l1i_access = i->status[0][WS_CACHE_HIT] + i->status[0][WS_CACHE_HIT_RESERVED] +
                       i->status[0][WS_CACHE_MISS];
    m->st.l1i_miss = i->status[0][WS_CACHE_MISS];
    memcpy(m->st.l1i_status, i->status[0], sizeof m->st.l1i_status);
    m->st.l1i_mshr_hits = i->mshr_hits;
    const ws_cache_stats *c = ws_cache_get_stats(sm->l1c);
    m->st.l1c_access = c->status[0][WS_CACHE_HIT] + c->status[0][WS_CACHE_HIT_RESERVED] +
                       c->status[0][WS_CACHE_MISS];
    m->st.l1c_miss = c->status[0][WS_CACHE_MISS];
    memcpy(m->st.l1c_status, c->status[0], sizeof m->st.l1c_status);
    m->st.l1c_mshr_hits = c->mshr_hits;
    sm_tex_stats(sm, &m->st.l1t_access, &m->st.l1t_miss);
    return &sm->st;
}

static const char *warp_wait_reason(const ws_sm *sm, const sm_warp *w) {
    const ws_cta *c = sm->ctas[w->cta].cta;
    if (c && c->warps[w->wid].state == WS_WARP_BAR) return "barrier";
    if (w->membar) return "membar";
    if (w->n_atomic) return "atomic";
    if (w->func_done) return "draining";
    if (w->imiss) return "imiss";
    if (!w->ib_n) return "ibuffer-empty";
    if (w->n_reserved) return "scoreboard";
    return "ready";
}

void ws_sm_describe(const ws_sm *sm, char *buf, size_t n) {
    if (!n) return;
    size_t o = 0;
#define OUT(...)                                                              \
    do {                                                                      \
        if (o < n) o += (size_t)snprintf(buf + o, n - o, __VA_ARGS__);       \
    } while (0)
    OUT("SM %u: %u CTAs, outq %u, resp %u, pending requests %u, L1D mshr %u missq %u, "
        "L1I mshr %u missq %u, ldst %s\n",
        sm->env.sm_id, sm->n_active_ctas, sm->outq.len, sm->resp.len, sm->n_pend,
        ws_cache_mshr_used(sm->l1d), ws_cache_miss_queue_len(sm->l1d),
        ws_cache_mshr_used(sm->l1i), ws_cache_miss_queue_len(sm->l1i),
        sm->ld_disp ? ws_opcode_name((ws_opcode)sm->ld_disp->inst->op) : "idle");
    if (sm->mrpb) OUT("  MRPB: %u requests waiting\n", sm->mrpb->n);
    for (uint32_t wi = 0; wi < sm->max_warps && o < n; wi++) {
        const sm_warp *w = &sm->warps[wi];
        if (!w->valid) continue;
        const ws_cta *c = sm->ctas[w->cta].cta;
        int32_t pc = c ? ws_warp_pc(c, w->wid) : -1;
        OUT("  warp %u (cta slot %u, warp %u): pc %d (fetch %u:%u), %s, inflight %u, stores %u, "
            "regs %u\n", wi, w->cta, w->wid, pc, w->fetch_func, w->fetch_pc,
            warp_wait_reason(sm, w), w->n_inflight, w->stores_out, w->n_reserved);
    }
#undef OUT
}

void ws_sm_where(const ws_sm *sm, ws_where_tally *t) {
    for (uint32_t wi = 0; wi < sm->max_warps; wi++) {
        const sm_warp *w = &sm->warps[wi];
        const ws_cta *c = w->valid ? sm->ctas[w->cta].cta : NULL;
        if (c) ws_where_add(t, c, w->wid);
    }
}

unsigned ws_sm_max_warps(const ws_sm *sm) { return sm->max_warps; }
struct ws_cache *ws_sm_l1d(ws_sm *sm) { return sm->l1d; }
struct ws_l1prof *ws_sm_l1prof(ws_sm *sm) { return sm->l1prof; }
void *ws_sm_throttle_state(ws_sm *sm, unsigned s) {
    return sm->throttle && s < sm->n_sched ? sm->throttle[s].state : NULL;
}

bool ws_sm_warp_limit(const ws_sm *sm, double *mean) {
    unsigned sum = 0;
    for (unsigned s = 0; sm->throttle && s < sm->n_sched; s++) {
        if (!sm->throttle[s].policy->limit) return false;
        sum += sm->throttle[s].policy->limit(sm->throttle[s].state);
    }
    *mean = sm->n_sched ? (double)sum / sm->n_sched : 0;
    return sm->throttle != NULL;
}

bool ws_sm_ciao_warps(const ws_sm *sm, unsigned *isolated, unsigned *stalled) {
    const ws_throttle_policy *p = sm->throttle_sm.policy;
    if (!p || !p->sm_warps) return false;
    ws_throttle_sm_warps w;
    p->sm_warps(sm->throttle_sm.state, &w);
    *isolated = w.isolated;
    *stalled = w.stalled;
    return true;
}

unsigned ws_sm_active_warps(const ws_sm *sm) {
    unsigned n = 0;
    for (uint32_t w = 0; w < sm->max_warps; w++) n += sm->warps[w].valid && !sm->warps[w].func_done;
    return n;
}
