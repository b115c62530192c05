/* Basic blocks, immediate post-dominators and reconvergence points.
 *
 * Leaders: instruction 0, every branch target (all of a brx.idx's table),
 * the instruction after a branch, ret or exit. Post-dominators are the dominators of the reverse
 * CFG rooted at a virtual exit node (Cooper, Harvey & Kennedy's iterative
 * algorithm). Blocks that cannot reach the exit (infinite loops) get a
 * virtual edge to the exit so that every block has an ipdom; for a
 * branch inside such a loop the reconvergence point is then the exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/internal.h"

typedef struct {
    uint32_t *succ_off, *succ; /* CSR successor lists; exit = nb */
    uint32_t *pred_off, *pred; /* CSR predecessor lists (incl. exit's) */
} graph;

/* Branch targets: bra has one label, brx.idx its table (ir.h). */
static uint32_t ntargets(const ws_inst *in)
{
    return in->sub == WS_BRA_IDX ? in->call_args[0] : 1;
}

static int64_t target(const ws_inst *in, uint32_t j)
{
    return in->sub == WS_BRA_IDX ? (int64_t)in->call_args[1 + j] : in->src[0].imm;
}

static bool ends_block(const ws_inst *in)
{
    return in->op == WS_OP_BRA || in->op == WS_OP_RET || in->op == WS_OP_EXIT;
}

static bool no_fallthrough(const ws_inst *in)
{
    if (in->guard != WS_NOREG) return false;
    return in->op == WS_OP_BRA || in->op == WS_OP_RET || in->op == WS_OP_EXIT ||
           in->op == WS_OP_TRAP;
}

int ws_cfg_build(ws_func *f, char *err, size_t errsz)
{
    uint32_t n = f->ninsts;
    free(f->block_start);
    free(f->inst_block);
    free(f->ipdom);
    f->block_start = NULL;
    f->inst_block = NULL;
    f->ipdom = NULL;
    f->nblocks = 0;
    if (n == 0) return 0;

    uint32_t K = 2; /* most successors of a block: a brx.idx's targets + fall-through + exit */
    uint8_t *leader = calloc(n + 1, 1);
    f->inst_block = malloc(n * sizeof *f->inst_block);
    if (!leader || !f->inst_block) goto oom;
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const ws_inst *in = &f->insts[i];
        if (in->op == WS_OP_BRA) {
            uint32_t nt = ntargets(in);
            if (nt + 2 > K) K = nt + 2;
            for (uint32_t j = 0; j < nt; j++) {
                int64_t t = target(in, j);
                if (t < 0 || (uint64_t)t >= n) {
                    snprintf(err, errsz, "branch at line %u targets a label past the end of '%s'",
                             in->line, f->name);
                    free(leader);
                    return -1;
                }
                leader[t] = 1;
            }
        }
        if (ends_block(in) && i + 1 < n) leader[i + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) nb += leader[i];
    f->block_start = malloc(nb * sizeof *f->block_start);
    f->ipdom = malloc(nb * sizeof *f->ipdom);
    if (!f->block_start || !f->ipdom) { free(leader); goto oom; }
    uint32_t b = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (leader[i]) f->block_start[b++] = i;
        f->inst_block[i] = b - 1;
    }
    free(leader);
    f->nblocks = nb;

    /* Successors (at most K per block) plus virtual edges to exit. */
    uint32_t N = nb + 1, EXIT = nb;
    uint32_t *s2 = malloc((size_t)K * nb * sizeof *s2);
    uint32_t *ns = calloc(nb, sizeof *ns);
    uint32_t *npred = calloc(N, sizeof *npred);
    uint32_t *order = malloc(N * sizeof *order), *po = malloc(N * sizeof *po);
    int32_t *idom = malloc(N * sizeof *idom);
    uint32_t *stack = malloc(2 * N * sizeof *stack);
    uint8_t *reach = calloc(N, 1);
    uint32_t *pred_off = NULL, *pred = NULL;
    if (!s2 || !ns || !npred || !order || !po || !idom || !stack || !reach) goto oom2;
    for (uint32_t bi = 0; bi < nb; bi++) {
        uint32_t last = (bi + 1 < nb ? f->block_start[bi + 1] : n) - 1;
        const ws_inst *in = &f->insts[last];
        if (in->op == WS_OP_BRA)
            for (uint32_t j = 0, nt = ntargets(in); j < nt; j++) {
                uint32_t tb = f->inst_block[target(in, j)], k = 0;
                while (k < ns[bi] && s2[K * bi + k] != tb) k++;
                if (k == ns[bi]) s2[K * bi + ns[bi]++] = tb; /* a table may repeat a label */
            }
        if (in->op == WS_OP_RET || in->op == WS_OP_EXIT || (in->op == WS_OP_TRAP && in->guard == WS_NOREG)) {
            s2[K * bi + ns[bi]++] = EXIT;
        } else if (!no_fallthrough(in)) {
            uint32_t ft = bi + 1 < nb ? bi + 1 : EXIT;
            if (!(ns[bi] == 1 && s2[K * bi] == ft)) s2[K * bi + ns[bi]++] = ft;
        }
        /* a guarded ret/exit may also fall through */
        if ((in->op == WS_OP_RET || in->op == WS_OP_EXIT) && in->guard != WS_NOREG && bi + 1 < nb)
            s2[K * bi + ns[bi]++] = bi + 1;
    }

    /* Reverse reachability from exit; connect blocks that never reach it. */
    for (;;) {
        /* predecessor CSR */
        memset(npred, 0, N * sizeof *npred);
        for (uint32_t bi = 0; bi < nb; bi++)
            for (uint32_t k = 0; k < ns[bi]; k++) npred[s2[K * bi + k]]++;
        free(pred_off);
        free(pred);
        pred_off = malloc((N + 1) * sizeof *pred_off);
        pred = malloc(((size_t)K * nb + 1) * sizeof *pred);
        if (!pred_off || !pred) goto oom2;
        pred_off[0] = 0;
        for (uint32_t i = 0; i < N; i++) pred_off[i + 1] = pred_off[i] + npred[i];
        memset(npred, 0, N * sizeof *npred);
        for (uint32_t bi = 0; bi < nb; bi++)
            for (uint32_t k = 0; k < ns[bi]; k++) {
                uint32_t s = s2[K * bi + k];
                pred[pred_off[s] + npred[s]++] = bi;
            }
        /* DFS over reverse edges from exit, recording postorder. */
        memset(reach, 0, N);
        uint32_t npo = 0, sp = 0;
        stack[sp++] = EXIT;
        stack[sp++] = 0;
        reach[EXIT] = 1;
        while (sp) {
            uint32_t v = stack[sp - 2], k = stack[sp - 1];
            if (pred_off[v] + k < pred_off[v + 1]) {
                stack[sp - 1]++;
                uint32_t w = pred[pred_off[v] + k];
                if (!reach[w]) {
                    reach[w] = 1;
                    stack[sp++] = w;
                    stack[sp++] = 0;
                }
            } else {
                po[npo++] = v;
                sp -= 2;
            }
        }
        if (npo == N) {
            for (uint32_t i = 0; i < N; i++) order[po[i]] = i; /* postorder number */
            break;
        }
        /* Add an exit edge from the last unreached block (the bottom of an
           infinite loop, usually its back edge) and try again. */
        uint32_t bi = nb;
        while (bi-- > 0)
            if (!reach[bi]) break;
        if (ns[bi] < K) s2[K * bi + ns[bi]++] = EXIT;
        else s2[K * bi + ns[bi] - 1] = EXIT; /* replace the fall-through edge */
    }

    /* Cooper-Harvey-Kennedy on the reverse graph: process in reverse
       postorder; a node's "predecessors" there are its CFG successors. */
    for (uint32_t i = 0; i < N; i++) idom[i] = -1;
    idom[EXIT] = (int32_t)EXIT;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = N; k-- > 0;) {
            uint32_t v = po[k];
            if (v == EXIT) continue;
            int32_t nd = -1;
            for (uint32_t j = 0; j < ns[v]; j++) {
                int32_t s = (int32_t)s2[K * v + j];
                if (idom[s] < 0) continue;
                if (nd < 0) {
                    nd = s;
                    continue;
                }
                int32_t a = s, c = nd;
                while (a != c) {
                    while (order[a] < order[c]) a = idom[a];
                    while (order[c] < order[a]) c = idom[c];
                }
                nd = a;
            }
            if (nd >= 0 && idom[v] != nd) {
                idom[v] = nd;
                changed = true;
            }
        }
    }
    for (uint32_t bi = 0; bi < nb; bi++)
        f->ipdom[bi] = (idom[bi] < 0 || (uint32_t)idom[bi] == EXIT) ? -1 : idom[bi];
    for (uint32_t i = 0; i < n; i++) {
        ws_inst *in = &f->insts[i];
        if (in->op != WS_OP_BRA) continue;
        int32_t pd = f->ipdom[f->inst_block[i]];
        in->reconv = pd < 0 ? -1 : (int32_t)f->block_start[pd];
    }
    free(s2); free(ns); free(npred); free(order); free(po); free(idom); free(stack);
    free(reach); free(pred_off); free(pred);
    return 0;
oom2:
    free(s2); free(ns); free(npred); free(order); free(po); free(idom); free(stack);
    free(reach); free(pred_off); free(pred);
oom:
    snprintf(err, errsz, "out of memory building the CFG of '%s'", f->name);
    return -1;
}
