/* IR -> PTX-like text. The output of a self-contained function (one that
 * uses no module-scope variables) parses back to the same IR. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ptx/ptx.h"
#include "ptx/mma.h"

static const char *const rnd_s[] = {"", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".rna"};
static const char *const cmp_s[] = {"", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi", ".hs",
                                    ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan"};
static const char *const bool_s[] = {"", ".and", ".or", ".xor"};
static const char *const atom_s[] = {"", ".add", ".min", ".max", ".inc", ".dec", ".cas", ".exch", ".and", ".or", ".xor"};
static const char *const cache_s[] = {"", ".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"};
static const char *const testp_s[] = {"", ".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal"};
static const char *const prmt_s[] = {"", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"};
static const char *const scope_s[] = {"", ".cta", ".gpu", ".sys"};

static const char *sreg_name(unsigned id, char *buf, size_t n)
{
    static const char *const names[] = {
        "", "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x",
        "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid",
        "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock", "%clock_hi", "%clock64",
        "%globaltimer", "%globaltimer_lo", "%globaltimer_hi", "%lanemask_eq", "%lanemask_lt",
        "%lanemask_le", "%lanemask_gt", "%lanemask_ge", "%dynamic_smem_size", "%total_smem_size",
        "%clusterid.x", "%clusterid.y", "%clusterid.z", "%nclusterid.x", "%nclusterid.y",
        "%nclusterid.z", "%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_ctaid.z",
        "%cluster_nctaid.x", "%cluster_nctaid.y", "%cluster_nctaid.z", "%cluster_ctarank",
        "%cluster_nctarank", "%is_explicit_cluster",
    };
    _Static_assert(sizeof names / sizeof names[0] == WS_SREG_ENVREG0, "special register names out of date");
    if (id < sizeof names / sizeof names[0]) return names[id];
    snprintf(buf, n, "%%envreg%u", id - WS_SREG_ENVREG0);
    return buf;
}

static void put_reg(FILE *o, const ws_func *f, unsigned r, bool pred)
{
    if (r == WS_NOREG) fputs("_", o);
    else if (pred) fputs(r < f->npreds ? f->pred_name[r] : "%p?", o);
    else fputs(r < f->nregs ? f->reg_name[r] : "%r?", o);
}

static void put_video_sel(FILE *o, const ws_inst *in, int64_t sel);

static void put_opnd(FILE *o, const ws_module *m, const ws_func *f, const ws_inst *in,
                     const ws_operand *op)
{
    char buf[32];
    switch (op->kind) {
    case WS_OPND_NONE: fputs("_", o); break;
    case WS_OPND_REG:
        if (ws_op_is_video(in->op) && op->neg) fputc('-', o); /* vmad */
        put_reg(o, f, op->reg, false);
        if (ws_op_is_video(in->op) && op->imm) put_video_sel(o, in, op->imm);
        break;
    case WS_OPND_PRED:
        if (op->neg) fputc('!', o);
        put_reg(o, f, op->reg, true);
        break;
    case WS_OPND_IMM: {
        int t = in->type;
        if (in->op == WS_OP_CVT || ((in->op == WS_OP_SETP || in->op == WS_OP_SET) && op != &in->src[2]))
            t = in->stype;
        if (t == WS_T_F32) fprintf(o, "0f%08" PRIX32, (uint32_t)op->imm);
        else if (t == WS_T_F64) fprintf(o, "0d%016" PRIX64, (uint64_t)op->imm);
        else fprintf(o, "%" PRId64, op->imm);
        break;
    }
    case WS_OPND_SREG: fputs(sreg_name(op->reg, buf, sizeof buf), o); break;
    case WS_OPND_MEM:
        fputc('[', o);
        if (op->reg != WS_NOREG) put_reg(o, f, op->reg, false);
        else if (op->sym != WS_NOSYM) fputs(m->syms[op->sym].name, o);
        else {
            fprintf(o, "%" PRId64 "]", op->imm);
            break;
        }
        if (op->imm) fprintf(o, "+%" PRId64, op->imm);
        fputc(']', o);
        break;
    case WS_OPND_VEC:
        fputc('{', o);
        for (unsigned i = 0; i < op->vecn; i++) {
            if (i) fputs(", ", o);
            if (ws_vec_is_imm(op, i) && in->type == WS_T_F32) /* float bits, as written */
                fprintf(o, "0f%08X", (uint32_t)ws_vec_imm(op, i));
            else if (ws_vec_is_imm(op, i) && in->type == WS_T_F64)
                fprintf(o, "0d%016" PRIX64, ws_vec_imm(op, i));
            else if (ws_vec_is_imm(op, i)) fprintf(o, "%" PRId64, (int64_t)ws_vec_imm(op, i));
            else put_reg(o, f, op->vreg[i], op->vec_is_pred);
        }
        fputc('}', o);
        break;
    case WS_OPND_SYM:
        fputs(m->syms[op->sym].name, o);
        if (op->imm) fprintf(o, "+%" PRId64, op->imm);
        break;
    case WS_OPND_LABEL: fprintf(o, "$L_%" PRId64, op->imm); break;
    case WS_OPND_FUNC: fputs(m->funcs[op->imm].name, o); break;
    default: fputs("?", o); break;
    }
}

/* A video operand's selector (ir.h): .b2, .h1, .h10, .b7654, ... */
static void put_video_sel(FILE *o, const ws_inst *in, int64_t sel)
{
    if (sel & WS_VSEL_LIST || sel & WS_VSEL_MASK) {
        fputs(in->vec == 2 ? ".h" : ".b", o);
        for (int i = (int)in->vec - 1; i >= 0; i--) {
            if (sel & WS_VSEL_LIST) fputc('0' + (int)(sel >> (3 * i) & 7), o);
            else if (sel >> i & 1) fputc('0' + i, o);
        }
        return;
    }
    if (sel >= WS_VSEL_H0) fprintf(o, ".h%d", (int)(sel - WS_VSEL_H0));
    else fprintf(o, ".b%d", (int)(sel - WS_VSEL_B0));
}

/* vadd4.u32.s32.u32.sat.add, vset2.s32.u32.lt, ... */
static void put_video(FILE *o, const ws_inst *in)
{
    fputs(ws_opcode_name((ws_opcode)in->op), o);
    if (in->vec > 1) fprintf(o, "%u", in->vec);
    if (in->op != WS_OP_VSET) fprintf(o, ".%s", ws_type_name((ws_type)in->type));
    fprintf(o, ".%s.%s", ws_type_name((ws_type)in->stype), ws_type_name((ws_type)in->ttype));
    if (in->op == WS_OP_VSET && in->cmp < 19) fputs(cmp_s[in->cmp], o);
    if (in->flags & WS_F_SAT) fputs(".sat", o);
    if (in->op == WS_OP_VSHL || in->op == WS_OP_VSHR) fputs(in->flags & WS_F_WRAP ? ".wrap" : ".clamp", o);
    if (in->op == WS_OP_VMAD)
        fprintf(o, "%s%s", in->sub & WS_VMAD_PO ? ".po" : "",
                in->sub & WS_VMAD_SHR7 ? ".shr7" : in->sub & WS_VMAD_SHR15 ? ".shr15" : "");
    static const char *const op2[4] = {"", ".add", ".min", ".max"};
    if (in->boolop < 4) fputs(op2[in->boolop], o);
}

static const char *mma_type(unsigned t) { return t == WS_T_B32 ? "tf32" : ws_type_name((ws_type)t); }

/* cp.async ... and mbarrier ...: the whole opcode (the operands print as usual). */
static void put_async(FILE *o, const ws_inst *in)
{
    if (in->op == WS_OP_MBARRIER) {
        static const char *const ops[] = {"", "init", "arrive", "arrive_drop", "test_wait", "try_wait",
                                          "expect_tx", "complete_tx", "inval", "pending_count"};
        fprintf(o, "mbarrier.%s%s%s%s.b64", in->sub < 10 ? ops[in->sub] : "?",
                in->flags & WS_F_EXPECT_TX && (in->sub == WS_MBAR_ARRIVE || in->sub == WS_MBAR_ARRIVE_DROP)
                    ? ".expect_tx" : "",
                in->flags & WS_F_PARITY && (in->sub == WS_MBAR_TEST_WAIT || in->sub == WS_MBAR_TRY_WAIT) ? ".parity" : "",
                in->space == WS_SPACE_SHARED ? ".shared" : "");
        return;
    }
    switch (in->sub) {
    case WS_CPA_COPY: fprintf(o, "cp.async.%s.shared.global", in->cacheop == WS_CACHE_CG ? "cg" : "ca"); break;
    case WS_CPA_COMMIT: fputs("cp.async.commit_group", o); break;
    case WS_CPA_WAIT_GROUP: fputs("cp.async.wait_group", o); break;
    case WS_CPA_WAIT_ALL: fputs("cp.async.wait_all", o); break;
    case WS_CPA_MBAR_ARRIVE:
        fprintf(o, "cp.async.mbarrier.arrive%s.shared.b64", in->flags & WS_F_NOINC ? ".noinc" : "");
        break;
    default: fputs("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes", o); break;
    }
}

/* wmma.* / mma.sync with their fragments (call_args) and operands. */
static void put_mma(FILE *o, const ws_module *m, const ws_func *f, const ws_inst *in)
{
    ws_mma_dims d = ws_mma_dims_of(in->cmp);
    const char *lay[2] = {in->boolop & WS_MMA_ACOL ? ".col" : ".row", in->boolop & WS_MMA_BCOL ? ".col" : ".row"};
    unsigned r = 0;
    if (in->sub == WS_MMA_MMA) {
        const char *bop = in->rnd == WS_MMA_BOP_XOR ? ".xor.popc" : in->rnd == WS_MMA_BOP_AND ? ".and.popc" : "";
        if (in->op == WS_OP_WMMA) fprintf(o, "wmma.mma%s.sync.aligned%s%s.m%un%uk%u", bop, lay[0], lay[1], d.m, d.n, d.k);
        else fprintf(o, "mma.sync.aligned.m%un%uk%u.row.col%s", d.m, d.n, d.k, bop);
        fprintf(o, "%s.%s.%s.%s.%s ", in->flags & WS_F_SAT ? ".satfinite" : "", mma_type(in->type),
                mma_type(in->stype), mma_type(in->ttype), mma_type(in->scope));
        static const unsigned order[4] = {WS_FRAG_D, WS_FRAG_A, WS_FRAG_B, WS_FRAG_C};
        for (unsigned k = 0; k < 4; k++) {
            fputs(k ? ", {" : "{", o);
            for (unsigned i = 0, n = ws_mma_frag_regs(in, order[k]); i < n && r < in->ncall_args; i++, r++) {
                if (i) fputs(", ", o);
                put_reg(o, f, in->call_args[r], false);
            }
            fputc('}', o);
        }
        return;
    }
    unsigned w = ws_mma_ldst_frag(in);
    bool st = in->sub == WS_MMA_STORE_D;
    fprintf(o, "wmma.%s.%c.sync.aligned%s.m%un%uk%u%s.%s ", st ? "store" : "load", "abcd"[w], lay[0], d.m, d.n, d.k,
            in->space == WS_SPACE_GLOBAL ? ".global" : in->space == WS_SPACE_SHARED ? ".shared" : "",
            mma_type(ws_mma_frag_type(in, w)));
    if (st) {
        put_opnd(o, m, f, in, &in->dst[0]);
        fputs(", ", o);
    }
    fputc('{', o);
    for (unsigned i = 0; i < in->ncall_args; i++) {
        if (i) fputs(", ", o);
        put_reg(o, f, in->call_args[i], false);
    }
    fputc('}', o);
    for (unsigned k = 0; k < in->nsrc; k++) {
        fputs(", ", o);
        put_opnd(o, m, f, in, &in->src[k]);
    }
}

static void put_opcode(FILE *o, const ws_inst *in)
{
    int op = in->op;
    if (ws_op_is_video((unsigned)op)) { put_video(o, in); return; }
    if (op == WS_OP_CP_ASYNC || op == WS_OP_MBARRIER) { put_async(o, in); return; }
    if (op == WS_OP_SULD || op == WS_OP_SUST || op == WS_OP_SURED) {
        static const char *const mode_s[] = {".trap", ".clamp", ".zero"};
        static const char *const red_s[] = {"", ".add", ".min", ".max", "", "", "", "", ".and", ".or", ""};
        fprintf(o, "%s.%c%s.%s", ws_opcode_name((ws_opcode)op), in->flags & WS_F_SURF_P ? 'p' : 'b',
                op == WS_OP_SURED && in->cmp < 11 ? red_s[in->cmp] : "",
                in->sub == WS_TEX_A1D ? "a1d" : in->sub == WS_TEX_A2D ? "a2d" : in->sub == WS_TEX_3D ? "3d"
                : in->sub == WS_TEX_2D ? "2d" : "1d");
        if (in->cacheop && in->cacheop < 8) fputs(cache_s[in->cacheop], o);
        if (in->vec > 1) fprintf(o, ".v%u", in->vec);
        fprintf(o, ".%s%s", ws_type_name((ws_type)in->type), mode_s[in->boolop % 3]);
        return;
    }
    if (op == WS_OP_TLD4) {
        fprintf(o, "tld4.%c.%s.v4.%s.f32", "rgba"[in->boolop & 3],
                in->sub == WS_TEX_A2D ? "a2d" : in->sub == WS_TEX_CUBE ? "cube" : in->sub == WS_TEX_ACUBE ? "acube" : "2d",
                ws_type_name((ws_type)in->type));
        return;
    }
    if (op == WS_OP_LDMATRIX || op == WS_OP_STMATRIX || op == WS_OP_MOVMATRIX) {
        fprintf(o, "%s.sync.aligned.m8n8", ws_opcode_name((ws_opcode)op));
        if (op != WS_OP_MOVMATRIX) fprintf(o, ".x%u", (unsigned)in->vec);
        fprintf(o, "%s%s.b16", in->boolop ? ".trans" : "", in->space == WS_SPACE_SHARED ? ".shared" : "");
        return;
    }
    if (op == WS_OP_SUQ || op == WS_OP_TXQ) {
        static const char *const q_s[] = {"", ".width", ".height", ".depth", ".channel_data_type", ".channel_order",
                                          ".array_size", ".memory_layout", ".normalized_coords", ".filter_mode",
                                          ".addr_mode_0", ".addr_mode_1", ".addr_mode_2", ".num_mipmap_levels",
                                          ".num_samples"};
        fprintf(o, "%s%s%s.b32", op == WS_OP_SUQ ? "suq" : "txq", in->boolop ? ".level" : "",
                q_s[in->sub < WS_SUQ_COUNT ? in->sub : 0]);
        return;
    }
    if (op == WS_OP_BMSK || op == WS_OP_SZEXT) fprintf(o, "%s%s", ws_opcode_name((ws_opcode)op),
                                                       in->flags & WS_F_WRAP ? ".wrap" : ".clamp");
    else fputs(op == WS_OP_BAR && (!(in->flags & WS_F_ALIGNED) || in->sub >= WS_BAR_CLUSTER_ARRIVE) &&
                       in->sub != WS_BAR_WARP_SYNC
              ? "barrier" : ws_opcode_name((ws_opcode)op), o);
    switch (op) {
    case WS_OP_MUL: case WS_OP_MAD: case WS_OP_MUL24: case WS_OP_MAD24: case WS_OP_MADC:
        fputs(in->sub == WS_MUL_LO ? ".lo" : in->sub == WS_MUL_HI ? ".hi" : in->sub == WS_MUL_WIDE ? ".wide" : "", o);
        break;
    case WS_OP_SHFL:
        if (in->flags & WS_F_SYNC) fputs(".sync", o);
        fputs(in->sub == WS_SHFL_UP ? ".up" : in->sub == WS_SHFL_DOWN ? ".down" : in->sub == WS_SHFL_BFLY ? ".bfly" : ".idx", o);
        break;
    case WS_OP_ELECT: fputs(".sync", o); break;
    case WS_OP_VOTE:
        if (in->flags & WS_F_SYNC) fputs(".sync", o);
        fputs(in->sub == WS_VOTE_ALL ? ".all" : in->sub == WS_VOTE_ANY ? ".any" : in->sub == WS_VOTE_UNI ? ".uni" : ".ballot", o);
        break;
    case WS_OP_MATCH:
        fputs(in->sub == WS_MATCH_ALL ? ".all" : ".any", o);
        if (in->flags & WS_F_SYNC) fputs(".sync", o);
        break;
    case WS_OP_REDUX:
        if (in->flags & WS_F_SYNC) fputs(".sync", o);
        if (in->sub < 11) fputs(atom_s[in->sub], o);
        break;
    case WS_OP_SHF:
        fputs(in->sub == WS_SHF_L ? ".l" : ".r", o);
        fputs(in->flags & WS_F_WRAP ? ".wrap" : ".clamp", o);
        break;
    case WS_OP_TESTP: if (in->sub < 7) fputs(testp_s[in->sub], o); break;
    case WS_OP_GRIDDEPCONTROL: fputs(in->sub == 1 ? ".wait" : ".launch_dependents", o); break;
    case WS_OP_BAR:
        switch (in->sub) {
        case WS_BAR_ARRIVE: fputs(".arrive", o); break;
        case WS_BAR_RED_POPC: fputs(".red.popc", o); break;
        case WS_BAR_RED_AND: fputs(".red.and", o); break;
        case WS_BAR_RED_OR: fputs(".red.or", o); break;
        case WS_BAR_WARP_SYNC: fputs(".warp.sync", o); break;
        case WS_BAR_CLUSTER_ARRIVE: fputs(".cluster.arrive", o); break;
        case WS_BAR_CLUSTER_WAIT: fputs(".cluster.wait", o); break;
        default: fputs(".sync", o); break;
        }
        if (!strcmp(ws_opcode_name((ws_opcode)op), "bar") && !(in->flags & WS_F_ALIGNED)) {}
        break;
    case WS_OP_MEMBAR: fputs(in->scope == WS_SCOPE_GPU ? ".gl" : scope_s[in->scope % 4], o); break;
    case WS_OP_FENCE: fputs(".acq_rel", o); if (in->scope) fputs(scope_s[in->scope % 4], o); break;
    case WS_OP_CVTA: if (!in->to_generic) fputs(".to", o); break;
    case WS_OP_TEX:
        fputs(in->boolop == WS_TEX_LOD_LEVEL ? ".level" : in->boolop == WS_TEX_LOD_GRAD ? ".grad" : "", o);
        fprintf(o, ".%s.v%u", in->sub == WS_TEX_A1D ? "a1d" : in->sub == WS_TEX_A2D ? "a2d" : in->sub == WS_TEX_CUBE ? "cube"
                              : in->sub == WS_TEX_ACUBE ? "acube"
                              : in->sub == WS_TEX_1D ? "1d" : in->sub == WS_TEX_2D ? "2d" : "3d", (unsigned)in->vec);
        break;
    default: break;
    }
    if ((op == WS_OP_MAPA || op == WS_OP_GETCTARANK) && in->space) fputs(".shared::cluster", o);
    if (in->flags & WS_F_NC) {}
    if ((in->flags & WS_F_VOLATILE) && op != WS_OP_ATOM && op != WS_OP_RED) fputs(".volatile", o);
    if (op == WS_OP_ATOM || op == WS_OP_RED) {
        if (in->space) fprintf(o, ".%s", ws_space_name((ws_space)in->space));
        if (in->scope) fputs(scope_s[in->scope % 4], o);
        if (in->sub < 11) fputs(atom_s[in->sub], o);
    } else if (op == WS_OP_LD || op == WS_OP_LDU || op == WS_OP_ST || op == WS_OP_CVTA ||
               op == WS_OP_PREFETCH || op == WS_OP_ISSPACEP) {
        if (in->space) fprintf(o, ".%s", ws_space_name((ws_space)in->space));
        if (in->flags & WS_F_NC) fputs(".nc", o);
        if (in->cacheop && in->cacheop < 8) fputs(cache_s[in->cacheop], o);
        if (in->vec > 1) fprintf(o, ".v%u", in->vec);
    }
    if (op == WS_OP_PRMT && in->sub < 7) {} /* mode after the type */
    if (in->flags & WS_F_CC) fputs(".cc", o);
    if (in->cmp && in->cmp < 19) fputs(cmp_s[in->cmp], o);
    if (in->boolop && in->boolop < 4 && op != WS_OP_TEX) fputs(bool_s[in->boolop], o);
    if (in->rnd && in->rnd < 10) fputs(rnd_s[in->rnd], o);
    if (in->flags & WS_F_APPROX) fputs(".approx", o);
    if (in->flags & WS_F_FULL) fputs(".full", o);
    if (in->flags & WS_F_FTZ) fputs(".ftz", o);
    if (in->flags & WS_F_SAT) fputs(".sat", o);
    if (in->flags & WS_F_RELU) fputs(".relu", o);
    if (in->flags & WS_F_NAN) fputs(".NaN", o);
    if (in->flags & WS_F_SHIFTAMT) fputs(".shiftamt", o);
    if ((in->flags & WS_F_ALIGNED) && op == WS_OP_BAR && 0) fputs(".aligned", o);
    if (in->flags & WS_F_UNI) fputs(".uni", o);
    if (in->type) fprintf(o, ".%s", ws_type_name((ws_type)in->type));
    if (in->stype && in->stype != in->type) fprintf(o, ".%s", ws_type_name((ws_type)in->stype));
    if (op == WS_OP_PRMT && in->sub && in->sub < 7) fputs(prmt_s[in->sub], o);
}

static void put_decl(FILE *o, const ws_symbol *s)
{
    fprintf(o, ".param .align %u .b8 %s[%" PRIu64 "]", s->align, s->name, s->size);
}

void ws_ptx_dump_func(FILE *out, const ws_module *m, const ws_func *f)
{
    fprintf(out, "%s%s ", f->is_extern ? ".extern " : f->is_entry ? ".visible " : "",
            f->is_entry ? ".entry" : ".func");
    if (f->nrets) {
        fputc('(', out);
        for (uint32_t i = 0; i < f->nrets; i++) {
            if (i) fputs(", ", out);
            put_decl(out, &m->syms[f->rets[i]]);
        }
        fputs(") ", out);
    }
    fprintf(out, "%s(", f->name);
    for (uint32_t i = 0; i < f->nparams; i++) {
        fputs(i ? ",\n\t" : "\n\t", out);
        put_decl(out, &m->syms[f->params[i]]);
    }
    fputs(f->nparams ? "\n)" : ")", out);
    if (!f->has_body) {
        fputs(";\n", out);
        return;
    }
    fputs("\n{\n", out);
    for (uint32_t i = 0; i < f->nregs; i++)
        fprintf(out, "\t.reg .%s %s;\n", ws_type_name((ws_type)f->reg_type[i]), f->reg_name[i]);
    for (uint32_t i = 0; i < f->npreds; i++) fprintf(out, "\t.reg .pred %s;\n", f->pred_name[i]);
    /* Function-scope variables other than params (locals, shared, call-site params). */
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ws_symbol *s = &m->syms[i];
        if (s->func != (int32_t)(f - m->funcs) || s->is_kernel_param) continue;
        bool is_param = false;
        for (uint32_t k = 0; k < f->nparams; k++) is_param |= f->params[k] == i;
        for (uint32_t k = 0; k < f->nrets; k++) is_param |= f->rets[k] == i;
        if (is_param) continue;
        fprintf(out, "\t.%s .align %u .b8 %s[%" PRIu64 "]; // offset %" PRIu64 "\n",
                ws_space_name((ws_space)s->space), s->align, s->name, s->size, s->offset);
    }
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const ws_inst *in = &f->insts[pc];
        bool target = pc < f->ninsts && f->inst_block && f->block_start[f->inst_block[pc]] == pc;
        if (target) fprintf(out, "$L_%u:\n", pc);
        if (in->op == WS_OP_BRA && in->sub == WS_BRA_IDX) { /* its table, then brx.idx */
            fprintf(out, "$T_%u: .branchtargets", pc);
            for (uint32_t k = 1; k <= in->call_args[0]; k++)
                fprintf(out, "%s $L_%u", k > 1 ? "," : "", in->call_args[k]);
            fputs(";\n", out);
        }
        fputc('\t', out);
        if (in->guard != WS_NOREG) {
            fputc('@', out);
            if (in->guard_neg) fputc('!', out);
            put_reg(out, f, in->guard, true);
            fputc(' ', out);
        }
        if (in->op == WS_OP_BRA && in->sub == WS_BRA_IDX) {
            fprintf(out, "brx.idx%s ", in->flags & WS_F_UNI ? ".uni" : "");
            put_opnd(out, m, f, in, &in->src[0]);
            fprintf(out, ", $T_%u; // reconv %d\n", pc, in->reconv);
            continue;
        }
        if (in->op == WS_OP_WMMA || in->op == WS_OP_MMA) {
            put_mma(out, m, f, in);
            fputs(";\n", out);
            continue;
        }
        put_opcode(out, in);
        if (in->op == WS_OP_CALL || in->ndst || in->nsrc) fputc(' ', out);
        if (in->op == WS_OP_CALL) {
            if (in->ncall_rets) {
                fputc('(', out);
                for (unsigned k = 0; k < in->ncall_rets; k++)
                    fprintf(out, "%s%s", k ? ", " : "", m->syms[in->call_rets[k]].name);
                fputs("), ", out);
            }
            put_opnd(out, m, f, in, &in->src[0]);
            fputs(", (", out);
            for (unsigned k = 0; k < in->ncall_args; k++)
                fprintf(out, "%s%s", k ? ", " : "", m->syms[in->call_args[k]].name);
            fputc(')', out);
        } else if (in->op == WS_OP_SULD || in->op == WS_OP_SUST || in->op == WS_OP_SUQ || in->op == WS_OP_SURED ||
                   in->op == WS_OP_TXQ) {
            if (in->ndst) {
                put_opnd(out, m, f, in, &in->dst[0]);
                fputs(", ", out);
            }
            fputc('[', out);
            put_opnd(out, m, f, in, &in->src[0]);
            if (in->nsrc > 1) {
                fputs(", ", out);
                put_opnd(out, m, f, in, &in->src[1]);
            }
            fputc(']', out);
            if (in->nsrc > 2) {
                fputs(", ", out);
                put_opnd(out, m, f, in, &in->src[2]);
            }
        } else if ((in->op == WS_OP_TEX || in->op == WS_OP_TLD4) && in->ndst == 1 && in->nsrc >= 2) {
            put_opnd(out, m, f, in, &in->dst[0]);
            fputs(", [", out);
            put_opnd(out, m, f, in, &in->src[0]);
            fputs(", ", out);
            put_opnd(out, m, f, in, &in->src[1]);
            fputc(']', out);
            for (unsigned k = 2; k < in->nsrc; k++) { /* tex.level / tex.grad */
                fputs(", ", out);
                put_opnd(out, m, f, in, &in->src[k]);
            }
        } else {
            bool first = true;
            for (unsigned k = 0; k < in->ndst; k++) {
                if (k) fputc('|', out);
                put_opnd(out, m, f, in, &in->dst[k]);
                first = false;
            }
            for (unsigned k = 0; k < in->nsrc; k++) {
                if (!first) fputs(", ", out);
                put_opnd(out, m, f, in, &in->src[k]);
                first = false;
            }
        }
        fputs(";", out);
        if (in->op == WS_OP_BRA) fprintf(out, " // reconv %d", in->reconv);
        fputc('\n', out);
    }
    fputs("}\n", out);
}
