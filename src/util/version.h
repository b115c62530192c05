/* The warpsim version: printed by `warpsim version` and written into
 * checkpoints, which only the version that wrote them reads. */
#ifndef WARPSIM_UTIL_VERSION_H
#define WARPSIM_UTIL_VERSION_H

#define WARPSIM_VERSION "0.1.0"

#endif
