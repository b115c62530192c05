/* Warp-level instructions: vote, shfl, activemask, match, redux, and the
 * membermask check of bar.warp.sync.
 *
 * The .sync forms take a membermask operand that may differ per lane
 * (cooperative-groups tiles: each lane names its own tile). Each executing
 * lane computes over its own participant set = its membermask intersected
 * with the lanes executing the instruction (x->mask). Where PTX leaves the
 * behaviour undefined, warpsim does this:
 *  - an executing lane whose membermask does not include itself: a
 *    WS_ERR_LAUNCH_FAILURE fault naming the lane and its mask;
 *  - lanes of the membermask that do not execute (exited, diverged, guard
 *    false, partial warp): left out of the set; the SIMT stack cannot wait for
 *    them, and a full mask under divergence (__shfl_down_sync(0xffffffff, ..)
 *    inside an if) must keep working;
 *  - lanes whose masks disagree: each lane still uses its own mask.
 * shfl's result does not depend on the membermask (the c operand forms the
 * segments); a source lane that does not execute gives its current register
 * value. Forms without .sync use the executing lanes. */
#include "exec/exec_internal.h"

/* Participant sets of one .sync instruction. */
typedef struct ws_msets {
    bool uniform;               /* every executing lane's set is x->mask */
    uint32_t set[WS_WARP_SIZE]; /* otherwise: lane l's set (executing lanes only) */
} ws_msets;

/* Slow path of read_members: the masks V differ or leave out executing lanes. */
static ws_status lane_sets(ws_xctx *x, const uint64_t *V, ws_msets *ms) {
    uint32_t M = x->mask;
    ms->uniform = false;
    WS_FOR_LANES(l, M) {
        uint32_t m = (uint32_t)V[l];
        if (!(m >> l & 1))
            return ws_fail(x, WS_ERR_LAUNCH_FAILURE, l,
                           "%s.sync: membermask 0x%08x of lane %u does not include the lane "
                           "(undefined in PTX)",
                           x->in->op == WS_OP_BAR ? "bar.warp" : ws_opcode_name((ws_opcode)x->in->op), m, l);
        ms->set[l] = m & M;
    }
    return WS_OK;
}

/* Read the membermask operand src[mi] and build the sets; a fault when an
 * executing lane is not in its own mask. */
static inline ws_status read_members(ws_xctx *x, unsigned mi, ws_msets *ms) {
    const ws_inst *in = x->in;
    uint32_t M = x->mask, all;
    ms->uniform = true;
    if (in->nsrc <= mi) return ws_unsupported(x, "missing membermask operand");
    const ws_operand *o = &in->src[mi];
    uint64_t tmp[WS_WARP_SIZE];
    const uint64_t *V = o->kind == WS_OPND_REG ? ws_reg(x->w, o->reg) : ws_src(x, o, tmp);
    if (!V) return ws_unsupported(x, "membermask operand kind");
    /* Common case: every executing lane's mask covers all executing lanes,
     * so every set is x->mask. The full-warp loop is branch-free, so the
     * compiler may vectorise it. */
    if (o->kind == WS_OPND_IMM) {
        all = (uint32_t)o->imm;
    } else if (M == ~0u) {
        all = ~0u;
        for (unsigned l = 0; l < WS_WARP_SIZE; l++) all &= (uint32_t)V[l];
    } else {
        all = ~0u;
        WS_FOR_LANES(l, M) all &= (uint32_t)V[l];
    }
    return (all & M) == M ? WS_OK : lane_sets(x, V, ms);
}

/* As read_members; forms without .sync have no membermask. */
static ws_status member_sets(ws_xctx *x, unsigned mi, ws_msets *ms) {
    ms->uniform = true;
    return x->in->flags & WS_F_SYNC ? read_members(x, mi, ms) : WS_OK;
}

/* Next group of lanes sharing one participant set: *grp = the lanes, *set =
 * their set. Lanes are taken from *todo; false when it is empty. */
static inline bool next_group(const ws_msets *ms, uint32_t *todo, uint32_t *grp, uint32_t *set) {
    if (!*todo) return false;
    if (ms->uniform) {
        *grp = *set = *todo;
        *todo = 0;
        return true;
    }
    uint32_t s = ms->set[__builtin_ctz(*todo)], g = 0;
    WS_FOR_LANES(k, *todo) if (ms->set[k] == s) g |= 1u << k;
    *todo &= ~g;
    *grp = g;
    *set = s;
    return true;
}

/* redux over the lanes of set s (never empty: it holds the executing lane). */
static bool redux_set(unsigned op, bool sg, const uint64_t *A, uint32_t s, uint32_t *out) {
    uint32_t acc = (uint32_t)A[__builtin_ctz(s)];
    WS_FOR_LANES(l, s & (s - 1)) {
        uint32_t v = (uint32_t)A[l];
        switch (op) {
        case WS_ATOM_ADD: acc += v; break;
        case WS_ATOM_AND: acc &= v; break;
        case WS_ATOM_OR: acc |= v; break;
        case WS_ATOM_XOR: acc ^= v; break;
        case WS_ATOM_MIN: acc = sg ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case WS_ATOM_MAX: acc = sg ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        default: return false;
        }
    }
    *out = acc;
    return true;
}

ws_status ws_warp_check_members(ws_xctx *x, unsigned mi) {
    ws_msets ms;
    return read_members(x, mi, &ms);
}

ws_status ws_exec_warp(ws_xctx *x) {
    const ws_inst *in = x->in;
    uint32_t M = x->mask, todo = M, g, s;
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE];
    ws_msets ms;
    ws_status st;
    switch ((ws_opcode)in->op) {
    case WS_OP_ACTIVEMASK: { /* no membermask: the lanes executing it */
        uint64_t *D = ws_dst(x, &in->dst[0]);
        WS_FOR_LANES(l, M) D[l] = M;
        return WS_OK;
    }
    case WS_OP_ELECT: { /* the leader: the lowest executing lane of its member set */
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        if ((st = member_sets(x, 0, &ms)) != WS_OK) return st;
        uint64_t *D = ws_dst(x, &in->dst[0]);
        uint32_t lead = 0;
        while (next_group(&ms, &todo, &g, &s)) {
            uint32_t l0 = (uint32_t)__builtin_ctz(s & M);
            lead |= 1u << l0;
            WS_FOR_LANES(l, g) D[l] = l0;
        }
        if (in->ndst > 1) ws_pred_write(x, &in->dst[1], lead);
        return WS_OK;
    }
    case WS_OP_VOTE: {
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        if ((st = member_sets(x, 1, &ms)) != WS_OK) return st;
        uint32_t p = ws_pred_src(x, &in->src[0]) & M, res = 0;
        if (in->sub == WS_VOTE_BALLOT) { /* lanes outside the set contribute 0 */
            uint64_t *D = ws_dst(x, &in->dst[0]);
            while (next_group(&ms, &todo, &g, &s)) WS_FOR_LANES(l, g) D[l] = p & s;
            return WS_OK;
        }
        while (next_group(&ms, &todo, &g, &s)) {
            uint32_t q = p & s;
            bool r;
            switch (in->sub) {
            case WS_VOTE_ALL: r = q == s; break;
            case WS_VOTE_ANY: r = q != 0; break;
            case WS_VOTE_UNI: r = q == s || q == 0; break;
            default: return ws_unsupported(x, "vote mode");
            }
            if (r) res |= g;
        }
        ws_pred_write(x, &in->dst[0], res);
        return WS_OK;
    }
    case WS_OP_SHFL: {
        if (in->nsrc < 3) return ws_unsupported(x, "missing operand");
        if ((st = member_sets(x, 3, &ms)) != WS_OK) return st; /* only checks: see the top */
        const uint64_t *A = ws_src(x, &in->src[0], ta), *B = ws_src(x, &in->src[1], tb),
                       *C = ws_src(x, &in->src[2], tc);
        if (!A || !B || !C) return ws_unsupported(x, "operand kind");
        uint64_t out[WS_WARP_SIZE];
        uint32_t pv = 0;
        WS_FOR_LANES(l, M) {
            uint32_t b = (uint32_t)B[l] & 31, c = (uint32_t)C[l];
            uint32_t clamp = c & 31, seg = (c >> 8) & 31;
            int32_t maxl = (int32_t)((l & seg) | (clamp & ~seg)), minl = (int32_t)(l & seg), j;
            bool ok;
            switch (in->sub) {
            case WS_SHFL_UP: j = (int32_t)l - (int32_t)b; ok = j >= maxl; break;
            case WS_SHFL_DOWN: j = (int32_t)l + (int32_t)b; ok = j <= maxl; break;
            case WS_SHFL_BFLY: j = (int32_t)(l ^ b); ok = j <= maxl; break;
            case WS_SHFL_IDX: j = minl | (int32_t)(b & ~seg); ok = j <= maxl; break;
            default: return ws_unsupported(x, "shfl mode");
            }
            if (!ok) j = (int32_t)l;
            out[l] = A[j] & 0xFFFFFFFFu;
            pv |= (uint32_t)ok << l;
        }
        uint64_t *D = ws_dst(x, &in->dst[0]);
        WS_FOR_LANES(l, M) D[l] = out[l];
        if (in->ndst > 1) ws_pred_write(x, &in->dst[1], pv);
        return WS_OK;
    }
    case WS_OP_MATCH: {
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        if ((st = member_sets(x, 1, &ms)) != WS_OK) return st;
        const uint64_t *A = ws_src(x, &in->src[0], ta);
        if (!A) return ws_unsupported(x, "operand kind");
        uint64_t vm = ws_type_size((ws_type)in->type) == 8 ? ~0ull : 0xFFFFFFFFull;
        uint64_t *D = ws_dst(x, &in->dst[0]);
        uint64_t out[WS_WARP_SIZE];
        if (in->sub == WS_MATCH_ANY) {
            /* One pass over the set per distinct value, not per lane. */
            while (next_group(&ms, &todo, &g, &s)) {
                for (uint32_t left = g; left;) {
                    uint64_t v = A[__builtin_ctz(left)] & vm;
                    uint32_t same = 0;
                    WS_FOR_LANES(k, s) if ((A[k] & vm) == v) same |= 1u << k;
                    WS_FOR_LANES(k, same & g) out[k] = same;
                    left &= ~same;
                }
            }
            WS_FOR_LANES(l, M) D[l] = out[l];
            return WS_OK;
        }
        if (in->sub == WS_MATCH_ALL) {
            uint32_t pv = 0;
            uint64_t *R = ms.uniform ? D : out; /* one group: A is read before D is written */
            while (next_group(&ms, &todo, &g, &s)) {
                uint64_t v0 = A[__builtin_ctz(s)] & vm;
                bool all = true;
                WS_FOR_LANES(k, s) if ((A[k] & vm) != v0) all = false;
                WS_FOR_LANES(l, g) R[l] = all ? s : 0;
                if (all) pv |= g;
            }
            if (R == out) WS_FOR_LANES(l, M) D[l] = out[l];
            if (in->ndst > 1) ws_pred_write(x, &in->dst[1], pv);
            return WS_OK;
        }
        return ws_unsupported(x, "match mode");
    }
    case WS_OP_REDUX: {
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        if (ws_type_is_float((ws_type)in->type)) return ws_unsupported(x, "redux on floats"); /* not integer bits */
        if ((st = member_sets(x, 1, &ms)) != WS_OK) return st;
        const uint64_t *A = ws_src(x, &in->src[0], ta);
        if (!A) return ws_unsupported(x, "operand kind");
        bool sg = ws_type_is_signed((ws_type)in->type);
        uint64_t out[WS_WARP_SIZE], *D = ws_dst(x, &in->dst[0]);
        uint64_t *R = ms.uniform ? D : out; /* one group: A is read before D is written */
        while (next_group(&ms, &todo, &g, &s)) {
            uint32_t acc;
            if (!redux_set(in->sub, sg, A, s, &acc)) return ws_unsupported(x, "redux operation");
            WS_FOR_LANES(l, g) R[l] = sg ? (uint64_t)(int64_t)(int32_t)acc : acc;
        }
        if (R == out) WS_FOR_LANES(l, M) D[l] = out[l];
        return WS_OK;
    }
    default: return ws_unsupported(x, NULL);
    }
}
