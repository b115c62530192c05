/* Warp-level instructions: vote, shfl, activemask, match, redux. They see
 * only the lanes executing the instruction (x->mask); a shuffle from a lane
 * that is not executing reads that lane's current register value (PTX leaves
 * it undefined). */
#include "exec/exec_internal.h"

ws_status ws_exec_warp(ws_xctx *x) {
    const ws_inst *in = x->in;
    uint32_t M = x->mask;
    uint64_t ta[WS_WARP_SIZE], tb[WS_WARP_SIZE], tc[WS_WARP_SIZE];
    switch ((ws_opcode)in->op) {
    case WS_OP_ACTIVEMASK: {
        uint64_t *D = ws_dst(x, &in->dst[0]);
        WS_FOR_LANES(l, M) D[l] = M;
        return WS_OK;
    }
    case WS_OP_VOTE: {
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        uint32_t p = ws_pred_src(x, &in->src[0]) & M;
        switch (in->sub) {
        case WS_VOTE_ALL: ws_pred_write(x, &in->dst[0], p == M ? ~0u : 0); return WS_OK;
        case WS_VOTE_ANY: ws_pred_write(x, &in->dst[0], p ? ~0u : 0); return WS_OK;
        case WS_VOTE_UNI: ws_pred_write(x, &in->dst[0], (p == M || p == 0) ? ~0u : 0); return WS_OK;
        case WS_VOTE_BALLOT: {
            uint64_t *D = ws_dst(x, &in->dst[0]);
            WS_FOR_LANES(l, M) D[l] = p;
            return WS_OK;
        }
        default: return ws_unsupported(x, "vote mode");
        }
    }
    case WS_OP_SHFL: {
        if (in->nsrc < 3) return ws_unsupported(x, "missing operand");
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
        const uint64_t *A = ws_src(x, &in->src[0], ta);
        if (!A) return ws_unsupported(x, "operand kind");
        uint64_t vm = ws_type_size((ws_type)in->type) == 8 ? ~0ull : 0xFFFFFFFFull;
        uint64_t *D = ws_dst(x, &in->dst[0]);
        uint64_t out[WS_WARP_SIZE];
        if (in->sub == WS_MATCH_ANY) {
            WS_FOR_LANES(l, M) {
                uint32_t same = 0;
                WS_FOR_LANES(k, M) if ((A[k] & vm) == (A[l] & vm)) same |= 1u << k;
                out[l] = same;
            }
            WS_FOR_LANES(l, M) D[l] = out[l];
            return WS_OK;
        }
        if (in->sub == WS_MATCH_ALL) {
            uint64_t v0 = A[__builtin_ctz(M)] & vm;
            bool all = true;
            WS_FOR_LANES(l, M) if ((A[l] & vm) != v0) all = false;
            WS_FOR_LANES(l, M) D[l] = all ? M : 0;
            if (in->ndst > 1) ws_pred_write(x, &in->dst[1], all ? ~0u : 0);
            return WS_OK;
        }
        return ws_unsupported(x, "match mode");
    }
    case WS_OP_REDUX: {
        if (in->nsrc < 1) return ws_unsupported(x, "missing operand");
        const uint64_t *A = ws_src(x, &in->src[0], ta);
        if (!A) return ws_unsupported(x, "operand kind");
        bool sg = ws_type_is_signed((ws_type)in->type);
        uint32_t first = (uint32_t)__builtin_ctz(M);
        uint32_t acc = (uint32_t)A[first];
        WS_FOR_LANES(l, M & (M - 1)) {
            uint32_t v = (uint32_t)A[l];
            switch (in->sub) {
            case WS_ATOM_ADD: acc += v; break;
            case WS_ATOM_AND: acc &= v; break;
            case WS_ATOM_OR: acc |= v; break;
            case WS_ATOM_XOR: acc ^= v; break;
            case WS_ATOM_MIN: acc = sg ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
            case WS_ATOM_MAX: acc = sg ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
            default: return ws_unsupported(x, "redux operation");
            }
        }
        uint64_t *D = ws_dst(x, &in->dst[0]);
        WS_FOR_LANES(l, M) D[l] = sg ? (uint64_t)(int64_t)(int32_t)acc : acc;
        return WS_OK;
    }
    default: return ws_unsupported(x, NULL);
    }
}
