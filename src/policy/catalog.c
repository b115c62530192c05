/* The policy catalog (see catalog.h). */
#include "policy/catalog.h"

#include "policy/bypass/bypass.h"
#include "policy/index/index.h"
#include "policy/page/page.h"
#include "policy/sched/sched.h"
#include "policy/throttle/throttle.h"

static ws_policy_info reorder_info(unsigned i) {
    static const ws_policy_info none = {"none", "no reordering", NULL, 0};
    return i == 0 ? none : i == 1 ? sm_mrpb_info : (ws_policy_info){0};
}

const ws_policy_family ws_policy_families[] = {
    {"index", "-l1d_index, -l2_index", ws_index_info},
    {"sched", "-gpgpu_scheduler", ws_sched_info},
    {"throttle", "-warpsim_throttle", ws_throttle_info},
    {"bypass", "-l1d_bypass, -l2_bypass", ws_bypass_info},
    {"reorder", "-l1d_reorder", reorder_info},
    {"page", "-hm_page_policy", ws_page_info},
    {0},
};

void ws_policy_print_catalog(FILE *out) {
    fprintf(out, "Policies: OPTION NAME[:k=v:...]; values without a key fill the keys in this "
                 "order (swl:4).\n");
    for (const ws_policy_family *f = ws_policy_families; f->name; f++) {
        fprintf(out, "\n  %s (%s)\n", f->name, f->options);
        ws_policy_info p;
        for (unsigned i = 0; (p = f->info(i)).name; i++) {
            fprintf(out, "    %-17s %s\n", p.name, p.doc);
            ws_params_print(out, &p, "        ");
        }
    }
}

/* s in a Markdown table cell ('|' would end the cell). */
static void cell(FILE *out, const char *s) {
    fputs(" ", out);
    for (; *s; s++) {
        if (*s == '|') fputc('\\', out);
        fputc(*s, out);
    }
    fputs(" |", out);
}

void ws_policy_print_markdown(FILE *out) {
    for (const ws_policy_family *f = ws_policy_families; f->name; f++) {
        fprintf(out, "\n### %s (`%s`)\n\n| policy | key | type | default | accepts | what |\n"
                     "|---|---|---|---|---|---|\n", f->name, f->options);
        ws_policy_info p;
        for (unsigned i = 0; (p = f->info(i)).name; i++) {
            if (!p.nparams) {
                fprintf(out, "| `%s` | | | | |", p.name);
                cell(out, p.doc);
                fputc('\n', out);
            }
            for (unsigned k = 0; k < p.nparams; k++) {
                const ws_param_def *d = &p.params[k];
                char range[120];
                ws_param_describe(d, range, sizeof range);
                fprintf(out, "| %s%s%s | `%s` | %s | %s |", k ? "" : "`", k ? "" : p.name,
                        k ? "" : "`", d->key, ws_param_type_name(d->type),
                        d->def ? d->def : "(required)");
                cell(out, range);
                cell(out, d->doc);
                fputc('\n', out);
            }
        }
    }
}
