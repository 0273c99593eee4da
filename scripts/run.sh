#!/usr/bin/env bash
# Installs what is missing, builds Parity into build/, and runs the main job: the dashboard with
# the demo when a display is there and the dashboard was built, otherwise the headless demo
# (parity-cli demo: the seed's lesson on Fashion-MNIST, about a minute on two cores).
# Extra arguments go to the program that runs.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${PARITY_BUILD_DIR:-build}

scripts/install-deps.sh
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
ninja -C "$build_dir" -j"$(nproc)"

gui="$build_dir/bin/parity"
cli="$build_dir/bin/parity-cli"
if { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; } && [ -x "$gui" ]; then
  exec "$gui" --demo "$@"
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run.sh: no display; running the headless demo" >&2
else
  echo "run.sh: the dashboard was not built (Qt 6 missing?); running the headless demo" >&2
fi
exec "$cli" demo "$@"
