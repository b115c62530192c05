/* Placing a module on a device: its .global image is one allocation in
 * global memory, its .const image another (so cudaMemcpyToSymbol works on
 * constants through the same path), plus a host copy of the const bank that
 * ld.const reads. Initialisers holding addresses are patched here. */
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"

static uint64_t generic_of(const ws_image *img, const ws_symbol *s, uint32_t i) {
    switch (s->space) {
    case WS_SPACE_GLOBAL: return img->sym_addr[i];
    case WS_SPACE_CONST: return WS_GENERIC_CONST_BASE + img->sym_addr[i];
    case WS_SPACE_SHARED: return WS_GENERIC_SHARED_BASE + img->sym_addr[i];
    default: return 0;
    }
}

ws_status ws_image_create(ws_gmem *g, const ws_module *m, ws_image **out, char *err, size_t errlen) {
    if (err && errlen) err[0] = 0;
    if (!g || !m || !out) return WS_ERR_INVALID_VALUE;
    ws_image *img = calloc(1, sizeof *img);
    if (!img) return WS_ERR_OUT_OF_MEMORY;
    img->mod = m;
    img->stamp = ++g->images_made;
    img->sym_addr = calloc(m->nsyms ? m->nsyms : 1, sizeof(uint64_t));
    img->const_mem = calloc(m->const_size ? m->const_size : 1, 1);
    if (!img->sym_addr || !img->const_mem) {
        ws_image_destroy(img, g);
        return WS_ERR_OUT_OF_MEMORY;
    }
    ws_status st;
    if (m->global_size && (st = ws_gmem_alloc(g, m->global_size, &img->global_base)) != WS_OK) {
        if (err) snprintf(err, errlen, "module %s: cannot allocate %llu bytes of .global data",
                          m->filename ? m->filename : "?", (unsigned long long)m->global_size);
        ws_image_destroy(img, g);
        return st;
    }
    if (m->const_size && (st = ws_gmem_alloc(g, m->const_size, &img->const_base)) != WS_OK) {
        if (err) snprintf(err, errlen, "module %s: cannot allocate %llu bytes of .const data",
                          m->filename ? m->filename : "?", (unsigned long long)m->const_size);
        ws_image_destroy(img, g);
        return st;
    }
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ws_symbol *s = &m->syms[i];
        img->sym_addr[i] = s->space == WS_SPACE_GLOBAL ? img->global_base + s->offset : s->offset;
    }
    /* Initial bytes, then relocations (addresses of other variables). */
    uint8_t *gimg = m->global_size ? ws_gmem_ptr(g, img->global_base, m->global_size) : NULL;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const ws_symbol *s = &m->syms[i];
        uint8_t *dst = NULL;
        if (s->space == WS_SPACE_GLOBAL) dst = gimg ? gimg + s->offset : NULL;
        else if (s->space == WS_SPACE_CONST) dst = img->const_mem + s->offset;
        else continue;
        if (!dst || s->offset + s->size > (s->space == WS_SPACE_GLOBAL ? m->global_size : m->const_size)) {
            if (s->size == 0) continue;
            if (err) snprintf(err, errlen, "symbol %s lies outside its module image", s->name);
            ws_image_destroy(img, g);
            return WS_ERR_INVALID_PTX;
        }
        /* Module images start zeroed: only the listed initialisers are copied. */
        if (s->init) memcpy(dst, s->init, s->init_len < s->size ? s->init_len : s->size);
        for (uint32_t r = 0; r < s->nrelocs; r++) {
            const struct ws_reloc *rl = &s->relocs[r];
            unsigned asz = m->address_size == 32 ? 4 : 8;
            if (rl->sym != WS_NOSYM && (rl->sym & WS_RELOC_FUNC)) { /* function pointer */
                uint32_t fi = rl->sym & ~WS_RELOC_FUNC;
                uint64_t a = WS_FUNC_ADDR_BASE + fi + (uint64_t)rl->addend;
                if (fi >= m->nfuncs || rl->at + asz > s->size) {
                    if (err) snprintf(err, errlen, "symbol %s: bad function-pointer relocation", s->name);
                    ws_image_destroy(img, g);
                    return WS_ERR_INVALID_PTX;
                }
                memcpy(dst + rl->at, &a, asz);
                continue;
            }
            if (rl->sym >= m->nsyms || rl->at + asz > s->size) {
                if (err) snprintf(err, errlen, "symbol %s: bad relocation", s->name);
                ws_image_destroy(img, g);
                return WS_ERR_INVALID_PTX;
            }
            const ws_symbol *t = &m->syms[rl->sym];
            uint64_t a = generic_of(img, t, rl->sym);
            if (!a) {
                if (err) snprintf(err, errlen, "symbol %s: initialiser takes the address of %s (%s space), "
                                  "which is not supported", s->name, t->name, ws_space_name(t->space));
                ws_image_destroy(img, g);
                return WS_ERR_UNSUPPORTED;
            }
            a += (uint64_t)rl->addend;
            memcpy(dst + rl->at, &a, asz);
        }
    }
    if (m->const_size) ws_gmem_write(g, img->const_base, img->const_mem, m->const_size);
    /* (a kernel without its runs zeroes all its registers: out of memory is no error) */
    img->zero_runs = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *img->zero_runs);
    img->nzero_runs = img->zero_runs ? m->nfuncs : 0;
    for (uint32_t f = 0; img->zero_runs && f < m->nfuncs; f++)
        if (m->funcs[f].is_entry && m->funcs[f].has_body)
            img->zero_runs[f] = ws_entry_zero_runs(&m->funcs[f]);
    *out = img;
    return WS_OK;
}

void ws_image_destroy(ws_image *img, ws_gmem *g) {
    if (!img) return;
    if (g && img->global_base) ws_gmem_free(g, img->global_base);
    if (g && img->const_base) ws_gmem_free(g, img->const_base);
    free(img->sym_addr);
    free(img->const_mem);
    for (uint32_t f = 0; f < img->nzero_runs; f++) free(img->zero_runs[f]);
    free(img->zero_runs);
    free(img);
}
