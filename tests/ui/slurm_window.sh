#!/usr/bin/env bash
# Runs that outlive the desktop, from the window (#37), as a person would under Xvfb, against a
# one-node Slurm the test starts itself (tests/app/slurm_cluster.sh):
# 1. Train on: "Slurm batch job", Launch (Ctrl+Return) while another job holds every CPU: the
#    window returns at once, the Runs table shows the run "PENDING (Resources)" (screenshot),
#    then running once the other job is cancelled.
# 2. The window killed (kill -9) mid-job: its follower goes with it, the job goes on; the window
#    opened again follows the job on to "finished", every step stored once (none lost or doubled).
# 3. A second job stopped from the Runs table (Ctrl+.): scancel, squeue empty, the run recorded
#    stopped and cancelled. No output file of the window's children is left in TMPDIR.
# 4. Quit (Ctrl+Q) while a submitted job runs: no question (the job is Slurm's, not the window's),
#    the window closes and the job goes on; it ends with nobody watching, and the window opened
#    again reads it in whole.
# Usage: slurm_window.sh PARITY PARITY_CLI OUT   (root; slurm-wlm, munge, xdotool, ImageMagick,
# sqlite3, python3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# The cluster first: its folder and cleanup are kept under other names, the window's come next.
# shellcheck source=../app/slurm_cluster.sh
source "$here/../app/slurm_cluster.sh"
slurm_dir=$dir
eval "$(declare -f cleanup | sed '1s/^cleanup/slurm_cleanup/')"
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import sqlite3 python3
# shellcheck source=xdotool_wait.sh
. "$here/xdotool_wait.sh"
blocker=""
# The trap is set again: this one must also stop the cluster's daemons.
trap 'cleanup $?' EXIT
cleanup() {
  local rc=${1:-$?}
  cp -f "$trace" "$out/${0##*/}.trace.log" 2>/dev/null || true
  [ -n "$blocker" ] && kill -9 "$blocker" 2>/dev/null
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  scancel --user=root 2>/dev/null || true
  local window_dir=$dir
  dir=$slurm_dir
  slurm_cleanup
  rm -rf "$window_dir"
  exit "$rc"
}
export TMPDIR=$dir/tmp
mkdir -p "$TMPDIR"
steps=120
# shellcheck source=slow_command.sh
. "$here/slow_command.sh"
slow_command_db "$steps" job
no_temp_files() {
  local left
  left=$(find "$TMPDIR" -name 'parity-*')
  [ -z "$left" ] || fail "$1: the window left files in TMPDIR: $left"
}
followers() { pgrep -f "parity-cli follow --db $db" || true; }
window_gone() { ! kill -0 "$pid" 2>/dev/null; }
all_steps_once() {  # RUN WHAT
  local n distinct last
  read -r n distinct last < <(q "SELECT count(*), count(DISTINCT step), max(step) FROM steps WHERE run_id = $1" | tr '|' ' ')
  [ "$n" -eq "$steps" ] && [ "$distinct" -eq "$steps" ] && [ "$last" -eq "$steps" ] ||
    fail "run $1 stored $n rows for $distinct steps up to $last, not $steps once each ($2)"
}

# Train on: Slurm batch job, then Launch.
launch_on_slurm() {
  xdotool windowactivate --sync "$win" 2>/dev/null || true
  xdotool key --clearmodifiers alt+t
  until_true 10 focused 'QComboBox "Train on"' || fail "Alt+T did not reach Train on: $(grep focus "$trace" | tail -n2)"
  xdotool key --clearmodifiers End
  until_true 10 eval '[ -n "$(find_in_map "slurmPartition")" ]' ||
    fail "choosing Slurm shows no partition field: $(find_in_map trainOn)"
  xdotool key --clearmodifiers ctrl+Return
}

# 1. Every CPU held by another job: the run waits, and the window says why.
srun -n "$(nproc)" --quiet sleep 600 >/dev/null 2>&1 &
blocker=$!
until_true 10 eval '[ -n "$(squeue -h -t running 2>/dev/null)" ]' || fail "the blocking job did not start"
start_window --db "$db"
until_true 30 eval '[ -n "$(find_in_map "^parity-trace: row setupsList 0 \"job")" ]' ||
  { map | grep setupsList; fail "the saved setup 'job' is not shown"; }
launch_on_slurm
until_true 30 row_says 2 'PENDING \((Resources|Priority)\)' ||
  { map | grep runsView; fail "run 2 is not shown PENDING with Slurm's reason: $(status 2)"; }
[ "$(status 2)" = queued ] || fail "run 2 is $(status 2) while its job waits"
job=$(q "SELECT job_id FROM runs WHERE id = 2")
[ -n "$job" ] && squeue -h -j "$job" -o %T | grep -q PENDING || fail "job '$job' is not pending: $(squeue)"
shot slurm-1-pending >/dev/null
no_temp_files "while run 2 waits"
kill "$blocker" 2>/dev/null || true
scancel "$(squeue -h -t running -o %i | head -n1)" 2>/dev/null || true
wait "$blocker" 2>/dev/null || true
blocker=""
until_true 60 steps_over 2 10 || fail "run 2 stored no steps once it could run: $(status 2)"
until_true 10 row_says 2 running || { map | grep runsView; fail "run 2 is not shown running"; }
shot slurm-2-running >/dev/null

# 2. The window killed mid-job; opened again, it follows on.
[ -n "$(followers)" ] || fail "no parity-cli follow child reads run 2"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
pid=""
until_true 10 eval '[ -z "$(followers)" ]' || fail "the follower outlived the killed window: $(followers)"
at_kill=$(stored 2)
[ -n "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "run 2's job ended before the window was killed ($at_kill steps)"
[ "$at_kill" -lt "$steps" ] || fail "run 2 was whole before the window was killed"
start_window --db "$db"
until_true 60 row_says 2 finished || { map | grep runsView; fail "the reopened window did not follow run 2 to its end: $(status 2), $(stored 2) steps"; }
all_steps_once 2 "killed at $at_kill"
shot slurm-3-reopened-finished >/dev/null
until_true 10 eval '[ -z "$(followers)" ]' || fail "a follower outlived run 2's end"
no_temp_files "after run 2 ended"

# 3. Stop (Ctrl+.) on a running job: scancel.
launch_on_slurm
until_true 60 steps_over 3 5 || fail "run 3 stored no steps: $(status 3)"
job3=$(q "SELECT job_id FROM runs WHERE id = 3")
until_true 10 row_says 3 running || { map | grep runsView; fail "run 3 is not shown running"; }
# The run's row clicked, then Ctrl+.; a click while the window still settles its docks can be
# lost: up to three times, until the run is no longer running.
for ((k = 0; k < 3; k++)); do
  click_on '^parity-trace: row runsView [0-9]+ "3 ; job'
  xdotool key --clearmodifiers ctrl+period
  until_true 8 eval '[ "$(status 3)" != running ]' && break
done
until_true 30 row_says 3 stopped || { map | grep runsView; fail "Stop did not stop run 3: $(status 3)"; }
until_true 30 eval '[ -z "$(squeue -h 2>/dev/null)" ]' || fail "job $job3 is still queued or running: $(squeue)"
"$cli" show --db "$db" 3 | grep -q 'was cancelled (parity-cli stop)' ||
  fail "run 3 does not say it was cancelled: $("$cli" show --db "$db" 3)"
[ "$(stored 3)" -lt "$steps" ] || fail "run 3 ran to its end"
until_true 10 eval '[ -z "$(followers)" ]' || fail "a follower outlived run 3's end"
no_temp_files "after run 3 was stopped"

# 4. Quit while a submitted job runs; it ends unwatched; the next window reads it whole.
launch_on_slurm
until_true 60 steps_over 4 5 || fail "run 4 stored no steps: $(status 4)"
job4=$(q "SELECT job_id FROM runs WHERE id = 4")
xdotool windowactivate --sync "$win" 2>/dev/null || true
xdotool key --clearmodifiers ctrl+q
until_true 20 window_gone || { shot slurm-4-quit-asked >/dev/null; fail "Ctrl+Q with only a submitted job going did not close the window"; }
wait "$pid" 2>/dev/null || true
pid=""
at_quit=$(stored 4)
[ -n "$(squeue -h -j "$job4" 2>/dev/null)" ] || fail "run 4's job ended with the window ($at_quit steps)"
until_true 60 eval '[ -z "$(squeue -h 2>/dev/null)" ]' || fail "job $job4 did not end: $(squeue)"
[ "$(stored 4)" -eq "$at_quit" ] && [ "$at_quit" -lt "$steps" ] ||
  fail "run 4 was followed after the window quit ($at_quit steps at quit, $(stored 4) now)"
start_window --db "$db"
until_true 60 row_says 4 finished || { map | grep runsView; fail "the reopened window did not read run 4 to its end: $(status 4)"; }
all_steps_once 4 "$at_quit at quit"
no_temp_files "after run 4 was read"
echo "PASS: the window submitted run 2 to Slurm and showed it PENDING (Resources), then running; killed at $at_kill steps and opened again it followed run 2 to finished with $steps steps once each; Stop cancelled run 3's job (scancel) at $(stored 3) steps, recorded stopped (Stop pressed $((k + 1)) time(s)); Ctrl+Q left run 4's job running without asking (at $at_quit steps), and the window opened after it ended read it whole; no file left in TMPDIR"
