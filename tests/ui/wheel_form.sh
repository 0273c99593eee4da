#!/usr/bin/env bash
# As a person would, under Xvfb: the Experiment tab, the mouse over its Optimizer menu and the
# wheel turned ten notches down, then over the chart's Smoothing box. No setting changes (the
# wheel used to switch Optimizer sgd -> adamw and Loss normalisation per-batch -> global while
# the form was scrolled) and the form scrolls instead. Once clicked, the menu takes the wheel.
# Screenshots in OUT.
# Usage: wheel_form.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import

# values: every box's name and value in the last map, one a line.
values() { map | grep -oE '^parity-trace: widget \S+ Q\S+ "[^"]*" .* value="[^"]*"' |
  sed -E 's/^parity-trace: widget (\S+) \S+ ("[^"]*") \S+ hint=[0-9]+ (value=.*)$/\1 \2 \3/'; }
# remap: a fresh map (the window resized by a pixel and back).
remap() { resize_window 1400 901; resize_window 1400 900; }
# box NAME: the map line of the Setups dock's box NAME.
box() { find_in_map "^parity-trace: widget setupsDock Q(ComboBox|DoubleSpinBox|SpinBox) \"$1\" "; }
# wheel X Y N: N notches down with the mouse at X,Y.
wheel() { xdotool mousemove --sync "$1" "$2"; for ((k = 0; k < $3; k++)); do xdotool click 5; sleep 0.05; done; }

start_window
m=$(mark)
click_on '^parity-trace: tab "Experiment \(shared\)" '
wait_map "$m" 5 || true
remap
line=$(box Optimizer)
[ -n "$line" ] || { map; fail "no Optimizer menu on the Experiment tab"; }
before=$(values)
read -r x y < <(centre "$line")
shot wheel-1-experiment >/dev/null
# (the wheel reaches the window before remap's resize: the map after it has its effect)
wheel "$x" "$y" 10
remap
after=$(values)
shot wheel-2-after-ten-notches >/dev/null
changed=$(diff <(echo "$before") <(echo "$after") | grep '^>' || true)
[ -z "$changed" ] || fail "the wheel over the form changed settings: $changed"
line2=$(box Optimizer)
read -r _ y2 < <(centre "$line2")
# The form is taller than its dock at 1400x900: it scrolled (the menu moved up or out of sight).
[ -z "$line2" ] || [ "$y2" -lt "$y" ] || fail "the form did not scroll (Optimizer at y=$y, then $y2)"

chart=$(find_in_map '^parity-trace: widget central QDoubleSpinBox "Smoothing" ')
[ -n "$chart" ] || { map; fail "no Smoothing box"; }
read -r sx sy < <(centre "$chart")
wheel "$sx" "$sy" 3
remap
[[ $(find_in_map '^parity-trace: widget central QDoubleSpinBox "Smoothing" ') == *"$(echo "$chart" | grep -oE 'value="[^"]*"')"* ]] ||
  fail "the wheel over the unfocused Smoothing box changed it"

# Clicked (its list opened and closed), the menu has the focus and takes the wheel.
line=$(box Optimizer)
if [ -z "$line" ]; then
  # scrolled out of sight: back to the top.
  read -r fx fy < <(centre "$(box 'Dataset')")
  [ -n "$fx" ] || { xdotool mousemove --sync 200 400; for ((k = 0; k < 20; k++)); do xdotool click 4; done; remap; }
  line=$(box Optimizer)
fi
[ -n "$line" ] || { map; fail "the Optimizer menu is not in sight to click"; }
value=$(echo "$line" | grep -oE 'value="[^"]*"')
read -r x y < <(centre "$line")
mapped=$(xdotool search --onlyvisible --pid "$pid" 2>/dev/null | wc -l)
xdotool mousemove --sync "$x" "$y" click 1
# The click opens the menu's list, a window of its own: Escape is for it once it is mapped.
popup_open() { [ "$(xdotool search --onlyvisible --pid "$pid" 2>/dev/null | wc -l)" -gt "$mapped" ]; }
until_ok 10 popup_open || fail "a click on the Optimizer menu opened no list"
xdotool key --clearmodifiers Escape
until_ok 10 eval '! popup_open' || fail "Escape left the Optimizer menu's list open"
until_ok 10 focused 'QComboBox "Optimizer"' || fail "a click on the Optimizer menu did not focus it"
wheel "$x" "$y" 1
remap
now=$(box Optimizer | grep -oE 'value="[^"]*"')
shot wheel-3-focused-menu-takes-the-wheel >/dev/null
[ "$now" != "$value" ] || fail "the focused Optimizer menu ignored the wheel ($value)"
echo "PASS: ten notches over the form and three over Smoothing changed nothing, the form scrolled; the focused menu went $value -> $now"
