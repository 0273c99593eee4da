#!/usr/bin/env bash
# The remedy sweep at full size: every pair of the grid (230), where the suite trains every third.
# For each pair judged different the remedy is trained and must come out equivalent; prints the
# counts and any pair that misses (RemedySweep.EveryRemedyTrainedComesOutEquivalent). About 30 s
# on 2 cores. Needs a build in build/.
# Usage: scripts/remedy_sweep.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${PARITY_BUILD_DIR:-build}
[ -x "$build_dir/bin/train_tests" ] || { echo "remedy_sweep.sh: build first (scripts/test.sh)" >&2; exit 2; }
PARITY_SWEEP=full exec "$build_dir/bin/train_tests" --gtest_filter='RemedySweep.*'
