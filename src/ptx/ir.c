/* IR helpers: type/space/opcode names, lookups, module destruction. */
#include "ptx/ir.h"

#include <stdlib.h>
#include <string.h>

static const char *const type_name[WS_T_COUNT] = {
    [WS_T_NONE] = "none",   [WS_T_PRED] = "pred",
    [WS_T_B8] = "b8",       [WS_T_B16] = "b16",     [WS_T_B32] = "b32",
    [WS_T_B64] = "b64",     [WS_T_B128] = "b128",
    [WS_T_U8] = "u8",       [WS_T_U16] = "u16",     [WS_T_U32] = "u32",
    [WS_T_U64] = "u64",
    [WS_T_S8] = "s8",       [WS_T_S16] = "s16",     [WS_T_S32] = "s32",
    [WS_T_S64] = "s64",
    [WS_T_F16] = "f16",     [WS_T_F16X2] = "f16x2",
    [WS_T_BF16] = "bf16",   [WS_T_BF16X2] = "bf16x2",
    [WS_T_F32] = "f32",     [WS_T_F64] = "f64",
    [WS_T_E4M3] = "e4m3",   [WS_T_E5M2] = "e5m2",
    [WS_T_S4] = "s4",       [WS_T_U4] = "u4",       [WS_T_B1] = "b1",
};

const char *ws_type_name(ws_type t) { return (unsigned)t < WS_T_COUNT ? type_name[t] : "?"; }

const char *ws_space_name(ws_space s)
{
    static const char *const names[WS_SPACE_COUNT] = {
        "generic", "reg", "global", "shared", "const", "local", "param", "tex",
    };
    return (unsigned)s < WS_SPACE_COUNT ? names[s] : "?";
}

const char *ws_opcode_name(ws_opcode op)
{
    /* The X-macro names are upper case; PTX spells them in lower case. The
       static assert keeps this table in step with WS_OPCODES. */
    static const char *const lower[] = {
        "abs", "add", "addc", "sub", "subc", "mul", "mad", "madc", "mul24",
        "mad24", "sad", "fma", "div", "rem", "neg", "min", "max", "copysign",
        "testp",
        "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh",
        "and", "or", "xor", "not", "cnot", "lop3", "shl", "shr", "shf", "bfe",
        "bfi", "brev", "popc", "clz", "bfind", "prmt", "dp4a", "dp2a",
        "setp", "set", "selp", "slct",
        "mov", "cvt", "cvta", "ld", "ldu", "st", "prefetch", "isspacep",
        "atom", "red",
        "bar", "membar", "fence",
        "bra", "call", "ret", "exit", "trap", "nanosleep",
        "vote", "shfl", "activemask", "match", "redux", "tex",
        "bmsk", "szext", "fns",
        "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vset", "vavrg",
        "wmma", "mma", "cp.async", "mbarrier", "vshl", "vshr", "vmad", "pmevent",
        "alloca", "stacksave", "stackrestore", "griddepcontrol",
        "suld", "sust", "suq", "tld4", "mapa", "getctarank", "elect", "sured", "txq", "ldmatrix", "stmatrix", "movmatrix",
    };
    _Static_assert(sizeof lower / sizeof lower[0] == WS_OP_COUNT, "opcode name table out of date");
    return (unsigned)op < WS_OP_COUNT ? lower[op] : "?";
}

int ws_module_func_unsupported(const ws_module *m, uint32_t func)
{
    /* depth-first over direct calls and function addresses taken */
    uint32_t *stack = malloc((m->nfuncs + 1) * sizeof *stack);
    bool *seen = calloc(m->nfuncs + 1, sizeof *seen);
    int found = -1;
    uint32_t n = 0;
    if (stack && seen && func < m->nfuncs) {
        stack[n++] = func;
        seen[func] = true;
    }
    while (n && found < 0) {
        const ws_func *f = &m->funcs[stack[--n]];
        if (f->unsupported) found = (int)f->unsupported - 1;
        for (uint32_t i = 0; i < f->ninsts && found < 0; i++)
            for (unsigned k = 0; k < f->insts[i].nsrc; k++) {
                const ws_operand *o = &f->insts[i].src[k];
                if (o->kind != WS_OPND_FUNC || o->imm < 0 || (uint64_t)o->imm >= m->nfuncs) continue;
                if (!seen[o->imm]) {
                    seen[o->imm] = true;
                    stack[n++] = (uint32_t)o->imm;
                }
            }
    }
    free(stack);
    free(seen);
    return found;
}

int ws_builtin_of(const char *name)
{
    if (strcmp(name, "vprintf") == 0) return WS_BUILTIN_VPRINTF;
    if (strcmp(name, "__assertfail") == 0) return WS_BUILTIN_ASSERTFAIL;
    if (strcmp(name, "malloc") == 0) return WS_BUILTIN_MALLOC;
    if (strcmp(name, "free") == 0) return WS_BUILTIN_FREE;
    return WS_BUILTIN_NONE;
}

int ws_module_find_func(const ws_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0) return (int)i;
    return -1;
}

int ws_module_find_symbol(const ws_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (m->syms[i].func < 0 && m->syms[i].name && strcmp(m->syms[i].name, name) == 0)
            return (int)i;
    return -1;
}

void ws_module_free(ws_module *m)
{
    if (!m) return;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ws_func *f = &m->funcs[i];
        free(f->name);
        for (uint32_t j = 0; j < f->ninsts; j++) {
            free(f->insts[j].call_args);
            free(f->insts[j].call_rets);
        }
        free(f->insts);
        free(f->reg_type);
        if (f->reg_name)
            for (uint32_t j = 0; j < f->nregs; j++) free(f->reg_name[j]);
        free(f->reg_name);
        if (f->pred_name)
            for (uint32_t j = 0; j < f->npreds; j++) free(f->pred_name[j]);
        free(f->pred_name);
        free(f->params);
        free(f->rets);
        free(f->block_start);
        free(f->inst_block);
        free(f->ipdom);
        free(f->imm_lanes);
    }
    free(m->funcs);
    for (uint32_t i = 0; i < m->nproblems; i++) free(m->problems[i].msg);
    free(m->problems);
    for (uint32_t i = 0; i < m->nsyms; i++) {
        free(m->syms[i].name);
        free(m->syms[i].init);
        free(m->syms[i].relocs);
    }
    free(m->syms);
    free(m->filename);
    free(m);
}
