#!/usr/bin/env bash
# As a person would, under Xvfb: the dashboard at 1400x900, then at 900x600, then at 900x600
# with per-rank curves on the optimizer-step axis (Ctrl+R, Alt+X, Up). Each time the chart's
# controls row is read from the window's map: the x-axis menu keeps its width (its guard), and no
# control is narrower than its text, leaves the window or overlaps another (at 900x600 the row
# needs more than the central area has: the status and actions move to a second row).
# Screenshots in OUT.
# Usage: x_axis_900.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import python3
db=$dir/r.db
"$cli" run --db "$db" -q --label "a run with a rather long label" --dataset synthetic-regression \
  --model linear --synthetic-samples 512 --per-device-batch-size 32 --num-processes 2 \
  --epochs 1 >/dev/null

# controls NAME: the chart's controls (the row above the plot) keep their width hint, lie in the
# window and do not overlap; prints the x-axis menu's width.
controls() {
  map | python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
win = [int(v) for v in re.search(r"map-begin (\S+)", lines[0]).group(1).split(",")]
right = win[0] + win[2]
boxes = []
plot_top = None
for line in lines:
    m = re.match(r"parity-trace: widget central (\S+) \"([^\"]*)\" (\S+) hint=(\d+)", line)
    if m and m.group(1).endswith("ChartView"):
        plot_top = int(m.group(3).split(",")[1])
    if not m or m.group(1).endswith(("ChartView", "QTabBar")):
        continue
    x, y, w, h = (int(v) for v in m.group(3).split(","))
    boxes.append((m.group(1), m.group(2), x, y, w, h, int(m.group(4))))
labels = []
for line in lines:
    m = re.match(r"parity-trace: label central \S+ (\S+) \"([^\"]*)\"", line)
    if m:
        x, y, w, h = (int(v) for v in m.group(1).split(","))
        if w > 0:
            labels.append(("QLabel", m.group(2).rstrip(":"), x, y, w, h, w))
# The rows above the plot (one when wide, two when the actions wrap).
top = min(c[3] for c in boxes)
above = plot_top if plot_top is not None else top + 15
controls = [b for b in boxes if b[3] < above]
known = set()  # nothing may give way below its text any more
problems, axis = [], None
for cls, name, x, y, w, h, hint in controls:
    if w < hint and name in known:
        print(f"KNOWN DEFECT: {cls} \"{name}\" is {w} px wide, its text needs {hint}",
              file=sys.stderr)
    elif w < hint:
        problems.append(f"{cls} \"{name}\" is {w} px wide, its text needs {hint}")
    if x + w > right:
        problems.append(f"{cls} \"{name}\" ends at x={x + w}, the window at {right}")
    if name == "X axis":
        axis = w
row = controls + [l for l in labels if l[3] < above]
known_overlaps = set()
for i, a in enumerate(row):
    for b in row[i + 1:]:
        if a[2] < b[2] + b[4] and b[2] < a[2] + a[4] and a[3] < b[3] + b[5] and b[3] < a[3] + a[5]:
            what = f"{a[0]} \"{a[1]}\" and {b[0]} \"{b[1]}\" overlap"
            if (a[1], b[1]) in known_overlaps or (b[1], a[1]) in known_overlaps:
                print("KNOWN DEFECT: " + what, file=sys.stderr)
            else:
                problems.append(what)
print("\n".join(f"  {c[0]} \"{c[1]}\" {c[4]} px (needs {c[6]})" for c in controls), file=sys.stderr)
if axis is None:
    problems.append("no x-axis menu among the chart controls")
if problems:
    print("FAIL: " + sys.argv[1] + ": " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(axis)
' "$1"
}

start_window --db "$db"
# The chart's controls are laid out for the runs once the runs table lists them.
runs_listed() { [ -n "$(find_in_map '^parity-trace: row runsView 0 ')" ]; }
until_ok 20 runs_listed || { map; fail "the runs table lists no run"; }
echo "1400x900:"
wide=$(controls 1400x900)
shot x-axis-1-1400x900 >/dev/null
resize_window 900 600
echo "900x600:"
narrow=$(controls 900x600)
shot x-axis-2-900x600 >/dev/null
[ "$narrow" -eq "$wide" ] || fail "the x-axis menu is $narrow px at 900x600, $wide px at 1400x900"

m=$(mark)
xdotool key --clearmodifiers ctrl+r
xdotool key --clearmodifiers alt+x
wait_line "$m" '^parity-trace: focus central QComboBox "X axis" ' 10 >/dev/null ||
  fail "Alt+X did not reach the x-axis menu at 900x600"
xdotool key --clearmodifiers Up
# The step axis chosen and the chart's controls laid out for it: a fresh map shows the box's value.
on_step() {
  resize_window 900 601
  resize_window 900 600
  find_in_map '^parity-trace: widget central QComboBox "X axis" ' | grep -q 'value="Optimizer step"'
}
until_ok 20 on_step || { map | grep 'X axis'; fail "Up did not choose the optimizer step"; }
echo "900x600, per-rank, optimizer step:"
after=$(controls "900x600 per-rank")
shot x-axis-3-900x600-per-rank-step >/dev/null
[ "$after" -eq "$wide" ] || fail "the x-axis menu is $after px after the axis change"
echo "PASS: the x-axis menu keeps its $wide px at 1400x900 and 900x600 and still works; no chart control is squeezed or overlapped"
