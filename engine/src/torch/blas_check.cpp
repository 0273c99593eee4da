#include <parity/engine/blas_check.h>

#include <torch/torch.h>

#include <chrono>
#include <cstdio>

namespace parity::engine {

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
  r.slow = r.gflops < kSlowGflops;
  if (r.slow) {
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "BLAS is slow: %.1f GFLOP/s on a 256x256 GEMM (expected > %.0f). LibTorch is "
                  "probably on the reference BLAS; install OpenBLAS (scripts/install-deps.sh, "
                  "package libopenblas0-pthread) — training will be ~20x slower until then",
                  r.gflops, kSlowGflops);
    r.message = buf;
  }
  return r;
}

}  // namespace parity::engine
