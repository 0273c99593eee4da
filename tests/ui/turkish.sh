#!/usr/bin/env bash
# As a Turkish user starts it (#38 §14): the dashboard under LANG=tr_TR.UTF-8 on two runs, the
# Runs menu opened with its Turkish mnemonic; what the window's map lists (tabs, buttons, labels,
# boxes, table rows' headers aside) is checked against the English texts that
# resources/translations/parity_tr.ts translates: none may be shown. Screenshots in OUT.
# Usage: turkish.sh PARITY PARITY_CLI OUT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import python3
ts="$here/../../resources/translations/parity_tr.ts"
db=$dir/r.db
for label in 1x64 2x32; do
  "$cli" run --db "$db" -q --label "$label" --dataset synthetic-regression --model linear \
    --synthetic-samples 256 --per-device-batch-size 32 --epochs 1 >/dev/null
done
# The English texts with a different translation, one a line (with and without a mnemonic's &).
python3 - "$ts" >"$dir/english.txt" <<'PY'
import re, sys, xml.etree.ElementTree as ET
for m in ET.parse(sys.argv[1]).getroot().iter("message"):
    src, tr = m.findtext("source") or "", m.find("translation")
    text = "".join(tr.itertext()) if tr is not None else ""
    if src != text and len(src) > 1:
        print(src.replace("\n", " | "))
        print(re.sub(r"&(?!&)", "", src).replace("\n", " | "))
PY

export LANG=tr_TR.UTF-8 LC_ALL=tr_TR.UTF-8 LANGUAGE=
start_window --db "$db"
runs_listed() { [ -n "$(find_in_map '^parity-trace: row runsView 1 ')" ]; }
until_ok 20 runs_listed || { map; fail "the runs table lists no second run"; }
shot turkish-1-window >/dev/null

# Every quoted text of the map: a widget's name, a tab's, a label's, a box's value.
texts=$(map | grep -E '^parity-trace: (widget|tab|label)' | grep -oE '"[^"]*"' | tr -d '"' | sort -u)
[ "$(echo "$texts" | wc -l)" -ge 30 ] || { map; fail "too few texts in the map to judge"; }
left=$(grep -Fxf "$dir/english.txt" <<<"$texts" || true)
[ -z "$left" ] || fail "shown in English: $(echo "$left" | paste -sd'|')"
find_in_map '^parity-trace: tab "Deney' | grep -q . || { map | grep tab; fail "no Turkish Experiment tab"; }

# The Runs menu (Çalıştırmalar, mnemonic l) by its Turkish Alt+letter, its title in the trace.
m=$(mark)
xdotool key --clearmodifiers alt+l
line=$(wait_line "$m" '^parity-trace: menu ' 10) || fail "Alt+L opened no menu"
[[ $line == *Çalıştırmalar* ]] || fail "Alt+L opened $line"
shot turkish-2-runs-menu >/dev/null
xdotool key Escape key Escape
echo "PASS: under LANG=tr_TR.UTF-8 the window shows $(echo "$texts" | wc -l) texts, none of them in English; Alt+L opens Çalıştırmalar"
