#!/usr/bin/env bash
# Builds the Debian package: installs what is missing, builds the three programs and their manual
# pages into build/, and runs CPack, which installs them under /usr in a staging folder and lets
# dpkg-shlibdeps find the packages they link (packaging/CMakeLists.txt).
# Result: build/parity_<version>_<arch>.deb. Install it with
#   sudo apt-get install ./build/parity_<version>_<arch>.deb
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${PARITY_BUILD_DIR:-build}

scripts/install-deps.sh
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
# The installed targets only: the tests and benchmarks are not part of the package.
targets=(parity-cli parity-worker parity_man_pages)
if ninja -C "$build_dir" -t targets all | grep -q '^parity:'; then targets+=(parity); fi
ninja -C "$build_dir" -j"$(nproc)" "${targets[@]}"
(cd "$build_dir" && cpack --config CPackConfig.cmake)
deb=$(ls -t "$build_dir"/parity_*.deb | head -n1)
echo "package.sh: $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb --field "$deb" Depends Recommends
