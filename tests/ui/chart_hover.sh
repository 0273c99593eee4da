#!/usr/bin/env bash
# As a person would, under Xvfb: open the dashboard on three runs (1x64, 2x32, 2x64), move the
# mouse over the loss chart at two places and read the tooltip the window shows there: a line per
# run with its step, samples, loss and lr at the cursor, which must be the values parity-cli
# exports for that step, at the step nearest the cursor. Screenshots (the tooltip on screen) in OUT.
# Usage: chart_hover.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import python3
db=$dir/r.db
common=(--db "$db" -q --dataset synthetic-regression --model linear --synthetic-samples 2048
        --epochs 1 --lr 0.05 --scheduler linear)
run() { "$cli" run "${common[@]}" "$@" >/dev/null 2>"$dir/cli.log" || { cat "$dir/cli.log"; exit 1; }; }
run --label 1x64 --num-processes 1 --per-device-batch-size 64
run --label 2x32 --num-processes 2 --per-device-batch-size 32
run --label 2x64 --num-processes 2 --per-device-batch-size 64
"$cli" export --db "$db" --out "$dir/curves.csv" --no-ranks >/dev/null

start_window --db "$db"
view=$(find_in_map 'widget central [^ ]*ChartView "lossChartView" ')
[ -n "$view" ] || { map; fail "no chart view in the window"; }
read -r vx vy vw vh < <(rect "$view")

# hover FRACTION NAME: the mouse at FRACTION of the plot's width, mid-height; the tooltip's text.
hover() {
  local x=$((vx + vw * $1 / 100)) y=$((vy + vh / 2)) m tip
  m=$(mark)
  # Two moves: Qt sees a motion inside the view, as a hand moving over it gives.
  xdotool mousemove --sync $((x - 7)) $((y - 3))
  xdotool mousemove --sync "$x" "$y"
  tip=$(wait_line "$m" '^parity-trace: tooltip ' 10) || fail "no tooltip at $1 % of the chart"
  sleep 0.5 # for the picture only: the tooltip painted
  shot "hover-$2" >/dev/null
  echo "$tip"
}

# check TIP: one line per run, each the exported values of the step nearest the cursor.
check() {
  local tip=$1 header at label step samples loss lr row n=0
  tip=${tip#parity-trace: tooltip \"}
  tip=${tip%\"}
  IFS='|' read -r -a lines <<<"${tip// | /|}"
  header=${lines[0]}
  [[ $header =~ ^[Ss]amples\ seen\ ([0-9]+)$ ]] || fail "the tooltip's first line is '$header'"
  at=${BASH_REMATCH[1]}
  for line in "${lines[@]:1}"; do
    [[ $line =~ ^(.+):\ step\ ([0-9]+)\ ·\ ([0-9]+)\ samples\ ·\ loss\ ([^ ]+)\ ·\ lr\ ([^ ]+)$ ]] ||
      fail "a tooltip line reads '$line'"
    label=${BASH_REMATCH[1]} step=${BASH_REMATCH[2]} samples=${BASH_REMATCH[3]}
    loss=${BASH_REMATCH[4]} lr=${BASH_REMATCH[5]}
    label=${label%% =*}  # "2x32 = #1 1x64": drawn over the first run
    row=$(awk -F, -v l="$label" -v s="$step" '$2 == l && $3 == s {print; exit}' "$dir/curves.csv")
    [ -n "$row" ] || fail "no exported step $step of $label"
    python3 - "$row" "$samples" "$loss" "$lr" "$at" "$label" <<'EOF' || exit 1
import sys
row, samples, loss, lr, at, label = sys.argv[1].split(","), int(sys.argv[2]), float(sys.argv[3]), \
    float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
# run_id,label,step,epoch,samples,rank,loss,lr,time_s
want_samples, want_loss, want_lr = int(row[4]), float(row[6]), float(row[7])
per_step = 64 if label in ("1x64", "2x32") else 128
problems = []
if samples != want_samples:
    problems.append(f"samples {samples}, exported {want_samples}")
if abs(loss - want_loss) > 1e-4 * abs(want_loss) + 1e-12:
    problems.append(f"loss {loss}, exported {want_loss}")
if abs(lr - want_lr) > 1e-3 * abs(want_lr) + 1e-12:
    problems.append(f"lr {lr}, exported {want_lr}")
if abs(samples - at) > per_step / 2 + 1 and samples < 2048:
    problems.append(f"step at {samples} samples is not the nearest to the cursor's {at}")
if problems:
    print(f"FAIL: {label}: " + "; ".join(problems))
    sys.exit(1)
EOF
    n=$((n + 1))
    echo "  $line" >&2
  done
  [ "$n" -eq 3 ] || fail "the tooltip lists $n runs, not 3: $tip"
  echo "$at"
}

echo "at 60 % of the chart:"
m=$(mark)
a=$(hover 60 1-at-60-percent)
first=$(check "$a")
# The mouse at rest: the values stay until it moves (Qt's tooltip event, which reaches the
# viewport a moment after the mouse stops, used to hide them: ChartView::viewportEvent).
if hidden=$(wait_line "$m" '^parity-trace: tooltip-hidden ' 3); then
  shot hover-3-at-rest-tooltip-gone >/dev/null
  fail "the hover values went away while the mouse rested: ${hidden#parity-trace: }"
fi
shot hover-3-at-rest >/dev/null
echo "at 30 % of the chart:"
b=$(hover 30 2-at-30-percent)
second=$(check "$b")
[ "$second" -lt "$first" ] || fail "moving left the tooltip went from $first to $second samples"
echo "PASS: hovering the chart lists every run's step, samples, loss and lr at the cursor"
