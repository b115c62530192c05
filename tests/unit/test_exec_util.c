/* Implementation of test_exec_util.h (not a test file itself). */
#include "test_exec_util.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

ws_status wx_launch(const char *ptx, const wx_cfg *cfg, wx_buf *bufs, int nbufs, ws_fault *fault,
                    ws_exec_counts *counts) {
    ws_diag d;
    ws_fault lf;
    if (!fault) fault = &lf;
    ws_module *m = ws_ptx_parse(ptx, strlen(ptx), "snippet.ptx", &d);
    if (!m) {
        ws_test_fail(__FILE__, __LINE__, "PTX parse failed: %s", d.msg);
        return WS_ERR_INVALID_PTX;
    }
    int k = -1;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && (!cfg->kernel || !strcmp(cfg->kernel, m->funcs[i].name))) { k = (int)i; break; }
    ws_status st = WS_ERR_NOT_FOUND;
    ws_gmem *g = ws_gmem_create(64ull << 20);
    ws_image *img = NULL;
    uint64_t addr[16] = {0};
    uint8_t *params = NULL;
    char err[256];
    if (k < 0 || !g) goto done;
    if ((st = ws_image_create(g, m, &img, err, sizeof err)) != WS_OK) {
        ws_test_fail(__FILE__, __LINE__, "image: %s", err);
        goto done;
    }
    for (int i = 0; i < nbufs && i < 16; i++) {
        if ((st = ws_gmem_alloc(g, bufs[i].size, &addr[i])) != WS_OK) goto done;
        if (bufs[i].init) ws_gmem_write(g, addr[i], bufs[i].init, bufs[i].size);
        else ws_gmem_fill(g, addr[i], 0, bufs[i].size);
    }
    const ws_func *f = &m->funcs[k];
    params = calloc(f->param_size + 8, 1);
    for (uint32_t i = 0; i < f->nparams; i++) {
        const ws_symbol *s = &m->syms[f->params[i]];
        uint64_t v = (int)i < nbufs ? addr[i] : ((int)i - nbufs < cfg->nscalars ? cfg->scalars[i - (uint32_t)nbufs] : 0);
        memcpy(params + s->offset, &v, s->size < 8 ? s->size : 8);
    }
    ws_launch_desc l = {0};
    l.img = img;
    l.func = (uint32_t)k;
    for (int i = 0; i < 3; i++) {
        l.grid[i] = cfg->grid[i] ? cfg->grid[i] : 1;
        l.block[i] = cfg->block[i] ? cfg->block[i] : 1;
        l.cluster[i] = cfg->cluster[0] ? (cfg->cluster[i] ? cfg->cluster[i] : 1) : 0;
    }
    l.dyn_shared = cfg->dyn_shared;
    l.params = params;
    l.gmem = g;
    l.num_sms = 15;
    l.max_warp_insts = cfg->max_warp_insts;
    st = ws_exec_grid(&l, counts, fault);
    for (int i = 0; i < nbufs && i < 16; i++)
        if (bufs[i].out) ws_gmem_read(g, addr[i], bufs[i].out, bufs[i].size);
done:
    free(params);
    ws_image_destroy(img, g);
    ws_gmem_destroy(g);
    ws_module_free(m);
    return st;
}

ws_status wx_eval(const char *body, int n, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                  uint64_t *out, ws_fault *fault) {
    static const char *pre =
        WX_HEAD
        ".visible .entry k(.param .u64 po, .param .u64 pa, .param .u64 pb, .param .u64 pc)\n{\n"
        ".reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .pred %p<8>;\n.reg .f32 %f<16>;\n"
        ".reg .f64 %fd<16>;\n.reg .b16 %h<16>;\n"
        "ld.param.u64 %rd1, [po];\nld.param.u64 %rd2, [pa];\nld.param.u64 %rd3, [pb];\n"
        "ld.param.u64 %rd8, [pc];\nmov.u32 %r0, %tid.x;\nmul.wide.u32 %rd9, %r0, 8;\n"
        "add.s64 %rd1, %rd1, %rd9;\nadd.s64 %rd2, %rd2, %rd9;\nadd.s64 %rd3, %rd3, %rd9;\n"
        "add.s64 %rd8, %rd8, %rd9;\nld.global.u64 %rd4, [%rd2];\nld.global.u64 %rd5, [%rd3];\n"
        "ld.global.u64 %rd6, [%rd8];\ncvt.u32.u64 %r1, %rd4;\ncvt.u32.u64 %r2, %rd5;\n"
        "cvt.u32.u64 %r3, %rd6;\nmov.b32 %f1, %r1;\nmov.b32 %f2, %r2;\nmov.b32 %f3, %r3;\n"
        "mov.b64 %fd1, %rd4;\nmov.b64 %fd2, %rd5;\nmov.b64 %fd3, %rd6;\ncvt.u16.u32 %h1, %r1;\n"
        "cvt.u16.u32 %h2, %r2;\ncvt.u16.u32 %h3, %r3;\nmov.u64 %rd7, 0;\n";
    size_t len = strlen(pre) + strlen(body) + 64;
    char *src = malloc(len);
    snprintf(src, len, "%s%s\nst.global.u64 [%%rd1], %%rd7;\nret;\n}\n", pre, body);
    size_t sz = (size_t)n * 8;
    wx_buf bufs[4] = {{NULL, out, sz}, {a, NULL, sz}, {b, NULL, sz}, {c, NULL, sz}};
    uint64_t *zero = calloc((size_t)n, 8);
    for (int i = 1; i < 4; i++) if (!bufs[i].init) bufs[i].init = zero;
    wx_cfg cfg = {0};
    cfg.block[0] = (uint32_t)n;
    ws_status st = wx_launch(src, &cfg, bufs, 4, fault, NULL);
    free(zero);
    free(src);
    return st;
}

uint64_t wx_eval1(const char *body, uint64_t a, uint64_t b, uint64_t c) {
    uint64_t out = 0;
    ws_fault f;
    ws_status st = wx_eval(body, 1, &a, &b, &c, &out, &f);
    if (st != WS_OK) ws_test_fail(__FILE__, __LINE__, "eval of '%s' failed: %s %s", body, ws_status_name(st), f.msg);
    return out;
}

uint32_t wx_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
float wx_tof32(uint64_t u) { uint32_t v = (uint32_t)u; float f; memcpy(&f, &v, 4); return f; }
uint64_t wx_f64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
double wx_tof64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
