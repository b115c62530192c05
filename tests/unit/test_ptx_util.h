/* Shared helpers for the PTX front-end tests. */
#ifndef WARPSIM_TEST_PTX_UTIL_H
#define WARPSIM_TEST_PTX_UTIL_H

#include <stdlib.h>

#include "ptx/ptx.h"
#include "test.h"

static inline char *ptxt_read(const char *rel, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ws_test_root(), rel);
    return ws_test_read_file(path, len);
}

/* Parse a file under tests/data/ptx; reports a failure and returns NULL on error. */
static inline ws_module *ptxt_load(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/data/ptx/%s", name);
    size_t len;
    char *text = ptxt_read(rel, &len);
    if (!text) {
        ws_test_fail(__FILE__, __LINE__, "cannot read %s (WARPSIM_ROOT?)", rel);
        return NULL;
    }
    ws_diag d;
    ws_module *m = ws_ptx_parse(text, len, name, &d);
    free(text);
    if (!m) ws_test_fail(__FILE__, __LINE__, "parse of %s failed: %s", name, d.msg);
    return m;
}

static inline ws_module *ptxt_parse_str(const char *s, ws_diag *d)
{
    return ws_ptx_parse(s, strlen(s), "t.ptx", d);
}

static inline const ws_func *ptxt_func(const ws_module *m, const char *name)
{
    int i = ws_module_find_func(m, name);
    return i < 0 ? NULL : &m->funcs[i];
}

static inline const ws_symbol *ptxt_sym(const ws_module *m, const char *name)
{
    int i = ws_module_find_symbol(m, name);
    return i < 0 ? NULL : &m->syms[i];
}

/* Symbol by name inside function fi (first match). */
static inline const ws_symbol *ptxt_fsym(const ws_module *m, const ws_func *f, const char *name)
{
    for (uint32_t i = 0; i < m->nsyms; i++)
        if (m->syms[i].func == (int32_t)(f - m->funcs) && !strcmp(m->syms[i].name, name))
            return &m->syms[i];
    return NULL;
}

#define PTX_HEADER ".version 8.0\n.target sm_75\n.address_size 64\n"

#endif
