#!/usr/bin/env bash
# As a person would, under Xvfb: three setups on a data file with a bad row (as the last session
# left them), launched with Ctrl+Return. Each run fails: the Runs table says so, the status bar
# counts them, parity-cli list shows them failed, and no dialog pops up per run (the window's
# process maps one window). Then a parity-cli that cannot start (its interpreter is missing):
# three launches that never start give at most one dialog, not three. Screenshots in OUT.
# Usage: failed_runs.sh PARITY PARITY_CLI OUT   (needs DISPLAY, xdotool, ImageMagick, python3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=xtest_begin.sh
. "$here/xtest_begin.sh" "$1" "$2" "$3" xdotool import python3
db=$dir/r.db
printf 'x,y\n1,2\n2,4\n3,six\n4,8\n' >"$dir/bad.csv"
# The setups the window restores from its settings (SetupsModel::toJson's shape).
mkdir -p "$XDG_CONFIG_HOME/parity"
python3 - "$dir/bad.csv" "$XDG_CONFIG_HOME/parity/parity.ini" <<'EOF'
import json, sys
experiment = {"dataset": "csv", "data_path": sys.argv[1], "target": "y", "task": "regression",
              "model": "linear", "epochs": 1}
setups = [dict(experiment, label=f"bad {i}", num_processes=1, per_device_batch_size=2)
          for i in (1, 2, 3)]
text = json.dumps({"experiment": experiment, "setups": setups}, separators=(",", ":"))
with open(sys.argv[2], "w") as ini:
    ini.write("[setups]\njson=\"%s\"\n" % text.replace("\\", "\\\\").replace('"', '\\"'))
EOF

# launch_and_count: Ctrl+Return; prints the number of dialogs traced since.
start_window --db "$db"
find_in_map '^parity-trace: row setupsList 2 "bad 3' >/dev/null ||
  { map; fail "the window did not restore the three setups"; }
m=$(mark)
xdotool key --clearmodifiers ctrl+Return
wait_line "$m" '^parity-trace: label [^ ]+ failedRuns .*"3 runs failed' 120 >/dev/null ||
  { tail -n 30 "$trace"; fail "the status bar did not count 3 failed runs within 2 minutes"; }
# What must not come: a dialog for a failed run (they come at once when they do; 1 s is ample).
sleep 1
three=$(shot failed-1-three-runs)
dialogs=$(tail -n +"$((m + 1))" "$trace" | grep -c '^parity-trace: dialog ' || true)
[ "$dialogs" -eq 0 ] || fail "$dialogs dialog(s) popped up for failed runs"
[ "$(windows)" -eq 1 ] || fail "the window's process maps $(windows) windows, not 1"
failed=$(map | grep -cE '^parity-trace: row runsView [0-9]+ "[0-9]+ ; bad [123] ; failed' || true)
[ "$failed" -eq 3 ] || { map | grep 'row runsView'; fail "the Runs table shows $failed failed runs"; }
# And they turn red (RunsModel's failed colour, #c62828) in the table, as a person sees them.
read -r tx ty tw th < <(rect "$(find_in_map '^parity-trace: widget runsDock QTableView "runsView" ')")
red=$(python3 "$here/chart_pixels.py" within "$three" c62828 "$tx" "$ty" "$tw" "$th")
echo "red pixels in the Runs table: $red"
[ "$red" -gt 30 ] || fail "the failed runs are not red in the Runs table ($red red pixels)"
listed=$("$cli" list --db "$db" | grep -cE 'bad [123] +failed|failed +bad [123]' || true)
[ "$listed" -eq 3 ] || { "$cli" list --db "$db"; fail "parity-cli lists $listed failed runs"; }
kill "$pid"
wait "$pid" 2>/dev/null || true

# A parity-cli that exists but cannot start: every launch fails before any run does.
printf '#!/nonexistent/interpreter\n' >"$dir/broken-cli"
chmod +x "$dir/broken-cli"
export PARITY_CLI=$dir/broken-cli
start_window --db "$db"
m=$(mark)
xdotool key --clearmodifiers ctrl+Return
wait_line "$m" '^parity-trace: dialog ' 30 >/dev/null || fail "a parity-cli that cannot start was not reported"
# What must not come: a second and a third dialog for the other two launches, which fail within
# milliseconds of the first.
sleep 3
shot failed-2-cli-cannot-start >/dev/null
dialogs=$(windows)
tail -n +"$((m + 1))" "$trace" | grep '^parity-trace: dialog ' || true
[ "$dialogs" -le 2 ] || fail "three launches that could not start opened $((dialogs - 1)) dialogs"
echo "PASS: failed runs are shown in the table and the status bar without a dialog each; launches that cannot start give one dialog"
