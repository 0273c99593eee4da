#!/usr/bin/env bash
# Runs HERE, on the CPU (Debian) machine, before the one GPU `run` call: fills .gpu-deps/ (ignored
# by git through .gitignore, so it travels only when the run call names it in `carry`) with what a
# GPU machine that has only Python + PyTorch may lack:
#
#   include/nlohmann, include/CLI     header-only nlohmann-json and CLI11
#   share/cmake/{nlohmann_json,CLI11} their CMake config files (prefix = .gpu-deps, so
#                                     -DCMAKE_PREFIX_PATH=.gpu-deps finds them)
#   sqlite/include, sqlite/lib        sqlite3.h (+ Debian's libsqlite3.so.0, used only when the GPU
#                                     machine has no libsqlite3 of its own; Debian 12 needs glibc>=2.34)
#   zlib/include, zlib/lib            zlib.h, zconf.h (+ libz.so.1, same rule)
#   gloo-include/gloo                 Debian's gloo headers: a pip wheel ships none and
#                                     ProcessGroupGloo.hpp includes them; added only if needed
#   googletest/                       GoogleTest's sources (built there with torch's C++ ABI)
#   fashion-mnist/                    the four IDX .gz files of Fashion-MNIST (30.9 MB)
#   MANIFEST.txt                      where each came from and the Debian package versions
#
# Usage: scripts/device/gpu_prepare.sh [--subset N]   (--subset: only the first N training images,
#        rewritten as a valid IDX file; default: the whole set, which fits the 64 MiB carry limit)
set -euo pipefail
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
deps=$root/.gpu-deps
subset=0
if [[ ${1:-} == --subset ]]; then
  subset=${2:?--subset needs a number}
fi

fail() { echo "gpu_prepare: $*" >&2; exit 1; }
need() { [[ -e $1 ]] || fail "missing $1 (install $2: apt-get install -y $2)"; }

need /usr/include/nlohmann/json.hpp nlohmann-json3-dev
need /usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake nlohmann-json3-dev
need /usr/include/CLI/CLI.hpp libcli11-dev
need /usr/share/cmake/CLI11/CLI11Config.cmake libcli11-dev
need /usr/include/sqlite3.h libsqlite3-dev
need /usr/include/zlib.h zlib1g-dev
need /usr/include/gloo/algorithm.h libgloo-dev
need /usr/src/googletest/CMakeLists.txt libgtest-dev
need /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz dataset-fashion-mnist

rm -rf "$deps"
mkdir -p "$deps"/{include,share/cmake,sqlite/include,sqlite/lib,zlib/include,zlib/lib,gloo-include,fashion-mnist}

cp -a /usr/include/nlohmann /usr/include/CLI "$deps/include/"
cp -a /usr/share/cmake/nlohmann_json /usr/share/cmake/CLI11 "$deps/share/cmake/"
cp /usr/include/sqlite3.h /usr/include/sqlite3ext.h "$deps/sqlite/include/"
cp -L "$(readlink -f /usr/lib/x86_64-linux-gnu/libsqlite3.so.0)" "$deps/sqlite/lib/libsqlite3.so.0"
cp /usr/include/zlib.h /usr/include/zconf.h "$deps/zlib/include/"
cp -L "$(readlink -f /lib/x86_64-linux-gnu/libz.so.1)" "$deps/zlib/lib/libz.so.1"
cp -a /usr/include/gloo "$deps/gloo-include/"

# GoogleTest without its own tests, samples and docs (3.8 MB -> ~1.7 MB).
gt=$deps/googletest
mkdir -p "$gt"
cp /usr/src/googletest/CMakeLists.txt "$gt/"
for part in googletest googlemock; do
  mkdir -p "$gt/$part"
  cp -a /usr/src/googletest/$part/{CMakeLists.txt,cmake,include,src} "$gt/$part/"
  [[ -f /usr/src/googletest/$part/README.md ]] && cp /usr/src/googletest/$part/README.md "$gt/$part/"
done

src=/usr/share/datasets/fashion-mnist
if [[ $subset -gt 0 ]]; then
  python3 - "$src" "$deps/fashion-mnist" "$subset" <<'PY'
import gzip, shutil, struct, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for stem, item in (("train-images-idx3-ubyte", 784), ("train-labels-idx1-ubyte", 1)):
    with gzip.open(f"{src}/{stem}.gz", "rb") as f:
        data = f.read()
    dims = data[3]
    shape = list(struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims]))
    n = min(n, shape[0])
    body = data[4 + 4 * dims:4 + 4 * dims + n * item]
    shape[0] = n
    with gzip.open(f"{dst}/{stem}.gz", "wb", compresslevel=9) as f:
        f.write(data[:4] + struct.pack(">" + "I" * dims, *shape) + body)
for stem in ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
    shutil.copy(f"{src}/{stem}.gz", f"{dst}/{stem}.gz")
print(f"fashion-mnist: first {n} training images, all 10000 test images")
PY
else
  cp "$src"/*.gz "$deps/fashion-mnist/"
fi

{
  echo "Parity .gpu-deps, prepared $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname) from branch $(git rev-parse --abbrev-ref HEAD) at $(git rev-parse --short HEAD)"
  echo "Debian packages copied from:"
  dpkg-query -W -f '  ${Package} ${Version}\n' nlohmann-json3-dev libcli11-dev libsqlite3-dev \
    libsqlite3-0 zlib1g-dev zlib1g libgloo-dev libgtest-dev dataset-fashion-mnist 2>/dev/null
  echo "glibc here: $(ldd --version | head -1)"
  echo "fashion-mnist training images: $([[ $subset -gt 0 ]] && echo "first $subset" || echo all 60000)"
  echo "sizes:"
  du -sh "$deps"/* | sed 's#'"$deps"'/#  #'
} > "$deps/MANIFEST.txt"

total=$(du -sb "$deps" | cut -f1)
tree=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
untracked=$(git ls-files -z --others --exclude-standard | xargs -0 -r du -cb 2>/dev/null | tail -1 | cut -f1)
untracked=${untracked:-0}
sum=$((total + tree + untracked))
echo "gpu_prepare: .gpu-deps is $((total / 1024)) KiB; with the tracked tree ($((tree / 1024)) KiB) and" \
     "untracked files ($((untracked / 1024)) KiB): $((sum / 1024)) KiB of the 65536 KiB a run may carry"
if ((sum > 64 * 1024 * 1024)); then
  fail "over the 64 MiB limit: rerun with --subset 30000"
fi
git check-ignore -q "$deps" || fail ".gpu-deps is not ignored by git; it would be committed by accident"
echo "gpu_prepare: ready. Next: the run call in scripts/device/README.md, with carry [\".gpu-deps\"]"
