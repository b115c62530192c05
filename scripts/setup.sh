#!/bin/sh
# Installs what warpsim needs to build and test on Debian/Ubuntu:
# a C toolchain, make and zstd's development files. Safe to run again.
set -eu
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
[ -f /usr/include/zstd.h ] || need="$need libzstd-dev"
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
