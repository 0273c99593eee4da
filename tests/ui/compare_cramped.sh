#!/usr/bin/env bash
# As a person would, under Xvfb (#24 item 15): a reference and 17 runs with other lrs, all
# drawn, compared in the Compare tab at the window's default size. The pane opens with room
# to read the verdicts (6 whole rows or more, where 3 showed), the details (8 lines, where 4 did) and the Why column
# beside them, and the Δ plot's legend has one "parts at" key (the marks are labelled #N on the
# plot) instead of 17 "#N parts at 256" entries. Screenshots in OUT.
# Usage: compare_cramped.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick, sqlite3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import sqlite3
db=$dir/r.db
train() {
  "$cli" run --db "$db" -q --dataset synthetic-regression --model linear --synthetic-samples 256 \
    --epochs 1 --per-device-batch-size 16 --label "$1" --lr "$2" >/dev/null
}
train ref 0.05
for i in $(seq 1 17); do train "lr $i" "0.$((10 + 5 * i))"; done
# The user drew every run (the window draws the newest 8 of a database it has no choice for).
sqlite3 "$db" "INSERT INTO run_shown (run_id, shown) SELECT id, 1 FROM runs"

start_window --db "$db"
# until_in_map REGEX SECONDS: a map line matching REGEX (maps come with each change).
until_in_map() {
  local i
  for ((i = 0; i < $2 * 5; i++)); do
    [ -n "$(find_in_map "$1")" ] && return 0
    sleep 0.2
  done
  return 1
}
until_in_map '^parity-trace: label \S+ chartStatus [0-9,]+ "18 run\(s\) drawn' 30 ||
  { map | grep chartStatus; fail "the 18 runs are not all drawn"; }
m=$(mark)
xdotool key --clearmodifiers ctrl+3
wait_map "$m" 5 || true
until_in_map '^parity-trace: widget compareDock QComboBox "[^"]*" .* value="#1  ref"' 10 ||
  { map | grep compareDock; fail "the reference is not run 1"; }
click_on '^parity-trace: widget compareDock QPushButton "Compare" '
until_in_map '^parity-trace: row verdictTable 1 ' 30 || { map | grep compareDock; fail "no verdicts"; }
# Laid out: the map after the verdicts lists the rows in sight and the Δ legend's parting key.
laid_out() {
  [ "$(map | grep -c '^parity-trace: row verdictTable ')" -ge 7 ] &&
    find_in_map '^parity-trace: label compareDock deltaLegend ' | grep -qE 'parts(nbsp;| )at'
}
until_ok 30 laid_out || true
xdotool mousemove 0 0
m=$(mark)
wait_map "$m" 3 || true
shot compare-1-default >/dev/null

rows=$(map | grep -c '^parity-trace: row verdictTable ' || true)
echo "verdict rows in sight (whole or in part): $rows"
[ "$rows" -ge 7 ] || fail "only $rows verdict rows are in sight at the default size"
# The details pane sits beside the config diff, as high as it (the map lists tables, not text).
read -r _ _ _ dh < <(rect "$(find_in_map '^parity-trace: widget compareDock QTableWidget "configDiffTable"')")
echo "details height: $dh"
[ "$dh" -ge 140 ] || fail "the details pane is $dh px high"
legend=$(find_in_map '^parity-trace: label compareDock deltaLegend ')
echo "$legend"
# (the trace prints the rich text with its entities' '&' dropped: "parts&nbsp;at" as "partsnbsp;at")
n=$({ echo "$legend" | grep -oE 'parts(nbsp;| )at' || true; } | wc -l)
[ "$n" -eq 1 ] || fail "the Δ legend has $n 'parts at' entries"
echo "$legend" | grep -qE '#[0-9]+(nbsp;| )parts' && fail "the Δ legend still names each parting mark"
echo "PASS: 17 different runs compared: $rows verdict rows and ${dh} px of details in sight, one 'parts at' key in the Δ legend"
