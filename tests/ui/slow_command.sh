# Sourced by the window scripts that need a run going for a while (quit_let_finish,
# stop_reattached, slurm_window), after xtest_begin.sh:
#   slow_command_db STEPS LABEL
# writes $dir/train.py, the user's command printing STEPS PARITY lines 0.1 s apart, and the
# database $db with one finished run (so the window has a database to open) and the setups the
# window restores from it: one setup named LABEL training that command. Then, on $db read-only:
# q SQL, status RUN, stored RUN (its steps), steps_over RUN N, and row_says STATUS TEXT (a row
# of the Runs table with that status and LABEL's setup).
slow_command_db() {
  local steps=$1
  slow_label=$2
  db=$dir/r.db
  cat >"$dir/train.py" <<PY
import json, time
for step in range(1, $steps + 1):
    print("PARITY " + json.dumps({"step": step, "loss": 2.0 / step}), flush=True)
    time.sleep(0.1)
PY
  "$cli" run --db "$db" -q --dataset synthetic-regression --model linear --synthetic-samples 64 \
    --epochs 1 --label seed >/dev/null
  sqlite3 "$db" "INSERT INTO window_setups (id, json, saved_at) VALUES (1,
    '{\"experiment\":{\"command\":\"python3 $dir/train.py\"},
      \"setups\":[{\"label\":\"$slow_label\",\"num_processes\":1,\"per_device_batch_size\":16}]}', 0)"
}
q() { sqlite3 "file:$db?mode=ro" "$1" 2>/dev/null; }
status() { q "SELECT status FROM runs WHERE id = $1"; }
stored() { q "SELECT count(*) FROM steps WHERE run_id = $1"; }
steps_over() { [ "$(stored "$1")" -gt "$2" ]; }
row_says() { [ -n "$(find_in_map "^parity-trace: row runsView [0-9]+ \"$1 ; $slow_label ; $2")" ]; }
