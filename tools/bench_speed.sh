#!/bin/sh
# Simulation speed, not a test (`make bench-speed`): matmul 256 (the paper
# input) functional-only and through the timing model, and two memory-bound
# timing runs. Prints wall time, simulated core cycles/s and
# thread-instructions/s, best of RUNS runs (default 3) to keep noise from
# other processes out. WARPSIM=path/to/warpsim measures another build.
set -eu
cd "$(dirname "$0")/.."
bin=${WARPSIM:-build/warpsim}
runs=${RUNS:-3}

# bench LABEL RUN-ARGS...: one line with the best run's numbers
bench() {
    label=$1
    shift
    best=
    i=0
    while [ $i -lt "$runs" ]; do
        out=$($bin run "$@" 2>/dev/null)
        # "warpsim: NAME (...): ...; K kernels, W warp insts, T thread insts, S s, R M thread-insts/s"
        wall=$(echo "$out" | sed -n 's/^warpsim: .* \([0-9.]*\) s, [0-9.]* M thread-insts\/s.*/\1/p')
        insts=$(echo "$out" | sed -n 's/^warpsim: .*, \([0-9]*\) thread insts, .*/\1/p')
        cycles=$(echo "$out" | sed -n 's/^gpu_tot_sim_cycle = //p' | tail -1)
        if [ -z "$best" ] || [ "$(echo "$wall $best" | awk '{print ($1 < $2)}')" = 1 ]; then
            best=$wall
            bcyc=${cycles:-0}
            bins=$insts
        fi
        i=$((i + 1))
    done
    echo "$best $bcyc $bins" | awk -v l="$label" '{
        printf "%-44s %7.2f s", l, $1;
        if ($2 > 0) printf ", %8.1f K cycles/s", $2 / $1 / 1e3;
        printf ", %6.1f M thread-insts/s\n", $3 / $1 / 1e6 }'
}

echo "bench-speed: $bin, best of $runs runs each (one core)"
bench "matmul 256, functional only" --functional micro/matmul --input paper
bench "matmul 256, timing" micro/matmul --input paper
bench "polybench/syrk --max-insn 2000000, timing" --max-insn 2000000 polybench/syrk
bench "rodinia/kmeans --max-insn 3000000, timing" --max-insn 3000000 rodinia/kmeans
