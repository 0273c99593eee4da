#!/usr/bin/env bash
# As a person would, under Xvfb: a 1x64 reference and a 2x64 run with the lr scaled linearly
# (trained by parity-cli on synthetic regression), the Compare tab, Compare, the 2x64 row, then
# Make it equivalent. The button's tooltip names the remedy before the click; after it the
# Setups panel holds "fix #2", the verdict table's Proof column follows the remedy's run from
# queued to "equivalent now (#3)", the status beside the buttons says so, and the database holds
# that one run (cf #2 all), finished. Waits on the window's PARITY_TRACE_UI lines, never on time.
# Screenshots in OUT.
# Usage: make_equivalent.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import
db=$dir/r.db
run() {
  "$cli" run --db "$db" -q --dataset synthetic-regression --model linear --synthetic-samples 512 \
    --epochs 2 --optimizer sgd --lr 0.05 "$@" >/dev/null
}
run --label 1x64 --num-processes 1 --per-device-batch-size 64
run --label '2x64 linear' --num-processes 2 --per-device-batch-size 64 --lr-scaling linear

start_window --db "$db"
m=$(mark)
click_on '^parity-trace: tab "Compare" '
wait_map "$m" 5 || true
m=$(mark)
click_on '^parity-trace: widget compareDock QPushButton "Compare" '
wait_line "$m" '^parity-trace: row verdictTable 1 "#2  2x64 linear ; different ' 30 >/dev/null ||
  { map; fail "no 'different' verdict for the 2x64 run"; }
wait_map "$m" 5 || true
shot make-equivalent-1-compared >/dev/null

# The 2x64 row selected, the button's tooltip says what it would train once the remedy is read
# (a hover shows it; "Reading the remedy" before).
click_on '^parity-trace: row verdictTable 1 "#2  2x64 linear ;'
button='^parity-trace: widget compareDock QPushButton "Make it equivalent" '
read -r bx by < <(centre "$(find_in_map "$button")")
tip=""
for ((i = 0; i < 20; i++)); do
  [ -z "$tip" ] || break
  m=$(mark)
  xdotool mousemove --sync 5 5 mousemove --sync "$bx" "$by"
  tip=$(wait_line "$m" '^parity-trace: tooltip "Make #2 equivalent \(parity-cli fix\)' 3 || true)
done
[ -n "$tip" ] || fail "Make it equivalent never offered the remedy of #2: $(grep -a 'tooltip' "$trace" | tail -n1)"
[[ $tip == *"2 processes x 32 per device"* ]] || fail "the tooltip does not name the remedy: $tip"
shot make-equivalent-2-tooltip >/dev/null

m=$(mark)
xdotool click 1
# The setup is added, and the Proof column shows the remedy's run, then its verdict.
wait_line "$m" '^parity-trace: row .* "fix #2' 30 >/dev/null ||
  { map; fail "no setup 'fix #2' in the Setups panel"; }
wait_line "$m" '^parity-trace: row verdictTable 1 "#2  2x64 linear ;.* ; fix (queued|running) \(#3\)' 30 >/dev/null ||
  wait_line "$m" '^parity-trace: row verdictTable 1 .*equivalent now \(#3\)' 1 >/dev/null ||
  { map; fail "the Proof column never showed the remedy's run #3"; }
shot make-equivalent-3-queued >/dev/null
row=$(wait_line "$m" '^parity-trace: row verdictTable 1 "#2  2x64 linear ;.* ; (equivalent now|not equivalent|fix failed|fix stopped) \(#3\)' 120) ||
  { map; "$cli" list --db "$db"; fail "the remedy's verdict never reached the Proof column"; }
m=$(mark)
wait_map "$m" 3 || true
shot make-equivalent-4-equivalent-now >/dev/null
[[ $row == *"equivalent now (#3)"* ]] || fail "the remedy did not make #2 equivalent: $row"
status=$(find_in_map '^parity-trace: label compareDock compareStatus ')
[[ $status == *"Remedy of #2: equivalent now (#3)"* ]] || fail "the status does not say it: $status"

# The details pane (left of the config diff) scrolled to its end: the remedy and its run.
diff=$(find_in_map '^parity-trace: widget compareDock QTableWidget "configDiffTable" ')
[ -n "$diff" ] || { map; fail "no config diff table in the map"; }
read -r dx dy _ dh < <(rect "$diff")
xdotool mousemove --sync $((dx / 2)) $((dy + dh / 2)) click --repeat 25 5
shot make-equivalent-5-details >/dev/null

# One remedy run, recorded as fix records it.
list=$("$cli" list --db "$db")
[ "$(grep -c 'cf #2 all' <<<"$list")" -eq 1 ] || { echo "$list"; fail "not exactly one remedy run"; }
grep -E '^ *3 .*cf #2 all.*finished' <<<"$list" >/dev/null || { echo "$list"; fail "run 3 is not the finished remedy"; }
echo "row: $row"
echo "PASS: Make it equivalent added 'fix #2', trained run 3 (cf #2 all) and the Proof column says equivalent now (#3)"
