#pragma once
/// Start-up check of the BLAS LibTorch runs on: Debian's LibTorch links libblas.so.3, which is the
/// ~50x slower reference BLAS unless OpenBLAS is installed and selected.

#include <string>

namespace parity::engine {

struct BlasCheck {
  double gflops = 0;     ///< measured on a small float GEMM with the current intra-op threads
  bool slow = false;     ///< below kSlowGflops
  std::string message;   ///< empty when fine; otherwise what is wrong and how to fix it
};

inline constexpr double kSlowGflops = 8.0;

/// Times a 256x256 float GEMM for a few milliseconds. Cheap enough to run at every start.
BlasCheck check_blas();

}  // namespace parity::engine
