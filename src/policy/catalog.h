/* Every policy family, policy and parameter, from the policies' own tables:
 * for `warpsim options`, docs/policies.md and the tests that walk them. */
#ifndef WARPSIM_POLICY_CATALOG_H
#define WARPSIM_POLICY_CATALOG_H

#include <stdio.h>

#include "policy/params.h"

typedef struct ws_policy_family {
    const char *name;    /* "bypass" */
    const char *options; /* the options that select one: "-l1d_bypass, -l2_bypass" */
    ws_policy_info (*info)(unsigned i); /* the i-th policy; name NULL past the end */
} ws_policy_family;

/* NULL-terminated (name NULL). */
extern const ws_policy_family ws_policy_families[];

/* -l1d_reorder's one policy besides none (timing/sm/mrpb.c). */
extern const ws_policy_info sm_mrpb_info;

/* Every family, policy and parameter (key, type, default, range, doc). */
void ws_policy_print_catalog(FILE *out);
/* The same as Markdown tables (docs/policies.md's generated section). */
void ws_policy_print_markdown(FILE *out);

#endif
