/* Warp-level operations (vote, match, redux, shfl, activemask,
 * bar.warp.sync) under per-lane membermasks: cooperative-groups tiles of
 * every width, sparse and random masks, diverged and guarded execution. Every
 * result is compared with a CPU model written from the PTX ISA text; where
 * PTX leaves a case undefined the model states warpsim's documented choice
 * (see src/exec/exec_warp.c). */
#include <stdlib.h>

#include "test_exec_util.h"
#include "test_ptx_util.h"

#define NWARPS 30 /* NSHAPES x NPATTERNS, one CTA */
#define NSHAPES 10
#define NPATTERNS 3
#define NT (NWARPS * 32)
#define SENTINEL 0xDEADBEEFu
#define PBIT (1ull << 40) /* the instruction's predicate result in the output */

static uint64_t rng(uint64_t *s) { /* splitmix64: deterministic, seedable */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

enum { K_VOTE_ALL, K_VOTE_ANY, K_VOTE_UNI, K_BALLOT, K_MATCH_ANY, K_MATCH_ALL, K_REDUX, K_SHFL,
       K_ACTIVEMASK, K_WARPSYNC };

typedef struct wop {
    const char *ptx;   /* reads a %r1/%rd4, pred %p2, mask %r2, shfl b %r7 c %r8; writes %r6 / %p3 */
    int kind;
    int sub;           /* redux: 0 add 1 min 2 max 3 and 4 or 5 xor; shfl: 0 up 1 down 2 bfly 3 idx */
    bool wide;         /* match on 64 bits */
    bool sgn;          /* redux min/max signed */
    bool neg;          /* predicate source negated */
    int mask;          /* 0: %r2 per lane, 1: immediate 0xffffffff, 2: no membermask (executing lanes) */
} wop;

static const wop ops[] = {
    {"vote.sync.all.pred %p3, %p2, %r2;", K_VOTE_ALL, 0, false, false, false, 0},
    {"vote.sync.any.pred %p3, %p2, %r2;", K_VOTE_ANY, 0, false, false, false, 0},
    {"vote.sync.uni.pred %p3, %p2, %r2;", K_VOTE_UNI, 0, false, false, false, 0},
    {"vote.sync.ballot.b32 %r6, %p2, %r2;", K_BALLOT, 0, false, false, false, 0},
    {"vote.sync.any.pred %p3, !%p2, %r2;", K_VOTE_ANY, 0, false, false, true, 0},
    {"vote.sync.ballot.b32 %r6, !%p2, %r2;", K_BALLOT, 0, false, false, true, 0},
    {"vote.sync.ballot.b32 %r6, %p2, 0xffffffff;", K_BALLOT, 0, false, false, false, 1},
    {"vote.sync.all.pred %p3, %p2, -1;", K_VOTE_ALL, 0, false, false, false, 1},
    {"vote.ballot.b32 %r6, %p2;", K_BALLOT, 0, false, false, false, 2},
    {"vote.any.pred %p3, %p2;", K_VOTE_ANY, 0, false, false, false, 2},
    {"match.any.sync.b32 %r6, %r1, %r2;", K_MATCH_ANY, 0, false, false, false, 0},
    {"match.all.sync.b32 %r6|%p3, %r1, %r2;", K_MATCH_ALL, 0, false, false, false, 0},
    {"match.any.sync.b64 %r6, %rd4, %r2;", K_MATCH_ANY, 0, true, false, false, 0},
    {"match.all.sync.b64 %r6|%p3, %rd4, %r2;", K_MATCH_ALL, 0, true, false, false, 0},
    {"match.any.sync.b32 %r6, %r1, 0xffffffff;", K_MATCH_ANY, 0, false, false, false, 1},
    {"redux.sync.add.u32 %r6, %r1, %r2;", K_REDUX, 0, false, false, false, 0},
    {"redux.sync.add.s32 %r6, %r1, %r2;", K_REDUX, 0, false, true, false, 0},
    {"redux.sync.min.u32 %r6, %r1, %r2;", K_REDUX, 1, false, false, false, 0},
    {"redux.sync.min.s32 %r6, %r1, %r2;", K_REDUX, 1, false, true, false, 0},
    {"redux.sync.max.u32 %r6, %r1, %r2;", K_REDUX, 2, false, false, false, 0},
    {"redux.sync.max.s32 %r6, %r1, %r2;", K_REDUX, 2, false, true, false, 0},
    {"redux.sync.and.b32 %r6, %r1, %r2;", K_REDUX, 3, false, false, false, 0},
    {"redux.sync.or.b32 %r6, %r1, %r2;", K_REDUX, 4, false, false, false, 0},
    {"redux.sync.xor.b32 %r6, %r1, %r2;", K_REDUX, 5, false, false, false, 0},
    {"redux.sync.add.u32 %r6, %r1, 0xffffffff;", K_REDUX, 0, false, false, false, 1},
    {"shfl.sync.up.b32 %r6|%p3, %r1, %r7, %r8, %r2;", K_SHFL, 0, false, false, false, 0},
    {"shfl.sync.down.b32 %r6|%p3, %r1, %r7, %r8, %r2;", K_SHFL, 1, false, false, false, 0},
    {"shfl.sync.bfly.b32 %r6|%p3, %r1, %r7, %r8, %r2;", K_SHFL, 2, false, false, false, 0},
    {"shfl.sync.idx.b32 %r6|%p3, %r1, %r7, %r8, %r2;", K_SHFL, 3, false, false, false, 0},
    {"shfl.sync.down.b32 %r6|%p3, %r1, %r7, %r8, -1;", K_SHFL, 1, false, false, false, 1},
    {"activemask.b32 %r6;", K_ACTIVEMASK, 0, false, false, false, 2},
    {"bar.warp.sync %r2;", K_WARPSYNC, 0, false, false, false, 0},
    {"bar.warp.sync -1;", K_WARPSYNC, 0, false, false, false, 1},
};

/* Inputs of one launch: per thread a (value), b (membermask | shfl b << 32),
 * c (bit 0 executes, bit 1 predicate, bits 8.. shfl c). */
typedef struct wcase {
    uint64_t a[NT], b[NT], c[NT];
} wcase;

/* Membermask of lane l for shape s; col holds the warp's random colours. */
static uint32_t shape_mask(int s, uint32_t l, const uint8_t *col, uint64_t *seed) {
    static const unsigned width[6] = {1, 2, 4, 8, 16, 32};
    if (s < 6) { /* a cooperative-groups tile: each lane names its own tile */
        unsigned w = width[s];
        uint32_t t = w == 32 ? ~0u : ((1u << w) - 1);
        return t << (l & ~(w - 1));
    }
    switch (s) {
    case 6: return (l & 1) ? 0xAAAAAAAAu : 0x55555555u; /* even / odd lanes */
    case 7: { /* a random partition into groups */
        uint32_t m = 0;
        for (uint32_t k = 0; k < 32; k++) if (col[k] == col[l]) m |= 1u << k;
        return m;
    }
    case 8: return (uint32_t)rng(seed) | 1u << l; /* random masks that disagree across lanes */
    default: return ~0u;                           /* full warp */
    }
}

static void make_case(wcase *wc, uint64_t seed, bool small_values) {
    for (int w = 0; w < NWARPS; w++) {
        int shape = w % NSHAPES, pat = w / NSHAPES;
        uint8_t col[32];
        unsigned ncol = 1 + (unsigned)(rng(&seed) % 6);
        for (int l = 0; l < 32; l++) col[l] = (uint8_t)(rng(&seed) % ncol);
        uint32_t k = 1 + (uint32_t)(rng(&seed) % 31);
        unsigned pfalse = (unsigned[]){64, 3, 2}[rng(&seed) % 3]; /* so all-true groups occur */
        for (uint32_t l = 0; l < 32; l++) {
            int t = w * 32 + (int)l;
            uint64_t r = rng(&seed);
            /* match needs equal values: a few classes, some differing only above bit 32 */
            wc->a[t] = small_values ? (r % 3) | ((r >> 8) % 2) << 35 : r;
            uint32_t m = shape_mask(shape, l, col, &seed);
            uint32_t sb = (uint32_t)(rng(&seed) % 40); /* b >= 32: only b[4:0] counts */
            uint32_t sc;
            if (shape < 6) { /* what __shfl_*_sync(mask, v, b, width) passes: clamp 0 (up) or 31 */
                unsigned width = 1u << shape;
                sc = (32 - width) << 8 | (rng(&seed) % 2 ? 31 : 0);
            } else {
                sc = (uint32_t)(rng(&seed) & 0x1F1F);
            }
            bool ex = pat == 0 || (pat == 1 ? rng(&seed) % 4 != 0 : l < k);
            bool pr = rng(&seed) % pfalse != 0;
            wc->b[t] = m | (uint64_t)sb << 32;
            wc->c[t] = (ex ? 1u : 0u) | (pr ? 2u : 0u) | (uint64_t)sc << 8;
        }
    }
}

/* The CPU model of one op for thread t: the value the test kernel stores. */
static uint64_t model(const wop *op, const wcase *wc, int t) {
    int base = t & ~31;
    uint32_t l = (uint32_t)t & 31, E = 0, P = 0;
    for (int k = 0; k < 32; k++) {
        if (wc->c[base + k] & 1) E |= 1u << k;
        if (((wc->c[base + k] >> 1) & 1) ^ (op->neg ? 1 : 0)) P |= 1u << k;
    }
    if (!(E >> l & 1)) return SENTINEL; /* not executing: destinations untouched */
    uint32_t m = op->mask == 0 ? (uint32_t)wc->b[t] : ~0u;
    uint32_t S = m & E; /* the lane's participants: its membermask among executing lanes */
    uint32_t q = P & S, r32 = SENTINEL;
    bool p = false;
    switch (op->kind) {
    case K_VOTE_ALL: p = q == S; break;
    case K_VOTE_ANY: p = q != 0; break;
    case K_VOTE_UNI: p = q == S || q == 0; break;
    case K_BALLOT: r32 = q; break;
    case K_ACTIVEMASK: r32 = E; break;
    case K_WARPSYNC: break;
    case K_MATCH_ANY: case K_MATCH_ALL: {
        uint64_t vm = op->wide ? ~0ull : 0xFFFFFFFFull, me = wc->a[t] & vm;
        uint32_t same = 0;
        for (int k = 0; k < 32; k++)
            if ((S >> k & 1) && (wc->a[base + k] & vm) == me) same |= 1u << k;
        if (op->kind == K_MATCH_ANY) { r32 = same; break; }
        p = same == S;
        r32 = p ? S : 0;
        break;
    }
    case K_REDUX: {
        bool first = true;
        uint32_t acc = 0;
        for (int k = 0; k < 32; k++) {
            if (!(S >> k & 1)) continue;
            uint32_t v = (uint32_t)wc->a[base + k];
            if (first) { acc = v; first = false; continue; }
            switch (op->sub) {
            case 0: acc += v; break;
            case 1: acc = op->sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
            case 2: acc = op->sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
            case 3: acc &= v; break;
            case 4: acc |= v; break;
            default: acc ^= v; break;
            }
        }
        r32 = acc;
        break;
    }
    case K_SHFL: { /* the PTX ISA pseudocode; the membermask does not enter */
        uint32_t bval = (uint32_t)(wc->b[t] >> 32) & 31, c = (uint32_t)(wc->c[t] >> 8);
        uint32_t cval = c & 31, seg = (c >> 8) & 31;
        int maxl = (int)((l & seg) | (cval & ~seg)), minl = (int)(l & seg), j;
        switch (op->sub) {
        case 0: j = (int)l - (int)bval; p = j >= maxl; break;
        case 1: j = (int)l + (int)bval; p = j <= maxl; break;
        case 2: j = (int)(l ^ bval); p = j <= maxl; break;
        default: j = minl | (int)(bval & ~seg); p = j <= maxl; break;
        }
        if (!p) j = (int)l;
        /* a source lane that does not execute gives its register value (undefined in PTX) */
        r32 = (uint32_t)wc->a[base + j];
        break;
    }
    }
    return r32 | (p ? PBIT : 0);
}

static ws_status run_op(const wop *op, bool guard, const wcase *wc, uint64_t *out, ws_fault *f) {
    char body[1024];
    snprintf(body, sizeof body,
             "and.b32 %%r4, %%r3, 1;\nsetp.ne.u32 %%p1, %%r4, 0;\n"
             "and.b32 %%r4, %%r3, 2;\nsetp.ne.u32 %%p2, %%r4, 0;\n"
             "shr.u64 %%rd10, %%rd5, 32;\ncvt.u32.u64 %%r7, %%rd10;\nshr.u32 %%r8, %%r3, 8;\n"
             "mov.u32 %%r6, %u;\nsetp.ne.u32 %%p3, %%r0, %%r0;\n"
             "%s%s\n%s"
             "cvt.u64.u32 %%rd7, %%r6;\nselp.u64 %%rd10, %llu, 0, %%p3;\nor.b64 %%rd7, %%rd7, %%rd10;\n",
             SENTINEL, guard ? "@%p1 " : "@!%p1 bra SKIP;\n", op->ptx, guard ? "" : "SKIP:\n",
             (unsigned long long)PBIT);
    return wx_eval(body, NT, wc->a, wc->b, wc->c, out, f);
}

/* Every op, every mask shape and execution pattern, branch and guard. */
static void check_ops(int kind_lo, int kind_hi) {
    static wcase wc;
    static uint64_t out[NT];
    for (uint64_t seed = 1; seed <= 3; seed++) {
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
            const wop *op = &ops[i];
            if (op->kind < kind_lo || op->kind > kind_hi) continue;
            make_case(&wc, seed * 7919 + i, op->kind == K_MATCH_ANY || op->kind == K_MATCH_ALL);
            for (int guard = 0; guard < 2; guard++) {
                ws_fault f = {0};
                memset(out, 0, sizeof out);
                ws_status st = run_op(op, guard, &wc, out, &f);
                CHECK_MSG(st == WS_OK, "'%s' (%s): %s %s", op->ptx, guard ? "guard" : "branch",
                          ws_status_name(st), f.msg);
                if (st != WS_OK) continue;
                int bad = 0;
                for (int t = 0; t < NT && bad < 3; t++) {
                    uint64_t want = model(op, &wc, t);
                    if (out[t] == want) continue;
                    bad++;
                    ws_test_fail(__FILE__, __LINE__,
                                 "'%s' (%s, seed %llu) warp %d (shape %d, pattern %d) lane %d: "
                                 "mask 0x%08x: got 0x%llx want 0x%llx",
                                 op->ptx, guard ? "guard" : "branch", (unsigned long long)seed, t / 32,
                                 (t / 32) % NSHAPES, (t / 32) / NSHAPES, t & 31, (uint32_t)wc.b[t],
                                 (unsigned long long)out[t], (unsigned long long)want);
                }
            }
        }
    }
}

TEST(exec_warp_member_vote) { check_ops(K_VOTE_ALL, K_BALLOT); }
TEST(exec_warp_member_match) { check_ops(K_MATCH_ANY, K_MATCH_ALL); }
TEST(exec_warp_member_redux) { check_ops(K_REDUX, K_REDUX); }
TEST(exec_warp_member_shfl) { check_ops(K_SHFL, K_SHFL); }
TEST(exec_warp_member_activemask_warpsync) { check_ops(K_ACTIVEMASK, K_WARPSYNC); }

/* A lane whose membermask leaves itself out is undefined in PTX: warpsim
 * faults, naming the lane; lanes that do not execute are not checked. */
TEST(exec_warp_member_self_missing_faults) {
    static const char *bodies[] = {
        "vote.sync.any.pred %p3, %p2, %r2;", "vote.sync.ballot.b32 %r6, %p2, %r2;",
        "match.any.sync.b32 %r6, %r1, %r2;", "match.all.sync.b64 %r6|%p3, %rd4, %r2;",
        "redux.sync.add.u32 %r6, %r1, %r2;", "shfl.sync.idx.b32 %r6, %r1, 0, 31, %r2;",
        "bar.warp.sync %r2;",
    };
    uint64_t a[64], b[64], c[64], out[64];
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        char body[512];
        for (int t = 0; t < 64; t++) {
            a[t] = (uint64_t)t;
            /* tiles of 4, but lane 37 (warp 1, lane 5) names the tile beside its own */
            b[t] = t == 37 ? 0xF00u : 0xFu << ((t & 31) & ~3);
            c[t] = 0;
        }
        /* everyone executes: lane 5 of warp 1 faults */
        snprintf(body, sizeof body, "setp.eq.u32 %%p2, %%r0, %%r0;\n%s\nmov.u64 %%rd7, 1;\n", bodies[i]);
        ws_fault f = {0};
        ws_status st = wx_eval(body, 64, a, b, c, out, &f);
        CHECK_MSG(st == WS_ERR_LAUNCH_FAILURE, "'%s': %s", bodies[i], ws_status_name(st));
        CHECK_STR_CONTAINS(f.msg, "does not include the lane");
        CHECK_STR_CONTAINS(f.msg, "thread (37,0,0)");
        CHECK_STR_CONTAINS(f.msg, i + 1 < sizeof bodies / sizeof bodies[0] ? "sync: membermask 0x00000f00"
                                                                            : "bar.warp.sync: membermask");
        /* the same with lane 37 diverged away: no fault, everyone else done */
        snprintf(body, sizeof body,
                 "setp.eq.u32 %%p2, %%r0, %%r0;\nmov.u64 %%rd7, 0;\nsetp.eq.u32 %%p1, %%r0, 37;\n"
                 "@%%p1 bra SKIP;\n%s\nmov.u64 %%rd7, 1;\nSKIP:\n", bodies[i]);
        memset(out, 0, sizeof out);
        st = wx_eval(body, 64, a, b, c, out, &f);
        CHECK_MSG(st == WS_OK, "'%s': %s %s", bodies[i], ws_status_name(st), f.msg);
        for (int t = 0; t < 64; t++) CHECK_EQ_U64(out[t], t != 37);
    }
    /* an immediate mask that leaves out executing lanes */
    const char *imm = "setp.eq.u32 %p2, %r0, %r0;\nvote.sync.any.pred %p3, %p2, 0xffff;\nmov.u64 %rd7, 1;\n";
    ws_fault f = {0};
    CHECK_EQ_I64(wx_eval(imm, 32, a, b, c, out, &f), WS_ERR_LAUNCH_FAILURE);
    CHECK_STR_CONTAINS(f.msg, "membermask 0x0000ffff of lane 16");
}

/* nvcc's output for cooperative-groups tiles, coalesced groups and labeled
 * partitions (tests/data/ptx/cgtiles.cu), checked against the CPU. */
#define CG_NOUT 8
#define CG_NT 64

static void cg_launch(const char *ptx, const char *kernel, unsigned nt, const uint32_t *in, uint32_t *out) {
    wx_buf b[2] = {{in, NULL, CG_NT * 4}, {NULL, out, CG_NT * CG_NOUT * 4}};
    wx_cfg cfg = {0};
    cfg.kernel = kernel;
    cfg.block[0] = nt;
    ws_fault f = {0};
    ws_status st = wx_launch(ptx, &cfg, b, 2, &f, NULL);
    CHECK_MSG(st == WS_OK, "%s: %s %s", kernel, ws_status_name(st), f.msg);
}

TEST(exec_warp_member_cg_tiles_nvcc) {
    char *ptx = ptxt_read("tests/data/ptx/cgtiles.ptx", NULL);
    CHECK_MSG(ptx, "cannot read tests/data/ptx/cgtiles.ptx");
    if (!ptx) return;
    uint32_t in[CG_NT], out[CG_NT * CG_NOUT];
    uint64_t seed = 42;
    int nbad = 0; /* failures reported */
    static const char *names[] = {"tiles2", "tiles4", "tiles8", "tiles16"};
    for (int rep = 0; rep < 4; rep++) {
        /* 48 threads: the second warp is partial (its tiles are whole) */
        unsigned nt = rep == 3 ? 48 : CG_NT;
        for (int t = 0; t < CG_NT; t++) in[t] = (uint32_t)rng(&seed);
        if (rep == 1) for (int t = 0; t < CG_NT; t++) in[t] |= 1; /* all-true tiles */
        for (unsigned s = 0; s < 4; s++) {
            unsigned W = 2u << s;
            memset(out, 0xEE, sizeof out);
            cg_launch(ptx, names[s], nt, in, out);
            for (unsigned t = 0; t < nt; t++) {
                unsigned b0 = t & ~(W - 1), r = t - b0;
                uint32_t any = 0, all = 1, ballot = 0, match = 0, sum = 0;
                int32_t mx = (int32_t)in[b0];
                for (unsigned k = 0; k < W; k++) {
                    uint32_t v = in[b0 + k];
                    any |= v & 1;
                    all &= v & 1;
                    ballot |= (v & 1) << k;
                    if (v % 3 == in[t] % 3) match |= 1u << k;
                    sum += v;
                    if ((int32_t)v > mx) mx = (int32_t)v;
                }
                uint32_t want[CG_NOUT] = {any, all, ballot, match, sum, (uint32_t)mx,
                                          in[r + 1 < W ? t + 1 : t], in[b0 + W - 1]};
                for (int o = 0; o < CG_NOUT && nbad < 8; o++)
                    if (out[t * CG_NOUT + o] != want[o] && ++nbad)
                        ws_test_fail(__FILE__, __LINE__, "%s thread %u output %d: got 0x%x want 0x%x",
                                     names[s], t, o, out[t * CG_NOUT + o], want[o]);
            }
        }
        /* labeled_partition of a coalesced group */
        memset(out, 0, sizeof out);
        cg_launch(ptx, "labeled", nt, in, out);
        for (unsigned t = 0; t < CG_NT; t++) {
            uint32_t *o = &out[t * CG_NOUT], want[CG_NOUT] = {0};
            if (t < nt && (in[t] & 2)) {
                unsigned w0 = t & ~31u;
                uint32_t gsz = 0, grank = 0, gsum = 0, psz = 0, prank = 0, psum = 0, pball = 0, pany = 0, pall = 1;
                for (unsigned k = w0; k < w0 + 32 && k < nt; k++) {
                    if (!(in[k] & 2)) continue;
                    gsz++;
                    grank += k < t;
                    gsum += in[k];
                    if (((in[k] >> 2) & 3) != ((in[t] >> 2) & 3)) continue;
                    pball |= (in[k] & 1) << psz; /* ballot packed by rank */
                    psz++;
                    prank += k < t;
                    psum += in[k];
                    pany |= in[k] & 1;
                    pall &= in[k] & 1;
                }
                uint32_t w[CG_NOUT] = {gsz, grank, gsum, psz, prank, psum, pball, pany | pall << 1};
                memcpy(want, w, sizeof want);
            }
            for (int k = 0; k < CG_NOUT && nbad < 8; k++)
                if (o[k] != want[k] && ++nbad)
                    ws_test_fail(__FILE__, __LINE__, "labeled thread %u output %d: got 0x%x want 0x%x", t, k,
                                 o[k], want[k]);
        }
    }
    free(ptx);
}
