#!/bin/sh
# Functional-only simulation speed on matmul 256 (the `paper` input), in
# thread-instructions per second. Not a test: run `make bench-speed`.
# Best of three runs, to keep noise from other processes out.
set -eu
cd "$(dirname "$0")/.."
bin=${WARPSIM:-build/warpsim}
best=0
for i in 1 2 3; do
    line=$($bin run --functional -q micro/matmul --input paper | grep '^warpsim: matmul')
    echo "$line"
    rate=$(echo "$line" | sed -n 's/.* \([0-9.]*\) M thread-insts\/s.*/\1/p')
    best=$(echo "$rate $best" | awk '{print ($1 > $2) ? $1 : $2}')
done
echo "bench-speed: matmul 256, functional only: best $best M thread-instructions/s (one core)"
