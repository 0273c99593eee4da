#include <parity/train/blas_check.h>
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

namespace parity::train {

namespace {

// The path of the libblas.so.3 in /proc/self/maps (LibTorch has run a GEMM by then).
std::string mapped_blas() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const auto at = line.find('/');
    if (at != std::string::npos && line.find("libblas.so", at) != std::string::npos) {
      return line.substr(at);
    }
  }
  return "";
}

}  // namespace

BlasCheck check_blas() {
  constexpr int64_t n = 256;
  auto a = torch::ones({n, n});
  auto b = torch::ones({n, n});
  auto c = torch::mm(a, b);  // warm-up
  using clock = std::chrono::steady_clock;
  int reps = 0;
  const auto start = clock::now();
  double elapsed = 0;
  // At least 3 products and ~20 ms, so the figure is not one timer tick.
  while (reps < 3 || elapsed < 0.02) {
    c = torch::mm(a, b);
    ++reps;
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
    if (elapsed > 0.5) break;
  }
  BlasCheck r;
  r.gflops = 2.0 * n * n * n * reps / elapsed / 1e9;
  r.library = mapped_blas();
  // Debian's reference BLAS lives in .../blas/libblas.so.3; OpenBLAS in .../openblas-*/.
  r.reference = r.library.find("/blas/libblas.so") != std::string::npos;
  r.slow = r.reference || r.gflops < kSlowGflops;
  if (r.slow) {
    char buf[600];
    std::snprintf(buf, sizeof buf,
                  "BLAS is slow: %.1f GFLOP/s on a 256x256 GEMM%s%s. Install OpenBLAS "
                  "(scripts/install-deps.sh, or apt-get install libopenblas0-pthread) — training "
                  "is ~20x slower until then",
                  r.gflops, r.reference ? " with the reference BLAS " : "",
                  r.reference ? r.library.c_str() : "");
    r.message = buf;
  }
  return r;
}

}  // namespace parity::train
