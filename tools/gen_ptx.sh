#!/bin/sh
# Regenerate the committed PTX and ptxas info of every bundled workload
# (bench/*/*/kernel.cu -> kernel.ptx, kernel.ptxinfo).
#   tools/gen_ptx.sh           regenerate in place
#   tools/gen_ptx.sh --check   regenerate into a temp dir and fail, listing
#                              them, if any committed file differs (stale)
# Without nvcc it says so and succeeds: machines without CUDA still build
# warpsim from the committed PTX.
set -eu

ARCH=sm_75
cd "$(dirname "$0")/.."

check=0
case "${1:-}" in
    --check) check=1 ;;
    "") ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

# NVCC may name the compiler; otherwise PATH, then the usual install place.
if [ -n "${NVCC:-}" ]; then
    command -v "$NVCC" >/dev/null 2>&1 || NVCC=""
elif command -v nvcc >/dev/null 2>&1; then
    NVCC=nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then
    NVCC=/usr/local/cuda/bin/nvcc
fi
if [ -z "${NVCC:-}" ]; then
    echo "nvcc not found; PTX not regenerated/checked"
    exit 0
fi
PTXAS=${PTXAS:-$(dirname "$(command -v "$NVCC")")/ptxas}
[ -x "$PTXAS" ] || PTXAS=ptxas

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# ptxas prints its own compile time, which changes on every run; drop it so
# the committed file is reproducible.
gen() { # gen SRC.cu OUTDIR
    "$NVCC" -O2 -arch=$ARCH -ptx "$1" -o "$2/kernel.ptx"
    "$PTXAS" -v -arch=$ARCH "$2/kernel.ptx" -o /dev/null 2> "$2/kernel.ptxinfo.raw"
    grep -v 'Compile time' "$2/kernel.ptxinfo.raw" > "$2/kernel.ptxinfo" || true
    rm -f "$2/kernel.ptxinfo.raw"
}

stale=""
n=0
for cu in bench/*/*/kernel.cu; do
    [ -f "$cu" ] || continue
    dir=$(dirname "$cu")
    out="$tmp/$dir"
    mkdir -p "$out"
    if ! gen "$cu" "$out"; then
        echo "gen_ptx: $cu failed to compile" >&2
        exit 1
    fi
    n=$((n + 1))
    for f in kernel.ptx kernel.ptxinfo; do
        if [ $check -eq 1 ]; then
            if ! cmp -s "$out/$f" "$dir/$f"; then stale="$stale $dir/$f"; fi
        else
            cp "$out/$f" "$dir/$f"
        fi
    done
done

if [ $check -eq 1 ]; then
    if [ -n "$stale" ]; then
        echo "gen_ptx: stale (regenerate with tools/gen_ptx.sh):" >&2
        for f in $stale; do echo "  $f" >&2; done
        exit 1
    fi
    echo "gen_ptx: $n workload(s) up to date"
else
    echo "gen_ptx: regenerated $n workload(s)"
fi
