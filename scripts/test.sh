#!/usr/bin/env bash
# Installs what is missing, builds Parity into build/, and runs every test that needs no GPU.
# Tests that need a display start their own xvfb-run.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${PARITY_BUILD_DIR:-build}

scripts/install-deps.sh
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
ninja -C "$build_dir" -j"$(nproc)"
ctest --test-dir "$build_dir" --output-on-failure -LE gpu "$@"
