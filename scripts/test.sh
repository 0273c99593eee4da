#!/usr/bin/env bash
# Installs what is missing, builds Parity into build/, and runs every test that needs no GPU.
# Tests that need a display start their own xvfb-run.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${PARITY_BUILD_DIR:-build}

scripts/install-deps.sh
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
ninja -C "$build_dir" -j"$(nproc)"
if [ "${CI:-}" != true ]; then
  # Outside CI a difference from the list is only reported: a developer adding tests updates it.
  scripts/check-tests.sh "$build_dir" || echo "test.sh: the registered tests differ from tests/registered.txt (above)" >&2
  exec ctest --test-dir "$build_dir" --output-on-failure -LE gpu "$@"
fi
# In CI every parser is fuzzed too, 20 s a target (scripts/fuzz.sh: clang, libFuzzer, ASan and
# UBSan); a crash, a leak or a UB report fails the run. Before ctest, whose summary ends the log.
scripts/fuzz.sh 20
# Every test the repository lists must be registered: one that silently stopped registering (no
# Xvfb found, a target not built, a failed discovery) fails the run here.
scripts/check-tests.sh "$build_dir"
# In CI every test must run: a test whose tool is missing fails rather than skips, and a
# "Skipped" line from ctest fails the whole run as well.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
ctest --test-dir "$build_dir" --output-on-failure -LE gpu "$@" | tee "$log" || status=$?
# ctest's own marks ("***Skipped", "(Skipped)"), not a test whose name says Skipped.
skipped='\*\*\*Skipped|\(Skipped\)'
if grep -Eq "$skipped" "$log"; then
  echo "test.sh: CI=true and ctest skipped a test:" >&2
  grep -E "$skipped" "$log" >&2
  exit 1
fi
exit "$status"
