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
require_tools xdotool import convert compare python3
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

# PARITY_TRACE_UI (app/gui/ui_trace.h): where the keyboard focus goes, read from its lines.
PARITY_TRACE_UI=1 "$parity" --db "$db" >"$dir/parity.log" 2>&1 &
pid=$!
win=$(timeout 30 xdotool search --all --sync --onlyvisible --pid "$pid" --name "Parity" | head -n1)
[ -n "$win" ] || { echo "FAIL: the window did not appear"; cat "$dir/parity.log"; exit 1; }
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"
xdotool windowmove "$win" 0 0 windowsize --sync "$win" 1400 900

# shot NAME: the window's picture, within 20 s (a frozen window fails here).
shot() {
  local file="$out/chart-$1.png"
  timeout 20 import -window "$win" "$file" || { echo "FAIL: no screenshot ($1)" >&2; exit 1; }
  kill -0 "$pid" || { echo "FAIL: the window exited" >&2; cat "$dir/parity.log" >&2; exit 1; }
  echo "$file"
}
fail() { echo "FAIL: $*" >&2; exit 1; }

# settle NAME CHECK [ARGS]: the screenshot NAME taken again until `CHECK FILE ARGS` holds and the
# picture has stopped changing (the next screenshot is the same to the pixel: a chart drawn in
# stages, a draft first, is compared whole), within 30 s (a busy machine redraws late); its file
# printed, for the caller to read its numbers. CHECK says what it saw on stderr the last time,
# when it never held.
settle() {
  local name=$1 check=$2 file i
  shift 2
  for ((i = 0; i < 60; i++)); do
    file=$(shot "$name")
    if "$check" "$file" "$@" 2>/dev/null; then
      sleep 0.3
      cp "$file" "$dir/settle-previous.png"
      file=$(shot "$name")
      [ "$(compare -metric AE "$dir/settle-previous.png" "$file" null: 2>&1)" = 0 ] &&
        { echo "$file"; return 0; }
    fi
    sleep 0.3
  done
  "$check" "$file" "$@" || true
  fail "$name: not seen within 30 s"
}
# The checks, each on a screenshot FILE.
drawn() { # FILE: run 1's legend entry and its line (more than 100 blue px above the legend)
  local x y
  read -r x y < <($pixels swatch "$1" $blue)
  [ "$x" -ge 0 ] || { echo "no legend entry of run 1 found" >&2; return 1; }
  local n
  n=$($pixels count "$1" $blue "$((x - 20))" "$((y - 6))")
  [ "$n" -gt 100 ] || { echo "run 1's blue line is hardly drawn ($n px)" >&2; return 1; }
}
blue_below() { # FILE LIMIT: fewer than LIMIT blue pixels in the plot
  local n
  n=$($pixels count "$1" $blue "${plot[@]}")
  [ "$n" -lt "$2" ] || { echo "a click on its legend entry left run 1 drawn ($n px, limit $2)" >&2; return 1; }
}
blue_above() { # FILE LIMIT: more than LIMIT blue pixels in the plot
  local n
  n=$($pixels count "$1" $blue "${plot[@]}")
  [ "$n" -gt "$2" ] || { echo "a second click did not bring run 1 back ($n px, limit $2)" >&2; return 1; }
}

first=$(settle 1-drawn drawn)
read -r x y < <($pixels swatch "$first" $blue)
# The plot: above the legend, right of its left edge (not the setups list or the runs table).
plot=("$((x - 20))" "$((y - 6))")
shown=$($pixels count "$first" $blue "${plot[@]}")

xdotool mousemove --window "$win" "$x" "$y" click 1
settle 2-legend-click-hides-run-1 blue_below $((shown / 5)) >/dev/null
xdotool mousemove --window "$win" "$x" "$y" click 1
samples_png=$(settle 3-legend-click-shows-run-1 blue_above $((shown / 2)))

# On samples seen the three runs end together; on optimizer step 2x64 (16 steps) ends at half of
# 1x64's 32. Alt+X is the x-axis menu's mnemonic; Up picks "Optimizer step".
g0=$($pixels maxx "$samples_png" $green "${plot[@]}")
o0=$($pixels maxx "$samples_png" $orange "${plot[@]}")
[ $((g0 * 100)) -gt $((o0 * 95)) ] || fail "on samples seen 2x64 ends at x=$g0, 2x32 at $o0"
xdotool mousemove --window "$win" 700 5
xdotool key --clearmodifiers alt+x
# Alt+X moves the focus to the x-axis box (its label's buddy); Up then picks the step.
axis_focused() { grep -a '^parity-trace: focus ' "$dir/parity.log" | tail -n1 | grep -q 'X axis'; }
until_ok 20 axis_focused || fail "Alt+X did not reach the x-axis box: $(grep -a 'focus ' "$dir/parity.log" | tail -n1)"
xdotool key --clearmodifiers Up
step_axis() { # FILE: 2x64 ends before 80 % of 2x32's x (16 optimizer steps to 32)
  local g1 o1
  g1=$($pixels maxx "$1" $green "${plot[@]}")
  o1=$($pixels maxx "$1" $orange "${plot[@]}")
  [ $((g1 * 100)) -lt $((o1 * 80)) ] || { echo "after the axis change 2x64 ends at x=$g1, 2x32 at $o1" >&2; return 1; }
}
settle 4-x-axis-optimizer-step step_axis >/dev/null

xdotool windowsize --sync "$win" 900 600
small_ok() { # FILE: a 900-wide picture with run 1's and run 3's legend entries
  [ "$(convert "$1" -format %w info:)" -le 900 ] || { echo "not resized yet" >&2; return 1; }
  local x y
  read -r x y < <($pixels swatch "$1" $blue)
  [ "$x" -ge 0 ] || { echo "at 900x600 the legend lost run 1's entry" >&2; return 1; }
  read -r x y < <($pixels swatch "$1" $green)
  [ "$x" -ge 0 ] || { echo "at 900x600 the legend lost run 3's entry" >&2; return 1; }
}
small=$(settle 5-900x600 small_ok)
read -r x y < <($pixels swatch "$small" $blue)
splot=("$((x - 20))" "$((y - 6))")
# Per-rank: the legend gains a "ranks" entry after the last run's (its dash patterns, 0 and 1).
read -r gx gy < <($pixels swatch "$small" $green)
after_last=("$((gx + 80))" 890 "$((gy - 8))" "$((gy + 8))")
before_ranks=$($pixels ink "$small" "${after_last[@]}")
xdotool key --clearmodifiers ctrl+r
ranks_entry() { # FILE: more than 60 dark pixels more after the last run's legend entry
  local n
  n=$($pixels ink "$1" "${after_last[@]}")
  [ "$n" -gt $((before_ranks + 60)) ] ||
    { echo "per-rank lines added no ranks entry to the legend ($before_ranks -> $n dark px)" >&2; return 1; }
}
ranks_png=$(settle 6-900x600-per-rank ranks_entry)
echo "ranks entry: $before_ranks -> $($pixels ink "$ranks_png" "${after_last[@]}") dark px"
# Log y moves every curve: few of the orange pixels stay where they were.
xdotool key --clearmodifiers ctrl+l
moved() { # FILE: under 60 % of the per-rank picture's orange pixels in place
  local kept
  kept=$($pixels kept "$ranks_png" "$1" $orange "${splot[@]}")
  [ "$kept" -lt 60 ] || { echo "log y left ${kept}% of run 2's pixels in place" >&2; return 1; }
}
log_png=$(settle 7-900x600-per-rank-log-y moved)
echo "log y kept $($pixels kept "$ranks_png" "$log_png" $orange "${splot[@]}")% of the orange pixels"
# And back: the linear axis draws the same picture again.
xdotool key --clearmodifiers ctrl+l
returned() { # FILE: over 90 % of the per-rank picture's orange pixels in place again
  local back
  back=$($pixels kept "$ranks_png" "$1" $orange "${splot[@]}")
  [ "$back" -gt 90 ] || { echo "back on a linear axis only ${back}% of the per-rank picture returned" >&2; return 1; }
}
again_png=$(settle 8-900x600-per-rank-linear-again returned)
echo "linear again kept $($pixels kept "$ranks_png" "$again_png" $orange "${splot[@]}")%"
echo "PASS: legend click hides and shows a run, the x-axis change redraws, 900x600 keeps the legend, per-rank adds the ranks, log y redraws and back"
