/* CIAO (throttle policies "ciao_p", "ciao_t", "ciao_c", ciao.c): a view of
 * the per-SM state, for tests and debugging. `sm` is the state the
 * policies' sm_create returned. */
#ifndef WARPSIM_POLICY_THROTTLE_CIAO_H
#define WARPSIM_POLICY_THROTTLE_CIAO_H

#include "policy/throttle/ciao_detect.h"
#include "policy/throttle/throttle.h"

/* The SM's interference detector. */
const ws_ciao_det *ws_ciao_detector(const void *sm);

#endif
