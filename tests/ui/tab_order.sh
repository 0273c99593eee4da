#!/usr/bin/env bash
# As a person would, under Xvfb: click the setup form's Label field and press Tab until the focus
# comes back to it, reading where each press put the focus (the window's trace). Every press must
# move the focus (a table walked cell by cell keeps it), the Runs panel is left within two presses
# of entering it, and nothing hidden gets the focus: not the Equivalent batch or Compare panels
# tabbed behind Runs, not the Experiment tab behind Setup. Screenshots in OUT.
# Usage: tab_order.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import
db=$dir/r.db
for label in first second; do
  "$cli" run --db "$db" -q --label "$label" --dataset synthetic-regression --model linear \
    --synthetic-samples 256 --per-device-batch-size 32 --epochs 1 >/dev/null
done

start_window --db "$db"
runs_listed() { [ -n "$(find_in_map '^parity-trace: row runsView 1 ')" ]; }
until_ok 20 runs_listed || { map; fail "the runs table lists no second run"; }
m=$(mark)
click_on '^parity-trace: widget setupsDock QLineEdit "Label" '
start=$(wait_line "$m" '^parity-trace: focus ' 10) || fail "a click on the Label field gave it no focus"
[[ $start == *'QLineEdit "Label"'* ]] || fail "the click focused: $start"
shot tab-0-label-field >/dev/null
visible=$(map)

presses=0 in_runs=0 seen_runs=0 cycle=()
while :; do
  m=$(mark)
  xdotool key --clearmodifiers Tab
  presses=$((presses + 1))
  line=$(wait_line "$m" '^parity-trace: focus ' 10) ||
    fail "Tab press $presses left the focus where it was, in ${cycle[-1]:-$start}"
  now=${line#parity-trace: focus }
  cycle+=("$now")
  echo "$presses: $now"
  area=${now%% *}
  case $area in
    equivalentDock | compareDock) fail "Tab walked into the hidden $area: $now" ;;
  esac
  # Visible means listed in the window's map (hidden tabs' and panels' widgets are not); the
  # tab bars are listed by their current tab, which changes with the focus on them.
  name_rect=$(echo "$now" | sed -E 's/^[^ ]+ [^ ]+ "[^"]*" //')
  # A field the focus scrolled into view has moved: the window's map after it says where.
  in_sight() { visible=$(map); grep -qF " $name_rect hint=" <<<"$visible"; }
  if [[ $now != *QTabBar* ]] && ! grep -qF " $name_rect hint=" <<<"$visible"; then
    until_ok 5 in_sight || true
  fi
  if [[ $now != *QTabBar* ]] && ! grep -qF " $name_rect hint=" <<<"$visible"; then
    fail "Tab press $presses focused a widget that is not shown: $now"
  fi
  if [ "$area" = runsDock ]; then
    in_runs=$((in_runs + 1))
    [[ $now == *runsView* ]] && { seen_runs=1; shot tab-1-runs-table >/dev/null; }
    [ "$in_runs" -le 2 ] || fail "Tab stayed in the Runs panel for $in_runs presses"
  else
    [ "$in_runs" -gt 0 ] && [ "$seen_runs" -eq 1 ] && left_runs=$now
    in_runs=0
  fi
  [[ $now == *'QLineEdit "Label"'* && $area == setupsDock ]] && break
  [ "$presses" -lt 60 ] || fail "60 Tab presses did not come back to the Label field"
done
[ "$seen_runs" -eq 1 ] || fail "Tab never reached the runs table"
[ -n "${left_runs:-}" ] || fail "Tab did not leave the runs table"
shot tab-2-back-to-label >/dev/null
echo "PASS: $presses Tab presses go round the window once, the runs table is one stop, hidden panels none"
