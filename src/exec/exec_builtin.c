/* .extern functions the engine implements: vprintf (device-side printf) and
 * __assertfail (assert). The parser marks them (ws_func.builtin), so a call
 * reaches here without a name lookup.
 *
 * vprintf(fmt, args): nvcc packs printf's arguments into a buffer, each at
 * its own size's alignment (C promotions: char/short/int as 4 bytes, float
 * as a double; %ld, %lld, %s, %p as 8 bytes). We walk the format the same
 * way CUDA's host-side formatter does and hand each conversion to the host
 * printf, so flags, width and precision behave like the host's. As in CUDA,
 * the call returns the number of arguments it consumed (-1 for a NULL
 * format), at most 32 arguments are read (later conversions print as
 * written), and each lane formats its own line, lanes in lane order.
 *
 * __assertfail prints CUDA's message for each lane that calls it (kept for
 * stderr) and fails the launch with WS_ERR_TRAP (cudaErrorAssert). */
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"

#define MAX_PRINTF_ARGS 32
#define MAX_DEVICE_STRING (64u * 1024u) /* a %s longer than this is cut: a missing NUL */

/* ---- the output buffer ----------------------------------------------------- */
static bool text_append(ws_text *t, const char *s, size_t n) {
    if (!n) return true; /* an empty buffer has no data pointer to offset */
    if (t->len + n > t->cap) {
        size_t nc = t->cap ? t->cap : 4096;
        while (nc < t->len + n) nc *= 2;
        char *d = realloc(t->data, nc);
        if (!d) return false;
        t->data = d;
        t->cap = nc;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    return true;
}

static void text_flush(ws_text *t, FILE *f) {
    if (!t->len) return;
    fwrite(t->data, 1, t->len, f);
    fflush(f);
    t->len = 0;
}

/* One call's text. As CUDA's FIFO is circular, a call that does not fit
 * overwrites the oldest calls' output, whole calls at a time (their records
 * cannot be read back in part); a call longer than the whole buffer is
 * dropped itself. Either way the call is counted for the flush's note. */
static void printf_append(ws_printf_buf *b, const char *s, size_t n) {
    if (n > b->limit) {
        b->dropped++;
        return;
    }
    while (b->nrecs && b->out.len - b->start + n > b->limit) { /* overwrite the oldest */
        b->start += b->recs[b->rec_head];
        b->rec_head = (b->rec_head + 1) % b->rec_cap;
        b->nrecs--;
        b->dropped++;
    }
    if (b->start > 4096 && b->start > b->out.len / 2) { /* reclaim the overwritten front */
        memmove(b->out.data, b->out.data + b->start, b->out.len - b->start);
        b->out.len -= b->start;
        b->start = 0;
    }
    if (b->nrecs == b->rec_cap) { /* grow the ring, oldest first again */
        size_t nc = b->rec_cap ? 2 * b->rec_cap : 64, *r = malloc(nc * sizeof *r);
        if (!r) {
            b->dropped++;
            return;
        }
        for (size_t i = 0; i < b->nrecs; i++) r[i] = b->recs[(b->rec_head + i) % b->rec_cap];
        free(b->recs);
        b->recs = r, b->rec_cap = nc, b->rec_head = 0;
    }
    if (!text_append(&b->out, s, n)) {
        b->dropped++;
        return;
    }
    b->recs[(b->rec_head + b->nrecs++) % b->rec_cap] = n;
}

void ws_printf_buf_flush(ws_printf_buf *b, FILE *out) {
    if (!b) return;
    if (b->out.len > b->start) {
        fwrite(b->out.data + b->start, 1, b->out.len - b->start, out);
        fflush(out);
    }
    b->out.len = b->start = 0;
    b->nrecs = b->rec_head = 0;
    text_flush(&b->asserts, stderr);
    if (b->dropped) {
        fprintf(stderr, "warpsim: device printf buffer full (%zu bytes, cudaLimitPrintfFifoSize): "
                "the output of %llu earlier printf call%s was overwritten, as in CUDA's circular buffer\n",
                b->limit, (unsigned long long)b->dropped, b->dropped == 1 ? "" : "s");
    }
    b->dropped = 0;
}

void ws_printf_buf_free(ws_printf_buf *b) {
    if (!b) return;
    free(b->out.data);
    free(b->asserts.data);
    free(b->recs);
    b->out = b->asserts = (ws_text){NULL, 0, 0};
    b->recs = NULL;
    b->start = b->rec_head = b->nrecs = b->rec_cap = 0;
}

/* ---- reading the caller's arguments ---------------------------------------- */
/* Value of the call's i-th argument (a call-site .param in the lane's frame). */
static uint64_t call_arg(ws_xctx *x, uint32_t lane, unsigned i) {
    const ws_inst *in = x->in;
    if (i >= in->ncall_args) return 0;
    uint32_t sym = in->call_args[i];
    uint64_t size = x->c->mod->syms[sym].size, v = 0;
    const uint8_t *p = x->w->local + (size_t)lane * x->w->local_stride + x->w->local_base +
                       x->c->l.img->sym_addr[sym];
    memcpy(&v, p, size < 8 ? size : 8);
    return v;
}

static void call_ret64(ws_xctx *x, uint32_t lane, uint64_t v) {
    const ws_inst *in = x->in;
    if (!in->ncall_rets) return;
    uint32_t sym = in->call_rets[0];
    uint8_t *p = x->w->local + (size_t)lane * x->w->local_stride + x->w->local_base +
                 x->c->l.img->sym_addr[sym];
    memcpy(p, &v, x->c->mod->syms[sym].size < 8 ? x->c->mod->syms[sym].size : 8);
}

/* malloc / free: the device heap (heap.c), lanes in lane order. free of
   something malloc did not return is undefined in CUDA: it faults here. */
static ws_status exec_malloc(ws_xctx *x, bool is_free) {
    WS_FOR_LANES(l, x->mask) {
        uint64_t a = call_arg(x, l, 0);
        if (!is_free) {
            call_ret64(x, l, ws_dev_heap_malloc(x->c->l.heap, x->c->l.gmem, a));
        } else if (!ws_dev_heap_free(x->c->l.heap, a)) {
            return ws_fail(x, WS_ERR_ILLEGAL_ADDRESS, l, "free(0x%llx): not a block that device-side malloc "
                           "returned, or already freed", (unsigned long long)a);
        }
    }
    x->c->counts.mem_writes++; /* the heap changed: progress for the hang detector */
    return WS_OK;
}

static void call_ret32(ws_xctx *x, uint32_t lane, int32_t v) {
    const ws_inst *in = x->in;
    if (!in->ncall_rets) return;
    uint32_t sym = in->call_rets[0];
    uint8_t *p = x->w->local + (size_t)lane * x->w->local_stride + x->w->local_base +
                 x->c->l.img->sym_addr[sym];
    memcpy(p, &v, x->c->mod->syms[sym].size < 4 ? x->c->mod->syms[sym].size : 4);
}

/* A NUL-terminated device string at a generic address (NULL: "(null)"). The
   result is malloc'd; NULL with the fault filled when the memory is bad. */
static char *read_string(ws_xctx *x, uint32_t lane, uint64_t addr) {
    if (!addr) return strdup("(null)");
    size_t n = 0, cap = 64;
    char *s = malloc(cap);
    while (s) {
        const uint8_t *p = ws_generic_read_ptr(x, addr + n, 1, lane);
        if (!p) { free(s); return NULL; }
        if (n + 1 >= cap) {
            char *ns = realloc(s, cap *= 2);
            if (!ns) { free(s); return NULL; }
            s = ns;
        }
        s[n] = (char)*p;
        if (!*p || n + 1 == MAX_DEVICE_STRING) { s[n] = 0; break; }
        n++;
    }
    return s;
}

/* The next argument of `size` bytes in the vprintf argument buffer. */
typedef struct {
    ws_xctx *x;
    uint32_t lane;
    uint64_t base, off;
    int used;
} arg_reader;

static bool next_arg(arg_reader *r, unsigned size, uint64_t *v) {
    r->off = (r->off + size - 1) / size * size;
    const uint8_t *p = ws_generic_read_ptr(r->x, r->base + r->off, size, r->lane);
    if (!p) return false;
    *v = 0;
    memcpy(v, p, size);
    r->off += size;
    r->used++;
    return true;
}

/* ---- vprintf ------------------------------------------------------------------ */
/* One conversion: spec is the host format ("%-08.3" + length + conversion). */
static bool convert(arg_reader *r, FILE *o, char *spec, size_t sl, char conv, int lenmod) {
    uint64_t v = 0;
    spec[sl] = 0;
    switch (conv) {
    case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': {
        bool wide = lenmod == 'l' || lenmod == 'L' || lenmod == 'j' || lenmod == 'z' || lenmod == 't' ||
                    lenmod == 'q';
        if (!next_arg(r, wide ? 8 : 4, &v)) return false;
        char f[48];
        bool sgn = conv == 'd' || conv == 'i';
        if (wide) {
            snprintf(f, sizeof f, "%sll%c", spec, conv);
            if (sgn) fprintf(o, f, (long long)v);
            else fprintf(o, f, (unsigned long long)v);
        } else {
            /* h and hh narrow the int on the host as they would in C */
            snprintf(f, sizeof f, "%s%s%c", spec, lenmod == 'h' ? "h" : lenmod == 'H' ? "hh" : "", conv);
            if (sgn) fprintf(o, f, (int)(uint32_t)v);
            else fprintf(o, f, (unsigned)v);
        }
        return true;
    }
    case 'c': {
        if (!next_arg(r, 4, &v)) return false;
        char f[48];
        snprintf(f, sizeof f, "%sc", spec);
        fprintf(o, f, (int)(uint32_t)v);
        return true;
    }
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
        if (!next_arg(r, 8, &v)) return false;
        char f[48];
        snprintf(f, sizeof f, "%s%c", spec, conv);
        fprintf(o, f, ws_f64(v));
        return true;
    }
    case 's': {
        if (!next_arg(r, 8, &v)) return false;
        char *s = read_string(r->x, r->lane, v);
        if (!s) return false;
        char f[48];
        snprintf(f, sizeof f, "%ss", spec);
        fprintf(o, f, s);
        free(s);
        return true;
    }
    case 'p': {
        if (!next_arg(r, 8, &v)) return false;
        char f[48];
        snprintf(f, sizeof f, "%sp", spec);
        fprintf(o, f, (void *)(uintptr_t)v);
        return true;
    }
    default: /* %n: the pointer is consumed, nothing is written back */
        return next_arg(r, 8, &v);
    }
}

/* Format one lane's call into o. Returns the number of arguments consumed,
   -1 for a NULL format, or -2 with the fault filled (bad memory). */
static int format_lane(ws_xctx *x, uint32_t lane, FILE *o) {
    uint64_t fmt_addr = call_arg(x, lane, 0);
    if (!fmt_addr) return -1;
    char *fmt = read_string(x, lane, fmt_addr);
    if (!fmt) return -2;
    arg_reader r = {x, lane, call_arg(x, lane, 1), 0, 0};
    for (const char *p = fmt; *p;) {
        if (*p != '%') { fputc(*p++, o); continue; }
        const char *start = p++;
        if (*p == '%') { fputc('%', o); p++; continue; }
        char spec[48] = "%";
        size_t sl = 1;
        bool ok = true;
        while (*p && strchr("-+ #0", *p)) {
            if (sl < 8) spec[sl++] = *p;
            p++;
        }
        /* width and precision: digits, or '*' taking an int argument */
        for (int part = 0; part < 2 && ok; part++) {
            if (part == 1) {
                if (*p != '.') break;
                spec[sl++] = *p++;
            }
            if (*p == '*') {
                uint64_t v = 0;
                if (r.used >= MAX_PRINTF_ARGS) { ok = false; break; }
                if (!next_arg(&r, 4, &v)) { free(fmt); return -2; }
                int n = (int)(uint32_t)v;
                if (n < -4096 || n > 4096) n = n < 0 ? -4096 : 4096;
                if (part == 1 && n < 0) sl--; /* a negative precision is none, as in C */
                else sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", n);
                p++;
            } else {
                long n = strtol(p, (char **)&p, 10); /* digits only: flags came before */
                if (n > 0 || (part == 1 && n == 0 && p[-1] == '0'))
                    sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%ld", n > 4096 ? 4096 : n);
            }
        }
        int lenmod = 0;
        if (*p == 'h') { lenmod = 'h'; if (*++p == 'h') { lenmod = 'H'; p++; } }
        else if (*p == 'l') { lenmod = 'l'; if (*++p == 'l') p++; }
        else if (*p && strchr("Ljztq", *p)) lenmod = *p++;
        char conv = *p;
        if (!conv || !strchr("diouxXceEfFgGaAspn", conv)) ok = false;
        else p++;
        if (!ok || r.used >= MAX_PRINTF_ARGS) { /* printed as written, like CUDA */
            fwrite(start, 1, (size_t)(p - start), o);
            continue;
        }
        if (!convert(&r, o, spec, sl, conv, lenmod)) { free(fmt); return -2; }
    }
    free(fmt);
    return r.used;
}

static ws_status exec_vprintf(ws_xctx *x) {
    ws_printf_buf *b = x->c->l.printf_out;
    WS_FOR_LANES(l, x->mask) {
        char *text = NULL;
        size_t len = 0;
        FILE *o = open_memstream(&text, &len);
        if (!o) return ws_fail(x, WS_ERR_OUT_OF_MEMORY, l, "printf: out of host memory");
        int n = format_lane(x, l, o);
        fclose(o);
        if (n == -2) {
            free(text);
            return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
        }
        if (b && text && n != -1) printf_append(b, text, len);
        free(text);
        call_ret32(x, l, n);
    }
    return WS_OK;
}

/* ---- __assertfail(message, file, line, function, charSize) -------------------- */
static ws_status exec_assertfail(ws_xctx *x) {
    ws_printf_buf *b = x->c->l.printf_out;
    const ws_cta *c = x->c;
    char first[400] = "";
    uint32_t first_lane = (uint32_t)__builtin_ctz(x->mask);
    WS_FOR_LANES(l, x->mask) {
        char *msg = read_string(x, l, call_arg(x, l, 0));
        char *file = msg ? read_string(x, l, call_arg(x, l, 1)) : NULL;
        char *func = file ? read_string(x, l, call_arg(x, l, 3)) : NULL;
        if (!func) {
            free(msg);
            free(file);
            return x->fault ? x->fault->code : WS_ERR_ILLEGAL_ADDRESS;
        }
        unsigned line = (unsigned)(uint32_t)call_arg(x, l, 2);
        /* CUDA's wording, so scripts that grep for it keep working */
        char text[1200];
        int n = snprintf(text, sizeof text,
                         "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file,
                         line, func, c->ctaid[0], c->ctaid[1], c->ctaid[2], x->w->tid[0][l], x->w->tid[1][l],
                         x->w->tid[2][l], msg);
        if (b && n > 0) text_append(&b->asserts, text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
        if (l == first_lane) snprintf(first, sizeof first, "assertion `%.200s` failed (%.120s:%u)", msg, file, line);
        free(msg);
        free(file);
        free(func);
    }
    return ws_fail(x, WS_ERR_TRAP, first_lane, "%s", first);
}

ws_status ws_exec_builtin(ws_xctx *x, const ws_func *callee) {
    switch (callee->builtin) {
    case WS_BUILTIN_VPRINTF: return exec_vprintf(x);
    case WS_BUILTIN_ASSERTFAIL: return exec_assertfail(x);
    case WS_BUILTIN_MALLOC: return exec_malloc(x, false);
    case WS_BUILTIN_FREE: return exec_malloc(x, true);
    default: return ws_unsupported(x, "unknown builtin");
    }
}
