/* The deferred-write log (exec.h): one SM's global stores and atomics of a
 * core cycle, applied in the order they were made when the GPU commits the
 * cycle. The log grows to the most one SM writes in a cycle and stays. */
#include <stdlib.h>
#include <string.h>

#include "exec/exec_internal.h"

ws_wlog *ws_wlog_create(uint64_t *writes) {
    ws_wlog *l = calloc(1, sizeof *l);
    if (l) l->writes = writes;
    return l;
}

void ws_wlog_destroy(ws_wlog *l) {
    if (!l) return;
    free(l->w);
    free(l->e);
    free(l);
}

ws_wlog_ent *ws_wlog_grow(ws_wlog *l) {
    size_t nc = l->cap ? 2 * l->cap : 256;
    ws_wlog_ent *e = realloc(l->e, nc * sizeof *e);
    if (!e) abort();
    l->e = e;
    l->cap = nc;
    return &l->e[l->n++];
}

ws_wlog_ent *ws_wlog_reserve(ws_wlog *l, size_t k) {
    size_t nc = l->cap ? l->cap : 256;
    while (nc < l->n + k) nc *= 2;
    if (nc != l->cap) {
        ws_wlog_ent *e = realloc(l->e, nc * sizeof *e);
        if (!e) abort();
        l->e = e;
        l->cap = nc;
    }
    ws_wlog_ent *e = &l->e[l->n];
    l->n += k;
    return e;
}

uint64_t *ws_wlog_words_grow(ws_wlog *l, size_t k, size_t *at) {
    size_t nc = l->wcap ? l->wcap : 1024;
    while (nc < l->nw + k) nc *= 2;
    uint64_t *w = realloc(l->w, nc * sizeof *w);
    if (!w) abort();
    l->w = w;
    l->wcap = nc;
    *at = l->nw;
    l->nw += k;
    return w + *at;
}

/* A full warp's store (WL_STORE_WARP), lanes in order. */
static void commit_warp(const ws_wlog *l, const ws_wlog_ent *e) {
    const uint64_t *a = l->w + e->b, *v = a + WS_WARP_SIZE;
    uint8_t *heap = e->hp;
    if (e->size == 4) {
        /* (consecutive words, the coalesced store: one packed store) */
        if (ws_simd_store32_seq(heap + (a[0] - WS_GLOBAL_HEAP_BASE), a, v)) return;
#pragma GCC unroll 4
        for (unsigned k = 0; k < WS_WARP_SIZE; k++) {
            uint32_t x = (uint32_t)v[k];
            memcpy(heap + (a[k] - WS_GLOBAL_HEAP_BASE), &x, 4);
        }
    } else {
        for (unsigned k = 0; k < WS_WARP_SIZE; k++) ws_store_n(heap + (a[k] - WS_GLOBAL_HEAP_BASE), v[k], e->size);
    }
}

bool ws_wlog_empty(const ws_wlog *l) { return l->n == 0; }

void ws_wlog_commit(ws_wlog *l) {
    bool changed = false; /* the current atomic instruction changed a value */
    for (size_t i = 0; i < l->n; i++) {
        const ws_wlog_ent *e = &l->e[i];
        if (e->kind == WL_STORE && e->size == 4) { /* (most of them: a run of 32-bit stores) */
            for (; i < l->n && l->e[i].kind == WL_STORE && l->e[i].size == 4; i++) {
                uint32_t v = (uint32_t)l->e[i].b;
                memcpy(l->e[i].hp, &v, 4);
            }
            i--;
            continue;
        }
        switch (e->kind) {
        case WL_STORE: ws_store_n(e->hp, e->b, e->size); break;
        case WL_STORE_WARP: commit_warp(l, e); break;
        case WL_ATOM: {
            uint64_t old = ws_load_n(e->hp, e->size);
            bool ok; /* checked when the instruction was logged */
            uint64_t nv = ws_atom_apply(e->op, (ws_type)e->type, old, e->b, e->c, &ok);
            ws_store_n(e->hp, nv, e->size);
            changed |= nv != old;
            if (e->dst) *e->dst = ws_type_is_signed((ws_type)e->type) ? ws_ext(old, e->size * 8u, true) : old;
            break;
        }
        default: /* WL_ATOM_END: the hang detector's progress, as at issue */
            if (changed) {
                (*e->dst)++;
                if (l->writes) (*l->writes)++;
            }
            changed = false;
            break;
        }
    }
    l->n = 0;
    l->nw = 0;
}
