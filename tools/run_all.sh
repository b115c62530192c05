#!/bin/sh
# Run every bundled workload (all suites) and report one line each:
#   tools/run_all.sh [-j N] [--input small|paper] [--functional] [--bin PATH]
# Exit status 1 if any run did not pass. Not part of `make test` (the paper
# inputs take minutes); `make check-paper` runs the paper inputs functionally.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2) input=small mode="" bin=build/warpsim
while [ $# -gt 0 ]; do
    case "$1" in
        -j) jobs=$2; shift ;;
        --input) input=$2; shift ;;
        --functional) mode=--functional ;;
        --bin) bin=$2; shift ;;
        *) echo "usage: $0 [-j N] [--input small|paper] [--functional] [--bin PATH]" >&2; exit 2 ;;
    esac
    shift
done
out=$(mktemp -d)
"$bin" list | awk 'NR > 1 { print $2 "/" $1 }' |
    xargs -P "$jobs" -I{} sh -c '"$1" run -q $2 --input "$3" "$4" > "$5/$(echo "$4" | tr / _).log" 2>&1; echo "$4 $?" >> "$5/rc"' _ "$bin" "$mode" "$input" {} "$out"
fail=0
for w in $("$bin" list | awk 'NR > 1 { print $2 "/" $1 }'); do
    log="$out/$(echo "$w" | tr / _).log"
    line=$(grep '^warpsim: ' "$log" | tail -1)
    rc=$(awk -v w="$w" '$1 == w { print $2 }' "$out/rc")
    [ "$rc" = 0 ] || fail=1
    printf '%-28s rc=%s %s\n' "$w" "$rc" "${line#warpsim: }"
    [ "$rc" = 0 ] || tail -5 "$log" | sed 's/^/    /'
done
rm -rf "$out"
exit $fail
