#!/usr/bin/env bash
# As a person would, under Xvfb: Alt+R opens the Runs menu (it used to focus "Per-rank", whose
# mnemonic was R too), Alt+F, Alt+V and Alt+H their menus; Alt+K and Alt+G reach Per-rank and
# Log y; Ctrl+3 puts the focus in the Compare panel, Ctrl+1 back in the Runs panel.
# Screenshots in OUT.
# Usage: mnemonics.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import

start_window
# A key pressed while the window still settles its docks can be lost: each is pressed up to three
# times (Escape twice in between: the menu, then the menu bar), waiting for its menu each time.
for pair in r:Runs f:File v:View h:Help; do
  key=${pair%%:*} menu=${pair#*:}
  for ((k = 0; k < 3; k++)); do
    m=$(mark)
    xdotool key --clearmodifiers "alt+$key"
    wait_line "$m" "^parity-trace: menu \"$menu\"" 5 >/dev/null && break
    xdotool key Escape key Escape
  done
  [ "$k" -lt 3 ] ||
    fail "Alt+${key^^} did not open the $menu menu: $(tail -n +"$((m + 1))" "$trace" | grep -m3 -E 'focus|menu' || true)"
  [ "$menu" = Runs ] && shot mnemonics-1-alt-r-runs-menu >/dev/null
  xdotool key Escape key Escape
done
for pair in k:Per-rank g:'Log y'; do
  key=${pair%%:*} name=${pair#*:}
  m=$(mark)
  xdotool key --clearmodifiers "alt+$key"
  line=$(wait_line "$m" '^parity-trace: focus ' 10) || fail "Alt+${key^^} moved the focus nowhere"
  [[ $line == *"QCheckBox \"$name\""* ]] || fail "Alt+${key^^} focused: $line"
done
m=$(mark)
xdotool key --clearmodifiers ctrl+3
line=$(wait_line "$m" '^parity-trace: focus compareDock ' 10) || fail "Ctrl+3 did not focus the Compare panel"
shot mnemonics-2-ctrl-3-compare >/dev/null
m=$(mark)
xdotool key --clearmodifiers ctrl+1
wait_line "$m" '^parity-trace: focus runsDock ' 10 >/dev/null || fail "Ctrl+1 did not focus the Runs panel"
echo "PASS: Alt+R/F/V/H open their menus, Alt+K and Alt+G reach Per-rank and Log y, Ctrl+3 and Ctrl+1 the Compare and Runs panels"
