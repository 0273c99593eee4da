#!/usr/bin/env bash
# As a person would, under Xvfb: three runs (1x16, 2x16 and 1x32, the lr unscaled), the window at
# 1100x800, the Compare tab, Compare, then Prove on one different run and Prove on the other. The
# window keeps its width after each Prove (the status line beside Prove used to set the dock's
# minimum width: 1500 -> 1538 -> 2345 px), the status stays inside the window, and once every
# counterfactual has ended the status says how the proofs ended, not "queued".
# Screenshots in OUT.
# Usage: prove_status.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import
db=$dir/r.db
run() {
  "$cli" run --db "$db" -q --dataset synthetic-regression --model linear --synthetic-samples 256 \
    --epochs 2 --optimizer sgd --lr 0.05 "$@" >/dev/null
}
run --label ref --num-processes 1 --per-device-batch-size 16
run --label two --num-processes 2 --per-device-batch-size 16
run --label wide --num-processes 1 --per-device-batch-size 32

# width: the window's width in the last map.
width() { map | sed -n 1p | grep -oE '[0-9-]+,[0-9-]+,[0-9]+,[0-9]+' | cut -d, -f3; }
# status_line: the Compare status label's line in the last map.
status_line() { find_in_map '^parity-trace: label compareDock compareStatus '; }
# status_inside: the status label ends inside the window.
status_inside() {
  local line x w
  line=$(status_line)
  [ -n "$line" ] || { map; fail "no Compare status in the map ($1)"; }
  read -r x _ w _ < <(rect "$line")
  [ $((x + w)) -le "$2" ] || fail "$1: the status ends at x=$((x + w)), the window at $2: $line"
}
# prove ROW_LABEL: selects the verdict row of that run and presses Prove.
prove() {
  local m
  m=$(mark)
  # (X delivers the row's click before the button's: the row is selected when Prove comes)
  click_on "^parity-trace: row verdictTable [0-9]+ \"#[0-9]+  $1 ;"
  click_on '^parity-trace: widget compareDock QPushButton "Prove" '
  wait_line "$m" '^parity-trace: label compareDock compareStatus .*Proving' 30 >/dev/null ||
    { map; fail "Prove on $1 queued nothing that the status said"; }
  m=$(mark)
  wait_map "$m" 5 || true
}

start_window --db "$db"
resize_window 1100 800
m=$(mark)
click_on '^parity-trace: tab "Compare" '
wait_map "$m" 5 || true
m=$(mark)
click_on '^parity-trace: widget compareDock QPushButton "Compare" '
wait_line "$m" '^parity-trace: row verdictTable 2 ' 30 >/dev/null || { map; fail "no verdicts"; }
wait_map "$m" 5 || true
shot prove-1-compared >/dev/null

prove two
w1=$(width)
shot prove-2-first-prove >/dev/null
[ "$w1" -eq 1100 ] || fail "the window is $w1 px wide after the first Prove (was 1100)"
status_inside "after the first Prove" 1100
prove wide
w2=$(width)
shot prove-3-second-prove >/dev/null
[ "$w2" -eq 1100 ] || fail "the window is $w2 px wide after the second Prove (was 1100)"
status_inside "after the second Prove" 1100

# Every counterfactual ends (3 for 'two', 2 or 3 for 'wide'); then the status says how.
for ((i = 0; i < 240; i++)); do
  line=$(status_line)
  if [[ $line != *queued* && $line != *running* && $line == *confirmed* ]]; then break; fi
  sleep 1
  # A map comes with every verdict table refill; ask for one now and then anyway.
  xdotool mousemove 5 5 mousemove 600 400
done
line=$(status_line)
shot prove-4-proofs-ended >/dev/null
[[ $line != *queued* && $line != *running* ]] ||
  fail "the proofs ended but the status still says: $line"
[[ $line == *confirmed* ]] || fail "the status does not say how the proofs ended: $line"
status_inside "after the proofs ended" 1100
echo "status: $line"
echo "PASS: two Proves keep the window at 1100 px; the status ends in the window and follows the proofs to their end"
