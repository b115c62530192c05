#!/bin/sh
# Rebuilds the committed binaries (nvcc 13 needed; `make test` does not run this).
set -e
cd "$(dirname "$0")"
for p in thrust_basic cub_basic cg_basic streams_basic tensor_basic surf_basic surf2_basic texarr_basic mip_basic coop_basic; do
    nvcc -O2 -cudart shared -gencode arch=compute_75,code=compute_75 $p.cu -o ${p}_75
    nvcc -O2 -cudart shared -gencode arch=compute_80,code=compute_80 --no-compress $p.cu -o ${p}_80
done
# cp.async / mbarrier: the default target (no cp.async: libcu++'s fallbacks), sm_80, sm_90 (bulk copies)
for a in 75 80 90; do
    nvcc -O2 -cudart shared -gencode arch=compute_$a,code=compute_$a --no-compress async_basic.cu -o async_basic_$a
done
# sub-byte WMMA and mma.sync: sm_80
nvcc -O2 -cudart shared -gencode arch=compute_80,code=compute_80 --no-compress subbyte_basic.cu -o subbyte_basic_80
strip subbyte_basic_80
# thread-block clusters, ldmatrix/stmatrix and fp8 mma.sync: sm_90 only
nvcc -O2 -cudart shared -gencode arch=compute_90,code=compute_90 --no-compress cluster_basic.cu -o cluster_basic_90
nvcc -O2 -cudart shared -gencode arch=compute_90,code=compute_90 --no-compress matrix_basic.cu -o matrix_basic_90
strip cluster_basic_90 matrix_basic_90 surf2_basic_?? mip_basic_?? coop_basic_?? thrust_basic_?? cub_basic_?? cg_basic_?? streams_basic_?? tensor_basic_?? async_basic_?? surf_basic_?? texarr_basic_??
