#!/usr/bin/env bash
# The one command of a GPU `run` call: probe, build, checks, then the test suites if time is left.
# Everything it finds goes to OUT (8 files: report.md, log.txt, probe.txt, build.txt, tests.txt,
# results.csv, curves.csv, parity.db), written as it goes, so a run cut short still says how far
# it got.
#
# Usage, on the GPU machine from the repository root, after scripts/device/gpu_prepare.sh ran on
# the CPU machine and .gpu-deps was carried:   bash scripts/device/gpu_run.sh [OUT]
# Env: PARITY_GPU_BUDGET_S (default 450): seconds for all of it; the run call's timeout_s should
#      be ~60 s more. PARITY_GPU_TRAIN_SAMPLES (12800), PYTHON, JOBS: see gpu_checks.sh/gpu_build.sh;
#      PARITY_GPU_BUILD_DIR (default build-gpu, git-ignored so it stays on a warm machine).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
out=${1:-${OUT:-$root/out-gpu}}
mkdir -p "$out"
start=$(date +%s)
budget=${PARITY_GPU_BUDGET_S:-450}
deadline=$((start + budget))
build=${PARITY_GPU_BUILD_DIR:-$root/build-gpu}
report=$out/report.md
here=$root/scripts/device
exec > >(tee -a "$out/log.txt") 2>&1

left() { echo $((deadline - $(date +%s))); }
phase() { printf '\n[gpu_run %s, %s s left] %s\n' "$(date +%T)" "$(left)" "$*"; }
md() { printf '%s\n' "$*" >> "$report"; }
declare -a timings
timed() {  # LABEL COMMAND...: runs it, records its duration
  local label=$1 t0=$SECONDS; shift
  "$@"; local rc=$?
  timings+=("| $label | $((SECONDS - t0)) s | exit $rc |")
  return $rc
}
finish() {
  md ""
  md "### Phases"
  md ""
  md "| phase | time | result |"
  md "|---|---|---|"
  for t in "${timings[@]}"; do md "$t"; done
  md ""
  md "Total $(($(date +%s) - start)) s of a $budget s budget."
  if [[ ! -f $out/parity.db && -f $build/checks/parity.db ]]; then  # the checks were cut short
    "${PYTHON:-python3}" "$here/compare_losses.py" --copy-db "$build/checks/parity.db" "$out/parity.db"
  fi
  ls -la "$out"
  sleep 1  # let tee write the last lines of log.txt
}
trap finish EXIT

{
  echo "# Parity on a GPU: probe, build, checks"
  echo ""
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname); budget $budget s."
  echo ""
  echo '```'
  head -1 .gpu-deps/MANIFEST.txt 2>/dev/null || echo "no .gpu-deps/MANIFEST.txt: was .gpu-deps carried?"
  echo '```'
} > "$report"

# The Python that has torch (PATH's python3 first).
if [[ -z ${PYTHON:-} ]]; then
  for p in python3 python /opt/conda/bin/python /usr/local/bin/python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import torch' 2>/dev/null; then PYTHON=$(command -v "$p"); break; fi
  done
fi
export PYTHON=${PYTHON:-python3}
export JOBS=${JOBS:-$(nproc)}

phase "probe"
timed probe timeout 60 bash "$here/gpu_probe.sh" "$PYTHON" > "$out/probe.txt" 2>&1
md ""
md "## Machine (from probe.txt)"
md ""
md '```'
grep -E "^(os|cpus|glibc):|^(g\+\+|clang\+\+|cmake|ninja|nvcc):|^no (g\+\+|cmake|ninja|nvcc|nvidia-smi)|^torch |torch.version.cuda|_GLIBCXX_USE_CXX11_ABI|nccl.version|^accelerate|^no accelerate|NVIDIA|device 0" \
  "$out/probe.txt" >> "$report"
md '```'

phase "build"
if ! timed build timeout $(($(left) - 120)) bash "$here/gpu_build.sh" "$build" > "$out/build.txt" 2>&1; then
  {
    echo ""; echo "--- configure.log (tail)"; tail -60 "$build/configure.log" 2>/dev/null
    echo ""; echo "--- build.log (errors)"; grep -E -m 60 "error|undefined reference|FAILED" "$build/build.log" 2>/dev/null
    echo ""; echo "--- build.log (tail)"; tail -40 "$build/build.log" 2>/dev/null
    for f in "$build"/preflight/*.log; do echo ""; echo "--- $f"; head -20 "$f"; done
  } >> "$out/build.txt"
  md ""
  md "## Build FAILED"
  md ""
  md '```'
  grep -E "^\[gpu_build" "$out/build.txt" | tail -25 >> "$report"
  md '```'
  exit 1
fi
md ""
md "## Build"
md ""
md '```'
grep -E "^\[gpu_build" "$out/build.txt" >> "$report"
md '```'
# shellcheck disable=SC1091
source "$build/gpu-build.env"

: > "$out/tests.txt"
if [[ ${TESTS:-OFF} == ON ]]; then
  phase "ctest -L gpu"
  timed "ctest -L gpu" timeout 150 ctest --test-dir "$build" -L gpu --output-on-failure > "$out/tests.txt" 2>&1
  md ""
  md "ctest -L gpu: $(grep -E 'tests passed|tests failed' "$out/tests.txt" | tail -1)"
fi

phase "checks"
PARITY_GPU_DEADLINE=$((deadline - 30)) timed checks bash "$here/gpu_checks.sh" "$build" "$out"

if [[ ${TESTS:-OFF} == ON ]] && (($(left) > 150)); then
  phase "test suites: build"
  if timed "build all" timeout $(($(left) - 60)) cmake --build "$build" -j "${JOBS:-$(nproc)}" \
       >> "$out/tests.txt" 2>&1; then
    phase "test suites: ctest -LE gpu"
    timed "ctest -LE gpu" timeout $(($(left) - 10)) ctest --test-dir "$build" -LE gpu -j 8 \
      --timeout 120 --output-on-failure >> "$out/tests.txt" 2>&1
  fi
  md ""
  md "Test suites: $(grep -E 'tests passed|tests failed' "$out/tests.txt" | tail -1)"
else
  md ""
  md "Test suites not built (TESTS=${TESTS:-OFF}, $(left) s left)."
fi
