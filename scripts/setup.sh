#!/bin/sh
# Installs what warpsim needs to build and test on Debian/Ubuntu:
# a C toolchain, make and zstd's development files; for the experiment tools
# (tools/, tests/tools/): Debian's python3 with python3-matplotlib, SLURM
# (slurmctld, slurmd, slurm-client) with munge for the one-node cluster test,
# and chromium for the report screenshot test. Safe to run again.
set -eu
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
[ -f /usr/include/zstd.h ] || need="$need libzstd-dev"
/usr/bin/python3 -c 'import matplotlib, sqlite3' >/dev/null 2>&1 || need="$need python3 python3-matplotlib"
[ -x /usr/sbin/slurmctld ] || need="$need slurmctld"
[ -x /usr/sbin/slurmd ] || need="$need slurmd"
command -v sbatch >/dev/null 2>&1 || need="$need slurm-client"
[ -x /usr/sbin/munged ] || need="$need munge"
[ -x /usr/bin/chromium ] || need="$need chromium"
if [ -n "$need" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "setup: installing:$need"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need
else
    echo "setup: build dependencies already present"
fi
