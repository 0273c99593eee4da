#!/usr/bin/env bash
# A local run let finish by one window is stopped from the next (#37), as a person would under
# Xvfb: a run launched from the window (a command printing PARITY lines every 0.1 s) is let finish
# at quit; the window opened again on the database shows it running, and Stop (the row, Ctrl+.)
# ends it: its parity-cli (pid and start time as the database recorded them) and the command are
# gone and the run is recorded stopped, not failed. No output file of the window's children is
# left in TMPDIR, neither while the run goes nor after the window that started it quit.
# Usage: stop_reattached.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick,
# sqlite3, python3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import sqlite3 python3
# shellcheck source=xdotool_wait.sh
. "$here/xdotool_wait.sh"
# A run let finish outlives the window by design: on any exit its parity-cli is stopped too, by a
# trap of this script's own before the window's cleanup.
supervisor=""
eval "$(declare -f cleanup | sed '1s/^cleanup/window_cleanup/')"
cleanup() {
  local rc=${1:-$?}
  set +e
  cp -f "$trace" "$out/${0##*/}.trace.log" 2>/dev/null || true
  [ -n "$supervisor" ] && kill "$supervisor" 2>/dev/null
  (exit "$rc")
  window_cleanup  # exits with $?, the script's status
}
trap 'cleanup $?' EXIT
export TMPDIR=$dir/tmp
mkdir -p "$TMPDIR"
steps=3000
# shellcheck source=slow_command.sh
. "$here/slow_command.sh"
slow_command_db "$steps" slow
window_gone() { ! kill -0 "$pid" 2>/dev/null; }
no_temp_files() {
  local left
  left=$(find "$TMPDIR" -name 'parity-*')
  [ -z "$left" ] || fail "$1: the window left files in TMPDIR: $left"
}

start_window --db "$db"
until_true 30 eval '[ -n "$(find_in_map "^parity-trace: row setupsList 0 \"slow")" ]' ||
  { map | grep setupsList; fail "the saved setup 'slow' is not shown"; }
xdotool key --clearmodifiers ctrl+Return
until_true 30 steps_over 2 5 || fail "run 2 stored no steps: $(status 2)"
supervisor=$(q "SELECT supervisor_pid FROM runs WHERE id = 2")
no_temp_files "while run 2 trains"
xdotool key --clearmodifiers ctrl+q
timeout 10 xdotool search --all --sync --onlyvisible --pid "$pid" --name '^Runs still going$' \
  >/dev/null || fail "Ctrl+Q with a run going did not ask"
xdotool key --clearmodifiers alt+l
until_true 20 window_gone || fail "the window did not close after 'Let them finish'"
wait "$pid" 2>/dev/null || true
pid=""
kill -0 "$supervisor" 2>/dev/null || fail "parity-cli ($supervisor) ended with the window"
no_temp_files "after the window quit, run 2 going on"

start_window --db "$db"
until_true 20 row_says 2 running || { map | grep runsView; fail "the reopened window does not show run 2 running"; }
at_stop=$(stored 2)
# The run's row clicked, then Ctrl+.; a click while the window still settles its docks can be
# lost: up to three times, until the run is no longer running.
for ((k = 0; k < 3; k++)); do
  click_on '^parity-trace: row runsView [0-9]+ "2 ; slow'
  xdotool key --clearmodifiers ctrl+period
  until_true 8 eval '[ "$(status 2)" != running ]' && break
done
until_true 20 row_says 2 stopped || { map | grep runsView; fail "Stop in the new window did not stop run 2: $(status 2)"; }
shot stop-reattached-stopped >/dev/null
until_true 10 eval '! kill -0 "$supervisor" 2>/dev/null' || fail "parity-cli ($supervisor) outlived Stop"
until_true 10 eval '[ -z "$(pgrep -f "$dir/train.py")" ]' || fail "the run's command outlived Stop"
[ "$(status 2)" = stopped ] || fail "run 2 is recorded $(status 2): $(q "SELECT error FROM runs WHERE id = 2")"
[ "$(stored 2)" -lt "$steps" ] || fail "run 2 ran to its end"
no_temp_files "after run 2 was stopped"
echo "PASS: run 2, let finish by the first window, was stopped from the second at $at_stop of $steps steps: parity-cli $supervisor and its command gone, recorded stopped; no file left in TMPDIR (Stop pressed $((k + 1)) time(s))"
