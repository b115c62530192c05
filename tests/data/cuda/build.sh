#!/bin/sh
# Rebuilds the committed binaries (nvcc 13 needed; `make test` does not run this).
set -e
cd "$(dirname "$0")"
for p in thrust_basic cub_basic cg_basic streams_basic tensor_basic; do
    nvcc -O2 -cudart shared -gencode arch=compute_75,code=compute_75 $p.cu -o ${p}_75
    nvcc -O2 -cudart shared -gencode arch=compute_80,code=compute_80 --no-compress $p.cu -o ${p}_80
done
strip thrust_basic_?? cub_basic_?? cg_basic_?? streams_basic_?? tensor_basic_??
