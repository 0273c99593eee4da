#!/usr/bin/env bash
# As a person would, under Xvfb: File > Import runs… (Ctrl+Shift+I) on Accelerate's eight
# TensorBoard runs and a CSV table a training job is still writing. The dialog lists the runs
# and their facts before anything is written; Import with Follow on shows the progress in the
# status bar, then "Following 9 runs"; the runs appear in the Runs table marked "imported: …";
# rows appended to the CSV reach the table while following; Stop ends the follower. Compare
# judges the imported runs; Runs > Edit facts… gives the CSV run its processes and batch, which
# parity-cli show then reads as known. Screenshots in OUT.
# Usage: import_runs.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick, the
# accelerate-tensorboard fixtures: tests/fixtures, or $PARITY_FIXTURES_DIR)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import
fixtures=${PARITY_FIXTURES_DIR:-$here/../fixtures}/accelerate-tensorboard
[ -d "$fixtures" ] || fail "no fixtures at $fixtures"
db=$dir/r.db
mkdir -p "$dir/live"
printf 'step,loss\n1,2.0\n2,1.5\n3,1.2\n4,1.0\n5,0.9\n' >"$dir/live/steps.csv"

# refresh: a map of the window as it is now (Ctrl+2 then Ctrl+1 move the focus and show the
# Runs tab, which maps it). Without a window manager a closed dialog leaves no window focused.
# The map used is one where the Runs table is back in sight (a tab behind is moved off screen).
refresh() {
  local m i
  xdotool windowfocus --sync "$win" 2>/dev/null || true
  xdotool key --clearmodifiers ctrl+2
  sleep 0.2
  m=$(mark)
  xdotool key --clearmodifiers ctrl+1
  for ((i = 0; i < 20; i++)); do
    wait_map "$m" 5 || true
    [ -n "$(find_in_map '^parity-trace: widget runsDock QTableView "runsView" [0-9]')" ] && return 0
    m=$(mark)
    sleep 0.3
  done
}
# until_in_map REGEX SECONDS: refreshes the map until a line matches REGEX.
until_in_map() {
  local i
  for ((i = 0; i < $2; i++)); do
    [ -n "$(find_in_map "$1")" ] && return 0
    sleep 1
    refresh
  done
  return 1
}

start_window --db "$db"
# A shortcut pressed while the window is still settling its docks can be lost: pressed again.
for ((k = 0; k < 3; k++)); do
  m=$(mark)
  xdotool key --clearmodifiers ctrl+shift+i
  wait_line "$m" '^parity-trace: dialog "Import runs"' 10 >/dev/null && break
done
[ "$k" -lt 3 ] || fail "Ctrl+Shift+I opened no Import dialog"
# Typed once the dialog has the keyboard.
wait_line "$m" '^parity-trace: focus dialog ' 10 >/dev/null || fail "the Import dialog took no focus"
xdotool type --delay 5 "$fixtures;$dir/live/steps.csv"
found=
for ((i = 0; i < 20; i++)); do
  sleep 1
  m=$(mark)
  xdotool key Tab # a focus move maps the dialog
  wait_map "$m" 5 || true
  found=$(find_in_map '^parity-trace: label dialog importStatus .*"9 run\(s\) found')
  [ -n "$found" ] && break
done
[ -n "$found" ] || { map | grep dialog; fail "the dialog did not list 9 runs"; }
m=$(mark)
xdotool key --clearmodifiers alt+f # the checkbox's mnemonic ticks it
wait_line "$m" '^parity-trace: focus dialog QCheckBox "Follow' 5 >/dev/null || true
shot import-1-dialog >/dev/null
# Nothing is written before Import.
[ ! -e "$db" ] || [ "$("$cli" list --db "$db" | grep -c imported || true)" -eq 0 ] ||
  fail "runs were written before Import was pressed"
click_on '^parity-trace: widget dialog QPushButton "Import" '

until_in_map '^parity-trace: label [a-z]+ importLabel .*"Following 9 run' 30 ||
  { map | grep -E 'importLabel|runsView'; fail "the status bar never said it follows 9 runs"; }
until_in_map '^parity-trace: row runsView [0-9]+ ".*; 2x16 ; .*imported: 2x16' 10 ||
  { map | grep runsView; fail "the imported runs are not in the Runs table"; }
rows=$(map | grep -cE '^parity-trace: row runsView [0-9]+ ".*imported: ' || true)
[ "$rows" -ge 8 ] || { map | grep runsView; fail "only $rows imported rows are shown"; }
shot import-2-following >/dev/null

# The training job writes five more steps: they arrive while following.
printf '6,0.8\n7,0.75\n8,0.7\n9,0.66\n10,0.62\n' >>"$dir/live/steps.csv"
until_in_map '^parity-trace: row runsView [0-9]+ ".*steps ; [^;]*; 10 / 10' 20 ||
  { map | grep runsView; fail "the steps appended to the CSV did not arrive while following"; }
csv_id=$("$cli" list --db "$db" | awk '$2 == "steps" {print $1}')
[ -n "$csv_id" ] || { "$cli" list --db "$db"; fail "no run 'steps' in the database"; }

click_on '^parity-trace: widget [a-z]+ QToolButton "Stop" '
for ((i = 0; i < 50; i++)); do
  pgrep -f "parity-cli import --db $db" >/dev/null || break
  sleep 0.2
done
pgrep -f "parity-cli import --db $db" >/dev/null && fail "Stop left the follower running"

# Compare: the verdict on the imported runs.
refresh
m=$(mark)
click_on '^parity-trace: tab "Compare" '
wait_map "$m" 5 || true
m=$(mark)
click_on '^parity-trace: widget compareDock QPushButton "Compare" '
wait_line "$m" '^parity-trace: row verdictTable 2 ' 30 >/dev/null || { map | grep compare; fail "no verdicts on the imported runs"; }
wait_map "$m" 5 || true
map | grep 'row verdictTable' | head -n 10
shot import-3-compared >/dev/null

# Runs > Edit facts… on the CSV run: processes 2, per-device batch 16.
refresh
# (X delivers the click before the keys that follow: the row is selected when Alt+R comes)
click_on "^parity-trace: row runsView [0-9]+ \"$csv_id ; steps ;"
m=$(mark)
xdotool key --clearmodifiers alt+r
wait_line "$m" '^parity-trace: menu "Runs"' 10 >/dev/null || fail "Alt+R did not open the Runs menu"
xdotool key f
wait_line "$m" "^parity-trace: dialog \"Facts of run $csv_id\"" 10 >/dev/null || fail "Edit facts opened no dialog"
wait_line "$m" '^parity-trace: focus dialog QLineEdit "fact--num-processes"' 10 >/dev/null ||
  fail "the facts dialog does not start at Processes"
xdotool type 2
xdotool key Tab
xdotool type 16
shot import-4-facts >/dev/null
xdotool key Return
for ((i = 0; i < 50; i++)); do
  "$cli" show --db "$db" "$csv_id" | grep -qE 'per-device batch +16 +known' && break
  sleep 0.2
done
"$cli" show --db "$db" "$csv_id" | grep -E 'processes +2 +known' ||
  { "$cli" show --db "$db" "$csv_id"; fail "Edit facts did not give run $csv_id 2 processes"; }
until_in_map "^parity-trace: row runsView [0-9]+ \"$csv_id ; steps ; [^;]*; [^;]*; 2×16 " 10 ||
  { map | grep runsView; fail "the Runs table does not show the facts given"; }
shot import-5-facts-given >/dev/null
echo "PASS: Import listed 9 runs before writing, imported and followed them (10 steps after 5 appended), Stop ended it, Compare judged them, Edit facts gave run $csv_id 2x16"
