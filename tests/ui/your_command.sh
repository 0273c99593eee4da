#!/usr/bin/env bash
# As a person would, under Xvfb: on the Experiment tab, Trains: "your command", a template typed
# into Command, the preview of what each setup runs, Launch; the first run's curve grows from the
# command's PARITY lines, the Runs table says "your command", and Stop all ends the runs and the
# command's processes. Screenshots in OUT.
# Usage: your_command.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick, python3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import python3
db=$dir/r.db
cat >"$dir/train.py" <<'PY'
import argparse, json, math, time
p = argparse.ArgumentParser()
p.add_argument("--bs", type=int); p.add_argument("--w", type=int); p.add_argument("--lr", type=float)
a = p.parse_args()
for step in range(1, 61):
    loss = 2.0 * math.exp(-a.lr * step * a.bs * a.w / 2048)
    print("PARITY " + json.dumps({"step": step, "loss": loss, "lr": a.lr}), flush=True)
    time.sleep(0.15)
PY

start_window --db "$db"
m=$(mark)
click_on '^parity-trace: tab "Experiment \(shared\)" '
wait_map "$m" 5 || true
mapped=$(xdotool search --onlyvisible --pid "$pid" 2>/dev/null | wc -l)
click_on '^parity-trace: widget setupsDock QComboBox "Trains" '
# The click opens the box's list, a window of its own: the keys are for it once it is mapped.
popup_open() { [ "$(xdotool search --onlyvisible --pid "$pid" 2>/dev/null | wc -l)" -gt "$mapped" ]; }
until_ok 10 popup_open || fail "a click on Trains opened no list"
xdotool key Down Return
until_ok 10 eval '! popup_open' || fail "Return left the Trains list open"
command_shown() { [ -n "$(find_in_map '^parity-trace: widget setupsDock QLineEdit "Command" ')" ]; }
until_ok 10 command_shown || { map | grep setupsDock; fail "choosing your command showed no Command field"; }
m=$(mark)
click_on '^parity-trace: widget setupsDock QLineEdit "Command" '
wait_map "$m" 5 || true
xdotool type --delay 2 "python3 $dir/train.py --bs {per_device_batch_size} --w {num_processes} --lr {learning_rate}"
m=$(mark)
xdotool key Tab
wait_map "$m" 5 || true
preview=$(find_in_map '^parity-trace: label setupsDock commandPreview ')
[[ $preview == *"1x256: python3 $dir/train.py --bs 256 --w 1 --lr 0.05"* ]] ||
  { map | grep -E 'setupsDock (QComboBox|QLineEdit|label)' | head -20; fail "no preview of 1x256's command: $preview"; }
[[ $preview == *"2x128: python3 $dir/train.py --bs 128 --w 2"* ]] || fail "no preview of 2x128's command: $preview"
shot command-1-preview >/dev/null

m=$(mark)
xdotool key --clearmodifiers ctrl+Return
for ((i = 0; i < 60; i++)); do
  n=$("$cli" list --db "$db" 2>/dev/null | awk '$3 == "running" && $4 ~ /^[1-9][0-9]*\// {print}' | wc -l)
  [ "$n" -ge 1 ] && break
  sleep 0.5
done
[ "$n" -ge 1 ] || { "$cli" list --db "$db"; fail "no command run is running with steps"; }
first=$("$cli" list --db "$db" | awk '$1 == 1 {print $4}')
grown() {
  second=$("$cli" list --db "$db" | awk '$1 == 1 {print $4}')
  [ "${second%%/*}" -gt "${first%%/*}" ]
}
until_ok 20 grown || fail "run 1's steps did not grow ($first then $second)"
xdotool windowfocus --sync "$win" 2>/dev/null || true
m=$(mark)
xdotool key --clearmodifiers ctrl+1
wait_map "$m" 5 || true
row=$(find_in_map '^parity-trace: row runsView 0 ')
[[ $row == *"your command"* ]] || fail "the Runs table does not say 'your command': $row"
drawn=$(find_in_map '^parity-trace: label [a-z]+ [a-zA-Z]* *[0-9-]+,[0-9-]+,[0-9]+,[0-9]+ "[1-9][0-9]* run\(s\) drawn')
shot command-2-running >/dev/null

xdotool key --clearmodifiers ctrl+shift+period
for ((i = 0; i < 60; i++)); do
  active=$("$cli" list --db "$db" | awk '$3 == "running" || $3 == "queued"' | wc -l)
  [ "$active" -eq 0 ] && break
  sleep 0.5
done
[ "$active" -eq 0 ] || { "$cli" list --db "$db"; fail "Stop all left runs going"; }
"$cli" list --db "$db"
"$cli" show --db "$db" 1 | grep -q 'origin: command from python3' || fail "run 1 is not a command run"
until_ok 10 eval '! pgrep -f "$dir/[t]rain.py" >/dev/null' || fail "the command's processes outlived Stop"
shot command-3-stopped >/dev/null
echo "PASS: your command typed, previewed for each setup, launched (run 1 grew from $first to $second), shown as 'your command', stopped with no process left"
