#!/bin/sh
# Build the bundled workloads as ordinary CUDA programs (`make cuda-apps`):
# bench/SUITE/NAME/{host.c,kernel.cu} + tools/cuda_apps/cudart_backend.cu ->
# OUT/SUITE_NAME, one program per workload, with uncompressed PTX for
# compute_75 in its fat binary so that simulators reading PTX (warpsim's shim,
# GPGPU-Sim) can run it, and SASS for the GPU it is built on when ARCH is set.
#   tools/cuda_apps/build.sh [OUT [SUITE/NAME...]]   (OUT: build/cuda-apps)
# Without nvcc it says so and succeeds.
set -eu
cd "$(dirname "$0")/../.."
out=${1:-build/cuda-apps}
[ $# -gt 0 ] && shift
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ] && ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "nvcc not found; CUDA programs not built"
    exit 0
fi
gencode="-gencode arch=compute_75,code=compute_75"
[ -n "${ARCH:-}" ] && gencode="$gencode -gencode arch=$ARCH,code=$ARCH"
mkdir -p "$out/obj"
list=${*:-$(ls -d bench/*/*/ | sed 's|bench/||; s|/$||')}
ok=0 bad=0
for w in $list; do
    suite=${w%/*} name=${w#*/}
    dir=bench/$suite/$name
    [ -f "$dir/kernel.cu" ] && [ -f "$dir/host.c" ] || continue
    sym=ws_workload_${suite}_${name}
    o="$out/obj/${suite}_${name}"
    # the embedded PTX the host file declares is not needed: the program carries its own
    printf 'const char ws_bench_%s_%s_ptx[] = "", ws_bench_%s_%s_ptxinfo[] = "";\n' \
        "$suite" "$name" "$suite" "$name" > "$o.stub.c"
    if python3 tools/cuda_apps/gen_table.py "$dir" "$o.table.cu" tools/cuda_apps/cudart_backend.cu > "$o.log" 2>&1 &&
       "$NVCC" -O2 -cudart shared --no-compress $gencode -Iinclude -Ibench -Isrc \
           -DWL_SYM="$sym" -o "$out/${suite}_${name}" "$o.table.cu" "$dir/host.c" \
           "$o.stub.c" >> "$o.log" 2>&1; then
        ok=$((ok + 1))
    else
        bad=$((bad + 1))
        echo "cuda-apps: $w failed (log: $o.log)" >&2
    fi
done
echo "cuda-apps: $ok built, $bad failed, in $out"
