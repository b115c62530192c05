#!/bin/sh
# A one-node SLURM cluster on 127.0.0.1, for testing the sweep tool's SLURM
# engine (and for trying it out on a workstation). Everything lives in DIR:
# munge key and socket, slurm.conf, state, logs, pid files.
#
#   tools/slurm/local-cluster.sh start DIR   start munged, slurmctld, slurmd; wait for the node
#   tools/slurm/local-cluster.sh stop DIR    stop what `start DIR` started (by pid)
#   export SLURM_CONF=DIR/slurm.conf          then sbatch, squeue, sinfo talk to it
#
# Needs Debian's munge, slurmctld, slurmd and slurm-client (scripts/setup.sh --tools).
# Runs the daemons as the calling user (root in CI). Ports: free ones picked at
# start (or SLURMCTLD_PORT / SLURMD_PORT).
set -eu

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop DIR" >&2
    exit 2
fi

need() {
    for p in "$@"; do
        if ! command -v "$p" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$p" ]; then
            echo "local-cluster: '$p' is missing: install munge, slurmctld, slurmd and slurm-client" \
                 "(scripts/setup.sh --tools)" >&2
            exit 3
        fi
    done
}

bin() { command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"; }

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Running and not a zombie waiting to be reaped.
alive() { kill -0 "$1" 2>/dev/null && ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null; }

stop_pid() { # name pidfile
    [ -f "$2" ] || return 0
    pid=$(cat "$2")
    if alive "$pid"; then
        kill "$pid" 2>/dev/null || true
        i=0
        while alive "$pid" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
        if alive "$pid"; then
            echo "local-cluster: $1 ($pid) did not stop in 10 s; killing it" >&2
            kill -9 "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$2"
}

case "$cmd" in
start)
    need munged slurmctld slurmd sbatch squeue sinfo
    mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
    dir=$(cd "$dir" && pwd)
    chmod 700 "$dir/munge"
    host=$(hostname -s)
    cport=${SLURMCTLD_PORT:-$(free_port)}
    dport=${SLURMD_PORT:-$(free_port)}
    cpus=$(nproc)
    # munge: own key, socket and pid file, so a system munged is left alone.
    if [ ! -f "$dir/munge/munge.key" ]; then
        dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
        chmod 400 "$dir/munge/munge.key"
    fi
    "$(bin munged)" --force --socket="$dir/munge/munge.sock" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munge.seed"
    cat >"$dir/slurm.conf" <<EOF
# One-node test cluster (tools/slurm/local-cluster.sh); all traffic on 127.0.0.1.
ClusterName=warpsim-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$cport
SlurmdPort=$dport
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SchedulerParameters=sched_min_interval=100000,sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
MinJobAge=60
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$dir/slurm.conf"
    "$(bin slurmctld)" -i -f "$dir/slurm.conf"
    "$(bin slurmd)" -f "$dir/slurm.conf" -N "$host"
    # Wait (30 s at most) for the node to be up.
    i=0
    while [ $i -lt 300 ]; do
        state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1 || true)
        case "$state" in
        idle*|mix*|alloc*) echo "local-cluster: up (SLURM_CONF=$dir/slurm.conf, node $host, $cpus CPUs)"
                           exit 0 ;;
        esac
        sleep 0.1
        i=$((i + 1))
    done
    echo "local-cluster: the node did not come up in 30 s (state '${state:-none}'); logs in $dir" >&2
    tail -n 5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 2>/dev/null || true
    exit 1
    ;;
stop)
    [ -d "$dir" ] || exit 0
    # Both SLURM daemons at once (each takes seconds to shut down), then munge.
    stop_pid slurmd "$dir/slurmd.pid" &
    stop_pid slurmctld "$dir/slurmctld.pid" &
    wait
    stop_pid munged "$dir/munge/munged.pid"
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
