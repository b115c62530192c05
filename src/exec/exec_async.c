/* Asynchronous copies (cp.async, cp.async.bulk) and mbarriers.
 *
 * The engine executes every instruction at issue and sequentially, so an
 * asynchronous copy is complete when its instruction has executed: reading
 * the destination before waiting (a race in the program) sees the data
 * early, which is one of the outcomes hardware allows. Hence
 * cp.async.commit_group / wait_group / wait_all have no functional effect
 * (the timing model makes wait_group and wait_all wait for the warp's
 * copies), and cp.async.mbarrier.arrive is a plain arrive with .noinc and
 * nothing without it (the pending count it would add is taken back by the
 * arrive at completion, which has already happened).
 *
 * An mbarrier is 8 bytes of shared memory; warpsim's encoding (the PTX ISA
 * leaves it opaque):
 *   bits  0-20  arrivals still pending in the current phase
 *   bits 21-41  expected arrivals per phase
 *   bits 42-62  tx-count, two's complement (may go below zero: a bulk copy
 *               completes before the expect_tx that announces it runs)
 *   bit  63     parity of the current phase
 * A phase completes when no arrival is pending and the tx-count is zero;
 * the next one starts with the expected count. The state an arrive returns
 * holds the parity of the phase it arrived on in bit 63 (and the arrivals
 * then pending in bits 0-20), so test_wait / try_wait report that phase's
 * completion. Lanes run in lane order, so results are deterministic.
 *
 * Functional mode runs a warp until it blocks; a try_wait that fails there
 * parks the warp (WS_WARP_MBAR) until some phase of the CTA completes, so
 * that spin loops on an mbarrier let the other warps run (grid.c also lets
 * parked warps poll again when nothing else can run but memory has changed
 * since they parked; with nothing changed, the CTA is deadlocked). */
#include "exec/exec_internal.h"

#define MB_MAX ((1u << 20) - 1) /* the ISA's count limit */

typedef struct mbar { uint32_t pending, expected; int32_t tx; unsigned phase; } mbar;

static mbar mb_unpack(uint64_t v) {
    mbar m;
    m.pending = (uint32_t)(v & 0x1FFFFF);
    m.expected = (uint32_t)(v >> 21 & 0x1FFFFF);
    m.tx = (int32_t)((uint32_t)(v >> 42 & 0x1FFFFF) << 11) >> 11; /* sign-extend 21 bits */
    m.phase = (unsigned)(v >> 63);
    return m;
}

static uint64_t mb_pack(mbar m) {
    return (uint64_t)(m.pending & 0x1FFFFF) | (uint64_t)(m.expected & 0x1FFFFF) << 21 |
           (uint64_t)((uint32_t)m.tx & 0x1FFFFF) << 42 | (uint64_t)(m.phase & 1) << 63;
}

/* The phase completes if nothing is pending: wake the parked warps. */
static void mb_settle(ws_xctx *x, mbar *m) {
    if (m->pending || m->tx) return;
    m->phase ^= 1;
    m->pending = m->expected;
    m->tx = 0;
    ws_cta *c = x->c;
    for (uint32_t i = 0; i < c->nwarps; i++)
        if (c->warps[i].state == WS_WARP_MBAR) c->warps[i].state = WS_WARP_RUN;
    /* an arrive from another CTA of the cluster (.shared::cluster) may
       complete this phase: its waiters are in the CTA that owns the barrier */
    for (uint32_t r = 0; c->cluster && r < c->cluster->n; r++) {
        ws_cta *o = c->cluster->cta[r];
        for (uint32_t i = 0; o && o != c && i < o->nwarps; i++)
            if (o->warps[i].state == WS_WARP_MBAR) o->warps[i].state = WS_WARP_RUN;
    }
}

static uint8_t *mb_ptr(ws_xctx *x, const ws_operand *o, uint32_t lane) {
    unsigned rs;
    return ws_mem_elem_ptr(x, x->in->space, ws_opnd_addr(x, o, lane), 8, lane, true, &rs);
}

static uint64_t load64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Arrive `count` times (dropping them from later phases too when drop) and
   add tx to the tx-count first. Returns the state, or faults. */
static ws_status mb_arrive(ws_xctx *x, uint8_t *p, uint32_t lane, uint32_t count, int64_t tx, bool drop,
                           uint64_t *state) {
    mbar m = mb_unpack(load64(p));
    if (count > m.pending || (drop && count > m.expected))
        return ws_fail(x, WS_ERR_LAUNCH_FAILURE, lane,
                       "mbarrier arrive of %u with %u arrival(s) pending (of %u expected): more arrivals than "
                       "the phase expects (undefined in PTX)", count, m.pending, m.expected);
    if (m.tx + tx > (int64_t)MB_MAX) return ws_fail(x, WS_ERR_LAUNCH_FAILURE, lane, "mbarrier tx-count overflow");
    m.tx += (int32_t)tx;
    m.pending -= count;
    if (drop) m.expected -= count;
    if (state) *state = (uint64_t)m.phase << 63 | m.pending;
    mb_settle(x, &m);
    memcpy(p, (uint64_t[1]){mb_pack(m)}, 8);
    x->c->counts.mem_writes++;
    return WS_OK;
}

static ws_status mb_tx(ws_xctx *x, uint8_t *p, uint32_t lane, int64_t tx) {
    mbar m = mb_unpack(load64(p));
    int64_t t = (int64_t)m.tx + tx;
    if (t > (int64_t)MB_MAX || t < -(int64_t)MB_MAX)
        return ws_fail(x, WS_ERR_LAUNCH_FAILURE, lane, "mbarrier tx-count out of range (%lld)", (long long)t);
    m.tx = (int32_t)t;
    mb_settle(x, &m);
    memcpy(p, (uint64_t[1]){mb_pack(m)}, 8);
    x->c->counts.mem_writes++;
    return WS_OK;
}

static ws_status exec_mbarrier(ws_xctx *x) {
    const ws_inst *in = x->in;
    uint64_t t1[WS_WARP_SIZE], *D = ws_dst(x, &in->dst[0]);
    const uint64_t *S1 = in->nsrc > 1 ? ws_src(x, &in->src[1], t1) : NULL;
    uint32_t done = 0;
    if (in->sub == WS_MBAR_PENDING_COUNT) {
        const uint64_t *S0 = ws_src(x, &in->src[0], t1);
        WS_FOR_LANES(l, x->mask) D[l] = S0[l] & 0x1FFFFF;
        return WS_OK;
    }
    WS_FOR_LANES(l, x->mask) {
        uint8_t *p = mb_ptr(x, &in->src[0], l);
        if (!p) return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
        ws_status rc = WS_OK;
        switch (in->sub) {
        case WS_MBAR_INIT: {
            uint32_t n = S1 ? (uint32_t)S1[l] : 0;
            if (n < 1 || n > MB_MAX)
                return ws_fail(x, WS_ERR_LAUNCH_FAILURE, l, "mbarrier.init count %u (1 to %u)", n, MB_MAX);
            memcpy(p, (uint64_t[1]){mb_pack((mbar){n, n, 0, 0})}, 8);
            x->c->counts.mem_writes++;
            break;
        }
        case WS_MBAR_INVAL: memset(p, 0, 8); break;
        case WS_MBAR_ARRIVE: case WS_MBAR_ARRIVE_DROP: {
            bool etx = in->flags & WS_F_EXPECT_TX;
            uint32_t count = S1 && !etx ? (uint32_t)S1[l] : 1;
            int64_t tx = S1 && etx ? (int64_t)(uint32_t)S1[l] : 0;
            uint64_t st = 0;
            rc = mb_arrive(x, p, l, count, tx, in->sub == WS_MBAR_ARRIVE_DROP, &st);
            D[l] = st;
            break;
        }
        case WS_MBAR_EXPECT_TX: rc = mb_tx(x, p, l, S1 ? (int64_t)(uint32_t)S1[l] : 0); break;
        case WS_MBAR_COMPLETE_TX: rc = mb_tx(x, p, l, S1 ? -(int64_t)(uint32_t)S1[l] : 0); break;
        case WS_MBAR_TEST_WAIT: case WS_MBAR_TRY_WAIT: {
            mbar m = mb_unpack(load64(p));
            unsigned want = in->flags & WS_F_PARITY ? (unsigned)(S1 ? S1[l] & 1 : 0)
                                                     : (unsigned)(S1 ? S1[l] >> 63 : 0);
            if (m.phase != want) done |= 1u << l; /* that phase has completed */
            break;
        }
        default: return ws_unsupported(x, "mbarrier operation");
        }
        if (rc != WS_OK) return rc;
    }
    if (in->sub == WS_MBAR_TEST_WAIT || in->sub == WS_MBAR_TRY_WAIT) {
        if (in->dst[0].kind == WS_OPND_PRED) ws_pred_write(x, &in->dst[0], done);
        else WS_FOR_LANES(l, x->mask) D[l] = done >> l & 1;
        /* functional mode: a failed try_wait (the potentially blocking form;
           test_wait loops back off with nanosleep) lets the other warps run */
        if (in->sub == WS_MBAR_TRY_WAIT && x->c->parks && done != x->mask) {
            x->w->state = WS_WARP_MBAR;
            x->c->state_changes++;
        }
    }
    return WS_OK;
}

/* One lane's global bytes [a, a + n) (n a power of two, or byte by byte). */
static const uint8_t *global_src(ws_xctx *x, uint64_t a, uint32_t n, uint32_t lane, uint8_t *buf) {
    unsigned rs;
    if (!(n & (n - 1))) return ws_mem_elem_ptr(x, WS_SPACE_GLOBAL, a, n, lane, false, &rs);
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = ws_mem_elem_ptr(x, WS_SPACE_GLOBAL, a + i, 1, lane, false, &rs);
        if (!p) return NULL;
        buf[i] = *p;
    }
    return buf;
}

static ws_status exec_copy(ws_xctx *x) {
    const ws_inst *in = x->in;
    uint32_t cp = (uint32_t)in->src[2].imm;
    if (cp != 4 && cp != 8 && cp != 16) return ws_unsupported(x, "cp.async size (4, 8 or 16)");
    if (cp != 16 && in->cacheop == WS_CACHE_CG) return ws_unsupported(x, "cp.async.cg of other than 16 bytes");
    uint64_t t3[WS_WARP_SIZE];
    const uint64_t *S3 = in->nsrc > 3 ? ws_src(x, &in->src[3], t3) : NULL;
    bool wrote = false;
    WS_FOR_LANES(l, x->mask) {
        uint64_t da = ws_opnd_addr(x, &in->src[0], l), sa = ws_opnd_addr(x, &in->src[1], l);
        uint32_t n = S3 ? (uint32_t)S3[l] : cp;
        if (n > cp)
            return ws_fail(x, WS_ERR_LAUNCH_FAILURE, l, "cp.async src-size %u larger than its cp-size %u", n, cp);
        uint8_t buf[16] = {0}, tmp[16];
        if (n) {
            const uint8_t *s = global_src(x, sa, n, l, tmp);
            if (!s) return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
            memcpy(buf, s, n);
        }
        unsigned rs;
        uint8_t *d = ws_mem_elem_ptr(x, WS_SPACE_SHARED, da, cp, l, true, &rs);
        if (!d) return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
        wrote |= memcmp(d, buf, cp) != 0;
        memcpy(d, buf, cp);
        if (x->st) x->st->addr[l] = sa;
    }
    x->c->counts.mem_writes += wrote;
    if (x->st) { /* the timing model sees the global read */
        x->st->mem_space = WS_SPACE_GLOBAL;
        x->st->access_size = cp;
        x->st->wrote = wrote;
    }
    return WS_OK;
}

/* cp.async.bulk global -> shared, then complete_tx on the mbarrier. */
static ws_status exec_bulk(ws_xctx *x) {
    const ws_inst *in = x->in;
    uint64_t t2[WS_WARP_SIZE];
    const uint64_t *S2 = ws_src(x, &in->src[2], t2);
    if (!S2) return ws_unsupported(x, "cp.async.bulk size operand");
    WS_FOR_LANES(l, x->mask) {
        uint64_t da = ws_opnd_addr(x, &in->src[0], l), sa = ws_opnd_addr(x, &in->src[1], l);
        uint32_t n = (uint32_t)S2[l];
        if (n % 16 || da % 16 || sa % 16)
            return ws_fail(x, WS_ERR_MISALIGNED, l, "cp.async.bulk of %u bytes from 0x%llx to 0x%llx: sizes and "
                           "addresses must be multiples of 16", n, (unsigned long long)sa, (unsigned long long)da);
        for (uint32_t o = 0; o < n; o += 16) {
            unsigned rs;
            const uint8_t *s = ws_mem_elem_ptr(x, WS_SPACE_GLOBAL, sa + o, 16, l, false, &rs);
            if (!s) return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
            uint8_t *d = ws_mem_elem_ptr(x, WS_SPACE_SHARED, da + o, 16, l, true, &rs);
            if (!d) return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
            memmove(d, s, 16);
        }
        uint8_t *p = mb_ptr(x, &in->src[3], l);
        if (!p) return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
        ws_status rc = mb_tx(x, p, l, -(int64_t)n);
        if (rc != WS_OK) return rc;
        if (x->st) x->st->addr[l] = sa;
    }
    if (x->st) { /* timed as one global read of up to 128 bytes per lane */
        uint32_t n = (uint32_t)S2[__builtin_ctz(x->mask)];
        x->st->mem_space = WS_SPACE_GLOBAL;
        x->st->access_size = n < 128 ? (n ? n : 16) : 128;
        x->st->wrote = 1;
    }
    return WS_OK;
}

ws_status ws_exec_async(ws_xctx *x) {
    const ws_inst *in = x->in;
    if (in->op == WS_OP_MBARRIER) return exec_mbarrier(x);
    switch (in->sub) {
    case WS_CPA_COPY: return exec_copy(x);
    case WS_CPA_BULK: return exec_bulk(x);
    case WS_CPA_COMMIT: case WS_CPA_WAIT_GROUP: case WS_CPA_WAIT_ALL: return WS_OK;
    case WS_CPA_MBAR_ARRIVE:
        if (!(in->flags & WS_F_NOINC)) return WS_OK;
        WS_FOR_LANES(l, x->mask) {
            uint8_t *p = mb_ptr(x, &in->src[0], l);
            if (!p) return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
            ws_status rc = mb_arrive(x, p, l, 1, 0, false, NULL);
            if (rc != WS_OK) return rc;
        }
        return WS_OK;
    default: return ws_unsupported(x, "cp.async form");
    }
}
