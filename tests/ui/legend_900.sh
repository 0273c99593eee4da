#!/usr/bin/env bash
# As a person would, under Xvfb: the window at 900x600 while 11 runs with long labels arrive
# (parity-cli writing into its database), all drawn. Every legend entry is whole in sight, or
# comes whole into sight when the legend is scrolled with the wheel (at 900x600 the last row
# used to be cut off, 9 of 11 entries visible, with no way to reach the others); the plot keeps
# most of the height. Screenshots in OUT.
# Usage: legend_900.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import
db=$dir/r.db
run() {
  "$cli" run --db "$db" -q --dataset synthetic-regression --model linear --synthetic-samples 256 \
    --epochs 1 --label "$1" --per-device-batch-size "$2" >/dev/null
}
run "run 1: the reference, one process" 16

# whole: the legend entries wholly in sight in the last map, one name a line.
whole() {
  map | grep '^parity-trace: legend ' | while read -r line; do
    name=$(echo "$line" | cut -d' ' -f3)
    r=$(echo "$line" | grep -oE '[0-9-]+,[0-9-]+,[0-9]+,[0-9]+' | sed -n 1p)
    v=$(echo "$line" | grep -oE 'visible=[0-9-]+,[0-9-]+,[0-9]+,[0-9]+' | cut -d= -f2)
    if [ "$r" = "$v" ]; then echo "$name"; fi
  done
}
remap() { resize_window 900 601; resize_window 900 600; }

start_window --db "$db"
resize_window 900 600
for i in $(seq 2 11); do run "run $i: per-device batch $((8 + i)), a long label" $((8 + i)); done
for ((i = 0; i < 100; i++)); do
  [ "$(map | grep -c '^parity-trace: legend legendRun')" -ge 11 ] && break
  sleep 0.3
  remap
done
entries=$(map | grep -c '^parity-trace: legend legendRun' || true)
[ "$entries" -eq 11 ] || { map; fail "$entries legend entries for 11 runs drawn"; }
remap
shot legend-1-900x600-11-runs >/dev/null
seen=$(whole)
first=$(echo "$seen" | grep -c . || true)
echo "in sight at first: $first of 11"
plot=$(find_in_map '^parity-trace: widget central \S*ChartView ')
read -r _ _ _ ph < <(rect "$plot")
[ "$ph" -ge 150 ] || fail "the plot is $ph px high at 900x600: the legend crowds it out"
if [ "$first" -lt 11 ]; then
  # Scroll the legend: the wheel over its first entry.
  read -r lx ly < <(centre "$(find_in_map '^parity-trace: legend legendRun')")
  for step in 1 2 3 4 5 6; do
    # (the wheel reaches the window before remap's resize: the map after it is scrolled)
    xdotool mousemove --sync "$lx" "$ly" click 5
    remap
    seen=$(printf '%s\n%s\n' "$seen" "$(whole)" | sort -u | grep . || true)
  done
  shot legend-2-scrolled >/dev/null
fi
count=$(echo "$seen" | grep -c . || true)
[ "$count" -eq 11 ] || {
  map | grep '^parity-trace: legend '
  fail "only $count of 11 legend entries could be brought whole into sight"
}
echo "PASS: 11 legend entries at 900x600, $first in sight at first, all 11 reachable; the plot $ph px high"
