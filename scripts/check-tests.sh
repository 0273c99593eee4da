#!/usr/bin/env bash
# Compares the tests ctest registers (every test but the gpu ones) with the list kept in the
# repository, tests/registered.txt, one name a line, sorted. A test that no longer registers (a
# target that was not built, a tool CMake did not find, a discovery that failed) fails the check,
# and so does a new test not yet in the list, so the list stays the suite's own record.
# Usage: scripts/check-tests.sh [BUILD_DIR]            compare (exit 1 on any difference)
#        scripts/check-tests.sh --update [BUILD_DIR]   rewrite the list from the build
set -euo pipefail
cd "$(dirname "$0")/.."
update=false
if [ "${1:-}" = --update ]; then update=true; shift; fi
build_dir=${1:-${PARITY_BUILD_DIR:-build}}
list=tests/registered.txt

registered=$(mktemp)
trap 'rm -f "$registered"' EXIT
ctest --test-dir "$build_dir" -N -LE gpu | sed -nE 's/^ *Test +#[0-9]+: (.*)$/\1/p' |
  LC_ALL=C sort >"$registered"
count=$(wc -l <"$registered")
if [ "$count" -eq 0 ]; then
  echo "check-tests: ctest registers no test in $build_dir (was it built?)" >&2
  exit 1
fi
if $update; then
  cp "$registered" "$list"
  echo "check-tests: $list now lists $count tests"
  exit 0
fi
gone=$(LC_ALL=C comm -23 "$list" "$registered")
new=$(LC_ALL=C comm -13 "$list" "$registered")
if [ -z "$gone" ] && [ -z "$new" ]; then
  echo "check-tests: all $count tests of $list are registered"
  exit 0
fi
if [ -n "$gone" ]; then
  echo "check-tests: $(echo "$gone" | wc -l) tests of $list are not registered:" >&2
  echo "$gone" | sed 's/^/  - /' >&2
fi
if [ -n "$new" ]; then
  echo "check-tests: $(echo "$new" | wc -l) registered tests are not in $list" \
    "(scripts/check-tests.sh --update adds them):" >&2
  echo "$new" | sed 's/^/  + /' >&2
fi
exit 1
