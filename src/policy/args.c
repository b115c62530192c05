/* Policy arguments (see args.h). */
#include "policy/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ws_policy_args(const char *args, const char *const *keys, double *val, unsigned nkeys,
                   const char *what, char *err, size_t errlen) {
    for (const char *p = args; p && *p;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        char item[64];
        if (len >= sizeof item) len = sizeof item - 1;
        memcpy(item, p, len);
        item[len] = 0;
        p = colon ? colon + 1 : NULL;
        char *eq = strchr(item, '='), *end = NULL;
        unsigned k = nkeys;
        if (eq) {
            *eq = 0;
            for (k = 0; k < nkeys && strcmp(keys[k], item); k++) {}
            *eq = '=';
        }
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (k == nkeys || end == eq + 1 || *end) {
            if (eq) *eq = 0; /* name the key alone */
            size_t o = (size_t)snprintf(err, errlen, "%s: bad argument '%s' (keys:", what, item);
            for (unsigned j = 0; j < nkeys && o < errlen; j++)
                o += (size_t)snprintf(err + o, errlen - o, " %s", keys[j]);
            if (o < errlen) snprintf(err + o, errlen - o, ")");
            return -1;
        }
        val[k] = v;
    }
    return 0;
}
