#!/bin/sh
# Installs what warpsim needs on Debian/Ubuntu. Safe to run again.
#
#   scripts/setup.sh          the build: a C toolchain, make, zstd's headers
#   scripts/setup.sh --tools  also what the experiment tools (tools/) and the
#                             full test suite use: Debian's python3 with
#                             python3-matplotlib, SLURM (slurmctld, slurmd,
#                             slurm-client) with munge for the one-node cluster
#                             test, and chromium (with fonts) for the report
#                             screenshot test, and clang with its sanitizer and
#                             libFuzzer runtimes (make asan, make fuzz)
#
# Packages come without their recommended extras (--no-install-recommends).
set -eu
tools=0
for a in "$@"; do
    case "$a" in
    --tools) tools=1 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown argument '$a' (try --help)" >&2; exit 2 ;;
    esac
done
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
[ -f /usr/include/zstd.h ] || need="$need libzstd-dev"
if [ "$tools" = 1 ]; then
    /usr/bin/python3 -c 'import matplotlib, sqlite3' >/dev/null 2>&1 || need="$need python3 python3-matplotlib"
    [ -x /usr/sbin/slurmctld ] || need="$need slurmctld"
    [ -x /usr/sbin/slurmd ] || need="$need slurmd"
    command -v sbatch >/dev/null 2>&1 || need="$need slurm-client"
    [ -x /usr/sbin/munged ] || need="$need munge"
    # without its recommended packages chromium has no fonts: a blank page
    [ -x /usr/bin/chromium ] || need="$need chromium fonts-liberation fonts-dejavu-core"
    # make asan and make fuzz: clang, and the runtimes of -fsanitize=fuzzer,address,undefined
    command -v clang >/dev/null 2>&1 || need="$need clang"
    [ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] ||
        need="$need libclang-rt-14-dev"
fi
if [ -n "$need" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "setup: installing:$need"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need
else
    echo "setup: dependencies already present"
fi
