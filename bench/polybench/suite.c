/* Suite "polybench": PolyBench/GPU-style linear algebra and stencil kernels (our own implementations). */
#include "workload.h"

extern const ws_workload ws_workload_polybench_conv2d, ws_workload_polybench_conv3d,
    ws_workload_polybench_mm2, ws_workload_polybench_mm3, ws_workload_polybench_atax,
    ws_workload_polybench_bicg, ws_workload_polybench_corr, ws_workload_polybench_covar,
    ws_workload_polybench_fdtd2d, ws_workload_polybench_gemm, ws_workload_polybench_gesummv,
    ws_workload_polybench_gramschm, ws_workload_polybench_mvt, ws_workload_polybench_syr2k,
    ws_workload_polybench_syrk;

static const ws_workload *const table[] = {
    &ws_workload_polybench_conv2d,
    &ws_workload_polybench_conv3d,
    &ws_workload_polybench_mm2,
    &ws_workload_polybench_mm3,
    &ws_workload_polybench_atax,
    &ws_workload_polybench_bicg,
    &ws_workload_polybench_corr,
    &ws_workload_polybench_covar,
    &ws_workload_polybench_fdtd2d,
    &ws_workload_polybench_gemm,
    &ws_workload_polybench_gesummv,
    &ws_workload_polybench_gramschm,
    &ws_workload_polybench_mvt,
    &ws_workload_polybench_syr2k,
    &ws_workload_polybench_syrk,
    NULL,
};

const ws_suite ws_suite_polybench = {"polybench", "PolyBench/GPU-style linear algebra and stencil kernels (our own implementations)", table};
