#!/usr/bin/env bash
# Prints what this machine has for building and running Parity on a GPU: GPU and driver,
# compilers, CMake and Ninja, SQLite and zlib, Python with PyTorch (version, CUDA, ABI, NCCL,
# where its CMake files, headers and libraries are), Accelerate, header-only libraries, and the
# CUDA headers a pip PyTorch's NCCL header needs. Read-only and quick (< 30 s); every missing piece
# is printed as "no ...", never an error. Usage: scripts/device/gpu_probe.sh [PYTHON]
set -u
py=${1:-${PYTHON:-python3}}
deps=$(cd "$(dirname "$0")/../.." && pwd)/.gpu-deps

section() { printf '\n== %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
first_line() { "$@" 2>&1 | head -1; }

section "machine"
uname -srm
[[ -r /etc/os-release ]] && . /etc/os-release && echo "os: ${PRETTY_NAME:-?}"
echo "glibc: $(ldd --version 2>/dev/null | head -1)"
echo "cpus: $(nproc) ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'))"
grep -o -m1 -w 'amx_bf16\|avx512_bf16' /proc/cpuinfo | sort -u | tr '\n' ' ' | sed 's/^/cpu bf16 flags: /;$a\'
echo "memory: $(free -g 2>/dev/null | awk '/Mem:/{print $2" GiB"}')"
echo "disk here: $(df -h . 2>/dev/null | awk 'NR==2{print $4" free"}')"
echo "user: $(id -un 2>/dev/null)"

section "gpu"
if have nvidia-smi; then
  timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv 2>&1
  timeout 20 nvidia-smi 2>&1 | head -15
else
  echo "no nvidia-smi"
fi
ls /dev/nvidia* 2>/dev/null | tr '\n' ' ' | sed 's/^/devices: /;$a\' || true
echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-<unset>}"

section "compilers and build tools"
for c in g++ c++ clang++; do
  if have "$c"; then echo "$c: $(first_line "$c" --version) ($(command -v "$c"))"; else echo "no $c"; fi
done
for t in cmake ninja make nvcc; do
  if have "$t"; then echo "$t: $(first_line "$t" --version) ($(command -v "$t"))"; else echo "no $t"; fi
done
seen=
for d in "${CUDA_HOME:-}" /usr/local/cuda; do
  [[ -n $d && -d $d ]] || continue
  d=$(readlink -f "$d")
  [[ $seen == *"|$d|"* ]] && continue
  seen="$seen|$d|"
  echo "CUDA toolkit folder: $d ($(ls "$d"/include/cuda_runtime_api.h "$d"/include/nccl.h 2>/dev/null | tr '\n' ' '))"
done

section "libraries (headers and .so)"
for h in sqlite3.h zlib.h nlohmann/json.hpp CLI/CLI.hpp gtest/gtest.h gloo/algorithm.h nccl.h; do
  found=$(ls /usr/include/$h /usr/local/include/$h 2>/dev/null | head -1)
  echo "$h: ${found:-no}"
done
for l in libsqlite3.so libsqlite3.so.0 libz.so libz.so.1 libgtest.a libgtest.so libnccl.so.2; do
  found=$(ldconfig -p 2>/dev/null | awk -v l="$l" '$1 == l {print $NF; exit}')
  [[ -z $found ]] && found=$(ls /usr/lib/x86_64-linux-gnu/$l /usr/lib64/$l /usr/lib/$l /usr/local/lib/$l 2>/dev/null | head -1)
  echo "$l: ${found:-no}"
done
for c in GTest nlohmann_json CLI11; do
  found=$(ls -d /usr/lib/x86_64-linux-gnu/cmake/$c /usr/lib/cmake/$c /usr/share/cmake/$c /usr/local/lib/cmake/$c 2>/dev/null | head -1)
  echo "CMake config $c: ${found:-no}"
done
if [[ -d $deps ]]; then
  echo ".gpu-deps (carried): $(du -sh "$deps" 2>/dev/null | cut -f1): $(ls "$deps" | tr '\n' ' ')"
else
  echo "no .gpu-deps (run scripts/device/gpu_prepare.sh on the CPU machine and carry it)"
fi

section "python, torch, accelerate"
if ! have "$py"; then
  echo "no $py"
  exit 0
fi
echo "$py: $(first_line "$py" --version) ($(command -v "$py"))"
timeout 60 "$py" - <<'PY' 2>&1
import glob, importlib, os, sys, sysconfig
print("python prefix:", sys.prefix)
try:
    import torch
except Exception as e:  # noqa: BLE001
    print("no torch:", e)
    sys.exit(0)
tdir = os.path.dirname(torch.__file__)
print("torch", torch.__version__, "at", tdir)
print("torch.version.cuda:", torch.version.cuda)
print("torch.utils.cmake_prefix_path:", torch.utils.cmake_prefix_path)
print("torch._C._GLIBCXX_USE_CXX11_ABI:", torch._C._GLIBCXX_USE_CXX11_ABI)
print("torch.cuda.is_available():", torch.cuda.is_available(), "devices:", torch.cuda.device_count())
if torch.cuda.is_available():
    print("device 0:", torch.cuda.get_device_name(0), torch.cuda.get_device_capability(0))
    print("bf16 supported:", torch.cuda.is_bf16_supported())
try:
    print("torch.cuda.nccl.version():", torch.cuda.nccl.version())
except Exception as e:  # noqa: BLE001
    print("no NCCL in torch:", e)
import torch.distributed as dist
print("distributed: available", dist.is_available(), "gloo", dist.is_gloo_available() if dist.is_available() else "-",
      "nccl", dist.is_nccl_available() if dist.is_available() else "-")
print("matmul allow_tf32:", torch.backends.cuda.matmul.allow_tf32, "cudnn allow_tf32:", torch.backends.cudnn.allow_tf32)
print("cudnn:", torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else "no")
print("torch lib:", " ".join(sorted(os.path.basename(p) for p in glob.glob(tdir + "/lib/lib*.so*")))[:900])
inc = tdir + "/include"
for h in ("torch/torch.h", "torch/version.h", "gloo/algorithm.h", "nccl.h", "cuda_runtime_api.h",
          "torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp", "torch/csrc/distributed/c10d/ProcessGroupGloo.hpp"):
    p = os.path.join(inc, h) if not h.startswith("torch/torch.h") else os.path.join(inc, "torch/csrc/api/include", h)
    if h == "torch/version.h":
        p = os.path.join(inc, "torch/csrc/api/include/torch/version.h")
    print(f"  {h} in torch/include: {'yes' if os.path.exists(p) else 'no'}")
print("TorchConfig.cmake:", glob.glob(torch.utils.cmake_prefix_path + "/Torch/TorchConfig.cmake") or "no")
roots = [p for p in sys.path if p and os.path.isdir(os.path.join(p, "nvidia"))]
for r in roots:
    for d in sorted(glob.glob(os.path.join(r, "nvidia", "*"))):
        hs = sorted(os.path.basename(h) for h in glob.glob(d + "/include/*.h"))
        libs = sorted(os.path.basename(l) for l in glob.glob(d + "/lib/lib*.so*"))
        keep = [h for h in hs if h in ("cuda_runtime_api.h", "cuda.h", "nccl.h", "cublas_v2.h", "cublasLt.h",
                                       "cusparse.h", "cusolverDn.h", "curand.h", "cufft.h", "cudnn.h")]
        print(f"  pip {os.path.relpath(d, r)}: headers {keep or (str(len(hs)) + ' .h')} libs {libs[:4]}")
if not roots:
    print("no pip nvidia-* packages on sys.path")
for name in ("accelerate", "numpy", "cmake", "ninja"):
    try:
        m = importlib.import_module(name)
        print(name, getattr(m, "__version__", "?"))
    except Exception as e:  # noqa: BLE001
        print("no", name, f"({type(e).__name__})")
try:
    import _sqlite3
    print("python _sqlite3:", _sqlite3.__file__)
except Exception as e:  # noqa: BLE001
    print("no python _sqlite3:", e)
PY
exit 0
