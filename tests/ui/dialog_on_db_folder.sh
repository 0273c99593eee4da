#!/usr/bin/env bash
# As a person would, under Xvfb: open the dashboard on DIR/r.db, press Ctrl+Shift+P (save chart),
# type DIR/ into the dialog so it lists the database's own files, cancel, then let parity-cli open
# and close the same database. The window must still hold its WAL: no descriptor of it may point at
# a deleted r.db-wal or r.db-shm (issue 12). Screenshots land in OUT.
# Usage: dialog_on_db_folder.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool; import optional)
set -euo pipefail
parity=$1 cli=$2 out=$3
# shellcheck source=require_tools.sh
. "$(cd "$(dirname "$0")" && pwd)/require_tools.sh"
require_tools xdotool
mkdir -p "$out"
# shellcheck source=xdotool_common.sh
. "$(cd "$(dirname "$0")" && pwd)/xdotool_common.sh"
db=$dir/r.db
"$cli" run --db "$db" --label first --dataset synthetic-regression --model linear \
  --synthetic-samples 256 --per-device-batch-size 32 --epochs 1 >/dev/null

shot() { command -v import >/dev/null && import -window root "$out/$1" || true; }

"$parity" --db "$db" >"$dir/parity.log" 2>&1 &
pid=$!
win=$(timeout 30 xdotool search --all --sync --onlyvisible --pid "$pid" --name "Parity" | head -n1)
[ -n "$win" ] || { echo "FAIL: the window did not appear"; cat "$dir/parity.log"; exit 1; }
xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"
until_ok 20 test -e "$db-wal" || { echo "FAIL: the window opened no WAL"; exit 1; }

xdotool key --clearmodifiers ctrl+shift+p
dialog=$(timeout 20 xdotool search --all --sync --onlyvisible --pid "$pid" --name "Save chart" | head -n1)
[ -n "$dialog" ] || { echo "FAIL: Ctrl+Shift+P opened no dialog"; exit 1; }
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 20 "$dir/"
# What must do no harm: the dialog lists the folder and types its files, in the background, for
# as long as it stays open (3 s; listing a folder of four files takes milliseconds).
sleep 3
shot dialog-on-db-folder.png
# Escape closes the completer's list first when it is open, then the dialog.
dialog_open() { xdotool search --all --onlyvisible --pid "$pid" --name "Save chart" >/dev/null; }
for ((k = 0; k < 3; k++)); do
  xdotool key --clearmodifiers Escape
  until_ok 3 eval '! dialog_open' && break
done
dialog_open && { echo "FAIL: Escape did not close the dialog"; exit 1; }

"$cli" list --db "$db" >/dev/null
shot after-cli.png
deleted=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -F "$dir/" | grep -F "(deleted)" || true)
if [ -n "$deleted" ]; then
  echo "FAIL: the window's descriptors point at deleted database files:"
  echo "$deleted"
  exit 1
fi
[ -e "$db-wal" ] || { echo "FAIL: parity-cli deleted the WAL the window still uses"; exit 1; }
kill -0 "$pid" || { echo "FAIL: the window exited"; cat "$dir/parity.log"; exit 1; }
echo "PASS: after the dialog and a parity-cli, the window still holds r.db-wal and r.db-shm"
