#!/usr/bin/env bash
# As a person would, under Xvfb: click a run in the Runs table and press Delete. The confirmation
# (a window named "Delete runs") names the run and its steps and defaults to No, so Enter keeps
# it (parity-cli list still shows it); Delete again and a click on the dialog's Delete button
# removes it (parity-cli list no longer shows it, the other run stays). Screenshots in OUT.
# Usage: delete_confirm.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import
db=$dir/r.db
for label in keeper doomed; do
  "$cli" run --db "$db" -q --label "$label" --dataset synthetic-regression --model linear \
    --synthetic-samples 256 --per-device-batch-size 32 --epochs 1 >/dev/null
done
listed() { "$cli" list --db "$db" | grep -cw "$1" || true; }
[ "$(listed doomed)" -eq 1 ] || fail "parity-cli did not record the run 'doomed'"

start_window --db "$db"
for ((i = 0; i < 50; i++)); do
  find_in_map '^parity-trace: row runsView [0-9]+ "2 ; doomed' >/dev/null && break
  sleep 0.2
done

# press_delete: a click on doomed's row, Delete; the dialog's trace line.
press_delete() {
  local m line
  m=$(mark)
  click_on '^parity-trace: row runsView [0-9]+ "2 ; doomed'
  wait_line "$m" '^parity-trace: focus runsDock .*runsView' 10 >/dev/null ||
    fail "a click on the run did not focus the runs table"
  m=$(mark)
  xdotool key --clearmodifiers Delete
  line=$(wait_line "$m" '^parity-trace: dialog ' 10) || fail "Delete opened no dialog"
  timeout 10 xdotool search --all --sync --onlyvisible --pid "$pid" --name '^Delete runs$' >/dev/null ||
    fail "no window named 'Delete runs'"
  wait_line "$m" '^parity-trace: button "Delete" ' 5 >/dev/null || true
  echo "$line"
}

dialog=$(press_delete)
echo "${dialog#parity-trace: }"
[[ $dialog == 'parity-trace: dialog "Delete runs" '* ]] || fail "the dialog is $dialog"
[[ $dialog == *'#2 doomed'* ]] || fail "the dialog does not name the run: $dialog"
[[ $dialog =~ with\ its\ ([0-9]+)\ recorded\ step ]] || fail "the dialog does not count the steps"
[ "${BASH_REMATCH[1]}" -eq 8 ] || fail "the dialog counts ${BASH_REMATCH[1]} steps, not 8"
[[ $dialog == *'default="No"' ]] || fail "the dialog's default is not No: $dialog"
shot delete-1-dialog >/dev/null
xdotool key --clearmodifiers Return
for ((i = 0; i < 50; i++)); do
  xdotool search --all --onlyvisible --pid "$pid" --name '^Delete runs$' >/dev/null || break
  sleep 0.1
done
xdotool search --all --onlyvisible --pid "$pid" --name '^Delete runs$' >/dev/null &&
  fail "Enter left the dialog open"
# What must not happen: nothing deletes it within 2 s (a deletion takes milliseconds).
sleep 2
[ "$(listed doomed)" -eq 1 ] || fail "Enter (the default) deleted the run"
shot delete-2-after-enter-kept >/dev/null

m=$(mark)
press_delete >/dev/null
button=$(wait_line "$m" '^parity-trace: button "Delete" ' 10) || fail "no Delete button listed"
read -r x y < <(centre "$button")
xdotool mousemove --sync "$x" "$y" click 1
for ((i = 0; i < 100; i++)); do
  [ "$(listed doomed)" -eq 0 ] && break
  sleep 0.1
done
[ "$(listed doomed)" -eq 0 ] || fail "a click on Delete did not delete the run"
[ "$(listed keeper)" -eq 1 ] || fail "the other run went too"
gone_from_table() { ! find_in_map '^parity-trace: row runsView [0-9]+ "2 ; doomed' | grep -q .; }
until_ok 20 gone_from_table || fail "the runs table still lists the deleted run"
shot delete-3-deleted >/dev/null
echo "PASS: Delete names the run and its steps, Enter keeps it, the Delete button deletes it"
