/* Arguments of a policy spec "name:k=v:k=v", shared by every family. */
#ifndef WARPSIM_POLICY_ARGS_H
#define WARPSIM_POLICY_ARGS_H

#include <stddef.h>

/* Parse "k=v:k=v" (NULL: nothing) into val[] (keys[i] -> val[i]; absent
 * keys keep their value). 0, or -1 with err "WHAT: bad argument 'ITEM'
 * (keys: ...)". */
int ws_policy_args(const char *args, const char *const *keys, double *val, unsigned nkeys,
                   const char *what, char *err, size_t errlen);

#endif
