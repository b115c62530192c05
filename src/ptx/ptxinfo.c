/* Reader for `ptxas -v` output (the .ptxinfo sidecar of bundled PTX).
 *
 * ptxas prints, per function:
 *   ptxas info    : Compiling entry function 'NAME' for 'sm_75'
 *   ptxas info    : Function properties for NAME
 *       16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 24 registers, used 1 barriers, 16 bytes smem, 356 bytes cmem[0]
 * Older versions print "Used N registers, N bytes smem, N bytes cmem[0],
 * N bytes lmem" and no barrier count. A "Used" line belongs to the last
 * "Compiling entry function" (or "Function properties") name seen; a
 * "stack frame" line to the last "Function properties" name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

/* Find "<number> <unit>" inside [s, e) and return the number or -1. */
static long find_amount(const char *s, const char *e, const char *unit)
{
    size_t ul = strlen(unit);
    for (const char *p = s; p + ul <= e; p++) {
        if (memcmp(p, unit, ul) != 0) continue;
        /* walk back over spaces to the number */
        const char *q = p;
        while (q > s && q[-1] == ' ') q--;
        const char *d = q;
        while (d > s && d[-1] >= '0' && d[-1] <= '9') d--;
        if (d == q) continue;
        return strtol(d, NULL, 10);
    }
    return -1;
}

/* Copy the text between the first pair of quotes, or the rest of the line
 * after `after`, into name. */
static void take_name(const char *p, const char *e, char *name, size_t n)
{
    const char *q = memchr(p, '\'', (size_t)(e - p));
    const char *s, *t;
    if (q) {
        s = q + 1;
        t = memchr(s, '\'', (size_t)(e - s));
        if (!t) t = e;
    } else {
        s = p;
        while (s < e && *s == ' ') s++;
        t = s;
        while (t < e && *t != ' ' && *t != '\r') t++;
    }
    size_t l = (size_t)(t - s);
    if (l >= n) l = n - 1;
    memcpy(name, s, l);
    name[l] = 0;
}

int ws_ptx_apply_ptxas_info(ws_module *m, const char *text, ws_diag *diag)
{
    if (diag) memset(diag, 0, sizeof *diag);
    if (!text) return 0;
    char cur[512] = "", props[512] = "";
    uint32_t line = 0;
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        if (!e) e = p + strlen(p);
        line++;
        const char *k;
        char *hit;
        if ((hit = memmem(p, (size_t)(e - p), "Compiling entry function", 24)) != NULL) {
            take_name(hit + 24, e, cur, sizeof cur);
        } else if ((hit = memmem(p, (size_t)(e - p), "Function properties for", 23)) != NULL) {
            take_name(hit + 23, e, props, sizeof props);
        } else if ((k = memmem(p, (size_t)(e - p), "Used ", 5)) != NULL &&
                   memmem(p, (size_t)(e - p), "registers", 9)) {
            const char *who = cur[0] ? cur : props;
            int fi = ws_module_find_func(m, who);
            if (fi >= 0) {
                ws_func *f = &m->funcs[fi];
                long v = find_amount(k, e, "registers");
                if (v < 0) {
                    if (diag)
                        snprintf(diag->msg, sizeof diag->msg,
                                 "ptxas info:%u: error: expected 'Used N registers'", line);
                    return -1;
                }
                f->ptxas_regs = (int)v;
                long smem = find_amount(k, e, "bytes smem");
                f->ptxas_smem = smem < 0 ? 0 : (int)smem;
                long cmem = find_amount(k, e, "bytes cmem[0]");
                if (cmem >= 0) f->ptxas_cmem = (int)cmem;
                long lmem = find_amount(k, e, "bytes lmem");
                if (lmem >= 0) f->ptxas_lmem = (int)lmem;
                else if (f->ptxas_lmem < 0) f->ptxas_lmem = 0;
            }
        } else if (memmem(p, (size_t)(e - p), "bytes stack frame", 17)) {
            int fi = props[0] ? ws_module_find_func(m, props) : -1;
            long v = find_amount(p, e, "bytes stack frame");
            if (fi >= 0 && v >= 0) m->funcs[fi].ptxas_lmem = (int)v;
        }
        p = *e ? e + 1 : e;
    }
    return 0;
}
