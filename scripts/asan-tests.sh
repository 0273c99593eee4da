#!/usr/bin/env bash
# Builds the test executables of the Qt-free libraries with AddressSanitizer and
# UndefinedBehaviorSanitizer (-DPARITY_SANITIZE=ON: -fsanitize=address,undefined,
# -fno-omit-frame-pointer, no libFuzzer) into build-asan/, runs them with ctest on their labels
# and prints a summary. A memory error, a leak or UB fails the test it happens in; ASan's and
# LSan's reports, from a test or from a process it started (the fake worker), are also written to
# build-asan/sanitizer/, and UBSan's (stderr: gcc's UBSan ignores log_path beside ASan) are found
# in ctest's full log; both are printed at the end. Not in CI: on 2 cores the first build takes
# about 35 minutes (18 of them train's) and the tests about 5.
#   In:  storage_tests (label storage), config_tests (config), analysis_tests (analysis),
#        ingest_tests (ingest), launch_tests with parity_fake_worker (launch),
#        stored_runs_tests (stored_runs), train_tests with parity-worker (train; PARITY_ASAN_TRAIN=0
#        leaves it out). LibTorch is not instrumented (Debian's libtorch 1.13): only Parity's side
#        of each call is checked; its first run gave no report from torch's internals, so no
#        suppression is needed.
#   Out: ui (Qt, the window), app_cli_tests and app_cli_worker_tests (the parity-cli binary),
#        gpu (a GPU), the benchmarks.
# Usage: scripts/asan-tests.sh [JOBS] [ctest args...]   (JOBS: ninja -j and ctest -j; default 2)
# Compiler: CXX (default g++); ccache when installed. A finding in a third-party library gets a
# suppression, with its reason, in scripts/sanitizers/{asan,ubsan,lsan}.supp (none so far).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${1:-2}
[ $# -gt 0 ] && shift
build=${PARITY_ASAN_BUILD_DIR:-build-asan}
labels=(storage config analysis ingest launch stored_runs)
targets=(storage_tests config_tests analysis_tests ingest_tests launch_tests stored_runs_tests)
if [ "${PARITY_ASAN_TRAIN:-1}" != 0 ]; then
  labels+=(train)
  targets+=(train_tests)
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
mkdir -p "$build"
cmake -S . -B "$build" -G Ninja -DPARITY_SANITIZE=ON -DCMAKE_CXX_COMPILER="${CXX:-g++}" \
  -DCMAKE_BUILD_TYPE= -DPARITY_BUILD_GUI=OFF -DPARITY_BUILD_BENCH=OFF "${launcher[@]}" \
  >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
ninja -C "$build" -j"$jobs" "${targets[@]}"

reports="$build/sanitizer"
rm -rf "$reports"
mkdir -p "$reports"
supp=scripts/sanitizers
export ASAN_OPTIONS="detect_leaks=1:log_path=$root/$reports/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$root/$reports/ubsan"
export LSAN_OPTIONS=""
[ -f "$supp/asan.supp" ] && ASAN_OPTIONS+=":suppressions=$root/$supp/asan.supp"
[ -f "$supp/ubsan.supp" ] && UBSAN_OPTIONS+=":suppressions=$root/$supp/ubsan.supp"
[ -f "$supp/lsan.supp" ] && LSAN_OPTIONS="suppressions=$root/$supp/lsan.supp"

regex="^($(IFS='|'; echo "${labels[*]}"))\$"
status=0
log="$build/ctest.log"
ctest --test-dir "$build" -L "$regex" -j"$jobs" --output-on-failure "$@" 2>&1 | tee "$log" ||
  status=$?

echo
echo "asan-tests: labels ${labels[*]}"
grep -E 'tests passed|Total Test time' "$log" || true
found=$(find "$reports" -type f | sort)
ub=$(grep -E 'runtime error:|ERROR: (Address|Leak)Sanitizer' \
  "$build/Testing/Temporary/LastTest.log" 2>/dev/null || true)
if [ -n "$found" ] || [ -n "$ub" ]; then
  status=1
  echo "asan-tests: $(echo "$found" | grep -c . || true) report file(s) in $reports," \
    "$(echo "$ub" | grep -c . || true) report line(s) in the test output:"
  for f in $found; do
    echo "--- $f"
    grep -E 'ERROR|SUMMARY|^    #[0-9] ' "$f" | head -n 20
  done
  [ -z "$ub" ] || echo "$ub" | sort | uniq -c | head -n 40
else
  echo "asan-tests: no sanitizer report (memory error, leak or UB)"
fi
[ "$status" -eq 0 ] || status=1
exit "$status"
