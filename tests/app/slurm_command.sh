#!/usr/bin/env bash
# "Your command" through a real Slurm (#19): the test starts a one-node cluster of its own
# (munged, slurmctld, slurmd; every path in a private folder, as ../shared/recipes/
# slurm-single-node.md), then parity-cli runs a setup whose command is an `srun -n
# {num_processes} …` line: both tasks run (SLURM_PROCID 0 and 1), task 0 prints the PARITY lines,
# the run is finished with every step. Then Stop: SIGTERM to parity-cli while the job step runs
# ends the step (squeue empty within seconds), the run is stopped and no task is left.
# Usage: slurm_command.sh PARITY_CLI   (root; slurm-wlm and munge, installed by install-deps)
set -euo pipefail
cli=$1
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# shellcheck source=slurm_cluster.sh
source "$(dirname "$0")/slurm_cluster.sh"

# The user's job: each task says who it is; task 0 reports the losses.
cat >"$dir/job.py" <<'EOF'
import json, os, sys, time
rank, tasks = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
steps, delay = int(sys.argv[1]), float(sys.argv[2])
open(os.path.join(sys.argv[3], "task%d" % rank), "w").write("%d of %d\n" % (rank, tasks))
for step in range(1, steps + 1):
    if rank == 0:
        print("PARITY " + json.dumps({"step": step, "loss": 1.0 / step}), flush=True)
    time.sleep(delay)
EOF
db=$dir/r.db
"$cli" run --db "$db" -q --label srun2 --num-processes 2 --per-device-batch-size 8 \
  --command "srun -n {num_processes} --quiet python3 $dir/job.py 12 0.05 $dir" >"$dir/out" 2>"$dir/err" ||
  fail "the srun run failed: $(cat "$dir/err")"
"$cli" list --db "$db" | grep -E '^ +1 +srun2 +finished +12/' >/dev/null ||
  fail "run 1 is not finished with 12 steps: $("$cli" list --db "$db")"
[ "$(cat "$dir/task0" "$dir/task1")" = "$(printf '0 of 2\n1 of 2')" ] ||
  fail "the two tasks did not both run: $(cat "$dir"/task* 2>&1)"
"$cli" show --db "$db" 1 | grep -q 'origin: command from srun -n 2 --quiet python3' ||
  fail "run 1 does not record its srun command"

# Stop: SIGTERM to parity-cli while the job step runs.
"$cli" run --db "$db" -q --label stopped --num-processes 2 \
  --command "srun -n {num_processes} --quiet python3 $dir/job.py 600 0.1 $dir" >"$dir/out2" 2>"$dir/err2" &
pid=$!
for _ in $(seq 100); do
  "$cli" list --db "$db" 2>/dev/null | grep -qE '^ +2 +stopped +running +[1-9]' && break
  sleep 0.1
done
stop_while_the_step_runs "$pid" "$(cat "$dir/err2")"
"$cli" list --db "$db" | grep -qE '^ +2 +stopped +stopped' ||
  fail "run 2 is not stopped: $("$cli" list --db "$db")"
pgrep -f "$dir/[j]ob.py" >/dev/null && fail "a task of the job outlived Stop"
echo "PASS: srun ran both tasks of the user's command (12 steps recorded from task 0); Stop ended the job step (squeue empty) and the run is stopped"
