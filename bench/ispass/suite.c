/* Suite "ispass": applications of the ISPASS-2009 GPGPU-Sim study (our own implementations). */
#include "workload.h"

extern const ws_workload ws_workload_ispass_aes;
extern const ws_workload ws_workload_ispass_cp;
extern const ws_workload ws_workload_ispass_lib;
extern const ws_workload ws_workload_ispass_lps;
extern const ws_workload ws_workload_ispass_mum;
extern const ws_workload ws_workload_ispass_nn;
extern const ws_workload ws_workload_ispass_nqu;
extern const ws_workload ws_workload_ispass_sto;
extern const ws_workload ws_workload_ispass_ray;
extern const ws_workload ws_workload_ispass_wp;

static const ws_workload *const table[] = {
    &ws_workload_ispass_aes,
    &ws_workload_ispass_cp,
    &ws_workload_ispass_lib,
    &ws_workload_ispass_lps,
    &ws_workload_ispass_mum,
    &ws_workload_ispass_nn,
    &ws_workload_ispass_nqu,
    &ws_workload_ispass_sto,
    &ws_workload_ispass_ray,
    &ws_workload_ispass_wp,
    NULL,
};

const ws_suite ws_suite_ispass = {"ispass", "ISPASS-2009-style applications (our own implementations)", table};
