#!/usr/bin/env bash
# Builds the libFuzzer targets of every parser users hand Parity (tests/fuzz: TensorBoard event
# files, trainer_state.json, CSV/JSONL logs, MLflow's file store, the PARITY stdout protocol, the ranks' progress
# lines, run configs, CSV headers, `accelerate config` YAML) with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer into build-fuzz/, then runs each for SECONDS (default 20) from its
# seeds with a fixed seed (-seed=1: a run is a prefix of any longer run). Fails on a crash, a
# leak or a UB report; the input that found it is kept in build-fuzz/findings/. Prints executions
# and coverage per target.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (every target when none is named)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
[ $# -gt 0 ] && shift
all=(tensorboard_events trainer_state table_log mlflow_store parity_line progress_line run_config
  csv_header accelerate_config)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
build=${PARITY_FUZZ_BUILD_DIR:-build-fuzz}
fixtures=tests/fixtures

# What it needs, said before anything is built (scripts/install-deps.sh installs all of it).
missing=()
command -v clang++ >/dev/null || missing+=("clang++ (Debian package clang)")
command -v cmake >/dev/null || missing+=("cmake")
command -v ninja >/dev/null || missing+=("ninja (ninja-build)")
if command -v clang++ >/dev/null &&
  ! echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' |
  clang++ -x c++ -fsanitize=fuzzer,address,undefined - -o /dev/null 2>/dev/null; then
  missing+=("clang's libFuzzer and sanitizer runtimes (libclang-rt-$(clang++ -dumpversion | cut -d. -f1)-dev)")
fi
[ -d "$fixtures/accelerate-tensorboard" ] || missing+=("the fixtures folder $fixtures/accelerate-tensorboard (a broken checkout?)")
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || missing+=("a fuzz target named '$t' (there are: ${all[*]})")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "fuzz.sh: cannot run; missing:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  echo "scripts/install-deps.sh installs the packages." >&2
  exit 1
fi

mkdir -p "$build"
cmake -S . -B "$build" -G Ninja -DPARITY_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE= >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
ninja -C "$build" "${targets[@]/%/_fuzz}"

status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  rm -rf "$corpus"
  mkdir -p "$corpus" "$build/findings/$t"
  [ -d "tests/fuzz/seeds/$t" ] && cp tests/fuzz/seeds/"$t"/* "$corpus"/ 2>/dev/null || true
  case $t in
    trainer_state) cp tests/ingest/data/trainer_state.json "$corpus"/ ;;
    tensorboard_events)
      find "$fixtures" -name 'events.out.tfevents.*' -size -200k 2>/dev/null | head -n 4 |
        while read -r f; do cp "$f" "$corpus/$(basename "$(dirname "$f")")-$(basename "$f")"; done ;;
  esac
  log="$build/$t.log"
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$build/bin/${t}_fuzz" -seed=1 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$t/" "$corpus" >"$log" 2>&1; then
    execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n1 | grep -oE '[0-9]+' || echo '?')
    echo "fuzz $t: $execs executions in ${seconds} s, coverage $cov edges, no crash, leak or UB"
  else
    status=1
    echo "fuzz $t: FAILED (inputs kept in $build/findings/$t/):"
    grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | head -n 20
  fi
done
exit "$status"
