#!/usr/bin/env bash
# Quit and let them finish (#37 §3), as a person would under Xvfb: a run launched from the window
# (a command printing PARITY lines, 150 steps at 0.1 s) is going when Ctrl+Q asks "Runs still
# going"; "Let them finish" closes the window while the run's parity-cli lives on in its own
# session and its steps keep growing in SQLite; the window opened again on the database shows it
# running, then finished, with each step stored once. Then a second launch is quit with "Stop
# them": the run is recorded stopped (not failed) and its supervisor is gone. The chart's status
# counts the reattached run as running, and none once it ended. Screenshots in OUT.
# Usage: quit_let_finish.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick,
# sqlite3, python3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import sqlite3 python3
# shellcheck source=xdotool_wait.sh
. "$here/xdotool_wait.sh"
steps=150
# shellcheck source=slow_command.sh
. "$here/slow_command.sh"
slow_command_db "$steps" slow
window_gone() { ! kill -0 "$pid" 2>/dev/null; }

# quit_with BUTTON_KEY NAME: Ctrl+Q while the run goes, the question, its answer; the window ends.
quit_with() {
  xdotool windowactivate --sync "$win" 2>/dev/null || true
  xdotool key --clearmodifiers ctrl+q
  timeout 10 xdotool search --all --sync --onlyvisible --pid "$pid" --name '^Runs still going$' \
    >/dev/null || fail "Ctrl+Q with a run going did not ask"
  shot "quit-$2-question" >/dev/null
  xdotool key --clearmodifiers "$1"
  until_true 20 window_gone || fail "the window did not close after '$2'"
  wait "$pid" 2>/dev/null || true
  pid=""
}

start_window --db "$db"
until_true 30 eval '[ -n "$(find_in_map "^parity-trace: row setupsList 0 \"slow")" ]' ||
  { map | grep setupsList; fail "the saved setup 'slow' is not shown"; }
xdotool key --clearmodifiers ctrl+Return
until_true 30 steps_over 2 10 || fail "run 2 stored no steps: $(status 2)"
[ "$(status 2)" = running ] || fail "run 2 is $(status 2), not running"
supervisor=$(q "SELECT supervisor_pid FROM runs WHERE id = 2")
shot quit-1-running >/dev/null
quit_with alt+l let-finish

# The window is gone; the run is not.
kill -0 "$supervisor" 2>/dev/null || fail "parity-cli ($supervisor) ended with the window"
at_quit=$(stored 2)
until_true 10 steps_over 2 "$((at_quit + 10))" ||
  fail "run 2's steps stopped growing after the window quit ($at_quit, then $(stored 2))"
[ "$(status 2)" = running ] || fail "run 2 is $(status 2) after the window quit"
echo "after quit: parity-cli $supervisor alive, steps $at_quit -> $(stored 2), $(status 2)"

# Opened again: running (not reconciled as failed), then finished.
start_window --db "$db"
until_true 20 row_says 2 running || { map | grep runsView; fail "the reopened window does not show run 2 running"; }
chart_says() { [ -n "$(find_in_map "^parity-trace: label central chartStatus .*\"$1\"")" ]; }
until_true 10 chart_says '2 run\(s\) drawn · 1 running' ||
  fail "the chart's status does not count the reattached run: $(find_in_map chartStatus)"
shot quit-2-reopened-running >/dev/null
until_true 60 row_says 2 finished || { map | grep runsView; fail "run 2 did not end finished: $(status 2)"; }
until_true 10 chart_says '2 run\(s\) drawn' ||
  fail "the chart's status still counts a run going: $(find_in_map chartStatus)"
shot quit-3-reopened-finished >/dev/null
[ "$(status 2)" = finished ] || fail "run 2 is $(status 2)"
while IFS='|' read -r rank n distinct last; do
  [ "$n" -eq "$steps" ] && [ "$distinct" -eq "$steps" ] && [ "$last" -eq "$steps" ] ||
    fail "run 2 rank $rank stored $n rows for $distinct steps up to $last, not $steps once each"
done < <(q "SELECT rank, count(*), count(DISTINCT step), max(step) FROM steps WHERE run_id = 2 GROUP BY rank")

# Stop them: recorded stopped, its supervisor gone.
xdotool key --clearmodifiers ctrl+Return
until_true 30 steps_over 3 5 || fail "run 3 stored no steps: $(status 3)"
supervisor=$(q "SELECT supervisor_pid FROM runs WHERE id = 3")
quit_with alt+s stop
until_true 10 eval '! kill -0 "$supervisor" 2>/dev/null' || fail "parity-cli ($supervisor) outlived Stop them"
[ "$(status 3)" = stopped ] || fail "run 3 stopped at quit is recorded $(status 3): $(q "SELECT error FROM runs WHERE id = 3")"
echo "PASS: Let them finish kept run 2 training without the window ($at_quit steps at quit, $steps stored once each, finished, seen running then finished on reopening); Stop them recorded run 3 stopped"
