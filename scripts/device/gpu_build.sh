#!/usr/bin/env bash
# Builds parity-cli and parity-worker on the GPU machine against the LibTorch inside its pip
# PyTorch (GUI off; the GoogleTest suites configured when GoogleTest can be had, built later by
# gpu_run.sh if time is left). Needs g++ (or clang++) and Python with torch; uses CMake >= 3.22 and
# Ninja (or make) when there, else compiles with the compiler directly.
#
# Usage: scripts/device/gpu_build.sh [BUILD_DIR]        (default: build-gpu)
# Env:   PYTHON (python3), CXX, JOBS (nproc), PARITY_CXX_STD=17|20 (default: from torch's version),
#        PARITY_GPU_TESTS=auto|off|build (build: GoogleTest from .gpu-deps even when the system has
#        one), PARITY_GPU_TORCH_MODE=direct|config (direct: -DPARITY_TORCH_DIR, no CUDA toolkit
#        needed; config: find_package(Torch) through torch.utils.cmake_prefix_path, needs nvcc).
#        For trying the script out: PARITY_GPU_BUILD_TARGETS (default "parity-cli parity-worker"),
#        PARITY_GPU_NO_CMAKE=1 (take the no-CMake path).
# Writes BUILD_DIR/gpu-build.env (what was detected and chosen; gpu_checks.sh reads it).
# Exit 0 when BUILD_DIR/bin/parity-cli and parity-worker exist.
# torch_* and nvidia_* come from the eval of the Python block; -Wl,a,b arguments hold commas.
# shellcheck disable=SC2154,SC2054
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
build=${1:-build-gpu}
[[ $build = /* ]] || build=$root/$build
deps=$root/.gpu-deps
py=${PYTHON:-python3}
jobs=${JOBS:-$(nproc)}
mkdir -p "$build"
envfile=$build/gpu-build.env
: > "$envfile"

say() { printf '[gpu_build %s] %s\n' "$(date +%T)" "$*"; }
record() { printf '%s=%q\n' "$1" "$2" >> "$envfile"; say "$1=$2"; }
die() { say "FAILED: $*"; record BUILD_OK 0; exit 1; }

# --- Python and torch ---------------------------------------------------------------------------
command -v "$py" >/dev/null || die "no $py"
scripts_dir=$("$py" -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null)
[[ -d $scripts_dir ]] && PATH=$PATH:$scripts_dir  # pip's cmake and ninja live there
eval "$("$py" - <<'PY'
import glob, os, shlex, sys
import torch
t = os.path.dirname(torch.__file__)
def out(k, v): print(f"{k}={shlex.quote(str(v))}")
out("torch_dir", t)
out("torch_version", torch.__version__)
v = torch.__version__.split("+")[0].split(".")
out("torch_major", v[0]); out("torch_minor", v[1])
out("torch_cuda", torch.version.cuda or "")
out("torch_abi", int(torch._C._GLIBCXX_USE_CXX11_ABI))
out("torch_cmake_prefix", torch.utils.cmake_prefix_path)
roots = [p for p in sys.path if p and os.path.isdir(os.path.join(p, "nvidia"))]
inc, lib = [], []
for r in roots:
    inc += sorted(glob.glob(os.path.join(r, "nvidia", "*", "include")))
    lib += sorted(glob.glob(os.path.join(r, "nvidia", "*", "lib")))
out("nvidia_inc", ";".join(dict.fromkeys(inc)))
out("nvidia_lib", ";".join(dict.fromkeys(lib)))
PY
)" || die "$py cannot import torch"
record TORCH_DIR "$torch_dir"
record TORCH_VERSION "$torch_version"
record TORCH_CUDA "$torch_cuda"
record TORCH_CXX11_ABI "$torch_abi"

# --- compiler, standard, tools ------------------------------------------------------------------
cxx=${CXX:-}
if [[ -z $cxx ]]; then
  for c in g++ c++ clang++; do command -v $c >/dev/null && { cxx=$c; break; }; done
fi
[[ -n $cxx ]] || die "no C++ compiler (g++/clang++); Parity cannot be built on this machine"
record CXX "$(command -v "$cxx")"
std=${PARITY_CXX_STD:-}
if [[ -z $std ]]; then
  # LibTorch 2.12 and later refuse C++17 (cmake/ParityTorch.cmake applies the same rule).
  if ((torch_major > 2 || (torch_major == 2 && torch_minor >= 12))); then std=20; else std=17; fi
fi

# CUDA headers and libraries: the pip nvidia-* packages torch depends on (their versions are the
# ones torch was built with) first; a CUDA toolkit's headers only after them, and its libraries
# only when there are no pip ones (two libcudart.so.12 of different minor versions must not meet).
IFS=';' read -r -a cuda_inc <<< "$nvidia_inc"
IFS=';' read -r -a cuda_lib <<< "$nvidia_lib"
toolkits=()
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
  [[ -n $d && -d $d ]] || continue
  d=$(readlink -f "$d")
  [[ " ${toolkits[*]} " == *" $d "* ]] || toolkits+=("$d")
done
for d in "${toolkits[@]}"; do
  [[ -d $d/include ]] && cuda_inc+=("$d/include")
  [[ -d $d/lib64 && -z $nvidia_lib ]] && cuda_lib+=("$d/lib64")
done

# --- GoogleTest: the system's when its ABI matches, else built from the carried sources (in the
# background, while the preflights run) -----------------------------------------------------------
tests=OFF
prefix_path="$deps"
gtest_pid=
if [[ ${PARITY_GPU_TESTS:-auto} != off ]]; then
  sys_gtest=
  for d in /usr/lib/x86_64-linux-gnu/cmake/GTest /usr/lib/cmake/GTest /usr/lib64/cmake/GTest /usr/local/lib/cmake/GTest; do
    [[ -f $d/GTestConfig.cmake ]] && sys_gtest=$d
  done
  if [[ -n $sys_gtest && $torch_abi == 1 && ${PARITY_GPU_TESTS:-auto} != build ]]; then
    tests=ON
  elif command -v cmake >/dev/null && [[ -f $deps/googletest/CMakeLists.txt ]]; then
    say "building GoogleTest from .gpu-deps (ABI $torch_abi) in the background"
    gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
    (
      cmake -S "$deps/googletest" -B "$build/gtest-build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_COMPILER="$(command -v "$cxx")" -DCMAKE_INSTALL_PREFIX="$build/gtest-prefix" \
        -DCMAKE_CXX_FLAGS="-D_GLIBCXX_USE_CXX11_ABI=$torch_abi" \
        -DBUILD_GMOCK=ON -DINSTALL_GTEST=ON &&
        cmake --build "$build/gtest-build" -j "$jobs" &&
        cmake --install "$build/gtest-build"
    ) > "$build/gtest.log" 2>&1 &
    gtest_pid=$!
  fi
fi

# --- preflight: which c10d headers compile with what this machine has --------------------------
pre=$build/preflight
mkdir -p "$pre"
torch_inc=(-isystem "$torch_dir/include" -isystem "$torch_dir/include/torch/csrc/api/include")
preflight() {  # NAME STD HEADER DEFINES... -- EXTRA_INCLUDE_DIRS...
  local name=$1 s=$2 header=$3; shift 3
  local defs=() incs=()
  while [[ $# -gt 0 && $1 != -- ]]; do defs+=("$1"); shift; done
  [[ ${1:-} == -- ]] && shift
  for d in "$@"; do incs+=(-idirafter "$d"); done
  printf '#include <%s>\nint main() { return 0; }\n' "$header" > "$pre/$name.cpp"
  "$cxx" -std=c++"$s" -fsyntax-only -D_GLIBCXX_USE_CXX11_ABI="$torch_abi" "${defs[@]}" \
    "${torch_inc[@]}" "${incs[@]}" "$pre/$name.cpp" > "$pre/$name.log" 2>&1
}
gloo_header=torch/csrc/distributed/c10d/ProcessGroupGloo.hpp
nccl_header=torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp
run_preflights() {
  preflight gloo "$std" $gloo_header -DUSE_C10D_GLOO & local p1=$!
  preflight gloo_carried "$std" $gloo_header -DUSE_C10D_GLOO -- "$deps/gloo-include" & local p2=$!
  local p3=
  if [[ -n $torch_cuda ]]; then
    preflight nccl "$std" $nccl_header -DUSE_C10D_NCCL -- "${cuda_inc[@]}" & p3=$!
  fi
  wait $p1; gloo_rc=$?
  wait $p2; gloo_carried_rc=$?
  nccl_rc=1
  [[ -n $p3 ]] && { wait "$p3"; nccl_rc=$?; }
}
say "preflight compiles (C++$std) of the c10d headers"
run_preflights
if ((gloo_rc != 0 && gloo_carried_rc != 0)) && grep -q "C++20 or later" "$pre"/gloo*.log; then
  std=20
  say "LibTorch wants C++20; preflight again"
  run_preflights
fi
record CXX_STD "$std"
torch_std=
[[ $std != 17 ]] && torch_std=$std  # only what includes LibTorch; the rest of Parity stays C++17
extra_inc=()
if ((gloo_rc == 0)); then
  gloo=ON
elif ((gloo_carried_rc == 0)); then
  gloo=ON
  extra_inc+=("$deps/gloo-include")
else
  gloo=OFF
  say "ProcessGroupGloo.hpp does not compile (CPU runs keep W=1): $(grep -m1 error "$pre/gloo_carried.log")"
fi
record GLOO "$gloo"
if [[ -n $torch_cuda ]]; then
  if ((nccl_rc == 0)); then
    nccl=ON
    extra_inc+=("${cuda_inc[@]}")
  else
    nccl=OFF
    say "ProcessGroupNCCL.hpp does not compile (CUDA runs keep W=1): $(grep -m1 error "$pre/nccl.log")"
  fi
else
  nccl=OFF
fi
record NCCL "$nccl"
record EXTRA_INCLUDE_DIRS "$(IFS=';'; echo "${extra_inc[*]}")"

# --- SQLite and zlib: the system's, else the carried headers with a runtime library found here ---
find_so() {  # NAME...: first hit in the loader cache or the usual folders
  local n hit
  for n in "$@"; do
    hit=$(ldconfig -p 2>/dev/null | awk -v l="$n" '$1 == l {print $NF; exit}')
    [[ -z $hit ]] && hit=$(ls /usr/lib/x86_64-linux-gnu/"$n" /lib/x86_64-linux-gnu/"$n" /usr/lib64/"$n" \
                             /usr/lib/"$n" /usr/local/lib/"$n" "${CONDA_PREFIX:-/nonexistent}/lib/$n" 2>/dev/null | head -1)
    [[ -n $hit ]] && { echo "$hit"; return 0; }
  done
  return 1
}
dep_args=()
if [[ ! -f /usr/include/sqlite3.h && ! -f /usr/local/include/sqlite3.h ]]; then
  lib=$(find_so libsqlite3.so libsqlite3.so.0)
  if [[ -z $lib ]]; then
    mod=$("$py" -c 'import _sqlite3; print(_sqlite3.__file__)' 2>/dev/null)
    [[ -n $mod ]] && lib=$(ldd "$mod" 2>/dev/null | awk '/libsqlite3/ {print $3; exit}')
  fi
  [[ -z $lib ]] && lib=$deps/sqlite/lib/libsqlite3.so.0
  dep_args+=(-DSQLite3_INCLUDE_DIR="$deps/sqlite/include" -DSQLite3_LIBRARY="$lib")
  record SQLITE "carried header, library $lib"
else
  record SQLITE system
fi
if [[ ! -f /usr/include/zlib.h && ! -f /usr/local/include/zlib.h ]]; then
  lib=$(find_so libz.so libz.so.1)
  [[ -z $lib ]] && lib=$deps/zlib/lib/libz.so.1
  dep_args+=(-DZLIB_INCLUDE_DIR="$deps/zlib/include" -DZLIB_LIBRARY="$lib")
  record ZLIB "carried header, library $lib"
else
  record ZLIB system
fi


if [[ -n $gtest_pid ]]; then
  if wait "$gtest_pid"; then
    tests=ON
    prefix_path="$deps;$build/gtest-prefix"
  else
    say "GoogleTest did not build (tail of $build/gtest.log):"; tail -5 "$build/gtest.log"
  fi
fi
record TESTS "$tests"

# --- configure and build ------------------------------------------------------------------------
cmake_ok=0
if command -v cmake >/dev/null && [[ -z ${PARITY_GPU_NO_CMAKE:-} ]]; then
  v=$(cmake --version | awk 'NR==1{print $3}')
  if [[ $(printf '%s\n3.22\n' "$v" | sort -V | head -1) == 3.22 ]]; then cmake_ok=1; fi
  record CMAKE_VERSION "$v"
fi
bin=$build/bin
record BIN "$bin"
if ((cmake_ok)); then
  if command -v ninja >/dev/null; then gen=(-G Ninja); else gen=(-G "Unix Makefiles"); fi
  mode=${PARITY_GPU_TORCH_MODE:-direct}
  torch_args=(-DPARITY_TORCH_DIR="$torch_dir")
  [[ $mode == config ]] && torch_args=(-DPARITY_TORCH_DIR= -DCMAKE_PREFIX_PATH="$torch_cmake_prefix;$prefix_path")
  record TORCH_MODE "$mode"
  configure() {
    cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_COMPILER="$(command -v "$cxx")" -DPARITY_TORCH_CXX_STANDARD="$torch_std" \
      -DPARITY_BUILD_GUI=OFF -DPARITY_BUILD_BENCH=OFF -DPARITY_BUILD_TESTS="$tests" \
      -DCMAKE_PREFIX_PATH="$prefix_path" "${torch_args[@]}" \
      -DPARITY_TORCH_CXX11_ABI="$torch_abi" -DPARITY_GLOO="$gloo" -DPARITY_NCCL="$nccl" \
      -DPARITY_EXTRA_INCLUDE_DIRS="$(IFS=';'; echo "${extra_inc[*]}")" \
      -DPARITY_CUDA_LIBRARY_DIRS="$(IFS=';'; echo "${cuda_lib[*]}")" "${dep_args[@]}"
  }
  say "configure (${gen[*]}, torch $mode)"
  if ! configure > "$build/configure.log" 2>&1; then
    tail -30 "$build/configure.log"
    if [[ $mode == direct && -n $(command -v nvcc) ]]; then
      say "direct configure failed; trying find_package(Torch)"
      mode=config
      torch_args=(-DPARITY_TORCH_DIR= -DCMAKE_PREFIX_PATH="$torch_cmake_prefix;$prefix_path")
      record TORCH_MODE config
      configure > "$build/configure.log" 2>&1 || { tail -30 "$build/configure.log"; die "configure"; }
    else
      die "configure"
    fi
  fi
  grep -E "LibTorch|Parity CUDA|C\+\+20" "$build/configure.log"
  read -r -a targets <<< "${PARITY_GPU_BUILD_TARGETS:-parity-cli parity-worker}"
  say "build ${targets[*]} (-j$jobs)"
  if ! cmake --build "$build" -j "$jobs" --target "${targets[@]}" > "$build/build.log" 2>&1; then
    grep -E -m 20 "error|undefined reference" "$build/build.log"
    tail -20 "$build/build.log"
    die "build"
  fi
else
  # No CMake >= 3.22: the same sources and definitions, compiled directly.
  say "no CMake >= 3.22: compiling with $cxx directly"
  obj=$build/obj
  mkdir -p "$obj" "$bin"
  defs=(-DUSE_DISTRIBUTED -D_GLIBCXX_USE_CXX11_ABI="$torch_abi")
  [[ $gloo == ON ]] && defs+=(-DUSE_C10D_GLOO) || defs+=(-DPARITY_NO_GLOO)
  core_defs=()
  if [[ -n $torch_cuda ]]; then
    defs+=(-DPARITY_WITH_CUDA); core_defs+=(-DPARITY_WITH_CUDA)
    [[ $nccl == ON ]] && defs+=(-DPARITY_WITH_NCCL -DUSE_C10D_NCCL)
  fi
  incs=(-I"$root/storage/include" -I"$root/engine/include" -isystem "$deps/include")
  [[ -f /usr/include/sqlite3.h ]] || incs+=(-isystem "$deps/sqlite/include")
  [[ -f /usr/include/zlib.h ]] || incs+=(-isystem "$deps/zlib/include")
  for d in "${extra_inc[@]}"; do incs+=(-idirafter "$d"); done
  flags=(-O2 -pthread)
  compile() {  # SOURCE: writes obj/<path>.o
    local o=$obj/${1//\//_}.o extra=()
    case $1 in
      engine/src/torch/*|app/worker/*) extra=(-std=c++"$std" "${defs[@]}" "${torch_inc[@]}") ;;
      engine/src/core/*) extra=(-std=c++17 "${core_defs[@]}") ;;
      *) extra=(-std=c++17) ;;
    esac
    "$cxx" "${flags[@]}" "${incs[@]}" "${extra[@]}" -D_GLIBCXX_USE_CXX11_ABI="$torch_abi" \
      -c "$root/$1" -o "$o" || { echo "FAILED $1"; return 1; }
  }
  export -f compile
  export obj root cxx torch_abi std
  sources=(storage/src/*.cpp engine/src/core/*.cpp engine/src/torch/*.cpp app/cli/*.cpp app/worker/main.cpp)
  fails=0
  for s in "${sources[@]}"; do echo "$s"; done |
    xargs -P "$jobs" -I{} bash -c "$(declare -p flags incs defs core_defs torch_inc); compile {}" \
      > "$build/build.log" 2>&1 || fails=1
  ((fails == 0)) || { grep -m 20 -E "error|FAILED" "$build/build.log"; die "direct compile"; }
  o() { local f; for f in "$@"; do echo "$obj/${f//\//_}.o"; done; }
  sqlite=$(find_so libsqlite3.so libsqlite3.so.0 || echo "$deps/sqlite/lib/libsqlite3.so.0")
  zlib=$(find_so libz.so libz.so.1 || echo "$deps/zlib/lib/libz.so.1")
  mapfile -t core < <(o engine/src/core/*.cpp)
  mapfile -t store < <(o storage/src/*.cpp)
  mapfile -t cli < <(o app/cli/*.cpp)
  mapfile -t tor < <(o engine/src/torch/*.cpp)
  "$cxx" -pthread -o "$bin/parity-cli" "${cli[@]}" "${core[@]}" "${store[@]}" "$sqlite" \
    -Wl,-rpath,"$(dirname "$sqlite")" >> "$build/build.log" 2>&1 || die "link parity-cli"
  tl=(-L"$torch_dir/lib" -Wl,-rpath,"$torch_dir/lib" -Wl,--no-as-needed -ltorch -ltorch_cpu -lc10)
  [[ -n $torch_cuda ]] && tl+=(-ltorch_cuda -lc10_cuda)
  for d in "${cuda_lib[@]}"; do tl+=(-Wl,-rpath-link,"$d"); done
  if [[ $nccl == ON ]]; then
    for d in "${cuda_lib[@]}"; do
      for l in "$d"/libcudart.so.1[0-9] "$d"/libnccl.so.2; do [[ -f $l ]] && tl+=("$l"); done
    done
  fi
  "$cxx" -pthread -o "$bin/parity-worker" "$(o app/worker/main.cpp)" "${tor[@]}" "${core[@]}" \
    "${tl[@]}" "$zlib" >> "$build/build.log" 2>&1 || { tail -20 "$build/build.log"; die "link parity-worker"; }
fi

[[ -x $bin/parity-cli && -x $bin/parity-worker ]] || die "no parity-cli/parity-worker in $bin"
ldd "$bin/parity-worker" | grep -E "torch|c10|not found|cudart|nccl" | sed 's/^/  /'
record BUILD_OK 1
say "built $bin/parity-cli and $bin/parity-worker"
