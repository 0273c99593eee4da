#!/usr/bin/env bash
# As a person would, under Xvfb (#24 item 7): right-click a run, "New setup from run #1" adds a
# setup with its values (2 processes, batch 16, its synthetic data); the window is killed and
# its settings file removed, so only the database can bring the setups back; the window started
# again on the database shows the setup and the run's experiment. A database with no saved
# setups gets none written by opening it. Screenshots in OUT.
# Usage: kept_setups.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick, sqlite3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import sqlite3
db=$dir/r.db
"$cli" run --db "$db" -q --dataset synthetic-regression --model linear --synthetic-samples 128 \
  --epochs 1 --label "mine 2x16" --num-processes 2 --per-device-batch-size 16 >/dev/null
saved() { sqlite3 "file:$db?mode=ro" "SELECT count(*) FROM window_setups" 2>/dev/null || echo 0; }
# until_row REGEX SECONDS: waits for a map line matching REGEX (maps come with each change).
until_row() {
  local i
  for ((i = 0; i < $2 * 5; i++)); do
    [ -n "$(find_in_map "$1")" ] && return 0
    sleep 0.2
  done
  return 1
}

start_window --db "$db"
until_row '^parity-trace: row runsView 0 "1 ; mine 2x16 ; finished' 30 ||
  { map | grep -E 'runsView|setupsList'; fail "run 1 is not listed"; }
# What must not happen: a write of the setups within 2 s of the open (it would come at once).
sleep 2
[ "$(saved)" -eq 0 ] || fail "opening a database without saved setups wrote the window's into it"
until_row '^parity-trace: row setupsList 2 ' 10 || { map | grep setupsList; fail "no presets shown"; }
shot kept-1-presets >/dev/null

read -r x y < <(centre "$(find_in_map '^parity-trace: row runsView 0 "1 ; mine 2x16')")
m=$(mark)
xdotool mousemove --sync "$x" "$y" click 1 click 3
wait_line "$m" '^parity-trace: menu ' 10 >/dev/null || fail "no context menu on run 1"
sleep 0.3 # for the picture only: the menu painted
shot kept-2-context-menu >/dev/null
xdotool key e
until_row '^parity-trace: row setupsList 3 "mine 2x16"' 10 ||
  { map | grep setupsList; fail "New setup from run #1 added no setup 'mine 2x16'"; }
for ((i = 0; i < 50; i++)); do
  [ "$(saved)" -eq 1 ] && break
  sleep 0.2
done
[ "$(saved)" -eq 1 ] || fail "the new setup was not saved with the database"
sqlite3 "file:$db?mode=ro" "SELECT json FROM window_setups" | grep -q '"label":"mine 2x16"' ||
  fail "the saved setups lack 'mine 2x16'"
shot kept-3-new-setup >/dev/null

# Killed (no close event, no settings saved) and the settings removed: only the database keeps it.
kill "$pid"
wait "$pid" 2>/dev/null || true
pid=""
rm -rf "$XDG_CONFIG_HOME"
start_window --db "$db"
until_row '^parity-trace: row setupsList 3 "mine 2x16"' 30 ||
  { map | grep setupsList; fail "the setups did not come back with the database"; }
click_on '^parity-trace: tab "Experiment '
until_row '^parity-trace: widget setupsDock QComboBox "[^"]*" .* value="[Ss]ynthetic' 10 ||
  { map | grep -E 'setupsDock QComboBox'; fail "the Experiment tab does not show run 1's data"; }
shot kept-4-reopened >/dev/null
echo "PASS: New setup from run #1 added 'mine 2x16' with its synthetic data; after a kill without settings the database brought the setups and the experiment back; opening wrote nothing"
