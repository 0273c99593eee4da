# Sourced by the Slurm tests: starts a one-node cluster of its own (munged, slurmctld, slurmd; every
# path in a private folder $dir, as ../shared/recipes/slurm-single-node.md), exports SLURM_CONF and
# stops it all on exit (the EXIT trap). Needs `fail` defined and root; skips (77) when a tool is
# missing outside CI. Defines stop_while_the_step_runs.

# Stop as the window does, SIGTERM to the parity-cli PID while its job step runs: it must exit
# non-zero and the step must be gone from squeue within 10 s. WHY is said when no step runs.
stop_while_the_step_runs() {
  [ -n "$(squeue -h 2>/dev/null)" ] || fail "no job step was running: $2"
  kill -TERM "$1"
  wait "$1" && fail "a stopped run exited 0"
  for _ in $(seq 100); do
    [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 0.1
  done
  [ -z "$(squeue -h)" ] || fail "the job is still queued or running after Stop: $(squeue)"
}
for tool in munged slurmctld slurmd srun squeue sinfo; do
  if ! command -v "$tool" >/dev/null; then
    [ "${CI:-}" = true ] && fail "$tool is not installed (scripts/install-deps.sh installs slurm-wlm and munge)"
    echo "SKIP: $tool is not installed"
    exit 77
  fi
done
[ "$(id -u)" -eq 0 ] || fail "needs root (slurmd runs jobs as their user)"

dir=$(mktemp -d)
chmod 0700 "$dir"
host=$(hostname -s)
cleanup() {
  for d in slurmd slurmctld munged; do
    [ -f "$dir/$d.pid" ] && kill "$(cat "$dir/$d.pid")" 2>/dev/null || true
  done
  for d in slurmd slurmctld munged; do
    for _ in $(seq 50); do
      [ -f "$dir/$d.pid" ] && kill -0 "$(cat "$dir/$d.pid")" 2>/dev/null || break
      sleep 0.1
    done
  done
  rm -rf "$dir"
}
trap cleanup EXIT

# munge, with its own key and socket.
head -c 1024 /dev/urandom >"$dir/munge.key"
chmod 0400 "$dir/munge.key"
munged --key-file="$dir/munge.key" --socket="$dir/munge.sock" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munge.seed" -f ||
  fail "munged did not start: $(cat "$dir/munged.log" 2>/dev/null)"

# Free ports for the controller and the node daemon.
ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))')
read -r ctld_port d_port <<<"$ports"
mkdir -p "$dir/state" "$dir/spool"
cat >"$dir/slurm.conf" <<EOF
ClusterName=paritytest
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start: $(tail -n 5 "$dir/slurmctld.log")"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start: $(tail -n 5 "$dir/slurmd.log")"
for _ in $(seq 150); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 0.2
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] || fail "the node is not idle: $(sinfo 2>&1; tail -n 5 "$dir/slurmd.log")"

