/* Policy parameters, declared once per policy and parsed by one parser.
 *
 * A policy declares its parameters in one const table next to its code:
 *
 *   static const ws_param_def dbsa_params[] = {
 *       WS_INT("period", "10000", 1, 1e12, "core cycles per period"),
 *       WS_ENUM("scope", "gpu", "gpu|cache", "one decision for all caches, or each its own"),
 *   };
 *
 * and points its family struct at it (WS_PARAMS(dbsa_params)). The family's
 * registry parses a spec "name[:args]" against the table (ws_params_parse)
 * and hands the result to the policy, which reads typed values by key
 * (ws_param_int(p, "period")). `warpsim options` and docs/policies.md list
 * the tables (catalog.h).
 *
 * Spec syntax: ':'-separated items. "key=value" sets a key; a value without
 * a key is positional and sets the next declared key in declaration order
 * (swl:4, two_level_active:6:0:1); an empty positional item keeps its
 * default (pric::27). Positional values come before keyed ones. A key given
 * twice is an error (a sweep that composes specs should not silently lose a
 * value). */
#ifndef WARPSIM_POLICY_PARAMS_H
#define WARPSIM_POLICY_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    WS_PARAM_INT,    /* integral, in [min, max]; written as a number ("1e4", "0x43" too) */
    WS_PARAM_DOUBLE, /* in [min, max] */
    WS_PARAM_BOOL,   /* 0/1 or false/true */
    WS_PARAM_ENUM,   /* one of `choices` ("a|b|c"), or its index (GPGPU-Sim's numeric forms) */
} ws_param_type;

typedef struct ws_param_def {
    const char *key;
    ws_param_type type;
    const char *def;     /* default, as written in a spec; NULL: required */
    double min, max;     /* inclusive (INT, DOUBLE) */
    const char *doc;     /* one line */
    const char *choices; /* ENUM only */
} ws_param_def;

/* Table entries by type (DEF is the default as a spec writes it; NULL:
   required). */
#define WS_INT(KEY, DEF, MIN, MAX, DOC) \
    {.key = KEY, .type = WS_PARAM_INT, .def = DEF, .min = MIN, .max = MAX, .doc = DOC}
#define WS_DOUBLE(KEY, DEF, MIN, MAX, DOC) \
    {.key = KEY, .type = WS_PARAM_DOUBLE, .def = DEF, .min = MIN, .max = MAX, .doc = DOC}
#define WS_BOOL(KEY, DEF, DOC) \
    {.key = KEY, .type = WS_PARAM_BOOL, .def = DEF, .min = 0, .max = 1, .doc = DOC}
#define WS_ENUM(KEY, DEF, CHOICES, DOC) \
    {.key = KEY, .type = WS_PARAM_ENUM, .def = DEF, .doc = DOC, .choices = CHOICES}

/* Most parameters of one policy. */
#define WS_PARAMS_MAX 16
/* For a family struct: .params = WS_PARAMS(table) fills params and nparams. */
#define WS_PARAMS(table) (table), (unsigned)(sizeof(table) / sizeof((table)[0]))

/* A policy's name, doc line and parameter table (what the catalog lists). */
typedef struct ws_policy_info {
    const char *name, *doc;
    const ws_param_def *params;
    unsigned nparams;
} ws_policy_info;

/* The info of any family's policy struct (fields name, doc, params, nparams). */
#define WS_POLICY_INFO(p) ((ws_policy_info){(p)->name, (p)->doc, (p)->params, (p)->nparams})

/* Parsed values of one policy's parameters. */
typedef struct ws_params {
    ws_policy_info policy;
    int64_t i[WS_PARAMS_MAX]; /* INT, BOOL (0/1), ENUM (choice index) */
    double d[WS_PARAMS_MAX];  /* DOUBLE */
    uint32_t given;           /* bit k: params[k] was set by the spec (not the default) */
    uint32_t read;            /* bit k: the policy read params[k] (tests check all are) */
} ws_params;

/* Defaults, then the owner's hints (NULL: none; "k=v:..." whose keys this
   policy does not declare are ignored, so one string serves every policy of
   a family), then args (NULL: none; the text after "name:"). 0, or -1 with
   err "WHAT: bad argument 'ITEM' (why; keys and range)". */
int ws_params_parse(ws_params *p, const ws_policy_info *policy, const char *hints,
                    const char *args, const char *what, char *err, size_t errlen);

/* Typed values by key. The key must be declared with that type (else a
   programming error: the message names it and the program aborts). */
int64_t ws_param_int(ws_params *p, const char *key);
double ws_param_double(ws_params *p, const char *key);
bool ws_param_bool(ws_params *p, const char *key);
unsigned ws_param_enum(ws_params *p, const char *key);

/* "int", "double", "bool", "enum". */
const char *ws_param_type_name(ws_param_type t);
/* What a parameter accepts: "an integer in [1, 1000]", "one of exact|trans", ... */
void ws_param_describe(const ws_param_def *d, char *buf, size_t len);
/* One line per parameter: key, type, default, range, doc (indented by indent). */
void ws_params_print(FILE *out, const ws_policy_info *policy, const char *indent);

#endif
