#!/bin/sh
# The CIAO study's time-series case studies (IPDPS 2018, Fig. 9 and 10):
# IPC, active warps and the warps CIAO isolates / stalls over time for ATAX,
# backprop, SYRK and KMN under GTO, CCWS, SWL-2, CIAO-T, CIAO-P and CIAO-C,
# one figure per workload (runs overlaid). `tools/reproduce.py seed001
# --timeseries` runs the same case studies and also prints a table of means.
#   tools/seed001_timeseries.sh [OUT_DIR] [CAP] [INTERVAL] [WORKLOADS...]
# Defaults: sweeps/seed001-timeseries, 5000000 thread instructions, 2000
# cycles per sample, the four workloads (paper inputs). WARPSIM=path/to/warpsim.
set -eu
cd "$(dirname "$0")/.."
bin=${WARPSIM:-build/warpsim}
out=${1:-sweeps/seed001-timeseries}
cap=${2:-5000000}
interval=${3:-2000}
[ $# -gt 3 ] && shift 3 || set --
workloads=${*:-polybench/atax rodinia/backprop polybench/syrk mars/kmeans}
schemes="GTO:none CCWS:ccws SWL-2:swl:1 CIAO-T:ciao_t CIAO-P:ciao_p CIAO-C:ciao_c"
mkdir -p "$out"
for w in $workloads; do
    name=$(echo "$w" | tr / .)
    dirs=
    labels=
    for s in $schemes; do
        label=${s%%:*}
        policy=${s#*:}
        d="$out/$name/$label"
        "$bin" run -q --preset ciao --input paper --max-insn "$cap" -o "$d" \
            --set "-warpsim_throttle $policy" --set "-warpsim_stat_interval $interval" "$w" \
            > /dev/null 2> "$out/$name.$label.log" || true
        dirs="$dirs $d"
        labels="$labels --label $label"
    done
    # shellcheck disable=SC2086
    "$bin" timeseries $dirs $labels --title "$w (first $cap thread instructions)" \
        --metric ipc --metric active_warps_per_sm --metric isolated_warps_per_sm \
        --metric stalled_warps_per_sm --metric l1d_miss_rate -o "$out/$name.png"
done
