#!/usr/bin/env bash
# Parity's own engine under a real Slurm (#19): `parity-cli run --launcher slurm` submits the
# ranks as the tasks of one srun on a one-node cluster the test starts itself (slurm_cluster.sh).
# 1. 2 tasks x 12 steps finish with every step, per rank too, and their losses equal, to the
#    printed digit, the same setup run by the local launcher (same threads, same summation).
# 2. A task that fails (rank 1's worker exits 1 with its reason) fails the run with that reason
#    and leaves no step.
# 3. A step that waits in Slurm's queue past the hang timeout is not declared hung.
# 4. Stop: SIGTERM to parity-cli while the step runs ends the step (squeue empty), the run is
#    stopped and no task is left.
# Usage: slurm_engine.sh PARITY_CLI PARITY_WORKER   (root; slurm-wlm and munge)
set -euo pipefail
cli=$1
worker=$2
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# shellcheck source=slurm_cluster.sh
source "$(dirname "$0")/slurm_cluster.sh"
# The tasks run the worker by a path of this test's own, so that looking for a task left behind
# finds none of another test's parity-worker processes.
ln -s "$worker" "$dir/parity-worker"
worker=$dir/parity-worker

db=$dir/r.db
setup=(--num-processes 2 --per-device-batch-size 8 --max-steps 12 --seed 7 --threads-per-rank 1
  --worker "$worker")
"$cli" run --db "$db" -q --label slurm2 --launcher slurm "${setup[@]}" >"$dir/out" 2>"$dir/err" ||
  fail "the Slurm run failed: $(cat "$dir/err"; cat "$db".logs/run-1/srun.log 2>/dev/null)"
"$cli" run --db "$db" -q --label local2 "${setup[@]}" >"$dir/out2" 2>"$dir/err2" ||
  fail "the local run failed: $(cat "$dir/err2")"
"$cli" list --db "$db" | grep -E '^ +1 +slurm2 +finished +12/12' >/dev/null ||
  fail "run 1 is not finished with 12 steps: $("$cli" list --db "$db")"
# Curves without the run id, label and time: every step of both ranks and the global mean.
"$cli" export --db "$db" --runs 1 -o - | cut -d, -f3-8 >"$dir/slurm.csv"
"$cli" export --db "$db" --runs 2 -o - | cut -d, -f3-8 >"$dir/local.csv"
rows=$(wc -l <"$dir/slurm.csv")
[ "$rows" -eq 37 ] || fail "expected a header and 36 step rows (12 steps x global, rank 0, rank 1), got $rows"
cmp -s "$dir/slurm.csv" "$dir/local.csv" ||
  fail "the Slurm run's losses differ from the local run's: $(diff "$dir/slurm.csv" "$dir/local.csv" | head)"

# A failing task fails the run with its own reason; srun kills the other task (kill-on-bad-exit).
cat >"$dir/bad-worker" <<EOF2
#!/bin/sh
if [ "\$SLURM_PROCID" = 1 ]; then
  echo "parity-worker rank 1: the data folder vanished" >&2
  exit 1
fi
exec "$worker"
EOF2
chmod +x "$dir/bad-worker"
"$cli" run --db "$db" -q --label bad --launcher slurm --num-processes 2 --max-steps 100000 \
  --worker "$dir/bad-worker" >"$dir/out3" 2>"$dir/err3" && fail "a run whose task failed exited 0"
"$cli" show --db "$db" 3 | grep -q 'rank 1: the data folder vanished' ||
  fail "run 3 does not say rank 1's reason: $("$cli" show --db "$db" 3)"
"$cli" list --db "$db" | grep -qE '^ +3 +bad +failed' || fail "run 3 is not failed"

# A step that waits in Slurm's queue is not hung: a job holding both CPUs keeps this run's step
# pending for 6 s, past --hang-timeout 2; it then runs and finishes (synthetic data: the ranks
# report at once once started).
srun -n 2 --quiet sleep 6 &
blocker=$!
for _ in $(seq 50); do
  [ -n "$(squeue -h -t running 2>/dev/null)" ] && break
  sleep 0.1
done
"$cli" run --db "$db" -q --label queued --launcher slurm --num-processes 2 --max-steps 3 \
  --dataset synthetic-regression --model linear --hang-timeout 2 --worker "$worker" \
  >"$dir/out5" 2>"$dir/err5" ||
  fail "a step that waited in the queue failed: $(cat "$dir/err5")"
wait "$blocker"
"$cli" list --db "$db" | grep -qE '^ +4 +queued +finished +3/3' ||
  fail "run 4 (queued first) did not finish: $("$cli" list --db "$db")"

# Stop: SIGTERM to parity-cli while the job step runs.
"$cli" run --db "$db" -q --label stopped --launcher slurm --num-processes 2 --max-steps 1000000 \
  --worker "$worker" >"$dir/out4" 2>"$dir/err4" &
pid=$!
for _ in $(seq 200); do
  "$cli" list --db "$db" 2>/dev/null | grep -qE '^ +5 +stopped +running +[1-9]' && break
  sleep 0.1
done
"$cli" list --db "$db" | grep -qE '^ +5 +stopped +running +[1-9]' ||
  fail "run 5 never recorded a step: $(cat "$dir/err4")"
stop_while_the_step_runs "$pid" "$(cat "$dir/err4")"
"$cli" list --db "$db" | grep -qE '^ +5 +stopped +stopped' ||
  fail "run 5 is not stopped: $("$cli" list --db "$db")"
pgrep -f "^$worker\$" >/dev/null && fail "a task of the step outlived Stop"
echo "PASS: --launcher slurm ran 2 tasks (12 steps, both ranks recorded, equal to the local launcher's run), a failed task failed the run with its reason, Stop ended the step (squeue empty) and left no task"
