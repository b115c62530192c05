/* PTX parser on real nvcc output (tests/data/ptx, sources beside them) and
 * on hand-written forms. */
#include <time.h>

#include "test_ptx_util.h"

TEST(ptx_parses_nvcc_outputs)
{
    static const char *const files[] = {
        "vectoradd.ptx", "matmul.ptx", "misc.ptx", "features.ptx",
        "features_sm80.ptx", "features_sm90.ptx",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        ws_module *m = ptxt_load(files[i]);
        if (!m) continue;
        CHECK(m->nfuncs >= 1);
        CHECK_EQ_U64(m->address_size, 64);
        CHECK_EQ_U64(m->version_major, 9);
        for (uint32_t k = 0; k < m->nfuncs; k++) {
            const ws_func *f = &m->funcs[k];
            if (!f->has_body) continue;
            CHECK(f->nblocks >= 1);
            CHECK(f->ninsts >= 1);
            for (uint32_t pc = 0; pc < f->ninsts; pc++)
                CHECK_MSG(f->insts[pc].line > 0, "%s pc %u has no line", f->name, pc);
        }
        ws_module_free(m);
    }
}

TEST(ptx_reduce_kernel_ir)
{
    ws_module *m = ptxt_load("misc.ptx");
    if (!m) return;
    CHECK_STR_CONTAINS(m->target, "sm_75");
    const ws_func *f = ptxt_func(m, "_Z6reducePKfPfi");
    CHECK(f != NULL);
    if (!f) { ws_module_free(m); return; }
    CHECK(f->is_entry);
    CHECK_EQ_U64(f->nparams, 3);
    CHECK_EQ_U64(f->param_size, 20); /* u64 @0, u64 @8, u32 @16 */
    CHECK_EQ_U64(m->syms[f->params[2]].offset, 16);
    CHECK(m->syms[f->params[0]].is_kernel_param);
    /* .reg .pred %p<12>; .f32 %f<20>; .b32 %r<31>; .b64 %rd<7> */
    CHECK_EQ_U64(f->npreds, 12);
    CHECK_EQ_U64(f->nregs, 20 + 31 + 7);
    CHECK_EQ_U64(f->reg_type[0], WS_T_F32);
    CHECK(strcmp(f->reg_name[20], "%r0") == 0);
    /* ld.param.u64 %rd1, [_Z6reducePKfPfi_param_0]; */
    const ws_inst *in = &f->insts[0];
    CHECK_EQ_U64(in->op, WS_OP_LD);
    CHECK_EQ_U64(in->space, WS_SPACE_PARAM);
    CHECK_EQ_U64(in->type, WS_T_U64);
    CHECK_EQ_U64(in->ndst, 1);
    CHECK_EQ_U64(in->dst[0].kind, WS_OPND_REG);
    CHECK(strcmp(f->reg_name[in->dst[0].reg], "%rd1") == 0);
    CHECK_EQ_U64(in->src[0].kind, WS_OPND_MEM);
    CHECK_EQ_U64(in->src[0].sym, f->params[0]);
    CHECK_EQ_U64(in->src[0].reg, WS_NOREG);
    /* mov.u32 %r30, %ntid.x; */
    CHECK_EQ_U64(f->insts[3].src[0].kind, WS_OPND_SREG);
    CHECK_EQ_U64(f->insts[3].src[0].reg, WS_SREG_NTID_X);
    /* mad.lo.s32 */
    CHECK_EQ_U64(f->insts[6].op, WS_OP_MAD);
    CHECK_EQ_U64(f->insts[6].sub, WS_MUL_LO);
    CHECK_EQ_U64(f->insts[6].type, WS_T_S32);
    /* setp.ge.s32 %p1, %r3, %r7; */
    CHECK_EQ_U64(f->insts[7].op, WS_OP_SETP);
    CHECK_EQ_U64(f->insts[7].cmp, WS_CMP_GE);
    CHECK_EQ_U64(f->insts[7].stype, WS_T_S32);
    CHECK_EQ_U64(f->insts[7].dst[0].kind, WS_OPND_PRED);
    /* mov.f32 %f19, 0f00000000; @%p1 bra $L__BB0_2; */
    CHECK_EQ_U64(f->insts[8].src[0].kind, WS_OPND_IMM);
    CHECK_EQ_U64(f->insts[8].src[0].imm, 0);
    const ws_inst *br = &f->insts[9];
    CHECK_EQ_U64(br->op, WS_OP_BRA);
    CHECK(br->guard != WS_NOREG);
    CHECK_EQ_U64(br->guard_neg, 0);
    CHECK_EQ_U64(br->src[0].kind, WS_OPND_LABEL);
    CHECK_EQ_I64(br->src[0].imm, 14);
    CHECK_EQ_I64(br->reconv, 14);
    /* the loop's back edge @%p4 bra $L__BB0_3 reconverges after the loop */
    CHECK_EQ_U64(f->insts[33].op, WS_OP_BRA);
    CHECK_EQ_I64(f->insts[33].src[0].imm, 21);
    CHECK_EQ_I64(f->insts[33].reconv, 34);
    /* mov.u32 %r10, _ZZ6reducePKfPfiE1s: address of a shared variable */
    CHECK_EQ_U64(f->insts[15].op, WS_OP_MOV);
    CHECK_EQ_U64(f->insts[15].src[0].kind, WS_OPND_SYM);
    const ws_symbol *s = &m->syms[f->insts[15].src[0].sym];
    CHECK(strcmp(s->name, "_ZZ6reducePKfPfiE1s") == 0);
    CHECK_EQ_U64(s->space, WS_SPACE_SHARED);
    CHECK_EQ_U64(s->size, 1024);
    CHECK_EQ_U64(s->offset, 0);
    CHECK_EQ_U64(f->static_shared, 1024);
    CHECK_EQ_U64(f->dyn_shared_align, 0);
    /* bar.sync 0 */
    CHECK_EQ_U64(f->insts[18].op, WS_OP_BAR);
    CHECK_EQ_U64(f->insts[18].sub, WS_BAR_SYNC);
    CHECK(f->insts[18].flags & WS_F_ALIGNED);
    /* shfl.sync.down.b32 %r18|%p6, %r13, %r16, %r15, %r17; */
    bool found_shfl = false;
    for (uint32_t pc = 0; pc < f->ninsts; pc++) {
        const ws_inst *x = &f->insts[pc];
        if (x->op != WS_OP_SHFL) continue;
        found_shfl = true;
        CHECK_EQ_U64(x->sub, WS_SHFL_DOWN);
        CHECK(x->flags & WS_F_SYNC);
        CHECK_EQ_U64(x->type, WS_T_B32);
        CHECK_EQ_U64(x->ndst, 2);
        CHECK_EQ_U64(x->dst[0].kind, WS_OPND_REG);
        CHECK_EQ_U64(x->dst[1].kind, WS_OPND_PRED);
        CHECK_EQ_U64(x->nsrc, 4);
        break;
    }
    CHECK(found_shfl);
    /* atom.global.add.f32 */
    const ws_inst *last = NULL;
    for (uint32_t pc = 0; pc < f->ninsts; pc++)
        if (f->insts[pc].op == WS_OP_ATOM) last = &f->insts[pc];
    CHECK(last != NULL);
    if (last) {
        CHECK_EQ_U64(last->space, WS_SPACE_GLOBAL);
        CHECK_EQ_U64(last->sub, WS_ATOM_ADD);
        CHECK_EQ_U64(last->type, WS_T_F32);
        CHECK_EQ_U64(last->nsrc, 2);
    }
    CHECK_EQ_U64(f->insts[f->ninsts - 1].op, WS_OP_RET);
    ws_module_free(m);
}

TEST(ptx_module_variables_layout)
{
    ws_module *m = ptxt_load("features.ptx");
    if (!m) return;
    /* .const coeffs[16] @0, ctab[24] @16 */
    const ws_symbol *c = ptxt_sym(m, "coeffs"), *t = ptxt_sym(m, "ctab");
    CHECK(c && t);
    if (c && t) {
        CHECK_EQ_U64(c->space, WS_SPACE_CONST);
        CHECK_EQ_U64(c->offset, 0);
        CHECK_EQ_U64(c->size, 16);
        CHECK(c->init && c->init[2] == 128 && c->init[3] == 63); /* 1.0f */
        CHECK_EQ_U64(t->offset, 16);
        CHECK_EQ_U64(t->size, 24);
        CHECK(t->init && t->init_len == 21 && t->init[20] == 6); /* short list: the tail is implicit zero */
    }
    CHECK_EQ_U64(m->const_size, 40);
    const ws_symbol *cnt = ptxt_sym(m, "counter"), *ds = ptxt_sym(m, "dscale");
    CHECK(cnt && ds);
    if (cnt && ds) {
        CHECK_EQ_U64(cnt->space, WS_SPACE_GLOBAL);
        CHECK_EQ_U64(cnt->offset, 0);
        CHECK_EQ_U64(cnt->size, 4);
        CHECK(cnt->init && cnt->init[0] == 7);
        CHECK_EQ_U64(ds->offset, 8);
        uint64_t bits = 0;
        memcpy(&bits, ds->init, 8);
        CHECK_EQ_U64(bits, 0x3FF8000000000000ull);
    }
    /* gptr = generic(counter); gptrs[2] = {generic(counter), generic(garr)+12} */
    const ws_symbol *gp = ptxt_sym(m, "gptr"), *gps = ptxt_sym(m, "gptrs");
    int ic = ws_module_find_symbol(m, "counter"), ig = ws_module_find_symbol(m, "garr");
    CHECK(gp && gps && ic >= 0 && ig >= 0);
    if (gp && gps) {
        CHECK_EQ_U64(gp->nrelocs, 1);
        CHECK_EQ_U64(gp->relocs[0].sym, (uint32_t)ic);
        CHECK_EQ_U64(gp->relocs[0].at, 0);
        CHECK_EQ_U64(gps->nrelocs, 2);
        CHECK_EQ_U64(gps->relocs[1].sym, (uint32_t)ig);
        CHECK_EQ_U64(gps->relocs[1].at, 8);
        CHECK_EQ_I64(gps->relocs[1].addend, 12);
        CHECK_EQ_U64(gps->offset % 8, 0);
    }
    CHECK_EQ_U64(m->global_size, 144);
    /* printf format string: unsized-by-list .b8 array keeps its declared size */
    const ws_symbol *str = ptxt_sym(m, "$str");
    CHECK(str && str->size == 13 && str->init && str->init[0] == 'h' && str->init_len == 12); /* NUL implicit */

    /* dynamic shared: extern, size 0, kernel static part = its fixedbuf */
    const ws_symbol *dyn = ptxt_sym(m, "dyn");
    CHECK(dyn && dyn->is_extern && dyn->size == 0 && dyn->align == 16);
    const ws_func *k = ptxt_func(m, "_Z9dynsharedPfPKf");
    CHECK(k != NULL);
    if (k) {
        CHECK_EQ_U64(k->static_shared, 128);
        CHECK_EQ_U64(k->dyn_shared_align, 16);
    }
    /* atomics: kernel-own shared u32 */
    const ws_func *a = ptxt_func(m, "_Z7atomicsPiPjPfPd");
    if (a) {
        const ws_symbol *sc = ptxt_fsym(m, a, "_ZZ7atomicsPiPjPfPdE2sc");
        CHECK(sc && sc->space == WS_SPACE_SHARED && sc->size == 4 && sc->offset == 0);
        CHECK_EQ_U64(a->static_shared, 4);
        int n_atom = 0, n_cas = 0;
        for (uint32_t pc = 0; pc < a->ninsts; pc++) {
            const ws_inst *x = &a->insts[pc];
            if (x->op != WS_OP_ATOM) continue;
            n_atom++;
            if (x->sub == WS_ATOM_CAS) {
                n_cas++;
                CHECK_EQ_U64(x->nsrc, 3);
                CHECK_EQ_U64(x->type, WS_T_B32);
            }
        }
        CHECK_EQ_U64(n_atom, 14);
        CHECK_EQ_U64(n_cas, 1);
    } else {
        CHECK(a != NULL);
    }
    ws_module_free(m);
}

TEST(ptx_calls_and_frames)
{
    ws_module *m = ptxt_load("features.ptx");
    if (!m) return;
    const ws_func *vp = ptxt_func(m, "vprintf");
    CHECK(vp && vp->is_extern && !vp->has_body && vp->nparams == 2 && vp->nrets == 1);
    const ws_func *mk = ptxt_func(m, "_Z9make_pairi");
    CHECK(mk != NULL);
    if (mk) {
        /* .func (.param .align 8 .b8 func_retval0[16]) _Z9make_pairi(.param .b32 p0) */
        CHECK_EQ_U64(mk->nrets, 1);
        const ws_symbol *r = &m->syms[mk->rets[0]];
        CHECK(r->is_frame && r->size == 16 && r->align == 8 && r->offset == 0);
        const ws_symbol *p0 = &m->syms[mk->params[0]];
        CHECK(p0->is_frame && p0->offset == 16 && p0->size == 4);
        CHECK(mk->frame_size >= 20);
    }
    const ws_func *k = ptxt_func(m, "_Z5callsPii");
    CHECK(k != NULL);
    if (k) {
        int ncalls = 0;
        for (uint32_t pc = 0; pc < k->ninsts; pc++) {
            const ws_inst *x = &k->insts[pc];
            if (x->op != WS_OP_CALL) continue;
            ncalls++;
            CHECK_EQ_U64(x->src[0].kind, WS_OPND_FUNC);
            CHECK(x->flags & WS_F_UNI);
            CHECK_EQ_U64(x->ncall_rets, 1);
            const ws_func *callee = &m->funcs[x->src[0].imm];
            CHECK_EQ_U64(x->ncall_args, callee->nparams);
            for (unsigned j = 0; j < x->ncall_args; j++) {
                const ws_symbol *s = &m->syms[x->call_args[j]];
                CHECK(s->is_frame && s->space == WS_SPACE_PARAM && s->func == (int32_t)(k - m->funcs));
                CHECK(s->offset + s->size <= k->frame_size);
            }
            if (ncalls == 1) {
                CHECK(strcmp(callee->name, "_Z6helperii") == 0);
                CHECK_EQ_U64(x->ncall_args, 2);
                /* the st.param before it writes the scoped param1 of this block */
                const ws_inst *st = &k->insts[pc - 1];
                CHECK_EQ_U64(st->op, WS_OP_ST);
                CHECK_EQ_U64(st->src[0].sym, x->call_args[1]);
            }
        }
        CHECK_EQ_U64(ncalls, 3);
    }
    /* indirect call through a function pointer */
    const ws_func *fp = ptxt_func(m, "_Z5fptrsPii");
    if (fp) {
        bool seen = false, fmov = false;
        for (uint32_t pc = 0; pc < fp->ninsts; pc++) {
            const ws_inst *x = &fp->insts[pc];
            if (x->op == WS_OP_CALL) {
                seen = true;
                CHECK_EQ_U64(x->src[0].kind, WS_OPND_REG);
                CHECK_EQ_U64(x->ncall_args, 2);
            }
            if (x->op == WS_OP_MOV && x->src[0].kind == WS_OPND_FUNC) fmov = true;
        }
        CHECK(seen);
        CHECK(fmov);
    } else {
        CHECK(fp != NULL);
    }
    /* local array: __local_depot is a frame symbol, 16 floats */
    const ws_func *lo = ptxt_func(m, "_Z6localsPfPKii");
    if (lo) {
        const ws_symbol *d = ptxt_fsym(m, lo, "__local_depot6");
        CHECK(d && d->is_frame && d->space == WS_SPACE_LOCAL && d->size == 64 && d->align == 16);
        CHECK(lo->frame_size >= 64);
    } else {
        CHECK(lo != NULL);
    }
    ws_module_free(m);
}

static const char forms_ptx[] = PTX_HEADER
    ".global .align 4 .b32 tab[2][3] = {{1, 2, 3}, {4, -5}};\n"
    ".global .align 8 .u64 fp[] = {_Z3fooi, generic(tab)+8};\n"
    ".const .align 4 .f32 cf[2] = {0f3F800000, 2};\n"
    ".shared .align 8 .b8 msh[12];\n"
    ".extern .shared .align 16 .b8 sm[];\n"
    ".func (.param .b32 r) _Z3fooi(.param .b32 a)\n"
    "{\n .reg .b32 %r<3>;\n ld.param.b32 %r1, [a];\n st.param.b32 [r+0], %r1;\n ret;\n}\n"
    ".visible .entry k(.param .u64 p0, .param .align 8 .b8 st[24], .param .u32 p2)\n"
    ".maxntid 256, 1, 1\n.minnctapersm 2\n{\n"
    " .reg .pred %p<4>;\n .reg .b16 %rs<3>;\n .reg .b32 %r<40>;\n .reg .b64 %rd<10>;\n"
    " .reg .f32 %f<10>;\n .reg .f64 %fd<4>;\n"
    " .local .align 8 .b8 loc[16];\n .shared .align 4 .b32 ksh[4];\n"
    " .pragma \"nounroll\";\n .loc 1 2 3\n"
    " ld.param.u32 %r1, [st+8];\n"                              /* 0 */
    " mul.wide.s32 %rd2, %r1, 4;\n"                              /* 1 */
    " mul.hi.u64 %rd3, %rd1, %rd2;\n"                            /* 2 */
    " setp.ge.and.s32 %p1, %r1, %r2, %p2;\n"                     /* 3 */
    " setp.ne.s32 %p1|%p2, %r1, -3;\n"                           /* 4 */
    " setp.ltu.f32 %p3, %f1, 1;\n"                               /* 5 */
    " cvt.rzi.s32.f32 %r3, %f1;\n"                               /* 6 */
    " cvt.rn.f16.f32 %rs1, %f1;\n"                               /* 7 */
    " cvta.to.global.u64 %rd5, %rd1;\n"                          /* 8 */
    " cvta.shared.u64 %rd6, %rd5;\n"                             /* 9 */
    " ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd5+16];\n"      /* 10 */
    " st.local.v4.f32 [loc], {%f1, %f2, %f3, %f4};\n"            /* 11 */
    " ld.volatile.shared.u32 %r4, [ksh+4];\n"                    /* 12 */
    " ld.relaxed.gpu.global.u32 %r5, [%rd5+-8];\n"               /* 13 */
    " atom.shared.cas.b32 %r6, [msh], %r1, %r2;\n"               /* 14 */
    " red.global.add.u32 [%rd5], 1;\n"                           /* 15 */
    " barrier.sync 0;\n"                                         /* 16 */
    " bar.red.popc.u32 %r7, 0, %p1;\n"                           /* 17 */
    " membar.gl;\n"                                              /* 18 */
    " fence.acq_rel.gpu;\n"                                      /* 19 */
    " @!%p2 bra.uni $L__BB0_3;\n"                                /* 20 */
    " vote.sync.ballot.b32 %r8, !%p1, -1;\n"                     /* 21 */
    " lop3.b32 %r12, %r2, %r3, %r4, 0xF8;\n"                     /* 22 */
    " shf.l.wrap.b32 %r13, %r2, %r3, %r4;\n"                     /* 23 */
    " rcp.approx.ftz.f64 %fd1, %fd2;\n"                          /* 24 */
    " div.full.f32 %f7, %f7, %f6;\n"                             /* 25 */
    " min.NaN.f32 %f7, %f7, %f6;\n"                              /* 26 */
    " testp.finite.f32 %p1, %f7;\n"                              /* 27 */
    " mov.b64 {%r20, %r21}, %rd1;\n"                             /* 28 */
    " mov.u64 %rd9, tab+4;\n"                                    /* 29 */
    " add.cc.u32 %r24, %r1, %r2;\n"                              /* 30 */
    " dp4a.u32.s32 %r28, %r1, %r2, %r3;\n"                       /* 31 */
    " ld.shared.u32 %r29, [sm+4];\n"                             /* 32 */
    " ld.global.u32 %r30, [1024];\n"                             /* 33 */
    " mov.f32 %f9, 1.5;\n"                                       /* 34 */
    " mov.f64 %fd3, 0f3F800000;\n"                               /* 35 */
    " mov.b32 %r31, 0b101;\n"                                    /* 36 */
    " mov.b32 %r31, 017;\n"                                      /* 37 */
    " mov.u32 %r31, 4294967295U;\n"                              /* 38 */
    " bar.warp.sync -1;\n"                                       /* 39 */
    " { .reg .b32 %temp;\n mov.b64 {%temp, %r31}, %fd3;\n }\n"   /* 40 */
    " { .param .b32 param0;\n st.param.b32 [param0+0], %r1;\n .param .b32 retval0;\n"
    "   call.uni (retval0), _Z3fooi, (param0);\n ld.param.b32 %r32, [retval0+0];\n }\n" /* 41-43 */
    " { .param .b32 param0;\n st.param.b32 [param0+0], 7;\n .param .b32 retval0;\n"
    "   call.uni (retval0), _Z3fooi, (param0);\n }\n"           /* 44-45 */
    "$L__BB0_3:\n exit;\n}\n";                                   /* 46 */

TEST(ptx_instruction_forms)
{
    ws_diag d;
    ws_module *m = ptxt_parse_str(forms_ptx, &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_func *f = ptxt_func(m, "k");
    CHECK(f && f->ninsts == 47);
    if (!f || f->ninsts != 47) { ws_module_free(m); return; }
    const ws_inst *I = f->insts;
    CHECK_EQ_U64(f->maxntid[0], 256);
    CHECK_EQ_U64(f->maxntid[1], 1);
    CHECK_EQ_U64(f->minnctapersm, 2);
    /* kernel params: u64 @0, 24 bytes align 8 @8, u32 @32 */
    CHECK_EQ_U64(m->syms[f->params[1]].offset, 8);
    CHECK_EQ_U64(m->syms[f->params[2]].offset, 32);
    CHECK_EQ_U64(f->param_size, 36);
    CHECK_EQ_I64(I[0].src[0].imm, 8);
    CHECK_EQ_U64(I[0].src[0].sym, f->params[1]);
    CHECK_EQ_U64(I[1].sub, WS_MUL_WIDE);
    CHECK_EQ_U64(I[1].type, WS_T_S32);
    CHECK_EQ_I64(I[1].src[1].imm, 4);
    CHECK_EQ_U64(I[2].sub, WS_MUL_HI);
    CHECK_EQ_U64(I[3].boolop, WS_BOOL_AND);
    CHECK_EQ_U64(I[3].nsrc, 3);
    CHECK_EQ_U64(I[3].src[2].kind, WS_OPND_PRED);
    CHECK_EQ_U64(I[4].ndst, 2);
    CHECK_EQ_U64(I[4].dst[1].kind, WS_OPND_PRED);
    CHECK_EQ_I64(I[4].src[1].imm, -3);
    CHECK_EQ_U64(I[5].cmp, WS_CMP_LTU);
    CHECK_EQ_U64(I[5].src[1].imm, 0x3F800000); /* integer 1 as f32 */
    CHECK_EQ_U64(I[6].rnd, WS_RND_RZI);
    CHECK_EQ_U64(I[6].type, WS_T_S32);
    CHECK_EQ_U64(I[6].stype, WS_T_F32);
    CHECK_EQ_U64(I[7].type, WS_T_F16);
    CHECK_EQ_U64(I[7].stype, WS_T_F32);
    CHECK_EQ_U64(I[8].space, WS_SPACE_GLOBAL);
    CHECK_EQ_U64(I[8].to_generic, 0);
    CHECK_EQ_U64(I[9].space, WS_SPACE_SHARED);
    CHECK_EQ_U64(I[9].to_generic, 1);
    CHECK_EQ_U64(I[10].vec, 4);
    CHECK(I[10].flags & WS_F_NC);
    CHECK_EQ_U64(I[10].dst[0].kind, WS_OPND_VEC);
    CHECK_EQ_U64(I[10].dst[0].vecn, 4);
    CHECK_EQ_U64(I[10].dst[0].vreg[2], WS_NOREG);
    CHECK_EQ_I64(I[10].src[0].imm, 16);
    CHECK_EQ_U64(I[11].op, WS_OP_ST);
    CHECK_EQ_U64(I[11].ndst, 0);
    CHECK_EQ_U64(I[11].nsrc, 2);
    CHECK_EQ_U64(I[11].src[1].kind, WS_OPND_VEC);
    CHECK(I[12].flags & WS_F_VOLATILE);
    CHECK_EQ_U64(I[13].scope, WS_SCOPE_GPU);
    CHECK_EQ_I64(I[13].src[0].imm, -8);
    CHECK_EQ_U64(I[14].sub, WS_ATOM_CAS);
    CHECK_EQ_U64(I[14].space, WS_SPACE_SHARED);
    CHECK_EQ_U64(I[15].op, WS_OP_RED);
    CHECK_EQ_U64(I[15].ndst, 0);
    CHECK_EQ_U64(I[16].sub, WS_BAR_SYNC);
    CHECK(!(I[16].flags & WS_F_ALIGNED));
    CHECK_EQ_U64(I[17].sub, WS_BAR_RED_POPC);
    CHECK_EQ_U64(I[17].ndst, 1);
    CHECK_EQ_U64(I[18].scope, WS_SCOPE_GPU);
    CHECK_EQ_U64(I[19].op, WS_OP_FENCE);
    CHECK_EQ_U64(I[20].guard_neg, 1);
    CHECK(I[20].flags & WS_F_UNI);
    CHECK_EQ_I64(I[20].src[0].imm, 46);
    CHECK_EQ_U64(I[21].sub, WS_VOTE_BALLOT);
    CHECK_EQ_U64(I[21].src[0].neg, 1);
    CHECK_EQ_I64(I[21].src[1].imm, -1);
    CHECK_EQ_U64(I[22].nsrc, 4);
    CHECK_EQ_I64(I[22].src[3].imm, 0xF8);
    CHECK_EQ_U64(I[23].sub, WS_SHF_L);
    CHECK(I[23].flags & WS_F_WRAP);
    CHECK(I[24].flags & WS_F_APPROX);
    CHECK(I[24].flags & WS_F_FTZ);
    CHECK(I[25].flags & WS_F_FULL);
    CHECK(I[26].flags & WS_F_NAN);
    CHECK_EQ_U64(I[27].sub, WS_TESTP_FINITE);
    CHECK_EQ_U64(I[28].dst[0].kind, WS_OPND_VEC);
    CHECK_EQ_U64(I[28].dst[0].vecn, 2);
    CHECK_EQ_U64(I[29].src[0].kind, WS_OPND_SYM);
    CHECK_EQ_I64(I[29].src[0].imm, 4);
    CHECK(I[30].flags & WS_F_CC);
    CHECK_EQ_U64(I[31].type, WS_T_U32);
    CHECK_EQ_U64(I[31].stype, WS_T_S32);
    CHECK_EQ_U64(m->syms[I[32].src[0].sym].is_extern, 1);
    CHECK_EQ_U64(I[33].src[0].sym, WS_NOSYM);
    CHECK_EQ_U64(I[33].src[0].reg, WS_NOREG);
    CHECK_EQ_I64(I[33].src[0].imm, 1024);
    CHECK_EQ_U64(I[34].src[0].imm, 0x3FC00000);             /* 1.5f */
    CHECK_EQ_U64(I[35].src[0].imm, 0x3FF0000000000000ull);  /* 0f literal widened */
    CHECK_EQ_I64(I[36].src[0].imm, 5);
    CHECK_EQ_I64(I[37].src[0].imm, 15);
    CHECK_EQ_I64(I[38].src[0].imm, 4294967295ll);
    CHECK_EQ_U64(I[39].sub, WS_BAR_WARP_SYNC);
    /* scoped %temp gets its own slot */
    CHECK(strcmp(f->reg_name[I[40].dst[0].vreg[0]], "%temp") == 0);
    /* two call blocks reuse the names param0/retval0 and the frame bytes */
    CHECK_EQ_U64(I[42].op, WS_OP_CALL);
    CHECK_EQ_U64(I[45].op, WS_OP_CALL);
    CHECK(I[42].call_args[0] != I[45].call_args[0]);
    CHECK_EQ_U64(I[44].src[0].sym, I[45].call_args[0]);
    CHECK_EQ_U64(m->syms[I[42].call_args[0]].offset, m->syms[I[45].call_args[0]].offset);
    CHECK_EQ_U64(m->syms[I[42].call_args[0]].offset, 16); /* after loc[16] */
    CHECK_EQ_U64(f->frame_size, 24);
    CHECK_EQ_I64(I[44].src[1].imm, 7);
    /* shared layout: module msh[12] @0, kernel ksh @12, dynamic aligned 16 */
    CHECK_EQ_U64(m->shared_size, 12);
    CHECK_EQ_U64(f->static_shared, 28);
    CHECK_EQ_U64(f->dyn_shared_align, 16);
    /* initialisers: nested lists, negative values, function + generic relocs */
    const ws_symbol *tab = ptxt_sym(m, "tab"), *fp = ptxt_sym(m, "fp"), *cf = ptxt_sym(m, "cf");
    CHECK(tab && fp && cf);
    if (tab && fp && cf) {
        int32_t v[6] = {0}; /* a short list: the bytes past init_len are zero */
        CHECK(tab->init_len <= sizeof v);
        memcpy(v, tab->init, tab->init_len <= sizeof v ? tab->init_len : sizeof v);
        CHECK(v[0] == 1 && v[3] == 4 && v[4] == -5 && v[5] == 0);
        CHECK_EQ_U64(fp->size, 16);
        CHECK_EQ_U64(fp->nrelocs, 2);
        CHECK_EQ_U64(fp->relocs[0].sym, WS_RELOC_FUNC | (uint32_t)ws_module_find_func(m, "_Z3fooi"));
        CHECK_EQ_U64(fp->relocs[1].sym, (uint32_t)ws_module_find_symbol(m, "tab"));
        CHECK_EQ_I64(fp->relocs[1].addend, 8);
        uint32_t c1;
        memcpy(&c1, cf->init + 4, 4);
        CHECK_EQ_U64(c1, 0x40000000); /* 2 -> 2.0f */
    }
    const ws_func *foo = ptxt_func(m, "_Z3fooi");
    CHECK(foo && foo->frame_size == 8 && m->syms[foo->params[0]].offset == 4);
    ws_module_free(m);
}

TEST(ptx_forward_declared_function)
{
    ws_diag d;
    ws_module *m = ptxt_parse_str(PTX_HEADER
        ".func (.param .b32 rv) g(.param .b32 x);\n"
        ".visible .entry k()\n{\n .reg .b32 %r<2>;\n"
        " { .param .b32 p;\n st.param.b32 [p], 1;\n .param .b32 q;\n"
        "   call (q), g, (p);\n ld.param.b32 %r1, [q];\n }\n ret;\n}\n"
        ".func (.param .b32 rv2) g(.param .b32 y)\n{\n .reg .b32 %r<2>;\n"
        " ld.param.b32 %r1, [y];\n st.param.b32 [rv2], %r1;\n ret;\n}\n", &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    CHECK_EQ_U64(m->nfuncs, 2);
    const ws_func *g = ptxt_func(m, "g");
    CHECK(g && g->has_body && g->nparams == 1 && g->nrets == 1);
    if (g) {
        CHECK(strcmp(m->syms[g->params[0]].name, "y") == 0);
        CHECK_EQ_U64(g->insts[0].src[0].sym, g->params[0]);
    }
    ws_module_free(m);
}

TEST(ptx_dump_round_trip)
{
    static const char *const files[] = {"vectoradd.ptx", "matmul.ptx"};
    for (size_t i = 0; i < 2; i++) {
        ws_module *m = ptxt_load(files[i]);
        if (!m) continue;
        char *t1 = NULL, *t2 = NULL;
        size_t n1 = 0, n2 = 0;
        FILE *o = open_memstream(&t1, &n1);
        fputs(PTX_HEADER, o);
        for (uint32_t k = 0; k < m->nfuncs; k++) ws_ptx_dump_func(o, m, &m->funcs[k]);
        fclose(o);
        ws_diag d;
        ws_module *m2 = ws_ptx_parse(t1, n1, "dump.ptx", &d);
        CHECK_MSG(m2 != NULL, "%s: reparse of dump failed: %s", files[i], d.msg);
        if (m2) {
            o = open_memstream(&t2, &n2);
            fputs(PTX_HEADER, o);
            for (uint32_t k = 0; k < m2->nfuncs; k++) ws_ptx_dump_func(o, m2, &m2->funcs[k]);
            fclose(o);
            CHECK_MSG(n1 == n2 && memcmp(t1, t2, n1) == 0, "%s: dump differs after round trip", files[i]);
            CHECK_EQ_U64(m2->funcs[0].ninsts, m->funcs[0].ninsts);
            ws_module_free(m2);
        }
        free(t1);
        free(t2);
        ws_module_free(m);
    }
}

TEST(ptx_large_file_is_fast)
{
    /* ~20k lines, many registers and labels: no quadratic behaviour. */
    size_t cap = 4u << 20, n = 0;
    char *s = malloc(cap);
    n += (size_t)snprintf(s + n, cap - n, PTX_HEADER ".visible .entry big(.param .u64 a)\n{\n"
                          " .reg .pred %%p<20001>;\n .reg .b32 %%r<20001>;\n");
    for (int i = 0; i < 20000; i++) {
        if (i % 4 == 3)
            n += (size_t)snprintf(s + n, cap - n, " @%%p%d bra Lend;\nL%d:\n", i, i);
        else
            n += (size_t)snprintf(s + n, cap - n, " add.s32 %%r%d, %%r%d, %d;\n", i + 1, i, i);
    }
    n += (size_t)snprintf(s + n, cap - n, "Lend:\n ret;\n}\n");
    clock_t t0 = clock();
    ws_diag d;
    ws_module *m = ws_ptx_parse(s, n, "big.ptx", &d);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK_MSG(m != NULL, "%s", d.msg);
    CHECK_MSG(secs < 1.0, "parsing 20k lines took %.2f s", secs);
    if (m) {
        CHECK_EQ_U64(m->funcs[0].ninsts, 20001);
        CHECK_EQ_U64(m->funcs[0].nregs, 20001);
    }
    ws_module_free(m);
    free(s);
}

TEST(ptx_ir_names_and_sizes)
{
    CHECK(strcmp(ws_opcode_name(WS_OP_SHFL), "shfl") == 0);
    CHECK(strcmp(ws_opcode_name(WS_OP_ACTIVEMASK), "activemask") == 0);
    CHECK(strcmp(ws_opcode_name(WS_OP_REDUX), "redux") == 0);
    CHECK(strcmp(ws_type_name(WS_T_F16X2), "f16x2") == 0);
    CHECK_EQ_U64(ws_type_size(WS_T_B128), 16);
    CHECK_EQ_U64(ws_type_size(WS_T_F64), 8);
    CHECK(ws_type_is_signed(WS_T_S16) && !ws_type_is_signed(WS_T_U16));
    CHECK(ws_type_is_float(WS_T_BF16) && !ws_type_is_float(WS_T_B32));
    CHECK(strcmp(ws_space_name(WS_SPACE_SHARED), "shared") == 0);
}

/* A short initialiser list on a huge array stores only the listed bytes: the
   tail is zero in the module image, so the front end never allocates the
   array's full size (a fuzz finding: 32 GB for a 6-element list). */
TEST(ptx_short_initialiser_on_huge_array)
{
    ws_diag d;
    ws_module *m = ptxt_parse_str(PTX_HEADER
        ".global .align 1 .b8 big[31888888888] = {2, 114, 111};\n", &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    const ws_symbol *s = ptxt_sym(m, "big");
    CHECK(s && s->size == 31888888888ull && s->init_len == 3 && s->init && s->init[2] == 111);
    ws_module_free(m);
}

/* What nvcc 13 emits for coverage.cu (sm_75, sm_80, sm_90) that warpsim
   refuses: nothing (docs/ptx-support.md; thread-block clusters, the last
   refused forms, run since sm_90 clusters are modelled). A problem would be
   deferred: the module loads, only kernels reaching one are refused. */
TEST(ptx_nvcc13_coverage_refuses_only_the_documented)
{
    for (int v = 0; v < 3; v++) {
        char name[64];
        snprintf(name, sizeof name, "tests/data/ptx/coverage_sm%d.ptx", v == 0 ? 75 : v == 1 ? 80 : 90);
        size_t len;
        char *text = ptxt_read(name, &len);
        CHECK_MSG(text != NULL, "cannot read %s", name);
        if (!text) continue;
        ws_parse_opts o = {0};
        o.defer_unsupported = true;
        ws_diag d;
        ws_module *m = ws_ptx_parse_ex(text, len, name, &o, &d);
        free(text);
        CHECK_MSG(m != NULL, "%s: %s", name, d.msg);
        if (!m) continue;
        for (uint32_t i = 0; i < m->nproblems; i++)
            CHECK_MSG(false, "%s: refused: %s", name, m->problems[i].msg);
        ws_module_free(m);
    }
}

/* The dump of tensor-core, asynchronous-copy, mbarrier and video forms
   (selectors, masks, vmad's negations) parses back to the same dump. */
TEST(ptx_dump_round_trip_new_forms)
{
    static const char *const src =
        PTX_HEADER ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<12>;\n"
        ".reg .pred %p<4>;\n.shared .align 16 .b8 sm[1024];\n.shared .align 8 .b64 mb;\n"
        "ld.param.u64 %rd1, [p];\nmov.u32 %r1, sm;\nmov.u32 %r2, mb;\n"
        "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9}, [%rd1], %r1;\n"
        "wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, [%r1];\n"
        "wmma.load.c.sync.aligned.row.m16n16k16.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd1+64], 16;\n"
        "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, "
        "{%r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9}, {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, "
        "{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};\n"
        "wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, 24;\n"
        "@%p1 mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%r20, %r21, %r22, %r23}, "
        "{%r2, %r3, %r4, %r5}, {%r6, %r7}, {%r20, %r21, %r22, %r23};\n"
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r2, %r3, %r4, %r5}, "
        "{%r6, %r7}, {%f1, %f2, %f3, %f4};\n"
        "cp.async.cg.shared.global [%r1], [%rd1], 16, %r3;\ncp.async.ca.shared.global [%r1+16], [%rd1+16], 8;\n"
        "cp.async.commit_group;\ncp.async.wait_group 1;\ncp.async.wait_all;\n"
        "cp.async.mbarrier.arrive.noinc.shared.b64 [%r2];\n"
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 64, [%r2];\n"
        "mbarrier.init.shared.b64 [%r2], 32;\nmbarrier.arrive.expect_tx.shared.b64 %rd3, [%r2], 64;\n"
        "mbarrier.arrive_drop.shared.b64 _, [%r2];\nmbarrier.try_wait.parity.shared.b64 %p2, [%r2], %r3;\n"
        "mbarrier.test_wait.b64 %p3, [%rd1], %rd3;\nmbarrier.pending_count.b64 %r30, %rd3;\n"
        "vadd.s32.s32.s32.sat %r30.b1, %r2.b0, %r3.h1, %r4;\nvmin2.s32.s32.s32.add %r31.h0, %r2.h01, %r3.h23, %r4;\n"
        "vsub4.u32.u32.u32 %r32.b31, %r2.b7531, %r3.b6420, %r4;\nvshl.u32.u32.u32.wrap %r33, %r2.b2, %r3;\n"
        "vmad.s32.s32.u32.po.shr15 %r34, %r2.h1, %r3, %r4;\nvmad.s32.u32.u32.sat %r35, -%r2, %r3, %r4;\n"
        "add.s16x2 %r36, %r2, %r3;\ncvt.rna.satfinite.tf32.f32 %r37, %f1;\n"
        "griddepcontrol.wait;\nalloca.u64 %rd4, %rd3, 16;\nstacksave.u64 %rd5;\nstackrestore.u64 %rd5;\n"
        "barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.aligned;\nbarrier.cluster.arrive;\n"
        "barrier.cluster.wait;\nmapa.shared::cluster.u32 %r38, %r1, %r3;\nmapa.u64 %rd6, %rd1, %r3;\n"
        "getctarank.shared::cluster.u32 %r39, %r38;\nmov.u32 %r39, %cluster_ctarank;\n"
        "mov.u32 %r39, %nclusterid.z;\nld.shared::cluster.u32 %r39, [%r38];\n"
        "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r20, %r21, %r22, %r23}, [%r1];\n"
        "ldmatrix.sync.aligned.m8n8.x1.b16 %r24, [%rd1];\nstmatrix.sync.aligned.m8n8.x2.shared.b16 [%r1], {%r20, %r21};\n"
        "movmatrix.sync.aligned.m8n8.trans.b16 %r25, %r20;\nelect.sync %r26|%p1, 0xffffffff;\n"
        "sured.b.max.2d.s32.clamp [%rd1, {%r1, %r2}], %r3;\ntxq.level.width.b32 %r27, [%rd1, %r2];\n"
        "suq.channel_order.b32 %r28, [%rd1];\nret;\n}\n";
    ws_diag d;
    ws_module *m = ws_ptx_parse(src, strlen(src), "t.ptx", &d);
    CHECK_MSG(m != NULL, "%s", d.msg);
    if (!m) return;
    char *t1 = NULL, *t2 = NULL;
    size_t n1 = 0, n2 = 0;
    FILE *o = open_memstream(&t1, &n1);
    fputs(PTX_HEADER, o);
    ws_ptx_dump_func(o, m, &m->funcs[0]);
    fclose(o);
    ws_module *m2 = ws_ptx_parse(t1, n1, "dump.ptx", &d);
    CHECK_MSG(m2 != NULL, "reparse of the dump failed: %s\n%s", d.msg, t1);
    if (m2) {
        o = open_memstream(&t2, &n2);
        fputs(PTX_HEADER, o);
        ws_ptx_dump_func(o, m2, &m2->funcs[0]);
        fclose(o);
        CHECK_MSG(n1 == n2 && !memcmp(t1, t2, n1), "dump differs after the round trip:\n%s\n---\n%s", t1, t2);
        CHECK_EQ_U64(m2->funcs[0].ninsts, m->funcs[0].ninsts);
        ws_module_free(m2);
    }
    CHECK_STR_CONTAINS(t1, "vmad.s32.u32.u32.sat %r35, -%r2, %r3, %r4;");
    CHECK_STR_CONTAINS(t1, "vsub4.u32.u32.u32 %r32.b31, %r2.b7531, %r3.b6420, %r4;");
    CHECK_STR_CONTAINS(t1, "griddepcontrol.wait;");
    free(t1);
    free(t2);
    ws_module_free(m);
}
