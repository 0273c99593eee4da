#!/usr/bin/env bash
# As a person would, under Xvfb: open the dashboard on three runs (1x64 and 2x32 draw the same
# curve), click the first run's legend entry to hide it and again to show it, switch the x axis
# from samples seen to optimizer step with the keyboard, then look at the window at 900x600 with
# per-rank lines, log y and back. Each step is checked on a screenshot's pixels (chart_pixels.py) and
# the screenshots are kept in OUT to be looked at.
# Usage: chart_clicks.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick, python3)
set -euo pipefail
parity=$1 cli=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
pixels="python3 $here/chart_pixels.py"
# shellcheck source=require_tools.sh
. "$here/require_tools.sh"
require_tools xdotool import convert python3
mkdir -p "$out"
# shellcheck source=xdotool_common.sh
. "$here/xdotool_common.sh"
db=$dir/r.db
common=(--db "$db" -q --dataset synthetic-regression --model linear --synthetic-samples 2048
        --epochs 1 --lr 0.05)
run() { "$cli" run "${common[@]}" "$@" >/dev/null 2>"$dir/cli.log" || { cat "$dir/cli.log"; exit 1; }; }
run --label 1x64 --num-processes 1 --per-device-batch-size 64
run --label 2x32 --num-processes 2 --per-device-batch-size 32
run --label 2x64 --num-processes 2 --per-device-batch-size 64
# The runs' colours (LossChart::colorFor): 1 blue, 2 orange, 3 green.
blue=1f77b4 orange=ff7f0e green=2ca02c

"$parity" --db "$db" >"$dir/parity.log" 2>&1 &
pid=$!
win=$(timeout 30 xdotool search --sync --onlyvisible --pid "$pid" --name "Parity" | head -n1)
[ -n "$win" ] || { echo "FAIL: the window did not appear"; cat "$dir/parity.log"; exit 1; }
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"
xdotool windowmove "$win" 0 0 windowsize --sync "$win" 1400 900
sleep 3

# shot NAME: the window's picture, within 20 s (a frozen window fails here).
shot() {
  local file="$out/chart-$1.png"
  timeout 20 import -window "$win" "$file" || { echo "FAIL: no screenshot ($1)"; exit 1; }
  kill -0 "$pid" || { echo "FAIL: the window exited"; cat "$dir/parity.log"; exit 1; }
  echo "$file"
}
fail() { echo "FAIL: $*"; exit 1; }

first=$(shot 1-drawn)
read -r x y < <($pixels swatch "$first" $blue)
[ "$x" -ge 0 ] || fail "no legend entry of run 1 found"
# The plot: above the legend, right of its left edge (not the setups list or the runs table).
plot=("$((x - 20))" "$((y - 6))")
shown=$($pixels count "$first" $blue "${plot[@]}")
[ "$shown" -gt 100 ] || fail "run 1's blue line is hardly drawn ($shown px)"

xdotool mousemove --window "$win" "$x" "$y" click 1
sleep 1
hidden=$($pixels count "$(shot 2-legend-click-hides-run-1)" $blue "${plot[@]}")
[ "$hidden" -lt $((shown / 5)) ] || fail "a click on its legend entry left run 1 drawn ($hidden of $shown px)"
xdotool mousemove --window "$win" "$x" "$y" click 1
sleep 1
samples_png=$(shot 3-legend-click-shows-run-1)
again=$($pixels count "$samples_png" $blue "${plot[@]}")
[ "$again" -gt $((shown / 2)) ] || fail "a second click did not bring run 1 back ($again of $shown px)"

# On samples seen the three runs end together; on optimizer step 2x64 (16 steps) ends at half of
# 1x64's 32. Alt+X is the x-axis menu's mnemonic; Up picks "Optimizer step".
g0=$($pixels maxx "$samples_png" $green "${plot[@]}")
o0=$($pixels maxx "$samples_png" $orange "${plot[@]}")
[ $((g0 * 100)) -gt $((o0 * 95)) ] || fail "on samples seen 2x64 ends at x=$g0, 2x32 at $o0"
xdotool mousemove --window "$win" 700 5
xdotool key --clearmodifiers alt+x
sleep 0.5
xdotool key --clearmodifiers Up
sleep 1.5
steps_png=$(shot 4-x-axis-optimizer-step)
g1=$($pixels maxx "$steps_png" $green "${plot[@]}")
o1=$($pixels maxx "$steps_png" $orange "${plot[@]}")
[ $((g1 * 100)) -lt $((o1 * 80)) ] || fail "after the axis change 2x64 ends at x=$g1, 2x32 at $o1"

xdotool windowsize --sync "$win" 900 600
sleep 2
small=$(shot 5-900x600)
read -r x y < <($pixels swatch "$small" $blue)
[ "$x" -ge 0 ] || fail "at 900x600 the legend lost run 1's entry"
splot=("$((x - 20))" "$((y - 6))")
# Per-rank: the legend gains a "ranks" entry after the last run's (its dash patterns, 0 and 1).
read -r gx gy < <($pixels swatch "$small" $green)
[ "$gx" -ge 0 ] || fail "at 900x600 the legend lost run 3's entry"
after_last=("$((gx + 80))" 890 "$((gy - 8))" "$((gy + 8))")
before_ranks=$($pixels ink "$small" "${after_last[@]}")
xdotool key --clearmodifiers ctrl+r
sleep 2
ranks_png=$(shot 6-900x600-per-rank)
with_ranks=$($pixels ink "$ranks_png" "${after_last[@]}")
echo "ranks entry: $before_ranks -> $with_ranks dark px"
[ "$with_ranks" -gt $((before_ranks + 60)) ] ||
  fail "per-rank lines added no ranks entry to the legend ($before_ranks -> $with_ranks dark px)"
# Log y moves every curve: few of the orange pixels stay where they were.
xdotool key --clearmodifiers ctrl+l
sleep 2
log_png=$(shot 7-900x600-per-rank-log-y)
kept=$($pixels kept "$ranks_png" "$log_png" $orange "${splot[@]}")
echo "log y kept ${kept}% of the orange pixels"
[ "$kept" -lt 60 ] || fail "log y left ${kept}% of run 2's pixels in place"
# And back: the linear axis draws the same picture again.
xdotool key --clearmodifiers ctrl+l
sleep 2
back=$($pixels kept "$ranks_png" "$(shot 8-900x600-per-rank-linear-again)" $orange "${splot[@]}")
echo "linear again kept ${back}%"
[ "$back" -gt 90 ] || fail "back on a linear axis only ${back}% of the per-rank picture returned"
echo "PASS: legend click hides and shows a run, the x-axis change redraws, 900x600 keeps the legend, per-rank adds the ranks, log y redraws and back"
