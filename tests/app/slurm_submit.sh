#!/usr/bin/env bash
# Runs that outlive the desktop (#37): `parity-cli run --launcher slurm --submit` hands a run to
# sbatch on a one-node cluster the test starts itself (slurm_cluster.sh) and returns at once;
# the job's own supervisor writes the run's steps file and `parity-cli follow` reads it in.
# 1. A job that waits behind another (both CPUs held): the run is queued with Slurm's state and
#    reason (PENDING, Resources), then runs and is followed to its end: finished, every step of
#    both ranks, per-step losses equal to the local launcher's run bit for bit (the CSV's %.17g).
# 2. The CLI killed mid-job (follow, kill -9) and started again: the job went on meanwhile; no
#    step lost or doubled, losses again equal to the local run's.
# 3. A job that ended while nobody watched is read in whole by a later follow.
# 4. parity-cli stop (scancel) while the job runs: the run is stopped, squeue empty, no task
#    left; and a job cancelled while it waits is stopped too.
# 5. A job whose ranks fail: the run fails with the failing rank's own reason.
# 6. The user's command as a job: `srun --label` around a script that prints its PARITY lines on
#    every task; task 0's are recorded, once each.
# Usage: slurm_submit.sh PARITY_CLI PARITY_WORKER   (root; slurm-wlm and munge)
set -euo pipefail
cli=$1
worker=$2
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# shellcheck source=slurm_cluster.sh
source "$(dirname "$0")/slurm_cluster.sh"
ln -s "$worker" "$dir/parity-worker"
worker=$dir/parity-worker
db=$dir/r.db

# The row of run $1 in `list` (status and steps), and waiting for a pattern in it.
row() { "$cli" list --db "$db" 2>/dev/null | awk -v id="$1" '$1 == id'; }
wait_row() {  # RUN REGEX SECONDS WHAT
  for _ in $(seq $(($3 * 10))); do
    row "$1" | grep -qE "$2" && return 0
    sleep 0.1
  done
  fail "$4: run $1 is $(row "$1")"
}
# Curves without the run id, label and time: every step of both ranks and the global mean.
curves() { "$cli" export --db "$db" --runs "$1" -o - | cut -d, -f3-8; }
queue_empty() {
  for _ in $(seq 150); do
    [ -z "$(squeue -h 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  fail "$1: the queue is not empty: $(squeue)"
}

setup=(--num-processes 2 --per-device-batch-size 8 --seed 7 --threads-per-rank 1 --worker "$worker")

# 1. Queued behind a job that holds both CPUs.
srun -n 2 --quiet sleep 8 &
blocker=$!
for _ in $(seq 50); do
  [ -n "$(squeue -h -t running 2>/dev/null)" ] && break
  sleep 0.1
done
"$cli" run --db "$db" -q --label queued --launcher slurm --submit --max-steps 12 "${setup[@]}" \
  >"$dir/out1" 2>"$dir/err1" || fail "--submit failed: $(cat "$dir/err1")"
grep -qE '^run 1 queued: Slurm job [0-9]+$' "$dir/out1" || fail "submit said: $(cat "$dir/out1")"
job1=$(sed -E 's/.* ([0-9]+)$/\1/' "$dir/out1")
row 1 | grep -qE "queued, job $job1 PENDING" || fail "run 1 right after submit: $(row 1)"
"$cli" follow --db "$db" 1 >"$dir/follow1" 2>"$dir/ferr1" &
follower=$!
wait_row 1 "queued, job $job1 PENDING \((Resources|Priority)\)" 10 "no reason while it waits"
"$cli" show --db "$db" 1 | grep -qE "Slurm job $job1: PENDING \((Resources|Priority)\)" ||
  fail "show does not say why run 1 waits: $("$cli" show --db "$db" 1)"
wait "$blocker"
wait "$follower" || fail "follow of run 1 failed: $(cat "$dir/ferr1")"
grep -q '^run 1 finished$' "$dir/follow1" || fail "follow said: $(cat "$dir/follow1")"
grep -q "Slurm job $job1 RUNNING" "$dir/ferr1" || fail "follow never saw it run: $(cat "$dir/ferr1")"
row 1 | grep -qE '^ +1 +queued +finished +12/12' || fail "run 1: $(row 1)"
"$cli" run --db "$db" -q --label local --max-steps 12 "${setup[@]}" >/dev/null 2>"$dir/err2" ||
  fail "the local run failed: $(cat "$dir/err2")"
curves 1 >"$dir/sub.csv"
curves 2 >"$dir/local.csv"
[ "$(wc -l <"$dir/sub.csv")" -eq 37 ] || fail "expected a header and 12 x 3 rows: $(wc -l <"$dir/sub.csv")"
cmp -s "$dir/sub.csv" "$dir/local.csv" ||
  fail "the submitted run's losses differ from the local run's: $(diff "$dir/sub.csv" "$dir/local.csv" | head)"

# 2. The follower killed mid-job, and started again.
long=(--max-steps 3000)
"$cli" run --db "$db" -q --label killed --launcher slurm --submit "${long[@]}" "${setup[@]}" \
  >/dev/null 2>"$dir/err3" || fail "submit failed: $(cat "$dir/err3")"
"$cli" follow --db "$db" -q 3 >/dev/null 2>"$dir/ferr3" &
follower=$!
wait_row 3 '^ +3 +killed +running(, job [0-9]+ RUNNING)? +[1-9][0-9]*/' 60 "run 3 never recorded a step"
kill -9 "$follower"
wait "$follower" 2>/dev/null || true
before=$(row 3 | awk '{print $0}')
sleep 1
[ -n "$(squeue -h 2>/dev/null)" ] || fail "run 3's job ended too soon for the test (before: $before)"
"$cli" follow --db "$db" -q 3 >"$dir/follow3" 2>"$dir/ferr3b" ||
  fail "follow again failed: $(cat "$dir/ferr3b")"
row 3 | grep -qE '^ +3 +killed +finished +3000/3000' || fail "run 3: $(row 3) (killed at: $before)"
"$cli" run --db "$db" -q --label local-long "${long[@]}" "${setup[@]}" >/dev/null 2>&1 ||
  fail "the local long run failed"
curves 3 >"$dir/sub3.csv"
curves 4 >"$dir/local4.csv"
[ "$(wc -l <"$dir/sub3.csv")" -eq 9001 ] || fail "run 3 has $(wc -l <"$dir/sub3.csv") lines, not 9001"
[ -z "$(cut -d, -f1,4 "$dir/sub3.csv" | sort | uniq -d)" ] || fail "run 3 has a step twice"
cmp -s "$dir/sub3.csv" "$dir/local4.csv" ||
  fail "run 3 differs from the local run: $(diff "$dir/sub3.csv" "$dir/local4.csv" | head)"

# 3. A job that ended while nobody watched.
"$cli" run --db "$db" -q --label unwatched --launcher slurm --submit --max-steps 12 "${setup[@]}" \
  >/dev/null 2>"$dir/err5" || fail "submit failed: $(cat "$dir/err5")"
queue_empty "run 5's job"
row 5 | grep -qE '^ +5 +unwatched +queued' || fail "run 5 changed with nobody following: $(row 5)"
"$cli" follow --db "$db" -q 5 >"$dir/follow5" 2>"$dir/ferr5" || fail "follow 5: $(cat "$dir/ferr5")"
row 5 | grep -qE '^ +5 +unwatched +finished +12/12' || fail "run 5: $(row 5)"
cmp -s <(curves 5) "$dir/local.csv" || fail "run 5 differs from the local run"

# 4. Stop while it runs, and while it waits.
"$cli" run --db "$db" -q --label stopped --launcher slurm --submit --max-steps 1000000 \
  "${setup[@]}" >/dev/null 2>"$dir/err6" || fail "submit failed: $(cat "$dir/err6")"
"$cli" follow --db "$db" -q 6 >"$dir/follow6" 2>"$dir/ferr6" &
follower=$!
wait_row 6 '^ +6 +stopped +running(, job [0-9]+ RUNNING)? +[1-9]' 60 "run 6 never recorded a step"
"$cli" stop --db "$db" 6 >"$dir/stop6" 2>"$dir/serr6" || fail "stop failed: $(cat "$dir/serr6")"
wait "$follower" && fail "following a stopped run exited 0"
queue_empty "after stop"
row 6 | grep -qE '^ +6 +stopped +stopped' || fail "run 6 is not stopped: $(row 6)"
"$cli" show --db "$db" 6 | grep -q 'was cancelled (parity-cli stop)' ||
  fail "run 6 does not say it was cancelled: $("$cli" show --db "$db" 6)"
pgrep -f "^$worker\$" >/dev/null && fail "a rank outlived stop"
srun -n 2 --quiet sleep 5 &
blocker=$!
for _ in $(seq 50); do
  [ -n "$(squeue -h -t running 2>/dev/null)" ] && break
  sleep 0.1
done
"$cli" run --db "$db" -q --label waiting --launcher slurm --submit --max-steps 12 "${setup[@]}" \
  >/dev/null 2>"$dir/err7" || fail "submit failed: $(cat "$dir/err7")"
"$cli" stop --db "$db" 7 >/dev/null 2>"$dir/serr7" || fail "stop of a waiting job: $(cat "$dir/serr7")"
row 7 | grep -qE '^ +7 +waiting +stopped +0/' || fail "run 7: $(row 7)"
wait "$blocker"

# 5. The ranks fail: rank 1's worker exits 1 with its reason; read after the job ended.
cat >"$dir/bad-worker" <<EOF2
#!/bin/sh
if [ "\$SLURM_PROCID" = 1 ]; then
  echo "parity-worker rank 1: the data folder vanished" >&2
  exit 1
fi
exec "$worker"
EOF2
chmod +x "$dir/bad-worker"
"$cli" run --db "$db" -q --label bad --launcher slurm --submit --num-processes 2 \
  --max-steps 100000 --threads-per-rank 1 --worker "$dir/bad-worker" >/dev/null 2>"$dir/err8" ||
  fail "submit failed: $(cat "$dir/err8")"
queue_empty "run 8's job"
"$cli" follow --db "$db" -q 8 >"$dir/follow8" 2>"$dir/ferr8" && fail "following a failed run exited 0"
row 8 | grep -qE '^ +8 +bad +failed' || fail "run 8 is not failed: $(row 8)"
"$cli" show --db "$db" 8 | grep -q 'rank 1: the data folder vanished' ||
  fail "run 8 does not say rank 1's reason: $("$cli" show --db "$db" 8)"

# 6. The user's command as a job: srun --label, every task printing its own PARITY lines.
cat >"$dir/every_task.py" <<'EOF2'
import json, os, time
rank = int(os.environ["SLURM_PROCID"])
for step in range(1, 21):
    print("PARITY " + json.dumps({"step": step, "loss": (rank + 1) / step}), flush=True)
    time.sleep(0.02)
EOF2
"$cli" run --db "$db" -q --label srun-label --launcher slurm --submit --num-processes 2 \
  --per-device-batch-size 8 \
  --command "srun --label -n {num_processes} --quiet python3 $dir/every_task.py" \
  >/dev/null 2>"$dir/err9" || fail "submitting a command failed: $(cat "$dir/err9")"
"$cli" follow --db "$db" -q 9 >"$dir/follow9" 2>"$dir/ferr9" || fail "follow 9: $(cat "$dir/ferr9")"
row 9 | grep -qE '^ +9 +srun-label +finished +20/' || fail "run 9: $(row 9)"
"$cli" export --db "$db" --runs 9 -o - | awk -F, 'NR > 1 { n++; if ($7 != 1 / $3) bad++ }
  END { exit !(n == 20 && bad == 0) }' ||
  fail "run 9 is not task 0's 20 steps: $("$cli" export --db "$db" --runs 9 -o - | head)"
"$cli" show --db "$db" 9 | grep -q 'origin: command from srun --label -n 2 --quiet python3' ||
  fail "run 9 does not record its command as it ran: $("$cli" show --db "$db" 9)"
grep -q '^1: PARITY {"step": 20' "$db.logs/run-9/command.log" ||
  fail "task 1's lines are not in the command's log"

echo "PASS: --submit queued a run behind another job (PENDING, Resources), followed it to its end equal bit for bit to the local run; follow killed and started again lost and doubled nothing (3000 steps); a job nobody watched was read whole; stop cancelled a running and a waiting job; failing ranks failed the run with their reason; srun --label's task 0 lines were read once"
