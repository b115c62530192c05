/* SM timing model: scheduler policies, scoreboard, shared-memory and
 * register-bank conflicts, occupancy, and one SM running small kernels to
 * completion against an ideal memory. */
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "exec/exec.h"
#include "policy/sched/sched.h"
#include "ptx/ptx.h"
#include "test.h"
#include "timing/mem/addrdec.h"
#include "timing/sm/sm_internal.h"

/* ---- scheduler policies ---------------------------------------------------- */
static void views(ws_sched_warp *w, unsigned n) {
    for (unsigned i = 0; i < n; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].slot = (uint16_t)(2 * i);
        w[i].valid = 1;
        w[i].age = 100 - i; /* higher index = older */
    }
}

TEST(sm_sched_lrr_rotates_after_last_issued) {
    ws_sched s;
    char err[128];
    CHECK(ws_sched_create(&s, "lrr", 4, err, sizeof err) == 0);
    ws_sched_warp w[4];
    uint16_t o[4];
    views(w, 4);
    CHECK_EQ_U64(s.policy->order(s.state, w, 4, o), 4);
    CHECK(o[0] == 0 && o[1] == 1 && o[3] == 3);
    s.policy->issued(s.state, w, 4, 2);
    s.policy->order(s.state, w, 4, o);
    CHECK(o[0] == 3 && o[1] == 0 && o[2] == 1 && o[3] == 2);
    ws_sched_destroy(&s);
}

TEST(sm_sched_gto_greedy_then_oldest) {
    ws_sched s;
    char err[128];
    CHECK(ws_sched_create(&s, "gto", 4, err, sizeof err) == 0);
    ws_sched_warp w[4];
    uint16_t o[4];
    views(w, 4);
    s.policy->order(s.state, w, 4, o);
    CHECK(o[0] == 3 && o[1] == 2 && o[2] == 1 && o[3] == 0); /* oldest first */
    s.policy->issued(s.state, w, 4, 1);
    s.policy->order(s.state, w, 4, o);
    CHECK(o[0] == 1 && o[1] == 3 && o[2] == 2 && o[3] == 0); /* greedy, then oldest */
    w[3].waiting = 1; /* waiting warps go after ready ones */
    s.policy->order(s.state, w, 4, o);
    CHECK(o[0] == 1 && o[1] == 2 && o[2] == 0 && o[3] == 3);
    ws_sched_destroy(&s);
}

TEST(sm_sched_oldest_ignores_last_issued) {
    ws_sched s;
    char err[128];
    CHECK(ws_sched_create(&s, "oldest", 3, err, sizeof err) == 0);
    ws_sched_warp w[3];
    uint16_t o[3];
    views(w, 3);
    s.policy->issued(s.state, w, 3, 0);
    s.policy->order(s.state, w, 3, o);
    CHECK(o[0] == 2 && o[1] == 1 && o[2] == 0);
    ws_sched_destroy(&s);
}

TEST(sm_sched_two_level_demotes_waiting_and_longop) {
    ws_sched s;
    char err[128];
    CHECK(ws_sched_create(&s, "two_level_active:2:0:1", 4, err, sizeof err) == 0);
    ws_sched_warp w[4];
    uint16_t o[4];
    views(w, 4);
    CHECK_EQ_U64(s.policy->order(s.state, w, 4, o), 2);
    CHECK(o[0] == 0 && o[1] == 1);
    w[0].longop = 1; /* depends on a pending global load: demoted, 2 promoted */
    CHECK_EQ_U64(s.policy->order(s.state, w, 4, o), 2);
    CHECK(o[0] == 1 && o[1] == 2);
    w[0].longop = 0;
    w[1].waiting = 1; /* at a barrier: demoted, 3 promoted (0 waits its turn) */
    s.policy->order(s.state, w, 4, o);
    CHECK(o[0] == 2 && o[1] == 3);
    ws_sched_destroy(&s);
    CHECK(ws_sched_create(&s, "nosuch", 4, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "gto");
}

/* ---- an SM with an ideal memory ---------------------------------------------- */
typedef struct rig {
    ws_config cfg;
    ws_mreq_pool pool;
    ws_addrdec ad;
    ws_sm *sm;
    ws_module *mod;
    ws_gmem *g;
    ws_image *img;
    ws_launch_desc l;
    uint8_t params[64];
    uint64_t buf;
} rig;

static bool rig_open(rig *r, const char *ptx, const char *const *opts) {
    memset(r, 0, sizeof *r);
    ws_config_init(&r->cfg);
    char err[256];
    for (const char *const *o = opts; o && o[0]; o += 2)
        if (ws_config_set(&r->cfg, o[0], o[1], err, sizeof err)) {
            ws_test_fail(__FILE__, __LINE__, "%s", err);
            return false;
        }
    ws_mreq_pool_init(&r->pool);
    if (ws_addrdec_init(&r->ad, &r->cfg, err, sizeof err)) {
        ws_test_fail(__FILE__, __LINE__, "%s", err);
        return false;
    }
    ws_sm_env env = {&r->cfg, &r->pool, &r->ad, 0, 32};
    r->sm = ws_sm_create(&env, err, sizeof err);
    if (!r->sm) {
        ws_test_fail(__FILE__, __LINE__, "%s", err);
        return false;
    }
    if (!ptx) return true;
    ws_diag d;
    r->mod = ws_ptx_parse(ptx, strlen(ptx), "sm.ptx", &d);
    if (!r->mod) {
        ws_test_fail(__FILE__, __LINE__, "%s", d.msg);
        return false;
    }
    r->g = ws_gmem_create(64ull << 20);
    if (ws_image_create(r->g, r->mod, &r->img, err, sizeof err) != WS_OK) return false;
    ws_gmem_alloc(r->g, 1 << 16, &r->buf);
    ws_gmem_fill(r->g, r->buf, 0, 1 << 16);
    memcpy(r->params, &r->buf, 8);
    r->l.img = r->img;
    r->l.func = 0;
    r->l.params = r->params;
    r->l.gmem = r->g;
    r->l.num_sms = 1;
    return true;
}

static void rig_close(rig *r) {
    if (r->sm) ws_sm_destroy(r->sm);
    if (r->img) ws_image_destroy(r->img, r->g);
    if (r->g) ws_gmem_destroy(r->g);
    if (r->mod) ws_module_free(r->mod);
    ws_mreq_pool_destroy(&r->pool);
    ws_config_free(&r->cfg);
}

/* Called after every cycle of rig_run when set (a test's check of the SM's own state). */
static void (*rig_each_cycle)(const ws_sm *sm);

/* rig_run's memory: the requests in flight (fly, due: when each is answered). */
typedef struct rig_mem {
    ws_mreq *fly[4096];
    uint64_t due[4096];
    unsigned nfly;
} rig_mem;

/* Every reply due at `now` that the SM has room for goes in. */
static void rig_mem_answer(rig *r, rig_mem *m, uint64_t now) {
    for (unsigned i = 0; i < m->nfly;) {
        if (m->due[i] <= now && ws_sm_in_ready_for(r->sm, m->fly[i])) {
            ws_mreq *q = m->fly[i];
            q->is_reply = true;
            ws_sm_in_push(r->sm, q, now);
            m->fly[i] = m->fly[--m->nfly];
            m->due[i] = m->due[m->nfly];
        } else {
            i++;
        }
    }
}

/* The SM's requests leave; each is answered `lat` cycles later. */
static void rig_mem_take(rig *r, rig_mem *m, uint64_t now, uint64_t lat) {
    ws_mreq *q;
    while ((q = ws_sm_out_peek(r->sm)) && m->nfly < 4096) {
        ws_sm_out_pop(r->sm);
        m->fly[m->nfly] = q;
        m->due[m->nfly++] = now + lat;
    }
}

/* After a cycle: false on a fault, or on a stall of 100000 cycles (reported). */
static bool rig_went_on(rig *r, uint64_t *idle) {
    if (ws_sm_fault(r->sm, NULL)) return false;
    *idle = ws_sm_progressed(r->sm) ? 0 : *idle + 1;
    if (*idle > 100000) {
        char buf[4096];
        ws_sm_describe(r->sm, buf, sizeof buf);
        ws_test_fail(__FILE__, __LINE__, "stuck: %s", buf);
        return false;
    }
    return true;
}

static void rig_start(rig *r, uint32_t grid, uint32_t block, uint32_t regs) {
    r->l.grid[0] = grid, r->l.grid[1] = r->l.grid[2] = 1;
    r->l.block[0] = block, r->l.block[1] = r->l.block[2] = 1;
    ws_kernel_res res = {block, regs, r->mod->funcs[0].static_shared};
    ws_sm_start_kernel(r->sm, &r->l, &res);
}

/* Run grid x block on one SM; memory answers every request after `lat`
   cycles. Returns the cycles taken (0 on a stall of 100000 cycles). */
static uint64_t rig_run(rig *r, uint32_t grid, uint32_t block, uint32_t regs, uint64_t lat) {
    rig_start(r, grid, block, regs);
    rig_mem mem;
    rig_mem *m = &mem;
    m->nfly = 0;
    uint32_t next = 0;
    uint64_t now = 0, idle = 0;
    while (next < grid || ws_sm_busy(r->sm) || m->nfly) {
        while (next < grid && ws_sm_can_take_cta(r->sm)) {
            uint32_t id[3] = {next++, 0, 0};
            ws_sm_take_cta(r->sm, id, now);
        }
        rig_mem_answer(r, m, now);
        ws_sm_cycle(r->sm, now);
        if (rig_each_cycle) rig_each_cycle(r->sm);
        rig_mem_take(r, m, now, lat);
        if (!rig_went_on(r, &idle)) return 0;
        now++;
    }
    return now;
}

static char *chain_ptx(unsigned n) {
    size_t cap = 1024 + (size_t)n * 40;
    char *p = malloc(cap);
    size_t o = (size_t)snprintf(p, cap,
                                ".version 7.0\n.target sm_70\n.address_size 64\n"
                                ".visible .entry k(.param .u64 out){\n"
                                ".reg .b32 %%r<4>; .reg .b64 %%rd<4>;\n"
                                "ld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\n");
    for (unsigned i = 0; i < n; i++) o += (size_t)snprintf(p + o, cap - o, "add.u32 %%r1, %%r1, 1;\n");
    snprintf(p + o, cap - o,
             "mul.wide.u32 %%rd2, %%r1, 4;\nadd.u64 %%rd3, %%rd1, %%rd2;\n"
             "st.global.u32 [%%rd3], %%r1;\nret;\n}\n");
    return p;
}

TEST(sm_dependent_add_chain_takes_latency_per_add) {
    uint64_t cyc[2];
    unsigned n[2] = {64, 128};
    for (int k = 0; k < 2; k++) {
        char *ptx = chain_ptx(n[k]);
        rig r;
        if (!rig_open(&r, ptx, NULL)) return;
        cyc[k] = rig_run(&r, 1, 32, 8, 1); /* fast memory: instruction misses stay cheap */
        const ws_sm_stats *s = ws_sm_get_stats(r.sm);
        CHECK_EQ_U64(s->warp_insts, n[k] + 6);
        CHECK_EQ_U64(s->ctas_done, 1);
        rig_close(&r);
        free(ptx);
    }
    /* each dependent add: issue, operand collection (3), dispatch, latency 4,
       writeback (2) = 10, plus an instruction-cache miss every 16 instructions */
    uint64_t per = (cyc[1] - cyc[0]) / 64;
    CHECK_MSG(per >= 8 && per <= 12, "cycles per dependent add = %llu (%llu, %llu)",
              (unsigned long long)per, (unsigned long long)cyc[0], (unsigned long long)cyc[1]);
}

static const char *vadd_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 out){\n"
    ".reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<4>;\n"
    ".shared .align 4 .b8 sh[1024];\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;\n"
    "mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "mul.wide.s32 %rd2, %r4, 4; add.s64 %rd3, %rd1, %rd2;\n"
    "ld.global.u32 %r5, [%rd3];\n"
    "shl.b32 %r6, %r1, 2; mov.u32 %r7, sh; add.u32 %r6, %r6, %r7;\n"
    "st.shared.u32 [%r6], %r5;\n"
    "bar.sync 0;\n"
    "ld.shared.u32 %r5, [%r6];\n"
    "setp.lt.u32 %p1, %r1, 16;\n"
    "@%p1 add.u32 %r5, %r5, 7;\n"
    "cvt.rn.f32.u32 %f1, %r5; sqrt.rn.f32 %f2, %f1; cvt.rzi.u32.f32 %r5, %f2;\n"
    "atom.global.add.u32 %r7, [%rd1], 1;\n"
    "st.global.u32 [%rd3+4096], %r5;\n"
    "ret;\n}\n";

TEST(sm_runs_kernel_like_the_functional_engine_deterministically) {
    uint64_t cyc[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        rig r;
        if (!rig_open(&r, vadd_ptx, NULL)) return;
        cyc[k] = rig_run(&r, 8, 128, 16, 200);
        const ws_sm_stats *s = ws_sm_get_stats(r.sm);
        CHECK(cyc[k] > 0);
        CHECK_EQ_U64(s->ctas_done, 8);
        /* same instruction count as the functional engine */
        ws_exec_counts ec;
        ws_fault f;
        CHECK(ws_exec_grid(&r.l, &ec, &f) == WS_OK);
        CHECK_EQ_U64(s->warp_insts, ec.warp_insts);
        CHECK(s->l1d_access[0][WS_CACHE_MISS] > 0);
        CHECK(s->shmem_accesses > 0);
        CHECK(s->mem_replies_in > 0);
        /* the atomic counted every thread (functional result) */
        uint32_t v = 0;
        ws_gmem_read(r.g, r.buf, &v, 4);
        CHECK(v >= 8 * 128);
        CHECK(!ws_sm_busy(r.sm));
        rig_close(&r);
    }
    CHECK_EQ_U64(cyc[0], cyc[1]);
    /* 8 CTAs, each with global loads, a barrier and atomics at 200-cycle
       latency: well above one memory latency, well below serialising all */
    CHECK_MSG(cyc[0] > 600 && cyc[0] < 20000, "cycles %llu", (unsigned long long)cyc[0]);
}

/* ---- a sleeping SM takes the replies that only count (sm_ldst_reply_quiet) ------- */
/* rig_run's memory, but one reply a cycle in the order they are due (as the GPU's
   interconnect delivers) and every read reply split into one reply per sector (as a
   sectored L2 answers), so most replies complete nothing. `wake`: each reply wakes
   the SM (ws_sm_wake), so full cycles take every one: the path the sleeping one
   replaces. */
static uint64_t rig_run_pieces(rig *r, uint32_t grid, uint32_t block, uint32_t regs,
                               uint64_t lat, bool wake) {
    r->l.grid[0] = grid, r->l.grid[1] = r->l.grid[2] = 1;
    r->l.block[0] = block, r->l.block[1] = r->l.block[2] = 1;
    ws_kernel_res res = {block, regs, r->mod->funcs[0].static_shared};
    ws_sm_start_kernel(r->sm, &r->l, &res);
    enum { CAP = 8192 };
    static ws_mreq *fly[CAP];
    static uint64_t due[CAP];
    unsigned head = 0, tail = 0; /* a FIFO: due times only grow */
    uint32_t next = 0;
    uint64_t now = 0, idle = 0;
    while (next < grid || ws_sm_busy(r->sm) || head != tail) {
        while (next < grid && ws_sm_can_take_cta(r->sm)) {
            uint32_t id[3] = {next++, 0, 0};
            ws_sm_take_cta(r->sm, id, now);
        }
        if (head != tail && due[head % CAP] <= now && ws_sm_in_ready_for(r->sm, fly[head % CAP])) {
            ws_mreq *q = fly[head++ % CAP];
            q->is_reply = true;
            ws_sm_in_push(r->sm, q, now);
            if (wake) ws_sm_wake(r->sm);
        }
        ws_sm_cycle(r->sm, now);
        /* the flags ws_sm_after_cycle keeps (fault, CTA room, out queue) as computed afresh */
        unsigned f = ws_sm_after_cycle(r->sm);
        if (!(f & WS_SM_CTA_ROOM) != !ws_sm_can_take_cta(r->sm) ||
            !(f & WS_SM_FAULTED) != !ws_sm_fault(r->sm, NULL) ||
            !(f & WS_SM_HAS_OUT) != !ws_sm_out_peek(r->sm)) {
            ws_test_fail(__FILE__, __LINE__, "cycle %llu: kept flags %#x", (unsigned long long)now, f);
            return 0;
        }
        ws_mreq *q;
        while ((q = ws_sm_out_peek(r->sm)) && tail - head + 4 <= CAP) {
            ws_sm_out_pop(r->sm);
            uint8_t m = q->sectors;
            bool split = (!q->is_write || q->is_atomic) && m && (m & (m - 1));
            for (unsigned s = 0; s < 4; s++) {
                if (split && !(m >> s & 1)) continue;
                ws_mreq *p = q;
                if (split && (m & ((1u << s) - 1))) p = ws_mreq_alloc_copy(&r->pool, q);
                if (split) p->sectors = (uint8_t)(1u << s);
                fly[tail % CAP] = p;
                due[tail++ % CAP] = now + lat;
                if (!split) break;
            }
        }
        if (!(ws_sm_after_cycle(r->sm) & WS_SM_HAS_OUT) != !ws_sm_out_peek(r->sm)) {
            ws_test_fail(__FILE__, __LINE__, "cycle %llu: kept out-queue flag", (unsigned long long)now);
            return 0;
        }
        if (!rig_went_on(r, &idle)) return 0;
        now++;
    }
    return now;
}

/* The options of the twin runs below: defaults, one scheduler, a smaller L1D. */
static const char *const twin_sets[][5] = {
    {NULL},
    {"gpgpu_num_sched_per_core", "1", NULL},
    {"gpgpu_cache:dl1", "S:32:128:4,L:L:m:N,A:32:8,8", NULL},
};

TEST(sm_sleeping_replies_agree_with_full_cycles) {
    for (unsigned k = 0; k < sizeof twin_sets / sizeof twin_sets[0]; k++) {
        const char *const *sets = twin_sets[k];
        uint64_t cyc[2];
        ws_sm_stats st[2];
        uint64_t quiet = 0;
        for (int w = 0; w < 2; w++) {
            rig r;
            if (!rig_open(&r, vadd_ptx, sets[0] ? sets : NULL)) return;
            cyc[w] = rig_run_pieces(&r, 8, 128, 16, 120, w == 1);
            st[w] = *ws_sm_get_stats(r.sm);
            if (!w) quiet = r.sm->sleep_replies;
            CHECK_EQ_U64(st[w].ctas_done, 8);
            rig_close(&r);
        }
        CHECK_MSG(cyc[0] == cyc[1], "set %u: cycles %llu asleep, %llu woken", k,
                  (unsigned long long)cyc[0], (unsigned long long)cyc[1]);
        CHECK_MSG(!memcmp(&st[0], &st[1], sizeof st[0]), "set %u: statistics differ", k);
        CHECK_MSG(quiet > 0, "set %u: no reply was taken asleep", k); /* the path ran */
    }
}

/* ---- sleeping cycles passed by and counted later (ws_sm_skip) -------------------- */
/* rig_run's memory with ws_sm_step; `skip`: after a cycle that leaves WS_SM_PURE
   (and an empty out queue) the SM is passed by until its sleep's end or a reply,
   and the cycles passed by are counted with ws_sm_skip before it is given anything,
   as gpu.c does. *skipped: the cycles passed by; *shifts: the sleeps passed by
   whose L1 latency queue moved up. */
static uint64_t rig_run_skip(rig *r, uint32_t grid, uint32_t block, uint32_t regs,
                             uint64_t lat, bool skip, uint64_t *skipped, uint64_t *shifts) {
    rig_start(r, grid, block, regs);
    rig_mem mem;
    rig_mem *m = &mem;
    m->nfly = 0;
    uint32_t next = 0;
    uint64_t now = 0, idle = 0, from = 0, until = 0;
    bool passed = false; /* the SM is being passed by since `from`, until `until` */
    *skipped = *shifts = 0;
    while (next < grid || passed || ws_sm_busy(r->sm) || m->nfly) {
        bool reply = false;
        for (unsigned i = 0; i < m->nfly; i++) reply |= m->due[i] <= now;
        if (passed && (reply || now >= until || next < grid)) {
            ws_sm_skip(r->sm, from, now - from);
            *skipped += now - from;
            passed = false;
        }
        if (passed) {
            idle++;
            now++;
            continue;
        }
        while (next < grid && ws_sm_can_take_cta(r->sm)) {
            uint32_t id[3] = {next++, 0, 0};
            ws_sm_take_cta(r->sm, id, now);
        }
        rig_mem_answer(r, m, now);
        unsigned f = ws_sm_step(r->sm, now);
        rig_mem_take(r, m, now, lat);
        if (!rig_went_on(r, &idle)) return 0;
        now++;
        if (skip && (f & WS_SM_PURE) && !ws_sm_out_peek(r->sm)) {
            passed = true;
            from = now;
            until = ws_sm_sleep_until(r->sm);
            *shifts += r->sm->sleep_shift; /* (the L1 latency queue moves meanwhile) */
        }
    }
    return now;
}

TEST(sm_pure_sleep_skipped_agrees_with_every_cycle) {
    /* vadd_ptx with a load after the barrier that hits in the L1D: with a longer hit
       latency, warps sleep while the L1 latency queue moves up */
    char ptx[2048];
    const char *at = strstr(vadd_ptx, "setp.lt.u32");
    snprintf(ptx, sizeof ptx, "%.*sld.global.u32 %%r7, [%%rd3];\nadd.u32 %%r5, %%r5, %%r7;\n%s",
             (int)(at - vadd_ptx), vadd_ptx, at);
    /* (and a small MSHR: stuck LD/ST units, whose sleeps are not passed by) */
    static const char *const slow_l1[] = {"gpgpu_l1_latency", "40", "gpgpu_cache:dl1",
                                          "S:32:128:4,L:L:m:N,A:2:2,2", NULL};
    const unsigned n_twin = sizeof twin_sets / sizeof twin_sets[0];
    uint64_t shifted = 0;
    for (unsigned k = 0; k <= n_twin; k++) { /* the twin sets, then slow_l1 */
        const char *const *sets = k < n_twin ? twin_sets[k] : slow_l1;
        uint64_t cyc[2], skipped[2], shifts[2];
        ws_sm_stats st[2];
        unsigned prio[2][2];
        uint8_t resbus[2][SM_RESBUS_RING];
        for (int w = 0; w < 2; w++) {
            rig r;
            if (!rig_open(&r, ptx, sets[0] ? sets : NULL)) return;
            cyc[w] = rig_run_skip(&r, 8, 128, 16, 300, w == 1, &skipped[w], &shifts[w]);
            st[w] = *ws_sm_get_stats(r.sm);
            prio[w][0] = r.sm->arb_prio;
            prio[w][1] = r.sm->sched_prio;
            memcpy(resbus[w], r.sm->resbus, sizeof resbus[w]);
            CHECK_EQ_U64(st[w].ctas_done, 8);
            rig_close(&r);
        }
        CHECK_MSG(cyc[0] == cyc[1], "set %u: cycles %llu stepped, %llu skipped", k,
                  (unsigned long long)cyc[0], (unsigned long long)cyc[1]);
        CHECK_MSG(!memcmp(&st[0], &st[1], sizeof st[0]), "set %u: statistics differ", k);
        CHECK_MSG(prio[0][0] == prio[1][0] && prio[0][1] == prio[1][1],
                  "set %u: rotations differ", k);
        CHECK_MSG(!memcmp(resbus[0], resbus[1], sizeof resbus[0]), "set %u: resbus differs", k);
        CHECK_MSG(skipped[1] > 0, "set %u: no cycle was passed by", k); /* the path ran */
        shifted += shifts[1];
    }
    CHECK(shifted > 0); /* and passed by an SM whose L1 latency queue moved up */
}

/* ---- unit-level checks on a bare SM --------------------------------------------- */
TEST(sm_shared_bank_conflict_cycles) {
    rig r;
    if (!rig_open(&r, NULL, NULL)) return;
    uint64_t a[32];
    for (int i = 0; i < 32; i++) a[i] = 4u * (unsigned)i;
    CHECK_EQ_U64(sm_smem_conflict_cycles(r.sm, a, ~0u), 1); /* one word per bank */
    for (int i = 0; i < 32; i++) a[i] = 8u * (unsigned)i;
    CHECK_EQ_U64(sm_smem_conflict_cycles(r.sm, a, ~0u), 2); /* stride 2 words */
    for (int i = 0; i < 32; i++) a[i] = 128u * (unsigned)i;
    CHECK_EQ_U64(sm_smem_conflict_cycles(r.sm, a, ~0u), 32); /* all in bank 0 */
    for (int i = 0; i < 32; i++) a[i] = 64;
    CHECK_EQ_U64(sm_smem_conflict_cycles(r.sm, a, ~0u), 1); /* broadcast */
    for (int i = 0; i < 32; i++) a[i] = 128u * (unsigned)(i % 4) + (unsigned)(i & 1);
    CHECK_EQ_U64(sm_smem_conflict_cycles(r.sm, a, ~0u), 4); /* 4 words, bytes of a word share */
    CHECK_EQ_U64(sm_smem_conflict_cycles(r.sm, a, 0x11u), 1); /* lanes 0 and 4: one word */
    rig_close(&r);
}

TEST(sm_scoreboard_raw_waw) {
    sm_warp w;
    uint64_t bits[4] = {0};
    memset(&w, 0, sizeof w);
    w.sb = bits;
    w.sb_long = bits + 2;
    sm_inst in;
    memset(&in, 0, sizeof in);
    in.ndst = 2;
    in.dst[0] = 5;
    in.dst[1] = 70;
    sm_sb_reserve(NULL, &w, &in, true);
    CHECK_EQ_U64(w.n_reserved, 2);
    sm_dec d;
    memset(&d, 0, sizeof d);
    d.nsrc = 1;
    d.src[0] = 6;
    CHECK(!sm_sb_collides(&w, &d));
    d.src[0] = 70; /* RAW */
    CHECK(sm_sb_collides(&w, &d));
    CHECK(sm_sb_longop_dep(&w, &d));
    d.nsrc = 0;
    d.ndst = 1;
    d.dst[0] = 5; /* WAW */
    CHECK(sm_sb_collides(&w, &d));
    sm_sb_release(NULL, &w, &in);
    CHECK_EQ_U64(w.n_reserved, 0);
    CHECK(!sm_sb_collides(&w, &d));
}

/* Two one-operand instructions in the SP collector: reading the same bank
   costs one more cycle than reading two banks. */
static unsigned oc_cycles(unsigned arch_a, unsigned arch_b) {
    static const char *const opts[] = {"gpgpu_operand_collector_num_in_ports_sp", "2",
                                       "gpgpu_operand_collector_num_out_ports_sp", "2",
                                       "gpgpu_pipeline_widths", "2,1,1,2,1,1,2", NULL};
    rig r;
    if (!rig_open(&r, NULL, opts)) return 0;
    ws_sm *sm = r.sm;
    sm_inst in[2];
    memset(in, 0, sizeof in);
    in[0].cls = in[1].cls = SM_SP;
    in[0].nsrc = in[1].nsrc = 1;
    in[0].src_bank[0] = (uint16_t)arch_a;
    in[1].src_bank[0] = (uint16_t)arch_b;
    in[1].uid = 1;
    sm_regset_push(&sm->id_oc[SM_SP], &in[0]);
    sm_idoc_in(sm, &in[0], SM_SP);
    sm_regset_push(&sm->id_oc[SM_SP], &in[1]);
    sm_idoc_in(sm, &in[1], SM_SP);
    unsigned c = 0;
    while (sm->oc_ex[SM_SP].n < 2 && c < 20) {
        sm_oc_cycle(sm);
        c++;
    }
    sm->oc_ex[SM_SP].n = 0, sm->oc_ex_set = 0;
    rig_close(&r);
    return c;
}

TEST(sm_register_bank_conflict_costs_a_cycle) {
    unsigned same = oc_cycles(1, 17), diff = oc_cycles(1, 2); /* 16 banks */
    CHECK_EQ_U64(diff, 3); /* allocate, read, dispatch */
    CHECK_EQ_U64(same, diff + 1);
}

/* Cycles until one SFU instruction with sources in banks 1 and 2 (nsrc of them)
   reaches OC_EX, with nsp SP collector units before the SFU units. */
static unsigned oc_cycles_sfu(const char *nsp, unsigned nsrc) {
    const char *const opts[] = {"gpgpu_operand_collector_num_units_sp", nsp, NULL};
    rig r;
    if (!rig_open(&r, NULL, opts)) return 0;
    ws_sm *sm = r.sm;
    sm_inst in;
    memset(&in, 0, sizeof in);
    in.cls = SM_SFU;
    in.nsrc = (uint8_t)nsrc;
    in.src_bank[0] = 1, in.src_bank[1] = 2;
    sm_regset_push(&sm->id_oc[SM_SFU], &in);
    sm_idoc_in(sm, &in, SM_SFU);
    unsigned c = 0;
    while (!sm->oc_ex[SM_SFU].n && c < 20) {
        sm_oc_cycle(sm);
        c++;
    }
    sm->oc_ex[SM_SFU].n = 0, sm->oc_ex_set = 0;
    rig_close(&r);
    return c;
}

/* A collector unit takes one operand a cycle, also a unit numbered past 64 (the
   arbitration once kept its granted units as a bit set of 64-unit words). */
TEST(sm_collector_unit_reads_one_operand_a_cycle) {
    CHECK_EQ_U64(oc_cycles_sfu("6", 1), 3); /* allocate, read, dispatch */
    CHECK_EQ_U64(oc_cycles_sfu("6", 2), 4); /* two banks free, but one read a unit a cycle */
    CHECK_EQ_U64(oc_cycles_sfu("64", 1), 3); /* the SFU units are numbers 64 up */
    CHECK_EQ_U64(oc_cycles_sfu("64", 2), 4);
}

/* Cycles until n one-operand instructions (classes cls[], source registers
   arch[], warp slots warp[] or 0) queued in ID_OC all reach OC_EX, under the
   options opts (OC_EX is emptied every cycle). */
static unsigned oc_cycles_w(const char *const *opts, unsigned n, const uint8_t *cls,
                            const unsigned *arch, const uint16_t *warp) {
    rig r;
    if (!rig_open(&r, NULL, opts)) return 0;
    ws_sm *sm = r.sm;
    sm_inst in[4];
    memset(in, 0, sizeof in);
    for (unsigned i = 0; i < n; i++) {
        in[i].cls = cls[i];
        in[i].nsrc = 1;
        in[i].src_bank[0] = (uint16_t)arch[i];
        in[i].uid = i;
        in[i].warp = warp ? warp[i] : 0;
        sm_regset_push(&sm->id_oc[cls[i]], &in[i]); /* as the issue stage does: */
        sm_idoc_in(sm, &in[i], cls[i]);              /* its scheduler's count too */
    }
    unsigned c = 0, out = 0;
    while (out < n && c < 20) {
        sm_oc_cycle(sm);
        c++;
        for (unsigned k = 0; k < SM_NCLASS; k++) /* (as the units take them) */
            out += sm->oc_ex[k].n, sm->oc_ex[k].n = 0, sm->oc_ex_scheds[k] = 0;
        sm->oc_ex_set = 0;
    }
    rig_close(&r);
    return c;
}

static unsigned oc_cycles_n(const char *const *opts, unsigned n, const uint8_t *cls,
                            const unsigned *arch) {
    return oc_cycles_w(opts, n, cls, arch, NULL);
}

/* -gpgpu_reg_file_port_throughput 2 runs the collector twice a cycle: the
   three steps (allocate, read, dispatch) take two cycles, and two reads of
   one bank fit in one cycle. */
TEST(sm_reg_file_port_throughput_runs_the_collector_n_times) {
    static const char *const one[] = {"gpgpu_pipeline_widths", "2,1,1,2,1,1,2",
                                      "gpgpu_operand_collector_num_in_ports_sp", "2",
                                      "gpgpu_operand_collector_num_out_ports_sp", "2", NULL};
    static const char *const two[] = {"gpgpu_pipeline_widths", "2,1,1,2,1,1,2",
                                      "gpgpu_operand_collector_num_in_ports_sp", "2",
                                      "gpgpu_operand_collector_num_out_ports_sp", "2",
                                      "gpgpu_reg_file_port_throughput", "2", NULL};
    const uint8_t cls[2] = {SM_SP, SM_SP};
    const unsigned diff[2] = {1, 2}, same[2] = {1, 17}; /* 16 banks */
    CHECK_EQ_U64(oc_cycles_n(one, 1, cls, diff), 3);
    CHECK_EQ_U64(oc_cycles_n(two, 1, cls, diff), 2);
    CHECK_EQ_U64(oc_cycles_n(one, 2, cls, same), 4);
    CHECK_EQ_U64(oc_cycles_n(two, 2, cls, same), 2);
}

/* An SM built from cfg is refused with a message containing msg. */
static void check_sm_refused(ws_config *cfg, const char *msg) {
    char err[512];
    ws_mreq_pool pool;
    ws_mreq_pool_init(&pool);
    ws_addrdec ad;
    CHECK(!ws_addrdec_init(&ad, cfg, err, sizeof err));
    ws_sm_env env = {cfg, &pool, &ad, 0, 32};
    err[0] = 0;
    ws_sm *sm = ws_sm_create(&env, err, sizeof err);
    CHECK(!sm);
    CHECK_STR_CONTAINS(err, msg);
    if (sm) ws_sm_destroy(sm);
    ws_mreq_pool_destroy(&pool);
}

/* The generic collector: only the general units. One input port serves
   every ID_OC register in a step (an SP and an SFU instruction move
   together); each output port dispatches one unit a step. */
TEST(sm_generic_collector_ports_take_any_class) {
#define GEN(in, out)                                                                               \
    {"gpgpu_enable_specialized_operand_collector", "0", "gpgpu_operand_collector_num_units_gen", "4", \
     "gpgpu_operand_collector_num_in_ports_gen", in, "gpgpu_operand_collector_num_out_ports_gen", out, \
     NULL}
    static const char *const in1out2[] = GEN("1", "2"), *const in2out1[] = GEN("2", "1");
#undef GEN
    const uint8_t cls[2] = {SM_SP, SM_SFU}, sp2[2] = {SM_SP, SM_SP};
    const unsigned arch[2] = {1, 2};
    CHECK_EQ_U64(oc_cycles_n(in1out2, 2, cls, arch), 3);
    CHECK_EQ_U64(oc_cycles_n(in2out1, 2, cls, arch), 4);
    /* two SP instructions need two ports (one register, one per port) */
    CHECK_EQ_U64(oc_cycles_n(in1out2, 2, sp2, arch), 4);
    CHECK_EQ_U64(oc_cycles_n(in2out1, 2, sp2, arch), 4);
    /* no general units (or ports): refused when the SM is built */
    static const char *const none[] = {"gpgpu_enable_specialized_operand_collector", "0", NULL};
    ws_config cfg;
    ws_config_init(&cfg);
    char err[512];
    for (const char *const *o = none; o[0]; o += 2)
        CHECK(!ws_config_set(&cfg, o[0], o[1], err, sizeof err));
    check_sm_refused(&cfg, "-gpgpu_operand_collector_num_units_gen 0");
    ws_config_free(&cfg);
}

/* Sub-core SMs: a scheduler's warps (slot % 4) read only its own banks
   (8 banks: reg % 2 + 2 x scheduler) and use only its own collector units. */
TEST(sm_sub_core_banks_and_units_per_scheduler) {
#define SUB(sub)                                                                                   \
    {"gpgpu_enable_specialized_operand_collector", "0", "gpgpu_operand_collector_num_units_gen", "8", \
     "gpgpu_operand_collector_num_in_ports_gen", "8", "gpgpu_operand_collector_num_out_ports_gen", "8", \
     "gpgpu_num_sched_per_core", "4", "gpgpu_num_reg_banks", "8", "gpgpu_num_sp_units", "4",      \
     "gpgpu_num_sfu_units", "4", "gpgpu_pipeline_widths", "4,4,4,4,4,4,4", "gpgpu_sub_core_model", sub,  \
     NULL}
    static const char *const on[] = SUB("1"), *const off[] = SUB("0");
#undef SUB
    const uint8_t sp[2] = {SM_SP, SM_SP};
    const unsigned r1_3[2] = {1, 3}, r1_1[2] = {1, 1};
    const uint16_t same[2] = {0, 4}, other[2] = {0, 1};
    /* registers 1 and 3 of one scheduler's warps share its bank 1 */
    CHECK_EQ_U64(oc_cycles_w(off, 2, sp, r1_3, same), 3);
    CHECK_EQ_U64(oc_cycles_w(on, 2, sp, r1_3, same), 4);
    /* register 1 of warps of schedulers 0 and 1: banks 1 and 3 */
    CHECK_EQ_U64(oc_cycles_w(off, 2, sp, r1_1, other), 4);
    CHECK_EQ_U64(oc_cycles_w(on, 2, sp, r1_1, other), 3);
    /* uneven splits are refused before the run */
    ws_config cfg;
    ws_config_init(&cfg);
    char err[512];
    const char *const *o = on;
    for (; o[0]; o += 2) CHECK(!ws_config_set(&cfg, o[0], o[1], err, sizeof err));
    CHECK(!ws_config_set(&cfg, "gpgpu_num_reg_banks", "6", err, sizeof err));
    check_sm_refused(&cfg, "-gpgpu_num_reg_banks 6 is not a multiple");
    ws_config_free(&cfg);
}

/* Sub-core SMs: the issue stage's per-scheduler count of its instructions in each ID_OC
   register (sm_sched_st.idoc_n, kept at the pushes and pops) against a look at the
   register's slots (sm_regset_free_for), after every cycle of kernels that keep the
   registers busy, with replay (which pushes the reissues) and without. */
static unsigned idoc_bad, idoc_busy;
static void idoc_check(const ws_sm *sm) {
    for (unsigned s = 0; s < sm->n_sched; s++)
        for (unsigned k = 0; k < SM_NCLASS; k++) {
            unsigned n = 0;
            for (unsigned i = 0; i < sm->id_oc[k].n; i++) n += sm->vsched[sm->id_oc[k].slot[i]->warp] == s;
            idoc_bad += n != sm->ss[s].idoc_n[k] ||
                        sm_regset_free_for(sm, &sm->id_oc[k], s) != !sm->ss[s].idoc_n[k];
            idoc_busy += n != 0;
        }
}
TEST(sm_sub_core_idoc_counts_match_the_slots) {
#define SUBC(mode)                                                                                 \
    {"gpgpu_enable_specialized_operand_collector", "0", "gpgpu_operand_collector_num_units_gen", "8", \
     "gpgpu_operand_collector_num_in_ports_gen", "8", "gpgpu_operand_collector_num_out_ports_gen", "8", \
     "gpgpu_num_sched_per_core", "4", "gpgpu_num_reg_banks", "8", "gpgpu_num_sp_units", "4",      \
     "gpgpu_num_sfu_units", "4", "gpgpu_pipeline_widths", "4,4,4,4,4,4,4", "gpgpu_sub_core_model", "1", \
     "warpsim_hazard_mode", mode, NULL}
    static const char *const stall[] = SUBC("stall"), *const replay[] = SUBC("replay");
#undef SUBC
    const char *const *opts[2] = {stall, replay};
    for (unsigned o = 0; o < 2; o++) {
        char *ptx = chain_ptx(24);
        rig r;
        if (!rig_open(&r, ptx, opts[o])) {
            free(ptx);
            continue;
        }
        idoc_bad = idoc_busy = 0;
        rig_each_cycle = idoc_check;
        CHECK(rig_run(&r, 4, 256, 8, 40) > 0);
        rig_each_cycle = NULL;
        CHECK(r.sm->sub_core);
        CHECK_EQ_U64(idoc_bad, 0);
        CHECK(idoc_busy > 100); /* (the registers held instructions) */
        rig_close(&r);
        free(ptx);
    }
}

/* The common collector's step (specialized sets without sub-cores, compiled apart
   in opcoll.c) against the general one on the same random traffic: two SMs, one
   told to take the general step (oc_busy = sm_oc_busy_cycle), get the same
   instructions in ID_OC, the same writeback marks and the same draining of OC_EX;
   after every cycle the same instructions must sit in OC_EX and ID_OC, with the
   same counts. */
static uint64_t oc_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void oc_paths_agree(const char *const *opts, uint64_t seed) {
    enum { NI = 6000, CYC = 2500 };
    rig r[2];
    if (!rig_open(&r[0], NULL, opts)) return;
    if (!rig_open(&r[1], NULL, opts)) {
        rig_close(&r[0]);
        return;
    }
    ws_sm *a = r[0].sm, *b = r[1].sm;
    CHECK(!a->sub_core && !a->oc_generic); /* (the common collector) */
    b->oc_busy = sm_oc_busy_cycle;
    sm_inst *in = calloc(2 * NI, sizeof *in);
    unsigned used = 0;
    bool same = true;
    for (unsigned c = 0; c < CYC && same && used < NI; c++) {
        for (unsigned k = SM_SP; k <= SM_MEM && used < NI; k++) {
            if (oc_rand(&seed) % 3 == 0 || a->id_oc[k].n >= a->id_oc[k].width) continue;
            sm_inst *x = &in[used], *y = &in[NI + used];
            x->cls = (uint8_t)k;
            x->nsrc = (uint8_t)(oc_rand(&seed) % 4);
            for (unsigned i = 0; i < x->nsrc; i++) x->src_bank[i] = (uint16_t)(oc_rand(&seed) % 64);
            x->warp = (uint16_t)(oc_rand(&seed) % 32);
            x->uid = used;
            x->nact = 32;
            *y = *x;
            used++;
            sm_regset_push(&a->id_oc[k], x);
            sm_idoc_in(a, x, k);
            sm_regset_push(&b->id_oc[k], y);
            sm_idoc_in(b, y, k);
        }
        a->bank_wmask = b->bank_wmask = oc_rand(&seed) & oc_rand(&seed) & 0xFFFF;
        sm_oc_cycle(a);
        sm_oc_cycle(b);
        same = a->st.rf_reads == b->st.rf_reads &&
               a->st.oc_blocked_cycles == b->st.oc_blocked_cycles && a->arb_prio == b->arb_prio &&
               a->bq_total == b->bq_total && a->cu_used_all == b->cu_used_all;
        for (unsigned k = 0; k < SM_NCLASS && same; k++) {
            same = a->id_oc[k].n == b->id_oc[k].n && a->oc_ex[k].n == b->oc_ex[k].n;
            for (unsigned i = 0; i < a->oc_ex[k].n && same; i++)
                same = a->oc_ex[k].slot[i]->uid == b->oc_ex[k].slot[i]->uid;
            for (unsigned i = 0; i < a->id_oc[k].n && same; i++)
                same = a->id_oc[k].slot[i]->uid == b->id_oc[k].slot[i]->uid;
            if (oc_rand(&seed) % 3 == 0) { /* the units take */
                a->oc_ex[k].n = b->oc_ex[k].n = 0;
                a->oc_ex_set &= ~(1u << k), b->oc_ex_set &= ~(1u << k);
            }
        }
    }
    CHECK(same);
    CHECK(used > CYC / 2); /* (traffic flowed) */
    CHECK(a->st.oc_blocked_cycles > 0);
    free(in);
    rig_close(&r[0]);
    rig_close(&r[1]);
}

TEST(sm_collector_common_step_matches_general_step) {
    static const char *const two_ports[] = {
        "gpgpu_operand_collector_num_in_ports_sp", "2", "gpgpu_operand_collector_num_out_ports_sp", "2",
        "gpgpu_pipeline_widths", "2,1,1,2,1,1,2", NULL};
    static const char *const general[] = {"gpgpu_operand_collector_num_units_gen", "4",
                                          "gpgpu_operand_collector_num_units_mem", "1", NULL};
    static const char *const twice[] = {"gpgpu_reg_file_port_throughput", "2",
                                        "gpgpu_reg_bank_use_warp_id", "1", NULL};
    oc_paths_agree(NULL, 0x9E3779B97F4A7C15ull);
    oc_paths_agree(two_ports, 12345);
    oc_paths_agree(general, 777);
    oc_paths_agree(twice, 4242);
}

/* The unified L1D/shared array's rule (GPGPU-Sim 4's sizes): the first
   carve-out that holds the kernel's shared memory; the L1D gets the rest as
   ways of its sets, rounded to nearest. */
TEST(sm_carveout_picks_the_first_option_that_holds_the_shared_memory) {
    const uint32_t qv[] = {0, 8, 16, 32, 64, 96}, rtx2060[] = {32, 64};
    /* SM7_QV100: 4 sets x 128 B x 64 ways (32 KB) of a 128 KB array */
    CHECK_EQ_U64(sm_carveout_ways(64, 32768, 128, qv, 6, 0), 256);        /* 128 KB */
    CHECK_EQ_U64(sm_carveout_ways(64, 32768, 128, qv, 6, 8 * 1024), 240); /* 120 KB */
    CHECK_EQ_U64(sm_carveout_ways(64, 32768, 128, qv, 6, 8 * 1024 + 1), 224);
    CHECK_EQ_U64(sm_carveout_ways(64, 32768, 128, qv, 6, 96 * 1024), 64);
    /* SM75_RTX2060: 96 KB array, carve-outs of 32 and 64 KB */
    CHECK_EQ_U64(sm_carveout_ways(64, 32768, 96, rtx2060, 2, 0), 128); /* 64 KB */
    CHECK_EQ_U64(sm_carveout_ways(64, 32768, 96, rtx2060, 2, 40 * 1024), 64);
    uint32_t kb[16];
    unsigned n = 0;
    char err[256];
    CHECK(!sm_carveout_parse("0,8,16,32,64,96", kb, 16, &n, err, sizeof err));
    CHECK_EQ_U64(n, 6);
    CHECK_EQ_U64(kb[5], 96);
    CHECK(sm_carveout_parse("8,0", kb, 16, &n, err, sizeof err));
    CHECK_STR_CONTAINS(err, "ascending");
    CHECK(sm_carveout_parse("8,x", kb, 16, &n, err, sizeof err));
}

TEST(sm_occupancy_limits) {
    rig r;
    if (!rig_open(&r, vadd_ptx, NULL)) return;
    r.l.grid[0] = 1000, r.l.grid[1] = r.l.grid[2] = 1;
    r.l.block[0] = 256, r.l.block[1] = r.l.block[2] = 1;
    ws_kernel_res res = {256, 38, 0};
    ws_sm_start_kernel(r.sm, &r.l, &res);
    CHECK_EQ_U64(ws_sm_max_ctas(r.sm), 3); /* registers: 40 x 256 x 3 <= 32768 */
    res.regs_per_thread = 12;
    ws_sm_start_kernel(r.sm, &r.l, &res);
    CHECK_EQ_U64(ws_sm_max_ctas(r.sm), 6); /* threads: 1536 / 256 */
    res.smem_per_cta = 20000;
    ws_sm_start_kernel(r.sm, &r.l, &res);
    CHECK_EQ_U64(ws_sm_max_ctas(r.sm), 2); /* shared memory: 49152 / 20000 */
    res = (ws_kernel_res){32, 8, 0};
    r.l.block[0] = 32;
    ws_sm_start_kernel(r.sm, &r.l, &res);
    CHECK_EQ_U64(ws_sm_max_ctas(r.sm), 8); /* CTA slots */
    r.l.grid[0] = 20; /* 20 CTAs over 15 SMs: at most 2 per SM */
    ws_sm_start_kernel(r.sm, &r.l, &res);
    CHECK_EQ_U64(ws_sm_max_ctas(r.sm), 2);
    rig_close(&r);
}

/* ---- tensor cores and cp.async ------------------------------------------------ */
/* n dependent mma.sync m16n8k16 (D is the next C) on one warp. */
static char *mma_chain_ptx(unsigned n) {
    size_t cap = 2048 + (size_t)n * 160;
    char *p = malloc(cap);
    size_t o = (size_t)snprintf(p, cap,
                                ".version 7.0\n.target sm_80\n.address_size 64\n"
                                ".visible .entry k(.param .u64 out){\n"
                                ".reg .b32 %%r<16>; .reg .f32 %%f<8>; .reg .b64 %%rd<4>;\n"
                                "ld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\n"
                                "mov.f32 %%f1, 0f00000000;\nmov.f32 %%f2, 0f00000000;\n"
                                "mov.f32 %%f3, 0f00000000;\nmov.f32 %%f4, 0f00000000;\n");
    for (unsigned i = 0; i < n; i++)
        o += (size_t)snprintf(p + o, cap - o,
                              "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%%f1,%%f2,%%f3,%%f4}, "
                              "{%%r1,%%r1,%%r1,%%r1}, {%%r1,%%r1}, {%%f1,%%f2,%%f3,%%f4};\n");
    snprintf(p + o, cap - o,
             "mul.wide.u32 %%rd2, %%r1, 4;\nadd.u64 %%rd3, %%rd1, %%rd2;\n"
             "st.global.f32 [%%rd3], %%f1;\nret;\n}\n");
    return p;
}

TEST(sm_mma_chain_takes_its_latency_per_mma) {
    static const char *const slow[] = {"warpsim_tensor_latency", "100", NULL};
    uint64_t per[2];
    for (int v = 0; v < 2; v++) {
        uint64_t cyc[2];
        unsigned n[2] = {16, 32};
        for (int k = 0; k < 2; k++) {
            char *ptx = mma_chain_ptx(n[k]);
            rig r;
            if (!rig_open(&r, ptx, v ? slow : NULL)) return;
            cyc[k] = rig_run(&r, 1, 32, 16, 1);
            CHECK_EQ_U64(ws_sm_get_stats(r.sm)->warp_insts, n[k] + 10);
            rig_close(&r);
            free(ptx);
        }
        per[v] = (cyc[1] - cyc[0]) / 16;
    }
    /* latency 24 + 8 (2048 multiply-adds at 256 per cycle), plus issue, operand
       collection of its 10 sources and writeback */
    CHECK_MSG(per[0] >= 32 && per[0] <= 48, "cycles per dependent mma = %llu", (unsigned long long)per[0]);
    CHECK_MSG(per[1] >= per[0] + 70 && per[1] <= per[0] + 80, "with latency 100: %llu (default %llu)",
              (unsigned long long)per[1], (unsigned long long)per[0]);
}

/* cp.async.wait_all holds the warp until its copy is back from memory; work
   between the copy and the wait overlaps it. */
static const char *cpasync_ptx(bool wait_first) {
    static char buf[4096];
    size_t o = (size_t)snprintf(buf, sizeof buf,
                                ".version 7.0\n.target sm_80\n.address_size 64\n"
                                ".visible .entry k(.param .u64 out){\n"
                                ".reg .b32 %%r<8>; .reg .b64 %%rd<4>;\n.shared .align 16 .b8 sm[512];\n"
                                "ld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\nshl.b32 %%r2, %%r1, 4;\n"
                                "mov.u32 %%r3, sm;\nadd.u32 %%r3, %%r3, %%r2;\ncvt.u64.u32 %%rd2, %%r2;\n"
                                "add.u64 %%rd3, %%rd1, %%rd2;\n"
                                "cp.async.cg.shared.global [%%r3], [%%rd3], 16;\ncp.async.commit_group;\n%s",
                                wait_first ? "cp.async.wait_all;\n" : "");
    for (int i = 0; i < 40; i++) o += (size_t)snprintf(buf + o, sizeof buf - o, "add.u32 %%r1, %%r1, 1;\n");
    snprintf(buf + o, sizeof buf - o, "%sld.shared.u32 %%r4, [%%r3];\nadd.u32 %%r4, %%r4, %%r1;\n"
             "st.global.u32 [%%rd3], %%r4;\nret;\n}\n", wait_first ? "" : "cp.async.wait_all;\n");
    return buf;
}

TEST(sm_cp_async_wait_waits_for_the_copy) {
    uint64_t cyc[2];
    for (int w = 0; w < 2; w++) {
        rig r;
        if (!rig_open(&r, cpasync_ptx(w == 0), NULL)) return;
        cyc[w] = rig_run(&r, 1, 32, 8, 600);
        CHECK_EQ_U64(ws_sm_get_stats(r.sm)->ctas_done, 1);
        rig_close(&r);
    }
    /* waiting at once: the 40 dependent adds (~10 cycles each) start after the
       600-cycle copy; waiting after them hides them under it */
    CHECK_MSG(cyc[0] >= cyc[1] + 300, "wait first %llu, wait after the adds %llu", (unsigned long long)cyc[0],
              (unsigned long long)cyc[1]);
}
