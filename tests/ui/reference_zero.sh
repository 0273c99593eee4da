#!/usr/bin/env bash
# As a person would, under Xvfb: click the Equivalent batch tab, select the reference batch and
# type 0, then Enter. The panel refuses it inline (a red line beside the box says the tables still
# use 256) and the tables keep their rows; typing 64 clears the line and the tables change.
# Screenshots in OUT.
# Usage: reference_zero.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import

start_window --db "$dir/r.db"
m=$(mark)
click_on '^parity-trace: tab "Equivalent batch" '
wait_map "$m" 10 || fail "clicking the Equivalent batch tab changed nothing"
box=$(find_in_map '^parity-trace: widget equivalentDock QComboBox ')
[ -n "$box" ] || { map; fail "no reference batch box in the Equivalent batch panel"; }
tables() { map | grep -E '^parity-trace: row (referenceBatchView|setupPlanView) ' | cut -d'"' -f2; }
before=$(tables)
[ -n "$before" ] || fail "the equivalent-batch tables show no rows"

# type TEXT: the reference box's text replaced by TEXT, as typed.
type_reference() {
  click_on '^parity-trace: widget equivalentDock QComboBox '
  until_ok 10 focused '^parity-trace: focus equivalentDock QComboBox' ||
    fail "a click on the reference batch did not focus it"
  xdotool key --clearmodifiers ctrl+a
  xdotool type --delay 50 "$1"
  xdotool key --clearmodifiers Return
}

# error: the inline message's text, empty when it is not shown.
error() {
  map | grep -E '^parity-trace: label equivalentDock referenceError ' | cut -d'"' -f2 || true
}

m=$(mark)
type_reference 0
wait_line "$m" '^parity-trace: label equivalentDock referenceError ' 10 >/dev/null ||
  fail "0 brought no inline message"
wait_map "$(mark)" 2 || true
shot reference-1-zero-refused >/dev/null
message=$(error)
echo "inline: $message"
[[ $message == *"at least 1"*"still use 256"* ]] || fail "the inline message reads '$message'"
[ "$(tables)" = "$before" ] || fail "the tables changed for a reference of 0"
dialogs=$(windows)
[ "$dialogs" -eq 1 ] || fail "a reference of 0 opened a dialog"

m=$(mark)
type_reference 64
for ((i = 0; i < 30; i++)); do
  [ -z "$(error)" ] && [ "$(tables)" != "$before" ] && break
  sleep 0.2
done
shot reference-2-sixty-four >/dev/null
[ -z "$(error)" ] || fail "64 left the message '$(error)'"
[ "$(tables)" != "$before" ] || fail "the tables did not follow the reference 64"
echo "PASS: a reference batch of 0 is refused inline and the tables keep 256; 64 is taken"
