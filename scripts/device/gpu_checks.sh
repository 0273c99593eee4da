#!/usr/bin/env bash
# The GPU checks, after gpu_build.sh: Parity's Fashion-MNIST MLP and CNN with --device cuda in fp32,
# bf16 and fp16, each against the same setup on the CPU (per-step losses from `parity-cli export`,
# compared by compare_losses.py with the tolerances below); `parity-cli rerun` on CUDA; a W=1 NCCL
# process group (PARITY_FORCE_PROCESS_GROUP=1: one GPU cannot host two NCCL ranks); the same MLP
# with Hugging Face Accelerate where it is installed; CPU scaling W=1,2,4,8 (Parity, Accelerate).
#
# Usage: scripts/device/gpu_checks.sh BUILD_DIR OUT_DIR
# Env:   PARITY_GPU_DEADLINE   epoch seconds after which no new check starts (default: now + 300)
#        PARITY_GPU_TRAIN_SAMPLES  training images per run (default 12800: 200 steps of 64)
#        PYTHON                the Python with torch (and maybe accelerate)
# Appends to OUT_DIR/report.md and OUT_DIR/results.csv; writes OUT_DIR/curves.csv (every run's
# steps, Parity's long format, Accelerate's runs as run_id acc-NAME) and OUT_DIR/parity.db (a
# copy of BUILD_DIR/checks/parity.db).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
build=${1:?BUILD_DIR}
out=${2:?OUT_DIR}
[[ $build = /* ]] || build=$root/$build
mkdir -p "$out"
# shellcheck disable=SC1091
source "$build/gpu-build.env"
py=${PYTHON:-python3}
deadline=${PARITY_GPU_DEADLINE:-$(($(date +%s) + 300))}
n=${PARITY_GPU_TRAIN_SAMPLES:-12800}
cli=$BIN/parity-cli
work=$build/checks
# The database lives beside the rank logs (a run without --log-dir, such as rerun, logs to
# <database folder>/logs); a copy goes to OUT at the end (gpu_run.sh copies it if cut short).
db=$work/parity.db
rm -rf "$work" "$out/parity.db"
mkdir -p "$work"
data=$root/.gpu-deps/fashion-mnist
report=$out/report.md
results=$out/results.csv
here=$root/scripts/device

say() { printf '[gpu_checks %s] %s\n' "$(date +%T)" "$*"; }
md() { printf '%s\n' "$*" >> "$report"; }
left() { echo $((deadline - $(date +%s))); }
enough() { (($(left) > $1)) || { say "skipped ($1 s needed, $(left) s left): $2"; md "- skipped for time: $2"; return 1; }; }

declare -A RID STATUS
common=(--db "$db" --log-dir "$work/logs" --quiet --dataset fashion-mnist --data "$data"
        --train-samples "$n" --epochs 1 --per-device-batch-size 64 --seed 42 --lr 0.05)
mlp=(--model mlp --hidden "256,128")
cnn=(--model cnn)

prun() {  # NAME [ENV=VALUE...] -- FLAGS...: one parity-cli run; RID[NAME]=run id
  local name=$1; shift
  local envs=()
  while [[ $# -gt 0 && $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  local t0=$SECONDS
  env "${envs[@]}" timeout 180 "$cli" run "${common[@]}" --label "$name" "$@" \
    > "$work/$name.out" 2>&1
  local rc=$?
  RID[$name]=$(awk '/^run [0-9]+ /{id=$2} END{print id}' "$work/$name.out")
  STATUS[$name]=$(awk '/^run [0-9]+ /{s=$3} END{print s}' "$work/$name.out")
  say "$name: run ${RID[$name]:-?} ${STATUS[$name]:-no status} (exit $rc, $((SECONDS - t0)) s)"
  if ((rc != 0)); then
    tail -5 "$work/$name.out" | sed 's/^/    /'
    md "- \`$name\` exit $rc: $(tail -1 "$work/$name.out" | tr '|' '/')"
    local log
    for log in "$work"/logs/run-"${RID[$name]:-x}"/rank*.log; do
      [[ -f $log ]] && tail -3 "$log" | sed 's/^/    /'
    done
  fi
  return $rc
}

compare() {  # NAME A B [compare_losses.py options]: A and B are run names or csv:PATH
  local name=$1 a=$2 b=$3; shift 3
  [[ $a == csv:* ]] || a=run:${RID[$a]:-none}
  [[ $b == csv:* ]] || b=run:${RID[$b]:-none}
  "$py" "$here/compare_losses.py" --name "$name" --a "$a" --b "$b" --curves "$work/curves.csv" \
    --results "$results" "$@" >> "$work/compare.md"
}

cuda=0
if [[ -n ${TORCH_CUDA:-} ]] && "$py" -c 'import torch,sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  cuda=1
fi
have_acc=0
"$py" -c 'import accelerate' 2>/dev/null && have_acc=1
md ""
md "## Checks ($n training images per run, 1 epoch, batch 64, SGD lr 0.05, seed 42)"
md ""
md "CUDA usable: $cuda; Accelerate: $have_acc; NCCL compiled in: ${NCCL:-?}; Gloo: ${GLOO:-?}."

# --- 1. smoke: the synthetic regression on CUDA, each precision, and a W=1 NCCL group -----------
if ((cuda)); then
  syn=(--db "$db" --log-dir "$work/logs" --quiet --dataset synthetic-regression --task regression
       --model linear --epochs 1 --max-steps 20 --device cuda)
  for p in no bf16 fp16; do
    timeout 120 "$cli" run "${syn[@]}" --mixed-precision $p --label "smoke cuda $p" > "$work/smoke-$p.out" 2>&1
    md "- smoke cuda $p: exit $? — $(tail -1 "$work/smoke-$p.out")"
  done
  PARITY_FORCE_PROCESS_GROUP=1 timeout 120 "$cli" run "${syn[@]}" --label "smoke cuda nccl W=1" \
    > "$work/smoke-nccl.out" 2>&1
  md "- smoke cuda NCCL W=1: exit $? — $(tail -1 "$work/smoke-nccl.out")"
fi

# --- 2. MLP: CPU vs CUDA, each precision; NCCL and Gloo W=1; rerun --------------------------------
say "MLP runs"
prun mlp-cpu-fp32 -- "${mlp[@]}" --device cpu
prun mlp-cpu-bf16 -- "${mlp[@]}" --device cpu --mixed-precision bf16
if ((cuda)); then
  prun mlp-cuda-fp32 -- "${mlp[@]}" --device cuda
  prun mlp-cuda-bf16 -- "${mlp[@]}" --device cuda --mixed-precision bf16
  prun mlp-cuda-fp16 -- "${mlp[@]}" --device cuda --mixed-precision fp16
  prun mlp-cuda-fp32-nccl1 PARITY_FORCE_PROCESS_GROUP=1 -- "${mlp[@]}" --device cuda
fi
prun mlp-cpu-fp32-gloo1 PARITY_FORCE_PROCESS_GROUP=1 -- "${mlp[@]}" --device cpu
if ((cuda)) && [[ -n ${RID[mlp-cuda-fp32]:-} ]]; then
  timeout 180 "$cli" rerun "${RID[mlp-cuda-fp32]}" --db "$db" --quiet > "$work/rerun-mlp.out" 2>&1
  md "- rerun MLP cuda fp32 (exit $?, 0 = bitwise identical): $(tail -1 "$work/rerun-mlp.out")"
fi

# --- 3. CNN ---------------------------------------------------------------------------------------
if enough 90 "CNN runs"; then
  say "CNN runs"
  prun cnn-cpu-fp32 -- "${cnn[@]}" --device cpu
  if ((cuda)); then
    prun cnn-cuda-fp32 -- "${cnn[@]}" --device cuda
    prun cnn-cuda-fp32-notf32 PARITY_CUDNN_TF32=0 -- "${cnn[@]}" --device cuda
    prun cnn-cuda-bf16 -- "${cnn[@]}" --device cuda --mixed-precision bf16
    prun cnn-cuda-fp16 -- "${cnn[@]}" --device cuda --mixed-precision fp16
    if [[ -n ${RID[cnn-cuda-fp32]:-} ]]; then
      timeout 180 "$cli" rerun "${RID[cnn-cuda-fp32]}" --db "$db" --quiet > "$work/rerun-cnn.out" 2>&1
      md "- rerun CNN cuda fp32 (exit $?, 0 = bitwise identical): $(tail -1 "$work/rerun-cnn.out")"
    fi
  fi
  enough 60 "CNN cpu bf16" && prun cnn-cpu-bf16 -- "${cnn[@]}" --device cpu --mixed-precision bf16
fi

# --- 4. Accelerate: the same MLP ------------------------------------------------------------------
acc() {  # NAME [torchrun W] -- accelerate_mlp.py flags
  local name=$1; shift
  local launch=("$py")
  if [[ $1 == torchrun ]]; then
    launch=("$py" -m torch.distributed.run --standalone --nproc_per_node "$2"); shift 2
  fi
  shift
  local t0=$SECONDS
  timeout 180 "${launch[@]}" "$here/accelerate_mlp.py" --data "$data" --train-samples "$n" \
    --out "$work/acc-$name" "$@" > "$work/acc-$name.log" 2>&1
  local rc=$?
  say "accelerate $name: exit $rc ($((SECONDS - t0)) s)"
  ((rc == 0)) || { tail -5 "$work/acc-$name.log" | sed 's/^/    /'; md "- accelerate \`$name\` exit $rc: $(tail -1 "$work/acc-$name.log")"; }
}
cores=$(nproc)
if ((have_acc)) && enough 60 "Accelerate runs"; then
  say "Accelerate runs"
  acc cpu-fp32 -- --cpu --threads "$cores"
  if ((cuda)); then
    acc cuda-fp32 --
    acc cuda-bf16 -- --mixed-precision bf16
    acc cuda-fp16 -- --mixed-precision fp16
  fi
fi

# --- 5. CPU scaling W = 1, 2, 4, 8 (per-device batch 64, cores shared out as cores/W threads) -----
if enough 60 "CPU scaling"; then
  say "CPU scaling"
  for w in 2 4 8; do
    enough 20 "Parity W=$w" && prun mlp-cpu-fp32-w$w -- "${mlp[@]}" --device cpu --num-processes $w
  done
  if ((have_acc)); then
    for w in 2 4 8; do
      enough 25 "Accelerate W=$w" &&
        OMP_NUM_THREADS=$((cores / w > 0 ? cores / w : 1)) acc cpu-fp32-w$w torchrun $w -- --cpu \
          --threads $((cores / w > 0 ? cores / w : 1))
    done
  fi
fi

# --- 6. export, compare, tabulate -------------------------------------------------------------------
say "export and compare"
"$cli" export --db "$db" --out "$work/curves.csv" > /dev/null 2>&1
"$cli" export --db "$db" --runs-table --out "$work/runs.csv" > /dev/null 2>&1
{
  cat "$work/curves.csv"
  for f in "$work"/acc-*.csv; do
    [[ -f $f ]] || continue
    name=$(basename "$f" .csv)
    tail -n +2 "$f" | awk -F, -v n="$name" '{print n "," n "," $1 "," $2 "," $3 ",-1," $4 "," $5 ","}'
  done
} > "$out/curves.csv"

: > "$work/compare.md"
# Tolerances (relative): first step / max over the first 10 steps / mean of the last 20 steps.
fp32=(--tol-first 1e-5 --tol-early 1e-4 --tol-end 2e-2)  # summation order only
tf32=(--tol-first 1e-2 --tol-early 2e-2 --tol-end 5e-2)  # cuDNN convolutions in TF32
bf16=(--tol-first 2e-2 --tol-early 5e-2 --tol-end 5e-2)  # 8-bit mantissa
fp16=(--tol-first 5e-3 --tol-early 1e-2 --tol-end 3e-2)  # 11-bit mantissa, loss scaling
same=(--tol-first 1e-6 --tol-early 1e-5 --tol-end 1e-3)  # same LibTorch, same device
compare "MLP cuda fp32 vs cpu fp32" mlp-cuda-fp32 mlp-cpu-fp32 "${fp32[@]}"
compare "MLP cuda bf16 vs cpu bf16" mlp-cuda-bf16 mlp-cpu-bf16 "${bf16[@]}"
compare "MLP cuda bf16 vs cpu fp32" mlp-cuda-bf16 mlp-cpu-fp32 "${bf16[@]}"
compare "MLP cpu bf16 vs cpu fp32" mlp-cpu-bf16 mlp-cpu-fp32 "${bf16[@]}"
compare "MLP cuda fp16 vs cpu fp32" mlp-cuda-fp16 mlp-cpu-fp32 "${fp16[@]}"
compare "MLP cuda NCCL W=1 vs no group" mlp-cuda-fp32-nccl1 mlp-cuda-fp32 --identical --f32
compare "MLP cpu Gloo W=1 vs no group" mlp-cpu-fp32-gloo1 mlp-cpu-fp32 --identical --f32
compare "CNN cuda fp32 (TF32 convs) vs cpu fp32" cnn-cuda-fp32 cnn-cpu-fp32 "${tf32[@]}"
compare "CNN cuda fp32 TF32 off vs cpu fp32" cnn-cuda-fp32-notf32 cnn-cpu-fp32 "${fp32[@]}"
compare "CNN cuda bf16 vs cpu bf16" cnn-cuda-bf16 cnn-cpu-bf16 "${bf16[@]}"
compare "CNN cuda bf16 vs cpu fp32" cnn-cuda-bf16 cnn-cpu-fp32 "${bf16[@]}"
compare "CNN cuda fp16 vs cpu fp32" cnn-cuda-fp16 cnn-cpu-fp32 "${fp16[@]}"
for p in fp32 bf16 fp16; do
  [[ -f $work/acc-cuda-$p.csv ]] &&
    compare "MLP Parity vs Accelerate, cuda $p" "mlp-cuda-$p" "csv:$work/acc-cuda-$p.csv" "${same[@]}"
done
[[ -f $work/acc-cpu-fp32.csv ]] &&
  compare "MLP Parity vs Accelerate, cpu fp32 W=1" mlp-cpu-fp32 "csv:$work/acc-cpu-fp32.csv" "${same[@]}"
for w in 2 4 8; do
  [[ -f $work/acc-cpu-fp32-w$w.csv ]] &&
    compare "MLP Parity vs Accelerate, cpu fp32 W=$w" "mlp-cpu-fp32-w$w" "csv:$work/acc-cpu-fp32-w$w.csv" "${fp32[@]}"
done

md ""
md "### Per-step losses compared (relative differences; tolerances first/early/end)"
md ""
md "| comparison | steps | first | first 10 | all | end (last 20) | identical | first diff step | tol | verdict |"
md "|---|---|---|---|---|---|---|---|---|---|"
cat "$work/compare.md" >> "$report"

# Runs, accuracy and samples/s; the scaling table.
"$py" - "$work/runs.csv" "$work" "$results" "$cores" >> "$report" <<'PY'
import csv, glob, json, os, sys
runs_csv, work, results, cores = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = list(csv.DictReader(open(runs_csv))) if os.path.exists(runs_csv) else []
print("\n### Runs (parity-cli export --runs-table)\n")
print("| run | label | status | steps | final loss | eval loss | accuracy | samples/s | error |")
print("|---|---|---|---|---|---|---|---|---|")
by = {}
for r in rows:
    by[r["label"]] = r
    print(f"| {r['run_id']} | {r['label']} | {r['status']} | {r['steps_done']}/{r['total_steps']} | "
          f"{r['final_loss'][:8]} | {r['final_eval_loss'][:8]} | {r['final_accuracy'][:6]} | "
          f"{r['samples_per_s'][:9]} | {r['error'][:80]} |")
acc = {}
for f in glob.glob(os.path.join(work, "acc-*.json")):
    acc[os.path.basename(f)[4:-5]] = json.load(open(f))
if acc:
    print("\n### Accelerate runs\n")
    print("| run | accuracy | samples/s | W | device | precision | torch | accelerate |")
    print("|---|---|---|---|---|---|---|---|")
    for k, v in sorted(acc.items()):
        print(f"| {k} | {v['accuracy']:.4f} | {v['samples_per_s']:.0f} | {v['world_size']} | {v['device']} | "
              f"{v['mixed_precision']} | {v['torch']} | {v['accelerate']} |")
print(f"\n### CPU scaling, MLP fp32, per-device batch 64 ({cores} cores shared out: cores/W threads per rank)\n")
print("speedup = samples/s at W / samples/s at W=1; efficiency = speedup / W (the cores are the same"
      " for every W, so this measures processes against threads, not added hardware)\n")
print("| W | Parity samples/s | speedup | efficiency | Accelerate samples/s | speedup | efficiency |")
print("|---|---|---|---|---|---|---|")
out_rows = []
def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return 0.0
p1 = num(by.get("mlp-cpu-fp32", {}).get("samples_per_s"))
a1 = acc.get("cpu-fp32", {}).get("samples_per_s", 0.0)
for w in (1, 2, 4, 8):
    p = num(by.get("mlp-cpu-fp32" + ("" if w == 1 else f"-w{w}"), {}).get("samples_per_s"))
    a = acc.get("cpu-fp32" + ("" if w == 1 else f"-w{w}"), {}).get("samples_per_s", 0.0)
    ps, as_ = (p / p1 if p and p1 else 0), (a / a1 if a and a1 else 0)
    print(f"| {w} | {p:.0f} | {ps:.2f} | {ps / w:.2f} | {a:.0f} | {as_:.2f} | {as_ / w:.2f} |")
    out_rows.append(dict(kind="scaling", name=f"cpu W={w}", a=f"{p:.1f}", b=f"{a:.1f}",
                         first=f"{ps:.3f}", early=f"{as_:.3f}", note="samples/s Parity (a), Accelerate (b); speedups in first/early"))
for r in rows:
    out_rows.append(dict(kind="run", name=r["label"], a=r["run_id"], b=r["status"], first=r["final_accuracy"],
                         early=r["samples_per_s"], note=r["error"][:200]))
for k, v in sorted(acc.items()):
    out_rows.append(dict(kind="accelerate", name=k, a=v["device"], b=v["mixed_precision"],
                         first=f"{v['accuracy']}", early=f"{v['samples_per_s']}", note=f"W={v['world_size']}"))
fields = ["kind", "name", "a", "b", "steps", "first", "early", "all", "end", "identical",
          "first_diff_step", "tol", "verdict", "note"]
new = not os.path.exists(results)
with open(results, "a", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
    if new:
        w.writeheader()
    for r in out_rows:
        w.writerow(r)
PY

# Parity's own verdict, the CPU fp32 MLP as the reference.
if [[ -n ${RID[mlp-cpu-fp32]:-} ]]; then
  others=()
  for k in mlp-cpu-bf16 mlp-cuda-fp32 mlp-cuda-bf16 mlp-cuda-fp16 mlp-cuda-fp32-nccl1; do
    [[ -n ${RID[$k]:-} ]] && others+=("${RID[$k]}")
  done
  if ((${#others[@]})); then
    md ""
    md "### parity-cli compare --reference ${RID[mlp-cpu-fp32]} (MLP cpu fp32) ${others[*]}"
    md ""
    md '```'
    "$cli" compare --db "$db" --reference "${RID[mlp-cpu-fp32]}" "${others[@]}" >> "$report" 2>&1
    md '```'
  fi
fi
"$py" "$here/compare_losses.py" --copy-db "$db" "$out/parity.db"
say "checks done ($(left) s before the deadline)"
