#pragma once
/// Start-up check of the BLAS LibTorch runs on: Debian's LibTorch links libblas.so.3, which is the
/// ~50x slower reference BLAS unless OpenBLAS is installed and selected.

#include <string>

namespace parity::train {

struct BlasCheck {
  double gflops = 0;       ///< measured on a small float GEMM with the current intra-op threads
  std::string library;     ///< the libblas.so.3 mapped into this process ("" if none is)
  bool reference = false;  ///< that library is the reference BLAS (Debian's blas/ folder)
  bool slow = false;       ///< reference BLAS, or a GEMM below kSlowGflops
  std::string message;     ///< empty when fine; otherwise what is wrong and how to fix it
};

/// OpenBLAS does > 30 GFLOP/s on one core here and the reference BLAS ~3; a busy machine can halve
/// OpenBLAS, so the time alone only flags the hopeless case.
inline constexpr double kSlowGflops = 4.0;

/// Looks up which libblas.so.3 the process mapped and times a 256x256 float GEMM for a few
/// milliseconds. Cheap enough to run at every start.
BlasCheck check_blas();

}  // namespace parity::train
