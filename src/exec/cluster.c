/* Thread-block clusters (sm_90): the CTAs of a cluster, their special
 * registers, the cluster barrier and distributed shared memory.
 *
 * Model. A cluster is a group of CTAs that are resident together (grid.c
 * runs them side by side, the timing model places them on one SM). Each
 * joins a ws_cluster by rank; the cluster outlives them by reference count,
 * so a CTA that exits early leaves a hole (NULL) that accesses fault on.
 *
 * barrier.cluster is split-phase: arrive counts the executing threads in the
 * current phase and remembers that phase per warp; wait blocks the warp
 * (WS_WARP_BAR with bar_id WS_CLUSTER_BAR_ID) until that phase completes. A
 * phase completes when the threads arrived reach the cluster's live
 * (non-exited) threads; then every waiting warp of every CTA runs again.
 *
 * Distributed shared memory: a .shared::cluster address carries the target
 * CTA's rank + 1 above bit WS_DSMEM_RANK_SHIFT (mapa puts it there; 0 is the
 * CTA's own memory). The access paths of exec_mem.c meet such an address
 * only on their slow path (it lies past the CTA's shared size), so kernels
 * without clusters pay nothing for it. */
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"
#include "util/bits.h"

uint32_t ws_launch_cluster_size(const ws_launch_desc *l) {
    if (!l->cluster[0]) return 1;
    return l->cluster[0] * l->cluster[1] * l->cluster[2];
}

void ws_launch_cta_of(const ws_launch_desc *l, uint64_t seq, uint32_t id[3]) {
    if (!l->cluster[0]) {
        id[0] = (uint32_t)(seq % l->grid[0]);
        id[1] = (uint32_t)(seq / l->grid[0] % l->grid[1]);
        id[2] = (uint32_t)(seq / ((uint64_t)l->grid[0] * l->grid[1]));
        return;
    }
    const uint32_t *cd = l->cluster;
    uint64_t n = (uint64_t)cd[0] * cd[1] * cd[2], ci = seq / n, r = seq % n;
    uint64_t gx = l->grid[0] / cd[0], gy = l->grid[1] / cd[1];
    id[0] = (uint32_t)(ci % gx * cd[0] + r % cd[0]);
    id[1] = (uint32_t)(ci / gx % gy * cd[1] + r / cd[0] % cd[1]);
    id[2] = (uint32_t)(ci / (gx * gy) * cd[2] + r / ((uint64_t)cd[0] * cd[1]));
}

ws_cluster *ws_cluster_create(const ws_launch_desc *l, uint64_t index) {
    ws_cluster *cl = calloc(1, sizeof *cl);
    if (!cl) return NULL;
    cl->n = ws_launch_cluster_size(l);
    if (!(cl->cta = calloc(cl->n, sizeof *cl->cta))) {
        free(cl);
        return NULL;
    }
    uint32_t cd[3] = {1, 1, 1};
    if (l->cluster[0]) memcpy(cd, l->cluster, sizeof cd);
    uint64_t gx = l->grid[0] / cd[0], gy = l->grid[1] / cd[1];
    cl->id[0] = (uint32_t)(index % gx);
    cl->id[1] = (uint32_t)(index / gx % gy);
    cl->id[2] = (uint32_t)(index / (gx * gy));
    cl->refs = 1;
    return cl;
}

static void unref(ws_cluster *cl) {
    if (--cl->refs) return;
    free(cl->cta);
    free(cl);
}

void ws_cluster_release(ws_cluster *cl) {
    if (cl) unref(cl);
}

void ws_cluster_join(ws_cluster *cl, ws_cta *c, uint32_t rank) {
    if (!cl || !c || rank >= cl->n) return;
    ws_cluster_leave(c);
    if (!c->cl_arrived && !(c->cl_arrived = calloc(c->nwarps, sizeof *c->cl_arrived))) return;
    memset(c->cl_arrived, 0, c->nwarps * sizeof *c->cl_arrived);
    cl->cta[rank] = c;
    cl->refs++;
    c->cluster = cl;
    c->crank = rank;
}

void ws_cluster_leave(ws_cta *c) {
    ws_cluster *cl = c->cluster;
    if (!cl) return;
    c->cluster = NULL;
    if (c->crank < cl->n && cl->cta[c->crank] == c) cl->cta[c->crank] = NULL;
    ws_cluster_bar_check(cl); /* its threads no longer count */
    unref(cl);
}

/* ---- special registers ---------------------------------------------------- */
uint64_t ws_cluster_sreg(ws_xctx *x, unsigned id) {
    const ws_cta *c = x->c;
    const ws_launch_desc *l = &c->l;
    uint32_t cd[3] = {1, 1, 1};
    if (l->cluster[0]) memcpy(cd, l->cluster, sizeof cd);
    switch (id) {
    case WS_SREG_CLUSTERID_X: case WS_SREG_CLUSTERID_Y: case WS_SREG_CLUSTERID_Z: {
        unsigned k = id - WS_SREG_CLUSTERID_X;
        return c->ctaid[k] / cd[k];
    }
    case WS_SREG_NCLUSTERID_X: case WS_SREG_NCLUSTERID_Y: case WS_SREG_NCLUSTERID_Z: {
        unsigned k = id - WS_SREG_NCLUSTERID_X;
        return l->grid[k] / cd[k];
    }
    case WS_SREG_CLUSTER_CTAID_X: case WS_SREG_CLUSTER_CTAID_Y: case WS_SREG_CLUSTER_CTAID_Z: {
        unsigned k = id - WS_SREG_CLUSTER_CTAID_X;
        return c->ctaid[k] % cd[k];
    }
    case WS_SREG_CLUSTER_NCTAID_X: case WS_SREG_CLUSTER_NCTAID_Y: case WS_SREG_CLUSTER_NCTAID_Z:
        return cd[id - WS_SREG_CLUSTER_NCTAID_X];
    case WS_SREG_CLUSTER_CTARANK:
        return c->ctaid[0] % cd[0] + cd[0] * (c->ctaid[1] % cd[1] + cd[1] * (c->ctaid[2] % cd[2]));
    case WS_SREG_CLUSTER_NCTARANK: return (uint64_t)cd[0] * cd[1] * cd[2];
    case WS_SREG_IS_EXPLICIT_CLUSTER: return l->cluster[0] != 0;
    default: return 0;
    }
}

/* ---- the cluster barrier ---------------------------------------------------- */
static uint32_t live_threads(const ws_cta *c) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nwarps; i++)
        n += (uint32_t)ws_popc32(c->warps[i].lanes & ~c->warps[i].exited);
    return n;
}

void ws_cluster_bar_check(ws_cluster *cl) {
    if (!cl || !cl->arrived) return;
    uint32_t live = 0;
    for (uint32_t r = 0; r < cl->n; r++)
        if (cl->cta[r]) live += live_threads(cl->cta[r]);
    if (cl->arrived < live) return;
    cl->arrived = 0;
    cl->phase++;
    for (uint32_t r = 0; r < cl->n; r++) {
        ws_cta *c = cl->cta[r];
        if (!c) continue;
        c->state_changes++; /* every member: the timing model then looks at them all */
        for (uint32_t i = 0; i < c->nwarps; i++) {
            ws_warp *w = &c->warps[i];
            if (w->state != WS_WARP_BAR || w->bar_id != WS_CLUSTER_BAR_ID) continue;
            w->state = WS_WARP_RUN;
            c->state_changes++;
        }
    }
}

ws_status ws_exec_cluster_bar(ws_xctx *x) {
    ws_cta *c = x->c;
    ws_warp *w = x->w;
    ws_cluster *cl = c->cluster;
    uint32_t first = (uint32_t)__builtin_ctz(x->mask);
    if (!cl) { /* a launch without clusters: each CTA is an implicit cluster of one */
        if ((cl = ws_cluster_create(&c->l, 0))) {
            cl->id[0] = c->ctaid[0], cl->id[1] = c->ctaid[1], cl->id[2] = c->ctaid[2];
            ws_cluster_join(cl, c, 0);
            ws_cluster_release(cl);
        }
        if (!(cl = c->cluster)) return ws_fail(x, WS_ERR_OUT_OF_MEMORY, first, "out of host memory");
    }
    uint32_t *arr = &c->cl_arrived[w->id];
    if (x->in->sub == WS_BAR_CLUSTER_ARRIVE) {
        if (*arr && *arr == cl->phase + 1)
            return ws_fail(x, WS_ERR_LAUNCH_FAILURE, first,
                           "barrier.cluster.arrive twice in one phase without a wait");
        *arr = cl->phase + 1;
        cl->arrived += (uint32_t)ws_popc32(x->mask);
        ws_cluster_bar_check(cl);
        return WS_OK;
    }
    if (!*arr)
        return ws_fail(x, WS_ERR_LAUNCH_FAILURE, first, "barrier.cluster.wait without an arrive before it");
    uint32_t ph = *arr - 1;
    *arr = 0;
    if (cl->phase != ph) return WS_OK; /* its phase has completed */
    w->state = WS_WARP_BAR;
    w->bar_id = WS_CLUSTER_BAR_ID;
    w->bar_pc = x->pc;
    w->bar_inst = NULL;
    c->state_changes++;
    return WS_OK;
}

/* ---- distributed shared memory ---------------------------------------------- */
static uint32_t cta_rank(const ws_cta *c) { return c->cluster ? c->crank : 0; }

static uint32_t cluster_n(const ws_cta *c) { return c->cluster ? c->cluster->n : 1; }

/* mapa{.shared::cluster}.{u32,u64} d, a, rank: a's place in the shared memory
 * of CTA `rank`; getctarank{.shared::cluster}.u32 d, a: the rank a names. */
ws_status ws_exec_mapa(ws_xctx *x) {
    const ws_inst *in = x->in;
    bool generic = in->space != WS_SPACE_SHARED;
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE];
    const uint64_t *A = in->nsrc > 0 ? ws_src(x, &in->src[0], ta) : NULL;
    const uint64_t *B = in->op == WS_OP_MAPA && in->nsrc > 1 ? ws_src(x, &in->src[1], tb) : NULL;
    if (!A || (in->op == WS_OP_MAPA && !B)) return ws_unsupported(x, "operands");
    uint64_t *D = ws_dst(x, &in->dst[0]);
    const uint64_t wmask = WS_GENERIC_WINDOW_SIZE - 1, off_mask = (1ull << WS_DSMEM_RANK_SHIFT) - 1;
    WS_FOR_LANES(l, x->mask) {
        uint64_t a = A[l];
        if (generic) {
            if (a - WS_GENERIC_SHARED_BASE >= WS_GENERIC_WINDOW_SIZE)
                return ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, l, "%s of 0x%llx, not a shared-memory address",
                               ws_opcode_name((ws_opcode)in->op), (unsigned long long)a);
            a = (a - WS_GENERIC_SHARED_BASE) & wmask;
        } else {
            a = (uint32_t)a;
        }
        uint64_t rk = a >> WS_DSMEM_RANK_SHIFT;
        if (in->op == WS_OP_GETCTARANK) {
            D[l] = rk ? rk - 1 : cta_rank(x->c);
            continue;
        }
        uint32_t r = (uint32_t)B[l];
        if (r >= cluster_n(x->c))
            return ws_fail(x, WS_ERR_LAUNCH_FAILURE, l, "mapa to CTA rank %u; the cluster has %u", r,
                           cluster_n(x->c));
        uint64_t m = ((uint64_t)(r + 1) << WS_DSMEM_RANK_SHIFT) | (a & off_mask);
        D[l] = generic ? WS_GENERIC_SHARED_BASE + m : m;
    }
    return WS_OK;
}

uint8_t *ws_dsmem_ptr(ws_xctx *x, uint64_t a, uint32_t size, uint32_t lane) {
    uint64_t rk = a >> WS_DSMEM_RANK_SHIFT, off = a & ((1ull << WS_DSMEM_RANK_SHIFT) - 1);
    const ws_cta *t = NULL;
    if (rk - 1 < cluster_n(x->c)) t = x->c->cluster ? x->c->cluster->cta[rk - 1] : x->c;
    if (!t) {
        if (rk - 1 < cluster_n(x->c))
            ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, lane,
                    "distributed shared memory at 0x%llx: CTA rank %llu of the cluster has exited",
                    (unsigned long long)a, (unsigned long long)(rk - 1));
        else
            ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, lane,
                    "illegal address 0x%llx (shared::cluster rank %llu; the cluster has %u CTAs)",
                    (unsigned long long)a, (unsigned long long)(rk - 1), cluster_n(x->c));
        return NULL;
    }
    if (off >= t->shared_size || size > t->shared_size - off) {
        ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, lane,
                "illegal address 0x%llx (shared::cluster access of %u bytes at offset %llu of CTA rank %llu, "
                "which has %u bytes)", (unsigned long long)a, size, (unsigned long long)off,
                (unsigned long long)(rk - 1), t->shared_size);
        return NULL;
    }
    return t->shared + off;
}
