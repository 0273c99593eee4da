#!/usr/bin/env bash
# The crash-consistency soak at length: KILLS (default 200) kill -9s of parity-cli run at random
# moments into one database, then the same checks as the test suite's 20-kill version
# (CliSoak.RandomKillNinesLeaveAConsistentDatabase). Prints the figures. Needs a build in build/.
# Usage: scripts/soak.sh [KILLS]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${PARITY_BUILD_DIR:-build}
[ -x "$build_dir/bin/app_cli_tests" ] || { echo "soak.sh: build first (scripts/test.sh)" >&2; exit 2; }
PARITY_SOAK_KILLS=${1:-200} exec "$build_dir/bin/app_cli_tests" --gtest_filter='CliSoak.*'
