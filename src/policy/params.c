/* The one parser of policy parameters (see params.h). */
#include "policy/params.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *ws_param_type_name(ws_param_type t) {
    switch (t) {
    case WS_PARAM_INT: return "int";
    case WS_PARAM_DOUBLE: return "double";
    case WS_PARAM_BOOL: return "bool";
    default: return "enum";
    }
}

/* %g when it reads back exactly, else every digit (a bound just below 1 must not print as 1). */
static void fmt_num(char *buf, size_t len, double v) {
    snprintf(buf, len, "%g", v);
    if (strtod(buf, NULL) != v) snprintf(buf, len, "%.17g", v);
}

/* Index of `s` (n bytes) among "a|b|c", or -1. */
static int choice_index(const char *choices, const char *s, size_t n) {
    int k = 0;
    for (const char *c = choices; c; k++) {
        const char *bar = strchr(c, '|');
        size_t cl = bar ? (size_t)(bar - c) : strlen(c);
        if (cl == n && !strncmp(c, s, n)) return k;
        c = bar ? bar + 1 : NULL;
    }
    return -1;
}

static int choice_count(const char *choices) {
    int k = 1;
    for (const char *c = choices; (c = strchr(c, '|')); c++) k++;
    return k;
}

void ws_param_describe(const ws_param_def *d, char *buf, size_t len) {
    char lo[32], hi[32];
    fmt_num(lo, sizeof lo, d->min);
    fmt_num(hi, sizeof hi, d->max);
    /* a bound declared as the double just below an integer is that integer, excluded */
    double up = ceil(d->max);
    bool open = up != d->max && nextafter(up, -INFINITY) == d->max;
    if (open) fmt_num(hi, sizeof hi, up);
    switch (d->type) {
    case WS_PARAM_INT: snprintf(buf, len, "an integer in [%.0f, %.0f]", d->min, d->max); break;
    case WS_PARAM_DOUBLE:
        snprintf(buf, len, "a number in [%s, %s%c", lo, hi, open ? ')' : ']');
        break;
    case WS_PARAM_BOOL: snprintf(buf, len, "0 or 1"); break;
    case WS_PARAM_ENUM: snprintf(buf, len, "one of %s (or its index from 0)", d->choices); break;
    }
}

/* Parse value v of def d into p's slot k. */
static bool parse_value(ws_params *p, unsigned k, const char *v) {
    const ws_param_def *d = &p->policy.params[k];
    char *end;
    switch (d->type) {
    case WS_PARAM_BOOL:
        if (!strcmp(v, "0") || !strcmp(v, "false")) p->i[k] = 0;
        else if (!strcmp(v, "1") || !strcmp(v, "true")) p->i[k] = 1;
        else return false;
        return true;
    case WS_PARAM_ENUM: {
        int c = choice_index(d->choices, v, strlen(v));
        if (c < 0) {
            long n = strtol(v, &end, 10);
            if (end == v || *end || n < 0 || n >= choice_count(d->choices)) return false;
            c = (int)n;
        }
        p->i[k] = c;
        return true;
    }
    default: {
        /* strtod for ints too: specs have always been read so ("period=1e4", "0x43") */
        double x = strtod(v, &end);
        if (end == v || *end || !(x >= d->min && x <= d->max)) return false;
        if (d->type == WS_PARAM_DOUBLE) {
            p->d[k] = x;
            return true;
        }
        if (x != floor(x)) return false;
        p->i[k] = (int64_t)x;
        return true;
    }
    }
}

static void list_keys(const ws_policy_info *pol, char *buf, size_t len) {
    size_t o = 0;
    if (!pol->nparams) snprintf(buf, len, "%s takes no arguments", pol->name);
    else o = (size_t)snprintf(buf, len, "keys:");
    for (unsigned k = 0; k < pol->nparams && o < len; k++)
        o += (size_t)snprintf(buf + o, len - o, " %s", pol->params[k].key);
}

/* One layer of "item:item". lenient: the owner's hints (unknown keys skipped,
   no positional values, and no duplicate check against other layers). */
static int parse_layer(ws_params *p, const char *list, bool lenient, const char *what, char *err,
                       size_t errlen) {
    const ws_policy_info *pol = &p->policy;
    unsigned pos = 0;
    bool keyed = false;
    for (const char *s = list; s && *s;) {
        const char *colon = strchr(s, ':');
        size_t n = colon ? (size_t)(colon - s) : strlen(s);
        char item[128];
        if (n >= sizeof item) {
            snprintf(err, errlen, "%s: bad argument '%.40s...' (too long)", what, s);
            return -1;
        }
        memcpy(item, s, n);
        item[n] = 0;
        s = colon ? colon + 1 : NULL;
        char *eq = strchr(item, '=');
        char why[400];
        int k = -1;
        if (!eq) {
            if (!*item && !keyed && !lenient) { /* an empty positional keeps its default */
                pos++;
                continue;
            }
            if (!*item) continue;
            if (lenient || keyed || pos >= pol->nparams) {
                char keys[300];
                list_keys(pol, keys, sizeof keys);
                snprintf(why, sizeof why, "%s; %s",
                         keyed ? "a value without a key after a key=value"
                               : "more values than keys",
                         keys);
                goto bad;
            }
            k = (int)pos++;
        } else {
            *eq = 0;
            for (unsigned j = 0; j < pol->nparams && k < 0; j++)
                if (!strcmp(pol->params[j].key, item)) k = (int)j;
            if (k < 0) { /* the message names the key alone */
                if (lenient) continue;
                char keys[300];
                list_keys(pol, keys, sizeof keys);
                snprintf(why, sizeof why, "unknown key; %s", keys);
                goto bad;
            }
            *eq = '=';
            keyed = true;
        }
        const ws_param_def *d = &pol->params[k];
        uint32_t bit = 1u << k;
        if (!lenient && (p->given & bit)) {
            snprintf(why, sizeof why, "%s given twice", d->key);
            goto bad;
        }
        if (!parse_value(p, (unsigned)k, eq ? eq + 1 : item)) {
            char range[120];
            ws_param_describe(d, range, sizeof range);
            snprintf(why, sizeof why, "%s: %s; %s", d->key, range, d->doc);
            goto bad;
        }
        if (!lenient) p->given |= bit;
        continue;
    bad:
        snprintf(err, errlen, "%s: bad argument '%s' (%s)", what, item, why);
        return -1;
    }
    return 0;
}

int ws_params_parse(ws_params *p, const ws_policy_info *policy, const char *hints,
                    const char *args, const char *what, char *err, size_t errlen) {
    memset(p, 0, sizeof *p);
    p->policy = *policy;
    if (policy->nparams > WS_PARAMS_MAX) {
        snprintf(err, errlen, "%s: more than %d parameters declared", what, WS_PARAMS_MAX);
        return -1;
    }
    for (unsigned k = 0; k < policy->nparams; k++)
        if (policy->params[k].def && !parse_value(p, k, policy->params[k].def)) {
            snprintf(err, errlen, "%s: the default of %s (%s) is not valid", what,
                     policy->params[k].key, policy->params[k].def);
            return -1;
        }
    if (parse_layer(p, hints, true, what, err, errlen) ||
        parse_layer(p, args, false, what, err, errlen))
        return -1;
    for (unsigned k = 0; k < policy->nparams; k++) {
        const ws_param_def *d = &policy->params[k];
        if (d->def || (p->given & (1u << k))) continue;
        char range[120];
        ws_param_describe(d, range, sizeof range);
        char up[32], pos[80] = "";
        size_t j = 0;
        for (; d->key[j] && j + 1 < sizeof up; j++) up[j] = (char)toupper((unsigned char)d->key[j]);
        up[j] = 0;
        if (k == 0) snprintf(pos, sizeof pos, "%s:%s or ", policy->name, up);
        snprintf(err, errlen, "%s: missing argument '%s' (%s%s:%s=%s; %s: %s, %s)", what, d->key,
                 pos, policy->name, d->key, up, d->key, range, d->doc);
        return -1;
    }
    return 0;
}

/* Slot of key, which must be declared with type t. */
static unsigned slot(ws_params *p, const char *key, ws_param_type t) {
    for (unsigned k = 0; k < p->policy.nparams; k++)
        if (!strcmp(p->policy.params[k].key, key)) {
            if (p->policy.params[k].type != t) break;
            p->read |= 1u << k;
            return k;
        }
    fprintf(stderr, "warpsim: policy %s reads parameter '%s' as %s, which its table does not "
            "declare\n", p->policy.name, key, ws_param_type_name(t));
    abort();
}

int64_t ws_param_int(ws_params *p, const char *key) { return p->i[slot(p, key, WS_PARAM_INT)]; }
double ws_param_double(ws_params *p, const char *key) {
    return p->d[slot(p, key, WS_PARAM_DOUBLE)];
}
bool ws_param_bool(ws_params *p, const char *key) { return p->i[slot(p, key, WS_PARAM_BOOL)]; }
unsigned ws_param_enum(ws_params *p, const char *key) {
    return (unsigned)p->i[slot(p, key, WS_PARAM_ENUM)];
}

void ws_params_print(FILE *out, const ws_policy_info *pol, const char *indent) {
    for (unsigned k = 0; k < pol->nparams; k++) {
        const ws_param_def *d = &pol->params[k];
        char range[120];
        ws_param_describe(d, range, sizeof range);
        fprintf(out, "%s%-9s %-6s default %-10s %s: %s\n", indent, d->key,
                ws_param_type_name(d->type), d->def ? d->def : "(required)", range, d->doc);
    }
}
