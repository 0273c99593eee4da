#!/usr/bin/env bash
# As a person would, under Xvfb: a database of 10 runs opened in the window draws the 8 newest,
# and the chart's status says the other 2 are hidden (they used to be unchecked without notice);
# hovering the status names them. Screenshots in OUT.
# Usage: hidden_runs.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import
db=$dir/r.db
for i in $(seq 1 10); do
  "$cli" run --db "$db" -q --dataset synthetic-regression --model linear --synthetic-samples 128 \
    --epochs 1 --label "run$i" --per-device-batch-size 16 >/dev/null
done

start_window --db "$db"
status=""
for ((i = 0; i < 100; i++)); do
  status=$(find_in_map '^parity-trace: label \S+ chartStatus ')
  echo "$status" | grep -q '"8 run(s) drawn, 2 hidden' && break
  sleep 0.2
  resize_window 1400 901
  resize_window 1400 900
done
echo "$status" | grep -q '"8 run(s) drawn, 2 hidden' || { map; fail "status: $status"; }
shot hidden-1-status >/dev/null
read -r x y < <(centre "$status")
from=$(mark)
xdotool mousemove --sync "$x" "$y"
tip=$(wait_line "$from" '^parity-trace: tooltip ' 10) || fail "no tooltip over the chart's status"
echo "$tip" | grep -q '#1 run1, #2 run2' || fail "the tooltip does not name the hidden runs: $tip"
shot hidden-2-tooltip >/dev/null
echo "PASS: 10 runs, 8 drawn; the status says 2 hidden and its tooltip names #1 and #2"
